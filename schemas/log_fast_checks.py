"""The checks the fast validation path (schemas/log_fast.py) runs after decoding: what the
models' validators check that no msgspec type can say, as plain functions over the decoded
Structs, which have the models' attribute names."""

from __future__ import annotations

from functools import cache
from typing import Any

from mahjong_audit.schemas import log


def seq_increasing(hand: Any) -> bool:
    """Every event's ``seq`` above the one before (the model's validator)."""
    prev = -1
    for ev in hand.events:  # a plain loop is faster here than map or zip
        seq = ev.seq  # read once: an attribute of a Struct is a descriptor call
        if seq <= prev:
            return False
        prev = seq
    return True


@cache
def _rulesets() -> tuple[dict, type[Exception]]:
    from mahjong_audit.engine.rulesets import (  # not at import: the engine imports schemas
        RULESETS,
        OptionError,
    )

    return RULESETS, OptionError


def options_ok(ruleset: str, options: dict[str, Any]) -> bool:
    """A known ruleset whose options parse (the model's validator)."""
    rulesets, option_error = _rulesets()
    if ruleset not in rulesets:
        return False
    try:
        rulesets[ruleset].parse_options(options)
    except option_error:
        return False
    return True


def players_ok(game: Any) -> bool:
    """The seating checks of :func:`mahjong_audit.schemas.log.check_players`."""
    try:
        log.check_players(game)
    except ValueError:
        return False
    return True


__all__ = ["options_ok", "players_ok", "seq_increasing"]
