"""The service's store: one writer thread owns the DuckDB file and commits in groups.

A request's records are audited in the event loop; their rows (:class:`ingest.Outcome`)
are handed to :meth:`Store.submit`, which returns a future the request awaits. The writer
takes every batch waiting when its last commit ends (group commit: the busier the service,
the more requests share one transaction, and no request waits for a timer), stages the
rows as Parquet (``mahjong_audit.pipeline.staging``, as the pipeline's workers do) and loads them with
``mahjong_audit.pipeline.sink.load_rows`` in ONE transaction, then resolves the futures: a request is
answered only after its rows are committed, and a failed commit fails every request of it
(503) with nothing half-written. The load deletes every row of each game_id it brings
first, so a game posted again replaces its rows; two posts of one game_id in one group keep
the later one. The service is one run: its ``runs`` row (runner ``serve``) is replaced in
each commit with the totals so far.

Readers (``GET /v1/games/…``, ``/v1/findings``) use cursors of the same database from a
small pool, so they read committed data beside the writer (DuckDB's MVCC) without waiting
for it. Every ``publish_seconds`` in which something was committed the writer also
rebuilds the collusion tables (not rebuilt per commit: they are statistics over the whole
database) and publishes the read copy for other processes (:mod:`.replica`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType

import duckdb

from mahjong_audit.pipeline import collusion, sink, staging
from mahjong_audit.pipeline.errors import StoreFailed
from mahjong_audit.pipeline.read import Rejection
from mahjong_audit.pipeline.serve import replica
from mahjong_audit.pipeline.serve.ingest import Outcome
from mahjong_audit.pipeline.serve.metrics import Metrics
from mahjong_audit.pipeline.serve.models import FindingsPage, FoundRow, Verdict
from mahjong_audit.pipeline.tables import column_names
from mahjong_audit.schemas.results import TABLES, RunRow

log = logging.getLogger(__name__)
# source_file of every record the service received: serve://<request id>[/<name>]. A URL, so
# that no importer looks for a file beside it on this machine (botzone-json's metadata).
SOURCE_PREFIX = "serve://"
READERS = 8  # cursors for the read endpoints
MAX_BATCH_RECORDS = 5000  # records per group commit at most
_TMP = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None



@dataclass(frozen=True, slots=True)
class RunInfo:
    """What the service's ``runs`` row says besides its totals."""

    run_id: str
    started_at: datetime  # naive UTC, as the runs table keeps times
    version: str
    inputs: tuple[str, ...]


@dataclass
class _Pending:
    outcomes: tuple[Outcome, ...]
    future: concurrent.futures.Future = field(default_factory=concurrent.futures.Future)


_STOP = object()


class Store:
    def __init__(self, db: str, run: RunInfo, metrics: Metrics, *, url: str = "",
                 publish_seconds: float = 10.0, max_batch: int = MAX_BATCH_RECORDS):
        self.db, self.run, self.metrics, self.url = db, run, metrics, url
        self.publish_seconds, self.max_batch = publish_seconds, max_batch
        self.con = sink.connect(db)  # DatabaseLocked: another process holds it
        try:
            sink.ensure_schema(self.con)
            for name, value in sink.LOAD_SETTINGS:
                self.con.execute(f"SET {name} = '{value}'")
            self.con.execute("SET TimeZone = 'UTC'")
            self._readers: queue.SimpleQueue[duckdb.DuckDBPyConnection] = queue.SimpleQueue()
            for _ in range(READERS):
                self._readers.put(self.con.cursor())
        except BaseException:
            self.con.close()
            raise
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._depth = 0  # records submitted and not yet committed
        self._lock = threading.Lock()
        self._totals = dict.fromkeys(("games", "hands", "findings", "rejected", "records", "duplicates"), 0)
        self._dirty = False
        self.read_copy_at: datetime | None = None
        self.failure: str | None = None
        self._thread = threading.Thread(target=self._writer, name="mahjong-audit-writer", daemon=True)
        metrics.queue_depth = self.queue_depth  # type: ignore[method-assign]

    # ----------------------------------------------------------------- life

    def start(self) -> None:
        if self.publish_seconds > 0:
            self._publish()
        self._thread.start()

    def close(self) -> None:
        """Commit what is waiting, stop the writer, withdraw the read copy, close the file."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()
        replica.withdraw(self.db)
        self.con.close()

    def queue_depth(self) -> int:
        return self._depth

    def writing(self) -> bool:
        """True while the writer thread runs."""
        return self._thread.is_alive()

    # ----------------------------------------------------------------- writing

    def submit(self, outcomes: Sequence[Outcome]) -> concurrent.futures.Future:
        """Queue one request's rows; the future is done once they are committed."""
        pending = _Pending(tuple(outcomes))
        if self.failure is not None:
            pending.future.set_exception(StoreFailed(self.failure))
            return pending.future
        with self._lock:
            self._depth += len(pending.outcomes)
        self._queue.put(pending)
        return pending.future

    def _writer(self) -> None:
        try:
            self._run()
        except BaseException as e:  # a bug: /healthz says so, and every request from now on is refused
            self.failure = f"the writer stopped: {type(e).__name__}: {e}"
            log.exception("the writer stopped")
            raise

    def _run(self) -> None:
        next_publish = time.monotonic() + self.publish_seconds
        stopping = False
        while not stopping:
            timeout = max(0.0, next_publish - time.monotonic()) if self._dirty and self.publish_seconds > 0 else None
            try:
                first = self._queue.get(timeout=timeout)
            except queue.Empty:
                first = None
            batch: list[_Pending] = []
            records = 0
            item = first
            while item is not None:
                if item is _STOP:
                    stopping = True
                else:
                    batch.append(item)
                    records += len(item.outcomes)
                if records >= self.max_batch:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    item = None
            if batch:
                self._commit_batch(batch)
            if self._dirty and self.publish_seconds > 0 and (stopping or time.monotonic() >= next_publish):
                self._publish()
                next_publish = time.monotonic() + self.publish_seconds

    def _commit_batch(self, batch: list[_Pending]) -> None:
        n = sum(len(p.outcomes) for p in batch)
        try:
            self._commit(batch)
        except Exception as e:  # noqa: BLE001  the requests fail (503), the service goes on
            log.exception("commit of %d records failed", n)
            error = StoreFailed(f"the commit failed: {type(e).__name__}: {e}")
            for p in batch:
                p.future.set_exception(error)
        else:
            for p in batch:
                p.future.set_result(None)
        finally:
            with self._lock:
                self._depth -= n

    def _commit(self, batch: list[_Pending]) -> None:
        latest: dict[str, int] = {}  # game_id -> the last request of the batch that brings it
        for i, p in enumerate(batch):
            for o in p.outcomes:
                if o.game_id is not None:
                    latest[o.game_id] = i
        made: list[tuple] = []
        records = duplicates = 0
        tmp = tempfile.mkdtemp(prefix="mahjong-audit-serve-", dir=_TMP)
        try:
            writer = staging.TableWriter(tmp, batch_rows=1 << 30)
            for i, p in enumerate(batch):
                for o in p.outcomes:
                    if o.game_id is not None and latest[o.game_id] != i:
                        continue  # superseded by a later post of the same game in this group
                    writer.add_rows(o.rows, o.source, o.line, 0)
                    made.extend(o.rows)
                    records += 1
                    duplicates += o.status == "duplicate"
            files: dict[str, list[str]] = {}
            for table, path in writer.close():
                files.setdefault(table, []).append(path)
            self.con.execute("BEGIN TRANSACTION")
            try:
                self.con.execute("DELETE FROM runs WHERE run_id = ?", [self.run.run_id])
                summary = sink.load_rows(self.con, MappingProxyType(files), (),
                                         lambda s: self._run_row(s, records, duplicates),
                                         collusion_tables=False)
                self.con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    self.con.execute("ROLLBACK")
                raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for key, value in (("games", summary.games), ("hands", summary.hands), ("findings", summary.findings),
                           ("rejected", summary.rejected), ("records", records), ("duplicates", duplicates)):
            self._totals[key] += value
        self._dirty = True
        self.metrics.committed(made)

    def _run_row(self, summary: sink.Summary, records: int, duplicates: int) -> RunRow:
        t = self._totals
        return RunRow(
            run_id=self.run.run_id, started_at=self.run.started_at,
            finished_at=datetime.now(UTC).replace(tzinfo=None), version=self.run.version,
            inputs=list(self.run.inputs), runner="serve",
            games=t["games"] + summary.games, hands=t["hands"] + summary.hands,
            findings=t["findings"] + summary.findings, rejected=t["rejected"] + summary.rejected,
            records=t["records"] + records, duplicates=t["duplicates"] + duplicates,
        )

    def _publish(self) -> None:
        try:
            self.con.execute("BEGIN TRANSACTION")
            try:
                collusion.build(self.con)
                self.con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    self.con.execute("ROLLBACK")
                raise
            self.read_copy_at = replica.publish(self.con, self.db, self.url)
            self._dirty = False
        except (OSError, subprocess.SubprocessError, duckdb.Error) as e:
            log.warning("the read copy was not published: %s", e)

    # ----------------------------------------------------------------- reading

    @contextlib.contextmanager
    def _reader(self):
        cur = self._readers.get()
        try:
            yield cur
        finally:
            self._readers.put(cur)

    def verdict(self, game_id: str) -> Verdict | None:
        """The stored verdict of a game_id (its rows as committed), or None."""
        with self._reader() as cur:
            got = {t: _select(cur, t, "game_id = ?", [game_id], order)
                   for t, order in (("games", "source_file"), ("hands", "hand_no"),
                                    ("hand_scores", "hand_no, seat, item"), ("payouts", "hand_no, seat NULLS LAST"),
                                    ("findings", "hand_no NULLS FIRST, seq NULLS FIRST"),
                                    ("rejected", "run_id DESC, source_file DESC"))}
        if got["games"]:
            game = got["games"][0]
            return Verdict(status="audited", game_id=game_id, source_file=game.source_file,
                           source_line=game.source_line, game=game, hands=got["hands"], scores=got["hand_scores"],
                           payouts=got["payouts"], findings=got["findings"])
        if not got["rejected"]:
            return None
        rejected = got["rejected"][0]
        error = str(Rejection(rejected.source_file, rejected.source_line, rejected.code, rejected.message,
                              rejected.game_id))
        return Verdict(status="rejected", game_id=game_id, source_file=rejected.source_file,
                       source_line=rejected.source_line, findings=got["findings"], rejected=rejected, error=error)

    def findings_page(self, *, since: datetime | None, kind: str | None, ruleset: str | None,
                      before: tuple[int, str] | None, limit: int) -> FindingsPage:
        """Findings of the records the service received, newest record first, whole records per
        page: records are taken until their findings reach ``limit``."""
        where, params = [f"source_file LIKE '{SOURCE_PREFIX}%'"], list[object]()
        if since is not None:
            where.append("source_file >= ?")
            params.append(SOURCE_PREFIX + request_stamp(since))
        if kind is not None:
            where.append("kind = ?")
            params.append(kind)
        if ruleset is not None:
            where.append("ruleset = ?")
            params.append(ruleset)
        if before is not None:
            where.append("(source_file < ? OR (source_file = ? AND coalesce(source_line, 0) < ?))")
            params += [before[1], before[1], before[0]]
        cond = " AND ".join(where)
        cols = ", ".join(f'f."{c}"' for c in column_names(TABLES["findings"]))
        sql = (
            "WITH recs AS (SELECT source_file, coalesce(source_line, 0) AS line, count(*) AS n "
            f"  FROM findings WHERE {cond} GROUP BY ALL), "
            "page AS (SELECT * FROM (SELECT *, sum(n) OVER (ORDER BY source_file DESC, line DESC "
            "  ROWS UNBOUNDED PRECEDING) AS upto FROM recs) WHERE upto - n < ?) "
            f"SELECT {cols}, (SELECT count(*) FROM recs) > (SELECT count(*) FROM page) AS more "
            f"FROM findings f JOIN page p ON f.source_file = p.source_file AND coalesce(f.source_line, 0) = p.line "
            f"WHERE {cond.replace('source_file', 'f.source_file').replace('source_line', 'f.source_line')} "
            "ORDER BY f.source_file DESC, coalesce(f.source_line, 0) DESC, f.hand_no NULLS FIRST, "
            "f.seq NULLS FIRST, f.seat NULLS FIRST, f.code, f.message")
        with self._reader() as cur:
            got = cur.execute(sql, params + [limit] + params).fetchall()
        names = column_names(TABLES["findings"])
        found = [FoundRow(**dict(zip(names, r[:-1], strict=True)), received_at=received_at(r[names.index("source_file")]))
                 for r in got]
        more = bool(got) and bool(got[-1][-1])
        nxt = f"{found[-1].source_line or 0}:{found[-1].source_file}" if more and found else None
        return FindingsPage(findings=found, next=nxt)


def _select(cur: duckdb.DuckDBPyConnection, table: str, where: str, params: list, order: str) -> list:
    model = TABLES[table]
    names = column_names(model)
    rows = cur.execute(f"SELECT {', '.join(chr(34) + c + chr(34) for c in names)} FROM {table} "
                       f"WHERE {where} ORDER BY {order}", params).fetchall()
    return [model(**dict(zip(names, r, strict=True))) for r in rows]


STAMP = "%Y%m%dT%H%M%S.%fZ"  # the time part of a request id (commands.audit.new_run_id)


def request_stamp(when: datetime) -> str:
    """The request-id prefix of an instant (naive times are UTC)."""
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime(STAMP)


def received_at(source_file: str) -> datetime | None:
    """When the service received the request named by a ``serve://<request id>`` source."""
    if not source_file.startswith(SOURCE_PREFIX):
        return None
    stamp = source_file[len(SOURCE_PREFIX):].split("/", 1)[0].split("-", 1)[0]
    try:
        return datetime.strptime(stamp, STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None
