"""DuckDB DDL and Arrow/Parquet schemas, both derived from the row models.

One explicit type map (:data:`TYPE_MAP`) turns each field annotation of a model in
``schemas.results`` into an Arrow type and a DuckDB type. ``Optional`` (``X | None``)
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

from schemas.results import BOOKKEEPING_TABLES, STAGING_ONLY, TABLES


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
    hints = typing.get_type_hints(model)
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
# the load (pipeline.splits).
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

# Summary views. Seats map to players through games.players (0-based seat -> 1-based list).
VIEWS: typing.Mapping[str, str] = types.MappingProxyType({
    "player_stats": """
WITH seats AS (
  SELECT game_id, unnest(players) AS player, unnest(range(len(players))) AS seat
  FROM games
),
seat_hands AS (
  SELECT s.player, s.game_id, s.seat, h.hand_no, h.result, h.win_type, h.total,
         list_contains(h.winners, s.seat) AS won,
         h.winners[1] = s.seat AS first_winner,
         h.result = 'win' AND h.discarder = s.seat
           AND h.win_type IN ('discard', 'robbing_kong') AS dealt_in
  FROM seats s JOIN hands h USING (game_id)
)
SELECT sh.player,
       count(DISTINCT sh.game_id) AS games,
       count(*) AS hands,
       count(*) FILTER (WHERE sh.won) AS wins,
       count(*) FILTER (WHERE sh.won AND sh.win_type = 'self_drawn') AS self_draw_wins,
       count(*) FILTER (WHERE sh.dealt_in) AS deal_ins,
       coalesce(sum(coalesce(p.recorded, p.computed)), 0)::BIGINT AS net_score,
       round(avg(sh.total) FILTER (WHERE sh.first_winner), 2) AS avg_win_total
FROM seat_hands sh
LEFT JOIN payouts p
  ON p.game_id = sh.game_id AND p.hand_no = sh.hand_no AND p.seat = sh.seat
GROUP BY sh.player
ORDER BY net_score DESC, sh.player
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
SELECT kind, code, severity, count(*) AS count, count(DISTINCT game_id) AS games
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
