"""The simulated sample logs: clean ones audit clean, faulty ones give every labelled fault."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.sim.faults import KINDS
from mahjong_audit.schemas.log import Game

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
RULESETS = [p.name.removesuffix("-clean.jsonl") for p in sorted(SAMPLES.glob("*-clean.jsonl"))]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clean_sample(ruleset: str) -> None:
    lines = (SAMPLES / f"{ruleset}-clean.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        assert audit_game(Game.model_validate(json.loads(line))).findings == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_faulty_sample_gives_each_label(ruleset: str) -> None:
    labels = [json.loads(x) for x in (SAMPLES / f"{ruleset}-faulty.labels.jsonl").read_text().splitlines()]
    assert sorted(lab["kind"] for lab in labels) == sorted(KINDS)
    seen_ids: Counter = Counter()
    findings: dict[str, set[tuple[str, int | None]]] = {}
    broken: dict[str, str] = {}
    for line in (SAMPLES / f"{ruleset}-faulty.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            broken[line[line.index('"game_id":"') + 11:].split('"')[0]] = "invalid_log/json"
            continue
        try:
            game = Game.model_validate(data)
        except ValidationError:
            broken[data["game_id"]] = "invalid_log/schema"
            continue
        seen_ids[game.game_id] += 1
        findings[game.game_id] = {(f.code, f.hand_no) for f in audit_game(game).findings}
    for lab in labels:
        gid, code = lab["game_id"], lab["code"]
        if lab["kind"] == "duplicate_game":
            assert seen_ids[gid] == 2
        elif lab["kind"] == "invalid_log":
            assert broken[gid] == code
        else:
            assert any(c == code and (lab["hand_no"] is None or h == lab["hand_no"]) for c, h in findings[gid]), lab
    unlabelled = set(findings) - {lab["game_id"] for lab in labels}
    assert all(not findings[g] for g in unlabelled)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pipeline_reader_rejects_the_broken_record(ruleset: str) -> None:
    from mahjong_audit.pipeline.parse import parse_file
    from mahjong_audit.pipeline.read import Rejection

    labels = [json.loads(x) for x in (SAMPLES / f"{ruleset}-faulty.labels.jsonl").read_text().splitlines()]
    broken = next(lab for lab in labels if lab["kind"] == "invalid_log")
    out = list(parse_file(str(SAMPLES / f"{ruleset}-faulty.jsonl")))
    rejected = [r for r in out if isinstance(r, Rejection)]
    assert [(r.code, r.game_id) for r in rejected] == [(broken["code"], broken["game_id"])]
    ids = Counter(p.game.game_id for p in out if not isinstance(p, Rejection))
    dup = next(lab for lab in labels if lab["kind"] == "duplicate_game")
    assert [g for g, n in ids.items() if n > 1] == [dup["game_id"]]
