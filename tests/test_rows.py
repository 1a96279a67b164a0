"""Plain row-building functions: GameAudit + game + source -> table rows (no Beam)."""

from __future__ import annotations

import dataclasses

import pytest

from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.hand import Score, ScoreItem
from mahjong_audit.engine.result import GameAudit, HandFacts, WinFacts
from mahjong_audit.pipeline import rows as R
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.pipeline.read import Rejection
from mahjong_audit.schemas.log import Game
from tests.logbuild import win_game


def _parsed(gid="g", source="/logs/a.jsonl", line=3) -> ParsedGame:
    return ParsedGame(source, line, 0, Game.model_validate(win_game(gid)))


def _audit() -> GameAudit:
    score = Score((ScoreItem("七对", 24), ScoreItem("自摸", 1)), 25)
    win = WinFacts(seat=2, from_seat=0, tile="7p", win_type="discard", last_tile=True, legal=True,
                   score=score, recorded_total=26)
    won = HandFacts(0, 0, "E", "win", (win,), (), (-33, 0, 33, 0), (-34, 0, 34, 0),
                    (ScoreItem("七对", 24, seat=2), ScoreItem("自摸", 1, count=2, seat=2)), 50, 2)
    drawn = HandFacts(1, 1, "E", "draw", (), (3,), None, None, (), 80, 0)
    findings = (Finding("score_mismatch/total", "recorded 26, recomputed 25", hand_no=0, seat=2,
                        expected="25", recorded="26"),
                Finding("continuity/final_scores", "off by one", severity=Severity.WARNING))
    return GameAudit("g", "mcr", "test", ("ann", "bob", "cat", "dan"), (won, drawn), findings)


def test_audit_rows_fill_every_game_table():
    t = R.by_table(R.audit_rows(_parsed(), _audit(), "run-1"))
    assert sorted(t) == ["findings", "games", "hand_scores", "hands", "payouts"]
    (game,) = t["games"]
    assert game == {"game_id": "g", "run_id": "run-1", "platform": "test", "ruleset": "mcr",
                    "started_at": None, "players": ["ann", "bob", "cat", "dan"], "hands": 2,
                    "findings": 2, "source_file": "/logs/a.jsonl", "source_line": 3,
                    "readings": "{}", "profile": None, "profile_sha256": None}
    won, drawn = t["hands"]
    assert (won["winners"], won["win_type"], won["discarder"], won["total"], won["recorded_total"],
            won["last_tile"], won["winning_tile"]) == ([2], "discard", 0, 25, 26, True, "7p")
    assert (drawn["result"], drawn["winners"], drawn["win_type"], drawn["false_wins"]) == ("draw", [], None, [3])
    assert [(s["seat"], s["player"], s["item"], s["points"]) for s in t["hand_scores"]] == [
        (2, "cat", "七对", 24), (2, "cat", "自摸", 2)]
    assert [(p["seat"], p["recorded"], p["computed"], p["diff"]) for p in t["payouts"]] == [
        (0, -34, -33, -1), (1, 0, 0, 0), (2, 34, 33, 1), (3, 0, 0, 0)]
    f0, f1 = t["findings"]
    assert (f0["kind"], f0["code"], f0["hand_no"], f0["seat"], f0["severity"], f0["source_line"]) == (
        "score_mismatch", "score_mismatch/total", 0, 2, "error", 3)
    assert (f1["kind"], f1["severity"], f1["hand_no"]) == ("continuity", "warning", None)


def test_self_drawn_win_has_no_discarder():
    audit = _audit()
    win = WinFacts(seat=1, from_seat=None, tile="5m", win_type="self_drawn", last_tile=False, legal=True,
                   score=None)
    hand = HandFacts(0, 0, "E", "win", (win,), (), None, None, (), 10, 0)
    rows = R.by_table(R.audit_rows(_parsed(), GameAudit("g", "mcr", None, audit.players, (hand,), ()), "r"))
    (h,) = rows["hands"]
    assert (h["discarder"], h["total"], h["win_type"]) == (None, None, "self_drawn")
    assert "payouts" not in rows and "findings" not in rows


def test_rejection_gives_a_rejected_row_and_an_invalid_log_finding():
    rej = Rejection("/logs/b.jsonl", 7, "invalid_log/schema", "hands[0].dealer: too big", "gx", "mcr")
    t = R.by_table(R.rejection_rows(rej, "run-9"))
    assert t["rejected"] == [{"run_id": "run-9", "source_file": "/logs/b.jsonl", "source_line": 7,
                              "game_id": "gx", "code": "invalid_log/schema",
                              "message": "hands[0].dealer: too big"}]
    (f,) = t["findings"]
    assert (f["kind"], f["code"], f["game_id"], f["source_file"], f["source_line"], f["ruleset"]) == (
        "invalid_log", "invalid_log/schema", "gx", "/logs/b.jsonl", 7, "mcr")


def test_duplicates_split_by_position_and_reported_as_findings():
    a, b, c = _parsed(source="/b", line=1), _parsed(source="/a", line=5), _parsed(source="/a", line=2)
    kept, dups = R.split_duplicates([a, b, c])
    assert kept is c and dups == (b, a)
    (row,) = R.duplicate_rows(a, kept)
    assert (row.kind, row.code, row.game_id, row.source_file, row.recorded) == (
        "duplicate_game", "duplicate_game/game_id", "g", "/b", "/a:2")
    with pytest.raises(ValueError):
        R.split_duplicates([])


def test_engine_error_is_a_rejection_naming_the_game():
    rej = R.engine_error(_parsed(line=4), ZeroDivisionError("division by zero"))
    assert (rej.code, rej.game_id, rej.line) == ("invalid_log/engine_error", "g", 4)
    assert "ZeroDivisionError: division by zero" in rej.message


def test_abortive_draw_reason_reaches_the_hands_row():
    import dataclasses

    audit = _audit()
    drawn = dataclasses.replace(audit.hands[1], draw_reason="four_winds")
    audit = dataclasses.replace(audit, hands=(audit.hands[0], drawn))
    hands = R.by_table(R.audit_rows(_parsed(), audit, "run-1"))["hands"]
    assert [h["draw_reason"] for h in hands] == [None, "four_winds"]


def test_every_column_of_a_hands_row_comes_from_its_own_fact():
    """The hands row is built by position (pipeline/rows.py): each column named with a value no other has."""
    from mahjong_audit.engine.chances import Chances
    from mahjong_audit.engine.result import ChipFacts

    win = WinFacts(seat=2, from_seat=0, tile="7p", win_type="discard", last_tile=True, legal=True,
                   score=Score((ScoreItem("七对", 24),), 25), recorded_total=26)
    chances = Chances(tuple(range(16)), tuple(range(1, 17)), tuple(range(2, 18)), tuple(range(3, 19)))
    hand = HandFacts(7, 3, "S", "win", (win,), (1,), None, None, (), 50, 4, draw_reason="nine",
                     players=("p0", "p1", "p2", "p3"), standing=("p4",), chips=(10, 11, 12, 13),
                     chip_facts=ChipFacts(broke=(8, 9), rebuy=6, ended=True), chances=chances)
    audit = GameAudit("g", "mcr", "test", ("ann", "bob", "cat", "dan"), (hand,), ())
    (row,) = R.by_table(R.audit_values(_parsed(), audit, "run-1"))["hands"]
    assert row == {
        "game_id": "g", "hand_no": 7, "ruleset": "mcr", "round_wind": "S", "dealer": 3, "started_at": None,
        "result": "win", "draw_reason": "nine", "winners": [2], "win_type": "discard", "last_tile": True,
        "winning_tile": "7p", "discarder": 0, "total": 25, "recorded_total": 26, "false_wins": [1],
        "events": 50, "findings": 4, "players": ["p0", "p1", "p2", "p3"], "standing": ["p4"],
        "chips": [10, 11, 12, 13], "chips_broke": [8, 9], "chips_rebuy": 6, "chips_end": True,
        "win_chances": list(range(16)), "wins_passed": list(range(1, 17)),
        "call_chances": list(range(2, 18)), "calls_passed": list(range(3, 19)),
    }


def test_payouts_and_score_rows_of_partial_facts():
    """A seat without a recorded or computed delta gets None (and no diff); an item naming no seat
    is the first legal winner's; a seat beyond the seating has no player."""
    win = WinFacts(seat=1, from_seat=1, tile="7p", win_type="self_drawn", last_tile=False, legal=True,
                   score=Score((ScoreItem("自摸", 1),), 1), recorded_total=1)
    items = (ScoreItem("自摸", 1), ScoreItem("花牌", 1, count=3, seat=5))
    hand = HandFacts(0, 0, "E", "win", (win,), (), (3, -1, -2), None, items, 50, 0)
    audit = GameAudit("g", "mcr", "test", ("ann", "bob", "cat", "dan"), (hand,), ())
    tables = R.by_table(R.audit_rows(_parsed(), audit, "run-1"))
    assert [(r["seat"], r["player"], r["item"], r["points"]) for r in tables["hand_scores"]] == [
        (1, "bob", "自摸", 1), (5, None, "花牌", 3)]
    assert [(r["seat"], r["player"], r["recorded"], r["computed"], r["diff"]) for r in tables["payouts"]] == [
        (0, "ann", None, 3, None), (1, "bob", None, -1, None), (2, "cat", None, -2, None), (3, "dan", None, None, None)]
    both = dataclasses.replace(hand, recorded_deltas=(4, -1, -2, -1, 9))
    payouts = R.by_table(R.audit_rows(_parsed(), dataclasses.replace(audit, hands=(both,)), "run-1"))["payouts"]
    assert [(r["recorded"], r["computed"], r["diff"]) for r in payouts] == [
        (4, 3, 1), (-1, -1, 0), (-2, -2, 0), (-1, None, None)]
