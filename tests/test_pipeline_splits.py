"""Split reads: byte ranges of one JSON Lines file, each line read exactly once, about once the bytes."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_audit.pipeline import inputs, read, splits
from tests.logbuild import win_game
from tests.readbuild import records_with_limit


def _read_all(path, count: int):
    """(records, parts) of every shard of a ``count``-way split, in shard order."""
    size = path.stat().st_size
    records, parts = [], []
    for k, (start, end) in enumerate(splits.split_points(size, count)):
        shard = inputs.Shard(str(path), k, count, start, end) if count > 1 else inputs.Shard(str(path))
        out = list(read.read_shard(shard))
        parts.append(out[-1])
        records.append([r for r in out[:-1]])
    return records, parts


def _absolute(records, parts):
    """(line, text) of every record, its line made absolute as the load does."""
    out, base = [], 0
    for recs, part in zip(records, parts, strict=True):
        out += [(r.line + (base if r.shard_start else 0), r.text) for r in recs]
        base += part.lines
    return out


def test_every_record_is_read_once_and_the_bytes_read_add_up_to_the_file(tmp_path):
    lines = [json.dumps(win_game(f"g{i}")) for i in range(40)]
    lines[7] = ""  # a blank line: owned by a shard, yields no record
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    size = path.stat().st_size
    longest = max(len(x) + 1 for x in lines)
    want = [(i + 1, t) for i, t in enumerate(lines) if t]
    for count in (1, 2, 3, 7, 40):
        records, parts = _read_all(path, count)
        assert _absolute(records, parts) == want, count
        assert sum(p.bytes_read for p in parts) == size  # the shards' own bytes: the file, once
        for (start, end), part in zip(splits.split_points(size, count), parts, strict=True):
            assert part.bytes_read <= (end or size) - start + longest  # one line past its range at most
        assert sum(p.lines for p in parts) == len(lines)


def test_a_split_starting_exactly_on_a_line_start_owns_that_line(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n{"c": 3}')  # no newline at the end
    first = len(b'{"a": 1}\n')
    got = [[(r.line, r.text) for r in read.read_shard(inputs.Shard(str(path), k, 2, s, e))
            if isinstance(r, read.RawRecord)]
           for k, (s, e) in enumerate([(0, first), (first, None)])]
    assert got == [[(1, '{"a": 1}')], [(1, '{"b": 2}'), (2, '{"c": 3}')]]
    assert [r.shard_start for r in read.read_shard(inputs.Shard(str(path), 1, 2, first, None))
            if isinstance(r, read.RawRecord)] == [first, first]


def test_crlf_lines_and_a_byte_order_mark_are_read_as_when_whole(tmp_path):
    path = tmp_path / "w.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(b'{"n": %d}\r\n' % i for i in range(20)))
    whole = [(r.line, r.text) for r in read.read_file(str(path))]
    for count in (2, 5):
        records, parts = _read_all(path, count)
        assert _absolute(records, parts) == whole


def test_the_content_hash_of_a_whole_file_is_its_sha256_and_of_a_split_file_the_parts_hash(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text("".join(f'{{"n": {i}}}\n' for i in range(100)))
    _, (whole,) = _read_all(path, 1)
    assert splits.file_digest([whole]) == hashlib.sha256(path.read_bytes()).hexdigest()
    _, parts = _read_all(path, 3)
    digest = splits.file_digest(parts)
    assert digest.startswith(splits.PARTS_PREFIX) and digest == splits.file_digest(reversed(parts))
    assert splits.file_digest([*parts[:2], splits.PartRead(str(path), parts[2].start, 1, 1, None)]) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab{}\u4e2d ", max_size=12), min_size=1, max_size=30),
       st.integers(min_value=1, max_value=12), st.booleans())
def test_any_split_reads_every_line_exactly_once(tmp_path_factory, lines, count, final_newline):
    path = tmp_path_factory.mktemp("prop") / "p.jsonl"
    data = "\n".join(lines) + ("\n" if final_newline else "")
    path.write_bytes(data.encode())
    size = path.stat().st_size
    count = min(count, max(size, 1))
    records, parts = _read_all(path, count)
    want = [(i + 1, t) for i, t in enumerate(data.split("\n")) if t.strip()]
    assert _absolute(records, parts) == want
    assert sum(p.bytes_read for p in parts) == size


def test_a_split_read_rejects_a_line_over_the_limit_with_its_size_as_a_whole_read_does(tmp_path, monkeypatch):
    monkeypatch.setattr(splits, "CHUNK", 64)  # lines cross many chunks, and the split points
    huge = '{"pad": "' + "x" * 5000 + '"}'
    lines = [json.dumps({"n": i}) for i in range(30)]
    lines[4] = huge
    lines[17] = huge + "\r"
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    whole = [(r.line, r.text if isinstance(r, read.RawRecord) else r.message)
             for r in read.read_file(str(path), None, 1000)]
    assert [line for line, text in whole if "over the size limit" in text] == [5, 18]
    assert f"record of {len(huge):,} bytes" in whole[4][1] and f"{len(huge) + 1:,} bytes" in whole[17][1]
    for count in (1, 2, 3, 7, 20):
        assert records_with_limit(path, count, 1000) == whole, count


def test_a_split_reader_holds_no_more_than_a_chunk_of_a_line_over_the_limit(tmp_path):
    import tracemalloc

    path = tmp_path / "one-line.jsonl"
    path.write_bytes(b'{"n": 0}\n' + b"a" * (24 << 20) + b'\n{"n": 2}\n')
    reader = splits.RangeReader(str(path), 5, None, limit=64 << 10)  # starts inside line 1
    tracemalloc.start()
    try:
        got = [(line.number, line.size, line.data) for line in reader]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [(1, 24 << 20, None), (2, 8, b'{"n": 2}')]
    assert peak < 4 * splits.CHUNK  # a 24 MB line, never held
    assert reader.part().bytes_read == (24 << 20) + 10


def test_a_utf16_file_is_never_split_in_byte_ranges(tmp_path):
    """Its newline is two bytes: a byte range could start on the wrong half, so every shard
    of it reads (and decodes) the whole file, keeping every n-th record."""
    lines = "".join(f'{{"n": {i}}}\n' for i in range(50))
    utf16, utf8 = tmp_path / "wide.jsonl", tmp_path / "narrow.jsonl"
    utf16.write_bytes(lines.encode("utf-16"))
    utf8.write_bytes(lines.encode())
    sizes = {str(utf16): inputs.MIN_SPLIT_BYTES, str(utf8): inputs.MIN_SPLIT_BYTES}
    kinds = inputs.importers_for_splitting(list(sizes), sizes, None)
    assert kinds == {str(utf8): None}
    shards = inputs.plan_shards(list(sizes), 4, sizes, kinds)
    assert [(s.count, s.stride) for s in shards if s.path == str(utf16)] == [(2, True), (2, True)]
    assert [s.count for s in shards if s.path == str(utf8)] == [2, 2]
    assert [r.text for r in read.read_file(str(utf16))] == [f'{{"n": {i}}}' for i in range(50)]
