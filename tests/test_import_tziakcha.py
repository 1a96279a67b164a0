"""Importer tziakcha: a 雀渣 session (tests/fixtures/real/tziakcha, 16 hands of one real game).

Each fact of the record format is checked here against that game (see docs/importers.md).
"""

import copy
import json
from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import inputs, parse
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.tziakcha import (
    FAN_IDS,
    break_point,
    deal_positions,
    wall_order,
)
from mahjong_audit.pipeline.lines import read_head, text_lines
from mahjong_audit.schemas.log import Game

SESSION = Path(__file__).parent / "fixtures" / "real" / "tziakcha" / "session-ghqy2ztj.json"
IMP = IMPORTERS["tziakcha"]


def raw() -> dict:
    return json.loads(SESSION.read_text(encoding="utf-8"))


def convert(data: dict) -> dict:
    (game,) = IMP.convert(Record(str(SESSION), 1, json.dumps(data, ensure_ascii=False)))
    return game


@pytest.fixture(scope="module")
def game() -> dict:
    return convert(raw())


def codes(g: dict) -> list[str]:
    return [f.code for f in audit_game(Game.model_validate(g)).findings]


def test_detected_by_content_and_read_as_one_record():
    assert detect(str(SESSION), read_head(str(SESSION))) == "tziakcha"
    assert inputs.importer_for(str(SESSION), None) == "tziakcha"
    recs = list(IMP.records(str(SESSION), text_lines(SESSION.read_text(encoding="utf-8"))))
    assert len(recs) == 1 and recs[0].line == 1


def test_session_becomes_one_game_of_sixteen_hands(game):
    assert game["game_id"] == "tziakcha-GHQY2zTj" and game["platform"] == "tziakcha" and game["ruleset"] == "mcr"
    assert game["players"] == ["琳雨空", "米夜", "ChaosDon", "Choimoe"]
    assert len(game["hands"]) == 16
    assert [h["round_wind"] for h in game["hands"]] == list("EEEESSSSWWWWNNNN")
    assert [h["dealer"] for h in game["hands"]] == [0, 1, 2, 3] * 4
    Game.model_validate(game)


def test_players_ratings_and_session_time_are_kept(game):
    assert game["started_at"] == "2026-05-02T14:03:58.342Z"  # raw.start_time 1777730638342 ms
    assert game["hands"][0]["started_at"] == game["started_at"]
    assert game["meta"]["title"] == "SDU国标麻将团体赛常规赛第50轮A桌"
    assert [(p["name"], p["rating"]) for p in game["meta"]["players"]] == [
        ("琳雨空", 2253), ("米夜", 2248), ("ChaosDon", 2161), ("Choimoe", 2082)]
    assert game["initial_scores"] == [0, 0, 0, 0] and game["final_scores"] == [-77, -31, 100, 8]
    assert "continuity/final_scores" in codes(dict(game, final_scores=[-76, -31, 100, 7]))


def test_seats_follow_the_winds_of_each_hand(game):
    """step.p lists the players by seat wind; players change seats at each new round."""
    first, south = game["hands"][0], game["hands"][4]
    assert first["seats"] == [0, 1, 2, 3]
    assert south["seats"] == [1, 0, 3, 2]  # 米夜 East, 琳雨空 South, Choimoe West, ChaosDon North
    second = game["hands"][1]  # 米夜 deals from table seat 1: the same table, the deal moved on
    assert second["dealer"] == 1 and second["seats"] == [0, 1, 2, 3]


def test_dice_break_the_wall_where_the_deal_starts():
    # hand 0: dice 2 5 5 4 → wall (1 - 7) mod 4 = 2, 16 stacks in: position 72 + 32
    assert break_point(0x4552) == 104
    assert break_point(0x6642) == 0  # 2+4 = 6 → wall 3, 18 stacks in = the start of wall 0
    with pytest.raises(ImportFailure, match="not four dice"):
        break_point(0x0552)
    dealt = deal_positions(104)
    assert [len(d) for d in dealt] == [14, 13, 13, 13]
    assert dealt[0][:4] == [104, 105, 106, 107] and dealt[0][-2:] == [8, 12]
    order = wall_order(104, live=3)
    assert order[:3] == [13, 14, 15] and order[-4:] == [101, 100, 103, 102]  # replacements: 102, 103, 100, 101
    assert sorted(order + [p for d in dealt for p in d]) == list(range(144))


def test_every_draw_is_checked_against_the_wall(game):
    hand = game["hands"][0]
    draws = [e for e in hand["events"] if e["type"] == "draw"]
    live = [e["tile"] for e in draws if e.get("from") != "back"]
    back = [e["tile"] for e in draws if e.get("from") == "back"]
    assert live == hand["wall"][:len(live)] and back == hand["wall"][::-1][:len(back)]
    assert len(hand["wall"]) == 144 - 53
    swapped = copy.deepcopy(game)
    wall = swapped["hands"][0]["wall"]
    wall[0], wall[1] = wall[1], wall[0]
    assert codes(swapped).count("tile_conservation/wall_mismatch") == 2
    back_swapped = copy.deepcopy(game)
    wall = back_swapped["hands"][0]["wall"]
    wall[-1], wall[-2] = wall[-2], wall[-1]
    assert "tile_conservation/wall_mismatch" in codes(back_swapped)


def test_flowers_are_set_aside_and_replaced_from_the_back(game):
    events = game["hands"][1]["events"]
    flowers = [e for e in events if e["type"] == "flower"]
    assert flowers and all(e["tile"].endswith("f") for e in flowers)
    for f in flowers:
        nxt = events[events.index(f) + 1]
        assert nxt["type"] == "draw" and nxt["from"] == "back" and nxt["seat"] == f["seat"]
    assert game["options"] == {}  # MCR with its 8 flowers, the default


def test_a_chi_declared_before_the_others_answered_is_a_claim(game):
    """Action [seat|3, 0, ms]: a chi declared while another seat could still claim; the chi with
    its tiles follows once that seat passed."""
    hand = game["hands"][14]
    discard = next(e for e in hand["events"] if e.get("claims"))
    assert discard["claims"] == [{"seat": (14 % 4 + 3) % 4, "call": "chi"}]
    assert hand["events"][hand["events"].index(discard) + 1]["type"] == "chi"


def test_recorded_fans_and_deltas_are_kept(game):
    w = game["hands"][0]["outcome"]["wins"][0]
    assert w["score"] == {"fans": [["花龙", 8, 1], ["和绝张", 4, 1], ["平和", 2, 1], ["喜相逢", 1, 1]], "total": 15}
    assert game["hands"][0]["outcome"]["deltas"] == [-8, -8, 39, -23]
    assert codes(game) == []


def test_three_chows_stepping_by_two_are_yiseh_sanbugao():
    """Fan id 32 is the platform's 一色三连环: hand 4 wins on 345s 567s 789s, MCR's 一色三步高 (16)."""
    assert FAN_IDS[32] == ("一色三连环", "一色三步高") and FAN_IDS[17] == ("一色四连环", "一色四步高")
    assert FAN_IDS[31] == ("一色三步高", "一色三步高") and FAN_IDS[83] == ("花牌", "花牌")
    g = convert(raw())
    assert g["hands"][4]["outcome"]["wins"][0]["score"]["fans"][0] == ["一色三步高", 16, 1]


def test_a_fan_the_platform_has_and_mcr_has_not_is_a_platform_quirk():
    data = raw()
    data["records"][0]["step"]["y"][2]["t"]["85"] = 168  # ※ 天和, as if the platform had scored it
    data["records"][0]["step"]["y"][2]["f"] += 168
    g = convert(data)
    assert g["hands"][0]["outcome"]["wins"][0]["score"]["platform_fans"] == [["天和", 168, 1]]
    assert codes(g) == ["platform_quirk/platform_fan"]  # no score_mismatch, no payout_mismatch


def test_platform_fan_quirk_does_not_fire_on_the_real_game(game):
    assert "platform_quirk/platform_fan" not in codes(game)


def test_a_fan_with_a_wrong_value_is_rejected():
    data = raw()
    data["records"][0]["step"]["y"][2]["t"]["41"] = 6
    with pytest.raises(ImportFailure, match=r"record 1gaohhFd \(hand 0\): step.y\[2\]: fan 41 \(花龙\) is worth 8"):
        convert(data)


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d["records"][0]["step"].update(w="00" * 144), "not the 144 tile ids"),
    (lambda d: d["records"][0]["step"].update(w="0"), "holds 0 tiles"),
    (lambda d: d["records"][0]["step"]["a"].__setitem__(31, [1 << 4 | 3, 0x3FFF, 1]), "chi of"),
    (lambda d: d["records"][0]["step"]["p"][0].update(n="someone"), "not one of the session's players"),
    (lambda d: d["records"][0]["step"]["y"][2]["t"].update({"99": 1}), "not a known fan id"),
    (lambda d: d.pop("records"), "not a 雀渣 session"),
])
def test_broken_sessions_are_rejected(mutate, reason):
    data = raw()
    mutate(data)
    with pytest.raises(ImportFailure, match=reason):
        convert(data)


def test_a_record_alone_is_a_game_of_one_hand():
    rec = raw()["records"][3]
    rec["belongs"] = "GHQY2zTj"
    (g,) = IMP.convert(Record("r.json", 1, json.dumps(rec, ensure_ascii=False)))
    assert g["game_id"] == "tziakcha-GHQY2zTj" and len(g["hands"]) == 1
    assert codes(g) == []


def test_a_folder_of_sessions_is_read(tmp_path):
    (tmp_path / "a.json").write_text(SESSION.read_text(encoding="utf-8"), encoding="utf-8")
    files = inputs.expand_inputs([str(tmp_path)])
    assert [inputs.importer_for(f, None) for f in files] == ["tziakcha"]
    games = [g for g in parse.parse_file(files[0]) if isinstance(g, parse.ParsedGame)]
    assert len(games) == 1 and len(games[0].game.hands) == 16
