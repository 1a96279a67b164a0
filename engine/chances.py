"""Claim chances: which seat could have won or called on whose discard, and let it pass.

The collusion statistics (``mahjong_audit.pipeline.collusion``: soft play) compare how often a player
lets a partner's discards go with how often it lets everyone else's go. The replay knows
the tiles of every seat when a discard's claim window closes, so it can tell, for each
other seat, whether it **could** have won on the tile (a legal, scored win above any
minimum, as :meth:`mahjong_audit.engine.replay.HandReplay.could_win` decides, 过水 and dead hands
included) or called it (a pon or kong: two copies in hand, not a wild tile, not barred by
a passed-pon rule), and whether it did.

A chance counts when the seat took or declared the call, or when the window closed with
the tile taken by nobody or by a call the seat's own outranks (a win over a pon, a pon
over a chi: the seat passed). A seat that won is not counted as passing a pon. When
another seat took the tile with a call of the same rank or higher and the seat declared
nothing, the seat may have been beaten to it: that chance is left out rather than counted
as passed. Robbed kongs are not counted (rare, and a robbing win's value differs).

Counts are per ordered seat pair, flattened ``seat * 4 + from_seat`` (16 values each).

>>> tally = ChanceTally()
>>> tally.add(WIN, 2, 0, passed=True)
>>> tally.facts().wins_passed[2 * 4 + 0], tally.facts().win_chances[9]
(1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import is_complete
from mahjong_audit.engine.rulesets.mcr import KNITTED, ORPHANS

if TYPE_CHECKING:
    from mahjong_audit.engine.replay import HandReplay

WIN, CALL = 0, 1
SEATS = 4
_CALL_RANK = {"chi": 1, "pon": 2, "kong": 2, "win": 3}


@dataclass(frozen=True, slots=True)
class Chances:
    """One hand's chances, per ordered seat pair (index ``seat * 4 + from_seat``)."""

    win_chances: tuple[int, ...]  # times the seat could have won on from_seat's discard
    wins_passed: tuple[int, ...]  # … and did not (nor declared it)
    call_chances: tuple[int, ...]  # times it could have ponged or konged from_seat's discard
    calls_passed: tuple[int, ...]  # … and did not (nor declared a call)


def may_complete(hand: list[int], n_melds: int, wilds: frozenset[int]) -> bool:
    """False only when no tile can complete the seat's tiles in any shape the rulesets know
    (a standard hand, seven pairs, thirteen orphans, knitted shapes): a cheap gate before
    ``could_win``, asked once per state of the seat's hand. Kept flowers or wild tiles in
    hand: True (ask every time).

    >>> may_complete(T.counts(T.parse("123m456p789s1122z"), 34), 0, frozenset())
    True
    >>> may_complete(T.counts(T.parse("147m258p369s1357z"), 34), 0, frozenset())  # knitted: ask
    True
    >>> may_complete(T.counts(T.parse("19m1479p2468s"), 34), 1, frozenset())  # far from ready
    False
    """
    if any(hand[T.FLOWER0:]):
        return True
    for w in wilds:
        if hand[w]:
            return True
    total = sum(hand[:34])
    if (total - 1) % 3 == 0 and is_complete(hand, (total - 1) // 3, 1):
        return True  # one tile more (any tile: the wild stands for it) makes a standard hand
    if n_melds > 1:
        return False
    held = pairs = 0
    for t in range(34):
        n = hand[t]
        if n:
            held |= 1 << t
            pairs += n // 2
    if n_melds == 0 and ((held & _ORPHAN_MASK).bit_count() >= 12 or held.bit_count() == total
                         or pairs >= (total + 1) // 2 - 1):
        return True  # thirteen orphans, 全不靠 / 七星不靠 (distinct tiles), seven pairs
    return any((held & m).bit_count() >= 8 for m in _KNITTED_MASKS)  # 组合龙


_ORPHAN_MASK = sum(1 << t for t in ORPHANS)
_KNITTED_MASKS = tuple(sum(1 << t for t in p) for p in KNITTED)


class ChanceTally:
    """The replay's running counts (mutable state of the hand being replayed)."""

    __slots__ = ("counts", "gates", "shape_answers", "shape_keys", "turns")

    def __init__(self) -> None:
        self.counts = [[0] * (SEATS * SEATS) for _ in range(4)]  # win chances, passed, call chances, passed
        self.turns = [0] * SEATS  # discards each seat made (a waiting seat's hand changes only by its own turns)
        self.gates: list[tuple[int, int, bool] | None] = [None] * SEATS  # (turns, melds, may_complete)
        #: per seat, the hand state (``SeatState.version``, melds) :meth:`shape_wins` answered for,
        #: and its answers by tile (None: no tile wins that state)
        self.shape_keys: list[tuple[int, int]] = [(-1, -1)] * SEATS
        self.shape_answers: list[dict[int, bool] | None] = [None] * SEATS

    def shape_wins(self, replay: HandReplay, y: int, t: int) -> bool:
        """Would seat ``y``'s standing tiles with ``t`` added make a winning shape (the ruleset's
        ``may_complete_with_one``, then ``is_complete``)? Remembered until the seat's hand or its
        melds change: the claim window asks about every seat on every discard, twice (the chances
        here, then the replay's scan for 过水 and declined wins), and most hands win on no tile,
        which one quick no per state answers. (Every ruleset's shape test reads the melds' number.)"""
        st = replay.seats[y]
        key = (st.version, len(st.melds))
        if self.shape_keys[y] != key:
            self.shape_keys[y] = key
            maybe = replay.rs.may_complete_with_one(tuple(st.hand), st.melds, st.wilds)
            self.shape_answers[y] = {} if maybe else None
        answers = self.shape_answers[y]
        if answers is None:
            return False
        known = answers.get(t)
        if known is not None:
            return known
        kept = any(st.hand[T.FLOWER0:]) or T.is_flower(t)  # flowers in hand or asked about: all 42 counts
        counts = st.hand[:] if kept else st.hand[:34]
        counts[t] += 1
        won = replay.rs.is_complete(counts, st.melds, st.wilds)
        answers[t] = won
        return won

    def gate(self, replay: HandReplay, y: int) -> bool:
        """:func:`may_complete` for seat ``y``, remembered until its next discard or call."""
        st = replay.seats[y]
        last = self.gates[y]
        if last is not None and last[0] == self.turns[y] and last[1] == len(st.melds):
            return last[2]
        ok = may_complete(st.hand, len(st.melds), st.wilds)
        self.gates[y] = (self.turns[y], len(st.melds), ok)
        return ok

    def add(self, kind: int, seat: int, from_seat: int, *, passed: bool) -> None:
        i = seat * SEATS + from_seat
        self.counts[2 * kind][i] += 1
        if passed:
            self.counts[2 * kind + 1][i] += 1

    def window(self, replay: HandReplay, discarder: int, t: int, executed: tuple[int, str] | None) -> None:
        """Count the other seats' chances on discard ``t`` of ``discarder`` as its window closes."""
        self.turns[discarder] += 1
        if T.is_flower(t):
            return
        won = {w.seat for w in replay.wins if w.tile == t and w.from_seat == discarder}
        declared = {(c.seat, c.call) for c in replay.claims or ()}
        top = 3 if won else _CALL_RANK[executed[1]] if executed is not None else 0
        seats = replay.seats
        for k in range(1, SEATS):
            y = (discarder + k) % SEATS
            st = seats[y]
            if st.dead or st.barred:
                continue
            if y in won or (y, "win") in declared:
                self.add(WIN, y, discarder, passed=False)
                continue
            if top < 3 and self.gate(replay, y) and replay.could_win(y, t, discarder):
                self.add(WIN, y, discarder, passed=True)
            called = executed is not None and executed[0] == y and executed[1] in ("pon", "kong")
            if (called or st.hand[t] >= 2) and t not in st.wilds and \
                    not (replay.rs.passed_pon_rule and t in st.passed_pon):
                asked = called or (y, "pon") in declared or (y, "kong") in declared
                if asked or top < 2:
                    self.add(CALL, y, discarder, passed=not asked)

    def facts(self) -> Chances:
        return Chances(*(tuple(c) for c in self.counts))


__all__ = ["CALL", "WIN", "ChanceTally", "Chances"]
