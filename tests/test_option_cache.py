"""Ruleset.parse_options parses each plain option object once per process (its result is
immutable) and still rejects a bad one every time."""

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
