"""Importer botzone-json on the two shapes beside the match record (tests/fixtures/real):
judge logs (the bare ``logs`` array, no walls) and display logs (displays only: no walls,
no responses), and the penalty verdict (WA) a display log may end on."""

import copy
import json
from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.botzone_json import (
    DISPLAY_LOG,
    JUDGE_LOG,
    MATCH_RECORD,
    NO_RESPONSES,
    NO_WALL,
    head_shape,
)
from mahjong_audit.pipeline.lines import read_head, text_lines
from mahjong_audit.schemas.log import Game

REAL = Path(__file__).parent / "fixtures" / "real"
JUDGE = REAL / "botzone-logs" / "log_2026-6-3_14_25_02-4-ciaestcnn.log"
DISPLAY = REAL / "botzonebench" / "lv0__gpt-5.2-2025-12-11__14-bl.log"
WA = REAL / "botzonebench" / "lv0__Qwen3-8B__0-llm.log"
RECORD = REAL / "botzone-json" / "6a20635a58ebe27b197dddad_lite.json"
IMP = IMPORTERS["botzone-json"]


def load(path: Path, text: str | None = None) -> dict:
    (rec,) = IMP.records(str(path), text_lines(text or path.read_text(encoding="utf-8")))
    (game,) = IMP.convert(rec)
    return game


def codes(g: dict) -> list[str]:
    return [f.code for f in audit_game(Game.model_validate(g)).findings]


@pytest.mark.parametrize("path, shape", [(RECORD, MATCH_RECORD), (JUDGE, JUDGE_LOG), (DISPLAY, DISPLAY_LOG)])
def test_each_shape_is_recognised_by_content(path, shape):
    head = read_head(str(path))
    assert head_shape(head) == shape
    assert detect(str(path), head) == "botzone-json"


def test_what_a_shape_cannot_tell_is_a_note_not_a_finding():
    notes = {p: IMP.notes(str(p), read_head(str(p))) for p in (RECORD, JUDGE, DISPLAY)}
    assert notes[RECORD] == ()
    assert notes[JUDGE] == (f"{JUDGE_LOG}: {NO_WALL}",)
    assert notes[DISPLAY] == (f"{DISPLAY_LOG}: {NO_WALL}", f"{DISPLAY_LOG}: {NO_RESPONSES}")
    g = load(DISPLAY)
    assert g["meta"]["shape"] == DISPLAY_LOG and g["meta"]["limits"] == [NO_WALL, NO_RESPONSES]
    assert codes(g) == []


def test_judge_log_keeps_the_deal_the_responses_and_can_hu():
    g = load(JUDGE)
    assert g["game_id"] == "botzone-log_2026-6-3_14_25_02-4-ciaestcnn"
    hand = g["hands"][0]
    assert "seat_walls" not in hand and [len(d) for d in hand["deal"]] == [13] * 4
    assert hand["meta"]["can_hu"] and hand["meta"]["srand"] is not None
    assert any(e.get("claims") for e in hand["events"])  # declared claims come from the responses
    win = hand["outcome"]["wins"][0]
    assert win["score"]["total"] == 8
    assert codes(g) == []


def test_display_log_has_no_claims_and_audits_clean():
    g = load(DISPLAY)
    hand = g["hands"][0]
    assert not any("claims" in e for e in hand["events"]) and hand["meta"]["can_hu"] == []
    assert {e["type"] for e in hand["events"]} >= {"concealed_kong", "added_kong", "chi", "pon", "win"}
    assert hand["outcome"]["wins"][0]["score"]["total"] == 11
    assert codes(g) == []


def test_a_display_log_ending_on_wa_pays_the_penalty_and_nothing_else():
    """lv0__Qwen3-8B__0-llm: the judge refused seat 0's answer after its draw: −30, +10 each."""
    g = load(WA)
    assert g["options"]["penalty_verdicts"] is True
    out = g["hands"][0]["outcome"]
    assert out == {"result": "draw", "wins": [], "deltas": [-30, 10, 10, 10],
                   "penalties": [{"seat": 0, "kind": "wrong_action", "deltas": [-30, 10, 10, 10]}]}
    a = audit_game(Game.model_validate(g))
    assert a.findings == () and a.hands[0].result == "draw" and a.hands[0].draw_reason == "penalty_verdict"


def test_a_penalty_verdict_paid_wrongly_is_found():
    g = load(WA)
    g["hands"][0]["outcome"]["deltas"] = [-30, 20, 10, 0]
    assert sorted(set(codes(g))) == ["payout_mismatch/delta"]


def test_without_penalty_verdicts_a_hand_stopped_short_is_not_a_draw():
    g = load(WA)
    del g["options"]["penalty_verdicts"]
    assert {"outcome_mismatch/result", "payout_mismatch/delta"} <= set(codes(g))


def test_a_shape_that_is_no_botzone_match_is_rejected():
    with pytest.raises(ImportFailure, match="neither a match record"):
        IMP.convert(Record("x.log", 1, json.dumps([{"hello": 1}])))
    data = json.loads(DISPLAY.read_text(encoding="utf-8"))
    with pytest.raises(ImportFailure, match="does not open with an INIT"):
        IMP.convert(Record("x.log", 1, json.dumps(data[1:])))
    broken = copy.deepcopy(data)
    broken[1]["hand"] = broken[1]["hand"][:3]
    with pytest.raises(ImportFailure, match="four hands of 13"):
        IMP.convert(Record("x.log", 1, json.dumps(broken)))


def test_a_wrong_draw_in_a_display_log_is_still_found_by_conservation():
    """No wall to check against, but a fifth copy of a tile is still impossible."""
    data = json.loads(DISPLAY.read_text(encoding="utf-8"))
    draws = [e for e in data if e["action"] == "DRAW"]
    deal = [t for h in data[1]["hand"] for t in h]
    common = max(set(deal), key=deal.count)
    for e in draws[:4]:
        e["tile"] = common
    g = load(DISPLAY, json.dumps(data))
    assert any(c.startswith("tile_conservation/") for c in codes(g))
