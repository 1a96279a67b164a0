"""Builders of the read tests (not tests): importers that stand in for a real one, and a split
read of a file as the load numbers its records."""

from __future__ import annotations

from mahjong_audit.pipeline import inputs, read, splits
from mahjong_audit.pipeline.importers import Importer, ImportFailure, Record
from tests.logbuild import win_game


class FakeImporter(Importer):
    """One game id per line; a file starting with '#fake' is ours; 'bad' cannot be converted."""

    name = "fake"
    suffixes = (".fake",)

    def records(self, source, lines):
        for line in lines:
            if line.text and not line.text.startswith("#"):
                yield Record(source, line.number, line.text)

    def convert(self, record):
        if record.text == "bad":
            raise ImportFailure("unknown record type 'bad'")
        if record.text == "two":
            return [win_game("two-a"), win_game("two-b")]
        return [win_game(record.text)]

    def sniff(self, source, head):
        return head.startswith("#fake")


class CrashingImporter(Importer):
    """Its splitter raises on the line 'split-crash'; its converter returns nothing for 'empty'
    and raises on anything else (an importer with bugs)."""

    name = "crashing"

    def records(self, source, lines):
        for line in lines:
            if line.text == "split-crash":
                raise KeyError("splitter bug")
            yield Record(source, line.number, line.text)

    def convert(self, record):
        if record.text == "empty":
            return []
        raise ZeroDivisionError("importer bug")


def records_with_limit(path, count: int, limit: int):
    """(absolute line, text or the rejection's message) of every record of a ``count``-way
    split read with a record size limit, as the load numbers them."""
    size = path.stat().st_size
    out, base = [], 0
    for k, (start, end) in enumerate(splits.split_points(size, count)):
        shard = inputs.Shard(str(path), k, count, start, end) if count > 1 else inputs.Shard(str(path))
        *recs, part = read.read_shard(shard, None, limit)
        for r in recs:
            line = r.line + (base if r.shard_start else 0)
            out.append((line, r.text if isinstance(r, read.RawRecord) else r.message))
        base += part.lines
    return out
