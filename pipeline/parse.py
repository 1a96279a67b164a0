"""Parsing records: a :class:`~mahjong_audit.pipeline.read.RawRecord` into validated games or rejections.

A native record is validated on the fast path (``mahjong_audit.schemas.log_fast``, what
the audit reads) or by the pydantic models, which check whatever the fast path does not
accept and say why; an importer's record is converted to ``mahjong-log/1`` game dicts and
each validated. Bad data never raises: it becomes a
:class:`~mahjong_audit.pipeline.read.Rejection` with an ``invalid_log/*`` code.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import ValidationError

from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record
from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES
from mahjong_audit.pipeline.read import RawRecord, Rejection, read_file, short
from mahjong_audit.schemas.log import Game, describe_errors
from mahjong_audit.schemas.log_fast import parse_game_json

if TYPE_CHECKING:
    from mahjong_audit.schemas.log_fast import Game as FastGame


@dataclass(frozen=True, slots=True)
class ParsedGame:
    """A record that parsed and validated. ``index`` orders games of one record."""

    source: str
    line: int
    index: int
    game: Game | FastGame  # FastGame from the fast path (the audit), Game from the models
    shard_start: int = 0  # see RawRecord

    @property
    def position(self) -> tuple[str, int, int]:
        return (self.source, self.line, self.index)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"



def _peek_ids(text: str) -> tuple[str | None, str | None]:
    """game_id and ruleset of a record that failed validation, if it is a JSON object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    gid, rs = data.get("game_id"), data.get("ruleset")
    return (gid if isinstance(gid, str) else None, rs if isinstance(rs, str) else None)


def _json_rejection(rec: RawRecord) -> Rejection:
    try:
        json.loads(rec.text)
    except json.JSONDecodeError as e:
        where = f"column {e.colno}" if "\n" not in rec.text else f"line {e.lineno}, column {e.colno} of the document"
        return Rejection(rec.source, rec.line + e.lineno - 1, "invalid_log/json",
                         f"not valid JSON: {e.msg} ({where})")
    except RecursionError:
        return _too_deep(rec)
    return Rejection(rec.source, rec.line, "invalid_log/json", "not valid JSON")


def _too_deep(rec: RawRecord) -> Rejection:
    return Rejection(rec.source, rec.line, "invalid_log/json",
                     "not readable JSON: arrays or objects nested too deeply")


def validate_dict(data: object, source: str, line: int, index: int = 0) -> ParsedGame | Rejection:
    try:
        return ParsedGame(source, line, index, Game.model_validate(data))
    except ValidationError as e:
        gid = data.get("game_id") if isinstance(data, dict) else None
        rs = data.get("ruleset") if isinstance(data, dict) else None
        return Rejection(source, line, "invalid_log/schema", describe_errors(e),
                         gid if isinstance(gid, str) else None, rs if isinstance(rs, str) else None)


def parse_native(rec: RawRecord, fast: bool = False) -> ParsedGame | Rejection:
    """One native record. ``fast``: validate on the fast path first (``mahjong_audit.schemas.log_fast``:
    frozen msgspec Structs, what the audit reads; from the line's bytes when the reader kept
    them); the models check whatever it does not accept."""
    if fast:
        game = parse_game_json(rec.data if rec.data is not None else rec.text)
        if game is not None:
            return ParsedGame(rec.source, rec.line, 0, game)
    try:
        return ParsedGame(rec.source, rec.line, 0, Game.model_validate_json(rec.text))
    except ValidationError as e:
        errors = e.errors()
        if any(err["type"] == "json_invalid" for err in errors):
            return _json_rejection(rec)
        if any(err["type"] == "recursion_loop" for err in errors):
            return _too_deep(rec)
        gid, rs = _peek_ids(rec.text)
        return Rejection(rec.source, rec.line, "invalid_log/schema", describe_errors(e), gid, rs)
    except RecursionError:
        return _too_deep(rec)


def _convert(rec: RawRecord, fast: bool) -> tuple[ParsedGame | Rejection, ...]:
    if rec.importer is None:
        return (parse_native(rec, fast),)
    try:
        dicts = IMPORTERS[rec.importer].convert(Record(rec.source, rec.line, rec.text))
    except ImportFailure as e:
        return (Rejection(rec.source, rec.line, "invalid_log/import", f"{rec.importer}: {short(str(e))}"),)
    if not dicts:
        return (Rejection(rec.source, rec.line, "invalid_log/import", f"{rec.importer}: no game in this record"),)
    return tuple(validate_dict(d, rec.source, rec.line, i) for i, d in enumerate(dicts))


def parse_record(rec: RawRecord | Rejection, fast: bool = False) -> tuple[ParsedGame | Rejection, ...]:
    """Parse and validate one record into games and rejections (never raises on bad data).
    ``fast``: native games come as ``mahjong_audit.schemas.log_fast`` Structs (see :func:`parse_native`).

    An importer or parser that fails in a way it did not foresee (a bug, or input deeper
    than the interpreter's recursion limit) makes a rejection naming the exception, never
    an error of the run."""
    if isinstance(rec, Rejection):
        return (rec,)
    try:
        return _convert(rec, fast)
    except Exception as e:  # noqa: BLE001  dead letter: the record is rejected, the run goes on
        what = f"the {rec.importer} importer" if rec.importer else "the parser"
        code = "invalid_log/import" if rec.importer else "invalid_log/schema"
        return (Rejection(rec.source, rec.line, code,
                          f"{what} failed on this record: {type(e).__name__}: {short(str(e))}"),)


def parse_file(path: str, chosen_importer: str | None = None,
               limit: int = MAX_RECORD_BYTES) -> Iterator[ParsedGame | Rejection]:
    """Every game and rejection of one file, in file order (used by ``validate``)."""
    for rec in read_file(path, chosen_importer, limit):
        yield from parse_record(rec)
