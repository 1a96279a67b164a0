"""The fewest wilds a suit needs (``decompose.suit_least``, memoised on the suit's counts packed in
an int) against a plain search over every way to use the suit's tiles up, on every suit of up to
eight tiles, on random suits (counts up to four, and counts no hand holds, beyond 15), and
``is_complete`` on random hands against the combination of every suit option."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from mahjong_audit.engine import decompose as D

NEVER = 1 << 20


@cache
def reference(c: tuple[int, ...], honour: bool) -> tuple[int, int]:
    """The fewest wilds without the pair / with it: try every set or pair holding the first tile left."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return 0, NEVER
    best0 = best1 = NEVER

    def sub(changes: dict[int, int]) -> tuple[int, ...]:
        return tuple(n - changes.get(k, 0) for k, n in enumerate(c))

    take = min(c[i], 3)
    r0, r1 = reference(sub({i: take}), honour)
    best0, best1 = min(best0, 3 - take + r0), min(best1, 3 - take + r1)
    take = min(c[i], 2)
    r0, _ = reference(sub({i: take}), honour)
    best1 = min(best1, 2 - take + r0)
    if not honour:
        for start in range(max(0, i - 2), min(i, 6) + 1):
            used = {k: 1 for k in range(start, start + 3) if c[k] > 0}
            w = 3 - len(used)
            r0, r1 = reference(sub(used), honour)
            best0, best1 = min(best0, w + r0), min(best1, w + r1)
    return best0, best1


def small_suits(kinds: int, most: int):
    for c in itertools.product(range(5), repeat=kinds):
        if sum(c) <= most:
            yield c


@pytest.mark.parametrize("honour", [False, True])
def test_every_small_suit(honour: bool) -> None:
    kinds = 7 if honour else 9
    for c in small_suits(kinds, 8 if not honour else 9):
        assert D.suit_least(c, honour) == reference(c, honour), c


def random_suit(rng: random.Random, big: tuple[int, int]) -> tuple[bool, list[int]]:
    """A random suit (a third of them the honours), counts up to four, one in ten with a count drawn
    from ``big`` (a count no hand holds, or one whose one more is beyond a nibble)."""
    honour = rng.random() < 0.3
    kinds = 7 if honour else 9
    c = [rng.randint(0, 4) if rng.random() < 0.5 else 0 for _ in range(kinds)]
    if rng.random() < 0.1:
        c[rng.randrange(kinds)] = rng.randint(*big)
    return honour, c


def test_random_suits_and_counts_beyond_a_nibble() -> None:
    rng = random.Random(28)
    for _ in range(1500):
        honour, counts = random_suit(rng, (16, 20))  # beyond a nibble: no hand holds one
        c = tuple(counts)
        assert D.suit_least(list(c), honour) == reference(c, honour), c


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError):
        D.suit_least((1, -1, 0, 0, 0, 0, 0, 0, 0), False)


def test_is_complete_against_every_suit_option() -> None:
    rng = random.Random(2028)
    for _ in range(4000):
        wilds = rng.choice((0, 0, 0, 1, 2, 3))
        n_sets = rng.randint(0, 4)
        tiles = 3 * n_sets + 2 - wilds
        if tiles < 0:
            continue
        counts = [0] * 34
        while sum(counts) < tiles:
            t = rng.randrange(34)
            if counts[t] < 4:
                counts[t] += 1
        # the tile count is right: any choice of one option per suit with at most one pair and
        # at most the wilds held completes (is_complete's docstring)
        want = any(
            sum(o[1] for o in combo) <= 1 and sum(o[2] for o in combo) <= wilds
            for combo in itertools.product(*(D._suit_options(tuple(counts[9 * k:9 * k + (7 if k == 3 else 9)]), k == 3, wilds)
                                              for k in range(4))))
        assert D.is_complete(counts, n_sets, wilds) == want, (counts, n_sets, wilds)


def test_completing_kinds_against_a_test_per_kind() -> None:
    """``completing_kinds`` (every kind whose one more completes, from each suit's answers once) says
    exactly what ``is_complete`` says of each kind one more: random hands one tile short of a complete
    hand and near it, 0–4 wilds, counts up to four, and a few with a count of 15 or beyond a nibble."""
    rng = random.Random(1428)
    ready = 0
    for _ in range(6000):
        n_sets = rng.randint(1, 5)
        wilds = rng.choice((0, 0, 1, 1, 2, 3, 4))
        tiles = 3 * n_sets + 1 - wilds + rng.choice((0, 0, 0, 0, -1, 1))
        if tiles < 0:
            continue
        counts = [0] * 34
        while sum(counts) < tiles:
            held = [t for t in range(34) if counts[t]]
            t = rng.choice(held) if held and rng.random() < 0.6 else rng.randrange(34)
            t = min(33, max(0, t + rng.choice((0, 0, 1, -1, 2))))
            if counts[t] < 4:
                counts[t] += 1
        if rng.random() < 0.02:
            counts[rng.randrange(34)] = rng.choice((15, 16))
        want = 0
        for t in range(34):
            more = list(counts)
            more[t] += 1
            if D.is_complete(more, n_sets, wilds):
                want |= 1 << t
        assert D.completing_kinds(counts, n_sets, wilds) == want, (counts, n_sets, wilds)
        ready += want != 0
    assert ready > 1000  # most hands drawn are one tile from complete


def test_suit_least_more_is_suit_least_of_each_kind_one_more() -> None:
    rng = random.Random(2814)
    for _ in range(1500):
        honour, c = random_suit(rng, (15, 15))  # one more is beyond the key's nibble
        kinds = len(c)
        key = D.suit_key(c + [0] * 34, 0, 0) if not honour else D.suit_key([0] * 27 + c, 27, 0)
        a0, a1 = D.suit_least_more(key, honour)
        for r in range(kinds):
            more = list(c)
            more[r] += 1
            assert (a0[r], a1[r]) == D.suit_least(more, honour), (c, r)
