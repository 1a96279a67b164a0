"""The checks the fast validation path (schemas/log_fast.py) runs after decoding: what the
models' validators check that no msgspec type can say, as plain functions over the decoded
Structs, which have the models' attribute names.

This module is compiled with the engine (mahjong_audit/accel.py, ``MODULES``) and runs from
its source when the engine does (``MAHJONG_AUDIT_PURE``, no build): the same code either way.
Compiled, the per-event loop of :func:`seq_increasing` costs ~230 instructions an event where
the interpreter takes ~400 (the ``seq`` read stays a generic attribute read: the events are a
dozen Struct classes, unknown to mypyc)."""

from __future__ import annotations

from functools import cache
from typing import Any

from mahjong_audit.schemas import log
from mahjong_audit.schemas.instants import check_instant

# pydantic-core's JSON parser refuses a document nested more than about 200 lists and
# objects deep (the models reject it as not valid JSON); msgspec reads deeper. The format's
# own shape nests about 10 deep, so only its free-form values (options, meta, a recorded
# score's fan entries and extra fields) can go deeper: one nested more than this is left
# to the models, which decide.
MAX_FREE_DEPTH = 150


def nested_within(value: Any, levels: int = MAX_FREE_DEPTH) -> bool:
    """True if ``value`` holds lists and dicts at most ``levels`` deep (itself included)."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return True
    return levels > 0 and all(nested_within(v, levels - 1) for v in items)


def seq_increasing(hand: Any) -> bool:
    """Every event's ``seq`` above the one before (the model's validator)."""
    prev = -1
    # a list, as msgspec decodes the hand's events: compiled, a loop over a list's items by index
    # (over an untyped value, a generic iterator call per event); a plain loop is faster than map or zip
    events: list[Any] = hand.events
    for ev in events:
        seq: int = ev.seq  # read once: an attribute of a Struct is a descriptor call
        if seq <= prev:
            return False
        prev = seq
    return True


def instant_ok(text: str | None) -> bool:
    """True for no instant or one :func:`~mahjong_audit.schemas.instants.check_instant` accepts."""
    if text is None:
        return True
    try:
        check_instant(text)
    except ValueError:
        return False
    return True


def hands_ok(game: Any) -> bool:
    """What the models check of each hand beyond the types, in one pass over the hands: the
    events' ``seq`` increasing, ``started_at`` an instant, ``meta`` nested within bounds."""
    for hand in game.hands:
        if not (seq_increasing(hand) and instant_ok(hand.started_at) and nested_within(hand.meta)):
            return False
    return True


#: the fields of a win's recorded score (the model keeps any other as an extra)
_SCORE_FIELDS = frozenset(log.RecordedScore.model_fields)


def plain_score(value: Any) -> bool:
    """True for a recorded score of the model's own fields only, each of the type the model
    keeps as it is (ints, ``fans`` a list of [str, int] or [str, int, int]): what
    ``RecordedScore.model_validate`` would accept unchanged (its ``_fans_shape`` included),
    so the model can be built without validating again. Anything else (an extra field, a
    float, a string for a number, ...) is left to the model. Exact types (``type(x) is``):
    a bool is no int here."""
    if type(value) is not dict or not _SCORE_FIELDS.issuperset(value):
        return False
    for name, v in value.items():  # the fields given, each looked at once
        if name != "fans":
            if type(v) is not int and v is not None:
                return False
        elif v is not None:
            if type(v) is not list:
                return False
            for entry in v:  # unpacked by its length: cheaper than a loop over its numbers
                if type(entry) is not list:
                    return False
                n = len(entry)
                if n == 3:
                    label, points, count = entry
                    if type(count) is not int:
                        return False
                elif n == 2:
                    label, points = entry
                else:
                    return False
                if type(label) is not str or type(points) is not int:
                    return False
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


__all__ = ["MAX_FREE_DEPTH", "hands_ok", "instant_ok", "nested_within", "options_ok", "plain_score", "players_ok", "seq_increasing"]
