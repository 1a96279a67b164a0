"""``mahjong-audit report``: content, escaping, empty/clean/odd databases, replays.

The browser test (scripts ran, charts drawn, filter works) is in test_report_browser.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import escape
from pathlib import Path

import duckdb
import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline.cli import main
from mahjong_audit.pipeline.report import build, charts, queries
from mahjong_audit.pipeline.report.replay_view import (
    describe_event,
    hand_view,
    load_games,
    snapshot,
)
from mahjong_audit.schemas import log as L
from tests import report_fixtures as F


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("report")
    logs = F.write_logs(folder)
    db = folder / "audit.duckdb"
    F.build_db(db, logs)
    return db, logs


def _finding_rows(html: str) -> list[str]:
    body = html.split('<table id="findings">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr class=\"sev-[^\"]*\" data-kind=\"([^\"]*)\"", body)


def test_report_of_the_sample_database_has_summary_charts_players_and_findings(sample):
    db, logs = sample
    built = build(str(db), logs=[str(logs)])
    html = built.html
    d = built.data
    assert (d.games, d.hands, d.rejected, d.findings_total) == (3, 4, 1, 13)
    assert d.payouts.money_at_stake == 480  # Σ|recorded − recomputed| over the fixture's payouts
    assert "480</b><span>money at stake" in html
    assert "20261129T120000Z-deadbeef" in html and "0.1.0" in html  # the run's id and version
    # one chart per: kinds, payout histogram, and items + win types for each of the two rulesets
    assert html.count("<svg") == 6
    assert "longgang: scoring items (tai)" in html and "mcr: scoring items (fan)" in html
    assert "robbing a kong" in html and "on the last tile" in html
    assert '<a href="#kind=false_win">' in html  # a bar of the kinds chart lists its findings
    kinds = _finding_rows(html)
    assert len(kinds) == 13
    assert sorted(set(kinds)) == ["continuity", "false_win", "invalid_log", "outcome_mismatch",
                                  "payout_mismatch", "score_mismatch"]
    assert built.replays == 2  # the two hands of game g-<1>
    assert 'href="#hand-0-s3"' in html and 'id="hand-0-s3"' in html  # the false win at seq 3 links to its replay
    assert 'href="#hand-0-end"' in html  # hand-level findings link to the state at the end of the hand


def test_money_at_stake_is_the_sum_of_absolute_payout_differences(sample):
    db, _ = sample
    con = duckdb.connect(str(db), read_only=True)
    (expected,) = con.execute("SELECT sum(abs(recorded - computed)) FROM payouts").fetchone()
    data = queries.load(con, str(db))
    con.close()
    assert data.payouts.money_at_stake == expected
    assert sum(b.count for b in data.payouts.bins) == data.payouts.differing == 9
    assert all(b.hi <= 0 or b.lo >= 0 for b in data.payouts.bins)  # zero is a bin edge


@pytest.mark.parametrize(("lo", "hi", "bins", "width"), [
    (-1, 1, 20, 1), (-207, 69, 20, 20), (3, 4, 20, 1), (-5000, 5000, 10, 2000), (1, 1000, 20, 100),
])
def test_histogram_bin_width_is_1_2_5_times_a_power_of_ten(lo, hi, bins, width):
    assert queries.nice_width(lo, hi, bins) == width


def test_everything_taken_from_the_data_is_escaped(sample):
    db, logs = sample
    html = build(str(db), logs=[str(logs)]).html
    assert F.HOSTILE not in html
    assert escape(F.HOSTILE) in html
    assert "g-<1>" not in html and escape("g-<1>") in html
    assert html.count("<script>") == 1  # ours, at the end


def test_the_page_fetches_nothing(sample):
    db, logs = sample
    html = build(str(db), logs=[str(logs)]).html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html  # and the page forbids itself from trying


def test_players_with_false_wins_and_dead_hands_come_first(sample):
    db, _ = sample
    con = duckdb.connect(str(db), read_only=True)
    players = queries.load(con, str(db)).players
    con.close()
    hostile = next(p for p in players if p.player == F.HOSTILE)
    same_ruleset = [p for p in players if p.ruleset == hostile.ruleset]  # one table per ruleset
    assert same_ruleset[0] == hostile and hostile.false_wins == 1
    assert [p.ruleset for p in players] == sorted(p.ruleset for p in players)
    assert {p.player for p in players} >= {"alice", "erin", "ivan"}
    judy = next(p for p in players if p.player == "judy")
    assert judy.deal_in_rate == 1.0  # her kong was robbed


def test_empty_database_says_so_plainly(tmp_path):
    db = tmp_path / "empty.duckdb"
    F.create_empty(db)
    built = build(str(db))
    assert built.data.empty
    assert "holds no audited games" in built.html
    assert "No findings." in built.html
    assert _finding_rows(built.html + '<table id="findings"></tbody>') == []


def test_all_clean_database_says_so_plainly(tmp_path):
    db = tmp_path / "clean.duckdb"
    F.create_empty(db)
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO games (game_id, run_id, platform, ruleset, started_at, players, hands, findings, "
                "source_file, source_line) SELECT * FROM (VALUES ('c-1', 'r', NULL, 'mcr', NULL, ['a', 'b', 'c', 'd'], "
                "1, 0, 'c.json', 1))")
    con.execute("INSERT INTO hands (game_id, hand_no, ruleset, round_wind, dealer, result, winners, win_type, "
                "last_tile, winning_tile, discarder, total, recorded_total, false_wins, events, findings) "
                "SELECT * FROM (VALUES ('c-1', 0, 'mcr', 'E', 0, 'draw', []::BIGINT[], NULL, "
                "false, NULL, NULL, NULL, NULL, []::BIGINT[], 80, 0))")
    con.close()
    built = build(str(db))
    assert built.data.clean and not built.data.empty
    assert "No findings: the 1 game (1 hand) replayed cleanly" in built.html
    assert "every recorded payout matches" not in built.html  # nothing was compared
    assert "no payouts compared" in built.html


def test_many_runs_show_the_latest_first(tmp_path):
    db = tmp_path / "runs.duckdb"
    F.create_empty(db)
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO runs SELECT 'run-' || lpad(i::VARCHAR, 2, '0'), TIMESTAMP '2026-11-01' + i * INTERVAL 1 HOUR, "
                "TIMESTAMP '2026-11-01' + i * INTERVAL 1 HOUR, '0.' || i, ['in'], 'DirectRunner', 0, 0, 0, 0, NULL, NULL "
                "FROM range(25) t(i)")
    con.close()
    html = build(str(db)).html
    assert "last audit run run-24" in html and "with mahjong-audit 0.24" in html
    assert "25 runs wrote to this database (the latest 20 above)" in html
    assert "run-04" not in html and "run-05" in html


def test_a_duckdb_file_without_audit_tables_is_reported_not_a_crash(tmp_path):
    db = tmp_path / "other.duckdb"
    duckdb.connect(str(db)).close()
    built = build(str(db))
    assert built.data.missing_tables == ("runs", "games", "hands", "hand_scores", "payouts", "findings", "rejected")
    assert "Was <code>mahjong-audit audit</code> run on it?" in built.html


def test_without_logs_findings_are_listed_without_replays(sample):
    db, _ = sample
    html = build(str(db)).html
    assert len(_finding_rows(html)) == 13
    assert 'href="#hand-' not in html and 'id="replays"' not in html
    assert "--logs INPUT" in html


def test_a_game_missing_from_the_logs_is_named_not_fatal(sample, tmp_path):
    db, _ = sample
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(F.games()[1]) + "\n", encoding="utf-8")
    built = build(str(db), logs=[str(other)])
    assert built.replays == 0
    assert "this game is not in the logs given with --logs" in built.html


def test_max_findings_caps_the_list_and_says_so(sample):
    db, logs = sample
    built = build(str(db), logs=[str(logs)], max_findings=4, max_replays=1)
    assert len(_finding_rows(built.html)) == 4
    assert "Showing the first 4 of 13 findings" in built.html
    assert built.replays == 1
    assert built.data.findings_total == 13  # the counts still cover everything


def test_max_players_keeps_the_worst_offenders_and_says_so(sample):
    db, _ = sample
    built = build(str(db), max_players=1)
    rulesets = [p.ruleset for p in built.data.players]
    assert len(rulesets) == len(set(rulesets))  # at most one row per ruleset: its worst offender
    assert F.HOSTILE in [p.player for p in built.data.players]
    assert built.data.players_total == 12
    assert f"Showing {len(rulesets)} of 12 players" in built.html


def test_charts_escape_labels_link_bars_and_say_when_empty():
    svg = charts.hbar("t<", [("a<b>", [2, 1]), ("c", [1, 0])], series=[charts.Series("x&", "#000"),
                                                                   charts.Series("y", "#111")],
                      links={"a<b>": "#kind=a<b>"})
    assert "a<b>" not in svg and "a&lt;b&gt;" in svg and "x&amp;" in svg
    assert svg.count('class="bar"') == 3 and '<a href="#kind=a&lt;b&gt;">' in svg
    assert "<svg" not in charts.hbar("t", [], empty="no findings")
    assert "no findings" in charts.hbar("t", [("a", [0])], empty="no findings")
    hist = charts.histogram("h", [(-10, 0, 2), (0, 10, 0), (10, 20, 3)], x_label="points")
    assert hist.count('class="bar"') == 2  # empty bins draw nothing
    assert charts.PALETTE[1] in hist and charts.PALETTE[0] in hist  # losses and gains coloured apart


# --------------------------------------------------------------------------- replays


def _game() -> L.Game:
    return L.parse_game(F.games()[0])


def test_snapshot_after_a_seq_shows_each_seats_tiles_at_that_point():
    game = _game()
    hand = game.hands[0]
    after_discard = snapshot(game, hand, 1)
    assert T.fmt(after_discard.seats[0].concealed) == "123456789m1234p"
    assert after_discard.seats[0].discards == T.parse("5p")
    after_false_win = snapshot(game, hand, 3)
    assert T.fmt(after_false_win.seats[1].concealed) == "11122233344568s"  # with the 8s it "won" on
    whole = snapshot(game, hand, None)
    assert whole.seats == after_false_win.seats  # seq 3 is the last event


def test_hand_view_lists_the_deal_every_event_and_one_snapshot_per_seq():
    view = hand_view(_game(), 0, [3, None, 3])
    assert view is not None
    assert [e.seq for e in view.events] == [1, 2, 3]
    assert [s.seq for s in view.snapshots] == [3, None]
    assert len(view.deal[0]) == 14
    assert view.events[2].text == "wins on 8s self-drawn"
    assert hand_view(_game(), 9, [1]) is None


def test_event_descriptions_use_compact_tile_notation():
    chi = L.Chi.model_validate({"seq": 5, "type": "chi", "seat": 2, "tile": "2p", "tiles": ["3p", "1p"], "from": 1})
    disc = L.Discard.model_validate({"seq": 4, "type": "discard", "seat": 1, "tile": "2p",
                                     "claims": [{"seat": 2, "call": "chi"}]})
    rob = L.Win.model_validate({"seq": 9, "type": "win", "seat": 0, "tile": "5m", "from": 3, "robbing_kong": True})
    back = L.Draw.model_validate({"seq": 7, "type": "draw", "seat": 3, "tile": "1z", "from": "back"})
    assert describe_event(chi) == "chi 2p from seat 1 with 13p"
    assert describe_event(disc) == "discards 2p — claims: seat 2 chi"
    assert describe_event(rob) == "wins on 5m robbing seat 3's kong"
    assert describe_event(back) == "draws 1z (replacement)"


def test_load_games_keeps_only_the_wanted_games_and_skips_bad_records(sample):
    _, logs = sample
    loaded = load_games([str(logs)], {"g-2"})
    assert list(loaded.games) == ["g-2"]
    assert load_games([str(logs.parent / "nope-*.jsonl")], {"g-2"}).problems  # an empty glob is named


# --------------------------------------------------------------------------- command


def test_command_writes_the_file_and_prints_a_line(sample, tmp_path, capsys):
    db, logs = sample
    out = tmp_path / "r.html"
    assert main(["report", "--db", str(db), "-o", str(out), "--logs", str(logs)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "3 games, 13 findings, 2 hands replayed" in capsys.readouterr().out


def test_command_can_write_to_stdout(sample, capsys):
    db, _ = sample
    assert main(["report", "--db", str(db), "-o", "-"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("</html>")


def test_command_rejects_negative_limits(sample, capsys):
    db, _ = sample
    assert main(["report", "--db", str(db), "--max-players", "-1"]) == 1
    assert "must be ≥ 0" in capsys.readouterr().err


def test_command_missing_database_exits_1(tmp_path, capsys):
    assert main(["report", "--db", str(tmp_path / "none.duckdb"), "-o", str(tmp_path / "r.html")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_command_on_a_database_another_process_writes_exits_75(sample, tmp_path, capsys):
    db = tmp_path / "busy.duckdb"
    F.create_empty(db)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ok', flush=True); "
         "sys.stdin.read()", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ok"
        assert main(["report", "--db", str(db), "-o", str(tmp_path / "r.html")]) == 75
    finally:
        holder.communicate("", timeout=30)
    assert "locked by another process" in capsys.readouterr().err


def test_report_reads_a_database_an_audit_holds_open_for_reading(sample):
    db, _ = sample
    con = duckdb.connect(str(db), read_only=True)  # another reader: read-only opens share the file
    try:
        assert build(str(db)).data.games == 3
    finally:
        con.close()


# --------------------------------------------------------------------------- engine regression


def test_payout_and_score_findings_carry_text_so_finding_rows_accept_them():
    """Regression: OutcomeCheck passed ints as expected/recorded and FindingRow rejected them."""
    findings = audit_game(_game()).findings
    payout = [f for f in findings if f.code in ("payout_mismatch/delta", "score_mismatch/total")]
    assert payout and all(isinstance(f.expected, str) and isinstance(f.recorded, str) for f in payout)


# --------------------------------------------------------------------------- on a real audit


@pytest.mark.slow  # a whole audit
def test_report_of_an_audit_of_sample_logs_replays_every_hand_with_findings(tmp_path, capsys):
    root = Path(__file__).resolve().parent.parent
    logs = root / "sample_logs"
    if not any(logs.glob("*.json*")):
        pytest.skip("no sample_logs")
    db = tmp_path / "audit.duckdb"
    assert main(["audit", str(logs), "--db", str(db), "--workers", "1", "--no-progress"]) == 0
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "-o", str(out), "--logs", str(logs)]) == 0
    html = out.read_text(encoding="utf-8")
    con = duckdb.connect(str(db), read_only=True)
    games, findings, hands = con.execute(
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM findings), "
        "(SELECT count(DISTINCT (game_id, hand_no)) FROM findings "
        " WHERE game_id IS NOT NULL AND hand_no IS NOT NULL AND kind NOT IN ('invalid_log', 'duplicate_game'))"
    ).fetchone()
    con.close()
    assert f"<b>{games:,}</b><span>games" in html
    assert len(_finding_rows(html)) == min(findings, 5000) if findings else "No findings:" in html
    assert f"{games} games, {findings} findings, {min(hands, 200)} hands replayed" in capsys.readouterr().out
    assert "the replay failed" not in html and "not in the logs" not in html


def _fan_chart(html: str, ruleset: str) -> str:
    start = html.index(f"<figcaption>{ruleset}: scoring items")
    return html[start:html.index("</figure>", start)]


def test_longgang_scoring_items_count_seats_and_the_title_says_so(tmp_path):
    """Issue 25: "wins that score each" showed 总胡数 176 for 44 wins: every 龙港 seat is scored."""
    root = Path(__file__).parent.parent / "sample_logs"
    db = tmp_path / "lg.duckdb"
    assert main(["audit", str(root / "longgang-clean.jsonl"), str(root / "mcr-clean.jsonl"),
                 "--db", str(db), "--in-memory"]) == 0
    built = build(str(db))
    (lg,) = [r for r in built.data.rulesets if r.ruleset == "longgang"]
    (mcr,) = [r for r in built.data.rulesets if r.ruleset == "mcr"]
    with duckdb.connect(str(db), read_only=True) as con:
        (seats,) = con.execute("SELECT count(DISTINCT (game_id, hand_no, seat)) FROM hand_scores "
                               "WHERE ruleset = 'longgang'").fetchone()
        (mcr_wins,) = con.execute("SELECT count(DISTINCT (game_id, hand_no, seat)) FROM hand_scores "
                                  "WHERE ruleset = 'mcr'").fetchone()
    assert seats > lg.wins
    chart = _fan_chart(built.html, "longgang")
    assert "— seats that score each" in chart and "wins that score each" not in chart
    assert f"{seats} seats scored in {lg.wins} wins: every seat of a hand is scored" in chart
    总 = next(i for i in built.data.items if i.ruleset == "longgang" and i.item == "总胡数")
    assert 总.hands == seats  # the bar counts what the title says
    chart = _fan_chart(built.html, "mcr")
    assert "— wins that score each" in chart and mcr_wins == mcr.wins
