"""Issue 32, what was left open: a big hand on a coarse scale (广东's 番), every flagged
pair (soft play and dumping too) left out of the other pairs' weights, and a player's
rates against a population that may be small once the flagged pairs are left out."""

from __future__ import annotations

import pytest

from mahjong_audit.pipeline import collusion
from mahjong_audit.pipeline.stats_math import binom_two_sided

# B's wins on the others' discards, 广东-like: half at 1 番, 42% at 2, 8% at 3 to 5.
OTHERS = [1] * 100 + [2] * 84 + [3] * 5 + [4] * 5 + [5] * 6


def _values(a_to_b: list[int]) -> list[tuple]:
    rows = [("guangdong", "x" if i % 2 else "y", "b", v) for i, v in enumerate(OTHERS)]
    rows += [("guangdong", "a", "b", v) for v in a_to_b]
    # other receivers' wins make the ruleset's distribution
    rows += [("guangdong", "b", r, v) for r in ("x", "y") for v in OTHERS]
    return rows


def _big_hands(a_to_b: list[int]) -> dict:
    pairs = [{"ruleset": "guangdong", "player_a": "a", "player_b": "b", "hands_together": 1000}]
    return {e["statistic"]: e for e in collusion.value_evidence(pairs, _values(a_to_b))}["big_hands"]


def test_a_big_hand_cut_keeps_tie_groups_whole():
    totals = [v for *_, v in _values([1] * 25 + [2] * 20 + [4] * 8 + [5] * 7)]
    ordered = sorted(totals)
    assert ordered[int(len(ordered) * 0.9)] == 2  # the old cut: the 90% quantile, inside the 2 番 group
    assert sum(v >= 2 for v in totals) / len(totals) > 0.45  # … which made half of the wins "big"
    assert collusion.big_threshold(totals, collusion.LIMIT_TOTALS["guangdong"], 0.1) == 3


def test_a_dumper_into_big_hands_on_a_coarse_scale_is_seen():
    # A deals in to B as anyone would, and 15 more times into B's hands of 4 and 5 番
    e = _big_hands([1] * 25 + [2] * 20 + [4] * 8 + [5] * 7)
    assert e["tested"] and e["observed"] == 15 and e["expected"] < 8
    assert e["p_value"] < 1e-3


def test_deal_ins_like_everyone_elses_are_not_big_hand_dumping():
    e = _big_hands([1] * 30 + [2] * 24 + [3] * 2 + [4] * 2 + [5] * 2)
    assert e["tested"] and e["p_value"] > 0.2


def _row(a: str, b: str, p_best: float | None, flagged: bool = False) -> dict:
    return {"ruleset": "guangdong", "player_a": a, "player_b": b, "p_best": p_best, "flagged": flagged,
            "p_value": 0.5}


def test_a_pair_flagged_for_soft_play_alone_is_left_out_first():
    rows = [_row("p1", "p2", 1e-9), _row("p2", "p1", 1e-8), _row("p2", "p3", 1e-3, flagged=True)]
    assert collusion.strongest_pairs(rows, set()) == {("guangdong", "p1", "p2")}
    # the pair is left out both ways: next comes the feeding pair, not p2→p1 again
    assert collusion.strongest_pairs(rows, {("guangdong", "p1", "p2")}) == {("guangdong", "p2", "p3")}


def test_no_flag_leaves_nothing_out():
    assert collusion.strongest_pairs([_row("p1", "p2", None), _row("p2", "p1", None)], set()) == set()


def test_a_rate_far_from_a_large_population_is_flagged():
    counts = [("mcr", "odd", 1000, 400, 0, 150, 0, 0)] + [
        ("mcr", f"p{i}", 1000, 250, 50, 150, 0, 0) for i in range(8)]
    rows = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts)}
    assert rows[("odd", "win")]["flagged"] and rows[("odd", "win")]["direction"] == "high"
    assert not rows[("p0", "win")]["flagged"]


def test_a_population_of_one_player_is_not_taken_for_a_known_rate():
    # once a flagged pair is left out of a table of four, two players are compared with each other
    assert binom_two_sided(30, 100, 0.2) < 0.05  # the other's 20 in 100 taken as the exact rate
    counts = [("mcr", "p3", 100, 30, 0, 0, 0, 0), ("mcr", "p4", 100, 20, 0, 0, 0, 0)]
    rows = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts)}
    assert rows[("p3", "win")]["tested"] and rows[("p3", "win")]["p_value"] > 0.05
    assert not any(r["flagged"] for r in rows.values())


@pytest.mark.parametrize(("k", "rest_k", "rest_n"), [(30, 200, 1000), (10, 5, 100), (0, 300, 1000)])
def test_the_player_test_tends_to_the_binomial_against_many_hands(k, rest_k, rest_n):
    many = collusion._two_sided(k, 100, rest_k * 1000, rest_n * 1000)
    assert many == pytest.approx(binom_two_sided(k, 100, rest_k / rest_n), rel=0.02, abs=1e-12)
    assert collusion._two_sided(k, 100, rest_k, rest_n) >= many * 0.999  # fewer hands: never more certain
