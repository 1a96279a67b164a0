"""Result rows from audits, rejections and duplicates: plain functions, no Beam.

The pipeline builds each row as a named tuple of its table's columns, in the column order
of the table's model in ``mahjong_audit.schemas.results`` (``GameValues`` for ``GameRow``, …: derived from
the models, so the two cannot drift); the staging writer turns them into Parquet columns
as they are. (A pydantic model per row, dumped again for the writer, made rows, check and
staging about three times as costly: docs/performance.md.) :func:`models` validates such
rows through the models, strictly: no value is converted; the tests do so on every row
they make, and ``audit_rows``, ``rejection_rows`` and ``duplicate_rows`` give the model
rows for callers that want them. The table a row belongs to is :func:`table_of` its type.
"""

from __future__ import annotations

from array import array
from collections import defaultdict, namedtuple
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

import msgspec

from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.result import GameAudit, HandFacts
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.pipeline.read import Rejection, short
from mahjong_audit.pipeline.splits import PartRead
from mahjong_audit.schemas.instants import parse_instant
from mahjong_audit.schemas.results import (
    BOOKKEEPING_TABLES,
    STAGING_ONLY,
    TABLES,
    FilePartRow,
    FileRecordsRow,
    FindingRow,
    GameRow,
    HandRow,
    HandScoreRow,
    PayoutRow,
    RejectedRow,
    _Row,
)


def _values_type(model: type[_Row]) -> Any:  # a class made at run time: Any to mypy
    """A named tuple with the model's fields, in its field order (``GameRow`` -> ``GameValues``)."""
    return namedtuple(model.__name__.removesuffix("Row") + "Values",
                      tuple(model.model_fields), module=__name__)


# The staged tables' rows as named tuples (module-level names, so they pickle by reference).
GameValues = _values_type(GameRow)
HandValues = _values_type(HandRow)
HandScoreValues = _values_type(HandScoreRow)
PayoutValues = _values_type(PayoutRow)
FindingValues = _values_type(FindingRow)
RejectedValues = _values_type(RejectedRow)
FilePartValues = _values_type(FilePartRow)
FileRecordsValues = _values_type(FileRecordsRow)
_STAGED = {GameRow: GameValues, HandRow: HandValues, HandScoreRow: HandScoreValues, PayoutRow: PayoutValues,
           FindingRow: FindingValues, RejectedRow: RejectedValues, FilePartRow: FilePartValues,
           FileRecordsRow: FileRecordsValues}
# table -> its model; row type (named tuple or model) -> its table
MODEL_OF_TABLE: Mapping[str, type[_Row]] = MappingProxyType(
    {name: model for name, model in {**TABLES, **STAGING_ONLY}.items() if name not in BOOKKEEPING_TABLES})
VALUES_OF_TABLE: Mapping[str, Any] = MappingProxyType(
    {name: _STAGED[model] for name, model in MODEL_OF_TABLE.items()})
_TABLE_OF = MappingProxyType({**{model: name for name, model in {**TABLES, **STAGING_ONLY}.items()},
                              **{values: name for name, values in VALUES_OF_TABLE.items()}})

Row = tuple  # one of the named tuples above
AnyRow = tuple | _Row  # a named tuple or a model row


def table_of(row: AnyRow) -> str:
    return _TABLE_OF[type(row)]


def as_dict(row: AnyRow) -> dict:
    return row._asdict() if isinstance(row, tuple) else row.model_dump()  # type: ignore[attr-defined]


def models(made: Iterable[AnyRow]) -> tuple[_Row, ...]:
    """Rows as their pydantic models, validated strictly (a value of another type than its
    column's, e.g. an int for a str or a naive datetime for an instant, is an error)."""
    return tuple(row if isinstance(row, _Row) else
                 MODEL_OF_TABLE[table_of(row)].model_validate(row._asdict(), strict=True)  # type: ignore[attr-defined]
                 for row in made)


def by_table(rows: Iterable[AnyRow]) -> dict[str, list[dict]]:
    """Rows grouped as table -> list of plain dicts (for tests and small outputs)."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        out[table_of(r)].append(as_dict(r))
    return dict(out)


def _player(players: tuple[str, ...], seat: int | None) -> str | None:
    if seat is None or not 0 <= seat < len(players):
        return None
    return players[seat]


def finding_values(f: Finding, *, game_id: str | None, ruleset: str | None,
                   source_file: str, source_line: int | None) -> Row:
    return FindingValues(
        game_id=game_id, hand_no=f.hand_no, seq=f.seq, seat=f.seat,
        kind=str(f.kind), code=f.code, severity=str(f.severity),
        expected=f.expected, recorded=f.recorded, message=f.message,
        ruleset=ruleset, source_file=source_file, source_line=source_line,
        depends_on=list(f.depends_on),
    )


def _instant(text: str | None) -> datetime | None:
    return parse_instant(text) if text is not None else None


_NO_CHANCES = (None, None, None, None)

# A row from its values in its table's column order: tuple.__new__ on the named tuple skips the
# keyword call (~5x the cost for the hands table's 28 columns). The rows built this way list their
# values in column order (a comment names a column its value does not); ``tests/test_rows.py`` checks
# every column of each by name.
_row = tuple.__new__


def _chance_values(h: HandFacts) -> tuple[list[int] | None, ...]:
    """win_chances, wins_passed, call_chances, calls_passed."""
    c = h.chances
    if c is None:
        return _NO_CHANCES
    return list(c.win_chances), list(c.wins_passed), list(c.call_chances), list(c.calls_passed)


def _hand_row(game_id: str, ruleset: str, players: tuple[str, ...], h: HandFacts,
              first: Any, started_at: datetime | None) -> Row:
    """The hands row of ``h``; ``first`` is its first legal win (None: no legal win)."""
    cf = h.chip_facts
    return _row(HandValues, (
        game_id,
        h.hand_no,
        ruleset,
        h.round_wind,
        h.dealer,
        started_at,
        h.result,
        h.draw_reason,
        [w.seat for w in h.wins if w.legal],  # winners
        first.win_type if first else None,
        bool(first and first.last_tile),
        first.tile if first else None,  # winning_tile
        first.from_seat if first and first.from_seat != first.seat else None,  # discarder
        first.score.total if first and first.score else None,  # total
        first.recorded_total if first else None,
        list(h.false_wins),
        h.n_events,  # events
        h.n_findings,  # findings
        list(players),
        list(h.standing) if h.standing else None,
        list(h.chips) if h.chips is not None else None,
        list(cf.broke) if cf is not None else None,  # chips_broke
        cf.rebuy if cf is not None else None,  # chips_rebuy
        cf.ended if cf is not None else None,  # chips_end
        *_chance_values(h),  # win_chances, wins_passed, call_chances, calls_passed
    ))


def _hand_values(game_id: str, ruleset: str, game_players: tuple[str, ...], h: HandFacts,
                 started_at: datetime | None, hands: list[Row], scores: list[Row], payouts: list[Row]) -> None:
    """Append the hands row of ``h`` to ``hands``, its score rows to ``scores`` and its payout
    rows to ``payouts``."""
    players = h.players or game_players[:4]  # the hand's seating; facts made without one: the game's order
    first = None  # the first legal win (a loop: a generator per hand cost more than the search)
    for w in h.wins:
        if w.legal:
            first = w
            break
    hand_no = h.hand_no
    hands.append(_hand_row(game_id, ruleset, players, h, first, started_at))
    for item in h.seat_items:
        seat = item.seat if item.seat is not None else (first.seat if first else None)
        if seat is None:
            continue
        scores.append(_row(HandScoreValues, (
            game_id, hand_no, seat, _player(players, seat), ruleset,
            item.name,  # item
            item.unit, item.value, item.count,
            item.value * item.count,  # points
        )))
    rec, comp = h.recorded_deltas, h.computed_deltas
    if rec is not None or comp is not None:
        for seat in range(4):
            r = rec[seat] if rec is not None and seat < len(rec) else None
            c = comp[seat] if comp is not None and seat < len(comp) else None
            payouts.append(_row(PayoutValues, (
                game_id, hand_no, seat, _player(players, seat),
                r,  # recorded
                c,  # computed
                r - c if r is not None and c is not None else None,  # diff
            )))
    for name in h.standing:
        r, c = h.standing_recorded, h.standing_computed
        payouts.append(PayoutValues(game_id=game_id, hand_no=hand_no, seat=None, player=name, recorded=r,
                                    computed=c, diff=r - c if r is not None and c is not None else None))


def audit_values(parsed: ParsedGame, audit: GameAudit, run_id: str) -> tuple[Row, ...]:
    """Rows of one audited game: its games row, then its hands, hand_scores, payouts and findings
    rows, each table's in the hands' order (one run of rows per table: the staging writer
    appends a run at once)."""
    game = parsed.game
    players = tuple(audit.players) or tuple(game.players or ())
    game_time = _instant(game.started_at)
    hand_times: Mapping[int, datetime | None] = {
        hand.hand_no: _instant(hand.started_at) for hand in game.hands if hand.started_at is not None}
    rows: list[Row] = [GameValues(
        game_id=audit.game_id, run_id=run_id, platform=audit.platform, ruleset=audit.ruleset,
        started_at=game_time, players=list(players), hands=len(audit.hands),
        findings=len(audit.findings), source_file=parsed.source, source_line=parsed.line,
        readings=audit.readings, profile=audit.profile or None, profile_sha256=audit.profile_sha256 or None,
    )]
    scores: list[Row] = []
    payouts: list[Row] = []
    game_id, ruleset = audit.game_id, audit.ruleset
    for h in audit.hands:
        _hand_values(game_id, ruleset, players, h, hand_times.get(h.hand_no, game_time), rows, scores, payouts)
    rows += scores
    rows += payouts
    rows += [finding_values(f, game_id=audit.game_id, ruleset=audit.ruleset,
                            source_file=parsed.source, source_line=parsed.line)
             for f in audit.findings]
    return tuple(rows)


def audit_rows(parsed: ParsedGame, audit: GameAudit, run_id: str) -> tuple[_Row, ...]:
    """:func:`audit_values` as models."""
    return models(audit_values(parsed, audit, run_id))


def rejection_values(rej: Rejection, run_id: str) -> tuple[Row, ...]:
    """A rejected record: one ``rejected`` row and one ``invalid_log`` finding."""
    message, game_id = storable_text(rej.message) or "", storable_text(rej.game_id)
    ruleset, source = storable_text(rej.ruleset), storable_text(rej.source) or ""
    finding = Finding(code=rej.code, message=message, severity=Severity.ERROR)
    return (
        RejectedValues(run_id=run_id, source_file=source, source_line=rej.line,
                       game_id=game_id, code=rej.code, message=message),
        finding_values(finding, game_id=game_id, ruleset=ruleset,
                       source_file=source, source_line=rej.line),
    )


def rejection_rows(rej: Rejection, run_id: str) -> tuple[_Row, ...]:
    """:func:`rejection_values` as models."""
    return models(rejection_values(rej, run_id))


# The message of a duplicate_game/game_id finding: the same {}-template is filled by
# str.format here and by DuckDB's format() in the load (mahjong_audit.pipeline.sink).
DUPLICATE_MESSAGE = "game_id '{}' already seen at {}; this copy is not in the results"
DUPLICATE = Finding(code="duplicate_game/game_id", message="", severity=Severity.WARNING)


def duplicate_values(dup: ParsedGame, kept: ParsedGame) -> tuple[Row, ...]:
    """A second copy of a game_id: one ``duplicate_game/game_id`` finding, no results."""
    gid = dup.game.game_id
    finding = Finding(
        code=DUPLICATE.code, severity=DUPLICATE.severity,
        message=DUPLICATE_MESSAGE.format(gid, kept.where), expected=None, recorded=kept.where,
    )
    return (finding_values(finding, game_id=gid, ruleset=dup.game.ruleset,
                           source_file=dup.source, source_line=dup.line),)


def duplicate_rows(dup: ParsedGame, kept: ParsedGame) -> tuple[_Row, ...]:
    """:func:`duplicate_values` as models."""
    return models(duplicate_values(dup, kept))


def invalid_options(parsed: ParsedGame, error: BaseException, profile: str = "") -> Rejection:
    """A game whose own options do not go with the house-rules profile: rejected as a log whose
    options are invalid is (``invalid_log/schema``, "options: …")."""
    under = f" (with the house rules of {profile})" if profile else ""
    return Rejection(parsed.source, parsed.line, "invalid_log/schema", f"options{under}: {short(str(error))}",
                     parsed.game.game_id, parsed.game.ruleset, parsed.shard_start)


def engine_error(parsed: ParsedGame, error: BaseException | str) -> Rejection:
    """The replay engine raised on this game: a rejection, never a crash of the run."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return Rejection(parsed.source, parsed.line, "invalid_log/engine_error",
                     f"the audit engine failed: {short(text)}", parsed.game.game_id, parsed.game.ruleset,
                     parsed.shard_start)


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class UnstorableRow(InvalidData):
    """A row holding a value its column cannot store (an integer beyond 64 bits)."""


def _unstorable(value: object) -> bool:
    """True for an integer beyond 64 bits or text that UTF-8 cannot encode (lone surrogates)."""
    if isinstance(value, int):
        return not INT64_MIN <= value <= INT64_MAX
    return isinstance(value, str) and not value.isascii() and not _encodes(value)


# msgpack's encoder refuses an integer below -2**63 or from 2**64, and text UTF-8 cannot encode;
# an integer from 2**32 it writes as an unsigned 64-bit one, after this byte.
_PACKER = msgspec.msgpack.Encoder()
_UINT64_MARK = b"\xcf"


def check_storable(made: Iterable[AnyRow]) -> None:
    """Raise :class:`UnstorableRow` if a row has an integer no BIGINT column can hold
    (the log's own numbers are unbounded JSON integers; the engine sums them) or text
    that is not valid Unicode.

    The rows are first packed at once (msgpack, in C): when that succeeds and no integer
    reached 2**32 (the byte that marks one does not appear), every value can be stored;
    otherwise each value is checked."""
    made = made if isinstance(made, tuple | list) else tuple(made)
    try:
        if _UINT64_MARK not in _PACKER.encode(made):
            return
    except (TypeError, ValueError, OverflowError):  # a value it cannot pack: the check below decides
        pass
    _check_each(made)


def _check_each(made: Iterable[AnyRow]) -> None:
    """:func:`check_storable` value by value."""
    for row in made:
        values = row if isinstance(row, tuple) else tuple(v for _, v in row)
        for value in values:  # the common types inline
            if value is None:
                continue
            kind = type(value)
            if kind is int:
                bad = value > INT64_MAX or value < INT64_MIN
            elif kind is str:
                bad = not value.isascii() and not _encodes(value)
            elif kind is bool:
                continue
            elif kind is list:
                bad = bool(value) and not _storable_list(value)
            else:
                bad = _unstorable(value)
            if bad:
                raise _unstorable_row(row)


def _encodes(text: str) -> bool:
    """True if UTF-8 can encode ``text`` (no lone surrogates)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _storable_list(values: list) -> bool:
    """True if every item of a non-empty list can be stored: checked in C for a list of ints
    (packed as 64-bit integers) or of texts (joined, encoded as UTF-8), else item by item."""
    try:
        if type(values[0]) is int:
            array("q", values)
            return True
        text = "".join(values)
    except (OverflowError, TypeError):
        return not any(map(_unstorable, values))
    return text.isascii() or _encodes(text)


def _unstorable_row(row: AnyRow) -> UnstorableRow:
    """The error naming the first value of ``row`` that cannot be stored."""
    pairs = zip(row._fields, row, strict=True) if isinstance(row, tuple) else iter(row)  # type: ignore[attr-defined]
    for name, value in pairs:
        for v in value if isinstance(value, list) else (value,):
            if _unstorable(v):
                if isinstance(v, int):
                    return UnstorableRow(f"{table_of(row)}.{name} = {v} does not fit in 64 bits")
                return UnstorableRow(f"{table_of(row)}.{name} is not valid Unicode text: {v!r:.80}")
    raise ValueError(f"no unstorable value in {row!r:.200}")


def unstorable(parsed: ParsedGame, error: UnstorableRow) -> Rejection:
    """A game whose numbers are too large for the result tables: rejected as a schema error."""
    return Rejection(parsed.source, parsed.line, "invalid_log/schema",
                     f"a number in this log is too large to store: {short(str(error))}",
                     parsed.game.game_id, parsed.game.ruleset, parsed.shard_start)


def storable_text(text: str | None) -> str | None:
    """``text`` with what UTF-8 cannot encode (lone surrogates) replaced by '?'."""
    if text is None or text.isascii():
        return text
    return text.encode("utf-8", "replace").decode("utf-8")


def split_duplicates(copies: Iterable[ParsedGame]) -> tuple[ParsedGame, tuple[ParsedGame, ...]]:
    """The copy kept (first by source file, line, index) and the others, in order."""
    ordered = sorted(copies, key=lambda p: p.position)
    if not ordered:
        raise ValueError("split_duplicates needs at least one copy")
    return ordered[0], tuple(ordered[1:])


@dataclass(frozen=True, slots=True)
class FileCount:
    """``records`` records of ``source`` were parsed (in one bundle)."""

    source: str
    records: int


def file_count_values(count: FileCount) -> tuple[Row, ...]:
    """The staged count (``file_records``) from which the load makes ``run_files`` rows."""
    return (FileRecordsValues(source_file=storable_text(count.source) or "", records=count.records),)


def part_values(part: PartRead) -> tuple[Row, ...]:
    """What one shard of a file read (``file_parts``): the load's line numbers and hashes."""
    return (FilePartValues(source_file=part.source, shard_start=part.start, lines=part.lines,
                           bytes_read=part.bytes_read, sha256=part.sha256),)


def counts_by_kind(rows: Iterable[AnyRow]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        if table_of(r) == "findings":
            out[r.kind] += 1  # type: ignore[union-attr]
    return dict(out)


__all__ = [
    "FileCount", "audit_rows", "audit_values", "by_table", "check_storable", "counts_by_kind", "duplicate_rows",
    "duplicate_values", "engine_error", "file_count_values", "finding_values", "models", "part_values",
    "rejection_rows", "rejection_values", "split_duplicates", "table_of",
]
