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

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import is_complete as shape_complete
from mahjong_audit.engine.decompose import suit_least
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets.longgang_score import Rules

#: the 34 kinds
_KINDS: Final = (1 << 34) - 1
#: a suit's ways by threshold: kinds whose one more leaves the suit at most ``th`` wilds short,
#: for ``th`` in 0 … _TH (a larger threshold reads the fewest wilds per kind)
_TH: Final = 8
#: per suit's natural counts (a tuple: nine kinds, or the seven honours; a slice of the hand's
#: counts, hashed and compared in C, small ints being shared objects): the fewest wilds the suit
#: needs in sets alone (m0) and with the pair (m1), the number of kinds held an odd number of times
#: (八对半's bound) and its tiles; :data:`_OFF` for a count below 0 or beyond 15, which no real hand
#: holds. A cache, filled as suits are met (every hand state of the right size looks its four
#: suits up).
_Entry = tuple[int, int, int, int]
_SUITS: Final[dict[tuple[int, ...], _Entry]] = {}
#: :data:`_SUITS`' entry for counts no real hand holds (the plain tests kind by kind answer those)
_OFF: Final = (-1, -1, -1, -1)
#: by the same keys, for the suits of a hand that a wild more completes (:func:`_suit_waits`): by
#: threshold (0 … :data:`_TH`), the kinds whose one more needs at most that many wilds in sets alone,
#: and with the pair, then those fewest wilds per kind (sets alone, with the pair). A cache too.
_Waits = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_WAITS: Final[dict[tuple[int, ...], _Waits]] = {}
#: per set of a seat's wilds: their tile bits, the wild kinds among the 34 and the wild flowers
#: (a cache: a hand has four sets of wilds, one per seat)
_Plan = tuple[int, tuple[int, ...], tuple[int, ...]]
_PLANS: Final[dict[frozenset[int], _Plan]] = {}
#: sets of wilds beyond this many are worked out and not kept
_PLANS_MAX: Final = 4096


def winning_tiles(c: Sequence[int], n_melds: int, wilds: frozenset[int], rules: Rules) -> int:
    """The tiles (bit ``t``) whose one more in the standing counts ``c`` (42 per-tile counts, or
    34 for a hand without flowers) makes :func:`longgang_score.complete` true with ``n_melds``
    melds and the seat's ``wilds``; 0 when none does.

    >>> from mahjong_audit.engine import tiles as T
    >>> from mahjong_audit.engine.rulesets.longgang_score import wilds_for
    >>> c = tuple(T.counts(T.parse("123m456p789s111z34s22z")))
    >>> T.fmt([t for t in range(42) if winning_tiles(c, 0, frozenset(), Rules()) >> t & 1])
    '25s'
    >>> w = wilds_for(0, T.parse("6z")[0]).all  # the dealer's: 发 the 财神, 春 its 坐花
    >>> T.fmt([t for t in range(42) if winning_tiles(c, 0, w, Rules()) >> t & 1])  # a wild added wins too
    '25s6z1f'
    """
    h: tuple[int, ...] = c if isinstance(c, tuple) else tuple(c)
    n = len(h)
    wild_mask, wild_kinds, wild_flowers = _plan(wilds)
    for t in range(T.FLOWER0, n):
        if h[t] and not wild_mask >> t & 1:
            return 0  # a flower held that should have been set aside
    three = rules.three_caishen
    real = 0  # the 正财 held
    for t in wild_kinds:
        real += h[t]
    flowers_held = 0
    for t in wild_flowers:
        if t < n:
            flowers_held += h[t]
    w = real + flowers_held
    flower_real = three == 4 or len(wild_flowers) >= 2  # 花财神: a wild flower counts as a 正财
    if flower_real:
        real += flowers_held
    if real >= three:
        return _KINDS | wild_mask  # 三财神 held: every tile but a flower to set aside
    mask = 0
    # a wild added: one wild more (and a 正财 more when it counts as one)
    if real + 1 >= three:
        for t in wilds:
            if not T.is_flower(t) or flower_real:
                mask |= 1 << t
    n_sets = 5 - n_melds
    if n_sets < 0:
        return mask
    km = h[0:9]
    kp = h[9:18]
    ks = h[18:27]
    kz = h[27:34]
    for t in wild_kinds:  # the wild kinds emptied
        if h[t]:
            if t < 9:
                km = _emptied(km, t)
            elif t < 18:
                kp = _emptied(kp, t - 9)
            elif t < 27:
                ks = _emptied(ks, t - 18)
            else:
                kz = _emptied(kz, t - 27)
    m = _entry(km)
    p = _entry(kp)
    s = _entry(ks)
    z = _entry(kz)
    if m[3] < 0 or p[3] < 0 or s[3] < 0 or z[3] < 0:  # a count no real hand holds: the plain tests per kind
        plain = _natural(h, wild_kinds)
        if sum(plain) + w + 1 != 3 * n_sets + 2:
            return mask
        return mask | _by_kind(plain, n_sets, w, wild_mask, rules.eight_pairs and n_melds == 0)
    if m[3] + p[3] + s[3] + z[3] + w + 1 != 3 * n_sets + 2:
        return mask  # both shapes hold 3 × sets + 2 tiles
    s0 = m[0] + p[0] + s[0] + z[0]  # every suit in sets alone
    dm, dp, ds, dz = m[1] - m[0], p[1] - p[0], s[1] - s[0], z[1] - z[0]  # … and the pair in it
    # a wild more: decompose.is_complete's test (the fewest wilds of the suits, the pair in one
    # of them or of wilds), and 八对半 only where no more kinds are odd than the wilds can pair
    standard = s0 + _least(dm, dp, ds, dz) <= w + 1
    eight = rules.eight_pairs and n_melds == 0 and m[2] + p[2] + s[2] + z[2] <= w + 2
    nat: list[int] = []
    if eight:
        nat = _natural(h, wild_kinds)
        eight = R.is_eight_pairs(nat, w + 1)
    if not standard and not eight:
        return mask  # no tile does better than a wild, which wins by no shape
    mask |= wild_mask
    if standard:
        std = (_suit_waits(km, m, w - s0 + m[0], _least(0, dp, ds, dz))
               | _suit_waits(kp, p, w - s0 + p[0], _least(dm, 0, ds, dz)) << 9
               | _suit_waits(ks, s, w - s0 + s[0], _least(dm, dp, 0, dz)) << 18
               | _suit_waits(kz, z, w - s0 + z[0], _least(dm, dp, ds, 0)) << 27)
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
        bits = 0
        kinds: list[int] = []
        flowers: list[int] = []
        for t in sorted(wilds):
            bits |= 1 << t
            if T.is_flower(t):
                flowers.append(t)
            else:
                kinds.append(t)
        plan = (bits, tuple(kinds), tuple(flowers))
        if len(_PLANS) < _PLANS_MAX:
            _PLANS[wilds] = plan
    return plan


def _emptied(suit: tuple[int, ...], r: int) -> tuple[int, ...]:
    """A suit's counts with its kind ``r`` (a wild kind) emptied."""
    out = list(suit)
    out[r] = 0
    return tuple(out)


def _natural(h: tuple[int, ...], wild_kinds: tuple[int, ...]) -> list[int]:
    """The 34 counts of the natural tiles (the wild kinds emptied)."""
    nat = list(h[:34])
    for t in wild_kinds:
        nat[t] = 0
    return nat


def _entry(key: tuple[int, ...]) -> _Entry:
    """The entry of :data:`_SUITS` for a suit's counts."""
    e = _SUITS.get(key)
    if e is None:
        odd = tiles = 0
        off = False
        for x in key:
            if x < 0 or x > 15:
                off = True
            odd += x & 1
            tiles += x
        if off:
            e = _OFF
        else:
            m0, m1 = suit_least(key, len(key) == 7)
            e = (m0, m1, odd, tiles)
        _SUITS[key] = e
    return e


def _suit_waits(key: tuple[int, ...], e: _Entry, left: int, d: int) -> int:
    """The kinds of one suit (its counts and entry ``e``) whose one more completes the hand, with ``left``
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


def _waits_of(key: tuple[int, ...]) -> _Waits:
    """The entry of :data:`_WAITS` for one suit's counts."""
    honour = len(key) == 7
    part = list(key)
    a0: list[int] = []
    a1: list[int] = []
    for r in range(len(part)):
        part[r] += 1
        x0, x1 = suit_least(part, honour)
        part[r] -= 1
        a0.append(x0)
        a1.append(x1)
    by0 = tuple(_at_most(tuple(a0), th) for th in range(_TH + 1))
    by1 = tuple(_at_most(tuple(a1), th) for th in range(_TH + 1))
    return by0, by1, tuple(a0), tuple(a1)


def _by_kind(nat: list[int], n_sets: int, w: int, wild_mask: int, eight: bool) -> int:
    """The natural kinds whose one more wins, by the plain tests kind by kind, and the wilds when a
    wild more wins (counts no real hand holds: below 0 or beyond 15)."""
    mask = wild_mask if shape_complete(nat, n_sets, w + 1) or (eight and R.is_eight_pairs(nat, w + 1)) else 0
    for t in range(34):
        if not wild_mask >> t & 1:
            nat[t] += 1
            if shape_complete(nat, n_sets, w) or (eight and R.is_eight_pairs(nat, w)):
                mask |= 1 << t
            nat[t] -= 1
    return mask


__all__ = ["winning_tiles"]
