"""The pipeline's result rows are named tuples built directly (mahjong_audit.pipeline.rows): they must be
exactly the model rows of mahjong_audit.schemas.results, and the staged Parquet exactly what the models'
dumps gave (the conversion the pipeline used before)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.sim import simulate_one
from mahjong_audit.engine.sim.faults import inject_maybe
from mahjong_audit.pipeline import parse, read, rows, staging
from mahjong_audit.pipeline.tables import SOURCE_COLUMNS, STAGING_SCHEMAS
from mahjong_audit.schemas.results import STAGING_ONLY, TABLES

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in (ROOT / "sample_logs").rglob("*") if p.suffix in (".json", ".jsonl")
                 and not p.name.endswith((".labels.jsonl", "_metadata.json")))


def _simulated(tmp: Path) -> Path:
    """Clean and faulty games of every ruleset (13 games at rate 1 get every fault kind once)."""
    path = tmp / "sim.jsonl"
    with open(path, "w") as out:
        for ruleset in ("mcr", "longgang", "guangdong"):
            for i in range(16):
                game = simulate_one(ruleset, 5, i, 2)
                records, _ = inject_maybe(game, 5, i, 1.0 if i < 13 else 0.0)
                for rec in records:
                    out.write((rec if isinstance(rec, str) else json.dumps(rec, ensure_ascii=False)) + "\n")
    return path


def _items(paths):
    """(rows, source_file, source_line, shard_start) of every record of ``paths``, as the pipeline makes them."""
    seen: dict[str, parse.ParsedGame] = {}
    for path in paths:
        for rec in read.read_records(str(path)):
            for out in parse.parse_record(rec, fast=True):
                if isinstance(out, read.Rejection):
                    yield rows.rejection_values(out, "run"), out.source, out.line, out.shard_start
                elif out.game.game_id in seen:
                    yield rows.duplicate_values(out, seen[out.game.game_id]), None, None, 0
                else:
                    seen[out.game.game_id] = out
                    made = rows.audit_values(out, audit_game(out.game), "run")
                    rows.check_storable(made)
                    yield made, out.source, out.line, out.shard_start


@pytest.fixture(scope="module")
def items(tmp_path_factory) -> list:
    return list(_items([*SAMPLES, _simulated(tmp_path_factory.mktemp("sim"))]))


def test_each_row_tuple_has_its_models_columns_in_order():
    for table, values in rows.VALUES_OF_TABLE.items():
        model = {**TABLES, **STAGING_ONLY}[table]
        assert values._fields == tuple(model.model_fields), table
        assert STAGING_SCHEMAS[table].names[:len(values._fields)] == list(values._fields)
        assert rows.table_of(values(*[None] * len(values._fields))) == table
        assert rows.MODEL_OF_TABLE[table] is model


def test_fast_rows_validate_strictly_as_their_models_with_the_same_values(items):
    """Every row of the samples and of clean and faulty simulated games of the three rulesets
    is its model's row: strict validation converts nothing, and the dump gives back the same
    values of the same types."""
    tables: set[str] = set()
    for made, *_ in items:
        for row, model in zip(made, rows.models(made), strict=True):
            assert type(model) is rows.MODEL_OF_TABLE[rows.table_of(row)]
            dumped = model.model_dump()
            assert dumped == row._asdict()
            assert [type(v) for v in dumped.values()] == [type(v) for v in row]
            tables.add(rows.table_of(row))
    assert tables >= {"games", "hands", "hand_scores", "payouts", "findings", "rejected"}


def test_model_row_functions_give_the_models_of_the_fast_rows():
    made = next(_items(SAMPLES[:1]))[0]
    assert all(type(m).__name__.endswith("Row") for m in rows.models(made))
    assert rows.by_table(made) == rows.by_table(rows.models(made))
    assert rows.counts_by_kind(made) == rows.counts_by_kind(rows.models(made))


def _read(files) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for table, path in files:
        out.setdefault(table, []).extend(pq.read_table(path).to_pylist())
    return out


def test_staged_parquet_is_what_the_model_dumps_gave(items, tmp_path):
    """The staging writer's columns equal the tables built row by row from the models'
    dumps with the source columns set by default, as the writer did before (several row
    groups per table: batch_rows 7)."""
    writer = staging.TableWriter(str(tmp_path / "staging"), batch_rows=7)
    expected: dict[str, list[dict]] = {}
    for made, source_file, source_line, shard_start in items:
        writer.add_rows(made, source_file, source_line, shard_start)
        for model in rows.models(made):
            d = model.model_dump()
            for name, value in zip([c.name for c in SOURCE_COLUMNS], (source_file, source_line, shard_start),
                                   strict=True):
                d.setdefault(name, value)
            expected.setdefault(rows.table_of(model), []).append(d)
    got = _read(writer.close())
    assert sorted(got) == sorted(expected)
    for table, dicts in expected.items():
        want = pa.Table.from_pylist(dicts, schema=STAGING_SCHEMAS[table]).to_pylist()
        assert got[table] == want, table


def test_a_table_writer_row_at_a_time_stages_the_same_as_a_record_at_a_time(items, tmp_path):
    one, many = staging.TableWriter(str(tmp_path / "one")), staging.TableWriter(str(tmp_path / "many"))
    for made, source_file, source_line, shard_start in items[:40]:
        many.add_rows(made, source_file, source_line, shard_start)
        for row in made:
            assert one.add(row, source_file, source_line, shard_start) == rows.table_of(row)
    assert _read(one.close()) == _read(many.close())


def _payout(**changes):
    base = dict(game_id="g", hand_no=0, seat=1, player="bob", recorded=5, computed=4, diff=1)
    return rows.PayoutValues(**{**base, **changes})


def test_check_storable_passes_every_int64_and_valid_text():
    rows.check_storable([_payout(recorded=2**63 - 1, computed=-(2**63), diff=None, player="南风 ✓")])
    hand = rows.HandValues(*[None] * len(rows.HandValues._fields))._replace(chips=[2**63 - 1, -5], last_tile=True)
    rows.check_storable([hand])


@pytest.mark.parametrize(("row", "message"), [
    (_payout(recorded=2**63), "payouts.recorded = 9223372036854775808 does not fit in 64 bits"),
    (_payout(computed=-(2**63) - 1), "payouts.computed = -9223372036854775809 does not fit in 64 bits"),
    (_payout(player="a\udc80b"), "payouts.player is not valid Unicode text: 'a\\udc80b'"),
])
def test_check_storable_names_the_value_that_cannot_be_stored(row, message):
    with pytest.raises(rows.UnstorableRow) as caught:
        rows.check_storable([_payout(), row])
    assert str(caught.value) == message
    with pytest.raises(rows.UnstorableRow) as as_model:  # the model row: the same message
        rows.check_storable([rows.MODEL_OF_TABLE["payouts"](**row._asdict())])
    assert str(as_model.value) == message


def test_check_storable_looks_into_list_columns():
    hand = rows.HandValues(*[None] * len(rows.HandValues._fields))._replace(chips=[1, 2**64])
    with pytest.raises(rows.UnstorableRow, match=r"^hands.chips = 18446744073709551616 does not fit"):
        rows.check_storable([hand])


def test_row_tuples_pickle_by_reference_across_a_stage_boundary():
    """Duplicate findings leave the parse as rows: on a cluster they are pickled between workers."""
    row = _payout()
    again = pickle.loads(pickle.dumps(row, pickle.HIGHEST_PROTOCOL))
    assert again == row and type(again) is rows.PayoutValues


def test_check_storable_names_a_bad_text_in_a_list_column():
    hand = rows.HandValues(*[None] * len(rows.HandValues._fields))._replace(players=["东", "a\udc80", "c", "d"])
    with pytest.raises(rows.UnstorableRow, match=r"^hands.players is not valid Unicode text: 'a\\udc80'"):
        rows.check_storable([hand])


@given(st.lists(st.one_of(st.integers(min_value=-(2**64), max_value=2**64), st.text(max_size=3), st.booleans(),
                          st.none()), min_size=1, max_size=6))
def test_a_list_is_storable_by_the_c_checks_exactly_when_item_by_item(values):
    """The list check in C (64-bit packing, one UTF-8 encoding of the joined texts) agrees with
    the check of each item, for lists of ints, of texts, and of anything mixed."""
    assert rows._storable_list(values) == (not any(map(rows._unstorable, values)))


def test_staged_row_groups_hold_at_most_batch_rows_rows(items, tmp_path):
    """A record's rows are appended a run of one table at a time (a hand's payouts, …); a
    row group still holds at most ``batch_rows`` rows, in the order they came."""
    writer = staging.TableWriter(str(tmp_path / "staging"), batch_rows=3)
    want: dict[str, list] = {}
    for made, source_file, source_line, shard_start in items[:30]:
        writer.add_rows(made, source_file, source_line, shard_start)
        for row in made:
            want.setdefault(rows.table_of(row), []).append(list(row))
    for table, path in writer.close():
        meta = pq.ParquetFile(path).metadata
        assert max(meta.row_group(i).num_rows for i in range(meta.num_row_groups)) <= 3, table
        got = pq.read_table(path).to_pylist()
        own = len(rows.VALUES_OF_TABLE[table]._fields)
        assert [list(r.values())[:own] for r in got] == want[table], table


_VALUE = st.one_of(st.none(), st.booleans(), st.text(max_size=3),
                   st.sampled_from([2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
                                    -(2**63), -(2**63) - 1, 207, -49, "a\udc80", "南", 1.5]),
                   st.integers(min_value=-(2**65), max_value=2**65),
                   st.lists(st.integers(min_value=-(2**65), max_value=2**65), max_size=3),
                   st.lists(st.sampled_from(["a", "南", "\udc80"]), max_size=3))


@given(st.lists(st.lists(_VALUE, min_size=7, max_size=7), min_size=1, max_size=4))
def test_the_packed_check_agrees_with_the_check_of_each_value(values):
    """check_storable's first pass (every row packed at once) raises exactly when, and what,
    the check of each value does."""
    made = [rows.PayoutValues(*row) for row in values]

    def outcome(check):
        try:
            check(made)
        except rows.UnstorableRow as e:
            return str(e)
        return None

    assert outcome(rows.check_storable) == outcome(rows._check_each)
