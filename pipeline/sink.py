"""The driver-side DuckDB load: the only code that writes the database.

The pipeline leaves Parquet files per table in the run's staging area, named by its
manifest (``pipeline.staging``). :func:`load` replaces the rows of every game (and every
rejected record of every input file) seen in this run and inserts the new ones with
``INSERT … SELECT`` from ``read_parquet``, all in ONE transaction: either the whole run
lands or nothing does.

Duplicate game_ids are resolved here, not in the pipeline: every staged row carries the
source position (file, line) of the record it came from, so for each game_id the load
keeps the rows of its first occurrence (smallest file, then line) and inserts one
``duplicate_game/game_id`` finding for every later occurrence. An occurrence is a game
that parsed: audited (a ``games`` row) or failed in the engine (an
``invalid_log/engine_error`` finding). DuckDB runs this out of core, so the driver's
memory does not grow with the input.
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

from pipeline import collusion
from pipeline import staging as staging_files
from pipeline.rows import DUPLICATE, DUPLICATE_MESSAGE
from pipeline.tables import ARROW_SCHEMAS, column_names, ddl
from schemas.results import TABLES, FindingRow, RunRow

GAME_TABLES = ("games", "hands", "hand_scores", "payouts")
# DuckDB settings for the load: a small, fixed memory budget (it spills to <db>.tmp past
# it) and one thread, so the driver's memory does not grow with the run's size. Measured
# on 25k and 100k hands: as fast as the defaults, and ~80 MB less at 100k hands.
LOAD_SETTINGS = (
    ("memory_limit", "64MB"),
    ("threads", "1"),
    ("preserve_insertion_order", "false"),
)


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
    rows: Mapping[str, int]  # table -> rows loaded by this run
    findings_by_kind: tuple[tuple[str, int], ...]
    duplicates: int = 0  # later occurrences of a game_id, left out

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


# An occurrence of a game: an audited game, or one the engine failed on.
_OCCURRENCE_FINDINGS = "code = 'invalid_log/engine_error' AND game_id IS NOT NULL"
# The rows of one occurrence: same game_id and source position.
_SAME_OCCURRENCE = "s.game_id = d.game_id AND s.source_file = d.source_file AND s.source_line = d.source_line"
# Findings of this run's games and input files (what the load deletes, then inserts).
_RUN_FINDINGS = ("game_id IN (SELECT game_id FROM _run_ids) "
                 "OR (kind = 'invalid_log' AND source_file IN (SELECT source_file FROM _run_sources))")


def _occurrences_sql(files: Mapping[str, Sequence[str]]) -> str:
    parts = []
    if "games" in files:
        parts.append(f"SELECT game_id, source_file, source_line, ruleset FROM read_parquet({_sql_list(files['games'])})")
    if "findings" in files:
        parts.append(f"SELECT game_id, source_file, source_line, ruleset "
                     f"FROM read_parquet({_sql_list(files['findings'])}) WHERE {_OCCURRENCE_FINDINGS}")
    return " UNION ALL ".join(parts) or \
        "SELECT NULL::VARCHAR AS game_id, NULL::VARCHAR AS source_file, NULL::BIGINT AS source_line, " \
        "NULL::VARCHAR AS ruleset WHERE false"


def _duplicate_findings_sql() -> str:
    """SELECT of one FindingRow per later occurrence (from ``_dups``), in column order."""
    exprs = {
        "game_id": "game_id", "hand_no": "NULL", "seq": "NULL", "seat": "NULL",
        "kind": f"'{DUPLICATE.kind.value}'", "code": f"'{DUPLICATE.code}'",
        "severity": f"'{DUPLICATE.severity.value}'", "expected": "NULL",
        "recorded": "first_at", "message": "format(?, game_id, first_at)",
        "ruleset": "ruleset", "source_file": "source_file", "source_line": "source_line",
    }
    cols = column_names(FindingRow)
    if set(exprs) != set(cols):
        raise RuntimeError(f"duplicate finding columns {sorted(exprs)} != findings columns {sorted(cols)}")
    return "SELECT " + ", ".join(f"{exprs[c]} AS {_quote(c)}" for c in cols) + " FROM _dups"


def _inserted(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object] = ()) -> int:
    row = con.execute(sql, list(params)).fetchone()
    return int(row[0]) if row else 0


def load(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]],
         sources: Sequence[str], make_run: Callable[[Summary], RunRow]) -> Summary:
    """Replace this run's games and input files in the database, in one transaction.

    Rows of every game_id present in the staged games/findings/rejected files are
    deleted first, and so are the rejected rows and invalid_log findings of every input
    file of the run; then each table is bulk-inserted from its Parquet files, without
    the rows of later occurrences of a game_id, plus a duplicate finding for each of
    those. ``make_run(summary)`` builds the runs row, inserted last.
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
        con.execute(
            "CREATE OR REPLACE TEMP TABLE _dups AS SELECT * FROM ("
            "  SELECT game_id, source_file, source_line, ruleset,"
            "         row_number() OVER w AS copy,"
            "         first_value(source_file || ':' || source_line) OVER w AS first_at"
            f"  FROM ({_occurrences_sql(files)})"
            "  WINDOW w AS (PARTITION BY game_id ORDER BY source_file, source_line)"
            ") WHERE copy > 1")
        (n_dups,) = con.execute("SELECT count(*) FROM _dups").fetchone()
        for t in GAME_TABLES:
            con.execute(f"DELETE FROM {t} WHERE game_id IN (SELECT game_id FROM _run_ids)")
        con.execute(f"DELETE FROM findings WHERE {_RUN_FINDINGS}")
        con.execute("DELETE FROM rejected WHERE source_file IN (SELECT source_file FROM _run_sources)")
        counts = dict.fromkeys(t for t in TABLES if t != "runs")
        for t in counts:
            if t not in files:
                counts[t] = 0
                continue
            cols = ", ".join(_quote(c) for c in column_names(TABLES[t]))
            scan = f"SELECT {cols} FROM read_parquet({_sql_list(files[t])}) AS s"
            if n_dups:
                scan += f" WHERE NOT EXISTS (SELECT 1 FROM _dups AS d WHERE {_SAME_OCCURRENCE})"
            counts[t] = _inserted(con, f"INSERT INTO {_quote(t)} ({cols}) {scan}")
        if n_dups:
            counts["findings"] += _inserted(
                con, f"INSERT INTO findings {_duplicate_findings_sql()}", [DUPLICATE_MESSAGE])
        by_kind = tuple((k, int(n)) for k, n in con.execute(
            f"SELECT kind, count(*) FROM findings WHERE {_RUN_FINDINGS} "
            "GROUP BY kind ORDER BY count(*) DESC, kind").fetchall())
        summary = Summary(MappingProxyType(counts), by_kind, int(n_dups))
        run_table = pa.Table.from_pylist([make_run(summary).model_dump()], schema=ARROW_SCHEMAS["runs"])
        con.register("_run_row", run_table)
        con.execute("INSERT INTO runs SELECT * FROM _run_row")
        con.unregister("_run_row")
        collusion.build(con)  # pair_stats, player_anomalies: rebuilt from the whole database
        for tmp in ("_run_sources", "_run_ids", "_dups"):
            con.execute(f"DROP TABLE {tmp}")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return summary


def load_staging(con: duckdb.DuckDBPyConnection, staging: str, sources: Sequence[str],
                 make_run: Callable[[Summary], RunRow]) -> Summary:
    """Load the files a staging folder's manifest names; ``make_run(summary)`` builds the runs row."""
    for name, value in LOAD_SETTINGS:
        con.execute(f"SET {name} = '{value}'")
    with tempfile.TemporaryDirectory(prefix="mahjong-audit-load-") as tmp:
        files = localise(staging_files.read_manifest(staging), tmp)
        return load(con, files, sources, make_run)
