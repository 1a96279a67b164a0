"""The score command: one result per input line, invalid lines reported, never a crash."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from mahjong_audit.pipeline.commands.score import run, score_line

NINE_GATES = {"concealed": ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p"],
              "win_tile": "5p"}


def test_scores_a_valid_hand():
    r = score_line(json.dumps(NINE_GATES), "mcr")
    assert r["valid"] is True
    assert {"name": "九莲宝灯", "value": 88, "count": 1} in r["fans"]
    assert r["total"] == sum(f["value"] * f["count"] for f in r["fans"])


def test_spec_example_with_melds_and_flower():
    line = {"concealed": ["1m", "2m", "3m", "5p", "5p", "7s", "8s", "9s", "5z", "5z"],
            "melds": [{"type": "chi", "tiles": ["4m", "5m", "6m"], "claimed": "5m", "from": 3},
                      {"type": "pon", "tile": "7z", "from": 1}],
            "win_tile": "5z", "flowers": ["1f"], "seat_wind": "S"}
    r = score_line(json.dumps(line), "mcr")
    # the spec's example takes its chi from the right seat (from 3): a chi comes only from the left
    assert r["valid"] is False and r["error"] == "chi_not_from_left"
    line["melds"][0]["from"] = 1
    r = score_line(json.dumps(line), "mcr")
    assert r["valid"] is False and r["error"] == "wrong_tile_count"
    # the spec's example counts 10 + 3 melds: with its concealed kong the standing tiles are 4
    line["melds"].append({"type": "kong", "tile": "9p", "concealed": True})
    line["concealed"] = ["1m", "2m", "3m", "5z"]
    r = score_line(json.dumps(line), "mcr")
    assert r["valid"] is True
    assert {"name": "花牌", "value": 1, "count": 1} in r["fans"]


def test_below_minimum_is_still_scored():
    line = {"concealed": ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9m"],
            "win_tile": "9m"}
    r = score_line(json.dumps(line), "mcr")
    assert r["valid"] is True and r.get("below_minimum") is True


def test_invalid_lines_never_crash():
    assert score_line("{", "mcr")["error"] == "invalid_json"
    assert score_line(json.dumps({"concealed": ["10m"], "win_tile": "1m"}), "mcr")["error"] == "bad_tile"
    assert score_line(json.dumps({**NINE_GATES, "ruleset": "nope"}), "mcr")["error"] == "unknown_ruleset"
    five = dict(NINE_GATES, concealed=["1p"] * 4 + NINE_GATES["concealed"][4:], win_tile="1p")
    assert score_line(json.dumps(five), "mcr")["valid"] is False
    short = dict(NINE_GATES, concealed=["1p"])
    assert score_line(json.dumps(short), "mcr")["error"] == "wrong_tile_count"


def test_run_keeps_order_and_skips_blank_lines():
    src = io.StringIO(json.dumps(NINE_GATES) + "\n\nnot json\n")
    out = io.StringIO()
    assert run(SimpleNamespace(file=None, ruleset="mcr"), stdin=src, stdout=out) == 0
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["valid"] for x in lines] == [True, False]


def test_a_number_beyond_the_integer_digit_limit_is_invalid_json_not_a_crash():
    # json.loads raises a plain ValueError (not JSONDecodeError) past 4,300 digits
    line = '{"id": 1' + "0" * 5000 + ', "concealed": [], "win_tile": "1m"}'
    r = score_line(line, "mcr")
    assert r["valid"] is False and r["error"] == "invalid_json"


def test_an_id_with_a_lone_surrogate_is_written_escaped_not_a_crash():
    # "\ud800" is valid JSON and is echoed as the id; UTF-8 output cannot encode it as such
    src = io.StringIO('{"id": "\\ud800", "concealed": ["1m"], "win_tile": "1m"}\n' + json.dumps(NINE_GATES) + "\n")
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    assert run(SimpleNamespace(file=None, ruleset="mcr"), stdin=src, stdout=out) == 0
    out.flush()
    first, second = raw.getvalue().decode("utf-8").splitlines()
    assert first.startswith('{"id": "\\ud800", "valid": false')
    assert json.loads(first)["id"] == "\ud800"
    assert json.loads(second)["valid"] is True


def test_json_nested_beyond_the_recursion_limit_is_invalid_json_not_a_crash():
    r = score_line("[" * 100_000 + "]" * 100_000, "mcr")
    assert r["valid"] is False and r["error"] == "invalid_json"


@pytest.mark.parametrize(("line", "message"), [
    ("[1, 2]", "expected a JSON object (a situation), got an array"),
    ('"x"', "expected a JSON object (a situation), got a string"),
    ("null", "expected a JSON object (a situation), got null"),
    ('{"concealed": ["1p"], "win_tile": "5p", "melds": [1]}', "melds[0]: expected a JSON object, got a number"),
    ('{"concealed": ["1p"], "win_tile": "5p", "options": []}', "options: expected a JSON object, got an array"),
    ('{"concealed": "1p", "win_tile": 5}',
     "concealed: expected a JSON array, got a string; win_tile: expected a string, got a number"),
    ('{"concealed": ["1p"], "win_tile": "5p", "self_drawn": "yes"}', "self_drawn: expected true or false, got a string"),
    ('{"concealed": ["1p"], "win_tile": "5p", "bogus": 1}', "bogus: unknown field"),
    ('{"concealed": ["1p"]}', "win_tile: missing (required)"),
])
def test_messages_speak_json_not_the_models_class_names(line, message):
    """Issue 25: "Input should be a valid dictionary or instance of Situation" named a class."""
    out = score_line(line, "mcr")
    assert out["valid"] is False and out["message"] == message
    assert "instance of" not in out["message"] and "Input should" not in out["message"]
