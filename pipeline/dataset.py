"""The result tables as a Parquet dataset (``audit --parquet DIR``), and reading it back.

Layout, under any FileSystems path (local, gs://, s3://)::

    DIR/<table>/run=<run_id>/part-0.parquet     one folder per table, one partition per run

Each run writes the rows it produced, resolved exactly as the DuckDB load resolves them
(``mahjong_audit.pipeline.sink.load`` into a DuckDB database in memory, spilling to a temporary folder):
one copy per game_id, duplicate findings, the run's ``runs`` row and a ``files`` row per
input. Nothing is rewritten, so a game audited again appears in two partitions;
:func:`connect` gives DuckDB views with the latest row of everything, as the database
holds it: a game's rows from the last run that had that game_id, a file's rejections
(and file-level findings) from the last run that read that file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence

import duckdb

from mahjong_audit.pipeline import sink
from mahjong_audit.pipeline.errors import NoDataset
from mahjong_audit.pipeline.tables import VIEWS, column_names
from mahjong_audit.schemas.results import TABLES, RunRow

PART = "part-0.parquet"
PARTITION = "run"
GAME_TABLES = ("games", "hands", "hand_scores", "payouts")


def _fs():
    from mahjong_audit.pipeline.runner import quiet_import

    with quiet_import():  # Beam's import-time warnings stay off the terminal
        from apache_beam.io.filesystems import FileSystems
    return FileSystems


def partition_dir(root: str, table: str, run_id: str) -> str:
    return _fs().join(root, table, f"{PARTITION}={run_id}")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def write(files: Mapping[str, Sequence[str]], sources: Sequence[str],
          make_run: Callable[[sink.Summary], RunRow], stats: Mapping[str, sink.FileStat],
          root: str, run_id: str) -> sink.Summary:
    """Resolve the staged files of one run and write them as partition ``run=<run_id>``
    of every table under ``root``. Returns the run's summary."""
    fs = _fs()
    with tempfile.TemporaryDirectory(prefix="mahjong-audit-parquet-") as tmp:
        con = duckdb.connect(":memory:")
        try:
            for name, value in sink.LOAD_SETTINGS:
                con.execute(f"SET {name} = '{value}'")
            con.execute(f"SET temp_directory = {_lit(os.path.join(tmp, 'spill'))}")
            sink.ensure_schema(con)
            summary = sink.load(con, files, sources, make_run, stats)
            for table, model in TABLES.items():
                local = os.path.join(tmp, f"{table}.parquet")
                cols = ", ".join(_quote(c) for c in column_names(model))
                con.execute(f"COPY (SELECT {cols} FROM {_quote(table)}) TO {_lit(local)} (FORMAT parquet)")
                dest = fs.join(partition_dir(root, table, run_id), PART)
                with open(local, "rb") as src, fs.create(dest) as out:
                    shutil.copyfileobj(src, out, 1 << 20)
        finally:
            con.close()
    return summary


def _table_files(root: str, table: str) -> list[str]:
    fs = _fs()
    pattern = fs.join(root, table, f"{PARTITION}=*", "*.parquet")
    try:
        return sorted(m.path for m in fs.match([pattern])[0].metadata_list)
    except OSError:  # BeamIOError: nothing there
        return []


@contextlib.contextmanager
def _local_copies(root: str, tables: Sequence[str]) -> Iterator[dict[str, list[str]]]:
    """table -> local Parquet files of the dataset (remote files copied to a temporary folder)."""
    fs = _fs()
    with tempfile.TemporaryDirectory(prefix="mahjong-audit-dataset-") as tmp:
        out: dict[str, list[str]] = {}
        for table in tables:
            paths = []
            for i, p in enumerate(_table_files(root, table)):
                if "://" not in p:
                    paths.append(p)
                    continue
                part = p.rstrip("/").split("/")[-2]
                dest = os.path.join(tmp, table, part)
                os.makedirs(dest, exist_ok=True)
                dest = os.path.join(dest, f"{i:05d}.parquet")
                with fs.open(p) as src, open(dest, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                paths.append(dest)
            out[table] = paths
        yield out


def _all_rows(files: Sequence[str], table: str) -> str:
    """Every row of a table over all runs, with the partition column ``run``."""
    if not files:
        return f"SELECT *, NULL::VARCHAR AS {PARTITION} FROM {_quote(table + '_empty')}"
    return (f"SELECT * FROM read_parquet([{', '.join(_lit(f) for f in files)}], "
            "hive_partitioning = true, union_by_name = true)")


def _latest_views(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]]) -> None:
    """One view per table (in the connection's main schema, as a database file has its
    tables) with what a database would hold after the same runs."""
    from mahjong_audit.pipeline.tables import create_table_sql

    for table, model in TABLES.items():  # empty stand-ins for tables without files
        con.execute(create_table_sql(f"{table}_empty", model))
        con.execute(f"CREATE VIEW {_quote(table + '_all')} AS {_all_rows(files.get(table, []), table)}")
    con.execute(
        "CREATE VIEW _game_run AS SELECT game_id, max(run) AS run FROM ("
        "SELECT game_id, run FROM games_all UNION ALL "
        "SELECT game_id, run FROM findings_all WHERE game_id IS NOT NULL) GROUP BY game_id")
    con.execute("CREATE VIEW _file_run AS SELECT path AS source_file, max(run) AS run FROM files_all GROUP BY path")
    for table, model in TABLES.items():
        cols = ", ".join(f"t.{_quote(c)}" for c in column_names(model))
        if table in GAME_TABLES:
            sql = f"SELECT {cols} FROM {table}_all t JOIN _game_run USING (game_id, run)"
        elif table == "findings":
            sql = (f"SELECT {cols} FROM findings_all t JOIN _game_run USING (game_id, run) UNION ALL "
                   f"SELECT {cols} FROM findings_all t JOIN _file_run USING (source_file, run) "
                   "WHERE t.game_id IS NULL")
        elif table == "rejected":
            sql = f"SELECT {cols} FROM rejected_all t JOIN _file_run USING (source_file, run)"
        elif table == "files":
            sql = f"SELECT {cols} FROM files_all t JOIN _file_run f ON f.source_file = t.path AND f.run = t.run"
        else:
            sql = f"SELECT {cols} FROM {table}_all t"
        con.execute(f"CREATE VIEW {_quote(table)} AS {sql}")
    for name, sql in VIEWS.items():
        con.execute(f"CREATE VIEW {_quote(name)} AS {sql.strip()}")



@contextlib.contextmanager
def connect(root: str, *, required: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory DuckDB connection with the dataset's tables and summary views as views
    (``required``: raise :class:`NoDataset` if there is no ``runs`` partition)."""
    with _local_copies(root, tuple(TABLES)) as files:
        if required and not files.get("runs"):
            raise NoDataset(f"{root}: no Parquet dataset here (no runs/{PARTITION}=*/ files)")
        con = duckdb.connect(":memory:")
        try:
            _latest_views(con, files)
            yield con
        finally:
            con.close()
