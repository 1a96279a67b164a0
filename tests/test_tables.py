"""DDL and Arrow schemas are derived from the row models through one type map."""

from __future__ import annotations

from datetime import datetime

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import BaseModel

from mahjong_audit.pipeline import tables
from mahjong_audit.schemas.results import TABLES


def test_every_field_of_every_model_becomes_a_column_with_the_mapped_type():
    con = duckdb.connect()
    for stmt in tables.ddl():
        con.execute(stmt)
    for name, model in TABLES.items():
        got = con.execute(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_name = ? ORDER BY ordinal_position", [name]).fetchall()
        want = [(c.name, c.type.duckdb, "YES" if c.nullable else "NO") for c in tables.columns(model)]
        assert got == want, name
        assert [f.name for f in tables.ARROW_SCHEMAS[name]] == list(model.model_fields)


def test_type_map_covers_optional_lists_and_datetimes():
    class Row(BaseModel):
        a: str
        b: int | None
        c: list[int]
        d: list[str] | None
        e: datetime
        f: bool
        g: float | None

    schema = tables.arrow_schema(Row)
    assert schema.field("a").type == pa.string() and not schema.field("a").nullable
    assert schema.field("b").type == pa.int64() and schema.field("b").nullable
    assert schema.field("c").type == pa.list_(pa.int64())
    assert schema.field("d").type == pa.list_(pa.string()) and schema.field("d").nullable
    assert schema.field("e").type == pa.timestamp("us")
    assert schema.field("f").type == pa.bool_()
    assert schema.field("g").type == pa.float64()
    sql = tables.create_table_sql("t", Row)
    assert '"a" VARCHAR NOT NULL' in sql and '"b" BIGINT,' in sql and '"c" BIGINT[] NOT NULL' in sql
    assert '"e" TIMESTAMP NOT NULL' in sql and '"g" DOUBLE\n' in sql


def test_unmapped_types_are_refused():
    class Bad(BaseModel):
        x: dict[str, int]

    class Union2(BaseModel):
        y: int | str

    with pytest.raises(tables.UnsupportedType, match="Bad.x"):
        tables.columns(Bad)
    with pytest.raises(tables.UnsupportedType):
        tables.columns(Union2)


def test_parquet_written_with_the_arrow_schema_loads_into_the_ddl(tmp_path):
    from mahjong_audit.schemas.results import HandRow

    row = HandRow(game_id="g", hand_no=0, ruleset="mcr", round_wind="E", dealer=0, result="win",
                  winners=[1], win_type="discard", last_tile=False, winning_tile="5p", discarder=2,
                  total=9, recorded_total=None, false_wins=[], events=40, findings=0)
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.Table.from_pylist([row.model_dump()], schema=tables.ARROW_SCHEMAS["hands"]), path)
    con = duckdb.connect()
    for stmt in tables.ddl():
        con.execute(stmt)
    con.execute(f"INSERT INTO hands SELECT * FROM read_parquet('{path}')")
    assert con.execute("SELECT winners, recorded_total, total FROM hands").fetchall() == [([1], None, 9)]


def test_views_are_queryable_on_empty_tables():
    con = duckdb.connect()
    for stmt in tables.ddl():
        con.execute(stmt)
    for view in tables.VIEWS:
        assert con.execute(f"SELECT * FROM {view}").fetchall() == []
