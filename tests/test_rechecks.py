"""Findings that hinge on a reading (mahjong_audit.engine.rechecks): ``depends_on`` names the documented
alternative that clears an error, and never sits on a hard 相公 or on a wrong payout no
reading explains.

The readings are the documented options (engine/house_rules.py): the MCR fan table of seed
002 ("门清自摸/不求人 6, 箭刻 4", ``variant = "seed002"``) and 龙港's readings of seed 000 are ones
a platform may play under without saying so in its logs."""

from __future__ import annotations

import json
import random

import duckdb
import pytest

from mahjong_audit.engine import rechecks
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.findings import Severity
from mahjong_audit.engine.house_rules import Profile
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import faults
from mahjong_audit.engine.sim.game import game_id, game_rng, simulate_game
from mahjong_audit.pipeline import rows, sink, transforms
from mahjong_audit.pipeline.parse import ParsedGame
from mahjong_audit.schemas import log_fast
from mahjong_audit.schemas.log import Game

SEED002 = {"variant": "seed002"}


def sim_doc(ruleset: str, options: dict, index: int, seed: int = 1) -> dict:
    """A game played under ``options`` whose log does not say so (``options`` is empty)."""
    doc = simulate_game(RULESETS[ruleset](options), game_rng(seed, index), game_id(ruleset, seed, index), 4)
    doc["options"] = {}  # the simulator records them; the platform's log does not
    return doc


def as_game(doc: dict, fast: bool = False):
    return log_fast.decode_game(json.dumps(doc).encode()) if fast else Game.model_validate(doc)


def _first(pred, ruleset: str, options: dict, tries: int = 40):
    for i in range(tries):
        doc = sim_doc(ruleset, options, i)
        if pred(audit_game(as_game(doc))):
            return doc
    raise AssertionError("no simulated game fits")


def has_code(prefix: str):
    return lambda a: any(f.code.startswith(prefix) for f in a.findings)


@pytest.mark.parametrize("fast", [False, True], ids=["model", "fast"])
def test_a_score_played_under_seed002_depends_on_the_variant(fast):
    doc = _first(has_code("score_mismatch/"), "mcr", SEED002)
    game = as_game(doc, fast)
    audit = rechecks.audit_with_rechecks(game)
    scores = [f for f in audit.findings if f.code.startswith("score_mismatch/")]
    assert scores and all("variant=seed002" in f.depends_on for f in scores)
    # the same game told its reading audits clean: the re-check judged it under that reading
    assert rechecks.audit_under(game, SEED002).findings == ()


def test_audit_under_lets_the_override_win_over_the_log():
    doc = _first(has_code("score_mismatch/"), "mcr", SEED002)
    doc["options"] = {"variant": "official"}
    assert audit_game(as_game(doc)).findings
    assert rechecks.audit_under(as_game(doc), SEED002).findings == ()
    assert rechecks.audit_under(as_game(doc, fast=True), SEED002).findings == ()


def test_a_profile_below_the_log_sets_the_base_of_the_rechecks():
    doc = _first(has_code("score_mismatch/"), "mcr", SEED002)
    profile = Profile.from_tables({"mcr": SEED002})
    assert rechecks.audit_with_rechecks(as_game(doc), profile).findings == ()
    doc["options"] = {"variant": "official"}  # the log's own word beats the profile
    audit = rechecks.audit_with_rechecks(as_game(doc), profile)
    assert audit.findings and all("variant=seed002" in f.depends_on
                                  for f in audit.findings if f.code.startswith("score_mismatch/"))


def test_a_clean_game_is_not_rechecked():
    doc = _first(lambda a: not a.findings, "mcr", {})
    game = as_game(doc)
    audit = audit_game(game)
    assert rechecks.annotate(game, audit) is audit


def _faulty(kind: str, ruleset: str = "mcr") -> tuple[Game, dict]:
    for i in range(40):
        fault = faults.inject(sim_doc(ruleset, {}, i), kind, random.Random(i))
        if fault is not None:
            return as_game(fault.records[0]), fault.label
    raise AssertionError(f"no game takes a {kind} fault")


@pytest.mark.parametrize("ruleset", ["mcr", "longgang", "guangdong"])
def test_a_hard_dead_hand_gets_no_depends_on(ruleset):
    game, label = _faulty("dead_hand", ruleset)
    audit = rechecks.audit_with_rechecks(game)
    dead = [f for f in audit.findings if f.code == label["code"] and f.hand_no == label["hand_no"]]
    assert dead and all(f.depends_on == () for f in dead)


@pytest.mark.parametrize("ruleset", ["mcr", "longgang", "guangdong"])
def test_a_wrong_payout_no_reading_explains_gets_no_depends_on(ruleset):
    game, label = _faulty("payout_mismatch", ruleset)
    audit = rechecks.audit_with_rechecks(game)
    wrong = [f for f in audit.findings if f.kind == "payout_mismatch"]
    assert wrong and all(f.depends_on == () for f in wrong)


def test_a_reading_that_trades_one_error_for_another_explains_nothing():
    game, _ = _faulty("payout_mismatch")
    base = audit_game(game)
    subj = rechecks.subject(game, base, {})
    for reading in rechecks.readings("mcr"):
        r = rechecks.recheck(subj, {}, reading)
        if r.cleared:
            assert not r.added or reading.label not in {d for f in rechecks.annotate(game, base).findings
                                                        for d in f.depends_on}


def test_depends_on_reaches_the_rows_and_the_summary_view(tmp_path):
    doc = _first(has_code("score_mismatch/"), "mcr", SEED002)
    parsed = ParsedGame("x.jsonl", 1, 0, as_game(doc, fast=True))
    fn = transforms.ReplayFn()
    fn.setup()  # the pipeline's per-game step: the audit and its re-checks
    ((_, audit),) = list(fn.process(parsed))
    made = rows.audit_rows(parsed, audit, "r1")
    finding_rows = [r for r in made if type(r).__name__ == "FindingRow"]
    assert finding_rows and all(r.depends_on == ["variant=seed002"]
                                for r in finding_rows if r.code.startswith("score_mismatch/"))
    con = duckdb.connect(str(tmp_path / "a.duckdb"))
    sink.ensure_schema(con)
    con.execute("INSERT INTO findings (kind, code, severity, message, source_file, depends_on) VALUES "
                "('score_mismatch', 'score_mismatch/total', 'error', 'm', 'f', ['variant=seed002']), "
                "('dead_hand', 'dead_hand/too_few', 'error', 'm', 'f', [])")
    got = dict(con.execute("SELECT code, depends_on_rules FROM finding_summary").fetchall())
    assert got == {"score_mismatch/total": 1, "dead_hand/too_few": 0}


def test_an_older_findings_table_gets_the_column(tmp_path):
    con = duckdb.connect(str(tmp_path / "old.duckdb"))
    sink.ensure_schema(con)
    con.execute("ALTER TABLE findings DROP COLUMN depends_on")
    con.execute("INSERT INTO findings (kind, code, severity, message, source_file) VALUES "
                "('dead_hand', 'dead_hand/too_few', 'error', 'm', 'f')")
    sink.ensure_schema(con)
    assert con.execute("SELECT depends_on FROM findings").fetchall() == [(None,)]
    assert con.execute("SELECT depends_on_rules FROM finding_summary").fetchall() == [(0,)]


def test_only_errors_are_rechecked():
    doc = _first(has_code("score_mismatch/"), "mcr", SEED002)
    audit = rechecks.audit_with_rechecks(as_game(doc))
    assert all(not f.depends_on for f in audit.findings if f.severity != Severity.ERROR)


def test_the_report_lists_them_beside_the_hard_errors(tmp_path):
    from mahjong_audit.pipeline.report import build
    from mahjong_audit.schemas.results import TABLES
    from tests.report_fixtures import create_empty, insert_rows

    soft = as_game(_first(has_code("score_mismatch/"), "mcr", SEED002))
    hard, _ = _faulty("dead_hand")
    out: dict[str, list] = {t: [] for t in TABLES}
    for n, game in enumerate((soft, hard)):
        parsed = ParsedGame("x.jsonl", n + 1, 0, game)
        for r in rows.audit_rows(parsed, rechecks.audit_with_rechecks(game), "r1"):
            out[rows.table_of(r)].append(r)
    db = tmp_path / "a.duckdb"
    create_empty(db)
    con = duckdb.connect(str(db))
    for table, table_rows in out.items():
        insert_rows(con, table, table_rows)
    con.close()
    built = build(str(db))
    hinged = sum(c.depends_on_rules for c in built.data.codes)
    errors = dict(built.data.severities)["error"]
    assert 0 < hinged < errors
    assert f"{errors - hinged} / {hinged}</b><span>hard errors / depends on house rules" in built.html
    assert "clears under <code>variant=seed002</code>" in built.html
    dead = [f for f in built.data.findings if f.code.startswith("dead_hand/")]
    assert dead and all(f.depends_on == () for f in dead)


@pytest.mark.parametrize("ruleset, options", [("mcr", SEED002), ("longgang", {"zuo_is_second_caishen": False}),
                                              ("guangdong", {"base": 2})])
def test_the_hands_with_findings_judged_alone_give_the_verdicts_of_the_whole_game(ruleset, options):
    """The re-checks audit only the hands with findings (rechecks.subject): each hand is judged
    from its own record, so those hands' findings are the whole game's, under any reading."""
    partial = 0
    for i in range(12):
        game = as_game(sim_doc(ruleset, options, i), fast=True)
        audit = audit_game(game)
        if not any(rechecks.rechecked(f) for f in audit.findings):
            continue
        subj = rechecks.subject(game, audit, {})
        if not subj.partial:
            continue
        partial += 1
        kept = {h.hand_no for h in subj.game.hands}
        for reading in [None, *rechecks.readings(ruleset)[:6]]:
            over = reading.as_override() if reading else {}
            whole = {k for k in rechecks.error_keys(rechecks.audit_under(game, over))
                     if k[1] in kept and not k[0].startswith("continuity/")}
            assert subj.keys(rechecks.audit_under(subj.game, over)) == whole
    assert partial


def test_a_legal_win_with_a_wild_as_a_fifth_copy_depends_on_the_wild_reading():
    """Issue 24's case: seed 000 三)a "财神可以用来代替其他所有的牌", and 三)e shows a wild as a
    fifth and sixth 中. Played by the simulator under ``wild_beyond_fourth_copy = "any"``; its log
    says ``value_honours`` (a wild may not be a fifth copy of a suited tile), so the audit calls
    the win 诈胡 — an error that rests on that reading alone."""
    doc = sim_doc("longgang", {"wild_beyond_fourth_copy": "any"}, 474, seed=24)
    doc["options"] = {"wild_beyond_fourth_copy": "value_honours"}
    audit = rechecks.audit_with_rechecks(as_game(doc, fast=True))
    false_wins = [f for f in audit.findings if f.code == "false_win/incomplete"]
    assert false_wins
    errors = [f for f in audit.findings if f.severity == Severity.ERROR]
    assert all(f.depends_on == ("wild_beyond_fourth_copy=any",) for f in errors)
