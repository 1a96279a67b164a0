"""The msgspec path of a ``score`` line (schemas/situation_msgspec.py) gives what the models give,
and takes the lines the pydantic-core fast path takes."""

from __future__ import annotations

import json

import pytest

from bench import score_identity
from mahjong_audit.pipeline.commands import score as S
from mahjong_audit.schemas import situation_fast
from mahjong_audit.schemas.situation import MeldIn, Situation

M = pytest.importorskip("mahjong_audit.schemas.situation_msgspec")


def _keys(model: type) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


def _result(line: str) -> dict:
    """The result when this path reads the line (the models' when it does not take it)."""
    got = M.read(line)
    if got is None:
        return S.score_line_checked(line, "mcr")
    return S._plain(S._score(got.situation.id, got.situation.ruleset, got.options, got.fields,
                             lambda extra: M.to_situation(got, extra), "mcr"))


def test_the_structs_have_the_models_fields():
    assert {f.encode_name for f in _fields(M.Situation)} == _keys(Situation)
    assert {f.encode_name for f in _fields(M.Meld)} == _keys(MeldIn)


def _fields(cls):
    import msgspec

    return msgspec.structs.fields(cls)


def test_it_takes_the_lines_the_pydantic_core_path_takes_and_gives_the_models_result():
    taken = 0
    for line in score_identity.lines():
        got = M.read(line)
        assert (got is None) == (situation_fast.read(line) is None), line
        if got is not None:
            taken += 1
            Situation.model_validate(json.loads(line))  # raises if the models refuse it
            assert _result(line) == S.score_line_checked(line, "mcr"), line
    assert taken > 2000


@pytest.mark.parametrize("line", [
    # taken, with the values json.loads reads
    '{"concealed": ["1m"], "win_tile": "1m", "win_tile": "2m"}',
    '{"concealed": ["1m"], "win_tile": "1m", "options": {"a": 123456789012345678901234567890}}',
    '{"concealed": ["1m"], "win_tile": "1m", "options": {"a": 1e400, "b": {"c": 1, "c": [2]}}}',
    '{"concealed": ["1m"], "win_tile": "1m", "id": 123456789012345678901234567890}',
    '{"concealed": ["1m"], "win_tile": "1m", "ruleset_fields": {"x": "\\ud83d\\ude00"}}',
    ' {"concealed": ["1m"], "win_tile": "1m"}\r\n',
    # left to the models
    '{"concealed": ["1m"], "win_tile": "1m", "options": null}',
    '{"concealed": ["1m"], "win_tile": "1m", "options": [1]}',
    '{"concealed": ["1m"], "win_tile": "1m", "ruleset_fields": "x"}',
    '{"concealed": ["1m"], "win_tile": "1m", "options": {"a": NaN}}',
    '{"concealed": ["1m"], "win_tile": "1m", "options": ' + '[' * 3000 + ']' * 3000 + '}',
    '{"concealed": ["1m"], "win_tile": "1m", "id": 1.5}',
    '{"concealed": ["1m"], "win_tile": "1m", "id": true}',
    '{"concealed": ["1m"], "win_tile": "1m", "self_drawn": 1}',
    '{"concealed": ["1m"], "win_tile": "1m", "melds": [{"type": "pon", "tile": "1s", "from_": 2}]}',
    '{"concealed": ["1m"], "win_tile": "1m", "melds": [{"type": "pon", "tile": "1s", "from": 4}]}',
    '{"concealed": ["1m"], "win_tile": "1m", "melds": [{"type": "chi", "tiles": ["1s", "2s"]}]}',
    '{"concealed": ["1m"], "win_tile": "中"}',
    '{"concealed": ["1m"], "win_tile": "1m", "extra": 1}',
    '{"concealed": ["1m"], "win_tile": "1m"} x',
    '\ufeff{"concealed": ["1m"], "win_tile": "1m"}',
    '[1]', '"x"', '',
])
def test_tricky_lines_give_the_models_result(line):
    assert _result(line) == S.score_line_checked(line, "mcr")
    if M.read(line) is not None:
        Situation.model_validate(json.loads(line))


def test_a_lone_surrogate_goes_the_models_way():
    line = json.dumps({"id": "\ud800", "concealed": ["1m"], "win_tile": "1m"})
    assert M.read(line) is None
    assert S.score_line(line, "mcr")["id"] == "\ud800"


def test_score_uses_it_unless_the_sources_are_asked_for():
    import os

    from mahjong_audit.accel import PURE_ENV

    assert (S.situation_msgspec is None) == bool(os.environ.get(PURE_ENV))
