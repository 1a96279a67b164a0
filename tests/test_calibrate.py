"""``mahjong-audit calibrate``: a corpus played under readings its logs do not name gives them
back, and genuine faults stay found under them.

The corpus is simulated under MCR seed 002's fan table ("门清自摸/不求人 6, 箭刻 4": option
``variant = "seed002"``) with a base of 6 instead of 8 (option ``base``: the points each paying
seat adds, a free integer with no documented alternative, so it must be solved from the
payouts), and ``options`` stripped from every log, as a platform writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mahjong_audit.engine import calibration
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.house_rules import Profile, effective_options
from mahjong_audit.engine.rechecks import audit_under, error_keys
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import faults
from mahjong_audit.engine.sim.game import game_id, game_rng, simulate_game
from mahjong_audit.pipeline.cli import main
from mahjong_audit.schemas import log_fast

pytestmark = pytest.mark.slow  # calibrate audits simulated corpora under every candidate reading


TRUE = {"variant": "seed002", "base": 6}
GAMES = 24


def corpus(rate: float, n: int = GAMES) -> tuple[list[str], list[dict]]:
    """JSON lines of ``n`` games played under TRUE, their options stripped; with ``rate``,
    labelled faults injected (computed under TRUE, so each label is a fault under it)."""
    rs = RULESETS["mcr"](TRUE)
    lines, labels = [], []
    for i in range(n):
        doc = simulate_game(rs, game_rng(11, i), game_id("mcr", 11, i), 4)
        doc["options"] = dict(TRUE)
        records, label = faults.inject_maybe(doc, 5, i, rate)
        if label is not None:
            labels.append(label)
        for rec in records:
            if isinstance(rec, dict):
                rec = json.dumps({**rec, "options": {}}, ensure_ascii=False)
            lines.append(rec)
    return lines, labels


def games_of(lines: list[str]) -> list:
    out = []
    for line in lines:
        try:
            game = log_fast.decode_game(line.encode())
        except ValueError:
            continue
        if game is not None:
            out.append(game)
    return out


def under(profile: Profile, game):
    return audit_under(game, effective_options(game.ruleset, game.options, profile))


@pytest.fixture(scope="module")
def clean_corpus() -> list[str]:
    return corpus(0.0)[0]


@pytest.fixture(scope="module")
def faulty_corpus() -> tuple[list[str], list[dict]]:
    lines, labels = corpus(0.5)
    assert len({lab["kind"] for lab in labels}) >= 8
    return lines, labels


def _calibrate_cli(tmp_path: Path, lines: list[str], name: str, capsys) -> tuple[Profile, str]:
    src = tmp_path / f"{name}.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / f"{name}.toml"
    assert main(["calibrate", str(src), "-o", str(out)]) == 0
    return Profile.load(out), capsys.readouterr().out


def test_calibrate_gives_the_profile_back_and_the_corpus_audits_clean(tmp_path, clean_corpus, capsys):
    games = games_of(clean_corpus)
    flagged = [g for g in games if error_keys(audit_game(g))]
    assert len(flagged) >= GAMES * 3 // 4  # the defaults accuse most honest games
    profile, table = _calibrate_cli(tmp_path, clean_corpus, "clean", capsys)
    assert dict(profile.options_for("mcr")) == TRUE
    assert "base=6" in table and "variant=seed002" in table and "chosen:" in table
    assert all(under(profile, g).findings == () for g in games)


def test_faults_stay_found_under_the_calibrated_profile(tmp_path, faulty_corpus, capsys):
    lines, labels = faulty_corpus
    profile, _ = _calibrate_cli(tmp_path, lines, "faulty", capsys)
    assert dict(profile.options_for("mcr")) == TRUE  # the faults did not pull the search off
    found = {g.game_id: {(f.code, f.hand_no) for f in under(profile, g).findings} for g in games_of(lines)}
    for lab in labels:
        if lab["kind"] in faults.PIPELINE_KINDS:
            continue  # found by the pipeline's reading, not by auditing a game
        assert any(code == lab["code"] and (lab["hand_no"] is None or h == lab["hand_no"])
                   for code, h in found[lab["game_id"]]), lab
    faulted = {lab["game_id"] for lab in labels}
    assert all(not found[g] for g in found if g not in faulted)


def test_a_base_is_solved_from_the_recorded_payouts():
    games = games_of(corpus(0.0, 8)[0])
    audits = [audit_game(g) for g in games]
    solved = calibration.payout_candidates("mcr", audits, {"variant": "seed002"})
    assert calibration.Reading("base", 6) in solved


def test_noise_alone_gives_no_reading():
    """Faults in games played under the defaults: nothing to explain, the defaults stand."""
    rs = RULESETS["mcr"]({})
    games = []
    for i in range(16):
        doc = simulate_game(rs, game_rng(12, i), game_id("mcr", 12, i), 4)
        records, _ = faults.inject_maybe(doc, 6, i, 1.0)
        games += games_of([json.dumps(r) if isinstance(r, dict) else r for r in records])
    c = calibration.calibrate("mcr", games)
    assert c.flagged and not c.chosen and c.errors_after == c.errors_before


@pytest.mark.parametrize("argv, message", [
    (["calibrate", "/nonexistent/x.jsonl"], "no such file"),
    (["calibrate", "IN", "--ruleset", "riichi"], "unknown ruleset"),
    (["calibrate", "IN", "-o", "/nonexistent/dir/p.toml"], "no such folder"),
    (["calibrate", "IN", "-o", "/tmp"], "is a folder"),
])
def test_operator_slips_are_refused_before_any_work(tmp_path, argv, message, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text("", encoding="utf-8")
    assert main([str(src) if a == "IN" else a for a in argv]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_sample_draws_that_many_records(tmp_path, clean_corpus, capsys):
    src = tmp_path / "c.jsonl"
    src.write_text("\n".join(clean_corpus) + "\n", encoding="utf-8")
    assert main(["calibrate", str(src), "--sample", "9", "--min-games", "2"]) == 0
    cap = capsys.readouterr()
    assert "9 records (sampled): 9 games" in cap.err and "[mcr]" in cap.out


def test_a_guangdong_base_is_read_off_the_payouts():
    """广东: a win pays base × 2^fan (option ``base``); a corpus played at base 2 calibrates to
    it, though base is a free integer with no documented alternative."""
    rs = RULESETS["guangdong"]({"base": 2})
    games = games_of([json.dumps({**simulate_game(rs, game_rng(13, i), game_id("guangdong", 13, i), 4),
                                  "options": {}}) for i in range(10)])
    c = calibration.calibrate("guangdong", games)
    assert c.options == {"base": 2} and c.errors_after == 0


def test_the_help_names_the_options():
    with pytest.raises(SystemExit) as done:
        main(["calibrate", "--help"])
    assert done.value.code == 0


def test_a_longgang_reading_of_the_caishen_pair_is_found():
    """龙港 seed 000 四、1 "两个神计一台" against 四、3 "坐花与正财1台": a platform that counts 双财神
    only for two 正财 (``zuo_is_second_caishen = false``) is told apart from the default. The
    games keep chips, so each is re-checked whole."""
    rs = RULESETS["longgang"]({"zuo_is_second_caishen": False})
    games = games_of([json.dumps({**simulate_game(rs, game_rng(1, i), game_id("longgang", 1, i), 4),
                                  "options": {}}) for i in range(12)])
    c = calibration.calibrate("longgang", games)
    assert c.flagged >= 3 and c.options == {"zuo_is_second_caishen": False} and c.errors_after == 0
