"""``single_wait`` (边张/嵌张/单钓将 need exactly one waiting tile) answers as the set of waits does."""

from __future__ import annotations

import random

from mahjong_audit.engine.rulesets.mcr_readings import single_wait, wait_tiles
from mahjong_audit.engine.rulesets.mcr_readings import subs as _subs
from tests.mcr_handgen import generate


def _hands_minus_one(n: int, seed: int):
    """Standing tiles of generated wins without one tile: ready hands and near-misses."""
    rng = random.Random(seed)
    for sit in generate(n, seed):
        counts = [0] * 34
        for t in (*sit.concealed, sit.win_tile):
            counts[t] += 1
        t = rng.choice([t for t in range(34) if counts[t]])
        counts[t] -= 1
        yield counts, len(sit.concealed) == 13


def test_single_wait_agrees_with_the_set_of_waits():
    seen = {True: 0, False: 0}
    for counts, seven in _hands_minus_one(4000, 5):
        subs = _subs(counts)
        want = len(wait_tiles(subs, seven)) == 1
        assert single_wait(subs, seven) == want, (counts, seven)
        seen[want] += 1
    assert seen[True] > 100 and seen[False] > 100


def test_single_wait_on_random_counts():
    rng = random.Random(9)
    for _ in range(4000):
        counts = [0] * 34
        for _ in range(13):
            counts[rng.randrange(34)] += 1
        counts = [min(c, 4) for c in counts]
        subs = _subs(counts)
        for seven in (True, False):
            assert single_wait(subs, seven) == (len(wait_tiles(subs, seven)) == 1)
