"""The replay's incremental state agrees with a recomputation from scratch after every event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import WINDS
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas.log import Game

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent / "sample_logs"


def games() -> list[Game]:
    out = [Game.model_validate(json.loads((HERE / "fixtures" / "example-mcr-botzone.json").read_text()))]
    for path in sorted(SAMPLES.glob("*-clean.jsonl"))[:3]:
        for line in path.read_text(encoding="utf-8").splitlines()[:5]:
            out.append(Game.model_validate(json.loads(line)))
    return out


def independent_concealed(hand, upto: int) -> list[list[int]]:
    """Each seat's concealed tiles after events[:upto+1], by plain tile accounting."""
    seats = [T.counts(T.from_names(d)) for d in hand.deal]
    for ev in hand.events[: upto + 1]:
        t = T.tile(ev.tile) if getattr(ev, "tile", None) else None
        s = ev.seat
        if ev.type == "draw":
            seats[s][t] += 1
        elif ev.type in ("discard", "flower", "added_kong"):
            seats[s][t] -= 1
        elif ev.type == "chi":
            for x in ev.tiles:
                seats[s][T.tile(x)] -= 1
        elif ev.type == "pon":
            seats[s][t] -= 2
        elif ev.type == "kong":
            seats[s][t] -= 3
        elif ev.type == "concealed_kong":
            seats[s][t] -= 4
    return seats


@pytest.mark.parametrize("game", games(), ids=lambda g: g.game_id)
def test_state_after_each_event_matches_prefix_replay_and_accounting(game):
    ruleset = RULESETS[game.ruleset](game.options)
    for hand in game.hands:
        snaps: list[tuple] = []
        HandReplay(ruleset, hand, WINDS.index(hand.round_wind)).run(lambda _i, r, out=snaps: out.append(r.snapshot()))
        for i in range(len(hand.events)):
            prefix = hand.model_copy(update={"events": hand.events[: i + 1]})
            last: list[tuple] = []
            replay = HandReplay(ruleset, prefix, WINDS.index(hand.round_wind))
            replay.run(lambda _i, r, out=last: out.append(r.snapshot()))
            assert last[-1] == snaps[i], f"hand {hand.hand_no} event {i}"
            if replay.ended:
                continue
            expected = independent_concealed(hand, i)
            for s in range(4):
                assert replay.seats[s].hand == expected[s], f"hand {hand.hand_no} event {i} seat {s}"
