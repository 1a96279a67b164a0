"""Importer ``pmn``: Portable Majiang Notation (mahjongsoft.com duplicate-MCR replays).

A PMN game is a block of tag lines ``[Name "value"]``; blocks are separated by blank
lines and one block is one record. Mapping (see docs/importers.md):

* Seats 0..3 are East, South, West, North (``[East]`` … name the players); East deals.
  ``[PWind]`` is the round wind.
* ``[Deal]`` gives each seat's 13 tiles as ``c…d…b…w…r…f…`` groups: c = characters (m),
  d = dots (p), b = bamboo (s), w1..w4 = E S W N, r1..r3 = 中 发 白 (7z 6z 5z; no fan in
  the stored games tells the dragons apart, so this order is an assumption), f = flowers.
* ``[Play]`` is a string of tokens ``<action><seat>[<tile>]``: T take (draw), D discard
  (``z1`` = the tile just taken), C chi (tile = the sequence's middle), P pon, Z kong on a
  discard, A concealed kong, B added kong, R flower set aside, H win, N no game
  (exhaustive draw). The take after Z/A/B/R is a replacement draw (``from: back``).
* ``[Fan]`` per seat: ``None`` or ``no/value/count`` items joined by ``.``; ``no`` is the
  fan's number in the official list (1 大四喜 … 81 花牌, 82 明暗杠). A value that
  disagrees with the catalogue for that number is rejected (it would mean a wrong table).
* ``[Starting]``/``[Result]`` become initial/final scores; the hand's deltas are their
  difference. ``[Penalty]`` and the other tags are kept in ``meta``.
* mahjongsoft lets several players win on one discard (example_2.pmn) and does not
  document how such a hand is paid, so every PMN game gets options
  ``{"multiple_winners": true, "multiple_win_payout": "unknown"}`` (and
  ``"flowers": false`` when no flower appears).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

from mahjong_audit.engine.rulesets.mcr_fans import FAN_BY_ZH
from mahjong_audit.pipeline.importers.base import (
    Importer,
    ImportFailure,
    OverLimit,
    Record,
    blank_line_blocks,
)
from mahjong_audit.pipeline.importers.common import Events, chi_tiles, seat_list
from mahjong_audit.pipeline.lines import Line
from mahjong_audit.schemas.instants import InstantError, parse_instant

#: the official MCR fan list in its numbered order (1-based); 82 is 明暗杠
FAN_NUMBERS: tuple[str, ...] = (
    "大四喜", "大三元", "绿一色", "九莲宝灯", "四杠", "连七对", "十三幺",
    "清幺九", "小四喜", "小三元", "字一色", "四暗刻", "一色双龙会",
    "一色四同顺", "一色四节高",
    "一色四步高", "三杠", "混幺九",
    "七对", "七星不靠", "全双刻", "清一色", "一色三同顺", "一色三节高", "全大", "全中", "全小",
    "清龙", "三色双龙会", "一色三步高", "全带五", "三同刻", "三暗刻",
    "全不靠", "组合龙", "大于五", "小于五", "三风刻",
    "花龙", "推不倒", "三色三同顺", "三色三节高", "无番和", "妙手回春", "海底捞月", "杠上开花", "抢杠和",
    "碰碰和", "混一色", "三色三步高", "五门齐", "全求人", "双暗杠", "双箭刻",
    "全带幺", "不求人", "双明杠", "和绝张",
    "箭刻", "圈风刻", "门风刻", "门前清", "平和", "四归一", "双同刻", "双暗刻", "暗杠", "断幺",
    "一般高", "喜相逢", "连六", "老少副", "幺九刻", "明杠", "缺一门", "无字", "边张", "嵌张", "单钓将",
    "自摸", "花牌",
    "明暗杠",
)

SUITS = {"c": "m", "d": "p", "b": "s"}
HONOURS = {"w1": "1z", "w2": "2z", "w3": "3z", "w4": "4z", "r1": "7z", "r2": "6z", "r3": "5z"}
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
TOKEN = re.compile(r"([TDCPABZRHN])([0-3])((?:[cdbwrfz])[1-9])?")
WINDS = ("E", "S", "W", "N")
TAKEN = "z1"  # a discard of the tile just taken


def pmn_tile(text: str) -> str:
    s, n = text[0], text[1:]
    if s in SUITS and n in "123456789" and len(n) == 1:
        return n + SUITS[s]
    if text in HONOURS:
        return HONOURS[text]
    if s == "f" and n in "12345678" and len(n) == 1:
        return n + "f"
    raise ImportFailure(f"{text!r} is not a PMN tile")


def parse_deal(text: str) -> list[str]:
    out: list[str] = []
    suit = None
    for ch in text:
        if ch in "cdbwrf":
            suit = ch
        elif ch.isdigit() and suit is not None:
            out.append(pmn_tile(suit + ch))
        else:
            raise ImportFailure(f"deal {text!r}: unexpected {ch!r}")
    return out


def parse_fans(text: str, seat: int) -> tuple[list[list[Any]], int] | None:
    if text == "None":
        return None
    fans: list[list[Any]] = []
    for item in text.split("."):
        parts = item.split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ImportFailure(f"Fan of seat {seat}: bad item {item!r} (expected no/value/count)")
        no, value, count = map(int, parts)
        if not 1 <= no <= len(FAN_NUMBERS):
            raise ImportFailure(f"Fan of seat {seat}: no fan number {no}")
        name = FAN_NUMBERS[no - 1]
        if FAN_BY_ZH[name].value != value:
            raise ImportFailure(f"Fan of seat {seat}: number {no} is {name} worth {FAN_BY_ZH[name].value}, "
                                f"the record says {value}")
        fans.append([name, value, count])
    return fans, sum(v * c for _, v, c in fans)


class Pmn(Importer):
    name = "pmn"
    suffixes = (".pmn",)

    def sniff(self, source: str, head: str) -> bool:
        h = head.lstrip()
        return h.startswith("[") and '[Deal "' in h and ("[Play " in h or source.lower().endswith(".pmn"))

    def records(self, source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
        return blank_line_blocks(source, lines)

    def convert(self, record: Record) -> list[dict[str, Any]]:
        tags: dict[str, str] = {}
        for k, line in enumerate(record.text.split("\n")):
            m = TAG.match(line)
            if not m:
                raise ImportFailure(f"line {record.line + k}: not a [Tag \"value\"] line: {line!r}")
            tags[m.group(1)] = m.group(2)
        for need in ("Deal", "Play"):
            if need not in tags:
                raise ImportFailure(f"no [{need}] tag")
        return [_Game(tags).build()]


class _Game:
    def __init__(self, tags: dict[str, str]):
        self.tags = tags
        self.ev = Events()
        self.taken: dict[int, str] = {}
        self.owes_back: set[int] = set()
        self.last_discard: dict[str, Any] | None = None
        self.last_added_kong: dict[str, Any] | None = None
        self.prev: tuple[str, int] | None = None
        self.winners: list[tuple[int, int, str]] = []  # (seat, from, tile)
        self.drawn_game = False
        self.flowers = False

    def build(self) -> dict[str, Any]:
        t = self.tags
        hands = t["Deal"].split()
        if len(hands) != 4:
            raise ImportFailure(f"[Deal] has {len(hands)} hands, expected 4")
        deal = [parse_deal(h) for h in hands]
        self.flowers = any(x.endswith("f") for h in deal for x in h)
        self.play(t["Play"])
        pwind = t.get("PWind", "E")
        if pwind not in WINDS:
            raise ImportFailure(f"[PWind] {pwind!r} is not E/S/W/N")
        starting = seat_list(t.get("Starting", "0 0 0 0").split(), "[Starting]")
        outcome: dict[str, Any] = {"result": "draw" if not self.winners else "win", "wins": []}
        fans = t.get("Fan", "None None None None").split()
        if len(fans) != 4:
            raise ImportFailure(f"[Fan] has {len(fans)} entries, expected 4")
        scored = {s: parse_fans(fans[s], s) for s in range(4)}
        won = {s for s, _, _ in self.winners}
        if {s for s, v in scored.items() if v is not None} - won:
            raise ImportFailure("[Fan] scores a seat that did not win")
        for seat, frm, tile in self.winners:
            win: dict[str, Any] = {"seat": seat, "from": frm, "tile": tile}
            sc = scored[seat]
            if sc is not None:
                items, total = sc
                win["score"] = {"fans": items, "total": total}
            outcome["wins"].append(win)
        game: dict[str, Any] = {
            "format": "mahjong-log/1", "game_id": self.game_id(), "platform": "mahjongsoft",
            "ruleset": "mcr", "options": self.options(),
            "players": [t.get(w, "") for w in ("East", "South", "West", "North")],
            "initial_scores": starting,
        }
        if "Result" in t:
            result = seat_list(t["Result"].split(), "[Result]")
            outcome["deltas"] = [r - s for r, s in zip(result, starting, strict=True)]
            game["final_scores"] = result
        hand = {"hand_no": 0, "round_wind": pwind, "dealer": 0, "deal": deal, "events": self.ev.items,
                "outcome": outcome}
        game["hands"] = [hand]
        game["meta"] = {"source": "pmn", "tags": {k: v for k, v in t.items() if k not in ("Deal", "Play")}}
        date = t.get("Date", "").replace(".", "-")
        try:  # PGN-style dates may be partly unknown ("2022.??.??"): then the game has no time
            parse_instant(date)
        except InstantError:
            pass
        else:
            game["started_at"] = date
        return game

    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"multiple_winners": True, "multiple_win_payout": "unknown"}
        if not self.flowers:
            opts["flowers"] = False
        return opts

    def game_id(self) -> str:
        site = self.tags.get("Site", "")
        q = parse_qs(urlparse(site).query)
        if all(k in q for k in ("session", "game", "table")):
            return f"mahjongsoft-{q['session'][0]}-g{q['game'][0]}-t{q['table'][0]}"
        date = self.tags.get("Date", "undated").replace(".", "")
        return f"pmn-{date}-board{self.tags.get('Board', '0')}"

    # ------------------------------------------------------------------ play
    def play(self, text: str) -> None:
        pos = 0
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m:
                raise ImportFailure(f"[Play] position {pos}: cannot read {text[pos:pos + 8]!r}")
            action, seat, tile = m.group(1), int(m.group(2)), m.group(3)
            self.token(pos, action, seat, tile)
            self.prev = (action, seat)
            pos = m.end()

    def token(self, pos: int, action: str, seat: int, raw: str | None) -> None:
        where = f"[Play] position {pos} ({action}{seat}{raw or ''})"
        if self.drawn_game or (self.winners and action != "H"):
            raise ImportFailure(f"{where}: play after the end of the hand")
        needs_tile = action not in ("H", "N")
        if needs_tile != (raw is not None):
            raise ImportFailure(f"{where}: {'a tile is missing' if needs_tile else 'unexpected tile'}")
        if raw == TAKEN:
            if action != "D" or seat not in self.taken:
                raise ImportFailure(f"{where}: z1 names the tile just taken, and there is none")
            tile: str | None = self.taken.pop(seat)
        else:
            tile = pmn_tile(raw) if raw else None
        if action == "T":
            back = seat in self.owes_back
            self.owes_back.discard(seat)
            self.ev.add("draw", seat, tile=tile, from_="back" if back else None)
            self.taken = {seat: tile} if tile is not None else {}
        elif action == "D":
            self.last_discard = self.ev.add("discard", seat, tile=tile)
            self.taken.pop(seat, None)
        elif action in ("C", "P", "Z"):
            ld = self.last_discard
            if ld is None or self.prev is None or self.prev[0] != "D":
                raise ImportFailure(f"{where}: a call needs a discard just before it")
            if action == "C":
                if tile is None:
                    raise ImportFailure(f"{where}: a tile is missing")
                self.ev.add("chi", seat, tile=ld["tile"], tiles=chi_tiles(tile, ld["tile"]), from_=ld["seat"])
            else:
                if tile != ld["tile"]:
                    raise ImportFailure(f"{where}: the discard is {ld['tile']}")
                self.ev.add("pon" if action == "P" else "kong", seat, tile=tile, from_=ld["seat"])
                if action == "Z":
                    self.owes_back.add(seat)
        elif action == "A":
            self.ev.add("concealed_kong", seat, tile=tile)
            self.owes_back.add(seat)
        elif action == "B":
            self.last_added_kong = self.ev.add("added_kong", seat, tile=tile)
            self.owes_back.add(seat)
        elif action == "R":
            self.ev.add("flower", seat, tile=tile)
            self.flowers = True
            self.owes_back.add(seat)
        elif action == "H":
            self.win(where, seat)
        elif action == "N":
            self.drawn_game = True

    def win(self, where: str, seat: int) -> None:
        prev = self.prev
        if prev is None:
            raise ImportFailure(f"{where}: a win before any play")
        if prev == ("T", seat):
            tile = self.taken[seat]
            self.ev.add("win", seat, tile=tile, from_=seat)
            self.winners.append((seat, seat, tile))
        elif prev[0] == "B" and self.last_added_kong is not None and prev[1] != seat:
            tile, frm = self.last_added_kong["tile"], prev[1]
            self.ev.add("win", seat, tile=tile, from_=frm, robbing_kong=True)
            self.winners.append((seat, frm, tile))
        elif prev[0] in ("D", "H") and self.last_discard is not None:
            tile, frm = self.last_discard["tile"], self.last_discard["seat"]
            if prev[0] == "H" and (any(w[1] == w[0] for w in self.winners) or frm == seat):
                raise ImportFailure(f"{where}: a second win after a self-drawn win")
            self.ev.add("win", seat, tile=tile, from_=frm)
            self.winners.append((seat, frm, tile))
        else:
            raise ImportFailure(f"{where}: a win after {prev[0]}{prev[1]}: no tile to win on")
