"""End to end: a small corpus with faulty records → `mahjong-audit audit` → DuckDB."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest

from mahjong_audit.pipeline.cli import main
from tests.e2e import counts, expected_counts, query
from tests.logbuild import win_game

pytestmark = pytest.mark.slow  # whole audits, in memory and on two worker processes


@pytest.mark.parametrize("mode", [["--workers", "1"], ["--workers", "2"]], ids=["in_memory", "two_processes"])
def test_audit_corpus_exact_counts_and_rerun_adds_nothing(corpus, tmp_path, capsys, mode):
    db = tmp_path / "audit.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), *mode]) == 0
    out = capsys.readouterr().out
    assert "audited 5 games, 5 hands" in out
    assert "rejected: 2 records" in out
    want = expected_counts()
    assert counts(db) == want

    # the second copy of g1 (in sub/c.jsonl.gz) is the duplicate; a.jsonl:1 is kept
    dup = query(db, "SELECT game_id, source_file, source_line FROM findings WHERE kind = 'duplicate_game'")
    assert dup == [("g1", str(corpus / "sub" / "c.jsonl.gz"), 2)]
    kept = query(db, "SELECT source_file, source_line FROM games WHERE game_id = 'g1'")
    assert kept == [(str(corpus / "a.jsonl"), 1)]
    bad = query(db, "SELECT source_file, source_line, code, game_id FROM rejected ORDER BY source_line")
    assert bad == [(str(corpus / "a.jsonl"), 3, "invalid_log/json", None),
                   (str(corpus / "a.jsonl"), 5, "invalid_log/schema", "bad-schema")]
    assert query(db, "SELECT source_line FROM games WHERE game_id = 'g3'") == [(1,)]
    assert not (tmp_path / ".audit.duckdb.staging").exists()
    assert (tmp_path / "audit.duckdb.log").exists()

    # re-running replaces, never duplicates (only the runs table grows)
    assert main(["audit", str(corpus), "--db", str(db), *mode]) == 0
    assert counts(db) == {**want, "runs": 2}


def test_audit_subset_rerun_replaces_only_those_games(corpus, tmp_path):
    db = tmp_path / "audit.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 0
    before = counts(db)
    assert main(["audit", str(corpus / "b.json"), "--db", str(db), "--in-memory"]) == 0
    assert counts(db) == {**before, "runs": 2}
    runs = query(db, "SELECT run_id FROM runs ORDER BY started_at")
    assert query(db, "SELECT run_id FROM games WHERE game_id = 'g3'") == [runs[1]]
    assert query(db, "SELECT count(*) FROM games WHERE run_id = ?".replace("?", repr(runs[0][0]))) == [(4,)]


def test_summary_views_and_stats_command(corpus, tmp_path, capsys):
    db = tmp_path / "audit.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 0
    ann = query(db, "SELECT games, hands, wins, self_draw_wins, deal_ins, net_score, avg_win_total "
                    "FROM player_stats WHERE player = 'ann'")
    assert ann == [(5, 5, 4, 4, 0, 4 * 105, 27.0)]
    fans = dict(query(db, "SELECT item, hands FROM fan_stats"))
    assert fans["七对"] == 4
    summary = query(db, "SELECT code, count FROM finding_summary WHERE kind IN ('invalid_log', 'duplicate_game') "
                        "ORDER BY code")
    assert summary == [("duplicate_game/game_id", 1), ("invalid_log/json", 1), ("invalid_log/schema", 1)]
    capsys.readouterr()
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    for view in ("player_stats", "fan_stats", "finding_summary"):
        assert view in out
    assert "七对" in out and "ann" in out


def test_locked_database_exits_75_with_a_clear_message(corpus, tmp_path, capsys):
    db = tmp_path / "locked.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); time.sleep(60)",
         str(db)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        assert main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 75
        err = capsys.readouterr().err
        assert "locked" in err and "Traceback" not in err
        assert main(["stats", "--db", str(db)]) == 75
    finally:
        holder.kill()
        holder.wait()


def test_failed_pipeline_changes_nothing(corpus, tmp_path, monkeypatch, capsys):
    db = tmp_path / "audit.duckdb"
    assert main(["audit", str(corpus / "b.json"), "--db", str(db), "--in-memory"]) == 0
    before = counts(db)

    def broken_engine():
        raise RuntimeError("engine cannot start")

    monkeypatch.setattr("mahjong_audit.pipeline.transforms._engine_audit_game", broken_engine)
    capsys.readouterr()
    assert main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 1
    err = capsys.readouterr().err
    assert "engine cannot start" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert counts(db) == before
    assert not (tmp_path / ".audit.duckdb.staging").exists()


def test_usage_errors_exit_1(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "x.duckdb")]) == 1
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["audit", str(tmp_path / "empty"), "--db", str(tmp_path / "x.duckdb")]) == 1
    assert main(["audit", str(tmp_path / "empty"), "--db", str(tmp_path / "x.duckdb"), "--from", "nope"]) == 1
    assert "unknown importer" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "x.duckdb")


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"], ids=["byte_ranges", "strided"])
def test_a_file_split_into_shards_over_two_processes_gives_the_same_tables(tmp_path, monkeypatch, capsys, suffix):
    """One file read as 2 shards by 2 worker processes (byte ranges; a compressed file:
    strided, every other record); its duplicate, bad line and line over the size limit are
    handled exactly as when it is read whole, and its records are counted once over both
    shards."""
    lines = [json.dumps(win_game(f"s{i}")) for i in range(6)]
    lines.insert(3, json.dumps(win_game("s0")))  # line 4: a later copy of line 1, in the other shard
    lines.insert(5, "{broken")  # line 6
    lines.append('{"pad": "' + "x" * 3000 + '"}')  # line 9: over --max-record-bytes
    path = tmp_path / f"one{suffix}"
    text = "\n".join(lines) + "\n"
    if suffix.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    monkeypatch.setattr("mahjong_audit.pipeline.inputs.MIN_SPLIT_BYTES", 1)  # the driver plans the shards
    results = {}
    for mode in (["--workers", "2"], ["--in-memory"]):
        db = tmp_path / f"{mode[0].strip('-')}.duckdb"
        assert main(["audit", str(path), "--db", str(db), "--max-record-bytes", "2K", *mode]) == 0
        results[mode[0]] = (
            counts(db),
            query(db, "SELECT game_id, source_line FROM games ORDER BY game_id"),
            query(db, "SELECT game_id, source_line, recorded FROM findings WHERE kind = 'duplicate_game'"),
            query(db, "SELECT source_line, code FROM rejected ORDER BY source_line"),
            query(db, "SELECT source_file, records, games, duplicates, rejected FROM run_files"),
            query(db, "SELECT records, duplicates FROM runs"),
        )
    assert "in 2 shards" in (tmp_path / "workers.duckdb.log").read_text()
    sharded, whole = results["--workers"], results["--in-memory"]
    assert sharded == whole
    assert sharded[1] == [("s0", 1)] + [(f"s{i}", i + 1 + (i >= 3) + (i >= 4)) for i in range(1, 6)]
    assert sharded[2] == [("s0", 4, f"{path}:1")]
    assert sharded[3] == [(6, "invalid_log/json"), (9, "invalid_log/json")]
    assert sharded[4] == [(str(path), 9, 6, 1, 2)] and sharded[5] == [(9, 1)]
    # the files table: a file read in byte ranges gets the parts' hash and all its lines; a
    # strided one the file's own SHA-256, as when it is read whole
    ((digest, n_lines),) = query(tmp_path / "workers.duckdb", "SELECT content_hash, lines FROM files")
    assert n_lines == len(lines)
    if suffix.endswith(".gz"):
        assert query(tmp_path / "in-memory.duckdb", "SELECT content_hash FROM files") == [(digest,)]
        assert not digest.startswith("parts:")
    else:
        assert digest.startswith("parts:")
    assert "duplicates: 1 later copy of" in capsys.readouterr().out
