"""Input expansion, streaming reads, parsing, importers, runner options and progress."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mahjong_audit.pipeline import errors, inputs, parse, progress, read, runner, splits
from mahjong_audit.pipeline.importers import IMPORTERS
from tests.e2e import make_corpus
from tests.logbuild import win_game
from tests.readbuild import FakeImporter


@pytest.fixture
def fake_importer(monkeypatch):
    monkeypatch.setitem(IMPORTERS, "fake", FakeImporter())


def test_expand_inputs_directories_globs_and_files(tmp_path):
    corpus = make_corpus(tmp_path)
    everything = inputs.expand_inputs([str(corpus)])
    assert [Path(p).name for p in everything] == ["a.jsonl", "b.json", "c.jsonl.gz"]
    assert inputs.expand_inputs([str(corpus / "*.json*"), str(corpus / "a.jsonl")]) == (
        str(corpus / "a.jsonl"), str(corpus / "b.json"))
    assert inputs.expand_inputs([str(corpus / "README.txt")]) == (str(corpus / "README.txt"),)
    labels = corpus / "sub" / "c.labels.jsonl"
    labels.write_text('{"game_id": "g4", "kind": "turn_order"}\n')  # simulate's fault labels
    assert len(inputs.expand_inputs([str(corpus)])) == 3
    assert inputs.expand_inputs([str(labels)]) == (str(labels),)
    with pytest.raises(errors.InputError):
        inputs.expand_inputs([str(corpus / "nothing-*.jsonl")])


def test_gz_lines_are_streamed_with_line_numbers(tmp_path):
    path = tmp_path / "big.jsonl.gz"
    with gzip.open(path, "wt") as f:
        for i in range(3000):
            f.write(f'{{"n": {i}}}\n' if i != 10 else "\n")
    recs = list(read.read_records(str(path)))
    assert len(recs) == 2999 and recs[0].line == 1 and recs[-1].line == 3000
    assert recs[10].line == 12  # the blank line 11 is skipped, numbering is not


def test_plan_shards_splits_big_uncompressed_jsonl_into_byte_ranges_up_to_the_parallelism():
    mb = 1 << 20
    one = inputs.plan_shards(["/big.jsonl"], 4, {"/big.jsonl": 32 * mb})
    assert one == tuple(inputs.Shard("/big.jsonl", k, 4, k * 8 * mb, (k + 1) * 8 * mb if k < 3 else None)
                        for k in range(4))
    # many files: spread over the workers whole
    assert inputs.plan_shards(["/a.jsonl", "/b.jsonl"], 2, {"/a.jsonl": 9 * mb, "/b.jsonl": 9 * mb}) == (
        inputs.Shard("/a.jsonl"), inputs.Shard("/b.jsonl"))
    mixed = inputs.plan_shards(["/a.jsonl", "/s.jsonl"], 2, {"/a.jsonl": 50 * mb, "/s.jsonl": mb // 2})
    assert [(s.path, s.index, s.count) for s in mixed] == [("/a.jsonl", 0, 2), ("/a.jsonl", 1, 2), ("/s.jsonl", 0, 1)]
    assert inputs.plan_shards(["/big.jsonl"], 1, {"/big.jsonl": 30 * mb}) == (inputs.Shard("/big.jsonl"),)
    with pytest.raises(ValueError):
        inputs.plan_shards(["/a"], 0, {})
    with pytest.raises(ValueError):
        inputs.Shard("/a", 2, 2)
    with pytest.raises(ValueError):  # a shard of several without its byte range
        inputs.Shard("/a", 0, 2)


def test_compressed_files_and_importer_formats_get_strided_shards_documents_one():
    """A gzip stream or an importer's format cannot be cut in byte ranges: several shards
    each read it whole and keep every n-th record. A whole-document file is one record."""
    mb = 1 << 20
    sizes = {"/big.jsonl.gz": 30 * mb, "/big.jsonl.bz2": 90 * mb, "/d.json": 90 * mb, "/m.txt": 90 * mb}
    plan = inputs.plan_shards(list(sizes), 8, sizes, {"/big.jsonl.gz": None, "/big.jsonl.bz2": None,
                                                      "/m.txt": "botzone-txt"})
    assert inputs.Shard("/d.json") in plan
    for f in ("/big.jsonl.gz", "/big.jsonl.bz2", "/m.txt"):
        mine = [s for s in plan if s.path == f]
        assert mine == [inputs.Shard(f, k, len(mine), stride=True) for k in range(len(mine))] and len(mine) > 1
        assert not any(s.split for s in mine)
    # a big file whose importer is not known (its head could not be read) is not cut in byte ranges either
    assert inputs.plan_shards(["/x.jsonl"], 4, {"/x.jsonl": 30 * mb}, {}) == tuple(
        inputs.Shard("/x.jsonl", k, 4, stride=True) for k in range(4))
    # one worker: one shard, whatever the file
    assert inputs.plan_shards(["/big.jsonl.gz"], 1, {"/big.jsonl.gz": 30 * mb}) == (inputs.Shard("/big.jsonl.gz"),)
    with pytest.raises(ValueError):  # a strided shard has no byte range
        inputs.Shard("/a", 0, 2, 0, 10, stride=True)


def test_strided_shards_read_every_record_once_and_the_file_once(tmp_path):
    path = tmp_path / "g.jsonl.gz"
    with gzip.open(path, "wt") as f:
        for i in range(1001):
            f.write(f'{{"n": {i}}}\n' if i != 10 else "\n")
    f = str(path)
    whole = list(read.read_shard(inputs.Shard(f)))
    for n in (2, 3, 7):
        got = [list(read.read_shard(inputs.Shard(f, k, n, stride=True))) for k in range(n)]
        records = sorted((r for part in got for r in part if isinstance(r, read.RawRecord)), key=lambda r: r.line)
        assert records == [r for r in whole if isinstance(r, read.RawRecord)]
        parts = [r for part in got for r in part if isinstance(r, splits.PartRead)]
        assert parts == [whole[-1]] and got[0][-1] == whole[-1]  # shard 0 says what the file was
        assert max(map(len, got)) - min(map(len, got)) <= 2


def test_a_corrupt_compressed_file_is_rejected_once_over_its_strided_shards(tmp_path):
    path = tmp_path / "bad.jsonl.gz"
    good = gzip.compress("".join(f'{{"n": {i}}}\n' for i in range(5000)).encode())
    path.write_bytes(good[: len(good) // 2])  # cut short
    f = str(path)
    got = [list(read.read_shard(inputs.Shard(f, k, 3, stride=True))) for k in range(3)]
    file_level = [r for part in got for r in part if isinstance(r, read.Rejection) and r.line is None]
    whole = [r for r in read.read_shard(inputs.Shard(f)) if isinstance(r, read.Rejection) and r.line is None]
    assert len(file_level) == len(whole) == 1 and file_level == whole
    assert sum(isinstance(r, read.RawRecord) for part in got for r in part) == \
        sum(isinstance(r, read.RawRecord) for r in read.read_shard(inputs.Shard(f)))


def test_sizes_come_from_the_filesystem(tmp_path):
    path = tmp_path / "g.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.write("\n".join(f'{{"n": {i}}}' for i in range(10)) + "\n")
    assert inputs.file_sizes([str(path)]) == {str(path): path.stat().st_size}
    assert inputs.file_sizes([]) == {}


def test_corrupt_gzip_is_reported_once_with_what_was_read_before(tmp_path):
    path = tmp_path / "bad.jsonl.gz"
    good = gzip.compress(b"".join(b'{"n": %d}\n' % i for i in range(50)))
    path.write_bytes(good[: len(good) // 2])
    out = list(read.read_shard(inputs.Shard(str(path))))
    rejections = [o for o in out if isinstance(o, read.Rejection)]
    assert len(rejections) == 1 and rejections[0].message.startswith("file unreadable")
    part = out[-1]
    assert isinstance(part, splits.PartRead) and part.sha256 is None  # not read to the end
    assert [type(o) for o in read.read_file(str(path))][-1] is read.Rejection


def test_pretty_json_document_is_one_record_and_errors_point_at_the_line(tmp_path):
    doc = tmp_path / "g.json"
    doc.write_text("\n\n" + json.dumps(win_game("pretty"), indent=2))
    (rec,) = read.read_records(str(doc))
    assert rec.line == 3
    (parsed,) = parse.parse_record(rec)
    assert parsed.game.game_id == "pretty" and parsed.line == 3
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": "mahjong-log/1",\n  "game_id": \n}\n')
    (rej,) = parse.parse_file(str(broken))
    assert rej.code == "invalid_log/json" and rej.line == 4 and "line 4" in rej.message


def test_schema_error_keeps_game_id_and_describes_the_place(tmp_path):
    g = win_game("gid-7")
    g["hands"][0]["dealer"] = 9
    (rej,) = parse.parse_record(read.RawRecord("x.jsonl", 12, json.dumps(g)))
    assert (rej.code, rej.line, rej.game_id, rej.ruleset) == ("invalid_log/schema", 12, "gid-7", "mcr")
    assert rej.message.startswith("hands[0].dealer:")
    assert str(rej).startswith("x.jsonl:12: invalid_log/schema [gid-7]: hands[0].dealer")


def test_corrupt_gzip_ends_in_a_rejection_not_a_crash(tmp_path):
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"a": 1}\n' * 10)[:20] + b"\x00garbage" * 50)
    out = list(read.read_file(str(path)))
    assert isinstance(out[-1], read.Rejection) and "unreadable" in out[-1].message


def test_importer_detected_by_sniffing_and_failures_rejected(tmp_path, fake_importer):
    path = tmp_path / "site.fake"
    path.write_text("#fake v1\nalpha\nbad\ntwo\n")
    out = list(parse.parse_file(str(path)))
    assert [(type(o).__name__, o.line) for o in out] == [
        ("ParsedGame", 2), ("Rejection", 3), ("ParsedGame", 4), ("ParsedGame", 4)]
    assert out[1].code == "invalid_log/import" and "unknown record type" in out[1].message
    assert [o.index for o in out if isinstance(o, parse.ParsedGame)] == [0, 0, 1]
    assert [Path(p).name for p in inputs.expand_inputs([str(tmp_path)])] == ["site.fake"]
    with pytest.raises(errors.InputError, match="unknown importer"):
        inputs.importer_for(str(path), "nope")


def test_audit_with_from_importer(tmp_path, fake_importer, capsys):
    from mahjong_audit.pipeline.cli import main

    path = tmp_path / "site.fake"
    path.write_text("alpha\nbad\nbeta\n")  # no '#fake' header: only --from picks the importer
    db = tmp_path / "x.duckdb"
    assert main(["audit", str(path), "--db", str(db), "--from", "fake", "--in-memory"]) == 0
    out = capsys.readouterr().out
    assert "audited 2 games" in out and "rejected: 1 record\n" in out


def test_split_args_passes_beam_options_through():
    ours = frozenset({"--db", "--workers"})
    s = runner.split_args(["logs", "--runner", "FlinkRunner", "--db", "x.duckdb", "--flink_master=h:8081",
                           "--save_main_session", "more", "--workers", "2", "--my_custom", "v"], ours)
    assert s.ours == ("logs", "--db", "x.duckdb", "more", "--workers", "2")
    assert s.beam == ("--runner", "FlinkRunner", "--flink_master=h:8081", "--save_main_session",
                      "--my_custom", "v")
    assert s.unknown == ("--my_custom",)


def test_runner_choice_pins_fnapi_locally_and_passes_others_unchanged():
    local = runner.choose((), workers=4, in_memory=False)
    assert local.pinned_fnapi and local.local
    assert "--direct_running_mode=multi_processing" in local.args and "--direct_num_workers=4" in local.args
    assert "--direct_running_mode=in_memory" in runner.choose((), 1, False).args
    assert "--direct_num_workers=1" in runner.choose((), 8, True).args
    flink = runner.choose(("--runner", "FlinkRunner", "--flink_master", "h:1"), 4, False)
    assert not flink.pinned_fnapi and not flink.local and flink.args == ("--runner", "FlinkRunner", "--flink_master", "h:1")
    with pytest.raises(ValueError):
        runner.choose((), 0, False)


def test_remote_runner_needs_a_shared_staging_folder(tmp_path, capsys):
    from mahjong_audit.pipeline.cli import main

    corpus = make_corpus(tmp_path)
    assert main(["audit", str(corpus), "--db", str(tmp_path / "x.duckdb"), "--runner", "FlinkRunner"]) == 1
    assert "--staging" in capsys.readouterr().err


def test_progress_markers_are_summed_from_file_names(tmp_path):
    folder = str(tmp_path / "progress")
    (tmp_path / "progress").mkdir()
    for phase, n in (("read", 7), ("parsed", 5), ("audited", 3)):
        m = progress.Marker(folder, phase, interval=3600)
        m.add(n)
        m.flush()
        m.flush()  # nothing pending: no empty marker
    progress.Marker(folder, "audited", interval=0).add(2)  # flushed at once
    snap = progress.snapshot(folder)
    assert snap == progress.Snapshot(read=7, parsed=5, audited=5)
    assert progress.snapshot(str(tmp_path / "missing")) == progress.Snapshot()
    line = progress.status_line(snap, elapsed=10, rate=1.0)
    assert "audited 5/7 games" in line and "ETA 0:00:02" in line


def test_strided_shards_of_an_importer_format_read_what_a_whole_read_reads():
    """A platform export (Botzone's data text, 16 games) cut into strided shards: the records
    the importer makes, each once, with the lines and the file's PartRead of a whole read."""
    f = str(Path(__file__).parent / "fixtures" / "real" / "botzone-txt" / "sample.txt")
    whole = list(read.read_shard(inputs.Shard(f)))
    records = [r for r in whole if not isinstance(r, splits.PartRead)]
    assert len(records) >= 10
    for n in (2, 3):
        got = [r for k in range(n) for r in read.read_shard(inputs.Shard(f, k, n, stride=True))]
        assert sorted((r for r in got if not isinstance(r, splits.PartRead)), key=repr) == sorted(records, key=repr)
        assert [r for r in got if isinstance(r, splits.PartRead)] == [whole[-1]]
        games = [g for rec in got if isinstance(rec, read.RawRecord) for g in parse.parse_record(rec)]
        assert sorted(g.game.game_id for g in games if isinstance(g, parse.ParsedGame)) == sorted(
            g.game.game_id for rec in records if isinstance(rec, read.RawRecord) for g in parse.parse_record(rec)
            if isinstance(g, parse.ParsedGame))


def test_truncated_gzip_keeps_every_complete_record_and_names_the_line_it_broke_at(tmp_path):
    """Issue 25: a .gz cut short lost up to 1 MB of complete lines read before the break."""
    import random

    rng = random.Random(7)  # noise that does not compress, so the cut falls in the middle
    lines = [json.dumps({"n": i, "pad": "".join(rng.choice("abcdefghij") for _ in range(2000))})
             for i in range(400)]
    whole = gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 3 // 4])
    with gzip.open(path, "rb") as f:  # what the stream gives before it breaks, read a little at a time
        got = b""
        try:
            while chunk := f.read1(1 << 14):
                got += chunk
        except EOFError:
            pass
    complete = got.count(b"\n")
    assert 100 < complete < 400
    out = list(read.read_file(str(path)))
    records = [o for o in out if isinstance(o, read.RawRecord)]
    assert [r.line for r in records] == list(range(1, complete + 1))
    assert records[-1].text == lines[complete - 1]
    (rej,) = [o for o in out if isinstance(o, read.Rejection)]
    assert rej.line is None and rej.message.startswith(
        f"file unreadable from line {complete + 1} on (the stream breaks there; the {complete} lines before it "
        "are read): Compressed file ended before the end-of-stream marker was reached")
