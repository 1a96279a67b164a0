"""龙港麻将: the reading a hand is scored by (issue 12, causes 1–6).

For each cause: the seed example, a family of generated cases, and the property that the
chosen reading is never worse than any other legal placement of the wilds — for winners
(against the brute-force enumerator in ``tests/longgang_brute.py``) and for 陪家.
Tile notation: 1f–4f are 春夏秋冬 (the 坐花 of East, South, West, North)."""

from __future__ import annotations

import json
import random

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import PAIR, TRIPLET, Part
from mahjong_audit.engine.hand import Meld, NotAWin, WinSituation
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from mahjong_audit.schemas.situation import Situation
from tests import longgang_brute as B
from tests import longgang_handgen as G
from tests.longgang_build import HandBuilder, audit, codes, key, names, wait_bonus
from tests.longgang_build import reading_sit as sit
from tests.longgang_handgen import WINNER_SEEDS

RS = Longgang()


# ---------------------------------------------------------------- 1. the wait of a drawn wild

def test_drawn_wild_at_the_end_of_a_run_is_plain_self_draw():
    # 二、二)1 "自摸卡档牌胡牌时为4胡，边牌胡牌时为2胡"; 二、二)3 "坎张：胡2张牌之间的牌".
    # 3s4s5s 4s5s + the drawn 坐花: it can stand only for 3s or 6s, the end of a run.
    sc = RS.score_win(sit("345s45s123m456p789p99m", "1f", self_drawn=True))
    assert wait_bonus(sc) == {"自摸": 2}


@pytest.mark.parametrize("suit", "mps")
@pytest.mark.parametrize("r", range(1, 8))
def test_drawn_wild_at_a_run_end_family(suit, r):
    # the run r..r+2 and r+1 r+2 beside it; the wild can only make r or r+3 (or, for 89, 7)
    run = f"{r}{r + 1}{r + 2}{suit}{r + 1}{r + 2}{suit}"
    rest = {"m": "111p999p111s", "p": "111m999m111s", "s": "111m999m111p"}[suit]
    sc = RS.score_win(sit(run + rest + "44z", "1f", self_drawn=True, indicator="6z"))
    assert wait_bonus(sc) == {"自摸": 2}


@pytest.mark.parametrize("suit", "mps")
@pytest.mark.parametrize("r", range(2, 9))
def test_drawn_wild_in_the_middle_is_closed_family(suit, r):
    # r−1 and r+1 with the drawn wild between them: 卡档, 自摸 4
    hand = f"{r - 1}{r + 1}{suit}" + {"m": "111p999p111s", "p": "111m999m111s", "s": "111m999m111p"}[suit]
    sc = RS.score_win(sit(hand + "444z22z", "1f", self_drawn=True, indicator="6z"))
    assert wait_bonus(sc) == {"自摸卡档": 4}


# ---------------------------------------------------------------- 2. 财神归位

def test_caishen_homing_on_the_winning_tile_is_hard_win():
    # 二、三)c "财神归位:是指财神代替本身那张牌胡牌"; 四、1 "胡牌时没有财神(坐花)也计一台".
    # 4s 6s + a self-drawn 5s, 5s being the 财神 kind: it stands for itself.
    sc = RS.score_win(sit("46s99m123p456p789s111z", "5s", self_drawn=True, indicator="5s"))
    assert "硬胡" in names(sc, "tai") and wait_bonus(sc) == {"自摸卡档": 4}


def test_two_caishen_eyes_as_themselves_is_hard_eight_pairs():
    # 四、18 "无财神或者财神归位，称为硬八对": the two 正财 are the pair as themselves
    sc = RS.score_win(sit("11m22m33p44p66s77s777z9s", "9s", self_drawn=True, indicator="9s"))
    assert {"硬胡", "双财神", "八对半"} <= set(names(sc, "tai"))
    assert sc.total == S.ceil_cap(28 * 2 ** 3)  # 底胡 20 + 中 triplet 8; 双财神 + 硬胡 + 字刻


@pytest.mark.parametrize("kind", [f"{r}{s}" for s in "mps" for r in range(2, 9)])
def test_homing_family(kind):
    # every suited 财神 kind with both neighbours: r−1, r+1 + the self-drawn 正财 → 硬胡, 卡档
    t = T.tile(kind)
    lo, hi = T.name(t - 1), T.name(t + 1)
    other = "111m999m" if kind[1] != "m" else "111p999p"
    hand = lo + hi + other + "111z222z77z"
    sc = RS.score_win(sit(hand, kind, self_drawn=True, indicator=kind, seat_wind=2))
    assert "硬胡" in names(sc, "tai") and wait_bonus(sc) == {"自摸卡档": 4}
    # the same hand won on a natural tile with a 坐花 in its place is not 硬胡
    sc = RS.score_win(sit(hand, "3f", self_drawn=True, indicator=kind, seat_wind=2))
    assert "硬胡" not in names(sc, "tai")


# ---------------------------------------------------------------- 3. the most favourable reading

def test_drawn_caishen_between_with_natural_eyes_is_closed():
    # 五、(一)1 "和牌者可以自由选择最有利的牌形来计分": 4m _ 6m with the drawn 财神 as 5m and
    # the natural 5m5m as the eyes → 卡档
    sc = RS.score_win(sit("4556m123p456p789s111z", "5s", self_drawn=True, indicator="5s", seat_wind=1))
    assert wait_bonus(sc) == {"自摸卡档": 4}
    assert sc.total == S.ceil_cap(20 + 8 + 4)


@pytest.mark.parametrize("suit", "mps")
@pytest.mark.parametrize("r", range(2, 9))
def test_drawn_caishen_between_with_natural_eyes_family(suit, r):
    # (r−1) r r (r+1) + a drawn 财神: r−1 _ r+1 with the wild as r, the natural r r as the eyes
    hand = f"{r - 1}{r}{r}{r + 1}{suit}" + {"m": "123p456p789s", "p": "123m456m789s", "s": "123m456m789p"}[suit]
    sc = RS.score_win(sit(hand + "111z", "6z", self_drawn=True, indicator="6z", seat_wind=1))
    assert wait_bonus(sc) == {"自摸卡档": 4}


def test_eight_pairs_honour_triplet_with_two_wilds_and_honour_pair():
    # 八对半: 中 + two wilds as the triplet (the drawn one completing it) with 中中 as a pair
    sc = RS.score_win(sit("11m22m33p44p66s77s777z1f", "9s", self_drawn=True, indicator="9s"))
    hu = names(sc, "hu")
    assert hu["将"] == 2 and hu["自摸"] == 2 and hu["暗刻大子"] == 8
    assert sc.total == S.ceil_cap(32 * 2 ** 3)


def test_four_red_and_two_wilds_standard_shape_reads_the_pair_as_red():
    # 中中中 + two wilds: 中中中 with a wild pair, or 中 + two wilds with a 中 pair (将 2)
    sc = RS.score_win(sit("111m999m234p99s777z5s3f", "9s", self_drawn=True, indicator="5s", seat_wind=2))
    assert names(sc, "hu").get("将") == 2 and names(sc, "hu")["暗刻大子"] == 32


# ---------------------------------------------------------------- 4. a pair of 财神 / 坐花

def test_caishen_pair_scores_no_pair_points():
    # 二、三)a "如是财神坐花对作将牌，不计将胡数，只计台数": 发发 when 发 is the 财神 kind
    sc = RS.score_win(sit("123m456m789m123p45p66z", "6p", indicator="6z"))
    assert "将" not in names(sc, "hu")
    assert names(sc, "tai") == {"双财神": 1, "硬胡": 1}


def test_real_red_and_zuohua_pair_scores_no_pair_points():
    # 正财 中 + 坐花 as the pair: the reading that puts them there gives no 将 …
    parts = (Part(PAIR, T.RED, 1), Part(TRIPLET, T.tile("1m")), Part(TRIPLET, T.tile("9m")),
             Part(TRIPLET, T.tile("1p")), Part(TRIPLET, T.tile("9p")), Part(TRIPLET, T.tile("1s")))
    reading = R.Reading(parts, 5, T.tile("1s"), False, 1, "standard")
    red_is_wild = sit("111m999m111p999p11s7z1f", "1s", indicator="7z")
    assert "将" not in names(S.score_reading(red_is_wild, reading, RS.rules), "hu")
    # … while a natural 中 with a wild is a pair worth 2 to a winner (一、B 4 "单发坐风配财神坐花成对子的，胡牌者计2胡")
    red_is_natural = sit("111m999m111p999p11s7z1f", "1s", indicator="9s")
    assert names(S.score_reading(red_is_natural, reading, RS.rules), "hu")["将"] == 2


@pytest.mark.parametrize("honour", ["1z", "2z", "6z", "7z"])
def test_caishen_pair_family(honour):
    # the two 正财 of an honour kind as the eyes: 0 将 whatever the kind (seat wind East: 1z)
    sc = RS.score_win(sit(f"123m456m789m123p45p{honour}{honour}", "6p", indicator=honour))
    assert "将" not in names(sc, "hu") and "硬胡" in names(sc, "tai")


# ---------------------------------------------------------------- 5. 陪家 with four alike and wilds

def test_non_winner_four_red_and_two_wilds_is_two_triplets():
    # 二、三)e "或手中有四个红中配双财神也计3台": the fourth 中 with 正财 + 坐花 is a second 中 triplet
    w = S.wilds_for(0, T.tile("5p"))
    melds = (Meld.chi(0, 0), Meld.chi(9, 9), Meld.chi(18, 18))
    sc = S.score_other(T.parse("7777z1s5p1f"), melds, (), 0, w, S.Rules())
    assert names(sc, "tai") == {"字刻": 2, "坐花": 1, "双财神": 1}
    assert names(sc, "hu") == {"暗刻大子": 16} and sc.total == S.ceil_cap(16 * 2 ** 4)


@pytest.mark.parametrize("honour", ["6z", "7z", "1z"])
@pytest.mark.parametrize("single", ["1s", "5m", "9p"])
def test_non_winner_four_alike_family(honour, single):
    w = S.wilds_for(0, T.tile("5p"))
    sc = S.score_other(T.parse(f"{honour * 4}{single}5p1f"), (), (), 0, w, S.Rules())
    assert names(sc, "tai")["字刻"] == 2 and names(sc, "hu")["暗刻大子"] == 16


# ---------------------------------------------------------------- 6. a win on a flower's replacement

def test_flower_replacement_win_is_plain_self_draw():
    # 二、二)9 "开杠或补花时，用杠尾摸的那张牌（岭上牌）而和牌，只计自摸2胡"; 二、二)1 "自摸(含补花…)"
    hand = "123m456p789s123s1z999m"
    plain = RS.score_win(sit(hand, "1z", self_drawn=True, seat_wind=1, indicator="4z"))
    assert wait_bonus(plain) == {}  # a single wait self-drawn: no bonus
    for kind in ("flower", "kong"):
        s = sit(hand, "1z", self_drawn=True, seat_wind=1, indicator="4z", replacement=kind)
        assert wait_bonus(RS.score_win(s)) == {"自摸": 2}
    closed = sit("13m456p789s123s11z999m", "2m", self_drawn=True, seat_wind=1, indicator="4z",
                 replacement="flower")
    assert wait_bonus(RS.score_win(closed)) == {"自摸": 2}  # not 自摸卡档 4
    opt = Longgang({"kong_replacement_tai": True})
    assert "杠上开花" in names(opt.score_win(closed))


@pytest.mark.parametrize("replacement", ["flower", "kong"])
@pytest.mark.parametrize("concealed,win", [
    ("13m456p789s123s11z999m", "2m"),  # closed: not 自摸卡档 4
    ("12m456p789s123s11z999m", "3m"),  # edge
    ("23m456p789s123s11z999m", "4m"),  # two-sided
    ("123m456p789s123s1z999m", "1z"),  # single: not 0
    ("77z123m456m789m234p55s", "7z"),  # triplet: 自摸 2 beside the concealed triplet
])
def test_replacement_win_family(replacement, concealed, win):
    sc = RS.score_win(sit(concealed, win, self_drawn=True, seat_wind=1, indicator="4z", replacement=replacement))
    assert wait_bonus(sc) == {"自摸": 2}


def test_flower_replacement_win_in_a_replayed_hand():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z")
    b.draw(1, "3f").ev("flower", 1, tile="3f").draw(1, "7z", back=True).win(1, "7z", 1)
    res = audit(b.hand())
    assert codes(res) == []
    w = res.hands[0].wins[0]
    assert w.win_type == "self_drawn"  # not a kong replacement
    assert dict(w.score.details)["hu"] == 20 + 2 + 2 + 4  # 中 pair, 自摸 (补花), one flower set aside
    assert names(w.score, "hu")["自摸"] == 2


def test_plain_self_draw_single_wait_has_no_bonus_in_a_replayed_hand():
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").draw(1, "7z").win(1, "7z", 1)
    w = audit(b.hand()).hands[0].wins[0]
    assert dict(w.score.details)["hu"] == 22  # single wait self-drawn: only the 中 pair


def test_score_situation_replacement_field():
    line = {"concealed": T.names(T.parse("123m456p789s123s1z999m")), "win_tile": "1z", "self_drawn": True,
            "seat_wind": "S", "replacement": "flower", "ruleset_fields": {"indicator": "4z"}}
    s = Situation.model_validate(line).to_situation()
    assert s.get("replacement") == "flower" and not s.kong
    kong = Situation.model_validate({**line, "replacement": "kong"}).to_situation()
    assert kong.kong and kong.get("replacement") == "kong"
    with pytest.raises(ValueError):
        Situation.model_validate({**line, "replacement": "dragon"})
    assert json.dumps(line)  # the field is plain JSON


def test_mcr_flower_replacement_is_not_kong_replacement():
    from mahjong_audit.engine.rulesets.mcr import MCR

    s = Situation.model_validate({"concealed": T.names(T.parse("123m456p789s123s1z")), "win_tile": "1z",
                                  "self_drawn": True, "replacement": "flower"}).to_situation()
    assert "杠上开花" not in {i.name for i in MCR().score_win(s).items}


# ---------------------------------------------------------------- the property: never worse

@pytest.mark.parametrize("seed", WINNER_SEEDS)
def test_chosen_reading_is_never_worse_than_any_placement(seed):
    s = G.winning_hand(random.Random(seed))
    assert s is not None
    sc = RS.score_win(s)
    if "三财神" in names(sc):
        return  # wins at once, no reading
    best = B.best_winner_key(s, RS.rules)
    assert best is not None, "the brute force finds no reading of a hand the scorer accepts"
    assert key(sc) == best[0], best[1]


@pytest.mark.parametrize("seed", range(120))
def test_non_winner_placement_is_never_worse(seed):
    tiles, melds, seat_wind, indicator = G.other_hand(random.Random(seed))
    w = S.wilds_for(seat_wind, indicator)
    sc = S.score_other(tiles, melds, (), seat_wind, w, S.Rules())
    assert key(sc) == B.other_best_key(tiles, melds, (), seat_wind, w, S.Rules())


def test_issue_examples_totals():
    # the examples above with their totals (each one differed before the search took every placement)
    cases = [
        (sit("345s45s123m456p789p99m", "1f", self_drawn=True, indicator="5z"), 50),
        (sit("46m99m123p456p789s111z", "5m", self_drawn=True, indicator="5m"), 130),
        (sit("4556m123p456p789s111z", "5s", self_drawn=True, indicator="5s", seat_wind=1), 40),
        (sit("11m22m33p44p66s77s777z1f", "9s", self_drawn=True, indicator="9s"), 260),
        (sit("123m456m789m123p45p66z", "6p", indicator="6z"), 80),
    ]
    for s, total in cases:
        assert RS.score_win(s).total == total


# ---------------------------------------------------------------- the seed's worked examples

SEED_160_MELDS = (Meld.chi(0, 0), Meld.chi(2, 2), Meld.chi(6, 6))


@pytest.mark.parametrize("win", ["2m", "4m", "6m", "8m", "2z"])
def test_seed_160_with_the_runs_exposed(win):
    # 五、(二)4 A "胡家三台最少是160胡，如庄家牌型：123 2财4 345 6财8 789 南花；放炮胡牌"
    standing = T.parse("2468m2z5p5p1f")
    rest = list(standing)
    rest.remove(T.tile(win))
    s = WinSituation(tuple(rest), SEED_160_MELDS, T.tile(win), False, extra=(("indicator", T.tile("5p")),))
    sc = RS.score_win(s)
    assert sc.total == 160 and names(sc, "tai") == {"坐花": 1, "双财神": 1, "混一色": 1}


@pytest.mark.parametrize("win,total", [("2z", 200), ("1m", 230), ("2m", 240), ("3m", 240), ("9m", 230)])
def test_seed_160_cannot_be_reached_with_the_runs_concealed(win, total):
    # the same tiles all standing: 南 + two wilds is a 南 triplet, the third wild fills a gap
    standing = list(T.parse("123m24m345m68m789m2z5p5p1f"))
    standing.remove(T.tile(win))
    s = WinSituation(tuple(standing), (), T.tile(win), False, extra=(("indicator", T.tile("5p")),))
    sc = RS.score_win(s)
    assert sc.total == total > 160


# ---------------------------------------------------------------- beyond the fourth copy

#: the stricter reading of wilds beyond the fourth copy (option; the default "any" lets a wild be
#: every kind: tests/test_longgang_score_options.py)
STRICT = Longgang({"wild_beyond_fourth_copy": "value_honours"})
STRICT_RULES = S.Rules(wild_beyond_fourth_copy="value_honours")


def test_fifth_copy_only_of_red_green_or_seat_wind_under_the_strict_option():
    # option value_honours: 二、三)e "如手牌已碰红中（青发，坐风同理）…或手中有四个红中配双财神也计3台"
    red = STRICT.score_win(sit("7777z123m456m789m11s6z", "1f", self_drawn=True, indicator="6z"))
    assert names(red, "tai")["字刻"] == 2
    own_wind = STRICT.score_win(sit("2222z123m456m789m11s6z", "2f", self_drawn=True, indicator="6z", seat_wind=1))
    assert names(own_wind, "tai")["字刻"] == 2
    with pytest.raises(NotAWin):  # 北 is not the East seat's wind: no fifth and sixth 北
        STRICT.score_win(sit("4444z123m456m789m11s6z", "1f", self_drawn=True, indicator="6z"))
    pon = Meld.pon(T.RED)
    red_pon = STRICT.score_win(sit("7z123m456m789m11s6z", "1f", [pon], self_drawn=True, indicator="6z"))
    assert names(red_pon, "tai")["字刻"] == 2  # 已碰红中, 再胡红中配两财神
    with pytest.raises(NotAWin):
        STRICT.score_win(sit("4z123m456m789m11s6z", "1f", [Meld.pon(T.tile("4z"))], self_drawn=True, indicator="6z"))


def test_non_winner_fifth_copy_only_of_red_green_or_seat_wind_under_the_strict_option():
    w = S.wilds_for(0, T.tile("5p"))
    assert names(S.score_other(T.parse("4444z5p1f"), (), (), 0, w, STRICT_RULES), "hu") == {"暗刻大子": 8}
    assert names(S.score_other(T.parse("1111z5p1f"), (), (), 0, w, STRICT_RULES), "hu") == {"暗刻大子": 16}
