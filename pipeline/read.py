"""Reading game logs: input expansion, streaming records out of files, parsing them.

Plain functions, no Beam pipeline: the ``audit`` transforms wrap them in thin DoFns and
``validate`` calls them directly. Files are opened through
``apache_beam.io.filesystems.FileSystems`` (local paths, gs://, s3:// where the extras
are installed; ``.gz`` is decompressed by extension, with Python's own gzip reader, which
is several times faster than Beam's line reader) and read line by line, so a big
``.jsonl.gz`` is never held in memory.

A big uncompressed JSON Lines file is read as several :class:`Shard` s, byte ranges that
each own the lines beginning inside them (``mahjong_audit.pipeline.splits``), so the shards of one file
run on different workers and together read the file about once. A big file that cannot
be cut in byte ranges (compressed, or in an importer's format) is read by several
*strided* shards instead: each reads the whole file and keeps every n-th record, so the
parsing and the replay, which cost ten times the reading, are spread over the workers.
Whole-document files are read whole by one shard. :func:`plan_shards` decides from the
file sizes and the parallelism wanted.
Every reader also reports what it read (:class:`mahjong_audit.pipeline.splits.PartRead`: lines owned,
bytes, SHA-256), for line numbers past a split and for the ``files`` table.

A file name ending in ``.json`` (before ``.gz``) holds one game document, possibly
pretty-printed; any other native file holds one game per line (JSON Lines). With an
importer (``--from NAME`` or detected from the file's first characters) the importer
splits the file into records and converts each.
"""

from __future__ import annotations

import codecs
import contextlib
import gzip
import itertools
import json
import math
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO, cast

from pydantic import ValidationError

from mahjong_audit.engine.findings import CODES
from mahjong_audit.pipeline import splits
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.base import whole_document
from mahjong_audit.schemas.log import Game, describe_errors
from mahjong_audit.schemas.log_fast import parse_game_json

if TYPE_CHECKING:
    from mahjong_audit.schemas.log_fast import Game as FastGame

NATIVE_SUFFIXES = (".json", ".jsonl", ".ndjson")
# Not logs, though they end like one: fault labels written by `simulate --labels`.
# Skipped in directories and globs; a file named explicitly is still read.
SKIPPED_SUFFIXES = (".labels.jsonl",)
HEAD_CHARS = 256 * 1024  # importers sniff this much; a Botzone match names its initdata near the end
# Sharding: an uncompressed JSON Lines file is split into byte ranges only if it holds at
# least this much; a .gz file (never split) is taken to hold this many times its size when
# sharing out the parallelism.
MIN_SPLIT_BYTES = 1 << 20
GZ_RATIO = 8
_GLOB_CHARS = frozenset("*?[")
# Records: the default size limit (--max-record-bytes; a real game log is under 1 MB),
# the read size, and the stand-in for a line or record over the limit (see iter_lines).
MAX_RECORD_BYTES = 64 << 20
CHUNK_BYTES = 1 << 20
OVERSIZE = "\x00mahjong-audit: over the size limit, bytes: "
FILLER = "\x00"
MESSAGE_CHARS = 500  # messages quoting a failure are cut to this length


class InputError(OSError):
    """An input that names nothing readable (missing file, empty glob, unknown importer)."""


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record as read from a file: ``line`` is 1-based, where the record starts."""

    source: str
    line: int
    text: str
    importer: str | None = None  # None: native mahjong-log/1
    shard_start: int = 0  # > 0: ``line`` counts from the start of a split (mahjong_audit.pipeline.splits)
    # A native JSON line's bytes as read, when they are valid UTF-8 (the same JSON as
    # ``text``): the fast path decodes these rather than encoding ``text`` again.
    data: bytes | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``count`` of one file: the lines beginning in bytes
    ``[start, end)`` (``end`` None: to the end), or with ``stride`` every ``count``-th record
    of the whole file from the ``index``-th on. One shard of one: the whole file."""

    path: str
    index: int = 0
    count: int = 1
    start: int = 0
    end: int | None = None
    stride: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"shard {self.index} of {self.count}")
        if self.start < 0 or (self.end is not None and self.end < self.start):
            raise ValueError(f"bad byte range [{self.start}, {self.end})")
        if self.stride and (self.start, self.end) != (0, None):
            raise ValueError("a strided shard reads the whole file: no byte range")
        if self.count > 1 and not self.stride and (self.index + 1 < self.count) == (self.end is None):
            raise ValueError(f"shard {self.index} of {self.count} needs a byte range (see plan_shards)")

    @property
    def split(self) -> bool:
        """True: a byte range of a file read by several shards."""
        return self.count > 1 and not self.stride


@dataclass(frozen=True, slots=True)
class ParsedGame:
    """A record that parsed and validated. ``index`` orders games of one record."""

    source: str
    line: int
    index: int
    game: Game | FastGame  # FastGame from the fast path (the audit), Game from the models
    shard_start: int = 0  # see RawRecord

    @property
    def position(self) -> tuple[str, int, int]:
        return (self.source, self.line, self.index)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


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


# --------------------------------------------------------------------------- inputs


def _filesystems():  # imported lazily: keeps `validate`/`schema` start-up light
    from mahjong_audit.pipeline.runner import quiet_import

    with quiet_import():
        import apache_beam  # noqa: F401  (its import-time warnings stay off the terminal)
        from apache_beam.io.filesystems import FileSystems
    return FileSystems


def _is_url(path: str) -> bool:
    return "://" in path


def _normalise(path: str) -> str:
    """Local paths become absolute (the same file always has the same source name)."""
    return path if _is_url(path) else os.path.abspath(path)


def readable_suffixes() -> tuple[str, ...]:
    """File name endings picked from directories and globs (each also with ``.gz``)."""
    sfx = set(NATIVE_SUFFIXES)
    for imp in IMPORTERS.values():
        sfx.update(imp.suffixes)
    return tuple(sorted(sfx))


def _wanted(path: str, suffixes: Sequence[str]) -> bool:
    name = path.lower().removesuffix(".gz")
    return name.endswith(tuple(suffixes)) and not name.endswith(SKIPPED_SUFFIXES)


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the inputs name: the files to read, and the files directories and globs held
    that were left out (``skipped``: no format recognised them, or fault labels)."""

    files: tuple[str, ...]
    skipped: tuple[str, ...] = ()


def recognised(path: str) -> bool:
    """True for a file a directory walk takes by its content though its name does not say
    (a Botzone judge log ``.log``, a dataset ``.txt``): an importer recognises its first
    characters, or its first line is a native ``mahjong-log/1`` game."""
    try:
        head = read_head(path)
    except (*_READ_ERRORS, ValueError):  # unreadable, or a compression it cannot undo: not taken, said skipped
        return False
    first = head.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return detect(path, head) is not None or (first.startswith("{") and '"mahjong-log/1"' in first)


def walk_inputs(inputs: Iterable[str], suffixes: Sequence[str] | None = None) -> Inputs:
    """Files named by ``inputs`` (files, globs, directories), sorted and without repeats,
    and what the directories and globs held that is not read.

    Directories are searched recursively and globs filtered: a file is taken when its name
    ends in a readable suffix, or else when its content is recognised (:func:`recognised`);
    a file named explicitly is always taken. Raises :class:`InputError` if an input matches
    nothing readable.
    """
    fs = _filesystems()
    suffixes = tuple(suffixes) if suffixes is not None else readable_suffixes()
    found: set[str] = set()
    skipped: set[str] = set()
    for raw in inputs:
        path = _normalise(raw)
        is_dir = os.path.isdir(path) if not _is_url(path) else (path.endswith("/") or not fs.exists(path))
        if is_dir or any(c in _GLOB_CHARS for c in path):
            pattern = fs.join(path.rstrip("/"), "**") if is_dir else path
            metas = fs.match([pattern])[0].metadata_list
            files: list[str] = []
            left: list[str] = []
            for m in metas:
                if not _is_url(m.path) and os.path.isdir(m.path):
                    continue
                name = m.path.lower().removesuffix(".gz")
                take = _wanted(m.path, suffixes) or (not name.endswith(SKIPPED_SUFFIXES) and recognised(m.path))
                (files if take else left).append(m.path)
            if not files:
                what = "no such file or folder" if _is_url(path) and not metas else \
                    f"no {'/'.join(suffixes)} files found, and no file whose content is a known format"
                raise InputError(f"{raw}: {what}")
            found.update(_normalise(f) for f in files)
            skipped.update(_normalise(f) for f in left)
        elif fs.exists(path):
            found.add(path)
        else:
            raise InputError(f"{raw}: no such file")
    return Inputs(tuple(sorted(found)), tuple(sorted(skipped - found)))


def expand_inputs(inputs: Iterable[str], suffixes: Sequence[str] | None = None) -> tuple[str, ...]:
    """The files of :func:`walk_inputs` (what is skipped is not said: callers that report
    to an operator use :func:`walk_inputs` and :func:`describe_skipped`)."""
    return walk_inputs(inputs, suffixes).files


def _kind(path: str) -> str:
    name = os.path.basename(path.rstrip("/")).lower()
    for sfx in SKIPPED_SUFFIXES:
        if name.removesuffix(".gz").endswith(sfx):
            return sfx
    _, ext = os.path.splitext(name.removesuffix(".gz"))
    return (ext or "no extension") + (".gz" if name.endswith(".gz") else "")


def describe_skipped(skipped: Sequence[str]) -> str | None:
    """One line for an operator: how many files a walk left out and of which kinds, e.g.
    ``skipped: 3 files of an unknown type (.md 2, .txt 1); name a file to read it anyway
    (--from NAME for a platform format)``; None when nothing was skipped."""
    if not skipped:
        return None
    kinds: dict[str, int] = {}
    for path in skipped:
        kinds[_kind(path)] = kinds.get(_kind(path), 0) + 1
    labels = kinds.pop(SKIPPED_SUFFIXES[0], 0)
    parts = []
    if kinds:
        n = sum(kinds.values())
        listed = ", ".join(f"{k} {v}" if len(kinds) > 1 or v > 1 else k for k, v in sorted(kinds.items()))
        parts.append(f"{n} file{'s' if n != 1 else ''} of an unknown type ({listed}); name a file to read it "
                     "anyway (--from NAME for a platform format)")
    if labels:
        parts.append(f"{labels} fault label file{'s' if labels != 1 else ''} ({SKIPPED_SUFFIXES[0]}, written by "
                     "simulate --labels)")
    return "skipped: " + "; ".join(parts)


def walk_report(walk: Inputs, chosen: str | None) -> list[str]:
    """The lines ``import`` and ``validate`` print after their count: each file's format
    notes (``note: FILE: …``), then what the walk skipped."""
    lines = [f"note: {path}: {note}" for path, note in format_notes(walk.files, chosen)]
    skipped = describe_skipped(walk.skipped)
    return lines + ([skipped] if skipped else [])


def format_notes(files: Sequence[str], chosen: str | None) -> tuple[tuple[str, str], ...]:
    """(file, note) for what each file's format cannot tell the audit (an importer's
    :meth:`~mahjong_audit.pipeline.importers.base.Importer.notes`: a Botzone judge log has no wall, …),
    to say once per file in the run's log. Native JSON Lines files are not opened; a file
    that cannot be read gives no note (its reader reports it)."""
    out: list[tuple[str, str]] = []
    for path in files:
        if path.lower().removesuffix(".gz").endswith((".jsonl", ".ndjson")):
            continue
        try:
            head = read_head(path)
            imp = chosen if chosen is not None else detect(path, head)
        except _READ_ERRORS:
            continue
        if imp is not None and imp in IMPORTERS:
            out.extend((path, note) for note in IMPORTERS[imp].notes(path, head))
    return tuple(out)


def file_sizes(files: Sequence[str]) -> dict[str, int]:
    """Size in bytes of each file (0 where the filesystem cannot tell)."""
    from mahjong_audit.pipeline.incremental import file_stats  # one listing code for both

    return {path: stat.size for path, stat in file_stats(files).items()}


def _text_bytes(path: str, size: int) -> int:
    return size * GZ_RATIO if path.lower().endswith(".gz") else size


def splittable(path: str, importer: str | None) -> bool:
    """True for a file that may be read in byte ranges: native JSON Lines, uncompressed."""
    from apache_beam.io.filesystem import CompressionTypes

    return (importer is None and not is_document_file(path)
            and CompressionTypes.detect_compression_type(path) == CompressionTypes.UNCOMPRESSED)


def plan_shards(files: Sequence[str], parallelism: int,
                sizes: Mapping[str, int] | None = None,
                importers: Mapping[str, str | None] | None = None) -> tuple[Shard, ...]:
    """The shards to read ``files`` in, about ``parallelism`` at a time.

    A file of at least MIN_SPLIT_BYTES of text gets ``ceil(parallelism * its share of all
    the text)`` shards, at most ``parallelism``: one big file is spread across every worker,
    many files are spread over the workers whole. A splittable file (:func:`splittable`)
    is cut in byte ranges; any other but a whole-document file gets strided shards (each
    reads the whole file and keeps every n-th record). ``importers`` maps a file to its
    importer (None: native), see :func:`importers_for_splitting`; a file missing from it is
    not cut in byte ranges. Without ``importers`` every file is taken as native.
    """
    if parallelism < 1:
        raise ValueError("parallelism must be at least 1")
    _filesystems()
    sizes = file_sizes(files) if sizes is None else sizes
    kinds = importers if importers is not None else dict.fromkeys(files)
    text = {f: _text_bytes(f, sizes.get(f, 0)) for f in files}
    total = sum(text.values())
    shards: list[Shard] = []
    for f in files:
        n = 1
        if total and text[f] >= MIN_SPLIT_BYTES and not is_document_file(f):
            n = max(1, min(parallelism, math.ceil(text[f] * parallelism / total)))
        if n == 1:
            shards.append(Shard(f))
        elif f in kinds and splittable(f, kinds[f]):
            shards += [Shard(f, k, n, start, end) for k, (start, end) in enumerate(splits.split_points(sizes[f], n))]
        else:
            shards += [Shard(f, k, n, stride=True) for k in range(n)]
    return tuple(shards)


# --------------------------------------------------------------------------- reading


@contextlib.contextmanager
def _open(path: str) -> Iterator:
    """A binary stream of the file's content (``.gz`` decompressed, other codecs by Beam)."""
    fs = _filesystems()
    if not path.lower().endswith(".gz"):
        with fs.open(path) as f:  # CompressionTypes.AUTO
            yield f
        return
    from apache_beam.io.filesystem import CompressionTypes

    with fs.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as raw, \
            gzip.GzipFile(fileobj=raw, mode="rb") as f:
        yield f


def _utf8_chunks(raw_chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The chunks of a stream as UTF-8: a UTF-8 byte order mark is dropped, UTF-16 (with
    a byte order mark, or recognised by its zero bytes around ASCII) is transcoded."""
    first = next(raw_chunks, b"")
    while len(first) < 4:  # enough bytes to recognise the encoding
        more = next(raw_chunks, b"")
        if not more:
            break
        first += more
    encoding = _encoding_of(first)
    if encoding is None:
        yield first.removeprefix(b"\xef\xbb\xbf")
        yield from raw_chunks
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    for chunk in itertools.chain((first,), raw_chunks):
        yield decoder.decode(chunk).removeprefix("\ufeff").encode("utf-8", "surrogatepass")
    yield decoder.decode(b"", final=True).encode("utf-8", "surrogatepass")


def _encoding_of(head: bytes) -> str | None:
    """``utf-16`` (BOM), ``utf-16-le``/``-be`` (ASCII text with zero bytes between), or
    None for UTF-8."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not head.startswith(codecs.BOM_UTF32_LE):
        return "utf-16"
    if len(head) >= 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == 0 and head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return None


def _raw_chunks(f) -> Iterator[bytes]:
    """The stream's bytes in chunks of at most CHUNK_BYTES. A gzip stream is read with
    ``read1``, which hands over what it decompressed before the stream breaks: ``read``
    would drop up to a whole chunk of complete lines before a truncation."""
    read = f.read1 if isinstance(f, gzip.GzipFile) else f.read
    while chunk := read(CHUNK_BYTES):
        yield chunk


def split_lines(chunks: Iterable[bytes], limit: int) -> Iterator[tuple[int, bytes | None]]:
    """(size, line) for each line of a byte stream, newline removed; a line longer than
    ``limit`` bytes comes as (size, None), and is never held in memory whole."""
    parts: list[bytes] = []  # the current line's text so far
    held = 0  # its length; -1 once it is over the limit (then only ``size`` counts)
    size = 0
    for chunk in chunks:
        start = 0
        while (i := chunk.find(b"\n", start)) >= 0:
            size += i - start
            if held >= 0 and size <= limit:
                parts.append(chunk[start:i])
                yield size, b"".join(parts)
            else:
                yield size, None
            parts, held, size = [], 0, 0
            start = i + 1
        rest = len(chunk) - start
        size += rest
        if held >= 0 and size <= limit:
            if rest:
                parts.append(chunk[start:])
            held = size
        else:
            parts, held = [], -1
    if size or parts:
        yield (size, b"".join(parts)) if held >= 0 else (size, None)


def oversize_line(size: int) -> str:
    """The stand-in for a line or record over the size limit (it carries the size)."""
    return f"{OVERSIZE}{size}\x00"


def oversize_of(text: str) -> int | None:
    """The size a record over the limit had, if ``text`` holds a stand-in (else None)."""
    i = text.find(OVERSIZE)
    if i < 0:
        return None
    digits = text[i + len(OVERSIZE):].split("\x00", 1)[0]
    return int(digits) if digits.isdigit() else None


@contextlib.contextmanager
def _open_hashed(path: str) -> Iterator[tuple[object, splits.HashingReader]]:
    """Like :func:`_open`, and the hashing stream under it (the bytes as stored)."""
    from apache_beam.io.filesystem import CompressedFile, CompressionTypes

    fs = _filesystems()
    kind = CompressionTypes.detect_compression_type(path)
    with fs.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as raw:
        h = splits.HashingReader(raw)
        if path.lower().endswith(".gz"):
            with gzip.GzipFile(fileobj=cast(BinaryIO, h), mode="rb") as f:
                yield f, h
        elif kind == CompressionTypes.UNCOMPRESSED:
            yield h, h
        else:
            yield CompressedFile(cast(BinaryIO, h), kind), h


def line_text(raw: bytes) -> str:
    """One line's bytes (newline removed) as text: a carriage return dropped, undecodable
    bytes as U+FFFD. Whole-file and split reads decode lines alike."""
    return raw.decode("utf-8", errors="replace").removesuffix("\r")


def line_text_and_data(raw: bytes) -> tuple[str, bytes | None]:
    """:func:`line_text` of ``raw``, and ``raw`` itself if it is valid UTF-8 (then the two
    hold the same JSON: a carriage return at the end is white space to JSON)."""
    try:
        return raw.decode("utf-8").removesuffix("\r"), raw
    except UnicodeDecodeError:
        return line_text(raw), None


def _byte_lines(f, limit: int) -> Iterator[tuple[int, bytes | None]]:
    """(size, bytes) of each line of an open binary stream, read in chunks (see :func:`split_lines`)."""
    return split_lines(_utf8_chunks(_raw_chunks(f)), limit)


def _line_text(size: int, raw: bytes | None) -> str:
    return oversize_line(size) if raw is None else line_text(raw)


def _text_lines(f, limit: int) -> Iterator[str]:
    """The text lines of an open binary stream, read in chunks (see :func:`iter_lines`)."""
    for size, raw in _byte_lines(f, limit):
        yield _line_text(size, raw)


def iter_lines(path: str, limit: int = MAX_RECORD_BYTES) -> Iterator[str]:
    """The text lines of a file, newline stripped, streamed (``.gz`` decompressed).

    Undecodable bytes become U+FFFD, so the record fails JSON/schema parsing and is
    reported with its line instead of stopping the file. UTF-16 files are decoded. A line
    longer than ``limit`` bytes is read past, never held, and comes as its stand-in
    (:func:`oversize_line`).
    """
    with _open(path) as f:
        yield from _text_lines(f, limit)


def bounded_paragraphs(lines: Iterable[str], limit: int) -> Iterator[str]:
    """Lines, where a run of non-blank lines (a paragraph: one multi-line record) longer
    than ``limit`` bytes in all is cut short: its lines from the one that crosses the
    limit on are read past and replaced by one stand-in with the paragraph's size and
    filler lines, so line numbers stay right and at most ``limit`` bytes are held."""
    size = 0  # bytes of the current paragraph so far
    over = 0  # lines read past in the current paragraph
    for line in lines:
        if not line.strip():
            if over:
                yield oversize_line(size)
                yield from itertools.repeat(FILLER, over - 1)
            size = over = 0
            yield line
            continue
        n = oversize_of(line) if line.startswith(OVERSIZE) else None
        size += n if n is not None else len(line) + 1
        if over or size > limit:
            over += 1
        else:
            yield line
    if over:
        yield oversize_line(size)
        yield from itertools.repeat(FILLER, over - 1)


def read_head(path: str, n: int = HEAD_CHARS) -> str:
    with _open(path) as f:
        head = b""
        for chunk in _utf8_chunks(_raw_chunks(f)):
            head += chunk
            if len(head) >= n:
                break
    return head[:n].decode("utf-8", errors="replace")


def importer_for(path: str, chosen: str | None) -> str | None:
    """The importer for a file: ``chosen`` (``--from``) or the detected one; None = native."""
    if chosen is not None:
        if chosen not in IMPORTERS:
            known = ", ".join(sorted(IMPORTERS)) or "none"
            raise InputError(f"unknown importer {chosen!r} (known: {known})")
        return chosen
    return detect(path, read_head(path))


def is_document_file(path: str) -> bool:
    return path.lower().removesuffix(".gz").endswith(".json")


def _native_records(path: str, lines: Iterable[str], document: bool | None = None) -> Iterator[RawRecord]:
    if is_document_file(path) if document is None else document:
        doc = whole_document(lines)
        if doc is not None:
            yield RawRecord(path, *doc)
        return
    for no, line in enumerate(lines, 1):
        if line.strip():
            yield RawRecord(path, no, line)


def _oversize(source: str, line: int | None, size: int, limit: int, shard_start: int = 0) -> Rejection:
    return Rejection(source, line, "invalid_log/json",
                     f"record of {size:,} bytes is over the size limit of {limit:,} bytes "
                     "(--max-record-bytes); not read", shard_start=shard_start)


def _size_over(text: str, limit: int) -> int | None:
    """The size of a record over the limit (a stand-in's, or the text's own), else None."""
    size = oversize_of(text) if OVERSIZE in text else None
    if size is None and len(text) > limit:  # a record of several paragraphs
        size = len(text.encode("utf-8", "surrogatepass"))
    return size if size is not None and size > limit else None


def _records_of(path: str, importer: str | None, lines: Iterable[str],
                limit: int, document: bool | None = None) -> Iterator[RawRecord | Rejection]:
    """The records in a file's lines; one over the size limit is a Rejection stating its size.
    ``document``: whether native lines are one document (None: as the file's name says)."""
    if document is None:
        document = is_document_file(path)
    if importer is not None or document:
        lines = bounded_paragraphs(lines, limit)
    records: Iterable[RawRecord] = (
        _native_records(path, lines, document) if importer is None else
        (RawRecord(rec.source, rec.line, rec.text, importer)
         for rec in IMPORTERS[importer].records(path, lines)))
    for rec in records:
        size = _size_over(rec.text, limit)
        yield rec if size is None else _oversize(rec.source, rec.line, size, limit)


def _json_lines_records(path: str, lines: Iterable[tuple[int, bytes | None]],
                        limit: int) -> Iterator[RawRecord | Rejection]:
    """:func:`_records_of` for a native JSON Lines file, from its lines' bytes: the same
    records and rejections, each record with its bytes (``RawRecord.data``)."""
    for no, (size, raw) in enumerate(lines, 1):
        if raw is None:
            yield _oversize(path, no, size, limit)
            continue
        text, data = line_text_and_data(raw)
        if not text.strip():
            continue
        over = _size_over(text, limit)
        yield RawRecord(path, no, text, data=data) if over is None else _oversize(path, no, over, limit)


def _all_records(path: str, importer: str | None, limit: int) -> Iterator[RawRecord | Rejection]:
    if importer is None and not is_document_file(path):
        with _open(path) as f:
            yield from _json_lines_records(path, _byte_lines(f, limit), limit)
        return
    yield from _records_of(path, importer, iter_lines(path, limit), limit)


def read_body(source: str, data: bytes, importer: str | None = None, document: bool = False,
              limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection]:
    """The records of bytes held in memory (a request body of ``mahjong-audit serve``),
    named ``source``: what :func:`read_records` gives for a file of these bytes, read as
    JSON Lines, as one document (``document``, like a ``.json`` file) or by ``importer``."""
    lines = split_lines(_utf8_chunks(iter((data,))), limit)
    if importer is None and not document:
        return _json_lines_records(source, lines, limit)
    return _records_of(source, importer, (_line_text(size, raw) for size, raw in lines), limit, document)


def read_records(path: str, importer: str | None = None,
                 limit: int = MAX_RECORD_BYTES) -> Iterator[RawRecord | Rejection]:
    """Stream the records of one file. ``importer`` must already be resolved (see importer_for)."""
    return _all_records(path, importer, limit)


_STREAM_ERRORS = (OSError, EOFError, zlib.error)  # the bytes stop: I/O, a truncated or corrupt .gz
_READ_ERRORS = (*_STREAM_ERRORS, ImportFailure)


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
                for size, raw in _byte_lines(f, limit):
                    lines += 1
                    yield size, raw
            records = (_json_lines_records(path, counted(), limit) if imp is None and not is_document_file(path)
                       else _records_of(path, imp, (_line_text(size, raw) for size, raw in counted()), limit))
            for rec in records:
                line = rec.line
                yield rec
            h.drain()
            complete = True
    except _STREAM_ERRORS as e:
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


def _read_split(shard: Shard, limit: int) -> Iterator[RawRecord | Rejection | splits.PartRead]:
    """The records of a byte range; a line over ``limit`` is read past and rejected."""
    reader = splits.RangeReader(shard.path, shard.start, shard.end, limit)
    try:
        for no, size, raw in reader:
            if raw is None:
                yield _oversize(shard.path, no, size, limit, shard.start)
                continue
            text, data = line_text_and_data(raw)
            if no == 1 and shard.start == 0 and text.startswith("\ufeff"):
                text, data = text[1:], data[len(codecs.BOM_UTF8):] if data is not None else None
            if text.strip():
                yield RawRecord(shard.path, no, text, None, shard.start, data)
    except _READ_ERRORS as e:
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


def _utf16(path: str) -> bool:
    """True for a file whose first bytes say UTF-16 (its newlines are two bytes)."""
    with _open(path) as f:
        return _encoding_of(f.read(4)) is not None


def importers_for_splitting(files: Sequence[str], sizes: Mapping[str, int],
                            chosen: str | None) -> dict[str, str | None]:
    """The importer of each file big enough to be split (others are read whole anyway);
    a file whose head cannot be read, or a UTF-16 file, is left out (read whole; a read
    error is reported by its reader)."""
    out: dict[str, str | None] = {}
    for f in files:
        if sizes.get(f, 0) >= MIN_SPLIT_BYTES and not is_document_file(f):
            try:
                if _utf16(f):
                    continue
                out[f] = importer_for(f, chosen)
            except Exception:  # noqa: BLE001  unreadable, or detection failed: read whole, reported there
                continue
    return out


# --------------------------------------------------------------------------- parsing


def short(text: str, n: int = MESSAGE_CHARS) -> str:
    """``text`` cut to ``n`` characters (an exception may quote a whole record)."""
    return text if len(text) <= n else text[:n] + f"… ({len(text):,} characters)"


def _peek_ids(text: str) -> tuple[str | None, str | None]:
    """game_id and ruleset of a record that failed validation, if it is a JSON object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    gid, rs = data.get("game_id"), data.get("ruleset")
    return (gid if isinstance(gid, str) else None, rs if isinstance(rs, str) else None)


def _json_rejection(rec: RawRecord) -> Rejection:
    try:
        json.loads(rec.text)
    except json.JSONDecodeError as e:
        where = f"column {e.colno}" if "\n" not in rec.text else f"line {e.lineno}, column {e.colno} of the document"
        return Rejection(rec.source, rec.line + e.lineno - 1, "invalid_log/json",
                         f"not valid JSON: {e.msg} ({where})")
    except RecursionError:
        return _too_deep(rec)
    return Rejection(rec.source, rec.line, "invalid_log/json", "not valid JSON")


def _too_deep(rec: RawRecord) -> Rejection:
    return Rejection(rec.source, rec.line, "invalid_log/json",
                     "not readable JSON: arrays or objects nested too deeply")


def validate_dict(data: object, source: str, line: int, index: int = 0) -> ParsedGame | Rejection:
    try:
        return ParsedGame(source, line, index, Game.model_validate(data))
    except ValidationError as e:
        gid = data.get("game_id") if isinstance(data, dict) else None
        rs = data.get("ruleset") if isinstance(data, dict) else None
        return Rejection(source, line, "invalid_log/schema", describe_errors(e),
                         gid if isinstance(gid, str) else None, rs if isinstance(rs, str) else None)


def parse_native(rec: RawRecord, fast: bool = False) -> ParsedGame | Rejection:
    """One native record. ``fast``: validate on the fast path first (``mahjong_audit.schemas.log_fast``:
    frozen msgspec Structs, what the audit reads; from the line's bytes when the reader kept
    them); the models check whatever it does not accept."""
    if fast:
        game = parse_game_json(rec.data if rec.data is not None else rec.text)
        if game is not None:
            return ParsedGame(rec.source, rec.line, 0, game)
    try:
        return ParsedGame(rec.source, rec.line, 0, Game.model_validate_json(rec.text))
    except ValidationError as e:
        errors = e.errors()
        if any(err["type"] == "json_invalid" for err in errors):
            return _json_rejection(rec)
        if any(err["type"] == "recursion_loop" for err in errors):
            return _too_deep(rec)
        gid, rs = _peek_ids(rec.text)
        return Rejection(rec.source, rec.line, "invalid_log/schema", describe_errors(e), gid, rs)
    except RecursionError:
        return _too_deep(rec)


def _convert(rec: RawRecord, fast: bool) -> tuple[ParsedGame | Rejection, ...]:
    if rec.importer is None:
        return (parse_native(rec, fast),)
    try:
        dicts = IMPORTERS[rec.importer].convert(Record(rec.source, rec.line, rec.text))
    except ImportFailure as e:
        return (Rejection(rec.source, rec.line, "invalid_log/import", f"{rec.importer}: {short(str(e))}"),)
    if not dicts:
        return (Rejection(rec.source, rec.line, "invalid_log/import", f"{rec.importer}: no game in this record"),)
    return tuple(validate_dict(d, rec.source, rec.line, i) for i, d in enumerate(dicts))


def parse_record(rec: RawRecord | Rejection, fast: bool = False) -> tuple[ParsedGame | Rejection, ...]:
    """Parse and validate one record into games and rejections (never raises on bad data).
    ``fast``: native games come as ``mahjong_audit.schemas.log_fast`` Structs (see :func:`parse_native`).

    An importer or parser that fails in a way it did not foresee (a bug, or input deeper
    than the interpreter's recursion limit) makes a rejection naming the exception, never
    an error of the run."""
    if isinstance(rec, Rejection):
        return (rec,)
    try:
        return _convert(rec, fast)
    except Exception as e:  # noqa: BLE001  dead letter: the record is rejected, the run goes on
        what = f"the {rec.importer} importer" if rec.importer else "the parser"
        code = "invalid_log/import" if rec.importer else "invalid_log/schema"
        return (Rejection(rec.source, rec.line, code,
                          f"{what} failed on this record: {type(e).__name__}: {short(str(e))}"),)


def parse_file(path: str, chosen_importer: str | None = None,
               limit: int = MAX_RECORD_BYTES) -> Iterator[ParsedGame | Rejection]:
    """Every game and rejection of one file, in file order (used by ``validate``)."""
    for rec in read_file(path, chosen_importer, limit):
        yield from parse_record(rec)
