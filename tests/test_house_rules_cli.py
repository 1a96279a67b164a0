"""House rules end to end (issue 24): the listing, profiles through every command that takes
``--rules``, the precedence log > profile > defaults, and the readings each games row records.

The corpus of the precedence tests is played by the simulator under a profile that doubles
MCR's base (``base = 16``), so every payout of a won hand depends on the reading: audited under
the defaults with the profile's ``options`` stripped from the logs, the payouts are wrong;
under ``--rules`` of that profile they are right again."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import duckdb
import pytest

from mahjong_audit.engine import house_rules as H
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.pipeline.cli import main

pytestmark = pytest.mark.slow  # whole audits under house-rule profiles


ISSUE_HAND = {  # issue 24's smallest wrongly accused win (花财神: the seat's 3f stands for 3m)
    "concealed": ["1z", "6m", "2m", "3f", "3s", "4m", "2s", "8m", "1z", "1s"],
    "melds": [{"type": "kong", "tile": "3m", "concealed": True}, {"type": "pon", "tile": "8p", "from": 1}],
    "win_tile": "7m", "self_drawn": False, "seat_wind": "W", "ruleset_fields": {"indicator": "2f"}}


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- the listing


def test_rules_lists_every_option_as_json(capsys):
    assert main(["rules", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == len(H.option_specs())
    assert {o["ruleset"] for o in listed} == set(RULESETS)
    for o in listed:
        assert {"name", "ruleset", "type", "default", "choices", "help", "seed"} <= set(o)
        assert o["help"] and o["seed"], o["name"]
    by_name = {(o["ruleset"], o["name"]): o for o in listed}
    wild = by_name["longgang", "wild_beyond_fourth_copy"]
    assert wild["default"] == "any" and set(wild["choices"]) == {"any", "value_honours"}
    assert by_name["mcr", "min_fan"]["choices"] is None and by_name["mcr", "min_fan"]["default"] == 8
    assert by_name["longgang", "abortive_draws"]["default"] == []  # a set, as a list


def test_rules_lists_one_ruleset_as_text(capsys):
    assert main(["rules", "--ruleset", "mcr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[mcr]\n") and "[longgang]" not in out
    assert 'knitted_waits = "reference"    ("reference", "botzone")' in out
    assert "min_fan = 8    (int)" in out
    assert out.count("\n    seed: ") == len(H.option_specs("mcr"))


def test_an_unknown_ruleset_is_refused_by_the_listing(capsys):
    with pytest.raises(SystemExit) as e:
        main(["rules", "--ruleset", "mcrr"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err


# --------------------------------------------------------------------------- bad profiles


BAD_PROFILES = [
    ("unknown_option", "[longgang]\nno_such_rule = true\n", "[longgang] no_such_rule: unknown option (known: "),
    ("wrong_type", '[longgang]\neight_pairs = "yes"\n', '[longgang] eight_pairs = "yes": expected true/false'),
    ("outside_choices", '[longgang]\nwild_beyond_fourth_copy = "some"\n',
     '[longgang] wild_beyond_fourth_copy = "some": \'some\' is not one of [\'value_honours\', \'any\'] '
     '(allowed: "value_honours", "any")'),
    ("unknown_ruleset", "[riichi]\naka = 3\n", "[riichi]: unknown ruleset (known: mcr, longgang, guangdong)"),
    ("bad_combination", "[longgang]\neight_pairs = false\neight_pairs_limit = true\n",
     "[longgang]: eight_pairs_limit needs eight_pairs"),
    ("not_toml", "[longgang\n", "not a TOML file"),
    ("missing", None, "cannot read the house-rules profile"),
]


def _command(name: str, tmp_path: Path, profile: str) -> tuple[list[str], Path]:
    """The command line of ``name`` with ``--rules profile``, and the file it would write."""
    if name == "audit":
        out = tmp_path / "out.duckdb"
        return ["audit", "sample_logs/mcr-clean.jsonl", "--db", str(out), "--workers", "1", "--rules", profile], out
    if name == "simulate":
        out = tmp_path / "out.jsonl"
        return ["simulate", "--ruleset", "longgang", "--games", "1", "-o", str(out), "--rules", profile], out
    hands = _write(tmp_path / "hands.jsonl", json.dumps(ISSUE_HAND) + "\n")
    return ["score", hands, "--ruleset", "longgang", "--rules", profile], tmp_path / "nothing"


@pytest.mark.parametrize("command", ["audit", "simulate", "score"])
@pytest.mark.parametrize("case, text, message", BAD_PROFILES, ids=[c[0] for c in BAD_PROFILES])
def test_a_bad_profile_is_one_line_exit_1_before_any_work(tmp_path, capsys, monkeypatch, command, case, text,
                                                          message):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    profile = str(tmp_path / "house.toml") if text is None else _write(tmp_path / "house.toml", text)
    argv, written = _command(command, tmp_path, profile)
    assert main(argv) == 1
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "\n" not in err and err.startswith(f"{'mahjong-audit ' if command != 'simulate' else ''}")
    assert f"{profile}: " in err and message in err, err
    assert captured.out == ""  # nothing scored, simulated or audited
    assert not written.exists() and not Path(f"{written}.log").exists()


# --------------------------------------------------------------------------- a profile is plain data


def test_a_profile_pickles_as_plain_data_and_rides_in_the_replay_dofn():
    from apache_beam.internal import pickler

    from mahjong_audit.pipeline.transforms import ReplayFn

    profile = H.Profile.from_tables({"mcr": {"base": 16, "extra_fans": ["天和"]}}, name="p.toml", sha256="ab")
    back = pickle.loads(pickle.dumps(profile))
    assert (back.name, back.sha256, back.plain_tables()) == ("p.toml", "ab", {"mcr": {"base": 16, "extra_fans": ["天和"]}})
    fn = pickler.loads(pickler.dumps(ReplayFn(profile=profile)))
    assert fn.profile.plain_tables() == profile.plain_tables()


# --------------------------------------------------------------------------- precedence, end to end


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """An MCR corpus simulated under ``base = 16``, with and without its options."""
    tmp = tmp_path_factory.mktemp("house")
    profile = _write(tmp / "double-base.toml", "[mcr]\nbase = 16\n")
    played = tmp / "played.jsonl"
    assert main(["simulate", "--ruleset", "mcr", "--games", "4", "--seed", "11", "-o", str(played),
                 "--rules", profile, "--quiet"]) == 0
    games = [json.loads(line) for line in played.read_text(encoding="utf-8").splitlines()]
    assert all(g["options"] == {"base": 16} for g in games)  # the logs record the profile
    stripped = tmp / "stripped.jsonl"
    stripped.write_text("".join(json.dumps(dict(g, options={})) + "\n" for g in games), encoding="utf-8")
    return tmp, profile, played, stripped


def _audit(tmp: Path, name: str, log: Path, *rules: str) -> duckdb.DuckDBPyConnection:
    db = tmp / f"{name}.duckdb"
    assert main(["audit", str(log), "--db", str(db), "--workers", "1", *(("--rules", rules[0]) if rules else ())]) == 0
    return duckdb.connect(str(db), read_only=True)


def _codes(con) -> set[str]:
    return {c for (c,) in con.execute("SELECT DISTINCT code FROM findings").fetchall()}


def test_stripped_of_its_options_the_corpus_is_flagged_under_the_defaults(corpus):
    tmp, _, _, stripped = corpus
    con = _audit(tmp, "defaults", stripped)
    assert "payout_mismatch/delta" in _codes(con)  # base 8 recomputed, 16 paid
    assert con.execute("SELECT DISTINCT readings, profile FROM games").fetchall() == [("{}", None)]


def test_under_the_profile_the_stripped_corpus_audits_clean(corpus):
    tmp, profile, _, stripped = corpus
    con = _audit(tmp, "profile", stripped, profile)
    assert _codes(con) == set()
    sha = __import__("hashlib").sha256(Path(profile).read_bytes()).hexdigest()
    assert con.execute("SELECT DISTINCT readings, profile, profile_sha256 FROM games").fetchall() == [
        ('{"base":16}', "double-base.toml", sha)]


def test_the_logs_own_options_win_over_the_profile(corpus):
    tmp, _, played, _ = corpus
    other = _write(tmp / "other.toml", "[mcr]\nbase = 4\n")
    con = _audit(tmp, "log-wins", played, other)  # the logs say base 16, the profile 4: the logs win
    assert _codes(con) == set()
    assert con.execute("SELECT DISTINCT readings, profile FROM games").fetchall() == [('{"base":16}', "other.toml")]
    # and the profile, where the log is silent, wins over the default
    assert _codes(_audit(tmp, "profile-wins", corpus[3], other)) >= {"payout_mismatch/delta"}


def test_the_report_shows_the_readings_per_ruleset(corpus):
    from mahjong_audit.pipeline.report import build

    tmp, profile, _, stripped = corpus
    _audit(tmp, "report", stripped, profile).close()
    html = build(str(tmp / "report.duckdb")).html
    assert "Readings (house rules) by ruleset" in html
    assert "<code>base = 16</code>" in html and "<code>double-base.toml</code>" in html


def test_a_log_whose_options_do_not_go_with_the_profile_is_rejected_like_bad_options(tmp_path, capsys):
    root = Path(__file__).resolve().parent.parent
    game = json.loads((root / "sample_logs" / "longgang-clean.json").read_text(encoding="utf-8"))
    game = game[0] if isinstance(game, list) else game
    log = _write(tmp_path / "g.json", json.dumps(dict(game, options={"eight_pairs_limit": True})))
    profile = _write(tmp_path / "no-eight.toml", "[longgang]\neight_pairs = false\n")
    con = _audit(tmp_path, "combo", Path(log), profile)
    assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)
    ((code, message),) = con.execute("SELECT code, message FROM rejected").fetchall()
    assert code == "invalid_log/schema"
    assert message == "options (with the house rules of no-eight.toml): eight_pairs_limit needs eight_pairs"


# --------------------------------------------------------------------------- score --rules


def test_score_takes_the_profile_under_the_lines_own_options(tmp_path, capsys):
    strict = _write(tmp_path / "strict.toml", '[longgang]\nwild_beyond_fourth_copy = "value_honours"\n')
    own = dict(ISSUE_HAND, options={"wild_beyond_fourth_copy": "any"})
    hands = _write(tmp_path / "h.jsonl", json.dumps(ISSUE_HAND) + "\n" + json.dumps(own) + "\n")
    assert main(["score", hands, "--ruleset", "longgang"]) == 0
    assert [json.loads(line)["total"] for line in capsys.readouterr().out.splitlines()] == [80, 80]  # the default
    assert main(["score", hands, "--ruleset", "longgang", "--rules", strict]) == 0
    by_profile, by_line = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert by_profile["error"] == "not_a_win"  # the profile's stricter reading
    assert by_line["total"] == 80  # the line's own options win over the profile
