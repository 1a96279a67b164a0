"""The hand-written longgang sample logs audit exactly as described here."""

from __future__ import annotations

import json
from pathlib import Path

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.schemas import log as L

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def run(name: str):
    return audit_game(L.parse_game(json.loads((SAMPLES / name).read_text(encoding="utf-8"))))


def test_clean_sample_has_no_findings():
    # hand 0: seat 1 wins on the dealer's 中 (single wait, 硬胡: 22 胡 × 2 = 44 → 50); the dealer
    # as 陪家 holds 东 西 发 triplets (24 胡, 2 台 → 100) and is paid the differences.
    # hand 1: the deal passed to seat 1; nobody wins, the four seabed tiles are handed out: draw.
    res = run("longgang-clean.json")
    assert res.findings == ()
    h0, h1 = res.hands
    assert h0.result == "win" and h0.wins[0].score.total == 50
    assert h0.computed_deltas == h0.recorded_deltas == (24, 38, -31, -31)
    assert h1.result == "draw" and h1.computed_deltas == (0, 0, 0, 0)


def test_faulty_sample_findings():
    # seat 1 discards a 财神 (5p) and becomes 陪打; seat 2 draws twice (大相公); seat 1 then
    # declares a win on 中 (诈胡: a non-dealer pays the dealer 20 and the others 10); the hand
    # ends in an exhaustive draw.
    res = run("longgang-faulty.json")
    got = [(f.code, f.seq, f.seat) for f in res.findings]
    assert got == [
        ("illegal_discard/wild", 2, 1),
        ("turn_order/wrong_phase", 4, 2),
        ("dead_hand/too_many", 4, 2),
        ("false_win/no_win_allowed", 10, 1),
    ]
    assert res.hands[0].result == "draw"
    assert res.hands[0].computed_deltas == res.hands[0].recorded_deltas == (20, -40, 10, 10)


def test_deal_and_seabed_sample():
    # hand 0: seats 1 and 2 make concealed kongs at the deal (南 then 西, 二、二)10), each with its
    # replacement; seat 1 later wins on the dealer's 中 (its 1m kong scores 暗杠大子 32).
    # hand 1: seat 1 deals and declares 三财神 at once on a 财神 (5p), not on its 17th tile (7p):
    # 天和, a limit (300; each seat pays 72). hand 2: seat 2 draws 4f as the 河底 tile; its
    # replacement is the seabed's last tile (7z), kept without a discard, and wins: 海底捞月.
    res = run("longgang-deal-seabed-clean.json")
    assert res.findings == ()
    h0, h1, h2 = res.hands
    assert h0.wins[0].seat == 1 and "暗杠大子" in [i.name for i in h0.wins[0].score.items]
    assert h1.wins[0].score.total == 300 and h1.computed_deltas == (-72, 216, -72, -72)
    w = h2.wins[0]
    assert (w.seat, w.win_type, w.last_tile) == (2, "self_drawn", True)
    assert all(h.computed_deltas == h.recorded_deltas for h in res.hands)
