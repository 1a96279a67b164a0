"""Decomposition: hands built from random sets + a pair decompose; remove a tile and they don't."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import (
    PAIR,
    SEQ,
    TRIPLET,
    Part,
    decompositions,
    is_complete,
    is_seven_pairs,
)


def built_hand(seed: int, n_sets: int = 4):
    """A random winning hand of n sets + pair: (34 counts, its parts)."""
    rng = random.Random(seed)
    counts = [0] * 34
    parts = []
    while len(parts) < n_sets:
        if rng.random() < 0.5:
            start = rng.randrange(3) * 9 + rng.randrange(7)
            if all(counts[start + k] < 4 for k in range(3)):
                for k in range(3):
                    counts[start + k] += 1
                parts.append(Part(SEQ, start))
        else:
            t = rng.randrange(34)
            if counts[t] <= 1:
                counts[t] += 3
                parts.append(Part(TRIPLET, t))
    while True:
        t = rng.randrange(34)
        if counts[t] <= 2:
            counts[t] += 2
            parts.append(Part(PAIR, t))
            return counts, sorted(parts, key=lambda p: (p.tile, p.kind))


SEEDS = st.integers(0, 2**32)


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_built_hands_are_complete_and_found(seed):
    counts, parts = built_hand(seed)
    assert is_complete(counts, 4)
    found = decompositions(counts, 4)
    assert any(sorted(d, key=lambda p: (p.tile, p.kind)) == parts for d in found)


@settings(max_examples=300, deadline=None)
@given(SEEDS, st.data())
def test_sixteen_tile_hands_with_wilds(seed, data):
    counts, _ = built_hand(seed, 5)
    assert is_complete(counts, 5)
    # replace up to three tiles by wild tiles: still complete
    n_wild = data.draw(st.integers(1, 3))
    held = [t for t in range(34) for _ in range(counts[t])]
    removed = data.draw(st.permutations(held))[:n_wild]
    c2 = list(counts)
    for t in removed:
        c2[t] -= 1
    assert is_complete(c2, 5, wilds=n_wild)
    assert decompositions(c2, 5, wilds=n_wild)


@settings(max_examples=300, deadline=None)
@given(SEEDS, st.data())
def test_removing_a_tile_breaks_the_hand(seed, data):
    counts, _ = built_hand(seed)
    held = [t for t in range(34) if counts[t]]
    t = data.draw(st.sampled_from(held))
    c2 = list(counts)
    c2[t] -= 1
    assert not is_complete(c2, 4)
    assert decompositions(c2, 4) == []


def test_worked_examples():
    c = T.counts(T.parse("111222333m45699p"), 34)
    assert len(decompositions(c, 4)) == 2  # three triplets or three 123m sequences
    assert not is_complete(T.counts(T.parse("1234m"), 34), 1)
    assert is_complete(T.counts(T.parse("13m"), 34), 1, wilds=3)  # 1?3m + wild pair
    assert is_seven_pairs(T.counts(T.parse("11223344556677m"), 34))
    assert is_seven_pairs(T.counts(T.parse("1122334455667m"), 34), wilds=1)
    assert not is_seven_pairs(T.counts(T.parse("1122334455678m"), 34))


def test_all_wild_parts_have_no_tile():
    found = decompositions(T.counts(T.parse("123m"), 34), 1, wilds=2)
    assert (Part(SEQ, 0), Part(PAIR, None, 2)) in [tuple(sorted(d, key=lambda p: p.kind, reverse=True)) for d in found]
