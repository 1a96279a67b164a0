"""Build small mahjong-log/1 games for tests from compact notation.

>>> h = hand(["5p123m456m789m1122z", "1112345678999p", "123456789s1234z", "123456789m5566z"],
...          "0 discard 5p", "1 win 5p from 0")
>>> h["events"][1]
{'seq': 2, 'type': 'win', 'seat': 1, 'tile': '5p', 'from': 0}

Event lines: ``SEAT TYPE [TILE] [TILES] [from N] [back] [rob] [claims S:call,S:call]``;
``TILES`` (for chi) is the two tiles from hand in compact notation.
"""

from __future__ import annotations

import copy
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.schemas.log import Game


def event(seq: int, line: str) -> dict[str, Any]:
    words = line.split()
    seat, kind = int(words[0]), words[1]
    ev: dict[str, Any] = {"seq": seq, "type": kind, "seat": seat}
    rest = words[2:]
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "from":
            ev["from"] = int(rest[i + 1]) if rest[i + 1] not in ("live", "back") else rest[i + 1]
            i += 2
            continue
        if w == "back":
            ev["from"] = "back"
        elif w == "rob":
            ev["robbing_kong"] = True
        elif w == "claims":
            ev["claims"] = [{"seat": int(c.split(":")[0]), "call": c.split(":")[1]} for c in rest[i + 1].split(",")]
            i += 2
            continue
        elif "tile" not in ev:
            ev["tile"] = w
        else:
            ev["tiles"] = T.names(T.parse(w))
        i += 1
    return ev


def hand(deal: list[str], *lines: str, hand_no: int = 0, dealer: int = 0, round_wind: str = "E",
         **extra: Any) -> dict[str, Any]:
    out = {
        "hand_no": hand_no, "round_wind": round_wind, "dealer": dealer,
        "deal": [T.names(T.parse(d)) for d in deal],
        "events": [event(i + 1, line) for i, line in enumerate(lines)],
    }
    out.update(extra)
    return out


def game(*hands: dict[str, Any], ruleset: str = "mcr", options: dict | None = None, game_id: str = "t-1",
         **extra: Any) -> dict[str, Any]:
    out = {"format": "mahjong-log/1", "game_id": game_id, "platform": "test", "ruleset": ruleset,
           "options": options or {}, "players": ["a", "b", "c", "d"], "hands": list(hands)}
    out.update(extra)
    return out


def wall_from_events(h: dict[str, Any]) -> list[str]:
    """The wall a hand's draws imply: live draws in order, then replacement draws from the far end."""
    live = [e["tile"] for e in h["events"] if e["type"] == "draw" and e.get("from", "live") == "live"]
    back = [e["tile"] for e in h["events"] if e["type"] == "draw" and e.get("from") == "back"]
    return live + back[::-1]


def with_outcomes(g: dict[str, Any]) -> dict[str, Any]:
    """Fill every hand's recorded outcome with what the engine computes (a clean record).
    A hand that ends without a win gets the wall its draws imply, so it is an exhaustive draw."""
    g = copy.deepcopy(g)
    for h in g["hands"]:
        h.pop("outcome", None)
        if "wall" not in h and not any(e["type"] == "win" for e in h["events"]):
            h["wall"] = wall_from_events(h)
    audit = audit_game(Game.model_validate(g))
    for h, facts in zip(g["hands"], audit.hands, strict=True):
        wins = []
        for w in facts.wins:
            if not w.legal:
                continue
            rec: dict[str, Any] = {"seat": w.seat, "tile": w.tile}
            if w.from_seat is not None:
                rec["from"] = w.from_seat
            if w.score is not None:
                rec["score"] = {"fans": [[i.name, i.value, i.count] for i in w.score.items], "total": w.score.total}
            wins.append(rec)
        h["outcome"] = {"result": "win" if wins else "draw", "wins": wins,
                        "deltas": list(facts.computed_deltas or (0, 0, 0, 0))}
    return g


def audit(g: dict[str, Any]):
    return audit_game(Game.model_validate(g))


def codes(g: dict[str, Any]) -> list[str]:
    return [f.code for f in audit(g).findings]


# A quick clean hand: the dealer discards 5p, seat 1 wins with 九莲宝灯 (1112345678999p).
NINE_GATES_DEAL = ["5p123m456m789m1122z", "1112345678999p", "123456789s1234z", "123456789m5566z"]


# ---------------------------------------------------------------- two games of the end-to-end corpus
# (tests/e2e.py): a dealer's seven-pairs self-draw, and a hand recorded as drawn with the wall unused

DRAW_DEAL = [
    ["9s", "7s", "6p", "7s", "4s", "1p", "4m", "3s", "2z", "6p", "2z", "2m", "2p"],
    ["7p", "1z", "4m", "6m", "4s", "4p", "6s", "2p", "1z", "3z", "6s", "5p", "4m"],
    ["4p", "9p", "3s", "1p", "4p", "8m", "5z", "1s", "3p", "9s", "3p", "3m", "3p"],
    ["5m", "7m", "1m", "7z", "5m", "2s", "1m", "8p", "3m", "7s", "1s", "6z", "5z"],
]
WIN_DEAL = [
    ["1m", "1m", "2m", "2m", "3m", "3m", "4m", "4m", "5p", "5p", "6p", "6p", "7p"],
    ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z"],
    ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z"],
    ["9m", "9m", "9m", "8m", "8m", "8m", "7m", "7m", "7m", "5z", "5z", "5z", "6z"],
]


def win_game(game_id: str, players=("ann", "bob", "cat", "dan")) -> dict:
    """Dealer self-draws 7p for seven pairs (七对 24 + 缺一门 + 无字 + 自摸 = 27 fan)."""
    return {
        "format": "mahjong-log/1", "game_id": game_id, "platform": "test", "ruleset": "mcr",
        "players": list(players),
        "hands": [{
            "hand_no": 0, "round_wind": "E", "dealer": 0, "deal": copy.deepcopy(WIN_DEAL),
            "events": [
                {"seq": 1, "type": "draw", "seat": 0, "tile": "7p"},
                {"seq": 2, "type": "win", "seat": 0, "tile": "7p", "from": 0},
            ],
            "outcome": {"result": "win",
                        "wins": [{"seat": 0, "from": 0, "tile": "7p", "score": {"total": 27}}],
                        "deltas": [105, -35, -35, -35]},
        }],
    }


def draw_game(game_id: str) -> dict:
    """Two events then a recorded exhaustive draw (the engine flags the unused wall)."""
    return {
        "format": "mahjong-log/1", "game_id": game_id, "ruleset": "mcr",
        "players": ["ann", "bob", "cat", "dan"],
        "hands": [{
            "hand_no": 0, "round_wind": "E", "dealer": 0, "deal": copy.deepcopy(DRAW_DEAL),
            "events": [
                {"seq": 1, "type": "draw", "seat": 0, "tile": "7z"},
                {"seq": 2, "type": "discard", "seat": 0, "tile": "9s"},
            ],
            "outcome": {"result": "draw", "deltas": [0, 0, 0, 0]},
        }],
    }
# A hand under MCR's 8-fan minimum: seat 1 wins on the dealer's 5s with fewer than 8 fan.
LOW_DEAL = ["5s123m789m11223z99p", "234m456p678s2345s", "123456789p1234z", "123456789m5566z"]

# 抢杠和: the dealer adds 5s to its pon, seat 1 robs it (its 46s waits on 5s).
ROB_DEAL = ["55s123m456m789m123z", "123p456p789p11z46s", "123456789m2345z", "111222333s777z9s"]
ROB_LINES = ("0 discard 1z", "1 draw 8m", "1 discard 8m", "2 draw 6m", "2 discard 6m", "3 draw 5s", "3 discard 5s",
             "0 pon 5s from 3", "0 discard 2z", "1 draw 7m", "1 discard 7m", "2 draw 9p", "2 discard 9p",
             "3 draw 4m", "3 discard 4m", "0 draw 5s", "0 added_kong 5s claims 1:win", "1 win 5s from 0 rob")
