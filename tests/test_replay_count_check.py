"""The tile-count check (相公) after each event looks only at the seats the event can have
changed; checking all four seats after every event (``HandReplay.FULL_COUNT_CHECK``) must give
the same audit, finding for finding (code, seq, seat, message), on clean, fault-injected and
randomly mutated logs of every ruleset."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import simulate
from mahjong_audit.engine.sim.faults import KINDS, inject
from mahjong_audit.pipeline import parse
from mahjong_audit.schemas.log import Game
from tests.fuzzing import mutate_game

SAMPLES = Path(__file__).parent.parent / "sample_logs"


def both_ways(game: Game, monkeypatch: pytest.MonkeyPatch) -> tuple:
    quick = audit_game(game)
    with monkeypatch.context() as m:
        m.setattr(HandReplay, "FULL_COUNT_CHECK", True)
        full = audit_game(game)
    return quick, full


def games_of(ruleset: str) -> list[Game]:
    """Clean games, each fault kind injected, and random mutations of the events."""
    clean, _ = simulate(ruleset, games=6, seed=13, hands_per_game=2)
    out = [Game.model_validate(g) for g in clean]
    for i, g in enumerate(clean):
        for kind in KINDS:
            fault = inject(g, kind, random.Random(f"{i}:{kind}"))
            if fault is not None:
                out += [Game.model_validate(r) for r in fault.records if isinstance(r, dict) and _valid(r)]
        rng = random.Random(i)
        for _ in range(15):
            mutated = mutate_game(g, rng)
            if _valid(mutated):
                out.append(Game.model_validate(mutated))
    return out


def _valid(record: dict) -> bool:
    try:
        Game.model_validate(record)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_checking_only_the_changed_seats_finds_what_checking_all_four_finds(ruleset, monkeypatch):
    games = games_of(ruleset)
    dead = 0
    for game in games:
        quick, full = both_ways(game, monkeypatch)
        assert quick == full, game.game_id
        dead += sum(f.code.startswith("dead_hand/too_") for f in quick.findings)
    assert dead >= 5  # the comparison saw wrong tile counts, not only clean hands


def test_sample_logs_the_same_either_way(monkeypatch):
    for path in sorted(SAMPLES.glob("*.json*")):
        if path.name.endswith(".labels.jsonl"):
            continue
        for parsed in parse.parse_file(str(path)):
            if isinstance(parsed, parse.ParsedGame):
                quick, full = both_ways(parsed.game, monkeypatch)
                assert quick == full, (path.name, parsed.game.game_id)
