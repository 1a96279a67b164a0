"""龙港: the chips of a whole game (牌局) per player, four and five (issue 17, seed 000 五、(三)–(四)).

Each rule is a sentence of the seed, quoted in its test; each fires and, beside it, does not.
"""

from __future__ import annotations

import copy
from typing import Any

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets.longgang import Longgang
from mahjong_audit.engine.rulesets.longgang_chips import REBUY, ChipLedger, pay_short, start_balance
from mahjong_audit.schemas import log as L
from tests.test_longgang_five import five_player, four_player_sample, with_false_win


def chip_findings(g: dict[str, Any]) -> list[tuple[int | None, str | None]]:
    return [(f.hand_no, f.recorded) for f in audit_game(L.parse_game(g)).findings if f.code == "continuity/chips"]


# ------------------------------------------------------------------ 底金 and 头钱


def test_everyone_starts_at_95():
    # "筹码底金：每个玩家100子，头钱5子（抽水5%），实为95子（四人头钱20子，五人头钱25子，加筹头钱不变）"
    assert start_balance() == 95
    assert ChipLedger(4, False, True).balances == [95] * 4  # 4 × 5 = 20 子 头钱
    assert ChipLedger(5, False, True).balances == [95] * 5  # 5 × 5 = 25 子 头钱


def test_running_balance_recorded_right():
    # "结算时10胡计1子": hand 0 pays (24, 38, -31, -31) 子; hand 1 is drawn
    g = four_player_sample()
    for h in g["hands"]:
        h["chips"] = [119, 133, 64, 64]
    assert chip_findings(g) == []
    facts = audit_game(L.parse_game(g)).hands
    assert facts[0].chips == (119, 133, 64, 64)


def test_wrong_running_balance_is_a_finding_once():
    g = four_player_sample()
    g["hands"][0]["chips"] = [119, 133, 64, 74]  # 丁 credited 10 too many
    g["hands"][1]["chips"] = [119, 133, 64, 74]  # goes on from the recorded balance: no second finding
    assert chip_findings(g) == [(0, "[119, 133, 64, 74]")]


def test_a_log_without_chips_keeps_no_ledger():
    facts = audit_game(L.parse_game(four_player_sample())).hands
    assert all(h.chips is None for h in facts)


# ------------------------------------------------------------------ 诈胡 at the end of the game


def test_false_win_is_paid_when_the_game_ends():
    # "诈胡者在牌局结束后出钱给各家" — and with five, "岸上的人也有份"
    g = with_false_win(five_player(), 2)
    g["hands"][1]["outcome"].update(deltas=[10, 20, -50, 10], out_delta=10)
    g["final_scores"] = [134, 158, 19, 79, 110]
    g["hands"][0]["chips"] = [119, 133, 64, 64, 95]
    g["hands"][1]["chips"] = [129, 153, 14, 74, 105]  # the last hand: 丙 pays 10/20/10/10
    assert chip_findings(g) == []
    paid_at_once = copy.deepcopy(g)
    paid_at_once["hands"][1]["chips"] = [119, 133, 64, 64, 95]
    assert chip_findings(paid_at_once) == [(1, "[119, 133, 64, 64, 95]")]


# ------------------------------------------------------------------ short of chips


def test_short_payer_pays_the_winner_first():
    # "不够者付给胡牌者优先，再按逆时针顺序,以断筹为限，筹码不够的部分不需下圈加筹补齐"
    # seat 2 has 10 and owes 31; the winner (seat 1) gains 38, seat 0 gains 24: the 21 it cannot
    # pay is lost by the last in its order (winner 1, then 3, 0): seat 0
    after = pay_short([95, 95, 10, 95], [24, 38, -31, -31], {2: (1, 3, 0), 3: (1, 0, 2)})
    assert after == [95 + 24 - 21, 95 + 38, 0, 64]


def test_payer_with_enough_chips_pays_in_full():
    after = pay_short([95, 95, 31, 95], [24, 38, -31, -31], {2: (1, 3, 0), 3: (1, 0, 2)})
    assert after == [119, 133, 0, 64]


def test_a_shortfall_larger_than_the_others_gains_reaches_the_winner():
    after = pay_short([95, 95, 0, 95], [0, 40, -40, 0], {2: (1, 3, 0)})
    assert after == [95, 95, 0, 95]


# ------------------------------------------------------------------ 断子, 加筹 and the end of the game


def ledger_after_break(n: int, rebuy: bool = True) -> tuple[ChipLedger, Any]:
    ledger = ChipLedger(n, False, rebuy)
    ledger.resync([95, 95, 20] + [95] * (n - 3))
    seating = tuple(range(4))
    changes = [0, 31, -31, 0] + [0] * (n - 4)
    return ledger, ledger.hand(7, seating, 1, changes, [0] * n)


def test_first_broke_player_rebuys_100_at_five():
    # "加筹：一人断子时，五人来法此人加筹一局子（100子）"
    ledger, res = ledger_after_break(5)
    assert res.broke == (2,) and res.rebuy == 2 and not res.ended
    assert res.balances == (95, 95 + 20, 100, 95, 95)
    assert REBUY[5] == 100


def test_first_broke_player_rebuys_50_at_four():
    # "四人来法此人加筹半局子（50子）"
    ledger, res = ledger_after_break(4)
    assert res.balances == (95, 115, 50, 95) and res.rebuy == 2


def test_rebought_follow_values_from_the_next_hand():
    # "当盘筹子断或刚好为零则下盘开始按括号内的数字跟胡"
    ledger, _ = ledger_after_break(4)
    assert ledger.rebought
    assert ChipLedger(4, False, True).rebought is False
    lg = Longgang({})
    assert lg.after_break().options.rebought and not lg.options.rebought


def test_exactly_zero_is_broke():
    # "当盘筹子断或刚好为零"
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 31, 95])
    res = ledger.hand(0, (0, 1, 2, 3), 1, [0, 31, -31, 0], [0] * 4)
    assert res.broke == (2,)
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 32, 95])
    assert ledger.hand(0, (0, 1, 2, 3), 1, [0, 31, -31, 0], [0] * 4).broke == ()


def test_second_broke_player_ends_the_game():
    # "其后如有一家再断子，牌局结束"
    ledger, _ = ledger_after_break(4)
    ledger.resync([5, 115, 50, 95])
    res = ledger.hand(8, (0, 1, 2, 3), 1, [-31, 31, 0, 0], [0] * 4)
    assert res.broke == (0,) and res.ended and res.rebuy is None


def test_two_broke_in_one_hand_end_the_game_without_rebuy():
    # "如一局中有两人断子时,不要加筹,牌局结束"
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 10, 10])
    res = ledger.hand(3, (0, 1, 2, 3), 1, [24, 38, -31, -31], [0] * 4)
    assert res.broke == (2, 3) and res.ended and res.rebuy is None


def test_option_broke_ends_the_game_at_once():
    # "也有断子不加筹立即结束的，事先约定好即可"
    _, res = ledger_after_break(4, rebuy=False)
    assert res.ended and res.rebuy is None
    assert Longgang({"broke_rebuy": False}).chips_ledger(4).broke_rebuy is False


def test_hand_after_the_end_of_the_game_is_a_finding():
    # the sample's winning hand played four times: 丙 and 丁 each pay 31 a hand
    # (95 → 64 → 33 → 2 → broke together in hand 3): the game ends there, hand 4 is one too many
    g = four_player_sample()
    win = g["hands"][0]
    g["hands"] = []
    for i in range(5):
        h = copy.deepcopy(win)
        h["hand_no"] = i
        g["hands"].append(h)
    g.pop("final_scores")
    g["hands"][0]["chips"] = [119, 133, 64, 64]
    found = chip_findings(g)
    assert found == [(4, None)]
    g["hands"].pop()
    assert chip_findings(g) == []


def test_audit_settles_with_the_bracketed_follow_after_a_rebuy():
    # "当盘筹子断或刚好为零则下盘开始按括号内的数字跟胡": the sample's winning hand three times;
    # 丙 is recorded at 20 after hand 0 (a finding, and the ledger goes on from there), goes
    # broke alone in hand 1 (20 - 31) and re-buys 50; in hand 2 the winner's 1 台 takes 跟胡数 100
    # instead of 60: each loser pays 4 子 more
    g = four_player_sample()
    win = g["hands"][0]
    g["hands"] = []
    for i in range(3):
        h = copy.deepcopy(win)
        h["hand_no"] = i
        h.pop("outcome")
        g["hands"].append(h)
    g.pop("final_scores")
    g["hands"][0]["chips"] = [119, 133, 20, 64]
    res = audit_game(L.parse_game(g))
    h0, h1, h2 = res.hands
    assert h0.computed_deltas == h1.computed_deltas == (24, 38, -31, -31)
    assert h2.computed_deltas == (20, 50, -35, -35)
    assert h1.chips == (119 + 24 - 11, 133 + 38, 50, 33)  # 丙 paid 20 of 31: seat 0 lost the 11 short
    assert chip_findings(g) == [(0, "[119, 133, 20, 64]")]
