"""广东 / 贵港: whole hands replayed through the engine (tests/logbuild builds the logs).

Clean hands give no findings and the expected deltas; the faulty ones (a win by a seat
not allowed to win, a wrong payout, a 包胡 the platform ignored) give their findings."""

from __future__ import annotations

import copy

from tests.logbuild import audit, codes, game, hand, with_outcomes

# Dealer 0 discards 5p. Seat 1 (123m456m789s11p34p), seat 2 (123456789s34p77p) and
# seat 3 (123m456m789s11z46p) all win on it.
TRIPLE = ["58p123m789m567p59s1z", "123m456m789s1134p", "123456789s3477p", "123m456m789s11z46p"]


def gd(*hands, **options):
    return game(*hands, ruleset="guangdong", options=options)


def deltas(g, hand_no=0):
    return audit(g).hands[hand_no].computed_deltas


def single_win():
    return with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 win 5p from 0")))


def test_single_discard_win_clean():
    g = single_win()
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert [(i.name, i.value) for i in facts.wins[0].score.items] == [("平胡", 2)]
    assert facts.computed_deltas == (-4, 4, 0, 0)


def test_multiple_win_every_winner_scored_at_least_five():
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p claims 1:win,2:win", "1 win 5p from 0", "2 win 5p from 0")))
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert [(w.seat, w.score.total) for w in facts.wins] == [(1, 5), (2, 5)]
    assert facts.computed_deltas == (-64, 32, 32, 0)


def test_multiple_win_first_winner_is_not_a_dead_hand():
    # regression: the first winner holds 14 tiles while the window is still open
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", "2 win 5p from 0", "3 win 5p from 0")))
    assert codes(g) == []
    assert deltas(g) == (-96, 32, 32, 32)


def test_multiple_win_minimum_from_three_winners_option():
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", "2 win 5p from 0"), multiple_win_from=3))
    assert deltas(g) == (-8, 4, 4, 0)


def test_win_by_a_seat_the_order_does_not_pick_without_multiple_winners():
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p claims 1:win,2:win", "2 win 5p from 0"), multiple_winners=False))
    assert codes(g) == ["claim_priority/seat_order"]
    # with several winners allowed, seat 2 may take the 5p too
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p claims 1:win,2:win", "1 win 5p from 0", "2 win 5p from 0")))
    assert codes(g) == []


def test_second_winner_after_the_hand_ended_without_multiple_winners():
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 win 5p from 0"), multiple_winners=False))
    g["hands"][0]["events"].append({"seq": 3, "type": "win", "seat": 2, "tile": "5p", "from": 0})
    assert codes(g) == ["turn_order/after_end"]


def test_win_by_a_seat_barred_after_its_false_win():
    # seat 3 declares a false win on 8p (46p waits on 5p), then "wins" the 5p later
    g = with_outcomes(gd(hand(
        TRIPLE, "0 discard 8p", "3 win 8p from 0", "1 draw 1z", "1 discard 1z", "2 draw 2z", "2 discard 2z",
        "3 draw 3z", "3 discard 3z", "0 draw 4z", "0 discard 5p", "3 win 5p from 0")))
    found = codes(g)
    assert found.count("false_win/incomplete") == 1 and "false_win/no_win_allowed" in found
    assert deltas(g) == (64, 64, 64, -192)  # each false declaration pays the penalty; no legal win


def test_wrong_payout_discarder_only():
    g = single_win()
    g["hands"][0]["outcome"]["deltas"] = [-4, 12, -4, -4]  # charged like a self-draw
    assert codes(g).count("payout_mismatch/delta") == 3


def test_wrong_score_total_beyond_the_cap():
    g = with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", "2 win 5p from 0")))
    g["hands"][0]["outcome"]["wins"][0]["score"]["total"] = 2  # the platform forgot 一炮多响
    assert "score_mismatch/total" in codes(g)


# --- 包胡: seat 1 pons 1m, 2m and 3m from seat 0, then wins -----------------------------
BAO_DEAL = ["123m567m567p56s89s8p", "112233m456p7s123z", "123456789m1247p", "123456789s147p4z"]
BAO_EVENTS = (
    "0 discard 1m", "1 pon 1m from 0", "1 discard 1z",
    "2 draw 5z", "2 discard 5z", "3 draw 6z", "3 discard 6z", "0 draw 7z", "0 discard 2m",
    "1 pon 2m from 0", "1 discard 2z",
    "2 draw 5z", "2 discard 5z", "3 draw 6z", "3 discard 6z", "0 draw 7z", "0 discard 3m",
    "1 pon 3m from 0", "1 discard 3z",
)


def bao_self_drawn():
    return with_outcomes(gd(hand(BAO_DEAL, *BAO_EVENTS, "2 draw 5z", "2 discard 5z", "3 draw 6z", "3 discard 6z",
                                 "0 draw 7z", "0 discard 7z", "1 draw 7s", "1 win 7s from 1")))


def test_bao_self_drawn_the_feeder_pays_all():
    g = bao_self_drawn()
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert [(i.name, i.value) for i in facts.wins[0].score.items] == [("鸡胡", 1), ("自摸", 1)]
    assert facts.computed_deltas == (-12, 12, 0, 0)


def test_bao_discard_win_the_feeder_pays_not_the_discarder():
    g = with_outcomes(gd(hand(BAO_DEAL, *BAO_EVENTS, "2 draw 7s", "2 discard 7s", "1 win 7s from 2")))
    assert codes(g) == []
    assert deltas(g) == (-2, 2, 0, 0)


def test_bao_payout_ignored_by_the_platform():
    g = bao_self_drawn()
    g["hands"][0]["outcome"]["deltas"] = [-4, 12, -4, -4]
    found = codes(g)
    assert found.count("payout_mismatch/delta") == 3


# --- minimum situations in play ------------------------------------------------------

def test_kong_replacement_win_is_worth_five():
    deal = ["234m567m567p56s89s8p", "111m456p789s2345m", "123456789s1247p", "234567899p1234z"]
    g = with_outcomes(gd(hand(deal, "0 discard 8p", "1 draw 1m", "1 concealed_kong 1m", "1 draw 5m from back",
                              "1 win 5m from 1")))
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert facts.wins[0].win_type == "kong_replacement" and facts.wins[0].score.total == 5
    assert facts.computed_deltas == (-32, 96, -32, -32)


def test_last_tile_self_drawn_is_worth_five():
    h = hand(TRIPLE, "0 discard 1z", "1 draw 5p", "1 win 5p from 1", wall=["5p"])
    g = with_outcomes(gd(h))
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert facts.wins[0].last_tile and facts.wins[0].score.total == 5


def test_chi_only_from_the_left_player():
    assert codes(with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "1 chi 5p 34p from 0", "1 discard 1p")))) == []
    found = codes(with_outcomes(gd(hand(TRIPLE, "0 discard 5p", "2 chi 5p 34p from 0", "2 discard 7p"))))
    assert found == ["illegal_call/not_left_player"]


ROTATED = [TRIPLE[3], TRIPLE[0], TRIPLE[1], TRIPLE[2]]  # the same hand with seat 1 dealing


def test_dealer_passes_after_a_non_dealer_win():
    h0 = hand(TRIPLE, "0 discard 5p", "1 win 5p from 0")
    h1 = hand(ROTATED, "1 discard 5p", "2 win 5p from 1", hand_no=1, dealer=1)
    assert codes(with_outcomes(gd(h0, h1))) == []
    stay = hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", hand_no=1, dealer=0)
    assert codes(with_outcomes(gd(copy.deepcopy(h0), stay))) == ["continuity/dealer"]


def test_dealer_stays_after_a_draw_and_after_its_own_win():
    drawn = hand(TRIPLE, "0 discard 1z", "1 draw 1z", "1 discard 1z", wall=["1z"])
    again = hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", hand_no=1, dealer=0)
    assert codes(with_outcomes(gd(drawn, again))) == []
    own = hand(["123m456m789s11z555s", *TRIPLE[1:]], "0 win 5s from 0")  # the dealer wins on its deal
    facts = audit(with_outcomes(gd(own))).hands[0]
    assert facts.computed_deltas == (12, -4, -4, -4)  # 鸡胡 + 自摸 = 2 fan, 4 from each
    again = hand(TRIPLE, "0 discard 5p", "1 win 5p from 0", hand_no=1, dealer=0)
    assert codes(with_outcomes(gd(copy.deepcopy(own), again))) == []
    moved = hand(ROTATED, "1 discard 5p", "2 win 5p from 1", hand_no=1, dealer=1)
    assert codes(with_outcomes(gd(own, moved))) == ["continuity/dealer"]


def test_a_flower_is_not_in_the_set():
    deal = list(TRIPLE)
    deal[2] = "123456789s347p1f"
    assert "tile_conservation/not_in_set" in codes(with_outcomes(gd(hand(deal, "0 discard 5p", "1 win 5p from 0"))))
    assert codes(single_win()) == []


def test_robbing_a_kong_the_kong_owner_pays():
    # seat 3 pons the dealer's 5p, later adds the fourth 5p; seat 1 (waiting on 2p/5p) robs it
    deal = ["58p123m789m678p59s1z", "123m456m789s1134p", "123456789s3477p", "123m456m789s55p1z9p"]
    g = with_outcomes(gd(hand(deal, "0 discard 5p", "3 pon 5p from 0", "3 discard 9p", "0 draw 2z", "0 discard 2z",
                              "1 draw 2z", "1 discard 2z", "2 draw 3z", "2 discard 3z", "3 draw 5p",
                              "3 added_kong 5p claims 1:win", "1 win 5p from 3 rob")))
    assert codes(g) == []
    facts = audit(g).hands[0]
    assert facts.wins[0].win_type == "robbing_kong" and facts.wins[0].score.total == 2
    assert facts.computed_deltas == (0, 4, 0, -4)


def test_ready_declaration_adds_one_fan_only_when_switched_on():
    lines = ("1 ready", "0 discard 5p", "1 win 5p from 0")
    plain = with_outcomes(gd(hand(TRIPLE, *lines)))
    assert [(i.name, i.value) for i in audit(plain).hands[0].wins[0].score.items] == [("平胡", 2)]
    on = with_outcomes(gd(hand(TRIPLE, *lines), additions=["自摸", "门风刻", "圈风刻", "箭刻", "报听"]))
    items = [(i.name, i.value) for i in audit(on).hands[0].wins[0].score.items]
    assert ("报听", 1) in items
    assert codes(on) == []


def test_false_winner_later_self_draws_a_real_win_is_still_barred():
    """docs/rules/guangdong.md, 诈胡: after a false declaration the seat plays on but may not
    win that hand; its later self-drawn 5p (a complete hand) is another false win and pays again."""
    g = with_outcomes(gd(hand(
        TRIPLE, "0 discard 8p", "3 win 8p from 0", "1 draw 1z", "1 discard 1z", "2 draw 2z", "2 discard 2z",
        "3 draw 5p", "3 win 5p from 3")))
    a = audit(g)
    assert [(f.code, f.seat) for f in a.findings if f.kind == "false_win"] == [
        ("false_win/incomplete", 3), ("false_win/no_win_allowed", 3)]
    assert a.hands[0].result == "unfinished"  # no legal win: the hand goes on (here the log stops)
    assert a.hands[0].computed_deltas == (64, 64, 64, -192)


def test_after_a_false_win_another_seat_still_wins_and_both_are_paid():
    """The false winner's penalty (32 to each other seat) and the later real win (seat 1's 平胡
    on the dealer's 5p: the dealer pays 4) are both in the hand's deltas."""
    g = with_outcomes(gd(hand(
        TRIPLE, "0 discard 8p", "3 win 8p from 0", "1 draw 1z", "1 discard 1z", "2 draw 2z", "2 discard 2z",
        "3 draw 3z", "3 discard 3z", "0 draw 4z", "0 discard 5p", "1 win 5p from 0")))
    a = audit(g)
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/incomplete", 3)]
    assert a.hands[0].result == "win" and a.hands[0].computed_deltas == (32 - 4, 32 + 4, 32, -96)
