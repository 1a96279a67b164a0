"""Importer botzone-txt: record splitting, the mapping rules and the platform's quirks."""

from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.common import BOTZONE_OPTIONS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game

SAMPLE = Path(__file__).parent / "fixtures" / "real" / "botzone-txt" / "sample.txt"
IMP = IMPORTERS["botzone-txt"]


def games() -> dict[str, dict]:
    lines = text_lines(SAMPLE.read_text(encoding="utf-8"))
    out = {}
    for rec in IMP.records(str(SAMPLE), lines):
        for g in IMP.convert(rec):
            out[g["meta"]["match_id"]] = g
    return out


GAMES = games()


def convert(text: str) -> dict:
    return IMP.convert(Record("t.txt", 1, text))[0]


def events(match: str) -> list[dict]:
    return GAMES[match]["hands"][0]["events"]


def test_sixteen_records_each_naming_its_match_line():
    recs = list(IMP.records(str(SAMPLE), text_lines(SAMPLE.read_text(encoding="utf-8"))))
    assert len(recs) == 16
    assert recs[0].line == 1 and recs[0].text.startswith("Match 61602cb45ddc087351c04358")
    assert recs[1].line == 107 and recs[1].text.startswith("Match 61602cb45ddc087351c0435d")


def test_game_shape_options_and_wind_order():
    g = GAMES["61602cb45ddc087351c04358"]
    assert g["game_id"] == "botzone-61602cb45ddc087351c04358"
    assert g["options"] == BOTZONE_OPTIONS
    h = g["hands"][0]
    assert h["round_wind"] == "S"  # Wind 1: the order is E S W N, not the README's E N W S
    assert h["dealer"] == 0
    assert h["deal"][0][:3] == ["8s", "7p", "1s"]  # T8 B7 T1
    Game.model_validate(g)


def test_ignore_clause_and_carried_out_call_become_claims():
    # Player 2 Play W9 / Player 0 Peng W9 Ignore Player 3 Chi W8
    ev = {e["seq"]: e for e in events("61602cb45ddc087351c04358")}
    assert ev[38]["type"] == "discard" and ev[38]["tile"] == "9m"
    assert sorted((c["seat"], c["call"]) for c in ev[38]["claims"]) == [(0, "pon"), (3, "chi")]
    assert ev[39] == {"seq": 39, "type": "pon", "seat": 0, "tile": "9m", "from": 2}
    assert GAMES["61602cb45ddc087351c04358"]["hands"][0]["meta"]["ignored"] == [
        {"seq": 38, "seat": 3, "call": "chi", "tile": "8m"}]


def test_two_declared_wins_the_nearest_takes_the_discard():
    ev = {e["seq"]: e for e in events("61602cb45ddc087351c04385")}
    assert sorted((c["seat"], c["call"]) for c in ev[90]["claims"]) == [(0, "win"), (2, "win")]
    assert ev[91] == {"seq": 91, "type": "win", "seat": 0, "tile": "7m", "from": 3}


def test_self_drawn_hu_line_repeats_the_discard_the_win_is_the_draw():
    g = GAMES["61602cb45ddc087351c04362"]
    evs = g["hands"][0]["events"]
    assert evs[-2] == {"seq": 69, "type": "draw", "seat": 2, "tile": "3p"}
    assert evs[-1] == {"seq": 70, "type": "win", "seat": 2, "tile": "3p", "from": 2}
    assert g["hands"][0]["meta"]["hu_line_tile"] == "5p"


def test_draw_after_a_kong_is_a_replacement():
    evs = {e["seq"]: e for e in events("61602cb45ddc087351c0438a")}
    backs = [s for s, e in evs.items() if e.get("from") == "back"]
    assert backs == [44, 62, 78]
    assert {evs[s - 1]["type"] for s in backs} == {"kong", "added_kong", "concealed_kong"}


def test_chi_names_the_middle_tile():
    evs = events("61602cb45ddc087351c04358")
    chi = next(e for e in evs if e["type"] == "chi")  # Player 2 Chi T5 after Player 1 Play T4
    assert chi == {"seq": 13, "type": "chi", "seat": 2, "tile": "4s", "tiles": ["5s", "6s"], "from": 1}


def test_fan_line_values_from_the_catalogue_and_score_line_deltas():
    out = GAMES["61602cb45ddc087351c04362"]["hands"][0]["outcome"]
    assert out["wins"][0]["score"] == {"fans": [
        ["不求人", 4, 1], ["和绝张", 4, 1], ["四归一", 2, 1], ["连六", 1, 1], ["缺一门", 1, 1],
        ["无字", 1, 1], ["嵌张", 1, 1]], "total": 14}
    assert out["deltas"] == [-22, -22, 66, -22]


def test_huang_is_an_exhaustive_draw_that_the_per_seat_walls_confirm():
    g = GAMES["61602cb45ddc087351c04399"]
    assert g["hands"][0]["outcome"] == {"result": "draw", "wins": [], "deltas": [0, 0, 0, 0]}
    audit = audit_game(Game.model_validate(g))
    assert audit.findings == ()
    assert audit.hands[0].result == "draw"


def test_huang_without_per_seat_walls_is_not_an_exhaustive_draw():
    """Without seat_wall_size the shared 136-tile wall is not used up: the option matters."""
    g = dict(GAMES["61602cb45ddc087351c04399"], options={"flowers": False})
    codes = [f.code for f in audit_game(Game.model_validate(g)).findings]
    assert codes == ["outcome_mismatch/result"]


def test_sniff():
    head = SAMPLE.read_text(encoding="utf-8")[:200]
    assert IMP.sniff("data.txt", head)
    assert detect("data.txt", head) == "botzone-txt"
    assert not IMP.sniff("x.txt", "not a log\n")
    assert not IMP.sniff("x.jsonl", '{"format": "mahjong-log/1"}')


GOOD = "\n".join([
    "Match abc", "Wind 0",
    "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4",
    "Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 B5 B6 B7 B8",
    "Player 2 Deal F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 J1",
    "Player 3 Deal J2 J2 J2 J3 J3 J3 W1 W1 W1 B9 B9 B9 J1",
])


@pytest.mark.parametrize("tail, reason", [
    ("Player 0 Draw X9", "'X9' is not a Botzone tile"),
    ("Player 0 Dance W1", "unknown action 'Dance'"),
    ("Player 0 Draw W1\nPlayer 0 Play W1", "no result"),
    ("Player 0 Draw W1\nPlayer 0 Play W1\nPlayer 1 Peng W2", "the tile should be 1m"),
    ("Player 0 Draw W1\nPlayer 1 Chi W2", "a call needs a Play just before it"),
    ("Player 0 Draw W1\nPlayer 0 Play W1 Ignore Player 1 Chi W2", "Ignore clauses only follow"),
    ("Fan 8 花龙*1\nScore 0 0 0 0", "Fan without a Hu"),
])
def test_records_it_cannot_understand_are_rejected_with_match_and_line(tail, reason):
    with pytest.raises(ImportFailure) as e:
        convert(GOOD + "\n" + tail)
    assert "match abc" in str(e.value) and reason in str(e.value)


def test_unknown_fan_name_is_rejected():
    text = GOOD + "\nPlayer 0 Draw B5\nPlayer 0 Play B5\nPlayer 1 Hu B5\nFan 8 不存在*1\nScore 0 0 0 0"
    with pytest.raises(ImportFailure, match="unknown MCR fan '不存在'"):
        convert(text)
