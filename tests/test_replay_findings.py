"""Every replay finding code: a log where it fires, and the clean log where it must not."""

from __future__ import annotations

import copy

import pytest

from mahjong_audit.engine.findings import CODES, Kind
from tests.logbuild import (
    NINE_GATES_DEAL,
    ROB_DEAL,
    ROB_LINES,
    audit,
    codes,
    game,
    hand,
    with_outcomes,
)

D = NINE_GATES_DEAL


def clean_game():
    return with_outcomes(game(hand(D, "0 discard 5p", "1 win 5p from 0")))


def test_clean_game_has_no_findings():
    assert codes(clean_game()) == []


def test_clean_game_pays_the_winner():
    facts = audit(clean_game()).hands[0]
    assert facts.result == "win"
    win = facts.wins[0]
    assert (win.seat, win.from_seat, win.win_type) == (1, 0, "discard")
    fan = win.score.total
    assert facts.computed_deltas == (-(8 + fan), 3 * 8 + fan, -8, -8)


def fires(g, code):
    found = codes(g)
    assert code in found, found
    return found


# --- tile conservation --------------------------------------------------------------

def test_fifth_copy_in_the_deal():
    g = clean_game()
    g["hands"][0]["deal"][2][0] = "1p"  # seat 1 already holds three 1p, dealer none: 4 + … make five
    g["hands"][0]["deal"][3][0] = "1p"
    fires(g, "tile_conservation/too_many_copies")


def test_deal_size_and_dead_hand():
    g = clean_game()
    g["hands"][0]["deal"][2].pop()
    found = fires(g, "tile_conservation/deal_size")
    assert "dead_hand/too_few" in found


def test_wall_mismatch_and_exhausted():
    g = with_outcomes(game(hand(D, "0 discard 1z", "1 draw 9s", "1 discard 9s", "2 draw 1s", "2 discard 1s",
                                wall=["9s"])))
    found = codes(g)
    assert "tile_conservation/wall_exhausted" in found
    g2 = copy.deepcopy(g)
    g2["hands"][0]["wall"] = ["8s", "1s"]
    assert "tile_conservation/wall_mismatch" in codes(g2)


def test_wall_matching_draws_are_clean():
    g = with_outcomes(game(hand(D, "0 discard 1z", "1 draw 9s", "1 discard 9s", "2 draw 1s", "2 discard 1s",
                                wall=["9s", "1s"])))
    assert codes(g) == []


def test_flower_not_in_a_flowerless_set():
    g = game(hand(["5p123m456m789m112z1f", "1112345678999p", "123456789s1234z", "123456789m5566z"],
                  "0 flower 1f", "0 draw 2z back", "0 discard 5p", "1 win 5p from 0"), options={"flowers": False})
    fires(with_outcomes(g), "tile_conservation/not_in_set")


def test_flowers_replaced_are_clean():
    g = game(hand(["5p123m456m789m112z1f", "1112345678999p", "123456789s1234z", "123456789m5566z"],
                  "0 flower 1f", "0 draw 2z back", "0 discard 5p", "1 win 5p from 0"))
    assert codes(with_outcomes(g)) == []


# --- turn order ---------------------------------------------------------------------

def test_wrong_seat_draws():
    g = with_outcomes(game(hand(D, "0 discard 1z", "2 draw 9s", "2 discard 9s")))
    found = fires(g, "turn_order/wrong_seat")
    assert "dead_hand/too_few" not in found


def test_event_after_the_end():
    g = with_outcomes(game(hand(D, "0 discard 5p", "1 win 5p from 0", "2 draw 1s")))
    fires(g, "turn_order/after_end")


def test_missing_replacement_after_kong():
    g = with_outcomes(game(hand(["1111p23m456m789m11z", "2223345678999p", "123456789s1234z", "123456789m5566z"],
                                "0 concealed_kong 1p", "0 discard 1z")))
    found = fires(g, "turn_order/missing_replacement")
    assert "dead_hand/too_few" in found


def test_kong_with_replacement_is_clean():
    g = with_outcomes(game(hand(["1111p23m456m789m11z", "2223345678999p", "123456789s1234z", "123456789m5566z"],
                                "0 concealed_kong 1p", "0 draw 3z back", "0 discard 1z")))
    assert codes(g) == []


# --- calls ----------------------------------------------------------------------------

CALL_DEAL = ["1z123m456m789m1199p", "1122z34m56p6789s9s", "123456789s1234z", "123456789m5566z"]


def test_chi_from_the_left_is_clean():
    g = with_outcomes(game(hand(CALL_DEAL, "0 discard 2m", "1 chi 2m 34m from 0", "1 discard 1z")))
    assert codes(g) == []


def test_chi_not_from_the_left():
    deal = ["1z123m456m789m1199p", "1122z34m56p6789s9s", "123456789s1234z", "12345679m55666z"]
    g = with_outcomes(game(hand(deal, "0 discard 8m", "2 chi 8m 79m from 0", "2 discard 1z")))
    fires(g, "illegal_call/not_left_player")


def test_chi_not_a_sequence_and_not_held():
    g = with_outcomes(game(hand(CALL_DEAL, "0 discard 2m", "1 chi 2m 35m from 0", "1 discard 1z")))
    found = fires(g, "illegal_call/not_a_sequence")
    assert "illegal_call/tiles_not_held" in found


def test_call_on_wrong_tile_and_own_discard():
    g = with_outcomes(game(hand(CALL_DEAL, "0 discard 2m", "1 chi 3m 34m from 0", "1 discard 1z")))
    fires(g, "illegal_call/wrong_tile")
    g2 = with_outcomes(game(hand(CALL_DEAL, "0 discard 9p", "0 pon 9p from 0", "0 discard 1z")))
    fires(g2, "illegal_call/own_discard")


PON_DEAL = ["9p123m456m789m1199p", "1122z34m56p6789s9p", "123456789s1234z", "123456789m5566z"]


def test_kong_after_pon_and_adding_without_a_pon():
    deal = ["2z123m456m789m1199p", "1111z22z3m56p6789s", "123456789s3344z", "123456789m5566z"]
    g = with_outcomes(game(hand(deal, "0 discard 2z", "1 pon 2z from 0", "1 concealed_kong 1z",
                                "1 draw 5z back", "1 discard 5z")))
    assert codes(g) == ["illegal_call/kong_after_call"]
    g2 = with_outcomes(game(hand(CALL_DEAL, "0 discard 2m", "1 draw 7z", "1 added_kong 7z", "1 draw 5z back",
                                 "1 discard 5z")))
    fires(g2, "illegal_call/no_pon_to_add")


def test_pon_then_discard_is_clean():
    deal = ["2z123m456m789m1199p", "11122z3m56p6789s9p", "123456789s134z3z", "123456789m5566z"]
    g = with_outcomes(game(hand(deal, "0 discard 2z", "1 pon 2z from 0", "1 discard 3m")))
    assert codes(g) == []


def test_discard_not_held():
    g = with_outcomes(game(hand(D, "0 discard 7z")))
    fires(g, "illegal_discard/not_held")


def test_draw_twice_is_too_many():
    g = with_outcomes(game(hand(D, "0 discard 1z", "1 draw 9s", "1 draw 8s", "1 discard 9s")))
    fires(g, "dead_hand/too_many")


# --- wins -------------------------------------------------------------------------------

def test_false_win_incomplete_and_penalty():
    g = with_outcomes(game(hand(D, "0 discard 1z", "1 win 1z from 0", "1 draw 9s", "1 discard 9s")))
    found = fires(g, "false_win/incomplete")
    facts = audit(g).hands[0]
    assert facts.false_wins == (1,)
    assert facts.computed_deltas == (10, -30, 10, 10)
    assert "turn_order/after_end" not in found


def test_false_win_by_dead_hand():
    g = clean_game()
    g["hands"][0]["deal"][1].pop()  # seat 1 is short: 相公
    found = fires(g, "false_win/dead_hand")
    assert "dead_hand/too_few" in found


def test_barred_after_false_win():
    g = with_outcomes(game(hand(D, "0 discard 1z", "1 win 1z from 0", "1 draw 9s", "1 discard 9s",
                                "2 draw 5p", "2 discard 5p", "1 win 5p from 2")))
    fires(g, "false_win/no_win_allowed")


def test_win_on_wrong_tile():
    g = with_outcomes(game(hand(D, "0 discard 5p", "1 win 6p from 0")))
    fires(g, "false_win/wrong_tile")


# --- claim priority ---------------------------------------------------------------------

PRIORITY_DEAL = ["5p123m456m789m1122z", "1112345678999p", "55p123456789s12z", "123456789m5566z"]


def test_pon_over_declared_win():
    g = with_outcomes(game(hand(PRIORITY_DEAL, "0 discard 5p claims 1:win,2:pon", "2 pon 5p from 0", "2 discard 1z")))
    fires(g, "claim_priority/ignored_win")


def test_declared_claims_in_order_are_clean():
    g = with_outcomes(game(hand(PRIORITY_DEAL, "0 discard 5p claims 1:win,2:pon", "1 win 5p from 0")))
    assert codes(g) == []


def test_seat_order_among_wins():
    deal = ["5p123m456m789m1122z", "1112345678999p", "123456789s1234z", "111222333m777s5p"]
    g = with_outcomes(game(hand(deal, "0 discard 5p claims 1:win,3:win", "1 win 5p from 0")))
    assert codes(g) == []
    g["hands"][0]["events"][1] = {"seq": 2, "type": "win", "seat": 3, "tile": "5p", "from": 0}
    fires(g, "claim_priority/seat_order")


def test_undeclared_call_is_a_warning():
    g = with_outcomes(game(hand(PRIORITY_DEAL, "0 discard 5p claims 1:win", "1 win 5p from 0")))
    g["hands"][0]["events"][0]["claims"] = [{"seat": 2, "call": "pon"}]
    found = audit(g).findings
    assert any(f.code == "claim_priority/undeclared" and f.severity == "warning" for f in found)


def test_lower_call_over_pon():
    deal = ["4m123m56m789m1122z9p", "1112345678999p", "44m123456789s12z", "35m1234567s5566z"]
    g = with_outcomes(game(hand(deal, "0 discard 4m claims 2:pon,3:chi", "3 chi 4m 35m from 0", "3 discard 1s")))
    found = codes(g)
    assert "claim_priority/lower_call" in found


# --- recorded outcome --------------------------------------------------------------------

def test_changed_delta_is_payout_mismatch():
    g = clean_game()
    g["hands"][0]["outcome"]["deltas"][2] -= 1
    g["hands"][0]["outcome"]["deltas"][1] += 1
    found = fires(g, "payout_mismatch/delta")
    assert "payout_mismatch/not_zero_sum" not in found


def test_deltas_not_zero_sum():
    g = clean_game()
    g["hands"][0]["outcome"]["deltas"][2] -= 1
    fires(g, "payout_mismatch/not_zero_sum")


def test_changed_fans_and_total():
    g = clean_game()
    score = g["hands"][0]["outcome"]["wins"][0]["score"]
    score["fans"][0][1] += 1
    score["total"] += 1
    found = fires(g, "score_mismatch/fans")
    assert "score_mismatch/total" in found


def test_outcome_result_winners_missing():
    g = clean_game()
    g["hands"][0]["outcome"]["wins"][0]["seat"] = 2
    fires(g, "outcome_mismatch/winners")
    g2 = clean_game()
    g2["hands"][0]["outcome"]["result"] = "draw"
    fires(g2, "outcome_mismatch/result")
    g3 = clean_game()
    del g3["hands"][0]["outcome"]
    fires(g3, "outcome_mismatch/missing")


# --- continuity -----------------------------------------------------------------------------

def two_hand_game():
    h0 = hand(D, "0 discard 5p", "1 win 5p from 0")
    deal1 = [D[3], D[0], D[1], D[2]]
    h1 = hand(deal1, "1 discard 5p", "2 win 5p from 1", hand_no=1, dealer=1)
    return with_outcomes(game(h0, h1, initial_scores=[0, 0, 0, 0]))


def test_two_hands_are_continuous():
    g = two_hand_game()
    fin = [0, 0, 0, 0]
    for h in g["hands"]:
        fin = [a + b for a, b in zip(fin, h["outcome"]["deltas"], strict=True)]
    g["final_scores"] = fin
    assert codes(g) == []
    g["final_scores"] = [x + 1 for x in fin[:3]] + [fin[3] - 3]
    fires(g, "continuity/final_scores")


def test_hand_number_dealer_round_wind():
    g = two_hand_game()
    g["hands"][1]["hand_no"] = 2
    fires(g, "continuity/hand_no")
    g = two_hand_game()
    g["hands"][1]["round_wind"] = "S"
    fires(g, "continuity/round_wind")
    g = two_hand_game()
    g["hands"][1]["dealer"] = 2
    fires(g, "continuity/dealer")


def test_every_code_has_a_kind():
    for code in CODES:
        Kind(code.split("/")[0])


@pytest.mark.parametrize("opt", [{"nonsense": 1}, {"min_fan": "eight"}])
def test_unknown_or_bad_option_is_a_schema_error(opt):
    from pydantic import ValidationError

    from mahjong_audit.schemas.log import Game
    with pytest.raises(ValidationError):
        Game.model_validate(game(hand(D, "0 discard 5p"), options=opt))


def test_ignored_win_where_several_winners_are_allowed():
    # guangdong allows several winners: a declared win that is not carried out is reported
    deal = ["58p123m789m567p59s1z", "123m456m789s1134p", "123456789s3477p", "123m456m789s11z46p"]
    both = game(hand(deal, "0 discard 5p claims 1:win,2:win", "1 win 5p from 0", "2 win 5p from 0"),
                ruleset="guangdong")
    assert codes(with_outcomes(both)) == []
    one = game(hand(deal, "0 discard 5p claims 1:win,2:win", "1 win 5p from 0"), ruleset="guangdong")
    found = [f for f in audit(with_outcomes(one)).findings]
    assert [(f.code, f.seat) for f in found] == [("claim_priority/ignored_win", 2)]


def test_robbing_an_added_kong_is_a_win_on_the_kongers_discard():
    from mahjong_audit.engine.replay import HandReplay
    from mahjong_audit.schemas.log import Game

    g = with_outcomes(game(hand(ROB_DEAL, *ROB_LINES)))
    assert codes(g) == []
    facts = audit(g).hands[0]
    win = facts.wins[0]
    assert (win.seat, win.from_seat, win.win_type) == (1, 0, "robbing_kong")
    assert "抢杠和" in [i.name for i in win.score.items]
    assert facts.computed_deltas[0] == -(8 + win.score.total)
    # the robbed kong was never made: the konger keeps a pon
    replay = HandReplay(__import__("mahjong_audit.engine.rulesets", fromlist=["get"]).get("mcr"),
                        Game.model_validate(g).hands[0], 0)
    replay.run()
    assert [str(m) for m in replay.seats[0].melds] == ["p:555s"]


def test_robbing_a_concealed_kong_is_not_allowed():
    deal = ["5555s123m456m789m1z", "123p456p789p11z46s", "123456789m2345z", "111222333s777z9s"]
    g = with_outcomes(game(hand(deal, "0 concealed_kong 5s", "1 win 5s from 0 rob")))
    assert codes(g) == ["false_win/wrong_tile"]
