"""MCR (国标麻将): every reading of the standing tiles as sets and one pair, and their waits.

The fan calculator (:mod:`mahjong_audit.engine.rulesets.mcr_scoring`) reads a winning hand
in every way it splits (不拆移: each reading is one fixed partition) and keeps the best; this
module gives it those partitions, per suit, with what else it needs from each suit in the
same look-up. Like :mod:`mahjong_audit.engine.rulesets.longgang_readings` beside
:mod:`mahjong_audit.engine.decompose`, it only reads shapes: no fan is named here.

* :func:`suit_key` — one suit's counts packed in an int, the key of everything per suit.
* :data:`SUIT_TABLE` — every way to fill one suit with at most four sets and one pair, in
  canonical order, built once at import (tens of milliseconds).
* :class:`SuitFacts` — one suit of the standing tiles: its readings in canonical order
  (:class:`Reading`), the OR / AND of its tiles' traits (:data:`TILE_TRAITS`), the kinds
  held four times, whether every count is even, how many kinds. Memoised per suit on the
  suit's key.
* :func:`canonical_readings` — the 4-sets + pair readings of a hand from its four suits'
  facts, in the canonical order the scorer's tie-break depends on (mcr_scoring's docstring).
* :class:`SuitWaits`, :func:`wait_tiles`, :func:`single_wait` — the tiles that would
  complete the standing tiles (边张/嵌张/单钓将 need exactly one).

>>> from mahjong_audit.engine.tiles import parse, counts
>>> [(r.chows, r.pungs, r.pair) for r in regular_readings(counts(parse("111222333m55p789s"), 34))]
[((24,), (0, 1, 2), 13), ((0, 0, 0, 24), (), 13)]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Final, final

from mahjong_audit.engine import tiles as T

__all__ = [
    "CHOW", "KONG", "PAIR", "PUNG", "Reading", "SuitFacts", "SuitWaits", "TILE_TRAITS",
    "canonical_readings", "regular_readings", "single_wait", "subs", "suit_facts", "suit_key", "tile_keys", "wait_tiles",
]

#: kinds of a set in a reading (a kong is read only from the melds)
CHOW: Final = 0
PUNG: Final = 1
KONG: Final = 2
PAIR: Final = 3

#: the reference tile order (万 条 饼, winds, 中 发 白): ``CKEY[t]`` is tile t's place in it
CKEY: Final = tuple(
    [t for t in range(9)] + [t + 9 for t in range(9, 18)] + [t - 9 for t in range(18, 27)]
    + [27, 28, 29, 30, 33, 32, 31]
)


# --------------------------------------------------------------------------- tile traits

#: trait bits of a tile (:data:`TILE_TRAITS`): honour, wind, dragon, terminal or honour, green
#: (绿一色), reversible (推不倒); then one bit per suit (:data:`SUIT_BITS`) and per rank (bits 10-18)
HON: Final = 1
WND: Final = 2
DRG: Final = 4
TH: Final = 8
GRN: Final = 16
REV: Final = 32
SUIT_BITS: Final = (64, 128, 256)
RANK_MASK: Final = 0x3FF << 10  # ranks 1..9 at bits 10..18
TERM_HONOR: Final = frozenset(t for t in range(34) if T.is_terminal_or_honour(t))
_GREEN: Final = frozenset(T.parse("23468s6z"))
_REVERSIBLE: Final = frozenset(T.parse("1234589p245689s5z"))


def _traits(t: int) -> int:
    b = 0
    if t >= 27:
        b |= HON | (WND if t < 31 else DRG)
    else:
        b |= SUIT_BITS[t // 9] | (1 << (9 + t % 9 + 1))
    if t in TERM_HONOR:
        b |= TH
    if t in _GREEN:
        b |= GRN
    if t in _REVERSIBLE:
        b |= REV
    return b


TILE_TRAITS: Final = tuple(_traits(t) for t in range(34))


# --------------------------------------------------------------------------- one suit

#: a suit's counts packed in an int (:func:`suit_key`): rank i's count at bits 3i..3i+2
RANK_BITS: Final = 3
_RANK_COUNT: Final = 7  # the mask of one rank's count

#: a suit table (read only): key -> readings ``(sets, pair_rank)``
_SuitTable = dict[int, tuple[tuple[tuple[tuple[int, int], ...], int], ...]]


def _canonical_kinds(n: int, chows: bool, base: int) -> list[tuple[int, int]]:
    """The sets one suit can hold, (kind, rank index), in canonical order: the reference tile order
    of their first tiles (``CKEY``; ``base`` is the suit's first tile), a pung before a chow."""
    kinds = [(PUNG, i) for i in range(n)] + ([(CHOW, i) for i in range(n - 2)] if chows else [])
    kinds.sort(key=lambda ki: (CKEY[base + ki[1]], 0 if ki[0] == PUNG else 1))
    return kinds


def _build_suit_table(n: int, chows: bool, base: int) -> _SuitTable:
    """Every way to fill one suit with at most four sets and at most one pair.

    Maps the suit's key (:func:`suit_key`) to its readings ``(sets, pair_rank)``: sets as
    ``(kind, rank_index)`` in canonical order, pair_rank -1 when no pair; a key's readings in
    canonical order too (the sets are enumerated as non-decreasing sequences of
    :func:`_canonical_kinds`, depth first, and all the readings of one key have as many sets).
    Counts go up to 5: the wait analysis adds a tile to a suit and (like the reference
    calculator) counts a fifth copy as a wait.
    """
    kinds = _canonical_kinds(n, chows, base)
    table: dict[int, list[tuple[tuple[tuple[int, int], ...], int]]] = {}
    cnt = [0] * n

    def add(acc: list[tuple[int, int]], start: int, key: int) -> None:
        sets = tuple(acc)
        table.setdefault(key, []).append((sets, -1))
        for p in range(n):
            if cnt[p] <= 3:
                table.setdefault(key + (2 << RANK_BITS * p), []).append((sets, p))
        if len(acc) == 4:
            return
        for j in range(start, len(kinds)):
            k, i = kinds[j]
            span = range(i, i + 1) if k == PUNG else range(i, i + 3)
            step = 3 if k == PUNG else 1
            if any(cnt[x] + step > 5 for x in span):
                continue
            more = 0
            for x in span:
                cnt[x] += step
                more += step << RANK_BITS * x
            acc.append((k, i))
            add(acc, j, key + more)
            acc.pop()
            for x in span:
                cnt[x] -= step

    add([], 0, 0)
    return {k: tuple(v) for k, v in table.items()}


#: per suit shape (numbers, honours): key -> readings ``(sets (kind, rank index), pair rank or -1)``
SUIT_TABLE: Final = (_build_suit_table(9, True, 0), _build_suit_table(7, False, 27))
#: per suit shape: key -> 0 (splits into sets) or 1 (sets and the pair); absent: cannot be split
_SUIT_STATUS: Final[tuple[dict[int, int], dict[int, int]]] = tuple(  # type: ignore[assignment]
    {k: (1 if v[0][1] >= 0 else 0) for k, v in tb.items()} for tb in SUIT_TABLE
)


@final
class Reading:
    """One reading of the standing tiles (or of one suit of them) as sets and at most one pair.

    ``sets``: (kind, first tile) in canonical order (reference tile order, pung before chow);
    ``chows`` / ``pungs``: the first tiles of its chows and of its pungs, in that order;
    ``pair``: the pair's tile, -1 when there is none. Immutable (the attributes are Final)."""

    __slots__ = ("sets", "chows", "pungs", "pair")

    def __init__(self, sets: tuple[tuple[int, int], ...], chows: tuple[int, ...], pungs: tuple[int, ...],
                 pair: int) -> None:
        self.sets: Final = sets
        self.chows: Final = chows
        self.pungs: Final = pungs
        self.pair: Final = pair

    def __repr__(self) -> str:
        return f"Reading(sets={self.sets}, chows={self.chows}, pungs={self.pungs}, pair={self.pair})"


@final
class SuitFacts:
    """What the scorer needs from one suit of the standing tiles, in one look-up.

    ``readings``: its :class:`Reading` s, in canonical order (empty: the suit cannot be split;
    an empty suit has one reading with no set); ``any_traits`` / ``all_traits``: OR and AND of
    its tiles' :data:`TILE_TRAITS` (-1 for AND over no tile); ``fours``: kinds held four times;
    ``even``: every count even (七对); ``kinds``: kinds present."""

    __slots__ = ("readings", "any_traits", "all_traits", "fours", "even", "kinds")

    def __init__(self, readings: tuple[Reading, ...], any_traits: int, all_traits: int, fours: int, even: bool,
                 kinds: int) -> None:
        self.readings: Final = readings
        self.any_traits: Final = any_traits
        self.all_traits: Final = all_traits
        self.fours: Final = fours
        self.even: Final = even
        self.kinds: Final = kinds


@final
class SuitWaits:
    """One suit of the standing tiles before the winning tile, for the wait analysis.

    ``status``: -1 cannot be split, 0 splits into sets, 1 into sets and the pair; ``waits``:
    (tile, status with that tile added) for each tile whose addition leaves the suit
    splittable; ``odd``: the tiles held an odd number of times (七对's wait)."""

    __slots__ = ("status", "waits", "odd")

    def __init__(self, status: int, waits: tuple[tuple[int, int], ...], odd: tuple[int, ...]) -> None:
        self.status: Final = status
        self.waits: Final = waits
        self.odd: Final = odd


def _suit_size(s: int) -> int:
    return 7 if s == 3 else 9


def _suit_readings(key: int, s: int) -> tuple[Reading, ...]:
    """Readings of one suit with absolute tiles, in canonical order (:data:`SUIT_TABLE` holds them
    so), so that concatenating suits in the order 万 条 饼 字 gives the canonical hand order."""
    base = 9 * s
    out = []
    for rsets, p in SUIT_TABLE[s == 3].get(key, ()):
        sets = tuple([(k, base + i) for k, i in rsets])
        out.append(Reading(
            sets,
            tuple([t for k, t in sets if k == CHOW]),
            tuple([t for k, t in sets if k != CHOW]),
            base + p if p >= 0 else -1,
        ))
    return tuple(out)


def _suit_facts(key: int, s: int) -> SuitFacts:
    lo = 9 * s
    anyb = 0
    allb = -1
    fours = 0
    even = True
    kinds = 0
    for i in range(_suit_size(s)):
        n = key >> RANK_BITS * i & _RANK_COUNT
        if n:
            p = TILE_TRAITS[lo + i]
            anyb |= p
            allb &= p
            kinds += 1
            if n == 4:
                fours += 1
            if n & 1:
                even = False
    return SuitFacts(_suit_readings(key, s), anyb, allb, fours, even, kinds)


def _suit_waits(key: int, s: int) -> SuitWaits:
    status = _SUIT_STATUS[s == 3]
    base = 9 * s
    waits = []
    odd = []
    for i in range(_suit_size(s)):
        st = status.get(key + (1 << RANK_BITS * i), -1)
        if st >= 0:
            waits.append((base + i, st))
        if key >> RANK_BITS * i & 1:
            odd.append(base + i)
    return SuitWaits(status.get(key, -1), tuple(waits), tuple(odd))


#: the most shapes each memo below keeps (then it computes what it does not hold)
MEMO_MAX: Final = 1 << 16
#: per suit (万 饼 条 字 as tiles number them): its key -> :class:`SuitFacts` / :class:`SuitWaits`,
#: memoised as they are met (plain dicts keyed by an int)
_FACTS: Final[tuple[dict[int, SuitFacts], ...]] = ({}, {}, {}, {})
_WAITS: Final[tuple[dict[int, SuitWaits], ...]] = ({}, {}, {}, {})


def _facts_of(key: int, s: int) -> SuitFacts:
    memo = _FACTS[s]
    f = memo.get(key)
    if f is None:
        f = _suit_facts(key, s)
        if len(memo) < MEMO_MAX:
            memo[key] = f
    return f


def _waits_of(key: int, s: int) -> SuitWaits:
    memo = _WAITS[s]
    w = memo.get(key)
    if w is None:
        w = _suit_waits(key, s)
        if len(memo) < MEMO_MAX:
            memo[key] = w
    return w


# --------------------------------------------------------------------------- the hand


def _key(counts: list[int], lo: int, n: int) -> int:
    key = 0
    for i in range(n):
        key |= counts[lo + i] << RANK_BITS * i
    return key


def suit_key(counts: Sequence[int], s: int) -> int:
    """Suit ``s``'s counts (of 34 per-kind counts, each at most 7) packed in an int: rank i's
    count at bits 3i..3i+2, so that adding a tile of rank i adds ``1 << 3 * i``."""
    return _key(counts if isinstance(counts, list) else list(counts), 9 * s, _suit_size(s))


#: per tile kind: what it adds to its suit's key
_UNIT_OF: Final = tuple(1 << RANK_BITS * (t % 9 if t < 27 else t - 27) for t in range(34))


def tile_keys(tiles: tuple[int, ...], more: int) -> tuple[int, int, int, int]:
    """The four suits' keys (:func:`suit_key`) of the tiles and one more tile (playing tiles,
    at most four of a kind): :func:`subs` of their counts, without counting all 34 kinds."""
    k0 = k1 = k2 = k3 = 0  # in locals, not a list: the keys are ints beyond the small ones Python keeps
    unit = _UNIT_OF[more]  # the one more tile first: no tuple of them all
    if more < 9:
        k0 = unit
    elif more < 18:
        k1 = unit
    elif more < 27:
        k2 = unit
    else:
        k3 = unit
    for t in tiles:
        unit = _UNIT_OF[t]
        if t < 9:
            k0 += unit
        elif t < 18:
            k1 += unit
        elif t < 27:
            k2 += unit
        else:
            k3 += unit
    return k0, k1, k2, k3


def subs(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The 34 per-kind counts (each at most 4 here) cut into the four suits' keys (:func:`suit_key`)."""
    c = counts if isinstance(counts, list) else list(counts)
    return _key(c, 0, 9), _key(c, 9, 9), _key(c, 18, 9), _key(c, 27, 7)


def suit_facts(suits: tuple[int, int, int, int]) -> tuple[SuitFacts, SuitFacts, SuitFacts, SuitFacts]:
    """The four suits' :class:`SuitFacts` (``suits``: their keys, as :func:`subs` gives them)."""
    return _facts_of(suits[0], 0), _facts_of(suits[1], 1), _facts_of(suits[2], 2), _facts_of(suits[3], 3)


def canonical_readings(facts: tuple[SuitFacts, SuitFacts, SuitFacts, SuitFacts]) -> list[Reading]:
    """The 4-sets+pair readings of the standing tiles, from their suits' facts, in canonical order."""
    per_suit: list[tuple[Reading, ...]] = []
    pairs = 0
    for r in [facts[0].readings, facts[2].readings, facts[1].readings, facts[3].readings]:  # 万 条 饼 字: the reference tile order
        if not r:
            return []
        first = r[0]
        if first.pair >= 0:
            pairs += 1
        elif not first.sets:
            continue  # empty suit
        per_suit.append(r)
    if pairs != 1:
        return []
    if len(per_suit) == 1:
        return list(per_suit[0])
    single = True
    for r in per_suit:
        if len(r) != 1:
            single = False
            break
    if single:  # one reading per suit, the usual case: no product, one Reading
        return [_joined([r[0] for r in per_suit])]
    return [_joined(list(combo)) for combo in product(*per_suit)]


def _joined(parts: list[Reading]) -> Reading:
    """The readings of some suits (in canonical suit order) as one reading of them all."""
    sets: list[tuple[int, int]] = []
    ch: list[int] = []
    pg: list[int] = []
    pair = -1
    for part in parts:
        sets.extend(part.sets)
        ch.extend(part.chows)
        pg.extend(part.pungs)
        if part.pair >= 0:
            pair = part.pair
    return Reading(tuple(sets), tuple(ch), tuple(pg), pair)


def regular_readings(counts: Sequence[int]) -> list[Reading]:
    """The 4-sets+pair readings of 34 per-kind counts (any number of sets), in canonical order."""
    return canonical_readings(suit_facts(subs(counts)))


def _suit_waits_of(suits: tuple[int, int, int, int]) -> list[SuitWaits]:
    """The four suits' :class:`SuitWaits`, in a list (a loop over a tuple of four is a generic
    iteration in the compiled module)."""
    return [_waits_of(suits[0], 0), _waits_of(suits[1], 1), _waits_of(suits[2], 2), _waits_of(suits[3], 3)]


def wait_tiles(suits: tuple[int, int, int, int], seven: bool) -> set[int]:
    """Tiles that would complete the standing tiles without the winning tile (``suits``: their
    keys, as :func:`subs` gives them; ``seven``: 七对 counts too)."""
    infos = _suit_waits_of(suits)
    out = set()
    bad = 0
    pairs = 0
    for info in infos:
        bad += info.status == -1
        pairs += info.status == 1
    if bad <= 1:
        for info in infos:
            st = info.status
            if bad - (st < 0):
                continue  # another suit cannot be split
            need = 1 - pairs + (st == 1)
            if need < 0:
                continue
            for t, x in info.waits:
                if x == need:
                    out.add(t)
    if seven:
        single = _lone_odd(infos)
        if single >= 0:
            out.add(single)
    return out


def _lone_odd(infos: list[SuitWaits]) -> int:
    """七对's wait: the one tile held an odd number of times, -1 when there is not exactly one."""
    found = -1
    for info in infos:
        odd = info.odd
        if odd:
            if found >= 0 or len(odd) > 1:
                return -1
            found = odd[0]
    return found


def single_wait(suits: tuple[int, int, int, int], seven: bool) -> bool:
    """``len(wait_tiles(suits, seven)) == 1``, without building the set."""
    infos = _suit_waits_of(suits)
    bad = 0
    pairs = 0
    for info in infos:
        bad += info.status == -1
        pairs += info.status == 1
    found = -1  # the one waiting tile so far (tiles of different suits differ)
    if bad <= 1:
        for info in infos:
            st = info.status
            if bad - (st < 0):
                continue  # another suit cannot be split
            need = 1 - pairs + (st == 1)
            if need < 0:
                continue
            for t, x in info.waits:
                if x == need:
                    if found >= 0:
                        return False
                    found = t
    if seven:
        single = _lone_odd(infos)
        if single >= 0 and single != found:
            if found >= 0:
                return False
            found = single
    return found >= 0


def waits(counts: Sequence[int], seven: bool) -> set[int]:
    """Tiles that would complete ``counts`` (standing tiles without the winning tile)."""
    return wait_tiles(subs(counts), seven)
