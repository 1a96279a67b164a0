"""龙港麻将: the seed's rules that were missing — 三财神吊字牌, 包三家, the 四喜-with-财神
restriction, the 附一 hands, 人胡 timing — each firing and not firing, through the scoring
functions and, where they touch legality or money, through a whole replayed hand."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests.longgang_build import DEAL, LIABLE_DEAL, HandBuilder, audit, codes, names, sit

RS = Longgang()

# ---------------------------------------------------------------- 三财神吊字牌 (四、e)

# seat 1 (South, 坐花 夏 = 2f), 财神 5p: four sets + 5p 5p 2f + a loose 3m — ready on any tile
THREE_WILDS = "123m456m789p123s5p5p2f3m"


def test_three_wild_honour_wait_scoring_rule():
    declined = sit(THREE_WILDS, "7z", seat_wind=1, declined_win=True)
    assert RS.score_win(declined).total > 0  # a complete hand: 中 + two 财神, 坐花 + 3m
    assert RS.forbidden_win(declined)[0] == "false_win/forbidden_wait"
    assert RS.forbidden_win(sit(THREE_WILDS, "2z", seat_wind=1, declined_win=True))  # own wind (南)
    assert RS.forbidden_win(sit(THREE_WILDS, "7z", seat_wind=1)) is None  # no win let pass
    assert RS.forbidden_win(sit(THREE_WILDS, "9m", seat_wind=1, declined_win=True)) is None  # not an honour
    assert RS.forbidden_win(sit(THREE_WILDS, "7z", self_drawn=True, seat_wind=1, declined_win=True)) is None
    assert RS.forbidden_win(sit("123m456m789p123s5p2f3m4m", "7z", seat_wind=1, declined_win=True)) is None  # one 财神
    off = Longgang({"three_wild_honour_wait": "off"})
    assert off.forbidden_win(declined) is None


def test_three_wild_honour_only_option():
    rs = Longgang({"three_wild_honour_wait": "honour_only"})
    assert rs.forbidden_win(sit(THREE_WILDS, "9m", seat_wind=1)) is not None
    assert rs.forbidden_win(sit(THREE_WILDS, "7z", seat_wind=1, declined_win=True)) is None
    assert rs.forbidden_win(sit(THREE_WILDS, "9m", self_drawn=True, seat_wind=1)) is None


def three_wild_deal():
    return (DEAL[0], T.fmt(T.parse(THREE_WILDS)), *DEAL[2:])


def test_three_wild_honour_wait_in_a_replayed_hand():
    # the dealer discards 9m: seat 1 could win and lets it pass; seat 1 discards; seat 2 discards 中; seat 1 wins
    b = HandBuilder(deal=three_wild_deal(), keep="7z")
    b.discard(0, "9m").draw(1)
    b.discard(1, b.last).draw(2, "7z").discard(2, "7z").win(1, "7z", 2)
    res = audit(b.hand())
    assert "false_win/forbidden_wait" in codes(res)
    assert res.hands[0].computed_deltas == (20, -40, 10, 10)  # 诈胡 by a non-dealer
    ok = HandBuilder(deal=three_wild_deal(), keep="7z")  # its first chance is the 中: no win was let pass
    ok.discard(0, "2s").draw(1, "7z")  # seat 1 draws 中 and wins by self-draw
    ok.win(1, "7z", 1)
    assert codes(audit(ok.hand())) == []
    off = HandBuilder(deal=three_wild_deal(), keep="7z")
    off.events = list(b.events)
    assert "false_win/forbidden_wait" not in codes(audit(off.hand(), options={"three_wild_honour_wait": "off"}))


# ---------------------------------------------------------------- 包三家 (四、a–c)

def test_liable_discard_rules():
    hand = T.counts(T.parse("1z7z234m567m234p567p899s"))
    none = [0] * T.N_TILES
    assert S.liable_discard(T.RED, hand, T.tile("1z"), False, none, (), 2, 4) == "seat_wind_first"
    assert S.liable_discard(T.RED, hand, T.tile("1z"), False, none, (), 6, 4) is None  # too early
    assert S.liable_discard(T.RED, hand, T.tile("1z"), True, none, (), 2, 4) is None  # 东 is the 财神
    assert S.liable_discard(T.RED, hand, T.tile("1z"), False, none, (), 2, 0) is None  # rule off
    assert S.liable_discard(T.RED, hand, T.tile("1z"), False, none, ((Meld.pon(T.RED),),), 2, 4) is None
    two = T.counts(T.parse("6z7z234m567m234p567p8999s"))
    seen = list(none)
    seen[T.RED] = 1
    assert S.liable_discard(T.GREEN, two, T.tile("1z"), False, seen, (), 1, 4) == "seen_dragon_first"
    assert S.liable_discard(T.RED, two, T.tile("1z"), False, seen, (), 1, 4) is None  # the seen one first: fine


def test_liability_transfer_moves_the_other_payments():
    hu = S.settle_hu(1, 0, [20, 100, 40, 0], 60)
    out = S.liability_transfer(hu, 1, 0, 0, 100, 60)
    assert out[1] == hu[1] and sum(out) == 0
    assert out[2] == hu[2] + 160 and out[3] == hu[3] + 160 and out[0] == hu[0] - 320


def liable_hand(late: bool) -> HandBuilder:
    b = HandBuilder(deal=LIABLE_DEAL, indicator="3z", keep="7z1z")
    b.discard(0, "1s").idle(43 if late else 3)
    b.draw(0).discard(0, "7z").win(1, "7z", 0)
    return b


def test_liability_in_a_replayed_hand():
    late = audit(liable_hand(True).hand())
    off = audit(liable_hand(True).hand(), options={"liability_window": 0})
    assert codes(late) == [] and codes(off) == []
    d, n = late.hands[0].computed_deltas, off.hands[0].computed_deltas
    assert d[1] == n[1] and sum(d) == 0
    assert d[2] - n[2] == d[3] - n[3] > 0  # seats 2 and 3 pay the winner nothing …
    assert d[0] - n[0] == -(d[2] - n[2]) * 2  # … the dealer pays it for them
    early = audit(liable_hand(False).hand())
    early_off = audit(liable_hand(False).hand(), options={"liability_window": 0})
    assert early.hands[0].computed_deltas == early_off.hands[0].computed_deltas


# ---------------------------------------------------------------- 四喜 with a 财神 (三、10)

def test_four_winds_wild_restriction_option():
    one_wild = sit("111z222z3z5p44z123m999m", "4z", seat_wind=1)  # 西 pair = 3z + a 财神
    assert "小四喜" in names(RS.score_win(one_wild))  # default: no restriction (现在习惯上不作此限制)
    rs = Longgang({"four_winds_wild_restriction": True})
    restricted = rs.score_win(one_wild)
    assert "小四喜" not in names(restricted) and restricted.total < 300
    two_wilds = sit("111z222z3z5p5p44z123m99m", "4z", seat_wind=1)
    assert "大四喜" in names(rs.score_win(two_wilds))
    elsewhere = sit("111z222z3z5p44z12m999m5p", "4z", seat_wind=1)  # the second wild completes 12m
    assert "小四喜" in names(RS.score_win(elsewhere)) and "小四喜" not in names(rs.score_win(elsewhere))


# ---------------------------------------------------------------- 附一

K = {t: Meld.kong(T.tile(t), 1) for t in ("2m", "3m", "4m", "2p", "2s", "9p", "1s", "5s")}


@pytest.mark.parametrize("name,concealed,win,melds,self_drawn", [
    ("金门桥", "123m234m345m456m789p9s", "9s", (), False),
    ("四连太宝", "123m123m123m123m789p9s", "9s", (), False),
    ("绿一色", "234s234s666s888s666z4s", "4s", (), False),
    ("红孔雀", "777s999s777z5p", "5p", (K["1s"], K["5s"]), True),
    ("点点红", "111p333p567p567p999p7z", "7z", (), False),
    ("红一点", "234s234s234s666s888s7z", "7z", (), False),
    ("门清", "123m456p789s123s1z999m", "1z", (), False),
    ("不求人", "123m456p789s123s1z999m", "1z", (), True),
    ("全求人", "1z", "1z", (Meld.chi(0, 0), Meld.chi(3, 3), Meld.pon(T.tile("9p")), Meld.pon(T.tile("1s")),
                           Meld.pon(T.tile("6z"))), False),
    ("半求人", "1z", "1z", (Meld.chi(0, 0), Meld.chi(3, 3), Meld.pon(T.tile("9p")), Meld.pon(T.tile("1s")),
                           Meld.pon(T.tile("6z"))), True),
    ("五杠子", "1z", "1z", tuple(K[t] for t in ("2m", "3m", "4m", "2p", "2s")), False),
    ("四杠子", "123p1z", "1z", tuple(K[t] for t in ("2m", "3m", "2p", "2s")), False),
    ("三杠子", "789p123p1z", "1z", tuple(K[t] for t in ("2m", "9p", "2s")), False),
    ("三连杠", "789p123p1z", "1z", tuple(K[t] for t in ("2m", "3m", "4m")), False),
    ("三同杠", "789p123p1z", "1z", tuple(K[t] for t in ("2m", "2p", "2s")), False),
    ("五暗刻", "111m333p555s777s999m2z", "2z", (), False),
    ("四暗刻", "111m333p555s777s123m2z", "2z", (), False),
    ("四连刻", "111m222m333m444m789p9s", "9s", (), False),
    ("五连刻", "111m222m333m444m555m9s", "9s", (), False),
])
def test_appendix_hands_fire_only_when_chosen(name, concealed, win, melds, self_drawn):
    s = sit(concealed, win, melds, self_drawn=self_drawn, seat_wind=1, indicator="5p")
    assert name not in names(RS.score_win(s))
    sc = Longgang({"appendix_hands": [name]}).score_win(s)
    assert name in names(sc)
    if S.APPENDIX_TAI[name] is None:
        assert sc.total == 300
    else:
        assert names(sc, "tai")[name] == S.APPENDIX_TAI[name]


def test_appendix_series_count_once_and_option_is_checked():
    from mahjong_audit.engine.ruleset import OptionError

    everything = Longgang({"appendix_hands": list(S.APPENDIX_TAI)})
    sc = everything.score_win(sit("111m333p555s777s999m2z", "2z", seat_wind=1))
    assert "五暗刻" in names(sc) and "四暗刻" not in names(sc)
    sc = everything.score_win(sit("123p1z", "1z", tuple(K[t] for t in ("2m", "3m", "2p", "2s")), seat_wind=1))
    assert "四杠子" in names(sc) and "三杠子" not in names(sc)
    with pytest.raises(OptionError):
        Longgang.parse_options({"appendix_hands": ["十六不搭"]})


# ---------------------------------------------------------------- 人胡 (三、5 B; 四、6)

def test_human_win_timing():
    hand = "123m456p789s123s1z999m"
    rs = Longgang({"human_win": True})
    first = {"dealer": 0, "seat": 2}
    assert "人胡" in names(rs.score_win(sit(hand, "1z", seat_wind=2, first_round_discards=2, **first)))
    assert "人胡" in names(rs.score_win(sit(hand, "1z", self_drawn=True, seat_wind=2, first_round_discards=2,
                                            **first)))
    assert "人胡" not in names(rs.score_win(sit(hand, "1z", seat_wind=2, first_round_discards=5, **first)))
    assert "人胡" not in names(rs.score_win(sit(hand, "1z", seat_wind=2, **first)))  # the go-round is over
    assert "人胡" not in names(RS.score_win(sit(hand, "1z", seat_wind=2, first_round_discards=2, **first)))


def test_human_win_in_a_replayed_hand():
    # seat 1 waits on 中; seat 2 holds 中 and discards it on its first turn
    deal = (DEAL[0], DEAL[1], "234m567m234p678p88s7z1p", DEAL[3])
    b = HandBuilder(deal=deal, keep="7z")
    b.discard(0, "2z").draw(1)
    b.discard(1, b.last).draw(2).discard(2, "7z").win(1, "7z", 2)
    on = audit(b.hand(), options={"human_win": True})
    assert codes(on) == [] and "人胡" in names(on.hands[0].wins[0].score)
    off = audit(b.hand())
    assert codes(off) == [] and "人胡" not in names(off.hands[0].wins[0].score)
