"""龙港麻将 through whole replayed hands: small logs built with :class:`HandBuilder`, audited
with ``audit_game``. Each play rule is shown firing and not firing."""

from __future__ import annotations

from mahjong_audit.engine.rulesets.longgang import Longgang
from tests.longgang_build import DEAL, HandBuilder, audit, clean_win, codes

# ---------------------------------------------------------------- a clean hand

def test_clean_win_has_no_findings_and_pays():
    res = audit(clean_win().hand())
    assert codes(res) == []
    facts = res.hands[0]
    assert facts.result == "win" and facts.wins[0].seat == 1
    w = facts.wins[0].score
    assert dict(w.details)["hu"] == 22 and w.total == 50  # 中 pair 2 + base 20; 硬胡 1 台
    assert sum(facts.computed_deltas) == 0 and facts.computed_deltas[1] > 0
    seats = {i.seat for i in facts.seat_items}
    assert seats == {0, 1, 2, 3}  # every seat is scored
    units = {i.unit for i in facts.seat_items}
    assert {"hu", "tai", "total"} <= units


def test_recorded_outcome_matches_and_mismatches():
    res = audit(clean_win().hand())
    deltas = list(res.hands[0].computed_deltas)
    ok = clean_win().hand(outcome={"result": "win", "wins": [{"seat": 1, "from": 0, "tile": "7z",
                                   "score": {"hu": 22, "tai": 1, "total": 50}}], "deltas": deltas})
    assert codes(audit(ok)) == []
    bad = clean_win().hand(outcome={"result": "win", "wins": [{"seat": 1, "from": 0, "tile": "7z",
                                    "score": {"hu": 24, "tai": 1, "total": 60}}], "deltas": deltas})
    assert sorted(codes(audit(bad))) == ["score_mismatch/fans", "score_mismatch/total"]


def test_dealer_rotation():
    rs = Longgang()
    assert rs.next_dealer(0, [0], False) == 0
    assert rs.next_dealer(0, [2], False) == 1
    assert rs.next_dealer(3, [], True) == 0
    h0 = clean_win().hand(0)
    h1 = clean_win().hand(1)  # seat 1 won hand 0: the deal must pass to seat 1
    assert "continuity/dealer" in codes(audit(h0, h1))


# ---------------------------------------------------------------- seabed

def seabed_builder() -> HandBuilder:
    b = HandBuilder(keep="7z2z1z")
    b.discard(0, "2z").idle(46)  # 50 drawable: 46 ordinary draws, then 4 seabed tiles
    return b


def test_seabed_exhaustive_draw():
    b = seabed_builder()
    for s in (3, 0, 1, 2):
        b.draw(s)
    res = audit(b.hand(outcome={"result": "draw", "deltas": [0, 0, 0, 0]}))
    assert codes(res) == []
    assert res.hands[0].result == "draw" and res.hands[0].computed_deltas == (0, 0, 0, 0)


def test_seabed_win_is_self_drawn_last_tile():
    b = seabed_builder()
    b.draw(3).draw(0).draw(1, "7z").win(1, "7z", 1)
    res = audit(b.hand())
    assert codes(res) == []
    w = res.hands[0].wins[0]
    assert w.legal and w.win_type == "self_drawn" and w.last_tile


def test_seabed_discard_is_reported():
    b = seabed_builder()
    b.draw(3)
    b.discard(3, b.last)
    assert "turn_order/seabed" in codes(audit(b.hand()))


def test_no_seabed_before_the_last_four():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(45)
    b.draw(3)
    b.discard(3, b.last)  # still an ordinary turn: 5 tiles were left before this draw
    assert "turn_order/seabed" not in codes(audit(b.hand()))


def test_dead_wall_21_option_starts_seabed_one_draw_earlier():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(45)
    b.draw(3)
    b.discard(3, b.last)
    assert "turn_order/seabed" in codes(audit(b.hand(), options={"dead_wall": 21}))


# ---------------------------------------------------------------- 三财神 at any moment

def test_three_caishen_declared_outside_the_turn():
    deal = ("111z2z333z4z666z7z9m9p123s", "123m456m789p123s456s7z", "234m567m5p5p5p678p88s9s1p", "345m678m346p789s22z1p9s")
    b = HandBuilder(deal=deal)
    b.win(2, "5p", 2)  # before the dealer's first discard
    res = audit(b.hand())
    assert codes(res) == []
    facts = res.hands[0]
    assert facts.wins[0].score.total == 300
    assert facts.computed_deltas[2] == 72 + 42 + 42 - 0  # dealer 2×300+120, others 300+120 (in 10 胡 chips)


def test_outside_the_turn_without_three_caishen_is_wrong():
    b = HandBuilder()
    b.win(2, "5p", 2)
    assert "turn_order/wrong_seat" in codes(audit(b.hand()))


# ---------------------------------------------------------------- wild discards, 相公, flowers

def test_wild_discard_makes_the_seat_peida():
    deal = ("111z2z333z4z666z7z9m9p123s", "123m456m789p123s456s5p", "234m567m234p678p88s9s1p", "345m678m346p789s22z1p9s")
    b = HandBuilder(deal=deal, keep="7z2z")
    b.discard(0, "2z").draw(1).discard(1, "5p")
    res = audit(b.hand())
    assert "illegal_discard/wild" in codes(res)
    b.idle(2).draw(0).discard(0, "7z")
    b.events.append({"seq": len(b.events), "type": "win", "seat": 1, "tile": "7z", "from": 0})
    res = audit(b.hand())
    assert "false_win/no_win_allowed" in codes(res)
    assert res.hands[0].computed_deltas == (20, -40, 10, 10)  # 诈胡 by a non-dealer


def test_zuohua_discard_is_a_wild_discard():
    deal = ("111z2z333z4z666z7z9m9p12s1f", "123m456m789p123s456s7z", "234m567m234p678p88s9s1p", "345m678m346p789s22z1p9s")
    res = audit(HandBuilder(deal=deal).discard(0, "1f").hand())
    assert "illegal_discard/wild" in codes(res)


def test_missed_flower_is_xianggong():
    deal = ("111z2z333z4z666z7z9m9p12s2f", "123m456m789p123s456s7z", "234m567m234p678p88s9s1p", "345m678m346p789s22z1p9s")
    res = audit(HandBuilder(deal=deal).discard(0, "2z").hand())
    assert "dead_hand/missed_flower" in codes(res)
    ok = HandBuilder(deal=deal)
    ok.ev("flower", 0, tile="2f").draw(0, "8m", back=True).discard(0, "2z")
    assert "dead_hand/missed_flower" not in codes(audit(ok.hand()))
    kept = ("111z2z333z4z666z7z9m9p12s1f",) + deal[1:]  # 春 is the dealer's own flower: kept as a wild
    assert "dead_hand/missed_flower" not in codes(audit(HandBuilder(deal=kept).discard(0, "2z").hand()))


def test_xianggong_too_many_then_false_win():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").draw(1).draw(1)  # seat 1 draws twice: 大相公
    res = audit(b.hand())
    assert "dead_hand/too_many" in codes(res)


def test_false_win_incomplete_dealer_penalty():
    b = HandBuilder()
    b.win(0, "9m", 0)
    res = audit(b.hand())
    assert "false_win/incomplete" in codes(res)
    assert res.hands[0].computed_deltas == (-60, 20, 20, 20)


# ---------------------------------------------------------------- calls

def test_swap_call_forbidden_after_chi():
    # seat 2 holds 34m: chi 2m from seat 1 then discard 5m (other end) -> forbidden; 7m -> allowed
    b = HandBuilder(keep="2m5m")
    b.discard(0, "2z").draw(1, "2m").discard(1, "2m").ev("chi", 2, tile="2m", tiles=["3m", "4m"], **{"from": 1})
    bad = HandBuilder(keep="2m5m")
    bad.events, bad.turn = list(b.events), 2
    bad.discard(2, "5m")
    assert "illegal_discard/swap_call" in codes(audit(bad.hand()))
    b.discard(2, "7m")
    assert "illegal_discard/swap_call" not in codes(audit(b.hand()))


def test_kong_after_pon_forbidden():
    deal = ("111z2z333z4z666z7z9m9p123s", "123m456m789p123s456s7z", "234m567m234p678p88s9s1p", "345m678m3p2222s22z1p4p9s")
    b = HandBuilder(deal=deal)
    b.discard(0, "2z").ev("pon", 3, tile="2z", **{"from": 0}).ev("concealed_kong", 3, tile="2s")
    assert "illegal_call/kong_after_call" in codes(audit(b.hand()))


def test_passed_win_on_discard():
    # seat 1 waits on 7z. Seat 2 discards 7z (seat 1 passes); seat 3 discards 7z; seat 1 may not win on it.
    deal = ("111z2z333z4z666z9m9p123s1m", "123m456m789p123s456s7z", "234m567m234p678p88s7z1p", "345m678m346p789s27z1p9s")
    b = HandBuilder(deal=deal, keep="7z")
    b.discard(0, "2z").draw(1).discard(1, b.last).draw(2).discard(2, "7z").draw(3).discard(3, "7z").win(1, "7z", 3)
    assert "false_win/passed_win" in codes(audit(b.hand()))
    ok = HandBuilder(deal=deal, keep="7z")
    ok.discard(0, "2z").draw(1).discard(1, ok.last).draw(2).discard(2, "7z").win(1, "7z", 2)
    assert codes(audit(ok.hand())) == []


def test_passed_pon():
    # seat 3 holds 22z; seat 0 discards 2z, seat 3 does not pon; seat 1 discards 2z, seat 3 pons: forbidden
    deal = ("111z2z333z4z666z7z9m9p123s", "123m456m789p123s456s2z", "234m567m234p678p88s9s1p", "345m678m346p789s22z1p9s")
    b = HandBuilder(deal=deal)
    b.discard(0, "2z").draw(1).discard(1, "2z").ev("pon", 3, tile="2z", **{"from": 1})
    assert "illegal_call/passed_pon" in codes(audit(b.hand()))
    ok = HandBuilder(deal=deal)
    ok.discard(0, "2z").ev("pon", 3, tile="2z", **{"from": 0})
    assert "illegal_call/passed_pon" not in codes(audit(ok.hand()))


def test_earthly_win_on_the_dealers_first_discard():
    b = HandBuilder(deal=("111z2z333z4z666z7z9m9p123s", *DEAL[1:]))
    b.discard(0, "7z").win(1, "7z", 0)
    res = audit(b.hand())
    assert codes(res) == []
    sc = res.hands[0].wins[0].score
    assert "地胡" in [i.name for i in sc.items] and sc.total == 300
