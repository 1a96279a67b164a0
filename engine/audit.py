"""``audit_game``: the one entry point the pipeline calls.

For each hand: replay the events (engine.replay), settle the legal wins and false-win
penalties with the ruleset, and compare with what the platform recorded (outcome,
score breakdown, deltas). Then check the game's continuity. It never raises on bad data:
an exception inside a hand becomes an ``invalid_log/engine_error`` finding.
"""

from __future__ import annotations

from engine import tiles as T
from engine.findings import Finding, Severity
from engine.hand import ScoreItem
from engine.replay import HandReplay
from engine.result import GameAudit, HandFacts, WinFacts
from engine.ruleset import Ruleset
from engine.rulesets import RULESETS
from schemas import log as L

WINDS = "ESWN"


def audit_game(game: L.Game) -> GameAudit:
    """Audit one validated game. Deterministic: the same log always gives the same findings."""
    ruleset = RULESETS[game.ruleset](game.options)
    findings: list[Finding] = []
    hands: list[HandFacts] = []
    for hand in game.hands:
        try:
            facts, hand_findings = audit_hand(ruleset, hand)
        except Exception as exc:  # noqa: BLE001 — an engine bug must not stop the batch; it is reported
            hand_findings = [Finding("invalid_log/engine_error",
                                     f"the engine failed on this hand: {type(exc).__name__}: {exc}",
                                     hand_no=hand.hand_no)]
            facts = HandFacts(hand.hand_no, hand.dealer, hand.round_wind, "unfinished", (), (), None,
                              tuple(hand.outcome.deltas) if hand.outcome and hand.outcome.deltas else None,
                              (), len(hand.events), 1)
        findings.extend(hand_findings)
        hands.append(facts)
    findings.extend(check_continuity(ruleset, game, hands))
    return GameAudit(
        game_id=game.game_id, ruleset=game.ruleset, platform=game.platform,
        players=tuple(game.players or ("", "", "", "")), hands=tuple(hands), findings=tuple(findings),
    )


def audit_hand(ruleset: Ruleset, hand: L.Hand) -> tuple[HandFacts, list[Finding]]:
    replay = HandReplay(ruleset, hand, WINDS.index(hand.round_wind))
    findings = replay.run()
    legal = [w for w in replay.wins if w.legal]
    end = replay.hand_end()
    items: tuple[ScoreItem, ...] = ()
    if end.wins:
        settlement = ruleset.settle(end)
        deltas = [a + b for a, b in zip(settlement.deltas, replay.penalties, strict=True)]
        items = ruleset.seat_items(end)
    else:
        deltas = list(replay.penalties)
    if legal:
        result = "win"
    elif replay.exhausted:
        result = "draw"
    else:
        result = "unfinished"
    outcome = hand.outcome
    recorded_deltas = tuple(outcome.deltas) if outcome and outcome.deltas else None
    compare = OutcomeCheck(ruleset, hand, findings)
    recorded_totals = compare.run(result, legal, deltas)
    wins = tuple(
        WinFacts(seat=w.seat, from_seat=w.from_seat, tile=T.name(w.tile), win_type=w.win_type,
                 last_tile=w.last_tile, legal=w.legal, score=w.score,
                 recorded_total=recorded_totals.get(w.seat))
        for w in replay.wins
    )
    facts = HandFacts(
        hand_no=hand.hand_no, dealer=hand.dealer, round_wind=hand.round_wind, result=result, wins=wins,
        false_wins=tuple(replay.false_wins), computed_deltas=tuple(deltas), recorded_deltas=recorded_deltas,
        seat_items=items, n_events=len(hand.events), n_findings=len(findings),
        draw_reason=replay.draw_reason if result == "draw" else None,
    )
    return facts, findings


class OutcomeCheck:
    """Compares the platform's recorded outcome with the replay."""

    def __init__(self, ruleset: Ruleset, hand: L.Hand, findings: list[Finding]):
        self.rs = ruleset
        self.hand = hand
        self.findings = findings

    def find(self, code: str, message: str, **kw: object) -> None:
        for key in ("expected", "recorded"):  # Finding holds text, as HandReplay.find makes it
            if kw.get(key) is not None:
                kw[key] = str(kw[key])
        self.findings.append(Finding(code, message, hand_no=self.hand.hand_no, **kw))  # type: ignore[arg-type]

    def run(self, result: str, legal: list, deltas: list[int]) -> dict[int, int]:
        outcome = self.hand.outcome
        totals: dict[int, int] = {}
        if outcome is None:
            self.find("outcome_mismatch/missing", "the hand has no recorded outcome", severity=Severity.WARNING)
            return totals
        if result == "unfinished" and outcome.result == "draw":
            self.find("outcome_mismatch/result", "recorded as an exhaustive draw, but the wall is not used up",
                      expected="unfinished", recorded="draw",
                      severity=Severity.WARNING if self.hand.wall is None and self.hand.seat_walls is None
                      else Severity.ERROR)
        elif result != outcome.result and not (result == "unfinished" and outcome.result == "draw"):
            self.find("outcome_mismatch/result", f"recorded result {outcome.result!r}, the events show {result!r}",
                      expected=result, recorded=outcome.result)
        ours = sorted(w.seat for w in legal)
        theirs = sorted(w.seat for w in outcome.wins)
        if ours != theirs:
            self.find("outcome_mismatch/winners", f"recorded winners {theirs}, the events show {ours}",
                      expected=ours, recorded=theirs)
        by_seat = {w.seat: w for w in legal}
        for rec in outcome.wins:
            w = by_seat.get(rec.seat)
            if rec.score is not None and rec.score.total is not None:
                totals[rec.seat] = rec.score.total
            if w is None or w.score is None or rec.score is None:
                continue
            items_ok, total_ok = self.rs.recorded_matches(rec.score, w.score)
            if not items_ok:
                self.find("score_mismatch/fans", f"seat {rec.seat}: recorded breakdown differs from the recomputed one",
                          seat=rec.seat, expected=describe_items(w.score.items),
                          recorded=describe_recorded(rec.score))
            if not total_ok:
                self.find("score_mismatch/total", f"seat {rec.seat}: recorded total {rec.score.total}, "
                          f"recomputed {w.score.total}", seat=rec.seat, expected=w.score.total,
                          recorded=rec.score.total)
        if outcome.deltas is not None and len(legal) > 1 and not self.rs.multiple_win_payout_known:
            self.find("platform_quirk/multiple_win_payout",
                      f"{len(legal)} winners on one discard and the platform does not document how such a hand "
                      f"is paid: recorded deltas {outcome.deltas} are reported, not compared",
                      severity=Severity.WARNING, expected=deltas, recorded=outcome.deltas)
        elif outcome.deltas is not None:
            if sum(outcome.deltas) != 0:
                self.find("payout_mismatch/not_zero_sum", f"recorded deltas {outcome.deltas} sum to {sum(outcome.deltas)}",
                          recorded=outcome.deltas, expected=0)
            for s in range(4):
                if outcome.deltas[s] != deltas[s]:
                    self.find("payout_mismatch/delta",
                              f"seat {s}: recorded {outcome.deltas[s]:+d}, recomputed {deltas[s]:+d}",
                              seat=s, expected=deltas[s], recorded=outcome.deltas[s])
        return totals


def describe_items(items: tuple[ScoreItem, ...]) -> str:
    return " ".join(f"{i.name}{i.value}" + (f"×{i.count}" if i.count != 1 else "") for i in items)


def describe_recorded(score: L.RecordedScore) -> str:
    if score.fans is not None:
        return " ".join(f"{f[0]}{f[1]}" + (f"×{f[2]}" if len(f) > 2 and f[2] != 1 else "") for f in score.fans)
    return f"hu={score.hu} tai={score.tai} total={score.total}"


def check_continuity(ruleset: Ruleset, game: L.Game, hands: list[HandFacts]) -> list[Finding]:
    out: list[Finding] = []
    first_dealer = game.hands[0].dealer if game.hands else 0
    for i, hand in enumerate(game.hands):
        if hand.hand_no != i:
            out.append(Finding("continuity/hand_no", f"hand {i} is numbered {hand.hand_no}", hand_no=hand.hand_no,
                               expected=str(i), recorded=str(hand.hand_no)))
        if i == 0:
            continue
        prev, facts = game.hands[i - 1], hands[i - 1]
        winners = [w.seat for w in facts.wins if w.legal]
        dealer = ruleset.next_dealer(prev.dealer, winners, facts.result != "win")
        if hand.dealer != dealer:
            out.append(Finding("continuity/dealer", f"hand {hand.hand_no}: dealer is seat {hand.dealer}, the rotation "
                               f"gives seat {dealer}", hand_no=hand.hand_no, expected=str(dealer),
                               recorded=str(hand.dealer)))
        wind = ruleset.next_round_wind(WINDS.index(prev.round_wind), i, hand.dealer, first_dealer,
                                       hand.dealer != prev.dealer)
        if hand.round_wind != WINDS[wind]:
            out.append(Finding("continuity/round_wind", f"hand {hand.hand_no}: round wind {hand.round_wind}, the "
                               f"rotation gives {WINDS[wind]}", hand_no=hand.hand_no, expected=WINDS[wind],
                               recorded=hand.round_wind))
    if game.initial_scores is not None and game.final_scores is not None:
        running = list(game.initial_scores)
        for facts in hands:
            d = facts.recorded_deltas or facts.computed_deltas or (0, 0, 0, 0)
            running = [a + b for a, b in zip(running, d, strict=True)]
        if running != list(game.final_scores):
            out.append(Finding("continuity/final_scores",
                               f"final scores {game.final_scores} differ from initial + hand deltas {running}",
                               expected=str(running), recorded=str(game.final_scores)))
    return out
