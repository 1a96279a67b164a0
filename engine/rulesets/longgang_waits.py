"""龙港's winning tiles per hand state: which tiles, added to a seat's standing tiles, make
:func:`mahjong_audit.engine.rulesets.longgang_score.complete` true, all at once, as a bit mask
(bit ``t``: tile ``t``, the 34 kinds and the 8 flowers).

The replay asks, for every hand state of every seat, whether the seat could win on each discard
(the claim chances and the scan for 过水 and declined wins) and on its own draw. The winning
shape (:func:`longgang_score._wins_with`) is five sets less one a meld and a pair with the wilds
filling in (一、A) "财神可以用来代替其他所有的牌"), 八对半 (三、5 A, option ``eight_pairs``), or
three 正财 held (四、7 推土机 "凡手牌中含用三个正财神即可马上胡牌"). The mask answers every tile from
one look at the hand:

* a flower held that is not one of the seat's wilds (it should have been set aside) wins on
  nothing, nor does a flower that is not a wild added;
* three 正财 (four with ``three_caishen: 4``, or under 花财神) already held: every other tile wins;
* a wild added is one wild more (and one 正财 more when it is one);
* a natural tile added: five sets and a pair by each suit's fewest wilds (as
  :func:`mahjong_audit.engine.decompose.is_complete` combines them: with the tile count right,
  any choice of one way per suit with at most one pair and at most the wilds held completes),
  worked out per suit once for the suit's counts and each kind one more (:data:`_SUITS`), then
  八对半 for the tiles left, asked only when a wild more would make one.

The replay's hand states come as ``SeatState`` keeps them: each suit's counts packed in an int
(``decompose.KEY_SHIFT``), kept up to date tile by tile, and the flowers (:func:`mask_of_keys`); the
suits' answers are looked up by those ints, and a seat's last state and its suits' answers are
remembered (:class:`Recent`): a draw and a discard change one or two suits, or none (the tile drawn
discarded). :func:`winning_tiles` answers plain counts (packing them the same way).

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import (
    HONOURS_EMPTY,
    KEY_SHIFT,
    suit_counts,
    suit_key,
    suit_least_key,
    suit_least_more,
)
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets.longgang_score import Rules, complete

#: the 34 kinds
_KINDS: Final = (1 << 34) - 1
#: a suit key's counts (nine kinds or seven honours, four bits a kind, the first kind highest):
#: below the honours' mark (``decompose.HONOURS_EMPTY``), which tells the honours' keys apart
_COUNTS: Final = (1 << 36) - 1
#: a suit's ways by threshold: kinds whose one more leaves the suit at most ``th`` wilds short,
#: for ``th`` in 0 … _TH (a larger threshold reads the fewest wilds per kind)
_TH: Final = 8
#: per suit key (``SeatState``'s, the wild kinds emptied): the fewest wilds the suit needs in sets
#: alone (m0) and with the pair (m1), the number of kinds held an odd number of times (八对半's
#: bound) and its tiles, packed in one int (:func:`_pack`: compiled, an int is read from a list or
#: a dict without unpacking a tuple, and stored without boxing four). A cache, filled as suits are
#: met (every hand state of the right size looks its four suits up, or takes them from the seat's
#: last state: :class:`Recent`), with a direct-mapped front (:data:`_FRONT_KEYS`).
_SUITS: Final[dict[int, int]] = {}
#: an entry's fields: m0 in the low bits, m1 from bit _AT_M1 (it may be decompose's "no such way",
#: 1 << 20), the odd kinds from bit _AT_ODD (at most 9), the tiles from bit _AT_TILES
_AT_M1: Final = 21
_AT_ODD: Final = 42
_AT_TILES: Final = 48
_LOW: Final = (1 << _AT_M1) - 1
#: the front of :data:`_SUITS`: slot ``key % _FRONT_SLOTS`` holds the last key met there and its
#: entry (-1: none yet). A hit costs a division and two list reads, where the dict look-up boxes the
#: key (beyond 30 bits: an allocation), hashes it and unpacks a tuple (~800 instructions a look-up).
#: The slots are as many as a prime: keys differ in a nibble or two anywhere in their 38 bits, and a
#: prime spreads them (a fold or a multiply's middle bits put a quarter of them on the same slots).
_FRONT_SLOTS: Final = 32749
_FRONT_KEYS: Final[list[int]] = [-1] * _FRONT_SLOTS
_FRONT_ENTRIES: Final[list[int]] = [0] * _FRONT_SLOTS
#: by the same keys, for the suits of a hand that a wild more completes (:func:`_suit_waits`): by
#: threshold (0 … :data:`_TH`), the kinds whose one more needs at most that many wilds in sets alone,
#: and with the pair, then those fewest wilds per kind (sets alone, with the pair). A cache too.
_Waits = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_WAITS: Final[dict[int, _Waits]] = {}
#: per set of a seat's wilds: their tile bits, the bits of the wild kinds among the 34, those kinds,
#: the wild flowers and their places in the flowers' key (four bits each) (a cache: a hand has four
#: sets of wilds, one per seat)
_Plan = tuple[int, int, tuple[int, ...], tuple[int, ...], int]
_PLANS: Final[dict[frozenset[int], _Plan]] = {}
#: sets of wilds beyond this many are worked out and not kept
_PLANS_MAX: Final = 4096


class Recent:
    """One seat's last hand state :func:`mask_of_keys` answered (its keys, melds, wilds and rules)
    and the answer, the entries of :data:`_SUITS` of its four suits (the keys with the wild
    kinds emptied, and their entries) and the :data:`_PLANS` entry of its wilds: the replay asks about every state of a seat's hand, which a
    draw and a discard change in one or two suits, or in none (the tile drawn discarded). Mutable,
    kept per seat by the ruleset; read and replaced only by :func:`mask_of_keys`."""

    __slots__ = ("em", "ep", "es", "ez", "fl", "km", "kp", "ks", "kz", "m", "mask", "melds", "p", "plan", "planned",
                 "rules", "s", "wilds", "z")

    def __init__(self) -> None:
        self.km = self.kp = self.ks = self.kz = self.fl = self.melds = -1  # no state yet
        self.wilds: frozenset[int] = frozenset()
        self.rules: Rules | None = None
        self.mask = 0
        self.em = self.ep = self.es = self.ez = -1  # no suit yet
        self.m = self.p = self.s = self.z = 0  # their packed entries (:func:`_pack`)
        self.planned: frozenset[int] | None = None  # the wilds of :attr:`plan` (none yet)
        self.plan: _Plan = (0, 0, (), (), 0)


def winning_tiles(c: Sequence[int], n_melds: int, wilds: frozenset[int], rules: Rules) -> int:
    """The tiles (bit ``t``) whose one more in the standing counts ``c`` (42 per-tile counts, or
    34 for a hand without flowers) makes :func:`longgang_score.complete` true with ``n_melds``
    melds and the seat's ``wilds``; 0 when none does. Counts no real hand holds (below 0 or beyond
    15) are asked of ``complete`` tile by tile.

    >>> from mahjong_audit.engine import tiles as T
    >>> from mahjong_audit.engine.rulesets.longgang_score import wilds_for
    >>> c = tuple(T.counts(T.parse("123m456p789s111z34s22z")))
    >>> T.fmt([t for t in range(42) if winning_tiles(c, 0, frozenset(), Rules()) >> t & 1])
    '25s'
    >>> w = wilds_for(0, T.parse("6z")[0]).all  # the dealer's: 发 the 财神, 春 its 坐花
    >>> T.fmt([t for t in range(42) if winning_tiles(c, 0, w, Rules()) >> t & 1])  # a wild added wins too
    '25s6z1f'
    """
    h = list(c)
    fl = flower_key(h)
    km = suit_key(h, 0, 0)
    kp = suit_key(h, 9, 0)
    ks = suit_key(h, 18, 0)
    kz = suit_key(h, 27, 0)
    if fl < 0 or km < 0 or kp < 0 or ks < 0 or kz < 0:
        return _tile_by_tile(h, n_melds, wilds, rules)
    return mask_of_keys(km, kp, ks, kz + HONOURS_EMPTY, fl, n_melds, wilds, rules, Recent())


def flower_key(hand: list[int]) -> int:
    """The eight flowers' counts of 42 per-tile counts (fewer: none beyond them) packed four bits a
    flower, the first lowest; -1 for a count below 0 or above 15."""
    key = 0
    for t in range(T.FLOWER0, len(hand)):
        n = hand[t]
        if n < 0 or n > 15:
            return -1
        key |= n << 4 * (t - T.FLOWER0)
    return key


def mask_of_keys(km: int, kp: int, ks: int, kz: int, fl: int, n_melds: int, wilds: frozenset[int], rules: Rules,
                 recent: Recent) -> int:
    """:func:`winning_tiles` of a hand state given by its four suit keys as ``SeatState`` keeps them
    (``decompose.KEY_SHIFT``; every count 0..15) and its flowers' key (:func:`flower_key`), with
    ``recent`` the seat's last state: the same state is answered from it, and so are the suits
    that did not change."""
    if km == recent.km and kp == recent.kp and ks == recent.ks and kz == recent.kz and fl == recent.fl \
            and n_melds == recent.melds and rules is recent.rules and (wilds is recent.wilds or wilds == recent.wilds):
        return recent.mask
    mask = _mask(km, kp, ks, kz, fl, n_melds, wilds, rules, recent)
    recent.km = km
    recent.kp = kp
    recent.ks = ks
    recent.kz = kz
    recent.fl = fl
    recent.melds = n_melds
    recent.wilds = wilds
    recent.rules = rules
    recent.mask = mask
    return mask


def _mask(km: int, kp: int, ks: int, kz: int, fl: int, n_melds: int, wilds: frozenset[int], rules: Rules,
          recent: Recent) -> int:
    """:func:`mask_of_keys` worked out (``recent``: the entries of the seat's last suits)."""
    if wilds is not recent.planned:
        recent.plan = _plan(wilds)
        recent.planned = wilds
    wild_mask, kind_mask, wild_kinds, wild_flowers, flower_places = recent.plan
    if fl & ~flower_places:
        return 0  # a flower held that should have been set aside
    three = rules.three_caishen
    real = 0  # the 正财 held, their kinds emptied from the suits
    for t in wild_kinds:
        shift = KEY_SHIFT[t]
        if t < 9:
            n = km >> shift & 15
            km -= n << shift
        elif t < 18:
            n = kp >> shift & 15
            kp -= n << shift
        elif t < 27:
            n = ks >> shift & 15
            ks -= n << shift
        else:
            n = kz >> shift & 15
            kz -= n << shift
        real += n
    flowers_held = 0
    for t in wild_flowers:
        flowers_held += fl >> 4 * (t - T.FLOWER0) & 15
    w = real + flowers_held
    flower_real = three == 4 or len(wild_flowers) >= 2  # 花财神: a wild flower counts as a 正财
    if flower_real:
        real += flowers_held
    if real >= three:
        return _KINDS | wild_mask  # 三财神 held: every tile but a flower to set aside
    mask = 0
    # a wild added: one wild more (and a 正财 more when it counts as one)
    if real + 1 >= three:
        mask = wild_mask if flower_real else kind_mask
    n_sets = 5 - n_melds
    if n_sets < 0:
        return mask
    # the suits' entries: the seat's last ones where a suit did not change
    if km != recent.em:
        recent.em = km
        recent.m = _entry(km)
    if kp != recent.ep:
        recent.ep = kp
        recent.p = _entry(kp)
    if ks != recent.es:
        recent.es = ks
        recent.s = _entry(ks)
    if kz != recent.ez:
        recent.ez = kz
        recent.z = _entry(kz)
    m = recent.m
    p = recent.p
    s = recent.s
    z = recent.z
    if (m >> _AT_TILES) + (p >> _AT_TILES) + (s >> _AT_TILES) + (z >> _AT_TILES) + w + 1 != 3 * n_sets + 2:
        return mask  # both shapes hold 3 × sets + 2 tiles
    m0, p0, s0_, z0 = m & _LOW, p & _LOW, s & _LOW, z & _LOW
    s0 = m0 + p0 + s0_ + z0  # every suit in sets alone
    # … and the pair in it
    dm = (m >> _AT_M1 & _LOW) - m0
    dp = (p >> _AT_M1 & _LOW) - p0
    ds = (s >> _AT_M1 & _LOW) - s0_
    dz = (z >> _AT_M1 & _LOW) - z0
    # a wild more: decompose.is_complete's test (the fewest wilds of the suits, the pair in one
    # of them or of wilds), and 八对半 only where no more kinds are odd than the wilds can pair
    standard = s0 + _least(dm, dp, ds, dz) <= w + 1
    eight = rules.eight_pairs and n_melds == 0 and (
        (m >> _AT_ODD & 63) + (p >> _AT_ODD & 63) + (s >> _AT_ODD & 63) + (z >> _AT_ODD & 63) <= w + 2)
    nat: list[int] = []
    if eight:
        nat = _natural(km, kp, ks, kz)
        eight = R.is_eight_pairs(nat, w + 1)
    if not standard and not eight:
        return mask  # no tile does better than a wild, which wins by no shape
    mask |= wild_mask
    if standard:
        std = (_suit_waits(km, w - s0 + m0, _least(0, dp, ds, dz))
               | _suit_waits(kp, w - s0 + p0, _least(dm, 0, ds, dz)) << 9
               | _suit_waits(ks, w - s0 + s0_, _least(dm, dp, 0, dz)) << 18
               | _suit_waits(kz, w - s0 + z0, _least(dm, dp, ds, 0)) << 27)
        mask |= std & ~wild_mask
    if eight:
        for t in range(34):
            if not (mask >> t & 1) and not (wild_mask >> t & 1):
                nat[t] += 1
                if R.is_eight_pairs(nat, w):
                    mask |= 1 << t
                nat[t] -= 1
    return mask


def _least(a: int, b: int, c: int, d: int) -> int:
    """The least of 0, ``a``, ``b``, ``c`` and ``d`` (the pair's best suit: none, or one of four)."""
    out = 0
    if a < out:
        out = a
    if b < out:
        out = b
    if c < out:
        out = c
    if d < out:
        out = d
    return out


def _plan(wilds: frozenset[int]) -> _Plan:
    """The entry of :data:`_PLANS` for a seat's wilds."""
    plan = _PLANS.get(wilds)
    if plan is None:
        bits = kind_bits = places = 0
        kinds: list[int] = []
        flowers: list[int] = []
        for t in sorted(wilds):
            bits |= 1 << t
            if T.is_flower(t):
                flowers.append(t)
                places |= 15 << 4 * (t - T.FLOWER0)
            else:
                kinds.append(t)
                kind_bits |= 1 << t
        plan = (bits, kind_bits, tuple(kinds), tuple(flowers), places)
        if len(_PLANS) < _PLANS_MAX:
            _PLANS[wilds] = plan
    return plan


def _natural(km: int, kp: int, ks: int, kz: int) -> list[int]:
    """The 34 counts of four suit keys (the natural tiles: the wild kinds emptied)."""
    return suit_counts(km)[1] + suit_counts(kp)[1] + suit_counts(ks)[1] + suit_counts(kz)[1]


def _entry(key: int) -> int:
    """The entry of :data:`_SUITS` for a suit's key, packed (:func:`_pack`), from the front when it
    holds the key."""
    slot = key % _FRONT_SLOTS
    if _FRONT_KEYS[slot] == key:
        return _FRONT_ENTRIES[slot]
    e = _SUITS.get(key)
    if e is None:
        odd = tiles = 0
        counts = key & _COUNTS
        while counts:
            n = counts & 15
            odd += n & 1
            tiles += n
            counts >>= 4
        m0, m1 = suit_least_key(key & _COUNTS, key > _COUNTS)
        e = _pack(m0, m1, odd, tiles)
        _SUITS[key] = e
    _FRONT_KEYS[slot] = key
    _FRONT_ENTRIES[slot] = e
    return e


def _pack(m0: int, m1: int, odd: int, tiles: int) -> int:
    """An entry of :data:`_SUITS`: the fewest wilds in sets alone ``m0`` and with the pair ``m1``, the
    kinds held an odd number of times and the tiles, in one int (fields at :data:`_AT_M1`…)."""
    return m0 | m1 << _AT_M1 | odd << _AT_ODD | tiles << _AT_TILES


def _suit_waits(key: int, left: int, d: int) -> int:
    """The kinds of one suit (its key) whose one more completes the hand, with ``left``
    wilds for this suit once every other suit is in sets alone, and ``d`` what the pair in
    another suit adds at best (0: the pair of wilds, or none needed): the tile's suit takes the
    pair (its fewest wilds with the pair at most ``left``) or is in sets alone (at most
    ``left - d``). decompose.is_complete's criterion: the suits' fewest wilds add up to the
    wilds held or less."""
    t0 = left - d
    if left < 0 and t0 < 0:
        return 0
    ws = _WAITS.get(key)
    if ws is None:
        ws = _waits_of(key)
        _WAITS[key] = ws
    bits = 0
    if left >= 0:
        bits = ws[1][left] if left <= _TH else _at_most(ws[3], left)
    if t0 >= 0:
        bits |= ws[0][t0] if t0 <= _TH else _at_most(ws[2], t0)
    return bits


def _at_most(least: tuple[int, ...], th: int) -> int:
    bits = 0
    for r in range(len(least)):
        if least[r] <= th:
            bits |= 1 << r
    return bits


def _waits_of(key: int) -> _Waits:
    """The entry of :data:`_WAITS` for one suit's key: the fewest wilds with each kind one more
    (``decompose.suit_least_more``), and by threshold the kinds within it (:func:`_thresholds`)."""
    a0, a1 = suit_least_more(key & _COUNTS, key > _COUNTS)
    return _thresholds(a0), _thresholds(a1), a0, a1


def _thresholds(least: tuple[int, ...]) -> tuple[int, ...]:
    """By threshold ``th`` (0 … :data:`_TH`), the kinds (bit ``r``) whose fewest wilds ``least[r]`` is at
    most ``th``: each kind put at its own fewest wilds, then the thresholds gathered in one running
    OR (a local int: compiled, an ``|=`` on a list's item is a generic call)."""
    exact = [0] * (_TH + 1)
    for r in range(len(least)):
        x = least[r]
        if x <= _TH:
            exact[x] = exact[x] | 1 << r
    out: list[int] = []
    bits = 0
    for th in range(_TH + 1):
        bits |= exact[th]
        out.append(bits)
    return tuple(out)


def _tile_by_tile(h: list[int], n_melds: int, wilds: frozenset[int], rules: Rules) -> int:
    """:func:`winning_tiles` of counts no real hand holds (below 0 or beyond 15): ``complete`` asked
    about every tile."""
    more = h + [0] * (T.N_TILES - len(h))
    mask = 0
    for t in range(T.N_TILES):
        more[t] += 1
        if complete(more, n_melds, wilds, rules):
            mask |= 1 << t
        more[t] -= 1
    return mask


__all__ = ["Recent", "flower_key", "mask_of_keys", "winning_tiles"]
