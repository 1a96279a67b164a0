"""`mahjong-audit validate` and `mahjong-audit schema`."""

from __future__ import annotations

import json

from mahjong_audit.pipeline.cli import main
from tests.e2e import make_corpus
from tests.logbuild import win_game


def test_validate_reports_every_bad_record_with_file_and_line(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    assert main(["validate", str(corpus)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines == [
        f"{corpus / 'a.jsonl'}:3: invalid_log/json: not valid JSON: Expecting value (column 40)",
        f"{corpus / 'a.jsonl'}:5: invalid_log/schema [bad-schema]: hands[0].events[0].tile: '10m' is not a tile",
    ]
    assert "3 files: 6 valid games, 2 bad records" in captured.err


def test_validate_clean_files_exit_0(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(win_game("a")) + "\n" + json.dumps(win_game("b")) + "\n")
    assert main(["validate", str(good)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "2 valid games, 0 bad records" in captured.err


def test_validate_missing_input_exit_1(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.json")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_schema_prints_the_json_schema(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "mahjong-log/1 game"
    assert "game_id" in schema["properties"]
