"""A seat holding a flower is asked the shape test with all 42 per-tile counts (the replay and the
claim chances pass 34 counts, or 42 when flowers are in hand or asked about): the flower counts
are no tiles of the hand. MCR, seed 002 花牌: "即春夏秋冬，梅兰竹菊，每花计一番。不计在起胡番内，
胡牌后才能计番" — a flower is a fan counted after the win, never a tile of the winning shape
(spec/rules-mcr.md: flowers are "set aside when drawn or dealt"). 广东 plays without flowers
(136 tiles): a flower count is no tile of its shapes either.

Before the fix 42 counts were read as a list of tile ids (each count a tile), so a complete
hand held beside a flower was answered at random."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld
from mahjong_audit.engine.rulesets import RULESETS

RULESETS_WITHOUT_WILDS = ("mcr", "guangdong")


def counts42(tiles: str) -> list[int]:
    return T.counts(T.parse(tiles), T.N_TILES)


@pytest.mark.parametrize("ruleset", RULESETS_WITHOUT_WILDS)
@pytest.mark.parametrize("hand, flowers, melds, complete", [
    ("123m456m789p111z55s", "1f", (), True),  # 4 sets + pair beside a flower (春)
    ("123m456m789p111z55s", "1f5f8f", (), True),  # three flowers: still the same hand
    ("11223344556677z", "2f", (), True),  # 七对 of honours beside a flower
    ("119m19p19s1234567z", "3f", (), True),  # 十三幺 beside a flower
    ("123m456m789p111z5s", "1f", (), False),  # 13 tiles and a flower: the flower is no 14th tile
    ("123m456m789p111z56s", "1f", (), False),  # no pair: a flower does not make one
    ("456m789p111z55s", "4f", ("123m",), True),  # with a meld
])
def test_the_flower_counts_of_42_are_no_tiles_of_the_hand(ruleset, hand, flowers, melds, complete):
    rs = RULESETS[ruleset]({})
    m = tuple(Meld.chi(T.parse(t)[0], claimed=T.parse(t)[0], source=3) for t in melds)
    with_flowers = counts42(hand + flowers)
    assert len(with_flowers) == 42 and any(with_flowers[T.FLOWER0:])
    assert rs.is_complete(with_flowers, m, frozenset()) is complete
    # the same answer as the 34 counts of the hand without its flowers, and as its tiles
    assert rs.is_complete(with_flowers[:34], m, frozenset()) is complete
    assert rs.is_complete(T.parse(hand), m, frozenset()) is complete


@pytest.mark.parametrize("ruleset", RULESETS_WITHOUT_WILDS)
def test_42_counts_without_a_flower_answer_as_34(ruleset):
    rs = RULESETS[ruleset]({})
    for hand in ("123m456m789p111z55s", "123m456m789p111z56s", "119m19p19s1234567z"):
        assert rs.is_complete(counts42(hand), (), frozenset()) is rs.is_complete(counts42(hand)[:34], (), frozenset())
