"""The command line under failure (issue 15): dead workers, a busy database, leftover
staging, one-line errors, plain --help texts."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

import duckdb
import pytest

from mahjong_audit.pipeline import cli, errors, exits, sink, workers
from mahjong_audit.pipeline.commands import audit
from tests.e2e import counts, make_corpus
from tests.logbuild import win_game

pytestmark = pytest.mark.slow  # whole audits through the CLI: killed workers, locks, limits


def die_on_game_x(game):
    """An audit function that kills its own worker process on game 'x' (as the OOM killer would)."""
    if game.game_id == "x":
        os.kill(os.getpid(), signal.SIGKILL)
    from mahjong_audit.engine.audit import audit_game

    return audit_game(game)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # Beam's own thread
def test_a_worker_killed_mid_run_ends_the_run_with_one_line_and_exit_1(tmp_path, capsys):
    db = tmp_path / "w.duckdb"
    con = sink.connect(str(db))
    sink.ensure_schema(con)
    con.close()
    before = counts(db)
    corpus = tmp_path / "c"
    corpus.mkdir()
    for i in range(4):
        (corpus / f"{i}.jsonl").write_text(json.dumps(win_game("x" if i == 2 else f"g{i}")) + "\n")
    args = cli.build_parser().parse_args(["audit", str(corpus), "--db", str(db), "--workers", "2"])
    capsys.readouterr()
    t0 = time.monotonic()
    assert audit.run(args, audit_fn=die_on_game_x) == 1
    assert time.monotonic() - t0 < 120
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "a worker process died: killed by SIGKILL" in err and "nothing was written" in err
    assert counts(db) == before
    assert not (tmp_path / ".w.duckdb.staging").exists()
    assert not [p for p in workers._children() if b"sdk_worker_main" in _cmdline(p)]
    assert not [p for p in workers._children() if b"warm_pool" in _cmdline(p)]  # nor the pool's


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


@pytest.mark.parametrize(("code", "said"), [(137, "killed by SIGKILL, perhaps for lack of memory"),
                                            (-15, "killed by SIGTERM"), (3, "exit status 3")])
def test_worker_exit_descriptions(code, said):
    assert workers.describe_exit(code) == said


def test_staging_left_by_a_killed_run_is_removed_by_the_next(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    db = tmp_path / "s.duckdb"
    left = tmp_path / ".s.duckdb.staging" / "20260101T000000Z-deadbeef" / "tables" / "games"
    left.mkdir(parents=True)
    (left / "x.parquet").write_bytes(b"PAR1")
    assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 0
    assert not (tmp_path / ".s.duckdb.staging").exists()


def _hold(db) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
         "time.sleep(float(sys.argv[2]))", str(db), "1.5"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "ready"
    return holder


def test_wait_outlasts_a_short_lock(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    db = tmp_path / "busy.duckdb"
    holder = _hold(db)
    try:
        assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory", "--wait", "30"]) == 0
    finally:
        holder.kill()
        holder.wait()
    assert counts(db)["games"] == 5


def test_wait_gives_up_with_the_locked_message_and_exit_75(tmp_path, capsys):
    db = tmp_path / "busy.duckdb"
    holder = _hold(db)
    try:
        t0 = time.monotonic()
        with pytest.raises(errors.DatabaseLocked, match=r"locked by another process \(another audit.*waited 0.6 s"):
            sink.connect(str(db), wait=0.6)
        assert 0.5 < time.monotonic() - t0 < 1.4
        corpus = make_corpus(tmp_path)
        assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory", "--wait", "0.2"]) == exits.LOCKED == 75
        assert "locked" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.wait()


def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(tmp_path, capsys, monkeypatch):
    db = tmp_path / "x.duckdb"
    duckdb.connect(str(db)).close()

    def broken(con):
        raise RuntimeError("schema step broke\nsecond line")

    monkeypatch.setattr(sink, "ensure_schema", broken)
    corpus = make_corpus(tmp_path)
    assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 1
    err = capsys.readouterr().err
    assert err == ("mahjong-audit audit: error: RuntimeError: schema step broke  "
                   "(--debug shows the traceback)\n")
    assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory", "--debug"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().endswith("RuntimeError: schema step broke")


@pytest.mark.parametrize("command", [None, *cli.COMMANDS])
def test_help_texts_are_plain_text(command, capsys):
    words = ["--help"] if command is None else [command.rstrip("_"), "--help"]
    with pytest.raises(SystemExit):
        cli.main(words)
    text = capsys.readouterr().out
    assert "usage:" in text
    assert "``" not in text and ":func:" not in text and ":class:" not in text


def test_plain_removes_markup_only():
    assert cli.plain("``audit INPUT``: see :func:`mahjong_audit.pipeline.read.plan_shards`") == \
        "audit INPUT: see mahjong_audit.pipeline.read.plan_shards"
    assert cli.plain("a `single` quote") == "a `single` quote"


@pytest.mark.parametrize(("text", "n"), [("65536", 65536), ("512K", 512 << 10), ("64M", 64 << 20),
                                         ("1g", 1 << 30), ("1.5M", 3 << 19), ("2MB", 2 << 20)])
def test_byte_sizes(text, n):
    assert cli.byte_size(text) == n


@pytest.mark.parametrize("text", ["", "M", "-1", "0", "lots", "1e999"])
def test_bad_byte_sizes_are_usage_errors(text):
    with pytest.raises(argparse.ArgumentTypeError):
        cli.byte_size(text)


def test_validate_and_audit_take_the_record_limit(tmp_path, capsys):
    p = tmp_path / "g.jsonl"
    p.write_text(json.dumps(win_game("a")) + "\n")
    assert cli.main(["validate", str(p), "--max-record-bytes", "100"]) == 1
    assert "over the size limit of 100 bytes" in capsys.readouterr().out
    assert cli.main(["audit", str(p), "--db", str(tmp_path / "a.duckdb"), "--in-memory",
                     "--max-record-bytes", "100"]) == 0
    assert "rejected: 1 record\n" in capsys.readouterr().out


def test_a_file_that_cannot_be_written_is_one_plain_line(tmp_path, capsys):
    out = tmp_path / "missing-dir" / "o.jsonl"
    assert cli.main(["simulate", "--ruleset", "mcr", "--games", "1", "--seed", "1", "-o", str(out)]) == 1
    assert capsys.readouterr().err == f"mahjong-audit simulate: {out}: No such file or directory\n"


def test_import_reports_an_importer_bug_and_converts_the_rest(tmp_path, monkeypatch, capsys):
    from mahjong_audit.pipeline.importers import IMPORTERS
    from tests.readbuild import CrashingImporter

    monkeypatch.setitem(IMPORTERS, "crashing", CrashingImporter())
    src = tmp_path / "x.txt"
    src.write_text("a\nempty\n")
    assert cli.main(["import", "--from", "crashing", str(src), "-o", str(tmp_path / "o.jsonl")]) == 1
    err = capsys.readouterr().err
    assert f"{src}:1: invalid_log/import: the crashing importer failed on this record: ZeroDivisionError" in err
    assert f"{src}:2: invalid_log/import: crashing: no game in this record" in err
    assert "0 games written" in err and "2 records rejected" in err


def test_a_database_from_before_the_record_count_gets_the_new_columns(tmp_path, capsys):
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE runs (run_id VARCHAR NOT NULL, started_at TIMESTAMP NOT NULL, "
                "finished_at TIMESTAMP NOT NULL, version VARCHAR NOT NULL, inputs VARCHAR[] NOT NULL, "
                "runner VARCHAR NOT NULL, games BIGINT NOT NULL, hands BIGINT NOT NULL, "
                "findings BIGINT NOT NULL, rejected BIGINT NOT NULL)")
    con.execute("INSERT INTO runs VALUES ('old', now(), now(), '0', ['x'], 'r', 1, 1, 0, 0)")
    con.close()
    corpus = make_corpus(tmp_path)
    assert cli.main(["audit", str(corpus), "--db", str(db), "--in-memory"]) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.execute("SELECT run_id, records, duplicates FROM runs ORDER BY run_id = 'old' DESC").fetchall()
        files = con.execute("SELECT sum(records), sum(games), sum(duplicates), sum(rejected) FROM run_files").fetchone()
    finally:
        con.close()
    assert got[0] == ("old", None, None) and got[1][1:] == (8, 1)
    assert files == (8, 5, 1, 2)
    assert "records: 8 read = 5 games + 1 duplicate + 2 rejected" in capsys.readouterr().out
