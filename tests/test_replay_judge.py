"""One judgement of a win (``HandReplay.judge_win``) behind the declared win and the what-ifs
(``can_win_now``, ``could_win``, ``win_value``), the kinds of declared win, and the phases."""

from __future__ import annotations

import sys
from pathlib import Path

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import WINDS
from mahjong_audit.engine.replay import (
    ACT,
    CLAIM,
    DRAW,
    ENDED,
    PHASES,
    REPLACE,
    ROB,
    SEABED,
    HandReplay,
)
from mahjong_audit.engine.ruleset import TableView
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas.log import Game
from tests.logbuild import LOW_DEAL, NINE_GATES_DEAL, ROB_DEAL, ROB_LINES, game, hand, with_outcomes


def replay_after(g: dict, upto: int) -> HandReplay:
    """The replay of the game's first hand stopped after its events[:upto]."""
    parsed = Game.model_validate(g)
    h = parsed.hands[0]
    rp = HandReplay(RULESETS[parsed.ruleset](parsed.options), h.model_copy(update={"events": h.events[:upto]}),
                    WINDS.index(h.round_wind))
    rp.deal()
    for ev in rp.h.events:
        rp._step(ev)
    return rp


def test_a_win_on_the_open_discard_is_judged_once_for_the_question_and_the_declaration():
    g = with_outcomes(game(hand(NINE_GATES_DEAL, "0 discard 5p", "1 win 5p from 0")))
    rp = replay_after(g, 1)  # 5p is on the table, seat 1 (九莲宝灯) may take it
    p5 = T.parse("5p")[0]
    assert rp.phase == CLAIM
    assert rp.could_win(1, p5, 0)
    assert not rp.could_win(2, p5, 0)
    judged = rp.judge_win(1, p5, self_drawn=False, in_hand=False, from_seat=0)
    assert judged.reason is None and judged.situation is not None
    assert "九莲宝灯" in [i.name for i in judged.score.items]
    assert rp.win_value(1, p5, self_drawn=False) == judged.score.total
    rp._step(Game.model_validate(g).hands[0].events[1])  # the declared win
    (win,) = rp.wins
    assert (win.legal, win.win_type, win.from_seat) == (True, "discard", 0)
    assert win.score == judged.score
    assert rp.phase == ENDED


def test_below_the_minimum_keeps_its_score_and_is_no_win():
    g = with_outcomes(game(hand(LOW_DEAL, "0 discard 5s", "1 win 5s from 0")))
    rp = replay_after(g, 1)
    s5 = T.parse("5s")[0]
    judged = rp.judge_win(1, s5, self_drawn=False, in_hand=False, from_seat=0)
    assert judged.reason is not None and judged.reason[0] == "false_win/below_minimum"
    assert judged.score is not None and judged.score.below_minimum  # recorded with the false win
    assert not rp.could_win(1, s5, 0)
    assert rp.win_value(1, s5, self_drawn=False) == judged.score.total  # the what-if ignores the minimum


def test_a_barred_seat_is_judged_with_its_situation_and_no_score():
    g = with_outcomes(game(hand(NINE_GATES_DEAL, "0 discard 1z", "1 win 1z from 0", "1 draw 9s", "1 discard 9s",
                                "2 draw 5p", "2 discard 5p")))
    rp = replay_after(g, 6)  # seat 1 made a false win; now 5p, which completes its 九莲宝灯, is open
    p5 = T.parse("5p")[0]
    assert rp.seats[1].barred == "false_win/incomplete"
    judged = rp.judge_win(1, p5, self_drawn=False, in_hand=False, from_seat=2)
    assert judged.reason is not None and judged.reason[0] == "false_win/no_win_allowed"
    assert judged.situation is not None and judged.score is None
    assert not rp.could_win(1, p5, 2)
    assert rp.win_value(1, p5, self_drawn=False) is not None  # the what-if scores the tiles all the same


def test_a_self_drawn_win_on_a_tile_not_held_has_no_situation():
    rp = replay_after(with_outcomes(game(hand(NINE_GATES_DEAL, "0 discard 5p"))), 0)
    assert rp.phase == ACT
    absent = T.parse("9s")[0]
    judged = rp.judge_win(0, absent, self_drawn=True, in_hand=True, from_seat=None)
    assert judged.situation is None and judged.score is None
    assert judged.reason == ("false_win/incomplete", "seat 0 does not hold the winning tile 9s")
    assert rp.win_value(0, absent, self_drawn=True) is None
    assert not rp.can_win_now(rp.seats[0])  # the dealer's fourteen tiles are no win


def test_robbing_a_kong_is_judged_on_the_kongers_tile():
    g = with_outcomes(game(hand(ROB_DEAL, *ROB_LINES)))
    rp = replay_after(g, len(ROB_LINES) - 1)
    assert rp.phase == ROB
    s5 = T.parse("5s")[0]
    assert rp.win_value(1, s5, self_drawn=False) is not None
    rp._step(Game.model_validate(g).hands[0].events[-1])
    (win,) = rp.wins
    assert (win.legal, win.win_type, win.from_seat, win.situation.kong) == (True, "robbing_kong", 0, True)


def test_a_win_by_the_seat_itself_has_no_supplier():
    g = with_outcomes(game(hand(NINE_GATES_DEAL, "0 discard 1z", "1 draw 5p", "1 win 5p from 1")))
    rp = replay_after(g, 3)
    (win,) = rp.wins
    assert (win.legal, win.win_type, win.from_seat, win.situation.self_drawn) == (True, "self_drawn", None, True)


def test_the_phases_are_the_values_rulesets_read():
    assert PHASES == (DRAW, ACT, REPLACE, CLAIM, ROB, SEABED, ENDED)
    assert PHASES == ("draw", "act", "replace", "claim", "rob", "seabed", "ended")
    # the class's source text (a compiled build keeps no source for inspect to find)
    source = Path(sys.modules[TableView.__module__].__file__).with_name("ruleset.py").read_text(encoding="utf-8")
    body = source.split("class TableView", 1)[1]
    declared = next(line for line in body.splitlines() if "phase: str" in line)
    assert " | ".join(PHASES) in declared


def test_every_phase_the_replay_takes_is_one_of_the_constants():
    g = with_outcomes(game(hand(ROB_DEAL, *ROB_LINES)))
    parsed = Game.model_validate(g)
    h = parsed.hands[0]
    seen: set[str] = set()
    HandReplay(RULESETS[parsed.ruleset](parsed.options), h, WINDS.index(h.round_wind)).run(
        lambda _i, r: seen.add(r.phase))
    assert seen <= set(PHASES)
    assert {ACT, CLAIM, ROB, ENDED} <= seen  # after each event (a draw phase lasts until the next draw)
