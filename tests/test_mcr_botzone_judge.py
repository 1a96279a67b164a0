"""MCR situations Botzone's own judge decides (tests/fixtures/real/botzone-judge, issue 12).

Each record there was decided by the judge Botzone publishes for its Chinese-Standard-Mahjong
game; one test per cause shows the record and what the replay makes of it, and the other side
of each rule is shown on a small hand built for the purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.hand import Meld, MeldKind, WinSituation
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.rulesets.mcr_scoring import score_mcr
from mahjong_audit.pipeline.importers import IMPORTERS, Record
from mahjong_audit.pipeline.importers.common import BOTZONE_OPTIONS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game
from tests.logbuild import audit, game, hand

JUDGE = Path(__file__).parent / "fixtures" / "real" / "botzone-judge"
IMP = IMPORTERS["botzone-json"]


def raw(match: str) -> dict:
    return json.loads((JUDGE / f"{match}_lite.json").read_text(encoding="utf-8"))


def convert(data: dict, name: str = "edited") -> Game:
    (g,) = IMP.convert(Record(f"/nowhere/{name}_lite.json", 1, json.dumps(data)))
    return Game.model_validate(g)


def load(match: str) -> Game:
    path = JUDGE / f"{match}_lite.json"
    (rec,) = IMP.records(str(path), text_lines(path.read_text(encoding="utf-8")))
    (g,) = IMP.convert(rec)
    return Game.model_validate(g)


def items(g: Game) -> dict[str, int]:
    (w,) = [w for w in audit_game(g).hands[0].wins if w.legal]
    return {i.name: i.value * i.count for i in w.score.items}


def test_botzone_importers_set_the_judges_options():
    assert BOTZONE_OPTIONS == {"flowers": False, "seat_wall_size": 21, "knitted_waits": "botzone",
                               "false_win_ends_hand": True}
    assert load("1a67e6ae7cfb402a6435ff67").options == BOTZONE_OPTIONS


# ---------------------------------------------------------------- 1. 和绝张 on a kong replacement

@pytest.mark.parametrize("match, kong, total", [
    ("1a67e6ae7cfb402a6435ff67", "concealed_kong", 22),
    ("2c42a7118a87211d78101f17", "kong", 17),
    ("e4444b1aa5d613ca7fa91451", "added_kong", 17),
])
def test_kong_replacement_win_on_the_last_copy_scores_heijuezhang(match, kong, total):
    """Seat 1 shows three 5s; seat 0's replacement after its kong is the last 5s: the judge
    scores 杠上开花 and 和绝张 together (only 抢杠和 excludes 和绝张)."""
    g = load(match)
    assert [e.type for e in g.hands[0].events][-3:] == [kong, "draw", "win"]
    got = items(g)
    assert got["杠上开花"] == 8 and got["和绝张"] == 4 and sum(got.values()) == total
    assert audit_game(g).findings == ()


def _last_5s(kong: bool, self_drawn: bool) -> set[str]:
    """3 × 5s shown by another seat; the winner takes the fourth."""
    melds = (Meld(MeldKind.CONCEALED_KONG, (T.tile("1p"),) * 4),) if kong and self_drawn else ()
    concealed = T.parse("46s123m789m55z" + ("" if melds else "111p"))
    sit = WinSituation(concealed=concealed, melds=melds, win_tile=T.tile("5s"), self_drawn=self_drawn,
                       kong=kong, last_copy=True)
    return {i.name for i in score_mcr(sit).items}


def test_robbing_a_kong_still_excludes_heijuezhang():
    assert {"杠上开花", "和绝张"} <= _last_5s(kong=True, self_drawn=True)
    assert "抢杠和" in _last_5s(kong=True, self_drawn=False)
    assert "和绝张" not in _last_5s(kong=True, self_drawn=False)


def test_replay_passes_the_last_copy_flag_on_a_kong_replacement_not_on_a_robbed_kong():
    g = load("1a67e6ae7cfb402a6435ff67")
    hand0 = g.hands[0]
    rp = HandReplay(RULESETS["mcr"](g.options), hand0, "ESWN".index(hand0.round_wind))
    rp.run()
    (w,) = rp.wins
    assert w.situation.kong and w.situation.self_drawn and w.situation.last_copy
    robbed = load("f35885c64b8405ae354f59cf")  # 抢杠和: the flag stays off
    rp = HandReplay(RULESETS["mcr"](robbed.options), robbed.hands[0], "ESWN".index(robbed.hands[0].round_wind))
    rp.run()
    (w,) = rp.wins
    assert w.situation.kong and not w.situation.self_drawn and not w.situation.last_copy


def test_simulator_scores_heijuezhang_on_a_kong_replacement_as_the_replay_does():
    """The simulator has the replay's last-copy line: 5s shown three times, seat 0 wins on
    the fourth as its replacement after a concealed kong of 1p."""
    import random
    from collections import Counter

    from mahjong_audit.engine.sim.game import HandSim, _Seat

    sim = HandSim(RULESETS["mcr"]({"flowers": False}), random.Random(0), 0, 0, 0, Counter())
    sim.seats, sim.indicator = [_Seat(s, None) for s in range(4)], None
    st = sim.seats[0]
    for t in T.parse("46s123m789m55z5s"):
        st.counts[t] += 1
    st.melds.append(Meld(MeldKind.CONCEALED_KONG, (T.tile("1p"),) * 4))
    sim.visible[T.tile("5s")] = 3
    sit, score = sim.try_win(0, T.tile("5s"), self_drawn=True, kong=True, last_tile=False, from_seat=None)
    assert sit.last_copy and {"杠上开花", "和绝张"} <= {i.name for i in score.items}


# ---------------------------------------------------------------- 2. 组合龙 waits

KNITTED = WinSituation(concealed=T.parse("1223457p258s369m"), melds=(), win_tile=T.tile("4p"), self_drawn=True)


def test_knitted_straight_win_tile_inside_the_straight_botzone_reading():
    """266093: ``1p2p2p3p4p5p7p 2s5s8s 3m6m9m`` + self-drawn 4p: the judge scores 18
    (组合龙 12, 不求人 4, 平和 2), no 嵌张."""
    g = load("266093261e74d237974a667f")
    assert items(g) == {"组合龙": 12, "不求人": 4, "平和": 2}
    assert audit_game(g).findings == ()
    got = score_mcr(KNITTED, knitted_waits="botzone")
    assert {i.name: i.value for i in got.items} == {"组合龙": 12, "不求人": 4, "平和": 2} and got.total == 18


def test_knitted_straight_win_tile_inside_the_straight_reference_reading():
    """The default (pymahjonggb's): waits judged on the set and pair, so 2p2p3p5p waits on 4p alone: 嵌张."""
    got = score_mcr(KNITTED)
    assert {i.name for i in got.items} == {"组合龙", "不求人", "平和", "嵌张"} and got.total == 19
    reference = {"knitted_waits": "reference"}
    g = load("266093261e74d237974a667f")
    g = g.model_copy(update={"options": {**g.options, **reference}})
    assert "score_mismatch/total" in [f.code for f in audit_game(g).findings]


def test_knitted_straight_default_agrees_with_the_reference_calculator():
    pytest.importorskip("MahjongGB")
    from tests.mcr_handgen import oracle_score

    names, total = oracle_score(KNITTED)
    assert total == 19 and "嵌张" in names
    assert {i.name: i.count for i in score_mcr(KNITTED).items} == names


def test_knitted_straight_win_tile_outside_the_straight_keeps_its_wait_in_both_readings():
    """Only a winning tile of the knitted straight loses its wait fan: 1p4p7p 2s5s8s 3m6m9m
    + 345p + 东 waiting on 东 is 单钓将 either way."""
    sit = WinSituation(concealed=T.parse("147345p258s369m1z"), melds=(), win_tile=T.tile("1z"), self_drawn=False)
    for reading in ("reference", "botzone"):
        assert "单钓将" in {i.name for i in score_mcr(sit, knitted_waits=reading).items}


def test_knitted_waits_option_rejects_unknown_readings():
    from mahjong_audit.engine.ruleset import OptionError

    with pytest.raises(OptionError):
        RULESETS["mcr"]({"knitted_waits": "2018"})
    with pytest.raises(ValueError):
        score_mcr(KNITTED, knitted_waits="2018")


# ---------------------------------------------------------------- 3. a kong on an empty own wall

def test_per_seat_walls_kong_by_a_seat_whose_own_wall_is_empty_ends_the_hand():
    """c4e8: seat 0's wall is empty; it kongs seat 1's last discard and is owed a replacement
    from nothing: the judge ends the hand as an exhaustive draw (HUANG, all 0)."""
    g = load("c4e8a601596032f362f76237")
    h = g.hands[0]
    assert h.events[-1].type == "kong" and h.events[-1].seat == 0
    assert h.outcome.result == "draw" and h.outcome.deltas == [0, 0, 0, 0]
    a = audit_game(g)
    assert a.findings == () and a.hands[0].result == "draw"


def _kong_on_last_discard(seat3_wall: list[str]):
    """Per-seat walls: seat 1 discards 5m and seat 3, holding 555m, kongs it; seat 2 still has a tile."""
    deal = ["19m19p19s1234567z", "2468m2468p3579s7z", "2233445566778s", "555m777m345678p2z"]
    h = hand(deal, "0 draw 1s", "0 discard 1s", "1 draw 5m", "1 discard 5m", "3 kong 5m from 1",
             outcome={"result": "draw", "wins": [], "deltas": [0, 0, 0, 0]},
             seat_walls=[["1s"], ["5m"], ["3p"], seat3_wall])
    return audit(game(h, options={"flowers": False}))


def test_kong_by_a_seat_with_an_empty_own_wall_ends_the_hand():
    a = _kong_on_last_discard([])
    assert a.findings == () and a.hands[0].result == "draw"


def test_kong_by_a_seat_with_tiles_left_in_its_own_wall_is_owed_its_replacement():
    a = _kong_on_last_discard(["3s"])
    assert a.hands[0].result == "unfinished"
    assert "outcome_mismatch/result" in [f.code for f in a.findings]


# ---------------------------------------------------------------- the rest audit clean

def test_two_seats_rob_one_added_kong_the_nearest_wins():
    g = load("f35885c64b8405ae354f59cf")
    ev = g.hands[0].events
    assert [(c.seat, c.call) for c in ev[-2].claims] == [(1, "win"), (2, "win")]
    assert ev[-1].robbing_kong and ev[-1].seat == 1
    assert audit_game(g).findings == ()


@pytest.mark.parametrize("match, total", [("97a4e19b2dc7248524924c98", 23), ("8767b3f4b381a84c65bc63b2", 20)])
def test_wins_on_the_first_draw_and_the_first_discard(match, total):
    g = load(match)
    assert sum(items(g).values()) == total and audit_game(g).findings == ()


# ---------------------------------------------------------------- 4. false wins (verdict WH)

FIRST_DISCARD = "8767b3f4b381a84c65bc63b2"  # seat 0 draws and discards 1z; seat 1 wins on it


def with_wh(responses: dict[str, str], offender: int, *, on_draw: bool = False) -> dict:
    """Match 8767b3 edited into a WH verdict: the given responses to seat 0's discard (or to
    its first draw), then the judge's WH for ``offender``: −30, each other seat +10."""
    data = raw(FIRST_DISCARD)
    logs = data["logs"]
    cut = 5 if on_draw else 7  # the responses to the DRAW display / to the PLAY display
    logs[:] = logs[:cut + 1]
    for seat in "123":
        logs[cut][seat].update(raw="PASS", response="PASS")
    for seat, word in responses.items():
        logs[cut][seat].update(raw=word, response=word)
    score = [-30 if s == offender else 10 for s in range(4)]
    logs.append({"output": {"command": "finish", "content": {str(s): v for s, v in enumerate(score)},
                            "display": {"action": "WH", "player": offender, "score": score,
                                        "canHu": [-4, -4, -4, -4]}}})
    return data


def test_false_win_verdict_is_imported_as_the_false_win_and_its_penalty():
    g = convert(with_wh({"2": "HU"}, 2))
    h = g.hands[0]
    assert (h.events[-1].type, h.events[-1].seat, h.events[-1].tile, h.events[-1].from_) == ("win", 2, "1z", 0)
    assert [(c.seat, c.call) for c in h.events[-2].claims] == [(2, "win")]
    assert h.outcome.result == "draw" and h.outcome.wins == [] and h.outcome.deltas == [10, 10, -30, 10]
    assert [(p.seat, p.kind, p.deltas) for p in h.outcome.penalties] == [(2, "false_win", [10, 10, -30, 10])]


def test_false_win_on_a_discard_audited_penalty_paid():
    """Seat 2 (七对 waiting on 白) declares 和 on 东: incomplete. The auditor reports the false
    win and finds −30/+10 paid: nothing else."""
    a = audit_game(convert(with_wh({"2": "HU"}, 2)))
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/incomplete", 2)]
    assert a.hands[0].result == "draw" and a.hands[0].draw_reason == "false_win"
    assert a.hands[0].computed_deltas == (10, 10, -30, 10)


def test_false_win_on_the_own_draw():
    a = audit_game(convert(with_wh({"0": "HU"}, 0, on_draw=True)))
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/incomplete", 0)]
    assert a.hands[0].computed_deltas == (-30, 10, 10, 10)


def test_wh_on_a_real_win_is_an_outcome_mismatch():
    """Seat 1's 和 on 东 is a real 20-fan win: a WH verdict there is the platform's error."""
    a = audit_game(convert(with_wh({"1": "HU"}, 1)))
    found = {f.code for f in a.findings}
    assert not any(c.startswith("false_win") for c in found)
    assert {"outcome_mismatch/result", "outcome_mismatch/winners", "payout_mismatch/delta"} <= found


def test_wh_penalty_paid_wrong_is_a_payout_mismatch():
    data = with_wh({"2": "HU"}, 2)
    data["logs"][-1]["output"]["display"]["score"] = [10, 10, -20, 0]
    found = [f.code for f in audit_game(convert(data)).findings]
    assert found.count("payout_mismatch/delta") == 2 and "false_win/incomplete" in found


def test_first_false_declaration_in_seat_order_ends_the_hand_even_before_a_real_win():
    """Seats 2 (false) and 3 declare 和 on seat 1's discard; the judge checks 2 first and stops
    at its WH. Under ``false_win_ends_hand`` the auditor reports the false win, checks the
    penalty, and nothing about seat 3; by default seat 3's win had to follow."""
    deal = ["19m19p19s1234567z", "2468m2468p3579s7z", "223344556677p6z", "123456789m1234s"]
    h = hand(deal, "0 draw 5z", "0 discard 5z", "1 draw 4s", "1 discard 4s claims 2:win,3:win",
             "2 win 4s from 1",
             outcome={"result": "draw", "wins": [], "deltas": [10, 10, -30, 10],
                      "penalties": [{"seat": 2, "kind": "false_win", "deltas": [10, 10, -30, 10]}]})
    a = audit(game(h, options={"flowers": False, "seat_wall_size": 21, "false_win_ends_hand": True}))
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/incomplete", 2)]
    plain = audit(game(h, options={"flowers": False, "seat_wall_size": 21}))
    assert "false_win/incomplete" in [f.code for f in plain.findings]
    assert plain.hands[0].result == "unfinished"  # the hand went on: seat 3's declared win is due


def test_false_win_below_the_minimum_ends_the_hand():
    """A complete hand under 8 fan is a false 和 too (the judge's fan check)."""
    deal = ["19m19p19s1234567z", "123m456p678s234m5z", "2468m2468p3579s7z", "2233445566778s"]
    h = hand(deal, "0 draw 5z", "0 discard 5z", "1 win 5z from 0",
             outcome={"result": "draw", "wins": [], "deltas": [10, -30, 10, 10]})
    a = audit(game(h, options={"flowers": False, "seat_wall_size": 21, "false_win_ends_hand": True}))
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/below_minimum", 1)]
    assert a.hands[0].result == "draw"


def test_false_declaration_by_a_farther_seat_carried_out_over_a_nearer_real_one():
    """The judge would have reached seat 3 (nearer to the discarder, a real win) before seat 0:
    a WH for seat 0 there is reported as claim_priority/seat_order besides seat 0's false win."""
    deal = ["19m19p19s1234567z", "2468m2468p3579s7z", "223344556677p6z", "123456789m1234s"]
    h = hand(deal, "0 draw 5z", "0 discard 5z", "1 draw 1z", "1 discard 1z", "2 draw 4s",
             "2 discard 4s claims 3:win,0:win", "0 win 4s from 2",
             outcome={"result": "draw", "wins": [], "deltas": [-30, 10, 10, 10]})
    a = audit(game(h, options={"flowers": False, "seat_wall_size": 21, "false_win_ends_hand": True}))
    assert [(f.code, f.seat) for f in a.findings] == [("false_win/incomplete", 0), ("claim_priority/seat_order", 0)]
