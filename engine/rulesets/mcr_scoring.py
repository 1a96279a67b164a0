"""MCR (国标麻将) fan calculator.

``score_mcr(sit)`` finds every way to read the winning hand (4 sets + pair with the
exposed melds fixed, 七对, 十三幺, 全不靠/七星不靠, 组合龙 + set + pair, 九莲宝灯,
连七对), lists the *raw* fans of each reading, removes the implied ones with the one
exclusion table of :mod:`mahjong_audit.engine.rulesets.mcr_fans` (不重复), and keeps the reading with
the highest total (就高不就低).

Principles, where they live:

* 不重复 — ``_exclude``: the only place that drops implied fans, driven by
  ``EXCLUSIONS``.  Rows are applied in catalogue order; a fan that is itself excluded
  does not exclude anything (so 四暗刻 hides 不求人 and 自摸 is still counted).
* 不拆移 — a reading is one fixed partition of the tiles into sets; fans are computed
  from that partition only. The partitions (and the waits) come from
  :mod:`mahjong_audit.engine.rulesets.mcr_readings`; this module only names fans.
* 不得相同 / 套算一次 — ``_chow_combo`` / ``_pung_combo``: among four chows a four-chow
  fan is taken alone; otherwise a three-chow fan plus at most one fan of the remaining
  chow with one of the three; otherwise pair fans, at most (3 - isolated chows) of them,
  trimming repeated kinds first (老少副, 连六, 喜相逢, 一般高 in that order).
  Pungs likewise, except that pair fans of pungs are not limited.

Tie-break (deterministic, and the same as the reference calculator pymahjonggb):
readings are visited in canonical order — special shapes first, then the 4-sets+pair
readings sorted by their concealed sets, each set keyed by (first tile, pung before
chow) with tiles ordered 万, 条, 饼, 东南西北, 中发白.  A later reading replaces the
current best only if its total is higher, or if it is equal and the later one
contains 一色三同顺 or 三同刻, or the best so far is 七对 (a 4-sets reading of the same
value is preferred to 七对).

Reference-compatible details (see docs/rules/mcr.md): 和绝张 is dropped when another
copy of the winning tile is among the standing tiles and forced when three copies are in
the melds; 杠上开花 needs a kong among the melds; 抢杠和 needs the robbed tile to appear
nowhere else in the hand; a discarded winning tile that can only complete a pung makes
that pung exposed (for 暗刻 counting); 边张/嵌张/单钓将 need a single waiting tile.

Speed (pure Python): a raw fan is an int *code*, ``catalogue index << 5 | set mask``
(mask bits 0-3 = the sets of the reading, bit 4 = the pair), so a reading's raw fans
are a tuple of small ints.  Everything that depends on a small key is memoised on an
immutable tuple key: per-suit decompositions, waits and tile traits, the chow and pung
combination fans, the per-hand context fans, and the exclusion pass itself (keyed on
the tuple of raw fan codes).  The caches hold derived facts only; the tables stay
read-only data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import combinations, permutations
from types import MappingProxyType
from typing import Any, Final, final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, MeldKind, NotAWin, Score, ScoreItem, WinSituation
from mahjong_audit.engine.rulesets import mcr_fans as DATA
from mahjong_audit.engine.rulesets import mcr_readings as R
from mahjong_audit.engine.rulesets.mcr_readings import (
    CHOW,
    DRG,
    GRN,
    HON,
    KONG,
    PAIR,
    PUNG,
    RANK_BITS,
    RANK_MASK,
    REV,
    SUIT_BITS,
    TERM_HONOR,
    TH,
    TILE_TRAITS,
    WND,
    Reading,
)

__all__ = ["Calculator", "score_mcr", "resolve_values"]

# meld kinds bound once (attribute access on an enum class is slow in Python 3.11)
_CHI: Final = MeldKind.CHI
_PON: Final = MeldKind.PON
_KONG: Final = MeldKind.KONG
_AKONG: Final = MeldKind.CONCEALED_KONG
_NO_EXTRA: Final[frozenset[str]] = frozenset()
_DEFAULT_VALUES: Final = DATA.DEFAULT_VALUES
#: the same values as a plain dict, read (never written) where the defaults apply: a look-up in a
#: mapping proxy is two look-ups
_DEFAULT_VALUE_OF: Final[dict[str, int]] = dict(_DEFAULT_VALUES)
#: the most entries each per-process memo of this module keeps (then it computes what it does not hold)
_MEMO_MAX: Final = 1 << 15

# --------------------------------------------------------------------------- tiles


def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1


_CKEY: Final = R.CKEY  # a tile's place in the reference order (万 条 饼, winds, 中 发 白)


def _in_ckey_order(ts: tuple[int, ...]) -> tuple[int, ...]:
    """``tuple(sorted(ts, key=CKEY.__getitem__))`` for the few first tiles of a hand's sets: an
    insertion sort (stable, like ``sorted``), without calling a key function per tile."""
    out = list(ts)
    for i in range(1, len(out)):
        x = out[i]
        kx = _CKEY[x]
        j = i - 1
        while j >= 0 and _CKEY[out[j]] > kx:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return tuple(out)


_TERM_HONOR: Final = TERM_HONOR
_KNITTED: Final = tuple(
    frozenset(s * 9 + off[s] + 3 * k for s in range(3) for k in range(3))
    for off in permutations(range(3))
)
_WIND_SET: Final = frozenset(range(27, 31))
#: readings of 边张/嵌张/单钓将 in a 组合龙 hand (option ``knitted_waits``; docs/rules/mcr.md)
KNITTED_WAITS: Final = ("reference", "botzone")
_DRAGON_SET: Final = frozenset(range(31, 34))

# --------------------------------------------------------------------------- fan codes

_FAN_NAME: Final = tuple(f.zh for f in DATA.FANS)
_ORDER: Final[dict[str, int]] = dict(DATA.ORDER)  # a fan's catalogue index by its name (read only)
_PAIR_BIT: Final = 1 << 4


def _code(name: str, mask: int = 0) -> int:
    """Raw fan occurrence: catalogue index << 5 | mask of the sets it is built from.

    The mask is kept only for fans named in a "sets" exclusion row (the only rows that
    look at sets); for the others it is 0, so equal fan lists give equal cache keys.
    """
    v = _CODE_OF[name]  # one look-up: the code, its low five bits set when the fan keeps its mask
    return v & ~31 | v & mask


def _mask(sets: Iterable[int]) -> int:
    m = 0
    for i in sets:
        m |= 1 << i
    return m


_SCOPED: Final = frozenset(n for r in DATA.EXCLUSIONS + DATA.IMPLIED_EXCLUSIONS if r.scope != "hand"
                    for n in (r.fan, r.excludes))
#: a fan's code without a mask, by its name (the module reads the plain dict; ``C`` is its read-only view)
_C: Final[dict[str, int]] = {name: i << 5 for i, name in enumerate(_FAN_NAME)}
C: Final = MappingProxyType(_C)
#: per fan name: its code, with the five mask bits set when :func:`_code` keeps the mask (read only)
_CODE_OF: Final[dict[str, int]] = {name: i << 5 | (31 if name in _SCOPED else 0) for i, name in enumerate(_FAN_NAME)}

# --------------------------------------------------------------------------- exclusion data


def _exclusion_tables(rows: tuple[DATA.Exclusion, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    hand: list[tuple[int, ...]] = [()] * len(_FAN_NAME)
    sets: list[tuple[int, ...]] = [()] * len(_FAN_NAME)
    for r in rows:
        i, j = DATA.ORDER[r.fan], DATA.ORDER[r.excludes]
        if r.scope == "hand":
            if j not in hand[i]:
                hand[i] += (j,)
        else:
            sets[i] += (j,)
    return tuple(hand), tuple(sets)


# per fan index: the fans it hides whole ("hand" rows) and the fans it hides only on its
# own sets ("sets" rows), as fan indices — both derived from DATA.EXCLUSIONS.
_HAND_X_SETS_X: Final = _exclusion_tables(DATA.EXCLUSIONS)
_HAND_X: Final = _HAND_X_SETS_X[0]
_SETS_X: Final = _HAND_X_SETS_X[1]
#: the same with the optional fans' implied rows (option ``optional_exclusions: "implied"``)
_IMPLIED_X: Final = _exclusion_tables(DATA.EXCLUSIONS + DATA.IMPLIED_EXCLUSIONS)
_OPTIONAL_EXCLUSIONS: Final = ("seed", "implied")
_NF: Final = len(_FAN_NAME)
#: a set of fan indices is kept in two ints of ``_WORD`` bits (fans below ``_WORD``, and the rest):
#: each fits a compiled module's unboxed int, where one int of ~110 bits would be a big int
_WORD: Final = 62


def _word_bits(ix: tuple[int, ...]) -> tuple[int, int]:
    """The fan indices ``ix`` as the two words' bits (see :data:`_WORD`)."""
    lo = hi = 0
    for i in ix:
        if i < _WORD:
            lo |= 1 << i
        else:
            hi |= 1 << (i - _WORD)
    return lo, hi


def _exclusion_bits(
    tables: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """:func:`_exclusion_tables`' rows as bits, per fan index: the fans its "hand" rows hide (low
    word, high word), then those its "sets" rows hide on its sets (low, high)."""
    hand, sets = tables
    hb = [_word_bits(x) for x in hand]
    sb = [_word_bits(x) for x in sets]
    return (tuple([b[0] for b in hb]), tuple([b[1] for b in hb]),
            tuple([b[0] for b in sb]), tuple([b[1] for b in sb]))


_DEFAULT_BITS: Final = _exclusion_bits((_HAND_X, _SETS_X))
_IMPLIED_BITS: Final = _exclusion_bits(_IMPLIED_X)


def _exclude(occ: tuple[int, ...], implied: bool = False) -> tuple[tuple[str, int], ...]:
    """不重复: drop fans implied by other counted fans.

    ``occ``: raw fan codes.  Returns ``((name, count), ...)`` in catalogue order.
    ``implied``: also the optional fans' ``IMPLIED_EXCLUSIONS`` rows.
    """
    fans, counts = _kept(occ, implied)
    return tuple([(_FAN_NAME[fans[k]], counts[k]) for k in range(len(fans))])


def _has(lo: int, hi: int, i: int) -> bool:
    """Is fan ``i`` among the two words' bits?"""
    return bool(lo >> i & 1) if i < _WORD else bool(hi >> (i - _WORD) & 1)


def _kept(occ: tuple[int, ...], implied: bool) -> tuple[list[int], list[int]]:
    """:func:`_exclude` as fan indices in catalogue order and their counts.

    The rows are applied fan by fan in catalogue order, a fan that is itself hidden hiding
    nothing; the fans present and hidden are bits (:data:`_WORD`), as a hand holds ~4-10 raw fans."""
    hand_lo, hand_hi, sets_lo, sets_hi = _IMPLIED_BITS if implied else _DEFAULT_BITS
    codes = sorted(occ)  # by fan index, then by the sets' mask
    fans: list[int] = []  # the fans present, in catalogue order
    counts: list[int] = []  # their occurrences
    present_lo = present_hi = 0
    last = -1
    for c in codes:
        i = c >> 5
        if i == last:
            k = len(counts) - 1
            counts[k] = counts[k] + 1
        else:
            fans.append(i)
            counts.append(1)
            last = i
            if i < _WORD:
                present_lo |= 1 << i
            else:
                present_hi |= 1 << (i - _WORD)
    # "hand" rows first; the per-occurrence pass below runs only if a "sets" row meets a fan
    # that is still counted
    dead_lo = dead_hi = 0  # the fans hidden by a "hand" row
    scoped = False
    for i in fans:
        if _has(dead_lo, dead_hi, i):
            continue
        dead_lo |= hand_lo[i]
        dead_hi |= hand_hi[i]
        if sets_lo[i] & present_lo & ~dead_lo or sets_hi[i] & present_hi & ~dead_hi:
            scoped = True
            break
    if not scoped:
        kept: list[int] = []
        kept_counts: list[int] = []
        for k in range(len(fans)):
            i = fans[k]
            if not _has(dead_lo, dead_hi, i):
                kept.append(i)
                kept_counts.append(counts[k])
        return kept, kept_counts
    n = len(fans)
    masks: list[list[int]] = []  # per fan present: the masks of the sets of its occurrences
    p = 0
    for k in range(n):
        m = counts[k]
        masks.append([c & 31 for c in codes[p:p + m]])
        p += m
    alive = [True] * n
    for k in range(n):
        if not alive[k]:
            continue
        i = fans[k]
        mine = masks[k]
        hl = hand_lo[i]
        hh = hand_hi[i]
        sl = sets_lo[i]
        sh = sets_hi[i]
        for q in range(n):
            if not alive[q]:
                continue
            j = fans[q]
            if _has(hl, hh, j):
                alive[q] = False
            elif _has(sl, sh, j):
                keep = []
                for x in masks[q]:
                    covered = False
                    for y in mine:
                        if x & y == x:
                            covered = True
                            break
                    if not covered:
                        keep.append(x)
                if keep:
                    masks[q] = keep
                else:
                    alive[q] = False
    kept = []
    kept_counts = []
    for k in range(n):
        if alive[k]:
            kept.append(fans[k])
            kept_counts.append(len(masks[k]))
    return kept, kept_counts


def _apply_exclusions(occ: Iterable[tuple[str, frozenset[int]]]) -> dict[str, int]:
    """``_exclude`` on (name, sets) pairs; returns name -> count."""
    return dict(_exclude(tuple(_code(n, _mask(s)) for n, s in occ)))


# --------------------------------------------------------------------------- set combinations


def _sorted3(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three ints in order (``sorted`` builds a list)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


def _two_chow_fan(a: int, b: int) -> str | None:
    if _suit(a) != _suit(b):
        return "喜相逢" if _rank(a) == _rank(b) else None
    if a - b == 3 or b - a == 3:
        return "连六"
    ra, rb = _rank(a), _rank(b)
    if ra == 1 and rb == 7 or ra == 7 and rb == 1:
        return "老少副"
    if a == b:
        return "一般高"
    return None


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    """a <= b <= c in reference order (first tiles)."""
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    ra, rb, rc = _rank(a), _rank(b), _rank(c)
    if sa != sb and sa != sc and sb != sc:
        lo, mid, hi = _sorted3(ra, rb, rc)
        if lo + 1 == mid and mid + 1 == hi:
            return "三色三步高"
        if ra == rb == rc:
            return "三色三同顺"
        if lo == 1 and mid == 4 and hi == 7:
            return "花龙"
        return None
    if sa == sb == sc:
        if ra == 1 and rb == 4 and rc == 7:
            return "清龙"
        if ra + 2 == rb and rb + 2 == rc or ra + 1 == rb and rb + 1 == rc:
            return "一色三步高"
        if ra == rb == rc:
            return "一色三同顺"
    return None


def _four_chow_fan(a: int, b: int, c: int, d: int) -> str | None:
    if not _suit(a) == _suit(b) == _suit(c) == _suit(d):
        return None
    if a + 2 == b and b + 2 == c and c + 2 == d or a + 1 == b and b + 1 == c and c + 1 == d:
        return "一色四步高"
    if a == b == c == d:
        return "一色四同顺"
    return None


_EXTRA_PRIORITY: Final = ("一般高", "喜相逢", "连六", "老少副")
#: of four sets: each three of them, and the fourth (a module constant: a loop over a literal of tuples
#: is a generic iteration in the compiled module)
_TRIOS: Final[tuple[tuple[tuple[int, int, int], int], ...]] = (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0))


def _pair_fans_limited(fans: list[tuple[str, int]], limit: int) -> list[tuple[str, int]]:
    """套算一次 / 不得相同 for pair fans: keep at most ``limit``, trimming repeats first."""
    if len(fans) <= limit:
        return fans
    table = {k: [f for f in fans if f[0] == k] for k in _EXTRA_PRIORITY}
    cnt = len(fans)
    lim = 1
    while cnt > limit and lim >= 0:
        for k in reversed(_EXTRA_PRIORITY):
            while len(table[k]) > lim and cnt > limit:
                table[k].pop()
                cnt -= 1
            if cnt <= limit:
                break
        lim -= 1
    return [f for k in _EXTRA_PRIORITY for f in table[k]]


def _bits(ix: list[int], at: Iterable[int]) -> int:
    """The mask of the sets ``ix[i]`` for i in ``at``."""
    m = 0
    for i in at:
        m |= 1 << ix[i]
    return m


def _chow_fans(ch: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """ch: (first tile, set index) sorted in reference order. Returns (fan, mask of its sets)."""
    n = len(ch)
    t = [c[0] for c in ch]
    ix = [c[1] for c in ch]
    if n == 4:
        f = _four_chow_fan(t[0], t[1], t[2], t[3])
        if f:
            return [(f, _mask(ix))]
        for trio, extra in _TRIOS:
            f = _three_chow_fan(t[trio[0]], t[trio[1]], t[trio[2]])
            if f:
                out = [(f, _bits(ix, trio))]
                found = {}
                for i in trio:
                    g = _two_chow_fan(t[i], t[extra])
                    if g and g not in found:
                        found[g] = i
                for g in _EXTRA_PRIORITY:
                    if g in found:
                        out.append((g, 1 << ix[found[g]] | 1 << ix[extra]))
                        break
                return out
        pairs = []
        related = [False] * 4
        for i in range(4):
            for j in range(i + 1, 4):
                g = _two_chow_fan(t[i], t[j])
                if g:
                    pairs.append((g, 1 << ix[i] | 1 << ix[j]))
                    related[i] = related[j] = True
        limit = 3 - related.count(False)
        return _pair_fans_limited(pairs, limit) if limit > 0 else []
    if n == 3:
        f = _three_chow_fan(t[0], t[1], t[2])
        if f:
            return [(f, _mask(ix))]
        pairs = []
        for i, j in ((0, 1), (0, 2), (1, 2)):
            g = _two_chow_fan(t[i], t[j])
            if g:
                pairs.append((g, 1 << ix[i] | 1 << ix[j]))
        return _pair_fans_limited(pairs, 2)
    if n == 2:
        g = _two_chow_fan(t[0], t[1])
        return [(g, _mask(ix))] if g else []
    return []


def _two_pung_fan(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "双同刻" if _rank(a) == _rank(b) else None
    if a >= 31 and b >= 31:  # dragons
        return "双箭刻"
    return None


def _three_pung_fan(a: int, b: int, c: int) -> str | None:
    if a < 27 and b < 27 and c < 27:
        sa, sb, sc = _suit(a), _suit(b), _suit(c)
        if sa != sb and sa != sc and sb != sc:
            lo, mid, hi = _sorted3(_rank(a), _rank(b), _rank(c))
            if lo + 1 == mid and mid + 1 == hi:
                return "三色三节高"
            if lo == hi:
                return "三同刻"
        elif sa == sb == sc and a + 1 == b and b + 1 == c:
            return "一色三节高"
        return None
    if 27 <= a <= 30 and 27 <= b <= 30 and 27 <= c <= 30:  # winds
        return "三风刻"
    if a >= 31 and b >= 31 and c >= 31:  # dragons
        return "大三元"
    return None


def _pung_fans(pg: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """pg: (tile, set index) in reference order. Returns (fan, mask of its sets)."""
    n = len(pg)
    t = [p[0] for p in pg]
    ix = [p[1] for p in pg]
    out: list[tuple[str, int]] = []
    if n == 4:
        if _suit(t[0]) == _suit(t[3]) and t[0] < 27 and t[0] + 1 == t[1] and t[1] + 1 == t[2] and t[2] + 1 == t[3]:
            return [("一色四节高", _mask(ix))]
        if t == [27, 28, 29, 30]:  # the four winds (in reference order)
            return [("大四喜", _mask(ix))]
        for trio, extra in _TRIOS:
            f = _three_pung_fan(t[trio[0]], t[trio[1]], t[trio[2]])
            if f:
                out.append((f, _bits(ix, trio)))
                for i in trio:
                    g = _two_pung_fan(t[i], t[extra])
                    if g:
                        out.append((g, 1 << ix[i] | 1 << ix[extra]))
                        break
                return out
    elif n == 3:
        f = _three_pung_fan(t[0], t[1], t[2])
        if f:
            return [(f, _mask(ix))]
    for i in range(n):
        for j in range(i + 1, n):
            g = _two_pung_fan(t[i], t[j])
            if g:
                out.append((g, 1 << ix[i] | 1 << ix[j]))
    return out




def _codes(fans: list[tuple[str, int]]) -> tuple[int, ...]:
    """The raw fan codes of (fan, mask of its sets)."""
    return tuple([_code(n, m) for n, m in fans])


# pack traits (全带幺 / 全带五 / 全双刻): per set, a bit for each shape it fits
_P_TERM, _P_FIVE, _P_EVEN = 1, 2, 4


def _chow_pack(t: int) -> int:
    r = _rank(t)
    return _P_TERM if r in (1, 7) else _P_FIVE if r in (3, 4, 5) else 0


def _pung_pack(t: int) -> int:  # pungs, kongs and the pair
    if t >= 27:
        return _P_TERM
    r = _rank(t)
    return _P_TERM if r in (1, 9) else _P_FIVE if r == 5 else _P_EVEN if r % 2 == 0 else 0


_CHOW_PACK: Final = tuple(_chow_pack(t) if t < 27 else 0 for t in range(34))
_PUNG_PACK: Final = tuple(_pung_pack(t) for t in range(34))
_PACK_CODES: Final = tuple(
    (_C["全带幺"],) if a & _P_TERM else (_C["全带五"],) if a & _P_FIVE else (_C["全双刻"],) if a & _P_EVEN else ()
    for a in range(8)
)


_CHOW_COMBOS: Final[dict[tuple[int, ...], tuple[tuple[int, ...], int]]] = {}


def _chow_combo(chows: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """:func:`_new_chow_combo`, memoised on the chows (a plain dict: one hash of the key per look-up)."""
    got = _CHOW_COMBOS.get(chows)
    if got is None:
        got = _new_chow_combo(chows)
        if len(_CHOW_COMBOS) < _MEMO_MAX:
            _CHOW_COMBOS[chows] = got
    return got


def _new_chow_combo(chows: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Chow combination fans of the chows (first tiles, reference order), set i = chow i.

    Returns (fan codes, pack bits shared by all the chows).
    """
    pack = 7
    for t in chows:
        pack &= _CHOW_PACK[t]
    return _codes(_chow_fans([(t, i) for i, t in enumerate(chows)])), pack


_PUNG_COMBOS: Final[dict[tuple[int, tuple[int, ...], int, int, int], tuple[tuple[int, ...], int]]] = {}


def _pung_combo(nc: int, pungs: tuple[int, ...], pair: int, rw: int, sw: int) -> tuple[tuple[int, ...], int]:
    """:func:`_new_pung_combo`, memoised on its arguments."""
    key = (nc, pungs, pair, rw, sw)
    got = _PUNG_COMBOS.get(key)
    if got is None:
        got = _new_pung_combo(nc, pungs, pair, rw, sw)
        if len(_PUNG_COMBOS) < _MEMO_MAX:
            _PUNG_COMBOS[key] = got
    return got


def _new_pung_combo(nc: int, pungs: tuple[int, ...], pair: int, rw: int, sw: int) -> tuple[tuple[int, ...], int]:
    """Fans of the pungs/kongs (reference order; set nc + i = pung i) and of pungs + pair.

    ``pair`` is the pair tile when it is an honour, else -1; ``rw``/``sw`` the prevalent
    and seat wind tiles (-1 when not among the pungs).  Returns (fan codes, pack bits).
    """
    out = []
    pack = 7
    pg = [(t, nc + i) for i, t in enumerate(pungs)]
    if len(pg) == 4:
        out.append(_C["碰碰和"])
    dragons = winds = 0  # the masks of the dragon and of the wind pungs
    for t, i in pg:
        pack &= _PUNG_PACK[t]
        one = 1 << i
        if t >= 31:  # a dragon
            out.append(_code("箭刻", one))
            dragons |= one
        elif t >= 27:
            winds |= one
        if TILE_TRAITS[t] & TH:
            out.append(_code("幺九刻", one))
        if t == rw:
            out.append(_code("圈风刻", one))
        if t == sw:
            out.append(_code("门风刻", one))
    out += _codes(_pung_fans(pg))
    if dragons and pair >= 31 and dragons.bit_count() == 2:
        out.append(_code("小三元", dragons | _PAIR_BIT))
    if winds and 27 <= pair <= 30 and winds.bit_count() == 3:
        out.append(_code("小四喜", winds | _PAIR_BIT))
    return tuple(out), pack


_NO_COMBO: Final[tuple[tuple[int, ...], int]] = ((), 7)


def _kong_codes(mk: int, ck: int) -> tuple[int, ...]:
    out = []
    if mk:
        out.append(_C["明杠"])
    if ck:
        out.append(_C["暗杠"])
    if mk >= 2:
        out.append(_C["双明杠"])
    if ck >= 2:
        out.append(_C["双暗杠"])
    if mk and ck:
        out.append(_C["明暗杠"])
    if mk + ck >= 3:
        out.append(_C["三杠"])
    if mk + ck == 4:
        out.append(_C["四杠"])
    return tuple(out)


_HIDDEN_CODES: Final = (
    (), (), (_C["双暗刻"],), (_C["双暗刻"], _C["三暗刻"]), (_C["双暗刻"], _C["三暗刻"], _C["四暗刻"]),
)
#: fan codes the readings add often, read as constants
_EDGE_WAIT: Final = _C["边张"]
_CLOSED_WAIT: Final = _C["嵌张"]
_SINGLE_WAIT: Final = _C["单钓将"]
_PINGHU: Final = _C["平和"]

# --------------------------------------------------------------------------- hand context


class _Hand:
    """Per-hand facts shared by all readings (internal). Set once by the constructor, but for
    ``unique_wait``, worked out on first use (:meth:`compute_unique_wait`)."""

    __slots__ = (
        "sit", "standing", "all_counts", "subs", "fixed", "win", "self_drawn", "seat", "round", "extra",
        "melded_fixed", "kong_count", "last_copy", "last_tile", "kong", "n_standing", "base", "unique_wait",
    )

    def __init__(self, sit: WinSituation, standing: list[int], all_counts: list[int],
                 subs: tuple[int, int, int, int], extra: frozenset[str], melded_fixed: int, kong_count: int,
                 last_copy: bool, kong: bool, traits: tuple[int, ...]) -> None:
        self.sit: Final = sit
        #: per-kind counts of the standing tiles with the winning tile, and of every tile
        self.standing: Final = standing
        self.all_counts: Final = all_counts
        self.subs: Final = subs  # ``standing``'s suits' keys (mcr_readings.subs)
        self.fixed: Final = sit.melds
        self.win: Final = sit.win_tile
        self.self_drawn: Final = bool(sit.self_drawn)
        self.seat: Final = sit.seat_wind
        self.round: Final = sit.round_wind
        self.extra: Final = extra  # the optional fans switched on
        self.melded_fixed: Final = melded_fixed  # chi, pon and exposed kongs
        self.kong_count: Final = kong_count
        self.last_copy: Final = last_copy
        self.last_tile: Final = bool(sit.last_tile)
        self.kong: Final = kong  # 杠上开花 / 抢杠和 as the reference reads them
        self.n_standing: Final = len(sit.concealed)
        self.unique_wait: bool | None = None
        base = traits + _situation_codes(self.self_drawn, last_copy, self.last_tile, kong, melded_fixed)
        if extra:
            base += _optional_flag_codes(self)
        #: the raw fans of the whole hand, whatever the reading: tiles, flags, concealment
        self.base: Final = base

    def no_wait(self) -> bool:
        """天和 / 天胡: every tile was dealt, none waited on (no 边张, 嵌张, 单钓将, 独听, 卡五)."""
        return bool(self.extra) and not self.extra.isdisjoint(_HEAVENLY) and bool(self.sit.get("heavenly"))

    def compute_unique_wait(self) -> bool:
        """边张/嵌张/单钓将 need exactly one waiting tile (none for 天和)."""
        if self.no_wait():
            self.unique_wait = False
            return False
        win = self.win
        s = win // 9 if win < 27 else 3
        k0, k1, k2, k3 = self.subs
        less = 1 << RANK_BITS * (win - 9 * s)  # the winning tile out of its suit's key
        if s == 0:
            k0 -= less
        elif s == 1:
            k1 -= less
        elif s == 2:
            k2 -= less
        else:
            k3 -= less
        self.unique_wait = unique = R.single_wait((k0, k1, k2, k3), self.n_standing == 13)
        return unique


_TRAIT_CODES: Final[dict[tuple[int, int, int], tuple[int, ...]]] = {}


#: the trait bits :func:`_new_trait_codes` reads: of any tile (the ranks only in a hand without honours), of
#: every tile
_ANY_READ: Final = HON | WND | DRG | TH | SUIT_BITS[0] | SUIT_BITS[1] | SUIT_BITS[2]
_ALL_READ: Final = REV | GRN | HON | TH


def _trait_codes(anyb: int, allb: int, hog: int) -> tuple[int, ...]:
    """:func:`_new_trait_codes`, memoised on the bits it reads (fewer keys than the hands' bits)."""
    anyb &= _ANY_READ | RANK_MASK if not anyb & HON else _ANY_READ
    allb &= _ALL_READ
    key = (anyb, allb, hog)
    got = _TRAIT_CODES.get(key)
    if got is None:
        got = _new_trait_codes(anyb, allb, hog)
        if len(_TRAIT_CODES) < _MEMO_MAX:
            _TRAIT_CODES[key] = got
    return got


def _new_trait_codes(anyb: int, allb: int, hog: int) -> tuple[int, ...]:
    """Fans that depend only on which tiles are in the hand (any reading)."""
    out = []
    has_honour = anyb & HON
    nsuits = (anyb & 64 != 0) + (anyb & 128 != 0) + (anyb & 256 != 0)
    if not has_honour:
        out.append(_C["无字"])
    if nsuits < 3:
        out.append(_C["缺一门"])
    if nsuits == 1:
        out.append(_C["混一色" if has_honour else "清一色"])
    if nsuits == 3 and anyb & WND and anyb & DRG:
        out.append(_C["五门齐"])
    if not anyb & TH:
        out.append(_C["断幺"])
    if allb & REV:
        out.append(_C["推不倒"])
    if allb & GRN:
        out.append(_C["绿一色"])
    if allb & HON:
        out.append(_C["字一色"])
    if allb & TH:
        out.append(_C["混幺九"])
        if not has_honour:
            out.append(_C["清幺九"])
    if not has_honour:
        ranks = (anyb & RANK_MASK) >> 10
        lo = (ranks & -ranks).bit_length()  # lowest rank present, 1..9
        hi = ranks.bit_length()  # highest rank present
        if hi <= 4:
            out.append(_C["小于五"])
            if hi <= 3:
                out.append(_C["全小"])
        elif lo >= 6:
            out.append(_C["大于五"])
            if lo >= 7:
                out.append(_C["全大"])
        elif lo >= 4 and hi <= 6:
            out.append(_C["全中"])
    out.extend(_C["四归一"] for _ in range(hog))
    return tuple(out)


_SITUATION_CODES: Final[dict[tuple[bool, bool, bool, bool, int], tuple[int, ...]]] = {}


def _situation_codes(self_drawn: bool, last_copy: bool, last_tile: bool, kong: bool, melded_fixed: int) -> tuple[int, ...]:
    """:func:`_new_situation_codes`, memoised on its arguments (at most 2^4 × 5 keys)."""
    key = (self_drawn, last_copy, last_tile, kong, melded_fixed)
    got = _SITUATION_CODES.get(key)
    if got is None:
        got = _SITUATION_CODES[key] = _new_situation_codes(self_drawn, last_copy, last_tile, kong, melded_fixed)
    return got


def _new_situation_codes(self_drawn: bool, last_copy: bool, last_tile: bool, kong: bool,
                         melded_fixed: int) -> tuple[int, ...]:
    """Flag fans (和绝张, 自摸, 妙手回春, ...) and concealment fans (门前清, 不求人, 全求人)."""
    out = []
    if last_copy:
        out.append(_C["和绝张"])
    if self_drawn:
        out.append(_C["自摸"])
        if last_tile:
            out.append(_C["妙手回春"])
        if kong:
            out.append(_C["杠上开花"])
    else:
        if last_tile:
            out.append(_C["海底捞月"])
        if kong:
            out.append(_C["抢杠和"])
    if melded_fixed == 0:
        out += [_C["门前清"], _C["不求人"]] if self_drawn else [_C["门前清"]]
    elif melded_fixed == 4 and not self_drawn:
        out.append(_C["全求人"])
    return tuple(out)


_HEAVENLY: Final = frozenset(("天和", "天胡"))
_FLAG_FANS: Final = tuple(kv for kv in DATA.FLAG_FANS if kv[0] != "立直")  # 立直 also needs a concealed hand
_SEASONS: Final = frozenset(range(T.FLOWER0, T.FLOWER0 + 4))  # 春夏秋冬 = 1f-4f
_PLANTS: Final = frozenset(range(T.FLOWER0 + 4, T.FLOWER0 + 8))  # 梅兰竹菊 = 5f-8f
_FIVES: Final = (4, 13, 22)


def _optional_flag_codes(h: _Hand) -> tuple[int, ...]:
    """The optional fans of the whole hand: flags, flowers, concealment, tiles, the wait."""
    sit = h.sit
    ex = h.extra
    out = [_C[name] for name, key in _FLAG_FANS if name in ex and sit.get(key)]
    if "地和" in ex and sit.seat_wind != 1 and _C["地和"] in out:
        out.remove(_C["地和"])  # seed 004: "莊家出第一張後，下家自摸即是地和" — the dealer's next seat only
    if "立直" in ex and sit.get("ready") and h.melded_fixed == 0:
        out.append(_C["立直"])  # "门清时听牌": declared ready, no chi, pon or exposed kong
    if "半求" in ex and h.melded_fixed == 4 and h.self_drawn:
        out.append(_C["半求"])  # every set called, the pair self-drawn on its single wait
    if "缺五" in ex and not any(h.all_counts[t] for t in _FIVES):
        out.append(_C["缺五"])
    if "梅兰竹菊" in ex and _PLANTS <= set(sit.flowers):
        out.append(_C["梅兰竹菊"])
    if "春夏秋冬" in ex and _SEASONS <= set(sit.flowers):
        out.append(_C["春夏秋冬"])
    if "独听" in ex and not h.no_wait() and _lone_wait(h):
        out.append(_C["独听"])
    return tuple(out)


def _lone_wait(h: _Hand) -> bool:
    """独听 "听牌时只听一张牌": the standing tiles before the winning tile wait on one kind only,
    any winning shape (by shape, like 边张/嵌张/单钓将)."""
    from mahjong_audit.engine.rulesets.mcr import complete_counts

    c = list(h.standing)
    c[h.win] -= 1
    n = len(h.fixed)
    waits = 0
    for t in range(34):
        c[t] += 1
        waits += complete_counts(c, n)
        c[t] -= 1
        if waits > 1:
            return False
    return waits == 1


# --------------------------------------------------------------------------- readings


def _reading_codes(h: _Hand, fixed_chows: tuple[int, ...], fixed_pungs: tuple[int, ...], ck: int,
                   base: tuple[int, ...], part: Reading) -> tuple[int, ...]:
    """Raw fan codes of one 4-sets + pair reading (``base``: the per-hand fans).

    Set indices in the masks: the chows in reference order, then the pungs/kongs in
    reference order; 4 = the pair.
    """
    cch, cpg, pair = part.chows, part.pungs, part.pair
    chows = _in_ckey_order(fixed_chows + cch) if fixed_chows else cch
    pungs = _in_ckey_order(fixed_pungs + cpg) if fixed_pungs else cpg
    nc = len(chows)
    ccodes, cpack = _chow_combo(chows) if chows else _NO_COMBO
    if pungs:
        rw = 27 + h.round
        sw = 27 + h.seat
        has_rw = has_sw = False  # ``rw in pungs`` is a generic call in the compiled module
        for t in pungs:
            if t == rw:
                has_rw = True
            if t == sw:
                has_sw = True
        pcodes, ppack = _pung_combo(
            nc, pungs, pair if pair >= 27 else -1, rw if has_rw else -1, sw if has_sw else -1,
        )
    else:
        pcodes, ppack = _NO_COMBO
    win = h.win
    win_in_chow = False
    for t in cch:
        if t <= win <= t + 2:
            win_in_chow = True
            break
    cp = len(cpg)
    if cp and not h.self_drawn and not win_in_chow:
        for t in cpg:
            if t == win:
                cp -= 1  # a discarded tile that can only complete a pung makes it exposed
                break
    occ = base + ccodes + pcodes + _HIDDEN_CODES[cp + ck] + _PACK_CODES[cpack & ppack & _PUNG_PACK[pair]]
    if nc == 4 and pair < 27:
        occ += (_PINGHU,)
        if _rank(pair) == 5:
            ps = _suit(pair)
            if all(_suit(t) == ps for t in chows) and sorted(_rank(t) for t in chows) == [1, 1, 7, 7]:
                occ += (_C["一色双龙会"],)
            others = sorted((_suit(t), _rank(t)) for t in chows)
            want = sorted((s, r) for s in range(3) if s != ps for r in (1, 7))
            if others == want:
                occ += (_C["三色双龙会"],)
    # waiting
    if pair == win or win_in_chow:
        unique = h.unique_wait
        if unique is None:
            unique = h.compute_unique_wait()
        if unique:
            closed = edge = False  # 嵌张, 边张: each counted once, however many chows hold the tile
            for t in cch:
                if win == t + 1:
                    closed = True
                elif win == t or win == t + 2:
                    edge = True
            if closed:
                occ += (_CLOSED_WAIT,)
            if edge:
                occ += (_EDGE_WAIT,)
            if pair == win:
                occ += (_SINGLE_WAIT,)
    if h.extra:
        occ += _optional_set_fans(
            h, pair, [(t, i) for i, t in enumerate(chows)], [(t, nc + i) for i, t in enumerate(pungs)], cch,
        )
    return occ


def _consecutive(xs: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(xs, xs[1:], strict=False))


def _optional_set_fans(h, pair, chows, pungs, concealed_chows=()) -> tuple[int, ...]:
    out = []
    ex = h.extra
    if ex & DATA.MINGXING:
        out += _mingxing_set_fans(h, pair, [t for t, _ in chows], [t for t, _ in pungs], concealed_chows)
    if "四方大发" in ex and {t for t, _ in pungs} == _WIND_SET and pair == T.GREEN:
        out.append(_C["四方大发"])
    if pair < 27:
        if "258将" in ex and _rank(pair) in (2, 5, 8):
            out.append(_C["258将"])
        if "幺九头" in ex and _rank(pair) in (1, 9):
            out.append(_C["幺九头"])

    def mixed(group: list[tuple[int, int]], n: int, name: str, suits_ok) -> None:
        for combo in _subsets(group, n):
            ts = [t for t, _ in combo]
            if any(t >= 27 for t in ts):
                continue
            ranks = sorted(_rank(t) for t in ts)
            if len(set(ranks)) == n and _consecutive(ranks) and suits_ok(len({_suit(t) for t in ts})):
                out.append(_code(name, _mask(i for _, i in combo)))
                return

    if "混四节" in ex:
        mixed(pungs, 4, "混四节", lambda k: k >= 2)
    if "混四步" in ex:
        mixed(chows, 4, "混四步", lambda k: k >= 2)
    if "混三节" in ex:
        mixed(pungs, 3, "混三节", lambda k: k == 2)
    if "混三步" in ex:
        mixed(chows, 3, "混三步", lambda k: k == 2)
    return tuple(out)


def _mingxing_set_fans(h: _Hand, pair: int, chows: list[int], pungs: list[int],
                       concealed_chows: tuple[int, ...]) -> list[int]:
    """The extras of seed 002 that one 4-sets + pair reading shows (chows and pungs: first tiles)."""
    out = []
    ex = h.extra
    win = h.win
    if "将" in ex and pair < 27 and _rank(pair) in (2, 5, 8):
        out.append(_C["将"])  # "将为一对二、五或八"
    if "卡五" in ex and win < 27 and _rank(win) == 5 and win - 1 in concealed_chows and not h.no_wait():
        out.append(_C["卡五"])  # "手中有一张四和一张六，听五 (不可吃牌)": the 5 won into a 456 of the hand
    if "四归二" in ex and pair < 27 and h.all_counts[pair] == 4 and \
            sum(1 for t in chows if t <= pair <= t + 2) == 2:
        out.append(_C["四归二"])  # the four copies as two chows and the pair (a kong would hold all four)
    if "双龙抱" in ex and len(concealed_chows) == 4:
        a, b, c, d = sorted(concealed_chows)
        if a == b and c == d and b != c:
            out.append(_C["双龙抱"])  # two 一般高, no chi ("不可吃"), any pair
    if "全带" in ex and pair < 27:
        ranks = {_rank(pair)}
        for t in chows:
            ranks &= {_rank(t), _rank(t) + 1, _rank(t) + 2}
        for t in pungs:
            ranks &= {_rank(t)} if t < 27 else set()
        if ranks:
            out.append(_C["全带"])  # every set and the pair hold the same number
    if "全将碰" in ex and not chows and pair < 27 and _rank(pair) in (2, 5, 8) and \
            all(t < 27 and _rank(t) in (2, 5, 8) for t in pungs):
        out.append(_C["全将碰"])  # pungs (kongs) of 2, 5, 8 and a 2/5/8 pair
    if "一条龙" in ex:
        for base in (0, 9, 18):
            if base in concealed_chows and base + 3 in concealed_chows and base + 6 in concealed_chows:
                out.append(_C["一条龙"])  # 清龙 with none of its chows a chi ("不得为吃牌所得")
                break
    return out


def _subsets(xs, n):
    return combinations(xs, n) if len(xs) >= n else ()


def _special_reading(h: _Hand) -> tuple[str, tuple[int, ...], str] | None:
    """Special shapes with no melds: 七对/连七对, 全不靠/七星不靠, 十三幺, 九莲宝灯.

    Returns (kind, raw fan codes, description) or None.
    """
    c = h.standing
    present = [t for t in range(34) if c[t]]
    base = h.base
    if all(c[t] % 2 == 0 for t in present):
        if len(present) == 7 and all(c[t] == 2 for t in present) and present[0] < 27 \
                and _suit(present[0]) == _suit(present[-1]) and present[-1] - present[0] == 6:
            return "七对", base + (_C["连七对"],), "连七对"
        return "七对", base + (_C["七对"],), "七对"
    if len(present) == 14:
        nums = [t for t in present if t < 27]
        if 7 <= len(nums) <= 9 and any(set(nums) <= k for k in _KNITTED):
            if len(nums) == 7:
                return "全不靠", base + (_C["七星不靠"],), "七星不靠"
            fans = base + (_C["全不靠"],)
            if len(nums) == 9:
                fans += (_C["组合龙"],)
            return "全不靠", fans, "全不靠"
    if len(present) == 13 and set(present) == _TERM_HONOR:
        return "十三幺", base + (_C["十三幺"],), "十三幺"
    return None


def _nine_gates(h: _Hand) -> tuple[str, tuple[int, ...], str] | None:
    c = h.standing
    w = h.win
    if w >= 27:
        return None
    s0 = _suit(w) * 9
    if sum(c[s0:s0 + 9]) != 14:
        return None
    c2 = list(c[s0:s0 + 9])
    c2[w - s0] -= 1
    if c2 != [3, 1, 1, 1, 1, 1, 1, 1, 3]:
        return None
    fans = h.base + (_C["九莲宝灯"],) + tuple(_C[n] for n in DATA.NINE_GATES_EXTRAS[_rank(w)])
    return "九莲宝灯", fans, "九莲宝灯"


def _knitted_reading(h: _Hand, knitted_waits: str = "reference"):
    """组合龙 + one set + pair. ``knitted_waits``: "reference" judges 边张/嵌张/单钓将 as
    pymahjonggb does; "botzone" (Botzone's 2018 judge) scores none of them when the winning
    tile's kind is part of the knitted straight."""
    c = h.standing
    if not (c[0] and c[3] and c[6] or c[1] and c[4] and c[7] or c[2] and c[5] and c[8]):
        return None  # every knitted straight has 147m, 258m or 369m
    seq = next((k for k in _KNITTED if all(c[t] for t in k)), None)
    if seq is None:
        return None
    rest = list(c)
    for t in seq:
        rest[t] -= 1
    readings = R.regular_readings(rest)
    if len(readings) != 1:
        return None
    pair = readings[0].pair
    sets: list[tuple[int, int, bool]] = [_meld_set(m) for m in h.fixed]
    sets += [(k, t, False) for k, t in readings[0].sets]
    if len(sets) != 1:
        return None
    k4, t4, m4 = sets[0]
    occ = list(h.base) + [_C["组合龙"]]
    if k4 == CHOW and pair < 27:
        occ.append(_C["平和"])
    if k4 in (PUNG, KONG):
        one = 1
        if t4 in _DRAGON_SET:
            occ.append(_code("箭刻", one))
        if t4 in _TERM_HONOR:
            occ.append(_code("幺九刻", one))
        if t4 == 27 + h.round:
            occ.append(_code("圈风刻", one))
        if t4 == 27 + h.seat:
            occ.append(_code("门风刻", one))
        if k4 == KONG:
            occ.append(_C["明杠"] if m4 else _C["暗杠"])
    win = h.win
    if knitted_waits == "botzone" and win in seq:
        pass  # Botzone's judge: no wait fan for a tile of the knitted straight
    elif not h.fixed:
        # waits of the set + pair part alone (the winning tile may also fit the dragon)
        rest[win] -= 1
        waits = R.waits(rest, False)
        rest[win] += 1
        if len(waits) == 1:
            if k4 == CHOW and t4 + 1 == win:
                occ.append(_C["嵌张"])
            elif k4 == CHOW and win in (t4, t4 + 2):
                occ.append(_C["边张"])
            if pair == win:
                occ.append(_C["单钓将"])
    elif win not in seq or c[win] == 3:
        # with the set exposed, the winning tile can only have completed the pair
        occ.append(_C["单钓将"])
    desc = "组合龙 " + _fmt_sets(sets, pair)
    return "组合龙", tuple(occ), desc


def _meld_set(m: Meld) -> tuple[int, int, bool]:
    if m.kind is _CHI:
        return (CHOW, m.tiles[0], True)
    if m.kind is _PON:
        return (PUNG, m.tiles[0], True)
    return (KONG, m.tiles[0], m.kind is _KONG)


def _set_text(k: int, t: int) -> str:
    if k == CHOW:
        return T.fmt((t, t + 1, t + 2))
    return T.fmt((t,) * (3 if k == PUNG else 4 if k == KONG else 2))


#: a set's text at ``kind * 34 + first tile`` (kinds CHOW, PUNG, KONG, PAIR; "" where no such set): read by
#: index, a tuple key's hash and a mapping's look-up saved
_SET_TEXT: Final[tuple[str, ...]] = tuple(
    _set_text(k, t) if k != CHOW or (t < 27 and t % 9 <= 6) else ""
    for k in (CHOW, PUNG, KONG, PAIR) for t in range(34)
)
_OPEN_TEXT: Final[tuple[str, ...]] = tuple(f"[{text}]" if text else "" for text in _SET_TEXT)  # a meld: in brackets


def _fmt_sets(sets, pair) -> str:
    parts = [_OPEN_TEXT[k * 34 + t] if m else _SET_TEXT[k * 34 + t] for k, t, m in sets]
    parts.append(_SET_TEXT[PAIR * 34 + pair])
    return " ".join(parts)


# --------------------------------------------------------------------------- validation


def _playing_tiles(ts: tuple[object, ...]) -> bool:
    """Every item is a playing tile: an int (not a bool) in 0..33."""
    for t in ts:
        if type(t) is not int or not 0 <= t < 34:
            return False
    return True


def _validate(sit: WinSituation) -> tuple[list[int], list[int]]:
    """Reject bad input with NotAWin; returns (standing counts, all counts) per tile kind."""
    concealed = sit.concealed
    melds = sit.melds
    if not isinstance(concealed, tuple) or not isinstance(melds, tuple):
        raise NotAWin("not_a_win", "concealed and melds must be tuples")
    win = sit.win_tile
    if not (type(win) is int and 0 <= win < 34 and _playing_tiles(concealed)):
        raise NotAWin("not_a_win", "standing tiles must be playing tiles (no flowers)")
    if len(melds) > 4:
        raise NotAWin("wrong_tile_count", f"{len(melds)} melds")
    for m in melds:
        if not isinstance(m, Meld) or not isinstance(m.tiles, tuple) or not _playing_tiles(m.tiles):
            raise NotAWin("not_a_win", f"bad meld {m!r}")
        ts = m.tiles
        if m.kind is _CHI:
            if len(ts) != 3:
                raise NotAWin("wrong_tile_count", f"chi {m} must have 3 tiles")
            a, b, c = ts
            if a > b:  # the three in order, without sorted()'s list
                a, b = b, a
            if b > c:
                b, c = c, b
            if a > b:
                a, b = b, a
            if a >= 27 or not (b == a + 1 and c == a + 2 and a // 9 == c // 9):
                raise NotAWin("not_a_win", f"chi {m} is not a run")
        else:
            want = 3 if m.kind is _PON else 4
            if len(ts) != want:
                raise NotAWin("wrong_tile_count", f"{m} must have {want} tiles")
            for t in ts:
                if t != ts[0]:
                    raise NotAWin("not_a_win", f"{m} is not a set of equal tiles")
    if len(concealed) + 3 * len(melds) + 1 != 14:
        raise NotAWin(
            "wrong_tile_count",
            f"{len(concealed)} standing + {len(melds)} melds + winning tile is not 14",
        )
    standing = [0] * 34
    over = False  # a kind beyond four copies
    for t in concealed:
        n = standing[t] + 1  # not ``+=``: mypyc adds to a list's item generically
        standing[t] = n
        if n > 4:
            over = True
    n = standing[win] + 1
    standing[win] = n
    if n > 4:
        over = True
    if melds:
        cnt = standing[:]
        for m in melds:
            for t in m.tiles:
                n = cnt[t] + 1
                cnt[t] = n
                if n > 4:
                    over = True
    else:
        cnt = standing
    if over:
        for t in range(34):
            if cnt[t] > 4:
                raise NotAWin("too_many_copies", f"more than four copies of {T.name(t)}")
    w = sit.seat_wind
    if not isinstance(w, int) or not 0 <= w <= 3:
        raise NotAWin("not_a_win", f"wind {w!r} is not 0..3")
    w = sit.round_wind
    if not isinstance(w, int) or not 0 <= w <= 3:
        raise NotAWin("not_a_win", f"wind {w!r} is not 0..3")
    return standing, cnt


# --------------------------------------------------------------------------- options


def _canon(name: str) -> str:
    if name in DATA.FAN_BY_ZH:
        return name
    if name in DATA.FAN_BY_ID:
        return DATA.FAN_BY_ID[name].zh
    if name in DATA.ALIASES:
        return DATA.ALIASES[name]
    if name in DATA.VARIANTS:
        return name
    raise ValueError(f"unknown MCR fan {name!r}")


@lru_cache(maxsize=64)
def _values_cached(items: tuple[tuple[str, int], ...]) -> Mapping[str, int]:
    v = dict(_DEFAULT_VALUES)
    for k, val in items:
        v[_canon(k)] = int(val)
    return MappingProxyType(v)


def resolve_values(values: Mapping[str, int] | None = None) -> Mapping[str, int]:
    """Fan values with overrides; keys may be Chinese names, ids or aliases.

    A key naming a variant (e.g. ``"seed002"``) with a truthy value applies that variant.
    """
    if not values:
        return _DEFAULT_VALUES
    items: list[Any] = []
    for k, val in values.items():
        if k in DATA.VARIANTS:
            if val:
                items.extend(DATA.VARIANTS[k].items())
        else:
            items.append((k, val))
    return _values_cached(tuple(items))


@lru_cache(maxsize=64)
def _extra_fans(extra_fans: frozenset[str]) -> frozenset[str]:
    return frozenset(_canon(x) for x in extra_fans) & DATA.OPTIONAL


# --------------------------------------------------------------------------- entry point


def _total(counts: Iterable[tuple[str, int]], vals: Mapping[str, int]) -> int:
    return sum(vals[k] * n for k, n in counts)


_ITEMS: Final[dict[tuple[str, int, int], ScoreItem]] = {}


def _item(name: str, value: int, count: int) -> ScoreItem:
    """``ScoreItem(name, value, count)``, one object per distinct item (memoised)."""
    key = (name, value, count)
    got = _ITEMS.get(key)
    if got is None:
        got = ScoreItem(name, value, count)
        if len(_ITEMS) < _MEMO_MAX:
            _ITEMS[key] = got
    return got


def _items(counts: tuple[tuple[str, int], ...], vals: Mapping[str, int], nfl: int) -> tuple[ScoreItem, ...]:
    items = [_item(k, vals[k], n) for k, n in counts]
    if nfl:
        items.append(_item("花牌", vals["花牌"], nfl))
        if not _FLOWERS_LAST:
            items.sort(key=lambda i: DATA.ORDER[i.name])
    return tuple(items)


_CHICKEN: Final = DATA.ORDER["无番和"]  # the fan of a hand without any other
_TIE_FANS: Final = frozenset(("一色三同顺", "三同刻"))  # an equal total with these replaces the best
#: per fan index: its default value, and whether it is one of :data:`_TIE_FANS`
_VALUE_AT: Final = tuple(_DEFAULT_VALUE_OF[name] for name in _FAN_NAME)
_TIE_AT: Final = tuple(name in _TIE_FANS for name in _FAN_NAME)
#: the score items of the default values at ``fan index * _DEFAULT_COUNTS + count``, for counts below
#: ``_DEFAULT_COUNTS`` (None until first made)
_DEFAULT_COUNTS: Final = 16
_DEFAULT_ITEMS: Final[list[ScoreItem | None]] = [None] * (_NF * _DEFAULT_COUNTS)


def _default_item(i: int, count: int) -> ScoreItem:
    """``_item`` of fan ``i`` with its default value."""
    if not 0 <= count < _DEFAULT_COUNTS:
        return _item(_FAN_NAME[i], _VALUE_AT[i], count)
    at = i * _DEFAULT_COUNTS + count
    got = _DEFAULT_ITEMS[at]
    if got is None:
        got = _DEFAULT_ITEMS[at] = _item(_FAN_NAME[i], _VALUE_AT[i], count)
    return got


_Evaluation = tuple[tuple[tuple[str, int], ...], int, bool, tuple[ScoreItem, ...]]
#: :func:`_evaluate`'s memo, one per ``implied``: raw fan codes -> evaluation (a plain dict: one hash of
#: the codes per look-up); it keeps at most ``_EVALUATED_MAX`` and computes the rest
_EVALUATED: Final[tuple[dict[tuple[int, ...], _Evaluation], dict[tuple[int, ...], _Evaluation]]] = ({}, {})
_EVALUATED_MAX: Final = 1 << 17


def _evaluate(occ: tuple[int, ...], implied: bool = False) -> _Evaluation:
    """``_exclude`` plus what the scorer derives from it, memoised on the raw fan codes:
    (counts, 无番和 when empty; total with default values; has a tie-break fan;
    score items with default values and no flowers)."""
    memo = _EVALUATED[implied]
    ev = memo.get(occ)
    if ev is None:
        ev = _new_evaluation(occ, implied)
        if len(memo) < _EVALUATED_MAX:
            memo[occ] = ev
    return ev


def _new_evaluation(occ: tuple[int, ...], implied: bool) -> _Evaluation:
    fans, counts = _kept(occ, implied)
    if not fans:
        fans, counts = [_CHICKEN], [1]
    named = []
    items = []
    total = 0
    tie = False
    for k in range(len(fans)):
        i = fans[k]
        n = counts[k]
        named.append((_FAN_NAME[i], n))
        items.append(_default_item(i, n))
        total += _VALUE_AT[i] * n
        if _TIE_AT[i]:
            tie = True
    return tuple(named), total, tie, tuple(items)


_FLOWERS_LAST: Final = DATA.ORDER["花牌"] == len(_FAN_NAME) - 1
_FLOWER_FAN: Final = DATA.ORDER["花牌"]
_FLOWER_VALUE: Final = _VALUE_AT[_FLOWER_FAN]  # 花牌's default value
#: per number of flowers (1..8): id of a breakdown of default values -> (it, it with the flowers last); an
#: entry holds the breakdown, so its id is not reused while there
_WITH_FLOWERS: Final[tuple[dict[int, tuple[tuple[ScoreItem, ...], tuple[ScoreItem, ...]]], ...]] = tuple(
    {} for _ in range(9))


def _with_flowers(items: tuple[ScoreItem, ...], nfl: int) -> tuple[ScoreItem, ...]:
    """``items + (花牌 × nfl,)`` with the default values, one tuple per breakdown and number (memoised:
    the same breakdown is then the same object, whose text the score command keeps)."""
    if nfl >= len(_WITH_FLOWERS):
        return items + (_default_item(_FLOWER_FAN, nfl),)
    memo = _WITH_FLOWERS[nfl]
    got = memo.get(id(items))
    if got is not None and got[0] is items:
        return got[1]
    out = items + (_default_item(_FLOWER_FAN, nfl),)
    if len(memo) < _MEMO_MAX:
        memo[id(items)] = (items, out)
    return out


def score_mcr(
    sit: WinSituation,
    *,
    values: Mapping[str, int] | None = None,
    extra_fans: frozenset[str] = frozenset(),
    min_fan: int = 8,
    knitted_waits: str = "reference",
    optional_exclusions: str = "seed",
    extras_in_minimum: bool = True,
) -> Score:
    """Score an MCR win.  Raises NotAWin(code) for bad or incomplete hands.

    ``knitted_waits`` chooses how 组合龙 hands get 边张/嵌张/单钓将 (see ``_knitted_reading``).
    ``optional_exclusions``: "seed" (the optional fans exclude what a seed writes) or "implied"
    (also ``IMPLIED_EXCLUSIONS``); ``extras_in_minimum``: seed 002's extras count toward
    ``min_fan`` (天听 / 地听 never do)."""
    if knitted_waits not in KNITTED_WAITS:
        raise ValueError(f"knitted_waits: {knitted_waits!r} is not one of {KNITTED_WAITS}")
    if optional_exclusions not in _OPTIONAL_EXCLUSIONS:
        raise ValueError(f"optional_exclusions: {optional_exclusions!r} is not one of {_OPTIONAL_EXCLUSIONS}")
    standing, all_counts = _validate(sit)
    vals = resolve_values(values) if values else _DEFAULT_VALUES
    extra = _extra_fans(frozenset(extra_fans)) if extra_fans else _NO_EXTRA

    melds = sit.melds
    win = sit.win_tile
    self_drawn = bool(sit.self_drawn)
    fixed_win = all_counts[win] - standing[win]
    kong_count = 0
    melded_fixed = 0
    mk = 0  # exposed kongs
    fixed_text: list[str] = []  # the melds as the decomposition writes them
    fixed_chows: tuple[int, ...] = ()
    fixed_pungs: tuple[int, ...] = ()
    for m in melds:
        k = m.kind
        t = m.tiles[0]
        if k is _CHI:
            fixed_text.append(_OPEN_TEXT[CHOW * 34 + t])
            fixed_chows += (t,)
            melded_fixed += 1
        elif k is _PON:
            fixed_text.append(_OPEN_TEXT[PUNG * 34 + t])
            fixed_pungs += (t,)
            melded_fixed += 1
        else:
            exposed = k is _KONG
            fixed_text.append(_OPEN_TEXT[KONG * 34 + t] if exposed else _SET_TEXT[KONG * 34 + t])
            fixed_pungs += (t,)
            kong_count += 1
            if exposed:
                mk += 1
                melded_fixed += 1

    last_copy = bool(sit.last_copy) and standing[win] == 1 or fixed_win == 3
    kong = bool(sit.kong)
    if kong:
        if self_drawn:
            kong = kong_count > 0
        else:
            kong = fixed_win == 0 and standing[win] == 1
    subs = R.tile_keys(sit.concealed, win)
    facts = R.suit_facts(subs)
    i0, i1, i2, i3 = facts
    anyb = i0.any_traits | i1.any_traits | i2.any_traits | i3.any_traits
    allb = i0.all_traits & i1.all_traits & i2.all_traits & i3.all_traits
    fours = i0.fours + i1.fours + i2.fours + i3.fours
    if melds:  # add the meld tiles to the standing tiles' traits
        seen = 0  # the kinds of the melds met so far, one bit each (34 bits: a short int, no set)
        for m in melds:
            for t in m.tiles:
                p = TILE_TRAITS[t]
                anyb |= p
                allb &= p
                if not seen >> t & 1:
                    seen |= 1 << t
                    if all_counts[t] == 4:
                        fours += 1
    h = _Hand(sit, standing, all_counts, subs, extra, melded_fixed, kong_count, last_copy, kong,
              _trait_codes(anyb, allb, fours - kong_count))

    default = vals is _DEFAULT_VALUES
    if default:
        vals = _DEFAULT_VALUE_OF  # the same values, read faster
    implied = optional_exclusions == "implied" and bool(extra)
    best = None
    best_part = None
    best_total = 0
    best_desc: object = ""
    special_kind = None
    special = None
    if not melds:
        if i0.even and i1.even and i2.even and i3.even or i0.kinds + i1.kinds + i2.kinds + i3.kinds >= 13:
            special = _special_reading(h)  # 七对 needs even counts, 全不靠/十三幺 13+ kinds
        if special is None:
            special = _knitted_reading(h, knitted_waits)
        if special is None:
            if win < 27 and facts[win // 9].kinds == 9:  # 九莲宝灯 holds every rank of its suit
                special = _nine_gates(h)
    elif len(melds) == 1:
        special = _knitted_reading(h, knitted_waits)
    if special is not None:
        special_kind, occ, best_desc = special
        best = _evaluate(occ, implied)
        best_total = best[1] if default else _total(best[0], vals)

    if special is None or special_kind == "七对":
        readings = R.canonical_readings(facts)
        if readings:
            base = h.base
            ck = 0
            if kong_count:
                ck = kong_count - mk
                base += _kong_codes(mk, ck)
            seven = special_kind == "七对"
            for part in readings:
                ev = _evaluate(_reading_codes(h, fixed_chows, fixed_pungs, ck, base, part), implied)
                tot = ev[1] if default else _total(ev[0], vals)
                if tot > best_total or (tot == best_total and (seven or ev[2])):
                    best_total, best, best_part = tot, ev, part
            if best_part is not None:
                for kind, first in best_part.sets:
                    fixed_text.append(_SET_TEXT[kind * 34 + first])
                fixed_text.append(_SET_TEXT[PAIR * 34 + best_part.pair])
                best_desc = " ".join(fixed_text)
    nfl = len(sit.flowers)
    if "八仙过海" in extra and self_drawn and nfl == 8 and len(set(sit.flowers)) == 8:
        eight = vals["八仙过海"]  # "可立即喊胡 … 三家通赔64番": the declaration alone, the tiles not read
        if best is None or eight > best_total + vals["花牌"] * nfl:
            return Score(items=(_item("八仙过海", eight, 1),), total=eight, below_minimum=False,
                         details=(("decomposition", "八仙过海"),))
    if best is None:
        raise NotAWin("not_a_win", f"{T.fmt(sit.full_concealed)} with {len(melds)} melds is not a complete hand")

    if not default:
        items = _items(best[0], vals, nfl)
    elif not nfl:
        items = best[3]
    elif _FLOWERS_LAST:
        items = _with_flowers(best[3], nfl)
    else:
        items = _items(best[0], vals, nfl)
    base_total = best_total
    if extra:  # fans that do not count toward the minimum: "天听不计算起胡番数", "地听不计算起胡番数"
        off = DATA.NOT_IN_MINIMUM if extras_in_minimum else DATA.MINGXING | DATA.NOT_IN_MINIMUM
        base_total -= sum(vals[k] * n for k, n in best[0] if k in off)
    flower = _FLOWER_VALUE if default else vals["花牌"]  # a plain int when the defaults apply (no mapping's look-up)
    return Score(items, best_total + flower * nfl, base_total < min_fan, (("decomposition", best_desc),))


@final
class Calculator:
    """:func:`score_mcr` with one ruleset's options bound (immutable): the MCR ruleset builds one on
    its first win and calls :meth:`score` for every win, a native call with the options passed
    positionally (a ``functools.partial`` with keywords is a generic call and a parse of six keywords)."""

    __slots__ = ("values", "extra_fans", "min_fan", "knitted_waits", "optional_exclusions", "extras_in_minimum")

    def __init__(self, values: Mapping[str, Any] | None, extra_fans: frozenset[str], min_fan: int, knitted_waits: str,
                 optional_exclusions: str, extras_in_minimum: bool) -> None:
        self.values: Final = values
        self.extra_fans: Final = extra_fans
        self.min_fan: Final = min_fan
        self.knitted_waits: Final = knitted_waits
        self.optional_exclusions: Final = optional_exclusions
        self.extras_in_minimum: Final = extras_in_minimum

    def score(self, sit: WinSituation) -> Score:
        """``score_mcr(sit, **options)``."""
        return score_mcr(sit, values=self.values, extra_fans=self.extra_fans, min_fan=self.min_fan,
                         knitted_waits=self.knitted_waits, optional_exclusions=self.optional_exclusions,
                         extras_in_minimum=self.extras_in_minimum)
