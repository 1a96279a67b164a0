"""``mahjong-audit import``: conversion to JSON lines, detection, rejections on stderr, exit status."""

import gzip
import json
import shutil
from pathlib import Path

from mahjong_audit.pipeline.cli import main

REAL = Path(__file__).parent / "fixtures" / "real"


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_detects_every_format_and_writes_one_game_per_line(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    rc = main(["import", str(REAL / "botzone-txt" / "sample.txt"), str(REAL / "botzone-json"),
               str(REAL / "pmn"), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0, err
    games = read_jsonl(out)
    assert len(games) == 16 + 5 + 3
    assert "14 files: 24 games written to" in err and "0 records rejected" in err
    assert {g["platform"] for g in games} == {"botzone", "mahjongsoft"}


def test_from_forces_the_importer_and_gz_output(tmp_path, capsys):
    out = tmp_path / "pmn.jsonl.gz"
    assert main(["import", "--from", "pmn", str(REAL / "pmn" / "example_2.pmn"), "-o", str(out)]) == 0
    (game,) = read_jsonl(out)
    assert game["game_id"] == "mahjongsoft-74621-g1-t3"


def test_rejected_records_are_reported_with_file_line_and_match(tmp_path, capsys):
    src = tmp_path / "data.txt"
    good = (REAL / "botzone-txt" / "sample.txt").read_text(encoding="utf-8").split("\n\n")[0]
    bad = good.replace("Player 0 Draw J3", "Player 0 Draw X3", 1)
    src.write_text(good + "\n\n" + bad + "\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    rc = main(["import", "--from", "botzone-txt", str(src), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1
    assert len(read_jsonl(out)) == 1
    start = len(good.split("\n")) + 2
    assert f"{src}:{start}: invalid_log/import: botzone-txt: match 61602cb45ddc087351c04358: line " in err
    assert "'X3' is not a Botzone tile" in err
    assert "1 record rejected" in err


def test_botzone_json_rejection_names_the_match(tmp_path, capsys):
    d = tmp_path / "bz"
    d.mkdir()
    data = json.loads((REAL / "botzone-json" / "6a20635a58ebe27b197dddad_lite.json").read_text(encoding="utf-8"))
    data["logs"] = data["logs"][:-1]
    (d / "feedbeef_lite.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["import", str(d), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert "feedbeef_lite.json:1: invalid_log/import: botzone-json: match feedbeef: the match has no result" \
        in capsys.readouterr().err


def test_unrecognised_file_and_unknown_importer(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n", encoding="utf-8")
    assert main(["import", str(notes), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert "no importer recognises this file" in capsys.readouterr().err
    assert main(["import", "--from", "nope", str(notes), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert "unknown importer 'nope'" in capsys.readouterr().err


def test_metadata_files_alone_give_no_games(tmp_path, capsys):
    d = tmp_path / "meta"
    d.mkdir()
    shutil.copy(REAL / "botzone-json" / "6a20635a58ebe27b197dddad_metadata.json", d)
    out = tmp_path / "o.jsonl"
    assert main(["import", str(d), "-o", str(out)]) == 0
    assert read_jsonl(out) == []
