"""龙港 sessions (牌局) played to their end (issue 26): the simulator's ``--chips`` and ``--five``
play hand after hand through 加筹 to the 断子 that ends the session, with deliberate 诈胡; chips
are conserved and nobody goes below zero except by a deferred 诈胡 paid in full; the auditor finds
every chip fault.

Seed 000 五、(三): "不够者付给胡牌者优先，再按逆时针顺序,以断筹为限，筹码不够的部分不需下圈加筹补齐";
"加筹：一人断子时，五人来法此人加筹一局子（100子），四人来法此人加筹半局子（50子）,其后如有一家再断子，
牌局结束"; 五、(四)c "(加筹后)牌局结束时筹码不够数，付给胡牌者优先，以断筹为限，少不补".
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.rulesets.longgang_chips import (
    REBUY,
    ChipLedger,
    Payment,
    net_change,
    priority,
    settle,
    start_balance,
)
from mahjong_audit.engine.sim.faults import CHIP_FAULTS, KINDS, inject
from mahjong_audit.engine.sim.five import false_win_labels, session_one, simulate_session
from mahjong_audit.schemas import log as L
from tests.faultcheck import found

#: every combination of the options the chips read
CHIP_OPTIONS = tuple(
    {k: v for k, v in zip(("short_order", "false_win_short", "broke_rebuy"), combo, strict=True)}
    for combo in itertools.product(("payer", "winner"), ("capped", "full"), (True, False))
)


def session(n: int, seed: int, options: dict[str, Any] | None = None, rate: float = 0.05) -> dict[str, Any]:
    return simulate_session("longgang", options or {}, random.Random(f"session:{seed}"), f"s{n}-{seed}", n, 300, rate)


def rebuys_before(game: dict[str, Any], facts: tuple, h: int) -> int:
    n = len(game["players"])
    return sum(REBUY[n] for f in facts[:h + 1] if f.chip_facts is not None and f.chip_facts.rebuy is not None)


# ------------------------------------------------------------------ the settlement itself

debt = st.builds(Payment, st.integers(0, 4), st.integers(0, 4), st.integers(0, 40))


@settings(max_examples=300, deadline=None)
@given(balances=st.lists(st.integers(0, 60), min_size=5, max_size=5), debts=st.lists(debt, max_size=10),
       winner=st.integers(0, 4), from_winner=st.booleans())
def test_settlement_conserves_chips_and_keeps_payers_at_zero_or_above(balances, debts, winner, from_winner):
    debts = [d for d in debts if d.payer != d.payee]
    seating = (0, 1, 2, 3)
    order = {p: priority(p, seating, winner if winner < 4 else None, (4,), "winner" if from_winner else "payer")
             for p in range(5)}
    after, paid = settle(balances, debts, order)
    assert sum(after) == sum(balances)  # what is paid is what is received
    assert all(x >= 0 for x in after)
    assert after == tuple(b + c for b, c in zip(balances, net_change(paid, 5), strict=True))
    owed = [d for d in debts if d.amount > 0]
    assert [(d.payer, d.payee) for d in paid] == [(d.payer, d.payee) for d in owed]
    assert all(0 <= p.amount <= d.amount for p, d in zip(paid, owed, strict=True))
    for payer in {d.payer for d in owed}:
        mine = sorted(((order[payer].index(p.payee), p.amount, d.amount) for p, d in zip(paid, owed, strict=True)
                       if p.payer == payer), key=lambda t: t[0])  # stable: two debts to one payee keep their order
        if any(x < full for _, x, full in mine):
            assert after[payer] == 0  # a short payer pays all it has …
            first_short = next(i for i, (_, x, full) in enumerate(mine) if x < full)
            assert all(x == 0 for _, x, _ in mine[first_short + 1:])  # … in its order


# ------------------------------------------------------------------ simulated sessions


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from((4, 5)), options=st.sampled_from(CHIP_OPTIONS))
def test_sessions_conserve_chips_and_nobody_goes_below_zero(seed, n, options):
    # every option of the chips, four and five players, sessions played to their end
    game = session(n, seed, options)
    res = audit_game(L.parse_game(game))
    assert {f.code for f in res.findings} <= {"false_win/incomplete"}
    false_winners = {hand.get("seats", [0, 1, 2, 3])[p["seat"]]
                     for hand in game["hands"] for p in hand["outcome"].get("penalties", ())}
    for h, hand in enumerate(game["hands"]):
        chips = hand["chips"]
        assert sum(chips) == n * start_balance() + rebuys_before(game, res.hands, h)
        last = h == len(game["hands"]) - 1
        for p, c in enumerate(chips):
            # below zero only by a deferred 诈胡 paid in full, at the end of the session
            assert c >= 0 or (last and options["false_win_short"] == "full" and p in false_winners), (h, p, c)
    end = res.hands[-1].chip_facts
    assert end is not None and end.ended  # played to its end: a second 断子 (or the first without 加筹)
    assert sum(1 for f in res.hands if f.chip_facts and f.chip_facts.rebuy is not None) <= int(options["broke_rebuy"])


@pytest.mark.parametrize("n", [4, 5])
def test_sessions_go_on_after_the_rebuy_with_the_bracketed_follow(n):
    # "当盘筹子断或刚好为零则下盘开始按括号内的数字跟胡": sessions play hands after the 加筹, and those hands
    # are settled with the bracketed 跟胡数 (the audit agrees with the simulator's payouts)
    after = 0
    for seed in range(6):
        game = session(n, seed)
        res = audit_game(L.parse_game(game))
        assert {f.code for f in res.findings} <= {"false_win/incomplete"}
        rebuy = next((h for h, f in enumerate(res.hands) if f.chip_facts and f.chip_facts.rebuy is not None), None)
        if rebuy is not None:
            after += len(game["hands"]) - rebuy - 1
    assert after > 0


def test_deliberate_false_wins_are_found_where_labelled():
    # "诈胡者在牌局结束后出钱给各家": a seat declares a win it does not have; the auditor finds each one,
    # and the session's chips (the 诈胡 paid at its end) audit clean
    labels = found_at = 0
    for seed in range(4):
        game = session(5, seed, rate=0.3)
        labs = {(lab["hand_no"]) for lab in false_win_labels(game)}
        res = audit_game(L.parse_game(game))
        assert {(f.hand_no) for f in res.findings} == labs
        assert {f.code for f in res.findings} <= {"false_win/incomplete"}
        labels += len(labs)
        found_at += sum(1 for h in res.hands if h.false_wins)
    assert labels >= 4 and found_at >= labels


def test_a_session_is_the_same_on_every_call():
    assert session_one("longgang", {}, 3, 1, 5, 300) == session_one("longgang", {}, 3, 1, 5, 300)


# ------------------------------------------------------------------ chip faults


@pytest.mark.parametrize("n", [4, 5])
def test_chip_faults_are_found(n):
    # a payment to the wrong player, a missed 加筹, a session that should have ended: each labelled
    # continuity/chips at its hand and found there; the other faults are found in sessions too
    tried: Counter = Counter()
    missed = []
    rs = RULESETS["longgang"]({})
    for seed in range(4):
        game = session(n, seed)
        for kind, mutation in CHIP_FAULTS.items():
            fault = mutation(copy.deepcopy(game), rs, random.Random(f"{seed}:{kind}"))
            if fault is None:
                continue
            tried[kind] += 1
            assert fault.label["code"] == "continuity/chips"
            if not found(fault.records, "continuity", "continuity/chips", fault.label["hand_no"]):
                missed.append(fault.label)
        for kind in KINDS if seed < 2 else ():
            fault = inject(game, kind, random.Random(f"{seed}:{kind}"))
            if fault is not None:
                tried[kind] += 1
                if not found(fault.records, kind, fault.label["code"], fault.label["hand_no"]):
                    missed.append(fault.label)
    assert missed == []
    assert all(tried[k] >= 3 for k in CHIP_FAULTS), tried


def test_a_wrong_payee_in_a_short_hand_is_found():
    # the platform pays the short payer's chips to the wrong player: the hand is reported, the chips
    # the seed gives are the expected ones
    game = session(5, 2)
    fault = CHIP_FAULTS["wrong_payee"](copy.deepcopy(game), RULESETS["longgang"]({}), random.Random(1))
    assert fault is not None
    h = fault.label["hand_no"]
    findings = [f for f in audit_game(L.parse_game(fault.records[0])).findings if f.code == "continuity/chips"]
    assert findings and findings[0].hand_no == h
    assert findings[0].expected == str(game["hands"][h]["chips"])


def test_clean_sessions_have_no_chip_faults_to_find():
    for n in (4, 5):
        res = audit_game(L.parse_game(session(n, 9)))
        assert [f for f in res.findings if f.code == "continuity/chips"] == []


def test_a_ledger_ends_the_session_at_the_second_broke_player():
    ledger = ChipLedger(4, False, True)
    ledger.resync([95, 95, 5, 5])
    first = ledger.hand(0, (0, 1, 2, 3), 1, [Payment(2, 1, 10)])
    second = ledger.hand(1, (0, 1, 2, 3), 1, [Payment(3, 1, 10)])
    assert first.rebuy == 2 and not first.ended and second.ended and second.broke == (3,)


# ------------------------------------------------------------------ the command line


def test_simulate_five_with_faults_labels_every_fault(tmp_path):
    from mahjong_audit.pipeline.cli import main

    out, labels = tmp_path / "five.jsonl", tmp_path / "five.labels.jsonl"
    assert main(["simulate", "--ruleset", "longgang", "--games", "13", "--seed", "5", "--five", "--faults", "1",
                 "--labels", str(labels), "-o", str(out), "--quiet"]) == 0
    labs = [json.loads(x) for x in labels.read_text(encoding="utf-8").splitlines()]
    faults = [lab for lab in labs if not lab.get("deliberate")]
    assert len(faults) == 13 and any(lab["code"] == "continuity/chips" for lab in faults)


def test_simulate_chips_plays_four_player_sessions_under_options(tmp_path):
    from mahjong_audit.pipeline.cli import main

    out = tmp_path / "four.jsonl"
    assert main(["simulate", "--ruleset", "longgang", "--games", "2", "--seed", "1", "--chips", "--false-wins",
                 "0", "--options", '{"short_order": "winner", "false_win_short": "full"}', "-o", str(out),
                 "--quiet"]) == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        game = L.parse_game(json.loads(line))
        assert len(game.players or ()) == 4 and game.options["short_order"] == "winner"
        assert all(h.chips is not None for h in game.hands)
        assert audit_game(game).findings == ()


@pytest.mark.parametrize("argv, message", [
    (["--chips", "--five"], "give one of --five, --chips"),
    (["--false-wins", "0.1"], "--false-wins is for sessions"),
    (["--chips", "--options", "[1]"], "--options: expected a JSON object"),
    (["--chips", "--options", '{"short_order": "left"}'], "--options:"),
])
def test_simulate_refuses_bad_session_arguments(tmp_path, capsys, argv, message):
    from mahjong_audit.pipeline.cli import main

    out = tmp_path / "x.jsonl"
    assert main(["simulate", "--ruleset", "longgang", "--games", "1", "-o", str(out), *argv]) == 1
    assert message in capsys.readouterr().err and not out.exists()


def test_simulate_refuses_chips_where_the_ruleset_keeps_none(tmp_path, capsys):
    from mahjong_audit.pipeline.cli import main

    assert main(["simulate", "--ruleset", "mcr", "--games", "1", "--chips", "-o", str(tmp_path / "x.jsonl")]) == 1
    assert "keeps no chips" in capsys.readouterr().err


# ------------------------------------------------------------------ the report


@pytest.mark.slow  # a whole audit
def test_report_shows_a_session_to_its_end_with_rebuy_and_broke_marked(tmp_path):
    from mahjong_audit.pipeline.cli import main
    from mahjong_audit.pipeline.report import build
    from mahjong_audit.pipeline.report.chips import render_chips

    game = next(g for g in (session(5, s, rate=0) for s in range(10))
                if any(h["chips"] != g["hands"][0]["chips"] for h in g["hands"]) and len(g["hands"]) > 3)
    logs = tmp_path / "session.jsonl"
    logs.write_text(json.dumps(game, ensure_ascii=False) + "\n", encoding="utf-8")
    db = tmp_path / "session.duckdb"
    assert main(["audit", str(logs), "--db", str(db)]) == 0
    built = build(str(db))
    section = built.html.split('id="chips"')[1].split("</section>")[0].split("<table>", 1)[1]
    res = audit_game(L.parse_game(game))
    facts = [h.chip_facts for h in res.hands]
    assert section.count("<th class=num>") == len(game["hands"])  # every hand, to the end
    assert section.count("<b>end</b>") == 1 and facts[-1] is not None and facts[-1].ended
    n_broke = sum(len(f.broke) for f in facts if f is not None)
    n_rebuy = sum(1 for f in facts if f is not None and f.rebuy is not None)
    assert n_broke >= 2 and n_rebuy == 1
    assert section.count('class="chip-mark"') == n_broke  # the one who re-bought was broke too
    assert section.count("加筹</small>") == n_rebuy and section.count("断子") >= n_broke
    assert f"{n_broke} 断子, {n_rebuy} 加筹, ended" in built.html
    rebuy_hand = next(i for i, f in enumerate(facts) if f is not None and f.rebuy is not None)
    rebuy_player = facts[rebuy_hand].rebuy  # type: ignore[union-attr]
    assert f'title="bot{rebuy_player}: 断子 + 加筹"' in section
    assert render_chips(()) == ""


def test_five_player_sample_is_the_first_hands_of_a_session():
    # sample_logs/README.md: the sample is `simulate --five --false-wins 0 --hands-per-game 8 --seed 1`
    from pathlib import Path

    sample = json.loads((Path(__file__).resolve().parent.parent / "sample_logs" / "longgang-five-clean.json")
                        .read_text(encoding="utf-8"))
    assert session_one("longgang", {}, 1, 0, 5, 8, 0.0)["hands"] == sample["hands"]
