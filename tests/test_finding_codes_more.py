"""Finding codes not covered by the replay or ruleset test files: each fires, and the clean
log it is built from does not."""

from __future__ import annotations

import copy

from tests.logbuild import LOW_DEAL, codes, game, hand, with_outcomes
from tests.longgang_build import HandBuilder, clean_win
from tests.longgang_build import audit as lg_audit
from tests.longgang_build import codes as lg_codes


def test_win_below_minimum():
    g = with_outcomes(game(hand(LOW_DEAL, "0 discard 5s", "1 win 5s from 0")))
    assert "false_win/below_minimum" in codes(g)
    g8 = with_outcomes(game(hand(LOW_DEAL, "0 discard 5s", "1 win 5s from 0"), options={"min_fan": 7}))
    assert codes(g8) == []


FLOWER = ["5p123m456m789m112z1f", "1112345678999p", "123456789s1234z", "123456789m5566z"]


def test_flower_discarded_instead_of_set_aside():
    bad = with_outcomes(game(hand(FLOWER, "0 discard 1f")))
    assert "illegal_discard/flower" in codes(bad)
    good = with_outcomes(game(hand(FLOWER, "0 flower 1f", "0 draw 2z back", "0 discard 5p", "1 win 5p from 0")))
    assert codes(good) == []


CHI = ["58p123m789m567p59s1z", "123m456m789s1134p", "123456789s3477p", "123m456m789s11z46p"]


def test_chi_where_the_table_plays_without_chi():
    lines = ("0 discard 5p", "1 chi 5p 34p from 0", "1 discard 1p")
    on = with_outcomes(game(hand(CHI, *lines), ruleset="guangdong"))
    assert codes(on) == []
    off = with_outcomes(game(hand(CHI, *lines), ruleset="guangdong", options={"chi": False}))
    assert codes(off) == ["illegal_call/not_allowed"]


def test_missing_wildcard_indicator():
    h = clean_win().hand()
    assert lg_codes(lg_audit(h)) == []
    del h["wildcard_indicator"]
    assert "tile_conservation/wildcard_indicator" in lg_codes(lg_audit(h))


def test_wild_tile_in_a_pon():
    # 5p is the indicator: the other 5p are wild; seat 1 holds two and pons the dealer's third
    deal = ("111z2z333z4z666z7z9m5p123s", "123m456m789p55p3s456s7z", "234m567m234p678p88s9s1p",
            "345m678m346p789s22z1p9s")
    b = HandBuilder(deal=deal, keep="7z2z")
    b.discard(0, "5p").ev("pon", 1, tile="5p", **{"from": 0}).discard(1, "3s")
    found = lg_codes(lg_audit(b.hand()))
    assert "illegal_call/wild_in_meld" in found
    clean = copy.deepcopy(clean_win().hand())
    assert "illegal_call/wild_in_meld" not in lg_codes(lg_audit(clean))
