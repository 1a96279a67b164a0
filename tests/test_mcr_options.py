"""MCR options: variant values, single overrides and extra fans change the score; bad ones are errors."""

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, WinSituation
from mahjong_audit.engine.rulesets import OptionError, get

# 中 pung exposed + 123m 456m 789p + 55s: 箭刻 is counted
SIT = WinSituation(concealed=T.parse("123m456m789p5s"), melds=(Meld.pon(T.RED, 1),), win_tile=T.tile("5s"),
                   self_drawn=False)


def fan(score, name):
    return next((i.value for i in score.items if i.name == name), None)


def test_official_and_seed002_values():
    assert fan(get("mcr").score_win(SIT), "箭刻") == 2
    assert fan(get("mcr", {"variant": "seed002"}).score_win(SIT), "箭刻") == 4
    assert fan(get("mcr", {"fan_values": {"箭刻": 3}}).score_win(SIT), "箭刻") == 3


def test_heavenly_hand_only_when_switched_on():
    sit = WinSituation(concealed=T.parse("1112345678999p"), melds=(), win_tile=T.tile("5p"),
                       self_drawn=True, extra=(("heavenly", True),))
    assert fan(get("mcr").score_win(sit), "天和") is None
    assert fan(get("mcr", {"extra_fans": ["天和"]}).score_win(sit), "天和") == 168


@pytest.mark.parametrize("opts", [{"fan_values": {"nope": 1}}, {"extra_fans": ["nope"]}, {"variant": "x"},
                                  {"min_fan": -1}])
def test_bad_options(opts):
    with pytest.raises(OptionError):
        get("mcr", opts)
