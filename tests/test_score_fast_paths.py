"""The speed paths of ``score`` give what the plain code gives (docs/performance.md)."""

from __future__ import annotations

import dataclasses
import random

from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.engine.rulesets import mcr_readings as R
from mahjong_audit.engine.rulesets.mcr_scoring import _in_ckey_order
from mahjong_audit.engine.score_lines import win_situation


def test_win_situation_fields_in_the_order_the_schema_passes_them():
    # schemas/situation.py builds WinSituation positionally: a reordered field would swap values
    assert [f.name for f in dataclasses.fields(WinSituation)] == [
        "concealed", "melds", "win_tile", "self_drawn", "seat_wind", "round_wind", "flowers", "last_tile", "kong",
        "last_copy", "extra"]
    got = win_situation(["1m", "2m"], (), "3m", True, "S", "W", ["1f"], True, False, True, "kong", (("seat", 1),))
    assert got == WinSituation(concealed=(0, 1), melds=(), win_tile=2, self_drawn=True, seat_wind=1, round_wind=2,
                               flowers=(34,), last_tile=True, kong=True, last_copy=True,
                               extra=(("replacement", "kong"), ("seat", 1)))


def test_in_ckey_order_is_sorted_by_the_reference_order():
    rng = random.Random(1)
    for _ in range(2000):
        ts = tuple(rng.randrange(34) for _ in range(rng.randrange(6)))
        assert _in_ckey_order(ts) == tuple(sorted(ts, key=R.CKEY.__getitem__))
