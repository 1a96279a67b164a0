"""A request body -> its records -> audited games or rejections -> their rows.

Every step is the batch audit's own: ``mahjong_audit.pipeline.read`` splits the body into records as it
splits a file (JSON Lines, one ``.json`` document, or a platform format through an
importer) and ``mahjong_audit.pipeline.parse`` parses them (the fast path, then the models for their messages);
the pipeline's per-game audit (``mahjong_audit.engine.rechecks.audit_with_rechecks``) replays each game; ``mahjong_audit.pipeline.transforms.item_rows`` makes the
rows the pipeline would stage, rejecting a game whose numbers no column can hold. A second
copy of a game_id within one body becomes a ``duplicate_game/game_id`` finding, as a
second copy within one input file does in a batch run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mahjong_audit.pipeline import parse, read, rows
from mahjong_audit.pipeline.transforms import AuditFn, item_rows


@dataclass(frozen=True, slots=True)
class Outcome:
    """One record of a request and the rows it leaves in the tables.

    ``status``: audited, rejected or duplicate; ``error``: a rejection as ``validate``
    prints it."""

    status: str
    game_id: str | None
    source: str
    line: int | None
    rows: tuple[rows.Row, ...]
    error: str | None = None


def _rejected(rej: read.Rejection, run_id: str) -> Outcome:
    return Outcome("rejected", rej.game_id, rej.source, rej.line, rows.rejection_values(rej, run_id), str(rej))


def _audited(parsed: parse.ParsedGame, audit_fn: AuditFn, run_id: str) -> Outcome:
    try:
        audit = audit_fn(parsed.game)
    except Exception as e:  # noqa: BLE001  dead letter, as the pipeline's Replay: this game is rejected
        return _rejected(rows.engine_error(parsed, e), run_id)
    made, source, line, _ = item_rows((parsed, audit), run_id)
    if made and type(made[0]) is rows.RejectedValues:  # unstorable numbers or rows that failed to build
        rej = made[0]
        text = str(read.Rejection(source or "", line, rej.code, rej.message, rej.game_id, parsed.game.ruleset))
        return Outcome("rejected", rej.game_id, source or "", line, made, text)
    return Outcome("audited", parsed.game.game_id, parsed.source, parsed.line, made)


def outcomes(records: Iterator[read.RawRecord | read.Rejection], audit_fn: AuditFn,
             run_id: str) -> Iterator[Outcome]:
    """The outcome of every game and rejected record among ``records``, in order."""
    seen: dict[str, parse.ParsedGame] = {}
    for rec in records:
        for out in parse.parse_record(rec, fast=True):
            if isinstance(out, read.Rejection):
                yield _rejected(out, run_id)
                continue
            gid = out.game.game_id
            kept = seen.get(gid)
            if kept is not None:
                yield Outcome("duplicate", gid, out.source, out.line, rows.duplicate_values(out, kept))
                continue
            seen[gid] = out
            yield _audited(out, audit_fn, run_id)


def body_outcomes(source: str, body: bytes, *, document: bool, importer: str | None,
                  audit_fn: AuditFn, run_id: str, limit: int) -> Iterator[Outcome]:
    """The outcomes of one request body, named ``source`` in the tables."""
    return outcomes(read.read_body(source, body, importer, document, limit), audit_fn, run_id)
