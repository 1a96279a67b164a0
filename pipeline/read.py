"""Reading game logs: input expansion, streaming records out of files, parsing them.

Plain functions, no Beam pipeline: the ``audit`` transforms wrap them in thin DoFns and
``validate`` calls them directly. Files are opened through
``apache_beam.io.filesystems.FileSystems`` (local paths, gs://, s3:// where the extras
are installed; ``.gz`` is decompressed by extension, with Python's own gzip reader, which
is several times faster than Beam's line reader) and read line by line, so a big
``.jsonl.gz`` is never held in memory.

A big file is read as several :class:`Shard` s: shard ``k`` of ``n`` keeps the records
whose ordinal in the file is ``k`` modulo ``n``. Every shard reads (and decompresses) the
whole file but parses and audits only its own records, so the shards of one file can run
on different workers without any record crossing a shuffle. :func:`plan_shards` decides
``n`` per file from the file sizes and the parallelism wanted.

A file name ending in ``.json`` (before ``.gz``) holds one game document, possibly
pretty-printed; any other native file holds one game per line (JSON Lines). With an
importer (``--from NAME`` or detected from the file's first characters) the importer
splits the file into records and converts each.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from engine.findings import CODES
from pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from pipeline.importers.base import whole_document
from schemas.log import Game, describe_errors
from schemas.log_fast import Game as FastGame
from schemas.log_fast import parse_game_json

NATIVE_SUFFIXES = (".json", ".jsonl", ".ndjson")
# Not logs, though they end like one: fault labels written by `simulate --labels`.
# Skipped in directories and globs; a file named explicitly is still read.
SKIPPED_SUFFIXES = (".labels.jsonl",)
HEAD_CHARS = 256 * 1024  # importers sniff this much; a Botzone match names its initdata near the end
# Sharding: a file is split only if it holds at least this much (uncompressed) text, and a
# .gz file is taken to hold this many times its size. Every shard re-reads the whole file,
# so a file is never cut into more shards than the parallelism asked for.
MIN_SPLIT_BYTES = 1 << 20
GZ_RATIO = 8
_GLOB_CHARS = frozenset("*?[")


class InputError(OSError):
    """An input that names nothing readable (missing file, empty glob, unknown importer)."""


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record as read from a file: ``line`` is 1-based, where the record starts."""

    source: str
    line: int
    text: str
    importer: str | None = None  # None: native mahjong-log/1


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``count`` of one file: its records whose ordinal % count == index."""

    path: str
    index: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"shard {self.index} of {self.count}")

    def keeps(self, ordinal: int) -> bool:
        return ordinal % self.count == self.index


@dataclass(frozen=True, slots=True)
class ParsedGame:
    """A record that parsed and validated. ``index`` orders games of one record."""

    source: str
    line: int
    index: int
    game: Game | FastGame  # FastGame from the fast path (the audit), Game from the models

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

    def __post_init__(self) -> None:
        if self.code not in CODES or not self.code.startswith("invalid_log/"):
            raise ValueError(f"not an invalid_log code: {self.code!r}")

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        gid = f" [{self.game_id}]" if self.game_id else ""
        return f"{where}: {self.code}{gid}: {self.message}"


# --------------------------------------------------------------------------- inputs


def _filesystems():  # imported lazily: keeps `validate`/`schema` start-up light
    from pipeline.runner import quiet_import

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


def expand_inputs(inputs: Iterable[str], suffixes: Sequence[str] | None = None) -> tuple[str, ...]:
    """Files named by ``inputs`` (files, globs, directories), sorted and without repeats.

    Directories are searched recursively and globs filtered to the readable suffixes;
    a file named explicitly is always taken. Raises :class:`InputError` if an input
    matches nothing.
    """
    fs = _filesystems()
    suffixes = tuple(suffixes) if suffixes is not None else readable_suffixes()
    found: set[str] = set()
    for raw in inputs:
        path = _normalise(raw)
        is_dir = os.path.isdir(path) if not _is_url(path) else (path.endswith("/") or not fs.exists(path))
        if is_dir or any(c in _GLOB_CHARS for c in path):
            pattern = fs.join(path.rstrip("/"), "**") if is_dir else path
            metas = fs.match([pattern])[0].metadata_list
            files = [m.path for m in metas if _wanted(m.path, suffixes) and not os.path.isdir(m.path)]
            if not files:
                what = "no such file or folder" if _is_url(path) and not metas else \
                    f"no {'/'.join(suffixes)} files found"
                raise InputError(f"{raw}: {what}")
            found.update(_normalise(f) for f in files)
        elif fs.exists(path):
            found.add(path)
        else:
            raise InputError(f"{raw}: no such file")
    return tuple(sorted(found))


def file_sizes(files: Sequence[str]) -> dict[str, int]:
    """Size in bytes of each file (0 where the filesystem cannot tell)."""
    if not files:
        return {}
    fs = _filesystems()
    out = dict.fromkeys(files, 0)
    try:
        results = fs.match(list(files))
    except OSError:  # BeamIOError: some path vanished; the read reports it
        return out
    for path, res in zip(files, results, strict=True):
        if res.metadata_list:
            out[path] = int(res.metadata_list[0].size_in_bytes)
    return out


def _text_bytes(path: str, size: int) -> int:
    return size * GZ_RATIO if path.lower().endswith(".gz") else size


def plan_shards(files: Sequence[str], parallelism: int,
                sizes: Mapping[str, int] | None = None) -> tuple[Shard, ...]:
    """The shards to read ``files`` in, about ``parallelism`` at a time.

    A file gets ``ceil(parallelism * its share of all the text)`` shards, at most
    ``parallelism`` and 1 for a small file or a one-document ``.json``: one big file is
    split across every worker, many files are spread over the workers whole.
    """
    if parallelism < 1:
        raise ValueError("parallelism must be at least 1")
    sizes = file_sizes(files) if sizes is None else sizes
    text = {f: _text_bytes(f, sizes.get(f, 0)) for f in files}
    total = sum(text.values())
    shards: list[Shard] = []
    for f in files:
        n = 1
        if total and text[f] >= MIN_SPLIT_BYTES and not is_document_file(f):
            n = max(1, min(parallelism, math.ceil(text[f] * parallelism / total)))
        shards += [Shard(f, k, n) for k in range(n)]
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


def iter_lines(path: str) -> Iterator[str]:
    """The text lines of a file, newline stripped, streamed (``.gz`` decompressed).

    Undecodable bytes become U+FFFD, so the record fails JSON/schema parsing and is
    reported with its line instead of stopping the file.
    """
    with _open(path) as f:
        first = True
        for raw in f:
            text = raw.decode("utf-8", errors="replace")
            if first:
                text = text.removeprefix("\ufeff")
                first = False
            yield text.rstrip("\r\n")


def read_head(path: str, n: int = HEAD_CHARS) -> str:
    with _open(path) as f:
        return f.read(n).decode("utf-8", errors="replace").removeprefix("\ufeff")


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


def _native_records(path: str, lines: Iterable[str]) -> Iterator[RawRecord]:
    if is_document_file(path):
        doc = whole_document(lines)
        if doc is not None:
            yield RawRecord(path, *doc)
        return
    for no, line in enumerate(lines, 1):
        if line.strip():
            yield RawRecord(path, no, line)


def _all_records(path: str, importer: str | None) -> Iterator[RawRecord]:
    lines = iter_lines(path)
    if importer is None:
        yield from _native_records(path, lines)
        return
    for rec in IMPORTERS[importer].records(path, lines):
        yield RawRecord(rec.source, rec.line, rec.text, importer)


def read_records(path: str, importer: str | None = None) -> Iterator[RawRecord]:
    """Stream the records of one file. ``importer`` must already be resolved (see importer_for)."""
    return _all_records(path, importer)


def read_shard(shard: Shard, chosen_importer: str | None = None) -> Iterator[RawRecord | Rejection]:
    """Records of one shard of a file; an unreadable file (I/O, corrupt gzip) ends in a
    Rejection, from shard 0 only (the other shards stop quietly at the same place)."""
    line = None
    try:
        imp = importer_for(shard.path, chosen_importer)
        for i, rec in enumerate(_all_records(shard.path, imp)):
            line = rec.line
            if shard.keeps(i):
                yield rec
    except (OSError, EOFError, zlib.error, ImportFailure) as e:
        if shard.index == 0:
            after = f" after line {line}" if line else ""
            yield Rejection(shard.path, None, "invalid_log/json", f"file unreadable{after}: {e}")


def read_file(path: str, chosen_importer: str | None = None) -> Iterator[RawRecord | Rejection]:
    """Records of one file; an unreadable file (I/O, corrupt gzip) ends in a Rejection."""
    return read_shard(Shard(path), chosen_importer)


# --------------------------------------------------------------------------- parsing


def _peek_ids(text: str) -> tuple[str | None, str | None]:
    """game_id and ruleset of a record that failed validation, if it is a JSON object."""
    try:
        data = json.loads(text)
    except ValueError:
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
    return Rejection(rec.source, rec.line, "invalid_log/json", "not valid JSON")


def validate_dict(data: object, source: str, line: int, index: int = 0) -> ParsedGame | Rejection:
    try:
        return ParsedGame(source, line, index, Game.model_validate(data))
    except ValidationError as e:
        gid = data.get("game_id") if isinstance(data, dict) else None
        rs = data.get("ruleset") if isinstance(data, dict) else None
        return Rejection(source, line, "invalid_log/schema", describe_errors(e),
                         gid if isinstance(gid, str) else None, rs if isinstance(rs, str) else None)


def parse_native(rec: RawRecord, fast: bool = False) -> ParsedGame | Rejection:
    """One native record. ``fast``: validate on the fast path first (``schemas.log_fast``:
    plain dataclasses, what the audit reads); the models check whatever it does not accept."""
    if fast:
        game = parse_game_json(rec.text)
        if game is not None:
            return ParsedGame(rec.source, rec.line, 0, game)
    try:
        return ParsedGame(rec.source, rec.line, 0, Game.model_validate_json(rec.text))
    except ValidationError as e:
        if any(err["type"] == "json_invalid" for err in e.errors()):
            return _json_rejection(rec)
        gid, rs = _peek_ids(rec.text)
        return Rejection(rec.source, rec.line, "invalid_log/schema", describe_errors(e), gid, rs)


def parse_record(rec: RawRecord | Rejection, fast: bool = False) -> tuple[ParsedGame | Rejection, ...]:
    """Parse and validate one record into games and rejections (never raises on bad data).
    ``fast``: native games come as ``schemas.log_fast`` dataclasses (see :func:`parse_native`)."""
    if isinstance(rec, Rejection):
        return (rec,)
    if rec.importer is None:
        return (parse_native(rec, fast),)
    try:
        dicts = IMPORTERS[rec.importer].convert(Record(rec.source, rec.line, rec.text))
    except ImportFailure as e:
        return (Rejection(rec.source, rec.line, "invalid_log/import", f"{rec.importer}: {e}"),)
    return tuple(validate_dict(d, rec.source, rec.line, i) for i, d in enumerate(dicts))


def parse_file(path: str, chosen_importer: str | None = None) -> Iterator[ParsedGame | Rejection]:
    """Every game and rejection of one file, in file order (used by ``validate``)."""
    for rec in read_file(path, chosen_importer):
        yield from parse_record(rec)
