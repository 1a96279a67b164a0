"""Player populations and colluding players for the simulator.

A :class:`Population` names ``N`` players and draws four of them to each game's table,
in a random seat order, from a random source of its own (``table_rng``): the game's play
(its walls, the bots' choices) comes from the game's own source, so naming the players
never changes how an honest game is played.

With a colluding pair ``(A, B)`` at one table, their seats play by :class:`Collusion`, in
one of four styles (``STYLES``; everything else is the seats' bots):

* ``feed``: when A discards and holds a tile B would win on (a legal win, scored and above
  any minimum), it discards that tile; and it never wins on B's discard or by robbing B's
  kong;
* ``soft``: A and B never win on, pon or kong each other's discards (nor rob each
  other's kongs): the pair spares each other, and feeds nobody;
* ``dump``: A feeds B as in ``feed``, but only when B's win would be worth at least
  ``DUMP_AT`` (per ruleset: a big hand), and never wins off B;
* ``signal``: A knows B's wait (a signal) and feeds it now and then: when it holds B's
  winning tile it discards it with probability ``SIGNAL_RATE``, and never wins off B.

A passed win follows the ruleset's rules on passed wins (过水, a declined win).

>>> pop = Population.of_size(6, collude=("p1", "p2"))
>>> pop.table(7, 0) == pop.table(7, 0), len(set(pop.table(7, 0)))
(True, 4)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mahjong_audit.engine.sim.game import HandSim

SEATS = 4


class SeatPolicy(Protocol):
    """What the simulator asks besides the bots (``mahjong_audit.engine.sim.game.HandSim``)."""

    def discard(self, sim: HandSim, seat: int, forbidden: frozenset[int]) -> int | None:
        """The tile ``seat`` discards instead of its bot's choice, or None."""

    def may_win(self, seat: int, from_seat: int) -> bool:
        """May ``seat`` win on a tile of ``from_seat`` (a discard or a robbed kong)?"""

    def may_call(self, seat: int, from_seat: int) -> bool:
        """May ``seat`` pon or kong ``from_seat``'s discard?"""


STYLES = ("feed", "soft", "dump", "signal")
# A win worth at least this total is a big hand the ``dump`` style pays into (the scores'
# own units: MCR fans, 广东 番, 龙港 胡 — near the top tenth of the bots' wins).
DUMP_AT: Mapping[str, int] = MappingProxyType({"mcr": 24, "guangdong": 4, "longgang": 150})
DUMP_AT_DEFAULT = 24
SIGNAL_RATE = 0.05  # how often the ``signal`` style discards the partner's winning tile it holds


@dataclass(frozen=True, slots=True)
class Collusion:
    """Seat ``feeder`` (A) colludes with seat ``receiver`` (B) in ``style`` (:data:`STYLES`)."""

    feeder: int
    receiver: int
    style: str = "feed"

    def _pair(self, seat: int, from_seat: int) -> bool:
        if self.style == "soft":
            return {seat, from_seat} == {self.feeder, self.receiver}
        return seat == self.feeder and from_seat == self.receiver

    def may_win(self, seat: int, from_seat: int) -> bool:
        return not self._pair(seat, from_seat)

    def may_call(self, seat: int, from_seat: int) -> bool:
        """May ``seat`` pon or kong ``from_seat``'s discard?"""
        return not (self.style == "soft" and self._pair(seat, from_seat))

    def discard(self, sim: HandSim, seat: int, forbidden: frozenset[int]) -> int | None:
        if seat != self.feeder or self.style == "soft":
            return None
        receiver = sim.seats[self.receiver]
        if not receiver.maybe_ready or receiver.passed_win:
            return None
        plain = sim.seats[seat].plain()
        last_tile = sim.drawable_left() <= 0
        skipped = sim.cov.get("wins_below_minimum_skipped", 0)
        least = DUMP_AT.get(sim.rs.name, DUMP_AT_DEFAULT) if self.style == "dump" else None
        try:
            for t in range(34):
                if not plain[t] or t in forbidden:
                    continue
                won = sim.try_win(self.receiver, t, self_drawn=False, kong=False, last_tile=last_tile,
                                  from_seat=seat)
                if won is None or (least is not None and won[1].total < least):
                    continue
                if self.style == "signal" and sim.rng.random() >= SIGNAL_RATE:
                    return None
                return t
            return None
        finally:  # a what-if is not a skipped win: keep the coverage counts as they were
            sim.cov["wins_below_minimum_skipped"] = skipped
            if not skipped:
                del sim.cov["wins_below_minimum_skipped"]


@dataclass(frozen=True, slots=True)
class Population:
    """``players`` to draw tables from; ``collude`` = (A, B) or None, playing ``style``."""

    players: tuple[str, ...]
    collude: tuple[str, str] | None = None
    style: str = "feed"

    def __post_init__(self) -> None:
        if len(self.players) < SEATS or len(set(self.players)) != len(self.players):
            raise ValueError(f"a population needs at least {SEATS} distinct players")
        if self.style not in STYLES:
            raise ValueError(f"--collude-style is one of {', '.join(STYLES)}, not {self.style!r}")
        if self.collude is not None:
            a, b = self.collude
            if a == b or a not in self.players or b not in self.players:
                raise ValueError(f"colluding players must be two different players of the population "
                                 f"({self.players[0]} … {self.players[-1]}), not {a!r}, {b!r}")

    @classmethod
    def of_size(cls, n: int, collude: Sequence[str] | None = None, style: str = "feed") -> Population:
        """Players ``p1 … pN``."""
        pair = (collude[0], collude[1]) if collude is not None else None
        if collude is not None and len(collude) != 2:
            raise ValueError("--collude takes two players, A,B")
        return cls(tuple(f"p{i}" for i in range(1, n + 1)), pair, style)

    def table(self, seed: int, index: int) -> tuple[str, ...]:
        """The players of game ``index`` of the run ``seed``, by seat."""
        return tuple(table_rng(seed, index).sample(self.players, SEATS))

    def policy(self, table: Sequence[str]) -> Collusion | None:
        """The colluders' policy if both sit at this table."""
        if self.collude is None or not set(self.collude) <= set(table):
            return None
        return Collusion(table.index(self.collude[0]), table.index(self.collude[1]), self.style)

    def label(self, game_id: str, table: Sequence[str]) -> dict[str, object] | None:
        """The side-file label of a game where the colluding pair shared the table."""
        pol = self.policy(table)
        if pol is None:
            return None
        return {"game_id": game_id, "kind": "collusion", "feeder": table[pol.feeder],
                "receiver": table[pol.receiver], "feeder_seat": pol.feeder, "receiver_seat": pol.receiver,
                "style": pol.style}


def table_rng(seed: int, index: int) -> random.Random:
    """The seating source of game ``index`` (apart from the game's own play source)."""
    return random.Random(f"mahjong-audit-sim-table:{seed}:{index}")


__all__ = ["DUMP_AT", "SIGNAL_RATE", "STYLES", "Collusion", "Population", "SeatPolicy", "table_rng"]
