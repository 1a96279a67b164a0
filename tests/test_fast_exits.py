"""Fast exits added for speed return what the full search returns."""

from __future__ import annotations

import random

from mahjong_audit.engine.decompose import _split, _suit_options, is_complete, is_seven_pairs
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets import longgang_score as S


def _eight_pairs_by_search(c: list[int], wilds: int) -> bool:
    """八对半 by trying every triplet (``n`` natural tiles of a kind and ``3 − n`` wilds, or
    three wilds) and asking ``is_seven_pairs`` about the rest: no fast exit."""
    if sum(c) + wilds != 17:
        return False
    choices: list[tuple[int | None, int]] = [(None, 0)]
    choices += [(t, n) for t in range(34) for n in (1, 2, 3) if n <= c[t]]
    for t, n in choices:
        need = 3 - n
        if need > wilds:
            continue
        rest = list(c)
        if t is not None:
            rest[t] -= n
        if is_seven_pairs(rest, wilds - need, pairs=7):
            return True
    return False


def test_eight_pairs_fast_exit_agrees_with_the_search():
    r = random.Random(13)
    found = 0
    for i in range(20000):
        wilds = r.choice((0, 0, 1, 2, 3))
        c = [0] * 34
        kinds = r.sample(range(34), r.randint(5, 10))
        left = 17 - wilds
        while left:
            k = r.choice(kinds)
            if c[k] < 4:
                c[k] += 1
                left -= 1
        want = _eight_pairs_by_search(c, wilds)
        found += want
        assert R.is_eight_pairs(c, wilds) == want, (c, wilds)
        if i % 10 == 0:  # the enumeration is slower: every tenth hand
            assert bool(R.eight_pairs_parts(c, wilds)) == want, (c, wilds)
    assert found > 1000  # the sample holds many 八对半 hands, not only misses


def _near_complete_hand(r: random.Random, n_melds: int, wild_tiles: list[int]) -> list[int]:
    """42 counts: five sets and a pair less ``n_melds`` sets, some tiles turned into the seat's
    wilds, then one tile taken away (a hand one tile from winning, or not, when the wild or
    flower changes break it); every other hand fully random."""
    c = [0] * 42
    size = 17 - 3 * n_melds
    if r.random() < 0.3:
        while sum(c) < size - 1:
            k = r.randrange(34)
            if c[k] < 4:
                c[k] += 1
    else:
        tiles: list[int] = []
        if n_melds == 0 and r.random() < 0.2:  # 八对半: eight pairs and one more of a kind
            tiles = [t for k in r.sample(range(34), 8) for t in (k, k)]
            tiles.append(tiles[0])
        while len(tiles) < size - 2:
            if r.random() < 0.5:
                s, v = r.randrange(3), r.randrange(7)
                tiles += [9 * s + v, 9 * s + v + 1, 9 * s + v + 2]
            else:
                tiles += [r.randrange(34)] * 3
        if len(tiles) < size:
            tiles += [r.randrange(34)] * 2
        for i in range(len(tiles)):
            if wild_tiles and r.random() < 0.08:
                tiles[i] = r.choice(wild_tiles)
        if r.random() < 0.05:
            tiles[0] = r.randrange(34, 42)  # a flower, kept or not
        tiles.remove(r.choice(tiles))
        for t in tiles:
            c[t] += 1
    return c


def test_longgang_one_more_tile_filter_never_refuses_a_win():
    """``may_complete_with_one`` (the replay's quick no before its per-discard what-ifs) is
    false only where ``complete`` is false for every tile added."""
    r = random.Random(29)
    refused = passed = wins = 0
    for _ in range(6000):
        rules = S.Rules(three_caishen=r.choice((3, 3, 4)), eight_pairs=r.random() < 0.8)
        indicator = r.choice((None, r.randrange(34), r.randrange(34), r.randrange(34, 38)))
        w = S.wilds_for(r.randrange(4), indicator)
        n_melds = r.choice((0, 0, 1, 2))
        c = _near_complete_hand(r, n_melds, sorted(w.all))
        maybe = S.may_complete_with_one(tuple(c), n_melds, w.all, rules)
        refused += not maybe
        passed += maybe
        for t in range(42):
            more = list(c)
            more[t] += 1
            if S.complete(more, n_melds, w.all, rules):
                wins += 1
                assert maybe, (c, t, n_melds, sorted(w.all), rules.three_caishen, rules.eight_pairs)
    assert refused > 1000 and passed > 1000 and wins > 1000  # both answers and many wins are tried


def _complete_by_combining(counts: list[int], n_sets: int, wilds: int) -> bool:
    """``decompose.is_complete`` as it was: every (sets, pairs, wilds) of each suit combined,
    then the wilds left checked against the sets and the pair still missing."""
    if sum(counts[:34]) + wilds != 3 * n_sets + 2:
        return False
    combos = {(0, 0, 0)}
    for k, part in enumerate(_split(counts)):
        nxt = set()
        for s, p, w in combos:
            for s2, p2, w2 in _suit_options(part, k == 3, wilds):
                if p + p2 <= 1 and w + w2 <= wilds and s + s2 <= n_sets:
                    nxt.add((s + s2, p + p2, w + w2))
        combos = nxt
    for s, p, w in combos:
        left = wilds - w
        if p == 1 and left % 3 == 0 and s + left // 3 == n_sets:
            return True
        if p == 0 and left >= 2 and (left - 2) % 3 == 0 and s + (left - 2) // 3 == n_sets:
            return True
    return False


def test_is_complete_by_least_wilds_agrees_with_combining_every_option():
    """``decompose.is_complete`` takes each suit's fewest wilds without and with the pair
    instead of combining every option: the same answer on random hands (most of them one
    tile from complete, so that both answers come up often)."""
    r = random.Random(31)
    complete = 0
    for _ in range(30000):
        n_sets = r.randint(0, 5)
        wilds = r.choice((0, 0, 1, 1, 2, 3, 4))
        c = [0] * 34
        size = max(0, 3 * n_sets + 2 - wilds + r.choice((0, 0, 0, -1, 1)))
        if r.random() < 0.6:  # sets and a pair, then a few tiles changed
            tiles: list[int] = []
            while len(tiles) < size:
                if r.random() < 0.5:
                    s, v = r.randrange(3), r.randrange(7)
                    tiles += [9 * s + v, 9 * s + v + 1, 9 * s + v + 2]
                else:
                    tiles += [r.randrange(34)] * r.choice((2, 3))
            tiles = tiles[:size]
            for i in range(len(tiles)):
                if r.random() < 0.1:
                    tiles[i] = r.randrange(34)
            for t in tiles:
                c[t] += 1
        else:
            while sum(c) < size:
                c[r.randrange(34)] += 1
        want = _complete_by_combining(c, n_sets, wilds)
        complete += want
        assert is_complete(c, n_sets, wilds) == want, (c, n_sets, wilds)
    assert complete > 3000
