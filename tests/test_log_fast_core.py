"""The fast validation path (mahjong_audit.schemas.log_fast_core) accepts exactly what the models accept, and
the audit of a game is the same whichever path read it."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import parse
from mahjong_audit.schemas import log_fast_core as F
from tests.log_variants import (
    model_accepts,
    mutations,
    native_texts,
    rejected_with_the_models_message,
    started_at_reaches_the_rows_alike,
)
from tests.test_pipeline_e2e import win_game


@pytest.fixture(autouse=True)
def _read_uses_this_path(monkeypatch):
    """The audit's reader validates with the implementation under test here, whichever one
    mahjong_audit.schemas.log_fast chose for this process."""
    monkeypatch.setattr(parse, "parse_game_json", F.parse_game_json)




@pytest.mark.parametrize(("where", "text"), native_texts(), ids=lambda x: x if ":" in str(x) else "")
def test_sample_logs_audit_the_same_on_both_paths(where, text):
    model = model_accepts(text)
    fast = F.parse_game_json(text)
    assert (fast is None) == (model is None)
    if model is not None:
        assert audit_game(fast) == audit_game(model)


@pytest.mark.parametrize(("name", "game"), mutations(), ids=lambda x: x if isinstance(x, str) else "")
def test_fast_path_accepts_exactly_what_the_models_accept(name, game):
    text = json.dumps(game)
    model = model_accepts(text)
    fast = F.parse_game_json(text)
    assert (fast is None) == (model is None), name
    if model is not None:
        assert audit_game(fast) == audit_game(model)


def test_started_at_reaches_the_rows_the_same_on_both_paths():
    started_at_reaches_the_rows_alike(F)


def test_a_record_rejected_on_the_fast_path_gets_the_models_message():
    rejected_with_the_models_message()


def test_the_fast_game_is_frozen_and_pickles():
    game = F.parse_game_json(json.dumps(win_game("g1")))
    assert isinstance(game, F.Game) and isinstance(game.hands[0].events[1], F.Win)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.game_id = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(game)) == game


def test_not_json_is_left_to_the_models():
    assert F.parse_game_json("{not json") is None
    assert F.parse_game_json("[1, 2]") is None
