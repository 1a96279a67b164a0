"""The audit pipeline as composite PTransforms with labelled stages.

``ReadRecords → ParseAndValidate → Dedupe → Replay → ToRows → WriteTables``.
Every DoFn is a thin wrapper over a plain function of ``pipeline.read`` /
``pipeline.rows``; bad records leave through tagged outputs (parse failures) or
``with_exception_handling`` (engine failures) as dead letters, never a bare except.
Nothing here assumes one machine: inputs and the staging folder are FileSystems paths,
and no Python state is shared between workers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import apache_beam as beam
from apache_beam import pvalue
from apache_beam.metrics import Metrics

from pipeline import read, rows
from pipeline.progress import Marker
from pipeline.tables import ARROW_SCHEMAS
from schemas.results import FindingRow, GameRow, HandRow, RejectedRow

NAMESPACE = "mahjong_audit"
REJECTED = "rejected"
DUPLICATES = "duplicates"

AuditFn = Callable[[Any], Any]  # engine.audit.audit_game: Game -> GameAudit


def _counter(name: str):
    return Metrics.counter(NAMESPACE, name)


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


# --------------------------------------------------------------------------- read


class ReadFileFn(_MarkingDoFn):
    """A file path -> its records (streamed); an unreadable file -> a Rejection."""

    phase = "read"

    def __init__(self, importer: str | None = None, progress_dir: str | None = None):
        super().__init__(progress_dir)
        self.importer = importer
        self.records = _counter("records")
        self.files = _counter("files")

    def process(self, path):
        self.files.inc()
        for rec in read.read_file(path, self.importer):
            self.records.inc()
            self._mark()
            yield rec


class ReadRecords(beam.PTransform):
    """PCollection of file paths -> PCollection of RawRecord (or file-level Rejection),
    reshuffled so the records of one big file spread over all workers."""

    def __init__(self, importer: str | None = None, progress_dir: str | None = None):
        super().__init__()
        self.importer, self.progress_dir = importer, progress_dir

    def expand(self, files):
        return (
            files
            | "ReadFiles" >> beam.ParDo(ReadFileFn(self.importer, self.progress_dir))
            | "Spread" >> beam.Reshuffle()
        )


# --------------------------------------------------------------------------- parse


class ParseFn(_MarkingDoFn):
    """RawRecord -> (game_id, ParsedGame) on the main output, Rejection on ``rejected``."""

    phase = "parsed"

    def process(self, rec):
        self._mark()
        for out in read.parse_record(rec):
            if isinstance(out, read.Rejection):
                yield pvalue.TaggedOutput(REJECTED, out)
            else:
                yield (out.game.game_id, out)


class ParseAndValidate(beam.PTransform):
    """Records -> ``games`` (keyed by game_id) and ``rejected`` (Rejection) outputs."""

    def __init__(self, progress_dir: str | None = None):
        super().__init__()
        self.progress_dir = progress_dir

    def expand(self, records):
        return records | "Parse" >> beam.ParDo(ParseFn(self.progress_dir)).with_output_types(
            tuple[str, Any]).with_outputs(REJECTED, main="games")


# --------------------------------------------------------------------------- dedupe


class DedupeFn(beam.DoFn):
    """(game_id, copies) -> the first copy; the others -> duplicate finding rows."""

    def __init__(self):
        super().__init__()
        self.duplicates = _counter("duplicates")

    def process(self, keyed):
        _, copies = keyed
        kept, dups = rows.split_duplicates(copies)
        yield kept
        for d in dups:
            self.duplicates.inc()
            yield pvalue.TaggedOutput(DUPLICATES, rows.duplicate_rows(d, kept))


class Dedupe(beam.PTransform):
    """Keyed games -> ``unique`` ParsedGame and ``duplicates`` (tuples of rows).

    The copy kept is the first by (source file, line, index), whatever the runner's
    order, so the result is deterministic."""

    def expand(self, keyed_games):
        return (
            keyed_games
            | "GroupById" >> beam.GroupByKey()
            | "KeepFirst" >> beam.ParDo(DedupeFn()).with_outputs(DUPLICATES, main="unique")
        )


# --------------------------------------------------------------------------- replay


def _engine_audit_game() -> AuditFn:
    from engine.audit import audit_game

    return audit_game


class ReplayFn(_MarkingDoFn):
    """ParsedGame -> (ParsedGame, GameAudit). ``audit_fn`` defaults to engine.audit.audit_game."""

    phase = "audited"

    def __init__(self, audit_fn: AuditFn | None = None, progress_dir: str | None = None):
        super().__init__(progress_dir)
        self.audit_fn = audit_fn
        self._audit: AuditFn | None = None

    def setup(self) -> None:
        super().setup()
        self._audit = self.audit_fn or _engine_audit_game()

    def process(self, parsed):
        audit = self._audit(parsed.game)
        self._mark()
        yield parsed, audit


def _dead_letter(failed) -> read.Rejection:
    parsed, (exc_type, exc_repr, _tb) = failed
    return rows.engine_error(parsed, exc_repr)


class Replay(beam.PTransform):
    """Unique games -> ``audited`` (ParsedGame, GameAudit) and ``rejected`` (Rejection).

    An exception from the engine is a dead letter (invalid_log/engine_error)."""

    def __init__(self, audit_fn: AuditFn | None = None, progress_dir: str | None = None):
        super().__init__()
        self.audit_fn, self.progress_dir = audit_fn, progress_dir

    def expand(self, games):
        good, bad = games | "AuditGame" >> beam.ParDo(
            ReplayFn(self.audit_fn, self.progress_dir)).with_exception_handling(
            main_tag="audited", dead_letter_tag="failed")
        failed = bad | "EngineErrors" >> beam.Map(_dead_letter)
        return {"audited": good, REJECTED: failed}


# --------------------------------------------------------------------------- rows


class ToRowsFn(beam.DoFn):
    """Audits, rejections and duplicate rows -> row dicts tagged with their table."""

    def __init__(self, run_id: str):
        super().__init__()
        self.run_id = run_id
        self.games = _counter("games")
        self.hands = _counter("hands")
        self.rejected = _counter("rejected")
        self.findings: dict[str, Any] = {}

    def _finding(self, kind: str) -> None:
        if kind not in self.findings:
            self.findings[kind] = _counter(f"findings_{kind}")
        self.findings[kind].inc()

    def process(self, item):
        if isinstance(item, read.Rejection):
            out = rows.rejection_rows(item, self.run_id)
        elif isinstance(item, tuple) and item and isinstance(item[0], read.ParsedGame):
            out = rows.audit_rows(item[0], item[1], self.run_id)
        else:  # rows already made (duplicates)
            out = item
        for row in out:
            if isinstance(row, GameRow):
                self.games.inc()
            elif isinstance(row, HandRow):
                self.hands.inc()
            elif isinstance(row, RejectedRow):
                self.rejected.inc()
            elif isinstance(row, FindingRow):
                self._finding(row.kind)
            yield pvalue.TaggedOutput(rows.table_of(row), row.model_dump())


class ToRows(beam.PTransform):
    """(audited, rejected..., duplicates) PCollections -> one PCollection of row dicts per table.

    Each input is turned into rows where it is (fused with the step that made it), so
    games and audits are never serialised again; only the small row dicts are merged."""

    def __init__(self, run_id: str):
        super().__init__()
        self.run_id = run_id

    def expand(self, pcolls):
        tables = [t for t in ARROW_SCHEMAS if t != "runs"]
        parts = [
            pcoll | f"Rows{i}" >> beam.ParDo(ToRowsFn(self.run_id)).with_outputs(*tables)
            for i, pcoll in enumerate(pcolls)
        ]
        return {t: tuple(part[t] for part in parts) | f"Merge_{t}" >> beam.Flatten() for t in tables}


class WriteTables(beam.PTransform):
    """Row dicts per table -> Parquet files under ``<staging>/tables/<table>/``."""

    def __init__(self, staging: str):
        super().__init__()
        self.staging = staging

    def expand(self, tables: dict):
        from apache_beam.io.filesystems import FileSystems
        from apache_beam.io.parquetio import WriteToParquet

        written = []
        for name, pcoll in tables.items():
            prefix = FileSystems.join(self.staging, "tables", name, "part")
            written.append(pcoll | f"Write_{name}" >> WriteToParquet(
                prefix, ARROW_SCHEMAS[name], file_name_suffix=".parquet"))
        return written


class AuditPipeline(beam.PTransform):
    """File paths -> Parquet tables in ``staging``: the whole audit as one transform."""

    def __init__(self, *, run_id: str, staging: str, importer: str | None = None,
                 audit_fn: AuditFn | None = None, progress_dir: str | None = None):
        super().__init__()
        self.run_id, self.staging, self.importer = run_id, staging, importer
        self.audit_fn, self.progress_dir = audit_fn, progress_dir

    def expand(self, files):
        records = files | "ReadRecords" >> ReadRecords(self.importer, self.progress_dir)
        parsed = records | "ParseAndValidate" >> ParseAndValidate(self.progress_dir)
        deduped = parsed.games | "Dedupe" >> Dedupe()
        replayed = deduped.unique | "Replay" >> Replay(self.audit_fn, self.progress_dir)
        tables = (
            (replayed["audited"], replayed[REJECTED], parsed[REJECTED], deduped[DUPLICATES])
            | "ToRows" >> ToRows(self.run_id)
        )
        return tables | "WriteTables" >> WriteTables(self.staging)
