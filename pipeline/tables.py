"""DuckDB DDL and Arrow/Parquet schemas, both derived from the row models.

One explicit type map (:data:`TYPE_MAP`) turns each field annotation of a model in
``mahjong_audit.schemas.results`` into an Arrow type and a DuckDB type. ``Optional`` (``X | None``)
makes a column nullable; everything else is ``NOT NULL``. A field type not in the map is
an error at import time of the caller, never a silent ``VARCHAR``.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from datetime import datetime

import pyarrow as pa
from pydantic import BaseModel

from mahjong_audit.schemas.results import BOOKKEEPING_TABLES, STAGING_ONLY, TABLES, Instant


@dataclass(frozen=True, slots=True)
class ColumnType:
    arrow: pa.DataType
    duckdb: str


# The one type map: Python annotation -> (Arrow type, DuckDB type).
# Datetimes are stored as naive UTC timestamps (microseconds).
TYPE_MAP: typing.Mapping[object, ColumnType] = types.MappingProxyType({
    str: ColumnType(pa.string(), "VARCHAR"),
    int: ColumnType(pa.int64(), "BIGINT"),
    bool: ColumnType(pa.bool_(), "BOOLEAN"),
    float: ColumnType(pa.float64(), "DOUBLE"),
    datetime: ColumnType(pa.timestamp("us"), "TIMESTAMP"),
    Instant: ColumnType(pa.timestamp("us", tz="UTC"), "TIMESTAMP WITH TIME ZONE"),
    list[int]: ColumnType(pa.list_(pa.int64()), "BIGINT[]"),
    list[str]: ColumnType(pa.list_(pa.string()), "VARCHAR[]"),
})


class UnsupportedType(TypeError):
    """A row model field whose type the type map does not cover."""


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: ColumnType
    nullable: bool


def _split_optional(annotation: object) -> tuple[object, bool]:
    """``int | None`` -> (int, True); ``int`` -> (int, False)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) != 1:
            raise UnsupportedType(f"union {annotation!r} is not a single optional type")
        return rest[0], len(rest) != len(args)
    return annotation, False


def columns(model: type[BaseModel]) -> tuple[Column, ...]:
    """The columns of a row model, in field order."""
    out = []
    hints = typing.get_type_hints(model, include_extras=True)
    for name in model.model_fields:
        base, nullable = _split_optional(hints[name])
        if base not in TYPE_MAP:
            raise UnsupportedType(f"{model.__name__}.{name}: type {base!r} is not in tables.TYPE_MAP")
        out.append(Column(name, TYPE_MAP[base], nullable))
    return tuple(out)


def arrow_schema(model: type[BaseModel]) -> pa.Schema:
    return pa.schema([pa.field(c.name, c.type.arrow, nullable=c.nullable) for c in columns(model)])


def column_names(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(model.model_fields)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def create_table_sql(table: str, model: type[BaseModel]) -> str:
    cols = ",\n  ".join(
        f"{_quote(c.name)} {c.type.duckdb}{'' if c.nullable else ' NOT NULL'}" for c in columns(model)
    )
    return f"CREATE TABLE IF NOT EXISTS {_quote(table)} (\n  {cols}\n)"


ARROW_SCHEMAS: typing.Mapping[str, pa.Schema] = types.MappingProxyType(
    {name: arrow_schema(model) for name, model in TABLES.items()}
)

# Every staged row carries the source position of its game's record, so the load can keep
# one occurrence per game_id; tables whose rows do not hold it get it as extra (nullable)
# staging columns, which are not loaded.
# ``source_shard_start`` > 0: source_line counts from that byte offset's split, fixed by
# the load (mahjong_audit.pipeline.splits).
SOURCE_COLUMNS = (
    Column("source_file", TYPE_MAP[str], True),
    Column("source_line", TYPE_MAP[int], True),
    Column("source_shard_start", TYPE_MAP[int], True),
)


def staging_schema(model: type[BaseModel]) -> pa.Schema:
    """The Parquet schema of a table's staged files: its columns + missing source columns."""
    cols = columns(model)
    have = {c.name for c in cols}
    cols += tuple(c for c in SOURCE_COLUMNS if c.name not in have)
    return pa.schema([pa.field(c.name, c.type.arrow, nullable=c.nullable) for c in cols])


STAGING_SCHEMAS: typing.Mapping[str, pa.Schema] = types.MappingProxyType(
    {name: staging_schema(model)
     for name, model in {**TABLES, **STAGING_ONLY}.items() if name not in BOOKKEEPING_TABLES}
)

# finding_summary counts apart the error findings that depend on house rules: ones a documented
# reading clears (findings.depends_on, mahjong_audit.engine.rechecks), beside the hard ones.
# Summary views. Seats map to players through each hand's seating (hands.players: the
# players in seats 0..3, 0-based seat -> 1-based list), so a player who changes seats or
# stands out (five-player 龙港) is followed as one person; rows written before that column
# existed fall back to games.players. Every per-player figure is per ruleset: MCR fan
# points, 龙港 chips and 广东 番 are different units and are never added up together.
#
# Each recorded hand counts once, as in the collusion build (mahjong_audit.pipeline.collusion).
# Each hands row is one hand: a hand number that repeats within a game (a faulty log: two
# hands recorded under one number) is two hands, and a seat's player is read from the hand's
# own seating by position, never by joining seats back on (game_id, hand_no), which paired
# the seats of two such hands 2 × 2. Payouts and findings carry only (game_id, hand_no): those
# of the hands sharing a number are one pool, each row counted once (HAND_NUMBERS).
#
# Who sat where in a hand, over ``hands h JOIN games g``.
SEATING = "coalesce(h.players, g.players[1:4])"
HAND_ROWS = f"""
hand_rows AS (SELECT h.*, {SEATING} AS seating FROM hands h JOIN games g USING (game_id))"""
# One row per hand and seat, with the hand's columns.
HAND_SEATS = HAND_ROWS + """,
hand_seats AS (
  SELECT *, seating[seat + 1] AS player
  FROM (SELECT *, unnest(range(len(seating))) AS seat FROM hand_rows)
)"""
# One row per hand number, the pool its payouts and findings belong to: dated by the earliest
# of its hands, seated by the least of their seatings (they differ only in a faulty log).
HAND_NUMBERS = f"""
hand_numbers AS (
  SELECT game_id, hand_no, any_value(h.ruleset) AS ruleset, min(h.started_at) AS started_at,
         min({SEATING}) AS seating
  FROM hands h JOIN games g USING (game_id) GROUP BY game_id, hand_no
)"""
# A row per hand and seat, then a row per payout (its player: the seat's in the number's
# seating, or the one a payout of a player standing out names).
_SEAT_HANDS = HAND_SEATS + "," + HAND_NUMBERS + """,
seat_hands AS (
  SELECT ruleset, player, game_id, started_at, win_type, total,
         TRUE AS seated,
         list_contains(winners, seat) AS won,
         winners[1] = seat AS first_winner,
         result = 'win' AND discarder = seat AND win_type IN ('discard', 'robbing_kong') AS dealt_in,
         NULL AS delta
  FROM hand_seats
  UNION ALL
  SELECT n.ruleset, CASE WHEN p.seat IS NULL THEN p.player ELSE n.seating[p.seat + 1] END,
         p.game_id, n.started_at, NULL, NULL, FALSE, FALSE, FALSE, FALSE,
         coalesce(p.recorded, p.computed)
  FROM payouts p JOIN hand_numbers n USING (game_id, hand_no)
)"""

# Time views bucket by the hand's start (its own, else its game's), in UTC, at three
# grains; a game or hand without a time is counted under period NULL.
_GRAINS = "grains AS (SELECT unnest(['day', 'week', 'month']) AS grain)"


def _period(column: str) -> str:
    return f"date_trunc(grain, {column} AT TIME ZONE 'UTC')::DATE"


VIEWS: typing.Mapping[str, str] = types.MappingProxyType({
    "player_stats": f"""
WITH {_SEAT_HANDS}
SELECT ruleset, player,
       count(DISTINCT game_id) AS games,
       count(*) FILTER (WHERE seated) AS hands,
       count(*) FILTER (WHERE won) AS wins,
       count(*) FILTER (WHERE won AND win_type = 'self_drawn') AS self_draw_wins,
       count(*) FILTER (WHERE dealt_in) AS deal_ins,
       coalesce(sum(delta), 0)::BIGINT AS net_score,
       round(avg(total) FILTER (WHERE first_winner), 2) AS avg_win_total
FROM seat_hands
GROUP BY ruleset, player
ORDER BY ruleset, net_score DESC, player
""",
    "period_stats": f"""
WITH {_GRAINS},{HAND_NUMBERS},
stake AS (
  SELECT game_id, hand_no, sum(abs(diff))::BIGINT AS money_at_stake
  FROM payouts WHERE diff IS NOT NULL GROUP BY game_id, hand_no
),
hand_findings AS (
  SELECT game_id, hand_no, count(*) AS findings, count(*) FILTER (WHERE severity = 'error') AS errors
  FROM findings WHERE game_id IS NOT NULL AND hand_no IS NOT NULL GROUP BY game_id, hand_no
),
game_findings AS (
  SELECT game_id, count(*) AS findings, count(*) FILTER (WHERE severity = 'error') AS errors
  FROM findings WHERE game_id IS NOT NULL AND hand_no IS NULL GROUP BY game_id
),
hand_counts AS (
  SELECT grain, {_period('started_at')} AS period, ruleset,
         count(*) AS hands,
         sum(len(false_wins))::BIGINT AS false_wins
  FROM hands CROSS JOIN grains
  GROUP BY ALL
),
by_number AS (  -- a hand number's findings and money at stake, once (HAND_NUMBERS)
  SELECT grain, {_period('n.started_at')} AS period, n.ruleset,
         coalesce(sum(hf.findings), 0)::BIGINT AS findings,
         coalesce(sum(hf.errors), 0)::BIGINT AS errors,
         coalesce(sum(s.money_at_stake), 0)::BIGINT AS money_at_stake
  FROM hand_numbers n CROSS JOIN grains
  LEFT JOIN hand_findings hf USING (game_id, hand_no)
  LEFT JOIN stake s USING (game_id, hand_no)
  GROUP BY ALL
),
by_hand AS (  -- a number's period is one of its hands' periods
  SELECT c.*, b.findings, b.errors, b.money_at_stake
  FROM hand_counts c LEFT JOIN by_number b
    ON c.grain = b.grain AND c.period IS NOT DISTINCT FROM b.period AND c.ruleset = b.ruleset
),
by_game AS (
  SELECT grain, {_period('g.started_at')} AS period, g.ruleset,
         count(*) AS games,
         coalesce(sum(gf.findings), 0)::BIGINT AS findings,
         coalesce(sum(gf.errors), 0)::BIGINT AS errors
  FROM games g CROSS JOIN grains
  LEFT JOIN game_findings gf USING (game_id)
  GROUP BY ALL
)
SELECT coalesce(bg.grain, bh.grain) AS grain, coalesce(bg.period, bh.period) AS period,
       coalesce(bg.ruleset, bh.ruleset) AS ruleset,
       coalesce(bg.games, 0) AS games,
       coalesce(bh.hands, 0) AS hands,
       (coalesce(bh.findings, 0) + coalesce(bg.findings, 0))::BIGINT AS findings,
       (coalesce(bh.errors, 0) + coalesce(bg.errors, 0))::BIGINT AS errors,
       coalesce(bh.false_wins, 0) AS false_wins,
       round(coalesce(bh.false_wins, 0) / nullif(bh.hands, 0), 4) AS false_win_rate,
       coalesce(bh.money_at_stake, 0) AS money_at_stake
FROM by_game bg FULL OUTER JOIN by_hand bh
  ON bg.grain = bh.grain AND bg.period IS NOT DISTINCT FROM bh.period AND bg.ruleset = bh.ruleset
ORDER BY grain, period NULLS LAST, ruleset
""",
    "finding_trend": f"""
WITH {_GRAINS},{HAND_NUMBERS},
timed AS (  -- a finding of a hand number once (HAND_NUMBERS)
  SELECT f.ruleset, f.kind, f.code, f.severity, coalesce(n.started_at, g.started_at) AS started_at
  FROM findings f
  JOIN games g ON g.game_id = f.game_id
  LEFT JOIN hand_numbers n ON n.game_id = f.game_id AND n.hand_no = f.hand_no
)
SELECT grain, {_period('started_at')} AS period, ruleset, kind, severity,
       count(*) AS findings
FROM timed CROSS JOIN grains
GROUP BY ALL
ORDER BY grain, period NULLS LAST, ruleset, findings DESC, kind
""",
    "player_monthly": f"""
WITH {_SEAT_HANDS}
SELECT ruleset, player, date_trunc('month', started_at AT TIME ZONE 'UTC')::DATE AS month,
       count(DISTINCT game_id) AS games,
       count(*) FILTER (WHERE seated) AS hands,
       count(*) FILTER (WHERE won) AS wins,
       round(count(*) FILTER (WHERE won) / nullif(count(*) FILTER (WHERE seated), 0), 4) AS win_rate,
       count(*) FILTER (WHERE dealt_in) AS deal_ins,
       round(count(*) FILTER (WHERE dealt_in) / nullif(count(*) FILTER (WHERE seated), 0), 4) AS deal_in_rate,
       coalesce(sum(delta), 0)::BIGINT AS net_score
FROM seat_hands
GROUP BY ALL
ORDER BY ruleset, player, month NULLS LAST
""",
    "fan_stats": """
WITH scored AS (
  SELECT ruleset, count(DISTINCT (game_id, hand_no, seat)) AS scored_wins
  FROM hand_scores GROUP BY ruleset
)
SELECT hs.ruleset, hs.item, hs.unit,
       sum(hs.count)::BIGINT AS count,
       count(DISTINCT (hs.game_id, hs.hand_no, hs.seat)) AS hands,
       round(count(DISTINCT (hs.game_id, hs.hand_no, hs.seat)) / any_value(s.scored_wins), 4) AS share
FROM hand_scores hs JOIN scored s USING (ruleset)
GROUP BY hs.ruleset, hs.item, hs.unit
ORDER BY hs.ruleset, hands DESC, hs.item
""",
    "finding_summary": """
SELECT kind, code, severity, count(*) AS count, count(DISTINCT game_id) AS games,
       count(*) FILTER (WHERE len(depends_on) > 0) AS depends_on_rules
FROM findings
GROUP BY kind, code, severity
ORDER BY count DESC, kind, code
""",
})


def ddl() -> tuple[str, ...]:
    """Every statement that creates the tables and (re)creates the views."""
    stmts = [create_table_sql(name, model) for name, model in TABLES.items()]
    stmts += [f"CREATE OR REPLACE VIEW {_quote(name)} AS {sql.strip()}" for name, sql in VIEWS.items()]
    return tuple(stmts)
