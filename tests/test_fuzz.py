"""Seeded fuzzing in ``make test`` (issue 15): mutants of the sample logs and fixtures in
every format, plus the listed hostile cases, audit with exit 0 and every record of every
file accounted for. ``make fuzz`` runs many more rounds (``tests/fuzzing.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import fuzzing


@pytest.mark.slow  # a whole audit
def test_fuzzed_logs_of_every_format_audit_with_every_record_accounted_for(tmp_path):
    corpus = fuzzing.build_corpus(tmp_path / "corpus", seed=15, rounds=1)
    outcome = fuzzing.run_and_check(corpus, tmp_path / "fuzz.duckdb")
    assert outcome.exit_status == 0, outcome.summary
    assert outcome.unreconciled == []
    named = {f[0] for f in outcome.files}
    # every file with a record is in run_files; the empty ones have no record to count
    for p in corpus.inputs:
        if p.name not in ("empty.jsonl", "blank-lines.jsonl"):
            assert str(p) in named, p
    by_name = {f[0].rsplit("/", 1)[1]: f[1:] for f in outcome.files}
    assert by_name["nesting-bomb.jsonl"] == (2, 1, 0, 1)
    assert by_name["big-record.jsonl"] == (2, 1, 0, 1)
    assert by_name["big-document.json"] == (1, 0, 0, 1)
    assert by_name["utf16.jsonl"] == (1, 1, 0, 0) and by_name["utf16-nobom.jsonl"] == (1, 1, 0, 0)
    assert by_name["non-finite.jsonl"] == (4, 0, 0, 4)
    assert by_name["duplicates.jsonl"][2] == 1
    assert "records: " in outcome.summary and " read = " in outcome.summary


def test_the_fuzz_corpus_is_the_same_for_the_same_seed(tmp_path):
    a = fuzzing.build_corpus(tmp_path / "a", seed=3)
    b = fuzzing.build_corpus(tmp_path / "b", seed=3)
    assert [p.read_bytes() for p in a.inputs] == [p.read_bytes() for p in b.inputs]


def test_fuzzed_json_lines_read_in_byte_ranges_give_the_whole_read(tmp_path):
    """Every fuzzed file the driver would split (uncompressed native JSON Lines, not
    UTF-16) gives, read as 1, 2 or 3 byte ranges, the records and rejections of a whole
    read, line numbers made absolute as the load does."""
    from mahjong_audit.pipeline import inputs, read
    from tests.readbuild import records_with_limit

    corpus = fuzzing.build_corpus(tmp_path / "corpus", seed=15, rounds=1)
    files = [str(p) for p in corpus.inputs]
    sizes = dict.fromkeys(files, inputs.MIN_SPLIT_BYTES)  # as if each were big enough
    kinds = inputs.importers_for_splitting(files, sizes, None)
    split = [f for f in files if f in kinds and inputs.splittable(f, kinds[f])]
    assert len(split) >= 10
    for f in split:
        whole = [(r.line, r.text if isinstance(r, read.RawRecord) else r.message)
                 for r in read.read_file(f, None, fuzzing.LIMIT)]
        for count in (2, 3):
            assert records_with_limit(Path(f), count, fuzzing.LIMIT) == whole, (f, count)
