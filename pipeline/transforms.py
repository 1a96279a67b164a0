"""The audit pipeline as composite PTransforms with labelled stages.

``ReadRecords → ParseAndValidate → Replay → WriteRows → WriteManifest``.

Only small shard descriptors (file, shard k of n) cross a shuffle: every later step runs
fused in one stage on the worker that reads the shard, which writes its rows straight to
Parquet in the staging folder and outputs only the names of the files it wrote. The games
go through the steps a :class:`Batch` of :data:`GAMES_PER_BATCH` at a time, each step over
the whole Batch before the next. So neither the runner nor a worker holds more than one
Batch of games and one batch of rows per table, whatever the input size. Game ids are not
grouped here: the driver drops second copies of a game_id at load time
(``mahjong_audit.pipeline.sink``), by the source position every row carries.

Every DoFn is a thin wrapper over a plain function of ``mahjong_audit.pipeline.read`` /
``mahjong_audit.pipeline.parse`` / ``mahjong_audit.pipeline.rows`` /
``mahjong_audit.pipeline.staging``; bad records leave through tagged outputs (parse failures)
or as dead letters (engine failures: ``with_exception_handling``'s, and the same for each
game of a Batch), never a bare except. Nothing here assumes one machine: inputs and the
staging folder are FileSystems paths, and no Python state is shared between workers.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import pickle
import traceback
from collections.abc import Callable
from itertools import groupby
from typing import Any

import apache_beam as beam
from apache_beam import pvalue
from apache_beam.metrics import Metrics
from apache_beam.transforms.window import GlobalWindow
from apache_beam.utils.timestamp import MIN_TIMESTAMP
from apache_beam.utils.windowed_value import WindowedValue

from mahjong_audit.pipeline import inputs, parse, read, rows, splits, staging
from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES
from mahjong_audit.pipeline.progress import Marker

NAMESPACE = "mahjong_audit"
REJECTED = "rejected"
DUPLICATES = "duplicates"
COUNTS = "counts"  # records parsed per file (rows.FileCount)
PARTS = "parts"  # what each shard read (mahjong_audit.pipeline.splits.PartRead)
FAILED = "failed"  # what the engine raised on (a game, or a Batch of one), with the exception

AuditFn = Callable[[Any], Any]  # mahjong_audit.engine.rechecks.audit_with_rechecks: Game -> GameAudit


def _counter(name: str):
    return Metrics.counter(NAMESPACE, name)


#: objects allocated (less those freed) between two young collections in a worker (CPython's default: 700)
YOUNG_COLLECTION_EVERY = 100_000


def set_up_collector() -> None:
    """The garbage collector of a process that audits games (a worker, once its start-up is done).

    The start-up heap (Beam, pydantic, pyarrow: ~10^5-10^6 objects) lives as long as the
    process: frozen, out of the collector's sight, its full passes over the games' young
    objects cost a fraction. A game makes and drops thousands of containers, nearly all freed
    by their reference counts (12,000 MCR hands leave no cyclic garbage but the ~30,000 lists
    the suit tables' one build drops). A young collection walks every young object alive at
    that moment, mostly the batch in hand and the staged rows not yet written (~13,000
    objects with ~115,000 references in an MCR run): its cost is per collection, not per
    object freed. Every 10,000 allocations that walk came every ~200 hands (65 young and
    middle collections over 12,000 MCR hands, ~0.3 s); every
    :data:`YOUNG_COLLECTION_EVERY` (100,000) it comes 3 times (~0.09 s). Cyclic garbage
    waits for at most that many allocations."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])


class _MarkingDoFn(beam.DoFn):
    """A DoFn that may report progress markers of one phase."""

    phase = ""

    def __init__(self, progress_dir: str | None = None):
        super().__init__()
        self.progress_dir = progress_dir
        self._marker: Marker | None = None

    def setup(self) -> None:
        self._marker = Marker(self.progress_dir, self.phase) if self.progress_dir else None

    def _mark(self, n: int = 1) -> None:
        if self._marker is not None:
            self._marker.add(n)

    def finish_bundle(self) -> None:
        if self._marker is not None:
            self._marker.flush()


class ParsedGameCoder(beam.coders.Coder):
    """Beam's coder for the games between the parse and the replay: pickles them as the
    default coder does, but estimates their size without doing so.

    Beam samples elements of every PCollection to estimate their byte size (metrics, and
    Dataflow's scaling), by default by encoding them: a game's ~150 frozen dataclasses
    pickle in ~1.5 ms, longer than its validation. Within the fused stage the games are
    never encoded; across a stage boundary (another runner's fusion) they are pickled as
    before."""

    BYTES_PER_HAND = 8000  # a pickled hand of a simulated corpus: MCR 9.5 KB, Guangdong 6.6, Longgang 5.3

    def encode(self, value: parse.ParsedGame) -> bytes:
        return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)

    def decode(self, encoded: bytes) -> parse.ParsedGame:
        return pickle.loads(encoded)

    def estimate_size(self, value: Any) -> int:
        return self.BYTES_PER_HAND * max(1, self.hands(value))

    def hands(self, value: Any) -> int:
        """The hands of a value this coder encodes (a ParsedGame)."""
        return len(value.game.hands)

    def is_deterministic(self) -> bool:
        return False

    def to_type_hint(self):
        return parse.ParsedGame

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))


beam.coders.registry.register_coder(parse.ParsedGame, ParsedGameCoder)

#: records of a shard validated, audited and written as one element in ``AuditPipeline``: each
#: step then runs over this many games in a row, its code and data warm (the same instructions
#: as one game at a time through every step, less CPU time: docs/performance.md, eleventh round)
GAMES_PER_BATCH = 32


@dataclasses.dataclass(frozen=True, slots=True)
class Batch:
    """Several games as one element: ParsedGames from the parse, (ParsedGame, audit) pairs
    from the replay, in record order."""

    items: tuple

    def hands(self) -> int:
        return sum(len((item[0] if type(item) is tuple else item).game.hands) for item in self.items)


class BatchCoder(ParsedGameCoder):
    """:class:`ParsedGameCoder` for a :class:`Batch`: its size estimated from its hands."""

    def hands(self, value: Any) -> int:
        """The hands of a Batch."""
        return value.hands()

    def to_type_hint(self):
        return Batch


beam.coders.registry.register_coder(Batch, BatchCoder)


def _in_global_window(out: Any) -> Any:
    """An output made in ``finish_bundle`` (a value, or a TaggedOutput of one) in the global window."""
    if isinstance(out, pvalue.TaggedOutput):
        return pvalue.TaggedOutput(out.tag, WindowedValue(out.value, MIN_TIMESTAMP, (GlobalWindow(),)))
    return WindowedValue(out, MIN_TIMESTAMP, (GlobalWindow(),))


# --------------------------------------------------------------------------- read


def as_shard(item: str | inputs.Shard) -> inputs.Shard:
    """A file path is its own single shard."""
    return item if isinstance(item, inputs.Shard) else inputs.Shard(item)


class ReadShardFn(_MarkingDoFn):
    """A shard -> its records (streamed); an unreadable file -> a Rejection (from shard 0)."""

    phase = "read"

    def __init__(self, importer: str | None = None, progress_dir: str | None = None,
                 max_record_bytes: int = MAX_RECORD_BYTES):
        super().__init__(progress_dir)
        self.importer, self.max_record_bytes = importer, max_record_bytes
        self.records = _counter("records")
        self.files = _counter("files")
        self.shards = _counter("shards")

    def process(self, shard):
        self.shards.inc()
        if shard.index == 0:
            self.files.inc()
        for rec in read.read_shard(shard, self.importer, self.max_record_bytes):
            if not isinstance(rec, splits.PartRead):
                self.records.inc()
                self._mark()
            yield rec


class ReadRecords(beam.PTransform):
    """PCollection of file paths or Shards -> PCollection of RawRecord (or file-level
    Rejection). Only the shard descriptors are reshuffled (spread over the workers); the
    records stay on the worker that reads them."""

    def __init__(self, importer: str | None = None, progress_dir: str | None = None,
                 max_record_bytes: int = MAX_RECORD_BYTES):
        super().__init__()
        self.importer, self.progress_dir = importer, progress_dir
        self.max_record_bytes = max_record_bytes

    def expand(self, shards):
        return (
            shards
            | "AsShards" >> beam.Map(as_shard)
            | "Spread" >> beam.Reshuffle()
            | "ReadShards" >> beam.ParDo(ReadShardFn(self.importer, self.progress_dir, self.max_record_bytes))
        )


# --------------------------------------------------------------------------- parse


class ParseFn(_MarkingDoFn):
    """RawRecord -> ParsedGame on the main output, Rejection on ``rejected``.

    A record an importer turns into several games with the same game_id (the only copies
    that share a source position) keeps the first; the others go to ``duplicates`` as
    finding rows. Copies in different records are left to the load (``mahjong_audit.pipeline.sink``).

    The records of each file are counted (one per game for a record that holds several)
    and the counts leave on ``counts`` as :class:`rows.FileCount` when the bundle ends, so
    the load can check that every record became a game, a duplicate or a rejection.

    ``batch`` > 1: the records are validated ``batch`` at a time (the last ones when the
    bundle ends), and their games leave as one :class:`Batch` each time.
    """

    phase = "parsed"

    def __init__(self, progress_dir: str | None = None, batch: int = 1):
        super().__init__(progress_dir)
        self.batch = batch

    def setup(self) -> None:
        super().setup()
        set_up_collector()

    def start_bundle(self) -> None:
        self._counts: dict[str, int] = {}
        self._held: list = []  # records waiting for a batch

    def process(self, rec):
        if isinstance(rec, splits.PartRead):
            yield pvalue.TaggedOutput(PARTS, rec)
        elif self.batch == 1:
            yield from self._record_outputs(rec)
        else:
            self._held.append(rec)
            if len(self._held) >= self.batch:
                held, self._held = self._held, []
                yield from self._batch_outputs(held)

    def _record_outputs(self, rec):
        """A record's games (main output), rejections and duplicates (tagged)."""
        self._mark()
        seen = {}  # game_id -> ParsedGame of this record
        outs = parse.parse_record(rec, fast=True)  # the engine reads the fast path's dataclasses
        self._counts[rec.source] = self._counts.get(rec.source, 0) + max(1, len(outs))
        for out in outs:
            if isinstance(rec, read.RawRecord) and rec.shard_start:
                out = dataclasses.replace(out, shard_start=rec.shard_start)
            if isinstance(out, read.Rejection):
                yield pvalue.TaggedOutput(REJECTED, out)
            elif out.game.game_id in seen:
                yield pvalue.TaggedOutput(DUPLICATES, rows.duplicate_values(out, seen[out.game.game_id]))
            else:
                seen[out.game.game_id] = out
                yield out

    def _batch_outputs(self, records: list):
        """The records' rejections and duplicates, then their games as one Batch."""
        games = []
        for rec in records:
            for out in self._record_outputs(rec):
                if isinstance(out, pvalue.TaggedOutput):
                    yield out
                else:
                    games.append(out)
        if games:
            yield Batch(tuple(games))

    def finish_bundle(self):
        held, self._held = self._held, []
        for out in self._batch_outputs(held):
            yield _in_global_window(out)
        super().finish_bundle()
        counts, self._counts = self._counts, {}
        for source, n in sorted(counts.items()):
            yield _in_global_window(pvalue.TaggedOutput(COUNTS, rows.FileCount(source, n)))


class ParseAndValidate(beam.PTransform):
    """Records -> ``games`` (ParsedGame; a Batch of them if ``batch`` > 1), ``rejected``
    (Rejection), ``duplicates`` (rows), ``counts`` (FileCount), ``parts`` (PartRead, passed through)."""

    def __init__(self, progress_dir: str | None = None, batch: int = 1):
        super().__init__()
        self.progress_dir, self.batch = progress_dir, batch

    def expand(self, records):
        return records | "Parse" >> beam.ParDo(ParseFn(self.progress_dir, self.batch)).with_output_types(
            Batch if self.batch > 1 else parse.ParsedGame).with_outputs(
            REJECTED, DUPLICATES, COUNTS, PARTS, main="games")


# --------------------------------------------------------------------------- replay


def _engine_audit_game() -> AuditFn:
    """The engine's audit with its re-checks (mahjong_audit.engine.rechecks): each error finding that a
    documented house-rules reading clears records which (``findings.depends_on``). It runs
    here, in the per-game step, so every runner does it beside the audit."""
    from mahjong_audit.engine.rechecks import audit_with_rechecks

    return audit_with_rechecks


class ReplayFn(_MarkingDoFn):
    """ParsedGame -> (ParsedGame, GameAudit). ``audit_fn`` defaults to the engine's audit with
    its re-checks (mahjong_audit.engine.rechecks.audit_with_rechecks).

    ``profile`` (an ``mahjong_audit.engine.house_rules.Profile``, pickled with the DoFn to every worker) is
    the house rules of the whole run; a game whose own options do not go with it leaves as
    (ParsedGame, Rejection): rejected like a log whose options are invalid."""

    phase = "audited"

    def __init__(self, audit_fn: AuditFn | None = None, progress_dir: str | None = None, profile: Any = None):
        super().__init__(progress_dir)
        self.audit_fn, self.profile = audit_fn, profile
        self._audit: AuditFn | None = None

    def setup(self) -> None:
        super().setup()
        audit: Callable[..., Any] = self.audit_fn or _engine_audit_game()
        self._audit = audit if self.profile is None else functools.partial(audit, profile=self.profile)

    def process(self, item):
        if not isinstance(item, Batch):
            yield self._audited(item)
            return
        audited = []
        for parsed in item.items:
            try:
                audited.append(self._audited(parsed))
            except Exception as e:  # noqa: BLE001  the game's dead letter, as with_exception_handling makes one
                yield pvalue.TaggedOutput(FAILED, (Batch((parsed,)), (type(e), repr(e), traceback.format_exception(e))))
        if audited:
            yield Batch(tuple(audited))

    def _audited(self, parsed):
        from mahjong_audit.engine.ruleset import OptionError

        try:
            audit = self._audit(parsed.game)
        except OptionError as e:  # the game's options with the profile's: not a valid combination
            audit = rows.invalid_options(parsed, e, self.profile.name if self.profile is not None else "")
        self._mark()
        return parsed, audit


def _dead_letters(failed) -> list[read.Rejection]:
    """The rejections of a dead letter: its game, or each game of its Batch."""
    element, (exc_type, exc_repr, _tb) = failed
    games = element.items if isinstance(element, Batch) else (element,)
    return [rows.engine_error(parsed, exc_repr) for parsed in games]


class Replay(beam.PTransform):
    """Games -> ``audited`` (ParsedGame, GameAudit) and ``rejected`` (Rejection); ``batched``:
    Batches of games -> Batches of those pairs.

    An exception from the engine is a dead letter (invalid_log/engine_error)."""

    def __init__(self, audit_fn: AuditFn | None = None, progress_dir: str | None = None, profile: Any = None,
                 batched: bool = False):
        super().__init__()
        self.audit_fn, self.progress_dir, self.profile = audit_fn, progress_dir, profile
        self.batched = batched

    def expand(self, games):
        audited = Batch if self.batched else beam.typehints.Tuple[parse.ParsedGame, Any]
        good, bad = games | "AuditGame" >> beam.ParDo(
            ReplayFn(self.audit_fn, self.progress_dir, self.profile)).with_output_types(
            audited).with_exception_handling(main_tag="audited", dead_letter_tag=FAILED)
        failed = bad | "EngineErrors" >> beam.FlatMap(_dead_letters)
        return {"audited": good, REJECTED: failed}


# --------------------------------------------------------------------------- rows


def item_rows(item: Any, run_id: str) -> tuple[tuple, str | None, int | None, int]:
    """The rows of one pipeline item (an audit, a Rejection, a FileCount, a PartRead, or
    rows already made) and the source position of its record (file, line, split start).

    Rows of an audit that cannot be stored (a number in the log beyond 64 bits) become
    an ``invalid_log/schema`` rejection of that game; rows that cannot be built (a bug),
    an ``invalid_log/engine_error`` rejection."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], parse.ParsedGame):
        parsed = item[0]
        if isinstance(item[1], read.Rejection):  # options that do not go with the profile (ReplayFn)
            return rows.rejection_values(item[1], run_id), parsed.source, parsed.line, parsed.shard_start
        try:
            made = rows.audit_values(parsed, item[1], run_id)
            rows.check_storable(made)
        except rows.UnstorableRow as e:  # e.g. a recorded delta of 10**30: valid JSON, no BIGINT
            made = rows.rejection_values(rows.unstorable(parsed, e), run_id)
        except Exception as e:  # noqa: BLE001  dead letter: this game is rejected, the run goes on
            made = rows.rejection_values(rows.engine_error(parsed, e), run_id)
        return made, parsed.source, parsed.line, parsed.shard_start
    if isinstance(item, read.Rejection):
        return rows.rejection_values(item, run_id), item.source, item.line, item.shard_start
    if isinstance(item, rows.FileCount):
        return rows.file_count_values(item), item.source, None, 0
    if isinstance(item, splits.PartRead):
        return rows.part_values(item), item.source, None, 0
    return item, None, None, 0  # rows already made (duplicates: findings carry their position)


class WriteRowsFn(beam.DoFn):
    """Audits (one at a time or in Batches), rejections and duplicate rows -> Parquet files in
    the staging folder.

    Each bundle writes files of its own (``staging.TableWriter``); when the bundle ends it
    outputs ``(table, path)`` of each, which the manifest collects."""

    def __init__(self, run_id: str, staging_dir: str, batch_rows: int = staging.BATCH_ROWS):
        super().__init__()
        self.run_id, self.staging_dir, self.batch_rows = run_id, staging_dir, batch_rows
        self.games = _counter("games")
        self.hands = _counter("hands")
        self.rejected = _counter("rejected")
        self.findings: dict[str, Any] = {}
        self._writer: staging.TableWriter | None = None

    def _finding(self, kind: str) -> None:
        if kind not in self.findings:
            self.findings[kind] = _counter(f"findings_{kind}")
        self.findings[kind].inc()

    def start_bundle(self) -> None:
        self._writer = staging.TableWriter(self.staging_dir, self.batch_rows)

    def process(self, item):
        for one in item.items if isinstance(item, Batch) else (item,):
            self._write(one)

    def _write(self, item):
        made, source_file, source_line, shard_start = item_rows(item, self.run_id)
        self._writer.add_rows(made, source_file, source_line, shard_start)
        for kind, run in groupby(made, type):  # a record's rows come in runs of one table: count runs
            if kind is rows.HandValues:
                self.hands.inc(len(list(run)))
            elif kind is rows.FindingValues:
                for row in run:
                    self._finding(row.kind)
            elif kind is rows.GameValues:
                self.games.inc(len(list(run)))
            elif kind is rows.RejectedValues:
                self.rejected.inc(len(list(run)))

    def finish_bundle(self):
        written, self._writer = self._writer.close(), None
        for table_path in written:
            yield WindowedValue(table_path, MIN_TIMESTAMP, [GlobalWindow()])


class WriteRows(beam.PTransform):
    """Items (audits, rejections, rows) -> PCollection of (table, Parquet file) written."""

    def __init__(self, run_id: str, staging_dir: str, batch_rows: int = staging.BATCH_ROWS):
        super().__init__()
        self.run_id, self.staging_dir, self.batch_rows = run_id, staging_dir, batch_rows

    def expand(self, items):
        return items | "Write" >> beam.ParDo(WriteRowsFn(self.run_id, self.staging_dir, self.batch_rows))


class _ManifestFn(beam.DoFn):
    def __init__(self, staging_dir: str):
        super().__init__()
        self.staging_dir = staging_dir

    def process(self, files):
        yield staging.write_manifest(self.staging_dir, files)


class WriteManifest(beam.PTransform):
    """(table, file) pairs -> ``manifest.json`` in the staging folder (outputs its path)."""

    def __init__(self, staging_dir: str):
        super().__init__()
        self.staging_dir = staging_dir

    def expand(self, files):
        return (
            files
            | "Collect" >> beam.combiners.ToList()
            | "Write" >> beam.ParDo(_ManifestFn(self.staging_dir))
        )


class AuditPipeline(beam.PTransform):
    """File paths or Shards -> Parquet tables and their manifest in ``staging``."""

    def __init__(self, *, run_id: str, staging: str, importer: str | None = None,
                 audit_fn: AuditFn | None = None, progress_dir: str | None = None,
                 batch_rows: int = staging.BATCH_ROWS, max_record_bytes: int = MAX_RECORD_BYTES,
                 profile: Any = None):
        super().__init__()
        self.run_id, self.staging, self.importer = run_id, staging, importer
        self.audit_fn, self.progress_dir, self.batch_rows = audit_fn, progress_dir, batch_rows
        self.max_record_bytes, self.profile = max_record_bytes, profile

    def expand(self, shards):
        records = shards | "ReadRecords" >> ReadRecords(self.importer, self.progress_dir, self.max_record_bytes)
        parsed = records | "ParseAndValidate" >> ParseAndValidate(self.progress_dir, GAMES_PER_BATCH)
        replayed = parsed.games | "Replay" >> Replay(self.audit_fn, self.progress_dir, self.profile,
                                                     batched=GAMES_PER_BATCH > 1)
        outputs = {"Audited": replayed["audited"], "EngineErrors": replayed[REJECTED],
                   "Rejected": parsed[REJECTED], "Duplicates": parsed[DUPLICATES],
                   "Counts": parsed[COUNTS], "Parts": parsed[PARTS]}
        written = [pcoll | f"Write{name}" >> WriteRows(self.run_id, self.staging, self.batch_rows)
                   for name, pcoll in outputs.items()]
        return written | "Written" >> beam.Flatten() | "Manifest" >> WriteManifest(self.staging)
