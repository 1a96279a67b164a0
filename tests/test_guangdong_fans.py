"""广东 / 贵港 fan rows: one test per row of each table, the cap, the additions, the
minimum situations and the options that change them (scoring functions called directly)."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, NotAWin, WinSituation
from mahjong_audit.engine.ruleset import OptionError
from mahjong_audit.engine.rulesets import guangdong_fans as F
from mahjong_audit.engine.rulesets.guangdong import Guangdong

RS = Guangdong()
E, S, W, N, P, G, C = range(27, 34)  # 1z..7z


def sit(concealed: str, win: str, *, melds: tuple[Meld, ...] = (), self_drawn: bool = False, seat_wind: int = 1,
        round_wind: int = 0, kong: bool = False, last_tile: bool = False, winners: int = 1) -> WinSituation:
    extra = (("winners", winners),) if winners > 1 else ()
    if len(T.parse(concealed)) != 13 - 3 * len(melds):
        raise ValueError(f"test hand {concealed} has the wrong size")
    return WinSituation(T.parse(concealed), melds, T.tile(win), self_drawn, seat_wind=seat_wind,
                        round_wind=round_wind, kong=kong, last_tile=last_tile, extra=extra)


def score(concealed: str, win: str, rs: Guangdong = RS, **kw):
    s = rs.score_win(sit(concealed, win, **kw))
    return [(i.name, i.value * i.count) for i in s.items], s.total


# --- the tables hold the spec's values ----------------------------------------------

def test_tables_hold_the_spec_values():
    assert [(r.zh, r.value) for r in F.REGULAR] == [("鸡胡", 1), ("平胡", 2), ("混一色", 3), ("对对胡", 4)]
    assert [(r.zh, r.value) for r in F.SPECIAL] == [
        ("清一色", 5), ("混碰", 5), ("七对", 5), ("小三元", 6), ("混幺九", 6), ("清碰", 7), ("小四喜", 7),
        ("字一色", 8), ("清幺九", 8), ("大三元", 8), ("大四喜", 8), ("九莲宝灯", 8), ("十三幺", 8)]
    assert all(r.value == 1 for r in F.ADDITIONS)
    assert F.CAP == 5 and F.MINIMUM_FAN == 5


def test_options_defaults_and_errors():
    o = Guangdong.parse_options({})
    assert (o.base, o.cap, o.multiple_winners, o.min_fan, o.false_win_fan, o.bao_sets) == (1, 5, True, 0, 5, 3)
    assert o.cap_breakers == F.SPECIAL_NAMES and o.additions == frozenset(F.DEFAULT_ADDITIONS)
    assert F.ADDITION_NAMES - o.additions == {"报听"}
    with pytest.raises(OptionError):
        Guangdong.parse_options({"fan_values": {"不存在": 3}})
    with pytest.raises(OptionError):
        Guangdong.parse_options({"minimum_situations": ["heavenly"]})
    with pytest.raises(OptionError):
        Guangdong.parse_options({"cap": 0})
    with pytest.raises(OptionError):
        Guangdong.parse_options({"flowers": True})


# --- regular hands (one test per row) -------------------------------------------------

def test_chicken_hand():
    assert score("123m456p789s111m5s", "5s") == ([("鸡胡", 1)], 1)


def test_all_chows():
    assert score("123m456p789s234s5s", "5s") == ([("平胡", 2)], 2)


def test_all_chows_with_an_honour_pair_and_a_chi():
    assert score("456p789s234s1z", "1z", melds=(Meld.chi(0, 1),)) == ([("平胡", 2)], 2)


def test_half_flush():
    assert score("123m456m789m333z5m", "5m") == ([("混一色", 3)], 3)


def test_all_pungs():
    assert score("111m222p999s5s", "5s", melds=(Meld.pon(T.tile("7p")),)) == ([("对对胡", 4)], 4)


def test_highest_regular_hand_applies_over_decompositions():
    # 111222333m: three pungs or three chows; as pungs with 444p and 55s it is 对对胡
    assert score("111222333m444p5s", "5s") == ([("对对胡", 4)], 4)
    # 111222333m456p5s: chows reading gives 平胡 2, the pung reading 鸡胡 1
    assert score("111222333m456p5s", "5s") == ([("平胡", 2)], 2)


# --- additions (one test per row) ----------------------------------------------------

def test_addition_self_drawn():
    assert score("123m456p789s111m5s", "5s", self_drawn=True) == ([("鸡胡", 1), ("自摸", 1)], 2)


def test_addition_seat_wind():
    assert score("123m456p789s222z5s", "5s", seat_wind=1) == ([("鸡胡", 1), ("门风刻", 1)], 2)


def test_addition_round_wind():
    assert score("123m456p789s111z5s", "5s", seat_wind=1, round_wind=0) == ([("鸡胡", 1), ("圈风刻", 1)], 2)


def test_seat_and_round_wind_both_count():
    assert score("123m456p789s111z5s", "5s", seat_wind=0, round_wind=0) == \
        ([("鸡胡", 1), ("门风刻", 1), ("圈风刻", 1)], 3)


def test_addition_each_dragon_pung():
    assert score("123m456p555z5s", "5s", melds=(Meld.pon(G),)) == ([("鸡胡", 1), ("箭刻", 2)], 3)


def test_additions_are_capped_at_five():
    # 对对胡 4 + 自摸 + 门风刻 = 6, 爆胡 caps it at 5
    got = RS.score_win(sit("111m999p222z5s", "5s", melds=(Meld.pon(T.tile("7p")),), self_drawn=True))
    assert [(i.name, i.value) for i in got.items] == [("对对胡", 4), ("自摸", 1), ("门风刻", 1)]
    assert got.total == 5 and ("capped", True) in got.details


def test_cap_option_none_and_additions_option():
    rs = Guangdong({"cap": None})
    assert score("111m999p222z5s", "5s", rs, melds=(Meld.pon(T.tile("7p")),), self_drawn=True)[1] == 6
    rs = Guangdong({"additions": ["自摸"]})
    assert score("123m456p789s222z5s", "5s", rs, seat_wind=1, self_drawn=True) == ([("鸡胡", 1), ("自摸", 1)], 2)


# --- special hands (one test per row) ------------------------------------------------

SPECIAL_CASES = [
    ("清一色", "123m456m789m234m5m", "5m", (), 5),
    ("混碰", "111m999m111z2z", "2z", (Meld.pon(4),), 5),
    ("七对", "1133557m224466p", "7m", (), 5),
    ("小三元", "123m456m666z7z", "7z", (Meld.pon(P),), 6),
    ("混幺九", "111m999p111z2z", "2z", (Meld.pon(26),), 6),
    ("清碰", "111m333m999m5m", "5m", (Meld.pon(6),), 7),
    ("小四喜", "111z222z333z4z", "4z", (Meld.chi(0, 1),), 7),
    ("字一色", "111z222z555z7z", "7z", (Meld.pon(G),), 8),
    ("清幺九", "111m999m111p9s", "9s", (Meld.pon(17),), 8),
    ("大三元", "555z666z777z12m99p", "3m", (), 8),
    ("大四喜", "111z222z333z5p", "5p", (Meld.pon(N),), 8),
    ("九莲宝灯", "1112345678999p", "5p", (), 8),
    ("十三幺", "19m19p19s1234567z", "7z", (), 8),
]


@pytest.mark.parametrize(("name", "concealed", "win", "melds", "value"), SPECIAL_CASES, ids=[c[0] for c in SPECIAL_CASES])
def test_special_hand(name, concealed, win, melds, value):
    got = RS.score_win(sit(concealed, win, melds=melds, self_drawn=True, seat_wind=0, round_wind=0))
    assert [(i.name, i.value) for i in got.items] == [(name, value)]  # no additions beyond the cap
    assert got.total == value and ("special", True) in got.details


def test_every_special_row_has_a_case():
    assert {c[0] for c in SPECIAL_CASES} == F.SPECIAL_NAMES


def test_highest_special_applies_and_ties_take_the_table_order():
    # 清一色 七对: 清一色 5 and 七对 5 tie; the earlier row (清一色) is reported
    assert score("1122334557799m", "4m") == ([("清一色", 5)], 5)
    # 字一色 with 大三元: 8 each, 字一色 comes first in the table
    assert score("555z666z777z111z2z", "2z") == ([("字一色", 8)], 8)


def test_honour_seven_pairs_is_only_seven_pairs():
    # the seed's 字一色 is a pung hand; seven honour pairs score 七对
    assert score("1122334455667z", "7z") == ([("七对", 5)], 5)


def test_seven_pairs_with_four_of_a_kind_option():
    assert score("1111m3355p7799s2z", "2z") == ([("七对", 5)], 5)
    with pytest.raises(NotAWin):
        Guangdong({"seven_pairs_four": False}).score_win(sit("1111m3355p7799s2z", "2z"))


def test_fan_values_option_gives_the_other_reading():
    rs = Guangdong({"fan_values": dict(F.ALTERNATIVE_READING)})
    assert score("123m456m666z7z", "7z", rs, melds=(Meld.pon(P),)) == ([("小三元", 7)], 7)
    assert score("111m333m999m5m", "5m", rs, melds=(Meld.pon(6),)) == ([("清碰", 6)], 6)


def test_a_special_hand_not_breaking_the_cap_scores_as_a_regular_hand():
    rs = Guangdong({"cap_breakers": sorted(F.SPECIAL_NAMES - {"小三元"})})
    # 小三元 6 becomes a regular base: 6 + 箭刻×2, capped at 5
    got = rs.score_win(sit("123m456m666z7z", "7z", melds=(Meld.pon(P),)))
    assert [(i.name, i.value * i.count) for i in got.items] == [("小三元", 6), ("箭刻", 2)]
    assert got.total == 5


def test_not_a_win():
    with pytest.raises(NotAWin):
        RS.score_win(sit("123m456p789s1235s", "9s"))
    assert not RS.is_complete(T.parse("123m456p789s12359s"), ())
    assert RS.is_complete(T.parse("123m456p789s11z555s"), ())
    assert RS.is_complete(T.counts(T.parse("19m19p19s12345677z"), 34), ())


# --- minimum situations --------------------------------------------------------------

def test_kong_replacement_win_is_worth_five():
    got = RS.score_win(sit("123m456p789s111m5s", "5s", self_drawn=True, kong=True))
    assert got.total == 5 and ("minimum", "杠上开花") in got.details


def test_last_tile_self_drawn_is_worth_five_but_not_a_last_discard():
    assert score("123m456p789s111m5s", "5s", self_drawn=True, last_tile=True)[1] == 5
    assert score("123m456p789s111m5s", "5s", last_tile=True)[1] == 1


def test_multiple_win_is_worth_five_from_two_winners_by_default():
    assert score("123m456p789s111m5s", "5s", winners=2)[1] == 5
    rs = Guangdong({"multiple_win_from": 3})
    assert score("123m456p789s111m5s", "5s", rs, winners=2)[1] == 1
    assert score("123m456p789s111m5s", "5s", rs, winners=3)[1] == 5


def test_minimum_does_not_lower_a_bigger_hand():
    assert score("111z222z333z4z", "4z", melds=(Meld.chi(0, 1),), winners=3)[1] == 7


def test_robbing_kong_minimum_is_an_option():
    assert score("123m456p789s111m5s", "5s", kong=True)[1] == 1
    rs = Guangdong({"minimum_situations": ["robbing_kong"]})
    assert score("123m456p789s111m5s", "5s", rs, kong=True)[1] == 5
    assert score("123m456p789s111m5s", "5s", rs, self_drawn=True, kong=True)[1] == 2


def test_min_fan_option_marks_below_minimum():
    assert not RS.score_win(sit("123m456p789s111m5s", "5s")).below_minimum
    assert Guangdong({"min_fan": 2}).score_win(sit("123m456p789s111m5s", "5s")).below_minimum


# --- 九莲宝灯: which hands (seed: only the name "九蓮寶燈 8"; docs/rules/guangdong.md) ---------

def test_nine_gates_default_is_any_fourteen_concealed_tiles_of_the_shape():
    # 1112345678899p + 9p: the 14 tiles hold 1112345678999 plus an 8, though the wait was not nine-sided
    assert score("1112345678899p", "9p", self_drawn=True) == ([("九莲宝灯", 8)], 8)
    assert Guangdong.parse_options({}).nine_gates == "shape"


def test_nine_gates_pure_wait_option_needs_1112345678999_before_the_win():
    rs = Guangdong({"nine_gates": "pure_wait"})
    assert score("1112345678899p", "9p", rs, self_drawn=True) == ([("清一色", 5)], 5)
    for win in "123456789":
        assert score("1112345678999p", win + "p", rs, self_drawn=True) == ([("九莲宝灯", 8)], 8)


def test_nine_gates_never_with_an_exposed_set_in_either_reading():
    for reading in ("shape", "pure_wait"):
        rs = Guangdong({"nine_gates": reading})
        assert score("2345678999p", "5p", rs, melds=(Meld.pon(9),))[0][0][0] != "九莲宝灯"
    with pytest.raises(OptionError):
        Guangdong.parse_options({"nine_gates": "nine"})
