"""Importer pmn (mahjongsoft duplicate MCR) and the multiple-win payout quirk it brings."""

import copy
from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.pmn import FAN_NUMBERS, parse_deal
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game

DIR = Path(__file__).parent / "fixtures" / "real" / "pmn"
IMP = IMPORTERS["pmn"]


def load(name: str) -> dict:
    path = DIR / name
    (rec,) = IMP.records(str(path), text_lines(path.read_text(encoding="utf-8")))
    (game,) = IMP.convert(rec)
    return game


def codes(game: dict) -> list[str]:
    return [f.code for f in audit_game(Game.model_validate(game)).findings]


def test_game_fields():
    g = load("example_1.pmn")
    assert g["game_id"] == "mahjongsoft-74621-g2-t2"
    assert g["players"] == ["Sandy7169", "Alec (钧力）", "忘却氤氲", "Annie Fok"]
    assert g["options"] == {"multiple_winners": True, "multiple_win_payout": "unknown", "flowers": False}
    assert g["initial_scores"] == [0, 0, 0, 0] and g["final_scores"] == [-8, -17, 33, -8]
    assert g["meta"]["tags"]["Board"] == "2" and "Deal" not in g["meta"]["tags"]
    hand = g["hands"][0]
    assert hand["round_wind"] == "E" and hand["dealer"] == 0
    assert hand["outcome"]["deltas"] == [-8, -17, 33, -8]
    assert hand["outcome"]["wins"] == [{"seat": 2, "from": 1, "tile": "2s", "score": {"fans": [
        ["全带幺", 4, 1], ["箭刻", 2, 1], ["喜相逢", 1, 1], ["幺九刻", 1, 1], ["嵌张", 1, 1]], "total": 9}}]
    assert load("example_3.pmn")["hands"][0]["round_wind"] == "W"


def test_deal_groups():
    assert parse_deal("c25566d579b2269wr2f") == [
        "2m", "5m", "5m", "6m", "6m", "5p", "7p", "9p", "2s", "2s", "6s", "9s", "6z"]
    assert parse_deal("cdbw14r13f2") == ["1z", "4z", "7z", "5z", "2f"]


def test_play_tokens():
    evs = load("example_1.pmn")["hands"][0]["events"]
    # T0r3 D0z1: draw r3 (白 in our reading) and discard the tile just taken
    assert evs[:2] == [{"seq": 1, "type": "draw", "seat": 0, "tile": "5z"},
                       {"seq": 2, "type": "discard", "seat": 0, "tile": "5z"}]
    # D2r1 Z1r1 T1c9: a kong on a discard, then the replacement draw
    k = next(i for i, e in enumerate(evs) if e["type"] == "kong")
    assert evs[k] == {"seq": k + 1, "type": "kong", "seat": 1, "tile": "7z", "from": 2}
    assert evs[k + 1] == {"seq": k + 2, "type": "draw", "seat": 1, "tile": "9m", "from": "back"}
    # D2b8 C3b7: chi names the middle tile
    chi = next(e for e in evs if e["type"] == "chi")
    assert chi["tile"] == "8s" and chi["tiles"] == ["6s", "7s"] and chi["from"] == 2
    ev3 = load("example_3.pmn")["hands"][0]["events"]
    assert [e["type"] for e in ev3 if "kong" in e["type"]] == ["added_kong", "concealed_kong"]


def test_fan_numbers_follow_the_official_list():
    assert len(FAN_NUMBERS) == 82
    assert (FAN_NUMBERS[0], FAN_NUMBERS[38], FAN_NUMBERS[54], FAN_NUMBERS[77], FAN_NUMBERS[80]) == (
        "大四喜", "花龙", "全带幺", "嵌张", "花牌")


def test_double_win_is_imported_with_both_winners():
    hand = load("example_2.pmn")["hands"][0]
    assert [(e["seat"], e["from"], e["tile"]) for e in hand["events"] if e["type"] == "win"] == [
        (1, 0, "3p"), (3, 0, "3p")]
    assert [w["score"]["total"] for w in hand["outcome"]["wins"]] == [12, 12]


# ---------------------------------------------------------------- platform_quirk/multiple_win_payout

def test_quirk_fires_on_a_multiple_win_with_undocumented_payout():
    assert codes(load("example_2.pmn")) == ["platform_quirk/multiple_win_payout"]
    (f,) = audit_game(Game.model_validate(load("example_2.pmn"))).findings
    assert f.severity == "warning" and f.recorded == "[-32, 36, -8, 36]" and f.expected == "[-40, 28, -16, 28]"


def test_quirk_does_not_fire_on_a_single_winner():
    assert codes(load("example_1.pmn")) == []
    assert codes(load("example_3.pmn")) == []


def test_quirk_does_not_fire_when_the_payout_rule_is_known():
    g = load("example_2.pmn")
    g["options"]["multiple_win_payout"] = "each"
    assert "platform_quirk/multiple_win_payout" not in codes(g)
    assert "payout_mismatch/delta" in codes(g)  # deltas are compared again
    ok = copy.deepcopy(g)
    ok["hands"][0]["outcome"]["deltas"] = [-40, 28, -16, 28]  # each winner paid as if alone
    ok.pop("final_scores")
    assert codes(ok) == []


# ---------------------------------------------------------------- rejections and sniffing

def convert(play: str, fan: str = "None None None None") -> dict:
    text = "\n".join([
        '[Deal "c123456789d1234f c123456789d5678f c123456789b1234f c123456789b5678f"]',
        f'[Play "{play}"]', f'[Fan "{fan}"]', '[Result "0 0 0 0"]'])
    return IMP.convert(Record("x.pmn", 1, text))[0]


@pytest.mark.parametrize("play, fan, reason", [
    ("Q0c1", "None None None None", "cannot read"),
    ("D0z1", "None None None None", "z1 names the tile just taken"),
    ("T0c1C1c3", "None None None None", "a call needs a discard"),
    ("T0c1D0c1P1c2", "None None None None", "the discard is 1m"),
    ("T0c1D0c1H1", "None 39/6/1 None None", "number 39 is 花龙 worth 8"),
    ("T0c1D0c1H1", "None 99/8/1 None None", "no fan number 99"),
    ("T0c1D0c1H1", "39/8/1 None None None", "scores a seat that did not win"),
    ("T0c1D0c1H1T2c1", "None None None None", "play after the end"),
])
def test_broken_records_are_rejected(play, fan, reason):
    with pytest.raises(ImportFailure, match=reason):
        convert(play, fan)


def test_exhaustive_draw_and_self_drawn_win():
    assert convert("T0c1D0z1N0")["hands"][0]["outcome"]["result"] == "draw"
    g = convert("T0c1H0", "43/8/1 None None None")
    assert g["hands"][0]["events"][-1] == {"seq": 2, "type": "win", "seat": 0, "tile": "1m", "from": 0}


def test_sniff():
    text = (DIR / "example_1.pmn").read_text(encoding="utf-8")
    assert detect("g.pmn", text) == "pmn"
    assert not IMP.sniff("g.json", '{"format": "mahjong-log/1"}')
