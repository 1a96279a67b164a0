"""The fast validation path of ``mahjong-log/1`` without msgspec (see :mod:`mahjong_audit.schemas.log_fast`):
the same shape as :mod:`mahjong_audit.schemas.log`, built by pydantic-core as frozen slotted dataclasses.

The pydantic models in :mod:`mahjong_audit.schemas.log` stay the schema (``mahjong-audit schema``, error
messages, the report, importers). Building about 150 frozen model instances per hand
costs more than parsing the JSON, so the audit validates a record here first: pydantic-core
checks every field exactly as the models do (same types, bounds, tile names, aliases,
``extra="forbid"``) and builds plain frozen dataclasses with the same attribute names,
which the engine reads like the models. The two model validators (increasing ``seq``,
known ruleset and options) run as the same checks in :func:`parse_game_json`.

Anything this path does not accept (every invalid record, and anything it is unsure of)
returns None: the caller then validates with the models, which give the error message.
So a record is accepted here only if the models accept it, and the audit's verdicts do
not depend on which path read it. ``tests/test_log_fast_core.py`` checks both: the fields of
each class against its model, and the same audits from both paths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from mahjong_audit.engine import tiles as T
from mahjong_audit.schemas import log
from mahjong_audit.schemas.log import FORMAT, Instant, RecordedScore
from mahjong_audit.schemas.log_fast_checks import options_ok, players_ok, seq_increasing

if TYPE_CHECKING:  # a Literal built at run time is no type to the checker
    Tile = str
else:
    Tile = Literal[tuple(T.name(t) for t in range(T.N_TILES))]  # checked in Rust: the canonical names
Seat = Annotated[int, Field(ge=0, le=3)]
Seq = Annotated[int, Field(ge=0)]
Wind = Literal["E", "S", "W", "N"]
_CONFIG = ConfigDict(extra="forbid", populate_by_name=True)


_Item = TypeVar("_Item")
_Four = Annotated[list[_Item], Field(min_length=4, max_length=4)]  # one per seat
_FourOrFive = Annotated[list[_Item], Field(min_length=4, max_length=5)]  # one per player (龙港: five)


def _fast(cls: type) -> type:
    """A frozen slotted dataclass validated with the models' configuration."""
    cls.__pydantic_config__ = _CONFIG  # type: ignore[attr-defined]
    return dataclass(frozen=True, slots=True)(cls)


@_fast
class Claim:
    seat: Seat
    call: Literal["chi", "pon", "kong", "win"]


@_fast
class Draw:
    seq: Seq
    seat: Seat
    type: Literal["draw"]
    tile: Tile
    from_: Annotated[Literal["live", "back"], Field(alias="from")] = "live"


@_fast
class Flower:
    seq: Seq
    seat: Seat
    type: Literal["flower"]
    tile: Tile


@_fast
class Discard:
    seq: Seq
    seat: Seat
    type: Literal["discard"]
    tile: Tile
    claims: list[Claim] | None = None


@_fast
class Chi:
    seq: Seq
    seat: Seat
    type: Literal["chi"]
    tile: Tile
    tiles: Annotated[list[Tile], Field(min_length=2, max_length=2)]
    from_: Annotated[Seat, Field(alias="from")]


@_fast
class Pon:
    seq: Seq
    seat: Seat
    type: Literal["pon"]
    tile: Tile
    from_: Annotated[Seat, Field(alias="from")]


@_fast
class Kong:
    seq: Seq
    seat: Seat
    type: Literal["kong"]
    tile: Tile
    from_: Annotated[Seat, Field(alias="from")]


@_fast
class ConcealedKong:
    seq: Seq
    seat: Seat
    type: Literal["concealed_kong"]
    tile: Tile


@_fast
class AddedKong:
    seq: Seq
    seat: Seat
    type: Literal["added_kong"]
    tile: Tile
    claims: list[Claim] | None = None


@_fast
class Ready:
    seq: Seq
    seat: Seat
    type: Literal["ready"]


@_fast
class Win:
    seq: Seq
    seat: Seat
    type: Literal["win"]
    tile: Tile
    from_: Annotated[Seat, Field(alias="from")]
    robbing_kong: bool = False


Event = Annotated[
    Draw | Flower | Discard | Chi | Pon | Kong | ConcealedKong | AddedKong | Ready | Win,
    Field(discriminator="type"),
]


@_fast
class WinRecord:
    seat: Seat
    from_: Annotated[Seat | None, Field(alias="from")] = None
    tile: Tile | None = None
    score: RecordedScore | None = None  # the model itself: one per win, extra fields kept


@_fast
class Penalty:
    seat: Seat
    kind: str
    deltas: _Four[int] | None = None


@_fast
class Outcome:
    result: Literal["win", "draw"]
    wins: list[WinRecord] = field(default_factory=list)
    deltas: _Four[int] | None = None
    out_delta: int | None = None
    penalties: list[Penalty] = field(default_factory=list)


@_fast
class Hand:
    hand_no: Annotated[int, Field(ge=0)]
    round_wind: Wind
    dealer: Seat
    deal: _Four[list[Tile]]
    events: list[Event]
    dice: list[int] | None = None
    wall: list[Tile] | None = None
    seat_walls: _Four[list[Tile]] | None = None
    wildcard_indicator: Tile | None = None
    outcome: Outcome | None = None
    seats: _Four[int] | None = None
    chips: list[int] | None = None
    started_at: Instant | None = None  # the models' own check (mahjong_audit.schemas.instants), in Python
    meta: dict[str, Any] | None = None


@_fast
class Game:
    format: Literal["mahjong-log/1"]
    game_id: Annotated[str, Field(min_length=1)]
    ruleset: str
    hands: list[Hand]
    platform: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    started_at: Instant | None = None
    players: _FourOrFive[str] | None = None
    initial_scores: _FourOrFive[int] | None = None
    final_scores: _FourOrFive[int] | None = None
    meta: dict[str, Any] | None = None

    def seating(self, hand: Hand) -> tuple[int, int, int, int]:
        return log.seating(hand)

    def standing_out(self, hand: Hand) -> tuple[int, ...]:
        return log.standing_out(self, hand)


#: every class here; each has the model of the same name in mahjong_audit.schemas.log (the tests compare them)
CLASSES = (Claim, Draw, Flower, Discard, Chi, Pon, Kong, ConcealedKong, AddedKong, Ready, Win, WinRecord,
           Penalty, Outcome, Hand, Game)


@cache
def _adapter() -> TypeAdapter:
    return TypeAdapter(Game)


def parse_game_json(text: str | bytes) -> Game | None:
    """The game of one JSON document if the models would accept it, else None (then
    validate with :class:`mahjong_audit.schemas.log.Game` for the error)."""
    try:
        game = _adapter().validate_json(text)
    except ValidationError:
        return None
    if game.format != FORMAT or not all(seq_increasing(h) for h in game.hands):
        return None
    if not options_ok(game.ruleset, game.options) or not players_ok(game):
        return None
    return game
