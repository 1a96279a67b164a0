"""`score` rejects what cannot exist, in every ruleset, the same way (issue 12).

One table: a valid base situation per ruleset, and for each case a change to it and the
error code that must come back. Beside it, the legal neighbours of each case, which must
still be scored.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.situation_check import ERRORS
from mahjong_audit.pipeline.commands.score import run, score_line

CHI = {"type": "chi", "tiles": ["1s", "2s", "3s"], "claimed": "2s", "from": 1}
# 13-tile rulesets: a chi + 456m 789m 123p + a 5p single wait
SMALL = {"concealed": ["4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"], "melds": [CHI],
         "win_tile": "5p"}
# longgang: 16 tiles; 9s is the indicator (the other 9s are 正财), the East seat's 坐花 is 春 (1f)
LONG = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"],
        "melds": [CHI], "win_tile": "5p", "ruleset_fields": {"indicator": "9s"}}
BASE = {"mcr": SMALL, "guangdong": SMALL, "longgang": LONG}
ALL = tuple(BASE)

Change = Callable[[dict[str, Any]], None]


def _set(**kw: Any) -> Change:
    def change(s: dict[str, Any]) -> None:
        s.update(copy.deepcopy(kw))
    return change


def _fields(**kw: Any) -> Change:
    def change(s: dict[str, Any]) -> None:
        s.setdefault("ruleset_fields", {}).update(copy.deepcopy(kw))
    return change


def _chi(**kw: Any) -> Change:
    def change(s: dict[str, Any]) -> None:
        s["melds"][0].update(copy.deepcopy(kw))
    return change


def _hand(*tiles: str, win: str | None = None) -> Change:
    """Replace the first standing tiles (and optionally the winning tile)."""
    def change(s: dict[str, Any]) -> None:
        s["concealed"][:len(tiles)] = list(tiles)
        if win is not None:
            s["win_tile"] = win
    return change


def _standing(small: str, long: str) -> Change:
    """All standing tiles, for the 13-tile rulesets or for longgang's 16 (by the base's size)."""
    def change(s: dict[str, Any]) -> None:
        text = small if len(s["concealed"]) == len(SMALL["concealed"]) else long
        s["concealed"] = T.names(T.parse(text.replace(" ", "")))
    return change


def _both(*changes: Change) -> Change:
    def change(s: dict[str, Any]) -> None:
        for c in changes:
            c(s)
    return change


def _closed(s: dict[str, Any]) -> None:
    """The chi taken back into the hand: nobody has called (first go-round flags)."""
    s["melds"] = []
    s["concealed"] = ["1s", "2s", "3s", *s["concealed"]]


def _flag(change: Change, **fields: Any) -> Change:
    return _both(_closed, change, _fields(**fields))


def _drop_tile(s: dict[str, Any]) -> None:
    s["concealed"].pop()


def _pon(tile: str) -> Change:
    return _set(melds=[{"type": "pon", "tile": tile, "from": 2}])


# (case, rulesets, change, expected code)
REJECTIONS: list[tuple[str, tuple[str, ...], Change, str]] = [
    # wrongly typed ruleset_fields used to crash the batch
    ("wildcards as a string", ("longgang",), _both(_set(ruleset_fields={}), _fields(wildcards="9m")), "wrong_type"),
    ("winners as a string", ("guangdong",), _fields(winners="x"), "wrong_type"),
    ("winners as a list", ("guangdong",), _fields(winners=[2]), "wrong_type"),
    ("a flag as a string", ("mcr", "longgang"), _fields(heavenly="true"), "wrong_type"),
    # strict types: "false" is not false, 2.7 is not 2
    ("ready as the string false", ("guangdong",), _fields(ready="false"), "wrong_type"),
    ("winners 2.7", ("guangdong",), _fields(winners=2.7), "wrong_type"),
    ("seat as a string", ("longgang",), _fields(seat="1"), "wrong_type"),
    ("self_drawn as a string", ALL, _set(self_drawn="true"), "wrong_type"),
    ("self_drawn as 1", ALL, _set(self_drawn=1), "wrong_type"),
    ("id as a boolean", ALL, _set(id=True), "wrong_type"),
    ("a meld's from as a string", ALL, _chi(**{"from": "1"}), "wrong_type"),
    ("a tile as a number", ALL, _set(win_tile=5), "wrong_type"),
    # unknown keys and values
    ("unknown ruleset_fields key", ALL, _fields(nonsense=True), "unknown_field"),
    ("a field of another ruleset", ("guangdong",), _fields(indicator="9s"), "unknown_field"),
    ("heavenly where the ruleset has no such flag", ("guangdong",), _fields(heavenly=True), "unknown_field"),
    ("unknown top-level field", ALL, _set(dealer=0), "unknown_field"),
    ("unknown role", ("longgang",), _fields(role="banker"), "bad_value"),
    ("winners 0", ("guangdong",), _fields(winners=0), "bad_value"),
    ("seat 4", ("longgang",), _fields(seat=4, dealer=0), "bad_value"),
    ("seat wind X", ALL, _set(seat_wind="X"), "bad_value"),
    ("from 4", ALL, _chi(**{"from": 4}), "bad_value"),
    ("missing win_tile", ALL, lambda s: s.pop("win_tile"), "missing_field"),
    ("seat_flower without wildcards", ("longgang",), _fields(seat_flower="2f"), "missing_field"),
    ("first_round_discards without seat and dealer", ("longgang",), _fields(first_round_discards=2),
     "missing_field"),
    ("10m", ALL, _hand("10m"), "bad_tile"),
    ("a bad wildcard name", ("longgang",), _both(_set(ruleset_fields={}), _fields(wildcards=["9x"])), "bad_tile"),
    ("a chi of two tiles", ALL, _chi(tiles=["1s", "2s"]), "bad_meld"),
    ("a pon without its tile", ALL, _set(melds=[{"type": "pon", "from": 1}]), "bad_meld"),
    ("a concealed chi", ALL, _chi(concealed=True), "bad_meld"),
    ("a concealed kong with from", ALL, _set(melds=[{"type": "kong", "tile": "1s", "concealed": True, "from": 2}]),
     "bad_meld"),
    ("unknown ruleset", ALL, _set(ruleset="riichi"), "unknown_ruleset"),
    ("unknown option", ALL, _set(options={"nonsense": 1}), "invalid_options"),
    # tiles that cannot exist
    ("five copies", ALL, _hand("5p", "5p", "5p", "5p"), "too_many_copies"),
    ("six copies", ALL, _both(_hand("5p", "5p", "5p", "5p", "5p"), _set(win_tile="5p")), "too_many_copies"),
    ("a fifth copy through a meld", ALL, _both(_pon("4m"), _hand("1s", "2s", "3s", "4m", "4m")), "too_many_copies"),
    ("four of the indicator's kind besides the flipped one", ("longgang",), _hand("9s", "9s", "9s", "9s"),
     "too_many_copies"),
    ("白板 in longgang", ("longgang",), _hand("5z", "5z", "5z"), "tile_not_in_set"),
    ("白板 as the longgang indicator", ("longgang",), _fields(indicator="5z"), "tile_not_in_set"),
    # melds that are not melds
    ("chi of honours", ALL, _chi(tiles=["1z", "2z", "3z"], claimed="2z"), "not_a_run"),
    ("chi across suits", ALL, _chi(tiles=["8m", "9m", "1p"], claimed="9m"), "not_a_run"),
    ("chi with a gap", ALL, _chi(tiles=["1s", "2s", "4s"], claimed="2s"), "not_a_run"),
    ("chi not containing its claimed tile", ALL, _chi(claimed="5s"), "claimed_not_in_meld"),
    ("chi from the opposite seat", ALL, _chi(**{"from": 2}), "chi_not_from_left"),
    ("chi from the right seat", ALL, _chi(**{"from": 3}), "chi_not_from_left"),
    ("a pon claiming another tile", ALL, _set(melds=[{"type": "pon", "tile": "1s", "claimed": "2s", "from": 2}]),
     "claimed_not_in_meld"),
    ("chi in a game without chi", ("guangdong",), _set(options={"chi": False}), "chi_not_allowed"),
    ("a wild inside a chi", ("longgang",), _chi(tiles=["7s", "8s", "9s"], claimed="7s"), "wild_in_meld"),
    ("a wild inside a pon", ("longgang",), _pon("9s"), "wild_in_meld"),
    ("a wild inside a kong", ("longgang",), _set(melds=[{"type": "kong", "tile": "9s", "concealed": True}]),
     "wild_in_meld"),
    # flowers
    ("flowers 5f-8f in longgang", ("longgang",), _set(flowers=["5f"]), "tile_not_in_set"),
    ("any flower in guangdong", ("guangdong",), _set(flowers=["1f"]), "tile_not_in_set"),
    ("a flower in mcr played without flowers", ("mcr",), _both(_set(options={"flowers": False}), _set(flowers=["1f"])),
     "tile_not_in_set"),
    ("a flower twice", ("mcr",), _set(flowers=["2f", "2f"]), "duplicate_flower"),
    ("a flower twice", ("longgang",), _set(flowers=["2f", "2f"]), "duplicate_flower"),
    ("a flower set aside and held", ("longgang",), _both(_set(flowers=["1f"], seat_wind="S"), _hand("1f")),
     "duplicate_flower"),
    ("a suited tile as a flower", ALL, _set(flowers=["1m"]), "not_a_flower"),
    ("the seat's own flower set aside", ("longgang",), _set(flowers=["1f"]), "kept_flower_set_aside"),
    ("the South seat's own flower set aside", ("longgang",), _set(flowers=["2f"], seat_wind="S"),
     "kept_flower_set_aside"),
    ("a flower in the hand", ("mcr",), _hand("2f"), "flower_in_hand"),
    ("another seat's flower in the hand", ("longgang",), _hand("3f"), "flower_in_hand"),
    ("a flower in the hand", ("guangdong",), _hand("2f"), "tile_not_in_set"),
    # wilds
    ("a win on a discarded 财神", ("longgang",), _set(win_tile="9s"), "wild_discard_win"),
    ("robbing a kong of a 财神", ("longgang",), _set(win_tile="9s", kong=True), "wild_discard_win"),
    # flags that contradict each other
    ("heavenly for a non-dealer", ("mcr", "longgang"), _flag(_set(self_drawn=True, seat_wind="S"), heavenly=True),
     "flag_needs_dealer"),
    ("heavenly on a discard", ("mcr", "longgang"), _flag(_set(), heavenly=True), "flag_needs_self_draw"),
    ("heavenly after a call", ("mcr", "longgang"), _both(_set(self_drawn=True), _fields(heavenly=True)),
     "flag_needs_no_call"),
    ("earthly for the dealer", ("mcr", "longgang"), _flag(_set(self_drawn=True), earthly=True),
     "flag_needs_non_dealer"),
    ("earthly on a discard", ("mcr", "longgang"), _flag(_set(seat_wind="W"), earthly=True), "flag_needs_self_draw"),
    ("earthly after a call", ("mcr", "longgang"), _both(_set(self_drawn=True, seat_wind="S"), _fields(earthly=True)),
     "flag_needs_no_call"),
    # seed 004: "莊家出第一張後，下家自摸即是地和" — only the dealer's next seat (seat wind S)
    ("地和 by the seat opposite the dealer", ("mcr",), _flag(_set(self_drawn=True, seat_wind="W"), earthly=True),
     "flag_needs_seat"),
    ("地和 by the seat before the dealer", ("mcr",), _flag(_set(self_drawn=True, seat_wind="N"), earthly=True),
     "flag_needs_seat"),
    ("地胡 with self_drawn", ("longgang",), _flag(_set(self_drawn=True, seat_wind="S"), human=True),
     "flag_needs_discard"),
    ("地胡 (dihu) with self_drawn", ("longgang",), _flag(_set(self_drawn=True, seat_wind="N"), dihu=True),
     "flag_needs_discard"),
    ("地胡 for the dealer", ("longgang",), _flag(_set(), human=True), "flag_needs_non_dealer"),
    ("地胡 after a call", ("longgang",), _both(_set(seat_wind="S"), _fields(dihu=True)), "flag_needs_no_call"),
    ("人和 for the dealer", ("mcr",), _flag(_set(self_drawn=True), human=True), "flag_needs_non_dealer"),
    ("self_drawn with winners 2", ("guangdong",), _both(_set(self_drawn=True), _fields(winners=2)),
     "flag_needs_discard"),
    ("kong flag on a self-draw with no kong", ALL, _set(self_drawn=True, kong=True), "kong_flag_without_kong"),
    ("a kong replacement win with no kong", ALL, _set(self_drawn=True, replacement="kong"), "kong_flag_without_kong"),
    ("a replacement win on a discard", ALL, _set(replacement="kong"), "replacement_needs_self_draw"),
    ("a flower replacement win with no flower", ("mcr", "longgang"), _set(self_drawn=True, replacement="flower"),
     "replacement_without_flower"),
    ("replacement of another kind", ALL, _set(self_drawn=True, replacement="dice"), "bad_value"),
    ("indicator with wildcards", ("longgang",), _fields(wildcards=["9s"]), "conflicting_fields"),
    ("seat and dealer against seat_wind", ("longgang",), _fields(seat=2, dealer=0), "conflicting_fields"),
    # the wrong number of tiles says so
    ("one tile short", ALL, _drop_tile, "wrong_tile_count"),
    ("one tile too many", ALL, lambda s: s["concealed"].append("9p"), "wrong_tile_count"),
    ("a 陪家 holding a winner's count", ("longgang",), _fields(role="other"), "wrong_tile_count"),
    # and a legal hand of the right size that does not win is still not_a_win
    ("no winning shape", ALL, _hand("1m", "3m", "5m"), "not_a_win"),
]

CASES = [(rs, name, change, code) for name, rulesets, change, code in REJECTIONS for rs in rulesets]


def _line(rs: str, change: Change | None = None) -> dict[str, Any]:
    s = copy.deepcopy(BASE[rs])
    if change is not None:
        change(s)
    return s


@pytest.mark.parametrize("rs", ALL)
def test_every_base_situation_is_valid(rs):
    r = score_line(json.dumps(_line(rs)), rs)
    assert r["valid"] is True, r


@pytest.mark.parametrize(("rs", "name", "change", "code"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_rejection(rs, name, change, code):
    r = score_line(json.dumps(_line(rs, change), ensure_ascii=False), rs)
    assert r["valid"] is False, (name, r)
    assert r["error"] == code, (name, r)
    assert r["message"], name
    assert code in ERRORS


def test_every_error_code_is_documented_and_fired():
    fired = {code for *_, code in REJECTIONS} | {"invalid_json"}
    assert fired == set(ERRORS)
    assert all(ERRORS[c] for c in ERRORS)


def test_a_batch_of_every_rejection_keeps_going():
    """Each bad line gives its own result and the lines after it are still scored."""
    lines, want = [], []
    for rs, _name, change, code in CASES:
        s = _line(rs, change)
        s.setdefault("ruleset", rs)  # "unknown ruleset" keeps its own
        lines += [json.dumps(s, ensure_ascii=False), json.dumps(dict(_line(rs), ruleset=rs))]
        want += [code, None]
    out = io.StringIO()
    assert run(SimpleNamespace(file=None, ruleset="mcr"), stdin=io.StringIO("\n".join(lines) + "\nnot json\n"),
               stdout=out) == 0
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [g.get("error") for g in got] == [*want, "invalid_json"]


# ------------------------------------------------------------- legal neighbours: still scored

LEGAL: list[tuple[str, tuple[str, ...], Change]] = [
    ("chi claimed at its low end from the left", ALL, _chi(claimed="1s")),
    ("chi without claimed or from", ALL, lambda s: s["melds"][0].pop("claimed") and s["melds"][0].pop("from")),
    ("a pon from the opposite seat", ALL, _pon("1s")),
    ("four copies", ALL, _both(_standing("456m 5555p 67p 1p", "456m 789m 5555p 67p 1p"), _set(win_tile="1p"))),
    ("a flower set aside", ("mcr",), _set(flowers=["1f", "8f"])),
    ("other seats' flowers set aside", ("longgang",), _set(flowers=["2f", "3f", "4f"])),
    ("the 坐花 in the hand", ("longgang",), _hand("1f")),
    ("a self-drawn 财神", ("longgang",), _both(_set(self_drawn=True), _hand("9s"))),
    ("wildcards and no seat flower", ("longgang",), _both(_set(ruleset_fields={}),
                                                          _fields(wildcards=["9s"], seat_flower=False))),
    ("heavenly for the dealer", ("mcr", "longgang"), _flag(_set(self_drawn=True), heavenly=True)),
    # 四、6 "天和：庄家起牌或者补完花（可暗杠）而胡牌"
    ("天胡 with a concealed kong", ("longgang",), _both(
        _set(self_drawn=True, melds=[{"type": "kong", "tile": "9p", "concealed": True}]),
        lambda s: s.__setitem__("concealed", ["1s", "2s", "3s", *s["concealed"][3:]]), _fields(heavenly=True))),
    ("地胡 on a discard", ("longgang",), _flag(_set(seat_wind="S"), human=True)),
    ("地和 by the next seat's self-draw", ("mcr",), _flag(_set(seat_wind="S", self_drawn=True), earthly=True)),
    # seed 004: "人和108番〔非國標牌型〕第一圈內胡牌，牌型不限" — on a discard or self-drawn
    ("人和 self-drawn", ("mcr",), _flag(_set(seat_wind="W", self_drawn=True), human=True)),
    ("人和 on a discard", ("mcr",), _flag(_set(seat_wind="N"), human=True)),
    ("seat and dealer agreeing with seat_wind", ("longgang",), _both(_set(seat_wind="W"), _fields(seat=3, dealer=1))),
    ("人胡 timing", ("longgang",), _both(_set(seat_wind="S", options={"human_win": True}),
                                        _fields(seat=1, dealer=0, first_round_discards=2))),
    ("winners 2 on a discard", ("guangdong",), _fields(winners=2)),
    ("ready true", ("guangdong",), _fields(ready=True)),
    ("robbing a kong", ALL, _set(kong=True)),
    ("a kong replacement win with a kong", ALL, _both(
        _set(self_drawn=True, kong=True, melds=[CHI, {"type": "kong", "tile": "9p", "concealed": True}]),
        lambda s: s.__setitem__("concealed", s["concealed"][3:]))),
    ("an id", ALL, _set(id="hand-1")),
    ("role winner", ("longgang",), _fields(role="winner")),
]
LEGAL_CASES = [(rs, name, change) for name, rulesets, change in LEGAL for rs in rulesets]


@pytest.mark.parametrize(("rs", "name", "change"), LEGAL_CASES, ids=[f"{c[0]}-{c[1]}" for c in LEGAL_CASES])
def test_legal_neighbour_is_scored(rs, name, change):
    r = score_line(json.dumps(_line(rs, change)), rs)
    assert r["valid"] is True, (name, r)
