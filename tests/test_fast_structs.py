"""The fast paths' Structs are derived from the models (schemas/fast_structs.py), and the two
switches are separate: ``MAHJONG_AUDIT_PURE`` changes the engine only (cluster workers run the
pure engine with the msgspec path, as ``make test`` does), ``MAHJONG_AUDIT_MODELS`` makes the
models validate everything, with the same verdicts and ``score`` results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from mahjong_audit import accel
from mahjong_audit.schemas import log_fast, situation_fast
from mahjong_audit.schemas.fast_structs import (
    MODELS_ENV,
    TILE,
    UnsupportedField,
    derive,
    models_only,
)

ROOT = Path(__file__).resolve().parent.parent


def _odd(v: str) -> str:
    return v


class _Leaf(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int = Field(ge=0, le=3)
    names: Annotated[list[str], Field(min_length=1, max_length=2)] | None = None
    from_: Literal["live", "back"] = Field("live", alias="from")


class _Root(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    leaves: list[_Leaf] = Field(default_factory=list)
    tile: Annotated[str, AfterValidator(_odd)] = "1m"

    def first(self) -> _Leaf:
        return self.leaves[0]


def test_a_struct_has_its_models_fields_bounds_aliases_defaults_and_methods():
    structs = derive(_Root, module=__name__, validators={_odd: TILE})
    root, leaf = structs[_Root], structs[_Leaf]
    got = msgspec.json.decode(b'{"leaves": [{"seat": 3, "from": "back", "names": ["a"]}], "tile": "9s"}', type=root)
    assert got.first() == leaf(seat=3, names=["a"], from_="back") and got.tile == "9s"
    assert msgspec.json.decode(b"{}", type=root).leaves == []
    for bad in (b'{"leaves": [{"seat": 4}]}', b'{"leaves": [{"seat": 0, "names": []}]}', b'{"tile": "1x"}',
                b'{"leaves": [{"seat": 0, "from_": "live"}]}', b'{"other": 1}'):
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(bad, type=root)
    with pytest.raises(AttributeError):
        got.tile = "1m"  # frozen, as the model


def test_an_int_bounded_to_a_few_values_accepts_the_same_json_as_its_bounds():
    leaf = derive(_Leaf, module=__name__)[_Leaf]
    assert msgspec.structs.fields(leaf)[0].type == Literal[0, 1, 2, 3]  # a table look-up, not two bounds
    bounded = Annotated[int, msgspec.Meta(ge=0, le=3)]
    for raw in (b"0", b"3", b"-0", b"-1", b"4", b"1.0", b"true", b'"1"', b"null", b"1e0", b"18446744073709551616"):
        try:
            want = msgspec.json.decode(raw, type=bounded)
        except msgspec.ValidationError:
            with pytest.raises(msgspec.ValidationError):
                msgspec.json.decode(b'{"seat": %s}' % raw, type=leaf)
        else:
            got = msgspec.json.decode(b'{"seat": %s}' % raw, type=leaf).seat
            assert type(got) is int and got == want


def test_what_a_type_cannot_say_must_be_declared():
    with pytest.raises(UnsupportedField, match="_odd has no msgspec type"):
        derive(_Root, module=__name__)
    with pytest.raises(UnsupportedField, match="neither typed nor run after"):
        derive(_Root, module=__name__, validators={_odd: str})
    assert derive(_Root, module=__name__, validators={_odd: str}, after={_odd})

    with pytest.raises(UnsupportedField, match="_Root.nope"):
        derive(_Root, module=__name__, validators={_odd: TILE}, narrow={(_Root, "nope"): (str, ...)})

    class Checked(BaseModel):
        model_config = ConfigDict(extra="forbid")
        n: int

        @model_validator(mode="after")
        def _check(self) -> Checked:
            return self

    with pytest.raises(UnsupportedField, match="a validator the fast path does not run"):
        derive(Checked, module=__name__)
    assert derive(Checked, module=__name__, after={Checked._check})

    class Open(BaseModel):
        model_config = ConfigDict(extra="allow")

    with pytest.raises(UnsupportedField, match="keep it as a model"):
        derive(Open, module=__name__)


def test_this_process_validates_as_its_switches_say():
    assert log_fast.IMPLEMENTATION == ("pydantic models" if models_only() else "msgspec")
    assert (log_fast.parse_game_json is log_fast.decode_game) != models_only()
    assert (situation_fast.read is situation_fast.decode_line) != models_only()


_SWITCHES = """
import json
from mahjong_audit import accel
from mahjong_audit.schemas import log_fast, situation_fast
print(json.dumps([accel.state()[0], log_fast.IMPLEMENTATION, log_fast.parse_game_json is log_fast.decode_game,
                  situation_fast.read is situation_fast.decode_line]))
"""


def _run(code: str, **switches: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in (accel.PURE_ENV, MODELS_ENV)}
    env.update(switches)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout.strip().splitlines()[-1]


def test_the_engine_switch_leaves_the_msgspec_path_on():
    """Cluster workers: the pure-Python engine with the msgspec path (``make test`` runs this)."""
    assert json.loads(_run(_SWITCHES, MAHJONG_AUDIT_PURE="1")) == ["pure", "msgspec", True, True]
    assert json.loads(_run(_SWITCHES, MAHJONG_AUDIT_MODELS="1"))[1:] == ["pydantic models", False, False]


@pytest.mark.slow
def test_the_models_alone_give_the_same_verdicts_and_score_results():
    """``MAHJONG_AUDIT_MODELS=1``: every record of the sample logs and the real-log fixtures is
    read by the models (the audit's own reader, asked for the fast path), with the verdicts of
    the fast path; every ``score`` identity line gives the recorded output."""
    code = """
import json
from pathlib import Path
from bench import score_identity, verdict_digest
from mahjong_audit.pipeline import parse, read
from mahjong_audit.schemas import log as L
files = sorted(p for root in ("sample_logs", "tests/fixtures/real") for p in (Path.cwd() / root).rglob("*")
               if p.suffix in (".json", ".jsonl", ".txt", ".pmn") and p.name not in ("README.txt", "README-en.txt")
               and not p.name.endswith((".labels.jsonl", "_metadata.json")))
games = [g for f in files for rec in read.read_file(str(f)) for g in parse.parse_record(rec, fast=True)
         if isinstance(g, parse.ParsedGame)]
assert games and all(isinstance(g.game, L.Game) for g in games)
print(json.dumps([[str(f), verdict_digest.audit_file(f)[0]] for f in files]
                 + [score_identity.digest() == score_identity.EXPECTED]))
"""
    models = json.loads(_run(code, MAHJONG_AUDIT_MODELS="1", MAHJONG_AUDIT_PURE="1"))
    assert models[-1] is True
    from bench import verdict_digest

    assert len(models) > 20
    for name, digest in models[:-1]:
        assert verdict_digest.audit_file(Path(name))[0] == digest, name  # rejections name the same file
