"""The collusion tables count each recorded hand once, a hand whose number repeats within its
game (a faulty log) too; clean games give the rows they always gave (a golden file).

    PYTHONPATH=. python -m tests.test_collusion_hands_once   # rewrites the golden file
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.collusion_power import _games, audited_db
from tests.test_collusion_stats import _db, _pairs

GOLDEN = Path(__file__).parent / "fixtures" / "collusion-clean-games.json"


def _players(con) -> dict[str, dict[str, tuple[int, int]]]:
    """player -> rate -> (hands, count), from player_anomalies."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for player, rate, hands, count in con.execute(
            "SELECT player, rate_name, hands, count FROM player_anomalies").fetchall():
        out.setdefault(player, {})[rate] = (hands, count)
    return out


# One game, players A B C D at seats 0-3; hand 1 is recorded twice with different results
# (a faulty log): A deals in to B, then C deals in to D. Hand 0: B self-draws.
_REPEATED = [("g", 0, "win", [1], "self_drawn", None, 8, []),
             ("g", 1, "win", [1], "discard", 0, 8, []),
             ("g", 1, "win", [3], "discard", 2, 8, [0])]
_REPEATED_PAY = [("g", 0, 0, -8), ("g", 0, 1, 24), ("g", 0, 2, -8), ("g", 0, 3, -8),
                 ("g", 1, 0, -16), ("g", 1, 1, 16), ("g", 1, 2, 0), ("g", 1, 3, 0),
                 ("g", 1, 0, 0), ("g", 1, 1, 0), ("g", 1, 2, -10), ("g", 1, 3, 10)]


def test_a_hand_number_recorded_twice_counts_each_recorded_hand_once():
    con = _db([("g", "mcr", ["A", "B", "C", "D"])], _REPEATED, _REPEATED_PAY)
    pairs = _pairs(con)
    assert {p: r["hands_together"] for p, r in pairs.items()} == {p: 3 for p in pairs}  # not 5 (1 + 2×2)
    assert {p: r["games_together"] for p, r in pairs.items()} == {p: 1 for p in pairs}
    ab, cd = pairs[("A", "B")], pairs[("C", "D")]
    assert (ab["a_deal_ins"], ab["a_deal_ins_together"], ab["deal_ins_a_to_b"]) == (1, 1, 1)
    assert (cd["a_deal_ins"], cd["a_deal_ins_together"], cd["deal_ins_a_to_b"]) == (1, 1, 1)
    assert pairs[("A", "D")]["deal_ins_a_to_b"] == pairs[("C", "B")]["deal_ins_a_to_b"] == 0
    # each deal-in's expected receivers add up to the one deal-in
    assert sum(pairs[("A", x)]["expected_a_to_b"] for x in "BCD") == pytest.approx(1)
    # the money: the payouts carry only (game, hand_no), so the two hands' payouts are one pool,
    # each payout once: every point lost is received once (24 in hand 0, 16 + 10 in the pool)
    lost = sum(-d for *_, d in _REPEATED_PAY if d < 0)
    assert sum(r["points_a_to_b"] for r in pairs.values()) == pytest.approx(lost)
    players = _players(con)
    assert {p: rates["win"][0] for p, rates in players.items()} == dict.fromkeys("ABCD", 3)  # not 4
    assert {p: rates["deal_in"][1] for p, rates in players.items()} == {"A": 1, "B": 0, "C": 1, "D": 0}
    assert {p: rates["win"][1] for p, rates in players.items()} == {"A": 0, "B": 2, "C": 0, "D": 1}
    assert {p: rates["false_win"][1] for p, rates in players.items()} == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_the_same_hands_under_distinct_numbers_give_the_same_counts():
    renumbered = [*_REPEATED[:2], ("g", 2, *_REPEATED[2][2:])]
    pay = _REPEATED_PAY[:8] + [("g", 2, *p[2:]) for p in _REPEATED_PAY[8:]]
    once = _pairs(_db([("g", "mcr", ["A", "B", "C", "D"])], _REPEATED, _REPEATED_PAY))
    apart = _pairs(_db([("g", "mcr", ["A", "B", "C", "D"])], renumbered, pay))
    counts = ("games_together", "hands_together", "a_deal_ins", "a_deal_ins_together", "deal_ins_a_to_b",
              "expected_a_to_b")
    assert {p: [round(r[c], 12) for c in counts] for p, r in once.items()} == {
        p: [round(r[c], 12) for c in counts] for p, r in apart.items()}


def _round(v: object) -> object:
    return float(f"{v:.9g}") if isinstance(v, float) else v


def clean_rows() -> dict[str, list[list]]:
    """Every collusion table of a few simulated corpora without faults (one with a feeding
    pair: the passes leave it out, and one player's rate is flagged), sorted, floats to 9 significant digits (the sums'
    order follows DuckDB's plan)."""
    games = (_games("mcr", 11, 60, 5, ("p1", "p2")) + _games("guangdong", 12, 40, 5, None)
             + _games("longgang", 13, 40, 5, None))
    con = audited_db(games)
    out = {}
    for table in ("pair_stats", "pair_evidence", "player_anomalies"):
        out[table] = sorted(([_round(v) for v in row] for row in con.execute(f"SELECT * FROM {table}").fetchall()),
                            key=repr)
    return out


@pytest.mark.slow
def test_clean_games_give_the_rows_they_gave_before_hands_were_counted_once():
    """The golden file was written by the build that joined seats on (game, hand_no) (round 13):
    without a repeated hand number, the rows are the same."""
    assert json.loads(json.dumps(clean_rows())) == json.loads(GOLDEN.read_text(encoding="utf-8"))


if __name__ == "__main__":
    tables = clean_rows()
    GOLDEN.write_text("{\n" + ",\n".join(
        f"{json.dumps(t)}: [\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]"
        for t, rows in tables.items()) + "\n}\n", encoding="utf-8")
    sys.stdout.write(f"wrote {GOLDEN}\n")
