"""``mahjong-audit score``: score hand situations given as JSON Lines (docs/score-cli.md)."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, TextIO

from pydantic import ValidationError

from mahjong_audit.engine.hand import NotAWin, Score, ScoreItem
from mahjong_audit.engine.house_rules import Profile, ProfileError, effective_options, load_profile
from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets import RULESETS, OptionError
from mahjong_audit.engine.score_lines import (
    ENCODE,
    SCALARS,
    item_plain,
    items_text,
    key_text,
    situation_of,
    valid_text,
    value_text,
)
from mahjong_audit.engine.situation_check import InvalidSituation, check_situation, parse_fields
from mahjong_audit.schemas import situation_fast
from mahjong_audit.schemas.log import describe_errors
from mahjong_audit.schemas.situation import Situation, error_code


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score single hands (JSON Lines in, one result per line out)",
                       description="Read hand situations as JSON Lines (stdin or FILE) and write one JSON "
                                   "result per line, in order. Invalid lines give valid:false, never a crash.")
    p.add_argument("file", nargs="?", help="input file (default: standard input)")
    p.add_argument("--ruleset", default="mcr", choices=sorted(RULESETS), help="default ruleset (a line's "
                   "'ruleset' field overrides it)")
    p.add_argument("--rules", metavar="FILE", help="house-rules profile (TOML, one table per ruleset): a "
                   "line's own options win over it, it wins over the defaults")
    p.set_defaults(func=run)


def _invalid(code: str, message: str, ident: object = None) -> dict[str, Any]:
    out: dict[str, Any] = {} if ident is None else {"id": ident}
    out.update(valid=False, error=code, message=message)
    return out


def _line_id(data: object) -> object:
    """The line's ``id`` when it is a string or a number (echoed even when the line is invalid)."""
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str | int | float) and not isinstance(ident, bool) else None


def score_line(line: str, default_ruleset: str, profile: Profile | None = None) -> dict[str, Any]:
    """One input line → one result object. Never raises for bad input.

    A line is read by the fast path when it takes it (:mod:`mahjong_audit.schemas.situation_fast`, msgspec),
    else by ``json.loads`` and the models, which give every error; both give the same result."""
    return _plain(_line_result(line, default_ruleset, profile))


def score_line_json(line: str, default_ruleset: str, profile: Profile | None = None) -> str:
    """One input line → its result line (without the newline): what ``score`` writes for it,
    ``json.dumps(score_line(line, default_ruleset), ensure_ascii=False)``. :func:`_line_result` inlined,
    a valid result written by the compiled ``valid_text``: this runs for every line."""
    got = situation_fast.read(line)  # the fast path (none under MAHJONG_AUDIT_MODELS): what it leaves, the models'
    if got is None:
        result = _line_result_checked(line, default_ruleset, profile)
    else:
        sit = got.situation
        result = _score(sit.id, sit, got.options, got.fields, default_ruleset, profile)
    if type(result) is _Valid:
        text = valid_text(*result)  # type: ignore[misc]
        return text if text is not None else _text(_result_fields(*result))  # type: ignore[misc]
    return _text(result)  # type: ignore[arg-type]


def score_line_checked(line: str, default_ruleset: str, profile: Profile | None = None) -> dict[str, Any]:
    """:func:`score_line` by ``json.loads`` and the models alone (the path of every invalid line)."""
    return _plain(_line_result_checked(line, default_ruleset, profile))


def _line_result(line: str, default_ruleset: str, profile: Profile | None = None) -> dict[str, Any] | _Valid:
    got = situation_fast.read(line)  # the fast path (none under MAHJONG_AUDIT_MODELS): what it leaves, the models'
    if got is None:
        return _line_result_checked(line, default_ruleset, profile)
    sit = got.situation
    return _score(sit.id, sit, got.options, got.fields, default_ruleset, profile)


def _line_result_checked(line: str, default_ruleset: str, profile: Profile | None = None) -> dict[str, Any] | _Valid:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, an integer beyond Python's digit limit, nesting
        return _invalid("invalid_json", str(e))
    ident = _line_id(data)
    try:
        sit = Situation.model_validate(data)
    except ValidationError as e:
        return _invalid(error_code(e), describe_errors(e), ident)
    return _score(ident, sit, sit.options, sit.ruleset_fields, default_ruleset, profile)


#: ruleset instances with default options, one per name (a ruleset is immutable once built)
_DEFAULT_RULESETS: dict[str, Ruleset] = {}
#: per ruleset name, the last profile seen and the ruleset instance under it alone
_PROFILE_RULESETS: dict[str, tuple[Profile, Ruleset]] = {}


def _ruleset(name: str, options: dict[str, Any], profile: Profile | None = None) -> Ruleset:
    if profile is not None and profile.options_for(name):
        if options:
            return RULESETS[name](effective_options(name, options, profile))
        cached = _PROFILE_RULESETS.get(name)
        if cached is None or cached[0] is not profile:
            cached = _PROFILE_RULESETS[name] = (profile, RULESETS[name](effective_options(name, None, profile)))
        return cached[1]
    if options:
        return RULESETS[name](options)
    rs = _DEFAULT_RULESETS.get(name)
    if rs is None:
        rs = _DEFAULT_RULESETS[name] = RULESETS[name](options)
    return rs


def _score(ident: object, sit: Any, options: dict[str, Any], fields: dict[str, Any], default_ruleset: str,
           profile: Profile | None = None) -> dict[str, Any] | _Valid:
    """A validated line's result: its ruleset and options (over the profile's), its ruleset fields,
    the checks, the score (a :class:`_Valid`), or the result object of an invalid line. ``sit`` is the
    validated situation, the model ``Situation`` or the fast path's Struct (the same fields: the engine's
    situation is :func:`~mahjong_audit.engine.score_lines.situation_of` of either)."""
    name = sit.ruleset or default_ruleset
    ruleset = _DEFAULT_RULESETS.get(name) if profile is None and not options else None  # _ruleset's common case
    if ruleset is None:
        if name not in RULESETS:
            return _invalid("unknown_ruleset", f"ruleset {name!r} is unknown", ident)
        try:
            ruleset = _ruleset(name, options, profile)
        except OptionError as e:
            return _invalid("invalid_options", str(e), ident)
    try:
        win = situation_of(sit, parse_fields(ruleset, fields))
        check_situation(ruleset, win)
        score = ruleset.score_win(win)
    except (InvalidSituation, NotAWin) as e:
        return _invalid(e.code, str(e), ident)
    return _VALID(_Valid, (score, ruleset, ident))  # the NamedTuple's own __new__ is Python code


class _Valid(NamedTuple):
    """A scored line, before it becomes its result object (:func:`_result_fields`) or its text
    (:func:`_valid_text`, written without the object)."""

    score: Score
    ruleset: Ruleset
    ident: object


_VALID = tuple.__new__

def result_of(score: Score, ruleset: Ruleset | None = None, ident: object = None) -> dict[str, Any]:
    """A result object: the breakdown under the ruleset's ``result_list`` (``fans`` or ``items``),
    its ``result_details`` (always present), any other scalar details, ``total``."""
    return _plain(_result_fields(score, ruleset, ident))


@dataclass(frozen=True, slots=True)
class _Breakdown:
    """A score's items as a result lists them: ``fans`` (name, value, count) or ``items`` (with the unit)."""

    items: tuple[ScoreItem, ...]
    with_unit: bool

    def plain(self) -> list[dict[str, Any]]:
        return [item_plain(i, self.with_unit) for i in self.items]

    def text(self) -> str:
        return items_text(self.items, self.with_unit)


def _result_fields(score: Score, ruleset: Ruleset | None, ident: object) -> dict[str, Any]:
    """:func:`result_of` with the breakdown as a :class:`_Breakdown` (encoded by :func:`_text`)."""
    out: dict[str, Any] = {} if ident is None else {"id": ident}
    out["valid"] = True
    listing = ruleset.result_list if ruleset is not None else (
        "fans" if all(i.unit == "fan" for i in score.items) else "items")
    with_unit = listing != "fans"
    out["items" if with_unit else "fans"] = _Breakdown(score.items, with_unit)
    if ruleset is not None:
        out.update(ruleset.result_details)
    for key, value in score.details:
        if isinstance(value, SCALARS):
            out[key] = value
    out["total"] = score.total
    if score.below_minimum:
        out["below_minimum"] = True
    return out


def _plain(fields: dict[str, Any] | _Valid) -> dict[str, Any]:
    if type(fields) is _Valid:
        fields = _result_fields(*fields)  # type: ignore[misc]
    return {k: v.plain() if type(v) is _Breakdown else v for k, v in fields.items()}  # type: ignore[union-attr]


def _text(fields: dict[str, Any]) -> str:
    """``ENCODE(_plain(fields))``, with strings, booleans, ints and the breakdown written here."""
    parts = []
    for k, v in fields.items():
        if type(k) is not str:
            return ENCODE(_plain(fields))
        parts.append(key_text(k) + (v.text() if type(v) is _Breakdown else value_text(v)))
    return "{" + ", ".join(parts) + "}"


def _valid_text(v: _Valid) -> str:
    """``_text(_result_fields(*v))``: written by the compiled :func:`~mahjong_audit.engine.score_lines.valid_text`,
    or here when a detail is under a key the result sets itself."""
    text = valid_text(*v)
    return text if text is not None else _text(_result_fields(*v))


def tune_collector() -> tuple[int, int, int]:
    """The garbage collector set for a long stream of lines: what start-up built is frozen, and
    young collections run every 20,000 allocations instead of 700. The calculators' caches of
    hand shapes grow to ~10^5 entries that the collector would otherwise keep walking
    (~10% of the time per line); results and situations hold no reference cycles.
    Returns the thresholds before, for :func:`restore_collector`."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return before


def restore_collector(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    before = tune_collector()
    try:
        return _run(args, stdin, stdout)
    finally:
        restore_collector(before)  # run() may be called inside a longer process (tests)


def _run(args: argparse.Namespace, stdin: TextIO | None, stdout: TextIO | None) -> int:
    out = stdout or sys.stdout
    try:
        profile = load_profile(getattr(args, "rules", None))
    except ProfileError as e:  # one line, exit 1, before any line is read
        print(f"mahjong-audit score: {e}", file=sys.stderr)
        return 1
    results: Iterable[str]
    if args.file:
        with open(args.file, encoding="utf-8") as fh:
            results = list(_result_lines(fh, args.ruleset, profile))
    else:
        results = _result_lines(stdin or sys.stdin, args.ruleset, profile)
    for r in results:
        try:
            out.write(r + "\n")
        except UnicodeEncodeError:  # a lone surrogate (an id of "\\ud800") echoed: write it escaped
            out.write(json.dumps(json.loads(r)) + "\n")
    return 0


def _result_lines(lines: Iterable[str], default_ruleset: str, profile: Profile | None = None) -> Iterator[str]:
    for line in lines:
        if line.strip():
            yield score_line_json(line, default_ruleset, profile)
