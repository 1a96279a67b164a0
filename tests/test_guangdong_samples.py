"""The two guangdong sample logs give exactly what their hands were written to show."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests.logbuild import audit

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def load(name: str):
    return audit(json.loads((SAMPLES / name).read_text(encoding="utf-8")))


def test_clean_sample_multiple_win_and_rotation():
    result = load("guangdong-clean.json")
    assert result.findings == ()
    h0, h1 = result.hands
    assert [(w.seat, w.from_seat, w.score.total) for w in h0.wins] == [(1, 0, 5), (2, 0, 5)]  # 一炮多响
    assert h0.computed_deltas == (-64, 32, 32, 0)
    assert h1.dealer == 1 and h1.computed_deltas == (0, -4, 4, 0)


def test_faulty_sample_findings():
    result = load("guangdong-faulty.json")
    by_hand = Counter((f.hand_no, f.code) for f in result.findings)
    assert by_hand == Counter({
        # hand 0: the platform paid the two winners of one discard as 平胡 2, not the 5 of 一炮多响
        (0, "score_mismatch/total"): 2, (0, "payout_mismatch/delta"): 3,
        # hand 1: seat 1 fed seat 2 three pons (包胡), the platform charged every seat
        (1, "payout_mismatch/delta"): 3,
        # hand 2: seat 1 declared a false win, then a win it was barred from; the platform paid it
        (2, "false_win/incomplete"): 1, (2, "false_win/no_win_allowed"): 1,
        (2, "outcome_mismatch/result"): 1, (2, "outcome_mismatch/winners"): 1, (2, "payout_mismatch/delta"): 4,
    })
    bao = result.hands[1]
    assert bao.computed_deltas == (0, -12, 12, 0) and bao.recorded_deltas == (-4, -4, 12, -4)
