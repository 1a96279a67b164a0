"""龙港麻将: every reading of a winning hand — where each wild stands, and which set the
winning tile completes — for the scorer to take the most favourable one (五、(一)1
"和牌者可以自由选择最有利的牌形来计分"; 二、二)7 "按高的胡数算").

A wild (正财 or 坐花) may stand for any tile: its own kind too (财神归位, 二、三)c, which is
not a substitution, so the hand stays 硬胡), and beyond the fourth copy of a kind
(二、三)e "手中有四个红中配双财神": the scorer keeps that for 中, 发 and the seat wind, see
:func:`within_copy_limits`). A winning tile that is itself a wild is read as the tile
it stands for, so the wait bonus comes from the place it takes in the set (二、二)1, 3).

A :class:`Reading` keeps :class:`mahjong_audit.engine.decompose.Part` as the decomposer gives it:
``Part.wilds`` counts the wilds standing for another tile in that part, the winning tile
not included; a part made only of wilds has ``tile = None`` (it stands for whatever suits
the hand best). Readings depend only on the hand's shape, so they are cached on it.

>>> from mahjong_audit.engine.tiles import parse, counts
>>> nat = tuple(counts(parse("345s45s123m456p789p99m"), 34))  # + a drawn 坐花 (wild)
>>> sorted({(r.win_kind, r.parts[r.win_idx].tile) for r in
...         winner_readings(nat, None, False, 0, 0, None, 5, False)})
[(20, 20), (23, 21)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import (
    PAIR,
    SEQ,
    TRIPLET,
    Part,
    completing_kinds,
    decompositions,
)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a winning hand.

    ``win_kind`` is the tile the winning tile stands for (itself when it is not a wild);
    ``win_wild`` tells that the winning tile is a wild; ``substitutes`` counts the wilds
    standing for another tile (0: 硬胡, no wild used or 财神归位)."""

    parts: tuple[Part, ...]
    win_idx: int
    win_kind: int
    win_wild: bool
    substitutes: int
    shape: str  # "standard" | "eight_pairs"

    def __init__(self, parts: tuple[Part, ...], win_idx: int, win_kind: int, win_wild: bool, substitutes: int,
                 shape: str) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "win_idx", win_idx)
        object.__setattr__(self, "win_kind", win_kind)
        object.__setattr__(self, "win_wild", win_wild)
        object.__setattr__(self, "substitutes", substitutes)
        object.__setattr__(self, "shape", shape)


def part_size(p: Part) -> int:
    return 2 if p.kind == PAIR else 3


def part_wilds(r: Reading, i: int, caishen_kind: int | None) -> int:
    """Wild tiles in part ``i``: substitutes, 正财 standing for themselves (every copy of
    the 财神 kind in a hand is a 正财) and the winning tile when it is a wild."""
    p = r.parts[i]
    if p.tile is None or (p.kind != SEQ and p.tile == caishen_kind):
        return part_size(p)
    return min(part_size(p), p.wilds + (1 if i == r.win_idx and r.win_wild else 0))


def free_tile(r: Reading, i: int, caishen_kind: int | None) -> int | None:
    """The tile part ``i`` is read as, or None when it is made only of wilds standing for
    another tile (it may then stand for whatever suits the hand best)."""
    p = r.parts[i]
    if p.tile is None or p.tile == caishen_kind:
        return p.tile
    subs = p.wilds + (1 if i == r.win_idx and r.win_wild else 0)
    return None if subs >= part_size(p) else p.tile


def within_copy_limits(r: Reading, limits: Sequence[int]) -> bool:
    """No kind shows more copies in the reading's sets than ``limits`` allows (a set made
    only of wilds may stand for any kind, so it counts for none)."""
    used = [0] * 34
    for p in r.parts:
        if p.tile is None:
            continue
        if p.kind == SEQ:
            for t in (p.tile, p.tile + 1, p.tile + 2):
                used[t] += 1
                if used[t] > limits[t]:
                    return False
        else:
            used[p.tile] += part_size(p)
            if used[p.tile] > limits[p.tile]:
                return False
    return True


def wait_of(p: Part, x: int) -> str:
    """The wait the winning tile ``x`` completes in part ``p``: single (单吊), triplet,
    closed (卡档/坎张, the middle of a run), edge (边张: 3 to 12, 7 to 89) or two_sided."""
    if p.kind == PAIR:
        return "single"
    if p.kind == TRIPLET or p.tile is None:
        return "triplet"
    a = p.tile
    if x == a + 1:
        return "closed"
    if (x == a and T.rank(a) == 7) or (x == a + 2 and T.rank(a) == 1):
        return "edge"
    return "two_sided"


def contains(p: Part, x: int) -> bool:
    if p.tile is None:
        return False
    if p.kind == SEQ:
        return p.tile <= x <= p.tile + 2 and T.suit(x) == T.suit(p.tile)
    return p.tile == x


def _key(p: Part) -> tuple[int, str, int]:
    return (-1 if p.tile is None else p.tile, p.kind, p.wilds)


def standard_parts(c: Sequence[int], n_sets: int, wilds: int) -> list[tuple[Part, ...]]:
    """Five sets and a pair (``n_sets`` concealed sets), every placement of the wilds.

    The decomposer fills a triplet with as many natural tiles as it can; a wild pair next
    to it may also be read as the triplet giving one natural to the pair (中中中 + two wilds:
    中中中 + a wild pair, or 中 + two wilds and a 中 pair — 将 only in the second)."""
    out = list(decompositions(c, n_sets, wilds))
    seen: set[tuple[Part, ...]] | None = None  # made at the first wild pair (most hands have none)
    for parts in list(out):
        if not any(p.tile is None and p.kind == PAIR and p.wilds == 2 for p in parts):  # Part(PAIR, None, 2)
            continue
        if seen is None:
            seen = set(out)
        for i, p in enumerate(parts):
            if p.kind != TRIPLET or p.tile is None or p.wilds > 1:
                continue
            rest = list(parts)
            rest[i] = Part(TRIPLET, p.tile, p.wilds + 1)
            rest.remove(Part(PAIR, None, 2))
            rest.append(Part(PAIR, p.tile, 1))
            key = tuple(sorted(rest, key=_key))
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def eight_pairs_parts(c: Sequence[int], wilds: int) -> list[tuple[Part, ...]]:
    """八对半: seven pairs (four alike are two pairs) and one triplet, all concealed; every
    placement of the wilds (a pair or the triplet holds at least one natural tile, or is
    made only of wilds)."""
    if sum(c[:34]) + wilds != 17:
        return []
    if sum(n & 1 for n in c[:34]) > wilds + 1:
        return []  # see is_eight_pairs: no triplet leaves few enough odd kinds
    out: set[tuple[Part, ...]] = set()
    kinds = [t for t in range(34) if c[t]]
    triplets: list[tuple[Part, int, int | None, int]] = [(Part(TRIPLET, None, 3), 3, None, 0)]
    for t in kinds:
        for n in range(max(1, 3 - wilds), min(3, c[t]) + 1):
            triplets.append((Part(TRIPLET, t, 3 - n), 3 - n, t, n))
    for trip, cost, kind, n in triplets:
        if cost > wilds:
            continue
        rest = list(c[:34])
        if kind is not None:
            rest[kind] -= n
        for pairs in _pairs(tuple(x for x in kinds if rest[x]), tuple(rest), wilds - cost):
            out.add(tuple(sorted((trip, *pairs), key=_key)))
    return sorted(out, key=lambda ps: [_key(p) for p in ps])


def _pairs(kinds: tuple[int, ...], rest: tuple[int, ...], wilds: int) -> Iterator[tuple[Part, ...]]:
    """Seven pairs from the natural ``rest`` of ``kinds`` and ``wilds``: each kind with r
    tiles makes p pairs (r/2 ≤ p ≤ r), 2p − r of them with a wild; wilds left pair up."""
    if not kinds:
        if wilds % 2 == 0:
            yield (Part(PAIR, None, 2),) * (wilds // 2)
        return
    x, more = kinds[0], kinds[1:]
    r = rest[x]
    for p in range((r + 1) // 2, r + 1):
        cost = 2 * p - r
        if cost > wilds:
            break
        mine = (Part(PAIR, x, 0),) * (r - p) + (Part(PAIR, x, 1),) * cost
        for tail in _pairs(more, rest, wilds - cost):
            yield mine + tail


@lru_cache(maxsize=8192)
def winner_readings(nat: tuple[int, ...], win: int | None, win_real: bool, held_real: int, held_zuo: int,
                    caishen_kind: int | None, n_sets: int, eight_pairs: bool) -> tuple[Reading, ...]:
    """Every reading of a winning hand.

    ``nat``: the 34 counts of the natural standing tiles, the winning tile not included;
    ``win``: the winning tile, or None when it is a wild (``win_real``: a 正财); ``held_real``
    / ``held_zuo``: the 正财 and 坐花 held besides the winning tile; ``caishen_kind``: the
    财神 kind (None under 花财神, where no wild can stand for itself); ``n_sets``: the
    concealed sets a standard hand needs; ``eight_pairs``: 八对半 is allowed."""
    if win is not None:
        options = [(win, False, False)]
    else:
        options = [(x, True, win_real and x == caishen_kind) for x in range(34)]
    held = held_real + held_zuo
    homing: Sequence[int] = range(held_real + 1) if caishen_kind is not None else range(1)
    # A wild winning tile stands for some x: the x that complete the standard shape with k 正财 at
    # home, all at once (decompose.completing_kinds: one pass over the suits, not 34 shape tests);
    # without 八对半 a number at home that no x completes is not tried at all.
    standard_xs = [0] * (held_real + 1)
    if win is None:
        for k in homing:
            standard_xs[k] = completing_kinds(_homed(nat, caishen_kind, k), n_sets, held - k)
        if not eight_pairs:
            homing = [k for k in homing if standard_xs[k]]
    # by (the parts' fields, the winning part, the winning kind, wild, shape): the parts and the
    # fewest substitutions; the fields compare as the parts do, and hash without a call per part
    best: dict[tuple[tuple[tuple[str, int | None, int], ...], int, int, bool, str],
               tuple[tuple[Part, ...], int]] = {}
    for x, wild, homed in options:
        for k in homing:
            c = list(nat)
            c[x] += 1
            if k:
                c[caishen_kind] += k  # type: ignore[index]
            left = held - k
            subs = left + (1 if wild and not homed else 0)
            shapes: list[tuple[str, tuple[Part, ...]]] = []
            # a natural winning tile: the hand is nearly always complete, and the decompositions say
            # so as well (none); a wild one: 34 tiles tried, most not complete, known at once
            if win is not None or standard_xs[k] >> x & 1:
                shapes.extend(("standard", ps) for ps in standard_parts(c, n_sets, left))
            if eight_pairs:
                shapes.extend(("eight_pairs", ps) for ps in eight_pairs_parts(c, left))
            for shape, parts in shapes:
                fields: tuple[tuple[str, int | None, int], ...] | None = None
                for i, p in enumerate(parts):
                    if contains(p, x):
                        if fields is None:
                            fields = tuple([(q.kind, q.tile, q.wilds) for q in parts])
                        key = (fields, i, x, wild, shape)
                        known = best.get(key)
                        if known is None:
                            best[key] = (parts, subs)
                        elif subs < known[1]:
                            best[key] = (known[0], subs)
    return tuple(Reading(parts, i, x, wild, subs, shape) for (_, i, x, wild, shape), (parts, subs) in best.items())


def _homed(nat: tuple[int, ...], caishen_kind: int | None, k: int) -> list[int]:
    """The natural counts with ``k`` 正财 at home (read as the 财神 kind itself)."""
    c = list(nat)
    if k and caishen_kind is not None:
        c[caishen_kind] += k
    return c


def is_eight_pairs(c: Sequence[int], wilds: int) -> bool:
    """The fast test for 八对半 (see :func:`eight_pairs_parts`): a triplet of ``n`` natural
    tiles and ``3 − n`` wilds, and every kind left with an odd count gets a wild."""
    if sum(c[:34]) + wilds != 17:
        return False
    odd = sum(n & 1 for n in c[:34])
    # Taking the triplet out changes the parity of one kind at most, and each kind left
    # odd needs a wild: with more odd kinds than wilds + 1 no triplet can work (fast exit).
    if odd > wilds + 1:
        return False
    if wilds >= 3 and odd <= wilds - 3:
        return True
    for t in range(34):
        ct = c[t]
        if not ct:
            continue
        for n in range(max(1, 3 - wilds), min(3, ct) + 1):
            if odd - (ct & 1) + ((ct - n) & 1) <= wilds - (3 - n):
                return True
    return False
