"""Importer botzone-json: the spec's hand conversion, per-seat walls, claims from responses."""

import json
from pathlib import Path

import pytest

from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record, detect
from mahjong_audit.pipeline.importers.common import BOTZONE_OPTIONS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game

DIR = Path(__file__).parent / "fixtures" / "real" / "botzone-json"
EXAMPLE = Path(__file__).parent / "fixtures" / "real" / "example-mcr-botzone.json"
IMP = IMPORTERS["botzone-json"]


def load(match: str) -> dict:
    path = DIR / f"{match}_lite.json"
    (rec,) = IMP.records(str(path), text_lines(path.read_text(encoding="utf-8")))
    (game,) = IMP.convert(rec)
    return game


def test_matches_the_spec_example_conversion():
    ours = load("6a20635a58ebe27b197dddad")
    spec = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    # added on purpose: the platform's options, its per-seat walls and metadata
    assert ours["options"] == BOTZONE_OPTIONS and spec["options"] == {}
    for key in ("format", "game_id", "platform", "ruleset", "players"):
        assert ours[key] == spec[key]
    hand, want = ours["hands"][0], spec["hands"][0]
    assert set(hand) - set(want) == {"seat_walls", "meta"}
    for key in want:
        assert hand[key] == want[key], key
    Game.model_validate(ours)


def test_seat_walls_are_each_seats_draws_in_order():
    g = load("6a20635a58ebe27b197dddad")
    hand = g["hands"][0]
    assert [len(w) for w in hand["seat_walls"]] == [21] * 4
    for s in range(4):
        draws = [e["tile"] for e in hand["events"] if e["type"] == "draw" and e["seat"] == s]
        assert draws == hand["seat_walls"][s][:len(draws)]


def test_metadata_and_can_hu_are_kept():
    g = load("6a20635a58ebe27b197dddad")
    assert g["meta"]["match_id"] == "6a20635a58ebe27b197dddad"
    assert g["meta"]["botName"] == "chunjiandu【9】"
    can = dict((seq, c) for seq, c in g["hands"][0]["meta"]["can_hu"])
    assert can[110] == [-3, 30, -3, -4]  # the discard seat 1 won on, for 30 fan
    assert g["hands"][0]["meta"]["srand"] == 1780507474


def test_every_declared_claim_is_kept_even_when_it_lost():
    evs = {e["seq"]: e for e in load("6a20884b58ebe27b197dfa43")["hands"][0]["events"]}
    last = max(evs)
    assert evs[last]["type"] == "win" and evs[last]["seat"] == 1
    assert evs[last - 1]["claims"] == [{"seat": 1, "call": "win"}, {"seat": 2, "call": "win"}]
    lost_chi = [e for e in load("6a20ff3658ebe27b197ed0e3")["hands"][0]["events"]
                if e.get("claims") and len(e["claims"]) == 2]
    assert [c["claims"] for c in lost_chi] == [[{"seat": 3, "call": "chi"}, {"seat": 0, "call": "pon"}]]


def test_kongs_and_exhaustive_draw():
    hand = load("6a206f7f58ebe27b197de7bc")["hands"][0]
    kongs = [e for e in hand["events"] if "kong" in e["type"]]
    assert [(k["type"], k["seat"], k["tile"]) for k in kongs] == [("concealed_kong", 1, "2s")]
    nxt = hand["events"][hand["events"].index(kongs[0]) + 1]
    assert nxt["type"] == "draw" and nxt["from"] == "back" and nxt["seat"] == 1
    assert hand["outcome"] == {"result": "draw", "wins": [], "deltas": [0, 0, 0, 0]}


def test_added_kong_then_self_drawn_win():
    hand = load("6a2065c358ebe27b197de009")["hands"][0]
    assert [e["type"] for e in hand["events"] if e["type"] == "added_kong"] == ["added_kong"]
    assert hand["events"][-1] == {"seq": hand["events"][-1]["seq"], "type": "win", "seat": 2,
                                  "tile": hand["events"][-2]["tile"], "from": 2}
    assert hand["outcome"]["wins"][0]["score"]["fans"] == [["花龙", 8, 1], ["边张", 1, 1], ["自摸", 1, 1]]


def test_metadata_file_yields_no_record_and_is_sniffed():
    path = DIR / "6a20635a58ebe27b197dddad_metadata.json"
    text = path.read_text(encoding="utf-8")
    assert list(IMP.records(str(path), text_lines(text))) == []
    assert detect(str(path), text[:4096]) == "botzone-json"
    lite = DIR / "6a20635a58ebe27b197dddad_lite.json"
    assert detect(str(lite), lite.read_text(encoding="utf-8")[:4096]) == "botzone-json"
    assert not IMP.sniff("g.json", '{"format": "mahjong-log/1", "game_id": "x"}')


def _raw(match: str = "6a20635a58ebe27b197dddad") -> dict:
    return json.loads((DIR / f"{match}_lite.json").read_text(encoding="utf-8"))


def _convert(data: dict) -> dict:
    return IMP.convert(Record("/nowhere/abc_lite.json", 1, json.dumps(data)))[0]


def test_without_metadata_the_match_id_comes_from_the_file_name():
    assert _convert(_raw())["game_id"] == "botzone-abc"


def test_penalty_verdict_ends_the_match_with_the_penalty_it_paid():
    """A WA (an answer the judge refused) ends the match; the record says who paid what."""
    data = _raw()
    data["logs"][-1]["output"]["display"] = {"action": "WA", "player": 2, "score": [10, 10, -30, 10]}
    g = _convert(data)
    assert g["options"]["penalty_verdicts"] is True
    assert g["hands"][0]["outcome"] == {"result": "draw", "wins": [], "deltas": [10, 10, -30, 10], "penalties": [
        {"seat": 2, "kind": "wrong_action", "deltas": [10, 10, -30, 10]}]}
    assert g["hands"][0]["meta"]["verdict"] == "WA"


def test_penalty_verdict_without_its_score_is_rejected_naming_the_match():
    data = _raw()
    data["logs"][-1]["output"]["display"] = {"action": "TLE", "player": 2}
    with pytest.raises(ImportFailure, match=r"match abc: logs\[\d+\]: judge verdict 'TLE' \(player 2\) without the score"):
        _convert(data)


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d.update(initdata='{"quan": 9}'), "no quan"),
    (lambda d: d.update(initdata=json.dumps({"quan": 0, "walltiles": "W1 W2"})), "walltiles holds 2 tiles"),
    (lambda d: d.update(logs=d["logs"][:-1]), "no result"),
    (lambda d: d["logs"][2]["output"]["display"]["hand"][0].reverse(), "DEAL display differs"),
])
def test_broken_records_are_rejected(mutate, reason):
    data = _raw()
    mutate(data)
    with pytest.raises(ImportFailure, match=reason):
        _convert(data)


def test_not_json_is_rejected():
    with pytest.raises(ImportFailure, match="not valid JSON"):
        IMP.convert(Record("x_lite.json", 1, "{oops"))
