"""A native JSON line keeps its bytes (RawRecord.data) for the fast path, which decodes them
instead of encoding the line's text again, and its text is decoded only when asked for: the
same JSON as the text (bytes that are not valid UTF-8 the fast path declines, and the models
read the text); whole and split reads alike; the same games and rejections."""

from __future__ import annotations

import dataclasses
import gzip
import json
import pickle

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import inputs, lines, parse, read, splits
from mahjong_audit.pipeline.rows import audit_rows
from mahjong_audit.schemas import log_fast as F
from tests.logbuild import win_game


def _game_line(game_id: str) -> bytes:
    game = win_game(game_id)
    game["hands"][0]["outcome"]["wins"][0]["score"]["fans"] = [["七对", 24, 1], ["自摸", 1, 1]]  # not ASCII
    return json.dumps(game, ensure_ascii=False).encode()


def _shards(path, count):
    size = path.stat().st_size
    if count == 1:
        return [inputs.Shard(str(path))]
    return [inputs.Shard(str(path), k, count, s, e) for k, (s, e) in enumerate(splits.split_points(size, count))]


def _records(path, count):
    return [r for shard in _shards(path, count) for r in read.read_shard(shard) if isinstance(r, read.RawRecord)]


@pytest.mark.parametrize("count", [1, 3])
def test_each_native_line_keeps_its_bytes_whole_or_split(tmp_path, count):
    path = tmp_path / "g.jsonl"
    lines = [_game_line(f"g{i}") for i in range(6)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    recs = _records(path, count)
    assert [r.data for r in recs] == lines
    assert all(r.data.decode() == r.text for r in recs)


def test_crlf_and_a_byte_order_mark_keep_the_same_json_in_the_bytes(tmp_path):
    path = tmp_path / "w.jsonl"
    lines = [_game_line(f"g{i}") for i in range(8)]
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(line + b"\r\n" for line in lines))
    for count in (1, 2, 3):
        recs = _records(path, count)
        assert [r.data for r in recs] == [line + b"\r" for line in lines]  # JSON white space
        assert [r.text for r in recs] == [line.decode() for line in lines]


def test_a_line_that_is_not_utf8_is_read_from_its_text_as_before(tmp_path):
    path = tmp_path / "bad.jsonl"
    bad = _game_line("g2").replace("七对".encode(), b"\xff\xfe")
    path.write_bytes(_game_line("g1") + b"\n" + bad + b"\n")
    for count in (1, 2):
        recs = _records(path, count)
        assert recs[0].data is not None and recs[1].data == bad  # the bytes as read
        assert F.decode_game(recs[1].data) is None  # the fast path declines bytes that are not UTF-8 ...
        assert "\ufffd" in recs[1].text  # ... and the models read the text
        # the replacement characters are valid JSON in a string: the game reads, as the text says
        (fast,), (model,) = parse.parse_record(recs[1], fast=True), parse.parse_record(recs[1])
        fan = fast.game.hands[0].outcome.wins[0].score.fans[0][0]
        assert fan == model.game.hands[0].outcome.wins[0].score.fans[0][0] == "\ufffd\ufffd"


def test_documents_importers_and_gzip(tmp_path):
    doc = tmp_path / "one.json"
    doc.write_text(json.dumps(win_game("d"), indent=2))
    assert [r.data for r in read.read_file(str(doc))] == [None]  # a document: text only
    gz = tmp_path / "g.jsonl.gz"
    with gzip.open(gz, "wb") as f:
        f.write(_game_line("z1") + b"\n\n" + _game_line("z2") + b"\n")
    recs = list(read.read_file(str(gz)))
    assert [(r.line, r.data) for r in recs] == [(1, _game_line("z1")), (3, _game_line("z2"))]
    assert [r.line for r in read.read_records(str(gz))] == [1, 3]


def test_records_with_and_without_their_bytes_parse_alike(tmp_path):
    path = tmp_path / "mix.jsonl"
    bad_tile = win_game("g3")
    bad_tile["hands"][0]["events"][0]["tile"] = "10m"
    lax = json.loads(_game_line("g4"))
    lax["hands"][0]["dealer"] = "0"  # the models accept it, the fast path does not: read through the models
    path.write_bytes(b"\n".join([_game_line("g1"), b"{not json", json.dumps(bad_tile).encode(),
                                 json.dumps(lax).encode(), b"[1, 2]"]) + b"\n")
    for rec in _records(path, 1):
        assert rec.data is not None
        with_bytes = parse.parse_record(rec, fast=True)
        text_only = parse.parse_record(read.RawRecord(rec.source, rec.line, rec.text), fast=True)
        models = parse.parse_record(rec)
        assert with_bytes == text_only
        for a, b in zip(with_bytes, models, strict=True):
            if isinstance(a, parse.ParsedGame):
                assert audit_rows(a, audit_game(a.game), "r") == audit_rows(b, audit_game(b.game), "r")
            else:
                assert a == b


def test_the_bytes_do_not_change_equality_or_repr():
    a = read.RawRecord("x.jsonl", 1, "{}", data=b"{}")
    b = read.RawRecord("x.jsonl", 1, "{}")
    assert a == b and repr(a) == repr(b)


def test_a_line_and_a_record_decode_their_text_only_when_asked(tmp_path):
    raw = _game_line("g1")
    line = lines.Line.of_bytes(3, len(raw) + 1, raw + b"\r")
    assert line == lines.Line(3, len(raw) + 1, raw.decode()) and not line.blank
    rec = read.RawRecord.of_bytes("x.jsonl", 3, raw, 7)
    assert pickle.loads(pickle.dumps(rec)) == rec == read.RawRecord("x.jsonl", 3, raw.decode(), None, 7)
    fresh = read.RawRecord.of_bytes("x.jsonl", 3, raw)
    (game,) = parse.parse_record(fresh, fast=True)
    assert isinstance(game, parse.ParsedGame)
    with pytest.raises(AttributeError):  # the fast path read the bytes alone: the text slot is still empty
        object.__getattribute__(fresh, "text")
    assert fresh.text == raw.decode()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh.text = "x"  # type: ignore[misc]
    assert lines.Line.of_bytes(1, 3, b" \t\r").blank and not lines.Line.of_bytes(1, 1, b"x").blank


def test_a_record_not_decoded_pickles_as_its_bytes():
    """Beam pickles sampled records to estimate their size: a record whose text was never
    decoded pickles its bytes alone and stays undecoded, and the copy decodes the same text
    when asked; a decoded record, or one made from its text, pickles as before."""
    raw = _game_line("g1")
    rec = read.RawRecord.of_bytes("x.jsonl", 3, raw, 7)
    data = pickle.dumps(rec, pickle.HIGHEST_PROTOCOL)
    with pytest.raises(AttributeError):  # pickling did not decode it
        object.__getattribute__(rec, "text")
    assert len(data) < 1.2 * len(raw)  # the bytes, not the bytes and the text
    copy = pickle.loads(data)
    assert type(copy) is read.RawRecord and copy.data == raw
    with pytest.raises(AttributeError):
        object.__getattribute__(copy, "text")
    assert copy == rec == read.RawRecord("x.jsonl", 3, raw.decode(), None, 7) and copy.text == raw.decode()
    assert pickle.loads(pickle.dumps(copy)) == rec  # decoded now: pickled with its text
    made = read.RawRecord("x.jsonl", 3, raw.decode())
    assert pickle.loads(pickle.dumps(made)) == made and pickle.loads(pickle.dumps(made)).data is None
    line = lines.Line.of_bytes(2, len(raw) + 1, raw + b"\r")
    line_copy = pickle.loads(pickle.dumps(line))
    assert line_copy == line and line_copy.data == raw + b"\r" and line_copy.text == raw.decode()
