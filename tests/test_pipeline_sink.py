"""The driver-side DuckDB load: one transaction, replace by game_id / source_file."""

from __future__ import annotations

import io
import time
from datetime import datetime

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline import progress, rows, sink
from pipeline.read import Rejection
from pipeline.tables import ARROW_SCHEMAS
from schemas.results import RunRow


def _run(run_id: str) -> RunRow:
    now = datetime(2026, 1, 1, 12, 0, 0)
    return RunRow(run_id=run_id, started_at=now, finished_at=now, version="t", inputs=["x"],
                  runner="test", games=0, hands=0, findings=0, rejected=0)


def _stage(tmp_path, name: str, rejections: list[Rejection]) -> dict[str, tuple[str, ...]]:
    tables = rows.by_table(r for rej in rejections for r in rows.rejection_rows(rej, name))
    files = {}
    for table, dicts in tables.items():
        path = tmp_path / f"{name}-{table}.parquet"
        pq.write_table(pa.Table.from_pylist(dicts, schema=ARROW_SCHEMAS[table]), path)
        files[table] = (str(path),)
    return files


def _count(con, table: str) -> int:
    return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_rejected_rows_are_replaced_by_source_file(tmp_path):
    con = sink.connect(str(tmp_path / "db.duckdb"))
    sink.ensure_schema(con)
    first = _stage(tmp_path, "r1", [Rejection("/a", 1, "invalid_log/json", "x"),
                                     Rejection("/b", 2, "invalid_log/json", "y")])
    sink.load(con, first, ["/a", "/b"], _run("r1"))
    again = _stage(tmp_path, "r2", [Rejection("/a", 5, "invalid_log/schema", "z", "g1")])
    sink.load(con, again, ["/a"], _run("r2"))
    assert con.execute("SELECT source_file, source_line, run_id FROM rejected ORDER BY 1").fetchall() == [
        ("/a", 5, "r2"), ("/b", 2, "r1")]
    assert _count(con, "findings") == 2 and _count(con, "runs") == 2


def test_a_failing_load_rolls_back_everything(tmp_path):
    con = sink.connect(str(tmp_path / "db.duckdb"))
    sink.ensure_schema(con)
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
    with pytest.raises(sink.DatabaseError, match="table 'games' has columns"):
        sink.ensure_schema(con)


def test_summary_counts_staged_rows(tmp_path):
    files = _stage(tmp_path, "r", [Rejection("/a", 1, "invalid_log/json", "x"),
                                   Rejection("/a", 2, "invalid_log/schema", "y")])
    s = sink.summarise(duckdb.connect(), files)
    assert (s.rejected, s.findings, s.games) == (2, 2, 0)
    assert s.findings_by_kind == (("invalid_log", 2),)


def test_progress_bar_draws_status_lines():
    out = io.StringIO()
    snaps = iter([progress.Snapshot(10, 10, 2), progress.Snapshot(10, 10, 6)] + [progress.Snapshot(10, 10, 10)] * 100)
    with progress.ProgressBar("unused", out, period=0.01, poll=lambda _: next(snaps)):
        time.sleep(0.2)
    text = out.getvalue()
    assert "audited 2/10 games" in text and "audited 10/10 games" in text
    assert text.endswith("\r\x1b[2K")  # the line is cleared at the end
