"""MCR (国标麻将) fan calculator.

``score_mcr(sit)`` finds every way to read the winning hand (4 sets + pair with the
exposed melds fixed, 七对, 十三幺, 全不靠/七星不靠, 组合龙 + set + pair, 九莲宝灯,
连七对), lists the *raw* fans of each reading, removes the implied ones with the one
exclusion table of :mod:`engine.rulesets.mcr_fans` (不重复), and keeps the reading with
the highest total (就高不就低).

Principles, where they live:

* 不重复 — ``_apply_exclusions``: the only place that drops implied fans, driven by
  ``EXCLUSIONS``.  Rows are applied in catalogue order; a fan that is itself excluded
  does not exclude anything (so 四暗刻 hides 不求人 and 自摸 is still counted).
* 不拆移 — a reading is one fixed partition of the tiles into sets; fans are computed
  from that partition only.
* 不得相同 / 套算一次 — ``_chow_fans`` / ``_pung_fans``: among four chows a four-chow
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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import permutations, product
from types import MappingProxyType

from engine import tiles as T
from engine.hand import Meld, MeldKind, NotAWin, Score, ScoreItem, WinSituation
from engine.rulesets import mcr_fans as DATA

__all__ = ["score_mcr", "resolve_values"]

CHOW, PUNG, KONG, PAIR, KNIT = 0, 1, 2, 3, 4
_KIND_MARK = {CHOW: "", PUNG: "", KONG: "", PAIR: ""}

# --------------------------------------------------------------------------- tiles


def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1


# reference tile order (万 条 饼, winds, 中 发 白) for the canonical reading order
_CKEY = tuple(
    [t for t in range(9)] + [t + 9 for t in range(9, 18)] + [t - 9 for t in range(18, 27)]
    + [27, 28, 29, 30, 33, 32, 31]
)
_TERM_HONOR = frozenset(T.TERMINALS_AND_HONOURS)
_GREEN = frozenset(T.parse("23468s6z"))
_REVERSIBLE = frozenset(T.parse("1234589p245689s5z"))
_KNITTED = tuple(
    frozenset(s * 9 + off[s] + 3 * k for s in range(3) for k in range(3))
    for off in permutations(range(3))
)
_WIND_SET = frozenset(range(27, 31))
_PLAY_SET = frozenset(range(34))
_INT_TYPE = frozenset((int,))
_DRAGON_SET = frozenset(range(31, 34))

# --------------------------------------------------------------------------- exclusion data

_ROWS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType({
    name: tuple((r.excludes, r.scope) for r in DATA.EXCLUSIONS if r.fan == name)
    for name in {r.fan for r in DATA.EXCLUSIONS}
})
_ORDER = DATA.ORDER


def _apply_exclusions(occ: Iterable[tuple[str, frozenset[int]]]) -> dict[str, int]:
    """不重复: drop fans implied by other counted fans; returns name -> count."""
    groups: dict[str, list[frozenset[int]]] = {}
    for name, sets in occ:
        groups.setdefault(name, []).append(sets)
    for name in sorted(groups, key=_ORDER.__getitem__):
        mine = groups.get(name)
        rows = _ROWS.get(name)
        if not mine or not rows:
            continue
        for target, scope in rows:
            if target not in groups:
                continue
            if scope == "hand":
                del groups[target]
            else:
                keep = [s for s in groups[target] if not any(s <= m for m in mine)]
                if keep:
                    groups[target] = keep
                else:
                    del groups[target]
    return {k: len(v) for k, v in groups.items() if v}


# --------------------------------------------------------------------------- decomposition


@lru_cache(maxsize=1 << 16)
def _suit_readings(counts: tuple[int, ...], honours: bool) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """All ways to split one suit's counts into sets (+ at most one pair).

    Returns tuples ``(sets, pair_rank)`` with sets ``(kind, rank_index)`` and pair_rank
    -1 when no pair.  ``honours`` forbids chows.
    """
    out: dict[tuple[tuple[tuple[int, int], ...], int], None] = {}  # ordered, no duplicates
    c = list(counts)
    need_pair = sum(c) % 3 == 2
    n = len(c)

    def rec(start: int, acc: list[tuple[int, int]], pair: int) -> None:
        i = start
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            if (pair >= 0) == need_pair:
                out[(tuple(sorted(acc)), pair)] = None
            return
        if c[i] >= 3:
            c[i] -= 3
            acc.append((PUNG, i))
            rec(i, acc, pair)
            acc.pop()
            c[i] += 3
        if pair < 0 and need_pair and c[i] >= 2:
            c[i] -= 2
            rec(i, acc, i)
            c[i] += 2
        if not honours and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append((CHOW, i))
            rec(i, acc, pair)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    if sum(c) % 3 != 1:
        rec(0, [], -1)
    return tuple(out)


def _regular_readings(counts: list[int]) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Readings of standing counts (34) as sets + one pair: [(sets(kind, tile)), pair_tile)]."""
    per_suit = []
    pairs = 0
    for s in range(4):
        base = 9 * s
        sub = tuple(counts[base:base + (9 if s < 3 else 7)])
        tot = sum(sub)
        if tot % 3 == 1:
            return []
        if tot % 3 == 2:
            pairs += 1
        if tot == 0:
            continue
        r = _suit_readings(sub, s == 3)
        if not r:
            return []
        per_suit.append((base, r))
    if pairs != 1:
        return []
    out = []
    for combo in product(*(r for _, r in per_suit)):
        sets: list[tuple[int, int]] = []
        pair = -1
        for (base, _), (ss, p) in zip(per_suit, combo, strict=True):
            sets.extend((k, base + i) for k, i in ss)
            if p >= 0:
                pair = base + p
        out.append((tuple(sets), pair))
    return out


@lru_cache(maxsize=1 << 16)
def _suit_status(sub: tuple[int, ...], honours: bool) -> int:
    """-1: this suit cannot be split; 0: splits into sets; 1: sets + the pair."""
    tot = sum(sub)
    if tot % 3 == 1:
        return -1
    if tot and not _suit_readings(sub, honours):
        return -1
    return 1 if tot % 3 == 2 else 0


@lru_cache(maxsize=1 << 16)
def _suit_waits(sub: tuple[int, ...], honours: bool) -> tuple[tuple[int, int], ...]:
    """(index, status) for every tile index whose addition leaves this suit splittable."""
    out = []
    lst = list(sub)
    for i in range(len(sub)):
        lst[i] += 1
        st = _suit_status(tuple(lst), honours)
        lst[i] -= 1
        if st >= 0:
            out.append((i, st))
    return tuple(out)


def _waits(counts: list[int], seven: bool) -> set[int]:
    """Tiles that would complete ``counts`` (standing tiles without the winning tile)."""
    out = set()
    subs = [tuple(counts[9 * s:9 * s + (9 if s < 3 else 7)]) for s in range(4)]
    status = [_suit_status(subs[s], s == 3) for s in range(4)]
    for s in range(4):
        others = [status[o] for o in range(4) if o != s]
        if -1 in others:
            continue
        need = 1 - sum(others)
        if need < 0:
            continue
        for i, st in _suit_waits(subs[s], s == 3):
            if st == need:
                out.add(9 * s + i)
    if seven:
        singles = [t for t in range(34) if counts[t] % 2]
        if len(singles) == 1:
            out.add(singles[0])
    return out


# --------------------------------------------------------------------------- set combinations


def _two_chow_fan(a: int, b: int) -> str | None:
    if _suit(a) != _suit(b):
        return "喜相逢" if _rank(a) == _rank(b) else None
    if abs(a - b) == 3:
        return "连六"
    if {_rank(a), _rank(b)} == {1, 7}:
        return "老少副"
    if a == b:
        return "一般高"
    return None


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    """a <= b <= c in reference order (first tiles)."""
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    ra, rb, rc = _rank(a), _rank(b), _rank(c)
    if sa != sb and sa != sc and sb != sc:
        rs = sorted((ra, rb, rc))
        if rs[0] + 1 == rs[1] and rs[1] + 1 == rs[2]:
            return "三色三步高"
        if ra == rb == rc:
            return "三色三同顺"
        if rs == [1, 4, 7]:
            return "花龙"
        return None
    if sa == sb == sc:
        if (ra, rb, rc) == (1, 4, 7):
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


_EXTRA_PRIORITY = ("一般高", "喜相逢", "连六", "老少副")


def _pair_fans_limited(fans: list[tuple[str, frozenset[int]]], limit: int) -> list[tuple[str, frozenset[int]]]:
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


def _chow_fans(ch: list[tuple[int, int]]) -> list[tuple[str, frozenset[int]]]:
    """ch: (first tile, set index) sorted in reference order."""
    n = len(ch)
    t = [c[0] for c in ch]
    ix = [c[1] for c in ch]
    if n == 4:
        f = _four_chow_fan(*t)
        if f:
            return [(f, frozenset(ix))]
        for trio, extra in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            f = _three_chow_fan(t[trio[0]], t[trio[1]], t[trio[2]])
            if f:
                out = [(f, frozenset(ix[i] for i in trio))]
                found = {}
                for i in trio:
                    g = _two_chow_fan(t[i], t[extra])
                    if g and g not in found:
                        found[g] = i
                for g in _EXTRA_PRIORITY:
                    if g in found:
                        out.append((g, frozenset((ix[found[g]], ix[extra]))))
                        break
                return out
        pairs = []
        related = [False] * 4
        for i in range(4):
            for j in range(i + 1, 4):
                g = _two_chow_fan(t[i], t[j])
                if g:
                    pairs.append((g, frozenset((ix[i], ix[j]))))
                    related[i] = related[j] = True
        limit = 3 - related.count(False)
        return _pair_fans_limited(pairs, limit) if limit > 0 else []
    if n == 3:
        f = _three_chow_fan(*t)
        if f:
            return [(f, frozenset(ix))]
        pairs = []
        for i, j in ((0, 1), (0, 2), (1, 2)):
            g = _two_chow_fan(t[i], t[j])
            if g:
                pairs.append((g, frozenset((ix[i], ix[j]))))
        return _pair_fans_limited(pairs, 2)
    if n == 2:
        g = _two_chow_fan(t[0], t[1])
        return [(g, frozenset(ix))] if g else []
    return []


def _two_pung_fan(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "双同刻" if _rank(a) == _rank(b) else None
    if a in _DRAGON_SET and b in _DRAGON_SET:
        return "双箭刻"
    return None


def _three_pung_fan(a: int, b: int, c: int) -> str | None:
    if a < 27 and b < 27 and c < 27:
        sa, sb, sc = _suit(a), _suit(b), _suit(c)
        if sa != sb and sa != sc and sb != sc:
            rs = sorted((_rank(a), _rank(b), _rank(c)))
            if rs[0] + 1 == rs[1] and rs[1] + 1 == rs[2]:
                return "三色三节高"
            if rs[0] == rs[2]:
                return "三同刻"
        elif sa == sb == sc and a + 1 == b and b + 1 == c:
            return "一色三节高"
        return None
    if a in _WIND_SET and b in _WIND_SET and c in _WIND_SET:
        return "三风刻"
    if a in _DRAGON_SET and b in _DRAGON_SET and c in _DRAGON_SET:
        return "大三元"
    return None


def _pung_fans(pg: list[tuple[int, int]]) -> list[tuple[str, frozenset[int]]]:
    n = len(pg)
    t = [p[0] for p in pg]
    ix = [p[1] for p in pg]
    out: list[tuple[str, frozenset[int]]] = []
    if n == 4:
        if _suit(t[0]) == _suit(t[3]) and t[0] < 27 and t[0] + 1 == t[1] and t[1] + 1 == t[2] and t[2] + 1 == t[3]:
            return [("一色四节高", frozenset(ix))]
        if set(t) == _WIND_SET:
            return [("大四喜", frozenset(ix))]
        for trio, extra in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            f = _three_pung_fan(t[trio[0]], t[trio[1]], t[trio[2]])
            if f:
                out.append((f, frozenset(ix[i] for i in trio)))
                for i in trio:
                    g = _two_pung_fan(t[i], t[extra])
                    if g:
                        out.append((g, frozenset((ix[i], ix[extra]))))
                        break
                return out
    elif n == 3:
        f = _three_pung_fan(*t)
        if f:
            return [(f, frozenset(ix))]
    for i in range(n):
        for j in range(i + 1, n):
            g = _two_pung_fan(t[i], t[j])
            if g:
                out.append((g, frozenset((ix[i], ix[j]))))
    return out


# --------------------------------------------------------------------------- hand context


class _Hand:
    """Per-hand facts shared by all readings (internal, not exported)."""

    __slots__ = (
        "standing", "fixed", "win", "self_drawn", "seat", "round", "flags", "traits",
        "melded_fixed", "kong_count", "unique_wait", "n_standing", "extra", "sit",
        "all_counts",
    )

    def compute_unique_wait(self) -> None:
        """边张/嵌张/单钓将 need exactly one waiting tile (none for 天和)."""
        if "天和" in self.extra and self.sit.get("heavenly"):
            self.unique_wait = False
            return
        self.standing[self.win] -= 1
        self.unique_wait = len(_waits(self.standing, self.n_standing == 13)) == 1
        self.standing[self.win] += 1


_HON, _WND, _DRG, _TH, _GRN, _REV = 1, 2, 4, 8, 16, 32
_SUIT_BITS = (64, 128, 256)


def _props(t: int) -> int:
    b = 0
    if t >= 27:
        b |= _HON | (_WND if t < 31 else _DRG)
    else:
        b |= _SUIT_BITS[t // 9] | (1 << (9 + _rank(t)))
    if t in _TERM_HONOR:
        b |= _TH
    if t in _GREEN:
        b |= _GRN
    if t in _REVERSIBLE:
        b |= _REV
    return b


_PROPS = tuple(_props(t) for t in range(34))
_RANK_MASK = 0x3FF << 10  # ranks 1..9 at bits 10..18


def _hand_traits(all_counts: list[int], kong_count: int) -> list[tuple[str, frozenset[int]]]:
    """Fans that depend only on which tiles are in the hand (any reading)."""
    anyb = 0
    allb = -1
    hog = -kong_count
    for t in range(34):
        n = all_counts[t]
        if n:
            p = _PROPS[t]
            anyb |= p
            allb &= p
            if n == 4:
                hog += 1
    out: list[tuple[str, frozenset[int]]] = []
    E = frozenset()
    has_honour = anyb & _HON
    nsuits = (anyb & 64 != 0) + (anyb & 128 != 0) + (anyb & 256 != 0)
    if not has_honour:
        out.append(("无字", E))
    if nsuits < 3:
        out.append(("缺一门", E))
    if nsuits == 1:
        out.append(("混一色" if has_honour else "清一色", E))
    if nsuits == 3 and anyb & _WND and anyb & _DRG:
        out.append(("五门齐", E))
    if not anyb & _TH:
        out.append(("断幺", E))
    if allb & _REV:
        out.append(("推不倒", E))
    if allb & _GRN:
        out.append(("绿一色", E))
    if allb & _HON:
        out.append(("字一色", E))
    if allb & _TH:
        out.append(("混幺九", E))
        if not has_honour:
            out.append(("清幺九", E))
    if not has_honour:
        ranks = (anyb & _RANK_MASK) >> 10
        lo = (ranks & -ranks).bit_length()  # lowest rank present, 1..9
        hi = ranks.bit_length()  # highest rank present
        if hi <= 4:
            out.append(("小于五", E))
            if hi <= 3:
                out.append(("全小", E))
        elif lo >= 6:
            out.append(("大于五", E))
            if lo >= 7:
                out.append(("全大", E))
        elif lo >= 4 and hi <= 6:
            out.append(("全中", E))
    out.extend(("四归一", E) for _ in range(hog))
    return out


def _flag_fans(h: _Hand) -> list[tuple[str, frozenset[int]]]:
    E = frozenset()
    f = h.flags
    out = []
    if f["last_copy"]:
        out.append(("和绝张", E))
    if h.self_drawn:
        out.append(("自摸", E))
        if f["last_tile"]:
            out.append(("妙手回春", E))
        if f["kong"]:
            out.append(("杠上开花", E))
    else:
        if f["last_tile"]:
            out.append(("海底捞月", E))
        if f["kong"]:
            out.append(("抢杠和", E))
    if h.extra:
        sit = h.sit
        for name, key in (("天和", "heavenly"), ("地和", "earthly"), ("人和", "human"), ("混杠", "wildcard_kong")):
            if name in h.extra and sit.get(key):
                out.append((name, E))
    return out


def _concealment_fans(h: _Hand) -> list[tuple[str, frozenset[int]]]:
    E = frozenset()
    if h.melded_fixed == 0:
        return [("门前清", E), ("不求人", E)] if h.self_drawn else [("门前清", E)]
    if h.melded_fixed == 4 and not h.self_drawn:
        return [("全求人", E)]
    return []


# --------------------------------------------------------------------------- readings


def _reading_fans(h: _Hand, sets: list[tuple[int, int, bool]], pair: int) -> list[tuple[str, frozenset[int]]]:
    """Raw fans of one 4-sets + pair reading.  sets: (kind, tile, melded); index 4 = pair."""
    occ = list(h.traits)
    occ += _flag_fans(h)
    occ += _concealment_fans(h)
    win = h.win
    chows = []
    pungs = []
    cp = mk = ck = 0
    for i, (k, t, m) in enumerate(sets):
        if k == CHOW:
            chows.append((t, i))
        elif k == PUNG or k == KONG:
            pungs.append((t, i))
            if k == PUNG and not m:
                cp += 1
            elif k == KONG:
                if m:
                    mk += 1
                else:
                    ck += 1
    if not h.self_drawn and cp:
        if not any(k == CHOW and not m and t <= win <= t + 2 for k, t, m in sets):
            if any(k == PUNG and not m and t == win for k, t, m in sets):
                cp -= 1
    E = frozenset()
    # kongs and concealed pungs
    if mk:
        occ.append(("明杠", E))
    if ck:
        occ.append(("暗杠", E))
    if mk >= 2:
        occ.append(("双明杠", E))
    if ck >= 2:
        occ.append(("双暗杠", E))
    if mk and ck:
        occ.append(("明暗杠", E))
    if mk + ck >= 3:
        occ.append(("三杠", E))
    if mk + ck == 4:
        occ.append(("四杠", E))
    hidden = cp + ck
    if hidden >= 2:
        occ.append(("双暗刻", E))
    if hidden >= 3:
        occ.append(("三暗刻", E))
    if hidden == 4:
        occ.append(("四暗刻", E))
    if len(pungs) == 4:
        occ.append(("碰碰和", E))
    # single pungs
    rw, sw = 27 + h.round, 27 + h.seat
    for t, i in pungs:
        one = frozenset((i,))
        if t in _DRAGON_SET:
            occ.append(("箭刻", one))
        if t in _TERM_HONOR:
            occ.append(("幺九刻", one))
        if t == rw:
            occ.append(("圈风刻", one))
        if t == sw:
            occ.append(("门风刻", one))
    # combinations (套算一次)
    chows.sort(key=lambda c: _CKEY[c[0]])
    pungs.sort(key=lambda p: _CKEY[p[0]])
    occ += _chow_fans(chows)
    occ += _pung_fans(pungs)
    # pair-dependent
    pair_idx = frozenset((4,))
    dragons = [i for t, i in pungs if t in _DRAGON_SET]
    winds = [i for t, i in pungs if t in _WIND_SET]
    if len(dragons) == 2 and pair in _DRAGON_SET:
        occ.append(("小三元", frozenset(dragons) | pair_idx))
    if len(winds) == 3 and pair in _WIND_SET:
        occ.append(("小四喜", frozenset(winds) | pair_idx))
    if len(chows) == 4 and pair < 27:
        occ.append(("平和", E))
        if _rank(pair) == 5:
            firsts = [t for t, _ in chows]
            ps = _suit(pair)
            if all(_suit(t) == ps for t in firsts) and sorted(_rank(t) for t in firsts) == [1, 1, 7, 7]:
                occ.append(("一色双龙会", E))
            others = sorted((_suit(t), _rank(t)) for t in firsts)
            want = sorted((s, r) for s in range(3) if s != ps for r in (1, 7))
            if others == want:
                occ.append(("三色双龙会", E))
    # pack traits
    term = five = even = 0
    for k, t, _m in list(sets) + [(PAIR, pair, False)]:
        if t >= 27:
            term += 1
            continue
        r = _rank(t)
        if k == CHOW:
            if r in (1, 7):
                term += 1
            elif r in (3, 4, 5):
                five += 1
        else:
            if r in (1, 9):
                term += 1
            elif r == 5:
                five += 1
            elif r % 2 == 0:
                even += 1
    if term == 5:
        occ.append(("全带幺", E))
    elif five == 5:
        occ.append(("全带五", E))
    elif even == 5:
        occ.append(("全双刻", E))
    # waiting
    if h.unique_wait is None and (
        pair == win or any(k == CHOW and not m and t <= win <= t + 2 for k, t, m in sets)
    ):
        h.compute_unique_wait()
    if h.unique_wait:
        waits = set()
        for k, t, m in sets:
            if k == CHOW and not m:
                if win == t + 1:
                    waits.add("嵌张")
                elif win == t or win == t + 2:
                    waits.add("边张")
        if pair == win:
            waits.add("单钓将")
        occ += [(w, E) for w in waits]
    if h.extra:
        occ += _optional_set_fans(h, sets, pair, chows, pungs)
    return occ


def _consecutive(xs: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(xs, xs[1:], strict=False))


def _optional_set_fans(h, sets, pair, chows, pungs) -> list[tuple[str, frozenset[int]]]:
    E = frozenset()
    out = []
    ex = h.extra
    if "四方大发" in ex and {t for t, _ in pungs} == _WIND_SET and pair == T.GREEN:
        out.append(("四方大发", E))
    if pair < 27:
        if "258将" in ex and _rank(pair) in (2, 5, 8):
            out.append(("258将", E))
        if "幺九头" in ex and _rank(pair) in (1, 9):
            out.append(("幺九头", E))

    def mixed(group: list[tuple[int, int]], n: int, name: str, suits_ok) -> None:
        for combo in _subsets(group, n):
            ts = [t for t, _ in combo]
            if any(t >= 27 for t in ts):
                continue
            ranks = sorted(_rank(t) for t in ts)
            if len(set(ranks)) == n and _consecutive(ranks) and suits_ok(len({_suit(t) for t in ts})):
                out.append((name, frozenset(i for _, i in combo)))
                return

    if "混四节" in ex:
        mixed(pungs, 4, "混四节", lambda k: k >= 2)
    if "混四步" in ex:
        mixed(chows, 4, "混四步", lambda k: k >= 2)
    if "混三节" in ex:
        mixed(pungs, 3, "混三节", lambda k: k == 2)
    if "混三步" in ex:
        mixed(chows, 3, "混三步", lambda k: k == 2)
    return out


def _subsets(xs, n):
    from itertools import combinations

    return combinations(xs, n) if len(xs) >= n else ()


def _special_reading(h: _Hand) -> tuple[str, list[tuple[str, frozenset[int]]], str] | None:
    """Special shapes with no melds: 七对/连七对, 全不靠/七星不靠, 十三幺, 九莲宝灯.

    Returns (kind, raw fans, description) or None.
    """
    c = h.standing
    present = [t for t in range(34) if c[t]]
    base = h.traits + _flag_fans(h) + _concealment_fans(h)
    E = frozenset()
    if all(c[t] % 2 == 0 for t in present):
        if len(present) == 7 and all(c[t] == 2 for t in present) and present[0] < 27 \
                and _suit(present[0]) == _suit(present[-1]) and present[-1] - present[0] == 6:
            return "七对", base + [("连七对", E)], "连七对"
        return "七对", base + [("七对", E)], "七对"
    if len(present) == 14:
        nums = [t for t in present if t < 27]
        if 7 <= len(nums) <= 9 and any(set(nums) <= k for k in _KNITTED):
            if len(nums) == 7:
                return "全不靠", base + [("七星不靠", E)], "七星不靠"
            fans = base + [("全不靠", E)]
            if len(nums) == 9:
                fans.append(("组合龙", E))
            return "全不靠", fans, "全不靠"
    if len(present) == 13 and set(present) == _TERM_HONOR:
        return "十三幺", base + [("十三幺", E)], "十三幺"
    return None


def _nine_gates(h: _Hand) -> tuple[str, list[tuple[str, frozenset[int]]], str] | None:
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
    E = frozenset()
    fans = h.traits + _flag_fans(h) + _concealment_fans(h) + [("九莲宝灯", E)]
    fans += [(n, E) for n in DATA.NINE_GATES_EXTRAS[_rank(w)]]
    return "九莲宝灯", fans, "九莲宝灯"


def _knitted_reading(h: _Hand):
    c = h.standing
    seq = next((k for k in _KNITTED if all(c[t] for t in k)), None)
    if seq is None:
        return None
    rest = list(c)
    for t in seq:
        rest[t] -= 1
    readings = _regular_readings(rest)
    if len(readings) != 1:
        return None
    (rsets, pair) = readings[0]
    sets: list[tuple[int, int, bool]] = [_meld_set(m) for m in h.fixed]
    sets += [(k, t, False) for k, t in rsets]
    if len(sets) != 1:
        return None
    k4, t4, m4 = sets[0]
    E = frozenset()
    occ = list(h.traits) + _flag_fans(h) + _concealment_fans(h) + [("组合龙", E)]
    if k4 == CHOW and pair < 27:
        occ.append(("平和", E))
    if k4 in (PUNG, KONG):
        one = frozenset((0,))
        if t4 in _DRAGON_SET:
            occ.append(("箭刻", one))
        if t4 in _TERM_HONOR:
            occ.append(("幺九刻", one))
        if t4 == 27 + h.round:
            occ.append(("圈风刻", one))
        if t4 == 27 + h.seat:
            occ.append(("门风刻", one))
        if k4 == KONG:
            occ.append(("明杠", E) if m4 else ("暗杠", E))
    win = h.win
    if not h.fixed:
        # waits of the set + pair part alone (the winning tile may also fit the dragon)
        rest[win] -= 1
        waits = _waits(rest, False)
        rest[win] += 1
        if len(waits) == 1:
            if k4 == CHOW and t4 + 1 == win:
                occ.append(("嵌张", E))
            elif k4 == CHOW and win in (t4, t4 + 2):
                occ.append(("边张", E))
            if pair == win:
                occ.append(("单钓将", E))
    elif win not in seq or c[win] == 3:
        # with the set exposed, the winning tile can only have completed the pair
        occ.append(("单钓将", E))
    desc = "组合龙 " + _fmt_sets(sets, pair)
    return "组合龙", occ, desc


def _meld_set(m: Meld) -> tuple[int, int, bool]:
    if m.kind is MeldKind.CHI:
        return (CHOW, m.tiles[0], True)
    if m.kind is MeldKind.PON:
        return (PUNG, m.tiles[0], True)
    return (KONG, m.tiles[0], m.kind is MeldKind.KONG)


def _set_text(k: int, t: int) -> str:
    if k == CHOW:
        return T.fmt((t, t + 1, t + 2))
    return T.fmt((t,) * (3 if k == PUNG else 4 if k == KONG else 2))


_SET_TEXT = MappingProxyType({
    (k, t): _set_text(k, t) for k in (CHOW, PUNG, KONG, PAIR) for t in range(34)
    if k != CHOW or (t < 27 and t % 9 <= 6)
})


def _fmt_sets(sets, pair) -> str:
    parts = [f"[{_SET_TEXT[k, t]}]" if m else _SET_TEXT[k, t] for k, t, m in sets]
    parts.append(_SET_TEXT[PAIR, pair])
    return " ".join(parts)


# --------------------------------------------------------------------------- validation


def _validate(sit: WinSituation) -> None:
    def ok_tiles(ts: tuple) -> bool:
        return set(map(type, ts)) <= _INT_TYPE and set(ts) <= _PLAY_SET

    if not isinstance(sit.concealed, tuple) or not isinstance(sit.melds, tuple):
        raise NotAWin("not_a_win", "concealed and melds must be tuples")
    if not ok_tiles((sit.win_tile, *sit.concealed)):
        raise NotAWin("not_a_win", "standing tiles must be playing tiles (no flowers)")
    if len(sit.melds) > 4:
        raise NotAWin("wrong_tile_count", f"{len(sit.melds)} melds")
    for m in sit.melds:
        if not isinstance(m, Meld) or not isinstance(m.tiles, tuple) or not ok_tiles(m.tiles):
            raise NotAWin("not_a_win", f"bad meld {m!r}")
        ts = m.tiles
        if m.kind is MeldKind.CHI:
            if len(ts) != 3:
                raise NotAWin("wrong_tile_count", f"chi {m} must have 3 tiles")
            a, b, c = sorted(ts)
            if a >= 27 or not (b == a + 1 and c == a + 2 and _suit(a) == _suit(c)):
                raise NotAWin("not_a_win", f"chi {m} is not a run")
        else:
            want = 3 if m.kind is MeldKind.PON else 4
            if len(ts) != want:
                raise NotAWin("wrong_tile_count", f"{m} must have {want} tiles")
            if len(set(ts)) != 1:
                raise NotAWin("not_a_win", f"{m} is not a set of equal tiles")
    if len(sit.concealed) + 3 * len(sit.melds) + 1 != 14:
        raise NotAWin(
            "wrong_tile_count",
            f"{len(sit.concealed)} standing + {len(sit.melds)} melds + winning tile is not 14",
        )
    cnt = [0] * 34
    for t in sit.concealed:
        cnt[t] += 1
    cnt[sit.win_tile] += 1
    for m in sit.melds:
        for t in m.tiles:
            cnt[t] += 1
    bad = [t for t in range(34) if cnt[t] > 4]
    if bad:
        raise NotAWin("too_many_copies", f"more than four copies of {T.name(bad[0])}")
    for w in (sit.seat_wind, sit.round_wind):
        if not isinstance(w, int) or not 0 <= w <= 3:
            raise NotAWin("not_a_win", f"wind {w!r} is not 0..3")


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
    v = dict(DATA.DEFAULT_VALUES)
    for k, val in items:
        v[_canon(k)] = int(val)
    return MappingProxyType(v)


def resolve_values(values: Mapping[str, int] | None = None) -> Mapping[str, int]:
    """Fan values with overrides; keys may be Chinese names, ids or aliases.

    A key naming a variant (e.g. ``"seed002"``) with a truthy value applies that variant.
    """
    if not values:
        return DATA.DEFAULT_VALUES
    items = []
    for k, val in values.items():
        if k in DATA.VARIANTS:
            if val:
                items.extend(DATA.VARIANTS[k].items())
        else:
            items.append((k, val))
    return _values_cached(tuple(items))


# --------------------------------------------------------------------------- entry point


def _total(counts: Mapping[str, int], vals: Mapping[str, int]) -> int:
    return sum(vals[k] * n for k, n in counts.items())


def score_mcr(
    sit: WinSituation,
    *,
    values: Mapping[str, int] | None = None,
    extra_fans: frozenset[str] = frozenset(),
    min_fan: int = 8,
) -> Score:
    """Score an MCR win.  Raises NotAWin(code) for bad or incomplete hands."""
    _validate(sit)
    vals = resolve_values(values)
    extra = frozenset(_canon(x) for x in extra_fans) & DATA.OPTIONAL

    standing = [0] * 34
    for t in sit.concealed:
        standing[t] += 1
    standing[sit.win_tile] += 1
    fixed_counts = [0] * 34
    for m in sit.melds:
        for t in m.tiles:
            fixed_counts[t] += 1
    all_counts = [a + b for a, b in zip(standing, fixed_counts, strict=True)]
    win = sit.win_tile

    h = _Hand()
    h.sit = sit
    h.standing = standing
    h.fixed = sit.melds
    h.win = win
    h.self_drawn = bool(sit.self_drawn)
    h.seat = sit.seat_wind
    h.round = sit.round_wind
    h.extra = extra
    h.all_counts = all_counts
    h.melded_fixed = sum(1 for m in sit.melds if m.kind is not MeldKind.CONCEALED_KONG)
    h.kong_count = sum(1 for m in sit.melds if m.is_kong)
    last_copy = bool(sit.last_copy) and standing[win] == 1 or fixed_counts[win] == 3
    kong = bool(sit.kong)
    if kong:
        if h.self_drawn:
            kong = h.kong_count > 0
        else:
            kong = fixed_counts[win] == 0 and standing[win] == 1
    h.flags = {"last_copy": last_copy, "last_tile": bool(sit.last_tile), "kong": kong}
    h.traits = _hand_traits(all_counts, h.kong_count)
    h.n_standing = len(sit.concealed)

    best_counts: dict[str, int] | None = None
    best_total = 0
    best_desc = ""
    special_kind = None
    special = None
    if not sit.melds:
        special = _special_reading(h)
        if special is None:
            special = _knitted_reading(h)
        if special is None:
            special = _nine_gates(h)
    elif len(sit.melds) == 1:
        special = _knitted_reading(h)
    if special is not None:
        special_kind, occ, best_desc = special
        best_counts = _apply_exclusions(occ)
        best_total = _total(best_counts, vals)

    if special is None or special_kind == "七对":
        readings = _regular_readings(standing)
        if readings:
            h.unique_wait = None
            fixed_sets = [_meld_set(m) for m in sit.melds]
            keyed = []
            for rsets, pair in readings:
                key = tuple(sorted((_CKEY[t], 0 if k == PUNG else 1) for k, t in rsets))
                keyed.append((key, rsets, pair))
            keyed.sort(key=lambda x: x[0])
            seven = special_kind == "七对"
            for _key, rsets, pair in keyed:
                conc = sorted(rsets, key=lambda s: (_CKEY[s[1]], 0 if s[0] == PUNG else 1))
                sets = fixed_sets + [(k, t, False) for k, t in conc]
                counts = _apply_exclusions(_reading_fans(h, sets, pair))
                if not counts:
                    counts = {"无番和": 1}
                tot = _total(counts, vals)
                if tot > best_total or (
                    tot == best_total and ("一色三同顺" in counts or "三同刻" in counts or seven)
                ):
                    best_total, best_counts = tot, counts
                    best_desc = (sets, pair)
    if best_counts is None:
        raise NotAWin("not_a_win", f"{T.fmt(sit.full_concealed)} with {len(sit.melds)} melds is not a complete hand")
    if not best_counts:
        best_counts = {"无番和": 1}

    if isinstance(best_desc, tuple):
        best_desc = _fmt_sets(*best_desc)
    items = [ScoreItem(k, vals[k], n) for k, n in best_counts.items()]
    nfl = len(sit.flowers)
    if nfl:
        items.append(ScoreItem("花牌", vals["花牌"], nfl))
    items.sort(key=lambda i: _ORDER[i.name])
    base = sum(i.value * i.count for i in items if i.name != "花牌")
    total = base + vals["花牌"] * nfl
    return Score(
        items=tuple(items),
        total=total,
        below_minimum=base < min_fan,
        details=(("decomposition", best_desc),),
    )
