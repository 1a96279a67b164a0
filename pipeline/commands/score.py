"""``mahjong-audit score``: score hand situations given as JSON Lines (docs/score-cli.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from pydantic import ValidationError

from engine.hand import NotAWin, Score
from engine.rulesets import RULESETS, OptionError
from schemas.log import describe_errors
from schemas.situation import Situation


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score single hands (JSON Lines in, one result per line out)",
                       description="Read hand situations as JSON Lines (stdin or FILE) and write one JSON "
                                   "result per line, in order. Invalid lines give valid:false, never a crash.")
    p.add_argument("file", nargs="?", help="input file (default: standard input)")
    p.add_argument("--ruleset", default="mcr", choices=sorted(RULESETS), help="default ruleset (a line's "
                   "'ruleset' field overrides it)")
    p.set_defaults(func=run)


def score_line(line: str, default_ruleset: str) -> dict[str, Any]:
    """One input line → one result object. Never raises for bad input."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        return {"valid": False, "error": "invalid_json", "message": str(e)}
    try:
        sit = Situation.model_validate(data)
    except ValidationError as e:
        return {"valid": False, "error": "invalid_situation", "message": describe_errors(e)}
    name = sit.ruleset or default_ruleset
    if name not in RULESETS:
        return {"valid": False, "error": "unknown_ruleset", "message": f"ruleset {name!r} is unknown"}
    try:
        ruleset = RULESETS[name](sit.options)
    except OptionError as e:
        return {"valid": False, "error": "invalid_options", "message": str(e)}
    try:
        score = ruleset.score_win(sit.to_situation())
    except NotAWin as e:
        return {"valid": False, "error": e.code, "message": str(e)}
    return result_of(score)


def result_of(score: Score) -> dict[str, Any]:
    out: dict[str, Any] = {"valid": True}
    if all(i.unit == "fan" for i in score.items):
        out["fans"] = [{"name": i.name, "value": i.value, "count": i.count} for i in score.items]
    else:
        out["items"] = [{"name": i.name, "unit": i.unit, "value": i.value, "count": i.count} for i in score.items]
    for key, value in score.details:
        if isinstance(value, int | str | bool | float):
            out[key] = value
    out["total"] = score.total
    if score.below_minimum:
        out["below_minimum"] = True
    return out


def score_lines(lines: Iterable[str], default_ruleset: str) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield score_line(line, default_ruleset)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    results: Iterable[dict[str, Any]]
    if args.file:
        with open(args.file, encoding="utf-8") as fh:
            results = list(score_lines(fh, args.ruleset))
    else:
        results = score_lines(stdin or sys.stdin, args.ruleset)
    for r in results:
        out.write(json.dumps(r, ensure_ascii=False) + "\n")
    return 0
