"""The fast path of a ``score`` line: the models of :mod:`mahjong_audit.schemas.situation`, decoded and
checked by msgspec in one pass into frozen Structs derived from them.

The models stay the schema (docs, error codes and messages). Building them costs more per
line than the ruleset's checks, so the ``score`` command reads a line here first. The
Structs are derived from the models (:func:`mahjong_audit.schemas.fast_structs.derive`): the
same fields, strict types (no ``"1"`` for an int, no ``1`` for a bool), tile names, winds,
bounds, unknown keys rejected; then the models' meld shape check
(:func:`~mahjong_audit.engine.score_lines.meld_shape_problem`). Two fields are read narrower
than the models': ``id`` takes no float (a float ``id`` goes to the models), and ``options``
and ``ruleset_fields`` are free-form: msgspec keeps their JSON text and ``json.loads`` reads
it, as the models' path reads the whole line, so their values (big integers, ``1e400``) are
the models' own; a text that is not an object goes to the models. msgspec, like
``json.loads``, keeps the last of repeated keys; it refuses ``NaN`` and invalid UTF-8, which
then go to the models. What this path accepts, the models accept with the same values;
anything else gives None, and the command reads the line again with ``json.loads`` and the
models, which give the result or the error. ``tests/test_situation_fast.py`` compares it
with the models on every line of ``bench.score_identity`` and on tricky inputs.

``MAHJONG_AUDIT_MODELS=1`` turns the path off (:func:`read` declines every line);
:func:`decode_line` is the path itself, whatever the switch.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import Raw, Struct

from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.engine.score_lines import melds_shaped
from mahjong_audit.schemas import situation as S
from mahjong_audit.schemas.fast_structs import TILE, derive, models_only

_NO_OBJECT = Raw(b"{}")  # an absent options / ruleset_fields (the models' default: {})
_EMPTY: dict[str, Any] = {}

_STRUCTS = derive(
    S.Situation, module=__name__,
    validators={S._check_tile: TILE},
    after={S.MeldIn._shape},  # meld_shape_problem (score_lines.melds_shaped), in decode_line
    narrow={(S.Situation, "id"): (str | int | None, ...),
            (S.Situation, "options"): (Raw, _NO_OBJECT), (S.Situation, "ruleset_fields"): (Raw, _NO_OBJECT)},
)

if TYPE_CHECKING:
    Situation = Any
    MeldIn = Any
else:  # bound under their names here, where they pickle from
    Situation, MeldIn = _STRUCTS[S.Situation], _STRUCTS[S.MeldIn]

_DECODE = msgspec.json.Decoder(Situation).decode


def _object(raw: Raw) -> dict[str, Any] | None:
    """A free-form field's value, read by ``json.loads`` (None: not an object)."""
    if raw is _NO_OBJECT:
        return _EMPTY
    try:
        value = json.loads(bytes(raw))
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


class Read(Struct, frozen=True, gc=False):
    """A line this path accepts: the situation, its options and its ruleset fields."""

    situation: Situation
    options: dict[str, Any]
    fields: dict[str, Any]


def decode_line(line: str | bytes) -> Read | None:
    """The line, or None when this path does not accept it (whatever ``MAHJONG_AUDIT_MODELS`` says)."""
    try:
        s = _DECODE(line)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors; nesting past its limit
        return None
    if s.melds and not melds_shaped(s.melds):
        return None
    raw = s.options
    options = _EMPTY if raw is _NO_OBJECT else _object(raw)
    raw = s.ruleset_fields
    fields = _EMPTY if raw is _NO_OBJECT else _object(raw)
    if options is None or fields is None:
        return None
    return Read(s, options, fields)


def _declined(line: str | bytes) -> Read | None:
    """Every line to the models (``MAHJONG_AUDIT_MODELS``)."""
    return None


#: what ``score`` calls: :func:`decode_line`, or nothing under ``MAHJONG_AUDIT_MODELS``
read = _declined if models_only() else decode_line


def to_situation(r: Read, extra: tuple[tuple[str, object], ...]) -> WinSituation:
    """The engine's situation: the model's own :meth:`~mahjong_audit.schemas.situation.Situation.to_situation`,
    which the Struct has (given ``extra``, it never reads the Struct's raw ``ruleset_fields``)."""
    return r.situation.to_situation(extra)


__all__ = ["MeldIn", "Read", "Situation", "decode_line", "read", "to_situation"]
