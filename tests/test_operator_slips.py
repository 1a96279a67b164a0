"""A new operator's first hour (issue 25): slips refused before any work, one exit status
per kind of outcome, --debug and --version, filters that match nothing said so, counted
nouns in the singular for one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_audit import __version__
from mahjong_audit.pipeline import exits
from mahjong_audit.pipeline.cli import build_parser, main
from mahjong_audit.pipeline.words import count
from tests.e2e import counts
from tests.logbuild import win_game

pytestmark = pytest.mark.slow  # the CLI on a real audit database


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> Path:
    """A database of two games (players ann, bob, cat, dan)."""
    folder = tmp_path_factory.mktemp("slips")
    log = folder / "two.jsonl"
    log.write_text("".join(json.dumps(win_game(g)) + "\n" for g in ("g1", "g2")), encoding="utf-8")
    db = folder / "audit.duckdb"
    assert main(["audit", str(log), "--db", str(db), "--in-memory"]) == 0
    return db


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "one.jsonl"
    log.write_text(json.dumps(win_game("one")) + "\n", encoding="utf-8")
    return log


# ------------------------------------------------------------------ 1: --db that is not a database


@pytest.mark.parametrize("name", ["games.jsonl", "games.json", "games.csv", "empty.jsonl", "notes.txt"])
def test_audit_refuses_a_db_that_is_not_a_duckdb_database_before_any_work(tmp_path, capsys, name):
    log = _log(tmp_path)
    db = tmp_path / name
    db.write_text("" if name.startswith("empty") else json.dumps(win_game("x")) + "\n", encoding="utf-8")
    before = db.read_bytes()
    assert main(["audit", str(log), "--db", str(db), "--in-memory"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"mahjong-audit audit: {db} is not a DuckDB database (a log or data file given "
                            "as --db?); give a .duckdb file, or a new name to create one\n")
    assert "audited" not in captured.out
    assert db.read_bytes() == before  # the file is left as it was
    assert not (tmp_path / f"{name}.log").exists()  # no work began: not even the run's log


@pytest.mark.parametrize("command", ["stats", "report"])
def test_stats_and_report_refuse_a_db_that_is_not_a_duckdb_database(tmp_path, capsys, command):
    db = tmp_path / "games.jsonl"
    db.write_text(json.dumps(win_game("x")) + "\n", encoding="utf-8")
    extra = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    assert main([command, "--db", str(db), *extra]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"mahjong-audit {command}: ") and "is not a DuckDB database" in err
    assert "in-memory" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_a_folder_as_db_is_refused(tmp_path, capsys):
    assert main(["audit", str(_log(tmp_path)), "--db", str(tmp_path), "--in-memory"]) == 1
    assert "is a folder, not a DuckDB database file" in capsys.readouterr().err


def test_an_absent_db_is_created_and_a_real_one_reopened(tmp_path):
    log, db = _log(tmp_path), tmp_path / "new.duckdb"
    assert main(["audit", str(log), "--db", str(db), "--in-memory"]) == 0
    assert main(["audit", str(log), "--db", str(db), "--in-memory"]) == 0
    assert counts(db)["games"] == 1 and counts(db)["runs"] == 2


# ------------------------------------------------------------------ 4: exit statuses


def test_usage_errors_exit_2_and_locked_is_75(capsys):
    with pytest.raises(SystemExit) as e:
        main(["audit", "--no-such-option-of-ours", "--db"])
    assert e.value.code == exits.USAGE == 2
    assert exits.LOCKED == 75 and exits.LOCKED != exits.USAGE
    assert len({code for code, _ in exits.STATUSES}) == len(exits.STATUSES)


def test_an_interrupted_command_is_130(monkeypatch, capsys):
    from mahjong_audit.pipeline.commands import validate

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(validate, "run", interrupted)
    assert main(["validate", "x.jsonl"]) == exits.INTERRUPTED == 130
    assert capsys.readouterr().err == "mahjong-audit validate: interrupted\n"


def test_help_lists_every_exit_status():
    parser = build_parser()
    subs = next(a for a in parser._actions if a.choices and "audit" in a.choices).choices
    for p in (parser, subs["audit"], subs["stats"], subs["report"]):
        text = p.format_help()
        for code, meaning in exits.STATUSES:
            assert f"  {code:<4}{meaning}" in text, (p.prog, code)


def test_locked_database_is_75_for_audit_stats_and_report(audited, tmp_path, capsys):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ok', flush=True); "
         "sys.stdin.read()", str(audited)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ok"
        assert main(["audit", str(_log(tmp_path)), "--db", str(audited), "--in-memory"]) == 75
        assert main(["stats", "--db", str(audited)]) == 75
        assert main(["report", "--db", str(audited), "-o", str(tmp_path / "r.html")]) == 75
    finally:
        holder.communicate("", timeout=30)
    assert capsys.readouterr().err.count("locked by another process") == 3


# ------------------------------------------------------------------ 5: --debug


@pytest.mark.parametrize("argv", [
    ["audit", "no/such/logs", "--db", "x.duckdb"],  # a missing input
    ["stats", "--db", "{log}"],  # a database that will not open
    ["report", "--db", "{log}", "-o", "{out}"],
    ["validate", "no/such/logs"],
    ["stats", "--db", "{db}", "--ruleset", "mrc"],  # the command's own check, no exception
    ["simulate", "--ruleset", "mcr", "--games", "1", "--seed", "1", "-o", "{out}", "--faults", "0.5"],
])
def test_debug_adds_a_traceback_to_every_error_reported(tmp_path, capsys, argv):
    log = _log(tmp_path)
    words = [w.format(log=log, out=tmp_path / "out", db=tmp_path / "none.duckdb") for w in argv]
    assert main(words) == 1
    plain = capsys.readouterr().err
    assert "Traceback" not in plain and len(plain.splitlines()) == 1
    assert main(["--debug", *words]) == 1
    debug = capsys.readouterr().err
    assert debug.endswith(plain) and "Traceback" in debug  # the same line, last, after the traceback
    assert main([*words, "--debug"]) == 1  # also accepted after the command
    assert "Traceback" in capsys.readouterr().err


# ------------------------------------------------------------------ 6: filters that match nothing


def test_an_unknown_ruleset_is_refused_with_the_known_ones(audited, capsys):
    assert main(["stats", "--db", str(audited), "--ruleset", "mrc"]) == 1
    captured = capsys.readouterr()
    assert captured.err == "mahjong-audit stats: unknown ruleset 'mrc' (known: guangdong, longgang, mcr)\n"
    assert captured.out == ""


def test_an_unknown_player_says_nothing_matched_and_which_players_exist(audited, capsys):
    assert main(["stats", "--db", str(audited), "--player", "alice"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("mahjong-audit stats: nothing matched: no game in scope (player alice); the database "
                            "holds 1 ruleset: mcr; 4 players: ann, bob, cat, dan\n")
    assert "player_stats" not in captured.out  # no empty tables after it


def test_a_ruleset_the_database_lacks_says_nothing_matched(audited, capsys):
    assert main(["stats", "--db", str(audited), "--ruleset", "longgang"]) == 0
    assert "nothing matched: no game in scope (ruleset longgang); the database holds 1 ruleset: mcr" in \
        capsys.readouterr().err


def test_a_player_who_played_gets_the_tables(audited, capsys):
    assert main(["stats", "--db", str(audited), "--player", "bob"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "scope: player bob" in captured.out and "player_stats (1 row)" in captured.out


# ------------------------------------------------------------------ 7: report --logs that are not there


def test_report_with_missing_logs_says_so_on_the_page(audited, tmp_path, capsys):
    bad = audited.parent / "bad.jsonl"
    g = win_game("g3")
    g["hands"][0]["outcome"]["wins"][0]["score"]["total"] = 99  # a score mismatch: a hand to replay
    bad.write_text(json.dumps(g) + "\n", encoding="utf-8")
    db = tmp_path / "r.duckdb"
    assert main(["audit", str(bad), "--db", str(db), "--in-memory"]) == 0
    out = tmp_path / "r.html"
    assert main(["report", "--db", str(db), "-o", str(out), "--logs", str(tmp_path / "no-such-logs")]) == 0
    assert "warning:" in capsys.readouterr().err
    html = out.read_text(encoding="utf-8")
    assert "the logs given with --logs were not found" in html
    assert "replayed from the logs given with --logs" not in html
    assert "this game is not in the logs" not in html


# ------------------------------------------------------------------ 8: --version


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"mahjong-audit {__version__}\n"


def test_the_summary_names_the_version(tmp_path, capsys):
    assert main(["audit", str(_log(tmp_path)), "--db", str(tmp_path / "v.duckdb"), "--in-memory"]) == 0
    assert f"mahjong-audit {__version__}" in capsys.readouterr().out


# ------------------------------------------------------------------ 17: one file, one record


def test_counted_nouns():
    assert count(1, "file") == "1 file" and count(0, "file") == "0 files" and count(2, "file") == "2 files"
    assert count(1, "later copy", "later copies") == "1 later copy"
    assert count(3, "later copy", "later copies") == "3 later copies"


def test_the_summaries_say_one_file_one_game(tmp_path, capsys):
    log = _log(tmp_path)
    assert main(["audit", str(log), "--db", str(tmp_path / "a.duckdb"), "--in-memory"]) == 0
    out = capsys.readouterr().out
    assert "audited 1 game, 1 hand in" in out
    assert "rejected: 0 records\n" in out and "records: 1 read = 1 game + 0 duplicates + 0 rejected" in out
    assert main(["validate", str(log)]) == 0
    assert capsys.readouterr().err == "1 file: 1 valid game, 0 bad records\n"
    twice = tmp_path / "twice.jsonl"
    twice.write_text(log.read_text() * 2 + "{oops\n", encoding="utf-8")
    assert main(["audit", str(twice), "--db", str(tmp_path / "b.duckdb"), "--in-memory"]) == 0
    out = capsys.readouterr().out
    assert "duplicates: 1 later copy of a game_id left out" in out and "rejected: 1 record\n" in out
    assert "records: 3 read = 1 game + 1 duplicate + 1 rejected" in out
