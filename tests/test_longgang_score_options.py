"""龙港麻将: the readings where the seed can be read two ways, each an option (issue 12; the
second reading is the one of the seed oracle in tests/oracles/longgang_seed.py).

For each: the default and the option on one worked example, quoting the seed, and the
property tests of tests/test_longgang_score_readings.py run again with the option on.
Tile notation: 1f–4f are 春夏秋冬 (the 坐花 of East, South, West, North)."""

from __future__ import annotations

import random

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, NotAWin, WinSituation
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests import longgang_brute as B
from tests import longgang_handgen as G
from tests.longgang_build import key, names, wait_bonus
from tests.longgang_build import reading_sit as sit
from tests.longgang_handgen import WINNER_SEEDS

RS = Longgang()
#: every option set to the oracle's reading (tests/oracles/compare_longgang.py ORACLE_READINGS)
ORACLE = Longgang({"zuo_is_second_caishen": False, "wild_beyond_fourth_copy": "any",
                   "non_winner_single_two_wilds": False, "non_winner_wild_choice": "best"})


DEFAULT_RULES = S.Rules()


def other(tiles: str, melds=(), *, seat_wind=0, indicator="5p", flowers="", rules=DEFAULT_RULES):
    w = S.wilds_for(seat_wind, T.tile(indicator))
    return S.score_other(T.parse(tiles), tuple(melds), T.parse(flowers) if flowers else (), seat_wind, w, rules)


# ---------------------------------------------------------------- 坐花 + one 正财: 双财神?

def test_zuohua_and_one_caishen_is_two_caishen_by_default():
    # 四、3 "坐花与正财1台" read as the 双财神 of 四、1 "两个神计一台": the 坐花 1 台 and 双财神 1 台
    s = sit("123m456m789p23s88m9m5p1f", "1s", indicator="5p")
    assert names(RS.score_win(s), "tai") == {"坐花": 1, "双财神": 1}


def test_zuohua_and_one_caishen_option_counts_only_the_zuohua():
    # option zuo_is_second_caishen false: "两个神" are two 正财; 坐花 + 正财 is the 坐花's 1 台
    s = sit("123m456m789p23s88m9m5p1f", "1s", indicator="5p")
    opt = Longgang({"zuo_is_second_caishen": False})
    assert names(opt.score_win(s), "tai") == {"坐花": 1}
    two_real = sit("123m456m789p23s88m9m5p5p", "1s", indicator="5p")  # two 正财 stay 双财神
    assert names(opt.score_win(two_real), "tai")["双财神"] == 1


def test_non_winner_zuohua_and_one_caishen_option():
    # a 陪家 (East) with 中中 and 东东: one triplet takes the 坐花, the other the 正财
    default = other("77z11z1f5p")
    assert names(default, "tai") == {"字刻": 2, "坐花": 1, "双财神": 1}
    opt = other("77z11z1f5p", rules=S.Rules(zuo_is_second_caishen=False))
    assert names(opt, "tai") == {"字刻": 2, "坐花": 1}


# ---------------------------------------------------------------- beyond the fourth copy

def _closed_wait_beside_a_kong(suit: str, r: int, kong_rank: int) -> WinSituation:
    """East holds (r-1) + 中 (the 财神) + 东东 + 南南南, pons of 发 and 北 and a concealed kong of
    ``kong_rank``, and wins r on a discard: the wild makes r-1 r r+1 (卡档) only as an r+1."""
    low, win, kong = (T.tile(f"{x}{suit}") for x in (r - 1, r, kong_rank))
    concealed = (low, T.RED, T.EAST, T.EAST, T.SOUTH, T.SOUTH, T.SOUTH)
    melds = (Meld.pon(T.GREEN), Meld.kong(kong, concealed=True), Meld.pon(T.tile("4z")))
    return WinSituation(concealed, melds, win, False, seat_wind=0, extra=(("indicator", T.RED),))


#: the stricter reading of the copies a wild may add (option; the default is "any", issue 24)
STRICT = Longgang({"wild_beyond_fourth_copy": "value_honours"})
STRICT_RULES = S.Rules(wild_beyond_fourth_copy="value_honours")


def test_wild_as_a_fifth_copy_gives_the_closed_wait_by_default():
    # the issue's hand: 2m2m3m 666z 中 + chi 123m, pon 北, concealed kong 5m; 4m won on a discard,
    # 中 the 财神 kind. By default (三)a "财神可以用来代替其他所有的牌": nothing in the seed forbids a
    # fifth copy) 中 may be a fifth 5m: 3m-4m-5m, 卡档 2, 54 胡, 220.
    melds = (Meld.chi(0, 2), Meld.pon(T.tile("4z")), Meld.kong(T.tile("5m"), concealed=True))
    s = sit("22m3m666z7z", "4m", melds, seat_wind=1, indicator="7z", flowers="3f")
    sc = RS.score_win(s)
    assert (sc.total, wait_bonus(sc)) == (220, {"卡档": 2})
    # option value_honours: 二、三)e "如手牌已碰红中（青发，坐风同理）,再胡红中配两财神…（或手中有四个红中配双财神
    # 也计3台）" names 中, 发 and the seat wind, and no other kind takes a fifth copy, so 中 stands for
    # 2m (2m3m4m): 52 胡, 2 台, 210
    sc = STRICT.score_win(s)
    assert (sc.total, wait_bonus(sc)) == (210, {})
    # without the kong of 5m the strict reading finds 卡档 too
    melds_6m = (Meld.chi(0, 2), Meld.pon(T.tile("4z")), Meld.kong(T.tile("6m"), concealed=True))
    sc = STRICT.score_win(sit("22m3m666z7z", "4m", melds_6m, seat_wind=1, indicator="7z", flowers="3f"))
    assert (sc.total, wait_bonus(sc)) == (220, {"卡档": 2})


@pytest.mark.parametrize("suit", "mps")
@pytest.mark.parametrize("r", range(3, 9))
def test_closed_wait_beside_a_kong_family(suit, r):
    # r-1 + a wild, r won on a discard, the four r+1 in a kong: 卡档 only with a fifth r+1
    s = _closed_wait_beside_a_kong(suit, r, r + 1)
    assert wait_bonus(RS.score_win(s)) == {"卡档": 2}
    assert wait_bonus(STRICT.score_win(s)) == {}
    # the kong elsewhere: 卡档 in both readings
    elsewhere = _closed_wait_beside_a_kong(suit, r, 1 if r > 3 else 9)
    assert wait_bonus(STRICT.score_win(elsewhere)) == {"卡档": 2}


def test_wild_as_a_fifth_copy_is_a_win_by_default_and_not_under_the_strict_option():
    # 北北北北 + two wilds: a second 北 triplet for East (三)a); the strict reading takes no fifth
    # copy of a wind that is not the seat's, and the hand is no win
    s = sit("4444z123m456m789m11s6z", "1f", self_drawn=True, indicator="6z")
    sc = RS.score_win(s)
    assert names(sc, "hu")["暗刻大子"] == 16
    with pytest.raises(NotAWin):
        STRICT.score_win(s)


def test_the_issues_flower_caishen_hand_scores_80_by_default():
    # issue 24: 1,000 independently simulated games flagged three legal wins as false wins under
    # the old default. 花财神 (indicator 夏): the seat's 3f (秋, West's 坐花) stands for 3m beside
    # the concealed kong of 3m: 2m3m4m 6m7m8m 1s2s3s 1z1z + kong 3m + pon 8p, 7m won on a discard.
    # Seed 二、三)a "财神可以用来代替其他所有的牌", and 二、三)e shows a wild as a fifth and sixth
    # 中 ("或手中有四个红中配双财神也计3台"): nothing forbids a fifth 3m, so the win stands.
    s = WinSituation(T.parse("1z6m2m3f3s4m2s8m1z1s"), (Meld.kong(T.tile("3m"), concealed=True),
                                                       Meld.pon(T.tile("8p"), 1)),
                     T.tile("7m"), False, seat_wind=2, extra=(("indicator", T.tile("2f")),))
    assert RS.score_win(s).total == 80
    with pytest.raises(NotAWin):  # the stricter reading (option value_honours): not_a_win
        STRICT.score_win(s)


def test_non_winner_four_alike_and_wilds():
    # a 陪家 with 6p6p6p6p, 坐花 and the 正财: by default two 6p triplets (a fifth and sixth 6p)
    assert names(other("6666p1f5m", indicator="5m"), "hu") == {"暗刻小子": 8}
    strict = other("6666p1f5m", indicator="5m", rules=STRICT_RULES)
    assert names(strict, "hu") == {"暗刻小子": 4}


# ---------------------------------------------------------------- 陪家: one tile + two wilds

def test_non_winner_single_and_two_wilds_is_a_triplet_by_default():
    # 三)f "比如手中剩四张牌：坐花，两个财神，红中，则牌面胡数只算红中刻8已碰杠等胡数，计2台"
    sc = other("7z1f5p5p")
    assert (names(sc, "hu"), sum(names(sc, "tai").values())) == ({"暗刻大子": 8}, 2)


def test_non_winner_single_and_two_wilds_option():
    # option false: 一、A)2) "两个财神或坐花配一张牌可视为暗刻胡，非胡牌者不行" — the 中 stays single
    sc = other("7z1f5p5p", rules=S.Rules(non_winner_single_two_wilds=False))
    assert sc.total == 0 and names(sc) == {}
    # a pair still takes a wild (三)f 财神卖兵 "如不能与手牌组成刻子…作废")
    sc = other("77z1f5p5p", rules=S.Rules(non_winner_single_two_wilds=False))
    assert names(sc, "hu") == {"暗刻大子": 8}


# ---------------------------------------------------------------- 陪家: which wild fills

def test_non_winner_caishen_fills_before_the_zuohua_by_default():
    # 三)f's example counts 2 台 for 坐花 + two 财神 + 中 (字刻 + 双财神): the 正财 fill, the 坐花 卖兵.
    # With one wild needed the 正财 is used and the 坐花 scores nothing: 9p9p + 坐花 + 正财
    sc = other("99p1f5p")
    assert names(sc, "tai") == {}


def test_non_winner_wild_choice_best_uses_the_zuohua():
    # option best: the 坐花 completes 9p9p9p (坐花 1 台), the 正财 卖兵
    sc = other("99p1f5p", rules=S.Rules(non_winner_wild_choice="best"))
    assert names(sc, "tai") == {"坐花": 1}
    assert sc.total == 20  # 暗刻大子 8 × 2 → 16 → 20


def test_non_winner_wild_choice_best_keeps_the_seed_example_with_its_reading():
    # 三)f with both alternative readings (坐花 + 正财 not 双财神, free choice): still 2 台
    rules = S.Rules(non_winner_wild_choice="best", zuo_is_second_caishen=False)
    assert sum(names(other("7z1f5p5p", rules=rules), "tai").values()) == 2


# ---------------------------------------------------------------- 陪家 at the cap

def test_non_winner_reaching_300_is_not_a_limit_hand():
    # 五、(二)4 "满贯300胡，胡家三台满贯称为“腊子”，陪家最高胡数亦为300胡（台数无限制，以胡数计算300胡为限）":
    # a 陪家 is capped at 300 but is not 腊子 (the ``score`` command's ``limit`` stays false)
    seat = RS.score_win(sit("777z666z11z9m5p1f", "9m", indicator="5p", role="other"))
    assert seat.total == 300
    assert dict(seat.details).get("limit", False) is False


# ---------------------------------------------------------------- the properties with the options on

@pytest.mark.parametrize("seed", WINNER_SEEDS[:60])
def test_chosen_reading_is_never_worse_with_the_oracle_readings(seed):
    s = G.winning_hand(random.Random(seed))
    assert s is not None
    sc = ORACLE.score_win(s)
    if "三财神" in names(sc):
        return
    best = B.best_winner_key(s, ORACLE.rules)
    assert best is not None
    assert key(sc) == best[0], best[1]


@pytest.mark.parametrize("seed", range(80))
def test_non_winner_placement_is_never_worse_with_the_oracle_readings(seed):
    tiles, melds, seat_wind, indicator = G.other_hand(random.Random(seed))
    w = S.wilds_for(seat_wind, indicator)
    rules = ORACLE.rules
    assert key(S.score_other(tiles, melds, (), seat_wind, w, rules)) == B.other_best_key(
        tiles, melds, (), seat_wind, w, rules)
