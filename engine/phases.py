"""The phases of a hand in the replay (``HandReplay.phase``), as rulesets see them in
``TableView.phase``.

Plain ``str`` constants in a module of their own, so the replay and a ruleset's hooks
(龙港's abortive draws) name them without importing each other; compiled with the replay,
a comparison with one costs what the literal did.
"""

from __future__ import annotations

from typing import Final

DRAW: Final = "draw"  #: the turn seat must draw
ACT: Final = "act"  #: the turn seat holds one tile more than a hand: it discards, kongs, sets a flower aside or wins
REPLACE: Final = "replace"  #: a replacement draw from the back is due
CLAIM: Final = "claim"  #: a discard may be claimed
ROB: Final = "rob"  #: an added kong may be robbed
SEABED: Final = "seabed"  #: the last drawable tiles go one to each seat
ENDED: Final = "ended"  #: the hand is over
PHASES: Final = (DRAW, ACT, REPLACE, CLAIM, ROB, SEABED, ENDED)
