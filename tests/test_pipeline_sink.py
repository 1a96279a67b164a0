"""The driver-side DuckDB load: one transaction, replace by game_id / source_file, first occurrence kept."""

from __future__ import annotations

import io
import time
from datetime import datetime

import duckdb
import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import errors, progress, rows, sink, staging
from mahjong_audit.pipeline import transforms as T
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.pipeline.read import Rejection
from mahjong_audit.schemas.log import Game
from mahjong_audit.schemas.results import RunRow
from tests.logbuild import win_game


def _run(run_id: str):
    def make(summary: sink.Summary) -> RunRow:
        now = datetime(2026, 1, 1, 12, 0, 0)
        return RunRow(run_id=run_id, started_at=now, finished_at=now, version="t", inputs=["x"],
                      runner="test", games=summary.games, hands=summary.hands, findings=summary.findings,
                      rejected=summary.rejected)

    return make


def _stage(tmp_path, name: str, items: list) -> dict[str, tuple[str, ...]]:
    """Stage rejections and (ParsedGame, GameAudit) pairs as the pipeline does; the manifest's files."""
    folder = str(tmp_path / name)
    w = staging.TableWriter(folder, batch_rows=3)
    for item in items:
        made, source_file, source_line, shard_start = T.item_rows(item, name)
        for row in made:
            w.add(row, source_file, source_line, shard_start)
    staging.write_manifest(folder, w.close())
    return dict(staging.read_manifest(folder))


def _count(con, table: str) -> int:
    return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _db(tmp_path):
    con = sink.connect(str(tmp_path / "db.duckdb"))
    sink.ensure_schema(con)
    return con


def _game(gid: str, source: str, line: int):
    parsed = ParsedGame(source, line, 0, Game.model_validate(win_game(gid)))
    return parsed, audit_game(parsed.game)


def test_rejected_rows_are_replaced_by_source_file(tmp_path):
    con = _db(tmp_path)
    first = _stage(tmp_path, "r1", [Rejection("/a", 1, "invalid_log/json", "x"),
                                     Rejection("/b", 2, "invalid_log/json", "y")])
    sink.load(con, first, ["/a", "/b"], _run("r1"))
    again = _stage(tmp_path, "r2", [Rejection("/a", 5, "invalid_log/schema", "z", "g1")])
    summary = sink.load(con, again, ["/a"], _run("r2"))
    assert con.execute("SELECT source_file, source_line, run_id FROM rejected ORDER BY 1").fetchall() == [
        ("/a", 5, "r2"), ("/b", 2, "r1")]
    assert _count(con, "findings") == 2 and _count(con, "runs") == 2
    assert (summary.rejected, summary.findings, summary.games) == (1, 1, 0)
    assert summary.findings_by_kind == (("invalid_log", 1),)
    assert con.execute("SELECT rejected, findings FROM runs WHERE run_id = 'r2'").fetchall() == [(1, 1)]


def test_only_the_first_occurrence_of_a_game_id_is_loaded(tmp_path):
    con = _db(tmp_path)
    broken = rows.engine_error(_game("g1", "/c", 1)[0], "ValueError: boom")
    files = _stage(tmp_path, "r1", [_game("g1", "/b", 7), _game("g1", "/a", 3), _game("g2", "/b", 1),
                                     broken, _game("g1", "/a", 12)])
    summary = sink.load(con, files, ["/a", "/b", "/c"], _run("r1"))
    assert summary.duplicates == 3 and summary.games == 2
    assert con.execute("SELECT game_id, source_file, source_line FROM games ORDER BY 1").fetchall() == [
        ("g1", "/a", 3), ("g2", "/b", 1)]
    assert (_count(con, "hands"), _count(con, "payouts"), _count(con, "rejected")) == (2, 8, 0)
    hand_findings = con.execute("SELECT count(*) FROM findings WHERE kind NOT IN ('duplicate_game')").fetchone()[0]
    assert hand_findings == 2 * len(_game("g1", "/a", 3)[1].findings)
    dups = con.execute("SELECT source_file, source_line, recorded, message, severity, ruleset FROM findings "
                       "WHERE code = 'duplicate_game/game_id' ORDER BY 1, 2").fetchall()
    assert dups == [(src, line, "/a:3", rows.DUPLICATE_MESSAGE.format("g1", "/a:3"), "warning", "mcr")
                    for src, line in (("/a", 12), ("/b", 7), ("/c", 1))]
    assert dict(summary.findings_by_kind)["duplicate_game"] == 3
    # loading the same run again replaces everything and adds nothing
    sink.load(con, files, ["/a", "/b", "/c"], _run("r2"))
    assert (_count(con, "games"), _count(con, "hands"), _count(con, "findings")) == (
        2, 2, hand_findings + 3)


def test_an_engine_failure_can_be_the_first_occurrence(tmp_path):
    con = _db(tmp_path)
    broken = rows.engine_error(_game("g1", "/a", 1)[0], "ValueError: boom")
    summary = sink.load(con, _stage(tmp_path, "r", [broken, _game("g1", "/b", 1)]), ["/a", "/b"], _run("r"))
    assert (summary.games, summary.rejected, summary.duplicates) == (0, 1, 1)
    assert con.execute("SELECT code, source_file FROM findings ORDER BY code").fetchall() == [
        ("duplicate_game/game_id", "/b"), ("invalid_log/engine_error", "/a")]


def test_a_failing_load_rolls_back_everything(tmp_path):
    con = _db(tmp_path)
    sink.load(con, _stage(tmp_path, "r1", [Rejection("/a", 1, "invalid_log/json", "x")]), ["/a"], _run("r1"))
    broken = _stage(tmp_path, "r2", [Rejection("/a", 9, "invalid_log/json", "new")])
    broken["findings"] = (str(tmp_path / "missing.parquet"),)
    with pytest.raises(duckdb.Error):
        sink.load(con, broken, ["/a"], _run("r2"))
    assert con.execute("SELECT source_line FROM rejected").fetchall() == [(1,)]
    assert _count(con, "findings") == 1 and _count(con, "runs") == 1


def test_tables_of_another_layout_are_refused(tmp_path):
    path = str(tmp_path / "old.duckdb")
    con = duckdb.connect(path)
    con.execute("CREATE TABLE games (game_id VARCHAR, something_else BIGINT)")
    with pytest.raises(errors.DatabaseError, match="table 'games' has columns"):
        sink.ensure_schema(con)


def test_progress_bar_draws_status_lines():
    out = io.StringIO()
    snaps = iter([progress.Snapshot(10, 10, 2), progress.Snapshot(10, 10, 6)] + [progress.Snapshot(10, 10, 10)] * 100)
    with progress.ProgressBar("unused", out, period=0.01, poll=lambda _: next(snaps)):
        time.sleep(0.2)
    text = out.getvalue()
    assert "audited 2/10 games" in text and "audited 10/10 games" in text
    assert text.endswith("\r\x1b[2K")  # the line is cleared at the end
