"""Importer ``botzone-txt``: the Botzone / IJCAI Chinese Standard Mahjong dataset (``data.txt``).

One game is a block of lines (``Match``, ``Wind``, four ``Deal`` lines, the play, then
``Fan``/``Score`` or ``Huang``/``Score``), blocks separated by blank lines; a record is
one block and names the line of its ``Match``. Mapping (see docs/importers.md):

* ``Player N`` sits in seat N, seat 0 deals; ``Wind 0..3`` is the round wind E, S, W, N
  (the dataset README says E, N, W, S; the recorded 圈风刻/门风刻 say otherwise).
* ``Draw`` after a kong is the replacement draw (``from: back``).
* ``Chi X`` names the middle tile; the claimed tile is the previous ``Play``.
* ``Ignore Player M <call> X`` clauses are declarations that lost on priority: they
  become ``claims`` of the discard (or added kong) together with the call carried out;
  their tiles are kept in the hand's ``meta.ignored``.
* A self-drawn ``Hu`` repeats the last *discard*; the winning tile is the seat's draw
  just before it (the tile printed is kept in ``meta.hu_line_tile``).
* Botzone plays without flowers and every seat draws from its own wall of 21 tiles
  after the deal, so games get options ``{"flowers": false, "seat_wall_size": 21}``, plus
  ``"knitted_waits": "botzone"`` for its judge's 组合龙 waits (``common.BOTZONE_OPTIONS``).
* ``Fan`` lists names and counts only: values come from the MCR catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from mahjong_audit.pipeline.importers.base import (
    Importer,
    ImportFailure,
    OverLimit,
    Record,
    blank_line_blocks,
)
from mahjong_audit.pipeline.importers.common import (
    BOTZONE_OPTIONS,
    CALLS,
    Events,
    add_claims,
    botzone_tile,
    chi_tiles,
    fan_value,
    seat_list,
)
from mahjong_audit.pipeline.lines import Line
from mahjong_audit.schemas.instants import object_id_time

WINDS = "ESWN"


class BotzoneTxt(Importer):
    name = "botzone-txt"
    # No suffix claim: directories are full of README.txt files, so a data.txt is read
    # when named explicitly (then detected by sniff, or chosen with --from botzone-txt).
    suffixes = ()

    def sniff(self, source: str, head: str) -> bool:
        first = head.lstrip().split("\n", 2)
        return len(first) >= 2 and first[0].startswith("Match ") and first[1].startswith("Wind ")

    def records(self, source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
        return blank_line_blocks(source, lines)

    def convert(self, record: Record) -> list[dict[str, Any]]:
        first = record.text.split("\n", 1)[0].split()
        try:
            return [_Game(record).build()]
        except ImportFailure as e:
            if len(first) == 2 and first[0] == "Match":
                raise ImportFailure(f"match {first[1]}: {e}") from None
            raise


class _Game:
    def __init__(self, record: Record):
        self.lines = record.text.split("\n")
        self.record = record
        self.ev = Events()
        self.prev: tuple[str, int, str] | None = None  # (verb, seat, tile) of the last Player line
        self.last_discard: tuple[int, str, dict[str, Any]] | None = None
        self.last_added_kong: dict[str, Any] | None = None
        self.owes_back: set[int] = set()
        self.last_draw: dict[int, str] = {}
        self.ignored: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self.hu_line_tile: str | None = None

    def fail(self, i: int, why: str) -> ImportFailure:
        return ImportFailure(f"line {self.record.line + i}: {why}: {self.lines[i]!r}")

    def build(self) -> dict[str, Any]:
        if len(self.lines) < 6 or not self.lines[0].startswith("Match "):
            raise ImportFailure("a game starts with 'Match <id>', 'Wind <n>' and four Deal lines")
        match_id = self.lines[0].split()[1] if len(self.lines[0].split()) == 2 else None
        if not match_id:
            raise self.fail(0, "bad Match line")
        parts = self.lines[1].split()
        if len(parts) != 2 or parts[0] != "Wind" or parts[1] not in ("0", "1", "2", "3"):
            raise self.fail(1, "expected 'Wind 0..3'")
        wind = int(parts[1])
        deal: list[list[str]] = []
        for s in range(4):
            p = self.lines[2 + s].split()
            if p[:3] != ["Player", str(s), "Deal"] or len(p) != 16:
                raise self.fail(2 + s, f"expected 'Player {s} Deal' and 13 tiles")
            deal.append([self.tile(2 + s, x) for x in p[3:]])
        i = 6
        while i < len(self.lines):
            self.line(i)
            i += 1
        if self.outcome is None:
            raise ImportFailure("the game has no result (Fan/Score or Huang/Score)")
        hand_meta: dict[str, Any] = {}
        if self.ignored:
            hand_meta["ignored"] = self.ignored
        if self.hu_line_tile is not None:
            hand_meta["hu_line_tile"] = self.hu_line_tile
        hand: dict[str, Any] = {
            "hand_no": 0, "round_wind": WINDS[wind], "dealer": 0, "deal": deal,
            "events": self.ev.items, "outcome": self.outcome,
        }
        if hand_meta:
            hand["meta"] = hand_meta
        game: dict[str, Any] = {
            "format": "mahjong-log/1", "game_id": f"botzone-{match_id}", "platform": "botzone",
            "ruleset": "mcr", "options": dict(BOTZONE_OPTIONS), "hands": [hand],
            "meta": {"match_id": match_id, "source": "botzone-txt", "wind": wind},
        }
        created = object_id_time(match_id)  # a match id is an ObjectId: its creation time
        if created:
            game["started_at"] = created
        return game

    def tile(self, i: int, text: str) -> str:
        try:
            return botzone_tile(text)
        except ImportFailure as e:
            raise self.fail(i, str(e)) from None

    # ------------------------------------------------------------------ lines
    def line(self, i: int) -> None:
        text = self.lines[i]
        p = text.split()
        if p[0] == "Huang":
            self.outcome = {"result": "draw", "wins": []}
            return
        if p[0] == "Fan":
            self.fan_line(i, text)
            return
        if p[0] == "Score":
            if self.outcome is None:
                raise self.fail(i, "Score before Fan/Huang")
            self.outcome["deltas"] = seat_list(p[1:], "Score")
            return
        if p[0] != "Player" or len(p) < 4 or p[1] not in ("0", "1", "2", "3"):
            raise self.fail(i, "not a Player/Fan/Score/Huang line")
        if self.outcome is not None:
            raise self.fail(i, "play after the result")
        seat, verb, tile = int(p[1]), p[2], self.tile(i, p[3])
        claims = self.ignores(i, p[4:], seat)
        handler = getattr(self, "on_" + verb.lower(), None)
        if handler is None:
            raise self.fail(i, f"unknown action {verb!r}")
        handler(i, seat, tile, claims)
        self.prev = (verb.lower(), seat, tile)

    def ignores(self, i: int, rest: list[str], seat: int) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        if len(rest) % 5:
            raise self.fail(i, "an Ignore clause is 'Ignore Player <n> <call> <tile>'")
        for k in range(0, len(rest), 5):
            word, pl, who, call, t = rest[k:k + 5]
            if word != "Ignore" or pl != "Player" or who not in ("0", "1", "2", "3") or call.lower() not in CALLS:
                raise self.fail(i, "bad Ignore clause")
            out.append((int(who), CALLS[call.lower()]))
            self.ignored.append({"seq": None, "seat": int(who), "call": CALLS[call.lower()], "tile": self.tile(i, t)})
        return out

    def claim_window(self, i: int, claims: list[tuple[int, str]], who: int, call: str) -> tuple[int, str]:
        """Put the declared claims on the last discard; return (discarder, tile)."""
        if self.last_discard is None or self.prev is None or self.prev[0] != "play":
            raise self.fail(i, "a call needs a Play just before it")
        discarder, dtile, dev = self.last_discard
        add_claims(dev, [*claims, (who, call)], discarder)
        for ig in self.ignored:
            if ig["seq"] is None:
                ig["seq"] = dev["seq"]
        return discarder, dtile

    def on_draw(self, i: int, seat: int, tile: str, claims: list) -> None:
        self.no_claims(i, claims)
        back = seat in self.owes_back
        self.owes_back.discard(seat)
        self.ev.add("draw", seat, tile=tile, from_="back" if back else None)
        self.last_draw[seat] = tile

    def on_play(self, i: int, seat: int, tile: str, claims: list) -> None:
        self.no_claims(i, claims)
        ev = self.ev.add("discard", seat, tile=tile)
        self.last_discard = (seat, tile, ev)

    def on_chi(self, i: int, seat: int, tile: str, claims: list) -> None:
        discarder, dtile = self.claim_window(i, claims, seat, "chi")
        try:
            own = chi_tiles(tile, dtile)
        except ImportFailure as e:
            raise self.fail(i, str(e)) from None
        self.ev.add("chi", seat, tile=dtile, tiles=own, from_=discarder)

    def on_peng(self, i: int, seat: int, tile: str, claims: list) -> None:
        discarder, dtile = self.claim_window(i, claims, seat, "pon")
        self.same(i, tile, dtile)
        self.ev.add("pon", seat, tile=dtile, from_=discarder)

    def on_gang(self, i: int, seat: int, tile: str, claims: list) -> None:
        discarder, dtile = self.claim_window(i, claims, seat, "kong")
        self.same(i, tile, dtile)
        self.ev.add("kong", seat, tile=dtile, from_=discarder)
        self.owes_back.add(seat)

    def on_angang(self, i: int, seat: int, tile: str, claims: list) -> None:
        self.no_claims(i, claims)
        self.ev.add("concealed_kong", seat, tile=tile)
        self.owes_back.add(seat)

    def on_bugang(self, i: int, seat: int, tile: str, claims: list) -> None:
        self.no_claims(i, claims)
        self.last_added_kong = self.ev.add("added_kong", seat, tile=tile)
        self.owes_back.add(seat)

    def on_hu(self, i: int, seat: int, tile: str, claims: list) -> None:
        prev = self.prev
        if prev is None:
            raise self.fail(i, "Hu before any play")
        if prev[0] == "draw" and prev[1] == seat:
            self.no_claims(i, claims)
            win_tile = self.last_draw[seat]
            self.hu_line_tile = tile
            self.ev.add("win", seat, tile=win_tile, from_=seat)
            frm = seat
        elif prev[0] == "bugang" and prev[1] != seat and self.last_added_kong is not None:
            self.same(i, tile, prev[2])
            add_claims(self.last_added_kong, [*claims, (seat, "win")], prev[1])
            for ig in self.ignored:
                if ig["seq"] is None:
                    ig["seq"] = self.last_added_kong["seq"]
            win_tile, frm = prev[2], prev[1]
            self.ev.add("win", seat, tile=win_tile, from_=frm, robbing_kong=True)
        else:
            frm, win_tile = self.claim_window(i, claims, seat, "win")
            self.same(i, tile, win_tile)
            self.ev.add("win", seat, tile=win_tile, from_=frm)
        self.outcome = {"result": "win", "wins": [{"seat": seat, "from": frm, "tile": win_tile}]}

    def fan_line(self, i: int, text: str) -> None:
        if self.outcome is None or self.outcome["result"] != "win":
            raise self.fail(i, "Fan without a Hu")
        p = text.split(maxsplit=2)
        if len(p) != 3 or not p[1].isdigit():
            raise self.fail(i, "expected 'Fan <total> <name>*<count>+…'")
        fans = []
        for item in p[2].split("+"):
            name, star, count = item.partition("*")
            if not star or not count.isdigit():
                raise self.fail(i, f"bad fan item {item!r}")
            try:
                fans.append([name, fan_value(name), int(count)])
            except ImportFailure as e:
                raise self.fail(i, str(e)) from None
        self.outcome["wins"][0]["score"] = {"fans": fans, "total": int(p[1])}

    def no_claims(self, i: int, claims: list) -> None:
        if claims:
            raise self.fail(i, "Ignore clauses only follow a call or a win on a discard")

    def same(self, i: int, tile: str, expected: str) -> None:
        if tile != expected:
            raise self.fail(i, f"the tile should be {expected}")
