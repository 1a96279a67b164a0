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
    # against two others, a rate's test does not take their 40 in 200 for the exact rate
    assert binom_two_sided(30, 100, 0.2) < 0.05  # the others' 40 in 200 taken as the exact rate
    counts = [("mcr", "p3", 100, 30, 0, 0, 0, 0), ("mcr", "p4", 100, 20, 0, 0, 0, 0),
              ("mcr", "p5", 100, 20, 0, 0, 0, 0)]
    rows = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts)}
    assert rows[("p3", "win")]["tested"] and rows[("p3", "win")]["p_value"] > 0.05
    assert not any(r["flagged"] for r in rows.values())


def test_two_players_compared_with_each_other_alone_are_not_tested():
    # once a flagged pair is left out of a table of four, the two innocent players would be
    # compared with each other: MCR soft, seed 1001, 1,000 hands, self-draws 81 against 51
    # (p = 0.0076 both ways), and both were flagged, one high and one low
    counts = [("mcr", p, 1000, 250, k, 170, 0, 0) for p, k in (("p3", 51), ("p4", 81))]
    counts += [("mcr", "p1", 1000, 162, 60, 133, 0, 0), ("mcr", "p2", 1000, 169, 60, 170, 0, 0)]
    left_out = {("mcr", "p1"), ("mcr", "p2")}
    rows = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts, left_out=left_out)}
    assert not rows[("p3", "self_draw")]["tested"] and not rows[("p4", "self_draw")]["tested"]
    assert rows[("p1", "win")]["tested"] and rows[("p1", "win")]["flagged"]  # against the two others
    # with a third innocent player, the same difference is tested (and a player unlike both flagged)
    more = counts + [("mcr", "p5", 1000, 250, 50, 170, 0, 0)]
    rows = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(more, left_out=left_out)}
    assert rows[("p4", "self_draw")]["tested"] and rows[("p4", "self_draw")]["direction"] == "high"


def test_the_left_out_players_rates_do_not_lower_the_bar_for_the_others():
    # two colluders whose win rates are far off (two discoveries), and among 20 innocent
    # players one whose deal-in rate is somewhat high
    counts = [("mcr", c, 2000, 200, 100, 300, 0, 0) for c in ("c1", "c2")]
    counts += [("mcr", f"x{i}", 2000, 500, 100, 300, 0, 0) for i in range(20)]
    counts.append(("mcr", "odd", 2000, 500, 100, 356, 0, 0))
    plain = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts)}
    split = {(r["player"], r["rate_name"]): r
             for r in collusion.player_rows(counts, left_out={("mcr", "c1"), ("mcr", "c2")})}
    p = split[("odd", "deal_in")]["p_value"]
    assert 0.0005 < p < 0.0013 and plain[("odd", "deal_in")]["flagged"]  # beside two discoveries in one family
    assert not split[("odd", "deal_in")]["flagged"]  # in the others' own family it is one among 105
    assert split[("c1", "win")]["flagged"] and split[("c2", "win")]["flagged"]


@pytest.mark.parametrize(("k", "rest_k", "rest_n"), [(30, 200, 1000), (10, 5, 100), (0, 300, 1000)])
def test_the_player_test_tends_to_the_binomial_against_many_hands(k, rest_k, rest_n):
    many = collusion._two_sided(k, 100, rest_k * 1000, rest_n * 1000)
    assert many == pytest.approx(binom_two_sided(k, 100, rest_k / rest_n), rel=0.02, abs=1e-12)
    assert collusion._two_sided(k, 100, rest_k, rest_n) >= many * 0.999  # fewer hands: never more certain


# --------------------------------------------------------------------------- a left-out pair


def _evidence_family(neighbour_p: float, second_pair_p: float | None = None) -> list[dict]:
    """A colluding pair (p1, p2) with six tiny p-values, an innocent neighbour p4→p1 at
    ``neighbour_p`` and sixty null statistics spread evenly over (0.05, 1)."""
    def e(a: str, b: str, statistic: str, p: float) -> dict:
        return collusion._evidence("guangdong", a, b, statistic, 50, 1.0, 1.0, p)

    ev = [e(a, b, s, 1e-9) for a, b in (("p1", "p2"), ("p2", "p1"))
          for s in ("wins_passed", "calls_passed", "deal_in_deficit")]
    ev.append(e("p4", "p1", "deal_in_value", neighbour_p))
    if second_pair_p is not None:
        ev.append(e("p3", "p4", "feeding", second_pair_p))
    others = [(a, b) for a in ("p3", "p4") for b in ("p1", "p2", "p3", "p4") if a != b]
    ev += [e(*others[i % len(others)], "big_hands", 0.05 + 0.95 * i / 60) for i in range(60)]
    return ev


def _flagged(ev: list[dict], left_out: set) -> set[tuple[str, str]]:
    pairs = [{"ruleset": "guangdong", "player_a": a, "player_b": b}
             for a, b in {(x["player_a"], x["player_b"]) for x in ev}]
    collusion.judge(ev, pairs, collusion.SETTINGS, left_out)
    return {(x["player_a"], x["player_b"]) for x in ev if x["flagged"]}


def test_a_left_out_pair_does_not_lower_the_bar_for_its_neighbours():
    # in one family the pair's six discoveries raise Benjamini–Hochberg's bar to 0.05·7/67:
    # a neighbour's chance p-value of 0.002 is flagged beside it (the 广东 soft corpus at 400 hands)
    assert _flagged(_evidence_family(0.002), set()) == {("p1", "p2"), ("p2", "p1"), ("p4", "p1")}
    # judged without the left-out pair, the neighbour is one statistic among 61 and is not
    left_out = {("guangdong", "p1", "p2")}
    assert _flagged(_evidence_family(0.002), left_out) == {("p1", "p2"), ("p2", "p1")}


def test_a_second_colluding_pair_stays_flagged_beside_a_left_out_one():
    left_out = {("guangdong", "p1", "p2")}
    got = _flagged(_evidence_family(0.3, second_pair_p=1e-6), left_out)
    assert got == {("p1", "p2"), ("p2", "p1"), ("p3", "p4")}


def test_with_nothing_left_out_the_family_is_one():
    ev = _evidence_family(0.002)
    plain = [dict(x) for x in ev]
    collusion._adjust(plain, collusion.SETTINGS)
    _flagged(ev, set())
    assert [x["q_value"] for x in ev] == [x["q_value"] for x in plain]


def _soft_table():
    """A table of four, A B C D at seats 0-3: A deals in 30 times to C and D (never to B, its
    soft partner); B, C and D deal in to each other and to A."""
    from tests.test_collusion_stats import _db

    hands = [("g", i, "win", [2 + i % 2], "discard", 0, 8, []) for i in range(30)]
    hands += [("g", 30 + i, "win", [(i % 3) if i % 3 != 1 else 3], "discard", 1, 8, []) for i in range(30)]
    hands += [("g", 60 + i, "win", [(0, 1, 3)[i % 3]], "discard", 2, 8, []) for i in range(30)]
    hands += [("g", 90 + i, "win", [(0, 1, 2)[i % 3]], "discard", 3, 8, []) for i in range(30)]
    return _db([("g", "mcr", ["A", "B", "C", "D"])], hands)


def _expected(con, excluded: list[tuple[str, str, str]]) -> dict[tuple[str, str], float]:
    collusion.seat_tables(con)
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_occ AS {collusion.OCC_SQL}")
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_base AS {collusion.BASE_SQL}")
    params = [[e[0] for e in excluded], [e[1] for e in excluded], [e[2] for e in excluded]]
    rows = collusion.pair_rows(con.execute(collusion.PAIR_SQL, params + [collusion.SETTINGS.prior] * 3).fetchall())
    return {(r["player_a"], r["player_b"]): r["expected_a_to_b"] for r in rows}


def test_a_left_out_soft_partner_takes_no_share_of_the_deal_ins_it_never_took():
    # A's 30 deal-ins all went to C and D; with (A, B) left out, B competes with the share it
    # really took (none), so C's and D's expectations add up to all 30 of them — shrunk toward
    # the ruleset's share, B would still have counted for a prior's worth (about 4 of the 30)
    con = _soft_table()
    left = _expected(con, [("mcr", "A", "B")])
    assert left[("A", "C")] + left[("A", "D")] == pytest.approx(30)
    assert left[("A", "B")] > 1  # the partner itself, at its outside weight: a deficit to test


def test_not_left_out_a_partner_competes_at_its_outside_weight():
    con = _soft_table()
    plain = _expected(con, [])
    assert plain[("A", "B")] + plain[("A", "C")] + plain[("A", "D")] == pytest.approx(30)
    assert plain[("A", "C")] + plain[("A", "D")] < 27


# --------------------------------------------------------------------------- the power bench


def test_the_power_bench_refuses_a_bad_size_before_any_work(capsys, tmp_path):
    from bench.collusion_power import main

    for argv in (["--sizes", "200,x"], ["--sizes", "2"], ["--jobs", "0"], ["--styles", "bribe"]):
        with pytest.raises(SystemExit):
            main([*argv, "--out", str(tmp_path)])
        assert "error" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_partial_power_run_says_how_many_seeds_each_cell_rests_on():
    import argparse

    from bench.collusion_power import _table, summarise

    def size(flagged: bool, its: bool, innocent: list[str]) -> dict:
        return {"flagged": flagged, "for_its_behaviour": its, "behaviours": [], "statistics": [],
                "other_flags": len(innocent), "other_pairs": innocent, "innocent_pairs": innocent,
                "innocent_rates_flagged": []}

    power = [{"ruleset": "mcr", "style": "soft", "seed": 1000,
              "sizes": {"200": size(True, True, []), "500": size(True, True, ["p3→p4: soft_play"])}},
             {"ruleset": "mcr", "style": "soft", "seed": 1001,
              "sizes": {"200": size(True, False, []), "500": size(False, False, [])}}]
    a = argparse.Namespace(command="python -m bench.collusion_power", seeds=5, honest_hands=1000)
    table = _table(summarise(power, [], ("mcr",), ("soft", "dump"), (200, 500), a, 1.0))
    assert "| mcr | soft | 1/2 (2/2) | 1/2 (1/2) |" in table
    assert "| mcr | dump | – | – |" in table  # not run: no share made up
    assert "| mcr | soft | 0/2 pairs, 0/2 rates | 1/2 pairs, 0/2 rates |" in table
