"""龙港 with five players (issue 17): seating per hand, the substitute rotation, the player
standing out in 诈胡 payments, and every table per player, never per seat.

Seed 000: "由 4 个人（5个人，有一个人轮换…）参与"; the rotation: "流局或闲家胡牌，轮庄（下家坐庄），
原南风家坐庄，替补坐北风家(原庄家位)"; 诈胡: "五人来的，岸上的人也有份".
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.pipeline.rows import audit_rows, by_table
from mahjong_audit.schemas import log as L
from tests.longgang_build import SAMPLES, five_player, four_player_sample, with_false_win


def codes(g: dict[str, Any]) -> list[str]:
    return [f.code for f in audit_game(L.parse_game(g)).findings]


# ------------------------------------------------------------------ the log format


def test_old_four_player_log_means_what_it_meant():
    game = L.parse_game(four_player_sample())
    assert [game.seating(h) for h in game.hands] == [(0, 1, 2, 3), (0, 1, 2, 3)]
    assert game.standing_out(game.hands[0]) == ()
    assert audit_game(game).findings == ()


def test_five_players_need_each_hands_seating():
    g = five_player()
    del g["hands"][1]["seats"]
    with pytest.raises(ValidationError, match=r"hands\[1\]\.seats: required"):
        L.parse_game(g)


@pytest.mark.parametrize("seats", [[0, 1, 2, 2], [0, 1, 2, 5]])
def test_seating_is_four_different_players(seats):
    with pytest.raises(ValidationError, match="four different player indexes"):
        L.parse_game(five_player(seats))


def test_five_players_only_where_the_ruleset_seats_a_substitute():
    g = five_player()
    g["ruleset"] = "mcr"
    with pytest.raises(ValidationError, match="mcr seats at most 4 players"):
        L.parse_game(g)


def test_scores_are_one_per_player():
    g = five_player()
    g["final_scores"] = g["final_scores"][:4]
    with pytest.raises(ValidationError, match="final_scores: one per player expected"):
        L.parse_game(g)


def test_json_schema_names_the_seating():
    hand = L.json_schema()["$defs"]["Hand"]["properties"]
    assert "seats" in hand and "chips" in hand


# ------------------------------------------------------------------ the substitute rotation


def test_substitute_takes_the_old_dealers_seat():
    # "流局或闲家胡牌，轮庄（下家坐庄），原南风家坐庄，替补坐北风家(原庄家位)"
    assert codes(five_player()) == []


def test_wrong_substitution_is_a_continuity_finding():
    # 戊 sat down in seat 2 instead of the old dealer's seat 0
    res = audit_game(L.parse_game(five_player([0, 1, 4, 3])))
    found = [f for f in res.findings if f.code == "continuity/seating"]
    assert len(found) == 1 and found[0].hand_no == 1
    assert found[0].expected == "[4, 1, 2, 3]" and found[0].recorded == "[0, 1, 4, 3]"


def test_the_dealer_keeping_the_deal_keeps_the_seating():
    # "东家做庄,如果他胡了,那继续做": nobody stands up after the dealer's own win
    g = five_player([0, 1, 2, 3])
    g["hands"][0]["dealer"] = 1  # pretend seat 1 was dealing: its win keeps the deal
    rs_hand = L.parse_game(g)
    from mahjong_audit.engine.rulesets import RULESETS

    lg = RULESETS["longgang"]({})
    assert lg.next_seating((0, 1, 2, 3), (4,), 1, 1) == (0, 1, 2, 3)
    assert lg.next_seating((0, 1, 2, 3), (4,), 1, 2) == (0, 4, 2, 3)
    assert rs_hand.seating(rs_hand.hands[1]) == (0, 1, 2, 3)


# ------------------------------------------------------------------ 诈胡 with the player standing out


def test_false_win_pays_the_player_standing_out():
    # "诈胡：庄家诈胡每家出20子，其它家诈胡出庄家20子别的家10子，五人来的，岸上的人也有份"
    g = with_false_win(five_player(), 2)  # hand 1: dealer seat 1, seat 2 (丙) false-wins; 甲 stands out
    res = audit_game(L.parse_game(g))
    h1 = res.hands[1]
    assert h1.standing == ("甲",)
    assert h1.standing_computed == 10
    assert h1.computed_deltas == (10, 20, -50, 10)  # 10 to 戊 in seat 0, 20 to the dealer, 10 to 丁, 10 to 甲
    assert sum(h1.computed_deltas) + h1.standing_computed == 0


def test_false_winning_dealer_pays_the_player_standing_out_20():
    g = with_false_win(five_player(), 1)
    h1 = audit_game(L.parse_game(g)).hands[1]
    assert h1.standing_computed == 20 and h1.computed_deltas == (20, -80, 20, 20)


def test_recorded_share_of_the_player_standing_out_is_compared():
    g = with_false_win(five_player(), 2)
    g["hands"][1]["outcome"]["deltas"] = [10, 20, -50, 10]
    g["hands"][1]["outcome"]["out_delta"] = 10
    g["final_scores"] = [134, 158, 19, 79, 110]  # 甲 (standing in hand 1) +10, 戊 (seat 0) +10
    assert codes(g) == ["false_win/incomplete"]
    g["hands"][1]["outcome"]["out_delta"] = 0  # the platform forgot the player standing out
    g["hands"][1]["outcome"]["deltas"] = [10, 20, -40, 10]
    g["final_scores"] = [124, 158, 29, 79, 110]
    res = audit_game(L.parse_game(g))
    found = [(f.code, f.seat, f.expected, f.recorded) for f in res.findings if f.kind == "payout_mismatch"]
    assert found == [("payout_mismatch/delta", None, "10", "0"), ("payout_mismatch/delta", 2, "-50", "-40")]


def test_four_player_false_win_has_no_standing_share():
    g = with_false_win(four_player_sample(), 2)
    h1 = audit_game(L.parse_game(g)).hands[1]
    assert h1.standing == () and h1.standing_computed is None
    assert h1.computed_deltas == (10, 20, -40, 10)  # 四人: no one standing out


# ------------------------------------------------------------------ per player, never per seat


def rows_of(g: dict[str, Any]) -> dict[str, list[dict]]:
    game = L.parse_game(g)
    return by_table(audit_rows(ParsedGame("five.json", 1, 0, game), audit_game(game), "run"))


def test_rows_follow_the_hands_seating():
    t = rows_of(five_player())
    hands = {h["hand_no"]: h for h in t["hands"]}
    assert hands[0]["players"] == ["甲", "乙", "丙", "丁"] and hands[0]["standing"] == ["戊"]
    assert hands[1]["players"] == ["戊", "乙", "丙", "丁"] and hands[1]["standing"] == ["甲"]
    seat0 = {p["hand_no"]: p["player"] for p in t["payouts"] if p["seat"] == 0}
    assert seat0 == {0: "甲", 1: "戊"}
    standing = [(p["hand_no"], p["player"], p["computed"]) for p in t["payouts"] if p["seat"] is None]
    assert standing == [(0, "戊", 0), (1, "甲", 0)]
    assert {s["player"] for s in t["hand_scores"] if s["hand_no"] == 0 and s["seat"] == 0} == {"甲"}


def test_four_player_rows_unchanged():
    t = rows_of(four_player_sample())
    assert all(h["players"] == ["东家", "南家", "西家", "北家"] and h["standing"] is None for h in t["hands"])
    assert all(p["seat"] is not None for p in t["payouts"])


def load_into_duckdb(*games: dict[str, Any]):
    import duckdb
    import pyarrow as pa

    from mahjong_audit.pipeline import tables

    con = duckdb.connect()
    for stmt in tables.ddl():
        con.execute(stmt)
    merged: dict[str, list[dict]] = {}
    for g in games:
        for name, rows in rows_of(g).items():
            merged.setdefault(name, []).extend(rows)
    for name, rows in merged.items():
        arrow = pa.Table.from_pylist(rows, schema=tables.ARROW_SCHEMAS[name])  # noqa: F841 — read by DuckDB
        con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM arrow')
    return con


def test_player_stats_follow_people_across_seats():
    # 甲 sits in hand 0 only, 戊 in hand 1 only; the false win of hand 1 pays 甲 standing out
    g = with_false_win(five_player(), 2)
    g["hands"][1]["outcome"].update(deltas=[10, 20, -50, 10], out_delta=10)
    con = load_into_duckdb(g)
    stats = {r[0]: r[1:] for r in con.execute(
        "SELECT player, hands, wins, net_score FROM player_stats ORDER BY player").fetchall()}
    assert stats["甲"] == (1, 0, 24 + 10)
    assert stats["戊"] == (1, 0, 10)
    assert stats["乙"] == (2, 1, 38 + 20)
    assert stats["丙"] == (2, 0, -31 - 50)
    monthly = dict(con.execute("SELECT player, hands FROM player_monthly").fetchall())
    assert monthly["甲"] == 1 and monthly["戊"] == 1


def test_player_stats_of_a_four_player_game_unchanged():
    con = load_into_duckdb(four_player_sample())
    stats = dict(con.execute("SELECT player, hands FROM player_stats").fetchall())
    assert stats == {"东家": 2, "南家": 2, "西家": 2, "北家": 2}


def test_database_from_before_the_seating_is_upgraded(tmp_path):
    # payouts.seat was NOT NULL and hands had no players column: both are brought up to date
    import duckdb

    from mahjong_audit.pipeline import sink, tables
    from mahjong_audit.schemas.results import TABLES

    path = str(tmp_path / "old.duckdb")
    con = duckdb.connect(path)
    for name in TABLES:
        sql = tables.create_table_sql(name, TABLES[name])
        if name == "hands":
            sql = sql.replace(',\n  "players" VARCHAR[]', "").replace(',\n  "standing" VARCHAR[]', "")
        if name == "payouts":
            sql = sql.replace('"seat" BIGINT', '"seat" BIGINT NOT NULL')
        con.execute(sql)
    assert "players" not in {r[0] for r in con.execute("DESCRIBE hands").fetchall()}
    sink.ensure_schema(con)
    cols = {r[0]: r[2] for r in con.execute("DESCRIBE payouts").fetchall()}
    assert cols["seat"] == "YES"
    assert "players" in {r[0] for r in con.execute("DESCRIBE hands").fetchall()}


# ------------------------------------------------------------------ the sample logs and the simulator


def test_five_player_clean_sample_has_no_findings():
    g = L.parse_game(json.loads((SAMPLES / "longgang-five-clean.json").read_text(encoding="utf-8")))
    res = audit_game(g)
    assert res.findings == ()
    assert len(g.players or ()) == 5 and all(h.seats is not None and h.chips is not None for h in g.hands)
    assert len({h.standing for h in res.hands}) > 1  # more than one player stood out


def test_five_player_faulty_sample_findings():
    g = L.parse_game(json.loads((SAMPLES / "longgang-five-faulty.json").read_text(encoding="utf-8")))
    got = [(f.code, f.hand_no, f.expected, f.recorded) for f in audit_game(g).findings]
    assert got == [
        ("continuity/chips", 5, "[120, 23, 102, 122, 108]", "[120, 23, 102, 132, 108]"),
        ("continuity/seating", 2, "[4, 0, 2, 3]", "[4, 1, 2, 3]"),
    ]


def test_simulator_plays_five_player_games(tmp_path):
    from mahjong_audit.pipeline.cli import main

    out = tmp_path / "five.jsonl"
    assert main(["simulate", "--ruleset", "longgang", "--games", "4", "--seed", "3", "--hands-per-game", "5",
                 "--five", "--false-wins", "0", "-o", str(out), "--quiet"]) == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        game = L.parse_game(json.loads(line))
        assert len(game.players or ()) == 5
        assert audit_game(game).findings == ()


def test_simulator_refuses_five_players_where_the_ruleset_seats_four(tmp_path, capsys):
    from mahjong_audit.pipeline.cli import main

    assert main(["simulate", "--ruleset", "mcr", "--games", "1", "--five",
                 "-o", str(tmp_path / "x.jsonl")]) == 1
    assert "mcr seats at most 4 players" in capsys.readouterr().err


@pytest.mark.slow  # a whole audit
def test_report_shows_chips_per_player_over_the_game(tmp_path):
    from mahjong_audit.pipeline.cli import main
    from mahjong_audit.pipeline.report import build

    db = tmp_path / "five.duckdb"
    assert main(["audit", str(SAMPLES / "longgang-five-clean.json"), str(SAMPLES / "longgang-clean.json"),
                 "--db", str(db)]) == 0
    built = build(str(db))
    html = built.html
    assert "Chips per player" in html
    last = L.parse_game(json.loads((SAMPLES / "longgang-five-clean.json").read_text(encoding="utf-8"))).hands[-1]
    assert all(f">{v}</td>" in html for v in last.chips or ())
    assert "longgang-sample-clean" not in html.split('id="chips"')[1].split("</section>")[0]  # no chips logged


def test_report_replay_names_the_hands_seating():
    from mahjong_audit.pipeline.report.replay_view import hand_view

    game = L.parse_game(five_player())
    view = hand_view(game, 1, [None])
    assert view is not None and view.players == ("戊", "乙", "丙", "丁")
