"""What the inputs name, and the shards to read them in.

:func:`walk_inputs` expands files, globs and directories into the files to read (and
says what a walk left out); :func:`importer_for` tells each file's format.
:func:`plan_shards` cuts the files into :class:`Shard` s: a big uncompressed JSON Lines
file is read as several byte ranges that each own the lines beginning inside them
(``mahjong_audit.pipeline.splits``), so the shards of one file run on different workers and
together read the file about once. A big file that cannot be cut in byte ranges
(compressed, or in an importer's format) is read by several *strided* shards instead:
each reads the whole file and keeps every n-th record, so the parsing and the replay,
which cost ten times the reading, are spread over the workers. Whole-document files are
read whole by one shard. ``mahjong_audit.pipeline.read`` reads a shard's records.

A file name ending in ``.json`` (before ``.gz``) holds one game document, possibly
pretty-printed; any other native file holds one game per line (JSON Lines). With an
importer (``--from NAME`` or detected from the file's first characters) the importer
splits the file into records and converts each.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mahjong_audit.pipeline import splits
from mahjong_audit.pipeline.errors import InputError
from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, detect
from mahjong_audit.pipeline.lines import (
    STREAM_ERRORS,
    encoding_of,
    filesystems,
    open_stream,
    read_head,
)

NATIVE_SUFFIXES = (".json", ".jsonl", ".ndjson")
# Not logs, though they end like one: fault labels written by `simulate --labels`.
# Skipped in directories and globs; a file named explicitly is still read.
SKIPPED_SUFFIXES = (".labels.jsonl",)
# Sharding: an uncompressed JSON Lines file is split into byte ranges only if it holds at
# least this much; a .gz file (never split) is taken to hold this many times its size when
# sharing out the parallelism.
MIN_SPLIT_BYTES = 1 << 20
GZ_RATIO = 8
_GLOB_CHARS = frozenset("*?[")
READ_ERRORS: tuple[type[BaseException], ...] = (*STREAM_ERRORS, ImportFailure)  # a file that cannot be read, or whose format cannot be told
_HEAD_ERRORS: tuple[type[BaseException], ...] = (*READ_ERRORS, ValueError)  # also a compression it cannot undo



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
    except _HEAD_ERRORS:  # unreadable, or a compression it cannot undo: not taken, said skipped
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
    fs = filesystems()
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
        except READ_ERRORS:
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
    filesystems()
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


def importer_for(path: str, chosen: str | None) -> str | None:
    """The importer for a file: ``chosen`` (``--from``) or the detected one; None = native."""
    if chosen is not None:
        if chosen not in IMPORTERS:
            known = ", ".join(sorted(IMPORTERS)) or "none"
            raise InputError(f"unknown importer {chosen!r} (known: {known})")
        return chosen
    return detect(path, read_head(path))


def is_document_file(path: str) -> bool:
    """True for a native file that holds one game document (``.json``, before ``.gz``)."""
    return path.lower().removesuffix(".gz").endswith(".json")


def _utf16(path: str) -> bool:
    """True for a file whose first bytes say UTF-16 (its newlines are two bytes)."""
    with open_stream(path) as f:
        return encoding_of(f.read(4)) is not None


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
