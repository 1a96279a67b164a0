"""The fast validation path (mahjong_audit.schemas.log_fast: msgspec Structs derived from the models)
accepts only what the models accept, with the same values, and the audit of a game is the same
whichever path read it."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Literal

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import parse, read
from mahjong_audit.pipeline.rows import audit_rows
from mahjong_audit.schemas import log as L
from mahjong_audit.schemas import log_fast as F
from mahjong_audit.schemas.log_fast_checks import plain_score
from tests.log_variants import (
    SAMPLES,
    model_accepts,
    mutations,
    native_texts,
    rejected_with_the_models_message,
    started_at_reaches_the_rows_alike,
)
from tests.logbuild import draw_game, win_game


@pytest.fixture(autouse=True)
def _read_uses_this_path(monkeypatch):
    """The audit's reader validates with the fast path here, even where MAHJONG_AUDIT_MODELS
    turned it off for this process."""
    monkeypatch.setattr(parse, "parse_game_json", F.decode_game)


def _same(fast, model, where="game") -> None:
    """Every field of a fast object holds what the model's field holds (recursively)."""
    if isinstance(fast, msgspec.Struct):
        assert type(fast).__name__ == type(model).__name__, where
        assert fast.type == model.type if hasattr(model, "type") else True, where
        for f in msgspec.structs.fields(fast):
            _same(getattr(fast, f.name), getattr(model, f.name), f"{where}.{f.name}")
    elif isinstance(fast, list):
        assert isinstance(model, list) and len(fast) == len(model), where
        for i, (a, b) in enumerate(zip(fast, model, strict=True)):
            _same(a, b, f"{where}[{i}]")
    else:  # plain values, and the recorded score (the model itself on both paths)
        assert type(fast) is type(model) and fast == model, where


def _both_paths_agree(text: str, lax: bool = False) -> None:
    """The fast path accepts only what the models accept, with the same values and audit;
    it declines a record the models accept only where it is ``lax`` (then the audit's
    parse_record falls back to the models). parse_record gives the same either way."""
    model = model_accepts(text)
    fast = F.decode_game(text)
    if fast is not None:
        assert model is not None
        _same(fast, model)
        assert audit_game(fast) == audit_game(model)
    else:
        assert (model is None) != lax
    rec = read.RawRecord("x.jsonl", 1, text)
    fast_out, model_out = parse.parse_record(rec, fast=True), parse.parse_record(rec)
    assert [type(p) for p in fast_out] == [type(p) for p in model_out]
    for a, b in zip(fast_out, model_out, strict=True):
        if isinstance(a, parse.ParsedGame):
            assert audit_rows(a, audit_game(a.game), "r1") == audit_rows(b, audit_game(b.game), "r1")
        else:
            assert a == b


@pytest.mark.parametrize("cls", F.CLASSES, ids=lambda c: c.__name__)
def test_each_fast_class_has_the_fields_of_its_model(cls):
    model = getattr(L, cls.__name__)
    fast = {f.name: f for f in msgspec.structs.fields(cls)}
    tag = cls.__struct_config__.tag
    if tag is not None:  # an event: its type is the class's tag, as the model's Literal says
        assert cls.type == tag and model.model_fields["type"].annotation == Literal[tag]
        assert set(fast) | {"type"} == set(model.model_fields)
    else:
        assert set(fast) == set(model.model_fields)
    for name, f in fast.items():
        info = model.model_fields[name]
        assert f.encode_name == (info.alias or name), name  # "from" for from_
        required = f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT
        assert required == info.is_required(), name
        if not required:  # same default (a factory gives a fresh empty list or dict)
            default = f.default if f.default_factory is msgspec.NODEFAULT else f.default_factory()
            want = info.default if info.default_factory is None else info.default_factory()
            assert default == want, name


@pytest.mark.parametrize(("where", "text"), native_texts(), ids=lambda x: x if len(x) < 60 else "")
def test_sample_logs_audit_the_same_on_both_paths(where, text):
    _both_paths_agree(text)
    assert (F.decode_game(text) is None) == (model_accepts(text) is None)


@pytest.mark.parametrize(("name", "game"), mutations(), ids=lambda x: x if isinstance(x, str) else "")
def test_fast_path_accepts_what_the_models_accept(name, game):
    _both_paths_agree(json.dumps(game), lax=name in LAX)


#: valid to the models' lax mode, declined by the fast path (the audit reads them through the models)
LAX = {"from_ by field name", "int as string", "int as float", "bool as int", "bool as string",
       "NaN in meta", "seq as string", "seat as bool"}


def test_started_at_reaches_the_rows_the_same_on_both_paths():
    started_at_reaches_the_rows_alike(F)


def test_a_record_rejected_on_the_fast_path_gets_the_models_message():
    rejected_with_the_models_message()


def test_the_fast_game_is_frozen_and_pickles():
    game = F.decode_game(json.dumps(win_game("g1")))
    assert isinstance(game, F.Game) and isinstance(game.hands[0].events[1], F.Win)
    with pytest.raises(AttributeError):
        game.game_id = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(game)) == game


def test_not_json_is_left_to_the_models():
    assert F.decode_game("{not json") is None
    assert F.decode_game("[1, 2]") is None


def _raw_variants() -> list[tuple[str, str, bool]]:
    """(name, JSON text, lax): oddities json.dumps does not write."""
    base = json.dumps(win_game("g1"))
    draw = '{"seq": 1, "type": "draw", "seat": 0, "tile": "7p"}'
    assert draw in base
    meta = base[:-1] + ', "meta": {"x": %s}}'
    return [
        ("repeated key, the last counts", base.replace(draw, draw.replace('"seq": 1', '"seq": 9, "seq": 1')), False),
        ("repeated key, the last is bad", base.replace(draw, draw.replace('"seq": 1', '"seq": 1, "seq": -1')), False),
        ("repeated key, the first is bad", base.replace(draw, draw.replace('"seq": 1', '"seq": -1, "seq": 1')), True),
        ("repeated from", base.replace('"from": 0}', '"from": 3, "from": 0}', 1), False),
        ("repeated type, another event", base.replace(draw, draw[:-1] + ', "type": "discard"}'), True),
        ("repeated type, the same", base.replace(draw, draw[:-1] + ', "type": "draw"}'), False),
        ("NaN", meta % "NaN", True),
        ("Infinity", meta % "-Infinity", True),
        ("number out of range", meta % "1e400", True),
        ("escaped lone surrogate", meta % '"\\ud800"', False),
        ("lone surrogate", meta % '"\ud800"', False),
        ("escapes", meta % '"\\u00e9\\n\\u4e2d\\"\\\\"', False),
        ("nested too deeply", meta % ("[" * 20000 + "]" * 20000), False),
        ("meta nested 100 deep", meta % ("[" * 100 + "]" * 100), False),
        ("meta nested 190 deep", meta % ("[" * 190 + "]" * 190), True),  # the models parse it, the fast path leaves it
        ("trailing text", base + " x", False),
        ("two documents", base + base, False),
        ("spaces around", "  \t" + base + " ", False),
        ("empty", "", False),
        ("not an object", '"mahjong-log/1"', False),
    ]


def _too_deep_for_the_models() -> list[tuple[str, str]]:
    """Valid JSON nested deeper than pydantic-core parses (about 200): msgspec reads it."""
    deep = "[" * 250 + "]" * 250
    out = []
    for name, put in [("game meta", lambda g: g.update(meta={"x": "DEEP"})),
                      ("hand meta", lambda g: g["hands"][0].update(meta={"x": "DEEP"})),
                      ("options", lambda g: g.update(options={"x": "DEEP"})),
                      ("recorded score field", lambda g: g["hands"][0]["outcome"]["wins"][0]["score"].update(x="DEEP")),
                      ("fan entry", lambda g: g["hands"][0]["outcome"]["wins"][0]["score"].update(fans=[["a", 1, "DEEP"]]))]:
        game = win_game("g1")
        put(game)
        out.append((name, json.dumps(game).replace('"DEEP"', deep)))
    return out


@pytest.mark.parametrize(("where", "text"), _too_deep_for_the_models(), ids=lambda x: x if len(x) < 40 else "")
def test_a_game_nested_deeper_than_the_models_parse_is_rejected_on_both_paths(where, text):
    # found by tests.fuzzing: msgspec read such a game and the audit took it, which the models reject
    assert F.decode_game(text) is None
    assert model_accepts(text) is None
    _both_paths_agree(text)
    (rej,) = parse.parse_record(read.RawRecord("x.jsonl", 1, text, data=text.encode()), fast=True)
    assert isinstance(rej, read.Rejection) and rej.code == "invalid_log/json"


@pytest.mark.parametrize(("name", "text", "lax"), _raw_variants(), ids=lambda x: x if isinstance(x, str) and len(x) < 40 else "")
def test_json_oddities_read_the_same_on_both_paths(name, text, lax):
    _both_paths_agree(text, lax=lax)


# Random changes to valid games: any value replaced by another of any JSON type, a key
# dropped or added. Whatever the fast path accepts, the models accept with the same values.
_POOL = [
    -1, 0, 1, 3, 4, 5, 2**70, 0.0, 1.5, -0.0, True, False, None, "", "0", "1m", "9z", "1f", "x", "live", "back",
    "win", "draw", "discard", "E", "mcr", "2026-11-01", "mahjong-log/1", [], {}, ["1m", "2m"], [0, 0, 0, 0],
    [0, 1, 2, 3, 4], {"seat": 0, "call": "pon"}, {"total": 1},
]


def _like(value) -> st.SearchStrategy:
    """Half the time a value of the same JSON kind (more changes stay valid), else any."""
    kind = [v for v in _POOL if type(v) is type(value)] or _POOL
    return st.one_of(st.sampled_from(kind), st.sampled_from(_POOL))


def _paths(node, path=()):
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield from _paths(v, (*path, k))


def _fuzz_bases() -> list[dict]:
    lines = (SAMPLES / "mcr-faulty.jsonl").read_text().splitlines()
    five = json.loads((SAMPLES / "longgang-five-clean.json").read_text())
    return [win_game("g1"), draw_game("g2"), json.loads(lines[0]), five]


@pytest.mark.slow  # 300 generated logs through both paths
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_changes_read_the_same_on_both_paths(data):
    bases = _fuzz_bases()
    game = copy.deepcopy(bases[data.draw(st.integers(0, len(bases) - 1))])
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(game))[1:]
        path = paths[data.draw(st.integers(0, len(paths) - 1))]
        parent = game
        for k in path[:-1]:
            parent = parent[k]
        how = data.draw(st.sampled_from(["replace", "drop", "add"]))
        if how == "replace" or not isinstance(parent, dict):
            parent[path[-1]] = copy.deepcopy(data.draw(_like(parent[path[-1]])))
        elif how == "drop":
            del parent[path[-1]]
        else:
            parent[data.draw(st.sampled_from(["from", "from_", "type", "note", "tiles", "claims", "seats"]))] = \
                copy.deepcopy(data.draw(st.sampled_from(_POOL)))
    text = json.dumps(game)
    fast, model = F.decode_game(text), model_accepts(text)
    if fast is not None:
        assert model is not None
        _same(fast, model)
        assert audit_game(fast) == audit_game(model)


# A win's recorded score: built at once from its decoded values when they are what the model
# keeps unchanged (schemas/log_fast_checks.py, plain_score), else validated by the model, as before.
_SCORES = [
    ("fans, total", {"fans": [["混一色", 6, 1], ["花牌", 1, 2]], "total": 8}, True),
    ("hu, tai, total", {"hu": 26, "tai": 1, "total": 60}, True),
    ("fan of two", {"fans": [["鸡胡", 1]], "total": 1}, True),
    ("empty", {}, True),
    ("nulls", {"fans": None, "hu": None, "tai": None, "total": None}, True),
    ("no fans", {"fans": [], "total": 0}, True),
    ("big total", {"total": 2**62}, True),
    ("negative", {"total": -3}, True),
    ("extra field", {"total": 8, "limit": True}, False),
    ("total a float", {"total": 8.0}, False),
    ("total a string", {"total": "8"}, False),
    ("total a bool", {"total": True}, False),
    ("fans a dict", {"fans": {"a": 1}}, False),
    ("fan of one", {"fans": [["鸡胡"]]}, False),
    ("fan of four", {"fans": [["鸡胡", 1, 1, 1]]}, False),
    ("fan named by a number", {"fans": [[1, 1]]}, False),
    ("fan value a float", {"fans": [["鸡胡", 1.0]]}, False),
    ("fan count a bool", {"fans": [["鸡胡", 1, True]]}, False),
    ("fan count a string", {"fans": [["鸡胡", 1, "2"]]}, False),
    ("fan a dict", {"fans": [{"name": "鸡胡"}]}, False),
]


@pytest.mark.parametrize(("name", "score", "plain"), _SCORES, ids=[s[0] for s in _SCORES])
def test_a_recorded_score_reads_the_same_on_both_paths(name, score, plain):
    assert plain_score(score) is plain
    try:
        model = L.RecordedScore.model_validate(score)
    except ValueError:
        model = None
    if plain:  # built without validating again: the model's own object
        built = F._decode_hook(L.RecordedScore, score)
        assert built == model and built.model_fields_set == model.model_fields_set
        assert built.model_extra == model.model_extra and built.model_dump() == model.model_dump()
    game = win_game("g1")
    game["hands"][0]["outcome"]["wins"][0]["score"] = score
    text = json.dumps(game, ensure_ascii=False)
    assert (F.decode_game(text) is None) == (model is None)  # what the model does not keep as it is, it decides
    _both_paths_agree(text)


_PLAIN_SCORES = [s[:2] for s in _SCORES if s[2]]


@pytest.mark.parametrize(("name", "score"), _PLAIN_SCORES, ids=[s[0] for s in _PLAIN_SCORES])
def test_a_plain_score_is_the_object_model_construct_builds(name, score):
    built, constructed = F._constructed(dict(score)), L.RecordedScore.model_construct(**score)
    assert list(built.__dict__.items()) == list(constructed.__dict__.items())  # the fields' order too
    assert built.__pydantic_fields_set__ == constructed.__pydantic_fields_set__
    assert built.__pydantic_extra__ == constructed.__pydantic_extra__ == {}
    assert built.__pydantic_private__ is constructed.__pydantic_private__ is None
    assert pickle.loads(pickle.dumps(built)) == constructed
