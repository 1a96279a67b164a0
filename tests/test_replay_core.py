"""The replay's per-event plumbing, made cheap for issue 28, does what it did: the tiles of a
seat's counts, the dispatch on the event type, the facts built once with their players."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.replay import EVENT_TYPES, HandReplay, tiles_of
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas.log_fast import decode_game
from tests.logbuild import win_game


def test_tiles_of_lists_each_tile_as_often_as_counted():
    assert tiles_of(T.counts(T.parse("123m11z5f"))) == T.parse("123m11z5f")
    assert tiles_of([0] * T.N_TILES) == ()
    rng = random.Random(28)
    for _ in range(200):
        counts = [rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(T.N_TILES)]
        assert tiles_of(counts) == tuple(t for t in range(T.N_TILES) for _ in range(counts[t]))


def test_every_event_type_has_its_handler():
    for typ in EVENT_TYPES:
        assert callable(getattr(HandReplay, "on_" + typ))


def test_an_event_of_no_known_type_is_an_error_of_the_engine():
    game = decode_game(json.dumps(win_game("g1")))
    replay = HandReplay(RULESETS["mcr"](game.options), game.hands[0], 0)
    replay.deal()
    with pytest.raises(KeyError):
        replay._step(SimpleNamespace(type="shuffle", seq=1, seat=0))  # type: ignore[arg-type]


def test_the_facts_name_who_sat_where():
    raw = win_game("g1")
    raw["players"] = ["ann", "bob", "cy", "dee"]
    audit = audit_game(decode_game(json.dumps(raw)))
    assert [(h.players, h.standing) for h in audit.hands] == [(("ann", "bob", "cy", "dee"), ())] * len(audit.hands)
