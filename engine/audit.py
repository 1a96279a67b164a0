"""``audit_game``: the one entry point the pipeline calls.

For each hand: replay the events (mahjong_audit.engine.replay), settle the legal wins and false-win
penalties with the ruleset, and compare with what the platform recorded (outcome,
score breakdown, deltas). Then check the game's continuity. It never raises on bad data:
an exception inside a hand becomes an ``invalid_log/engine_error`` finding.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.hand import ScoreItem
from mahjong_audit.engine.house_rules import Profile, effective_options, readings_json
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.result import ChipFacts, GameAudit, HandFacts, WinFacts
from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas import log as L

WINDS = "ESWN"
WRONG_ACTION = "wrong_action"  # outcome.penalties kind: a judge's penalty verdict ended the hand


def audit_game(game: L.Game, profile: Profile | None = None) -> GameAudit:
    """Audit one validated game. Deterministic: the same log always gives the same findings.

    ``profile``: a house-rules profile for the whole corpus; the game's own ``options`` win
    over it, it wins over the defaults (:func:`mahjong_audit.engine.house_rules.effective_options`). Raises
    :class:`mahjong_audit.engine.ruleset.OptionError` when the game's options and the profile do not go
    together (the pipeline rejects such a game as it rejects a log whose options are invalid)."""
    options = game.options if profile is None else effective_options(game.ruleset, game.options, profile)
    ruleset = RULESETS[game.ruleset].for_options(options)  # shared by the games with these options
    findings: list[Finding] = []
    hands: list[HandFacts] = []
    names = tuple(game.players or ("", "", "", ""))
    ledger = ruleset.chips_ledger(len(names)) if any(h.chips is not None for h in game.hands) else None
    hand_rs = ruleset
    five = len(names) > 4  # with four players (or none named) nobody stands out of a hand
    for i, hand in enumerate(game.hands):
        seated = tuple([names[p] for p in game.seating(hand)])
        standing = tuple([names[p] for p in game.standing_out(hand)]) if five else ()
        payments: tuple[tuple[int, int, int], ...] = ()
        try:
            facts, hand_findings, payments = _audit_hand(hand_rs, hand, len(standing), seated, standing)
        except Exception as exc:  # noqa: BLE001 — an engine bug must not stop the batch; it is reported
            hand_findings = [Finding("invalid_log/engine_error",
                                     f"the engine failed on this hand: {type(exc).__name__}: {exc}",
                                     hand_no=hand.hand_no)]
            facts = HandFacts(hand.hand_no, hand.dealer, hand.round_wind, "unfinished", (), (), None,
                              tuple(hand.outcome.deltas) if hand.outcome and hand.outcome.deltas else None,
                              (), len(hand.events), 1, players=seated, standing=standing)
        if ledger is not None:
            facts, chip_findings = check_chips(ledger, game, i, facts, hand_rs, payments)
            hand_findings.extend(chip_findings)
            if ledger.rebought:
                hand_rs = ruleset.after_break()
        findings.extend(hand_findings)
        hands.append(facts)
    findings.extend(check_continuity(ruleset, game, hands))
    return GameAudit(
        game_id=game.game_id, ruleset=game.ruleset, platform=game.platform,
        players=names, hands=tuple(hands), findings=tuple(findings),
        readings=readings_json(game.ruleset, ruleset.options),
        profile=profile.name if profile is not None else "",
        profile_sha256=profile.sha256 if profile is not None else "",
    )


def audit_hand(ruleset: Ruleset, hand: L.Hand, standing: int = 0) -> tuple[HandFacts, list[Finding]]:
    """Replay and settle one hand. ``standing``: how many players stand out this hand (five-player
    games); a false winner also pays each of them its share (:meth:`Ruleset.false_win_standing_share`)."""
    facts, findings, _ = _audit_hand(ruleset, hand, standing)
    return facts, findings


def _audit_hand(ruleset: Ruleset, hand: L.Hand, standing: int = 0, players: tuple[str, ...] = (),
                standing_names: tuple[str, ...] = ()
                ) -> tuple[HandFacts, list[Finding], tuple[tuple[int, int, int], ...]]:
    """:func:`audit_hand` and the won hand's pairwise payments (``Settlement.payments``, seats);
    ``players`` and ``standing_names`` go into the facts (``HandFacts.players``, ``.standing``)."""
    replay = HandReplay(ruleset, hand, WINDS.index(hand.round_wind))
    findings = replay.run()
    legal = [w for w in replay.wins if w.legal]
    items: tuple[ScoreItem, ...] = ()
    payments: tuple[tuple[int, int, int], ...] = ()
    # the hand's end is built for a scored win only (HandReplay.hand_end keeps those)
    if any(w.situation is not None and w.score is not None for w in legal):
        end = replay.hand_end()
        settlement = ruleset.settle(end)
        deltas = [a + b for a, b in zip(settlement.deltas, replay.penalties, strict=True)]
        items = ruleset.seat_items(end)
        payments = settlement.payments
    else:
        deltas = list(replay.penalties)
    penalties = list(replay.penalties)
    verdict = penalty_verdict(ruleset, hand) if not legal and not replay.exhausted else None
    if verdict is not None:  # the judge ended the hand: its penalty is paid, nothing else
        pen = ruleset.false_win_penalty(verdict, hand.dealer)
        deltas = [a + b for a, b in zip(deltas, pen, strict=True)]
        penalties = [a + b for a, b in zip(penalties, pen, strict=True)]
    standing_share = None
    if standing:
        standing_share = 0
        for s in replay.false_wins:
            share = ruleset.false_win_standing_share(s, hand.dealer)
            deltas[s] -= share * standing
            penalties[s] -= share * standing
            standing_share += share
    if legal:
        result = "win"
    elif replay.exhausted or verdict is not None:
        result = "draw"
    else:
        result = "unfinished"
    outcome = hand.outcome
    recorded_deltas = tuple(outcome.deltas) if outcome and outcome.deltas else None
    compare = OutcomeCheck(ruleset, hand, findings)
    recorded_totals = compare.run(result, legal, deltas, standing, standing_share)
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
        draw_reason=("penalty_verdict" if verdict is not None else replay.draw_reason) if result == "draw" else None,
        standing_computed=standing_share, standing_recorded=outcome.out_delta if outcome else None,
        players=players, standing=standing_names, penalty_deltas=tuple(penalties), chances=replay.chances.facts(),
    )
    return facts, findings, payments


def penalty_verdict(ruleset: Ruleset, hand: L.Hand) -> int | None:
    """The offender of a judge's penalty verdict that ended ``hand`` (a recorded ``wrong_action``
    penalty, honoured under the ruleset's ``penalty_verdicts``), or None. The log holds the
    verdict, not the refused answer: the auditor checks what was paid, and that nothing was
    played after it (the verdict is taken only for a hand that stopped short of its end)."""
    if not ruleset.penalty_verdicts or hand.outcome is None:
        return None
    seats = [p.seat for p in hand.outcome.penalties if p.kind == WRONG_ACTION]
    return seats[0] if len(seats) == 1 else None


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

    def run(self, result: str, legal: list, deltas: list[int], standing: int = 0,
            standing_share: int | None = None) -> dict[int, int]:
        outcome = self.hand.outcome
        totals: dict[int, int] = {}
        if outcome is None:
            self.find("outcome_mismatch/missing", "the hand has no recorded outcome", severity=Severity.WARNING)
            return totals
        # the outcome's fields read once each (compiled, an attribute of a log object is a generic lookup)
        recorded_result, recorded_wins, recorded_deltas = outcome.result, outcome.wins, outcome.deltas
        if result == "unfinished" and recorded_result == "draw":
            self.find("outcome_mismatch/result", "recorded as an exhaustive draw, but the wall is not used up",
                      expected="unfinished", recorded="draw",
                      severity=Severity.WARNING if self.hand.wall is None and self.hand.seat_walls is None
                      else Severity.ERROR)
        elif result != recorded_result and not (result == "unfinished" and recorded_result == "draw"):
            self.find("outcome_mismatch/result", f"recorded result {recorded_result!r}, the events show {result!r}",
                      expected=result, recorded=recorded_result)
        ours = sorted(w.seat for w in legal)
        theirs = sorted(w.seat for w in recorded_wins)
        if ours != theirs:
            self.find("outcome_mismatch/winners", f"recorded winners {theirs}, the events show {ours}",
                      expected=ours, recorded=theirs)
        by_seat = {w.seat: w for w in legal}
        unpaid_fans = False  # the platform scored fans the ruleset has not: its deltas are not compared
        for rec in recorded_wins:
            seat, recorded = rec.seat, rec.score
            w = by_seat.get(seat)
            recorded_total = recorded.total if recorded is not None else None
            if recorded_total is not None:
                totals[seat] = recorded_total
            if w is None or w.score is None or recorded is None:
                continue
            score = self.platform_fans(seat, recorded)
            unpaid_fans = unpaid_fans or score is not recorded
            items_ok, total_ok = self.rs.recorded_matches(score, w.score)
            if not items_ok:
                self.find("score_mismatch/fans", f"seat {seat}: recorded breakdown differs from the recomputed one",
                          seat=seat, expected=describe_items(w.score.items),
                          recorded=describe_recorded(recorded))
            if not total_ok:
                self.find("score_mismatch/total", f"seat {seat}: recorded total {recorded_total}, "
                          f"recomputed {w.score.total}", seat=seat, expected=w.score.total,
                          recorded=recorded_total)
        if recorded_deltas is not None and unpaid_fans:
            pass  # said by platform_quirk/platform_fan
        elif recorded_deltas is not None and len(legal) > 1 and not self.rs.multiple_win_payout_known:
            self.find("platform_quirk/multiple_win_payout",
                      f"{len(legal)} winners on one discard and the platform does not document how such a hand "
                      f"is paid: recorded deltas {recorded_deltas} are reported, not compared",
                      severity=Severity.WARNING, expected=deltas, recorded=recorded_deltas)
        elif recorded_deltas is not None:
            out = (outcome.out_delta or 0) * standing
            if sum(recorded_deltas) + out != 0:
                self.find("payout_mismatch/not_zero_sum",
                          f"recorded deltas {recorded_deltas}" + (f" and {standing} × {outcome.out_delta or 0} "
                                                                  "standing out" if standing else "")
                          + f" sum to {sum(recorded_deltas) + out}",
                          recorded=recorded_deltas, expected=0)
            if standing and (outcome.out_delta or 0) != standing_share:
                self.find("payout_mismatch/delta",
                          f"the player standing out: recorded {outcome.out_delta or 0:+d}, recomputed "
                          f"{standing_share or 0:+d}", expected=standing_share or 0, recorded=outcome.out_delta or 0)
            for s in range(4):
                if recorded_deltas[s] != deltas[s]:
                    self.find("payout_mismatch/delta",
                              f"seat {s}: recorded {recorded_deltas[s]:+d}, recomputed {deltas[s]:+d}",
                              seat=s, expected=deltas[s], recorded=recorded_deltas[s])
        return totals


    def platform_fans(self, seat: int, score: L.RecordedScore) -> L.RecordedScore:
        """``score`` without the fans a platform scores and the ruleset has not (the extra field
        ``platform_fans``, as ``[name, value, count]``), reported once as
        ``platform_quirk/platform_fan``; ``score`` itself when there are none."""
        extra = (score.model_extra or {}).get("platform_fans")
        if not extra:
            return score
        try:
            named = [(str(f[0]), int(f[1]) * (int(f[2]) if len(f) > 2 else 1)) for f in extra]
        except (TypeError, ValueError, IndexError, KeyError):
            named = [(str(extra), 0)]
        text = " ".join(f"{n}{v}" for n, v in named)
        self.find("platform_quirk/platform_fan",
                  f"seat {seat}: the platform scored {text}, which the ruleset does not have: the other fans are "
                  "compared, the hand's deltas are reported, not compared",
                  seat=seat, severity=Severity.WARNING, recorded=text)
        total = score.total - sum(v for _, v in named) if score.total is not None else None
        return score.model_copy(update={"total": total})


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
        out.extend(check_seating(ruleset, game, i, dealer))
    if game.initial_scores is not None and game.final_scores is not None:
        running = list(game.initial_scores)
        for hand, facts in zip(game.hands, hands, strict=True):
            for p, change in player_changes(game, hand, facts).items():
                running[p] += change
        if running != list(game.final_scores):
            out.append(Finding("continuity/final_scores",
                               f"final scores {game.final_scores} differ from initial + hand deltas {running}",
                               expected=str(running), recorded=str(game.final_scores)))
    return out


def player_changes(game: L.Game, hand: L.Hand, facts: HandFacts) -> dict[int, int]:
    """Each player's change in ``hand`` (index into ``players`` → amount): the recorded deltas
    where present, else the recomputed ones, through the hand's seating; a player standing out
    gets the standing share."""
    d = facts.recorded_deltas or facts.computed_deltas or (0, 0, 0, 0)
    out = {p: d[s] for s, p in enumerate(game.seating(hand))}
    if len(game.players or ()) <= 4:
        return out  # nobody stands out
    share = facts.standing_recorded if facts.standing_recorded is not None else facts.standing_computed
    for p in game.standing_out(hand):
        out[p] = share or 0
    return out


def check_seating(ruleset: Ruleset, game: L.Game, i: int, dealer: int) -> list[Finding]:
    """A game with more players than seats: hand ``i``'s seating against the ruleset's rotation
    from hand ``i - 1`` (the substitute takes the old dealer's seat when the deal passes)."""
    if len(game.players or ()) <= 4:
        return []
    prev, hand = game.hands[i - 1], game.hands[i]
    expected = ruleset.next_seating(game.seating(prev), game.standing_out(prev), prev.dealer, dealer)
    if expected is None or tuple(expected) == game.seating(hand):
        return []
    names = game.players or []
    want = [names[p] for p in expected]
    got = [names[p] for p in game.seating(hand)]
    return [Finding("continuity/seating", f"hand {hand.hand_no}: seats 0..3 hold {got}, the rotation gives {want}",
                    hand_no=hand.hand_no, expected=str(list(expected)), recorded=str(list(game.seating(hand))))]


def check_chips(ledger: Any, game: L.Game, i: int, facts: HandFacts, ruleset: Ruleset,
                payments: tuple[tuple[int, int, int], ...] = ()) -> tuple[HandFacts, list[Finding]]:
    """Hand ``i`` on the game's chips (牌局, longgang): the balances it gives, compared with
    ``hand.chips`` where recorded; a hand after the game ended is reported once.

    The hand is paid pair by pair (``payments``: the recomputed settlement, seats) when the log's
    deltas are the recomputed ones; where they differ (a ``payout_mismatch`` already) the pairs are
    unknown and the recorded changes are paid loser to gainer (:func:`longgang_chips.from_net`).
    Each false win's debts (the ruleset's 诈胡 penalty, and the share of each player standing out)
    wait for the end of the game."""
    from mahjong_audit.engine.rulesets import longgang_chips as C

    hand = game.hands[i]
    out: list[Finding] = []
    if ledger.ended_at is not None and (i == 0 or game.hands[i - 1].hand_no == ledger.ended_at):
        out.append(Finding("continuity/chips", f"hand {hand.hand_no} is played after the game ended with hand "
                           f"{ledger.ended_at} (a second player broke, 断子)", hand_no=hand.hand_no))
    seating = game.seating(hand)
    standing = game.standing_out(hand)
    n = len(ledger.balances)
    false_wins: list[C.Payment] = []
    for s in facts.false_wins:
        pen = ruleset.false_win_penalty(s, hand.dealer)
        false_wins += [C.Payment(seating[s], seating[t], x) for t, x in enumerate(pen) if x > 0]
        share = ruleset.false_win_standing_share(s, hand.dealer)
        false_wins += [C.Payment(seating[s], p, share) for p in standing]
    changes = [0] * n
    for p, change in player_changes(game, hand, facts).items():
        changes[p] = change
    pen_net = C.net_change(false_wins, n)
    play = tuple(c - x for c, x in zip(changes, pen_net, strict=True))
    debts = tuple(C.Payment(seating[a], seating[b], x) for a, b, x in payments)
    legal = [w.seat for w in facts.wins if w.legal]
    winner = seating[legal[0]] if legal else None
    if C.net_change(debts, n) != play:
        debts = C.from_net(play, ledger.orders((p for p in range(n) if play[p] < 0), winner, seating))
    result = ledger.hand(hand.hand_no, seating, winner, debts, false_wins)
    expected = result.balances
    if result.ended or i == len(game.hands) - 1:
        expected = ledger.settle_false_wins()
    if hand.chips is not None and list(hand.chips) != list(expected):
        names = game.players or [str(p) for p in range(n)]
        wrong = ", ".join(f"{names[p]} {hand.chips[p]} (expected {expected[p]})"
                          for p in range(n) if hand.chips[p] != expected[p])
        out.append(Finding("continuity/chips", f"hand {hand.hand_no}: chips after the hand: {wrong}",
                           hand_no=hand.hand_no, expected=str(list(expected)), recorded=str(list(hand.chips))))
        ledger.resync(hand.chips)
    chip_facts = ChipFacts(tuple((d.payer, d.payee, d.amount) for d in result.paid if d.amount > 0), result.broke,
                           result.rebuy, result.ended)
    return replace(facts, chips=tuple(hand.chips) if hand.chips is not None else tuple(expected),
                   n_findings=facts.n_findings + len(out), chip_facts=chip_facts), out
