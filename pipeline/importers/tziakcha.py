"""Importer ``tziakcha``: a 雀渣 (tziakcha.net) session, one MCR game of several hands.

A file holds one session object (``sessionId``, ``players``, ``records``, ``raw``) or one
record alone (``id``, ``step``); either is one record of the importer. Mapping (see
docs/importers.md, where each fact below is checked against the stored session):

* Tile ids 0..143: kind = id // 4 in the order 1-9m, 1-9s, 1-9p, E S W N, 中 发 白
  (``KINDS``); 136..143 are the eight flowers. ``step.w`` is the 144-tile wall, two hex
  digits a tile, in the platform's ring order.
* The dice ``step.d`` (four nibbles, low first: a1 a2 b1 b2) break the wall: wall
  ``(1 - (a1 + a2)) mod 4`` of four walls of 36, ``a1 + a2 + b1 + b2`` stacks of two in,
  so the deal starts at ring position ``S = 36·wall + 2·(a1+a2+b1+b2)`` (mod 144). The deal
  is three rounds of four tiles per seat from the dealer on, one more each, and the
  dealer's 14th tile (``S + 52``); live draws go on from ``S + 53``, replacement draws
  (flowers, kongs) come from the other end, ``S - 2, S - 1, S - 4, S - 3, …`` (each stack of
  two top first). The hand's ``wall`` lists the live tiles in draw order and then the
  replacement tiles, last one first, as the log format wants (replacements from its far end).
* ``step.i`` = hand number in the session: round wind ``(i // 4) % 4``, dealer ``i % 4``.
  ``step.p[j]`` is the player with seat wind j; in the log, table seat ``(dealer + j) % 4``,
  and ``seats`` names the session player sitting there (players change seats each round).
* Actions ``step.a`` = ``[seat << 4 | type, data, ms]`` with the step's seat: 1 flower
  (``data & 0xff`` the tile drawn for it, ``(data >> 8) & 15`` + 136 the flower) → ``flower``
  and a ``draw`` from the back; 2 discard (``data & 0xff``); 3 chi (``base = (data & 0x3f) << 2`` is the middle
  tile, the three ids ``base + 4(k - 1) + offset_k`` with offsets in bits 10-11, 12-13, 14-15;
  the claimed one is the discard's id); 4 peng and 5 gang (``base``, an exposed kong after another seat's discard, an
  added kong on the seat's own pung, else a concealed kong); 6 win; 7 draw (``data & 0x100``:
  from the back); 0 start of play, 8 pass and 9 abandon carry no move.
* ``step.b``: winner mask (bits 0-3), discarder mask (bits 4-7); ``step.y[j].t``: fan id →
  ``unit | (count - 1) << 8``, ``y[j].f`` the total; ``step.s``: the deltas.
* Fan ids are the platform's list (``FAN_IDS``), mapped onto MCR names; fans MCR does
  not have (天和, 地和, 人和) are kept apart as ``platform_fans`` of the recorded score, which
  the auditor reports as ``platform_quirk/platform_fan`` instead of a score mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from mahjong_audit.engine.rulesets.mcr_fans import FAN_BY_ZH
from mahjong_audit.pipeline.importers.base import (
    Importer,
    ImportFailure,
    OverLimit,
    Record,
    json_of,
    whole_document,
)
from mahjong_audit.pipeline.importers.common import Events, add_claims, seat_list
from mahjong_audit.pipeline.lines import Line

WINDS = "ESWN"
#: tile kinds id // 4 → canonical tile; 34 and up (ids 136..143) are flowers
KINDS: tuple[str, ...] = tuple(f"{r}{s}" for s in "msp" for r in range(1, 10)) + (
    "1z", "2z", "3z", "4z", "7z", "6z", "5z")
FLOWER_ID0 = 136
TILES = 144
WALL_SIDE = 36  # tiles in each of the four walls
DEALT = 53  # 4 × 13 + the dealer's 14th

#: the platform's fan ids (index = id) → (its name, the MCR fan or None for a fan MCR has not)
FAN_IDS: tuple[tuple[str, str | None], ...] = tuple((n, n) for n in (
    "", "大四喜", "大三元", "绿一色", "九莲宝灯", "四杠", "连七对", "十三幺", "清幺九", "小四喜", "小三元", "字一色",
    "四暗刻", "一色双龙会", "一色四同顺", "一色四节高", "一色四步高")) + (
    ("一色四连环", "一色四步高"),  # the platform names the step-2 form apart; MCR scores both as 一色四步高
) + tuple((n, n) for n in (
    "三杠", "混幺九", "七对", "七星不靠", "全双刻", "清一色", "一色三同顺", "一色三节高", "全大", "全中", "全小", "清龙",
    "三色双龙会", "一色三步高")) + (
    ("一色三连环", "一色三步高"),  # likewise for three chows
) + tuple((n, n) for n in (
    "全带五", "三同刻", "三暗刻", "全不靠", "组合龙", "大于五", "小于五", "三风刻", "花龙", "推不倒", "三色三同顺",
    "三色三节高", "无番和", "妙手回春", "海底捞月", "杠上开花", "抢杠和", "碰碰和", "混一色", "三色三步高", "五门齐",
    "全求人", "双暗杠", "双箭刻", "全带幺", "不求人", "双明杠", "和绝张", "箭刻", "圈风刻", "门风刻", "门前清", "平和",
    "四归一", "双同刻", "双暗刻", "暗杠", "断幺", "一般高", "喜相逢", "连六", "老少副", "幺九刻", "明杠", "缺一门", "无字")) + (
    ("独听・边张", "边张"), ("独听・嵌张", "嵌张"), ("独听・单钓", "单钓将"), ("自摸", "自摸"), ("花牌", "花牌"),
    ("明暗杠", "明暗杠"), ("天和", None), ("地和", None), ("人和Ⅰ", None), ("人和Ⅱ", None),
)

# action types of step.a
NONE, FLOWER, DISCARD, CHI, PENG, GANG, WIN, DRAW, PASS, ABANDON = range(10)
CALLS = {CHI: "chi", PENG: "pon"}
BACK_BIT = 0x100  # a draw from the back
PROMOTED = 0x300  # gang data: an added kong (the platform's own flag, checked against the play)


def tile_of(tid: Any, where: str) -> str:
    """Tile id → canonical tile (flowers ``1f`` … ``8f``)."""
    if not isinstance(tid, int) or not 0 <= tid < TILES:
        raise ImportFailure(f"{where}: {tid!r} is not a tile id 0..143")
    return KINDS[tid // 4] if tid < FLOWER_ID0 else f"{tid - FLOWER_ID0 + 1}f"


def break_point(dice: int) -> int:
    """Ring position where the deal starts, from the four dice nibbles (low first)."""
    n = [(dice >> (4 * k)) & 15 for k in range(4)]
    if not all(1 <= x <= 6 for x in n):
        raise ImportFailure(f"dice {dice:#x} are not four dice 1..6")
    first = n[0] + n[1]
    return (WALL_SIDE * ((1 - first) % 4) + 2 * (first + n[2] + n[3])) % TILES


def deal_positions(start: int) -> list[list[int]]:
    """Ring positions of each seat's dealt tiles (seat 0 = the dealer)."""
    out: list[list[int]] = [[], [], [], []]
    k = start
    for _ in range(3):
        for s in range(4):
            out[s] += [(k + i) % TILES for i in range(4)]
            k += 4
    for s in range(4):
        out[s].append(k % TILES)
        k += 1
    out[0].append(k % TILES)
    return out


def wall_order(start: int, live: int) -> list[int]:
    """Ring positions of the wall after the deal as the log wants it: the ``live`` tiles
    drawn from the front, then the rest, so that the far end lists the replacement tiles
    in the order they are taken (stack by stack from the break backwards, top first)."""
    front = [(start + DEALT + k) % TILES for k in range(live)]
    taken = set(front)
    rest = [(start + DEALT + k) % TILES for k in range(TILES - DEALT) if (start + DEALT + k) % TILES not in taken]
    left = set(rest)
    back: list[int] = []
    stack = (start - 2) % TILES
    while len(back) < len(rest):
        for p in (stack, stack + 1):
            if p in left:
                back.append(p)
        stack = (stack - 2) % TILES
    return front + back[::-1]


def fan_items(t: Any, where: str) -> tuple[list[list[Any]], list[list[Any]]]:
    """``y[j].t`` → (MCR fans, platform-only fans), each ``[name, value, count]``."""
    if not isinstance(t, dict):
        raise ImportFailure(f"{where}: no fan table")
    fans, extra = [], []
    for key, enc in sorted(t.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else -1):
        if not str(key).isdigit() or not 0 < int(key) < len(FAN_IDS) or not isinstance(enc, int):
            raise ImportFailure(f"{where}: fan {key!r}: {enc!r} is not a known fan id and value")
        own, mcr = FAN_IDS[int(key)]
        value, count = enc & 0xFF, (enc >> 8) + 1
        if mcr is None:
            extra.append([own, value, count])
            continue
        if FAN_BY_ZH[mcr].value != value:
            raise ImportFailure(f"{where}: fan {key} ({own}) is worth {FAN_BY_ZH[mcr].value}, the record says {value}")
        fans.append([mcr, value, count])
    return fans, extra


def ms_instant(ms: Any) -> str | None:
    if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0:
        return None
    try:
        return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    except (OverflowError, OSError, ValueError):  # not a time a log can name: left out
        return None


class Tziakcha(Importer):
    name = "tziakcha"

    def sniff(self, source: str, head: str) -> bool:
        h = head.lstrip()
        return h.startswith("{") and '"step"' in h and '"a"' in h and ('"records"' in h or '"belongs"' in h)

    def records(self, source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
        doc = whole_document(source, lines)
        if doc is not None:
            yield doc

    def convert(self, record: Record) -> list[dict[str, Any]]:
        data = json_of(record)
        if not isinstance(data, dict):
            raise ImportFailure("not a 雀渣 session or record (a JSON object)")
        if isinstance(data.get("records"), list):
            return [_session(data)]
        if isinstance(data.get("step"), dict):
            return [_session({"sessionId": data.get("belongs") or data.get("id"), "records": [data]})]
        raise ImportFailure("not a 雀渣 session (no 'records') or record (no 'step')")


def _session(data: dict[str, Any]) -> dict[str, Any]:
    sid = data.get("sessionId")
    raw: dict[str, Any] = _typed(data.get("raw"), dict, {})
    sid = sid if isinstance(sid, str) and sid else raw.get("id")
    if not isinstance(sid, str) or not sid:
        raise ImportFailure("the session has no id")
    records = sorted((r for r in data["records"] if isinstance(r, dict)),
                     key=lambda r: r["index"] if isinstance(r.get("index"), int) else 0)
    if not records:
        raise ImportFailure(f"session {sid}: no records")
    names = _names(data, records[0])
    hands = []
    for no, r in enumerate(records):
        try:
            hands.append(_Hand(r, names).build(no))
        except ImportFailure as e:
            raise ImportFailure(f"session {sid} record {r.get('id')} (hand {r.get('index')}): {e}") from None
    rated: list[Any] = _typed(raw.get("players"), list, [])
    meta: dict[str, Any] = {"source": "tziakcha", "session_id": sid, "records": [r.get("id") for r in records]}
    for key, field in (("title", "title"), ("cfg", "config"), ("periods", "periods"), ("finish_time", "finished_ms")):
        if key in raw:
            meta[field] = raw[key]
    if rated:
        meta["players"] = [{"name": p.get("n"), "rating": p.get("e"), "rating_change": p.get("d"),
                            "score": p.get("s")} for p in rated if isinstance(p, dict)]
    game: dict[str, Any] = {
        "format": "mahjong-log/1", "game_id": f"tziakcha-{sid}", "platform": "tziakcha", "ruleset": "mcr",
        "options": {}, "players": names, "hands": hands, "meta": meta,
    }
    started = ms_instant(raw.get("start_time")) or (hands[0].get("started_at") if hands else None)
    if started:
        game["started_at"] = started
    finals = [p.get("s") for p in rated if isinstance(p, dict)]
    if len(finals) == 4 and all(isinstance(x, int) for x in finals) and [p.get("n") for p in rated] == names:
        game["initial_scores"] = [0, 0, 0, 0]
        game["final_scores"] = finals
    return game


def _names(data: dict[str, Any], first: dict[str, Any]) -> list[str]:
    players = data.get("players")
    names: list[Any]
    if isinstance(players, list) and len(players) == 4:
        names = [p.get("name") or p.get("n") if isinstance(p, dict) else p for p in players]
    else:  # a record alone: its seats in the first hand
        step: dict[str, Any] = _typed(first.get("step"), dict, {})
        names = [p.get("n") for p in _typed(step.get("p"), list, []) if isinstance(p, dict)]
    if len(names) != 4 or not all(isinstance(n, str) and n for n in names) or len(set(names)) != 4:
        raise ImportFailure(f"expected four distinct player names, got {names}")
    return [str(n) for n in names]


def _typed(value: Any, kind: type, default: Any) -> Any:
    """``value`` when it is a ``kind``, else ``default`` (platform JSON is not trusted)."""
    return value if isinstance(value, kind) else default


class _Hand:
    def __init__(self, record: dict[str, Any], names: list[str]):
        step = record.get("step")
        if not isinstance(step, dict):
            raise ImportFailure("no step")
        self.record, self.step, self.names = record, step, names
        i = step.get("i")
        if not isinstance(i, int) or i < 0:
            raise ImportFailure(f"step.i {i!r} is not a hand number")
        self.i = i
        self.dealer = i % 4
        self.ev = Events()
        self.last_discard: dict[str, Any] | None = None
        self.discard_id = -1
        self.last: tuple[int, int, dict[str, Any] | None] | None = None  # (type, table seat, event)
        self.pungs: list[set[str]] = [set(), set(), set(), set()]
        self.passes = [0, 0, 0, 0]

    def seat(self, j: int) -> int:
        """Table seat of the step's seat j (seat wind j)."""
        return (self.dealer + j) % 4

    def build(self, hand_no: int) -> dict[str, Any]:
        st = self.step
        wall_hex = st.get("w")
        if not isinstance(wall_hex, str) or len(wall_hex) != 2 * TILES:
            raise ImportFailure(f"the wall w holds {len(wall_hex or '') // 2} tiles, expected {TILES}")
        try:
            ring = [int(wall_hex[k:k + 2], 16) for k in range(0, 2 * TILES, 2)]
        except ValueError:
            raise ImportFailure("the wall w is not hexadecimal") from None
        if sorted(ring) != list(range(TILES)):
            raise ImportFailure("the wall w is not the 144 tile ids each once")
        start = break_point(_typed(st.get("d"), int, -1))
        deal = [[tile_of(ring[p], "deal") for p in ps] for ps in deal_positions(start)]
        seats = self.seating()
        actions = st.get("a")
        if not isinstance(actions, list):
            raise ImportFailure("no action list a")
        for k, a in enumerate(actions):
            if not (isinstance(a, list) and len(a) == 3 and all(isinstance(x, int) for x in a)):
                raise ImportFailure(f"a[{k}]: {a!r} is not [seat << 4 | type, data, ms]")
            self.action(k, a[0] >> 4 & 3, a[0] & 15, a[1])
        live = sum(1 for e in self.ev.items if e["type"] == "draw" and e.get("from") != "back")
        wall = [tile_of(ring[p], "wall") for p in wall_order(start, live)]
        # the log's seats are table seats; the step's are seat winds
        table_deal = [deal[(s - self.dealer) % 4] for s in range(4)]
        hand: dict[str, Any] = {
            "hand_no": hand_no, "round_wind": WINDS[(self.i // 4) % 4],
            "dealer": self.dealer, "seats": seats, "deal": table_deal, "wall": wall,
            "events": self.ev.items, "outcome": self.outcome(),
            "meta": {"record_id": self.record.get("id"), "index": self.i, "dice": st.get("d"), "break": start,
                     "passes": [self.passes[(s - self.dealer) % 4] for s in range(4)]},
        }
        started = ms_instant(st.get("t"))
        if started:
            hand["started_at"] = started
        return hand

    def seating(self) -> list[int]:
        p = self.step.get("p")
        if not isinstance(p, list) or len(p) != 4:
            raise ImportFailure("step.p does not list four seats")
        seats = [0, 0, 0, 0]
        for j, who in enumerate(p):
            name = who.get("n") if isinstance(who, dict) else None
            if name not in self.names:
                raise ImportFailure(f"seat {j}: player {name!r} is not one of the session's players")
            seats[self.seat(j)] = self.names.index(name)
        if sorted(seats) != [0, 1, 2, 3]:
            raise ImportFailure(f"step.p seats a player twice: {[x.get('n') for x in p]}")
        return seats

    # ------------------------------------------------------------------ actions
    def action(self, k: int, j: int, kind: int, data: int) -> None:
        s = self.seat(j)
        where = f"a[{k}]"
        ev: dict[str, Any] | None = None
        if kind == FLOWER:
            self.ev.add("flower", s, tile=tile_of(FLOWER_ID0 + (data >> 8 & 15), where))
            ev = self.ev.add("draw", s, tile=tile_of(data & 0xFF, where), from_="back")
        elif kind == DRAW:
            ev = self.ev.add("draw", s, tile=tile_of(data & 0xFF, where),
                             from_="back" if data & BACK_BIT else None)
        elif kind == DISCARD:
            ev = self.ev.add("discard", s, tile=tile_of(data & 0xFF, where))
            self.last_discard, self.discard_id = ev, data & 0xFF
        elif kind in (CHI, PENG):
            ev = self.claim(where, s, kind, data)
            if ev is None:
                return
        elif kind == GANG:
            ev = self.gang(where, s, data)
        elif kind == WIN:
            ev = self.win(where, s)
        elif kind == PASS:
            self.passes[j] += 1
            return
        elif kind in (NONE, ABANDON):
            return
        else:
            raise ImportFailure(f"{where}: unknown action type {kind}")
        self.last = (kind, s, ev)

    def claimed(self, where: str, what: str) -> dict[str, Any]:
        ld = self.last_discard
        if ld is None or self.last is None or self.last[0] != DISCARD:
            raise ImportFailure(f"{where}: {what} without a discard before it")
        return ld

    def claim(self, where: str, s: int, kind: int, data: int) -> dict[str, Any] | None:
        ld = self.claimed(where, "chi" if kind == CHI else "peng")
        if data == 0:  # a declaration waiting for the other seats' answers: carried out by the next one
            add_claims(ld, [*((c["seat"], c["call"]) for c in ld.get("claims", ())), (s, CALLS[kind])], ld["seat"])
            return None
        base = (data & 0x3F) << 2
        turn = data >> 6 & 3
        if kind == PENG:
            tile = tile_of(base, where)
            if tile != ld["tile"] or turn != (s - ld["seat"]) % 4:
                raise ImportFailure(f"{where}: peng of {tile} from {turn} seats back, on the discard {ld['tile']} "
                                    f"of seat {ld['seat']}")
            self.pungs[s].add(tile)
            return self.ev.add("pon", s, tile=tile, from_=ld["seat"])
        ids = [base + 4 * (n - 1) + (data >> (10 + 2 * n) & 3) for n in range(3)]
        if not 1 <= turn <= 3 or ids[turn - 1] != self.discard_id:
            tiles = "".join(tile_of(x, where) if 0 <= x < FLOWER_ID0 else "?" for x in ids)
            raise ImportFailure(f"{where}: chi of {tiles} (ids {ids}, claimed tile {turn} of 3) does not take the "
                                f"discard {ld['tile']} (id {self.discard_id})")
        own = [tile_of(x, where) for n, x in enumerate(ids) if n != turn - 1]
        return self.ev.add("chi", s, tile=ld["tile"], tiles=own, from_=ld["seat"])

    def gang(self, where: str, s: int, data: int) -> dict[str, Any]:
        tile = tile_of((data & 0x3F) << 2, where)
        last = self.last
        if last is not None and last[0] == DISCARD and last[1] != s:
            ld = self.claimed(where, "gang")
            if ld["tile"] != tile or data >> 6 & 3 != (s - ld["seat"]) % 4:
                raise ImportFailure(f"{where}: gang of {tile} on the discard {ld['tile']}")
            return self.ev.add("kong", s, tile=tile, from_=ld["seat"])
        promoted = data & PROMOTED == PROMOTED
        if tile in self.pungs[s]:
            if not promoted:
                raise ImportFailure(f"{where}: a kong of {tile} on the seat's own pung is not flagged as added")
            self.pungs[s].discard(tile)
            return self.ev.add("added_kong", s, tile=tile)
        if promoted or data >> 6 & 3:
            raise ImportFailure(f"{where}: a kong of {tile} flagged as added or exposed, with neither a pung of it "
                                "nor a discard before it")
        return self.ev.add("concealed_kong", s, tile=tile)

    def win(self, where: str, s: int) -> dict[str, Any]:
        if self.last is None:
            raise ImportFailure(f"{where}: a win before any play")
        kind, actor, ev = self.last
        if ev is None:
            raise ImportFailure(f"{where}: a win before any play")
        if kind in (DRAW, FLOWER) and actor == s:
            return self.ev.add("win", s, tile=ev["tile"], from_=s)
        if kind == GANG and ev["type"] == "added_kong" and actor != s:
            return self.ev.add("win", s, tile=ev["tile"], from_=actor, robbing_kong=True)
        if kind == DISCARD and actor != s:
            return self.ev.add("win", s, tile=ev["tile"], from_=actor)
        raise ImportFailure(f"{where}: seat {s} wins after {ev['type']} by seat {actor}: no tile to win on")

    # ------------------------------------------------------------------ result
    def outcome(self) -> dict[str, Any]:
        st = self.step
        deltas_w = seat_list(st.get("s", []), "step.s")
        deltas = [deltas_w[(s - self.dealer) % 4] for s in range(4)]
        b: int = _typed(st.get("b"), int, 0)
        winners = [j for j in range(4) if b >> j & 1]
        wins_ev = {e["seat"]: e for e in self.ev.items if e["type"] == "win"}
        y: list[Any] = st["y"] if isinstance(st.get("y"), list) and len(st["y"]) == 4 else [{}] * 4
        wins = []
        for j in winners:
            s = self.seat(j)
            ev = wins_ev.get(s)
            if ev is None:
                raise ImportFailure(f"step.b names seat {j} a winner, and it has no win action")
            score: dict[str, Any] = {}
            yj = y[j] if isinstance(y[j], dict) else {}
            if "t" in yj:
                fans, extra = fan_items(yj["t"], f"step.y[{j}]")
                score["fans"] = fans
                if extra:
                    score["platform_fans"] = extra
            if isinstance(yj.get("f"), int):
                score["total"] = yj["f"]
            win = {"seat": s, "from": ev["from"], "tile": ev["tile"]}
            if score:
                win["score"] = score
            wins.append(win)
        if set(wins_ev) - {self.seat(j) for j in winners}:
            raise ImportFailure("a win action by a seat step.b does not name a winner")
        return {"result": "win" if wins else "draw", "wins": wins, "deltas": deltas}
