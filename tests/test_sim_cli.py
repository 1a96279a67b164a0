"""``mahjong-audit simulate``: files, labels, gzip, parallel runs equal serial ones."""

from __future__ import annotations

import gzip
import json

import pytest

from mahjong_audit.pipeline.cli import main


def test_simulate_writes_games_and_labels(tmp_path, capsys) -> None:
    out, labels = tmp_path / "g.jsonl", tmp_path / "l.jsonl"
    rc = main(["simulate", "--ruleset", "mcr", "--games", "12", "--seed", "3", "--hands-per-game", "2",
               "-o", str(out), "--faults", "0.5", "--labels", str(labels)])
    assert rc == 0
    lines = out.read_text().splitlines()
    labs = [json.loads(x) for x in labels.read_text().splitlines()]
    assert labs and all({"game_id", "hand_no", "kind", "code", "description"} <= set(x) for x in labs)
    dups = sum(1 for x in labs if x["kind"] == "duplicate_game")
    assert len(lines) == 12 + dups
    err = capsys.readouterr().err
    assert "hands/s" in err and "wins:" in err


def test_gzip_and_workers_match_serial(tmp_path) -> None:
    a, b = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl"
    base = ["simulate", "--ruleset", "mcr", "--games", "6", "--seed", "1", "--hands-per-game", "1", "--quiet"]
    assert main([*base, "-o", str(a), "--workers", "2"]) == 0
    assert main([*base, "-o", str(b)]) == 0
    with gzip.open(a, "rt", encoding="utf-8") as f:
        assert f.read() == b.read_text()


def test_bad_arguments(tmp_path, capsys) -> None:
    out = str(tmp_path / "x.jsonl")
    assert main(["simulate", "--ruleset", "nope", "--games", "1", "-o", out]) == 1
    assert main(["simulate", "--ruleset", "mcr", "--games", "1", "-o", out, "--faults", "0.2"]) == 1
    assert "needs --labels" in capsys.readouterr().err


@pytest.mark.slow  # simulate in two subprocesses
def test_output_does_not_depend_on_hash_seed(tmp_path) -> None:
    """No set-iteration-order dependence: two interpreters with different hash seeds agree."""
    import os
    import subprocess
    import sys

    outs = []
    for h in ("1", "2"):
        out = tmp_path / f"h{h}.jsonl"
        subprocess.run([sys.executable, "-m", "mahjong_audit", "simulate", "--ruleset", "mcr", "--games", "3",
                        "--seed", "4", "--hands-per-game", "1", "-o", str(out), "--quiet"],
                       check=True, env={**os.environ, "PYTHONHASHSEED": h})
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_options_are_played_and_recorded(tmp_path, capsys) -> None:
    """``--options``: the ruleset's options for every game (mcr's variant 明星三缺一), in each game's record."""
    out = tmp_path / "m.jsonl"
    assert main(["simulate", "--ruleset", "mcr", "--games", "2", "--seed", "3", "--hands-per-game", "2", "--quiet",
                 "--options", '{"variant": "mingxing"}', "-o", str(out)]) == 0
    games = [json.loads(x) for x in out.read_text().splitlines()]
    assert [g["options"] for g in games] == [{"variant": "mingxing"}] * 2
    plain = tmp_path / "p.jsonl"
    assert main(["simulate", "--ruleset", "mcr", "--games", "1", "--seed", "3", "--quiet", "-o", str(plain)]) == 0
    assert json.loads(plain.read_text().splitlines()[0])["options"] == {}


def test_bad_options_are_refused_before_any_work(tmp_path, capsys) -> None:
    out = tmp_path / "x.jsonl"
    for bad in ('{"variant": "nope"}', "not json", "[1]", '{"nope": 1}'):
        assert main(["simulate", "--ruleset", "mcr", "--games", "1", "-o", str(out), "--options", bad]) == 1
        assert capsys.readouterr().err.startswith("mahjong-audit simulate: --options:")
    assert not out.exists()
