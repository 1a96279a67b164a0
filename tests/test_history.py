"""Time as a dimension: started_at checked and stored as an instant, filled by importers
and the simulator, time views, per-ruleset player statistics, stats filters."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from pydantic import ValidationError

from mahjong_audit.engine.sim import start_time
from mahjong_audit.pipeline import sink
from mahjong_audit.pipeline.cli import main
from mahjong_audit.pipeline.importers import IMPORTERS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.instants import InstantError, object_id_time, parse_instant
from mahjong_audit.schemas.log import Game
from tests.logbuild import win_game

FIXTURES = Path(__file__).parent / "fixtures" / "real"


# --------------------------------------------------------------------------- the schema


@pytest.mark.parametrize("text, instant", [
    ("2026-11-01T12:00:00Z", datetime(2026, 11, 1, 12, tzinfo=UTC)),
    ("2026-11-01T20:00:00+08:00", datetime(2026, 11, 1, 12, tzinfo=UTC)),
    ("2026-11-01 12:00", datetime(2026, 11, 1, 12, tzinfo=UTC)),  # no offset: UTC
    ("2026-11-01T12:00:00.250Z", datetime(2026, 11, 1, 12, 0, 0, 250000, tzinfo=UTC)),
    ("2022-06-25", datetime(2022, 6, 25, tzinfo=UTC)),  # a plain date: its midnight
])
def test_iso_8601_date_times_and_dates_are_instants(text, instant):
    assert parse_instant(text) == instant
    game = win_game("t-1")
    game["started_at"] = text
    assert Game.model_validate(game).started_at == text


@pytest.mark.parametrize("text", ["yesterday", "2026-02-30", "2026-11-01T25:00", "01/11/2026",
                                  "2026-W44-1", 1700000000, ""])
def test_anything_else_is_a_schema_error(text):
    game = win_game("t-1")
    game["started_at"] = text
    with pytest.raises(ValidationError, match="started_at"):
        Game.model_validate(game)
    if isinstance(text, str):
        with pytest.raises(InstantError):
            parse_instant(text)


def test_a_record_without_a_time_stays_valid():
    assert Game.model_validate(win_game("t-1")).started_at is None


def test_a_hand_may_have_its_own_time():
    game = win_game("t-1")
    game["hands"][0]["started_at"] = "2026-11-01T12:05:00Z"
    assert Game.model_validate(game).hands[0].started_at == "2026-11-01T12:05:00Z"
    game["hands"][0]["started_at"] = "soon"
    with pytest.raises(ValidationError, match=r"hands\.0\.started_at|started_at"):
        Game.model_validate(game)


# --------------------------------------------------------------------------- sources


def test_a_botzone_match_id_is_an_object_id_whose_first_bytes_are_its_time():
    assert object_id_time("6a201f5a58ebe27b197da7f1") == "2026-06-03T12:34:34Z"
    assert object_id_time("match-1") is None


def test_botzone_json_import_fills_started_at_from_the_match_id():
    imp = IMPORTERS["botzone-json"]
    path = FIXTURES / "botzone-json" / "6a20635a58ebe27b197dddad_lite.json"
    (rec,) = imp.records(str(path), text_lines(path.read_text(encoding="utf-8")))
    (game,) = imp.convert(rec)
    assert game["started_at"] == object_id_time("6a20635a58ebe27b197dddad")
    assert game["started_at"].startswith("2026-06-03")
    Game.model_validate(game)


def test_botzone_txt_import_fills_started_at_from_the_match_id():
    imp = IMPORTERS["botzone-txt"]
    path = FIXTURES / "botzone-txt" / "sample.txt"
    games = [g for rec in imp.records(str(path), text_lines(path.read_text(encoding="utf-8")))
             for g in imp.convert(rec)]
    assert games and all(g["started_at"] == object_id_time(g["meta"]["match_id"]) for g in games)


def test_pmn_import_fills_started_at_from_date_and_skips_an_unknown_date():
    imp = IMPORTERS["pmn"]
    path = FIXTURES / "pmn" / "example_1.pmn"
    text = path.read_text(encoding="utf-8")
    (rec,) = imp.records(str(path), text_lines(text))
    (game,) = imp.convert(rec)
    assert game["started_at"] == "2022-06-25"
    partial = text.replace('[Date "2022.06.25"]', '[Date "2022.??.??"]')
    (rec,) = imp.records(str(path), text_lines(partial))
    (game,) = imp.convert(rec)
    assert "started_at" not in game
    Game.model_validate(game)


def test_simulated_start_times_are_spread_over_the_period_in_game_order():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    times = [parse_instant(start_time(7, i, 30, start, 90.0)) for i in range(30)]
    assert times == sorted(times)
    assert start <= times[0] and times[-1] < datetime(2026, 4, 1, tzinfo=UTC)
    assert len({t.month for t in times}) == 3
    assert start_time(7, 3, 30, start, 90.0) == start_time(7, 3, 30, start, 90.0)


def test_simulate_start_and_days(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["simulate", "--ruleset", "mcr", "--games", "3", "--seed", "1", "--hands-per-game", "1",
                 "-o", str(out), "--start", "2026-03-01", "--days", "3", "--quiet"]) == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    days = [g["started_at"][:10] for g in games]
    assert days == ["2026-03-01", "2026-03-02", "2026-03-03"]
    plain = tmp_path / "p.jsonl"
    main(["simulate", "--ruleset", "mcr", "--games", "3", "--seed", "1", "--hands-per-game", "1",
          "-o", str(plain), "--quiet"])
    for g, line in zip(games, plain.read_text().splitlines(), strict=True):
        g.pop("started_at")
        assert g == json.loads(line)  # the times do not change the play
    assert main(["simulate", "--ruleset", "mcr", "--games", "1", "-o", str(out), "--start", "soon"]) == 1


# --------------------------------------------------------------------------- tables and views


def _timed(game_id: str, when: str | None, players=("ann", "bob", "cat", "dan"), ruleset="mcr") -> dict:
    game = win_game(game_id, players)
    game["ruleset"] = ruleset
    if when is not None:
        game["started_at"] = when
    return game


def _longgang_sample() -> dict:
    path = Path(__file__).parent.parent / "sample_logs" / "longgang-clean.json"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("history")
    games = [
        _timed("jan-1", "2026-01-05T10:00:00Z"),
        _timed("jan-2", "2026-01-20T23:30:00-02:00"),  # 2026-01-21 01:30 UTC
        _timed("feb-1", "2026-02-03"),
        _timed("none-1", None),
    ]
    bad = copy.deepcopy(_timed("feb-bad", "2026-02-10T08:00:00Z"))
    bad["hands"][0]["outcome"]["deltas"] = [99, -33, -33, -33]  # paid 6 too little, 2 too little each
    games.append(bad)
    lg = _longgang_sample()
    lg["game_id"] = "lg-jan"
    lg["started_at"] = "2026-01-07"
    lg["players"] = ["ann", "bob", "cat", "dan"]
    path = d / "games.jsonl"
    path.write_text("\n".join(json.dumps(g) for g in games + [lg]) + "\n", encoding="utf-8")
    out = str(d / "audit.duckdb")
    assert main(["audit", str(path), "--db", out, "--workers", "1"]) == 0
    return out


def q(db: str, sql: str, params=()) -> list[tuple]:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


def test_started_at_is_stored_as_a_timestamp_with_time_zone(db):
    ((kind,),) = q(db, "SELECT data_type FROM information_schema.columns "
                       "WHERE table_name = 'games' AND column_name = 'started_at'")
    assert kind == "TIMESTAMP WITH TIME ZONE"
    got = dict(q(db, "SELECT game_id, strftime(started_at AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M') FROM games"))
    assert got["jan-2"] == "2026-01-21 01:30" and got["feb-1"] == "2026-02-03 00:00" and got["none-1"] is None
    # hands take their game's time when they have none of their own
    assert q(db, "SELECT count(*) FROM hands h JOIN games g USING (game_id) "
                 "WHERE h.started_at IS NOT DISTINCT FROM g.started_at") == q(db, "SELECT count(*) FROM hands")


def test_period_stats_by_month(db):
    rows = q(db, "SELECT period, ruleset, games, hands, findings > 0, money_at_stake FROM period_stats "
                 "WHERE grain = 'month' AND ruleset = 'mcr' ORDER BY period NULLS LAST")
    assert [(str(p) if p else None, r, g, h) for p, r, g, h, _, _ in rows] == [
        ("2026-01-01", "mcr", 2, 2), ("2026-02-01", "mcr", 2, 2), (None, "mcr", 1, 1)]
    feb = rows[1]
    assert feb[4] is True and feb[5] == 6 + 3 * 2  # the faulty February game: 99 vs 105, −33 vs −35
    assert rows[0][5] == 0
    (weeks,) = q(db, "SELECT count(DISTINCT period) FROM period_stats WHERE grain = 'week' AND period IS NOT NULL "
                     "AND ruleset = 'mcr'")
    assert weeks == (4,)  # weeks (from Monday) of 5 Jan, 19 Jan, 2 Feb, 9 Feb


def test_finding_trend_by_kind(db):
    rows = q(db, "SELECT period, kind, findings FROM finding_trend WHERE grain = 'month' AND ruleset = 'mcr'")
    assert ("2026-02-01", "payout_mismatch") in {(str(p), k) for p, k, _ in rows}
    assert all(str(p) != "2026-01-01" for p, _, _ in rows)


def test_player_statistics_are_per_ruleset_never_mixing_units(db):
    rows = q(db, "SELECT ruleset, games FROM player_stats WHERE player = 'ann' ORDER BY ruleset")
    assert rows == [("longgang", 1), ("mcr", 5)]
    monthly = q(db, "SELECT ruleset, month, hands, wins, net_score FROM player_monthly "
                    "WHERE player = 'ann' AND ruleset = 'mcr' ORDER BY month NULLS LAST")
    assert [(str(m) if m else None, h, w) for _, m, h, w, _ in monthly] == [
        ("2026-01-01", 2, 2), ("2026-02-01", 2, 2), (None, 1, 1)]


def test_stats_filters(db, capsys):
    assert main(["stats", "--db", db, "--ruleset", "mcr", "--player", "ann", "--since", "2026-02-01",
                 "--until", "2026-02-28", "--view", "player_stats", "--view", "player_monthly"]) == 0
    out = capsys.readouterr().out
    assert "scope: ruleset mcr, player ann, from 2026-02-01" in out
    table = out.split("player_stats")[1].split("player_monthly")[0]
    assert "ann" in table and "bob" not in table and "longgang" not in table
    assert " 2 " in table.split("\n")[3]  # two February games
    assert main(["stats", "--db", db, "--until", "2026-01-05", "--view", "period_stats"]) == 0
    out = capsys.readouterr().out
    assert "2026-01-05" in out and "2026-01-21" not in out  # --until a date includes that day
    assert main(["stats", "--db", db, "--since", "next week"]) == 1


# --------------------------------------------------------------------------- older databases


def test_an_older_database_is_upgraded_in_place(tmp_path):
    path = str(tmp_path / "old.duckdb")
    con = sink.connect(path)
    sink.ensure_schema(con)
    # the layout before: started_at as text, no hands.started_at, no games.readings / profile
    con.execute("ALTER TABLE games ALTER started_at TYPE VARCHAR")
    con.execute("ALTER TABLE hands DROP COLUMN started_at")
    for column in ("readings", "profile", "profile_sha256"):
        con.execute(f"ALTER TABLE games DROP COLUMN {column}")
    con.execute("INSERT INTO games VALUES ('g', 'r', NULL, 'mcr', '2022-06-25', ['a','b','c','d'], 0, 0, 'f', 1)")
    con.execute("INSERT INTO games VALUES ('h', 'r', NULL, 'mcr', 'whenever', ['a','b','c','d'], 0, 0, 'f', 2)")
    sink.ensure_schema(con)
    got = dict(con.execute("SELECT game_id, started_at FROM games").fetchall())
    assert got["g"] == datetime(2022, 6, 25, tzinfo=UTC) and got["h"] is None
    # games audited before the readings were recorded say so: NULL, not "the defaults"
    assert con.execute("SELECT DISTINCT readings, profile, profile_sha256 FROM games").fetchall() == [
        (None, None, None)]
    assert "started_at" in {c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'hands'").fetchall()}
    con.close()


# --------------------------------------------------------------------------- the report and README


def test_report_shows_trends_and_one_player_table_per_ruleset(db):
    from mahjong_audit.pipeline.report import build

    built = build(db)
    weeks = {w.week.isoformat() for w in built.data.weekly_findings}
    assert weeks == {"2026-02-09"}  # the faulty game's week (from Monday)
    assert {(w.series, w.value) for w in built.data.weekly_stake} == {("mcr", 12)}
    assert built.data.untimed_games == 1
    html = built.html
    assert 'id="trends"' in html and "Findings per week, by kind" in html
    assert "1 game without a start time is left out" in html
    players = html.split('id="players"')[1].split("</section>")[0]
    assert "<h3>longgang</h3>" in players and "<h3>mcr</h3>" in players


def test_report_without_times_says_so(tmp_path):
    from mahjong_audit.pipeline.report import build

    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(_timed("x", None)) + "\n", encoding="utf-8")
    out = str(tmp_path / "a.duckdb")
    assert main(["audit", str(path), "--db", out, "--workers", "1"]) == 0
    assert "nothing to show over time" in build(out).html


def test_the_tables_pages_history_queries_run(db):
    page = (Path(__file__).parent.parent / "docs" / "tables.md").read_text(encoding="utf-8")
    block = page.split("Historical questions:")[1].split("```sql")[1].split("```")[0]
    with duckdb.connect(db, read_only=True) as con:
        for stmt in filter(str.strip, block.split(";")):
            con.execute(stmt.replace("'alice'", "'ann'")).fetchall()


def test_report_gives_money_at_stake_per_ruleset_in_its_own_unit(db):
    from mahjong_audit.pipeline.report import build

    built = build(db)
    stake = {r.ruleset: r.money_at_stake for r in built.data.rulesets}
    assert stake["mcr"] == 12 and sum(stake.values()) == built.data.payouts.money_at_stake
    assert "money at stake (all rulesets; units differ)" in built.html
