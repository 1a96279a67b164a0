"""A finished replay is freed as soon as it is dropped, without the cycle collector: the
audit makes one per hand, and a reference cycle would keep each alive (with all its
state) until the collector's next pass."""

from __future__ import annotations

import gc
import json

from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas.log_fast import decode_game
from tests.logbuild import win_game


def test_replay_with_handlers_table_is_not_a_reference_cycle():
    game = decode_game(json.dumps(win_game("g1")))
    replay = HandReplay(RULESETS["mcr"](game.options), game.hands[0], 0)
    replay.run()
    # counted among the collector's objects, not by a weak reference: the compiled engine's
    # classes (mahjong_audit/accel.py) take none
    ident = id(replay)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del replay
        assert not [o for o in gc.get_objects() if type(o) is HandReplay and id(o) == ident]
    finally:
        if enabled:
            gc.enable()
