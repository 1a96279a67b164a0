"""龙港麻将 builders shared by the longgang test modules (not tests): hands built event by event
with :class:`HandBuilder` and audited; the logged wall of a hand; score situations in compact
notation and views of a score; the sample game with five players."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.engine.rulesets.longgang import COPIES, Longgang
from mahjong_audit.schemas import log as L

# Deals (dealer = seat 0 gets 17). 财神 indicator 5p: the other three 5p are wild.
# seat 1 waits on 中 (single wait); seat 0 holds 东 and 西 and 发 triplets.
DEAL = (
    "111z2z333z4z666z7z9m9p123s",  # seat 0, 17 tiles
    "123m456m789p123s456s7z",  # seat 1: waits on 7z
    "234m567m234p678p88s9s1p",  # seat 2
    "345m678m346p789s22z1p9s",  # seat 3
)


class HandBuilder:
    """Builds one hand of a longgang log event by event (seq numbers, turn bookkeeping).

    ``idle(n)`` plays n plain turns: the seat to move draws a filler tile and discards it.
    Fillers come from the tiles not yet used, never wild, never a flower, never in ``keep``.
    """

    def __init__(self, deal=DEAL, indicator="5p", dealer=0, keep=""):
        self.deal = [T.names(T.parse(d)) for d in deal]
        self.indicator = indicator
        self.dealer = dealer
        self.events: list[dict] = []
        self.turn = dealer
        self.pool = list(COPIES)
        for hand in self.deal:
            for t in hand:
                self.pool[T.tile(t)] -= 1
        self.pool[T.tile(indicator)] -= 1
        self.keep = set(T.parse(keep)) | set(Longgang().wild_tiles(0, 0, T.tile(indicator))) | {T.tile(indicator)}

    def ev(self, type_: str, seat: int, **kw) -> HandBuilder:
        self.events.append({"seq": len(self.events), "type": type_, "seat": seat, **kw})
        return self

    def take(self, tile: str) -> str:
        self.pool[T.tile(tile)] -= 1
        return tile

    def filler(self) -> str:
        for t in range(34):
            if self.pool[t] > 0 and t not in self.keep and t not in (T.tile("5z"),):
                return self.take(T.name(t))
        raise RuntimeError("out of filler tiles")

    def draw(self, seat: int, tile: str | None = None, back: bool = False) -> HandBuilder:
        tile = self.take(tile) if tile else self.filler()
        self.last = tile
        return self.ev("draw", seat, tile=tile, **({"from": "back"} if back else {}))

    def discard(self, seat: int, tile: str, claims=None) -> HandBuilder:
        self.turn = (seat + 1) % 4
        return self.ev("discard", seat, tile=tile, **({"claims": claims} if claims else {}))

    def idle(self, n: int) -> HandBuilder:
        for _ in range(n):
            s = self.turn
            self.draw(s)
            self.discard(s, self.last)
        return self

    def win(self, seat: int, tile: str, frm: int, **kw) -> HandBuilder:
        return self.ev("win", seat, tile=tile, **{"from": frm}, **kw)

    def hand(self, hand_no=0, outcome=None) -> dict:
        h = {"hand_no": hand_no, "round_wind": "E", "dealer": self.dealer, "wildcard_indicator": self.indicator,
             "deal": self.deal, "events": self.events}
        if outcome is not None:
            h["outcome"] = outcome
        return h


def game(*hands: dict, options=None) -> L.Game:
    return L.parse_game({"format": "mahjong-log/1", "game_id": "lg-test", "ruleset": "longgang",
                         "options": options or {}, "hands": list(hands)})


def audit(*hands: dict, options=None):
    return audit_game(game(*hands, options=options))


def codes(result) -> list[str]:
    return [f.code for f in result.findings if not f.code.startswith("outcome_mismatch/missing")]


def clean_win() -> HandBuilder:
    """Dealer discards 2z; three idle turns; the dealer draws and discards 7z; seat 1 wins on it."""
    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z").idle(3)
    b.draw(0).discard(0, "7z").win(1, "7z", 0)
    return b


# the dealer holds single 东 (its wind) and single 中; seat 1 waits on 中 (包三家's hands)
LIABLE_DEAL = (
    "1z7z234m567m234p567p111s",  # dealer: single 东 (its wind) and single 中
    "123m456m789p123s456s7z",  # seat 1 waits on 中
    "234m567m234p678p88s9s1p",
    "345m678m346p789s22z1p9s",
)

# ---------------------------------------------------------------- the logged wall of a hand (the 河底 and seabed tests)

DRAWABLE = 50  # 136 − 4 × 16 − 1 (dealer) − 1 (indicator) − 20 (王牌)
WALL = 70  # the wall after the deal and the indicator


def play_log(*hands: dict, options=None) -> dict:
    """The log of the wall tests (players named; :func:`game` parses one without them)."""
    return {"format": "mahjong-log/1", "game_id": "lg-play", "ruleset": "longgang", "options": options or {},
            "players": ["a", "b", "c", "d"], "hands": list(hands)}


def run(*hands: dict, options=None):
    return audit_game(L.parse_game(play_log(*hands, options=options)))


def draws(b: HandBuilder, back: bool) -> list[str]:
    return [e["tile"] for e in b.events if e["type"] == "draw" and (e.get("from") == "back") == back]


def with_wall(b: HandBuilder, seabed_end: tuple[int, str] | None = None) -> dict:
    """The hand with a full logged wall: live draws in order, replacement draws from the far end;
    ``seabed_end`` = (position, tile) of a replacement taken from the seabed's end instead."""
    live, back = draws(b, False), draws(b, True)
    if seabed_end is not None:
        back.remove(seabed_end[1])
    rest = [T.name(t) for t in range(T.N_TILES) for _ in range(max(0, b.pool[t]))]
    wall = live + rest
    if seabed_end is not None:
        wall.insert(seabed_end[0], seabed_end[1])
    h = b.hand()
    h["wall"] = wall + back[::-1]
    assert len(h["wall"]) == WALL
    return h


def left(b: HandBuilder, dead_wall: int = 20) -> int:
    """Drawable tiles (seabed included) left after the events so far (no seabed-end draws)."""
    return DRAWABLE + 20 - dead_wall - len(draws(b, False)) - len(draws(b, True))


def idle_until(b: HandBuilder, n_left: int, dead_wall: int = 20) -> HandBuilder:
    while left(b, dead_wall) > n_left:
        b.idle(1)
    return b

# ---------------------------------------------------------------- score situations and views of a score

def sit(concealed: str, win: str, melds=(), *, self_drawn=False, seat_wind=0, indicator="5p", flowers="",
        kong=False, **extra) -> WinSituation:
    ex = {"indicator": indicator, **extra}
    return WinSituation(T.parse(concealed), tuple(melds), T.tile(win), self_drawn, seat_wind=seat_wind,
                        flowers=T.parse(flowers) if flowers else (), kong=kong, extra=tuple(sorted(ex.items())))


def names(score, unit=None) -> dict[str, int]:
    return {i.name: i.value * i.count for i in score.items if unit is None or i.unit == unit}


def reading_sit(concealed: str, win: str, melds=(), *, indicator="9s", **kw) -> WinSituation:
    """As :func:`sit`, with a 财神 kind (9s) none of the reading tests' hands holds by default."""
    return sit(concealed, win, melds, indicator=indicator, **kw)


WAIT_ITEMS = ("自摸卡档", "自摸", "卡档", "边张", "单吊", "自摸单吊")


def wait_bonus(score) -> dict[str, int]:
    return {k: v for k, v in names(score, "hu").items() if k in WAIT_ITEMS}


def key(score) -> tuple[int, int, int]:
    d = dict(score.details)
    return (score.total, int(d["tai"]), int(d["hu"]))

# ---------------------------------------------------------------- five players (sample_logs/longgang-clean.json seated for five)

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FIVE = ["甲", "乙", "丙", "丁", "戊"]


def four_player_sample() -> dict[str, Any]:
    """sample_logs/longgang-clean.json: hand 0 seat 1 (a non-dealer) wins, hand 1 is drawn."""
    return json.loads((SAMPLES / "longgang-clean.json").read_text(encoding="utf-8"))


def five_player(seats1: list[int] | None = None) -> dict[str, Any]:
    """The same two hands with five players: 戊 stands out in hand 0; the non-dealer's win
    passes the deal, so in hand 1 戊 takes the old dealer's seat 0 and 甲 stands out."""
    g = four_player_sample()
    g["players"] = FIVE
    g["hands"][0]["seats"] = [0, 1, 2, 3]
    g["hands"][1]["seats"] = seats1 if seats1 is not None else [4, 1, 2, 3]
    g["initial_scores"] = [100] * 5
    g["final_scores"] = [124, 138, 69, 69, 100]
    return g


def with_false_win(g: dict[str, Any], seat: int) -> dict[str, Any]:
    """Hand 1 with ``seat`` declaring a win on the first discard (seat 1's 东): 诈胡."""
    g = copy.deepcopy(g)
    events = g["hands"][1]["events"]
    first = events[0]
    events.insert(1, {"seq": 0, "type": "win", "seat": seat, "tile": first["tile"], "from": first["seat"]})
    for i, ev in enumerate(events):
        ev["seq"] = i
    return g
