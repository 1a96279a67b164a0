"""Result rows from audits, rejections and duplicates: plain functions, no Beam.

Each function returns a tuple of frozen row models (``schemas.results``); the table a
row belongs to is :func:`table_of` its type. The Beam ``ToRows`` step only dumps them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.result import GameAudit, HandFacts
from mahjong_audit.pipeline.read import ParsedGame, Rejection, short
from mahjong_audit.schemas.instants import parse_instant
from mahjong_audit.schemas.results import (
    TABLES,
    FileRecordsRow,
    FindingRow,
    GameRow,
    HandRow,
    HandScoreRow,
    PayoutRow,
    RejectedRow,
    _Row,
)

_TABLE_OF = MappingProxyType({model: name for name, model in TABLES.items()})


def table_of(row: _Row) -> str:
    return _TABLE_OF[type(row)]


def by_table(rows: Iterable[_Row]) -> dict[str, list[dict]]:
    """Rows grouped as table -> list of plain dicts (for tests and small outputs)."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        out[table_of(r)].append(r.model_dump())
    return dict(out)


def _player(players: tuple[str, ...], seat: int | None) -> str | None:
    if seat is None or not 0 <= seat < len(players):
        return None
    return players[seat]


def finding_row(f: Finding, *, game_id: str | None, ruleset: str | None,
                source_file: str, source_line: int | None) -> FindingRow:
    return FindingRow(
        game_id=game_id, hand_no=f.hand_no, seq=f.seq, seat=f.seat,
        kind=str(f.kind), code=f.code, severity=str(f.severity),
        expected=f.expected, recorded=f.recorded, message=f.message,
        ruleset=ruleset, source_file=source_file, source_line=source_line,
    )


def _instant(text: str | None) -> datetime | None:
    return parse_instant(text) if text is not None else None


def _hand_rows(game_id: str, ruleset: str, game_players: tuple[str, ...], h: HandFacts,
               started_at: datetime | None = None) -> list[_Row]:
    players = h.players or game_players[:4]  # the hand's seating; facts made without one: the game's order
    legal = tuple(w for w in h.wins if w.legal)
    first = legal[0] if legal else None
    rows: list[_Row] = [HandRow(
        game_id=game_id, hand_no=h.hand_no, ruleset=ruleset, round_wind=h.round_wind,
        dealer=h.dealer, started_at=started_at, result=h.result, draw_reason=h.draw_reason, winners=[w.seat for w in legal],
        win_type=first.win_type if first else None,
        last_tile=bool(first and first.last_tile),
        winning_tile=first.tile if first else None,
        discarder=first.from_seat if first and first.from_seat != first.seat else None,
        total=first.score.total if first and first.score else None,
        recorded_total=first.recorded_total if first else None,
        false_wins=list(h.false_wins), events=h.n_events, findings=h.n_findings,
        players=list(players), standing=list(h.standing) if h.standing else None,
        chips=list(h.chips) if h.chips is not None else None,
    )]
    for item in h.seat_items:
        seat = item.seat if item.seat is not None else (first.seat if first else None)
        if seat is None:
            continue
        rows.append(HandScoreRow(
            game_id=game_id, hand_no=h.hand_no, seat=seat, player=_player(players, seat),
            ruleset=ruleset, item=item.name, unit=item.unit, value=item.value,
            count=item.count, points=item.value * item.count,
        ))
    rec, comp = h.recorded_deltas, h.computed_deltas
    if rec is not None or comp is not None:
        for seat in range(4):
            r = rec[seat] if rec is not None and seat < len(rec) else None
            c = comp[seat] if comp is not None and seat < len(comp) else None
            rows.append(PayoutRow(
                game_id=game_id, hand_no=h.hand_no, seat=seat, player=_player(players, seat),
                recorded=r, computed=c, diff=r - c if r is not None and c is not None else None,
            ))
    for name in h.standing:
        r, c = h.standing_recorded, h.standing_computed
        rows.append(PayoutRow(game_id=game_id, hand_no=h.hand_no, seat=None, player=name, recorded=r, computed=c,
                              diff=r - c if r is not None and c is not None else None))
    return rows


def audit_rows(parsed: ParsedGame, audit: GameAudit, run_id: str) -> tuple[_Row, ...]:
    """Rows of one audited game: games, hands, hand_scores, payouts and findings."""
    game = parsed.game
    players = tuple(audit.players) or tuple(game.players or ())
    game_time = _instant(game.started_at)
    hand_times: Mapping[int, datetime | None] = {
        hand.hand_no: _instant(hand.started_at) for hand in game.hands if hand.started_at is not None}
    rows: list[_Row] = [GameRow(
        game_id=audit.game_id, run_id=run_id, platform=audit.platform, ruleset=audit.ruleset,
        started_at=game_time, players=list(players), hands=len(audit.hands),
        findings=len(audit.findings), source_file=parsed.source, source_line=parsed.line,
    )]
    for h in audit.hands:
        rows += _hand_rows(audit.game_id, audit.ruleset, players, h, hand_times.get(h.hand_no, game_time))
    rows += [finding_row(f, game_id=audit.game_id, ruleset=audit.ruleset,
                         source_file=parsed.source, source_line=parsed.line)
             for f in audit.findings]
    return tuple(rows)


def rejection_rows(rej: Rejection, run_id: str) -> tuple[_Row, ...]:
    """A rejected record: one ``rejected`` row and one ``invalid_log`` finding."""
    message, game_id = storable_text(rej.message) or "", storable_text(rej.game_id)
    ruleset, source = storable_text(rej.ruleset), storable_text(rej.source) or ""
    finding = Finding(code=rej.code, message=message, severity=Severity.ERROR)
    return (
        RejectedRow(run_id=run_id, source_file=source, source_line=rej.line,
                    game_id=game_id, code=rej.code, message=message),
        finding_row(finding, game_id=game_id, ruleset=ruleset,
                    source_file=source, source_line=rej.line),
    )


# The message of a duplicate_game/game_id finding: the same {}-template is filled by
# str.format here and by DuckDB's format() in the load (pipeline.sink).
DUPLICATE_MESSAGE = "game_id '{}' already seen at {}; this copy is not in the results"
DUPLICATE = Finding(code="duplicate_game/game_id", message="", severity=Severity.WARNING)


def duplicate_rows(dup: ParsedGame, kept: ParsedGame) -> tuple[_Row, ...]:
    """A second copy of a game_id: one ``duplicate_game/game_id`` finding, no results."""
    gid = dup.game.game_id
    finding = Finding(
        code=DUPLICATE.code, severity=DUPLICATE.severity,
        message=DUPLICATE_MESSAGE.format(gid, kept.where), expected=None, recorded=kept.where,
    )
    return (finding_row(finding, game_id=gid, ruleset=dup.game.ruleset,
                        source_file=dup.source, source_line=dup.line),)


def engine_error(parsed: ParsedGame, error: BaseException | str) -> Rejection:
    """The replay engine raised on this game: a rejection, never a crash of the run."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return Rejection(parsed.source, parsed.line, "invalid_log/engine_error",
                     f"the audit engine failed: {short(text)}", parsed.game.game_id, parsed.game.ruleset,
                     parsed.shard_start)


INT64 = range(-(2**63), 2**63)


class UnstorableRow(ValueError):
    """A row holding a value its column cannot store (an integer beyond 64 bits)."""


def check_storable(made: Iterable[_Row]) -> None:
    """Raise :class:`UnstorableRow` if a row has an integer no BIGINT column can hold
    (the log's own numbers are unbounded JSON integers; the engine sums them)."""
    for row in made:
        for name, value in row:
            values = value if isinstance(value, list) else (value,)
            for v in values:
                if isinstance(v, int) and v not in INT64:
                    raise UnstorableRow(f"{table_of(row)}.{name} = {v} does not fit in 64 bits")
                if isinstance(v, str) and not v.isascii() and storable_text(v) != v:
                    raise UnstorableRow(f"{table_of(row)}.{name} is not valid Unicode text: {v!r:.80}")


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


def file_count_rows(count: FileCount) -> tuple[_Row, ...]:
    """The staged count (``file_records``) from which the load makes ``run_files`` rows."""
    return (FileRecordsRow(source_file=storable_text(count.source) or "", records=count.records),)


def counts_by_kind(rows: Iterable[_Row]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        if isinstance(r, FindingRow):
            out[r.kind] += 1
    return dict(out)


__all__ = [
    "FileCount", "audit_rows", "by_table", "check_storable", "counts_by_kind", "duplicate_rows",
    "engine_error", "file_count_rows", "finding_row", "rejection_rows", "split_duplicates", "table_of",
]
