"""The fast validation path of ``mahjong-log/1``: the same shape as :mod:`mahjong_audit.schemas.log`,
decoded by msgspec into frozen Structs.

The pydantic models in :mod:`mahjong_audit.schemas.log` stay the schema (``mahjong-audit schema``, error
messages, the report, importers). Building about 150 objects per hand is most of the cost
of validating a record, and pydantic-core cannot build them cheaply enough: validating a
hand into frozen dataclasses costs about 2.5 times parsing its JSON, into plain dicts still
1.7 times (docs/performance.md has the figures). msgspec decodes and checks the JSON in one
pass into frozen Structs, in less time than ``json.loads`` takes to build dicts. The audit
validates a record here first: msgspec checks every field as the models do (the same
types, bounds, tile names, aliases, unknown fields rejected) and builds Structs with the
same attribute names, which the engine reads like the models (an event's ``type`` is its
class's tag). What msgspec cannot check runs after, as the same code the models run:
``started_at`` (:func:`mahjong_audit.schemas.instants.check_instant`), increasing ``seq``, known ruleset
and options, the seating (:func:`mahjong_audit.schemas.log.check_players`); a win's recorded score is the
model :class:`mahjong_audit.schemas.log.RecordedScore` itself.

msgspec is stricter than the models' lax mode (``"0"`` or ``1.0`` for an int, ``1`` for a
bool, ``NaN`` and ``1e400`` as numbers, ``from_`` for ``from``: the models accept these,
msgspec does not). Anything this path does not accept returns None, and the caller then
validates with the models, which accept what they accept and give the error message. So a
record is accepted here only if the models accept it, with the same values, and the audit's
verdicts do not depend on which path read it. ``tests/test_log_fast_msgspec.py`` checks both: the
fields of each class against its model; on valid and invalid variants, raw-JSON oddities
and random changes of valid games, that what this path accepts the models accept with the
same values field by field; and the same audits and rows from both paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct, field

from mahjong_audit.engine import tiles as T
from mahjong_audit.schemas import log
from mahjong_audit.schemas.instants import check_instant
from mahjong_audit.schemas.log import FORMAT, RecordedScore
from mahjong_audit.schemas.log_fast_checks import options_ok, players_ok, seq_increasing

if TYPE_CHECKING:  # a Literal built at run time is no type to the checker
    Tile = str
else:
    Tile = Literal[tuple(T.name(t) for t in range(T.N_TILES))]  # the canonical names
Seat = Annotated[int, Meta(ge=0, le=3)]
Seq = Annotated[int, Meta(ge=0)]
Wind = Literal["E", "S", "W", "N"]

_Item = TypeVar("_Item")
_Four = Annotated[list[_Item], Meta(min_length=4, max_length=4)]  # one per seat
_FourOrFive = Annotated[list[_Item], Meta(min_length=4, max_length=5)]  # one per player (龙港: five)


class _Record(Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A field the format does not have is an error (the models' ``extra="forbid"``); every
    class says ``frozen=True`` again, for the type checker.

    ``gc=False``: the garbage collector does not track these objects (decoding is ~10 %
    faster). That is safe because they cannot be part of a reference cycle: they are
    immutable and hold only what the JSON held (numbers, strings, lists, dicts, other
    records), all made by the decoder, never an object made after them."""


class Claim(_Record, frozen=True):
    seat: Seat
    call: Literal["chi", "pon", "kong", "win"]


class _Event(_Record, frozen=True, tag_field="type"):
    """An event; its JSON ``type`` selects the class, and is the class's ``type``."""

    type: ClassVar[str]
    seq: Seq
    seat: Seat


_E = TypeVar("_E", bound=type[_Event])


def _typed(cls: _E) -> _E:
    """``cls.type``: the class's tag, as the models' ``type`` field holds it."""
    cls.type = str(cls.__struct_config__.tag)
    return cls


@_typed
class Draw(_Event, tag="draw", frozen=True):
    tile: Tile
    from_: Literal["live", "back"] = field(default="live", name="from")


@_typed
class Flower(_Event, tag="flower", frozen=True):
    tile: Tile


@_typed
class Discard(_Event, tag="discard", frozen=True):
    tile: Tile
    claims: list[Claim] | None = None


@_typed
class Chi(_Event, tag="chi", frozen=True):
    tile: Tile
    tiles: Annotated[list[Tile], Meta(min_length=2, max_length=2)]
    from_: Seat = field(name="from")


@_typed
class Pon(_Event, tag="pon", frozen=True):
    tile: Tile
    from_: Seat = field(name="from")


@_typed
class Kong(_Event, tag="kong", frozen=True):
    tile: Tile
    from_: Seat = field(name="from")


@_typed
class ConcealedKong(_Event, tag="concealed_kong", frozen=True):
    tile: Tile


@_typed
class AddedKong(_Event, tag="added_kong", frozen=True):
    tile: Tile
    claims: list[Claim] | None = None


@_typed
class Ready(_Event, tag="ready", frozen=True):
    pass


@_typed
class Win(_Event, tag="win", frozen=True):
    tile: Tile
    from_: Seat = field(name="from")
    robbing_kong: bool = False


Event = Draw | Flower | Discard | Chi | Pon | Kong | ConcealedKong | AddedKong | Ready | Win


class WinRecord(_Record, frozen=True):
    seat: Seat
    from_: Seat | None = field(default=None, name="from")
    tile: Tile | None = None
    score: RecordedScore | None = None  # the model itself (see _decode_hook): one per win, extra fields kept


class Penalty(_Record, frozen=True):
    seat: Seat
    kind: str
    deltas: _Four[int] | None = None


class Outcome(_Record, frozen=True):
    result: Literal["win", "draw"]
    wins: list[WinRecord] = []  # noqa: RUF012  msgspec gives each instance its own empty list
    deltas: _Four[int] | None = None
    out_delta: int | None = None
    penalties: list[Penalty] = []  # noqa: RUF012


class Hand(_Record, frozen=True):
    hand_no: Annotated[int, Meta(ge=0)]
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
    started_at: str | None = None  # checked after decoding, by the models' own check_instant
    meta: dict[str, Any] | None = None


class Game(_Record, frozen=True):
    format: Literal["mahjong-log/1"]
    game_id: Annotated[str, Meta(min_length=1)]
    ruleset: str
    hands: list[Hand]
    platform: str | None = None
    options: dict[str, Any] = {}  # noqa: RUF012  msgspec gives each instance its own empty dict
    started_at: str | None = None  # checked after decoding, as Hand.started_at
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


# pydantic-core's JSON parser refuses a document nested more than about 200 lists and
# objects deep (the models reject it as not valid JSON); msgspec reads deeper. The format's
# own shape nests about 10 deep, so only its free-form values (options, meta, a recorded
# score's fan entries and extra fields) can go deeper: one nested more than this is left
# to the models, which decide.
MAX_FREE_DEPTH = 150


def _nested_within(value: Any, levels: int = MAX_FREE_DEPTH) -> bool:
    """True if ``value`` holds lists and dicts at most ``levels`` deep (itself included)."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return True
    return levels > 0 and all(_nested_within(v, levels - 1) for v in items)


def _decode_hook(cls: type, value: Any) -> Any:
    """A recorded score (a JSON object, decoded as plain values) through its own model."""
    if cls is RecordedScore:
        if not _nested_within(value):
            raise ValueError("nested too deeply")  # msgspec rejects: the models decide
        return RecordedScore.model_validate(value)  # a ValidationError is a ValueError: msgspec rejects
    raise NotImplementedError(cls)


_DECODER = msgspec.json.Decoder(Game, dec_hook=_decode_hook)


def _instants_ok(game: Game) -> bool:
    try:
        if game.started_at is not None:
            check_instant(game.started_at)
        for hand in game.hands:
            if hand.started_at is not None:
                check_instant(hand.started_at)
    except ValueError:
        return False
    return True


def parse_game_json(text: str | bytes) -> Game | None:
    """The game of one JSON document if the models would accept it, else None (then
    validate with :class:`mahjong_audit.schemas.log.Game` for the error)."""
    try:
        game = _DECODER.decode(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors, as is a str it cannot encode
        return None
    if game.format != FORMAT or not all(seq_increasing(h) for h in game.hands) or not _instants_ok(game):
        return None
    if not (_nested_within(game.options) and _nested_within(game.meta)
            and all(_nested_within(h.meta) for h in game.hands)):
        return None
    if not options_ok(game.ruleset, game.options) or not players_ok(game):
        return None
    return game
