"""Random legal 龙港 situations for the ``score`` command: winning hands and 陪家 hands.

Seeded and reproducible (``random.Random(seed)``). Winning hands are built as five sets
and a pair (or 八对半) and then have some tiles replaced by wilds (财神 of the
indicator's kind, the seat's 坐花), so every one is complete by construction; the
generator covers melds (chi from the left, pon, open and concealed kongs), honours,
flowers set aside, self-drawn and discard wins, kong / flower replacement wins, 三财神,
天胡 / 地胡 and 财神 placed as themselves (财神归位). 陪家 hands are any 16 standing
tiles with pairs, triplets and wilds in them, scored with ``role: "other"``.
"""

from __future__ import annotations

import random

from tests.oracles.longgang_seed import BAI, JOKER_KINDS, SEAT_FLOWER, name

VALUE_HONOURS = (32, 33)  # 发, 中


class _Pool:
    def __init__(self, wild_kind: int) -> None:
        self.left = [4] * 34
        self.left[BAI] = 0
        self.left[wild_kind] = 3  # one copy is the flipped indicator
        self.wild_kind = wild_kind

    def take(self, k: int, n: int = 1) -> bool:
        if self.left[k] < n:
            return False
        self.left[k] -= n
        return True


def _rand_kind(rng: random.Random, seat: int, honour_bias: float) -> int:
    if rng.random() < honour_bias:
        return rng.choice((27, 28, 29, 30, 32, 33, seat, 33, 32))
    return rng.randrange(27)


# kinds for the limit hands made of triplets: 四喜 (winds), 字一色, 清老头 / 混老头
LIMIT_POOLS = ((27, 28, 29, 30), (27, 28, 29, 30, 32, 33), (0, 8, 9, 17, 18, 26),
               (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 32, 33))


def _set(rng, pool: _Pool, seat: int, allow_wild: bool, seq_p: float, only_suit: int | None = None,
         only_kinds: tuple | None = None):
    """One set as a list of kinds, taken from the pool, or None (``only_suit``: that
    suit and honours only; ``only_kinds``: a triplet of one of these kinds)."""
    for _ in range(30):
        if only_kinds is not None:
            ks = [rng.choice(only_kinds)] * 3
        elif rng.random() < seq_p:
            s, r = rng.randrange(3) if only_suit is None else only_suit, rng.randrange(7)
            ks = [s * 9 + r + i for i in range(3)]
        else:
            k = _rand_kind(rng, seat, 0.45)
            if only_suit is not None and k < 27:
                k = only_suit * 9 + k % 9
            ks = [k] * 3
        if not allow_wild and pool.wild_kind in ks:
            continue
        need = {k: ks.count(k) for k in ks}
        if all(pool.left[k] >= n for k, n in need.items()):
            for k, n in need.items():
                pool.take(k, n)
            return ks
    return None


def winning(rng: random.Random) -> dict | None:
    seat_wind = rng.choice("ESWN")
    seat = {"E": 27, "S": 28, "W": 29, "N": 30}[seat_wind]
    wk = rng.choice(JOKER_KINDS)
    pool = _Pool(wk)
    n_melds = rng.choices((0, 1, 2, 3, 4), (40, 20, 15, 15, 10))[0]
    eight = n_melds == 0 and rng.random() < 0.1
    all_tri = rng.random() < 0.15
    limit_pool = rng.choice(LIMIT_POOLS) if rng.random() < 0.06 else None
    one_suit = rng.randrange(3) if rng.random() < 0.15 else None
    seq_p = 0.0 if all_tri else 0.55
    melds, concealed = [], []
    if eight:
        groups = []
        for i in range(8):
            for _ in range(30):
                k = _rand_kind(rng, seat, 0.35)
                if one_suit is not None and k < 27:
                    k = one_suit * 9 + k % 9
                n = 3 if i == 0 else 2
                if pool.take(k, n):
                    groups.append([k] * n)
                    break
            else:
                return None
        concealed = [k for g in groups for k in g]
    else:
        for i in range(5):
            ks = _set(rng, pool, seat, allow_wild=i >= n_melds and rng.random() < 0.15, seq_p=seq_p,
                      only_suit=one_suit, only_kinds=limit_pool if (limit_pool and i < 4) else None)
            if ks is None:
                return None
            if i < n_melds:
                if ks[0] != ks[1]:
                    claimed = rng.choice(ks)
                    melds.append({"type": "chi", "tiles": [name(k) for k in ks], "claimed": name(claimed), "from": 1})
                elif rng.random() < 0.3 and pool.take(ks[0]):
                    if rng.random() < 0.4:
                        melds.append({"type": "kong", "tile": name(ks[0]), "concealed": True})
                    else:
                        melds.append({"type": "kong", "tile": name(ks[0]), "concealed": False, "from": rng.randint(1, 3)})
                else:
                    melds.append({"type": "pon", "tile": name(ks[0]), "from": rng.randint(1, 3)})
            else:
                concealed.extend(ks)
        for _ in range(30):
            k = rng.choice(limit_pool) if limit_pool else _rand_kind(rng, seat, 0.4)
            if one_suit is not None and k < 27:
                k = one_suit * 9 + k % 9
            if pool.take(k, 2):
                concealed.extend([k, k])
                break
        else:
            return None
    tiles = [name(k) for k in concealed]
    # wilds: real 财神 (the indicator's kind) and the seat's own flower replace tiles
    n_cai_now = sum(1 for k in concealed if k == wk)
    n_cai = rng.choices((0, 1, 2, 3), (40, 30, 22, 8))[0]
    flower = rng.random() < 0.35
    slots = [i for i, k in enumerate(concealed) if k != wk]
    rng.shuffle(slots)
    for _ in range(max(0, min(n_cai - n_cai_now, pool.left[wk]))):
        tiles[slots.pop()] = name(wk)
    if flower and slots:
        tiles[slots.pop()] = SEAT_FLOWER[seat_wind]
    others = [f for f in ("1f", "2f", "3f", "4f") if f != SEAT_FLOWER[seat_wind] or not flower]
    flowers = [f for f in others if f != SEAT_FLOWER[seat_wind] and rng.random() < 0.3]
    wi = rng.randrange(len(tiles))
    win = tiles.pop(wi)
    wild_win = win == name(wk) or win == SEAT_FLOWER[seat_wind]
    self_drawn = wild_win or rng.random() < 0.5
    has_kong = any(m["type"] == "kong" for m in melds)
    # a self-drawn win on a replacement: after a kong (the kong flag needs a kong in the hand;
    # `score` rejects it otherwise) or after a flower
    kong = self_drawn and (has_kong or bool(flowers)) and rng.random() < 0.2 and has_kong
    if not self_drawn and rng.random() < 0.04:
        kong = True  # 抢杠: 二、二)5 "按放炮胡计"
    # a self-drawn win on the replacement after a flower (补花): needs a flower set aside
    flower_replacement = self_drawn and not kong and bool(flowers) and rng.random() < 0.1
    fields: dict = {"indicator": name(wk)}
    if seat_wind == "E" and not melds and self_drawn and not kong and rng.random() < 0.03:
        fields["heavenly"] = True
    if seat_wind != "E" and not melds and not self_drawn and rng.random() < 0.03:
        fields["human"] = True
    sit = {
        "concealed": sorted(tiles), "melds": melds, "win_tile": win, "self_drawn": self_drawn,
        "seat_wind": seat_wind, "round_wind": rng.choice("ESWN"), "flowers": flowers,
        "kong": kong, "last_tile": (not kong) and rng.random() < 0.04, "ruleset_fields": fields,
    }
    if flower_replacement and not sit["last_tile"] and "heavenly" not in fields:
        sit["replacement"] = "flower"
    return sit


def other(rng: random.Random) -> dict | None:
    """A 陪家's standing hand (16 - 3 × melds tiles) at the end of someone else's win."""
    seat_wind = rng.choice("ESWN")
    seat = {"E": 27, "S": 28, "W": 29, "N": 30}[seat_wind]
    wk = rng.choice(JOKER_KINDS)
    pool = _Pool(wk)
    n_melds = rng.choices((0, 1, 2, 3, 4), (35, 25, 20, 12, 8))[0]
    melds = []
    for _ in range(n_melds):
        ks = _set(rng, pool, seat, allow_wild=False, seq_p=0.4)
        if ks is None:
            return None
        if ks[0] != ks[1]:
            melds.append({"type": "chi", "tiles": [name(k) for k in ks], "claimed": name(ks[1]), "from": 1})
        elif rng.random() < 0.3 and pool.take(ks[0]):
            melds.append({"type": "kong", "tile": name(ks[0]), "concealed": rng.random() < 0.4, "from": 2})
            if melds[-1]["concealed"]:
                del melds[-1]["from"]
        else:
            melds.append({"type": "pon", "tile": name(ks[0]), "from": rng.randint(1, 3)})
    n = 16 - 3 * n_melds
    tiles: list[str] = []
    n_cai = rng.choices((0, 1, 2), (45, 35, 20))[0]
    for _ in range(n_cai):
        if pool.take(wk):
            tiles.append(name(wk))
    if rng.random() < 0.35:
        tiles.append(SEAT_FLOWER[seat_wind])
    while len(tiles) < n:
        k = _rand_kind(rng, seat, 0.35)
        if k == wk:
            continue
        c = rng.choices((1, 2, 3, 4), (40, 35, 18, 7))[0]
        c = min(c, n - len(tiles))
        if pool.take(k, c):
            tiles.extend([name(k)] * c)
    rng.shuffle(tiles)
    win = tiles.pop()
    flowers = [f for f in ("1f", "2f", "3f", "4f") if f != SEAT_FLOWER[seat_wind] and rng.random() < 0.3]
    return {
        "concealed": sorted(tiles), "melds": melds, "win_tile": win, "self_drawn": False,
        "seat_wind": seat_wind, "round_wind": "E", "flowers": flowers,
        "ruleset_fields": {"indicator": name(wk), "role": "other"},
    }


def situations(n: int, seed: int, other_share: float = 0.3) -> list[dict]:
    """``n`` situations (about ``other_share`` of them 陪家). No ``id`` field: the
    command on this branch rejects it (score-cli.md says it is optional and echoed)."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        s = other(rng) if rng.random() < other_share else winning(rng)
        if s is not None:
            out.append(s)
    return out
