"""Importer ``botzone-json``: Botzone's records of a match of the game Chinese-Standard-Mahjong.

Three shapes, each one match (one hand) per file, one record (``SHAPES``):

* a match record ``{"logs", "initdata", "players", …}`` (``<match id>_lite.json``);
* a judge log: the bare ``logs`` array as Botzone's local judge runner writes it (judge
  outputs alternating with the seats' responses; the ``INIT`` display has ``quan`` and
  ``srand`` but no ``walltiles``): no walls;
* a display log: a JSON array of the judge's display objects alone (``INIT``, ``DEAL``,
  ``DRAW`` … ``HU``/``HUANG``/a penalty verdict): no walls, no responses, no ``canHu``.

What a shape cannot tell is said in ``Importer.notes`` (the run's log) and kept in the
game's ``meta.limits``; it is never a finding. For a match record a sibling
``<match id>_metadata.json`` (a collector's file) is read for extra metadata when it
exists, and yields no record of its own. Mapping (see docs/importers.md):

* ``initdata.walltiles`` (136 tiles) is four per-seat walls of 34; each seat's deal is
  the last 13 of its wall and it draws from the end, so ``seat_walls[i]`` is
  ``walltiles[34i:34i+21]`` reversed. The deal is checked against the DEAL display.
* Judge displays become events (DRAW → draw, replacement draws after a kong are
  ``from: back``; PLAY → discard; CHI/PENG → the call and the discard that follows it;
  GANG after a discard → kong, after the seat's own draw → concealed_kong; BUGANG →
  added_kong; HU → win; HUANG → exhaustive draw).
* Every non-PASS player response to a discard or added kong is a declared claim
  (``claims``, including the call carried out).
* HU's ``fan``/``fanCnt``/``score`` become the outcome; ``canHu`` of each display is kept
  in the hand's ``meta.can_hu`` as ``[seq, [c0, c1, c2, c3]]`` (the event it refers to).
* Options ``common.BOTZONE_OPTIONS`` (no flowers, 21-tile seat walls, the judge's 组合龙
  waits); ``quan`` is the round wind E,S,W,N.
* Verdict WH (a 和 declaration the judge found false) → the false ``win`` and an outcome
  ``draw`` whose deltas are the penalty (offender −30, each other +10), listed in
  ``penalties``; the option ``false_win_ends_hand`` makes the replay end the hand there.
* Other penalty verdicts (WA, …) that name the player and the ``score`` paid (offender −30,
  each other +10) end the hand by the judge's decision: an outcome ``draw`` whose deltas
  are that score, listed in ``penalties`` as ``wrong_action``, with the option
  ``penalty_verdicts`` (the auditor checks the payment, not the refused answer it never
  sees). A verdict without a score is rejected.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from mahjong_audit.pipeline.importers.base import (
    Importer,
    ImportFailure,
    OverLimit,
    Record,
    json_of,
    whole_document,
)
from mahjong_audit.pipeline.importers.common import (
    BOTZONE_OPTIONS,
    CALLS,
    Events,
    add_claims,
    botzone_tile,
    chi_tiles,
    seat_list,
)
from mahjong_audit.pipeline.lines import Line
from mahjong_audit.schemas.instants import object_id_time

WINDS = "ESWN"
WALL = 34
FALSE_WIN_PENALTY = 10  # verdict WH: the offender pays this to each other seat
DEALT = 13
METADATA_SUFFIX = "_metadata.json"


#: the shapes of a Botzone match, and what each cannot tell (said once per file, never a finding)
MATCH_RECORD, JUDGE_LOG, DISPLAY_LOG = "match record", "judge log", "display log"
NO_WALL = "no wall (initdata.walltiles is not in this shape): draws are taken as logged, not checked against a wall"
NO_RESPONSES = ("no player responses: declined claims are unknown (only the calls carried out are in the log), and "
                "there is no canHu to compare")
LIMITS: dict[str, tuple[str, ...]] = {MATCH_RECORD: (), JUDGE_LOG: (NO_WALL,), DISPLAY_LOG: (NO_WALL, NO_RESPONSES)}
#: a judge display's own keys (``tileCnt``: tiles left in each seat's wall; ``canHu``)
DISPLAY_KEYS = ('"tileCnt"', '"canHu"')


def head_shape(head: str) -> str | None:
    """The shape of a Botzone match from a file's first characters, or None."""
    h = head.lstrip()
    if h.startswith("{"):
        return MATCH_RECORD if '"logs"' in h and '"display"' in h and any(k in h for k in DISPLAY_KEYS) else None
    if not h.startswith("["):
        return None
    body = h[1:].lstrip()
    if body.startswith("{") and '"output"' in body and '"display"' in body and any(k in body for k in DISPLAY_KEYS):
        return JUDGE_LOG
    first = body.split("}", 1)[0]
    if body.startswith("{") and '"action"' in first and '"INIT"' in first:
        return DISPLAY_LOG
    return None


def shape_of(data: Any) -> tuple[str, dict[str, Any]]:
    """(shape, the match as a match record's dict) of a parsed file; ImportFailure if none."""
    if isinstance(data, dict):
        if not isinstance(data.get("logs"), list):
            raise ImportFailure("not a Botzone match record (no 'logs' list)")
        return MATCH_RECORD, data
    if isinstance(data, list) and data and all(isinstance(e, dict) for e in data):
        if any("output" in e for e in data):
            return JUDGE_LOG, {"logs": data}
        if all("action" in e for e in data):
            return DISPLAY_LOG, {"logs": [{"output": {"display": e}} for e in data]}
    raise ImportFailure("not a Botzone match: neither a match record ({logs, initdata, …}), nor a judge log "
                        "(an array of judge outputs and responses), nor a display log (an array of displays)")


class BotzoneJson(Importer):
    name = "botzone-json"
    suffixes = (".json",)

    def notes(self, source: str, head: str) -> tuple[str, ...]:
        shape = head_shape(head)
        return tuple(f"{shape}: {x}" for x in LIMITS[shape]) if shape else ()

    def sniff(self, source: str, head: str) -> bool:
        h = head.lstrip()
        if h.startswith("["):
            return head_shape(h) is not None
        if not h.startswith("{"):
            return False
        if '"matchId"' in h and ('"walltiles"' in h or source.endswith(METADATA_SUFFIX)):
            return True  # the collector's metadata file (read with its match record)
        # a match record: the judge's displays (canHu/tileCnt are the mahjong judge's own keys)
        return '"logs"' in h and '"display"' in h and ('"canHu"' in h or '"tileCnt"' in h)

    def records(self, source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
        if source.endswith(METADATA_SUFFIX):
            return  # supplementary: read next to its match record
        doc = whole_document(source, lines)
        if doc is not None:
            yield doc

    def convert(self, record: Record) -> list[dict[str, Any]]:
        data = json_of(record)
        shape, data = shape_of(data)
        match = _Match(data, record.source, shape)
        try:
            return [match.build()]
        except ImportFailure as e:
            raise ImportFailure(f"match {match.match_id}: {e}") from None


def _player(value: Any, k: int, action: Any) -> int:
    """The seat a display names (0..3); -1 for displays about no player."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    if action in ("INIT", "DEAL", "HUANG") and value is None:
        return -1
    raise ImportFailure(f"logs[{k}]: {action} display names player {value!r}, not a seat 0..3")


def _match_id(source: str, metadata: dict[str, Any] | None) -> str:
    if metadata and isinstance(metadata.get("matchId"), str):
        return metadata["matchId"]
    base = os.path.basename(source)
    for sfx in ("_lite.json", ".json", ".log"):
        if base.endswith(sfx):
            return base[: -len(sfx)]
    return base


def _metadata(source: str) -> dict[str, Any] | None:
    if "://" in source or not source.endswith("_lite.json"):
        return None
    path = source[: -len("_lite.json")] + METADATA_SUFFIX
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


class _Match:
    def __init__(self, data: dict[str, Any], source: str, shape: str = MATCH_RECORD):
        self.data = data
        self.shape = shape
        self.deal: list[list[str]] | None = None
        self.penalty_verdict: str | None = None  # the verdict that ended the match (WA, …)
        self.metadata = _metadata(source)
        self.match_id = _match_id(source, self.metadata)
        self.ev = Events()
        self.can_hu: list[list[Any]] = []
        self.prev: tuple[str, int, str | None] | None = None  # (action, player, tile)
        self.owes_back: set[int] = set()
        self.last_discard: dict[str, Any] | None = None
        self.last_added_kong: dict[str, Any] | None = None
        self.outcome: dict[str, Any] | None = None

    def initdata(self, judge: list[tuple[int, Any]]) -> dict[str, Any]:
        """``initdata`` of a match record; in a judge or display log, the INIT display."""
        init = self.data.get("initdata")
        if self.shape != MATCH_RECORD:
            first = judge[0][1].get("display") if judge and isinstance(judge[0][1], dict) else None
            init = first if isinstance(first, dict) and first.get("action") == "INIT" else None
            if init is None:
                raise ImportFailure(f"the {self.shape} does not open with an INIT display")
        elif isinstance(init, str):
            try:
                init = json.loads(init)
            except json.JSONDecodeError:
                raise ImportFailure("initdata is not valid JSON") from None
        if not isinstance(init, dict) or init.get("quan") not in (0, 1, 2, 3):
            raise ImportFailure("initdata has no quan 0..3" if self.shape == MATCH_RECORD else "INIT has no quan 0..3")
        return init

    def build(self) -> dict[str, Any]:
        logs = self.data["logs"]
        judge = [(k, e["output"]) for k, e in enumerate(logs) if isinstance(e, dict) and "output" in e]
        init = self.initdata(judge)
        seat_walls = None
        if self.shape == MATCH_RECORD:
            wall = str(init.get("walltiles", "")).split()
            if len(wall) != 4 * WALL:
                raise ImportFailure(f"walltiles holds {len(wall)} tiles, expected {4 * WALL}")
            wall = [botzone_tile(x) for x in wall]
            seat_walls = [wall[WALL * i: WALL * i + WALL - DEALT][::-1] for i in range(4)]
            self.deal = [wall[WALL * i + WALL - DEALT: WALL * (i + 1)][::-1] for i in range(4)]
        for k, out in judge:
            disp = out.get("display") if isinstance(out, dict) else None
            if not isinstance(disp, dict):
                raise ImportFailure(f"logs[{k}]: judge output without a display")
            nxt = logs[k + 1] if k + 1 < len(logs) and "output" not in logs[k + 1] else {}
            self.display(k, disp, nxt)
        if self.outcome is None:
            raise ImportFailure("the match has no result (HU, HUANG or a penalty verdict)")
        if self.deal is None:
            raise ImportFailure("the match has no DEAL display")
        hand: dict[str, Any] = {
            "hand_no": 0, "round_wind": WINDS[init["quan"]], "dealer": 0, "deal": self.deal,
            "events": self.ev.items, "outcome": self.outcome,
            "meta": {"can_hu": self.can_hu, "srand": init.get("srand")},
        }
        if seat_walls is not None:
            hand["seat_walls"] = seat_walls
        if self.penalty_verdict:
            hand["meta"]["verdict"] = self.penalty_verdict
        players = self.data.get("players")
        names = [p.get("name", "") if isinstance(p, dict) else str(p) for p in players] \
            if isinstance(players, list) and len(players) == 4 else None
        meta: dict[str, Any] = {"match_id": self.match_id, "source": "botzone-json"}
        if self.shape == MATCH_RECORD:
            meta.update(status=self.data.get("status"), viewurl=self.data.get("viewurl"))
        else:
            meta.update(shape=self.shape, limits=list(LIMITS[self.shape]))
        if isinstance(players, list):
            meta["avatars"] = [p.get("imgid") for p in players if isinstance(p, dict)]
        if self.metadata:
            for key in ("botId", "botName", "collectedAt", "logRecords"):
                if key in self.metadata:
                    meta[key] = self.metadata[key]
            if isinstance(self.metadata.get("source"), str):
                meta["url"] = self.metadata["source"]
        game: dict[str, Any] = {
            "format": "mahjong-log/1", "game_id": f"botzone-{self.match_id}", "platform": "botzone",
            "ruleset": "mcr", "options": dict(BOTZONE_OPTIONS), "hands": [hand], "meta": meta,
        }
        if self.penalty_verdict:
            game["options"]["penalty_verdicts"] = True
        if names:
            game["players"] = names
        created = object_id_time(self.match_id)  # a match id is an ObjectId: its creation time
        if created:
            game["started_at"] = created
        return game

    # ------------------------------------------------------------------ displays
    def display(self, k: int, d: dict[str, Any], responses: dict[str, Any]) -> None:
        action = d.get("action")
        p = _player(d.get("player"), k, action)
        tile = botzone_tile(d["tile"]) if isinstance(d.get("tile"), str) else None
        if action == "INIT":
            return
        if action == "DEAL":
            shown = [[botzone_tile(x) for x in h] for h in d.get("hand", []) if isinstance(h, list)]
            if self.deal is None:
                if len(shown) != 4 or any(len(h) != DEALT for h in shown):
                    raise ImportFailure(f"logs[{k}]: the DEAL display does not hold four hands of {DEALT}")
                self.deal = shown
            elif shown != self.deal:
                raise ImportFailure(f"logs[{k}]: the DEAL display differs from the deal in walltiles")
            return
        if self.outcome is not None:
            raise ImportFailure(f"logs[{k}]: {action} after the result")
        if action == "DRAW":
            back = p in self.owes_back
            self.owes_back.discard(p)
            ev = self.ev.add("draw", p, tile=tile, from_="back" if back else None)
        elif action == "PLAY":
            ev = self.discard(p, tile, responses)
        elif action in ("CHI", "PENG"):
            ev = self.call(k, action, d, p, tile, responses)
        elif action == "GANG":
            ev = self.gang(k, p, tile)
        elif action == "BUGANG":
            ev = self.ev.add("added_kong", p, tile=tile)
            add_claims(ev, self.claims(responses, p), p)
            self.last_added_kong = ev
            self.owes_back.add(p)
        elif action == "HU":
            ev = self.hu(k, d, p)
        elif action == "WH":
            ev = self.false_hu(k, d, p)
        elif action == "HUANG":
            self.outcome = {"result": "draw", "wins": [], "deltas": [0, 0, 0, 0]}
            ev = None
        elif isinstance(d.get("score"), list):
            self.verdict(str(action), d, p)
            ev = None
        else:
            raise ImportFailure(f"logs[{k}]: judge verdict {action!r} (player {p}) without the score it paid")
        can = d.get("canHu")
        if ev is not None and isinstance(can, list) and any(c != -4 for c in can):
            self.can_hu.append([ev["seq"], list(can)])
        self.prev = (str(action), p, tile)

    def claims(self, responses: dict[str, Any], actor: int) -> list[tuple[int, str]]:
        out = []
        for key, r in responses.items():
            if not isinstance(r, dict) or key not in ("0", "1", "2", "3") or int(key) == actor:
                continue
            word = str(r.get("response", "")).split(" ", 1)[0].lower()
            if word in CALLS:
                out.append((int(key), CALLS[word]))
        return out

    def discard(self, p: int, tile: str | None, responses: dict[str, Any]) -> dict[str, Any]:
        ev = self.ev.add("discard", p, tile=tile)
        add_claims(ev, self.claims(responses, p), p)
        self.last_discard = ev
        return ev

    def call(self, k: int, action: str, d: dict[str, Any], p: int, after: str | None,
             responses: dict[str, Any]) -> dict[str, Any]:
        ld = self.last_discard
        if ld is None or self.prev is None or self.prev[0] not in ("PLAY", "CHI", "PENG"):
            raise ImportFailure(f"logs[{k}]: {action} without a discard before it")
        if action == "CHI":
            own = chi_tiles(botzone_tile(d["tileCHI"]), ld["tile"])
            self.ev.add("chi", p, tile=ld["tile"], tiles=own, from_=ld["seat"])
        else:
            self.ev.add("pon", p, tile=ld["tile"], from_=ld["seat"])
        return self.discard(p, after, responses)

    def gang(self, k: int, p: int, tile: str | None) -> dict[str, Any]:
        prev = self.prev
        self.owes_back.add(p)
        if prev is not None and prev[0] == "DRAW" and prev[1] == p:
            return self.ev.add("concealed_kong", p, tile=tile)
        ld = self.last_discard
        if ld is None or prev is None or prev[0] not in ("PLAY", "CHI", "PENG"):
            raise ImportFailure(f"logs[{k}]: GANG neither after a draw nor after a discard")
        return self.ev.add("kong", p, tile=ld["tile"], from_=ld["seat"])

    def declared_win(self, k: int, what: str, p: int) -> tuple[dict[str, Any], str | None, int]:
        """The ``win`` event of seat ``p``'s 和 declaration on the tile of the previous display:
        its own draw, the added kong (robbing) or the last discard."""
        prev = self.prev
        if prev is None:
            raise ImportFailure(f"logs[{k}]: {what} before any play")
        if prev[0] == "DRAW" and prev[1] == p:
            tile, frm = prev[2], p
            ev = self.ev.add("win", p, tile=tile, from_=p)
        elif prev[0] == "BUGANG" and self.last_added_kong is not None:
            tile, frm = prev[2], prev[1]
            ev = self.ev.add("win", p, tile=tile, from_=frm, robbing_kong=True)
        elif prev[0] in ("PLAY", "CHI", "PENG") and self.last_discard is not None:
            tile, frm = self.last_discard["tile"], self.last_discard["seat"]
            ev = self.ev.add("win", p, tile=tile, from_=frm)
        else:
            raise ImportFailure(f"logs[{k}]: {what} after {prev[0]}: no tile to win on")
        return ev, tile, frm

    def false_hu(self, k: int, d: dict[str, Any], p: int) -> dict[str, Any]:
        """Verdict WH: seat ``p`` declared 和 and the judge found no win of 8 fan. The match ends
        with the penalty alone (offender −3×, each other +1× the option ``false_win_penalty``)."""
        if p not in (0, 1, 2, 3):
            raise ImportFailure(f"logs[{k}]: WH without a player 0..3")
        ev, _, _ = self.declared_win(k, "WH", p)
        if isinstance(d.get("score"), list):
            deltas = seat_list(d["score"], "WH score")
        else:  # the verdict's documented payment
            deltas = [-3 * FALSE_WIN_PENALTY if s == p else FALSE_WIN_PENALTY for s in range(4)]
        self.outcome = {"result": "draw", "wins": [], "deltas": deltas,
                        "penalties": [{"seat": p, "kind": "false_win", "deltas": list(deltas)}]}
        return ev

    def verdict(self, action: str, d: dict[str, Any], p: int) -> None:
        """A penalty verdict (WA: an answer the judge refused) ends the hand by the judge's
        decision; the record holds who and what was paid, not the refused answer."""
        deltas = seat_list(d["score"], f"{action} score")
        self.outcome = {"result": "draw", "wins": [], "deltas": deltas,
                        "penalties": [{"seat": p, "kind": "wrong_action", "deltas": list(deltas)}]}
        self.penalty_verdict = action

    def hu(self, k: int, d: dict[str, Any], p: int) -> dict[str, Any]:
        ev, tile, frm = self.declared_win(k, "HU", p)
        fans = [[f["name"], int(f["value"]), int(f["cnt"])] for f in d.get("fan", [])]
        score: dict[str, Any] = {"fans": fans}
        if isinstance(d.get("fanCnt"), int):
            score["total"] = d["fanCnt"]
        self.outcome = {"result": "win", "wins": [{"seat": p, "from": frm, "tile": tile, "score": score}],
                        "deltas": seat_list(d.get("score", []), "HU score")}
        return ev
