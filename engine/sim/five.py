"""Whole 龙港 sessions (牌局) with chips, four or five players (the simulator's ``--chips`` and
``--five``).

The bots play the four seats hand after hand until the session ends (seed 000 五、(三)–(四)): every
hand is paid pair by pair into the players' chips (``Ruleset.chips_ledger``); the first player to
go broke (断子) re-buys (加筹) and from the next hand the bracketed 跟胡数 apply
(``Ruleset.after_break``); a second 断子, or two in one hand, ends the session — or the hand cap
does. In a share of the hands (``false_win_rate``) a seat declares a win it does not have (a
deliberate 诈胡): it pays the 诈胡 chips at the end of the session, may not win again in that
hand and scores 0.

With five, ``bot4`` stands out first, and whenever the deal passes the old dealer stands up and
the player standing out takes its seat (``Ruleset.next_seating``); each hand gets its ``seats``
and an ``out_delta`` (the standing player's share of a 诈胡, "五人来的，岸上的人也有份"). Every
hand records every player's ``chips`` after it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.rulesets.longgang_chips import Payment
from mahjong_audit.engine.sim.game import HandSim, game_id, game_rng, next_deal

#: hands a session plays at most when ``--hands-per-game`` is not given (sessions nearly always
#: end long before: the longest of 1,000 simulated ones took well under a hundred)
SESSION_HANDS = 300
#: the share of hands with a deliberate 诈胡 when ``--false-wins`` is not given
FALSE_WIN_RATE = 0.03


def simulate_session(ruleset_name: str, options: dict[str, Any], rng: random.Random, game_id: str, n_players: int,
                     max_hands: int, false_win_rate: float = FALSE_WIN_RATE, cov: Counter | None = None
                     ) -> dict[str, Any]:
    """One session of ``n_players`` (4 or 5) bots, ``bot0``…, under ``options`` (recorded in the
    log), as a ``mahjong-log/1`` dict."""
    cov = Counter() if cov is None else cov
    ruleset: Ruleset = RULESETS[ruleset_name](options)
    ledger = ruleset.chips_ledger(n_players)
    if ledger is None:
        raise ValueError(f"{ruleset.name} keeps no chips over a session")
    after_break = ruleset.after_break()
    seating: tuple[int, ...] = (0, 1, 2, 3)
    dealer = first_dealer = round_wind = 0
    scores = [0] * n_players
    hands: list[dict[str, Any]] = []
    for i in range(max_hands):
        standing = tuple(p for p in range(n_players) if p not in seating)
        if i:
            seating = ruleset.next_seating(seating, standing, hands[-1]["dealer"], dealer) or seating
            standing = tuple(p for p in range(n_players) if p not in seating)
        sim = HandSim(after_break if ledger.rebought else ruleset, rng, i, dealer, round_wind, cov,
                      false_win_rate=false_win_rate)
        hand = sim.run()
        outcome = hand["outcome"]
        false_wins: list[Payment] = []
        share_each = 0
        for s in sim.false_wins:
            pen = ruleset.false_win_penalty(s, dealer)
            false_wins += [Payment(seating[s], seating[t], x) for t, x in enumerate(pen) if x > 0]
            share = ruleset.false_win_standing_share(s, dealer) if standing else 0
            false_wins += [Payment(seating[s], p, share) for p in standing]
            outcome["deltas"][s] -= share * len(standing)
            share_each += share
        if n_players > 4:
            hand["seats"] = list(seating)
            outcome["out_delta"] = share_each
        for s, p in enumerate(seating):
            scores[p] += outcome["deltas"][s]
        for p in standing:
            scores[p] += share_each
        winners = [w["seat"] for w in outcome["wins"]]
        debts = tuple(Payment(seating[a], seating[b], x) for a, b, x in sim.payments)
        result = ledger.hand(i, seating, seating[winners[0]] if winners else None, debts, false_wins)
        chips = ledger.settle_false_wins() if result.ended or i == max_hands - 1 else result.balances
        hand["chips"] = list(chips)
        hands.append(hand)
        cov["session_broke"] += len(result.broke)
        cov["session_rebuys"] += result.rebuy is not None
        cov["session_short_payers"] += short_payers(debts, result.paid)
        if result.ended:
            cov["sessions_ended"] += 1
            break
        dealer, round_wind = next_deal(ruleset, i, dealer, round_wind, first_dealer, outcome)
    else:
        cov["sessions_at_hand_cap"] += 1
    cov["games"] += 1
    return {
        "format": "mahjong-log/1", "game_id": game_id, "platform": "mahjong-audit-sim",
        "ruleset": ruleset.name, "options": dict(options), "players": [f"bot{p}" for p in range(n_players)],
        "initial_scores": [0] * n_players, "hands": hands, "final_scores": scores,
    }


def short_payers(owed: tuple[Payment, ...], paid: tuple[Payment, ...]) -> int:
    """How many payers paid less than they owed."""
    left: Counter = Counter()
    for d in owed:
        left[d.payer] += d.amount
    for d in paid:
        left[d.payer] -= d.amount
    return sum(1 for x in left.values() if x > 0)


def session_one(ruleset: str, options: dict[str, Any], seed: int, index: int, n_players: int, max_hands: int,
                false_win_rate: float = FALSE_WIN_RATE, cov: Counter | None = None) -> dict[str, Any]:
    """Session ``index`` of the run ``(ruleset, seed)``: the same on every call."""
    return simulate_session(ruleset, options, game_rng(seed, index), game_id(ruleset, seed, index), n_players,
                            max_hands, false_win_rate, cov)


def false_win_labels(game: dict[str, Any]) -> list[dict[str, Any]]:
    """A label for each deliberate 诈胡 of a simulated session (the auditor finds each as a
    ``false_win``; it is play, not a fault of the log): ``deliberate: true``."""
    out = []
    for hand in game["hands"]:
        for pen in hand["outcome"].get("penalties", ()):
            if pen["kind"] == "false_win":
                out.append({"game_id": game["game_id"], "hand_no": hand["hand_no"], "kind": "false_win",
                            "code": "false_win/incomplete", "deliberate": True,
                            "description": f"seat {pen['seat']} declared a win it does not have (a deliberate 诈胡)"})
    return out
