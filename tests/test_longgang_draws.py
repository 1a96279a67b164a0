"""龙港麻将 abortive draws (option ``abortive_draws``) through whole replayed hands: each
draw fires with its option on, and does not fire without it or when its condition fails."""

from __future__ import annotations

import pytest

from mahjong_audit.engine.ruleset import OptionError
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests.longgang_build import HandBuilder, audit, codes

DRAW = {"result": "draw", "deltas": [0, 0, 0, 0]}


def opts(*names: str) -> dict:
    return {"abortive_draws": list(names)}


def assert_abortive(res, reason: str) -> None:
    facts = res.hands[0]
    assert codes(res) == []
    assert facts.result == "draw" and facts.draw_reason == reason
    assert facts.computed_deltas == (0, 0, 0, 0)


def test_option_is_checked_and_off_by_default():
    assert not Longgang().checks_abortive_draws
    assert Longgang(opts("four_kongs")).checks_abortive_draws
    with pytest.raises(OptionError):
        Longgang(opts("five_kongs"))


# ---------------------------------------------------------------- 四同风 / 四风连和

WIND_DEAL = (
    "1z123m456m789m123p4567s",  # seat 0, 17 tiles, one 东
    "1z234p789p234s33z66z77z",  # seat 1
    "1z111m999m666p888p99s6s",  # seat 2
    "1z444m666m777p333s222z",  # seat 3
)


def four_winds(last: str = "1z") -> HandBuilder:
    b = HandBuilder(deal=WIND_DEAL, keep="1z")
    b.discard(0, "1z")
    for s in (1, 2):
        b.draw(s).discard(s, "1z")
    b.draw(3).discard(3, last)
    return b


def test_four_winds_ends_the_hand_as_a_draw():
    res = audit(four_winds().hand(outcome=DRAW), options=opts("four_winds"))
    assert_abortive(res, "four_winds")


def test_four_winds_play_after_it_is_after_end():
    res = audit(four_winds().idle(1).hand(outcome=DRAW), options=opts("four_winds"))
    assert res.hands[0].result == "draw" and codes(res) == ["turn_order/after_end"]


def test_four_winds_does_not_fire_without_the_option_or_with_another_tile():
    res = audit(four_winds().idle(2).hand(), options=opts())
    assert codes(res) == [] and res.hands[0].result == "unfinished" and res.hands[0].draw_reason is None
    b = four_winds(last="3s")
    res = audit(b.idle(2).hand(), options=opts("four_winds"))
    assert codes(res) == [] and res.hands[0].result == "unfinished"


# ---------------------------------------------------------------- 四杠 / 四杠和

KONG_DEAL = (
    "1111m2222m123p456p9s3z4z",  # seat 0: two kongs to declare
    "3333m4444m789p123s77z",  # seat 1: two kongs, then 789s wins on the last replacement
    "234p678p88s111z222z9p6z",  # seat 2
    "567m678m345s567s33z1p2s",  # seat 3
)


def kongs(seat1_discard: bool = True) -> HandBuilder:
    b = HandBuilder(deal=KONG_DEAL, keep="7s8s9s7z")
    b.ev("concealed_kong", 0, tile="1m").draw(0, back=True)
    b.ev("concealed_kong", 0, tile="2m").draw(0, back=True)
    b.discard(0, "9s")
    b.draw(1, "9s").ev("concealed_kong", 1, tile="3m").draw(1, "7s", back=True)
    b.ev("concealed_kong", 1, tile="4m")
    if seat1_discard:
        b.draw(1, back=True)
        b.discard(1, b.last)
    else:
        b.draw(1, "8s", back=True)
    return b


def test_four_kongs_by_two_seats_end_the_hand_after_a_safe_discard():
    res = audit(kongs().hand(outcome=DRAW), options=opts("four_kongs"))
    assert_abortive(res, "four_kongs")
    res = audit(kongs().idle(1).hand(outcome=DRAW), options=opts("four_kongs"))
    assert res.hands[0].result == "draw" and codes(res) == ["turn_order/after_end"]


def test_four_kongs_win_on_the_fourth_replacement_is_a_draw():
    b = kongs(seat1_discard=False).win(1, "8s", 1)
    res = audit(b.hand(outcome=DRAW), options=opts("four_kongs"))
    assert_abortive(res, "four_kongs")


def test_four_kongs_do_not_fire_without_the_option():
    res = audit(kongs().idle(2).hand(), options=opts())
    assert codes(res) == [] and res.hands[0].result == "unfinished"
    b = kongs(seat1_discard=False).win(1, "8s", 1)
    res = audit(b.hand(), options=opts())  # the 杠上开花 is a plain win
    assert res.hands[0].result == "win" and res.hands[0].wins[0].legal


def test_four_kongs_by_one_seat_do_not_fire():
    deal = ("1111m2222m3333m4444m9s", "555m999m789p123s77z1s2s", *KONG_DEAL[2:])
    b = HandBuilder(deal=deal)
    for t in ("1m", "2m", "3m", "4m"):
        b.ev("concealed_kong", 0, tile=t).draw(0, back=True)
    b.discard(0, "9s").idle(3)
    res = audit(b.hand(), options=opts("four_kongs"))
    assert codes(res) == [] and res.hands[0].result == "unfinished"


# ---------------------------------------------------------------- 三炮同响 / 一炮三响

def three_claims(n: int) -> list[dict]:
    return [{"seat": s, "call": "win"} for s in (1, 2, 3)[:n]]


def test_three_wins_on_one_discard_are_a_draw():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(3)
    b.draw(0).discard(0, "7z", claims=three_claims(3))
    res = audit(b.hand(outcome=DRAW), options=opts("three_wins"))
    assert_abortive(res, "three_wins")
    b.win(1, "7z", 0)  # a win carried out anyway comes after the end
    res = audit(b.hand(outcome=DRAW), options=opts("three_wins"))
    assert res.hands[0].result == "draw" and codes(res) == ["turn_order/after_end"]


def test_one_declared_win_is_a_win():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(3)
    b.draw(0).discard(0, "7z", claims=three_claims(1)).win(1, "7z", 0)
    res = audit(b.hand(), options=opts("three_wins"))
    assert codes(res) == [] and res.hands[0].result == "win" and res.hands[0].draw_reason is None


def test_three_wins_do_not_fire_without_the_option():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(3)
    b.draw(0).discard(0, "7z", claims=three_claims(3))
    res = audit(b.hand(), options=opts())
    assert res.hands[0].result != "draw" and res.hands[0].draw_reason is None


# ---------------------------------------------------------------- 九么九和

NINE_DEAL = (
    "19m19p1s1z2z3z4z6z345s678s2m",  # seat 0: 1m 9m 1p 9p 1s 东南西北 发 = 10 kinds
    "123m456m789p123s456s7z",
    "234m567m234p678p88s9s1p",
    "19m19p1s1z2z3z678s234s9s8p",  # seat 3: 1m 9m 1p 9p 1s 9s 东南西 = 9 kinds
)


def test_nine_terminals_declared_by_the_dealer_after_the_deal():
    b = HandBuilder(deal=NINE_DEAL)
    res = audit(b.hand(outcome=DRAW), options=opts("nine_terminals"))
    assert_abortive(res, "nine_terminals")


def test_nine_terminals_declared_by_a_non_dealer_after_its_first_draw():
    b = HandBuilder(deal=NINE_DEAL, keep="2m")
    b.discard(0, "2m").idle(2).draw(3)
    res = audit(b.hand(outcome=DRAW), options=opts("nine_terminals"))
    assert_abortive(res, "nine_terminals")


def test_nine_terminals_does_not_fire_with_eight_kinds_after_a_discard_or_without_the_option():
    eight = ("19m19p2m1z2z3z6z345s678s22m", *NINE_DEAL[1:])
    res = audit(HandBuilder(deal=eight).hand(outcome=DRAW), options=opts("nine_terminals"))
    assert res.hands[0].result == "unfinished" and "outcome_mismatch/result" in codes(res)
    b = HandBuilder(deal=NINE_DEAL, keep="2m").discard(0, "2m")  # seat 0 has discarded: too late
    res = audit(b.hand(outcome=DRAW), options=opts("nine_terminals"))
    assert res.hands[0].result == "unfinished"
    res = audit(HandBuilder(deal=NINE_DEAL).hand(outcome=DRAW), options=opts())
    assert res.hands[0].result == "unfinished" and res.hands[0].draw_reason is None


# ---------------------------------------------------------------- the hand after, and the hook itself

def test_the_deal_passes_on_after_an_abortive_draw():
    h0 = four_winds().hand(0, outcome=DRAW)
    stays = HandBuilder(keep="7z2z")
    stays.discard(0, "2z").idle(3)
    passes = HandBuilder(keep="7z2z", dealer=1)
    passes.discard(1, "2z").idle(3)
    assert "continuity/dealer" in codes(audit(h0, stays.hand(1), options=opts("four_winds")))
    assert "continuity/dealer" not in codes(audit(h0, passes.hand(1), options=opts("four_winds")))


def test_no_table_view_is_built_when_no_draw_is_enabled(monkeypatch):
    from mahjong_audit.engine.replay import HandReplay

    def refuse(self, stage, ev):
        raise AssertionError("table view built")

    monkeypatch.setattr(HandReplay, "table_view", refuse)
    res = audit(four_winds().idle(2).hand(), options=opts())
    assert codes(res) == []


def test_the_view_is_frozen_and_complete():
    from dataclasses import FrozenInstanceError

    seen = []

    class Watch(Longgang):
        checks_abortive_draws = True

        def abortive_draw(self, view):
            seen.append(view)
            return None

    from mahjong_audit.engine.audit import audit_hand
    from tests.longgang_build import game

    hand = game(kongs().hand()).hands[0]
    audit_hand(Watch(), hand)
    last = seen[-1]
    assert last.stage == "log_end" and last.discards_made == 2 and last.kongs == ((0, 0), (0, 0), (1, 1), (1, 1))
    assert [len(d) for d in last.dealt] == [17, 16, 16, 16]
    assert {v.stage for v in seen} == {"event", "claims_closed", "log_end"}
    with pytest.raises(FrozenInstanceError):
        last.stage = "event"
