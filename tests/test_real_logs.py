"""Real platform logs: every game imports, audits clean, and agrees with the platform's own judge.

The fixtures (tests/fixtures/real, the eight botzone-judge matches included) always run;
the full ../shared/real-logs folder is read as well when it is present (skipped cleanly
otherwise; the environment variable MAHJONG_AUDIT_REAL_LOGS names it elsewhere). Shapes:
Botzone text, match records, judge logs and display logs (``*.log``), PMN, and 雀渣 sessions. The Botzone importers set the judge's options (``BOTZONE_OPTIONS``); the
per-cause tests on the botzone-judge matches are in tests/test_mcr_botzone_judge.py. A correct auditor reports
nothing on these games except the documented quirk ``platform_quirk/multiple_win_payout``
(mahjongsoft's two-winner hand, example_2.pmn).
"""

from __future__ import annotations

import os
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.pipeline.importers import IMPORTERS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "real"
SHARED = Path(os.environ.get("MAHJONG_AUDIT_REAL_LOGS", HERE.parent.parent / "shared" / "real-logs"))
ALLOWED = {"platform_quirk/multiple_win_payout"}


def sources(root: Path) -> list[tuple[str, Path]]:
    out = [("botzone-txt", p) for p in sorted(root.glob("**/sample.txt"))]
    out += [("botzone-json", p) for p in sorted(root.glob("**/*_lite.json"))]
    out += [("botzone-json", p) for p in sorted(root.glob("**/*.log"))]  # judge logs and display logs
    out += [("pmn", p) for p in sorted(root.glob("**/*.pmn"))]
    out += [("tziakcha", p) for p in sorted(root.glob("**/session-*.json"))]
    return out


@cache
def games(root: Path) -> tuple[Game, ...]:
    out = []
    for name, path in sources(root):
        imp = IMPORTERS[name]
        for rec in imp.records(str(path), text_lines(path.read_text(encoding="utf-8"))):
            out.extend(Game.model_validate(d) for d in imp.convert(rec))
    return tuple(out)


def roots() -> list:
    return [pytest.param(FIXTURES, id="fixtures"),
            pytest.param(SHARED, id="shared", marks=pytest.mark.skipif(
                not SHARED.is_dir(), reason="../shared/real-logs is not present"))]


@pytest.mark.parametrize("root", roots())
def test_all_three_formats_import(root):
    by_platform = Counter(g.platform for g in games(root))
    want = {"botzone": 35, "mahjongsoft": 3, "tziakcha": 1} if root == FIXTURES else \
        {"botzone": 76, "mahjongsoft": 3, "tziakcha": 1}
    assert dict(by_platform) == want


@pytest.mark.parametrize("root", roots())
def test_each_shape_is_read(root):
    """Botzone's three JSON shapes, the penalty verdicts a display log may end on, 雀渣's hands."""
    bz = [g for g in games(root) if g.meta and g.meta.get("source") == "botzone-json"]
    shapes = Counter(g.meta.get("shape", "match record") for g in bz)
    verdicts = [g.game_id for g in bz if "verdict" in (g.hands[0].meta or {})]
    tz = [g for g in games(root) if g.platform == "tziakcha"]
    if root == FIXTURES:
        assert shapes == {"match record": 13, "judge log": 2, "display log": 4} and len(verdicts) == 1
    else:
        assert shapes == {"match record": 24, "judge log": 9, "display log": 27}
        assert verdicts == ["botzone-lv0__Qwen3-8B__0-llm", "botzone-lv1__Qwen3-32B-Instruct__13-bl-re"]
    assert [len(g.hands) for g in tz] == [16]


@pytest.mark.parametrize("root", roots())
def test_every_game_audits_clean(root):
    found = {}
    for g in games(root):
        for f in audit_game(g).findings:
            found.setdefault(g.game_id, []).append(f"{f.code} seq={f.seq} seat={f.seat}: {f.message}")
    quirks = {gid: fs for gid, fs in found.items() if all(x.split()[0] in ALLOWED for x in fs)}
    assert {gid: fs for gid, fs in found.items() if gid not in quirks} == {}
    assert list(quirks) == ["mahjongsoft-74621-g1-t3"]


@pytest.mark.parametrize("root", roots())
def test_recorded_fans_equal_ours_name_for_name(root):
    compared = 0
    for g in games(root):
        audit = audit_game(g)
        for hand, facts in zip(g.hands, audit.hands, strict=True):
            recorded = {w.seat: w.score for w in hand.outcome.wins}
            for w in facts.wins:
                theirs = sorted((f[0], f[1], f[2] if len(f) > 2 else 1) for f in recorded[w.seat].fans)
                ours = sorted((i.name, i.value, i.count) for i in w.score.items)
                assert ours == theirs, (g.game_id, w.seat)
                assert w.score.total == recorded[w.seat].total
                compared += 1
    assert compared == (49 if root == FIXTURES else 72)


def can_hu_comparisons(game: Game) -> Counter:
    """Replay with an observer: wherever Botzone's judge logged canHu[s], ask our engine the same."""
    rs = RULESETS[game.ruleset](game.options)
    stats: Counter = Counter()
    for hand in game.hands:
        can = {seq: c for seq, c in hand.meta["can_hu"]}

        def observe(i: int, rp: HandReplay, hand=hand, can=can) -> None:
            ev = hand.events[i]
            if ev.seq not in can:
                return
            t = T.tile(ev.tile)
            for s, theirs in enumerate(can[ev.seq]):
                if theirs == -4:  # not evaluated by the judge (the actor of a discard, others on a draw)
                    stats["not_evaluated"] += 1
                    continue
                ours = rp.win_value(s, t, self_drawn=ev.type == "draw")
                expected = None if theirs == -3 else theirs
                if ours == expected:
                    stats["agree_win" if expected is not None else "agree_no_win"] += 1
                else:
                    stats[f"DISAGREE {game.game_id} seq {ev.seq} seat {s}: judge {theirs}, ours {ours}"] += 1

        HandReplay(rs, hand, "ESWN".index(hand.round_wind)).run(observe)
    return stats


@pytest.mark.parametrize("root", roots())
def test_can_hu_oracle_agrees(root):
    total: Counter = Counter()
    for g in games(root):
        if g.meta and g.meta.get("source") == "botzone-json":
            total += can_hu_comparisons(g)
    assert [k for k in total if k.startswith("DISAGREE")] == []
    want = (43, 1904) if root == FIXTURES else (68, 6006)
    assert (total["agree_win"], total["agree_no_win"]) == want


# ---------------------------------------------------------------- per-seat walls (Botzone)

def _game(game_id: str) -> Game:
    return next(g for g in games(FIXTURES) if g.game_id == game_id)


@pytest.mark.parametrize("game_id", ["botzone-6a206f7f58ebe27b197de7bc", "botzone-61602cb45ddc087351c04399",
                                     "botzone-61602cb45ddc087351c043a3"])
def test_botzone_huang_ends_when_the_seat_after_the_discarder_has_an_empty_wall(game_id):
    """Regression: the exhaustion test looked at the seat two after the discarder."""
    g = _game(game_id)
    hand = g.hands[0]
    rp = HandReplay(RULESETS["mcr"](g.options), hand, "ESWN".index(hand.round_wind))
    exhausted_at = []
    rp.run(lambda i, r: exhausted_at.append(hand.events[i].seq) if hand.events[i].type == "discard"
           and r.wall_exhausted() else None)
    assert exhausted_at == [hand.events[-1].seq]  # only the last discard leaves no draw
    assert rp.exhausted and audit_game(g).findings == ()


def test_drawing_past_the_own_wall_is_found():
    g = _game("botzone-61602cb45ddc087351c04399")  # seat 1 draws all 21 tiles of its wall
    small = Game.model_validate(dict(g.model_dump(by_alias=True, exclude_none=True),
                                     options={"flowers": False, "seat_wall_size": 20}))
    assert "tile_conservation/wall_exhausted" in [f.code for f in audit_game(small).findings]


def _last_tile_fans(size: int, self_drawn: bool) -> set[str]:
    """Per-seat walls of ``size`` tiles; one go-round, then seat 3's draw / discard is the last."""
    from tests.logbuild import audit, game, hand

    winner = "123456789m123p5p"
    other = "2468m2468p3579s7z"
    deal = ["19m19p19s1234567z", other if self_drawn else winner, "2233445566778s",
            winner if self_drawn else other]
    end = ("3 draw 5p", "3 win 5p from 3") if self_drawn else ("3 draw 5p", "3 discard 5p", "1 win 5p from 3")
    h = hand(deal, "0 draw 2s", "0 discard 2s", "1 draw 8s", "1 discard 8s", "2 draw 9s", "2 discard 9s", *end)
    (w,) = audit(game(h, options={"flowers": False, "seat_wall_size": size})).hands[0].wins
    assert w.legal
    return {i.name for i in w.score.items}


def test_botzone_last_discard_before_the_next_seats_empty_wall_is_haidi():
    assert "海底捞月" in _last_tile_fans(1, self_drawn=False)
    assert "海底捞月" not in _last_tile_fans(2, self_drawn=False)


def test_botzone_last_draw_before_the_next_seats_empty_wall_is_miaoshou():
    assert "妙手回春" in _last_tile_fans(1, self_drawn=True)
    assert "妙手回春" not in _last_tile_fans(2, self_drawn=True)
