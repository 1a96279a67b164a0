"""Ruleset.parse_options parses each plain option object once per process (its result is
immutable) and still rejects a bad one every time; Ruleset.for_options shares one instance of a
ruleset that keeps nothing of a game among the games with the same plain options."""

from __future__ import annotations

import pytest

from mahjong_audit.engine.ruleset import OptionError
from mahjong_audit.engine.rulesets import RULESETS

MCR = RULESETS["mcr"]


def test_the_same_options_give_the_same_parsed_object():
    a = MCR.parse_options({"min_fan": 8, "seat_wall_size": 34})
    b = MCR.parse_options({"seat_wall_size": 34, "min_fan": 8})  # key order does not matter
    assert a is b and a.min_fan == 8


def test_a_bad_option_is_rejected_every_time():
    for _ in range(2):
        with pytest.raises(OptionError):
            MCR.parse_options({"min_fan": -1})


def test_true_is_not_taken_for_one():
    """``True`` and ``1`` compare equal in Python; the cache must keep them apart."""
    with pytest.raises(OptionError):
        MCR.parse_options({"min_fan": True})
    assert MCR.parse_options({"min_fan": 1}).min_fan == 1
    with pytest.raises(OptionError):
        MCR.parse_options({"min_fan": True})


def test_each_ruleset_has_its_own_entries():
    assert type(RULESETS["longgang"].parse_options({})) is not type(MCR.parse_options({}))


def test_games_with_the_same_options_share_one_mcr_or_guangdong_ruleset():
    """``Ruleset.for_options`` (what ``audit_game`` builds its ruleset by): one instance per plain
    options object for the rulesets that keep nothing of a game."""
    for name in ("mcr", "guangdong"):
        cls = RULESETS[name]
        assert cls.shared_by_games
        assert cls.for_options({}) is cls.for_options(None) is cls.for_options({})
        assert type(cls.for_options({})) is cls
    a = MCR.for_options({"min_fan": 8, "seat_wall_size": 34})
    assert a is MCR.for_options({"seat_wall_size": 34, "min_fan": 8}) and a.options.min_fan == 8
    assert a is not MCR.for_options({"min_fan": 9})
    assert a.seat_wall_size == 34 and MCR.for_options({}).seat_wall_size == 0


def test_a_ruleset_that_keeps_game_state_is_built_per_game():
    lg = RULESETS["longgang"]
    assert not lg.shared_by_games
    assert lg.for_options({}) is not lg.for_options({})


def test_options_that_are_no_plain_object_get_their_own_ruleset():
    opts = MCR.parse_options({"min_fan": 8})  # an Options object: built as given, not shared
    assert MCR.for_options(opts) is not MCR.for_options(opts)
    assert MCR.for_options(opts).options is opts


def test_a_bad_option_is_rejected_by_for_options_every_time():
    for _ in range(2):
        with pytest.raises(OptionError):
            MCR.for_options({"min_fan": -1})
