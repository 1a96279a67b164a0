"""Five-player 龙港 from a simulated four-seat game (the simulator's ``--players 5``).

The bots play the four seats as usual; this seats five named players over them: ``bot4``
stands out first, and whenever the deal passes the old dealer stands up and the player
standing out takes its seat (``Ruleset.next_seating``). Each hand gets its ``seats``, an
``out_delta`` (0: the bots make no false wins) and every player's ``chips`` after it
(``Ruleset.chips_ledger``). The game stops at the first hand where a player goes broke
(断子): the bots do not play on with the bracketed 跟胡数 the hands after it would take.
"""

from __future__ import annotations

import copy
from typing import Any

from mahjong_audit.engine.ruleset import Ruleset


def five_players(game: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """``game`` (a simulated four-seat ``mahjong-log/1`` dict) played by five players."""
    g = copy.deepcopy(game)
    n = 5
    g["players"] = [f"bot{p}" for p in range(n)]
    ledger = ruleset.chips_ledger(n)
    seating: tuple[int, ...] = (0, 1, 2, 3)
    scores = [0] * n
    kept: list[dict[str, Any]] = []
    for i, hand in enumerate(g["hands"]):
        if i:
            prev = kept[-1]
            standing = tuple(p for p in range(n) if p not in seating)
            seating = ruleset.next_seating(seating, standing, prev["dealer"], hand["dealer"]) or seating
        hand["seats"] = list(seating)
        outcome = hand["outcome"]
        outcome["out_delta"] = 0
        changes = [0] * n
        for s, p in enumerate(seating):
            changes[p] = outcome["deltas"][s]
        scores = [a + b for a, b in zip(scores, changes, strict=True)]
        kept.append(hand)
        if ledger is None:
            continue
        winners = [w["seat"] for w in outcome["wins"]]
        result = ledger.hand(hand["hand_no"], seating, seating[winners[0]] if winners else None, changes, [0] * n)
        hand["chips"] = list(result.balances)
        if result.broke:
            break
    g["hands"] = kept
    g["initial_scores"] = [0] * n
    g["final_scores"] = scores
    return g
