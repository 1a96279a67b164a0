"""Log texts for the fast validation path's tests (tests/test_log_fast.py): the sample logs' records, and a valid game with one change
each; and what the models make of a text."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.pipeline import parse, read
from mahjong_audit.pipeline.rows import audit_rows
from mahjong_audit.schemas import log as L
from mahjong_audit.schemas.results import GameRow, HandRow
from tests.logbuild import draw_game, win_game

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def model_accepts(text: str) -> L.Game | None:
    try:
        return L.Game.model_validate_json(text)
    except ValidationError:
        return None


def native_texts() -> list[tuple[str, str]]:
    out = []
    for path in sorted(SAMPLES.glob("*.json*")):
        if path.name.endswith(".labels.jsonl"):
            continue
        for rec in read.read_records(str(path)):
            out.append((f"{path.name}:{rec.line}", rec.text))
    return out


def mutations() -> list[tuple[str, dict]]:
    """A valid game with one change each: most make it invalid, a few keep it valid."""
    base = win_game("g1")
    out: list[tuple[str, dict]] = [("valid", base), ("valid draw", draw_game("g2"))]

    def change(name, fn):
        g = copy.deepcopy(base)
        fn(g)
        out.append((name, g))

    hand = lambda g: g["hands"][0]  # noqa: E731
    change("bad tile", lambda g: hand(g)["events"][0].update(tile="10m"))
    change("tile not a string", lambda g: hand(g)["events"][0].update(tile=5))
    change("seat 4", lambda g: hand(g)["events"][0].update(seat=4))
    change("negative seq", lambda g: hand(g)["events"][0].update(seq=-1))
    change("seq not increasing", lambda g: hand(g)["events"][1].update(seq=1))
    change("unknown event type", lambda g: hand(g)["events"][0].update(type="steal"))
    change("extra event field", lambda g: hand(g)["events"][0].update(note="x"))
    change("draw from nowhere", lambda g: hand(g)["events"][0].update({"from": "side"}))
    change("draw from back", lambda g: hand(g)["events"][0].update({"from": "back"}))
    change("from_ by field name", lambda g: hand(g)["events"][1].update(from_=hand(g)["events"][1].pop("from")))
    change("win without from", lambda g: hand(g)["events"][1].pop("from"))
    change("three deal lists", lambda g: hand(g)["deal"].pop())
    change("bad deal tile", lambda g: hand(g)["deal"][1].__setitem__(0, "0p"))
    change("bad wall tile", lambda g: hand(g).update(wall=["1m", "9x"]))
    change("seat walls of 3", lambda g: hand(g).update(seat_walls=[["1m"], ["2m"], ["3m"]]))
    change("round wind X", lambda g: hand(g).update(round_wind="X"))
    change("hand_no -1", lambda g: hand(g).update(hand_no=-1))
    change("unknown ruleset", lambda g: g.update(ruleset="riichi"))
    change("unknown option", lambda g: g.update(options={"no_such_option": 1}))
    change("wrong option type", lambda g: g.update(options={"min_fan": "many"}))
    change("a known option", lambda g: g.update(options={"min_fan": 8}))
    change("wrong format", lambda g: g.update(format="mahjong-log/2"))
    change("empty game_id", lambda g: g.update(game_id=""))
    change("three players", lambda g: g.update(players=["a", "b", "c"]))
    change("extra game field", lambda g: g.update(colour="red"))
    change("outcome deltas of 3", lambda g: hand(g)["outcome"].update(deltas=[1, 2, -3]))
    change("outcome result lost", lambda g: hand(g)["outcome"].update(result="lost"))
    change("recorded fans bad entry", lambda g: hand(g)["outcome"]["wins"][0]["score"].update(fans=[[1, 2]]))
    change("recorded score extra field", lambda g: hand(g)["outcome"]["wins"][0]["score"].update(hu=20, note="x"))
    change("penalty", lambda g: hand(g)["outcome"].update(penalties=[{"seat": 1, "kind": "x"}]))
    change("ready event", lambda g: hand(g)["events"].insert(1, {"seq": 1, "type": "ready", "seat": 0}))
    change("chi of one tile", lambda g: hand(g)["events"].append(
        {"seq": 9, "type": "chi", "seat": 1, "tile": "1m", "tiles": ["2m"], "from": 0}))
    change("int as string", lambda g: hand(g).update(dealer="0"))
    change("int as float", lambda g: hand(g).update(dealer=0.0))
    change("seq as string", lambda g: hand(g)["events"][0].update(seq="1"))
    change("bool as int", lambda g: hand(g)["events"][1].update(robbing_kong=0))
    change("bool as string", lambda g: hand(g)["events"][1].update(robbing_kong="false"))
    change("bool", lambda g: hand(g)["events"][1].update(robbing_kong=False))
    change("NaN in meta", lambda g: g.update(meta={"x": float("nan")}))
    change("big numbers in meta", lambda g: g.update(meta={"x": 10**30, "y": -(10**20), "z": 1.5e300, "w": -0.0}))
    change("seat as bool", lambda g: hand(g)["events"][0].update(seat=True))
    change("tile null", lambda g: hand(g)["events"][0].update(tile=None))
    change("event not an object", lambda g: hand(g)["events"].__setitem__(0, [1, "draw", 0]))
    change("event without type", lambda g: hand(g)["events"][0].pop("type"))
    change("claims", lambda g: hand(g)["events"].insert(1, {"seq": 1, "type": "discard", "seat": 3, "tile": "1m",
                                                             "claims": [{"seat": 0, "call": "pon"}]}))
    change("claim of a bad call", lambda g: hand(g)["events"].insert(1, {
        "seq": 1, "type": "discard", "seat": 3, "tile": "1m", "claims": [{"seat": 0, "call": "steal"}]}))
    change("recorded score fans", lambda g: hand(g)["outcome"]["wins"][0]["score"].update(
        fans=[["七对", 24], ["自摸", 1, 1]], hu=True, tai="3"))
    change("recorded score not an object", lambda g: hand(g)["outcome"]["wins"][0].update(score=27))
    change("win record from null", lambda g: hand(g)["outcome"]["wins"][0].update({"from": None}))
    change("penalty with deltas", lambda g: hand(g)["outcome"].update(
        penalties=[{"seat": 1, "kind": "x", "deltas": [1, -1, 0, 0]}]))
    change("seat walls", lambda g: hand(g).update(seat_walls=[["1m"], ["2m"], ["3m"], []]))
    change("wildcard indicator", lambda g: hand(g).update(wildcard_indicator="5z"))
    change("bad wildcard indicator", lambda g: hand(g).update(wildcard_indicator="5x"))
    change("dice", lambda g: hand(g).update(dice=[3, 4]))
    change("hand meta", lambda g: hand(g).update(meta={"round": [1, {"a": None}]}))
    change("platform null", lambda g: g.update(platform=None))
    change("hands empty", lambda g: g.update(hands=[]))
    change("no hands", lambda g: g.pop("hands"))
    change("options null", lambda g: g.update(options=None))
    change("scores of four", lambda g: g.update(initial_scores=[0, 0, 0, 0], final_scores=[105, -35, -35, -35]))
    change("meta kept", lambda g: g.update(meta={"match": 7}))
    # started_at: an ISO 8601 instant on the game and on each hand (mahjong_audit.schemas.instants)
    change("game started_at with offset", lambda g: g.update(started_at="2026-11-01T20:00:00+08:00"))
    change("game started_at a plain date", lambda g: g.update(started_at="2022-06-25"))
    change("game started_at without offset", lambda g: g.update(started_at="2026-11-01 12:30"))
    change("game started_at not a time", lambda g: g.update(started_at="yesterday"))
    change("game started_at week date", lambda g: g.update(started_at="2026-W44-7"))
    change("game started_at month 13", lambda g: g.update(started_at="2026-13-01"))
    change("game started_at a number", lambda g: g.update(started_at=1767225600))
    change("hand started_at", lambda g: hand(g).update(started_at="2026-11-01T12:05:00Z"))
    change("hand started_at not a time", lambda g: hand(g).update(started_at="soon"))
    change("hand started_at hour 25", lambda g: hand(g).update(started_at="2026-11-01T25:00:00Z"))
    change("hand started_at null", lambda g: hand(g).update(started_at=None))
    # seating and chips (龙港 at five; the base game is mcr, which seats four)
    change("five players in mcr", lambda g: g.update(players=["a", "b", "c", "d", "e"]))
    change("seats of four players", lambda g: hand(g).update(seats=[1, 0, 3, 2]))
    change("seats repeating a player", lambda g: hand(g).update(seats=[0, 0, 1, 2]))
    change("seats out of range", lambda g: hand(g).update(seats=[0, 1, 2, 4]))
    change("chips one per player", lambda g: hand(g).update(chips=[95, 95, 95, 95]))
    change("chips of three", lambda g: hand(g).update(chips=[95, 95, 95]))
    change("out_delta with four players", lambda g: hand(g)["outcome"].update(out_delta=10))
    return out


def started_at_reaches_the_rows_alike(fast_module) -> None:
    """A game's and a hand's started_at reach the rows the same through the fast path
    ``fast_module`` (which ``parse`` uses in the caller's test) as through the models."""
    game = win_game("g1")
    game["started_at"] = "2026-11-01T20:00:00+08:00"
    game["hands"][0]["started_at"] = "2026-11-01T12:05:00Z"
    rec = read.RawRecord("x.jsonl", 1, json.dumps(game))
    (fast,) = parse.parse_record(rec, fast=True)
    (model,) = parse.parse_record(rec)
    assert isinstance(fast.game, fast_module.Game) and isinstance(model.game, L.Game)
    assert fast.game.started_at == model.game.started_at == game["started_at"]
    assert fast.game.hands[0].started_at == model.game.hands[0].started_at == "2026-11-01T12:05:00Z"
    fast_rows = audit_rows(fast, audit_game(fast.game), "r1")
    assert fast_rows == audit_rows(model, audit_game(model.game), "r1")
    games = [r for r in fast_rows if isinstance(r, GameRow)]
    hands = [r for r in fast_rows if isinstance(r, HandRow)]
    assert games[0].started_at == datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    assert hands[0].started_at == datetime(2026, 11, 1, 12, 5, tzinfo=UTC)


def rejected_with_the_models_message() -> None:
    """A record the fast path rejects gets exactly the models' rejection."""
    bad = win_game("g1")
    bad["hands"][0]["events"][0]["tile"] = "10m"
    rec = read.RawRecord("x.jsonl", 3, json.dumps(bad))
    assert parse.parse_record(rec, fast=True) == parse.parse_record(rec)
    (rej,) = parse.parse_record(rec, fast=True)
    assert isinstance(rej, read.Rejection) and "hands[0].events[0].tile" in rej.message
