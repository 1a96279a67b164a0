"""The fast path of a ``score`` line (schemas/situation_fast.py: msgspec Structs derived from the
models) gives what the models give."""

from __future__ import annotations

import json

import msgspec
import pytest

from bench import score_identity
from mahjong_audit.pipeline.commands import score as S
from mahjong_audit.pipeline.commands.score import score_line, score_line_checked, score_line_json
from mahjong_audit.schemas import situation_fast as M
from mahjong_audit.schemas.fast_structs import models_only
from mahjong_audit.schemas.situation import MeldIn, Situation


def _keys(model: type) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


def _result(line: str) -> dict:
    """The result when this path reads the line (the models' when it does not take it)."""
    got = M.decode_line(line)
    if got is None:
        return S.score_line_checked(line, "mcr")
    return S._plain(S._score(got.situation.id, got.situation, got.options, got.fields, "mcr"))


@pytest.mark.parametrize(("struct", "model"), [(M.Situation, Situation), (M.MeldIn, MeldIn)],
                         ids=lambda c: c.__name__)
def test_the_structs_have_the_models_fields(struct, model):
    fields = msgspec.structs.fields(struct)
    assert {f.encode_name for f in fields} == _keys(model)
    for f in fields:
        info = model.model_fields[f.name]
        required = f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT
        assert required == info.is_required(), f.name
        if not required and f.name not in ("options", "ruleset_fields"):  # those two: their JSON text
            default = f.default if f.default_factory is msgspec.NODEFAULT else f.default_factory()
            want = info.default if info.default_factory is None else info.default_factory()
            assert default == want, f.name


def test_it_gives_the_models_result_for_every_identity_line():
    taken = 0
    for line in score_identity.lines():
        got = M.decode_line(line)
        if got is not None:
            taken += 1
            Situation.model_validate(json.loads(line))  # raises if the models refuse it
            assert _result(line) == S.score_line_checked(line, "mcr"), line
        assert score_line(line, "mcr") == score_line_checked(line, "mcr"), line
    assert taken > 2000  # the valid lines and those the ruleset rejects


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
    if M.decode_line(line) is not None:
        Situation.model_validate(json.loads(line))


@pytest.mark.parametrize("text", [
    '{"a": 1E5}', '{"a": -0}', '{"a": -1.0e-400}', '{"a": 1e309}', '{"a": NaN}', '{"a": -Infinity}',
    '{"a": 9007199254740993}', '{"a": 123456789012345678901234567890.5}', '{"a": 5e-324}',
    '{"a": 2.4703282292062327e-324}', '{"a": "\\ud83d\\ude00"}', '{"a": "\\/\\b\\f\\n\\r\\t"}', '{"a": "\\u00e9"}',
    '{"a": 1, "a": 2}', '{"a": {"b": 1, "b": [2]}}', '{}\r\n', ' {} ',
    # refused by json.loads
    '{"a": "x\ty"}', '{"a": "x\x01"}', '{"a": 01}', '{"a": 1.}', '{"a": .5}', '{"a": +1}', '{"a": 1,}', '{"a": [1,]}',
    '{"a": nan}', '\xa0{}', '{}\x0c', '\x00{}', '\ufeff{}', '{"a": "\\x41"}', '{"a": "\\U0041"}', '{} x', '{"a": tru}',
    '{"a": 1' + '0' * 5000 + '}',
])
@pytest.mark.parametrize("field", ["options", "ruleset_fields"])
def test_free_form_fields_read_as_json_loads_reads_them(text, field):
    """What the path takes of a free-form object holds what json.loads reads, and the
    result is the models' (the JSON texts the pydantic-core path's parser was checked on)."""
    line = '{"concealed": ["1m"], "win_tile": "1m", "' + field + '": ' + text + "}"
    got = M.decode_line(line)
    if got is not None:
        want = json.loads(line)[field]
        assert repr(got.options if field == "options" else got.fields) == repr(want)
    assert _result(line) == S.score_line_checked(line, "mcr")


def test_a_lone_surrogate_goes_the_models_way():
    line = json.dumps({"id": "\ud800", "concealed": ["1m"], "win_tile": "1m"})
    assert M.decode_line(line) is None
    assert S.score_line(line, "mcr")["id"] == "\ud800"


@pytest.mark.parametrize("change", [
    {"id": 1.5}, {"melds": [{"type": "pon", "tile": "1s", "from_": 2}]}, {"win_tile": "中"}, {"self_drawn": 1},
    {"melds": [{"type": "chi", "tiles": ["1s", "2s"]}]}, {"seat_wind": "X"},
])
def test_lines_the_fast_path_leaves_to_the_models(change):
    line = json.dumps({"concealed": ["1m"] * 13, "win_tile": "1m", **change})
    assert M.decode_line(line) is None
    assert score_line(line, "mcr") == score_line_checked(line, "mcr")


def test_the_result_line_is_json_dumps_of_the_result():
    for line in score_identity.lines():
        assert score_line_json(line, "mcr") == json.dumps(score_line(line, "mcr"), ensure_ascii=False)


def test_score_uses_it_unless_the_models_alone_are_asked_for():
    # MAHJONG_AUDIT_PURE (the engine's switch) does not change it: tests/test_fast_structs.py
    assert (M.read is M.decode_line) != models_only()
