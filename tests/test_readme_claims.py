"""The README's fragile claims kept true: its command-line table names commands and options
that exist, its table and view lists are the database's, and its SQL examples run."""

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


def test_the_tables_and_views_lists_are_the_databases():
    section = _section("## The tables")
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


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("readme") / "audit.duckdb")
    logs = ROOT / "sample_logs"
    argv = ["audit", str(logs / "mcr-faulty.jsonl"), str(logs / "longgang-five-clean.json"),
            "--db", path, "--workers", "1"]
    assert main(argv) == 0
    return path


def test_every_sql_example_of_the_database_runs(db):
    statements = [s for block in re.findall(r"```sql\n(.*?)```", README, re.S)
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
