"""Split reads: one uncompressed JSON Lines file read as byte ranges, and file digests.

A split ``[start, end)`` owns the lines that *begin* inside it, as Hadoop's text splits
do: a split that starts mid-file skips to the first line beginning at or after
``start`` (by reading from ``start - 1`` to the next newline), and it reads its last line
to the end even when that runs past ``end``. So the splits of a file together read every
line exactly once, and each reads about ``end - start`` bytes (plus one line). A split is
read in chunks, never a line at a time, so a line over the record size limit
(``--max-record-bytes``) is read past without being held, as in a whole read.

Line numbers. A split that starts mid-file cannot know how many lines come before it
without reading them, so it numbers its lines from 1 and reports how many lines it owns
(:class:`PartRead`). The driver's load adds to each line the lines owned by the file's
earlier splits (``mahjong_audit.pipeline.sink``): exact line numbers, at the cost of one small row
per split, instead of reading every byte before the split again.

Digests. Every reader hashes the bytes it consumes (SHA-256 of the bytes as stored, i.e.
before decompression). A file read whole gets that digest; a split file gets
``parts:`` + the SHA-256 of its parts' digests in file order, so its digest depends on
the split points as well as the content (the ``files`` table also keeps the size and
modification time, which is what ``--skip-audited`` compares first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from mahjong_audit.pipeline.gunzip import rewind_of
from mahjong_audit.pipeline.lines import Line, decoded

CHUNK = 1 << 20
PARTS_PREFIX = "parts:"


@dataclass(frozen=True, slots=True)
class PartRead:
    """What one reader of one file consumed: the lines it owns, bytes and their digest.

    ``start`` is the split's start offset (0 for a file read whole); ``sha256`` is None
    when the read stopped early (an I/O error or a corrupt file)."""

    source: str
    start: int
    lines: int
    bytes_read: int
    sha256: str | None


class HashingReader:
    """A binary stream that hashes (and counts) every byte read through it."""

    def __init__(self, raw):
        self.raw = raw
        self.digest = hashlib.sha256()
        self.bytes_read = 0

    def _seen(self, data: bytes) -> bytes:
        self.digest.update(data)
        self.bytes_read += len(data)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._seen(self.raw.read(n))

    def read1(self, n: int = -1) -> bytes:
        return self.read(n)

    def readline(self, limit: int = -1) -> bytes:
        return self._seen(self.raw.readline(limit))

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line

    def drain(self) -> None:
        """Read (and hash) whatever is left."""
        while self.read(CHUNK):
            pass

    def close(self) -> None:
        self.raw.close()

    @property
    def closed(self) -> bool:
        return bool(getattr(self.raw, "closed", False))

    def hexdigest(self) -> str:
        return self.digest.hexdigest()

    def rewinder(self) -> Callable[[], None] | None:
        """How to read the stream again from its first byte, hashing and counting afresh
        (None where the stream under it cannot seek back)."""
        back = rewind_of(self.raw)
        if back is None:
            return None

        def rewind() -> None:
            back()
            self.digest = hashlib.sha256()
            self.bytes_read = 0
        return rewind


def split_points(size: int, count: int) -> tuple[tuple[int, int | None], ...]:
    """``count`` byte ranges of about equal size covering ``size`` bytes (the last open-ended)."""
    if count < 1:
        raise ValueError("count must be at least 1")
    cuts = [size * k // count for k in range(count)]
    return tuple((cuts[k], cuts[k + 1] if k + 1 < count else None) for k in range(count))


def _open_raw(path: str):
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems

    return FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED)


class RangeReader:
    """The lines owned by the split ``[start, end)`` of an uncompressed file.

    Iterate for its :class:`~mahjong_audit.pipeline.lines.Line` s, numbered from the
    split's first line. The file is read in chunks of :data:`CHUNK` bytes, so no more
    than ``limit`` bytes of one line are ever held: a longer line is read past (hashed
    and counted) and comes without its text. Afterwards
    :meth:`part` tells what was read. ``end`` None reads to the end of the file.
    """

    def __init__(self, path: str, start: int, end: int | None, limit: int | None = None):
        if start < 0 or (end is not None and end < start):
            raise ValueError(f"bad byte range [{start}, {end})")
        self.path, self.start, self.end, self.limit = path, start, end, limit
        self.lines = 0
        self.bytes_read = 0
        self._digest = hashlib.sha256()
        self.complete = False

    def __iter__(self) -> Iterator[Line]:
        limit = self.limit
        with _open_raw(self.path) as raw:
            buf, off, pos = b"", 0, self.start
            if self.start > 0:  # skip the tail of a line that began before start
                raw.seek(self.start - 1)
                pos = self.start - 1
                while True:
                    buf = raw.read(CHUNK)
                    if not buf:
                        self.complete = True
                        return
                    i = buf.find(b"\n")
                    if i >= 0:
                        off, pos = i + 1, pos + i + 1
                        break
                    pos += len(buf)
            while self.end is None or pos < self.end:  # a line begins at pos: it is ours
                parts: list[bytes] = []
                size, held, ended = 0, True, False
                while not ended:
                    if off >= len(buf):
                        buf, off = raw.read(CHUNK), 0
                        if not buf:
                            break
                    i = buf.find(b"\n", off)
                    ended = i >= 0
                    stop = i + 1 if ended else len(buf)
                    piece = buf[off:stop]
                    off = stop
                    self._digest.update(piece)
                    size += len(piece)
                    if held and (limit is None or size - ended <= limit):
                        parts.append(piece)
                    else:
                        parts, held = [], False
                if not size:
                    break  # the end of the file
                pos += size
                self.bytes_read += size
                self.lines += 1
                line = b"".join(parts) if held else None
                if ended:
                    size -= 1
                    line = line[:-1] if line is not None else None
                yield decoded(self.lines, size, line)
        self.complete = True

    def part(self) -> PartRead:
        return PartRead(self.path, self.start, self.lines, self.bytes_read,
                        self._digest.hexdigest() if self.complete else None)


def file_digest(parts: Iterable[PartRead]) -> str | None:
    """The digest of a file from its parts (None if a part did not finish)."""
    parts = sorted(parts, key=lambda p: p.start)
    if not parts or any(p.sha256 is None for p in parts):
        return None
    if len(parts) == 1 and parts[0].start == 0:
        return parts[0].sha256
    joined = "".join(p.sha256 or "" for p in parts)
    return PARTS_PREFIX + hashlib.sha256(joined.encode()).hexdigest()
