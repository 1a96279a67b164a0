"""The read copy: how ``stats`` and ``report`` answer for a database ``serve`` holds.

DuckDB lets one process write a database file and no other process open it meanwhile,
not even read-only. So the service publishes a copy: every ``--publish-seconds`` in which
something was committed, its writer rebuilds the collusion tables, checkpoints (the file
then holds every commit) and copies the file to ``<db>.read-copy`` (written beside and
renamed into place, so a reader never sees half a copy), with a marker ``<db>.read-copy.json``
naming the service's process. ``stats --db`` and ``report --db`` open the database as
always; only when it is locked and the marker names a live process do they read the copy,
saying how old it is. (The service never opens the database file itself besides DuckDB:
closing any descriptor of it would release DuckDB's lock, POSIX locks being per process.)
What it costs: the copy's disk space (the database's size), its
time in the writer (a file copy: ~0.1 s per 100 MB, during which commits wait), and
readers that lag by up to the interval. A service that stops cleanly removes both files;
one killed leaves them, and its marker then names a dead process, so they are not used.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime

COPY_SUFFIX = ".read-copy"


def copy_path(db: str) -> str:
    return db + COPY_SUFFIX


def marker_path(db: str) -> str:
    return copy_path(db) + ".json"


@dataclass(frozen=True, slots=True)
class ReadCopy:
    """A read copy published by a running service."""

    db: str
    path: str
    published_at: datetime
    pid: int
    url: str

    def note(self) -> str:
        age = (datetime.now(UTC) - self.published_at).total_seconds()
        return (f"{self.db} is held by `mahjong-audit serve` (pid {self.pid}, {self.url}); reading its read "
                f"copy of {self.published_at:%Y-%m-%d %H:%M:%S} UTC ({max(0.0, age):.0f} s old)")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def published(db: str) -> ReadCopy | None:
    """The read copy of ``db`` if a live service published one, else None."""
    try:
        with open(marker_path(db), encoding="utf-8") as f:
            data = json.load(f)
        copy = ReadCopy(db, copy_path(db), datetime.fromisoformat(data["published_at"]),
                        int(data["pid"]), str(data["url"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return copy if _alive(copy.pid) and os.path.exists(copy.path) else None


def publish(con, db: str, url: str) -> datetime:
    """Checkpoint ``con`` (the writer's connection to ``db``, between commits) and publish
    the copy and its marker; returns the time published."""
    con.execute("CHECKPOINT")
    tmp = copy_path(db) + ".tmp"
    # Copied by another process: closing a descriptor of the file here would drop the lock
    # DuckDB holds on it (POSIX record locks belong to the process, not to the descriptor).
    subprocess.run(["cp", "--reflink=auto", "--", db, tmp], check=True, capture_output=True)
    os.replace(tmp, copy_path(db))
    now = datetime.now(UTC)
    with open(marker_path(db) + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"published_at": now.isoformat(), "pid": os.getpid(), "url": url}, f)
    os.replace(marker_path(db) + ".tmp", marker_path(db))
    return now


def withdraw(db: str) -> None:
    """Remove the copy and its marker (the service is stopping: the database is free again)."""
    for path in (marker_path(db), copy_path(db), copy_path(db) + ".tmp"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


def connect_read_copy(db: str):
    """(connection to the read copy, note) for a locked ``db`` a service publishes, else None."""
    import duckdb

    copy = published(db)
    if copy is None:
        return None
    try:
        return duckdb.connect(copy.path, read_only=True), copy.note()
    except duckdb.Error:
        return None
