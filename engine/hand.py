"""Immutable value objects that cross function boundaries: melds, win situations, scores.

These are what a ruleset's scoring sees. The replay state machine builds them from its
mutable state; the ``score`` command builds them from a JSON situation.

Each frozen dataclass here writes its own ``__init__`` (``dataclasses`` keeps a class's own): the
one ``dataclasses`` generates is Python code built at run time, interpreted even when this module
is compiled (mahjong_audit/accel.py), while mypyc compiles this one, each
``object.__setattr__(self, "field", value)`` a store into the object (and in Python the frozen
dataclass's usual way round its ``__setattr__``). Equality, hashing, ``repr``, ``fields`` and
``dataclasses.replace`` stay the dataclass's; the ``__init__``'s arguments are the fields, in
order, with the fields' defaults (tests/test_native_inits.py compares them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.engine.pickling import by_fields


class MeldKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    KONG = "kong"  # exposed: claimed (大明杠) or added to a pon (补杠)
    CONCEALED_KONG = "concealed_kong"


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed set or a concealed kong.

    ``tiles`` is sorted (3 or 4 tiles). ``claimed`` is the tile taken from another
    seat (None for a concealed kong). ``source`` is the supplier's seat offset from
    the owner: 1 = left player (上家), 2 = opposite, 3 = right (下家).
    ``added`` marks a kong made by adding a tile to a pon.
    """

    kind: MeldKind
    tiles: tuple[int, ...]
    claimed: int | None = None
    source: int | None = None
    added: bool = False

    def __init__(self, kind: MeldKind, tiles: tuple[int, ...], claimed: int | None = None, source: int | None = None,
                 added: bool = False) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "claimed", claimed)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "added", added)

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def is_triplet_like(self) -> bool:
        return self.kind is not MeldKind.CHI

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:  # compact, for messages
        mark = {"chi": "c", "pon": "p", "kong": "k", "concealed_kong": "a"}[self.kind]
        return f"{mark}:{T.fmt(self.tiles)}"

    @staticmethod
    def chi(first: int, claimed: int | None = None, source: int | None = 1) -> Meld:
        return Meld(MeldKind.CHI, (first, first + 1, first + 2), claimed, source)

    @staticmethod
    def pon(t: int, source: int | None = None) -> Meld:
        return Meld(MeldKind.PON, (t, t, t), t, source)

    @staticmethod
    def kong(t: int, source: int | None = None, *, concealed: bool = False, added: bool = False) -> Meld:
        if concealed:
            return Meld(MeldKind.CONCEALED_KONG, (t, t, t, t))
        return Meld(MeldKind.KONG, (t, t, t, t), t, source, added)


@dataclass(frozen=True, slots=True)
class WinSituation:
    """Everything a ruleset needs to score one winning hand.

    ``concealed`` are the standing tiles *without* the winning tile. ``kong`` means
    杠上开花 when ``self_drawn`` and 抢杠和 otherwise. ``extra`` carries
    ruleset-specific fields as sorted (key, value) pairs.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool
    seat_wind: int = 0
    round_wind: int = 0
    flowers: tuple[int, ...] = ()
    last_tile: bool = False
    kong: bool = False
    last_copy: bool = False
    extra: tuple[tuple[str, object], ...] = ()

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int, self_drawn: bool,
                 seat_wind: int = 0, round_wind: int = 0, flowers: tuple[int, ...] = (), last_tile: bool = False,
                 kong: bool = False, last_copy: bool = False, extra: tuple[tuple[str, object], ...] = ()) -> None:
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "self_drawn", self_drawn)
        object.__setattr__(self, "seat_wind", seat_wind)
        object.__setattr__(self, "round_wind", round_wind)
        object.__setattr__(self, "flowers", flowers)
        object.__setattr__(self, "last_tile", last_tile)
        object.__setattr__(self, "kong", kong)
        object.__setattr__(self, "last_copy", last_copy)
        object.__setattr__(self, "extra", extra)

    def get(self, key: str, default: object = None) -> object:
        for k, v in self.extra:
            if k == key:
                return v
        return default

    @property
    def full_concealed(self) -> tuple[int, ...]:
        """Standing tiles including the winning tile."""
        return self.concealed + (self.win_tile,)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a breakdown: a fan, a 胡 item or a 台 item.

    ``value`` is for one occurrence; the item contributes ``value * count`` in its unit.
    """

    name: str
    value: int
    count: int = 1
    unit: str = "fan"
    seat: int | None = None

    def __init__(self, name: str, value: int, count: int = 1, unit: str = "fan", seat: int | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "seat", seat)


@dataclass(frozen=True, slots=True)
class Score:
    """A scored hand. ``total`` is in the ruleset's scoring unit (fan for MCR)."""

    items: tuple[ScoreItem, ...]
    total: int
    below_minimum: bool = False
    details: tuple[tuple[str, Any], ...] = field(default=())

    def __init__(self, items: tuple[ScoreItem, ...], total: int, below_minimum: bool = False,
                 details: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "below_minimum", below_minimum)
        object.__setattr__(self, "details", details)

    def as_pairs(self) -> list[tuple[str, int, int]]:
        return [(i.name, i.value, i.count) for i in self.items]


def situation_extra(*, dealer: int, seat: int, from_seat: int | None, discards_made: int, first_go_round: bool,
                    any_melds: bool, ready: bool, indicator: int | None,
                    wilds: frozenset[int]) -> tuple[tuple[str, object], ...]:
    """The ruleset fields of a win that the table state decides (sorted pairs for WinSituation.extra):
    dealer and seat, a ready declaration, 天和 / 地和 / 人和 timing (and ``first_round_discards``: the
    discards made so far while the first go-round is unbroken by calls; ``first_round_win``: a non-dealer
    wins on its first draw or on one of the first four discards, 地胡 of seed 002), the wild-tile indicator
    and wilds."""
    heavenly = seat == dealer and discards_made == 0 and from_seat is None
    earthly = seat != dealer and discards_made <= 1 and first_go_round and not any_melds
    out: list[tuple[str, object]] = [("dealer", dealer), ("seat", seat)]
    if ready:
        out.append(("ready", True))
    if heavenly:
        out.append(("heavenly", True))
    elif earthly and from_seat is None:
        out.append(("earthly", True))
    elif earthly:
        out.append(("human", True))
    if first_go_round and not any_melds:
        out.append(("first_round_discards", discards_made))  # discards so far, the first go-round unbroken
        if seat != dealer and discards_made <= (3 if from_seat is None else 4):
            out.append(("first_round_win", True))  # 地胡 (seed 002): "任何在第一圈由非庄家所胡的牌"
    if indicator is not None:
        out.append(("indicator", indicator))
    out.append(("wilds", tuple(sorted(wilds))))
    return tuple(sorted(out))  # by name: the names differ, so the values are never compared


#: 地听 (seed 002) "起牌后海底八张牌…以内": ready while at most this many tiles have been drawn from the wall
EARLY_READY_DRAWS = 8


def early_ready_moments(own_discards: int, live_drawn: int, calls: bool) -> tuple[bool, bool]:
    """Which early-ready facts of 明星三缺一 (seed 002) a seat's discard can establish, if the seat
    is ready after it: (天听 "打出第一张牌后，已经听牌": it is the seat's first discard; 地听
    "起牌后海底八张牌，且四家不碰牌吃牌以内情况下听牌": at most ``EARLY_READY_DRAWS`` tiles drawn from
    the wall and no chi, pon or exposed kong yet). The replay and the simulator both ask this."""
    return own_discards == 1, live_drawn <= EARLY_READY_DRAWS and not calls


def early_ready_extra(heavenly_ready: bool, earthly_ready: bool) -> tuple[tuple[str, object], ...]:
    """The ``WinSituation.extra`` pairs of a seat's early-ready facts (天听 / 地听)."""
    return ((("earthly_ready", True),) if earthly_ready else ()) + \
        ((("heavenly_ready", True),) if heavenly_ready else ())


class NotAWin(InvalidData):
    """The tiles do not form a legal winning hand (error code in ``code``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code

by_fields(Meld, WinSituation, ScoreItem, Score)
