"""Seeded random MCR winning hands, biased towards rare fans, plus the oracle adapter.

Used by tests/test_mcr_oracle.py and bench/mcr_bench.py.
"""

from __future__ import annotations

import random

from mahjong_audit.engine.hand import Meld, MeldKind, WinSituation

# ---------------------------------------------------------------- oracle adapter

_HONOUR_NAMES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # E S W N 白 发 中 (J1 = 中, J2 = 发)
ORACLE_NAME_MAP = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def oracle_tile(t: int) -> str:
    if t >= 27:
        return _HONOUR_NAMES[t - 27]
    return "WBT"[t // 9] + str(t % 9 + 1)


def oracle_args(sit: WinSituation) -> dict:
    pack = []
    for m in sit.melds:
        if m.kind is MeldKind.CHI:
            offer = (m.claimed - m.tiles[0] + 1) if m.claimed is not None else 1
            pack.append(("CHI", oracle_tile(m.tiles[1]), offer))
        elif m.kind is MeldKind.PON:
            pack.append(("PENG", oracle_tile(m.tiles[0]), m.source or 1))
        elif m.kind is MeldKind.KONG:
            pack.append(("GANG", oracle_tile(m.tiles[0]), m.source or 1))
        else:
            pack.append(("GANG", oracle_tile(m.tiles[0]), 0))
    return dict(
        pack=tuple(pack),
        hand=tuple(oracle_tile(t) for t in sit.concealed),
        winTile=oracle_tile(sit.win_tile),
        flowerCount=len(sit.flowers),
        isSelfDrawn=sit.self_drawn,
        is4thTile=sit.last_copy,
        isAboutKong=sit.kong,
        isWallLast=sit.last_tile,
        seatWind=sit.seat_wind,
        prevalentWind=sit.round_wind,
    )


def oracle_score(sit: WinSituation):
    """{name: count} and total from pymahjonggb, or None when it refuses the hand."""
    from MahjongGB import MahjongFanCalculator

    try:
        res = MahjongFanCalculator(**oracle_args(sit), verbose=True)
    except TypeError:
        return None
    fans = {}
    total = 0
    for point, cnt, name, _en in res:
        name = ORACLE_NAME_MAP.get(name, name)
        fans[name] = fans.get(name, 0) + cnt
        total += point * cnt
    return fans, total


# ---------------------------------------------------------------- generator

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
TERMS = (0, 8, 9, 17, 18, 26)
GREEN = (19, 20, 21, 23, 25, 32)
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 31)


def _chow(first):
    return ("c", first)


def _pung(t):
    return ("p", t)


def _rand_chow(r, suits=(0, 1, 2), ranks=range(7)):
    return _chow(r.choice(suits) * 9 + r.choice(list(ranks)))


def _rand_set(r, pool=None):
    if pool is not None:
        pool = list(pool)
        if r.random() < 0.5:
            # chow inside the pool
            starts = [t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool]
            if starts:
                return _chow(r.choice(starts))
        return _pung(r.choice(pool))
    if r.random() < 0.55:
        return _rand_chow(r)
    return _pung(r.randrange(34))


def _pattern_sets(r):
    """A few sets forming a pattern fan; returns (sets, pair or None)."""
    s = r.randrange(3)
    a, b, c = r.sample(range(3), 3)
    k = r.randrange(12)
    if k == 0:  # same chows x3/x4
        f = s * 9 + r.randrange(7)
        return [_chow(f)] * r.choice((2, 3, 4)), None
    if k == 1:  # shifted chows one suit
        step = r.choice((1, 2))
        n = r.choice((3, 4))
        f = s * 9 + r.randrange(7 - step * (n - 1))
        return [_chow(f + i * step) for i in range(n)], None
    if k == 2:  # pure straight / mixed straight
        if r.random() < 0.5:
            return [_chow(s * 9), _chow(s * 9 + 3), _chow(s * 9 + 6)], None
        return [_chow(a * 9), _chow(b * 9 + 3), _chow(c * 9 + 6)], None
    if k == 3:  # mixed triple chow / mixed shifted chows
        f = r.randrange(5)
        if r.random() < 0.5:
            return [_chow(a * 9 + f), _chow(b * 9 + f), _chow(c * 9 + f)], None
        return [_chow(a * 9 + f), _chow(b * 9 + f + 1), _chow(c * 9 + f + 2)], None
    if k == 4:  # terminal chows
        if r.random() < 0.5:
            return [_chow(s * 9), _chow(s * 9), _chow(s * 9 + 6), _chow(s * 9 + 6)], s * 9 + 4
        return [_chow(a * 9), _chow(a * 9 + 6), _chow(b * 9), _chow(b * 9 + 6)], c * 9 + 4
    if k == 5:  # shifted pungs
        n = r.choice((3, 4))
        if r.random() < 0.6:
            f = s * 9 + r.randrange(10 - n)
            return [_pung(f + i) for i in range(n)], None
        f = r.randrange(7)
        return [_pung(a * 9 + f), _pung(b * 9 + f + 1), _pung(c * 9 + f + 2)], None
    if k == 6:  # triple / double pung
        f = r.randrange(9)
        return [_pung(a * 9 + f), _pung(b * 9 + f), _pung(c * 9 + f)][: r.choice((2, 3))], None
    if k == 7:  # winds
        ws = r.sample(WINDS, 4)
        n = r.choice((3, 4))
        return [_pung(w) for w in ws[:n]], (ws[3] if n == 3 and r.random() < 0.6 else None)
    if k == 8:  # dragons
        ds = r.sample(DRAGONS, 3)
        n = r.choice((2, 3))
        return [_pung(d) for d in ds[:n]], (ds[2] if n == 2 and r.random() < 0.6 else None)
    if k == 9:  # two-chow relations
        f = r.randrange(4)
        return [_chow(s * 9 + f), _chow(s * 9 + f + 3), _chow(a * 9 + f)], None
    if k == 10:  # terminal chows one pair each
        return [_chow(s * 9), _chow(s * 9 + 6), _chow(a * 9), _chow(b * 9 + 6)], None
    return [_pung(r.randrange(34)) for _ in range(2)], None


_POOLS = (
    tuple(range(0, 27)),  # no honours
    tuple(t for t in range(27) if t % 9 <= 2),  # 全小
    tuple(t for t in range(27) if t % 9 <= 3),  # 小于五
    tuple(t for t in range(27) if t % 9 >= 6),  # 全大
    tuple(t for t in range(27) if t % 9 >= 5),  # 大于五
    tuple(t for t in range(27) if 3 <= t % 9 <= 5),  # 全中
    tuple(t for t in range(27) if 1 <= t % 9 <= 7),  # 断幺
    tuple(t for t in range(27) if t % 2 == 1 and t % 9 in (1, 3, 5, 7)),  # even ranks
    GREEN,
    REVERSIBLE,
    TERMS + WINDS + DRAGONS,
    TERMS,
    WINDS + DRAGONS,
)


def _suit_pool(r, honours: bool):
    s = r.randrange(3)
    pool = tuple(range(s * 9, s * 9 + 9))
    return pool + (WINDS + DRAGONS if honours else ())


def _regular(r):
    k = r.random()
    sets: list = []
    pair = None
    pool = None
    if k < 0.35:
        sets, pair = _pattern_sets(r)
        sets = list(sets)
    if k >= 0.35 and k < 0.6:
        pool = r.choice(_POOLS)
    elif k >= 0.6 and k < 0.75:
        pool = _suit_pool(r, r.random() < 0.5)
    elif k >= 0.75 and k < 0.82:
        # all five / outside hand: sets through 5 or through terminals
        five = r.random() < 0.5
        while len(sets) < 4:
            if five:
                sets.append(r.choice((_chow(r.randrange(3) * 9 + r.choice((2, 3, 4))), _pung(r.randrange(3) * 9 + 4))))
            else:
                sets.append(r.choice((_chow(r.randrange(3) * 9 + r.choice((0, 6))), _pung(r.choice(TERMS + WINDS + DRAGONS)))))
        pair = r.randrange(3) * 9 + 4 if five else r.choice(TERMS + WINDS + DRAGONS)
    while len(sets) < 4:
        sets.append(_rand_set(r, pool))
    if pair is None:
        pair = r.choice(pool) if pool else r.randrange(34)
    return sets[:4], pair


def _tiles_of(sets, pair):
    out = []
    for kind, t in sets:
        out += [t, t + 1, t + 2] if kind == "c" else [t, t, t]
    return out + [pair, pair]


def _special(r):
    k = r.randrange(6)
    if k == 0:  # seven pairs (sometimes one suit / shifted)
        if r.random() < 0.3:
            s = r.randrange(3)
            f = r.randrange(3)
            return [s * 9 + f + i for i in range(7) for _ in range(2)]
        pool = r.choice((tuple(range(34)), _suit_pool(r, True), tuple(range(27)), TERMS + WINDS + DRAGONS))
        kinds = [r.choice(pool) for _ in range(7)]
        return [t for t in kinds for _ in range(2)]
    if k == 1:  # thirteen orphans
        base = list(TERMS + WINDS + DRAGONS)
        return base + [r.choice(base)]
    if k in (2, 3):  # honours and knitted
        perm = r.sample(range(3), 3)
        knit = [s * 9 + perm[s] + 3 * j for s in range(3) for j in range(3)]
        honours = list(WINDS + DRAGONS)
        if r.random() < 0.4:
            return r.sample(knit, 7) + honours
        n = r.choice((7, 8, 9))
        return r.sample(knit, n) + r.sample(honours, 14 - n)
    if k == 4:  # nine gates
        s = r.randrange(3) * 9
        return [s, s, s] + list(range(s + 1, s + 8)) + [s + 8] * 3 + [s + r.randrange(9)]
    return None


def _knitted(r):
    perm = r.sample(range(3), 3)
    knit = [s * 9 + perm[s] + 3 * j for s in range(3) for j in range(3)]
    st = _rand_set(r)
    pair = r.randrange(34)
    return knit, st, pair


def random_situation(r: random.Random) -> WinSituation | None:
    """One random winning situation (None if the draw broke the 4-copies rule)."""
    kind = r.random()
    melds: list[Meld] = []
    if kind < 0.12:
        tiles = _special(r)
        if tiles is None:
            return None
        concealed = list(tiles)
    elif kind < 0.17:
        knit, st, pair = _knitted(r)
        concealed = knit + [pair, pair]
        if r.random() < 0.4:
            melds.append(_expose(r, st, force=True))
        else:
            concealed += _tiles_of([st], pair)[:3]
    else:
        sets, pair = _regular(r)
        p_meld = r.choice((0.0, 0.0, 0.3, 0.5, 1.0))
        concealed = [pair, pair]
        for st in sets:
            if r.random() < p_meld:
                melds.append(_expose(r, st))
            elif st[0] == "p" and r.random() < 0.08:
                melds.append(Meld.kong(st[1], concealed=True))
            else:
                concealed += _tiles_of([st], 0)[:3]
    counts = [0] * 34
    for t in concealed:
        if not 0 <= t < 34:
            return None
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    if max(counts) > 4:
        return None
    r.shuffle(concealed)
    win = concealed.pop()
    self_drawn = r.random() < 0.45
    has_kong = any(m.is_kong for m in melds)
    kong = r.random() < (0.3 if self_drawn and has_kong else 0.04)
    return WinSituation(
        concealed=tuple(sorted(concealed)),
        melds=tuple(melds),
        win_tile=win,
        self_drawn=self_drawn,
        seat_wind=r.randrange(4),
        round_wind=r.randrange(4),
        flowers=tuple(34 + i for i in r.sample(range(8), r.choice((0, 0, 0, 1, 2)))),
        last_tile=r.random() < 0.05,
        kong=kong,
        last_copy=r.random() < 0.12,
    )


def _expose(r, st, force=False) -> Meld:
    kind, t = st
    if kind == "c":
        return Meld.chi(t, claimed=t + r.randrange(3), source=3)
    x = r.random()
    if x < 0.2:
        return Meld.kong(t, source=r.randint(1, 3), added=r.random() < 0.5)
    if x < 0.32:
        return Meld.kong(t, concealed=True)
    return Meld.pon(t, source=r.randint(1, 3))


def generate(n: int, seed: int = 1) -> list[WinSituation]:
    r = random.Random(seed)
    out: list[WinSituation] = []
    while len(out) < n:
        s = random_situation(r)
        if s is not None:
            out.append(s)
    return out
