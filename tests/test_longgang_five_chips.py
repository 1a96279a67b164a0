"""龙港: the chips of a whole game (牌局) per player, four and five (issue 17, seed 000 五、(三)–(四)).

Each rule is a sentence of the seed, quoted in its test; each fires and, beside it, does not.
"""

from __future__ import annotations

import copy
from typing import Any

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets.longgang import Longgang
from mahjong_audit.engine.rulesets.longgang_chips import (
    BANK,
    REBUY,
    ChipLedger,
    Payment,
    from_net,
    priority,
    settle,
    start_balance,
)
from mahjong_audit.schemas import log as L
from tests.longgang_build import five_player, four_player_sample, with_false_win


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


def false_win_debts() -> list[Payment]:
    """丙 (seat 2, not the dealer) false-wins in hand 1 of five_player(): 20 to the dealer 乙
    (seat 1), 10 to 丁 and 戊 and to 甲 standing out ("五人来的，岸上的人也有份")."""
    return [Payment(丙, 乙, 20), Payment(丙, 丁, 10), Payment(丙, 戊, 10), Payment(丙, 甲, 10)]


def test_false_win_at_the_end_is_capped_by_what_the_false_winner_holds():
    # "诈胡者在牌局结束后出钱给各家" and "(加筹后)牌局结束时筹码不够数，付给胡牌者优先，以断筹为限，少不补":
    # 丙 holds 25 at the end and owes 50: it pays in turn order from its seat 2 — 丁 (3), 戊 (0),
    # 乙 (1) — and 甲, standing out, last: 丁 10, 戊 10, 乙 5, 甲 nothing
    ledger = ChipLedger(5, False, True)
    ledger.resync([95, 95, 25, 95, 95])
    ledger.hand(1, (戊, 乙, 丙, 丁), None, [], false_win_debts())
    assert ledger.settle_false_wins() == (95, 100, 0, 105, 105)
    assert Longgang({}).options.false_win_short == "capped"


def test_option_false_win_paid_in_full_below_zero():
    # false_win_short "full": the false winner pays all of it, even below zero
    ledger = Longgang({"false_win_short": "full"}).chips_ledger(5)
    ledger.resync([95, 95, 25, 95, 95])
    ledger.hand(1, (戊, 乙, 丙, 丁), None, [], false_win_debts())
    assert ledger.settle_false_wins() == (105, 115, -25, 105, 105)


def test_false_win_debts_wait_for_the_end_of_the_game():
    ledger = ChipLedger(5, False, True)
    res = ledger.hand(1, (戊, 乙, 丙, 丁), None, [], false_win_debts())
    assert res.balances == (95,) * 5 and res.broke == ()  # nothing paid yet, nobody broke by it
    assert ledger.settle_false_wins() == (105, 115, 45, 105, 105)


# ------------------------------------------------------------------ short of chips
#
# "不够者付给胡牌者优先，再按逆时针顺序,以断筹为限，筹码不够的部分不需下圈加筹补齐" (五、(三)): a hand
# is paid pair by pair (each loser to the winner, the 陪家 差价 between two losers, the dealer's
# side doubled); a short payer pays the winner first, then the others in turn order.

甲, 乙, 丙, 丁, 戊 = range(5)


def test_sample_hand_is_paid_pair_by_pair():
    # "陪家付给胡家相应胡数的筹码，各陪家间再按各自胡数的差值付筹。庄家输赢加倍": dealer 甲 (100 胡) and
    # 丙, 丁 (0) lose to 乙 (50 胡, 1 台: 跟 60): 甲 pays 2 × 50 + 60, 丙 and 丁 50 + 60 each, and
    # each pays the dealer 甲 the 差价 doubled, 2 × 100
    res = audit_game(L.parse_game(four_player_sample()))
    assert res.hands[0].chip_facts is None  # the log records no chips: no ledger
    g = four_player_sample()
    g["hands"][0]["chips"] = [119, 133, 64, 64]
    facts = audit_game(L.parse_game(g)).hands[0].chip_facts
    assert facts is not None and sorted(facts.paid) == sorted([(甲, 乙, 16), (丙, 乙, 11), (丁, 乙, 11),
                                                               (丙, 甲, 20), (丁, 甲, 20)])


def test_short_payer_pays_the_winner_first_not_the_net_gainers():
    # issue 26 (session 118, hand 18 of the independent run): 丁 holds 9, owes the winner 丙 9 and
    # 戊 2 (戊 loses in the hand overall). By the seed 丙 gets 9 and 戊 nothing: 丙 126, 戊 180
    # (taking the shortfall out of the net gainers gave 丙 124, 戊 182)
    ledger = ChipLedger(5, False, True)
    ledger.resync([60, 95, 100, 9, 187])
    seating = (甲, 丙, 丁, 戊)  # 乙 stands out
    debts = [Payment(甲, 丙, 10), Payment(戊, 丙, 7), Payment(丁, 丙, 9), Payment(丁, 戊, 2)]
    res = ledger.hand(18, seating, 丙, debts)
    assert Payment(丁, 戊, 0) in res.paid and Payment(丁, 丙, 9) in res.paid
    assert res.broke == (丁,) and res.rebuy == 丁  # and 丁 re-buys: 0 + 100
    assert res.balances == (50, 95, 126, 0 + 100, 180)


def sample_debts() -> list[Payment]:
    """A hand at seats 甲 乙 丙 丁 (0..3), dealer 甲, winner 乙: 丁 has the lowest total and owes 甲
    and 丙 their 差价 besides what it owes the winner."""
    return [Payment(丁, 乙, 11), Payment(丁, 甲, 20), Payment(丁, 丙, 4), Payment(丙, 乙, 11), Payment(丙, 甲, 16),
            Payment(甲, 乙, 16)]


def test_short_payer_then_pays_in_turn_order_from_itself():
    # "…再按逆时针顺序": after the winner 乙, 丁 (seat 3) pays in turn order from its own seat:
    # 甲 (seat 0), then 丙 (seat 2). It holds 21: 乙 11, 甲 10, 丙 nothing
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 95, 21])
    res = ledger.hand(0, (甲, 乙, 丙, 丁), 乙, sample_debts())
    assert [p for p in res.paid if p.payer == 丁] == [Payment(丁, 乙, 11), Payment(丁, 甲, 10), Payment(丁, 丙, 0)]
    assert res.balances == (95 - 16 + 16 + 10, 95 + 11 + 11 + 16, 95 - 27, 0 + 50)  # 丁 broke: 加筹 50


def test_option_turn_order_counted_from_the_winner():
    # short_order "winner": the turn order after the winner 乙 (seat 1) starts at its next seat: 丙
    # (seat 2), then 甲 (seat 0) — so 丙 gets its 4 before 甲
    lg = Longgang({"short_order": "winner"})
    ledger = lg.chips_ledger(4)
    ledger.resync([95, 95, 95, 21])
    res = ledger.hand(0, (甲, 乙, 丙, 丁), 乙, sample_debts())
    assert [p for p in res.paid if p.payer == 丁] == [Payment(丁, 乙, 11), Payment(丁, 甲, 6), Payment(丁, 丙, 4)]
    assert Longgang({}).options.short_order == "payer"


def test_priority_of_a_payer():
    assert priority(丁, (甲, 乙, 丙, 丁), 乙) == (乙, 甲, 丙)
    assert priority(丁, (甲, 乙, 丙, 丁), 乙, counted_from="winner") == (乙, 丙, 甲)
    assert priority(丙, (戊, 乙, 丙, 丁), None, (甲,)) == (丁, 戊, 乙, 甲)  # 诈胡: the player standing out last


def test_a_payer_may_pay_out_of_what_it_receives_in_the_same_hand():
    # "以断筹为限": a payer is limited to what it holds plus what it receives in the same hand — which
    # depends on what its own payers can pay (a fixed point). 丙 holds 10 and owes the winner 乙 15;
    # it is owed 8 by 丁, who holds 5 (乙 first: 丁 pays 乙 2 of 2 and 丙 3 of 8): 丙 pays 13
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 10, 5])
    debts = [Payment(丙, 乙, 15), Payment(丁, 乙, 2), Payment(丁, 丙, 8)]
    after, paid = settle(ledger.balances, debts, ledger.orders((丙, 丁), 乙))
    assert paid == (Payment(丙, 乙, 13), Payment(丁, 乙, 2), Payment(丁, 丙, 3))
    assert after == (95, 95 + 15, 0, 0)


def test_payer_with_enough_chips_pays_in_full():
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 31, 95])
    res = ledger.hand(0, (甲, 乙, 丙, 丁), 乙, sample_debts()[3:] + [Payment(丁, 乙, 11)])
    assert res.balances == (95, 95 + 38, 4, 84) and res.broke == ()


def test_shortfall_is_never_made_up_after_the_rebuy():
    # "筹码不够的部分不需下圈加筹补齐": 丙 holds 0 + its 加筹 only after the hand; what it could not pay is lost
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 20, 95])
    res = ledger.hand(3, (甲, 乙, 丙, 丁), 乙, [Payment(丙, 乙, 31)])
    assert res.balances == (95, 115, 50, 95) and res.rebuy == 丙
    nxt = ledger.hand(4, (甲, 乙, 丙, 丁), None, [])
    assert nxt.balances == (95, 115, 50, 95)


def test_recorded_deltas_not_the_recomputed_ones_are_paid_loser_to_gainer():
    # the pairs behind a wrong payout are unknown (a payout_mismatch already): each loser pays the
    # gainers in its order; what does not add up comes from the bank
    assert from_net([5, 10, -12, -3], {丙: (乙, 丁, 甲), 丁: (乙, 甲, 丙)}) == (
        Payment(丙, 乙, 10), Payment(丙, 甲, 2), Payment(丁, 甲, 3))
    assert from_net([5, 0, -2, 0], {}) == (Payment(丙, 甲, 2), Payment(BANK, 甲, 3))


# ------------------------------------------------------------------ 断子, 加筹 and the end of the game


def ledger_after_break(n: int, rebuy: bool = True) -> tuple[ChipLedger, Any]:
    ledger = ChipLedger(n, False, rebuy)
    ledger.resync([95, 95, 20] + [95] * (n - 3))
    return ledger, ledger.hand(7, (甲, 乙, 丙, 丁), 乙, [Payment(丙, 乙, 31)])


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
    res = ledger.hand(0, (甲, 乙, 丙, 丁), 乙, [Payment(丙, 乙, 31)])
    assert res.broke == (2,)
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 32, 95])
    assert ledger.hand(0, (甲, 乙, 丙, 丁), 乙, [Payment(丙, 乙, 31)]).broke == ()


def test_second_broke_player_ends_the_game():
    # "其后如有一家再断子，牌局结束"
    ledger, _ = ledger_after_break(4)
    ledger.resync([5, 115, 50, 95])
    res = ledger.hand(8, (甲, 乙, 丙, 丁), 乙, [Payment(甲, 乙, 31)])
    assert res.broke == (0,) and res.ended and res.rebuy is None


def test_two_broke_in_one_hand_end_the_game_without_rebuy():
    # "如一局中有两人断子时,不要加筹,牌局结束"
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 10, 10])
    res = ledger.hand(3, (甲, 乙, 丙, 丁), 乙, [Payment(丙, 乙, 11), Payment(丁, 乙, 11), Payment(丙, 甲, 20),
                                               Payment(丁, 甲, 20), Payment(甲, 乙, 16)])
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


def test_audit_short_payer_pays_the_winner_before_the_dealer():
    # "不够者付给胡牌者优先": the sample's winning hand twice; 丙 is recorded at 10 after hand 0 (a finding,
    # and the ledger goes on from there) and owes the winner 乙 11 and the dealer 甲 20 in hand 1: 乙
    # gets its 10, 甲 nothing (甲 123, 乙 170; 丙 broke and re-buys 50). A platform taking the
    # shortfall out of the net gainers (甲 122, 乙 171) is reported
    g = four_player_sample()
    win = g["hands"][0]
    g["hands"] = []
    for i in range(2):
        h = copy.deepcopy(win)
        h["hand_no"] = i
        g["hands"].append(h)
    g.pop("final_scores")
    g["hands"][0]["chips"] = [119, 133, 10, 64]
    g["hands"][1]["chips"] = [119 - 16 + 20, 133 + 11 + 11 + 16 - 1, 50, 33]
    assert chip_findings(g) == [(0, "[119, 133, 10, 64]")]
    facts = audit_game(L.parse_game(g)).hands[1].chip_facts
    assert facts is not None and facts.broke == (丙,) and facts.rebuy == 丙 and not facts.ended
    assert (丙, 乙, 10) in facts.paid and all(p[:2] != (丙, 甲) for p in facts.paid)
    g["hands"][1]["chips"] = [122, 171, 50, 33]
    assert chip_findings(g) == [(0, "[119, 133, 10, 64]"), (1, "[122, 171, 50, 33]")]
