"""Reading the records of a shard: lines (``mahjong_audit.pipeline.lines``) gathered into records.

Plain functions, no Beam pipeline: the ``audit`` transforms wrap them in thin DoFns and
``validate`` calls them directly. :func:`read_shard` reads one
:class:`~mahjong_audit.pipeline.inputs.Shard` (a whole file, a byte range of one, or every
n-th record of one; ``mahjong_audit.pipeline.inputs`` plans them) and gives its records:
each line of a native JSON Lines file, a native ``.json`` file's one document, or what an
importer makes of the file's lines. A record over the size limit (``--max-record-bytes``)
is never held: it is read past and rejected with its size. Every reader also reports what
it read (:class:`mahjong_audit.pipeline.splits.PartRead`: lines owned, bytes, SHA-256),
for line numbers past a split and for the ``files`` table. The records are parsed by
``mahjong_audit.pipeline.parse``.
"""

from __future__ import annotations

import codecs
import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, cast

from mahjong_audit.engine.findings import CODES
from mahjong_audit.pipeline import splits
from mahjong_audit.pipeline.gunzip import Gunzip
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, OverLimit, Record
from mahjong_audit.pipeline.importers.base import whole_document
from mahjong_audit.pipeline.inputs import READ_ERRORS, Shard, importer_for, is_document_file
from mahjong_audit.pipeline.lines import (
    MAX_RECORD_BYTES,
    STREAM_ERRORS,
    Line,
    TextOfBytes,
    bounded_paragraphs,
    filesystems,
    iter_lines,
    split_lines,
    stream_lines,
    utf8_chunks,
)

MESSAGE_CHARS = 500  # messages quoting a failure are cut to this length


@dataclass(frozen=True, slots=True)
class RawRecord(TextOfBytes):
    """One record as read from a file: ``line`` is 1-based, where the record starts."""

    source: str
    line: int
    text: str
    importer: str | None = None  # None: native mahjong-log/1
    shard_start: int = 0  # > 0: ``line`` counts from the start of a split (mahjong_audit.pipeline.splits)
    # A native JSON line's bytes as read (the same JSON as ``text`` when they are valid
    # UTF-8): the fast path decodes these, and declines bytes that are not UTF-8, which the
    # models then read from ``text``. A record made by ``of_bytes`` decodes its text only
    # when it is first asked for (a record the fast path accepts never is).
    data: bytes | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_bytes(cls, source: str, line: int, data: bytes, shard_start: int = 0) -> RawRecord:
        """The native record of one line's bytes (newline removed), its text decoded
        (:func:`~mahjong_audit.pipeline.lines.line_text`) when first read."""
        rec = _new(cls)
        _set(rec, "source", source)
        _set(rec, "line", line)
        _set(rec, "importer", None)
        _set(rec, "shard_start", shard_start)
        _set(rec, "data", data)
        return rec


_new = object.__new__
_set = object.__setattr__  # a frozen class's own __setattr__ refuses


@dataclass(frozen=True, slots=True)
class Rejection:
    """A record that could not be audited; ``code`` is an ``invalid_log/*`` finding code."""

    source: str
    line: int | None
    code: str
    message: str
    game_id: str | None = None
    ruleset: str | None = None
    shard_start: int = 0  # see RawRecord

    def __post_init__(self) -> None:
        if self.code not in CODES or not self.code.startswith("invalid_log/"):
            raise ValueError(f"not an invalid_log code: {self.code!r}")

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        gid = f" [{self.game_id}]" if self.game_id else ""
        return f"{where}: {self.code}{gid}: {self.message}"


def short(text: str, n: int = MESSAGE_CHARS) -> str:
    """``text`` cut to ``n`` characters (an exception may quote a whole record)."""
    return text if len(text) <= n else text[:n] + f"… ({len(text):,} characters)"


# --------------------------------------------------------------------------- records of lines


def _oversize(source: str, line: int | None, size: int, limit: int, shard_start: int = 0) -> Rejection:
    return Rejection(source, line, "invalid_log/json",
                     f"record of {size:,} bytes is over the size limit of {limit:,} bytes "
                     "(--max-record-bytes); not read", shard_start=shard_start)


def _json_lines_records(path: str, lines: Iterable[Line], limit: int,
                        shard_start: int = 0) -> Iterator[RawRecord | Rejection]:
    """The records of a native JSON Lines file: one a non-blank line, each with its bytes
    (``RawRecord.data``); a line read past is a Rejection stating its size."""
    for line in lines:
        if line.unread is not None:
            yield _oversize(path, line.number, line.size, limit, shard_start)
        elif not line.blank:
            yield RawRecord.of_bytes(path, line.number, line.data, shard_start) if line.data is not None else \
                RawRecord(path, line.number, line.text, None, shard_start)  # type: ignore[arg-type]  # not unread


def _native_document(path: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
    doc = whole_document(path, lines)
    if doc is not None:
        yield doc


def _records_of(path: str, importer: str | None, lines: Iterable[Line],
                limit: int) -> Iterator[RawRecord | Rejection]:
    """The records of a file of records of several lines: a native document
    (``importer`` None) or an importer's; one over the size limit is a Rejection stating
    its size."""
    bounded = bounded_paragraphs(lines, limit)
    records = _native_document(path, bounded) if importer is None else IMPORTERS[importer].records(path, bounded)
    for rec in records:
        if isinstance(rec, OverLimit):
            yield _oversize(rec.source, rec.line, rec.size, limit)
            continue
        # a record of several paragraphs, each under the limit
        size = len(rec.text.encode("utf-8", "surrogatepass")) if len(rec.text) > limit else 0
        yield RawRecord(rec.source, rec.line, rec.text, importer) if size <= limit else \
            _oversize(rec.source, rec.line, size, limit)


def _records(path: str, importer: str | None, lines: Iterable[Line], limit: int) -> Iterator[RawRecord | Rejection]:
    if importer is None and not is_document_file(path):
        return _json_lines_records(path, lines, limit)
    return _records_of(path, importer, lines, limit)


def read_body(source: str, data: bytes, importer: str | None = None, document: bool = False,
              limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection]:
    """The records of bytes held in memory (a request body of ``mahjong-audit serve``),
    named ``source``: what :func:`read_records` gives for a file of these bytes, read as
    JSON Lines, as one document (``document``, like a ``.json`` file) or by ``importer``."""
    lines = split_lines(utf8_chunks(iter((data,))), limit)
    if importer is None and not document:
        return _json_lines_records(source, lines, limit)
    return _records_of(source, importer, lines, limit)


def read_records(path: str, importer: str | None = None,
                 limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection]:
    """Stream the records of one file. ``importer`` must already be resolved (see
    :func:`~mahjong_audit.pipeline.inputs.importer_for`)."""
    yield from _records(path, importer, iter_lines(path, limit), limit)


# --------------------------------------------------------------------------- shards


@contextlib.contextmanager
def _open_hashed(path: str) -> Iterator[tuple[BinaryIO, splits.HashingReader]]:
    """Like :func:`~mahjong_audit.pipeline.lines.open_stream`, and the hashing stream under
    it (the bytes as stored)."""
    from apache_beam.io.filesystem import CompressedFile, CompressionTypes

    fs = filesystems()
    kind = CompressionTypes.detect_compression_type(path)
    with fs.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as raw:
        h = splits.HashingReader(raw)
        if path.lower().endswith(".gz"):
            with Gunzip(cast(BinaryIO, h), h.rewinder()) as f:
                yield cast(BinaryIO, f), h
        elif kind == CompressionTypes.UNCOMPRESSED:
            yield cast(BinaryIO, h), h
        else:
            yield cast(BinaryIO, CompressedFile(cast(BinaryIO, h), kind)), h


def _broken_at(lines: int) -> str:
    """Where a stream broke, after ``lines`` complete lines."""
    before = {0: "nothing before it", 1: "the line before it is read"}.get(lines, f"the {lines} lines before it are read")
    return f"from line {lines + 1} on (the stream breaks there; {before})"


def _read_whole(path: str, chosen_importer: str | None,
                limit: int) -> Iterator[RawRecord | Rejection | splits.PartRead]:
    line, h, lines, complete = None, None, 0, False
    imp: str | None = None
    try:
        imp = importer_for(path, chosen_importer)
        with _open_hashed(path) as (f, h):
            def counted(f=f):
                nonlocal lines
                for one in stream_lines(f, limit):
                    lines += 1
                    yield one
            for rec in _records(path, imp, counted(), limit):
                line = rec.line
                yield rec
            h.drain()
            complete = True
    except STREAM_ERRORS as e:
        yield Rejection(path, None, "invalid_log/json", f"file unreadable {_broken_at(lines)}: {short(str(e))}")
    except ImportFailure as e:
        after = f" after line {line}" if line else ""
        yield Rejection(path, None, "invalid_log/json", f"file unreadable{after}: {short(str(e))}")
    except Exception as e:  # noqa: BLE001  an importer's splitter failed: the rest of the file is lost, said so
        after = f" after line {line}" if line else ""
        code = "invalid_log/import" if imp is not None else "invalid_log/json"
        yield Rejection(path, None, code,
                        f"file not read to the end{after}: {type(e).__name__}: {short(str(e))}")
    yield splits.PartRead(path, 0, lines, h.bytes_read if h else 0,
                          h.hexdigest() if h is not None and complete else None)


def _without_bom(lines: Iterable[Line]) -> Iterator[Line]:
    """The lines of a byte range from the file's start, a UTF-8 byte order mark dropped
    from the first (a whole read drops it from the bytes)."""
    for one in lines:
        if one.number == 1 and one.text is not None and one.text.startswith("\ufeff"):
            data = one.data[len(codecs.BOM_UTF8):] if one.data is not None else None
            one = Line(one.number, one.size, one.text[1:], data=data)
        yield one


def _read_split(shard: Shard, limit: int) -> Iterator[RawRecord | Rejection | splits.PartRead]:
    """The records of a byte range; a line over ``limit`` is read past and rejected."""
    reader = splits.RangeReader(shard.path, shard.start, shard.end, limit)
    try:
        lines = _without_bom(reader) if shard.start == 0 else iter(reader)
        yield from _json_lines_records(shard.path, lines, limit, shard.start)
    except READ_ERRORS as e:
        end = "end" if shard.end is None else shard.end
        yield Rejection(shard.path, None, "invalid_log/json",
                        f"file unreadable in bytes {shard.start}-{end}: {short(str(e))}")
    yield reader.part()


def _read_strided(shard: Shard, chosen_importer: str | None,
                  limit: int) -> Iterator[RawRecord | Rejection | splits.PartRead]:
    """Every ``count``-th record of the whole file from the ``index``-th on (a rejected
    record counts as one). What concerns the file, not a record (its PartRead, a file that
    cannot be read to the end), comes from shard 0 alone, so the shards together give what
    one whole read gives."""
    ordinal = 0
    for item in _read_whole(shard.path, chosen_importer, limit):
        if isinstance(item, splits.PartRead) or (isinstance(item, Rejection) and item.line is None):
            if shard.index == 0:
                yield item
            continue
        if ordinal % shard.count == shard.index:
            yield item
        ordinal += 1


def read_shard(shard: Shard, chosen_importer: str | None = None,
               limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection | splits.PartRead]:
    """Records of one shard of a file, then (but for strided shards other than the first)
    one :class:`mahjong_audit.pipeline.splits.PartRead` saying what the shard read. An unreadable file
    (I/O, corrupt gzip) ends in a Rejection before it. A split shard's lines count from the
    split's start (``shard_start``). Whole, split or strided, no record longer than
    ``limit`` bytes is held: it is read past and rejected with its size."""
    if shard.stride:
        return _read_strided(shard, chosen_importer, limit)
    if shard.split:
        return _read_split(shard, limit)
    return _read_whole(shard.path, chosen_importer, limit)


def read_file(path: str, chosen_importer: str | None = None,
              limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection]:
    """Records of one file; an unreadable file (I/O, corrupt gzip) ends in a Rejection."""
    return (r for r in read_shard(Shard(path), chosen_importer, limit) if not isinstance(r, splits.PartRead))
