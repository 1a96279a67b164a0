"""Replacement draws owed just before the seabed (海底), shared by the replay and the simulator.

A flower or a kong needs a replacement from the back of the wall. Near the end of a
ruleset with a seabed (the last ``seabed`` drawable tiles are handed out one per seat)
that replacement can eat into the seabed. Two procedures, chosen by the ruleset's
``seabed_replacement``:

* ``"shorten"``: an ordinary replacement from the far end of the wall; the seat then
  discards as usual and the seabed is one tile shorter.
* ``"seed"`` (龙港 二、一)6 e): when the replacement is owed at the 河底 tile (the last live
  tile before the seabed, case Ⅰ) or at the tile before it (case Ⅱ):

  - with a reserve tile in the 王牌 (``dead_wall: 21``, ①) the replacement takes it; the
    drawable count does not change and play goes on (the seat discards);
  - otherwise (②) the seat takes one replacement and keeps it without discarding, and the
    seabed (what is left: three tiles) goes to the other seats from the seat after it.
    In case Ⅰ the replacement is the seabed's last tile ("从海底牌处末一张"); in case Ⅱ it
    comes from the far end and the 王牌 moves forward one tile ("王牌前移一幢", "此时海底牌只剩3张").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SEED: Final = "seed"
SHORTEN: Final = "shorten"
MODES: Final = (SEED, SHORTEN)


@dataclass(frozen=True, slots=True)
class Replacement:
    """How one replacement draw is made.

    ``seabed_end``: the tile is the last drawable one (not the far end of the wall).
    ``reserve``: it takes the 王牌's reserve tile (the drawable count stays).
    ``dead_extra``: drawable tiles that join the 王牌 with it.
    ``then_seabed``: the seat keeps the tile without discarding and the seabed starts after it.
    """

    seabed_end: bool = False
    reserve: bool = False
    dead_extra: int = 0
    then_seabed: bool = False

    def drawable_change(self) -> int:
        """Change of the drawable count (seabed included) that this draw makes."""
        return (0 if self.reserve else -1) - self.dead_extra


ORDINARY: Final = Replacement()
RESERVE: Final = Replacement(reserve=True)
CASE_I: Final = Replacement(seabed_end=True, then_seabed=True)  # the 河底 tile was just drawn
CASE_II: Final = Replacement(dead_extra=1, then_seabed=True)  # the tile before the 河底 was just drawn


def replacement(mode: str, seabed: int, drawable_left: int | None, reserve_left: int) -> Replacement:
    """The replacement a seat owes now, ``drawable_left`` live tiles (seabed included) being
    left before it; ``reserve_left`` reserve tiles are still in the 王牌."""
    if mode != SEED or not seabed or drawable_left is None or drawable_left > seabed + 1:
        return ORDINARY
    if reserve_left > 0:
        return RESERVE
    return CASE_II if drawable_left == seabed + 1 else CASE_I
