"""``.gz`` logs inflated with ISA-L give what Python's own gzip reader gives, broken or not
(pipeline/gunzip.py)."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import subprocess
import sys

import pytest

from mahjong_audit.pipeline import gunzip, read, splits
from mahjong_audit.pipeline.inputs import Shard

isal_only = pytest.mark.skipif(gunzip.IMPLEMENTATION != "ISA-L", reason="ISA-L is not in use here")


def _lines(rng: random.Random, n: int) -> bytes:
    return "".join(json.dumps({"n": i, "pad": "".join(rng.choice("abcdefghij") for _ in range(rng.randint(5, 900)))})
                   + "\n" for i in range(n)).encode()


def _drain(f, n: int) -> tuple[bytes, tuple[str, str] | None]:
    out, err = b"", None
    try:
        while chunk := f.read1(n):
            out += chunk
    except gunzip.INFLATE_ERRORS as e:
        err = (type(e).__name__, str(e))
    return out, err


def _by_zlib(data: bytes, n: int) -> tuple[bytes, tuple[str, str] | None, int, str]:
    """Python's gzip reader over a hashing stream: the bytes, the error, what was read of the file."""
    h = splits.HashingReader(io.BytesIO(data))
    with gzip.GzipFile(fileobj=h, mode="rb") as f:
        out, err = _drain(f, n)
    return out, err, h.bytes_read, h.hexdigest()


def _by_gunzip(data: bytes, n: int) -> tuple[bytes, tuple[str, str] | None, int, str]:
    h = splits.HashingReader(io.BytesIO(data))
    with gunzip.Gunzip(h, h.rewinder()) as f:
        out, err = _drain(f, n)
    return out, err, h.bytes_read, h.hexdigest()


def _broken(rng: random.Random, whole: bytes) -> bytes:
    d = bytearray(whole)
    kind = rng.randrange(5)
    if kind == 0:  # cut short
        return bytes(d[:rng.randrange(len(d))])
    if kind == 1:  # one bit flipped
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
    elif kind == 2:  # a few bytes overwritten
        i = rng.randrange(len(d))
        d[i:i + 8] = b"\x00garbage"
    elif kind == 3:  # junk after the last member
        d += rng.randbytes(rng.randrange(1, 30))
    else:  # a run replaced by noise of another length
        i = rng.randrange(len(d))
        d[i:i + rng.randrange(1, 300)] = rng.randbytes(rng.randrange(1, 300))
    return bytes(d)


def test_intact_streams_inflate_to_the_same_bytes():
    rng = random.Random(3)
    one = _lines(rng, 300)
    for data in (gzip.compress(one, mtime=0),
                 gzip.compress(one[:5000], mtime=0) + gzip.compress(one[5000:], mtime=0),  # two members
                 gzip.compress(one, mtime=0) + b"\x00" * 7,  # zero padding after the member
                 gzip.compress(b"", mtime=0)):
        for n in (1 << 20, 4096, 1):
            assert _by_gunzip(data, n) == _by_zlib(data, n)
        assert _by_gunzip(data, 1 << 20)[0] == gzip.decompress(data)


def test_broken_streams_break_where_and_as_zlib_breaks_them():
    """Cut short, bits flipped, bytes overwritten, junk after the end: the same bytes handed
    out, the same error (type and words), the same part of the file read and hashed. ISA-L
    alone would differ on many of these (it holds back the last byte before a cut, and stops
    sooner and in other words at corrupt data): the stream is read again with zlib then."""
    rng = random.Random(11)
    whole = gzip.compress(_lines(rng, 250), mtime=0)
    whole2 = whole + gzip.compress(b'{"second": "member"}\n', mtime=0)
    broken_by_isal_differently = 0
    for trial in range(400):
        data = _broken(rng, whole2 if trial % 2 else whole)
        n = rng.choice((1 << 20, 1 << 14, 1000))
        expected = _by_zlib(data, n)
        assert _by_gunzip(data, n) == expected, trial
        if gunzip.IMPLEMENTATION == "ISA-L":
            with gunzip.open_gzip(io.BytesIO(data)) as f:
                broken_by_isal_differently += _drain(f, n) != expected[:2]
    if gunzip.IMPLEMENTATION == "ISA-L":
        assert broken_by_isal_differently > 10  # the case the second read is there for


def test_a_stream_that_cannot_seek_back_is_inflated_by_zlib_alone():
    """It could not be read again: so it is read the one way whose breaks are the reference."""
    class OneWay(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:
            chunk = self.data.read(len(b))
            b[:len(chunk)] = chunk
            return len(chunk)

    data = gzip.compress(_lines(random.Random(2), 200), mtime=0)[:20000]
    raw = OneWay(data)
    assert gunzip.rewind_of(raw) is None
    with gunzip.Gunzip(raw, None) as f:
        got = _drain(f, 1 << 14)
    with gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb") as f:
        assert got == _drain(f, 1 << 14) and got[1] is not None and got[1][0] == "EOFError"


def test_the_read_of_a_truncated_corpus_is_the_same_with_zlib_alone(tmp_path, monkeypatch):
    rng = random.Random(5)
    whole = gzip.compress(_lines(rng, 400), mtime=0)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    got = list(read.read_shard(Shard(str(path))))
    monkeypatch.setattr(gunzip, "_ISAL_READER", None)
    assert list(read.read_shard(Shard(str(path)))) == got


@isal_only
def test_the_environment_variable_turns_isal_off():
    code = "from mahjong_audit.pipeline import gunzip; print(gunzip.IMPLEMENTATION)"
    env = {**os.environ, gunzip.ZLIB_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "zlib"
