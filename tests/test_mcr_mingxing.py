"""明星三缺一: the eighteen extras of seed 002's "明星三缺一特色规则" section (docs/rules/mcr.md).

Each fan has a hand where it fires and one where it must not, with the seed's sentence. The
sentence is the fan row's ``quote`` (engine/rulesets/mcr_fans.py); a test checks that every
quote is in the seed text as written.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, NotAWin, WinSituation
from mahjong_audit.engine.rulesets import OptionError, get
from mahjong_audit.engine.rulesets import mcr_fans as DATA
from mahjong_audit.engine.rulesets.mcr_scoring import score_mcr
from mahjong_audit.engine.sim import simulate
from tests import logbuild as LB

SEED002 = next((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("002_*.txt"), None)
MINGXING = get("mcr", {"variant": "mingxing"})


def sit(concealed: str, win: str, melds=(), *, self_drawn: bool = False, flowers: str = "", seat_wind: int = 0,
        **flags: object) -> WinSituation:
    return WinSituation(concealed=T.parse(concealed), melds=tuple(melds), win_tile=T.tile(win), self_drawn=self_drawn,
                        seat_wind=seat_wind, flowers=tuple(T.parse(flowers)) if flowers else (),
                        extra=tuple(sorted(flags.items())))


def fans(score) -> dict[str, int]:
    return {i.name: i.value * i.count for i in score.items}


def scored(fn, hand, **kw) -> dict[str, int]:
    """The hand's fans, or {} when it is no win (八仙过海 off: 14 loose tiles)."""
    try:
        return fans(fn(hand, **kw))
    except NotAWin:
        return {}


def chi(first: str) -> Meld:
    t = T.tile(first)
    return Meld.chi(t, claimed=t, source=1)


def pon(tile: str) -> Meld:
    return Meld.pon(T.tile(tile), source=2)


# (fan, the hand where it fires, the hand where it must not); the sentence is DATA's quote
CASES = {
    # "听牌时只听一张牌": 123m456p789s123m + 1z waits on 1z alone; 1122z waits on 1z and 2z
    "独听": (sit("123m456p789s123m1z", "1z"), sit("123m456p789s1122z", "2z")),
    # "将为一对二、五或八"
    "将": (sit("123m456p789s123p2m", "2m"), sit("123m456p789s123p9m", "9m")),
    # "整副牌中没有「五」这个数字": a 5 in any set (345p) is a five
    "缺五": (sit("123m234p789s123p9m", "9m"), sit("123m345p789s123p9m", "9m")),
    # "手中有一张四和一张六，听五 (不可吃牌)": 46m waiting on 5m; 34m + 5m is no 卡五
    "卡五": (sit("46m123p789p111s99s", "5m"), sit("34m123p789p111s99s", "5m")),
    # "门清时听牌": declared ready (报听) with no chi, pon or exposed kong
    "立直": (sit("123m456p789s123p9m", "9m", ready=True),
           sit("456p789s123p9m", "9m", [chi("1m")], ready=True)),
    # "同花色的四张同数牌番成两个顺子及一个将": 3m ×4 as 123m, 345m and the 33m pair; 1m ×4 as 111m + 123m is not
    "四归二": (sit("1233334m456p789s", "5m"), sit("111123m456p789s9s", "9s")),
    # "拿到两副般高，将牌为任意一对。不可吃": 123m123m 789m789m 11m; with 123m chi'd it is not
    "双龙抱": (sit("1112233778899m", "1m", self_drawn=True), sit("1123778899m", "1m", [chi("1m")], self_drawn=True)),
    # "全部的牌都是由吃或碰取得，但最后独听将必须自摸胡": four calls and a self-drawn pair; on a discard it is 全求人
    "半求": (sit("9s", "9s", [chi("1m"), pon("3p"), chi("4s"), pon("1z")], self_drawn=True),
           sit("9s", "9s", [chi("1m"), pon("3p"), chi("4s"), pon("1z")])),
    # "整副牌的顺子、刻子及将都带有同一数字": every set and the pair hold a 3
    "全带": (sit("123m345p333s234s3m", "3m"), sit("123m345p333s567s3m", "3m")),
    # "起牌后海底八张牌，且四家不碰牌吃牌以内情况下听牌，称为地听" (the replay's earthly_ready)
    "地听": (sit("123m456p789s123p9m", "9m", earthly_ready=True), sit("123m456p789s123p9m", "9m")),
    # "整副牌由二、五、八的刻子组成的": pungs of 2/5/8 and a 2/5/8 pair; an 8m pair of 888m + 999p is not
    "全将碰": (sit("555p888s222p8m", "8m", [pon("2m")]), sit("555p888s999p8m", "8m", [pon("2m")])),
    # "拿齐一至九同一花色的牌，此一至九的牌不得为吃牌所得": 123m456m789m in hand; with 123m chi'd it is 清龙
    "一条龙": (sit("123m456m789m23p55s", "4p"), sit("456m789m23p55s", "4p", [chi("1m")])),
    # "家取完牌后，打出第一张牌后，已经听牌，称为「天听」" (the replay's heavenly_ready)
    "天听": (sit("123m456p789s123p9m", "9m", heavenly_ready=True), sit("123m456p789s123p9m", "9m")),
    # "花牌凑满梅兰竹菊" = 5f6f7f8f; three of them are not
    "梅兰竹菊": (sit("123m456p789s123p9m", "9m", flowers="5678f"), sit("123m456p789s123p9m", "9m", flowers="1567f")),
    # "花牌凑满春夏秋冬" = 1f2f3f4f
    "春夏秋冬": (sit("123m456p789s123p9m", "9m", flowers="1234f"), sit("123m456p789s123p9m", "9m", flowers="1235f")),
    # "任何在第一圈由非庄家所胡的牌" (the replay's first_round_win)
    "地胡": (sit("123m456p789s123p9m", "9m", seat_wind=2, first_round_win=True),
           sit("123m456p789s123p9m", "9m", seat_wind=2)),
    # "当某家拿到全部八张花牌，可立即喊胡，称为「八仙过海」，三家通赔64番": 14 tiles that are no winning hand
    "八仙过海": (sit("1357m2468p13579s", "1z", self_drawn=True, flowers="12345678f"),
             sit("1357m2468p13579s", "1z", self_drawn=True, flowers="1234567f")),
    # "只属于庄家的特权， 配牌后在庄家尚未打出第一张牌时 ，庄家如果发现手内已完成胡牌型态，称为「天胡」"
    "天胡": (sit("123m456p789s123p9m", "9m", self_drawn=True, heavenly=True),
           sit("123m456p789s123p9m", "9m", self_drawn=True)),
}


def test_eighteen_extras_with_the_seeds_values():
    assert set(CASES) == DATA.MINGXING
    values = {"独听": 1, "将": 1, "缺五": 1, "卡五": 1, "立直": 1, "四归二": 4, "双龙抱": 12, "半求": 12, "全带": 12,
              "地听": 16, "全将碰": 24, "一条龙": 24, "天听": 32, "梅兰竹菊": 32, "春夏秋冬": 32, "地胡": 48,
              "八仙过海": 64, "天胡": 64}
    assert {n: DATA.FAN_BY_ZH[n].value for n in DATA.MINGXING} == values


@pytest.mark.skipif(SEED002 is None, reason="the seeds are not beside the repo")
def test_every_quote_is_the_seeds_sentence():
    text = SEED002.read_text(encoding="utf-8")  # type: ignore[union-attr]
    section = text[text.index("明星三缺一特色规则"):]
    for name in DATA.MINGXING:
        row = DATA.FAN_BY_ZH[name]
        assert f"{name} {row.value} {row.quote}" in section, name


@pytest.mark.parametrize("name", sorted(CASES))
def test_fires(name):
    hand = CASES[name][0]
    assert name not in scored(score_mcr, hand), "off unless switched on"
    assert fans(score_mcr(hand, extra_fans=frozenset({name})))[name] == DATA.FAN_BY_ZH[name].value
    assert name in fans(MINGXING.score_win(hand))
    assert name in fans(get("mcr", {"extra_fans": [name]}).score_win(hand))


@pytest.mark.parametrize("name", sorted(CASES))
def test_must_not_fire(name):
    hand = CASES[name][1]
    assert name not in scored(score_mcr, hand, extra_fans=frozenset({name}))
    assert name not in scored(MINGXING.score_win, hand)


def test_the_variant_turns_on_the_section_with_seed_002s_values():
    o = MINGXING.options
    assert o.fans_on() == DATA.MINGXING
    s = sit("123m456m789m23p55s", "4p", self_drawn=True)
    f = fans(MINGXING.score_win(s))
    assert f["不求人"] == 6  # seed 002: 门清自摸 6
    assert f["一条龙"] == 24 and "清龙" not in f


def test_extra_fans_takes_each_name_and_rejects_others():
    for name in DATA.MINGXING:
        assert get("mcr", {"extra_fans": [name]}).options.fans_on() == {name}
    with pytest.raises(OptionError):
        get("mcr", {"extra_fans": ["独听x"]})
    with pytest.raises(OptionError):
        get("mcr", {"optional_exclusions": "none"})


# --- one fact, two fans: the variant says which counts --------------------------------------

def test_one_straight_counts_once():
    """一条龙 24 (no chi) and 清龙 16 (seed 002's 青龙 "有一种花色1-9相连接的序数牌") are one straight:
    一条龙 counts in 清龙's place, with 清龙's rows (连六, 老少副)."""
    f = fans(score_mcr(CASES["一条龙"][0], extra_fans=frozenset({"一条龙"})))
    assert f["一条龙"] == 24 and "清龙" not in f and "连六" not in f and "老少副" not in f
    assert fans(score_mcr(CASES["一条龙"][1], extra_fans=frozenset({"一条龙"})))["清龙"] == 16


def test_heavenly_and_earthly_of_both_seeds():
    """The variant counts seed 002's 天胡 64 / 地胡 48; with seed 004's 天和 168 / 地和 158 / 人和 108 also
    switched on, the higher counts, once."""
    h = sit("123m456p789s123p9m", "9m", self_drawn=True, heavenly=True)
    assert fans(MINGXING.score_win(h))["天胡"] == 64 and "天和" not in fans(MINGXING.score_win(h))
    both = get("mcr", {"variant": "mingxing", "extra_fans": ["天和", "地和", "人和"]})
    assert fans(both.score_win(h))["天和"] == 168 and "天胡" not in fans(both.score_win(h))
    e = sit("123m456p789s123p9m", "9m", self_drawn=True, seat_wind=1, earthly=True, first_round_win=True)
    assert fans(MINGXING.score_win(e))["地胡"] == 48
    assert fans(both.score_win(e))["地和"] == 158 and "地胡" not in fans(both.score_win(e))
    hu = sit("123m456p789s123p9m", "9m", seat_wind=3, human=True, first_round_win=True)
    assert fans(both.score_win(hu))["人和"] == 108 and "地胡" not in fans(both.score_win(hu))


def test_all_one_number_on_five_is_all_fives():
    """全带 with every set holding a 5 is the official 全带五 16: that counts."""
    s = sit("345m456p555s567s5m", "5m")
    f = fans(score_mcr(s, extra_fans=frozenset({"全带"})))
    assert f["全带五"] == 16 and "全带" not in f


def test_pair_258_of_both_seeds():
    s = CASES["将"][0]
    f = fans(score_mcr(s, extra_fans=frozenset({"将", "258将"})))
    assert f["258将"] == 1 and "将" not in f


def test_thirteen_orphans_has_no_fives_in_its_own_row():
    """Seed 002: "十三幺 88 … 不计五门齐、门清自摸、单钓将、浑带幺、门前清、缺五"."""
    s = sit("19m19p19s1234567z", "1m")
    assert "缺五" not in fans(MINGXING.score_win(s))


# --- what the seed writes: 天听 / 地听 -----------------------------------------------------------

def test_ready_fans_are_not_counted_twice():
    """"天听不与听牌重复计台", "地听不与听牌重复计台": neither comes with 立直, and 天听 is the higher of the two."""
    s = sit("123m456p789s123p9m", "9m", ready=True, heavenly_ready=True, earthly_ready=True)
    f = fans(MINGXING.score_win(s))
    assert f["天听"] == 32 and "地听" not in f and "立直" not in f
    f = fans(MINGXING.score_win(sit("123m456p789s123p9m", "9m", ready=True, earthly_ready=True)))
    assert f["地听"] == 16 and "立直" not in f


def test_ready_fans_do_not_count_toward_the_minimum():
    """"天听不计算起胡番数", "地听不计算起胡番数": 天听 32 on a hand of 门前清 2 + 喜相逢 1 + … stays below 8."""
    s = sit("123m234p789s123p9m", "9m", heavenly_ready=True)
    score = score_mcr(s, extra_fans=frozenset({"天听"}))
    assert score.total >= 32 and score.below_minimum
    assert score_mcr(sit("123m234p789s123p9m", "9m", earthly_ready=True),
                     extra_fans=frozenset({"地听"})).below_minimum


def test_other_extras_count_toward_the_minimum_unless_the_option_says_not():
    """The seed says "不计算起胡番数" of 天听 and 地听 alone; the other extras count (a reading that makes no
    win false). ``extras_in_minimum: false`` is the other reading."""
    s = sit("123m456m789m23p55s", "4p")  # 一条龙 24 + 门前清 + 平和
    assert not MINGXING.score_win(s).below_minimum
    strict = get("mcr", {"variant": "mingxing", "extras_in_minimum": False})
    assert strict.score_win(s).below_minimum


def test_eight_immortals_is_paid_as_its_sentence_says():
    """"三家通赔64番": the instant declaration scores 64, each other seat paying as on a self-draw."""
    score = MINGXING.score_win(CASES["八仙过海"][0])
    assert [(i.name, i.value) for i in score.items] == [("八仙过海", 64)] and score.total == 64
    from mahjong_audit.engine.ruleset import HandEnd, WinEnd

    end = HandEnd(0, 0, (WinEnd(0, None, CASES["八仙过海"][0], score),), (), ())
    assert MINGXING.settle(end).deltas == (3 * 72, -72, -72, -72)


def test_eight_flowers_on_a_complete_hand_score_the_hand():
    """A complete hand with all eight flowers scores its own fans (梅兰竹菊 32 + 春夏秋冬 32 + 8 花牌 and more),
    which is always more than 64: 就高不就低."""
    s = sit("123m456p789s123p9m", "9m", self_drawn=True, flowers="12345678f")
    f = fans(MINGXING.score_win(s))
    assert f["梅兰竹菊"] == 32 and f["春夏秋冬"] == 32 and f["花牌"] == 8 and "八仙过海" not in f


# --- the other reading of what extras exclude ---------------------------------------------------

@pytest.mark.parametrize("hand,extra,kept", [
    (CASES["全将碰"][0], "全将碰", ("碰碰和", "断幺", "将")),
    (CASES["双龙抱"][0], "双龙抱", ("一般高",)),
    (CASES["半求"][0], "半求", ("单钓将", "自摸", "独听")),
    (CASES["四归二"][0], "四归二", ("四归一",)),
    (CASES["卡五"][0], "卡五", ("嵌张",)),
])
def test_implied_exclusions_option(hand, extra, kept):
    """By default an extra excludes only what seed 002 writes (it writes none for these), so the fans its
    definition implies stay; ``optional_exclusions: "implied"`` drops them (MCR's 不重复)."""
    seed = fans(MINGXING.score_win(hand))
    implied = fans(get("mcr", {"variant": "mingxing", "optional_exclusions": "implied"}).score_win(hand))
    assert extra in seed and extra in implied
    for name in kept:
        assert name in seed and name not in implied, name


# --- the first go-round of seed 004: one rule for all the first-go-round fans -----------------------

def test_first_go_round_fans_come_on_top_of_the_hand():
    """Seed 004 "天和…任何胡牌型均可", "地和…牌型不限", "人和…牌型不限" list no 不计: the hand keeps its fans.
    The 天和 hand has no wait fan (its tiles were all dealt; nothing was waited on)."""
    base = "123m456p789s12p99s"  # + 3p: an edge wait on a discard, 边张 by shape
    heavenly = sit(base, "3p", self_drawn=True, heavenly=True)
    f = fans(score_mcr(heavenly, extra_fans=frozenset({"天和"})))
    assert f["天和"] == 168 and f["不求人"] == 4 and "边张" not in f and "独听" not in f
    earthly = sit(base, "3p", self_drawn=True, seat_wind=1, earthly=True)
    f = fans(score_mcr(earthly, extra_fans=frozenset({"地和"})))
    assert f["地和"] == 158 and f["不求人"] == 4 and f["边张"] == 1
    human = sit(base, "3p", seat_wind=2, human=True)
    f = fans(score_mcr(human, extra_fans=frozenset({"人和"})))
    assert f["人和"] == 108 and f["门前清"] == 2
    f = fans(score_mcr(human, extra_fans=frozenset({"人和"}), optional_exclusions="implied"))
    assert "门前清" not in f


def test_earthly_hand_only_for_the_dealers_next_seat():
    """Seed 004: "莊家出第一張後，下家自摸即是地和"."""
    for wind, want in ((1, True), (2, False), (3, False)):
        s = sit("123m456p789s12p99s", "3p", self_drawn=True, seat_wind=wind, earthly=True)
        assert ("地和" in fans(score_mcr(s, extra_fans=frozenset({"地和"})))) is want


# --- the score command ----------------------------------------------------------------------------

def _score_lines(*lines: dict) -> list[dict]:
    from mahjong_audit.pipeline.commands.score import run

    out = io.StringIO()
    run(SimpleNamespace(file=None, ruleset="mcr"), stdin=io.StringIO("\n".join(json.dumps(x) for x in lines) + "\n"),
        stdout=out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_score_flags_of_the_game_only_facts():
    hand = {"concealed": T.names(T.parse("123m456p789s123p9m")), "win_tile": "9m", "options": {"variant": "mingxing"}}
    got = _score_lines(
        dict(hand, ruleset_fields={"heavenly_ready": True}),
        dict(hand, ruleset_fields={"earthly_ready": True}),
        dict(hand, ruleset_fields={"ready": True}),
        dict(hand, seat_wind="S", ruleset_fields={"first_round_win": True}),
        dict(hand, self_drawn=True, ruleset_fields={"heavenly": True}),
        dict(hand, seat_wind="W", self_drawn=True, ruleset_fields={"earthly": True}),
        dict(hand, ruleset_fields={"first_round_win": True}),
    )
    names = [{f["name"] for f in g.get("fans", [])} for g in got]
    assert "天听" in names[0] and "地听" in names[1] and "立直" in names[2] and "地胡" in names[3]
    assert "天胡" in names[4]
    assert got[5]["error"] == "flag_needs_seat"
    assert got[6]["error"] == "flag_needs_non_dealer"


# --- the replay and the simulator -----------------------------------------------------------------

DEAL = ["147m258p369s1234z5z", "123m456m789m23p9s7z", "111p555p888s22s66z", "333s444s777s11z22z"]


def _win_fans(*events: str) -> dict[str, int]:
    g = LB.with_outcomes(LB.game(LB.hand(DEAL, *events), options={"variant": "mingxing"}))
    audit = LB.audit(g)
    assert not audit.findings
    return fans(audit.hands[0].wins[0].score)


def test_replay_ready_after_the_first_discard():
    """Seat 1 discards 7z as its first discard with 123m456m789m23p99s: ready (天听); it wins on seat 2's
    first discard, 4p — a win in the first go-round (地胡)."""
    f = _win_fans("0 discard 5z", "1 draw 9s", "1 discard 7z", "2 draw 4p", "2 discard 4p", "1 win 4p from 2")
    assert f["天听"] == 32 and f["地胡"] == 48 and f["一条龙"] == 24 and "地听" not in f


def test_replay_ready_within_eight_draws():
    """Seat 1 is not ready after its first discard, ready after its second (the 5th tile drawn from the
    wall, no call yet): 地听, not 天听; the win comes after the first go-round (no 地胡)."""
    f = _win_fans("0 discard 5z", "1 draw 9s", "1 discard 9s", "2 draw 3z", "2 discard 3z", "3 draw 4z",
                  "3 discard 4z", "0 draw 6z", "0 discard 6z", "1 draw 9s", "1 discard 7z", "2 draw 4p",
                  "2 discard 4p", "1 win 4p from 2")
    assert f["地听"] == 16 and "天听" not in f and "地胡" not in f


def test_replay_no_earthly_ready_after_a_pon():
    """"且四家不碰牌吃牌以内": seat 3 pons 2z before seat 1 is ready, so no 地听."""
    f = _win_fans("0 discard 5z", "1 draw 9s", "1 discard 9s", "2 draw 2z", "2 discard 2z", "3 pon 2z from 2",
                  "3 discard 1z", "0 draw 6z", "0 discard 6z", "1 draw 9s", "1 discard 7z", "2 draw 4p",
                  "2 discard 4p", "1 win 4p from 2")
    assert "地听" not in f and "天听" not in f


def test_simulated_games_of_the_variant_are_audited_clean():
    games, _ = simulate("mcr", games=12, seed=3, hands_per_game=4, options={"variant": "mingxing"})
    seen: set[str] = set()
    for g in games:
        assert g["options"] == {"variant": "mingxing"}
        audit = LB.audit(g)
        assert not audit.findings, audit.findings[:3]
        for h in g["hands"]:
            for w in h["outcome"]["wins"]:
                seen.update(f[0] for f in w["score"]["fans"])
    assert len(seen & DATA.MINGXING) >= 4


def test_the_docs_table_is_the_generated_one():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "mcr.md").read_text(encoding="utf-8")
    start = doc.index("<!-- variants table: generated by mcr_fans.variants_table() -->\n")
    body = doc[start:doc.index("<!-- end of the variants table -->")].split("\n", 1)[1]
    assert body.rstrip("\n") == DATA.variants_table().rstrip("\n")
    assert '{"seed002": true}' not in doc


@pytest.mark.parametrize("row", DATA.IMPLIED_EXCLUSIONS,
                         ids=[f"{r.fan}-{r.excludes}" for r in DATA.IMPLIED_EXCLUSIONS])
def test_implied_exclusion_row(row):
    """Each row of ``IMPLIED_EXCLUSIONS`` applies with ``optional_exclusions: "implied"`` only."""
    from mahjong_audit.engine.rulesets.mcr_scoring import C, _exclude

    occ = (C[row.fan], C[row.excludes])
    assert dict(_exclude(occ, implied=True)) == {row.fan: 1}
    assert dict(_exclude(occ)) == {row.fan: 1, row.excludes: 1}
