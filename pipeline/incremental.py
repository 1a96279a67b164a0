"""Incremental audits: which input files were already audited, unchanged.

The ``files`` table (``mahjong_audit.schemas.results.FileRow``) records every input file of a run:
path, size, modification time, the SHA-256 its readers computed and the run. With
``audit --skip-audited`` the driver asks the filesystem for each input's size and
modification time (a listing, no reads) and leaves out the files whose row has the same
size and time and a content hash (a file read to its end). A file that changed, or was
touched, or whose last read failed, is audited again and its rows replaced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from mahjong_audit.pipeline.sink import FileStat


def file_stats(files: Sequence[str]) -> dict[str, FileStat]:
    """Size and modification time (naive UTC) of each file, from one filesystem listing."""
    from apache_beam.io.filesystems import FileSystems

    out = {f: FileStat(0, None) for f in files}
    if not files:
        return out
    try:
        results = FileSystems.match(list(files))
    except OSError:  # BeamIOError: a path vanished; its reader reports it
        return out
    for path, res in zip(files, results, strict=True):
        if res.metadata_list:
            m = res.metadata_list[0]
            ts = getattr(m, "last_updated_in_seconds", None)
            mtime = datetime.fromtimestamp(ts, UTC).replace(tzinfo=None) if ts else None
            out[path] = FileStat(int(m.size_in_bytes), mtime)
    return out


@dataclass(frozen=True, slots=True)
class Selection:
    """The inputs to audit and those left out as audited unchanged."""

    audit: tuple[str, ...]
    skipped: tuple[str, ...]


def unchanged(stat: FileStat, known: tuple[int, datetime | None, str | None] | None) -> bool:
    """True if a file's listing matches its ``files`` row (size, time) and it was read whole."""
    if known is None or stat.mtime is None:
        return False
    size, mtime, content_hash = known
    return content_hash is not None and size == stat.size and mtime == stat.mtime


def select(files: Sequence[str], stats: Mapping[str, FileStat],
           known: Mapping[str, tuple[int, datetime | None, str | None]]) -> Selection:
    """Split ``files`` into those to audit and those audited unchanged (``known``: path ->
    size, mtime, content_hash of the ``files`` table)."""
    audit: list[str] = []
    skipped: list[str] = []
    for f in files:
        (skipped if unchanged(stats[f], known.get(f)) else audit).append(f)
    return Selection(tuple(audit), tuple(skipped))


def known_files(con, paths: Sequence[str]) -> dict[str, tuple[int, datetime | None, str | None]]:
    """path -> (size, mtime, content_hash) of the ``files`` rows of ``paths`` (a DuckDB
    connection whose ``files`` is a table or a view)."""
    if not paths:
        return {}
    rows = con.execute("SELECT path, size, mtime, content_hash FROM files "
                       "WHERE path IN (SELECT unnest(?::VARCHAR[]))", [list(paths)]).fetchall()
    return {p: (size, mtime, h) for p, size, mtime, h in rows}


def audited_under_other_rules(con, paths: Sequence[str], profile_sha256: str) -> set[str]:
    """The ``paths`` some of whose games were audited under another house-rules profile than the
    one of this run (``profile_sha256``; "" for none): ``--skip-audited`` audits them again, so
    no verdict stands under readings the operator no longer asked for. Games of a database or
    dataset older than the ``games.profile_sha256`` column were audited without a profile."""
    if not paths:
        return set()
    have = {c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'").fetchall()}
    if not have:
        return set()
    recorded = "coalesce(profile_sha256, '')" if "profile_sha256" in have else "''"
    rows = con.execute(f"SELECT DISTINCT source_file FROM games WHERE source_file IN (SELECT unnest(?::VARCHAR[])) "
                       f"AND {recorded} <> ?", [list(paths), profile_sha256]).fetchall()
    return {p for (p,) in rows}
