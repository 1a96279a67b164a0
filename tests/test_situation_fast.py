"""The fast path of a ``score`` line (schemas/situation_fast.py) gives what the models give."""

from __future__ import annotations

import json
import typing

import pydantic_core
import pytest

from bench import score_identity
from mahjong_audit.pipeline.commands.score import score_line, score_line_checked, score_line_json
from mahjong_audit.schemas import situation_fast
from mahjong_audit.schemas.situation import MeldIn, Situation


def _keys(model: type) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


def test_the_fast_dicts_have_the_models_fields():
    assert set(typing.get_type_hints(situation_fast.FastSituation)) == _keys(Situation)
    assert set(situation_fast.FastMeld.__annotations__) == _keys(MeldIn)


def test_both_paths_give_the_same_result_for_every_identity_line():
    fast = 0
    for line in score_identity.lines():
        if situation_fast.read(line) is not None:
            fast += 1
        assert score_line(line, "mcr") == score_line_checked(line, "mcr"), line
    assert fast > 2000  # the valid lines and those the ruleset rejects


def test_the_fast_path_takes_only_what_the_models_take():
    for line in score_identity.lines():
        if situation_fast.read(line) is not None:
            Situation.model_validate(json.loads(line))  # raises if the models refuse it


@pytest.mark.parametrize("text", [
    '{"a": 1E5}', '{"a": -0}', '{"a": -1.0e-400}', '{"a": 1e309}', '{"a": NaN}', '{"a": -Infinity}',
    '{"a": 9007199254740993}', '{"a": 123456789012345678901234567890.5}', '{"a": 5e-324}',
    '{"a": 2.4703282292062327e-324}', '{"a": "\\ud83d\\ude00"}', '{"a": "\\/\\b\\f\\n\\r\\t"}', '{"a": "\\u00e9"}',
    '{"a": 1, "a": 2}', '{"a": {"b": 1, "b": [2]}}', '{}\r\n', ' {} ',
    # refused by both
    '{"a": "x\ty"}', '{"a": "x\x01"}', '{"a": 01}', '{"a": 1.}', '{"a": .5}', '{"a": +1}', '{"a": 1,}', '{"a": [1,]}',
    '{"a": nan}', '\xa0{}', '{}\x0c', '\x00{}', '\ufeff{}', '{"a": "\\x41"}', '{"a": "\\U0041"}', '{} x', '{"a": tru}',
    '{"a": 1' + '0' * 5000 + '}',
])
def test_the_two_json_parsers_agree(text):
    """pydantic-core's parser and json.loads take the same texts and read the same values."""
    def parse(f):
        try:
            return repr(f(text))
        except ValueError:
            return "refused"
    assert parse(pydantic_core.from_json) == parse(json.loads)


def test_a_lone_surrogate_goes_the_models_way():
    line = json.dumps({"id": "\ud800", "concealed": ["1m"], "win_tile": "1m"})
    assert situation_fast.read(line) is None
    assert score_line(line, "mcr")["id"] == "\ud800"


@pytest.mark.parametrize("change", [
    {"id": 1.5}, {"melds": [{"type": "pon", "tile": "1s", "from_": 2}]}, {"win_tile": "中"}, {"self_drawn": 1},
    {"melds": [{"type": "chi", "tiles": ["1s", "2s"]}]}, {"seat_wind": "X"},
])
def test_lines_the_fast_path_leaves_to_the_models(change):
    line = json.dumps({"concealed": ["1m"] * 13, "win_tile": "1m", **change})
    assert situation_fast.read(line) is None
    assert score_line(line, "mcr") == score_line_checked(line, "mcr")


def test_the_result_line_is_json_dumps_of_the_result():
    for line in score_identity.lines():
        assert score_line_json(line, "mcr") == json.dumps(score_line(line, "mcr"), ensure_ascii=False)
