"""The audit's fast validation path of ``mahjong-log/1``: the models of :mod:`mahjong_audit.schemas.log`,
decoded by msgspec into frozen Structs derived from them.

The pydantic models stay the schema and the fallback (``mahjong-audit schema``, error messages,
the report, importers): a record this path does not accept goes through them, which give the
error message, so verdicts and messages never depend on the path. Building about 150 objects
per hand is most of the cost of validating a record, and pydantic-core cannot build them
cheaply enough (docs/performance.md has the figures); msgspec decodes and checks the JSON in
one pass into frozen Structs (~45 CPU µs per MCR hand), in less time than ``json.loads``
takes to build dicts.

The Structs are not declared here: :func:`mahjong_audit.schemas.fast_structs.derive` derives one
from each model (the same names, fields, types, bounds, tile names, aliases, defaults,
unknown fields rejected; an event's ``type`` is its class's tag), so the engine reads them
like the models. What a type cannot check runs after decoding, as the same code the models
run: ``started_at`` (:func:`mahjong_audit.schemas.instants.check_instant`), increasing ``seq``,
known ruleset and options, the seating (schemas/log_fast_checks.py); a win's recorded score
is the model :class:`mahjong_audit.schemas.log.RecordedScore` itself.

msgspec is stricter than the models' lax mode (``"0"`` or ``1.0`` for an int, ``1`` for a
bool, ``NaN`` and ``1e400`` as numbers, ``from_`` for ``from``: the models accept these,
msgspec does not). Anything this path does not accept returns None, and the caller then
validates with the models, which accept what they accept and give the error message. So a
record is accepted here only if the models accept it, with the same values, and the audit's
verdicts do not depend on which path read it. ``tests/test_log_fast.py`` checks both: the
fields of each Struct against its model; on valid and invalid variants, raw-JSON oddities
and random changes of valid games, that what this path accepts the models accept with the
same values field by field; and the same audits and rows from both paths.

``MAHJONG_AUDIT_MODELS=1`` (:data:`~mahjong_audit.schemas.fast_structs.MODELS_ENV`) turns the
path off: :func:`parse_game_json` then declines every record and the models validate all
(:data:`IMPLEMENTATION` says which); :func:`decode_game` is the path itself, whatever the switch.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec
from pydantic import BaseModel

from mahjong_audit.schemas import log as L
from mahjong_audit.schemas.fast_structs import TILE, derive, models_only
from mahjong_audit.schemas.instants import check_instant
from mahjong_audit.schemas.log import FORMAT, RecordedScore
from mahjong_audit.schemas.log_fast_checks import (
    hands_ok,
    instant_ok,
    nested_within,
    options_ok,
    plain_score,
    players_ok,
)

_STRUCTS = derive(
    L.Game, module=__name__,
    validators={L._check_tile: TILE, check_instant: str},
    # checked after decoding (parse_game_json), by the models' own code
    after={check_instant, L.Hand._seq_increasing, L.Game._ruleset_and_options},
    keep={RecordedScore},  # the model itself: one per win, extra fields kept (see _decode_hook)
    # an event's seq as a plain int: its bound (ge=0) is implied by the check after decoding that a
    # hand's seqs increase from -1 (log_fast_checks.seq_increasing), and the bound costs msgspec ~50
    # instructions an event (an MCR hand has ~144)
    narrow={(event, "seq"): (int, ...) for event in typing.get_args(typing.get_args(L.Event)[0])},
)

if TYPE_CHECKING:  # the Structs have the models' attributes
    from mahjong_audit.schemas.log import (
        AddedKong,
        Chi,
        Claim,
        ConcealedKong,
        Discard,
        Draw,
        Flower,
        Game,
        Hand,
        Kong,
        Outcome,
        Penalty,
        Pon,
        Ready,
        Win,
        WinRecord,
    )
else:  # bound under their names here, where they pickle from
    (Claim, Draw, Flower, Discard, Chi, Pon, Kong, ConcealedKong, AddedKong, Ready, Win, WinRecord, Penalty,
     Outcome, Hand, Game) = (_STRUCTS[getattr(L, name)] for name in (
        "Claim", "Draw", "Flower", "Discard", "Chi", "Pon", "Kong", "ConcealedKong", "AddedKong", "Ready", "Win",
        "WinRecord", "Penalty", "Outcome", "Hand", "Game"))

#: every Struct here; each has the model of the same name in mahjong_audit.schemas.log (the tests compare them)
CLASSES: tuple[type, ...] = tuple(_STRUCTS.values())


def _model_defaults(model: type[BaseModel]) -> dict[str, Any]:
    """The fields of ``model`` with their defaults, in the model's order: what
    ``model_construct`` starts from. Only plain defaults (no factory, no alias, no
    post-init), as :func:`_constructed` assumes; anything else is an error at import."""
    if model.__pydantic_post_init__ or model.__pydantic_root_model__ or model.model_config.get("extra") != "allow":
        raise TypeError(f"{model.__name__}: not a plain model with extra fields allowed")
    defaults = {}
    for name, info in model.model_fields.items():
        if info.is_required() or info.default_factory is not None or info.alias or info.validation_alias:
            raise TypeError(f"{model.__name__}.{name}: not a field with a plain default")
        defaults[name] = info.default
    return defaults


def _slot_setter(model: type[BaseModel], name: str) -> Callable[[Any, Any], None]:
    """The setter of the attribute ``name`` of ``model``'s instances: the ``__set__`` of the
    descriptor that attribute look-up finds on the class (pydantic's slots: ``__dict__``,
    ``__pydantic_fields_set__``, ...), bound once. A frozen model's own ``__setattr__``
    refuses, and ``object.__setattr__`` looks the descriptor up again on every call (a win's
    score built with these setters: ~2,000 instructions less, of ~9,500)."""
    return next(vars(k)[name] for k in model.__mro__ if name in vars(k)).__set__


_SCORE_DEFAULTS = _model_defaults(RecordedScore)
_new = object.__new__
_set_dict, _set_fields_set, _set_extra, _set_private = (_slot_setter(RecordedScore, name) for name in (
    "__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))


def _constructed(value: dict[str, Any]) -> RecordedScore:
    """``RecordedScore.model_construct(**value)`` for a value of the model's fields only
    (:func:`~mahjong_audit.schemas.log_fast_checks.plain_score`), the same object built
    directly: its fields in the model's order (the defaults, then the values given), the names given as its fields set, no extra
    fields, no private attributes. pydantic's own ``model_construct`` looks at every field's
    aliases and defaults on each call (about half the time of validating a win's record)."""
    m = _new(RecordedScore)
    _set_dict(m, {**_SCORE_DEFAULTS, **value})
    _set_fields_set(m, set(value))
    _set_extra(m, {})
    _set_private(m, None)
    return m


def _decode_hook(cls: type, value: Any) -> Any:
    """A recorded score (a JSON object, decoded as plain values) through its own model:
    built at once when it holds only what the model keeps unchanged
    (:func:`~mahjong_audit.schemas.log_fast_checks.plain_score`, nested three deep at most),
    else validated by it."""
    if cls is RecordedScore:
        if plain_score(value):
            return _constructed(value)
        if not nested_within(value):
            raise ValueError("nested too deeply")  # msgspec rejects: the models decide
        return RecordedScore.model_validate(value)  # a ValidationError is a ValueError: msgspec rejects
    raise NotImplementedError(cls)


_DECODER = msgspec.json.Decoder(Game, dec_hook=_decode_hook)


def decode_game(text: str | bytes) -> Game | None:
    """The game of one JSON document if the models would accept it, else None (then
    validate with :class:`mahjong_audit.schemas.log.Game` for the error). The fast path
    itself, whatever :data:`~mahjong_audit.schemas.fast_structs.MODELS_ENV` says."""
    try:
        game = _DECODER.decode(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors, as is a str it cannot encode
        return None
    if game.format != FORMAT or not instant_ok(game.started_at) or not hands_ok(game):
        return None
    if not (nested_within(game.options) and nested_within(game.meta)):
        return None
    if not options_ok(game.ruleset, game.options) or not players_ok(game):
        return None
    return game


def _declined(text: str | bytes) -> Game | None:
    """Every record to the models (``MAHJONG_AUDIT_MODELS``)."""
    return None


#: the audit's validation path in this process: ``msgspec``, or ``pydantic models`` alone
IMPLEMENTATION = "pydantic models" if models_only() else "msgspec"
#: what the audit calls (pipeline/read.py): :func:`decode_game`, or nothing under ``MAHJONG_AUDIT_MODELS``
parse_game_json = _declined if models_only() else decode_game

__all__ = ["CLASSES", "IMPLEMENTATION", "Game", "decode_game", "parse_game_json"]
