"""No false rejections: every win the auditor scores — in real platform logs (MCR) and in
games the simulator plays by the rules (every ruleset) — passes the `score` situation
check (engine/situation_check.py). The wins come from whole games, not from the check's
own idea of what can exist."""

from __future__ import annotations

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.hand import Score, WinSituation
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import simulate
from mahjong_audit.engine.situation_check import InvalidSituation, check_situation
from mahjong_audit.schemas.log import Game
from tests.real_corpus import games as real_games
from tests.real_corpus import roots


def _scored_wins(ruleset: str, games: list[Game], monkeypatch) -> list[tuple[object, WinSituation]]:
    """Every situation the auditor scored as a win (and the ruleset instance that scored it).

    A subclass that records, registered in the ruleset's place: the compiled engine's rulesets
    are native classes, whose methods a test cannot replace (they allow interpreted subclasses)."""
    seen: list[tuple[object, WinSituation]] = []

    class Recording(RULESETS[ruleset]):  # type: ignore[misc,valid-type]
        def score_win(self, sit: WinSituation) -> Score:
            score = super().score_win(sit)
            seen.append((self, sit))
            return score

    monkeypatch.setitem(RULESETS, ruleset, Recording)
    for g in games:
        audit_game(g)
    return seen


def _rejected(seen: list[tuple[object, WinSituation]]) -> list[tuple[str, str, WinSituation]]:
    rejected = []
    for rs, sit in seen:
        try:
            check_situation(rs, sit)  # type: ignore[arg-type]
        except InvalidSituation as e:
            rejected.append((e.code, str(e), sit))
    return rejected


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_scored_win_of_simulated_games_passes_the_check(ruleset: str, monkeypatch) -> None:
    games, _ = simulate(ruleset, games=40, seed=11, hands_per_game=2)
    seen = _scored_wins(ruleset, [Game.model_validate(g) for g in games], monkeypatch)
    assert len(seen) > 40
    assert _rejected(seen) == []


@pytest.mark.parametrize("root", roots())
def test_every_scored_win_of_real_logs_passes_the_check(root, monkeypatch) -> None:
    seen = _scored_wins("mcr", list(real_games(root)), monkeypatch)
    assert seen
    assert _rejected(seen) == []
