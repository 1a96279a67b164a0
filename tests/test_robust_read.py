"""Hostile bytes at the reading and parsing layer: every record ends as a game or a
rejection with a clear reason, never an exception (issue 15)."""

from __future__ import annotations

import gzip
import io
import json
import random
from pathlib import Path

import pytest

from mahjong_audit.pipeline import parse, read, rows, transforms
from mahjong_audit.pipeline.importers import IMPORTERS, OverLimit
from mahjong_audit.pipeline.importers.base import blank_line_blocks
from mahjong_audit.pipeline.lines import (
    Line,
    Unread,
    bounded_paragraphs,
    encoding_of,
    raw_chunks,
    read_head,
    split_lines,
    text_lines,
    utf8_chunks,
)
from tests.logbuild import win_game
from tests.readbuild import CrashingImporter

ROOT = Path(__file__).resolve().parent.parent


def one(text: str, importer: str | None = None):
    (out,) = parse.parse_record(read.RawRecord("f.jsonl", 7, text, importer))
    return out


# --------------------------------------------------------------------------- line splitting


@pytest.mark.parametrize("seed", range(20))
def test_split_lines_matches_str_split_under_any_chunking(seed):
    rng = random.Random(seed)
    lines = [bytes(rng.choice(b"ab{}\r ") for _ in range(rng.choice((0, 1, 5, 40))))
             for _ in range(rng.randint(0, 30))]
    data = b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")
    cuts = sorted(rng.sample(range(len(data) + 1), min(len(data), rng.randint(0, 8))))
    chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    limit = rng.choice((3, 10, 1000))
    want = [(len(x), x if len(x) <= limit else None) for x in data.split(b"\n")]
    if data.endswith(b"\n") or not data:
        want = want[:-1]
    assert [(line.size, line.data) for line in split_lines(chunks, limit)] == want


def test_a_line_over_the_limit_is_never_held_and_comes_with_its_size():
    chunks = [b"x" * 100] * 50 + [b"\nok"]  # one 5000-byte line in 100-byte chunks
    assert [(line.size, line.data) for line in split_lines(iter(chunks), 1000)] == [(5000, None), (2, b"ok")]
    assert next(split_lines(iter(chunks), 1000)) == Line(1, 5000, None, Unread.LINE_OVER_LIMIT)


def test_a_jsonl_record_over_the_limit_is_rejected_with_its_size(tmp_path):
    p = tmp_path / "big.jsonl"
    big = json.dumps(win_game("big") | {"meta": {"pad": "x" * 3_000_000}})
    p.write_text(json.dumps(win_game("a")) + "\n" + big + "\n" + json.dumps(win_game("b")) + "\n")
    out = list(parse.parse_file(str(p), limit=1_000_000))
    assert [type(o).__name__ for o in out] == ["ParsedGame", "Rejection", "ParsedGame"]
    assert out[1].line == 2 and f"record of {len(big):,} bytes" in out[1].message
    assert "--max-record-bytes" in out[1].message
    assert [o.line for o in parse.parse_file(str(p))] == [1, 2, 3]  # the default limit reads it


def test_a_pretty_document_over_the_limit_is_rejected_with_its_size(tmp_path):
    p = tmp_path / "big.json"
    text = json.dumps(win_game("big") | {"meta": {"pad": ["x" * 50] * 5000}}, indent=1)
    p.write_text("\n" + text + "\n")
    (rej,) = parse.parse_file(str(p), limit=20_000)
    assert isinstance(rej, read.Rejection) and rej.line == 2
    assert f"record of {len(text.encode()) + 1:,} bytes" in rej.message  # + its final newline


def test_a_multi_line_record_over_the_limit_keeps_later_line_numbers(tmp_path):
    lines = ["a", "b", "", "c" * 30, "d" * 30, "e", "", "f"]
    got = list(bounded_paragraphs(text_lines("\n".join(lines)), 40))
    assert [line.number for line in got] == list(range(1, len(lines) + 1))
    assert [line.text for line in got[:4]] == ["a", "b", "", "c" * 30] and [line.text for line in got[6:]] == ["", "f"]
    assert [line.unread for line in got[4:6]] == [Unread.RECORD_OVER_LIMIT] * 2
    (rec, over, after) = blank_line_blocks("x.txt", got)  # the record: its lines' bytes with their newlines
    assert (rec.line, over, after.text) == (1, OverLimit("x.txt", 4, 64), "f")


def test_an_importers_record_over_the_limit_is_rejected_with_its_size_and_the_rest_read():
    """The Lines reach the importer: a block with a line read past is an OverLimit, rejected
    with the block's size (its lines' bytes, each with its newline); the other blocks read
    as without a limit, at the same lines."""
    sample = ROOT / "tests/fixtures/real/botzone-txt/sample.txt"
    sizes: dict[int, int] = {}  # first line of each block -> its size
    start = None
    for no, raw in enumerate(sample.read_bytes().split(b"\n"), 1):
        if not raw.strip():
            start = None
            continue
        start = start or no
        sizes[start] = sizes.get(start, 0) + len(raw) + 1
    limit = sorted(sizes.values())[len(sizes) // 2]  # about half the blocks are over it
    whole = list(read.read_file(str(sample), "botzone-txt"))
    cut = list(read.read_file(str(sample), "botzone-txt", limit))
    assert [r.line for r in cut] == [r.line for r in whole] == list(sizes) and len(whole) == 16
    for got, want in zip(cut, whole, strict=True):
        if sizes[want.line] > limit:
            assert isinstance(got, read.Rejection) and got.code == "invalid_log/json"
            assert f"record of {sizes[want.line]:,} bytes is over the size limit of {limit:,} bytes" in got.message
        else:
            assert got == want


def test_a_line_has_its_text_or_why_it_has_none():
    assert Line(3, 2, "ok").text == "ok" and not Line(3, 2, "ok").blank and Line(4, 1, " ").blank
    assert not Line(5, 10**9, None, Unread.LINE_OVER_LIMIT).blank  # read past: not a blank line
    with pytest.raises(ValueError):
        Line(1, 5, None)
    with pytest.raises(ValueError):
        Line(1, 2, "ok", Unread.RECORD_OVER_LIMIT)
    assert [(x.number, x.text) for x in text_lines("a\r\n\nb")] == [(1, "a"), (2, ""), (3, "b")]


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_utf16_and_bom_files_are_decoded(tmp_path, encoding):
    p = tmp_path / "games.jsonl"
    text = json.dumps(win_game("g1")) + "\n" + json.dumps(win_game("玩家-2")) + "\r\n"
    p.write_bytes(text.encode(encoding))
    got = list(parse.parse_file(str(p)))
    assert [g.game.game_id for g in got] == ["g1", "玩家-2"]


def test_invalid_utf8_and_nul_bytes_are_rejected_per_line(tmp_path):
    p = tmp_path / "bad.jsonl"
    good = json.dumps(win_game("g1")).encode()
    p.write_bytes(good + b"\n\xff\xfe\x80{\n\x00\x00\x00\n" + good.replace(b"g1", b"g2") + b"\n")
    got = list(parse.parse_file(str(p)))
    assert [(type(o).__name__, o.line) for o in got] == [
        ("ParsedGame", 1), ("Rejection", 2), ("Rejection", 3), ("ParsedGame", 4)]
    assert all(o.code == "invalid_log/json" for o in got[1:3])


# --------------------------------------------------------------------------- parsing


def test_a_nesting_bomb_is_a_json_rejection_not_a_recursion_error():
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000):
        rej = one(text)
        assert rej.code == "invalid_log/json" and "nested too deeply" in rej.message


@pytest.mark.parametrize("value", ["1e999", "NaN", "-Infinity", "1" * 400])
def test_non_finite_and_huge_numbers_are_schema_rejections(value):
    text = json.dumps(win_game("g")).replace('"hand_no": 0', f'"hand_no": {value}')
    out = one(text)
    if value == "1" * 400:  # a valid (huge) integer: the game parses; its rows cannot be stored
        assert isinstance(out, parse.ParsedGame)
        from mahjong_audit.engine.audit import audit_game

        made, *_ = transforms.item_rows((out, audit_game(out.game)), "run")
        assert [rows.table_of(r) for r in made] == ["rejected", "findings"]
        assert made[0].code == "invalid_log/schema" and made[0].game_id == "g"
        assert made[0].message.startswith("a number in this log is too large to store: ")
        assert "does not fit in 64 bits" in made[0].message
    else:
        assert out.code in ("invalid_log/json", "invalid_log/schema")


def test_an_importer_that_raises_or_returns_nothing_gives_rejections(monkeypatch, tmp_path):
    monkeypatch.setitem(IMPORTERS, "crashing", CrashingImporter())
    rej = one("anything", "crashing")
    assert rej.code == "invalid_log/import"
    assert rej.message == "the crashing importer failed on this record: ZeroDivisionError: importer bug"
    assert one("empty", "crashing").message == "crashing: no game in this record"
    p = tmp_path / "x.txt"
    p.write_text("a\nsplit-crash\nb\n")
    got = list(read.read_file(str(p), "crashing"))
    assert [type(o).__name__ for o in got] == ["RawRecord", "Rejection"]
    assert got[1].code == "invalid_log/import" and "after line 1" in got[1].message
    assert "KeyError" in got[1].message


def test_an_unexpected_parser_failure_is_a_rejection(monkeypatch):
    def broken(rec, fast=False):
        raise MemoryError("no room")

    monkeypatch.setattr(parse, "parse_native", broken)
    rej = one("{}")
    assert rej.code == "invalid_log/schema" and "the parser failed" in rej.message
    assert "MemoryError: no room" in rej.message
    # the audit's fast path (mahjong_audit.schemas.log_fast) goes through the same guard
    (fast,) = parse.parse_record(read.RawRecord("f.jsonl", 7, "{}"), fast=True)
    assert fast == rej


def test_messages_quoting_a_whole_record_are_cut_short():
    text = read.short("x" * 10_000)
    assert len(text) < 600 and text.endswith("(10,000 characters)")


def test_lone_surrogates_never_reach_a_row():
    rej = read.Rejection("f\udcff.jsonl", 1, "invalid_log/import", "bad \ud800 text", "id\ud800")
    made = rows.rejection_rows(rej, "run")
    for r in made:
        rows.check_storable((r,))
    assert made[0].game_id == "id?" and made[0].source_file == "f?.jsonl"


def test_gzip_streams_are_split_the_same(tmp_path):
    p = tmp_path / "g.jsonl.gz"
    with gzip.open(p, "wt") as f:
        f.write(json.dumps(win_game("g1")) + "\n" + "[" * 50_000 + "\n")
    got = list(parse.parse_file(str(p)))
    assert isinstance(got[0], parse.ParsedGame) and got[1].code == "invalid_log/json"
    assert read_head(str(p), 10) == '{"format":'[:10]


def test_encoding_sniffing_reads_few_bytes():
    assert encoding_of(b"{\x00\"\x00") == "utf-16-le"
    assert encoding_of(b"\x00{\x00\"") == "utf-16-be"
    assert encoding_of(b"\xff\xfe{\x00") == "utf-16"
    assert encoding_of(b'{"a"') is None
    assert b"".join(utf8_chunks(iter([b"\xef\xbb", b"\xbf{}"]))) == b"{}"
    assert list(raw_chunks(io.BytesIO(b""))) == []


@pytest.mark.parametrize("player", [7, "0", None, True])
def test_botzone_display_naming_no_seat_is_an_import_failure(player, tmp_path):
    """Found by the type check: a display's player went unchecked into list indexes."""
    src = ROOT / "tests/fixtures/real/botzone-json/6a2065c358ebe27b197de009_lite.json"
    data = json.loads(src.read_text())
    data["logs"][6]["output"]["display"]["player"] = player  # a PLAY display
    p = tmp_path / "m_lite.json"
    p.write_text(json.dumps(data))
    (rej,) = parse.parse_file(str(p), "botzone-json")
    assert rej.code == "invalid_log/import"
    assert f"logs[6]: PLAY display names player {player!r}, not a seat 0..3" in rej.message


@pytest.mark.parametrize("name, importer, document", [
    ("sample_logs/mcr-faulty.jsonl", None, False),
    ("sample_logs/guangdong-faulty.json", None, True),
    ("tests/fixtures/real/botzone-txt/sample.txt", "botzone-txt", False),
])
@pytest.mark.parametrize("limit", [64 << 20, 3000])
def test_a_body_in_memory_reads_as_a_file_of_its_bytes(name, importer, document, limit):
    """``serve``'s request bodies go through the reader's own records and size limit."""
    path = ROOT / name
    body = list(read.read_body(str(path), path.read_bytes(), importer, document, limit))
    assert body == list(read.read_file(str(path), importer, limit)) and body
