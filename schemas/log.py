"""Pydantic models of the ``mahjong-log/1`` format (see docs/log-format.md).

These models are the executable form of the spec: ``mahjong-audit schema`` prints the
JSON Schema derived from :class:`Game`. They check *shape* (types, tile names, seats,
sequence numbers, known ruleset and options); *rules* are the replay engine's job.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from mahjong_audit.engine import tiles as T
from mahjong_audit.schemas.instants import check_instant

FORMAT = "mahjong-log/1"


def _check_tile(v: str) -> str:
    try:
        T.tile(v)
    except T.TileError:
        raise ValueError(f"{v!r} is not a tile") from None
    return v


Tile = Annotated[str, AfterValidator(_check_tile), Field(description="canonical tile, e.g. '5p', '7z', '1f'")]
Seat = Annotated[int, Field(ge=0, le=3, description="seat 0..3; turn order 0→1→2→3")]
Wind = Literal["E", "S", "W", "N"]
Instant = Annotated[str, AfterValidator(check_instant), Field(
    description="ISO 8601 date-time (2026-11-01T12:00:00Z; without an offset it is UTC) or plain date (2026-11-01)",
    json_schema_extra={"anyOf": [{"format": "date-time"}, {"format": "date"}]},
)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Claim(_Model):
    """A declaration made in the claim window of a discard or added kong."""

    seat: Seat
    call: Literal["chi", "pon", "kong", "win"]


class _Event(_Model):
    seq: int = Field(ge=0)
    seat: Seat


class Draw(_Event):
    type: Literal["draw"]
    tile: Tile
    from_: Literal["live", "back"] = Field("live", alias="from")


class Flower(_Event):
    type: Literal["flower"]
    tile: Tile


class Discard(_Event):
    type: Literal["discard"]
    tile: Tile
    claims: list[Claim] | None = None


class Chi(_Event):
    type: Literal["chi"]
    tile: Tile
    tiles: Annotated[list[Tile], Field(min_length=2, max_length=2)]
    from_: Seat = Field(alias="from")


class Pon(_Event):
    type: Literal["pon"]
    tile: Tile
    from_: Seat = Field(alias="from")


class Kong(_Event):
    type: Literal["kong"]
    tile: Tile
    from_: Seat = Field(alias="from")


class ConcealedKong(_Event):
    type: Literal["concealed_kong"]
    tile: Tile


class AddedKong(_Event):
    type: Literal["added_kong"]
    tile: Tile
    claims: list[Claim] | None = None


class Ready(_Event):
    type: Literal["ready"]


class Win(_Event):
    type: Literal["win"]
    tile: Tile
    from_: Seat = Field(alias="from")
    robbing_kong: bool = False


Event = Annotated[
    Draw | Flower | Discard | Chi | Pon | Kong | ConcealedKong | AddedKong | Ready | Win,
    Field(discriminator="type"),
]

FanEntry = Annotated[list[Any], Field(min_length=2, max_length=3)]


class RecordedScore(BaseModel):
    """The platform's own breakdown of a win; every field optional, what is present is compared."""

    model_config = ConfigDict(extra="allow", frozen=True)

    fans: list[FanEntry] | None = Field(None, description="[name, value] or [name, value, count]")
    hu: int | None = None
    tai: int | None = None
    total: int | None = None

    @field_validator("fans")
    @classmethod
    def _fans_shape(cls, v: list[list[Any]] | None) -> list[list[Any]] | None:
        for i, entry in enumerate(v or []):
            if not isinstance(entry[0], str) or not all(isinstance(x, int) for x in entry[1:]):
                raise ValueError(f"fans[{i}] must be [name, value] or [name, value, count]")
        return v


class WinRecord(_Model):
    seat: Seat
    from_: Seat | None = Field(None, alias="from")
    tile: Tile | None = None
    score: RecordedScore | None = None


class Penalty(_Model):
    seat: Seat
    kind: str
    deltas: Annotated[list[int], Field(min_length=4, max_length=4)] | None = None


class Outcome(_Model):
    result: Literal["win", "draw"]
    wins: list[WinRecord] = Field(default_factory=list)
    deltas: Annotated[list[int], Field(min_length=4, max_length=4)] | None = None
    out_delta: int | None = Field(
        None, description="five-player games: the change of the player standing out (岸上) this hand, e.g. "
                          "its share of a 诈胡; counted with deltas in the zero sum")
    penalties: list[Penalty] = Field(default_factory=list)


class Hand(_Model):
    hand_no: int = Field(ge=0)
    round_wind: Wind
    dealer: Seat
    dice: list[int] | None = None
    wall: list[Tile] | None = Field(None, description="the wall after the deal, in draw order from the live end")
    seat_walls: Annotated[list[list[Tile]], Field(min_length=4, max_length=4)] | None = Field(
        None, description="per-seat walls (Botzone duplicate format), each in that seat's draw order"
    )
    wildcard_indicator: Tile | None = None
    deal: Annotated[list[list[Tile]], Field(min_length=4, max_length=4)]
    events: list[Event]
    outcome: Outcome | None = None
    seats: Annotated[list[int], Field(min_length=4, max_length=4)] | None = Field(
        None, description="who sits where this hand: seats[s] is the index in the game's players of the player in "
                          "seat s. Absent: players[0..3] in seats 0..3. Required when the game lists five players")
    chips: list[int] | None = Field(
        None, description="each player's chips (子) after this hand, in the game's players order (a 牌局's running "
                          "balance, longgang)")
    started_at: Instant | None = Field(None, description="when this hand began, if the platform records it")
    meta: dict[str, Any] | None = Field(None, description="platform data kept by importers")

    @model_validator(mode="after")
    def _seq_increasing(self) -> Hand:
        prev = -1
        for i, ev in enumerate(self.events):
            if ev.seq <= prev:
                raise ValueError(f"events[{i}].seq {ev.seq} is not greater than the previous seq {prev}")
            prev = ev.seq
        return self


class Game(_Model):
    format: Literal["mahjong-log/1"] = Field(alias="format")
    game_id: str = Field(min_length=1)
    platform: str | None = None
    ruleset: str
    options: dict[str, Any] = Field(default_factory=dict)
    started_at: Instant | None = None
    players: Annotated[list[str], Field(min_length=4, max_length=5)] | None = Field(
        None, description="the players of the game; five when one stands out each hand (longgang's 替补/岸上), "
                          "then every hand says who sits where (seats)")
    initial_scores: Annotated[list[int], Field(min_length=4, max_length=5)] | None = Field(
        None, description="one per player, in players order")
    hands: list[Hand]
    final_scores: Annotated[list[int], Field(min_length=4, max_length=5)] | None = Field(
        None, description="one per player, in players order")
    meta: dict[str, Any] | None = Field(None, description="platform data kept by importers (match id, …)")

    @model_validator(mode="after")
    def _ruleset_and_options(self) -> Game:
        from mahjong_audit.engine.rulesets import RULESETS, OptionError

        if self.ruleset not in RULESETS:
            raise ValueError(f"ruleset {self.ruleset!r} is unknown (known: {', '.join(sorted(RULESETS))})")
        try:
            RULESETS[self.ruleset].parse_options(self.options)
        except OptionError as e:
            raise ValueError(f"options: {e}") from None
        self._check_players()
        return self

    def _check_players(self) -> None:
        check_players(self)

    def seating(self, hand: Hand) -> tuple[int, int, int, int]:
        """Indexes into ``players`` of the players in seats 0..3 for ``hand``."""
        return seating(hand)

    def standing_out(self, hand: Hand) -> tuple[int, ...]:
        """Indexes into ``players`` of the players not seated in ``hand`` (five-player games)."""
        return standing_out(self, hand)


# Who sits where, shared by the models and the fast path (mahjong_audit.schemas.log_fast): plain
# functions of any game and hand object with these fields.


def check_players(game: Any) -> None:
    """Five players only where the ruleset seats a substitute; seating and per-player lists
    match ``players``. Raises ValueError."""
    from mahjong_audit.engine.rulesets import RULESETS

    n = len(game.players) if game.players is not None else 4
    if n > RULESETS[game.ruleset].max_players:
        raise ValueError(f"players: {game.ruleset} seats at most {RULESETS[game.ruleset].max_players} players, "
                         f"the game lists {n}")
    for name in ("initial_scores", "final_scores"):
        v = getattr(game, name)
        if v is not None and len(v) != n:
            raise ValueError(f"{name}: one per player expected ({n}), got {len(v)}")
    for i, hand in enumerate(game.hands):
        if hand.seats is None:
            if n > 4:
                raise ValueError(f"hands[{i}].seats: required when the game lists {n} players")
        else:
            if game.players is None:
                raise ValueError(f"hands[{i}].seats: needs the game's players")
            if len(set(hand.seats)) != 4 or not all(0 <= p < n for p in hand.seats):
                raise ValueError(f"hands[{i}].seats: four different player indexes 0..{n - 1} expected, "
                                 f"got {hand.seats}")
        if hand.chips is not None and len(hand.chips) != n:
            raise ValueError(f"hands[{i}].chips: one per player expected ({n}), got {len(hand.chips)}")
        if hand.outcome is not None and hand.outcome.out_delta is not None and n == 4:
            raise ValueError(f"hands[{i}].outcome.out_delta: only a five-player game has a player standing out")


def seating(hand: Any) -> tuple[int, int, int, int]:
    """Indexes into the game's ``players`` of the players in seats 0..3 for ``hand``."""
    s = hand.seats if hand.seats is not None else (0, 1, 2, 3)
    return (s[0], s[1], s[2], s[3])


def standing_out(game: Any, hand: Any) -> tuple[int, ...]:
    """Indexes into ``players`` of the players not seated in ``hand`` (five-player games).
    Asked of every hand: a game of four players without ``seats`` answers without a loop."""
    players = game.players
    if not players:
        return ()
    seats = hand.seats
    if seats is None:  # seats 0..3 hold players 0..3
        return tuple(range(4, len(players)))
    return tuple(p for p in range(len(players)) if p not in seats)


_EVENT_TAGS = {"draw", "flower", "discard", "chi", "pon", "kong", "concealed_kong", "added_kong", "ready", "win"}


def format_loc(loc: tuple[Any, ...]) -> str:
    """``('hands', 2, 'events', 17, 'draw', 'tile')`` → ``hands[2].events[17].tile``."""
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        if part in _EVENT_TAGS and i >= 2 and loc[i - 2] == "events" and isinstance(loc[i - 1], int):
            continue  # the discriminated union's tag, not a field
        out += ("." if out else "") + ("from" if part == "from_" else str(part))
    return out


#: pydantic's error types whose own message names a Python type or a model class, as what
#: the JSON should have held (the user writes JSON, not Python)
_EXPECTED: Mapping[str, str] = MappingProxyType({
    "model_type": "a JSON object", "model_attributes_type": "a JSON object", "dict_type": "a JSON object",
    "dataclass_type": "a JSON object", "list_type": "a JSON array", "tuple_type": "a JSON array",
    "string_type": "a string", "bool_type": "true or false", "bool_parsing": "true or false",
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "an integer",
    "float_type": "a number", "float_parsing": "a number",
})
#: the rest of pydantic's wording for the same reason
_PLAIN: Mapping[str, str] = MappingProxyType({"extra_forbidden": "unknown field", "missing": "missing (required)"})


def _json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words: ``an array``, ``a string``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    return "an object" if isinstance(value, dict) else type(value).__name__


def _message(e: Mapping[str, Any], top: str) -> str:
    """One pydantic error in the user's words (the JSON types, never a class name)."""
    expected = _EXPECTED.get(e["type"])
    if expected is not None:
        whole = f" ({top})" if not e["loc"] and expected == "a JSON object" and top else ""
        return f"expected {expected}{whole}, got {_json_kind(e.get('input'))}"
    return _PLAIN.get(e["type"]) or e["msg"].removeprefix("Value error, ")


def describe_errors(err: ValidationError, limit: int = 5) -> str:
    """One line naming where and what, e.g. ``hands[2].events[17].tile: '10m' is not a tile``,
    ``melds[0]: expected a JSON object, got an array``."""
    parts = []
    top = f"a {err.title.lower()}" if err.title.isalpha() else ""
    for e in err.errors()[:limit]:
        msg = _message(e, top)
        loc = format_loc(tuple(e["loc"]))
        parts.append(f"{loc}: {msg}" if loc else msg)
    more = len(err.errors()) - limit
    if more > 0:
        parts.append(f"(+{more} more)")
    return "; ".join(parts)


def parse_game(data: Any) -> Game:
    return Game.model_validate(data)


def json_schema() -> dict[str, Any]:
    schema = Game.model_json_schema(by_alias=True)
    schema["$id"] = "https://mahjong-audit.invalid/schema/mahjong-log-1.json"
    schema["title"] = "mahjong-log/1 game"
    return schema
