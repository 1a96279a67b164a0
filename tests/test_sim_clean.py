"""Simulated games replay through the auditor with no findings at all, per ruleset."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import simulate, simulate_one
from mahjong_audit.schemas.log import Game

RULESETS_HERE = sorted(RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS_HERE)
@pytest.mark.parametrize("seed,games,hands", [(1, 120, 1), (2, 40, 2)])
def test_simulated_games_audit_clean(ruleset: str, seed: int, games: int, hands: int) -> None:
    out, cov = simulate(ruleset, games=games, seed=seed, hands_per_game=hands)
    bad = []
    for g in out:
        audit = audit_game(Game.model_validate(g))
        bad.extend((g["game_id"], f.code, f.hand_no, f.seq, f.message) for f in audit.findings)
    assert bad == []
    assert cov["hands"] == games * hands
    assert cov["win_discard"] + cov["win_self_drawn"] > 0


@pytest.mark.parametrize("ruleset", RULESETS_HERE)
def test_same_seed_same_games(ruleset: str) -> None:
    a = json.dumps(simulate_one(ruleset, 5, 3, 2), sort_keys=True)
    b = json.dumps(simulate_one(ruleset, 5, 3, 2), sort_keys=True)
    c = json.dumps(simulate_one(ruleset, 6, 3, 2), sort_keys=True)
    assert a == b
    assert a != c


def test_game_index_independent_of_batch() -> None:
    batch, _ = simulate("mcr", games=3, seed=9, hands_per_game=1)
    alone = simulate_one("mcr", 9, 2, 1)
    assert batch[2] == alone


def test_games_carry_wall_claims_and_running_scores() -> None:
    g = simulate_one("mcr", 3, 0, 4)
    assert [h["hand_no"] for h in g["hands"]] == [0, 1, 2, 3]
    assert [h["dealer"] for h in g["hands"]] == [0, 1, 2, 3]  # MCR: the deal passes every hand
    total = [sum(h["outcome"]["deltas"][s] for h in g["hands"]) for s in range(4)]
    assert g["final_scores"] == total
    for h in g["hands"]:
        dealt = sum(len(d) for d in h["deal"])
        assert dealt + len(h["wall"]) == 144
    claims = [e for h in g["hands"] for e in h["events"] if e.get("claims")]
    assert claims


def test_coverage_over_a_corpus() -> None:
    """The corpus meets what audits meet: every win and call type, draws, flowers, competing claims."""
    cov: Counter = Counter()
    for rs, games in (("mcr", 60), ("guangdong", 40)):
        if rs in RULESETS:
            cov.update(simulate(rs, games=games, seed=21, hands_per_game=4)[1])
    for key in ("win_discard", "win_self_drawn", "exhaustive_draws", "flowers", "multi_claims",
                "call_chi", "call_pon", "call_kong", "call_concealed_kong", "call_added_kong"):
        assert cov[key] > 0, key


def test_iter_games_equals_simulate() -> None:
    from mahjong_audit.engine.sim import iter_games

    listed, _ = simulate("guangdong" if "guangdong" in RULESETS else "mcr", games=3, seed=6, hands_per_game=1)
    streamed = list(iter_games(listed[0]["ruleset"], games=3, seed=6, hands_per_game=1))
    assert streamed == listed
