"""Simple, fast bots for the simulator: shanten-guided discards and calls.

A bot picks a *plan* when the hand is dealt (``free``: any tiles; ``flush``: one suit plus
honours, for 混一色 / 清一色; ``pairs``: 七对) and plays towards it. Its measure of
progress is the shanten number (tiles away from ready) of the tiles its plan keeps,
computed from per-suit partial decompositions cached on immutable tuple keys, so a
decision costs a few cache lookups. Legality is not the bot's business: the game
(``mahjong_audit.engine.sim.game``) offers only legal actions and checks wins with the ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mahjong_audit.engine import tiles as T

#: (sets, partial sets, pair) triples a suit can provide
Block = tuple[int, int, int]


def _pareto(items: set[Block]) -> tuple[Block, ...]:
    out = [a for a in items if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in items)]
    return tuple(sorted(out, reverse=True))


@lru_cache(maxsize=200_000)
def suit_blocks(c: tuple[int, ...], honour: bool) -> tuple[Block, ...]:
    """Pareto-best (sets, partials, pair≤1) of one suit's counts.

    >>> suit_blocks((1, 1, 1, 0, 0, 0, 0, 0, 2), False)
    ((1, 0, 1), (0, 1, 1))
    """
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return ((0, 0, 0),)
    res: set[Block] = set()
    lst = list(c)

    def add(dm: int, dt: int, dp: int) -> None:
        for m, t, p in suit_blocks(tuple(lst), honour):
            pp, tt = p + dp, t + dt
            if pp > 1:
                pp, tt = 1, tt + 1
            res.add((m + dm, tt, pp))

    n = c[i]
    if n >= 3:
        lst[i] -= 3
        add(1, 0, 0)
        lst[i] += 3
    if n >= 2:
        lst[i] -= 2
        add(0, 0, 1)
        lst[i] += 2
    if not honour:
        if i + 2 < len(c) and c[i + 1] and c[i + 2]:
            lst[i] -= 1
            lst[i + 1] -= 1
            lst[i + 2] -= 1
            add(1, 0, 0)
            lst[i] += 1
            lst[i + 1] += 1
            lst[i + 2] += 1
        for j in (i + 1, i + 2):
            if j < len(c) and c[j]:
                lst[i] -= 1
                lst[j] -= 1
                add(0, 1, 0)
                lst[i] += 1
                lst[j] += 1
    lst[i] -= 1
    add(0, 0, 0)
    return _pareto(res)


_SUIT_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


@lru_cache(maxsize=200_000)
def _combine(states: tuple[Block, ...], blocks: tuple[Block, ...], cap: int) -> tuple[Block, ...]:
    """Add one suit's blocks to partial states, keeping for each (sets, pair) the most
    partial sets (both capped at ``cap``, beyond which they cannot count)."""
    best: dict[tuple[int, int], int] = {}
    for m, t, p in states:
        for bm, bt, bp in blocks:
            pp, tt = p + bp, t + bt
            if pp > 1:
                pp, tt = 1, tt + 1
            key = (min(m + bm, cap), pp)
            if tt > cap:
                tt = cap
            if best.get(key, -1) < tt:
                best[key] = tt
    return tuple((m, t, p) for (m, p), t in best.items())


@lru_cache(maxsize=50_000)
def _value(states: tuple[Block, ...], need: int) -> int:
    best = 0
    for m, t, p in states:
        m = min(m, need)
        v = 2 * m + min(t, need - m) + p
        if v > best:
            best = v
    return best


def shanten(counts: Sequence[int], need: int) -> int:
    """Standard-shape shanten of 34 counts that must make ``need`` more sets + a pair
    (-1 = complete).

    >>> shanten(T.counts(T.parse("123m456p789s1122z"), 34), 4)
    0
    """
    states: tuple[Block, ...] = ((0, 0, 0),)
    for lo, hi, honour in _SUIT_SLICES:
        states = _combine(states, suit_blocks(tuple(counts[lo:hi]), honour), need)
    return 2 * need - _value(states, need)


def pairs_shanten(counts: Sequence[int], pairs_needed: int = 7) -> int:
    """七对-style shanten: pairs still missing, minus one (four of a kind counts as two
    pairs, so as a ready filter it never misses a hand that may win that way)."""
    pairs = sum(n // 2 for n in counts[:34])
    return pairs_needed - 1 - min(pairs, pairs_needed)


@dataclass(frozen=True, slots=True)
class Plan:
    """What a bot aims for this hand. ``suit`` is 0..2 for a flush plan."""

    kind: str  # free | flush | pairs
    suit: int | None = None

    def allows(self, t: int) -> bool:
        return self.kind != "flush" or t >= 27 or t // 9 == self.suit


def choose_plan(counts: Sequence[int], *, pairs_ok: bool, prefer_high: bool, roll: float) -> Plan:
    """Pick a plan from the dealt tiles. ``prefer_high`` (a ruleset with a minimum, MCR)
    favours 七对 and flushes; ``roll`` in [0, 1) adds variety."""
    pairs = sum(1 for n in counts[:34] if n >= 2)
    per_suit = [sum(counts[9 * s:9 * s + 9]) for s in range(3)]
    honours = sum(counts[27:34])
    best = max(range(3), key=lambda s: (per_suit[s], -s))
    if pairs_ok and pairs >= (4 if prefer_high else 5):
        return Plan("pairs")
    flushy = per_suit[best] + honours
    if prefer_high:
        return Plan("flush", best) if flushy >= 7 or roll < 0.6 else Plan("free")
    return Plan("flush", best) if flushy >= 10 and roll < 0.5 else Plan("free")


#: per-seat noise levels a hand draws from: in rulesets without a minimum score, hands
#: end too quickly with sharp bots (hardly any exhaustive draws), so some seats play
#: loosely, and in a share of hands (``SLOW_TABLE``) every seat does
NOISE_LEVELS = (0.0, 0.0, 0.2, 0.5)
NOISE_LEVELS_MINIMUM = (0.0, 0.0, 0.0, 0.1)
SLOW_TABLE = (0.15, 0.8)  # (share of hands, noise of every seat)


class Bot:
    """Decisions for one seat. ``need`` is the number of sets a complete hand has (4 or 5)."""

    def __init__(self, plan: Plan, need: int, noise: float = 0.0):
        self.plan = plan
        self.need = need
        self.noise = noise  # share of discards chosen at random (slower tables, more draws)

    # --- evaluation -----------------------------------------------------------------
    def kept(self, counts: Sequence[int]) -> list[int]:
        if self.plan.kind != "flush":
            return list(counts[:34])
        s = self.plan.suit
        return [n if (t >= 27 or t // 9 == s) else 0 for t, n in enumerate(counts[:34])]

    def distance(self, counts: Sequence[int], n_melds: int, wilds: int = 0) -> int:
        """Shanten of the plan's tiles (wild tiles take one step each)."""
        kept = self.kept(counts)
        if self.plan.kind == "pairs" and n_melds == 0:
            sh = pairs_shanten(kept, self.need + 3)
        else:
            sh = shanten(kept, self.need - n_melds)
        return max(-1, sh - wilds)

    @staticmethod
    def _neighbours(counts: Sequence[int], t: int) -> int:
        if t >= 27:
            return 2 * (counts[t] - 1)
        r = t % 9
        n = 2 * (counts[t] - 1)
        for d in (-2, -1, 1, 2):
            if 0 <= r + d <= 8:
                n += counts[t + d] * (2 if abs(d) == 1 else 1)
        return n

    def removals(self, counts: Sequence[int], n_melds: int, wilds: int) -> dict[int, int]:
        """Shanten of the plan after taking away one copy of each held kind (kinds the plan
        does not keep leave it unchanged). Only the touched suit is recombined."""
        kept = self.kept(counts)
        out: dict[int, int] = {}
        if self.plan.kind == "pairs" and n_melds == 0:
            base = pairs_shanten(kept, self.need + 3)
            for t in range(34):
                if counts[t]:
                    out[t] = max(-1, (base + 1 if kept[t] in (2, 4) else base) - wilds)
            return out
        need = self.need - n_melds
        parts = [tuple(kept[lo:hi]) for lo, hi, _ in _SUIT_SLICES]
        blocks = [suit_blocks(parts[k], _SUIT_SLICES[k][2]) for k in range(4)]
        rests = []
        for k in range(4):
            states: tuple[Block, ...] = ((0, 0, 0),)
            for j in range(4):
                if j != k:
                    states = _combine(states, blocks[j], need)
            rests.append(states)
        base = max(-1, 2 * need - _value(_combine(rests[0], blocks[0], need), need) - wilds)
        for t in range(34):
            if not counts[t]:
                continue
            if not kept[t]:
                out[t] = base
                continue
            k = min(t // 9, 3)
            lo, _, honour = _SUIT_SLICES[k]
            sub = list(parts[k])
            sub[t - lo] -= 1
            states = _combine(rests[k], suit_blocks(tuple(sub), honour), need)
            out[t] = max(-1, 2 * need - _value(states, need) - wilds)
        return out

    def discard(self, counts: Sequence[int], n_melds: int, wilds: int, forbidden: frozenset[int]) -> int:
        """The tile to discard from ``counts`` (34 kinds, wild tiles excluded)."""
        cands = [t for t in range(34) if counts[t] and t not in forbidden]
        if not cands:
            cands = [t for t in range(34) if counts[t]]
        off = [t for t in cands if not self.plan.allows(t)]
        if off:
            return min(off, key=lambda t: (self._neighbours(counts, t), T.is_terminal_or_honour(t) is False, t))
        after = self.removals(counts, n_melds, wilds)
        return min(cands, key=lambda t: (after[t], self._neighbours(counts, t),
                                         0 if T.is_terminal_or_honour(t) else 1, t))

    def wants_call(self, counts: Sequence[int], n_melds: int, wilds: int, tile: int, used: Sequence[int]) -> bool:
        """Would taking ``tile`` with ``used`` from hand (a chi or pon) bring the plan closer?"""
        if self.plan.kind == "pairs" or not self.plan.allows(tile):
            return False
        before = self.distance(counts, n_melds, wilds)
        work = list(counts)
        for u in used:
            work[u] -= 1
        if not any(work):
            return False
        after = min(self.removals(work, n_melds + 1, wilds).values())
        return after < before

    def wants_kong(self, tile: int) -> bool:
        return self.plan.kind != "pairs" and self.plan.allows(tile)
