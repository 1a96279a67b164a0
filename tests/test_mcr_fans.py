"""Worked examples for every MCR fan, every exclusion-table row, options and NotAWin codes."""

from __future__ import annotations

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, NotAWin, WinSituation
from mahjong_audit.engine.rulesets import mcr_fans as DATA
from mahjong_audit.engine.rulesets.mcr_scoring import _apply_exclusions, score_mcr


def meld(kind: str, tiles: str) -> Meld:
    ts = T.parse(tiles)
    if kind == "chi":
        return Meld.chi(ts[0], claimed=ts[0], source=3)
    if kind == "pon":
        return Meld.pon(ts[0], source=1)
    if kind == "kong":
        return Meld.kong(ts[0], source=2)
    return Meld.kong(ts[0], concealed=True)


def sit(concealed: str, win: str, melds=(), *, flowers: int = 0, **kw) -> WinSituation:
    return WinSituation(
        concealed=T.parse(concealed),
        melds=tuple(meld(k, t) for k, t in melds),
        win_tile=T.tile(win),
        flowers=tuple(range(34, 34 + flowers)),
        self_drawn=kw.pop("self_drawn", False),
        **kw,
    )


def fans(score) -> dict[str, tuple[int, int]]:
    return {i.name: (i.value, i.count) for i in score.items}


# (fan, standing tiles without the winning tile, winning tile, melds, flags, value, count, total)
# One hand per fan; every breakdown here was checked fan for fan against pymahjonggb.
EXAMPLES = [
    ("大四喜", "33s11122444z", "2z", (("kong", "3333z"), ), dict(seat_wind=2, flowers=2), 88, 1, 99),
    ("大三元", "345m33p66677z", "7z", (("ckong", "5555z"), ), dict(seat_wind=2, round_wind=3, flowers=1), 88, 1, 96),
    ("绿一色", "2334666s666z", "3s", (("chi", "234s"), ), dict(seat_wind=1, round_wind=3), 88, 1, 96),
    ("九莲宝灯", "1112345678999s", "3s", (), dict(self_drawn=True, seat_wind=1, round_wind=1), 88, 1, 90),
    ("四杠", "6z", "6z", (("kong", "2222z"), ("kong", "4444z"), ("ckong", "3333z"), ("kong", "1111z"), ), dict(last_copy=True, seat_wind=2, round_wind=3, flowers=1), 88, 1, 241),
    ("连七对", "1122334456677p", "5p", (), dict(round_wind=2), 88, 1, 88),
    ("十三幺", "11m19p19s1234567z", "9m", (), dict(seat_wind=1, round_wind=1), 88, 1, 88),
    ("清幺九", "99m99p", "9p", (("pon", "111m"), ("ckong", "9999s"), ("pon", "111p"), ), dict(seat_wind=2, round_wind=1, flowers=1), 64, 1, 67),
    ("小四喜", "444p1112444z", "2z", (("ckong", "3333z"), ), dict(last_tile=True, seat_wind=3, round_wind=1), 64, 1, 147),
    ("小三元", "678m999s5566777z", "6z", (), dict(self_drawn=True, kong=True, seat_wind=2, round_wind=1, flowers=1), 64, 1, 87),
    ("字一色", "1113344466z", "3z", (("ckong", "2222z"), ), dict(seat_wind=3, round_wind=1), 64, 1, 172),
    ("四暗刻", "7788p333444z", "7p", (("ckong", "2222z"), ), dict(self_drawn=True, last_copy=True, round_wind=3), 64, 1, 87),
    ("一色双龙会", "1123355778899m", "2m", (), dict(seat_wind=2, round_wind=1), 64, 1, 67),
    ("一色四同顺", "8s", "8s", (("chi", "234s"), ("chi", "234s"), ("chi", "234s"), ("chi", "234s"), ), dict(self_drawn=True, seat_wind=1, flowers=2), 48, 1, 168),
    ("一色四节高", "7s", "7s", (("pon", "555p"), ("ckong", "6666p"), ("pon", "777p"), ("pon", "888p"), ), dict(self_drawn=True, seat_wind=1, round_wind=1, flowers=1), 48, 1, 56),
    ("一色四步高", "7p", "7p", (("chi", "234m"), ("chi", "345m"), ("chi", "456m"), ("chi", "567m"), ), dict(last_copy=True, seat_wind=1, round_wind=2, flowers=1), 32, 1, 44),
    ("三杠", "6p", "6p", (("kong", "1111z"), ("kong", "2222z"), ("pon", "333z"), ("kong", "4444z"), ), dict(self_drawn=True, seat_wind=1, round_wind=1), 32, 1, 128),
    ("混幺九", "11p1199s1122334z", "4z", (), dict(self_drawn=True, last_copy=True, seat_wind=1), 32, 1, 58),
    ("七对", "2233m113445577z", "3z", (), dict(self_drawn=True, kong=True, last_copy=True), 24, 1, 31),
    ("七星不靠", "258m6p47s1234567z", "3p", (), dict(self_drawn=True, round_wind=1, flowers=1), 24, 1, 26),
    ("全双刻", "22244488m22s", "2s", (("ckong", "8888s"), ), dict(flowers=2), 24, 1, 49),
    ("清一色", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 24, 1, 49),
    ("一色三同顺", "445566p45s44z", "3s", (("chi", "456p"), ), dict(self_drawn=True, seat_wind=3, round_wind=2), 24, 1, 26),
    ("一色三节高", "77789m22333444s", "2s", (), dict(seat_wind=3, round_wind=3), 24, 1, 30),
    ("全大", "99m77778889999p", "8p", (), dict(), 24, 1, 81),
    ("全中", "44455m555p44566s", "5s", (), dict(last_copy=True, round_wind=1, flowers=1), 24, 1, 31),
    ("全小", "3p", "3p", (("pon", "222p"), ("chi", "123p"), ("kong", "1111m"), ("ckong", "3333s"), ), dict(seat_wind=1, round_wind=1, flowers=1), 24, 1, 42),
    ("清龙", "1345678889m456p", "2m", (), dict(self_drawn=True, seat_wind=1), 16, 1, 25),
    ("三色双龙会", "123789m123789p5s", "5s", (), dict(seat_wind=3, round_wind=3, flowers=2), 16, 1, 21),
    ("一色三步高", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 16, 1, 49),
    ("全带五", "55m44445555666s", "6s", (), dict(self_drawn=True, round_wind=2, flowers=2), 16, 1, 97),
    ("三同刻", "7s", "7s", (("pon", "888m"), ("pon", "888s"), ("pon", "888p"), ("pon", "777m"), ), dict(flowers=2), 16, 1, 56),
    ("三暗刻", "22255m44456p333s", "4p", (), dict(round_wind=1), 16, 1, 30),
    ("全不靠", "147m58p369s12346z", "2p", (), dict(self_drawn=True, seat_wind=3, round_wind=1, flowers=1), 12, 1, 26),
    ("组合龙", "3699m147p258s", "9m", (("chi", "123m"), ), dict(self_drawn=True, seat_wind=1, round_wind=3), 12, 1, 16),
    ("大于五", "678m678p9s", "9s", (("pon", "777p"), ("ckong", "8888s"), ), dict(round_wind=3, flowers=2), 12, 1, 20),
    ("小于五", "44m13p", "2p", (("chi", "123s"), ("chi", "123m"), ("pon", "333m"), ), dict(seat_wind=1, round_wind=3), 12, 1, 23),
    ("三风刻", "7788p333444z", "7p", (("ckong", "2222z"), ), dict(self_drawn=True, last_copy=True, round_wind=3), 12, 1, 87),
    ("花龙", "456p1266678s", "3s", (("chi", "789m"), ), dict(seat_wind=2, round_wind=2, flowers=1), 8, 1, 12),
    ("推不倒", "234555p55566s55z", "6s", (), dict(last_tile=True, seat_wind=2), 8, 1, 22),
    ("三色三同顺", "456m46p45688s", "5p", (("ckong", "1111p"), ), dict(self_drawn=True, last_copy=True, seat_wind=3, round_wind=2), 8, 1, 21),
    ("三色三节高", "22255m44456p333s", "4p", (), dict(round_wind=1), 8, 1, 30),
    ("无番和", "123m345p55s11z", "5s", (("pon", "888m"), ), dict(round_wind=3), 8, 1, 8),
    ("妙手回春", "1z", "1z", (("pon", "888m"), ("pon", "888s"), ("chi", "567p"), ("chi", "789m"), ), dict(self_drawn=True, last_tile=True, seat_wind=1, round_wind=2), 8, 1, 13),
    ("海底捞月", "5789s", "5s", (("chi", "123s"), ("chi", "123s"), ("chi", "789s"), ), dict(last_tile=True, seat_wind=1, round_wind=2, flowers=2), 8, 1, 75),
    ("杠上开花", "9p", "9p", (("chi", "123m"), ("kong", "2222s"), ("chi", "123m"), ("chi", "456m"), ), dict(self_drawn=True, kong=True, seat_wind=1, round_wind=3), 8, 1, 13),
    ("抢杠和", "369m147p2s134567z", "2z", (), dict(kong=True, seat_wind=3, round_wind=1), 8, 1, 32),
    ("碰碰和", "33555888s55z", "5z", (("ckong", "1111s"), ), dict(round_wind=2), 6, 1, 35),
    ("混一色", "7788p333444z", "7p", (("ckong", "2222z"), ), dict(self_drawn=True, last_copy=True, round_wind=3), 6, 1, 87),
    ("三色三步高", "333345m2234p456s", "2p", (), dict(round_wind=1), 6, 1, 12),
    ("五门齐", "345m345p345s4455z", "5z", (), dict(last_copy=True, seat_wind=3, round_wind=1), 6, 1, 18),
    ("全求人", "3s", "3s", (("pon", "111p"), ("pon", "222s"), ("pon", "333m"), ("kong", "6666s"), ), dict(seat_wind=3, flowers=2), 6, 1, 25),
    ("双暗杠", "999m1145p", "6p", (("ckong", "9999s"), ("ckong", "4444m"), ), dict(seat_wind=1, round_wind=3, flowers=1), 6, 1, 30),
    ("双箭刻", "4455m777z", "4m", (("pon", "666z"), ("chi", "678p"), ), dict(self_drawn=True, seat_wind=2, round_wind=1), 6, 1, 10),
    ("明暗杠", "3p", "3p", (("pon", "222p"), ("chi", "123p"), ("kong", "1111m"), ("ckong", "3333s"), ), dict(seat_wind=1, round_wind=1, flowers=1), 5, 1, 42),
    ("全带幺", "999m8999p", "7p", (("chi", "123m"), ("chi", "789m"), ), dict(self_drawn=True, seat_wind=3), 4, 1, 12),
    ("不求人", "456m46p45688s", "5p", (("ckong", "1111p"), ), dict(self_drawn=True, last_copy=True, seat_wind=3, round_wind=2), 4, 1, 21),
    ("双明杠", "6s", "6s", (("kong", "7777m"), ("kong", "7777s"), ("pon", "777p"), ("pon", "777z"), ), dict(seat_wind=1, round_wind=1), 4, 1, 34),
    ("和绝张", "345m1388p", "2p", (("chi", "345s"), ("ckong", "4444p"), ), dict(last_copy=True, seat_wind=1, round_wind=2), 4, 1, 9),
    ("箭刻", "33555888s55z", "5z", (("ckong", "1111s"), ), dict(round_wind=2), 2, 1, 35),
    ("圈风刻", "7788p333444z", "7p", (("ckong", "2222z"), ), dict(self_drawn=True, last_copy=True, round_wind=3), 2, 1, 87),
    ("门风刻", "5m333567s", "5m", (("chi", "789m"), ("pon", "111z"), ), dict(self_drawn=True, round_wind=1), 2, 1, 5),
    ("门前清", "22255m44456p333s", "4p", (), dict(round_wind=1), 2, 1, 30),
    ("平和", "123567m1234567s", "7s", (), dict(seat_wind=2, round_wind=1, flowers=2), 2, 1, 9),
    ("四归一", "22255m44456p333s", "4p", (), dict(round_wind=1), 2, 1, 30),
    ("双同刻", "1z", "1z", (("pon", "888m"), ("pon", "888s"), ("chi", "567p"), ("chi", "789m"), ), dict(self_drawn=True, last_tile=True, seat_wind=1, round_wind=2), 2, 1, 13),
    ("双暗刻", "66688p88s", "8p", (("pon", "888m"), ("chi", "567p"), ), dict(self_drawn=True, kong=True, seat_wind=1, round_wind=2), 2, 1, 9),
    ("暗杠", "7788p333444z", "7p", (("ckong", "2222z"), ), dict(self_drawn=True, last_copy=True, round_wind=3), 2, 1, 87),
    ("断幺", "22255m44456p333s", "4p", (), dict(round_wind=1), 2, 1, 30),
    ("一般高", "9p", "9p", (("chi", "123m"), ("kong", "2222s"), ("chi", "123m"), ("chi", "456m"), ), dict(self_drawn=True, kong=True, seat_wind=1, round_wind=3), 1, 1, 13),
    ("喜相逢", "123567m1234567s", "7s", (), dict(seat_wind=2, round_wind=1, flowers=2), 1, 1, 9),
    ("连六", "123567m1234567s", "7s", (), dict(seat_wind=2, round_wind=1, flowers=2), 1, 1, 9),
    ("老少副", "999m8999p", "7p", (("chi", "123m"), ("chi", "789m"), ), dict(self_drawn=True, seat_wind=3), 1, 1, 12),
    ("幺九刻", "33555888s55z", "5z", (("ckong", "1111s"), ), dict(round_wind=2), 1, 1, 35),
    ("明杠", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 1, 1, 49),
    ("缺一门", "123567m1234567s", "7s", (), dict(seat_wind=2, round_wind=1, flowers=2), 1, 1, 9),
    ("无字", "9p", "9p", (("chi", "123m"), ("kong", "2222s"), ("chi", "123m"), ("chi", "456m"), ), dict(self_drawn=True, kong=True, seat_wind=1, round_wind=3), 1, 1, 13),
    ("边张", "1122355778899s", "3s", (), dict(self_drawn=True, seat_wind=1, round_wind=3, flowers=1), 1, 1, 70),
    ("嵌张", "1123355778899m", "2m", (), dict(seat_wind=2, round_wind=1), 1, 1, 67),
    ("单钓将", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 1, 1, 49),
    ("自摸", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 1, 1, 49),
    ("花牌", "3s", "3s", (("chi", "345s"), ("chi", "456s"), ("chi", "234s"), ("kong", "8888s"), ), dict(self_drawn=True, flowers=2), 1, 2, 49),
]


def test_examples_cover_every_default_fan():
    assert {e[0] for e in EXAMPLES} == DATA.OFFICIAL
    assert len(DATA.OFFICIAL) == 82  # 81 official fans (花牌 included) + 明暗杠


@pytest.mark.parametrize("example", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example(example):
    name, concealed, win, melds, flags, value, count, total = example
    score = score_mcr(sit(concealed, win, melds, **flags))
    got = fans(score)
    assert got[name] == (value, count)
    assert value == DATA.FAN_BY_ZH[name].value
    assert score.total == total == sum(v * c for v, c in got.values())
    assert [i.name for i in score.items] == sorted(got, key=DATA.ORDER.__getitem__)


def test_flowers_not_counted_toward_minimum():
    # 无番和-free hand below 8 plus flowers
    s = sit("234m456p789s567m1z", "1z", flowers=3)
    sc = score_mcr(s)
    base = sc.total - 3
    assert fans(sc)["花牌"] == (1, 3)
    assert sc.below_minimum == (base < 8)


def test_decomposition_detail():
    sc = score_mcr(sit("123m456p789s1122z", "2z"))
    assert dict(sc.details)["decomposition"]


# ----------------------------------------------------------------- exclusion table


@pytest.mark.parametrize(
    "row", DATA.EXCLUSIONS, ids=[f"{r.fan}-{r.excludes}" for r in DATA.EXCLUSIONS]
)
def test_exclusion_row(row):
    sets = frozenset((0, 1, 2, 4))
    got = _apply_exclusions([(row.fan, sets), (row.excludes, frozenset((1,)))])
    assert got == {row.fan: 1}
    if row.scope == "sets":
        # an occurrence on other sets survives
        got = _apply_exclusions([(row.fan, frozenset((0,))), (row.excludes, frozenset((3,)))])
        assert got == {row.fan: 1, row.excludes: 1}


def test_excluded_fan_does_not_exclude():
    # 四暗刻 hides 不求人, so 不求人 no longer hides 自摸
    got = _apply_exclusions([(n, frozenset()) for n in ("四暗刻", "不求人", "门前清", "自摸")])
    assert got == {"四暗刻": 1, "自摸": 1}


def test_exclusions_in_real_hands():
    # 大四喜: no 三风刻, 碰碰和, 圈风刻, 门风刻, 幺九刻
    f = fans(score_mcr(sit("111222333444z5z", "5z")))
    assert "大四喜" in f
    for n in ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻", "小四喜"):
        assert n not in f
    # 圈风刻 hides only the 幺九刻 of its own pung
    f = fans(score_mcr(sit("111z999m123p456s5s", "5s", round_wind=0, seat_wind=2)))
    assert f["圈风刻"] == (2, 1) and f["幺九刻"] == (1, 1)


# ----------------------------------------------------------------- options


def test_seed002_variant_values():
    s = sit("123m456p789s5557z", "7z", self_drawn=True)
    assert fans(score_mcr(s))["箭刻"] == (2, 1)
    v = fans(score_mcr(s, values={"seed002": True}))
    assert v["箭刻"] == (4, 1) and v["不求人"] == (6, 1)
    assert fans(score_mcr(s, values={"门清自摸": 6}))["不求人"] == (6, 1)


def test_optional_fans_off_by_default_and_on_when_enabled():
    s = sit("111222333444z6z", "6z", self_drawn=True, extra=(("heavenly", True),))
    assert "四方大发" not in fans(score_mcr(s))
    f = fans(score_mcr(s, extra_fans=frozenset({"四方大发", "天和"})))
    assert f["四方大发"] == (168, 1) and f["天和"] == (168, 1)
    # seed 004 "天和168番〔非國標牌型〕莊家起牌即和，任何胡牌型均可": 天和 comes on top of the hand's fans
    # (四暗刻 hides 不求人, so 自摸 stays)
    assert "大四喜" not in f and f["自摸"] == (1, 1)
    # the option optional_exclusions "implied": no tile of a 天和 was drawn after the deal
    f = fans(score_mcr(s, extra_fans=frozenset({"四方大发", "天和"}), optional_exclusions="implied"))
    assert "自摸" not in f


@pytest.mark.parametrize(
    "name,concealed,win,flags",
    [
        ("地和", "123m456p789s1122z", "2z", {"earthly": True, "seat_wind": 1}),
        ("人和", "123m456p789s1122z", "2z", {"human": True}),
        ("混杠", "123m456p789s1122z", "2z", {"wildcard_kong": True}),
        ("258将", "123m456p789s123m2m", "2m", {}),
        ("幺九头", "123m456p789s123m9m", "9m", {}),
        ("混四节", "222m333p444s555m6s", "6s", {}),
        ("混四步", "123m234p345s456m6s", "6s", {}),
        ("混三节", "222m333p444m789s6s", "6s", {}),
        ("混三步", "123m234p345m789s6s", "6s", {}),
    ],
)
def test_optional_fan(name, concealed, win, flags):
    flags = dict(flags)
    s = sit(concealed, win, seat_wind=flags.pop("seat_wind", 0), extra=tuple(sorted(flags.items())))
    assert name not in fans(score_mcr(s))
    f = fans(score_mcr(s, extra_fans=frozenset({name})))
    assert f[name] == (DATA.FAN_BY_ZH[name].value, 1)


def test_min_fan_option():
    s = sit("123m456p789s1122z", "2z")
    assert score_mcr(s, min_fan=1).below_minimum is False
    assert score_mcr(s, min_fan=99).below_minimum is True


def test_tables_are_immutable():
    with pytest.raises(TypeError):
        DATA.DEFAULT_VALUES["箭刻"] = 4  # type: ignore[index]
    assert isinstance(DATA.FANS, tuple) and isinstance(DATA.EXCLUSIONS, tuple)


# ----------------------------------------------------------------- NotAWin


@pytest.mark.parametrize(
    "code,situation",
    [
        ("not_a_win", lambda: sit("123m456p789s1123z", "4z")),
        ("not_a_win", lambda: sit("1122334455667m", "9m")),
        ("wrong_tile_count", lambda: sit("123m456p789s112z", "2z")),
        ("wrong_tile_count", lambda: sit("123m456p789s11222z", "2z")),
        ("too_many_copies", lambda: sit("11112m456p789s22z", "1m")),
        ("too_many_copies", lambda: sit("1z123m456p789s", "1z", (("kong", "1111z"),))),
        ("not_a_win", lambda: WinSituation(concealed=(0, 1, 2, 99), melds=(), win_tile=0, self_drawn=False)),
        ("not_a_win", lambda: WinSituation(concealed=("1m",) * 13, melds=(), win_tile=0, self_drawn=False)),
    ],
)
def test_not_a_win_codes(code, situation):
    with pytest.raises(NotAWin) as exc:
        score_mcr(situation())
    assert exc.value.code == code
