"""Re-checks: a game audited again under other house-rules readings.

An error finding that holds under the defaults may vanish under a documented alternative
reading (an option value the seeds name: 有的地方…, 选用). Such a finding is not as certain
as a 相公: :func:`annotate` re-audits each game that has error findings once per documented
alternative of its ruleset's options and records, on every error that one of them clears,
which (``Finding.depends_on``, e.g. ``("wild_beyond_fourth_copy=any",)``).

Everything here goes through :func:`audit_under`, the one way to audit a game under option
overrides. A reading explains a finding only when the re-audit clears it *and adds no error
finding of its own* to the hands re-checked: a reading that trades one error for another explains
nothing. Codes in :data:`HOLDS_UNDER_EVERY_READING` are never re-checked (a seat dealt a tile
too few, an unreadable record): no reading of the rules changes what the log shows.

The cost is one audit per alternative of the hands with a re-checkable error (of the whole
game where a finding is about the game: :func:`subject`), and nothing for the other games. ``mahjong-audit calibrate`` (mahjong_audit.pipeline.commands.calibrate) builds on the
same functions.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.house_rules import Profile, effective_options, option_specs, to_json
from mahjong_audit.engine.result import GameAudit

#: Finding codes whose verdict no house rule can change: what the log records about tiles
#: held, dealt or named, about the record itself, and money that does not add up. They are
#: not re-checked (and never get a ``depends_on``).
HOLDS_UNDER_EVERY_READING: frozenset[str] = frozenset({
    "invalid_log/json", "invalid_log/schema", "invalid_log/import", "invalid_log/engine_error",
    "duplicate_game/game_id",
    "dead_hand/too_many", "dead_hand/too_few",
    "illegal_call/tiles_not_held", "illegal_call/wrong_tile", "illegal_call/own_discard",
    "illegal_discard/not_held",
    "tile_conservation/deal_size", "tile_conservation/wall_mismatch",
    "turn_order/wrong_seat", "turn_order/after_end",
    "false_win/wrong_tile",
    "payout_mismatch/not_zero_sum",
    "outcome_mismatch/missing",
    "continuity/hand_no", "continuity/final_scores",
})

FindingKey = tuple[str, int | None, int | None, int | None]


def finding_key(f: Finding) -> FindingKey:
    """What identifies a finding across re-audits of one game (its message and expected
    value may change with the reading; its code and place do not)."""
    return (f.code, f.hand_no, f.seq, f.seat)


def rechecked(f: Finding) -> bool:
    """An error finding that a reading might clear."""
    return f.severity == Severity.ERROR and f.code not in HOLDS_UNDER_EVERY_READING


def error_keys(audit: GameAudit) -> frozenset[FindingKey]:
    return frozenset(finding_key(f) for f in audit.findings if f.severity == Severity.ERROR)


@dataclass(frozen=True, slots=True)
class Reading:
    """One option set to one value: ``value`` as JSON gives it (sets as sorted lists)."""

    name: str
    value: Any

    @property
    def label(self) -> str:
        """``name=value`` as ``depends_on`` and ``calibrate`` print it: a string bare, anything
        else as JSON (``wild_beyond_fourth_copy=any``, ``eight_pairs=false``)."""
        v = self.value
        return f"{self.name}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"

    def as_override(self) -> dict[str, Any]:
        return {self.name: self.value}


def with_options(game: Any, options: Mapping[str, Any], hands: Sequence[Any] | None = None) -> Any:
    """A copy of ``game`` with ``options`` in place of its own (and ``hands`` in place of its
    hands, when given): a ``mahjong_audit.schemas.log.Game`` (pydantic), a fast-path frozen dataclass or
    msgspec Struct (mahjong_audit.schemas.log_fast)."""
    changes: dict[str, Any] = {"options": dict(options)}
    if hands is not None:
        changes["hands"] = list(hands)
    if dataclasses.is_dataclass(game) and not isinstance(game, type):
        return dataclasses.replace(game, **changes)
    copy = getattr(game, "model_copy", None)
    if copy is not None:
        return copy(update=changes)
    if hasattr(type(game), "__struct_fields__"):
        import msgspec  # only a msgspec Struct gets here, so msgspec is installed

        return msgspec.structs.replace(game, **changes)
    raise TypeError(f"cannot copy a {type(game).__name__} with other options")


def audit_under(game: Any, overrides: Mapping[str, Any]) -> GameAudit:
    """Audit ``game`` with ``overrides`` over its own ``options`` (an override wins: a
    re-check must judge the game under the alternative, whatever the log says)."""
    if not overrides:
        return audit_game(game)
    merged = dict(game.options or {})
    merged.update(overrides)
    return audit_game(with_options(game, merged))


@dataclass(frozen=True, slots=True)
class Subject:
    """What the re-checks of one game audit: the whole game, or (``partial``) a copy holding
    only its hands with re-checkable errors, when those hands are judged on their own (no
    game-level error, no chips carried from hand to hand). ``audit``: the subject audited
    under the base options. A partial subject's continuity findings (its hands are no longer
    consecutive) are left out of every comparison."""

    game: Any
    audit: GameAudit
    partial: bool

    def keys(self, audit: GameAudit) -> frozenset[FindingKey]:
        keys = error_keys(audit)
        return frozenset(k for k in keys if not k[0].startswith("continuity/")) if self.partial else keys


def subject(game: Any, audit: GameAudit, base: Mapping[str, Any]) -> Subject:
    """The :class:`Subject` of ``game``, audited under ``base`` as ``audit``. A hand's replay
    and settlement read only that hand's record (its dealer, wind, wall and events), so the
    hands without findings are left out of the re-checks: their cost follows the hands with
    findings, not the games."""
    hand_nos = [h.hand_no for h in game.hands]
    wanted = {f.hand_no for f in audit.findings if rechecked(f)}
    whole = (None in wanted or len(wanted) == len(hand_nos) or len(set(hand_nos)) != len(hand_nos)
             or any(f.code.startswith("continuity/") for f in audit.findings if rechecked(f))
             or any(h.chips is not None for h in game.hands))
    if whole:
        return Subject(game, audit, False)
    merged = {**(game.options or {}), **base}
    part = with_options(game, merged, [h for h in game.hands if h.hand_no in wanted])
    return Subject(part, audit_game(part), True)


def readings(ruleset: str, options: Mapping[str, Any] | None = None) -> tuple[Reading, ...]:
    """Every documented alternative to the readings ``options`` (over the defaults) set:
    for an option at its default, :meth:`OptionSpec.alternatives`; for one the options
    already set, the other documented values. Free values (integers, mappings) have none."""
    options = options or {}
    out: list[Reading] = []
    for spec in option_specs(ruleset):
        if spec.name not in options:
            alternatives = spec.alternatives()
        elif spec.choices is None:
            alternatives = ()
        elif spec.set_valued:
            have = frozenset(options[spec.name])
            alternatives = tuple(have ^ {m} for m in spec.choices)
        else:
            alternatives = tuple(c for c in spec.choices if c != options[spec.name])
        out.extend(Reading(spec.name, to_json(v)) for v in alternatives)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Recheck:
    """A game audited again under one more reading: the errors it clears and adds."""

    reading: Reading
    audit: GameAudit
    cleared: frozenset[FindingKey]
    added: frozenset[FindingKey]


def changes(before: GameAudit, after: GameAudit, subj: Subject | None = None
            ) -> tuple[list[FindingKey], list[FindingKey]]:
    """The errors of ``before`` that ``after`` clears, and the ones it adds (both audits of
    ``subj``'s game, when given). An error that holds under every reading and goes away counts
    as added, not cleared: a reading that makes a 相公 vanish contradicts the log, it does not
    explain it."""
    old, new = (subj.keys(before), subj.keys(after)) if subj is not None else (error_keys(before), error_keys(after))
    gone = sorted(old - new, key=repr)
    came = sorted(new - old, key=repr) + [k for k in gone if k[0] in HOLDS_UNDER_EVERY_READING]
    return [k for k in gone if k[0] not in HOLDS_UNDER_EVERY_READING], came


def recheck(subj: Subject, base: Mapping[str, Any], reading: Reading) -> Recheck:
    """``subj`` (audited under ``base``) audited under ``base`` + ``reading``."""
    again = audit_under(subj.game, {**base, **reading.as_override()})
    cleared, added = changes(subj.audit, again, subj)
    return Recheck(reading, again, frozenset(cleared), frozenset(added))


def annotate(game: Any, audit: GameAudit, base: Mapping[str, Any] | None = None) -> GameAudit:
    """``audit`` of ``game`` (reached under the options ``base``: the game's own with the
    profile's below them; default the game's own) with ``depends_on`` filled on each error
    finding that a documented alternative clears without adding another error to the hands
    re-checked (:func:`subject`). Unchanged (the same object) when no error finding can be
    re-checked."""
    if not any(rechecked(f) for f in audit.findings):
        return audit
    base = dict(game.options or {}) if base is None else dict(base)
    subj = subject(game, audit, base)
    explained: dict[FindingKey, list[str]] = {}
    for reading in readings(audit.ruleset, base):
        r = recheck(subj, base, reading)
        if r.added:
            continue
        for key in r.cleared:
            explained.setdefault(key, []).append(reading.label)
    if not explained:
        return audit
    findings = tuple(dataclasses.replace(f, depends_on=tuple(explained[finding_key(f)]))
                     if rechecked(f) and finding_key(f) in explained else f for f in audit.findings)
    return dataclasses.replace(audit, findings=findings)


def audit_with_rechecks(game: Any, profile: Profile | None = None) -> GameAudit:
    """:func:`audit_game` under ``profile`` (the game's own options over it), then
    :func:`annotate`: what the pipeline's per-game step runs."""
    base = effective_options(game.ruleset, game.options, profile)
    # audit_game merges the same options (raising OptionError when the game's do not go with the
    # profile's) and records the readings and the profile on the audit
    return annotate(game, audit_game(game, profile), base)
