"""Player populations and colluding players for the simulator.

A :class:`Population` names ``N`` players and draws four of them to each game's table,
in a random seat order, from a random source of its own (``table_rng``): the game's play
(its walls, the bots' choices) comes from the game's own source, so naming the players
never changes how an honest game is played.

With a colluding pair ``(feeder, receiver)`` at one table, the feeder's seat plays by
:class:`Collusion`: when it discards and holds a tile the receiver would win on (a legal
win, scored and above any minimum), it discards that tile; and it never wins on the
receiver's discard or by robbing the receiver's kong (a passed win follows the ruleset's
rules on passed wins: 过水, a declined win). Everything else is the feeder's bot.

>>> pop = Population.of_size(6, collude=("p1", "p2"))
>>> pop.table(7, 0) == pop.table(7, 0), len(set(pop.table(7, 0)))
(True, 4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mahjong_audit.engine.sim.game import HandSim

SEATS = 4


class SeatPolicy(Protocol):
    """What the simulator asks besides the bots (``engine.sim.game.HandSim``)."""

    def discard(self, sim: HandSim, seat: int, forbidden: frozenset[int]) -> int | None:
        """The tile ``seat`` discards instead of its bot's choice, or None."""

    def may_win(self, seat: int, from_seat: int) -> bool:
        """May ``seat`` win on a tile of ``from_seat`` (a discard or a robbed kong)?"""


@dataclass(frozen=True, slots=True)
class Collusion:
    """Seat ``feeder`` feeds seat ``receiver``: discards its winning tiles, never wins off it."""

    feeder: int
    receiver: int

    def may_win(self, seat: int, from_seat: int) -> bool:
        return not (seat == self.feeder and from_seat == self.receiver)

    def discard(self, sim: HandSim, seat: int, forbidden: frozenset[int]) -> int | None:
        if seat != self.feeder:
            return None
        receiver = sim.seats[self.receiver]
        if not receiver.maybe_ready or receiver.passed_win:
            return None
        plain = sim.seats[seat].plain()
        last_tile = sim.drawable_left() <= 0
        skipped = sim.cov.get("wins_below_minimum_skipped", 0)
        try:
            for t in range(34):
                if plain[t] and t not in forbidden and sim.try_win(
                        self.receiver, t, self_drawn=False, kong=False, last_tile=last_tile,
                        from_seat=seat) is not None:
                    return t
            return None
        finally:  # a what-if is not a skipped win: keep the coverage counts as they were
            sim.cov["wins_below_minimum_skipped"] = skipped
            if not skipped:
                del sim.cov["wins_below_minimum_skipped"]


@dataclass(frozen=True, slots=True)
class Population:
    """``players`` to draw tables from; ``collude`` = (feeder, receiver) or None."""

    players: tuple[str, ...]
    collude: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        if len(self.players) < SEATS or len(set(self.players)) != len(self.players):
            raise ValueError(f"a population needs at least {SEATS} distinct players")
        if self.collude is not None:
            a, b = self.collude
            if a == b or a not in self.players or b not in self.players:
                raise ValueError(f"colluding players must be two different players of the population "
                                 f"({self.players[0]} … {self.players[-1]}), not {a!r}, {b!r}")

    @classmethod
    def of_size(cls, n: int, collude: Sequence[str] | None = None) -> Population:
        """Players ``p1 … pN``."""
        pair = (collude[0], collude[1]) if collude is not None else None
        if collude is not None and len(collude) != 2:
            raise ValueError("--collude takes two players, A,B")
        return cls(tuple(f"p{i}" for i in range(1, n + 1)), pair)

    def table(self, seed: int, index: int) -> tuple[str, ...]:
        """The players of game ``index`` of the run ``seed``, by seat."""
        return tuple(table_rng(seed, index).sample(self.players, SEATS))

    def policy(self, table: Sequence[str]) -> Collusion | None:
        """The colluders' policy if both sit at this table."""
        if self.collude is None or not set(self.collude) <= set(table):
            return None
        return Collusion(table.index(self.collude[0]), table.index(self.collude[1]))

    def label(self, game_id: str, table: Sequence[str]) -> dict[str, object] | None:
        """The side-file label of a game where the colluding pair shared the table."""
        pol = self.policy(table)
        if pol is None:
            return None
        return {"game_id": game_id, "kind": "collusion", "feeder": table[pol.feeder],
                "receiver": table[pol.receiver], "feeder_seat": pol.feeder, "receiver_seat": pol.receiver}


def table_rng(seed: int, index: int) -> random.Random:
    """The seating source of game ``index`` (apart from the game's own play source)."""
    return random.Random(f"mahjong-audit-sim-table:{seed}:{index}")


__all__ = ["Collusion", "Population", "SeatPolicy", "table_rng"]
