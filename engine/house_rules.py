"""House rules: every reading a ruleset knows as an option, and profiles that set them.

The seeds name alternatives on every page (有的地方…, 选用). Each is a field of a ruleset's
``Options`` dataclass (its default is the documented default); this module describes them
as data and merges the three places a reading can come from, later ones winning:

1. the ruleset's defaults;
2. a house-rules **profile** (a TOML file, one table per ruleset) given for a whole corpus;
3. the game's own ``options`` object.

>>> spec = option_spec("longgang", "eight_pairs")
>>> spec.type, spec.default, spec.choices
('bool', True, (False, True))
>>> merged = effective_options("longgang", {"eight_pairs": True},
...                            Profile.from_tables({"longgang": {"eight_pairs": False, "dead_wall": 21}}))
>>> dict(merged)
{'eight_pairs': True, 'dead_wall': 21}
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import tomllib
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.engine.ruleset import OptionError, _option_hints
from mahjong_audit.engine.rulesets import RULESETS


class ProfileError(InvalidData):
    """A house-rules profile that cannot be used: unreadable, not TOML, an unknown ruleset
    or option, a value of the wrong type or outside the allowed choices."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of one ruleset, as the listing, profiles and re-checks see it.

    ``choices`` lists the values an enumerable option takes (a ``Literal``, a bool); for a
    set-valued option (``frozenset[...]``) it lists the members a set may hold, where they
    are known; otherwise it is None (an integer, a free mapping)."""

    ruleset: str
    name: str
    type: str
    default: object
    choices: tuple[object, ...] | None
    help: str
    seed: str  # the seed passage the option comes from (may be empty when ``help`` quotes it)
    set_valued: bool

    def as_json(self) -> dict[str, object]:
        return {"ruleset": self.ruleset, "name": self.name, "type": self.type,
                "default": to_json(self.default), "choices": to_json(self.choices),
                "help": self.help, "seed": self.seed}

    def alternatives(self) -> tuple[object, ...]:
        """The documented values other than the default, each as a value the option takes:
        every other choice of an enumerable option; for a set-valued option, the default
        with each known member added or removed in turn. Empty for free values."""
        if self.choices is None:
            return ()
        if not self.set_valued:
            return tuple(c for c in self.choices if c != self.default)
        default = frozenset(self.default)  # type: ignore[call-overload]
        return tuple(default ^ {m} for m in self.choices)


def to_json(value: object) -> object:
    """A value as JSON (and TOML) write it: sets as sorted lists, mappings as dicts."""
    if isinstance(value, frozenset | set):
        return sorted(value, key=repr)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    return value


def _type_name(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is Literal:
        args = get_args(hint)
        return "int" if all(isinstance(a, int) and not isinstance(a, bool) for a in args) else "str"
    if origin in (Union, types.UnionType):
        return "|".join(_type_name(a) if a is not type(None) else "null" for a in get_args(hint))
    if origin in (frozenset, tuple) or hint in (frozenset, tuple):
        args = get_args(hint)
        return f"list of {_type_name(args[0]) if args else 'any'}"
    if origin in (Mapping, dict) or hint in (Mapping, dict):
        kt, vt = get_args(hint) or (Any, Any)
        return f"map of {_type_name(kt)} to {_type_name(vt)}"
    return getattr(hint, "__name__", str(hint))


def _choices(hint: Any, metadata: Mapping[str, Any]) -> tuple[tuple[object, ...] | None, bool]:
    listed = metadata.get("choices")
    origin = get_origin(hint)
    set_valued = origin is frozenset or hint is frozenset
    if listed is not None:
        return tuple(listed() if callable(listed) else listed), set_valued
    if origin is Literal:
        return get_args(hint), False
    if hint is bool:
        return (False, True), False
    if set_valued:
        (inner,) = get_args(hint) or (Any,)
        if get_origin(inner) is Literal:
            return get_args(inner), True
    return None, set_valued


def _default(f: dataclasses.Field) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    return f.default_factory()  # type: ignore[misc,operator]


def _specs_of(ruleset: str) -> tuple[OptionSpec, ...]:
    cls = RULESETS[ruleset].Options
    hints = _option_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        choices, set_valued = _choices(hints[f.name], f.metadata)
        out.append(OptionSpec(
            ruleset=ruleset, name=f.name, type=_type_name(hints[f.name]), default=_default(f),
            choices=choices, help=f.metadata.get("help", ""), seed=f.metadata.get("seed", ""),
            set_valued=set_valued))
    return tuple(out)


_SPECS: dict[str, tuple[OptionSpec, ...]] = {}


def option_specs(ruleset: str | None = None) -> tuple[OptionSpec, ...]:
    """Every option of ``ruleset`` (of every ruleset when None), in declaration order."""
    names = [ruleset] if ruleset is not None else list(RULESETS)
    out: list[OptionSpec] = []
    for name in names:
        if name not in RULESETS:
            raise KeyError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
        if name not in _SPECS:
            _SPECS[name] = _specs_of(name)
        out.extend(_SPECS[name])
    return tuple(out)


def option_spec(ruleset: str, name: str) -> OptionSpec:
    for spec in option_specs(ruleset):
        if spec.name == name:
            return spec
    raise KeyError(f"unknown option {name!r} for ruleset {ruleset!r}")


@dataclass(frozen=True, slots=True)
class Profile:
    """A house-rules profile: per ruleset, the options it sets (validated), with its name and
    the SHA-256 of its bytes so a verdict can say which profile it was reached under."""

    name: str
    sha256: str
    tables: Mapping[str, Mapping[str, Any]]

    @classmethod
    def from_tables(cls, tables: Mapping[str, Mapping[str, Any]], name: str = "",
                    sha256: str = "") -> Profile:
        checked: dict[str, Mapping[str, Any]] = {}
        for ruleset, table in tables.items():
            if ruleset not in RULESETS:
                raise ProfileError(f"[{ruleset}]: unknown ruleset (known: {', '.join(RULESETS)})")
            if not isinstance(table, Mapping):
                raise ProfileError(f"{ruleset}: expected a table [{ruleset}] of options")
            _check_table(ruleset, table)
            checked[ruleset] = types.MappingProxyType(dict(table))
        return cls(name, sha256, types.MappingProxyType(checked))

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise ProfileError(f"{p}: cannot read the house-rules profile ({e.strerror or e})") from None
        try:
            tables = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise ProfileError(f"{p}: not a TOML file ({e})") from None
        try:
            return cls.from_tables(tables, name=p.name, sha256=hashlib.sha256(data).hexdigest())
        except ProfileError as e:
            raise ProfileError(f"{p}: {e}") from None

    def options_for(self, ruleset: str) -> Mapping[str, Any]:
        return self.tables.get(ruleset, types.MappingProxyType({}))

    def plain_tables(self) -> dict[str, dict[str, Any]]:
        """The tables as plain dicts (what pickling and JSON take)."""
        return {ruleset: dict(table) for ruleset, table in self.tables.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        # a plain picklable value: the pipeline ships a profile to remote workers inside its DoFns
        return (_restore_profile, (self.plain_tables(), self.name, self.sha256))

    def to_toml(self) -> str:
        """The profile as TOML text (what ``calibrate -o`` writes; ``load`` reads it back)."""
        lines: list[str] = []
        for ruleset, table in self.tables.items():
            if lines:
                lines.append("")
            lines.append(f"[{ruleset}]")
            for name, value in table.items():
                lines.append(f"{name} = {toml_value(value)}")
        return "\n".join(lines) + "\n"


def load_profile(path: str | None) -> Profile | None:
    """The profile of a command's ``--rules FILE`` (None without one). One that cannot be used
    raises :class:`ProfileError` (a ValueError) with one line naming the option and what it
    allows: ``audit``, ``simulate`` and ``score`` refuse it before any work."""
    return None if path is None else Profile.load(path)


EMPTY_PROFILE = Profile("", "", types.MappingProxyType({}))


def _restore_profile(tables: dict[str, dict[str, Any]], name: str, sha256: str) -> Profile:
    return Profile.from_tables(tables, name=name, sha256=sha256)


def toml_value(value: object) -> str:
    """One option value as TOML writes it."""
    value = to_json(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f'"{k}" = {toml_value(v)}' for k, v in value.items()) + "}"
    raise ProfileError(f"cannot write {value!r} as TOML")


def _check_table(ruleset: str, table: Mapping[str, Any]) -> None:
    """Each option by itself, then the table as a whole, with a message naming the option and
    the values it allows."""
    specs = {s.name: s for s in option_specs(ruleset)}
    for name, value in table.items():
        spec = specs.get(name)
        if spec is None:
            raise ProfileError(f"[{ruleset}] {name}: unknown option (known: {', '.join(specs)})")
        try:
            RULESETS[ruleset].parse_options({name: value})
        except OptionError as e:
            reason = str(e).removeprefix(f"{name}: ")
            raise ProfileError(f"[{ruleset}] {name} = {toml_value_or_repr(value)}: {reason}{_allowed(spec)}") from None
    try:
        RULESETS[ruleset].parse_options(dict(table))
    except OptionError as e:
        raise ProfileError(f"[{ruleset}]: {e}") from None


def toml_value_or_repr(value: object) -> str:
    try:
        return toml_value(value)
    except ProfileError:
        return repr(value)


def _allowed(spec: OptionSpec) -> str:
    if spec.choices is None:
        return f" (expected {spec.type})"
    shown = ", ".join(toml_value(c) for c in spec.choices)
    return f" (allowed: {'a list of ' if spec.set_valued else ''}{shown})"


def effective_options(ruleset: str, game_options: Mapping[str, Any] | None,
                      profile: Profile | None) -> Mapping[str, Any]:
    """The options a game is audited under: the profile's table for its ruleset, with the
    game's own ``options`` over it (a log's word wins over the profile, the profile over the
    defaults)."""
    base = profile.options_for(ruleset) if profile is not None else None
    if not base:
        return game_options or {}
    merged = dict(base)
    merged.update(game_options or {})
    return merged


#: :func:`readings_json`'s answers by the parsed options object (immutable, and shared by every game
#: that carries the same options: ``Ruleset.parse_options``), each kept with its object
_READINGS: dict[tuple[str, int], tuple[Any, str]] = {}
_READINGS_MAX = 1024


def readings_json(ruleset: str, options: Any) -> str:
    """:func:`differing_from_defaults` as compact JSON text with sorted keys (``games.readings``):
    ``{}`` for a game audited under the defaults. Worked out once per options object (every game
    asks)."""
    key = (ruleset, id(options))
    hit = _READINGS.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    text = json.dumps(differing_from_defaults(ruleset, options), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))
    if len(_READINGS) < _READINGS_MAX:
        _READINGS[key] = (options, text)
    return text


def differing_from_defaults(ruleset: str, options: Any) -> dict[str, object]:
    """The readings of parsed ``options`` that differ from the ruleset's defaults, as JSON
    values (what a ``games`` row records of the readings its verdicts were reached under)."""
    out: dict[str, object] = {}
    for spec in option_specs(ruleset):
        value = getattr(options, spec.name)
        if value != spec.default:
            out[spec.name] = to_json(value)
    return out


# --------------------------------------------------------------------------- listing


def shown(value: object) -> str:
    """A default or a choice as the listing and the rules pages show it (JSON; sets as lists)."""
    return json.dumps(to_json(value), ensure_ascii=False)


def allowed_values(spec: OptionSpec) -> str:
    """The values an option takes, in words: its choices, or its type."""
    if spec.choices is None:
        return spec.type
    shown_choices = ", ".join(shown(c) for c in spec.choices)
    return f"a list of {shown_choices}" if spec.set_valued else shown_choices


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


#: the marker comments around each rules page's generated option table
TABLE_BEGIN = ("<!-- options: generated from the {ruleset} Options (engine/house_rules.py markdown_table); "
               "python -m mahjong_audit.engine.house_rules --write-docs regenerates it -->")
TABLE_END = "<!-- options: end -->"


def markdown_table(ruleset: str) -> str:
    """Every option of ``ruleset`` as a Markdown table (the option table of docs/rules/<ruleset>.md)."""
    lines = ["| option | values | default | what it changes | seed |", "|---|---|---|---|---|"]
    for spec in option_specs(ruleset):
        lines.append(f"| `{spec.name}` | {_cell(allowed_values(spec))} | `{_cell(shown(spec.default))}` "
                     f"| {_cell(spec.help)} | {_cell(spec.seed)} |")
    return "\n".join(lines) + "\n"


def with_table(page: str, ruleset: str) -> str:
    """``page`` (a rules page's text) with its generated option table replaced by the current one."""
    begin = TABLE_BEGIN.format(ruleset=ruleset)
    head, found, rest = page.partition(begin)
    _, found_end, tail = rest.partition(TABLE_END)
    if not found or not found_end:
        raise ValueError(f"the page has no {begin!r} … {TABLE_END!r} block")
    return f"{head}{begin}\n{markdown_table(ruleset)}{TABLE_END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """``python -m mahjong_audit.engine.house_rules [RULESET]`` prints a ruleset's table;
    ``--write-docs`` regenerates the tables of docs/rules/*.md in place."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write-docs"]:
        docs = Path(__file__).resolve().parent.parent / "docs" / "rules"
        for ruleset in RULESETS:
            page = docs / f"{ruleset}.md"
            page.write_text(with_table(page.read_text(encoding="utf-8"), ruleset), encoding="utf-8")
        return 0
    for ruleset in args or list(RULESETS):
        print(markdown_table(ruleset), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
