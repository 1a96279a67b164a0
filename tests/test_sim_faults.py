"""Fault injection: every injected fault is found with its kind (recall 100%), and games
left untouched have no findings at all (precision 100%)."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import simulate
from mahjong_audit.engine.sim.faults import KINDS, PIPELINE_KINDS, inject, inject_maybe
from mahjong_audit.schemas.log import Game
from tests.faultcheck import found

RULESETS_HERE = sorted(RULESETS)
FINDING_KINDS = {"invalid_log", "duplicate_game", "tile_conservation", "turn_order", "illegal_call",
                 "illegal_discard", "dead_hand", "false_win", "claim_priority", "score_mismatch",
                 "payout_mismatch", "outcome_mismatch", "continuity"}


def test_one_mutation_per_finding_kind_of_the_spec() -> None:
    assert set(KINDS) == FINDING_KINDS
    assert PIPELINE_KINDS == {"duplicate_game", "invalid_log"}


@pytest.mark.parametrize("ruleset", RULESETS_HERE)
def test_recall_every_kind(ruleset: str) -> None:
    games, _ = simulate(ruleset, games=12, seed=31, hands_per_game=2)
    tried: Counter = Counter()
    missed = []
    for i, g in enumerate(games):
        for kind in KINDS:
            fault = inject(g, kind, random.Random(f"{i}:{kind}"))
            if fault is None:
                continue
            tried[kind] += 1
            lab = fault.label
            assert lab["kind"] == kind and lab["game_id"] == g["game_id"]
            if not found(fault.records, kind, lab["code"], lab["hand_no"]):
                missed.append(lab)
    assert missed == []
    assert all(tried[k] >= 8 for k in KINDS), tried


def test_inject_leaves_its_input_alone() -> None:
    games, _ = simulate("mcr", games=2, seed=4, hands_per_game=2)
    before = copy.deepcopy(games)
    for kind in KINDS:
        inject(games[0], kind, random.Random(kind))
    assert games == before


@pytest.mark.parametrize("ruleset", RULESETS_HERE)
def test_rate_labels_and_precision(ruleset: str) -> None:
    """A run with --faults: labelled games give their fault; unlabelled ones audit clean."""
    games, _ = simulate(ruleset, games=26, seed=8, hands_per_game=1)
    labelled = clean = 0
    for i, g in enumerate(games):
        records, label = inject_maybe(g, 8, i, 0.5)
        if label is None:
            assert records == (g,)
            assert audit_game(Game.model_validate(g)).findings == ()
            clean += 1
        else:
            assert found(records, label["kind"], label["code"], label["hand_no"])
            labelled += 1
    assert labelled and clean
    assert inject_maybe(games[0], 8, 0, 0.0) == ((games[0],), None)


def test_fault_choice_is_deterministic() -> None:
    games, _ = simulate("mcr", games=3, seed=2, hands_per_game=1)
    a = [inject_maybe(g, 2, i, 1.0) for i, g in enumerate(games)]
    b = [inject_maybe(g, 2, i, 1.0) for i, g in enumerate(games)]
    assert a == b


def test_thirteen_games_at_rate_one_get_every_kind() -> None:
    games, _ = simulate("mcr", games=len(KINDS), seed=12, hands_per_game=2)
    kinds = [inject_maybe(g, 12, i, 1.0)[1]["kind"] for i, g in enumerate(games)]
    assert sorted(kinds) == sorted(KINDS)
