"""龙港麻将: one worked example per row of the 台 table (``longgang_score.TAI_ROWS``), each
quoting the seed (000, 四、"特殊番役牌型及台数详解"), and the limit names from one catalogue.

A row fires when the best reading of the hand lists it: a 台 item with the row's value, or a
limit hand (腊子) scored at the cap. Rows behind an option also must not fire without it.
The appendix rows (附一) have theirs in tests/test_longgang_variants.py."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from tests.test_longgang_score import names, sit

#: row name -> (the seed's sentence, concealed, winning tile, sit() keywords, options, other rows expected);
#: the 八对半 row that is a limit is keyed "八对半 (limit)"
CASES = {
    "财神会": ("两个正财神配坐花三张组成刻子，其它牌已组成对，按三台腊子胡牌",
               "2f5p5p123m456m789p11z23s", "4s", {"seat_wind": 1}, {}),
    "四花": ("坐花胡牌的，又杠了其他三个花牌的可计2台（坐花不再重复计台）",
             "1f34m456p789s123s1z999m", "1z", {"seat_wind": 0, "indicator": "4z", "flowers": "2f3f4f"}, {}),
    "坐花": ("坐花可以代替任何牌,坐花胡牌的都可计算1台",
             "3f3m456p789s123s1z999m3p", "1z", {"seat_wind": 2, "indicator": "3p"}, {}),
    "双财神": ("两个神计一台", "5p5p3m678p789s123s1z999m", "1z", {"seat_wind": 2}, {}),
    "硬胡": ("胡牌时没有财神(坐花)也计一台", "123m456p789s123s1z999m", "1z", {"seat_wind": 1, "indicator": "4z"}, {}),
    "字刻": ("坐风刻子或中发任意刻子，每个刻子均计1台",
             "777z666z22z123m56p789s", "4p", {"seat_wind": 1, "indicator": "4z"}, {}),
    "圈风刻": ("与圈风相同的风刻…如果你东风圈，则你碰了东风便是圈风刻，龙港来法不计台数",
               "111z123m456p789s234s9m", "9m", {"seat_wind": 1, "indicator": "4z"}, {"round_wind_triplet_tai": True}),
    "混一色": ("由单色及字牌的任何牌组成的顺子、刻子的混一色的１台",
               "123m456m789m111m22z77z", "7z", {"seat_wind": 0, "indicator": "4z"}, {}),
    "清一色": ("由单色牌组成的顺子、刻子胡牌型，３台满贯300胡",
               "123m456m789m111m99m22m", "9m", {"seat_wind": 0, "indicator": "4z"}, {}),
    "字一色": ("由字牌的刻子(杠)、将组成的和牌，不另计碰碰和 ，３台满贯300胡",
               "111z222z333z444z666z7z", "7z", {"seat_wind": 1}, {}),
    "对对胡": ("由五副刻子（含杠子）加一对的胡牌１台",
               "111m444p777s999s222z7z", "7z", {"seat_wind": 0, "indicator": "4z"}, {}),
    "大四喜": ("有东南西北风四付刻子，其中有杠子亦可", "111z222z333z444z7z123m", "7z", {"seat_wind": 1}, {}),
    "小四喜": ("有东南西北风中有三付坎子，其中任何一对做将", "111z222z3z5p44z123m999m", "4z", {"seat_wind": 1}, {}),
    "清老头": ("全是老头牌(一筒、九筒、一条、九条、一万、九万)刻子(杠子)或对子， 3台满贯300胡",
               "111m999m111p999p111s9s", "9s", {"seat_wind": 1, "indicator": "4z"}, {}),
    "混老头": ("「对对和」且每组刻子或将牌均为「字牌」或「老头牌」…3台满贯300 胡",
               "111m999m111p999p111z9s", "9s", {"seat_wind": 1, "indicator": "4z"}, {}),
    "四金刚": ("牌面中由有三组字牌是刻子和一对其他字牌或四组字牌刻子称之为四金刚…有的地方来法算腊子",
               "111z222z333z666z123m7z", "7z", {"seat_wind": 1, "indicator": "4z"}, {"four_kings_limit": True}),
    "八对半 (limit)": ("由七个对子与一个刻子组成…有的地方来法算腊子",
                       "1122m3344p5566s777z8m", "8m", {"seat_wind": 1, "indicator": "4z"},
                       {"eight_pairs_limit": True}),
    "八对半": ("由七个对子与一个刻子组成须状态，4张同样的牌可视作2对",
               "1122m3344p5566s777z8m", "8m", {"seat_wind": 1, "indicator": "4z"}, {}),
    "一条龙": ("胡牌的牌型中含有「」同色条（.饼、筒）.（选用、有的地方来法算一台）",
               "123m456m789m123p456s9s", "9s", {"seat_wind": 1, "indicator": "4z"}, {"pure_straight_tai": True}),
    "杠上开花": ("开杠或补花时，用杠尾摸的那张牌（岭上牌）而和牌，只计自摸2胡，有的地方来法也计一台",
                 "123m789s123s1z999m", "1z",
                 {"seat_wind": 1, "indicator": "4z", "self_drawn": True, "kong": True,
                  "melds": (Meld.kong(T.tile("9p"), concealed=True),)},
                 {"kong_replacement_tai": True}),
    "平胡": ("由五组顺子配对子（将牌不可是坐风中发）组成，不可有花牌,不可自摸、卡挡，非混一色，含有一财神,0台",
             "123m46p1z789s45s88m234p", "6s", {"seat_wind": 1, "indicator": "1z"}, {}),
}


def _rows() -> dict[str, S.TaiRow | S.SetTaiRow]:
    out: dict[str, S.TaiRow | S.SetTaiRow] = {}
    for row in S.TAI_ROWS:
        for r in row if isinstance(row, tuple) else (row,):
            key = r.name + (" (limit)" if r.value is None and r.name in S.TAI else "")
            out[key] = r
    return out


ROWS = _rows()


def _score(case: str, options: dict):
    _quote, concealed, win, kw, _opts = CASES[case]
    kw = dict(kw)
    melds = kw.pop("melds", ())
    return Longgang(options).score_win(sit(concealed, win, melds, **kw))


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_row_fires_on_its_worked_example(case):
    row = ROWS[case]
    options = CASES[case][4]
    sc = _score(case, options)
    items = {i.name: i for i in sc.items if i.unit == "tai"}
    assert row.name in items, (case, sc.items)
    if row.value is None:  # a limit hand: 3 台, at the cap
        assert items[row.name].value == S.LIMIT_TAI and sc.total == S.CAP
    else:
        assert items[row.name].value == row.value
    if options:  # a row behind an option does not fire without it
        assert (row.name, row.value) not in {(i.name, i.value) for i in _score(case, {}).items if i.unit == "tai"}


def test_every_row_has_its_case():
    from tests.test_longgang_variants import test_appendix_hands_fire_only_when_chosen as appendix

    appendix_cases = {p[0] for p in appendix.pytestmark[0].args[1]}
    assert {k for k, r in ROWS.items() if r.name not in S.APPENDIX_TAI} == set(CASES)
    assert {r.name for r in ROWS.values() if r.name in S.APPENDIX_TAI} == set(S.APPENDIX_TAI) == appendix_cases


def test_the_limit_names_come_from_one_catalogue():
    limits = [r.name for r in ROWS.values() if r.value is None and r.name not in S.APPENDIX_TAI]
    # the wins that are limits whatever the tiles, then the rows in the table's order
    assert tuple(S.LIMITS) == (S.THREE_CAISHEN, S.HEAVENLY, S.EARTHLY, S.HUMAN, *limits)
    assert S.LIMITS_ZERO_OTHERS == {"三财神", "天胡", "地胡", "人胡"}
    with pytest.raises(ValueError):
        S.TaiRow("九龙飞天", None, S.D_PINGHU)  # a limit hand LIMITS does not list


def test_honour_and_round_wind_triplets_listed_in_the_order_of_their_sets():
    # 东 (the round wind) before 中: the breakdown lists 圈风刻 first, as the sets come
    s = sit("111z777z456p789s234s9m", "9m", seat_wind=1, indicator="4z")
    sc = Longgang({"round_wind_triplet_tai": True}).score_win(s)
    tai = [i.name for i in sc.items if i.unit == "tai"]
    assert tai.index("圈风刻") < tai.index("字刻")
    assert names(sc, "tai")["字刻"] == 1 and names(sc, "tai")["圈风刻"] == 1
