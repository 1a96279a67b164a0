"""Decompressing ``.gz`` logs: Python's own gzip reader, with ISA-L's inflate where it is installed.

Inflating is a large part of reading a compressed corpus: zlib inflates ~300 MB of JSON a
second on this project's machines, ~26 CPU µs of an 8.4 kB MCR hand, about a tenth of what
the whole audit spends on it. ISA-L (the ``isal`` package, a dependency where it has wheels)
inflates the same bytes about three times as fast.

Only the inflate changes: the stream is read by Python's :class:`gzip.GzipFile`, whose own
code reads the headers and members, checks each member's CRC and length, and hands out what
it decompressed in the same steps (:func:`open_gzip` gives its reader ISA-L's raw-deflate
decompressor and CRC). On an intact stream both give the same bytes. On a broken one they
may not: ISA-L holds back the last byte before a truncation, and stops sooner and in other
words at corrupt data. So :class:`Gunzip` reads through ISA-L until the stream breaks, then
reads it again from the start with zlib alone, skips what it already handed out, and goes on
with zlib's bytes and zlib's error: a broken file ends where, and with the message, it always
did (``tests/test_gunzip.py`` compares both on thousands of broken streams). A stream that
cannot be read again (not seekable) keeps ISA-L's error.

:data:`IMPLEMENTATION` names the inflate in use; ``MAHJONG_AUDIT_ZLIB=1`` turns ISA-L off. The
reader this plugs into is Python 3.11's (a ``zlib.decompressobj`` per member); a later Python's
reader takes a decompressor ISA-L does not offer, and there zlib inflates alone.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Callable
from typing import Any, BinaryIO


def _isal_zlib() -> Any:
    """ISA-L's zlib-like module, or None where the package is not installed (no wheel for
    the platform: zlib alone)."""
    try:
        from isal import isal_zlib
    except ImportError:
        return None
    return isal_zlib


isal_zlib = _isal_zlib()

#: set to 1 to inflate with zlib even where ISA-L is installed
ZLIB_ENV = "MAHJONG_AUDIT_ZLIB"
#: the errors of a stream that breaks while it is inflated (ISA-L's own, when it is in use)
INFLATE_ERRORS: tuple[type[BaseException], ...] = (OSError, EOFError, zlib.error) + (
    (isal_zlib.error,) if isal_zlib is not None else ())


def _isal_reader_class() -> type | None:
    """Python's gzip reader with ISA-L's raw-deflate decompressor and CRC, or None where
    ISA-L is not installed, is turned off, or the reader is not the one this was written
    against (its decompressor made by ``zlib.decompressobj``, its data counted by
    ``_add_read_data``: Python 3.11)."""
    if isal_zlib is None or os.environ.get(ZLIB_ENV, "") not in ("", "0"):
        return None
    base: Any = getattr(gzip, "_GzipReader", None)
    if base is None or not hasattr(base, "_add_read_data"):
        return None
    probe = base(io.BytesIO(b""))
    if getattr(probe, "_decomp_factory", None) is not zlib.decompressobj:
        return None
    inflate = isal_zlib

    class IsalGzipReader(base):  # type: ignore[misc, valid-type]
        _crc: int
        _stream_size: int

        def __init__(self, fp: BinaryIO) -> None:
            super().__init__(fp)
            self._decomp_factory = inflate.decompressobj
            self._decompressor = inflate.decompressobj(**self._decomp_args)

        def _add_read_data(self, data: bytes) -> None:
            self._crc = inflate.crc32(data, self._crc)
            self._stream_size = self._stream_size + len(data)

    return IsalGzipReader


_ISAL_READER = _isal_reader_class()
#: the inflate this process uses for ``.gz`` files
IMPLEMENTATION = "ISA-L" if _ISAL_READER is not None else "zlib"


def open_gzip(fileobj: BinaryIO, *, isal: bool = True) -> gzip.GzipFile:
    """A :class:`gzip.GzipFile` reading ``fileobj``, inflating with ISA-L where it is in use
    (and ``isal``), else with zlib."""
    f = gzip.GzipFile(fileobj=fileobj, mode="rb")
    if isal and _ISAL_READER is not None:
        f._buffer = io.BufferedReader(_ISAL_READER(fileobj))  # type: ignore[attr-defined]
    return f


class Gunzip:
    """The decompressed bytes of a gzip stream, handed out by :meth:`read1` (what is
    decompressed so far, at most ``n`` bytes); read with ISA-L until the stream breaks, then
    with zlib from the start (the module's docstring says why). ``rewind`` puts ``fileobj``
    back at its first byte (None: it cannot be)."""

    def __init__(self, fileobj: BinaryIO, rewind: Callable[[], None] | None) -> None:
        self._fileobj = fileobj
        self._rewind = rewind
        self._exact = rewind is None or _ISAL_READER is None
        self._f = open_gzip(fileobj, isal=not self._exact)
        self._handed = 0  # bytes handed out so far

    def read1(self, n: int = -1) -> bytes:
        try:
            data = self._f.read1(n)
        except INFLATE_ERRORS:
            if self._exact or self._rewind is None:
                raise
            self._again_with_zlib(self._rewind)
            data = self._f.read1(n)
        self._handed += len(data)
        return data

    read = read1

    def _again_with_zlib(self, rewind: Callable[[], None]) -> None:
        """The stream broke under ISA-L: read it again with zlib, past the bytes handed out
        (zlib's own error, if it breaks before them, is raised from here)."""
        self._exact = True
        self._f.close()
        rewind()
        self._f = open_gzip(self._fileobj, isal=False)
        left = self._handed
        while left > 0:
            skipped = self._f.read1(min(left, 1 << 20))
            if not skipped:
                break
            left -= len(skipped)

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> Gunzip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def rewind_of(f: Any) -> Callable[[], None] | None:
    """How to put a stream that is at its first byte back there (``seek(0)``), or None for a
    stream that cannot seek."""
    try:
        if not f.seekable() or f.tell() != 0:
            return None
    except (AttributeError, OSError, ValueError):
        return None
    return lambda: f.seek(0)
