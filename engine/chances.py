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
from typing import TYPE_CHECKING, Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import (
    _HONOUR_KEY,
    HONOURS_EMPTY,
    KEY_SHIFT,
    suit_counts,
    suit_key,
)
from mahjong_audit.engine.pickling import by_fields
from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets.guangdong import Guangdong
from mahjong_audit.engine.rulesets.mcr import KNITTED, MCR, ORPHANS
from mahjong_audit.engine.tiles import i64

if TYPE_CHECKING:
    from mahjong_audit.engine.replay import HandReplay

WIN: Final = 0
CALL: Final = 1
SEATS: Final = 4
_CALL_RANK: Final = {"chi": 1, "pon": 2, "kong": 2, "win": 3}


@dataclass(frozen=True, slots=True)
class Chances:
    """One hand's chances, per ordered seat pair (index ``seat * 4 + from_seat``)."""

    win_chances: tuple[int, ...]  # times the seat could have won on from_seat's discard
    wins_passed: tuple[int, ...]  # … and did not (nor declared it)
    call_chances: tuple[int, ...]  # times it could have ponged or konged from_seat's discard
    calls_passed: tuple[int, ...]  # … and did not (nor declared a call)

    def __init__(self, win_chances: tuple[int, ...], wins_passed: tuple[int, ...], call_chances: tuple[int, ...],
                 calls_passed: tuple[int, ...]) -> None:  # its own: compiled, native (as engine/hand.py's)
        object.__setattr__(self, "win_chances", win_chances)
        object.__setattr__(self, "wins_passed", wins_passed)
        object.__setattr__(self, "call_chances", call_chances)
        object.__setattr__(self, "calls_passed", calls_passed)


#: :func:`shape_gate`'s "no quick answer: ask about every tile"
ASK: Final = -1


def shape_gate(hand: list[int], n_melds: int, wilds: frozenset[int]) -> int:
    """Which tiles may complete the seat's standing tiles (per-tile counts, 34 or 42) in a
    shape the rulesets know (a standard hand, seven pairs, thirteen orphans, knitted shapes),
    as a bit mask (bit ``t``: tile ``t``): with no special shape within one tile, the tiles
    that make it a standard hand (sets and a pair, whatever their number); 0 when no tile
    does; :data:`ASK` when a special shape is near, or the seat holds flowers or wild tiles
    (no quick answer; so also for a count no hand holds). Near seven pairs alone (13 tiles, no
    melds, six pairs), the tiles that make a standard hand or seven pairs (the kinds held an odd
    number of times), marked :data:`LOOSE`: a superset, whose tiles the ruleset's own test decides
    (whether a kind held four times is two pairs is the ruleset's option). Asked once per state of a seat's
    hand (:meth:`ChanceTally.new_state` passes the suit keys the seat keeps, :func:`gate_of_keys`);
    built from per-suit answers looked up by the suit's counts packed in an int (:func:`_facts`).

    >>> waits = shape_gate(T.counts(T.parse("123m456p789s1122z"), 34), 0, frozenset())
    >>> T.fmt([t for t in range(34) if waits >> t & 1])  # 1z or 2z
    '12z'
    >>> shape_gate(T.counts(T.parse("147m258p369s1357z"), 34), 0, frozenset()) == ASK  # knitted: ask
    True
    >>> waits = shape_gate(T.counts(T.parse("1133m5577p9s1155z"), 34), 0, frozenset())
    >>> T.fmt([t for t in range(34) if waits >> t & 1]), waits & LOOSE != 0  # seven pairs: 9s, maybe
    ('9s', True)
    >>> shape_gate(T.counts(T.parse("19m1479p2468s"), 34), 1, frozenset())  # far from ready
    0
    """
    if wilds:
        for w in wilds:
            if hand[w]:
                return ASK
    for i in range(34, len(hand)):
        if hand[i]:
            return ASK
    # each suit's counts, four bits a kind (no real hand holds 16 of one), in native ints
    km = suit_key(hand, 0, 0)
    kp = suit_key(hand, 9, 0)
    ks = suit_key(hand, 18, 0)
    kz = suit_key(hand, 27, _HONOUR_KEY)
    if km < 0 or kp < 0 or ks < 0 or kz < 0:
        return ASK  # no real hand: no quick answer
    return gate_of_keys(km, kp, ks, kz, n_melds)


def gate_of_keys(km: i64, kp: i64, ks: i64, kz: i64, n_melds: i64) -> i64:
    """:func:`shape_gate` of a hand without flowers or wild tiles, from its four suit keys
    (:func:`suit_key`'s packing, as ``SeatState`` keeps them: :data:`KEY_SHIFT`)."""
    return _gate_of_facts(_facts(km), _facts(kp), _facts(ks), _facts(kz), km, kp, ks, kz, n_melds)


def _facts(key: i64) -> i64:
    """The per-suit answers (:func:`_suit_facts`) of one suit's key, worked out on first sight and
    kept: for a key of counts 0..3 (most of them) in :data:`_FRONT` at its :func:`_front_index`
    (no int boxed, nothing hashed), for any other in :data:`_FACTS`. (The keys, answers and the
    gate's arithmetic are :data:`~mahjong_audit.engine.tiles.i64`: every packed value stays below
    2**56, tests/test_speed_paths.py.)"""
    if not key & _OVER_3:
        i = _front_index(key)
        f: i64 = _FRONT[i]
        if f < 0:
            f = _FRONT[i] = _suit_facts(key)
        return f
    f = _FACTS.get(key, -1)
    if f < 0:
        f = _FACTS[key] = _suit_facts(key)
    return f


def _front_index(key: i64) -> i64:
    """The place in :data:`_FRONT` of a suit key whose counts are all 0..3: the counts' two low bits,
    packed together (two bits a kind: 18 bits for nine kinds, 14 for the honours' seven, placed after
    the suits' places). Native shifts and masks: no int boxed, nothing hashed (as a dict look-up does)."""
    x = key & _LOW_2  # each kind's count in the two low bits of its four
    x = (x | x >> 2) & 0x0F0F0F0F0F  # two kinds a byte
    x = (x | x >> 4) & 0x00FF00FF00FF  # four kinds in 16 bits
    x = (x | x >> 8) & 0x0000FFFF0000FFFF  # eight in 32
    x = (x | x >> 16) & 0x3FFFF  # all nine (the honours' seven) in 18 bits
    return x + _FRONT_SUITED if key >> 36 else x


def _gate_of_facts(m: i64, p: i64, s: i64, z: i64, km: i64, kp: i64, ks: i64, kz: i64, n_melds: i64) -> i64:
    """:func:`gate_of_keys` with the four suits' :func:`_facts` answers looked up."""
    v = (m + p + s + z) & _SUMS  # the four suits' numbers, summed field by field (_pack)
    if v >> _BIG:
        return ASK  # a suit of more tiles than a field holds (no real hand)
    total = v & 255
    pairs_near = False  # near seven pairs: their tiles join the mask, marked LOOSE
    mask: i64  # a knitted pattern's tiles (_KNITTED_MASKS), below
    if n_melds <= 1:
        if n_melds == 0 and v >> _ENDS & 255 >= 12:
            return ASK  # thirteen orphans
        if n_melds == 0 and v >> _PAIRS & 255 >= (total + 1) // 2 - 1:
            if total != 13:
                return ASK  # seven pairs with a count of tiles no standing hand has
            pairs_near = True
        if n_melds == 0 and total == 13 and v >> _KINDS & 255 == total:  # 13 distinct tiles: 全不靠 / 七星不靠
            suited = m >> _HELD | p >> _HELD << 9 | s >> _HELD << 18
            for mask in _KNITTED_MASKS:
                if not suited & ~mask:
                    return ASK  # every suited tile in one knitted pattern
        if v >> _KNIT & 255 >= 8:  # a bound: no knitted pattern holds more of its kinds
            held = m >> _HELD | p >> _HELD << 9 | s >> _HELD << 18 | z >> _HELD << 27
            for mask in _KNITTED_MASKS:
                if _ones(held & mask) >= 8:
                    return ASK  # 组合龙
    if total % 3 != 1:
        return 0  # one tile more makes no number of sets and a pair
    pick = _COMBINE[(m >> _CLASSES & 3) << 6 | (p >> _CLASSES & 3) << 4 | (s >> _CLASSES & 3) << 2
                    | z >> _CLASSES & 3]
    if pairs_near:  # with the standard hand's tiles (if any): a kind held an odd number of times
        return _waits_of(pick, km, kp, ks, kz) | _odd_kinds(km, 0) | _odd_kinds(kp, 9) | _odd_kinds(ks, 18) \
            | _odd_kinds(kz, 27) | LOOSE
    if not pick:
        return 0
    return _waits_of(pick, km, kp, ks, kz)


def _ones(bits: i64) -> i64:
    """How many bits are set (``bits`` >= 0): compiled, ``int.bit_count()`` is a generic method call."""
    n: i64 = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


def _waits_of(pick: i64, km: i64, kp: i64, ks: i64, kz: i64) -> i64:
    """The tiles that make a standard hand, from :data:`_COMBINE`'s ``pick`` and the suits' keys."""
    waits: i64 = 0
    k: i64
    for k in range(4):  # only a hand one tile from a standard one gets here: the suits' waits, once each
        if pick >> k & 1 or pick >> (k + 4) & 1:
            key = km if k == 0 else kp if k == 1 else ks if k == 2 else kz
            ws: i64 = _WAITS.get(key, -1)
            if ws < 0:
                ws = _suit_waits(key)
            if pick >> k & 1:
                waits |= (ws & 511) << 9 * k
            if pick >> (k + 4) & 1:
                waits |= (ws >> 9) << 9 * k
    return waits


def _odd_kinds(key: i64, first: i64) -> i64:
    """The tiles (bit per tile) of the kinds a suit key holds an odd number of times (``first``: its
    first kind's tile)."""
    odd: i64 = 0
    for t in range(first, first + (7 if first == 27 else 9)):
        odd |= (key >> KEY_SHIFT[t] & 1) << t  # (not `1 << t`: tiles.i64's caution)
    return odd


def may_complete(hand: list[int], n_melds: int, wilds: frozenset[int]) -> bool:
    """False only when no tile can complete the seat's tiles in any shape the rulesets know
    (:func:`shape_gate` says none).

    >>> may_complete(T.counts(T.parse("123m456p789s1122z"), 34), 0, frozenset())
    True
    >>> may_complete(T.counts(T.parse("19m1479p2468s"), 34), 1, frozenset())
    False
    """
    return shape_gate(hand, n_melds, wilds) != 0


#: the per-suit answers of :func:`shape_gate` (:func:`_suit_facts`) of the keys with a count above 3,
#: by the suit's counts packed four bits a kind (the first kind highest; the honours' key marked by
#: :data:`_HONOUR_KEY`): the suit's numbers in one int as :func:`_pack` packs them (the same for
#: every place of a suit in the hand). A cache, filled as suits are met (:func:`_facts`).
_FACTS: Final[dict[int, int]] = {}
#: the same answers of the keys of counts 0..3 (:func:`_facts`) by :func:`_front_index` (-1: not
#: worked out yet), the suits' 4**9 places, then the honours' 4**7
_FRONT_SUITED: Final = 1 << 18
_FRONT: Final[list[int]] = [-1] * (_FRONT_SUITED + (1 << 14))
#: a suit key's bits of counts above 3 (the two high bits of each kind's four) and its two low bits
_OVER_3: Final = 0xCCCCCCCCC
_LOW_2: Final = 0x333333333
#: (the suit keys, their packing and :data:`HONOURS_EMPTY` are ``decompose``'s, which 龙港's winning
#: tiles read too without importing this module)
#: by the same keys, the kinds whose one tile more uses the suit up in sets without the pair
#: (bits 0..8, bit per kind) and with it (bits 9..17): asked only of the suits of a hand one tile
#: from a standard one, so worked out only for those (each costs a decomposition per kind)
_WAITS: Final[dict[int, int]] = {}
#: the fields of a packed entry: 8 bits each (the four suits' sums stay below 256) for the tiles,
#: pairs, kinds held, terminal or honour kinds held and the most kinds of one knitted row (147,
#: 258 or 369); three bits that count the suits of more tiles than a field holds (:data:`_BIG`,
#: no real hand); the fields up to there add up over the four suits (:data:`_SUMS`). Above them,
#: read per suit: its two bits "used up in sets alone" (1) and "in sets and the pair" (2)
#: (:data:`_CLASSES`), then the kinds held (:data:`_HELD`, bit per kind)
_PAIRS: Final = 8
_KINDS: Final = 16
_ENDS: Final = 24
_KNIT: Final = 32
_BIG: Final = 40
_CLASSES: Final = 43
_HELD: Final = 45
_SUMS: Final = (1 << 43) - 1  # below _CLASSES


def _pack(tiles: i64, pairs: i64, kinds: i64, ends: i64, knit: i64, classes: i64, held: i64) -> i64:
    """One suit's numbers in one int, so that the four suits' entries add up field by field."""
    if tiles > 63:
        return 1 << _BIG
    return (tiles | pairs << _PAIRS | kinds << _KINDS | ends << _ENDS | knit << _KNIT | classes << _CLASSES
            | held << _HELD)


#: the counts of :func:`_spread`: five bits a kind, so that one tile more of a kind held 15 times still fits
_WIDE: Final = 5
_WIDE_MASK: Final = 31


def _spread(key: i64, kinds: i64) -> i64:
    """A suit key's counts (four bits a kind, the first kind highest: :data:`KEY_SHIFT`) five bits a
    kind, the first kind lowest (kind ``r`` at bit ``5 r``), so that the tests below may add a tile to
    any count and take a pair out with one native add: no list of counts is built for a suit met for
    the first time. (Shifts by a constant amount: compiled, a shift by a computed one costs a
    multiplication more, each a call with its checks.)"""
    wide: i64 = 0
    for _kind in range(kinds):  # the key's lowest count (its last kind) first: it ends highest
        wide = wide << _WIDE | key & 15
        key >>= 4
    return wide


def _sets_only(wide: i64, kinds: i64, honour: bool) -> bool:
    """Whether one suit's counts (:func:`_spread`'s, ``kinds`` of them) are used up in sets alone,
    without wild tiles: the kinds in turn, each first giving a tile to every sequence begun at the
    two kinds before it; of what is left, as many sequences begin at the kind as three leaves over
    (three equal sequences are three triplets), the rest are triplets. No sequence begins at the
    suit's last two kinds, nor among the honours. (The same answer as ``decompose.suit_least``'s "no
    wilds without the pair", which searches with wilds; the gate asks only about none:
    tests/test_speed_paths.py.)"""
    back1: i64 = 0  # the sequences begun one and two kinds back
    back2: i64 = 0
    last = kinds - 2  # no sequence begins here or after
    for i in range(kinds):
        left = (wide & _WIDE_MASK) - back1 - back2
        wide >>= _WIDE
        if left < 0:
            return False
        begun = left % 3
        if begun and (honour or i >= last):
            return False
        back2 = back1
        back1 = begun
    return True


def _pair_and_sets(wide: i64, kinds: i64, honour: bool) -> bool:
    """Whether one suit's counts (:func:`_spread`'s) are used up in sets and one pair, without wild
    tiles (:func:`_sets_only` once the pair is taken out). The pair's kind ``r`` is one where twice
    ``r`` and the sum of kind times count agree modulo 3 (every set's kinds add up to a multiple of
    3), so at most three kinds are tried."""
    weight: i64 = 0
    rest = wide
    for r in range(kinds):
        weight += r * (rest & _WIDE_MASK)
        rest >>= _WIDE
    # 2r ≡ weight (mod 3) ⇔ r ≡ 2·weight (mod 3): those kinds only, no remainder per kind
    first = 2 * weight % 3
    pair: i64 = 2  # two tiles of kind r, moved up with r (not `2 << 5 * r`: tiles.i64's caution)
    pair <<= _WIDE * first
    for r in range(first, kinds, 3):
        if wide >> _WIDE * r & _WIDE_MASK >= 2 and _sets_only(wide - pair, kinds, honour):
            return True
        pair <<= 3 * _WIDE
    return False


def _suit_facts(key: i64) -> i64:
    """One suit's answers for :func:`_facts` to keep (worked out on first sight)."""
    honour = key >> 36 != 0
    kinds: i64 = 7 if honour else 9
    wide = _spread(key, kinds)
    held: i64 = 0
    tiles: i64 = 0
    pairs: i64 = 0
    n_kinds: i64 = 0
    ends: i64 = 0
    row0: i64 = 0  # the kinds held of each knitted row (147, 258, 369): native ints, no list
    row1: i64 = 0
    row2: i64 = 0
    rest = wide
    for r in range(kinds):
        n = rest & _WIDE_MASK  # kind r's count
        rest >>= _WIDE
        if n:
            held |= 1 << r
            tiles += n
            pairs += n // 2
            n_kinds += 1
            if honour or r == 0 or r == 8:
                ends += 1
            if r % 3 == 0:
                row0 += 1
            elif r % 3 == 1:
                row1 += 1
            else:
                row2 += 1
    # the most kinds of one row (compared here: max() of ints is a generic call when compiled)
    knit: i64 = 0 if honour else row0 if row0 >= row1 and row0 >= row2 else row1 if row1 >= row2 else row2
    left = tiles % 3  # sets alone use up a multiple of 3 tiles, sets and the pair 2 more
    classes: i64 = 0  # bit 1: used up in sets alone; bit 2: in sets and the pair
    if left == 0 and _sets_only(wide, kinds, honour):
        classes = 1
    elif left == 2 and _pair_and_sets(wide, kinds, honour):
        classes = 2
    return _pack(tiles, pairs, n_kinds, ends, knit, classes, held)


def _suit_waits(key: i64) -> i64:
    """The entry of :data:`_WAITS` for one suit's counts (built on first need): with one tile more,
    the suit is used up in sets alone only when it holds 2 modulo 3 tiles, in sets and the pair
    only when it holds 1 modulo 3, so one of the two is tried, kind by kind."""
    honour = key >> 36 != 0
    kinds: i64 = 7 if honour else 9
    wide = _spread(key, kinds)
    tiles: i64 = 0
    rest = wide
    for _kind in range(kinds):
        tiles += rest & _WIDE_MASK
        rest >>= _WIDE
    left = tiles % 3
    waits: i64 = 0
    one: i64 = 1  # one tile of kind r
    r: i64
    for r in range(kinds if left else 0):
        more = wide + one  # one tile more of kind r
        one <<= _WIDE
        if left == 2 and _sets_only(more, kinds, honour):
            waits |= 1 << r  # bits 0..8: without the pair
        elif left == 1 and _pair_and_sets(more, kinds, honour):
            waits |= 1 << (r + 9)  # bits 9..17: with it
    _WAITS[key] = waits
    return waits


def _combine(classes: tuple[int, ...]) -> int:
    """Which suits' kinds may make a standard hand with one tile more, from each suit's bits
    "used up in sets alone" (1) and "in sets and the pair" (2): the tile's suit takes the pair,
    every other suit in sets alone (bit ``4 + k``: suit ``k``'s waits with the pair), or another suit holds
    the pair and the rest are in sets alone (bit ``k``: suit ``k``'s waits without it)."""
    sets_only = [c & 1 for c in classes]
    pair = [c >> 1 & 1 for c in classes]
    pick = 0
    for k in range(4):
        others = [j for j in range(4) if j != k]
        if all(sets_only[j] for j in others):
            pick |= 1 << (4 + k)
        if any(pair[q] and all(sets_only[j] for j in others if j != q) for q in others):
            pick |= 1 << k
    return pick


#: :func:`_combine` by the four suits' bits (two each, the characters' highest)
_COMBINE: Final = tuple(_combine((i >> 6 & 3, i >> 4 & 3, i >> 2 & 3, i & 3)) for i in range(256))
_ORPHAN_MASK: Final = sum(1 << t for t in ORPHANS)
_KNITTED_MASKS: Final = tuple(sum(1 << t for t in p) for p in KNITTED)


class _SeatGate:
    """One seat's shape answer for a state of its hand (native ints, no object per discard): the
    state (``SeatState.version``, melds) :meth:`ChanceTally.new_state` last answered for, the
    tiles that may win it (:func:`shape_gate`'s mask, maybe marked :data:`_EXACT`; or :data:`ASK`),
    the tiles the ruleset's shape test was asked about in it and those it said win (bit per
    tile), the suit keys of the state it looked up with their :func:`_facts` answers, and the
    gate's last mask with the melds it was worked out for (the keys' state)."""

    __slots__ = ("gate", "gate_melds", "known", "km", "kp", "ks", "kz", "m", "melds", "p", "s", "version", "waits",
                 "wins", "z")

    def __init__(self) -> None:
        self.version: i64 = -1  # no state answered yet
        self.melds: i64 = -1
        self.waits: i64 = 0
        self.known: i64 = 0
        self.wins: i64 = 0
        self.km: i64 = -1  # no key: looked up on first sight
        self.kp: i64 = -1
        self.ks: i64 = -1
        self.kz: i64 = -1
        self.m: i64 = 0
        self.p: i64 = 0
        self.s: i64 = 0
        self.z: i64 = 0
        self.gate: i64 = 0
        self.gate_melds: i64 = -1  # no mask worked out yet


class ChanceTally:
    """The replay's running counts (mutable state of the hand being replayed)."""

    __slots__ = ("asked", "asked_wins", "counts", "gates")

    def __init__(self) -> None:
        #: the win chances, passed, call chances, passed: 16 ordered seat pairs each, one after the other
        self.counts = [0] * (4 * SEATS * SEATS)
        #: per seat, its shape answer for its hand state (:meth:`shape_wins`)
        self.gates = [_SeatGate() for _ in range(SEATS)]
        #: the seats ``could_win`` was answered for on the discard whose window is closing (bit per
        #: seat) and those it said win, read by the replay's scan of the same window
        self.asked: i64 = 0
        self.asked_wins: i64 = 0

    def shape_wins(self, replay: HandReplay, y: int, t: int) -> bool:
        """Would seat ``y``'s standing tiles with ``t`` added make a winning shape (the ruleset's
        ``is_complete``)? Worked out once per state of the seat's hand and melds, the answers
        remembered until it changes: first which tiles may win it at all, by the ruleset's own
        quick no where it has one (``may_complete_with_one``), else by :func:`shape_gate`,
        which for most hands says "none" or names the few tiles that make a standard hand;
        then the ruleset's shape test for a tile that may, unless the gate's tiles are its
        answer (:meth:`new_state`). The claim window asks about every
        seat on every discard, twice in rulesets that scan it (the chances here, then the
        replay's scan for 过水 and declined wins). (Every ruleset's shape test reads the
        melds' number.)"""
        st = replay.seats[y]
        g = self.gates[y]
        if g.version != st.version or g.melds != len(st.melds):
            self.new_state(replay, y)
        waits = g.waits
        if waits != ASK:
            if not waits >> t & 1:
                return False
            if waits & _EXACT:
                return True  # a standard hand of the right size: the ruleset's test says so too
        bit = 1 << t
        if g.known & bit:
            return g.wins & bit != 0
        kept = any(st.hand[T.FLOWER0:]) or T.is_flower(t)  # flowers in hand or asked about: all 42 counts
        counts = st.hand[:] if kept else st.hand[:34]
        counts[t] += 1
        won = replay.rs.is_complete(counts, st.melds, st.wilds)
        g.known |= bit
        if won:
            g.wins |= bit
        return won

    def new_state(self, replay: HandReplay, y: int) -> None:
        """Seat ``y``'s hand or melds changed: which tiles may win it now (:meth:`shape_wins`).
        In a ruleset whose shape test is a standard hand or the special shapes :func:`shape_gate`
        asks about (:data:`_GATED`), a standing hand of 13 tiles less three a meld that the gate
        names tiles for wins on exactly those (marked :data:`_EXACT`): the shape test is not asked."""
        st = replay.seats[y]
        g = self.gates[y]
        rs = replay.rs
        n_melds: i64 = len(st.melds)
        waits: i64
        if replay.rules.own_quick_no:
            waits = rs.winning_tiles_of(st)
            if waits > 0:
                waits |= _EXACT  # the ruleset's answer for every tile
            elif waits < 0:
                waits = ASK if rs.may_complete_with_one(tuple(st.hand), st.melds, st.wilds) else 0
        elif st.off_keys or st.flowers_held or st.wilds and _holds_wild(st.hand, st.wilds):
            waits = ASK  # a count beyond the keys, flowers or wild tiles in hand: no quick answer
        elif st.key_m == g.km and st.key_p == g.kp and st.key_s == g.ks and st.key_z == g.kz \
                and n_melds == g.gate_melds:
            waits = g.gate  # the tiles and melds of the gate's last mask (a tile drawn and discarded): the same
        else:  # the shapes every ruleset without a quick no of its own knows (MCR, Guangdong)
            # the suits' entries of the seat's last state: a draw and a discard change one or two
            km = st.key_m
            if km != g.km:
                g.km = km
                g.m = _facts(km)
            kp = st.key_p
            if kp != g.kp:
                g.kp = kp
                g.p = _facts(kp)
            ks = st.key_s
            if ks != g.ks:
                g.ks = ks
                g.s = _facts(ks)
            kz = st.key_z
            if kz != g.kz:
                g.kz = kz
                g.z = _facts(kz)
            waits = _gate_of_facts(g.m, g.p, g.s, g.z, km, kp, ks, kz, n_melds)
            if waits > 0 and replay.rules.gated and st.size == 13 - 3 * n_melds and not waits & LOOSE:
                waits |= _EXACT
            g.gate = waits
            g.gate_melds = n_melds
        g.version = st.version
        g.melds = n_melds
        g.waits = waits
        g.known = g.wins = 0

    def add(self, kind: i64, seat: i64, from_seat: i64, *, passed: bool) -> None:
        counts = self.counts
        i = 2 * kind * SEATS * SEATS + seat * SEATS + from_seat
        counts[i] = counts[i] + 1  # not `+=`: compiled, an item's `+=` is a generic add
        if passed:
            i += SEATS * SEATS
            counts[i] = counts[i] + 1

    def window(self, replay: HandReplay, discarder: i64, t: i64, executed: tuple[int, str] | None) -> None:
        """Count the other seats' chances on discard ``t`` of ``discarder`` as its window closes.
        A seat whose hand state cannot win on ``t`` (the tiles of its :meth:`shape_wins` answer,
        kept per state) costs a bit test; ``could_win`` is asked only about the others. The seats
        that won, declared a win, or declared a pon or kong are bit masks (bit ``seat``)."""
        self.asked = self.asked_wins = 0
        if t >= T.FLOWER0:
            return
        won: i64 = 0
        declared_win: i64 = 0
        declared_call: i64 = 0
        if replay.wins:
            for w in replay.wins:
                if w.tile == t and w.from_seat == discarder:
                    won |= 1 << w.seat
        claims = replay.claims
        if claims:
            for c in claims:
                call = c.call
                if call == "win":
                    declared_win |= 1 << c.seat
                elif call == "pon" or call == "kong":
                    declared_call |= 1 << c.seat
        top: i64 = 3 if won else _CALL_RANK[executed[1]] if executed is not None else 0
        caller: i64 = executed[0] if executed is not None and executed[1] in ("pon", "kong") else -1
        passed_pon_rule = replay.rules.passed_pon_rule
        seats = replay.seats
        gates = self.gates
        asked: i64 = 0  # (kept in self.asked after the loop: a local is native)
        k: i64
        for k in range(1, SEATS):
            y = (discarder + k) & 3
            st = seats[y]
            if st.dead or st.barred:
                continue
            seat_bit = 1 << y
            if (won | declared_win) & seat_bit:
                self.add(WIN, y, discarder, passed=False)
                continue
            if top < 3:
                asked |= seat_bit
                if not st.passed_win:  # 过水: could_win says no
                    g = gates[y]
                    if g.version != st.version or g.melds != len(st.melds):
                        self.new_state(replay, y)
                    # t outside the tiles that may win this hand state: could_win says no (ASK has every bit)
                    if g.waits >> t & 1 and replay.could_win(y, t, discarder):
                        self.asked_wins |= seat_bit
                        self.add(WIN, y, discarder, passed=True)
            called = y == caller
            if (called or st.hand[t] >= 2) and t not in st.wilds and \
                    not (passed_pon_rule and t in st.passed_pon):
                asked_call = called or declared_call & seat_bit != 0
                if asked_call or top < 2:
                    self.add(CALL, y, discarder, passed=not asked_call)
        self.asked = asked

    def facts(self) -> Chances:
        c = self.counts
        n = SEATS * SEATS
        return Chances(tuple(c[:n]), tuple(c[n:2 * n]), tuple(c[2 * n:3 * n]), tuple(c[3 * n:]))


def own_quick_no(rs: Ruleset) -> bool:
    """Whether the ruleset has a quick no of its own (:meth:`ChanceTally.new_state` asks it instead
    of :func:`shape_gate`); read once per ruleset (``replay.ReplayRules``)."""
    cls = type(rs)
    return (cls.may_complete_with_one is not Ruleset.may_complete_with_one
            or cls.winning_tiles is not Ruleset.winning_tiles
            or cls.winning_tiles_of is not Ruleset.winning_tiles_of)


def gated(rs: Ruleset) -> bool:
    """Whether the ruleset's shape test is one :data:`_GATED` names (without a quick no of its own):
    the gate's tiles are then its answer for a hand of the right size (:meth:`ChanceTally.new_state`)."""
    return not own_quick_no(rs) and type(rs).is_complete in _GATED


def _holds_wild(hand: list[int], wilds: frozenset[int]) -> bool:
    for w in wilds:
        if hand[w]:
            return True
    return False


#: the shape tests that are a standard hand (4 sets less one a meld, and a pair) or one of the
#: special shapes :func:`shape_gate` asks about, tested standard first: a tile the gate names for
#: a hand of the right size wins by them without asking (checked: tests/test_speed_paths.py)
_GATED: Final = (MCR.is_complete, Guangdong.is_complete)
#: :meth:`ChanceTally.new_state`'s mark on a mask that is the shape test's answer (above every tile's bit)
_EXACT: Final = 1 << T.N_TILES
#: :func:`shape_gate`'s mark on a mask that may hold tiles the shape test says no to (near seven pairs)
LOOSE: Final = 1 << (T.N_TILES + 1)


by_fields(Chances)

__all__ = ["ASK", "CALL", "HONOURS_EMPTY", "KEY_SHIFT", "LOOSE", "WIN", "ChanceTally", "Chances", "gate_of_keys", "gated",
           "may_complete", "own_quick_no", "shape_gate", "suit_counts", "suit_key"]
