"""The result objects survive pickling on either engine (a cluster runner pickles what
crosses a stage boundary; a compiled frozen dataclass did not come back: engine/pickling.py)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.findings import Finding
from mahjong_audit.pipeline import inputs, parse, read

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _games(name: str) -> list:
    out = []
    for path in inputs.expand_inputs([str(SAMPLES / name)]):
        for rec in read.read_records(path):
            out.extend(p.game for p in parse.parse_record(rec, fast=True) if isinstance(p, parse.ParsedGame))
    return out


@pytest.mark.parametrize("name", ["mcr-faulty.jsonl", "longgang-faulty.jsonl", "guangdong-clean.jsonl"])
def test_a_games_audit_comes_back_from_pickle_equal(name):
    audits = [audit_game(g) for g in _games(name)]
    assert any(h.wins for a in audits for h in a.hands)  # scores, situations and settlements included
    for a in audits:
        back = pickle.loads(pickle.dumps(a))
        assert back == a and repr(back) == repr(a)


def test_a_finding_is_rebuilt_through_its_checks():
    f = Finding("continuity/hand_no", "hand 2 follows hand 0", hand_no=2, depends_on=("x=y",))
    back = pickle.loads(pickle.dumps(f))
    assert back == f and back.depends_on == ("x=y",)
