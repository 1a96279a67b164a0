"""What the report shows, read from an audit database (opened read-only).

Every query goes against the tables of ``mahjong_audit.schemas.results``; the player figures reuse the
``player_stats`` view's SQL from ``mahjong_audit.pipeline.tables.VIEWS`` as a subquery, so a database
whose views were never created (or were created by an older version) still reports the
same figures. Everything returned is an immutable value object.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from datetime import date, datetime

import duckdb

from mahjong_audit.pipeline.errors import DatabaseError, DatabaseLocked
from mahjong_audit.pipeline.report.chips import GameChips, load_chips
from mahjong_audit.pipeline.tables import HAND_NUMBERS, HAND_SEATS, VIEWS
from mahjong_audit.schemas.results import TABLES

WIN_TYPES = ("self_drawn", "discard", "robbing_kong", "kong_replacement")


@dataclass(frozen=True, slots=True)
class RunInfo:
    run_id: str
    started_at: datetime
    finished_at: datetime
    version: str
    inputs: tuple[str, ...]
    runner: str
    games: int
    hands: int
    findings: int
    rejected: int


@dataclass(frozen=True, slots=True)
class FindingInfo:
    game_id: str | None
    hand_no: int | None
    seq: int | None
    seat: int | None
    player: str | None
    kind: str
    code: str
    severity: str
    expected: str | None
    recorded: str | None
    message: str
    ruleset: str | None
    source_file: str
    source_line: int | None
    depends_on: tuple[str, ...] = ()  # readings under which this error goes away (mahjong_audit.engine.rechecks)


@dataclass(frozen=True, slots=True)
class KindCount:
    """Findings of one kind, split by severity: ``by_severity`` is ((severity, n), …)."""

    kind: str
    by_severity: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.by_severity)


@dataclass(frozen=True, slots=True)
class CodeCount:
    kind: str
    code: str
    severity: str
    count: int
    games: int
    depends_on_rules: int = 0  # of ``count``: errors a documented house-rules reading clears


@dataclass(frozen=True, slots=True)
class RulesetCount:
    ruleset: str
    games: int
    hands: int
    wins: int
    draws: int
    money_at_stake: int = 0  # Σ |recorded - computed| of its payouts, in the ruleset's own unit


@dataclass(frozen=True, slots=True)
class ReadingCount:
    """Games of one ruleset audited under one set of readings and one house-rules profile.

    ``readings`` is ``games.readings`` (JSON of the options that differ from the defaults; None
    for games audited before it was recorded); ``profile`` and ``profile_sha256`` are None
    when no profile was given."""

    ruleset: str
    readings: str | None
    profile: str | None
    profile_sha256: str | None
    games: int


@dataclass(frozen=True, slots=True)
class WeekCount:
    """One week's figure of one series (a finding kind, or the money at stake)."""

    week: date
    series: str
    value: int


@dataclass(frozen=True, slots=True)
class PlayerLine:
    ruleset: str
    player: str
    games: int
    hands: int
    wins: int
    deal_ins: int
    net_score: int
    false_wins: int
    dead_hands: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.deal_ins / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class ItemCount:
    """How often one scoring item (fan, 胡 or 台 item) occurs among a ruleset's scored wins."""

    ruleset: str
    item: str
    unit: str
    hands: int
    count: int
    share: float


@dataclass(frozen=True, slots=True)
class ScoredSeats:
    """The seats a ruleset's scoring items were counted over: every scored seat of every
    hand, of which ``wins`` are winners' (龙港 scores every seat, MCR the winner alone)."""

    ruleset: str
    seats: int
    wins: int


@dataclass(frozen=True, slots=True)
class WinTypeCount:
    ruleset: str
    win_type: str
    count: int


@dataclass(frozen=True, slots=True)
class Bin:
    lo: int
    hi: int  # exclusive
    count: int


@dataclass(frozen=True, slots=True)
class Payouts:
    """Recorded minus recomputed per-seat deltas, where both are known."""

    compared: int  # seat-hands with both figures
    differing: int
    money_at_stake: int  # Σ |recorded - computed|
    bins: tuple[Bin, ...]  # histogram of the non-zero differences


@dataclass(frozen=True, slots=True)
class ReportData:
    db_path: str
    missing_tables: tuple[str, ...]
    runs: tuple[RunInfo, ...]  # newest first
    games: int
    hands: int
    rejected: int
    rulesets: tuple[RulesetCount, ...]
    findings_total: int
    games_with_findings: int
    kinds: tuple[KindCount, ...]
    severities: tuple[tuple[str, int], ...]
    codes: tuple[CodeCount, ...]
    payouts: Payouts
    items: tuple[ItemCount, ...]
    scored: tuple[ScoredSeats, ...]  # per ruleset: how many seats the item counts are out of
    win_types: tuple[WinTypeCount, ...]
    last_tile_wins: tuple[tuple[str, int], ...]  # (ruleset, wins on the last tile)
    players: tuple[PlayerLine, ...]  # per ruleset, worst offenders first, at most ``max_players`` each
    players_total: int
    weekly_findings: tuple[WeekCount, ...]  # findings per week (UTC, from Monday) by kind
    weekly_stake: tuple[WeekCount, ...]  # Σ |payout differences| per week and ruleset
    untimed_games: int  # games without a start time (left out of the weekly charts)
    findings: tuple[FindingInfo, ...]  # the first ``max_findings`` in drill-down order
    chips: tuple[GameChips, ...] = ()  # chips per player over the game, where logs record them
    readings: tuple[ReadingCount, ...] = ()  # per ruleset, the readings its verdicts were reached under

    @property
    def empty(self) -> bool:
        return self.games == 0 and self.findings_total == 0 and self.rejected == 0

    @property
    def clean(self) -> bool:
        return self.findings_total == 0 and self.rejected == 0


def connect_read_only(path: str) -> duckdb.DuckDBPyConnection:
    import os

    if not os.path.exists(path):
        raise DatabaseError(f"database {path} does not exist (run `mahjong-audit audit … --db {path}` first)")
    from mahjong_audit.pipeline import sink

    sink.check_database_file(path)  # DatabaseError: not a DuckDB file
    try:
        return duckdb.connect(path, read_only=True)
    except duckdb.Error as e:
        if "lock" in str(e).lower():
            from mahjong_audit.pipeline.serve.replica import connect_read_copy

            copy = connect_read_copy(path)  # the database `serve` holds: the copy it publishes
            if copy is not None:
                print(f"mahjong-audit report: {copy[1]}", file=sys.stderr)
                return copy[0]
            raise DatabaseLocked(f"database {path} is locked by another process (an audit still writing it?); "
                                 "run the report when it has finished") from None
        raise DatabaseError(f"cannot open database {path} read-only: {e}") from None


def _existing_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {name for (name,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}


def _scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> int:
    row = con.execute(sql, params or []).fetchone()
    return int(row[0] or 0) if row else 0


def load(con: duckdb.DuckDBPyConnection, db_path: str, *, max_findings: int = 5000, max_players: int = 500,
         bins: int = 20) -> ReportData:
    """Everything the report shows. Tables that are missing count as empty."""
    have = _existing_tables(con)
    missing = tuple(t for t in TABLES if t not in have and t != "files")  # files: not reported on
    if missing:
        # Shadow each missing table with an empty one of the right shape, for this session only.
        from mahjong_audit.pipeline.tables import create_table_sql

        for name in missing:
            con.execute(create_table_sql(name, TABLES[name]).replace("CREATE TABLE IF NOT EXISTS",
                                                                     "CREATE TEMP TABLE"))
    return ReportData(
        db_path=db_path,
        missing_tables=tuple(t for t in missing if t != "run_files"),  # newer than some databases
        runs=_runs(con),
        games=_scalar(con, "SELECT count(*) FROM games"),
        hands=_scalar(con, "SELECT count(*) FROM hands"),
        rejected=_scalar(con, "SELECT count(*) FROM rejected"),
        rulesets=_rulesets(con),
        findings_total=_scalar(con, "SELECT count(*) FROM findings"),
        games_with_findings=_scalar(con, "SELECT count(DISTINCT game_id) FROM findings"),
        kinds=_kinds(con),
        severities=tuple((s, int(n)) for s, n in con.execute(
            "SELECT severity, count(*) FROM findings GROUP BY severity ORDER BY severity").fetchall()),
        codes=tuple(CodeCount(*r) for r in con.execute(
            "SELECT kind, code, severity, count(*) AS n, count(DISTINCT game_id), "
            f"count(*) FILTER (WHERE {_depends_sql(con)}) FROM findings "
            "GROUP BY kind, code, severity ORDER BY n DESC, kind, code").fetchall()),
        payouts=_payouts(con, bins),
        items=_items(con),
        scored=tuple(ScoredSeats(r, int(n), int(w)) for r, n, w in con.execute(
            "SELECT hs.ruleset, count(DISTINCT (hs.game_id, hs.hand_no, hs.seat)), "
            "count(DISTINCT (hs.game_id, hs.hand_no, hs.seat)) FILTER (WHERE list_contains(h.winners, hs.seat)) "
            "FROM hand_scores hs JOIN hands h USING (game_id, hand_no) GROUP BY hs.ruleset "
            "ORDER BY hs.ruleset").fetchall()),
        win_types=tuple(WinTypeCount(*r) for r in con.execute(
            "SELECT ruleset, win_type, count(*) FROM hands WHERE result = 'win' AND win_type IS NOT NULL "
            "GROUP BY ruleset, win_type ORDER BY ruleset, win_type").fetchall()),
        last_tile_wins=tuple((r, int(n)) for r, n in con.execute(
            "SELECT ruleset, count(*) FILTER (WHERE last_tile) FROM hands WHERE result = 'win' "
            "GROUP BY ruleset ORDER BY ruleset").fetchall()),
        players=_players(con, max_players),
        players_total=_scalar(con, "SELECT count(DISTINCT p) FROM (SELECT unnest(players) AS p FROM games)"),
        weekly_findings=_weekly(con, "finding_trend", "kind", "findings"),
        weekly_stake=_weekly(con, "period_stats", "ruleset", "money_at_stake"),
        untimed_games=_scalar(con, "SELECT count(*) FROM games WHERE started_at IS NULL"),
        findings=_findings(con, max_findings),
        chips=load_chips(con),
        readings=_readings(con),
    )


def _readings(con: duckdb.DuckDBPyConnection) -> tuple[ReadingCount, ...]:
    """Games per ruleset, readings and profile. A database written before ``games.readings``
    existed (opened read-only, so not upgraded) shows its games as not recorded (None)."""
    have = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'").fetchall()}
    cols = ", ".join(c if c in have else f"NULL::VARCHAR AS {c}" for c in ("readings", "profile", "profile_sha256"))
    rows = con.execute(f"""
        SELECT ruleset, readings, profile, profile_sha256, count(*) AS n
        FROM (SELECT ruleset, {cols} FROM games)
        GROUP BY ALL ORDER BY ruleset, n DESC, readings NULLS LAST, profile NULLS FIRST""").fetchall()
    return tuple(ReadingCount(r, readings, profile, sha, int(n)) for r, readings, profile, sha, n in rows)


def _runs(con: duckdb.DuckDBPyConnection) -> tuple[RunInfo, ...]:
    rows = con.execute(
        "SELECT run_id, started_at, finished_at, version, inputs, runner, games, hands, findings, rejected "
        "FROM runs ORDER BY finished_at DESC, run_id DESC").fetchall()
    return tuple(RunInfo(r[0], r[1], r[2], r[3], tuple(r[4] or ()), *r[5:]) for r in rows)


def _rulesets(con: duckdb.DuckDBPyConnection) -> tuple[RulesetCount, ...]:
    rows = con.execute("""
        WITH g AS (SELECT ruleset, count(*) AS games FROM games GROUP BY ruleset),
             h AS (SELECT ruleset, count(*) AS hands,
                          count(*) FILTER (WHERE result = 'win') AS wins,
                          count(*) FILTER (WHERE result = 'draw') AS draws
                   FROM hands GROUP BY ruleset),
             s AS (SELECT h.ruleset, sum(abs(p.diff)) AS stake
                   FROM payouts p JOIN hands h USING (game_id, hand_no)
                   WHERE p.diff IS NOT NULL GROUP BY h.ruleset)
        SELECT coalesce(g.ruleset, h.ruleset), coalesce(games, 0), coalesce(hands, 0),
               coalesce(wins, 0), coalesce(draws, 0), coalesce(s.stake, 0)::BIGINT
        FROM g FULL OUTER JOIN h ON g.ruleset = h.ruleset
        LEFT JOIN s ON s.ruleset = coalesce(g.ruleset, h.ruleset) ORDER BY 1
    """).fetchall()
    return tuple(RulesetCount(*r) for r in rows)


def _kinds(con: duckdb.DuckDBPyConnection) -> tuple[KindCount, ...]:
    rows = con.execute(
        "SELECT kind, severity, count(*) FROM findings GROUP BY kind, severity").fetchall()
    by_kind: dict[str, dict[str, int]] = {}
    for kind, sev, n in rows:
        by_kind.setdefault(kind, {})[sev] = int(n)
    out = [KindCount(k, tuple(sorted(v.items()))) for k, v in by_kind.items()]
    return tuple(sorted(out, key=lambda k: (-k.total, k.kind)))


def _payouts(con: duckdb.DuckDBPyConnection, n_bins: int) -> Payouts:
    row = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE diff <> 0), coalesce(sum(abs(diff)), 0), "
        "min(diff) FILTER (WHERE diff <> 0), max(diff) FILTER (WHERE diff <> 0) "
        "FROM payouts WHERE diff IS NOT NULL").fetchone()
    compared, differing, stake, lo, hi = row if row else (0, 0, 0, None, None)
    if not differing:
        return Payouts(int(compared), 0, 0, ())
    width = nice_width(int(lo), int(hi), n_bins)
    start = math.floor(int(lo) / width) * width  # zero is a bin edge: losses and gains never share a bin
    counts = dict(con.execute(
        "SELECT CAST(floor((diff - ?) / ?) AS BIGINT) AS b, count(*) FROM payouts "
        "WHERE diff IS NOT NULL AND diff <> 0 GROUP BY b", [start, width]).fetchall())
    n = (int(hi) - start) // width + 1
    bins = tuple(Bin(start + i * width, start + (i + 1) * width, int(counts.get(i, 0))) for i in range(n))
    return Payouts(int(compared), int(differing), int(stake), bins)


def nice_width(lo: int, hi: int, max_bins: int) -> int:
    """The smallest bin width of the form 1, 2, 5 × 10^k giving at most ``max_bins`` bins
    over ``lo..hi`` once the bins are aligned on zero."""
    k = 0
    while True:
        for m in (1, 2, 5):
            w = m * 10**k
            if hi // w - math.floor(lo / w) + 1 <= max_bins:
                return w
        k += 1


def _items(con: duckdb.DuckDBPyConnection) -> tuple[ItemCount, ...]:
    rows = con.execute(f"SELECT ruleset, item, unit, hands, count, share FROM ({VIEWS['fan_stats']})").fetchall()
    return tuple(ItemCount(r[0], r[1], r[2], int(r[3]), int(r[4]), float(r[5] or 0)) for r in rows)


def _has_depends_on(con: duckdb.DuckDBPyConnection) -> bool:
    return _scalar(con, "SELECT count(*) FROM information_schema.columns "
                        "WHERE table_name = 'findings' AND column_name = 'depends_on'") > 0


def _depends_sql(con: duckdb.DuckDBPyConnection) -> str:
    """The condition "this finding depends on house rules", on a database written before
    ``findings.depends_on`` existed (opened read-only, so not upgraded) never true."""
    return "len(depends_on) > 0" if _has_depends_on(con) else "FALSE"


def _seating_sql(con: duckdb.DuckDBPyConnection, sql: str) -> str:
    """``sql`` as it runs on this database: one written before ``hands.players`` existed (opened
    read-only, so not upgraded) takes every hand's seating from ``games.players``."""
    have = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'hands'").fetchall()}
    return sql if "players" in have else sql.replace("h.players", "NULL::VARCHAR[]")


def _players(con: duckdb.DuckDBPyConnection, limit: int) -> tuple[PlayerLine, ...]:
    rows = con.execute(f"""
        WITH ps AS ({_seating_sql(con, VIEWS['player_stats'])}),
        {_seating_sql(con, HAND_SEATS + ',' + HAND_NUMBERS)},
        fw AS (  -- each hands row once
          SELECT ruleset, player, count(*) AS n FROM hand_seats
          WHERE list_contains(false_wins, seat) GROUP BY ruleset, player
        ),
        dh AS (  -- findings name (game_id, hand_no): the seat's player in that number's seating
          SELECT n.ruleset, n.seating[f.seat + 1] AS player, count(DISTINCT (f.game_id, f.hand_no, f.seat)) AS n
          FROM findings f JOIN hand_numbers n USING (game_id, hand_no)
          WHERE f.kind = 'dead_hand' AND f.seat < len(n.seating) GROUP BY ALL
        )
        SELECT ruleset, player, games, hands, wins, deal_ins, net_score, false_wins, dead_hands FROM (
          SELECT ps.ruleset, ps.player, ps.games, ps.hands, ps.wins, ps.deal_ins, ps.net_score,
                 coalesce(fw.n, 0) AS false_wins, coalesce(dh.n, 0) AS dead_hands,
                 row_number() OVER (PARTITION BY ps.ruleset ORDER BY coalesce(fw.n, 0) + coalesce(dh.n, 0) DESC,
                                    coalesce(fw.n, 0) DESC, ps.net_score ASC, ps.player) AS rank
          FROM ps LEFT JOIN fw USING (ruleset, player) LEFT JOIN dh USING (ruleset, player)
        ) WHERE rank <= ?
        ORDER BY ruleset, rank
    """, [limit]).fetchall()
    return tuple(PlayerLine(r[0], r[1], *(int(x or 0) for x in r[2:])) for r in rows)


def _weekly(con: duckdb.DuckDBPyConnection, view: str, series: str, value: str) -> tuple[WeekCount, ...]:
    """``value`` per week and ``series`` from a time view's SQL (so older databases work too)."""
    rows = con.execute(f"""
        SELECT period, {series}, sum({value})::BIGINT FROM ({_seating_sql(con, VIEWS[view])})
        WHERE grain = 'week' AND period IS NOT NULL
        GROUP BY ALL HAVING sum({value}) > 0 ORDER BY 1, 2
    """).fetchall()
    return tuple(WeekCount(r[0], str(r[1]), int(r[2])) for r in rows)


def _findings(con: duckdb.DuckDBPyConnection, limit: int) -> tuple[FindingInfo, ...]:
    rows = con.execute(_seating_sql(con, f"""
        WITH {HAND_NUMBERS}
        SELECT f.game_id, f.hand_no, f.seq, f.seat,
               CASE WHEN f.seat IS NOT NULL AND f.seat < len(coalesce(n.seating, g.players))
                    THEN coalesce(n.seating, g.players)[f.seat + 1] END,
               f.kind, f.code, f.severity, f.expected, f.recorded, f.message, f.ruleset,
               f.source_file, f.source_line, coalesce(f.depends_on, [])
        FROM findings f LEFT JOIN games g USING (game_id)
        LEFT JOIN hand_numbers n ON n.game_id = f.game_id AND n.hand_no = f.hand_no  -- once, if a number repeats
        ORDER BY f.game_id NULLS LAST, f.hand_no NULLS FIRST, f.seq NULLS LAST, f.seat NULLS FIRST,
                 f.kind, f.code, f.source_file, f.source_line
        LIMIT ?
    """).replace("f.depends_on", "f.depends_on" if _has_depends_on(con) else "NULL::VARCHAR[]"), [limit]).fetchall()
    return tuple(FindingInfo(*r[:-1], tuple(r[-1])) for r in rows)  # type: ignore[call-arg]
