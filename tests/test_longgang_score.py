"""龙港麻将 scoring through the scoring functions: the seed's worked examples and each rule
firing / not firing. Whole replayed hands are in test_longgang_replay.py."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, NotAWin
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests.longgang_build import names, sit

RS = Longgang()


def det(score, key):
    return dict(score.details)[key]


# ---------------------------------------------------------------- seed worked examples

def test_seed_dealer_three_tai_minimum_160():
    # 123 2财4 345 6财8 789 + 南 paired with 坐花; 混一色 + 坐花 + 双财神, 0 face points, on a discard
    s = sit("2468m55p1f", "2z", [Meld.chi(0, 0), Meld.chi(2, 2), Meld.chi(6, 6)])
    sc = RS.score_win(s)
    assert names(sc, "tai") == {"坐花": 1, "双财神": 1, "混一色": 1}
    assert det(sc, "hu") == 20 and sc.total == 160


def test_seed_non_winner_three_tai_70():
    # 秋 is the indicator (花财神); the dealer holds 春(坐花) + a 客花 + 中: a 中 triplet, 8 × 2³ = 64 → 70
    w = S.wilds_for(0, T.tile("3f"))
    melds = (Meld.chi(0, 0), Meld.chi(9, 9), Meld.chi(18, 18))
    sc = S.score_other(T.parse("123s2z7z1f2f"), melds, (), 0, w, S.Rules())
    assert names(sc, "tai") == {"字刻": 1, "坐花": 1, "双财神": 1}
    assert names(sc, "hu") == {"暗刻大子": 8}
    assert sc.total == 70


def test_seed_38_counts_as_40():
    # 南南南 西西西 (not the seat's wind) + 中中 = 18 face; one 财神 (9m) standing for 5p: 0 台
    s = sit("222z333z77z123m4p9m6p78s", "9s", indicator="9m")
    sc = RS.score_win(s)
    assert det(sc, "hu") == 38 and det(sc, "tai") == 0
    assert sc.total == 40


def test_seed_38_times_8_is_capped_at_300():
    s = sit("777z666z11z123m56p789s", "4p")  # 中 and 发 triplets, 东 pair (East seat), no wilds
    sc = RS.score_win(s)
    assert det(sc, "hu") == 38
    assert names(sc, "tai") == {"字刻": 2, "硬胡": 1}
    assert S.ceil_cap(38 * 2 ** 3) == 300 and sc.total == 300


def test_seed_two_red_then_self_drawn_red_is_10_hu():
    s = sit("77z123m456m789m234p55s", "7z", self_drawn=True, seat_wind=1)
    sc = RS.score_win(s)
    assert names(sc, "hu") == {"底胡": 20, "暗刻大子": 8, "自摸": 2}


def test_seed_caishen_sold_non_winner_two_tai():
    # 坐花 + two 财神 + 中: the two 财神 make the 中 triplet, the 坐花 is wasted (卖兵): 8 × 2² = 32 → 40
    w = S.wilds_for(0, T.tile("5p"))
    melds = (Meld.chi(0, 0), Meld.chi(3, 3), Meld.chi(9, 9), Meld.pon(T.tile("9s")))
    sc = S.score_other(T.parse("55p7z1f"), melds, (), 0, w, S.Rules())
    assert names(sc, "tai") == {"字刻": 1, "双财神": 1}
    assert sc.total == S.ceil_cap((8 + 4) * 4)


def test_seed_wild_with_single_is_nothing_for_non_winner():
    w = S.wilds_for(0, T.tile("5p"))
    melds = (Meld.chi(0, 0), Meld.chi(9, 9), Meld.chi(12, 12), Meld.chi(18, 18))
    sc = S.score_other(T.parse("34m7z1f"), melds, (), 0, w, S.Rules())
    assert sc.total == 0 and not names(sc, "tai")


def test_seed_limit_chips_72_and_42():
    assert S.follow_hu(3, False) == 120
    hu = S.settle_hu(winner=1, dealer=0, totals=[0, 300, 0, 0], follow=120)
    assert [d // 10 for d in hu] == [-72, 156, -42, -42]


# ---------------------------------------------------------------- 胡 items

@pytest.mark.parametrize("concealed,win,self_drawn,expected", [
    ("13m456p789s123s11z999m", "2m", True, {"自摸卡档": 4}),  # closed, self-drawn
    ("12m456p789s123s11z999m", "3m", True, {"自摸": 2}),  # edge, self-drawn: plain self-draw
    ("23m456p789s123s11z999m", "4m", True, {"自摸": 2}),  # two-sided
    ("123m456p789s123s1z999m", "1z", True, {}),  # single wait: no self-draw bonus
    ("13m456p789s123s11z999m", "2m", False, {"卡档": 2}),
    ("12m456p789s123s11z999m", "3m", False, {}),  # edge on a discard: nothing
    ("123m456p789s123s1z999m", "1z", False, {}),
])
def test_wait_bonus(concealed, win, self_drawn, expected):
    sc = RS.score_win(sit(concealed, win, self_drawn=self_drawn, seat_wind=1, indicator="4z"))
    bonus = {k: v for k, v in names(sc, "hu").items() if k in ("自摸卡档", "自摸", "卡档", "边张", "单吊", "自摸单吊")}
    assert bonus == expected


def test_wait_bonus_options():
    rs = Longgang({"single_wait_self_draw_bonus": True, "edge_single_discard_bonus": True})
    sc = rs.score_win(sit("123m456p789s123s1z999m", "1z", self_drawn=True, seat_wind=1, indicator="4z"))
    assert names(sc, "hu")["自摸单吊"] == 2
    sc = rs.score_win(sit("12m456p789s123s11z999m", "3m", seat_wind=1, indicator="4z"))
    assert names(sc, "hu")["边张"] == 2


def test_triplet_completed_by_discard_is_exposed():
    on_discard = RS.score_win(sit("77z123m456m789m234p55s", "7z", seat_wind=1, indicator="4z"))
    assert names(on_discard, "hu")["明刻大子"] == 4 and "暗刻大子" not in names(on_discard)
    drawn = RS.score_win(sit("77z123m456m789m234p55s", "7z", self_drawn=True, seat_wind=1, indicator="4z"))
    assert names(drawn, "hu")["暗刻大子"] == 8


def test_set_table_and_flowers():
    melds = (Meld.kong(T.tile("2m"), concealed=True), Meld.kong(T.tile("1z"), 1), Meld.pon(T.tile("5s"), 2))
    sc = RS.score_win(sit("999p123s4z", "4z", melds, seat_wind=2, indicator="5p", flowers="1f2f"))
    hu = names(sc, "hu")
    assert hu["暗杠小子"] == 16 and hu["明杠大子"] == 16 and hu["明刻小子"] == 2
    assert hu["暗刻大子"] == 8 and hu["花"] == 8


def test_honour_pair_two_hu_only_for_scoring_honours():
    east_pair = RS.score_win(sit("123m456p789s123s1z999m", "1z", seat_wind=0, indicator="4z"))
    assert names(east_pair, "hu").get("将") == 2
    south_pair = RS.score_win(sit("123m456p789s123s1z999m", "1z", seat_wind=1, indicator="4z"))
    assert "将" not in names(south_pair, "hu")


# ---------------------------------------------------------------- 台 items

def test_hard_win_and_homing():
    no_wild = RS.score_win(sit("123m456p789s123s1z999m", "1z", seat_wind=1, indicator="4z"))
    assert "硬胡" in names(no_wild)
    homed = RS.score_win(sit("123m456p789s123s1z999m", "1z", seat_wind=1, indicator="8p"))  # 8p stands for 8p
    assert "硬胡" in names(homed)
    used = RS.score_win(sit("123m456p789s13s1z999m2z", "1z", seat_wind=1, indicator="1z"))
    assert "硬胡" not in names(used)


def test_two_caishen_one_tai_and_zuohua():
    sc = RS.score_win(sit("5p5p3m678p789s123s1z999m", "1z", seat_wind=2, indicator="5p"))
    assert names(sc, "tai").get("双财神") == 1 and "坐花" not in names(sc)
    sc = RS.score_win(sit("3f3m456p789s123s1z999m3p", "1z", seat_wind=2, indicator="3p"))
    assert names(sc, "tai") == {"坐花": 1, "双财神": 1}


def test_four_flowers_replaces_zuohua():
    sc = RS.score_win(sit("1f34m456p789s123s1z999m", "1z", seat_wind=0, indicator="4z", flowers="2f3f4f"))
    tai = names(sc, "tai")
    assert tai.get("四花") == 2 and "坐花" not in tai
    assert names(sc, "hu")["花"] == 12


def test_honour_triplets_and_not_other_winds():
    sc = RS.score_win(sit("777z666z22z123m56p789s", "4p", seat_wind=1, indicator="4z"))
    assert names(sc, "tai")["字刻"] == 2 and names(sc, "hu")["将"] == 2  # 中 发 triplets, 南 pair (South)
    sc = RS.score_win(sit("777z333z22z123m56p789s", "4p", seat_wind=1, indicator="4z"))
    assert names(sc, "tai")["字刻"] == 1


def test_half_flush_and_all_triplets():
    hf = RS.score_win(sit("123m456m789m111m22z77z", "7z", seat_wind=0, indicator="4z"))
    assert "混一色" in names(hf)
    pp = RS.score_win(sit("111m444p777s999s222z7z", "7z", seat_wind=0, indicator="4z"))
    assert "对对胡" in names(pp) and "混一色" not in names(pp)


def test_pinghu_zero_tai():
    sc = RS.score_win(sit("123m46p1z789s45s88m234p", "6s", seat_wind=1, indicator="1z"))
    assert names(sc, "tai") == {"平胡": 0}
    assert sc.total == 20


# ---------------------------------------------------------------- limit hands

def test_full_flush_is_limit():
    sc = RS.score_win(sit("123m456m789m111m99m22m", "9m", seat_wind=0, indicator="4z"))
    assert "清一色" in names(sc) and sc.total == 300 and det(sc, "follow_tai") == 3


def test_three_caishen_wins_without_a_shape_and_zeroes_others():
    sc = RS.score_win(sit("5p5p13579m2468p1s", "5p", self_drawn=True, seat_wind=1, indicator="5p"))
    assert "三财神" in names(sc) and sc.total == 300 and det(sc, "others_zero")
    assert RS.instant_win(T.parse("5p5p5p13579m"), 1, 0, T.tile("5p"))
    assert not RS.instant_win(T.parse("5p5p2f13579m"), 1, 0, T.tile("5p"))


def test_caishen_hui_two_real_and_zuohua_as_one_triplet():
    sc = RS.score_win(sit("2f5p5p123m456m789p11z23s", "4s", seat_wind=1, indicator="5p"))
    assert "财神会" in names(sc) and sc.total == 300 and not det(sc, "others_zero")


def test_heavenly_and_earthly():
    hand = "123m456p789s123s1z999m"
    assert "天胡" in names(RS.score_win(sit(hand, "1z", self_drawn=True, indicator="4z", heavenly=True)))
    sc = RS.score_win(sit(hand, "1z", seat_wind=1, indicator="4z", human=True))
    assert "地胡" in names(sc) and det(sc, "others_zero")


def test_big_four_winds_and_honours_only():
    sc = RS.score_win(sit("111z222z333z444z7z123m", "7z", seat_wind=1, indicator="5p"))
    assert "大四喜" in names(sc) and sc.total == 300


def test_eight_pairs_default_legal_and_options():
    hand, win = "1122m3344p5566s777z8m", "8m"  # 7 pairs (8m8m with the winning tile) + 中 triplet
    sc = RS.score_win(sit(hand, win, seat_wind=1, indicator="4z"))
    assert "八对半" in names(sc)
    with pytest.raises(NotAWin):
        Longgang({"eight_pairs": False}).score_win(sit(hand, win, seat_wind=1, indicator="4z"))
    assert Longgang({"eight_pairs_limit": True}).score_win(sit(hand, win, seat_wind=1, indicator="4z")).total == 300


def test_not_a_win():
    with pytest.raises(NotAWin):
        RS.score_win(sit("123m456p789s123s1z998m", "2z", seat_wind=1, indicator="4z"))
    with pytest.raises(NotAWin):  # a flower that should have been set aside
        RS.score_win(sit("123m456p789s12s1z999m2f", "3s", seat_wind=0, indicator="4z"))


def test_kong_replacement_bonus_and_option():
    melds = (Meld.kong(T.tile("9p"), concealed=True),)
    s = sit("123m789s123s1z999m", "1z", melds, self_drawn=True, kong=True, seat_wind=1, indicator="4z")
    hu = names(RS.score_win(s), "hu")
    assert hu.get("自摸") == 2 and "自摸单吊" not in hu
    assert "杠上开花" in names(Longgang({"kong_replacement_tai": True}).score_win(s))


def test_wild_pair_robbing_option():
    s = sit("123m456p789s123s4p999m", "2z", seat_wind=1, indicator="4p", kong=True)
    assert RS.score_win(s).total > 0
    with pytest.raises(NotAWin):
        Longgang({"wild_pair_robbing": False}).score_win(s)


# ---------------------------------------------------------------- 陪家 rules

def test_non_winner_pair_upgraded_by_one_wild():
    w = S.wilds_for(1, T.tile("5p"))
    sc = S.score_other(T.parse("66z5p123m456m789p1s"), (), (), 1, w, S.Rules())
    assert names(sc, "hu") == {"暗刻大子": 8} and sc.total == 20  # 发 triplet 1 台: 8 × 2 = 16 → 20


def test_non_winner_wild_pair_of_seat_wind_not_counted():
    w = S.wilds_for(1, T.tile("5p"))
    sc = S.score_other(T.parse("2z5p123m456m789p"), (), (), 1, w, S.Rules())
    assert sc.total == 0


def test_non_winner_four_flowers_option():
    w = S.wilds_for(0, T.tile("5p"))
    args = (T.parse("77z1f123m"), (Meld.pon(T.tile("9s")),), T.parse("2f3f4f"), 0, w)
    assert names(S.score_other(*args, S.Rules()), "tai")["四花"] == 2
    assert names(S.score_other(*args, S.Rules(non_winner_four_flowers_tai=1)), "tai")["四花"] == 1


# ---------------------------------------------------------------- money

def test_dealer_win_payments():
    hu = S.settle_hu(winner=0, dealer=0, totals=[160, 70, 20, 0], follow=120)
    assert hu[1] == -(2 * 160 + 120) + 50 + 70 and sum(hu) == 0
    assert hu[0] == 3 * (2 * 160 + 120)


def test_non_dealer_win_losers_settle_doubled_with_dealer():
    hu = S.settle_hu(winner=2, dealer=0, totals=[20, 40, 100, 0], follow=60)
    assert hu[2] == 100 * 4 + 3 * 60
    assert hu[0] == -(2 * 100 + 60) - 2 * 20 + 2 * 20  # pays seat 1 double 20, receives double 20 from seat 3
    assert hu[1] == -(100 + 60) + 2 * 20 + 40
    assert hu[3] == -(100 + 60) - 2 * 20 - 40
    assert sum(hu) == 0


def test_follow_hu_tables():
    assert [S.follow_hu(t, False) for t in range(5)] == [30, 60, 90, 120, 120]
    assert [S.follow_hu(t, True) for t in range(4)] == [50, 100, 150, 200]


def test_false_win_chips():
    assert S.false_win_chips(0, 0) == (-60, 20, 20, 20)
    assert S.false_win_chips(2, 0) == (20, 10, -40, 10)


# ---------------------------------------------------------------- ruleset data and options

def test_tile_set_and_wilds():
    from mahjong_audit.engine.rulesets.longgang import COPIES

    assert sum(COPIES) == 136 and COPIES[T.WHITE] == 0 and COPIES[T.tile("5f")] == 0
    assert RS.wild_tiles(2, 0, T.tile("5p")) == frozenset({T.tile("5p"), T.tile("3f")})
    assert RS.wild_tiles(1, 1, T.tile("2f")) == frozenset(T.parse("1f3f4f"))  # 花财神, dealer's 春 is 坐花
    assert RS.flower_kept(0, 0, T.tile("1f"), T.tile("5p")) and not RS.flower_kept(0, 0, T.tile("2f"), T.tile("5p"))
    assert RS.hand_size == 16 and RS.dead_wall == 20 and Longgang({"dead_wall": 21}).dead_wall == 21


def test_options_are_validated_and_documented():
    from mahjong_audit.engine.ruleset import OptionError

    with pytest.raises(OptionError):
        Longgang.parse_options({"dead_wall": 22})
    with pytest.raises(OptionError):
        Longgang.parse_options({"no_such_option": True})
    with pytest.raises(OptionError):
        Longgang.parse_options({"eight_pairs": False, "eight_pairs_limit": True})
    assert all(help_ for _, _, help_ in Longgang.option_docs())


def test_rebought_follow_and_settle():
    rs = Longgang({"rebought": True})
    assert S.follow_hu(3, rs.options.rebought) == 200  # 腊子 after 断筹: 80 / 50 chips
    hu = S.settle_hu(winner=1, dealer=0, totals=[0, 300, 0, 0], follow=200)
    assert [d // 10 for d in hu] == [-80, 180, -50, -50]
