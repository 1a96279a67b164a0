"""Incremental audits: the files table and `audit --skip-audited`."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime

import pytest

from mahjong_audit.pipeline import incremental
from mahjong_audit.pipeline.cli import main
from mahjong_audit.pipeline.sink import FileStat
from tests.e2e import counts, make_corpus, query
from tests.logbuild import win_game

pytestmark = pytest.mark.slow  # whole audits, run again over changed inputs


T0 = datetime(2026, 1, 1, 12, 0, 0)


def test_select_skips_only_files_with_the_same_size_and_time_that_were_read_whole():
    stats = {"/same": FileStat(10, T0), "/bigger": FileStat(11, T0), "/touched": FileStat(10, datetime(2026, 1, 2)),
             "/failed": FileStat(10, T0), "/new": FileStat(10, T0), "/no-time": FileStat(10, None)}
    known = {"/same": (10, T0, "h"), "/bigger": (10, T0, "h"), "/touched": (10, T0, "h"),
             "/failed": (10, T0, None), "/no-time": (10, None, "h")}
    got = incremental.select(list(stats), stats, known)
    assert got.skipped == ("/same",)
    assert got.audit == ("/bigger", "/touched", "/failed", "/new", "/no-time")


def _audit(*args: str) -> int:
    return main(["audit", *args, "--in-memory", "--no-progress"])


def test_files_table_records_every_input_with_size_time_and_sha256(tmp_path):
    corpus = make_corpus(tmp_path)
    db = tmp_path / "db.duckdb"
    assert _audit(str(corpus), "--db", str(db)) == 0
    rows = query(db, "SELECT path, size, mtime, content_hash, lines FROM files ORDER BY path")
    inputs = sorted(p for p in corpus.rglob("*.json*"))
    assert [r[0] for r in rows] == [str(p) for p in inputs]
    for (_path, size, mtime, digest, lines), p in zip(rows, inputs, strict=True):
        assert size == p.stat().st_size
        assert mtime == datetime.utcfromtimestamp(p.stat().st_mtime)
        assert digest == hashlib.sha256(p.read_bytes()).hexdigest()
        assert lines > 0
    assert query(db, "SELECT lines FROM files WHERE path LIKE '%a.jsonl'") == [(6,)]


def test_skip_audited_reads_only_new_or_changed_files(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    db = tmp_path / "db.duckdb"
    assert _audit(str(corpus), "--db", str(db)) == 0
    before = counts(db)
    capsys.readouterr()

    assert _audit(str(corpus), "--db", str(db), "--skip-audited") == 0
    out = capsys.readouterr().out
    assert "audited 0 games" in out and "skipped: 3 files audited unchanged" in out
    assert counts(db) == {**before, "runs": 2}

    # a new file and a changed one are audited; the others are skipped and keep their rows
    (corpus / "new.jsonl").write_text(json.dumps(win_game("n1")) + "\n")
    b = corpus / "b.json"
    doc = json.loads(b.read_text())
    doc["game_id"] = "b-renamed"
    b.write_text(json.dumps(doc, indent=2))
    os.utime(b, (1_000_000_000, 1_000_000_000))  # a different time as well
    assert _audit(str(corpus), "--db", str(db), "--skip-audited") == 0
    out = capsys.readouterr().out
    assert "audited 2 games" in out and "skipped: 2 files audited unchanged" in out
    got = counts(db)
    assert got["games"] == before["games"] + 2  # n1 and b-renamed (the old b.json game stays: another id)
    assert query(db, "SELECT count(*) FROM files") == [(4,)]
    assert query(db, f"SELECT mtime FROM files WHERE path = '{b}'") == [(datetime(2001, 9, 9, 1, 46, 40),)]


def test_skip_audited_audits_again_what_was_audited_under_other_house_rules(tmp_path, capsys):
    # a verdict must not stand under readings the operator no longer asks for (issue 24)
    corpus = make_corpus(tmp_path)
    db = tmp_path / "db.duckdb"
    profile = tmp_path / "house.toml"
    profile.write_text("[mcr]\nbase = 16\n", encoding="utf-8")
    assert _audit(str(corpus), "--db", str(db)) == 0
    capsys.readouterr()
    assert _audit(str(corpus), "--db", str(db), "--skip-audited", "--rules", str(profile)) == 0
    out = capsys.readouterr().out
    assert "audited unchanged" not in out  # every file was audited without the profile: all again
    assert query(db, "SELECT DISTINCT profile FROM games") == [("house.toml",)]
    assert _audit(str(corpus), "--db", str(db), "--skip-audited", "--rules", str(profile)) == 0
    assert "skipped: 3 files audited unchanged" in capsys.readouterr().out  # same profile: skipped
    assert _audit(str(corpus), "--db", str(db), "--skip-audited") == 0
    assert "audited unchanged" not in capsys.readouterr().out  # and back to the defaults: all again


def test_without_skip_audited_every_file_is_audited_again(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    db = tmp_path / "db.duckdb"
    assert _audit(str(corpus), "--db", str(db)) == 0
    capsys.readouterr()
    assert _audit(str(corpus), "--db", str(db)) == 0
    out = capsys.readouterr().out
    assert "audited unchanged" not in out and "audited 5 games" in out


def test_a_file_whose_read_failed_is_audited_again(tmp_path, capsys):
    import gzip

    folder = tmp_path / "logs"
    folder.mkdir()
    good = gzip.compress((json.dumps(win_game("z1")) + "\n").encode() * 3)
    (folder / "cut.jsonl.gz").write_bytes(good[: len(good) // 2])
    db = tmp_path / "db.duckdb"
    assert _audit(str(folder), "--db", str(db)) == 0
    assert query(db, "SELECT content_hash FROM files") == [(None,)]
    capsys.readouterr()
    assert _audit(str(folder), "--db", str(db), "--skip-audited") == 0
    assert "audited unchanged" not in capsys.readouterr().out
