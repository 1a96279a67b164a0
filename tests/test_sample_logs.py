"""Every bundled sample that is meant to be clean (``*-clean.*``, ``*-real.*``) audits with no findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.schemas.log import Game

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
CLEAN = sorted(p for p in SAMPLES.glob("*.json*") if "-clean." in p.name or "-real." in p.name)


def games(path: Path):
    if path.suffix == ".jsonl":
        return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [json.loads(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_clean_samples_have_no_findings(path):
    for g in games(path):
        assert [f.code for f in audit_game(Game.model_validate(g)).findings] == [], g["game_id"]


def test_there_are_clean_samples_for_every_ruleset():
    rulesets = {g["ruleset"] for p in CLEAN for g in games(p)}
    assert rulesets == {"mcr", "longgang", "guangdong"}
