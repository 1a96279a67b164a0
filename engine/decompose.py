"""Decomposition of standing tiles into sets and one pair, with optional wild tiles.

Two entry points:

* :func:`is_complete` — the fast test ("can these tiles make ``n`` sets + a pair?"), used
  on every discard to work out who could win. Per-suit results are cached on immutable
  tuple keys, then combined.
* :func:`decompositions` — every distinct decomposition, for scoring (which takes the
  maximum over them). A set is a :class:`Part`; wild tiles fill the missing places, and a
  part made only of wilds has ``tile = None`` (the scorer chooses what it stands for).

>>> from mahjong_audit.engine.tiles import parse, counts
>>> is_complete(counts(parse("123m456p789s11122z"), 34), 4)
True
>>> is_complete(counts(parse("123m456p789s1112z"), 34), 4, wilds=1)
True
>>> len(decompositions(counts(parse("111222333m11p"), 34), 3))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mahjong_audit.engine.tiles import TERMINALS_AND_HONOURS

SEQ: Final = "seq"
TRIPLET: Final = "triplet"
PAIR: Final = "pair"


@dataclass(frozen=True, slots=True, order=True)
class Part:
    """A set or the pair. ``tile`` is the lowest tile (None for an all-wild part);
    ``wilds`` counts the wild tiles used in it."""

    kind: str
    tile: int | None
    wilds: int = 0

    def __init__(self, kind: str, tile: int | None, wilds: int = 0) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "wilds", wilds)

    def tiles(self) -> tuple[int, ...]:
        if self.tile is None:
            return ()
        if self.kind == SEQ:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (3 if self.kind == TRIPLET else 2)


@lru_cache(maxsize=65536)
def _suit_options(c: tuple[int, ...], honour: bool, maxw: int) -> frozenset[tuple[int, int, int]]:
    """Achievable (sets, pairs, wilds used) for one suit's counts, pairs ≤ 1, wilds ≤ maxw."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    lst = list(c)

    def recurse(sets: int, pairs: int, w: int) -> None:
        if w > maxw:
            return
        for s, p, w2 in _suit_options(tuple(lst), honour, maxw - w):
            if pairs + p <= 1:
                out.add((s + sets, p + pairs, w2 + w))

    n = c[i]
    # triplet with i
    take = min(n, 3)
    lst[i] -= take
    recurse(1, 0, 3 - take)
    lst[i] += take
    # pair with i
    take = min(n, 2)
    lst[i] -= take
    recurse(0, 1, 2 - take)
    lst[i] += take
    if not honour:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 > 8:
                continue
            w = 0
            used = []
            for k in (start, start + 1, start + 2):
                if lst[k] > 0:
                    lst[k] -= 1
                    used.append(k)
                else:
                    w += 1
            recurse(1, 0, w)
            for k in used:
                lst[k] += 1
    return frozenset(out)


def _split(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))


def is_complete(counts: Sequence[int], n_sets: int, wilds: int = 0) -> bool:
    """Can the 34 ``counts`` plus ``wilds`` wild tiles make exactly ``n_sets`` sets and a pair?

    With the tile count right, a choice of one option per suit (:func:`_suit_options`) with at
    most one pair and at most ``wilds`` wilds used always completes: a suit of ``k`` tiles
    with ``s`` sets, ``p`` pairs and ``w`` wilds has 3s + 2p = k + w, so the wilds left over
    make up exactly the sets still missing (and the pair, when no suit has it). So each suit
    needs only the fewest wilds it takes without the pair and with it (:func:`suit_least`),
    looked up by the suit's counts as bytes (built and hashed in C, compiled or not: on the
    sources a loop packing the counts costs twice the whole test)."""
    total = sum(counts[:34]) + wilds
    if total != 3 * n_sets + 2:
        return False
    no_pair, with_pair = 0, _NEVER  # the fewest wilds the suits so far need without / with the pair
    for k in range(4):
        start = 9 * k
        part = counts[start:start + (7 if k == 3 else 9)]
        try:
            key: object = _HONOURS + bytes(part) if k == 3 else bytes(part)
        except ValueError:  # a count beyond a byte (no real hand): the tuple
            key = (k == 3, tuple(part))
        least = _BY_BYTES.get(key)
        if least is None:
            packed = _least_of(counts, start, k == 3)
            least = _BY_BYTES[key] = (packed & _LOW, packed >> _M1)
        m0, m1 = least
        with_pair = min(with_pair + m0, no_pair + m1)
        no_pair += m0
        if no_pair > wilds and with_pair > wilds:
            return False
    return True


#: more wilds than any hand holds: "no such option"
_NEVER: Final = 1 << 20
#: :func:`_least` packs its two answers in one int: without the pair in the low bits, with it from bit ``_M1``
_M1: Final = 21
_LOW: Final = (1 << _M1) - 1

#: :func:`_least` by the suit's packed counts, its width and whether it is the honours (:func:`_least`'s
#: ``memo``); a cache: filled as suits are met, never changed. Ints, not tuples: a key is built
#: and looked up without allocating a tuple or hashing nine counts, compiled or not.
_LEAST: Final[dict[int, int]] = {}
#: entries beyond this many are worked out and not kept (a bound on the memory of a long run)
_LEAST_MAX: Final = 1 << 20
#: the front of :data:`_LEAST`: slot ``memo % _FRONT_SLOTS`` holds the last memo met there and its
#: answer (-1: none yet). A hit is a division and two list reads, where the dict look-up boxes the
#: memo (beyond 30 bits: an allocation) and hashes it. As many slots as a prime: memos differ in a
#: nibble or two anywhere in their bits, and a prime spreads them where a fold or a multiply's
#: middle bits put many on the same slots.
_FRONT_SLOTS: Final = 32749
_FRONT_MEMOS: Final[list[int]] = [-1] * _FRONT_SLOTS
_FRONT_LEAST: Final[list[int]] = [0] * _FRONT_SLOTS
#: :func:`is_complete`'s front of :data:`_LEAST`: the answers by the suit's counts as bytes, the
#: honours' prefixed by :data:`_HONOURS` (a cache: filled as suits are met, never changed)
_BY_BYTES: dict[object, tuple[int, int]] = {}
_HONOURS: Final = b"z"


def _least_of(counts: Sequence[int], start: int, honour: bool) -> int:
    """:func:`_least` of the suit of ``counts`` from ``start`` (9 kinds, the honours 7), packed
    four bits a kind, the suit's first kind lowest (as many bits as the largest count needs
    beyond 15, which no hand holds)."""
    key, width = _suit_key(_as_list(counts), start, 7 if honour else 9)
    return _least(key, width, honour)


def _lowest_kind(key: int, width: int) -> int:
    """The first kind held in a suit's packed counts (``key`` non-zero, ``width`` bits a kind): its
    place in the suit ``i`` and its count ``n``, as ``i | n << 4`` (one int: compiled, a tuple
    returned is an allocation)."""
    i = ((key & -key).bit_length() - 1) // width  # the field of the lowest bit set
    return i | (key >> width * i & (1 << width) - 1) << 4


def _take_run(key: int, width: int, start: int) -> int:
    """A sequence from kind ``start`` taken out of a suit's packed counts: what is left, and how many
    of its three kinds the suit lacks (wilds stand in for them: at most 2, the run holding a tile),
    as ``left << 2 | wilds``."""
    mask = (1 << width) - 1
    w = 0
    sub = key
    for k in range(start, start + 3):
        if key >> width * k & mask:
            sub -= 1 << width * k
        else:
            w += 1
    return sub << 2 | w


def _least(key: int, width: int, honour: bool) -> int:
    """The fewest wilds one suit's counts (``key``: packed ``width`` bits a kind, the first kind
    lowest) need to be used up without the pair and with it (:data:`_NEVER`: no pair in an
    empty suit), as ``without | with << _M1``: each set or the pair holds the first tile left,
    or it is left out; the same minima as :func:`_suit_options`' options, without a cap on the
    wilds (a cap ``w`` only drops options above ``w``, which ``is_complete`` refuses).

    The counts are moved down to start at the suit's first kind held: a suit needs the same
    fewest wilds wherever its tiles sit (a set holds tiles at most two kinds apart, and a run of
    three kinds around them fits in the nine), so the suits met share their entries of
    :data:`_LEAST` (each set taken out leaves a suit that starts further up)."""
    if key == 0:
        return _NEVER << _M1
    low = _lowest_kind(key, width)
    n = low >> 4
    key >>= width * (low & 15)  # the first kind held first
    memo = key << 6 | width << 1 | (1 if honour else 0)
    slot = memo % _FRONT_SLOTS
    if _FRONT_MEMOS[slot] == memo:
        return _FRONT_LEAST[slot]
    hit = _LEAST.get(memo)
    if hit is not None:
        _FRONT_MEMOS[slot] = memo
        _FRONT_LEAST[slot] = hit
        return hit
    # a triplet with the first kind
    take = 3 if n > 3 else n
    r = _least(key - take, width, honour)
    m0 = 3 - take + (r & _LOW)
    m1 = 3 - take + (r >> _M1)
    # the pair with it
    take = 2 if n > 2 else n
    r = _least(key - take, width, honour)
    x = 2 - take + (r & _LOW)
    if x < m1:
        m1 = x
    if not honour:  # the run from it
        run = _take_run(key, width, 0)
        w = run & 3
        r = _least(run >> 2, width, honour)
        x = w + (r & _LOW)
        if x < m0:
            m0 = x
        x = w + (r >> _M1)
        if x < m1:
            m1 = x
    # no pair in what is left (an empty suit) is "no such way" however many wilds come before
    out = (m0 if m0 < _NEVER else _NEVER) | (m1 if m1 < _NEVER else _NEVER) << _M1
    if len(_LEAST) < _LEAST_MAX:
        _LEAST[memo] = out
    _FRONT_MEMOS[slot] = memo
    _FRONT_LEAST[slot] = out
    return out


def suit_least(counts: Sequence[int], honour: bool) -> tuple[int, int]:
    """The fewest wilds one suit's counts (9 kinds, or the 7 honours) need to be used up in
    sets without the pair, and in sets and the pair (a number beyond any hand's wilds for
    "no such way"): the per-suit answers :func:`is_complete` combines, for callers that
    combine them themselves (``mahjong_audit.engine.chances``' shape gate).

    >>> suit_least((1, 1, 1, 0, 0, 0, 0, 0, 0), False), suit_least((2, 0, 0, 0, 0, 0, 0), True)
    ((0, 2), (1, 0))
    """
    least = _least_of(counts, 0, honour)
    return least & _LOW, least >> _M1


#: the honours' mark in a suit key (shifted with the honours' 7 counts to bit 37: above every suit's
#: 36 bits), so that no honours' key is a numbered suit's
_HONOUR_KEY: Final = 1 << 9
#: a tile's count's place in its suit's key (bits from the right; kinds 0..33), the first kind
#: highest: a key is the sum of ``count << KEY_SHIFT[t]`` over its suit's kinds (plus
#: :data:`HONOURS_EMPTY` for the honours'), so a hand's keys follow its counts by addition
#: (``SeatState.add``), exact while every count is in 0..15. The claim chances' shape gate
#: (``chances._FACTS``) and 龙港's winning tiles look suits up by these keys.
KEY_SHIFT: Final = tuple(4 * (8 - t % 9) if t < 27 else 4 * (33 - t) for t in range(34))
#: the honours' key of no honours (their mark, :data:`_HONOUR_KEY`, above the 7 counts)
HONOURS_EMPTY: Final = _HONOUR_KEY << 28


def suit_key(hand: list[int], start: int, key: int) -> int:
    """One suit's counts from ``start`` (9 kinds, the honours 7) packed after ``key``, four bits
    a kind; -1 for a count below 0 or above 15. After ``key`` 0, the honours' with
    :data:`HONOURS_EMPTY` added, it is the key ``SeatState`` keeps (龙港's winning tiles read those)."""
    for t in range(start, start + (7 if start == 27 else 9)):
        n = hand[t]
        if n < 0 or n > 15:
            return -1
        key = key << 4 | n
    return key


def suit_counts(key: int) -> tuple[bool, list[int]]:
    """Whether a ``chances._FACTS`` key (a ``SeatState`` suit key) is the honours', and the counts it packs,
    the suit's first kind first."""
    honour = key >> 36 != 0
    n = 7 if honour else 9
    counts = [0] * n
    for r in range(n - 1, -1, -1):
        counts[r] = key & 15
        key >>= 4
    return honour, counts


def suit_least_key(key: int, honour: bool) -> tuple[int, int]:
    """:func:`suit_least` of a suit's counts already packed four bits a kind (each 0..15; nine
    kinds, or the seven honours), the first kind in the lowest bits or in the highest: a suit read
    backwards needs the same fewest wilds (its runs are runs the other way, its triplets and pairs
    the same), so the packing of ``SeatState``'s suit keys is looked up as it is.

    >>> suit_least_key(0x111000000, False), suit_least_key(0x111, False), suit_least_key(0x2000000, True)
    ((0, 2), (0, 2), (1, 0))
    """
    least = _least(key, 4, honour)
    return least & _LOW, least >> _M1


#: :func:`suit_least_more` by the suit's key, the honours' marked by :data:`HONOURS_EMPTY` (a cache:
#: filled as suits are met, never changed)
_MORE: Final[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def suit_least_more(key: int, honour: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`suit_least_key` of a suit's key (``SeatState``'s packing: the first kind highest, no
    honours' mark) with one tile more of each of its kinds in turn: the fewest wilds without the pair
    by kind, and with it. A kind held 15 times (one more of which the key cannot hold) is worked out
    from its counts.

    >>> suit_least_more(0x011000000, False)[0][:4]  # 23m with 1m, 2m, 3m or 4m more, in sets alone
    (0, 3, 3, 0)
    """
    memo = key + HONOURS_EMPTY if honour else key
    hit = _MORE.get(memo)
    if hit is not None:
        return hit
    n = 7 if honour else 9
    a0: list[int] = []
    a1: list[int] = []
    for r in range(n):
        at = 4 * (n - 1 - r)
        if key >> at & 15 == 15:
            part = [key >> 4 * (n - 1 - i) & 15 for i in range(n)]
            part[r] += 1
            x0, x1 = suit_least(part, honour)
        else:
            x0, x1 = suit_least_key(key + (1 << at), honour)
        a0.append(x0)
        a1.append(x1)
    out = (tuple(a0), tuple(a1))
    if len(_MORE) < _LEAST_MAX:
        _MORE[memo] = out
    return out


def completing_kinds(counts: list[int], n_sets: int, wilds: int) -> int:
    """The kinds (bit ``t``, of the 34) whose one tile more makes :func:`is_complete` true for the 34
    ``counts``, ``n_sets`` and ``wilds``, all at once: by :func:`is_complete`'s criterion (the suits'
    fewest wilds, the pair in one suit or of wilds, at most ``wilds`` in all), each suit's answers
    read once for its counts and once per kind one more (:func:`suit_least_more`), instead of a
    test per kind. Counts beyond 0..15 (no real hand) are tested kind by kind.

    >>> from mahjong_audit.engine.tiles import parse, counts, fmt
    >>> c = counts(parse("123m456p789s11z34s"), 34)
    >>> fmt([t for t in range(34) if completing_kinds(c, 4, 0) >> t & 1])
    '25s'
    """
    total = wilds + 1
    for t in range(34):
        total += counts[t]
    if total != 3 * n_sets + 2:
        return 0
    keys = [suit_key(counts, 0, 0), suit_key(counts, 9, 0), suit_key(counts, 18, 0), suit_key(counts, 27, 0)]
    if keys[0] < 0 or keys[1] < 0 or keys[2] < 0 or keys[3] < 0:
        out = 0
        for t in range(34):
            more = list(counts[:34])
            more[t] += 1
            if is_complete(more, n_sets, wilds):
                out |= 1 << t
        return out
    m0: list[int] = []
    d: list[int] = []  # what the pair adds in each suit
    s0 = 0
    for k in range(4):
        x0, x1 = suit_least_key(keys[k], k == 3)
        m0.append(x0)
        d.append(x1 - x0)
        s0 += x0
    out = 0
    for k in range(4):
        # the pair elsewhere at best: of wilds (0), or in another suit
        pair = 0
        for j in range(4):
            if j != k and d[j] < pair:
                pair = d[j]
        rest = s0 - m0[k]
        more0, more1 = suit_least_more(keys[k], k == 3)
        for r in range(len(more0)):
            need = more1[r] - more0[r]
            if pair < need:
                need = pair
            if rest + more0[r] + need <= wilds:
                out |= 1 << (9 * k + r)
    return out


#: a part as one int, in :class:`Part`'s own order (kind, then tile, then wilds: "pair" < "seq" <
#: "triplet" as strings) so that tuples of codes sort as tuples of parts do: the kind's rank from
#: bit :data:`_RANK_AT`, the tile + 1 (0: all wilds) from bit 4, the wilds below
_RANK_AT: Final = 12
_KINDS: Final = (PAIR, SEQ, TRIPLET)
_PAIR_RANK: Final = 0
_SEQ_RANK: Final = 1
_TRIPLET_RANK: Final = 2
#: the all-wild parts :func:`decompositions` adds, in :func:`_tile_major` form
_WILD_PAIR: Final = _PAIR_RANK << 4 | 2
_WILD_TRIPLET: Final = _TRIPLET_RANK << 4 | 3

#: one suit's options (:func:`_suit_codes`) by the suit's packed counts, their width and whether it
#: is the honours: (the wild budget they were worked out for, the options). A cache: an entry is
#: replaced only by one for a larger budget (whose options within the smaller budget are the same).
#: The three numbered suits share their entries (the first suit's tiles: :func:`_suit_ways`).
_SUIT_CODES: Final[dict[int, tuple[int, tuple[tuple[tuple[int, ...], int, int], ...]]]] = {}
#: :func:`_suit_ways` of the second and third numbered suits, by the same memo with the suit's number
#: (the first suit's options moved up): a cache as :data:`_SUIT_CODES`
_SUIT_WAYS: Final[dict[int, tuple[int, tuple[tuple[tuple[int, ...], int, int], ...]]]] = {}
#: entries beyond this many are worked out and not kept (a bound on the memory of a long run)
_SUIT_CODES_MAX: Final = 1 << 16
#: the :class:`Part` of each code in :func:`_tile_major` form, by the code (one object per distinct
#: part, None until met; a list: the codes are below 35 << 8)
_PART_OF: Final[list[Part | None]] = [None] * (35 << 8)


def _code(rank: int, tile: int, wilds: int) -> int:
    """A part's code (see :data:`_RANK_AT`) from its kind's rank, its tile and its wilds."""
    return rank << _RANK_AT | (tile + 1) << 4 | wilds


def _tile_major(code: int) -> int:
    """The same part with the tile first (tile + 1, rank, wilds): the order of a
    decomposition's parts (by tile, all wilds first, then kind, then wilds)."""
    return (code >> 4 & 255) << 8 | (code >> _RANK_AT) << 4 | (code & 15)


def _part_of(code: int) -> Part:
    """The :class:`Part` of a :func:`_tile_major` code."""
    part = _PART_OF[code]
    if part is None:
        tile = code >> 8
        part = Part(_KINDS[code >> 4 & 15], None if tile == 0 else tile - 1, code & 15)
        _PART_OF[code] = part
    return part


def _suit_ways(key: int, width: int, suit: int, maxw: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """:func:`_suit_codes` of suit ``suit`` (0–2 the numbered suits, 3 the honours). A numbered suit's
    ways are those of the same counts in the first suit with every tile 9 × ``suit`` higher: the
    same ways in the same order (a constant added to every code's tile keeps the codes' order), so
    the suits share the search (:data:`_SUIT_CODES`) and the second and third suit only move its
    answer up, once per key (:data:`_SUIT_WAYS`)."""
    if suit == 0 or suit == 3:
        return _suit_codes(key, width, suit == 3, maxw)
    memo = key << 8 | width << 2 | suit
    hit = _SUIT_WAYS.get(memo)
    if hit is not None and hit[0] >= maxw:
        return hit[1]
    up = 9 * suit << 4  # the tile's place in a code (see _RANK_AT)
    options = tuple([(tuple([code + up for code in codes]), w, pairs)
                     for codes, w, pairs in _suit_codes(key, width, False, maxw)])
    if hit is not None or len(_SUIT_WAYS) < _SUIT_CODES_MAX:
        _SUIT_WAYS[memo] = (maxw, options)
    return options


def _suit_codes(key: int, width: int, honour: bool, maxw: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every way to use up one suit's tiles as parts with at most one pair and at most ``maxw``
    wilds: (the parts' codes sorted, wilds used, pairs), sorted. ``key`` holds the suit's counts
    ``width`` bits a kind, its first kind lowest; ``honour``: the honours (their tiles from 27),
    else a numbered suit, read as the first (its tiles from 0: :func:`_suit_ways` moves them up).

    Each part holds the suit's first tile left: its triplet (as many natural tiles as there are, up
    to three), its pair, or a run through it, wilds filling the places missing. Ways with two pairs
    or more are left out (no decomposition keeps them). The answer may also hold ways beyond
    ``maxw`` (an entry worked out for a larger budget: the ways within ``maxw`` are the same and in
    the same order); callers skip those."""
    memo = key << 8 | width << 2 | (1 if honour else 0)
    hit = _SUIT_CODES.get(memo)
    if hit is not None and hit[0] >= maxw:
        return hit[1]
    if key == 0:
        return (((), 0, 0),)
    base = 27 if honour else 0
    low = _lowest_kind(key, width)
    i = low & 15
    n = low >> 4
    at = width * i
    out: set[tuple[tuple[int, ...], int, int]] = set()
    take = 3 if n > 3 else n
    _grow(out, key - (take << at), width, honour, maxw, _code(_TRIPLET_RANK, base + i, 3 - take), 0, 3 - take)
    take = 2 if n > 2 else n
    _grow(out, key - (take << at), width, honour, maxw, _code(_PAIR_RANK, base + i, 2 - take), 1, 2 - take)
    if not honour:
        for start in range(i - 2 if i >= 2 else 0, (i if i <= 6 else 6) + 1):  # the runs through i
            run = _take_run(key, width, start)
            w = run & 3
            _grow(out, run >> 2, width, honour, maxw, _code(_SEQ_RANK, base + start, w), 0, w)
    options = tuple(sorted(out))
    if hit is not None or len(_SUIT_CODES) < _SUIT_CODES_MAX:
        _SUIT_CODES[memo] = (maxw, options)
    return options


def _grow(out: set[tuple[tuple[int, ...], int, int]], rest: int, width: int, honour: bool, maxw: int,
          part: int, pair: int, w: int) -> None:
    """Add to ``out`` the ways of :func:`_suit_codes` that start with ``part`` (``pair``: 1 for the
    pair; ``w`` wilds) and use up ``rest`` as it says."""
    if w > maxw:
        return
    for codes, w2, pairs in _suit_codes(rest, width, honour, maxw - w):
        if w + w2 <= maxw and pair + pairs <= 1:
            # ``part`` put in its place among the sorted ``codes`` (ints compared natively, not sorted again)
            k = 0
            while k < len(codes) and codes[k] < part:
                k += 1
            out.add((codes[:k] + (part,) + codes[k:], w + w2, pair + pairs))


def _as_list(counts: Sequence[int]) -> list[int]:
    """``counts`` as a list, itself when it is one: compiled, a list's items are read directly, any
    other sequence's through a generic call per item."""
    return counts if isinstance(counts, list) else list(counts)


def _suit_key(counts: list[int], start: int, n: int) -> tuple[int, int]:
    """The ``n`` counts of ``counts`` from ``start`` packed (the first kind lowest), and the bits a kind
    (four, or as many as the largest count needs)."""
    key = top = 0
    for k in range(n):
        c: int = counts[start + k]
        if c < 0:
            raise ValueError(f"a negative tile count ({c}) in a suit")
        if c > top:
            top = c
        key |= c << 4 * k
    if top <= 15:
        return key, 4
    width = top.bit_length()
    key = 0
    for k in range(n):
        key |= counts[start + k] << width * k
    return key, width


def decompositions(counts: Sequence[int], n_sets: int, wilds: int = 0) -> list[tuple[Part, ...]]:
    """All distinct decompositions into ``n_sets`` sets + one pair (parts sorted).

    Parts made only of wild tiles have ``tile=None``. The suits' ways (:func:`_suit_ways`) are
    combined in their order, suit by suit; the decompositions come in the order they are first
    met, their parts sorted by tile (all wilds first), kind and wilds (:func:`_tile_major`).
    """
    c = _as_list(counts)
    total = wilds
    for t in range(34):
        total += c[t]
    if total != 3 * n_sets + 2:
        return []
    partial: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]
    for k in range(4):
        key, width = _suit_key(c, 9 * k, 7 if k == 3 else 9)
        options = _suit_ways(key, width, k, wilds)
        grown: list[tuple[tuple[int, ...], int, int]] = []
        for parts, w, pairs in partial:
            for more, w2, p2 in options:
                if w + w2 <= wilds and pairs + p2 <= 1:
                    grown.append((parts + more, w + w2, pairs + p2))
        if not grown:
            return []
        partial = grown
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[Part, ...]] = []
    for parts, w, pairs in partial:
        sets = len(parts) - pairs
        left = wilds - w
        extra: list[int]
        if pairs == 1 and left % 3 == 0 and sets + left // 3 == n_sets:
            extra = [_WILD_TRIPLET] * (left // 3)
        elif pairs == 0 and left >= 2 and (left - 2) % 3 == 0 and sets + (left - 2) // 3 == n_sets:
            extra = [_WILD_PAIR] + [_WILD_TRIPLET] * ((left - 2) // 3)
        else:
            continue
        for code in parts:
            extra.append(_tile_major(code))
        extra.sort()
        found = tuple(extra)
        if found not in seen:
            seen.add(found)
            out.append(tuple([_part_of(code) for code in found]))
    return out


def is_seven_pairs(counts: Sequence[int], wilds: int = 0, pairs: int = 7) -> bool:
    """``pairs`` pairs (a kind held four times counts as two pairs), wilds filling singles."""
    total = sum(counts[:34]) + wilds
    if total != 2 * pairs:
        return False
    singles = sum(n % 2 for n in counts[:34])
    return singles <= wilds


_ORPHANS: Final = TERMINALS_AND_HONOURS


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """十三幺: 14 tiles of the 34 kinds, every terminal and honour among them, nothing else."""
    if sum(counts[:34]) != 14:
        return False
    held = 0
    for t in _ORPHANS:
        n: int = counts[t]
        if n < 1:
            return False
        held += n
    return held == 14
