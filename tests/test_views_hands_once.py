"""The summary views and the report count each recorded hand once, a hand whose number repeats
within its game (a faulty log) too, by the collusion build's rule (pipeline/tables.py): each
hands row is one hand, seated by its own seating list; payouts and findings, which carry only
(game_id, hand_no), are one pool per number, each row counted once. Clean games give the rows
they always gave (bench.table_digest's dump of the clean corpora is unchanged)."""

from __future__ import annotations

from mahjong_audit.pipeline.report import queries
from tests.test_collusion_hands_once import _REPEATED, _REPEATED_PAY
from tests.test_collusion_stats import _db

PLAYERS = ["A", "B", "C", "D"]
# the first hand recorded as hand 1 (A dealt in to B) has a dead hand of C; the second (C dealt in
# to D) has A's false win (hands.false_wins); one continuity finding names hand 1
_FINDINGS = [("g", 1, 5, 2, "dead_hand", "dead_hand/too_few", "error"),
             ("g", 1, None, None, "continuity", "continuity/hand_no", "error")]


def _with_findings(hands: list[tuple], pay: list[tuple], findings: list[tuple]):
    con = _db([("g", "mcr", PLAYERS)], hands, pay)
    if findings:
        con.executemany("INSERT INTO findings (game_id, hand_no, seq, seat, kind, code, severity, expected, recorded, "
                        "message, ruleset, source_file, source_line, depends_on) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, 'm', 'mcr', 'f.jsonl', 1, [])", findings)
    return con


def _rows(con, view: str) -> dict:
    cur = con.execute(f"SELECT * FROM {view}")
    cols = [d[0] for d in cur.description]
    return {r[1]: dict(zip(cols, r, strict=True)) for r in cur.fetchall()}


def test_player_stats_count_a_repeated_hand_number_once_per_recorded_hand():
    con = _with_findings(_REPEATED, _REPEATED_PAY, _FINDINGS)
    stats = _rows(con, "player_stats")
    assert {p: r["hands"] for p, r in stats.items()} == dict.fromkeys(PLAYERS, 3)  # not 1 + 2×2 = 5
    assert {p: r["games"] for p, r in stats.items()} == dict.fromkeys(PLAYERS, 1)
    assert {p: r["wins"] for p, r in stats.items()} == {"A": 0, "B": 2, "C": 0, "D": 1}
    assert {p: r["deal_ins"] for p, r in stats.items()} == {"A": 1, "B": 0, "C": 1, "D": 0}
    # every payout once: a player's net is the sum of the payout rows naming the player's seat
    net = {p: sum(d for _, _, s, d in _REPEATED_PAY if PLAYERS[s] == p) for p in PLAYERS}
    assert {p: r["net_score"] for p, r in stats.items()} == net
    assert sum(r["net_score"] for r in stats.values()) == 0
    monthly = _rows(con, "player_monthly")
    assert {p: (r["hands"], r["wins"], r["deal_ins"], r["net_score"]) for p, r in monthly.items()} == {
        p: (stats[p]["hands"], stats[p]["wins"], stats[p]["deal_ins"], net[p]) for p in PLAYERS}


def test_period_stats_and_finding_trend_count_each_finding_once():
    con = _with_findings(_REPEATED, _REPEATED_PAY, _FINDINGS)
    period = con.execute("SELECT hands, findings, errors, false_wins FROM period_stats WHERE grain = 'month'").fetchall()
    assert period == [(3, 2, 2, 1)]  # three hands; two findings, not four
    trend = con.execute("SELECT kind, findings FROM finding_trend WHERE grain = 'week' ORDER BY kind").fetchall()
    assert trend == [("continuity", 1), ("dead_hand", 1)]


def test_the_report_lists_a_finding_once_and_counts_false_wins_per_recorded_hand():
    con = _with_findings(_REPEATED, _REPEATED_PAY, _FINDINGS)
    listed = queries._findings(con, 100)
    assert sorted((f.kind, f.player) for f in listed) == [("continuity", None), ("dead_hand", "C")]
    lines = {p.player: p for p in queries._players(con, 10)}
    assert {p: (x.hands, x.false_wins, x.dead_hands) for p, x in lines.items()} == {
        "A": (3, 1, 0), "B": (3, 0, 0), "C": (3, 0, 1), "D": (3, 0, 0)}


def test_the_same_hands_under_distinct_numbers_give_the_same_player_counts():
    renumbered = [*_REPEATED[:2], ("g", 2, *_REPEATED[2][2:])]
    pay = _REPEATED_PAY[:8] + [("g", 2, *p[2:]) for p in _REPEATED_PAY[8:]]
    counts = ("games", "hands", "wins", "self_draw_wins", "deal_ins", "net_score", "avg_win_total")
    once = _rows(_with_findings(_REPEATED, _REPEATED_PAY, []), "player_stats")
    apart = _rows(_with_findings(renumbered, pay, []), "player_stats")
    assert {p: [r[c] for c in counts] for p, r in once.items()} == {p: [r[c] for c in counts] for p, r in apart.items()}
