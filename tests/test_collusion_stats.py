"""pair_stats / player_anomalies: exact tails, BH, the expected deal-ins model, money flows."""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import duckdb
import pytest

from bench.collusion_power import _games, audited_db
from mahjong_audit.pipeline import collusion
from mahjong_audit.pipeline.stats_math import (
    betabinom_sf,
    bh_adjust,
    binom_cdf,
    binom_sf,
    binom_two_sided,
    wilson,
)
from mahjong_audit.pipeline.tables import ddl

# --------------------------------------------------------------------------- the maths


def _exact_sf(k: int, n: int, p: Fraction) -> float:
    return float(sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


@pytest.mark.parametrize(("k", "n", "p"), [
    (0, 10, Fraction(1, 3)), (1, 10, Fraction(1, 3)), (3, 10, Fraction(1, 3)), (4, 10, Fraction(1, 3)),
    (10, 10, Fraction(1, 3)), (11, 10, Fraction(1, 3)), (30, 60, Fraction(1, 3)), (12, 60, Fraction(1, 3)),
    (45, 90, Fraction(1, 4)), (2, 200, Fraction(1, 50)), (150, 300, Fraction(1, 3)),
])
def test_binomial_tail_matches_exact_fractions(k, n, p):
    got, want = binom_sf(k, n, float(p)), _exact_sf(k, n, p)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-15)
    assert binom_cdf(k, n, float(p)) == pytest.approx(1 - _exact_sf(k + 1, n, p), rel=1e-9, abs=1e-15)


def _exact_betabinom_sf(k: int, n: int, a: int, b: int) -> float:
    def beta(x: int, y: int) -> Fraction:
        return Fraction(math.factorial(x - 1) * math.factorial(y - 1), math.factorial(x + y - 1))

    return float(sum(math.comb(n, i) * beta(i + a, n - i + b) / beta(a, b) for i in range(k, n + 1)))


@pytest.mark.parametrize(("k", "n", "a", "b"), [
    (0, 10, 2, 5), (1, 10, 2, 5), (3, 10, 2, 5), (8, 10, 2, 5), (10, 10, 2, 5), (11, 10, 2, 5),
    (5, 40, 10, 20), (20, 40, 10, 20), (30, 60, 20, 40), (2, 30, 1, 1),
])
def test_beta_binomial_tail_matches_exact_fractions(k, n, a, b):
    assert betabinom_sf(k, n, a, b) == pytest.approx(_exact_betabinom_sf(k, n, a, b), rel=1e-9, abs=1e-15)


def test_beta_binomial_is_wider_than_the_binomial_and_tends_to_it():
    assert betabinom_sf(40, 90, 30, 60) > binom_sf(40, 90, 1 / 3)
    assert betabinom_sf(40, 90, 1e7 / 3, 2e7 / 3) == pytest.approx(binom_sf(40, 90, 1 / 3), rel=1e-4)


def test_two_sided_p_value_is_twice_the_smaller_tail():
    assert binom_two_sided(5, 10, 0.5) == 1.0
    assert binom_two_sided(0, 10, 0.5) == pytest.approx(2 * 0.5**10)
    assert binom_two_sided(0, 0, 0.5) == 1.0


def test_wilson_interval_of_known_cases():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)
    # the ends are exact: none of 200 (or all of them) is a bound of 0 (or 1), no rounding residue
    assert wilson(0, 200)[0] == 0.0 and wilson(200, 200)[1] == 1.0
    assert 0.0 < wilson(1, 200)[0] and wilson(199, 200)[1] < 1.0


def test_benjamini_hochberg_adjustment():
    # ranks 1..5 of m = 5: p·m/rank = 0.005, 0.05, 0.05, 0.05, 0.5, then the running minimum from the top
    p = (0.001, 0.02, 0.03, 0.04, 0.5)
    assert bh_adjust(p) == pytest.approx((0.005, 0.05, 0.05, 0.05, 0.5))
    assert bh_adjust((0.5, 0.001)) == pytest.approx((0.5, 0.002))
    assert bh_adjust(()) == ()


# --------------------------------------------------------------------------- a built database


def _db(games: list[tuple[str, str, list[str]]], hands: list[tuple], payouts: list[tuple] = ()):
    """games: (game_id, ruleset, players); hands: (game_id, hand_no, result, winners, win_type,
    discarder, total, false_wins); payouts: (game_id, hand_no, seat, recorded)."""
    con = duckdb.connect(":memory:")
    for stmt in ddl():
        con.execute(stmt)
    con.executemany("INSERT INTO games VALUES (?, 'r', NULL, ?, NULL, ?, 0, 0, 'f', 1, NULL, NULL, NULL)",
                    [(g, rs, p) for g, rs, p in games])
    of = {g: (rs, p) for g, rs, p in games}
    con.executemany("INSERT INTO hands (game_id, hand_no, ruleset, round_wind, dealer, result, draw_reason, "
                    "winners, win_type, last_tile, winning_tile, discarder, total, recorded_total, false_wins, "
                    "events, findings) "
                    "VALUES (?, ?, ?, 'E', 0, ?, NULL, ?, ?, false, NULL, ?, ?, NULL, ?, 0, 0)",
                    [(h[0], h[1], of[h[0]][0], *h[2:]) for h in hands])
    if payouts:  # as the audit writes them: each payout names its seat's player
        con.executemany("INSERT INTO payouts (game_id, hand_no, seat, player, recorded, computed, diff) "
                        "VALUES (?, ?, ?, ?, ?, ?, NULL)",
                        [(g, h, s, of[g][1][s], d, d) for g, h, s, d in payouts])
    return con


def _pairs(con) -> dict[tuple[str, str], dict]:
    collusion.build(con)
    cur = con.execute("SELECT * FROM pair_stats")
    cols = [d[0] for d in cur.description]
    return {(r[1], r[2]): dict(zip(cols, r, strict=True)) for r in cur.fetchall()}


def test_pair_counts_and_money_flow_of_a_small_table():
    # one game, players A B C D at seats 0-3: A deals in to B twice and to C once, C self-draws once
    players = ["A", "B", "C", "D"]
    hands = [("g", 0, "win", [1], "discard", 0, 8, []),
             ("g", 1, "win", [1], "discard", 0, 8, []),
             ("g", 2, "win", [2], "discard", 0, 8, []),
             ("g", 3, "win", [2], "self_drawn", None, 8, []),
             ("g", 4, "draw", [], None, None, None, [])]
    pay = [("g", 0, 0, -16), ("g", 0, 1, 32), ("g", 0, 2, -8), ("g", 0, 3, -8),
           ("g", 1, 0, -16), ("g", 1, 1, 32), ("g", 1, 2, -8), ("g", 1, 3, -8),
           ("g", 2, 0, -16), ("g", 2, 1, -8), ("g", 2, 2, 32), ("g", 2, 3, -8),
           ("g", 3, 0, -8), ("g", 3, 1, -8), ("g", 3, 2, 24), ("g", 3, 3, -8)]
    got = _pairs(_db([("g", "mcr", players)], hands, pay))
    assert len(got) == 12  # every ordered pair of the table
    ab = got[("A", "B")]
    assert (ab["hands_together"], ab["games_together"]) == (5, 1)
    assert (ab["a_deal_ins"], ab["a_deal_ins_together"], ab["deal_ins_a_to_b"]) == (3, 3, 2)
    assert ab["points_a_to_b"] == 32 and ab["points_b_to_a"] == 0  # B paid C, never A
    assert ab["net_flow_a_to_b"] == 32
    assert got[("A", "C")]["points_a_to_b"] == 16 + 8  # hand 2 and the self-draw
    # every deal-in goes to someone: the expected counts of A's receivers add up to A's deal-ins
    assert sum(got[("A", x)]["expected_a_to_b"] for x in "BCD") == pytest.approx(3)
    assert not any(r["tested"] for r in got.values())  # far below the minimum sample


def test_two_gainers_share_a_loss_in_proportion():
    hands = [("g", 0, "win", [1, 2], "discard", 0, 8, [])]
    pay = [("g", 0, 0, -30), ("g", 0, 1, 20), ("g", 0, 2, 10), ("g", 0, 3, 0)]
    got = _pairs(_db([("g", "guangdong", ["A", "B", "C", "D"])], hands, pay))
    assert got[("A", "B")]["points_a_to_b"] == 20 and got[("A", "C")]["points_a_to_b"] == 10
    assert got[("A", "B")]["deal_ins_a_to_b"] == 1 and got[("A", "C")]["deal_ins_a_to_b"] == 1


def _reference_expected(con, prior: float) -> dict[tuple[str, str, str], float]:
    """The expected deal-ins recomputed in plain Python from the hands (no exclusions)."""
    seats = {g: (rs, p) for g, rs, p in con.execute("SELECT game_id, ruleset, players FROM games").fetchall()}
    deal = con.execute("SELECT game_id, hand_no, discarder, winners FROM hands WHERE result = 'win' "
                       "AND win_type IN ('discard', 'robbing_kong') AND discarder IS NOT NULL").fetchall()
    n = defaultdict(int)
    k = defaultdict(int)
    place_hits = defaultdict(int)
    for g, _, d, winners in deal:
        rs, players = seats[g]
        for x in range(len(players)):
            if x == d or players[x] == players[d]:
                continue
            n[(rs, players[d], players[x])] += 1
            k[(rs, players[d], players[x])] += x in winners
            place_hits[(rs, (x - d) % len(players))] += x in winners
    share = {rs: sum(v for (r, _, _), v in k.items() if r == rs) / sum(v for (r, _, _), v in n.items() if r == rs)
             for rs in {key[0] for key in n}}
    factor = {}
    for rs in share:
        hits = [v for (r, _), v in place_hits.items() if r == rs]
        mean = sum(hits) / len(hits)
        for (r, pl), v in place_hits.items():
            if r == rs:
                factor[(rs, pl)] = (v + 1) / (mean + 1)
    recv_n, recv_k = defaultdict(int), defaultdict(int)
    for (rs, _, b), v in n.items():
        recv_n[(rs, b)] += v
        recv_k[(rs, b)] += k[(rs, _, b)]
    out = defaultdict(float)
    for g, _, d, _ in deal:
        rs, players = seats[g]
        a = players[d]
        w = {}
        for x in range(len(players)):
            if x == d or players[x] == a:
                continue
            b = players[x]
            w[b] = factor[(rs, (x - d) % len(players))] * (
                recv_k[(rs, b)] - k[(rs, a, b)] + prior * share[rs]) / (recv_n[(rs, b)] - n[(rs, a, b)] + prior)
        total = sum(w.values())
        for b, v in w.items():
            out[(rs, a, b)] += v / total
    return out


def test_expected_deal_ins_match_a_plain_python_reference():
    games = _games("guangdong", 3, 40, 5, None) + _games("mcr", 3, 20, 5, None)
    con = audited_db(games)
    ref = _reference_expected(con, collusion.SETTINGS.prior)
    rows = con.execute("SELECT ruleset, player_a, player_b, expected_a_to_b FROM pair_stats").fetchall()
    assert rows
    for rs, a, b, e in rows:
        assert e == pytest.approx(ref.get((rs, a, b), 0.0), rel=1e-9, abs=1e-12), (rs, a, b)


def test_rebuilding_replaces_the_rows():
    con = audited_db(_games("guangdong", 4, 10, 4, None))
    first = con.execute("SELECT count(*) FROM pair_stats").fetchone()[0]
    collusion.build(con)
    collusion.build(con)
    assert con.execute("SELECT count(*) FROM pair_stats").fetchone()[0] == first == 12
    assert con.execute("SELECT count(*) FROM player_anomalies").fetchone()[0] == 4 * len(collusion.RATES)


def test_an_empty_database_builds_empty_tables():
    con = duckdb.connect(":memory:")
    for stmt in ddl():
        con.execute(stmt)
    built = collusion.build(con)
    assert built.pairs == built.player_rates == 0
    assert con.execute("SELECT count(*) FROM suspicious_pairs").fetchone()[0] == 0


# --------------------------------------------------------------------------- player anomalies


def test_a_player_with_many_false_wins_is_flagged_high_and_others_are_not():
    # 40 games of 5 hands; player F declares a false win in every other hand, nobody else ever does
    games = [(f"g{i}", "mcr", ["F", f"x{i % 7}", f"y{i % 5}", f"z{i % 3}"]) for i in range(40)]
    hands = [(f"g{i}", j, "win", [1 + (i + j) % 3], "self_drawn", None, 8, [0] if j % 2 else [])
             for i in range(40) for j in range(5)]
    con = _db(games, hands)
    collusion.build(con)
    flagged = con.execute("SELECT player, rate_name, direction FROM anomalous_players").fetchall()
    assert ("F", "false_win", "high") in flagged
    assert ("F", "win", "low") in flagged  # F never wins, the others share every win
    assert all(p == "F" for p, _, _ in flagged)
    row = con.execute("SELECT rate, ci_low, ci_high, population_rate FROM player_anomalies "
                      "WHERE player = 'F' AND rate_name = 'false_win'").fetchone()
    assert row[0] == pytest.approx(0.4) and row[1] < 0.4 < row[2] and row[3] == 0


def test_limit_hands_count_by_the_rulesets_threshold():
    games = [("g", "guangdong", ["A", "B", "C", "D"])]
    hands = [("g", 0, "win", [0], "self_drawn", None, 5, []), ("g", 1, "win", [0], "self_drawn", None, 4, []),
             ("g", 2, "win", [1], "self_drawn", None, 7, [])]
    con = _db(games, hands)
    collusion.build(con)
    got = dict(con.execute("SELECT player, count FROM player_anomalies WHERE rate_name = 'limit_hand'").fetchall())
    assert got == {"A": 1, "B": 1, "C": 0, "D": 0}


def test_pairs_follow_people_across_seats_in_five_player_games(tmp_path):
    """龙港 at five: pairs count only the hands both players sat in (hands.players)."""
    import itertools
    import json
    from pathlib import Path

    from mahjong_audit.pipeline.cli import main

    sample = Path(__file__).parent.parent / "sample_logs" / "longgang-five-clean.json"
    game = json.loads(sample.read_text(encoding="utf-8"))
    db = str(tmp_path / "five.duckdb")
    assert main(["audit", str(sample), "--db", db, "--workers", "1"]) == 0
    want: dict[tuple[str, str], int] = {}
    for hand in game["hands"]:
        seated = [game["players"][i] for i in hand["seats"]]
        for a, b in itertools.permutations(seated, 2):
            want[(a, b)] = want.get((a, b), 0) + 1
    with duckdb.connect(db, read_only=True) as con:
        got = {(a, b): n for a, b, n in con.execute(
            "SELECT player_a, player_b, hands_together FROM pair_stats").fetchall()}
    assert got == want
    assert max(want.values()) < len(game["hands"])  # nobody sat with everyone in every hand


def test_games_and_hands_together_count_each_game_once_and_each_shared_hand():
    # A and B share two games (3 hands and 2 hands); in a third game A sits with C, D, E only
    hands = [("g1", i, "draw", [], None, None, None, []) for i in range(3)]
    hands += [("g2", i, "draw", [], None, None, None, []) for i in range(2)]
    hands += [("g3", i, "draw", [], None, None, None, []) for i in range(4)]
    con = _db([("g1", "mcr", ["A", "B", "C", "D"]), ("g2", "mcr", ["B", "A", "D", "E"]),
               ("g3", "mcr", ["A", "C", "D", "E"])], hands)
    got = _pairs(con)
    assert (got[("A", "B")]["games_together"], got[("A", "B")]["hands_together"]) == (2, 5)
    assert (got[("A", "D")]["games_together"], got[("A", "D")]["hands_together"]) == (3, 9)
    assert (got[("C", "E")]["games_together"], got[("C", "E")]["hands_together"]) == (1, 4)
    # the build's own tables of who sat where are gone with it
    temp = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables "
                                      "WHERE table_name LIKE '\\_collusion%' ESCAPE '\\'").fetchall()}
    assert temp == set()
