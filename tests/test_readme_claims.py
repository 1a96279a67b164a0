"""The README's fragile claims kept true: its command-line table names commands and options
that exist, its table and view lists are the database's, and its SQL examples (and those of
docs/tables.md, where the rest of the queries live) run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from mahjong_audit.pipeline import collusion
from mahjong_audit.pipeline.cli import build_parser, main
from mahjong_audit.pipeline.tables import VIEWS, column_names
from mahjong_audit.schemas.results import TABLES

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TABLES_PAGE = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")


def _section(heading: str) -> str:
    return README.split(f"\n{heading}\n")[1].split("\n## ")[0]


def _table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the markdown table whose header line starts with ``header``."""
    lines = text.split(f"\n{header}")[1].split("\n\n")[0].splitlines()[2:]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in lines if line.startswith("|")]


def _subparsers():
    parser = build_parser()
    return next(a for a in parser._actions if a.choices and "audit" in a.choices).choices


def test_every_command_and_option_in_the_cli_table_exists():
    subs = _subparsers()
    rows = _table_rows(_section("## The command line"), "| command |")
    named = [re.match(r"`(\w+)", cmd).group(1) for cmd, _ in rows]
    assert sorted(named) == sorted(subs), "the CLI table lists every command, and only those"
    for (cmd, what), name in zip(rows, named, strict=True):
        known = {s for a in subs[name]._actions for s in a.option_strings}
        for opt in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", cmd + " " + what):
            assert opt in known, f"README: `{name}` has no option {opt}"


def _check_table_lists(section: str) -> None:
    tables = {r[0].strip("`"): r[2] for r in _table_rows(section, "| table |")}
    assert set(tables) == set(TABLES) | set(collusion.TABLES)
    for name, cols in tables.items():
        if name in collusion.TABLES:
            continue
        listed = [c.strip() for c in re.sub(r"\([^()]*\)", "", cols).split(",")]
        words = [c for c in listed if re.fullmatch(r"[a-z_]+", c)]
        assert set(words) <= set(column_names(TABLES[name])), name
    views = {r[0].strip("`") for r in _table_rows(section, "| view |")}
    assert views == set(VIEWS) | set(collusion.VIEWS)


def test_the_tables_and_views_lists_are_the_databases():
    _check_table_lists(_section("## The tables"))
    _check_table_lists(TABLES_PAGE)


def test_every_page_the_readme_links_exists():
    links = re.findall(r"\]\(((?:docs/)[^)#]*)\)", README)
    assert len(links) >= 12
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 180, "detail belongs in docs/"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("readme") / "audit.duckdb")
    logs = ROOT / "sample_logs"
    argv = ["audit", str(logs / "mcr-faulty.jsonl"), str(logs / "longgang-five-clean.json"),
            "--db", path, "--workers", "1"]
    assert main(argv) == 0
    return path


def test_every_sql_example_of_the_database_runs(db):
    statements = [s for block in re.findall(r"```sql\n(.*?)```", README + TABLES_PAGE, re.S)
                  for s in block.split(";") if s.strip()]
    local = [s for s in statements if "read_parquet" not in s]
    assert len(local) >= 6
    with duckdb.connect(db, read_only=True) as con:
        for stmt in local:
            con.execute(stmt).fetchall()


def test_the_score_pages_situation_scores_as_its_result_shows(tmp_path, capsys):
    page = (ROOT / "docs" / "score-cli.md").read_text(encoding="utf-8")
    situation, shown = (page.split("```json\n")[i].split("```")[0] for i in (1, 2))
    path = tmp_path / "situation.jsonl"
    path.write_text(json.dumps(json.loads(situation)) + "\n", encoding="utf-8")
    assert main(["score", str(path), "--ruleset", "mcr"]) == 0
    result = json.loads(capsys.readouterr().out)
    first = shown.splitlines()[0]
    assert f'"decomposition": "{result["decomposition"]}"' in first
    assert f'"total": {result["total"]}' in first


def _sh_lines() -> list[str]:
    """The command lines of the README's ``sh`` examples (continuations joined)."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        lines += [ln.split("  #")[0].strip() for ln in block.replace("\\\n", " ").splitlines() if ln.strip()]
    return lines


def test_the_exit_status_table_is_the_commands():
    from mahjong_audit.pipeline import exits

    rows = _table_rows(_section("## The command line"), "| status |")
    assert [int(code) for code, _ in rows] == [code for code, _ in exits.STATUSES]
    assert "`--debug`" in _section("## The command line") and "--version" in _section("## The command line")


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("readme-samples") / "audit.duckdb")
    assert main(["audit", str(ROOT / "sample_logs"), "--db", path, "--in-memory"]) == 0
    return path


def test_the_stats_examples_show_rows_of_the_sample_logs(sample_db, capsys):
    examples = [ln.split()[1:] for ln in _sh_lines() if ln.startswith(".venv/bin/mahjong-audit stats")]
    assert any("--player" in words for words in examples)
    for words in examples:
        words[words.index("--db") + 1] = sample_db
        capsys.readouterr()
        assert main(words) == 0, words
        captured = capsys.readouterr()
        assert "nothing matched" not in captured.err, words
        if {"--player", "--ruleset", "--since", "--until"} & set(words):  # a filter that finds rows
            assert re.search(r"\((?!0 rows)[\d,]+ rows?\b", captured.out), (words, captured.out)


def test_the_python_one_liner_for_queries_runs(sample_db):
    import subprocess
    import sys

    (line,) = [ln for ln in _sh_lines() if ln.startswith(".venv/bin/python -c")]
    words = __import__("shlex").split(line)
    words[0] = sys.executable
    words = [sample_db if w == "audit.duckdb" else w.replace("'audit.duckdb'", repr(sample_db)) for w in words]
    out = subprocess.run(words, capture_output=True, text=True, check=True, timeout=120).stdout
    assert "payout_mismatch" in out


def test_the_examples_write_only_where_git_ignores(tmp_path):
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and the repository")
    written = []
    for ln in _sh_lines():
        if not ln.startswith(".venv/bin/mahjong-audit"):
            continue
        words = ln.split()
        for opt in ("-o", "--labels", "--db", "--parquet"):
            if opt in words:
                written.append(words[words.index(opt) + 1])
    assert len(written) >= 8 and "out/faulty.jsonl" in written
    for path in written:
        ignored = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT).returncode == 0
        assert ignored, f"README: an example writes {path}, which git does not ignore"
