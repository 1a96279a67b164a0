"""The shape of `score` results: `id` echoed, every ruleset's fields always present, a 陪家
shaped like a winner, and the longgang rules behind the situation check (from the seed)."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from mahjong_audit.pipeline.commands.score import run, score_line

CHI = {"type": "chi", "tiles": ["1s", "2s", "3s"], "claimed": "2s", "from": 1}
SMALL = {"concealed": ["4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"], "melds": [CHI], "win_tile": "5p"}
LONG = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"],
        "melds": [CHI], "win_tile": "5p", "ruleset_fields": {"indicator": "9s"}}


@pytest.mark.parametrize("ident", ["hand-17", 17, 2.5, ""])
def test_id_is_echoed_in_a_valid_result(ident):
    r = score_line(json.dumps(dict(SMALL, id=ident)), "mcr")
    assert r["valid"] is True and r["id"] == ident


def test_id_is_echoed_in_an_invalid_result():
    r = score_line(json.dumps(dict(SMALL, id="x1", concealed=SMALL["concealed"][1:])), "mcr")
    assert r == {"id": "x1", "valid": False, "error": "wrong_tile_count", "message": r["message"]}
    r = score_line(json.dumps(dict(SMALL, id=9, self_drawn="yes")), "mcr")
    assert r["id"] == 9 and r["error"] == "wrong_type"


def test_no_id_no_id_field():
    assert "id" not in score_line(json.dumps(SMALL), "mcr")
    assert "id" not in score_line("[1, 2]", "mcr")  # not an object: no id to echo
    assert score_line("[1, 2]", "mcr")["error"] == "wrong_type"


def test_ids_join_results_to_inputs_in_a_batch():
    lines = [dict(SMALL, id=f"h{i}") for i in range(5)]
    lines[2]["win_tile"] = "10m"
    out = io.StringIO()
    run(SimpleNamespace(file=None, ruleset="mcr"), stdin=io.StringIO("\n".join(map(json.dumps, lines))), stdout=out)
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [g["id"] for g in got] == [f"h{i}" for i in range(5)]
    assert [g["valid"] for g in got] == [True, True, False, True, True]


LONGGANG_KEYS = {"valid", "items", "hu", "tai", "limit", "others_zero", "follow_tai", "total"}


def test_longgang_winner_and_peijia_results_have_the_same_shape():
    winner = score_line(json.dumps(LONG), "longgang")
    other = score_line(json.dumps(dict(LONG, concealed=LONG["concealed"][:-1],
                                       ruleset_fields={"indicator": "9s", "role": "other"})), "longgang")
    assert set(winner) == LONGGANG_KEYS
    assert set(other) == LONGGANG_KEYS
    assert other["items"] == [] and other["follow_tai"] == 0  # 跟胡数仅限胡家


def test_peijia_with_a_triplet_lists_its_items():
    line = dict(LONG, concealed=["5z", "5z", "5z", "7z", "7z", "7z", "1m", "2m", "4m", "1p", "2p", "3p"],
                win_tile="6z", ruleset_fields={"indicator": "9s", "role": "peijia"})
    r = score_line(json.dumps(line, ensure_ascii=False), "longgang")
    assert r["valid"] is False and r["error"] == "tile_not_in_set"  # 白板 (5z): "龙港麻将无白板"
    line["concealed"][:3] = ["6z", "6z", "6z"]
    line["win_tile"] = "9p"
    r = score_line(json.dumps(line), "longgang")
    assert set(r) == LONGGANG_KEYS
    assert {i["unit"] for i in r["items"]} <= {"hu", "tai"} and r["items"]


def test_guangdong_results_always_carry_special_and_capped():
    r = score_line(json.dumps(SMALL), "guangdong")
    assert r["special"] is False and r["capped"] is False
    assert "minimum" not in r  # present only when a minimum situation raised the total
    r = score_line(json.dumps(dict(SMALL, ruleset_fields={"winners": 2})), "guangdong")
    assert "minimum" in r


def test_mcr_results_list_fans():
    r = score_line(json.dumps(SMALL), "mcr")
    assert set(r) >= {"valid", "fans", "total"} and "items" not in r


# ------------------------------------------------------------------- longgang, from the seed

def test_three_caishen_wins_on_sixteen_tiles():
    """四、7 "凡手牌中含用三个正财神即可马上胡牌，抓16张牌时如有三财神亦可胡牌": the win tile is one of
    the seat's own tiles, so the standing tiles with it are 16, not 17."""
    line = {"concealed": ["9s", "9s", "1m", "3m", "5m", "7m", "9m", "1p", "3p", "5p", "7p", "9p", "2s", "4s", "6s"],
            "win_tile": "9s", "self_drawn": True, "ruleset_fields": {"indicator": "9s"}}
    r = score_line(json.dumps(line), "longgang")
    assert r["valid"] is True and any(i["name"] == "三财神" for i in r["items"])
    line["ruleset_fields"] = {"wildcards": ["9s"]}  # the 财神 themselves: no tile flipped
    assert score_line(json.dumps(line), "longgang")["valid"] is True
    # the flipped 9s is the fourth copy: no seat holds four 正财
    four = dict(line, concealed=["9s", *line["concealed"][1:]], ruleset_fields={"indicator": "9s"})
    four["concealed"][2] = "9s"
    assert score_line(json.dumps(four), "longgang")["error"] == "too_many_copies"
    # sixteen tiles are not a win otherwise
    line["concealed"][0] = "8s"
    assert score_line(json.dumps(line), "longgang")["error"] == "wrong_tile_count"


def test_wilds_are_never_in_a_meld():
    """三、a "财神可以用来代替其他所有的牌，但是不能打掉或者吃掉或者碰掉或者杠掉"; 一、B 3)
    "杠子中不能有财神及坐花"."""
    line = dict(LONG, melds=[{"type": "pon", "tile": "9s", "from": 2}])
    assert score_line(json.dumps(line), "longgang")["error"] == "wild_in_meld"
    line["ruleset_fields"] = {"wildcards": ["9s"]}
    line["melds"] = [{"type": "kong", "tile": "9s", "concealed": True}]
    assert score_line(json.dumps(line), "longgang")["error"] == "wild_in_meld"


def test_a_discarded_wild_is_never_won_on():
    """三、b "财神及坐花在行牌程中不能打出": no discard of a 财神, so no win on one."""
    line = dict(LONG, concealed=LONG["concealed"][:-1] + ["9s"], win_tile="9s")
    assert score_line(json.dumps(line), "longgang")["error"] == "wild_discard_win"
    line["self_drawn"] = True
    assert score_line(json.dumps(line), "longgang")["valid"] is True


def test_only_spring_to_winter_are_longgang_flowers():
    """一、A 5) "花牌：春、夏、秋、冬四张": 梅兰竹菊 (5f–8f) are not in the set."""
    for f, code in (("5f", "tile_not_in_set"), ("8f", "tile_not_in_set"), ("2f", None)):
        r = score_line(json.dumps(dict(LONG, flowers=[f])), "longgang")
        assert r.get("error") == code, f


def test_the_seats_own_flower_stays_in_hand():
    """一、A 5) 春夏秋冬 "相对应的是庄家、南风家、西风家、北风家"; 三、a "坐花可当财神用": the seat's own
    flower is a wild in hand, never set aside."""
    for wind, own in (("E", "1f"), ("S", "2f"), ("W", "3f"), ("N", "4f")):
        r = score_line(json.dumps(dict(LONG, seat_wind=wind, flowers=[own])), "longgang")
        assert r["error"] == "kept_flower_set_aside", wind
    # under 花财神 (a flower indicator) every other flower is wild: none is set aside
    r = score_line(json.dumps(dict(LONG, flowers=["3f"], ruleset_fields={"indicator": "2f"})), "longgang")
    assert r["error"] == "kept_flower_set_aside"


def test_multiple_winners_need_the_option():
    line = dict(SMALL, ruleset_fields={"winners": 2}, options={"multiple_winners": False})
    assert score_line(json.dumps(line), "guangdong")["error"] == "bad_value"
    line["options"] = {}
    assert score_line(json.dumps(line), "guangdong")["valid"] is True


# ------------------------------------------------------------------- the documentation

def test_the_score_page_documents_every_code_field_and_result_detail():
    from pathlib import Path

    from mahjong_audit.engine.rulesets import RULESETS
    from mahjong_audit.engine.situation_check import ERRORS
    from mahjong_audit.schemas.situation import MeldIn, Situation

    page = (Path(__file__).parent.parent / "docs" / "score-cli.md").read_text(encoding="utf-8")
    for code in ERRORS:
        assert f"| `{code}` |" in page, code
    for name in (*Situation.model_fields, "from", *(f for f in MeldIn.model_fields if f != "from_")):
        assert f"`{name}`" in page, name
    for cls in RULESETS.values():
        section = page.split(f"**{cls.name}**")[1].split("**")[0]
        for key in cls.situation_fields:
            assert f"`{key}`" in section, (cls.name, key)
        for key, _ in cls.result_details:
            assert f"| `{key}` |" in page, key
    for key in ("minimum", "below_minimum", "decomposition", "fans", "items"):
        assert f"| `{key}` |" in page, key


# ------------------------------------------------------------- against the reference (MCR)

def test_the_reference_calculator_on_what_we_reject_as_impossible():
    """pymahjonggb (MahjongFanCalculator) refuses a wrong tile count too, and gives no 杠上开花 for a
    kong-replacement win without a kong (the flag cannot be true). It does score a fifth copy
    (555p 55p out of five 5p): there the check is stricter than the reference."""
    import dataclasses

    from MahjongGB import MahjongFanCalculator

    from mahjong_audit.engine import tiles as T
    from mahjong_audit.engine.hand import Meld, WinSituation
    from tests.mcr_handgen import oracle_args

    base = WinSituation(T.parse("456m789m123p5p"), (Meld.chi(T.tile("1s"), T.tile("2s"), 1),), T.tile("5p"), False)
    short = dataclasses.replace(base, concealed=T.parse("456m789m123p"))
    with pytest.raises(TypeError):
        MahjongFanCalculator(**oracle_args(short))
    assert score_line(json.dumps(dict(SMALL, concealed=T.names(short.concealed))), "mcr")["error"] == "wrong_tile_count"
    five = dataclasses.replace(base, concealed=T.parse("5555p456m789m"))
    assert MahjongFanCalculator(**oracle_args(five))
    assert score_line(json.dumps(dict(SMALL, concealed=T.names(five.concealed))), "mcr")["error"] == "too_many_copies"
    fans = MahjongFanCalculator(**oracle_args(dataclasses.replace(base, self_drawn=True, kong=True)))
    assert "杠上开花" not in {name for _, name in fans}
    assert score_line(json.dumps(dict(SMALL, self_drawn=True, kong=True)), "mcr")["error"] == "kong_flag_without_kong"
