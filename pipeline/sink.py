"""The driver-side DuckDB load: the only code that writes the database.

The pipeline leaves Parquet files per table in the run's staging area, named by its
manifest (``mahjong_audit.pipeline.staging``). :func:`load` replaces the rows of every game (and every
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
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

import duckdb
import pyarrow as pa

from mahjong_audit.pipeline import collusion
from mahjong_audit.pipeline import staging as staging_files
from mahjong_audit.pipeline.errors import DatabaseError, DatabaseLocked
from mahjong_audit.pipeline.rows import DUPLICATE, DUPLICATE_MESSAGE
from mahjong_audit.pipeline.tables import ARROW_SCHEMAS, column_names, columns, ddl
from mahjong_audit.schemas.results import BOOKKEEPING_TABLES, TABLES, FileRow, FindingRow, RunRow

GAME_TABLES = ("games", "hands", "hand_scores", "payouts")
# DuckDB settings for the load: a small, fixed memory budget (it spills to <db>.tmp past
# it) and one thread, so the driver's memory does not grow with the run's size. Measured
# on 25k and 100k hands: as fast as the defaults, and ~80 MB less at 100k hands.
LOAD_SETTINGS = (
    ("memory_limit", "64MB"),
    ("threads", "1"),
    ("preserve_insertion_order", "false"),
)




def _fs():
    from apache_beam.io.filesystems import FileSystems

    return FileSystems


LOCK_POLL_SECONDS = 0.5


#: bytes 8..12 of every DuckDB database file (after the header's checksum)
DUCKDB_MAGIC = b"DUCK"


def check_database_file(path: str) -> None:
    """Refuse a local ``path`` that exists but is not a DuckDB database.

    DuckDB opens an existing ``.json``, ``.jsonl``, ``.csv`` or ``.parquet`` file (even an
    empty one) as an in-memory database: a run would report success and store nothing.
    An absent path is fine (it is created); so is a URL (DuckDB's own)."""
    if "://" in path or path == ":memory:":
        return
    if os.path.isdir(path):
        raise DatabaseError(f"{path} is a folder, not a DuckDB database file")
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except FileNotFoundError:
        return
    except OSError as e:
        raise DatabaseError(f"cannot open database {path}: {e.strerror or e}") from None
    if head[8:12] != DUCKDB_MAGIC:
        raise DatabaseError(f"{path} is not a DuckDB database (a log or data file given as --db?); "
                            "give a .duckdb file, or a new name to create one")


def connect(path: str, *, read_only: bool = False, wait: float = 0.0) -> duckdb.DuckDBPyConnection:
    """Open the database, turning a held lock into :class:`DatabaseLocked`; while another
    process holds it, try again every half second for up to ``wait`` seconds. A file that
    is not a DuckDB database is refused (:func:`check_database_file`)."""
    check_database_file(path)
    deadline = time.monotonic() + max(0.0, wait)
    while True:
        try:
            return duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as e:
            if "lock" not in str(e).lower():
                raise DatabaseError(f"cannot open database {path}: {e}") from None
            left = deadline - time.monotonic()
            if left <= 0:
                waited = f" (waited {wait:g} s)" if wait > 0 else ""
                raise DatabaseLocked(
                    f"database {path} is locked by another process (another audit or an open "
                    f"DuckDB session?){waited}; close it and run again"
                ) from None
            time.sleep(min(LOCK_POLL_SECONDS, left))
        except duckdb.Error as e:
            raise DatabaseError(f"cannot open database {path}: {e}") from None


# Type changes an older database may need, as (old DuckDB type, new DuckDB type) -> the
# USING expression ({col} is the column). Times written as text become instants (UTC).
TYPE_UPGRADES: Mapping[tuple[str, str], str] = MappingProxyType({
    ("VARCHAR", "TIMESTAMP WITH TIME ZONE"): "try_cast({col} AS TIMESTAMPTZ)",
})


@dataclass(frozen=True, slots=True)
class ColumnInfo:
    """What the database says about one column of a table."""

    type: str  # the DuckDB type
    nullable: bool


def _columns(con: duckdb.DuckDBPyConnection, tables: Sequence[str]) -> dict[str, dict[str, ColumnInfo]]:
    """table -> its columns in order (only the tables that exist), in one catalog query:
    each query of ``information_schema`` costs a few milliseconds to plan, whatever it reads."""
    out: dict[str, dict[str, ColumnInfo]] = {}
    for table, name, data_type, nullable in con.execute(
        "SELECT table_name, column_name, data_type, is_nullable = 'YES' FROM information_schema.columns "
        "WHERE table_name IN (SELECT unnest(?::VARCHAR[])) AND table_schema = 'main' "
        "ORDER BY table_name, ordinal_position", [list(tables)]
    ).fetchall():
        out.setdefault(table, {})[name] = ColumnInfo(data_type, nullable)
    return out


def _upgrade_steps(table: str, have: Mapping[str, ColumnInfo]) -> list[str]:
    """ALTER statements that bring an older table to this version's columns.

    Columns this version added are added (NULL in old rows; only nullable ones), and
    columns whose type changed along :data:`TYPE_UPGRADES` are converted. Anything else
    (a column dropped or renamed, another type change) is refused.
    """
    extra = set(have) - set(column_names(TABLES[table]))
    if extra:
        raise DatabaseError(
            f"table {table!r} has columns ({', '.join(have)}) but this version writes "
            f"({', '.join(column_names(TABLES[table]))}); use a new --db file or drop the table")
    steps = []
    for col in columns(TABLES[table]):
        info = have.get(col.name)
        old = info.type if info is not None else None
        if old is None:
            if not col.nullable:
                raise DatabaseError(f"table {table!r} lacks the column {col.name!r}, which this version "
                                    f"needs filled; use a new --db file or drop the table")
            steps.append(f"ALTER TABLE {_quote(table)} ADD COLUMN {_quote(col.name)} {col.type.duckdb}")
        elif old != col.type.duckdb:
            using = TYPE_UPGRADES.get((old, col.type.duckdb))
            if using is None:
                raise DatabaseError(f"table {table!r} column {col.name!r} is {old} but this version "
                                    f"writes {col.type.duckdb}; use a new --db file or drop the table")
            steps.append(f"ALTER TABLE {_quote(table)} ALTER {_quote(col.name)} TYPE {col.type.duckdb} "
                         f"USING {using.format(col=_quote(col.name))}")
    return steps


def _nullable_steps(table: str, have: Mapping[str, ColumnInfo]) -> list[str]:
    """DROP NOT NULL for the columns this version made nullable (payouts.seat: null for a
    player standing out in a five-player game)."""
    return [f"ALTER TABLE {_quote(table)} ALTER {_quote(col.name)} DROP NOT NULL"
            for col in columns(TABLES[table])
            if col.nullable and col.name in have and not have[col.name].nullable]


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create missing tables, upgrade older ones, (re)create the views.

    Rows are always inserted by column name, so a table upgraded with added columns
    (which DuckDB appends at the end) loads like a new one.
    """
    steps = []
    existing = _columns(con, tuple(TABLES))
    for name in TABLES:
        have = existing.get(name)
        if have:
            steps += _upgrade_steps(name, have) + _nullable_steps(name, have)
    con.execute("BEGIN")
    con.execute("SET TimeZone = 'UTC'")
    for stmt in (*steps, *ddl()):
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


def remove_leftover_staging(base: str) -> tuple[str, ...]:
    """Delete run folders left in a local staging base by runs that were killed before
    they could clean up; returns what was removed. Call only while holding the database
    whose private staging base this is (then no other run can be using it)."""
    if "://" in base or not os.path.isdir(base):
        return ()
    removed = []
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return tuple(removed)


# --------------------------------------------------------------------------- load


def _sql_list(paths: Sequence[str]) -> str:
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


PARTS = "file_parts"  # staging only: what each shard read (mahjong_audit.pipeline.splits)
RECORDS = "file_records"  # staging only: records parsed per file and bundle (rows.FileCount)


def _scan(files: Mapping[str, Sequence[str]], table: str) -> str:
    """A table's staged rows as they are (line numbers counted from each split's start)."""
    return f"read_parquet({_sql_list(files[table])})"


def _staged(files: Mapping[str, Sequence[str]], table: str) -> str:
    """A table's staged rows, with line numbers of split files made absolute: a row read
    by a split that starts at byte > 0 counts its line from that split, so the lines of
    the file's earlier splits (``_line_base``, made by :func:`_line_bases`) are added."""
    scan = _scan(files, table)
    if PARTS not in files:
        return scan
    return (f"(SELECT s.* REPLACE (s.source_line + coalesce(b.base, 0) AS source_line) FROM {scan} AS s "
            "LEFT JOIN _line_base AS b ON b.source_file = s.source_file AND b.shard_start = s.source_shard_start "
            "AND s.source_shard_start > 0)")


def _line_bases(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]]) -> None:
    """``_line_base``: for each split of a file, the lines owned by the splits before it."""
    if PARTS not in files:
        return
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _line_base AS SELECT source_file, shard_start, "
        "coalesce(sum(lines) OVER (PARTITION BY source_file ORDER BY shard_start "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS base "
        f"FROM {_scan(files, PARTS)}")


@dataclass(frozen=True, slots=True)
class FileStat:
    """What the filesystem says about an input file (driver side)."""

    size: int
    mtime: datetime | None


def file_rows(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]], sources: Sequence[str],
              stats: Mapping[str, FileStat], run_id: str) -> list[FileRow]:
    """One ``files`` row per input file of the run, from its size/mtime and what its shards read."""
    from mahjong_audit.pipeline.splits import PartRead, file_digest

    parts: dict[str, list[PartRead]] = {}
    if PARTS in files:
        for src, start, lines, nbytes, digest in con.execute(
                f"SELECT source_file, shard_start, lines, bytes_read, sha256 FROM {_scan(files, PARTS)}"
        ).fetchall():
            parts.setdefault(src, []).append(PartRead(src, start, lines, nbytes, digest))
    out = []
    for src in sources:
        st = stats.get(src, FileStat(0, None))
        got = parts.get(src, [])
        out.append(FileRow(path=src, size=st.size, mtime=st.mtime, content_hash=file_digest(got),
                           lines=sum(p.lines for p in got), run_id=run_id))
    return out


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What became of one input file's records (a ``run_files`` row)."""

    source_file: str
    records: int
    games: int
    duplicates: int
    rejected: int

    @property
    def reconciles(self) -> bool:
        return self.records == self.games + self.duplicates + self.rejected


@dataclass(frozen=True, slots=True)
class Summary:
    rows: Mapping[str, int]  # table -> rows loaded by this run
    findings_by_kind: tuple[tuple[str, int], ...]
    duplicates: int = 0  # later occurrences of a game_id, left out (within and across records)
    files: tuple[FileSummary, ...] = ()

    @property
    def records(self) -> int:
        return sum(f.records for f in self.files)

    @property
    def unreconciled(self) -> tuple[FileSummary, ...]:
        """Files whose records are not all accounted for (a bug if ever non-empty)."""
        return tuple(f for f in self.files if not f.reconciles)

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
        parts.append(f"SELECT game_id, source_file, source_line, ruleset FROM {_staged(files, 'games')}")
    if "findings" in files:
        parts.append(f"SELECT game_id, source_file, source_line, ruleset "
                     f"FROM {_staged(files, 'findings')} WHERE {_OCCURRENCE_FINDINGS}")
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
        "depends_on": "[]::VARCHAR[]",
    }
    cols = column_names(FindingRow)
    if set(exprs) != set(cols):
        raise RuntimeError(f"duplicate finding columns {sorted(exprs)} != findings columns {sorted(cols)}")
    return "SELECT " + ", ".join(f"{exprs[c]} AS {_quote(c)}" for c in cols) + " FROM _dups"


def _inserted(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object] = ()) -> int:
    """The integer a statement returns (rows inserted, a count)."""
    row = con.execute(sql, list(params)).fetchone()
    return int(row[0]) if row else 0


def run_id_of(make_run: Callable[[Summary], RunRow]) -> str:
    """The run id the runs row will carry (``make_run`` of an empty summary)."""
    return make_run(Summary(MappingProxyType({}), ())).run_id


# Per input file: records counted by the pipeline, and the rows this run left of them.
_FILE_COUNTS = """
INSERT INTO run_files (run_id, source_file, records, games, duplicates, rejected)
SELECT $run_id, c.source_file, c.records,
       coalesce(g.n, 0), coalesce(d.n, 0), coalesce(r.n, 0)
FROM (SELECT source_file, sum(records)::BIGINT AS records FROM read_parquet({staged})
      GROUP BY source_file) AS c
LEFT JOIN (SELECT source_file, count(*) AS n FROM games WHERE run_id = $run_id
           GROUP BY source_file) AS g USING (source_file)
LEFT JOIN (SELECT source_file, count(*) AS n FROM findings
           WHERE code = $dup AND game_id IN (SELECT game_id FROM _run_ids)
             AND source_file IN (SELECT source_file FROM _run_sources)
           GROUP BY source_file) AS d USING (source_file)
LEFT JOIN (SELECT source_file, count(*) AS n FROM rejected WHERE run_id = $run_id
           GROUP BY source_file) AS r USING (source_file)
"""


def _load_file_counts(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]],
                      run_id: str) -> tuple[FileSummary, ...]:
    if RECORDS in files:
        con.execute(_FILE_COUNTS.format(staged=_sql_list(files[RECORDS])),
                    {"run_id": run_id, "dup": DUPLICATE.code})
    return tuple(FileSummary(*row) for row in con.execute(
        "SELECT source_file, records, games, duplicates, rejected FROM run_files "
        "WHERE run_id = ? ORDER BY source_file", [run_id]).fetchall())


def load(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]],
         sources: Sequence[str], make_run: Callable[[Summary], RunRow],
         stats: Mapping[str, FileStat] | None = None) -> Summary:
    """Replace this run's games and input files in the database, in one transaction.

    Rows of every game_id present in the staged games/findings/rejected files are
    deleted first, and so are the rejected rows and invalid_log findings of every input
    file of the run; then each table is bulk-inserted from its Parquet files, without
    the rows of later occurrences of a game_id, plus a duplicate finding for each of
    those. ``make_run(summary)`` builds the runs row, inserted last, with one ``files``
    row per input file (``stats``: its size and modification time).
    """
    con.execute("BEGIN TRANSACTION")
    try:
        summary = load_rows(con, files, sources, make_run, stats)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return summary


def load_rows(con: duckdb.DuckDBPyConnection, files: Mapping[str, Sequence[str]],
              sources: Sequence[str], make_run: Callable[[Summary], RunRow],
              stats: Mapping[str, FileStat] | None = None, *, collusion_tables: bool = True) -> Summary:
    """What :func:`load` does, inside the caller's transaction (``mahjong-audit serve``
    commits several requests' games at once this way). ``collusion_tables=False`` leaves
    ``pair_stats`` and ``player_anomalies`` as they are (the caller rebuilds them later)."""
    id_sources = [
        f"SELECT game_id FROM {_scan(files, t)}"
        for t in ("games", "findings", "rejected") if t in files
    ]
    _line_bases(con, files)
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
    n_dups = _inserted(con, "SELECT count(*) FROM _dups")
    for t in GAME_TABLES:
        con.execute(f"DELETE FROM {t} WHERE game_id IN (SELECT game_id FROM _run_ids)")
    con.execute(f"DELETE FROM findings WHERE {_RUN_FINDINGS}")
    con.execute("DELETE FROM rejected WHERE source_file IN (SELECT source_file FROM _run_sources)")
    counts = dict.fromkeys((t for t in TABLES if t not in BOOKKEEPING_TABLES), 0)
    for t in counts:
        if t not in files:
            continue
        names = column_names(TABLES[t])
        cols = ", ".join(_quote(c) for c in names)
        # the absolute line (a join per staged row) only where it is stored or tells the occurrences apart:
        # hands, hand_scores and payouts keep no source position
        lines = n_dups or "source_line" in names
        scan = f"SELECT {cols} FROM {_staged(files, t) if lines else _scan(files, t)} AS s"
        if n_dups:
            scan += f" WHERE NOT EXISTS (SELECT 1 FROM _dups AS d WHERE {_SAME_OCCURRENCE})"
        counts[t] = _inserted(con, f"INSERT INTO {_quote(t)} ({cols}) {scan}")
    if n_dups:
        counts["findings"] += _inserted(
            con, f"INSERT INTO findings {_duplicate_findings_sql()}", [DUPLICATE_MESSAGE])
    per_file = _load_file_counts(con, files, run_id_of(make_run))
    by_kind = tuple((k, int(n)) for k, n in con.execute(
        f"SELECT kind, count(*) FROM findings WHERE {_RUN_FINDINGS} "
        "GROUP BY kind ORDER BY count(*) DESC, kind").fetchall())
    summary = Summary(MappingProxyType(counts), by_kind, int(n_dups), per_file)
    run_row = make_run(summary)
    _insert_rows(con, "runs", [run_row])
    con.execute("DELETE FROM files WHERE path IN (SELECT source_file FROM _run_sources)")
    _insert_rows(con, "files", file_rows(con, files, sources, stats or {}, run_row.run_id))
    if collusion_tables:
        collusion.build(con)  # pair_stats, player_anomalies: rebuilt from the whole database
    for tmp in ("_run_sources", "_run_ids", "_dups", "_line_base"):
        con.execute(f"DROP TABLE IF EXISTS {tmp}")
    return summary


def _insert_rows(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence) -> None:
    """Bulk-insert a few rows made by the driver (one Arrow table, one INSERT)."""
    if not rows:
        return
    arrow = pa.Table.from_pylist([r.model_dump() for r in rows], schema=ARROW_SCHEMAS[table])
    con.register("_driver_rows", arrow)
    try:
        cols = ", ".join(_quote(c) for c in column_names(TABLES[table]))
        con.execute(f"INSERT INTO {_quote(table)} ({cols}) SELECT {cols} FROM _driver_rows")
    finally:
        con.unregister("_driver_rows")


def load_staging(con: duckdb.DuckDBPyConnection, staging: str, sources: Sequence[str],
                 make_run: Callable[[Summary], RunRow], stats: Mapping[str, FileStat] | None = None) -> Summary:
    """Load the files a staging folder's manifest names; ``make_run(summary)`` builds the runs row.

    The load's COMMIT checkpoints (``checkpoint_threshold`` 0 for the load): DuckDB then
    writes the run's rows into the database file at once, where a commit below the threshold
    writes them to the write-ahead log, which closing the connection checkpoints into the file
    all the same (the audit command closes it right after the load). Callgrind on 12,000 MCR
    hands, COMMIT and close together: 2,145 M -> 1,968 M instructions (the log's ~160 M
    left out); the COMMIT alone is dearer by the checkpoint the close no longer does."""
    for name, value in LOAD_SETTINGS:
        con.execute(f"SET {name} = '{value}'")
    con.execute("SET checkpoint_threshold = '0b'")
    try:
        with tempfile.TemporaryDirectory(prefix="mahjong-audit-load-") as tmp:
            files = localise(staging_files.read_manifest(staging), tmp)
            return load(con, files, sources, make_run, stats)
    finally:
        con.execute("RESET checkpoint_threshold")
