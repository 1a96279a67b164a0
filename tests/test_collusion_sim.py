"""The simulator's player population and colluding pair; a seeded corpus where the pair is
flagged end to end and an honest one where nothing is."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bench.collusion_power import _games, audited_db
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.sim import Population, simulate_one
from mahjong_audit.pipeline.cli import main
from mahjong_audit.schemas.log import Game

pytestmark = pytest.mark.slow  # simulated corpora audited and scored end to end


def test_population_tables_are_deterministic_and_rotate_seats():
    pop = Population.of_size(6)
    tables = [pop.table(3, i) for i in range(40)]
    assert tables == [pop.table(3, i) for i in range(40)]
    assert all(len(set(t)) == 4 and set(t) <= set(pop.players) for t in tables)
    assert len({t[0] for t in tables}) > 3  # players change seats from game to game
    assert pop.table(3, 0) != pop.table(4, 0) or pop.table(3, 1) != pop.table(4, 1)


def test_naming_the_players_does_not_change_how_an_honest_game_is_played():
    plain = simulate_one("guangdong", 2, 5, 2)
    named = simulate_one("guangdong", 2, 5, 2, population=Population.of_size(9))
    assert named["players"] != plain["players"]
    assert named["hands"] == plain["hands"]


def test_population_refuses_bad_values():
    with pytest.raises(ValueError):
        Population.of_size(3)
    with pytest.raises(ValueError):
        Population.of_size(5, ("p1", "p9"))
    with pytest.raises(ValueError):
        Population.of_size(5, ("p1", "p1"))


@pytest.mark.parametrize("ruleset", ["mcr", "guangdong", "longgang"])
def test_the_feeder_feeds_never_wins_off_the_receiver_and_the_games_audit_clean(ruleset):
    pop = Population.of_size(4, ("p1", "p2"))
    cov: Counter = Counter()
    feeds = other = 0
    for i in range(12):
        game = simulate_one(ruleset, 11, i, 4, cov, pop)
        players = game["players"]
        for hand in game["hands"]:
            for w in hand["outcome"]["wins"]:
                if w["from"] != w["seat"]:
                    pair = (players[w["from"]], players[w["seat"]])
                    assert pair != ("p2", "p1"), "the feeder won off the receiver"
                    feeds += pair == ("p1", "p2")
                    other += pair[0] == "p1" and pair[1] != "p2"
        audit = audit_game(Game.model_validate(game))
        assert [f.code for f in audit.findings] == []
    assert cov["policy_discards"] > 0
    assert feeds > other / 2  # the receiver gets more of the feeder's deal-ins than either other player


def test_cli_labels_the_games_where_the_pair_sat_together(tmp_path, capsys):
    out, labels = tmp_path / "g.jsonl", tmp_path / "l.jsonl"
    assert main(["simulate", "--ruleset", "guangdong", "--games", "30", "--seed", "2", "--hands-per-game", "1",
                 "--players", "5", "--collude", "p2,p4", "-o", str(out), "--labels", str(labels)]) == 0
    games = [json.loads(x) for x in out.read_text().splitlines()]
    labs = {x["game_id"]: x for x in map(json.loads, labels.read_text().splitlines())}
    together = {g["game_id"] for g in games if {"p2", "p4"} <= set(g["players"])}
    assert set(labs) == together and together
    for g in games:
        if g["game_id"] in labs:
            lab = labs[g["game_id"]]
            assert (lab["kind"], lab["feeder"], lab["receiver"]) == ("collusion", "p2", "p4")
            assert g["players"][lab["feeder_seat"]] == "p2" and g["players"][lab["receiver_seat"]] == "p4"
    assert "collusion: games" in capsys.readouterr().err


def test_cli_refuses_collusion_without_players_or_labels(tmp_path, capsys):
    out = str(tmp_path / "x.jsonl")
    base = ["simulate", "--ruleset", "mcr", "--games", "1", "-o", out]
    assert main([*base, "--collude", "p1,p2", "--labels", str(tmp_path / "l")]) == 1
    assert main([*base, "--players", "5", "--collude", "p1,p2"]) == 1
    assert main([*base, "--players", "5", "--collude", "p1,p7", "--labels", str(tmp_path / "l")]) == 1
    assert main([*base, "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "needs --players" in err and "needs --labels" in err


# The small, fast version of `make collusion-power`: one seeded colluding corpus (the pair
# shares 300 hands) and one honest corpus (six players, 300 hands).
def test_a_seeded_colluding_pair_is_flagged_end_to_end(tmp_path, capsys):
    out, labels, db = tmp_path / "c.jsonl", tmp_path / "c.labels", tmp_path / "c.duckdb"
    assert main(["simulate", "--ruleset", "guangdong", "--games", "75", "--seed", "1000", "--players", "4",
                 "--collude", "p1,p2", "-o", str(out), "--labels", str(labels), "--quiet"]) == 0
    for _ in range(2):  # a re-run rebuilds the tables, never duplicates them
        assert main(["audit", str(out), "--db", str(db), "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", str(db), "--view", "suspicious_pairs"]) == 0
    printed = capsys.readouterr().out
    assert "suspicious_pairs (1 row)" in printed  # the pair, and not the others it bent
    assert printed.splitlines()[3].split()[:3] == ["guangdong", "p1", "p2"]
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM pair_stats").fetchone()[0] == 12


def test_an_honest_seeded_corpus_flags_no_pair():
    con = audited_db(_games("guangdong", 5000, 75, 6, None))
    tested, flagged = con.execute("SELECT count(*) FILTER (WHERE tested), count(*) FILTER (WHERE flagged) "
                                  "FROM pair_stats").fetchone()
    assert tested > 0 and flagged == 0
