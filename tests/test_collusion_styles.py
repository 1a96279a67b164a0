"""Collusion beyond feeding (issue 32): the replay's claim chances, the simulator's styles
(feed, soft, dump, signal), and the evidence table that flags soft play and dumping while
honest corpora stay quiet."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from bench.collusion_power import _games, audited_db
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.sim import Population, simulate_one
from mahjong_audit.engine.sim.collusion import STYLES, Collusion
from mahjong_audit.pipeline import collusion
from mahjong_audit.pipeline.cli import main
from mahjong_audit.pipeline.stats_math import betabinom_cdf, betabinom_sf, mann_whitney_sf, midranks
from mahjong_audit.schemas.log import Game

pytestmark = pytest.mark.slow  # statistics over simulated corpora of thousands of hands


def _exact_betabinom_cdf(k: int, n: int, a: int, b: int) -> Fraction:
    def beta(x: int, y: int) -> Fraction:  # B(x, y) for positive integers
        f = Fraction(1)
        for i in range(1, x + y):
            f *= i
        g = Fraction(1)
        for i in range(1, x):
            g *= i
        for i in range(1, y):
            g *= i
        return g / f

    def comb(n_: int, k_: int) -> int:
        out = 1
        for i in range(k_):
            out = out * (n_ - i) // (i + 1)
        return out

    return sum((comb(n, i) * beta(i + a, n - i + b) / beta(a, b) for i in range(k + 1)), Fraction(0))


@pytest.mark.parametrize(("k", "n", "a", "b"), [(0, 10, 2, 5), (3, 20, 4, 4), (1, 15, 6, 3), (9, 9, 1, 2)])
def test_beta_binomial_lower_tail_matches_exact_fractions(k, n, a, b):
    assert betabinom_cdf(k, n, a, b) == pytest.approx(float(_exact_betabinom_cdf(k, n, a, b)), rel=1e-9, abs=1e-15)
    assert betabinom_cdf(k, n, a, b) + betabinom_sf(k + 1, n, a, b) == pytest.approx(1.0)


def test_midranks_share_tied_ranks_and_count_the_ties():
    ranks, ties = midranks((5.0, 1.0, 5.0, 5.0, 2.0))
    assert ranks == (4.0, 1.0, 4.0, 4.0, 2.0)
    assert ties == 3 ** 3 - 3


def test_mann_whitney_tail_is_near_the_exact_permutation_tail():
    # two samples of 6 and 8 without ties: the exact tail by enumerating every split of the ranks
    n1, n2 = 6, 8
    for rank_sum in (45, 55, 60):
        splits = list(itertools.combinations(range(1, n1 + n2 + 1), n1))
        exact = sum(sum(c) >= rank_sum for c in splits) / len(splits)
        assert mann_whitney_sf(rank_sum, n1, n2) == pytest.approx(exact, abs=0.012)
    assert mann_whitney_sf(n1 * (n1 + 1) / 2, n1, n2) > 0.99  # the smallest ranks: no sign of larger values


def test_an_honest_replay_sees_no_passed_win_and_counts_chances():
    wins = passed = calls = 0
    for ruleset in ("mcr", "guangdong", "longgang"):
        for i in range(6):
            audit = audit_game(Game.model_validate(simulate_one(ruleset, 21, i, 4)))
            for h in audit.hands:
                c = h.chances
                assert c is not None and len(c.win_chances) == 16
                assert all(c.win_chances[s * 4 + s] == 0 == c.call_chances[s * 4 + s] for s in range(4))
                assert all(p <= n for p, n in zip(c.wins_passed, c.win_chances, strict=True))
                wins += sum(c.win_chances)
                passed += sum(c.wins_passed)
                calls += sum(c.call_chances)
    assert wins > 0 and calls > 0
    assert passed == 0  # the bots take every win the replay says they could make


def test_the_cheap_gate_never_hides_a_chance(monkeypatch):
    """The shape answers per hand state (``shape_gate``'s tiles, the ruleset's quick no) only
    skip shape tests that would say no: the counts are the same as when every seat is asked on
    every discard with the ruleset's plain ``is_complete``."""
    from mahjong_audit.engine import chances
    from mahjong_audit.engine import tiles as T

    def plain(self, replay, y, t):
        st = replay.seats[y]
        counts = st.hand[:]
        counts[t] += 1
        return replay.rs.is_complete(counts if any(counts[T.FLOWER0:]) else counts[:34], st.melds, st.wilds)

    games = [Game.model_validate(simulate_one(r, 23, i, 4)) for r in ("mcr", "guangdong", "longgang")
             for i in range(5)]
    gated = [h.chances for g in games for h in audit_game(g).hands]
    def ask_always(self, replay, y):  # the per-state answer says "ask" of every tile: could_win asked on every discard
        st, g = replay.seats[y], self.gates[y]
        g.version, g.melds, g.waits, g.known, g.wins = st.version, len(st.melds), chances.ASK, 0, 0

    monkeypatch.setattr(chances.ChanceTally, "shape_wins", plain)
    monkeypatch.setattr(chances.ChanceTally, "new_state", ask_always)
    asked = [h.chances for g in games for h in audit_game(g).hands]
    assert gated == asked and sum(sum(c.win_chances) for c in gated) > 0


def test_the_gate_knows_the_special_shapes():
    from mahjong_audit.engine import tiles as T
    from mahjong_audit.engine.chances import may_complete

    def gate(text: str, melds: int = 0) -> bool:
        return may_complete(T.counts(T.parse(text), 34), melds, frozenset())

    assert gate("19m19p19s1234567z")  # thirteen orphans, waiting on any of them
    assert gate("147m258p369s1234z")  # 组合龙 + honours (全不靠)
    assert gate("1122m3344p5566s7z")  # seven pairs
    assert gate("123m456p789s1122z")  # standard
    assert not gate("19m1479p2468s", 1)  # far from ready


@pytest.mark.parametrize("ruleset", ["mcr", "guangdong", "longgang"])
def test_a_soft_pair_never_takes_each_others_tiles_and_the_replay_sees_it_pass(ruleset):
    pop = Population.of_size(4, ("p1", "p2"), "soft")
    cov: Counter = Counter()
    passed_between = taken_between = 0
    for i in range(10):
        game = simulate_one(ruleset, 31, i, 4, cov, pop)
        players = game["players"]
        audit = audit_game(Game.model_validate(game))
        assert [f.code for f in audit.findings] == []  # soft play is legal play
        a, b = players.index("p1"), players.index("p2")
        for hand in game["hands"]:
            for w in hand["outcome"]["wins"]:
                assert {w["seat"], w["from"]} != {a, b}, "the soft pair won off each other"
        for h in audit.hands:
            for x, y in ((a, b), (b, a)):
                i_ = x * 4 + y
                passed_between += h.chances.wins_passed[i_] + h.chances.calls_passed[i_]
                taken_between += (h.chances.win_chances[i_] - h.chances.wins_passed[i_]
                                  + h.chances.call_chances[i_] - h.chances.calls_passed[i_])
    assert cov["policy_passed_calls"] > 0 and passed_between > 0
    assert taken_between == 0


def test_the_dump_style_feeds_only_big_hands_and_signal_feeds_rarely():
    dump = Collusion(0, 1, "dump")
    assert not dump.may_win(0, 1) and dump.may_win(1, 0) and dump.may_call(0, 1)
    soft = Collusion(0, 1, "soft")
    assert not soft.may_win(0, 1) and not soft.may_win(1, 0) and not soft.may_call(1, 0) and soft.may_call(2, 0)
    cov: Counter = Counter()
    feed_cov: Counter = Counter()
    for i in range(10):
        simulate_one("guangdong", 41, i, 4, cov, Population.of_size(4, ("p1", "p2"), "signal"))
        simulate_one("guangdong", 41, i, 4, feed_cov, Population.of_size(4, ("p1", "p2"), "feed"))
    assert 0 < cov["policy_discards"] < feed_cov["policy_discards"]  # 5% of its chances, each turn


def test_population_and_cli_refuse_an_unknown_style(tmp_path, capsys):
    assert STYLES == ("feed", "soft", "dump", "signal")
    with pytest.raises(ValueError, match="collude-style"):
        Population.of_size(5, ("p1", "p2"), "bribe")
    out = str(tmp_path / "x.jsonl")
    base = ["simulate", "--ruleset", "mcr", "--games", "1", "-o", out]
    assert main([*base, "--players", "5", "--collude-style", "soft"]) == 1
    assert "needs --collude" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--players", "5", "--collude", "p1,p2", "--collude-style", "bribe"])


def _flags(con) -> dict[tuple[str, str], list[str]]:
    return {(a, b): list(bs) for a, b, bs in con.execute(
        "SELECT player_a, player_b, behaviours FROM pair_stats WHERE len(behaviours) > 0").fetchall()}


# Fixed seeds, modest sizes: the pair shares every hand (a table of four).
@pytest.mark.parametrize(("ruleset", "seed", "hands"), [("guangdong", 1000, 400), ("mcr", 1000, 400)])
def test_a_soft_pair_is_flagged_for_soft_play(ruleset, seed, hands):
    con = audited_db(_games(ruleset, seed, hands // 4, 4, ("p1", "p2"), "soft"))
    flags = _flags(con)
    pair = {("p1", "p2"), ("p2", "p1")}
    assert flags[("p1", "p2")] == ["soft_play"] == flags[("p2", "p1")]
    stats = {s for (s,) in con.execute("SELECT statistic FROM pair_evidence WHERE flagged AND "
                                       "player_a IN ('p1', 'p2') AND player_b IN ('p1', 'p2')").fetchall()}
    assert stats == {"deal_in_deficit", "wins_passed", "calls_passed"}
    # the pair's neighbours (p1's deal-ins that p2 never takes go to the others) are not
    # flagged: the pair is left out of their weights with the share it really took (none of
    # its partner's deal-ins; shrunk by the prior, MCR's p1→p4 was flagged for feeding, 34
    # against 20.5 expected), and their statistics are judged without the pair's discoveries
    # (in one family, 广东's p4→p1 was flagged for deal_in_value at p = 0.0017 beside them).
    # Their rates are not flagged either: the pair is left out of their population.
    assert set(flags) == pair
    neighbour = con.execute("SELECT deal_ins_a_to_b, expected_a_to_b, p_value FROM pair_stats "
                            "WHERE player_a = 'p1' AND player_b = 'p4'").fetchone()
    assert neighbour[2] > 0.01 and neighbour[0] < 1.5 * neighbour[1]
    assert con.execute("SELECT count(*) FROM player_anomalies WHERE flagged AND player NOT IN ('p1', 'p2')"
                       ).fetchone()[0] == 0
    first = con.execute("SELECT feeder, receiver FROM suspicious_pairs").fetchmany(2)
    assert set(first) == pair  # the pair's evidence first


def test_a_dump_pair_is_flagged_and_its_big_hands_stand_out():
    con = audited_db(_games("longgang", 1000, 250, 4, ("p1", "p2"), "dump"))
    flags = _flags(con)
    # at 1,000 hands the dumper is flagged by its never winning off its partner (soft play);
    # its big-hand deal-ins are the strongest of any pair, not yet strong enough alone
    # in a family of ~70 statistics (docs/collusion.md, Measured)
    assert set(flags) == {("p1", "p2")} and "soft_play" in flags[("p1", "p2")]
    (a, b, p), = con.execute("SELECT player_a, player_b, p_value FROM pair_evidence WHERE statistic = 'big_hands' "
                             "AND tested ORDER BY p_value LIMIT 1").fetchall()
    assert (a, b) == ("p1", "p2") and p < 0.01


def test_the_feeder_stays_flagged_and_its_side_effects_say_so():
    con = audited_db(_games("guangdong", 1000, 75, 4, ("p1", "p2")))
    flags = _flags(con)
    assert "feeding" in flags[("p1", "p2")]
    first = con.execute("SELECT feeder, receiver, explained_by FROM suspicious_pairs").fetchone()
    assert first == ("p1", "p2", None)  # the feeder's evidence first
    for (explained,) in con.execute("SELECT explained_by FROM pair_stats WHERE len(behaviours) > 0 AND "
                                    "NOT (player_a = 'p1' AND player_b = 'p2')").fetchall():
        assert explained == "p1→p2"


@pytest.mark.parametrize(("ruleset", "seed"), [("guangdong", 5000), ("guangdong", 5001), ("mcr", 5000),
                                               ("longgang", 5000)])
def test_honest_corpora_flag_no_statistic(ruleset, seed):
    con = audited_db(_games(ruleset, seed, 100, 6, None))
    tested, flagged = con.execute("SELECT count(*) FILTER (WHERE tested), count(*) FILTER (WHERE flagged) "
                                  "FROM pair_evidence").fetchone()
    assert tested > 0 and flagged == 0
    assert con.execute("SELECT count(*) FROM suspicious_pairs").fetchone()[0] == 0
    statistics = {s for (s,) in con.execute("SELECT DISTINCT statistic FROM pair_evidence WHERE tested").fetchall()}
    assert statistics == set(collusion.STATISTICS)


def test_the_population_leaves_out_the_players_of_flagged_pairs():
    counts = [("mcr", "feeder", 1000, 100, 10, 400, 0, 0), ("mcr", "x", 1000, 250, 50, 100, 0, 0),
              ("mcr", "y", 1000, 250, 50, 100, 0, 0), ("mcr", "z", 1000, 250, 50, 100, 0, 0)]
    plain = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts)}
    kept = {(r["player"], r["rate_name"]): r for r in collusion.player_rows(counts, left_out={("mcr", "feeder")})}
    assert plain[("x", "deal_in")]["population_rate"] == pytest.approx(600 / 3000)
    assert kept[("x", "deal_in")]["population_rate"] == pytest.approx(200 / 2000)
    assert kept[("feeder", "deal_in")]["population_rate"] == pytest.approx(300 / 3000)  # tested against the others
    assert plain[("x", "deal_in")]["flagged"] and not kept[("x", "deal_in")]["flagged"]


def test_the_report_names_the_behaviour_and_its_evidence(tmp_path):
    from mahjong_audit.pipeline.report import build

    db = tmp_path / "soft.duckdb"
    audited_db(_games("guangdong", 1000, 100, 4, ("p1", "p2"), "soft"), str(db)).close()
    html = build(str(db)).html
    section = html[html.index('<section id="collusion">'):]
    section = section[:section.index("</section>")]
    row = section[section.index("<tr><td>guangdong</td><td>p2 → p1</td>"):]
    row = row[:row.index("</tr>")]
    assert "<td>soft play</td>" in row
    assert "calls passed: 169.0 vs 51.7 expected of 169" in row and "deal in deficit: 0.0 vs" in row
    assert "beside the stronger pair" not in section  # no neighbour is flagged beside the pair
    # a neighbour's flag names the pair (set by hand: this corpus's statistics no longer flag p4→p1,
    # whose deal_in_value p = 0.0017 was flagged when the pair's discoveries shared its family)
    import duckdb

    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE pair_stats SET behaviours = ['dumping'], explained_by = 'p2→p1' "
                    "WHERE player_a = 'p4' AND player_b = 'p1'")
        con.execute("UPDATE pair_evidence SET flagged = true, q_value = 0.016, explained_by = 'p2→p1' "
                    "WHERE player_a = 'p4' AND player_b = 'p1' AND statistic = 'deal_in_value'")
    assert "beside the stronger pair p2→p1" in build(str(db)).html
