"""Fast exits added for speed return what the full search returns."""

from __future__ import annotations

import random

from mahjong_audit.engine.decompose import is_seven_pairs
from mahjong_audit.engine.rulesets import longgang_readings as R


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
