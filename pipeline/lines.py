"""The lines of a file: opened, read in chunks, decoded, each as one :class:`Line`, with the size limit.

Files are opened through ``apache_beam.io.filesystems.FileSystems`` (local paths, gs://,
s3:// where the extras are installed; ``.gz`` is decompressed by extension, with Python's
own gzip reader (inflating with ISA-L where it is installed: :mod:`~mahjong_audit.pipeline.gunzip`),
which is several times faster than Beam's line reader) and read in
chunks of :data:`CHUNK_BYTES`, so a big ``.jsonl.gz`` is never held in memory. A UTF-8
byte order mark is dropped and UTF-16 is transcoded (:func:`utf8_chunks`).

Every reader of lines gives :class:`Line` s: the line's number, its size in bytes, and its
text, or no text when it was read past because it is over the size limit
(``--max-record-bytes``), with the reason (:class:`Unread`). The limit holds for one line
(:func:`split_lines`, and ``mahjong_audit.pipeline.splits.RangeReader`` for a byte range)
and for a record of several lines (:func:`bounded_paragraphs`): no more than the limit is
ever held of either.
"""

from __future__ import annotations

import codecs
import contextlib
import enum
import gzip
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, BinaryIO, SupportsIndex, cast

from mahjong_audit.pipeline.gunzip import INFLATE_ERRORS, Gunzip, rewind_of

# Records: the default size limit (--max-record-bytes; a real game log is under 1 MB) and
# the read size.
MAX_RECORD_BYTES = 64 << 20
CHUNK_BYTES = 1 << 20
HEAD_CHARS = 256 * 1024  # importers sniff this much; a Botzone match names its initdata near the end
STREAM_ERRORS = INFLATE_ERRORS  # the bytes stop: I/O, a truncated or corrupt .gz


class Unread(enum.Enum):
    """Why a :class:`Line` comes without its text."""

    #: the line alone is longer than the size limit
    LINE_OVER_LIMIT = "the line is over the size limit"
    #: the record of several lines it belongs to crosses the size limit at or before it
    RECORD_OVER_LIMIT = "its record of several lines is over the size limit"


def line_text(raw: bytes) -> str:
    """The text of one line's bytes (newline removed): decoded as UTF-8, undecodable bytes as
    U+FFFD (so the record fails parsing with its line rather than stopping the file), a
    carriage return at its end dropped."""
    return raw.decode("utf-8", errors="replace").removesuffix("\r")


class TextOfBytes:
    """The base of a frozen slotted record of one line's bytes (``data``) whose constructor may
    leave its ``text`` slot unset: the text is then decoded (:func:`line_text`) when first read."""

    __slots__ = ()
    data: bytes | None

    def __getattr__(self, name: str) -> str:
        """Called only for a slot not set: the text, decoded from the bytes."""
        if name != "text":
            raise AttributeError(name)
        text = line_text(self.data)  # type: ignore[arg-type]  # a record without text has its bytes
        _set(self, "text", text)
        return text

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """Pickled without its text while that is not decoded yet (Beam pickles sampled
        records to estimate their size): the bytes alone, the text decoded when first read
        after loading, as before. Once decoded, pickled as any frozen dataclass."""
        try:
            _get(self, "text")
        except AttributeError:
            return _undecoded, (type(self), tuple(getattr(self, name) for name in _but_text(type(self))))
        return object.__reduce_ex__(self, protocol)


def _but_text(cls: type[TextOfBytes]) -> list[str]:
    """The fields of ``cls`` (a frozen slotted dataclass) but ``text``, in order."""
    return [f.name for f in fields(cls) if f.name != "text"]  # type: ignore[arg-type]  # a dataclass


def _undecoded(cls: type[TextOfBytes], values: tuple[Any, ...]) -> TextOfBytes:
    """A record of ``cls`` with ``values`` in its fields but ``text``, which is decoded when
    first read: what :meth:`TextOfBytes.__reduce_ex__` pickles."""
    rec = _new(cls)
    for name, value in zip(_but_text(cls), values, strict=True):
        _set(rec, name, value)
    return rec


@dataclass(frozen=True, slots=True)
class Line(TextOfBytes):
    """One line of a file as read.

    ``number`` is 1-based, counted from where the reading began (a byte range counts from
    its first line); ``size`` is its length in bytes without the newline; ``text`` is the
    line decoded (:func:`line_text`), or None when the line was read past, ``unread`` saying
    why. ``data`` holds the line's bytes as read (the same JSON as ``text`` when they are
    valid UTF-8; the fast path decodes them, and declines bytes that are not, which the
    models then read from ``text``). A line of bytes (:meth:`of_bytes`, what the readers
    make) decodes its text when it is first asked for: a native JSON line that the fast
    path accepts is never decoded to text.
    """

    number: int
    size: int
    text: str | None
    unread: Unread | None = None
    data: bytes | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if (self.text is None) != (self.unread is not None):
            raise ValueError("a line has its text or the reason it was not read, not both")

    @classmethod
    def of_bytes(cls, number: int, size: int, raw: bytes) -> Line:
        """The line of these bytes (newline removed), its text decoded when first read."""
        line = _new(cls)
        _set(line, "number", number)
        _set(line, "size", size)
        _set(line, "unread", None)
        _set(line, "data", raw)
        return line

    @property
    def blank(self) -> bool:
        """True for a line of white space only (a line read past is not blank)."""
        if self.unread is not None:
            return False
        data = self.data
        if data is not None and data[:1] == b"{":  # a JSON object: not blank, and no need to decode it
            return False
        return not self.text.strip()  # type: ignore[union-attr]  # unread is None: text is there


_new = object.__new__
_get = object.__getattribute__  # a slot not set raises AttributeError, without TextOfBytes.__getattr__
_set = object.__setattr__  # a frozen class's own __setattr__ refuses


def decoded(number: int, size: int, raw: bytes | None) -> Line:
    """The :class:`Line` of one line's bytes (newline removed; None: read past, over the limit)."""
    if raw is None:
        return Line(number, size, None, Unread.LINE_OVER_LIMIT)
    return Line.of_bytes(number, size, raw)


def filesystems():  # imported lazily: keeps `validate`/`schema` start-up light
    """Beam's ``FileSystems``, imported without its import-time warnings on the terminal."""
    from mahjong_audit.pipeline.runner import quiet_import

    with quiet_import():
        import apache_beam  # noqa: F401
        from apache_beam.io.filesystems import FileSystems
    return FileSystems


@contextlib.contextmanager
def open_stream(path: str) -> Iterator[BinaryIO]:
    """A binary stream of the file's content (``.gz`` decompressed, other codecs by Beam)."""
    fs = filesystems()
    if not path.lower().endswith(".gz"):
        with fs.open(path) as f:  # CompressionTypes.AUTO
            yield f
        return
    from apache_beam.io.filesystem import CompressionTypes

    with fs.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as raw, \
            Gunzip(raw, rewind_of(raw)) as gz:
        yield cast(BinaryIO, gz)


def encoding_of(head: bytes) -> str | None:
    """``utf-16`` (BOM), ``utf-16-le``/``-be`` (ASCII text with zero bytes between), or
    None for UTF-8."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not head.startswith(codecs.BOM_UTF32_LE):
        return "utf-16"
    if len(head) >= 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == 0 and head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return None


def utf8_chunks(raw_chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The chunks of a stream as UTF-8: a UTF-8 byte order mark is dropped, UTF-16 (with
    a byte order mark, or recognised by its zero bytes around ASCII) is transcoded."""
    first = next(raw_chunks, b"")
    while len(first) < 4:  # enough bytes to recognise the encoding
        more = next(raw_chunks, b"")
        if not more:
            break
        first += more
    encoding = encoding_of(first)
    if encoding is None:
        yield first.removeprefix(b"\xef\xbb\xbf")
        yield from raw_chunks
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    for chunk in itertools.chain((first,), raw_chunks):
        yield decoder.decode(chunk).removeprefix("\ufeff").encode("utf-8", "surrogatepass")
    yield decoder.decode(b"", final=True).encode("utf-8", "surrogatepass")


def raw_chunks(f) -> Iterator[bytes]:
    """The stream's bytes in chunks of at most CHUNK_BYTES. A gzip stream is read with
    ``read1``, which hands over what it decompressed before the stream breaks: ``read``
    would drop up to a whole chunk of complete lines before a truncation."""
    read = f.read1 if isinstance(f, (gzip.GzipFile, Gunzip)) else f.read
    while chunk := read(CHUNK_BYTES):
        yield chunk


def split_lines(chunks: Iterable[bytes], limit: int) -> Iterator[Line]:
    """The :class:`Line` s of a byte stream, numbered from 1; a line longer than ``limit``
    bytes comes without its text (:attr:`Unread.LINE_OVER_LIMIT`), and is never held in
    memory whole."""
    parts: list[bytes] = []  # the current line's text so far
    held = 0  # its length; -1 once it is over the limit (then only ``size`` counts)
    size = 0
    number = 0
    for chunk in chunks:
        start = 0
        while (i := chunk.find(b"\n", start)) >= 0:
            size += i - start
            number += 1
            if held >= 0 and size <= limit:
                parts.append(chunk[start:i])
                yield decoded(number, size, b"".join(parts))
            else:
                yield decoded(number, size, None)
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
        yield decoded(number + 1, size, b"".join(parts) if held >= 0 else None)


def stream_lines(f, limit: int) -> Iterator[Line]:
    """The lines of an open binary stream, read in chunks (see :func:`split_lines`)."""
    return split_lines(utf8_chunks(raw_chunks(f)), limit)


def iter_lines(path: str, limit: int = MAX_RECORD_BYTES) -> Iterator[Line]:
    """The lines of a file, streamed (``.gz`` decompressed, UTF-16 decoded); a line longer
    than ``limit`` bytes is read past, never held, and comes without its text."""
    with open_stream(path) as f:
        yield from stream_lines(f, limit)


def text_lines(text: str) -> Iterator[Line]:
    """The lines of text held in memory, as a file of it would give them (no limit): what
    an importer's ``records`` takes, for text at hand."""
    data = text.encode("utf-8", "surrogatepass")
    return split_lines((data,), len(data))


def bounded_paragraphs(lines: Iterable[Line], limit: int) -> Iterator[Line]:
    """Lines, where a run of non-blank lines (a paragraph: one record of several lines)
    over ``limit`` bytes in all (each line counted with its newline) is read past from the
    line that crosses the limit on: those lines come without their text
    (:attr:`Unread.RECORD_OVER_LIMIT`), each with its own size, so line numbers stay right,
    the record's size is their sum, and at most ``limit`` bytes of it are held."""
    size = 0  # bytes of the current paragraph so far
    for line in lines:
        if line.blank:
            size = 0
        else:
            size += line.size + 1
            if size > limit and line.text is not None:
                line = Line(line.number, line.size, None, Unread.RECORD_OVER_LIMIT)
        yield line


def read_head(path: str, n: int = HEAD_CHARS) -> str:
    """The first ``n`` characters of a file (decoded as its lines are), for sniffing its format."""
    with open_stream(path) as f:
        head = b""
        for chunk in utf8_chunks(raw_chunks(f)):
            head += chunk
            if len(head) >= n:
                break
    return head[:n].decode("utf-8", errors="replace")
