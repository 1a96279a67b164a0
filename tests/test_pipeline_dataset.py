"""`audit --parquet DIR`: the result tables as a Parquet dataset partitioned by run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import duckdb
import pytest

from mahjong_audit.pipeline import dataset
from mahjong_audit.pipeline.cli import main
from mahjong_audit.pipeline.commands import audit
from mahjong_audit.schemas.results import TABLES
from tests.e2e import make_corpus, query

pytestmark = pytest.mark.slow  # whole audits into Parquet datasets


GAME_DATA = ("games", "hands", "hand_scores", "payouts", "findings", "rejected")


def _audit(*args: str) -> int:
    return main(["audit", *args, "--in-memory", "--no-progress"])


def _rows(con, table: str) -> list[tuple]:
    cols = [c for c in TABLES[table].model_fields if c != "run_id"]
    return con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()


def _db_rows(db, table: str) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return _rows(con, table)


def test_parquet_without_db_writes_a_folder_per_table_partitioned_by_run(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    out = tmp_path / "dataset"
    assert _audit(str(corpus), "--parquet", str(out)) == 0
    printed = capsys.readouterr().out
    assert f"parquet dataset: {out}" in printed and "database: none" in printed
    (run_dir,) = (out / "runs").iterdir()
    assert run_dir.name.startswith("run=")
    for table in TABLES:
        assert (out / table / run_dir.name / dataset.PART).is_file(), table
    assert not list(tmp_path.glob("*.duckdb")) and not (out / "_staging").exists()
    # DuckDB reads it in place, the partition as a column
    with duckdb.connect() as con:
        games = con.execute(f"SELECT count(*), any_value(run) FROM read_parquet('{out}/games/*/*.parquet', "
                            "hive_partitioning = true)").fetchone()
    assert games == (5, run_dir.name.removeprefix("run="))


def test_the_dataset_holds_what_the_database_holds_after_the_same_runs(tmp_path):
    corpus = make_corpus(tmp_path)
    out, db = tmp_path / "dataset", tmp_path / "db.duckdb"
    assert _audit(str(corpus), "--parquet", str(out), "--db", str(db)) == 0
    # a second run over part of the corpus: its games are replaced, the others kept
    assert _audit(str(corpus / "a.jsonl"), "--parquet", str(out), "--db", str(db)) == 0
    assert len(list((out / "runs").iterdir())) == 2
    with dataset.connect(str(out)) as con:
        for table in (*GAME_DATA, "files"):
            assert _rows(con, table) == _db_rows(db, table), table
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (2,)
        for view in ("player_stats", "fan_stats", "finding_summary"):
            assert con.execute(f"SELECT * FROM {view} ORDER BY ALL").fetchall() == \
                query(db, f"SELECT * FROM {view} ORDER BY ALL"), view


def test_run_ids_of_two_runs_in_the_same_second_sort_in_start_order():
    # The dataset's views take a game's latest run as its greatest id: with ids to the
    # second only, two quick runs in one second sorted by their random part (a second run
    # over a.jsonl then lost to the first about half the time).
    start = datetime(2026, 11, 30, 16, 48, 56, 999_998, tzinfo=UTC)
    for _ in range(50):
        first, second = audit.new_run_id(start), audit.new_run_id(start + timedelta(microseconds=1))
        assert first < second
    assert audit.new_run_id(start).startswith("20261130T164856.999998Z-")


def test_stats_and_report_read_the_dataset(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    out, db = tmp_path / "dataset", tmp_path / "db.duckdb"
    assert _audit(str(corpus), "--parquet", str(out), "--db", str(db)) == 0
    capsys.readouterr()
    assert main(["stats", "--parquet", str(out)]) == 0
    from_parquet = capsys.readouterr().out
    assert main(["stats", "--db", str(db)]) == 0
    assert from_parquet == capsys.readouterr().out and "finding_summary" in from_parquet
    html = tmp_path / "r.html"
    assert main(["report", "--parquet", str(out), "-o", str(html)]) == 0
    assert "5 games" in capsys.readouterr().out and html.read_text().startswith("<!")


def test_no_dataset_and_no_destination_are_clear_errors(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["stats", "--parquet", str(empty)]) == 1
    assert "no Parquet dataset here" in capsys.readouterr().err
    assert main(["report", "--parquet", str(empty), "-o", str(tmp_path / "r.html")]) == 1
    assert "no Parquet dataset here" in capsys.readouterr().err
    corpus = make_corpus(tmp_path)
    assert _audit(str(corpus)) == 1
    assert "give --db FILE, --parquet DIR or both" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["stats", "--db", "x", "--parquet", "y"])


def test_skip_audited_with_only_a_dataset_reads_its_files_table(tmp_path, capsys):
    corpus = make_corpus(tmp_path)
    out = tmp_path / "dataset"
    assert _audit(str(corpus), "--parquet", str(out)) == 0
    capsys.readouterr()
    assert _audit(str(corpus), "--parquet", str(out), "--skip-audited") == 0
    assert "skipped: 3 files audited unchanged" in capsys.readouterr().out
    with dataset.connect(str(out)) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (5,)


def test_skip_audited_into_a_new_dataset_audits_everything(tmp_path, capsys):
    """Regression: a dataset folder without any partition yet (empty tables stand in)."""
    corpus = make_corpus(tmp_path)
    out = tmp_path / "fresh"
    assert _audit(str(corpus), "--parquet", str(out), "--skip-audited") == 0
    printed = capsys.readouterr().out
    assert "audited 5 games" in printed and "audited unchanged" not in printed
