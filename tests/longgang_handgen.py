"""Random 龙港 hands for the property tests: winning hands (five sets and a pair, or 八对半)
with some tiles turned into wilds, and 陪家 hands. Deterministic for a given seed."""

from __future__ import annotations

import random

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, WinSituation

KINDS = [t for t in range(34) if t != T.WHITE]  # no 白板 in this set
HONOURS = [t for t in KINDS if T.is_honour(t)]


def _set(rng: random.Random, kind: str) -> list[int]:
    if kind == "seq":
        s = rng.randrange(3)
        r = rng.randrange(7)
        return [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
    t = rng.choice(KINDS)
    return [t] * (3 if kind == "triplet" else 2)


def winning_hand(rng: random.Random) -> WinSituation | None:
    """A winning hand with 0–3 wilds, or None when the draw broke a copy limit."""
    seat_wind = rng.randrange(4)
    flower_mode = rng.random() < 0.1
    indicator = T.FLOWER0 + rng.randrange(4) if flower_mode else rng.choice(KINDS)
    zuo = T.FLOWER0 + seat_wind
    if flower_mode:
        wild_real = [f for f in range(T.FLOWER0, T.FLOWER0 + 4) if f not in (indicator, zuo)]
        zuo_ok = zuo != indicator
    else:
        wild_real = [indicator]
        zuo_ok = True
    melds: list[Meld] = []
    eight = rng.random() < 0.15
    if eight:
        groups = [_set(rng, "pair") for _ in range(7)] + [_set(rng, "triplet")]
    else:
        n_melds = rng.choice((0, 0, 1, 2))
        groups = []
        for _ in range(n_melds):
            if rng.random() < 0.5:
                g = _set(rng, "seq")
                melds.append(Meld.chi(g[0], g[0]))
            else:
                g = _set(rng, "triplet")
                melds.append(Meld.pon(g[0]))
            if indicator in g:
                return None  # a wild never goes into a chi or pon
            groups.append(g)
        groups += [_set(rng, rng.choice(("seq", "seq", "triplet"))) for _ in range(5 - n_melds)]
        groups.append(_set(rng, "pair"))
    concealed = [t for g in groups[len(melds):] for t in g]
    every = [t for g in groups for t in g]
    for t in set(every):
        if every.count(t) > (3 if t == indicator else 4):
            return None
    n_wild = rng.choice((0, 1, 1, 2, 2, 3))
    idx = rng.sample(range(len(concealed)), n_wild)
    reals = 0
    zuos = 0
    for i in idx:
        if zuo_ok and zuos == 0 and rng.random() < 0.4:
            concealed[i] = zuo
            zuos += 1
        elif reals < (2 if not flower_mode else len(wild_real)):
            concealed[i] = wild_real[reals % len(wild_real)] if flower_mode else indicator
            reals += 1
    if not flower_mode and concealed.count(indicator) > 2:
        return None  # three 正财: 三财神
    k = rng.randrange(len(concealed))
    win = concealed.pop(k)
    wild_win = win == zuo or win in wild_real
    self_drawn = True if wild_win else rng.random() < 0.5
    flowers: tuple[int, ...] = ()
    if not flower_mode and rng.random() < 0.2:
        flowers = tuple(f for f in range(T.FLOWER0, T.FLOWER0 + 4) if f != zuo)
    extra = (("indicator", indicator),)
    return WinSituation(tuple(concealed), tuple(melds), win, self_drawn, seat_wind=seat_wind,
                        flowers=flowers, extra=extra)


def other_hand(rng: random.Random) -> tuple[tuple[int, ...], tuple[Meld, ...], int, int]:
    """A 陪家's standing tiles (honours and pairs likely), a pon or none, its seat wind and the
    indicator."""
    seat_wind = rng.randrange(4)
    indicator = rng.choice(KINDS)
    tiles: list[int] = []
    while len(tiles) < 12:
        t = rng.choice(HONOURS if rng.random() < 0.4 else KINDS)
        if t == indicator:
            continue
        n = rng.choice((1, 1, 2, 2, 3, 4))
        n = min(n, 4 - tiles.count(t))
        tiles += [t] * n
    melds: tuple[Meld, ...] = ()
    single = [t for t in set(tiles) if tiles.count(t) == 1]
    if single and rng.random() < 0.4:
        melds = (Meld.pon(rng.choice(sorted(single))),)  # the fourth copy stands, the pon shows three
        tiles = tiles[:-1] if len(tiles) > 12 else tiles
    n_real = rng.choice((0, 1, 1, 2, 2))
    tiles += [indicator] * n_real
    if rng.random() < 0.5:
        tiles.append(T.FLOWER0 + seat_wind)
    return tuple(tiles), melds, seat_wind, indicator


#: the first 140 seeds below 400 whose :func:`winning_hand` keeps to the copy limits
WINNER_SEEDS = [s for s in range(400) if winning_hand(random.Random(s)) is not None][:140]
