"""The driver-side DuckDB load: the only code that writes the database.

The pipeline leaves one folder of Parquet files per table in the run's staging area.
:func:`load` replaces the rows of every game (and every rejected record of every input
file) seen in this run and inserts the new ones with ``INSERT … SELECT`` from
``read_parquet``, all in ONE transaction: either the whole run lands or nothing does.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import duckdb
import pyarrow as pa

from pipeline.tables import ARROW_SCHEMAS, column_names, ddl
from schemas.results import TABLES, RunRow

GAME_TABLES = ("games", "hands", "hand_scores", "payouts")


class DatabaseLocked(RuntimeError):
    """Another process holds the DuckDB file."""


class DatabaseError(RuntimeError):
    """The DuckDB file cannot be opened or does not have this version's tables."""


def _fs():
    from apache_beam.io.filesystems import FileSystems

    return FileSystems


def connect(path: str, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the database, turning a held lock into :class:`DatabaseLocked`."""
    try:
        return duckdb.connect(path, read_only=read_only)
    except duckdb.IOException as e:
        if "lock" in str(e).lower():
            raise DatabaseLocked(
                f"database {path} is locked by another process (another audit or an open "
                f"DuckDB session?); close it and run again"
            ) from None
        raise DatabaseError(f"cannot open database {path}: {e}") from None
    except duckdb.Error as e:
        raise DatabaseError(f"cannot open database {path}: {e}") from None


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create missing tables, (re)create the views; refuse tables with other columns."""
    existing = {
        name: tuple(c for (c,) in con.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = ? AND table_schema = 'main' ORDER BY ordinal_position", [name]
        ).fetchall())
        for name in TABLES
    }
    for name, model in TABLES.items():
        have, want = existing[name], column_names(model)
        if have and have != want:
            raise DatabaseError(
                f"table {name!r} has columns ({', '.join(have)}) but this version writes "
                f"({', '.join(want)}); use a new --db file or drop the table"
            )
    con.execute("BEGIN")
    for stmt in ddl():
        con.execute(stmt)
    con.execute("COMMIT")


# --------------------------------------------------------------------------- staging


def staged_files(staging: str) -> dict[str, tuple[str, ...]]:
    """Parquet files per table in a staging folder (tables with none are left out)."""
    fs = _fs()
    out = {}
    for name in TABLES:
        pattern = fs.join(staging, "tables", name, "*.parquet")
        try:
            metas = fs.match([pattern])[0].metadata_list
        except OSError:  # BeamIOError: nothing there
            continue
        if metas:
            out[name] = tuple(sorted(m.path for m in metas))
    return out


def localise(files: Mapping[str, Sequence[str]], tmp: str) -> dict[str, tuple[str, ...]]:
    """Local copies of remote staged files (gs://, s3://); local paths are kept as they are."""
    fs = _fs()
    out = {}
    for table, paths in files.items():
        local = []
        for i, p in enumerate(paths):
            if "://" not in p:
                local.append(p)
                continue
            dest = os.path.join(tmp, f"{table}-{i:05d}.parquet")
            with fs.open(p) as src, open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            local.append(dest)
        out[table] = tuple(local)
    return out


def remove_staging(staging: str) -> None:
    """Delete the run's staging folder (and its local parent, if that is left empty)."""
    fs = _fs()
    if fs.exists(staging):
        fs.delete([staging])
    if "://" not in staging:
        parent = os.path.dirname(staging.rstrip(os.sep))
        with contextlib.suppress(OSError):  # not empty: another run is staging there
            os.rmdir(parent)


# --------------------------------------------------------------------------- load


def _sql_list(paths: Sequence[str]) -> str:
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _scan(files: Mapping[str, Sequence[str]], table: str) -> str:
    cols = ", ".join(_quote(c) for c in column_names(TABLES[table]))
    return f"SELECT {cols} FROM read_parquet({_sql_list(files[table])})"


@dataclass(frozen=True, slots=True)
class Summary:
    rows: Mapping[str, int]  # table -> rows staged
    findings_by_kind: tuple[tuple[str, int], ...]

    @property
    def games(self) -> int:
        return self.rows.get("games", 0)

    @property
    def hands(self) -> int:
        return self.rows.get("hands", 0)

    @property
    def findings(self) -> int:
        return self.rows.get("findings", 0)

    @property
    def rejected(self) -> int:
        return self.rows.get("rejected", 0)


def summarise(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]]) -> Summary:
    """Row counts and findings by kind of the staged files (exact, whatever the runner)."""
    counts = {}
    for table in files:
        (n,) = con.execute(f"SELECT count(*) FROM read_parquet({_sql_list(files[table])})").fetchone()
        counts[table] = int(n)
    by_kind: tuple[tuple[str, int], ...] = ()
    if "findings" in files:
        by_kind = tuple((k, int(n)) for k, n in con.execute(
            f"SELECT kind, count(*) FROM read_parquet({_sql_list(files['findings'])}) "
            "GROUP BY kind ORDER BY count(*) DESC, kind").fetchall())
    return Summary(MappingProxyType(counts), by_kind)


def load(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]],
         sources: Sequence[str], run: RunRow) -> None:
    """Replace this run's games and input files in the database, in one transaction.

    Rows of every game_id present in the staged games/findings/rejected files are
    deleted first, and so are the rejected rows and invalid_log findings of every input
    file of the run; then each table is bulk-inserted from its Parquet files.
    """
    id_sources = [
        f"SELECT game_id FROM read_parquet({_sql_list(files[t])})"
        for t in ("games", "findings", "rejected") if t in files
    ]
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("CREATE OR REPLACE TEMP TABLE _run_sources AS "
                    "SELECT unnest(?::VARCHAR[]) AS source_file", [list(sources)])
        con.execute("CREATE OR REPLACE TEMP TABLE _run_ids AS SELECT DISTINCT game_id FROM ("
                    + (" UNION ALL ".join(id_sources) or "SELECT NULL::VARCHAR AS game_id")
                    + ") WHERE game_id IS NOT NULL")
        for t in GAME_TABLES:
            con.execute(f"DELETE FROM {t} WHERE game_id IN (SELECT game_id FROM _run_ids)")
        con.execute("DELETE FROM findings WHERE game_id IN (SELECT game_id FROM _run_ids) "
                    "OR (kind = 'invalid_log' AND source_file IN (SELECT source_file FROM _run_sources))")
        con.execute("DELETE FROM rejected WHERE source_file IN (SELECT source_file FROM _run_sources)")
        for t in files:
            cols = ", ".join(_quote(c) for c in column_names(TABLES[t]))
            con.execute(f"INSERT INTO {_quote(t)} ({cols}) {_scan(files, t)}")
        run_table = pa.Table.from_pylist([run.model_dump()], schema=ARROW_SCHEMAS["runs"])
        con.register("_run_row", run_table)
        con.execute("INSERT INTO runs SELECT * FROM _run_row")
        con.unregister("_run_row")
        con.execute("DROP TABLE _run_sources")
        con.execute("DROP TABLE _run_ids")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def load_staging(con: duckdb.DuckDBPyConnection, staging: str, sources: Sequence[str],
                 make_run: Callable[[Summary], RunRow]) -> Summary:
    """Summarise and load a staging folder; ``make_run(summary)`` builds the runs row."""
    with tempfile.TemporaryDirectory(prefix="mahjong-audit-load-") as tmp:
        files = localise(staged_files(staging), tmp)
        summary = summarise(con, files)
        load(con, files, sources, make_run(summary))
    return summary
