"""龙港麻将: where the wilds go in three scoring questions of issue 24 item 7 and issue 26 item 5,
each default and its option on a worked example quoting the seed.

* a winner's pair of two 正财 standing for themselves (财神归位) — option ``home_caishen_pair``;
* under 花财神, which wild fills a 陪家's triplet first — option ``non_winner_wild_choice``;
* a 陪家's wilds splitting a natural triplet — option ``non_winner_split_triplet``.

Tile notation: 1f–4f are 春夏秋冬 (the 坐花 of East, South, West, North)."""

from __future__ import annotations

import random

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, MeldKind, WinSituation
from mahjong_audit.engine.ruleset import HandEnd, SeatEnd, WinEnd
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests import longgang_brute as B
from tests import longgang_handgen as G
from tests.longgang_build import key, names
from tests.longgang_handgen import WINNER_SEEDS

# ---------------------------------------------------------------- a pair of two 正财 at home


def issue_24_7b() -> WinSituation:
    """Issue 24 item 7b's hand (a score line): North wins on a discarded 东; 9p is the 财神 kind,
    so its two 9p are 正财. Standing: 9p9p 678s 1z1z + 1z; melds 1s pon, 234s and 456s chi."""
    p = T.parse
    return WinSituation(
        concealed=tuple(p("99p678s11z")), win_tile=T.tile("1z"), self_drawn=False, seat_wind=3, round_wind=0,
        melds=(Meld(MeldKind.PON, tuple(p("111s")), T.tile("1s"), 3),
               Meld(MeldKind.CHI, tuple(p("234s")), T.tile("4s"), 3),
               Meld(MeldKind.CHI, tuple(p("456s")), T.tile("6s"), 3)),
        extra=(("indicator", T.tile("9p")),))


def test_home_caishen_pair_is_one_reading_by_default():
    """二、三)c "财神归位:是指财神代替本身那张牌胡牌"; 四、18 "无财神或者财神归位，称为硬八对": the pair
    read as 9p9p is 硬胡, but then the hand holds 筒 and is no 混一色; read as a wild pair it is
    混一色 but not 硬胡. One reading per hand (五、(一)1 "且仅可按一个牌形计分"), and 四、9 gives a
    混一色 with two 财神 two 台 ("2财神2台"), not three: 28 × 2² = 112 → 120. That count is under the
    strict reading of the copies a wild may add (``wild_beyond_fourth_copy: value_honours``); by
    default (any, issue 24 item 6) the two 正财 may also be a fifth and sixth 东 (11z + 财 a concealed
    东 triplet, the won 东 + 财 the pair): 32 × 2² = 128 → 130."""
    assert Longgang().score_win(issue_24_7b()).total == 130
    sc = Longgang({"wild_beyond_fourth_copy": "value_honours"}).score_win(issue_24_7b())
    assert sc.total == 120
    assert names(sc, "hu") == {"底胡": 20, "明刻大子": 8}  # the 1s pon and the 东 triplet won on a discard
    assert sum(names(sc, "tai").values()) == 2  # 双财神 + (混一色 or 硬胡)


def test_home_caishen_pair_also_wild_option():
    """``home_caishen_pair: also_wild``: the pair at home is 硬胡 and also stands for whatever pair
    suits the patterns: 双财神, 硬胡, 混一色 — 28 × 2³ = 224 → 230 (issue 24 item 7b)."""
    sc = Longgang({"home_caishen_pair": "also_wild"}).score_win(issue_24_7b())
    assert sc.total == 230
    assert names(sc, "tai") == {"双财神": 1, "硬胡": 1, "混一色": 1}


def test_home_caishen_pair_in_two_suits_is_hard_either_way():
    """Where no pattern hangs on the pair, both readings agree: 9p9p at home is 硬胡 (四、18)."""
    s = issue_24_7b()
    other_suit = (s.melds[0], Meld(MeldKind.CHI, tuple(T.parse("234m")), T.tile("4m"), 3), s.melds[2])
    s = WinSituation(concealed=s.concealed, melds=other_suit, win_tile=s.win_tile, self_drawn=False,
                     seat_wind=3, round_wind=0, extra=s.extra)
    for opts in ({}, {"home_caishen_pair": "also_wild"}):
        sc = Longgang(opts).score_win(s)
        assert names(sc, "tai") == {"双财神": 1, "硬胡": 1} and sc.total == 120


# ---------------------------------------------------------------- 花财神: which wild fills a 陪家's triplet

DEFAULT_RULES = S.Rules()
FLOWER_INDICATOR = "3f"  # 秋 flipped: 春夏冬 are 财神; East's 春 is its 坐花, 夏 and 冬 its 客花 (正财)


def peijia(tiles: str, rules: S.Rules = DEFAULT_RULES, seat_wind: int = 0) -> S.Score:
    """A 陪家 scored as the ``score`` command does (wilds from the indicator)."""
    w = S.wilds_for(seat_wind, T.tile(FLOWER_INDICATOR))
    return S.score_other(T.parse(tiles), (), (), seat_wind, w, rules)


def peijia_at_hand_end(tiles: str, rules_opts: dict | None = None) -> S.Score:
    """The same 陪家 (East, seat 0) as the replay scores it at the end of a won hand (wilds from
    the seat's wild set)."""
    rs = Longgang(rules_opts or {})
    wilds = rs.wild_tiles(0, 0, T.tile(FLOWER_INDICATOR))
    win_sit = WinSituation(concealed=tuple(T.parse("123m456m789m123p45p99s")), melds=(), win_tile=T.tile("6p"),
                           self_drawn=True, seat_wind=1, round_wind=0,
                           extra=(("indicator", T.tile(FLOWER_INDICATOR)),))
    win = WinEnd(1, None, win_sit, rs.score_win(win_sit))
    seats = tuple(SeatEnd(s, tuple(T.parse(tiles)) if s == 0 else (), (), (), wilds if s == 0 else frozenset(),
                          False) for s in range(4))
    return rs.score_seat(HandEnd(0, 0, (win,), (), seats), 0)


def test_flower_caishen_tai_worked_examples():
    """四、4 "如是花财神，坐花与１客花算２台，两客花一台(可组合在不同面子中)", for a 陪家 (East: 春 is
    its 坐花, 夏 and 冬 are 客花):
    "坐花加一张客花再加一张其它的牌…组成刻子计二台" — 4m + 春 + 夏: 坐花 1 + 双财神 1;
    "坐花加一朵客花再加一张坐风（或中，发）组成刻子计三台" — 中 + 春 + 夏: 字刻 + 坐花 + 双财神;
    "坐花加一对坐风（或中，发）组成刻子计二台" — 中中 + 春: 字刻 + 坐花;
    "两客花一台" — 4m + 夏 + 冬: 双财神 only."""
    assert names(peijia("4m1f2f"), "tai") == {"坐花": 1, "双财神": 1}
    assert names(peijia("7z1f2f"), "tai") == {"字刻": 1, "坐花": 1, "双财神": 1}
    assert peijia("7z1f2f").total == 70  # 8 × 2³ = 64 → 70, as 五、(二)4 B's 陪家
    assert names(peijia("77z1f"), "tai") == {"字刻": 1, "坐花": 1}
    assert names(peijia("4m2f4f"), "tai") == {"双财神": 1}


def test_flower_caishen_keho_fills_before_the_zuohua_by_default():
    """docs/rules/longgang.md, 陪家: under 花财神 the 客花 are the 正财 and fill a 陪家's triplets
    first, the 坐花 only when they run out (``non_winner_wild_choice: caishen_first``, from 三)f's
    example). 中中 + 春 + 夏 with one triplet to fill: the 夏 fills it (字刻 1: 8 × 2 = 16 → 20),
    the 春 is 卖兵 — both as the ``score`` command scores it and at the end of a replayed hand."""
    for sc in (peijia("77z1f2f"), peijia_at_hand_end("77z1f2f")):
        assert names(sc, "tai") == {"字刻": 1} and sc.total == 20


def test_flower_caishen_best_option_takes_the_zuohua():
    """``non_winner_wild_choice: best``: the 春 fills the 中 triplet — 四、4 "坐花加一对坐风（或中，
    发）组成刻子计二台": 8 × 2² = 32 → 40."""
    best = S.Rules(non_winner_wild_choice="best")
    for sc in (peijia("77z1f2f", best), peijia_at_hand_end("77z1f2f", {"non_winner_wild_choice": "best"})):
        assert names(sc, "tai") == {"字刻": 1, "坐花": 1} and sc.total == 40


# ---------------------------------------------------------------- a 陪家's wilds and a natural triplet

INDICATOR = "5p"  # the other 5p are 正财


def other(tiles: str, rules: S.Rules = DEFAULT_RULES, seat_wind: int = 0) -> S.Score:
    w = S.wilds_for(seat_wind, T.tile(INDICATOR))
    return S.score_other(T.parse(tiles), (), (), seat_wind, w, rules)


def test_natural_triplet_is_not_split_by_default():
    """Issue 26 item 5: 发发发 + two 正财 + 坐花 is one 发 triplet, the wilds 卖兵 (8 × 2 = 16 → 20),
    not 发发 + 财 and 发 + 财 + 坐花. 一、A)2) "两个财神或坐花配一张牌可视为暗刻胡，非胡牌者不行": a
    陪家's single tile takes two wilds only as 三)f's lone 红中 does ("坐花，两个财神，红中…只算红中刻8…
    计2台"); a second triplet of one kind comes only from a fourth natural copy (二、三)e "或手中有
    四个红中配双财神也计3台")."""
    sc = other("666z5p5p1f")
    assert names(sc, "hu") == {"暗刻大子": 8} and names(sc, "tai") == {"字刻": 1} and sc.total == 20
    anyk = S.Rules(wild_beyond_fourth_copy="any")  # a suited triplet likewise, with a fifth copy allowed
    assert names(other("666m5p5p1f", anyk), "hu") == {"暗刻小子": 4}


def test_fourth_of_four_alike_makes_the_second_triplet():
    """二、三)e "或手中有四个红中配双财神也计3台": 中中中中 + 正财 + 坐花 is two 中 triplets (16 × 2⁴ →
    260), whichever option."""
    for split in (False, True):
        sc = other("7777z5p1f", S.Rules(non_winner_split_triplet=split))
        assert names(sc, "hu") == {"暗刻大子": 16}
        assert names(sc, "tai") == {"字刻": 2, "坐花": 1, "双财神": 1} and sc.total == 260


def test_split_triplet_option():
    """``non_winner_split_triplet: true``: the wilds may split 发发发 into two 发 triplets (字刻 × 2,
    坐花, 双财神: 16 × 2⁴ = 256 → 260); a suited 6m6m6m likewise once a fifth copy is allowed."""
    split = S.Rules(non_winner_split_triplet=True, wild_beyond_fourth_copy="value_honours")
    sc = other("666z5p5p1f", split)
    assert names(sc, "hu") == {"暗刻大子": 16} and sc.total == 260
    assert names(other("666m5p5p1f", split), "hu") == {"暗刻小子": 4}  # no fifth 6m under value_honours
    both = S.Rules(non_winner_split_triplet=True, wild_beyond_fourth_copy="any")
    assert names(other("666m5p5p1f", both), "hu") == {"暗刻小子": 8}


def test_split_option_is_in_the_ruleset_options():
    assert Longgang().rules.non_winner_split_triplet is False
    assert Longgang({"non_winner_split_triplet": True}).rules.non_winner_split_triplet is True
    assert Longgang().rules.home_caishen_pair == "own_kind"
    assert Longgang({"home_caishen_pair": "also_wild"}).rules.home_caishen_pair == "also_wild"


# ---------------------------------------------------------------- the options against the brute force

SPLIT_RULES = S.Rules(non_winner_split_triplet=True, wild_beyond_fourth_copy="any")
HOME_PAIR_RULES = S.Rules(home_caishen_pair="also_wild")


@pytest.mark.parametrize("seed", range(60))
def test_non_winner_placement_with_the_split_option_is_never_worse(seed):
    """The 陪家 search with ``non_winner_split_triplet`` (and every kind beyond the fourth copy)
    against the brute-force enumeration (tests/longgang_brute.py), which follows the option."""
    tiles, melds, seat_wind, indicator = G.other_hand(random.Random(seed))
    w = S.wilds_for(seat_wind, indicator)
    sc = S.score_other(tiles, melds, (), seat_wind, w, SPLIT_RULES)
    assert key(sc) == B.other_best_key(tiles, melds, (), seat_wind, w, SPLIT_RULES)


@pytest.mark.parametrize("seed", WINNER_SEEDS[:40])
def test_winner_reading_with_the_home_pair_option_is_never_worse(seed):
    s = G.winning_hand(random.Random(seed))
    assert s is not None
    rs = Longgang({"home_caishen_pair": "also_wild"})
    sc = rs.score_win(s)
    if "三财神" in names(sc):
        return
    best = B.best_winner_key(s, HOME_PAIR_RULES)
    assert best is not None and key(sc) == best[0]
