"""Game simulator: four bots play whole games of any registered ruleset and write them
in ``mahjong-log/1``; :mod:`mahjong_audit.engine.sim.faults` mutates games into labelled bad ones.

>>> from mahjong_audit.engine.sim import simulate
>>> games, cov = simulate("mcr", games=1, seed=7, hands_per_game=1)
>>> games[0]["format"], len(games[0]["hands"])
('mahjong-log/1', 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim.collusion import Population
from mahjong_audit.engine.sim.game import game_id, game_rng, simulate_game


def simulate_one(ruleset: str, seed: int, index: int, hands_per_game: int,
                 cov: Counter | None = None, population: Population | None = None,
                 options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Game ``index`` of the run ``(ruleset, seed)``: the same on every call. With a
    ``population``, its players are drawn to the table (and a colluding pair plays so).
    ``options``: the ruleset's options (a game's ``options`` object, e.g. ``{"variant": "mingxing"}``
    for mcr, or a house-rules profile's table for the ruleset): the bots play and score under
    them, and the game records them, so its audit plays by the same rules."""
    rs = RULESETS[ruleset](dict(options or {}))
    if population is None:
        return simulate_game(rs, game_rng(seed, index), game_id(ruleset, seed, index), hands_per_game, cov)
    table = population.table(seed, index)
    return simulate_game(rs, game_rng(seed, index), game_id(ruleset, seed, index), hands_per_game, cov,
                         table, population.policy(table))


def simulate(ruleset: str, *, games: int, seed: int, hands_per_game: int = 4,
             start: int = 0, options: Mapping[str, Any] | None = None) -> tuple[list[dict[str, Any]], Counter]:
    """Games ``start .. start+games-1`` of the run ``(ruleset, seed)`` and coverage counts."""
    cov: Counter = Counter()
    out = [simulate_one(ruleset, seed, i, hands_per_game, cov, options=options) for i in range(start, start + games)]
    return out, cov


def iter_games(ruleset: str, *, games: int, seed: int, hands_per_game: int = 4,
               cov: Counter | None = None, options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """The same games as :func:`simulate`, one at a time (for corpora too big to hold)."""
    rs = RULESETS[ruleset](dict(options or {}))
    for i in range(games):
        yield simulate_game(rs, game_rng(seed, i), game_id(ruleset, seed, i), hands_per_game, cov)


def start_time(seed: int, index: int, games: int, start: datetime, days: float) -> str:
    """When game ``index`` of ``games`` begins, spread over ``days`` from ``start``.

    Games follow each other in index order: game ``i`` starts at a random moment of the
    ``i``-th of ``games`` equal slices of the period (its own random source, so the game's
    play is the same with or without times). ISO 8601, UTC, whole seconds.

    >>> start_time(1, 0, 2, datetime(2026, 1, 1, tzinfo=UTC), 2.0) < start_time(1, 1, 2, datetime(2026, 1, 1, tzinfo=UTC), 2.0)
    True
    """
    slice_ = days * 86400.0 / max(games, 1)
    jitter = random.Random(f"mahjong-audit-sim-time:{seed}:{index}").random()
    moment = start + timedelta(seconds=int(slice_ * (index + jitter)))
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = ["Population", "iter_games", "simulate", "simulate_one", "start_time"]
