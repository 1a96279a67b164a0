"""The fastest path of a ``score`` line, when msgspec is installed: the shape of
:mod:`mahjong_audit.schemas.situation` decoded and checked by msgspec in one pass into frozen Structs.

The same contract as :mod:`mahjong_audit.schemas.situation_fast` (pydantic-core), which ``score`` uses
where msgspec is not installed: the same fields, strict types (no ``"1"`` for an int, no ``1`` for a bool, no float
``id``), tile names, winds, bounds, unknown keys rejected, then the models' meld shape check.
What this path accepts, the models accept with the same values; anything else gives None.
``options`` and ``ruleset_fields`` are free-form: msgspec keeps their JSON text and
``json.loads`` reads it, as the models' path reads the whole line, so their values (big
integers, ``1e400``) are the models' own; a text that is not an object goes to the models.
msgspec, like ``json.loads``, keeps the last of repeated keys; it refuses ``NaN`` and
invalid UTF-8, which then go to the models. ``tests/test_situation_msgspec.py`` compares
it with the models on every line of ``bench.score_identity`` and on tricky inputs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta, Raw, Struct, field

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.schemas.situation import meld_of, meld_shape_problem, win_situation

if TYPE_CHECKING:  # a Literal built at run time is no type to the checker
    Tile = str
else:
    Tile = Literal[tuple(T.name(t) for t in range(T.N_TILES))]
Wind = Literal["E", "S", "W", "N"]
_NO_OBJECT = Raw(b"{}")  # an absent options / ruleset_fields (the models' default: {})
_EMPTY: dict[str, Any] = {}


class Meld(Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    type: Literal["chi", "pon", "kong"]
    tiles: list[Tile] | None = None
    tile: Tile | None = None
    claimed: Tile | None = None
    from_: Annotated[int, Meta(ge=1, le=3)] | None = field(default=None, name="from")
    concealed: bool = False


class Situation(Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """:class:`mahjong_audit.schemas.situation.Situation`'s fields; ``options`` and ``ruleset_fields`` as JSON text."""

    concealed: list[Tile]
    win_tile: Tile
    id: str | int | None = None
    ruleset: str | None = None
    options: Raw = _NO_OBJECT
    melds: list[Meld] = []
    self_drawn: bool = False
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    flowers: list[Tile] = []
    last_tile: bool = False
    kong: bool = False
    last_copy: bool = False
    replacement: Literal["kong", "flower"] | None = None
    ruleset_fields: Raw = _NO_OBJECT


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


def read(line: str | bytes) -> Read | None:
    """The line, or None when this path does not accept it."""
    try:
        s = _DECODE(line)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors; nesting past its limit
        return None
    for m in s.melds:
        if meld_shape_problem(m.type, m.tiles, m.tile, m.claimed, m.from_, m.concealed) is not None:
            return None
    options, fields = _object(s.options), _object(s.ruleset_fields)
    if options is None or fields is None:
        return None
    return Read(s, options, fields)


def to_situation(r: Read, extra: tuple[tuple[str, object], ...]) -> WinSituation:
    """The engine's situation, as :meth:`mahjong_audit.schemas.situation.Situation.to_situation` builds it."""
    s = r.situation
    return win_situation(
        s.concealed, tuple(meld_of(m.type, m.tiles, m.tile, m.claimed, m.from_, m.concealed) for m in s.melds),
        s.win_tile, s.self_drawn, s.seat_wind, s.round_wind, s.flowers, s.last_tile, s.kong, s.last_copy,
        s.replacement, extra,
    )


__all__ = ["Meld", "Read", "Situation", "read", "to_situation"]
