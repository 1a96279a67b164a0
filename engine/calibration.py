"""Calibration: which house-rules readings explain a corpus (``mahjong-audit calibrate``).

A platform plays under readings its logs never name. Audited with the defaults, a game
played under another reading gets error findings (a score the default does not give, a win
the default forbids) that the reading clears. :func:`calibrate` finds the readings that do
so across a corpus, and keeps them apart from noise (genuine faults):

1. every game is audited once under the defaults;
2. only the games with re-checkable error findings (mahjong_audit.engine.rechecks) are audited again
   (only their hands with such findings, where those are judged on their own:
   mahjong_audit.engine.rechecks.subject), under each documented alternative of the ruleset's options and, for the numeric options
   a payout can be solved for (:data:`SOLVED_FROM_PAYOUTS`), under the values the recorded
   payouts give (:func:`payout_candidates`);
3. greedy forward selection: the reading that clears the most errors is taken into the
   profile if it **explains** (clears an error of, adding none) at least ``min_games``
   games, **contradicts** (adds an error to) at most ``max_contradicted`` of the games it
   changes, and makes no error that holds under every reading (a 相公) vanish; the flagged
   games are then judged again under the profile so far; then pairs among the strongest
   readings that failed alone (options that only act together), then single readings again;
4. the whole corpus is audited once more under the profile: a reading that contradicts
   more games than that share allows (the clean ones included, which step 3 did not see)
   is dropped and the search runs again without it.

A real reading acts the same way in every game where it matters; a fault is one game's
accident. So a reading must explain several games and leave the others alone. It may
contradict a few: a fault can hide behind the wrong reading (a fault that records one 台
too many on a hand the default scores one 台 higher looks clean under the default) and the
true reading shows it again, as it should; a wrong reading instead contradicts every
honest game where it matters. A reading that cleared faults would have to clear them in
``min_games`` games while changing hardly any honest game's verdict, and one that makes a
相公 vanish is never taken.

Cost: two audits of the corpus (the first and the verification) plus one re-audit per
candidate reading of the hands with error findings.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mahjong_audit.engine.findings import Kind
from mahjong_audit.engine.house_rules import Profile, effective_options, option_spec
from mahjong_audit.engine.rechecks import (
    FindingKey,
    Reading,
    Subject,
    audit_under,
    changes,
    error_keys,
    finding_key,
    readings,
    rechecked,
    subject,
)
from mahjong_audit.engine.result import GameAudit

#: Numeric options (a base, a cap, a penalty) whose value a recorded payout can be solved
#: for: ruleset -> option names. Other numeric options (a minimum, a window) are not read
#: off payouts.
SOLVED_FROM_PAYOUTS: Mapping[str, tuple[str, ...]] = {
    "mcr": ("base", "false_win_penalty"),
    "guangdong": ("base", "cap", "false_win_fan"),
}
SOLVED_CANDIDATES = 4  # values per solved option that are tried, the most often given first
PAIR_POOL = 6  # pairs are tried among this many of the strongest single readings that failed
ROUNDS = 8  # the most readings one search takes (each round adds one or a pair)


@dataclass(frozen=True, slots=True)
class Effect:
    """What setting ``readings`` (over the profile so far) does to the flagged games."""

    readings: tuple[Reading, ...]
    cleared: int  # error findings it clears
    cleared_score: int
    cleared_payout: int
    added: int  # error findings it adds
    added_score: int
    added_payout: int
    hands: int  # hands with an error cleared or added
    explained: tuple[str, ...]  # game ids: an error cleared, none added
    contradicted: tuple[str, ...]  # game ids: an error added
    hard: tuple[str, ...]  # game ids: an error that holds under every reading went away
    audits: Mapping[int, GameAudit] = field(repr=False, compare=False)  # game index -> its audit under it

    @property
    def label(self) -> str:
        return " + ".join(r.label for r in self.readings)

    def qualifies(self, min_games: int, max_contradicted: float) -> bool:
        return (self.cleared > 0 and not self.hard and len(self.explained) >= min_games
                and not too_many(len(self.contradicted), len(self.explained), max_contradicted))


def too_many(contradicted: int, explained: int, share: float) -> bool:
    """More contradicted games than ``share`` of the games a reading changes."""
    return contradicted > share * (contradicted + explained)


@dataclass(frozen=True, slots=True)
class Calibration:
    """The outcome for one ruleset: every reading tried (as first judged, over the defaults),
    the profile chosen, and the corpus before and after."""

    ruleset: str
    games: int
    flagged: int  # games with re-checkable error findings under the defaults
    games_flagged_before: int  # games with any error finding under the defaults
    errors_before: int  # error findings under the defaults (all games)
    errors_after: int  # under the chosen readings
    games_flagged_after: int
    tried: tuple[Effect, ...]
    chosen: tuple[Effect, ...]  # in the order taken, each as judged when it was taken
    dropped: tuple[str, ...]  # readings the verification dropped (they added errors somewhere)
    audits: int  # game audits run in all

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in self.chosen:
            for r in e.readings:
                out[r.name] = r.value
        return out


def _kind_counts(keys: Iterable[FindingKey]) -> tuple[int, int, int]:
    keys = list(keys)
    score = sum(1 for k in keys if k[0].startswith(Kind.SCORE_MISMATCH + "/"))
    payout = sum(1 for k in keys if k[0].startswith(Kind.PAYOUT_MISMATCH + "/"))
    return len(keys), score, payout


class _Search:
    def __init__(self, ruleset: str, games: Sequence[Any], min_games: int, max_contradicted: float):
        self.ruleset, self.games, self.min_games = ruleset, games, min_games
        self.max_contradicted = max_contradicted
        self.n_audits = 0
        self.subjects: dict[int, Subject] = {}  # flagged game index -> what its re-checks audit

    def profile(self, options: Mapping[str, Any]) -> Profile | None:
        return Profile.from_tables({self.ruleset: options}) if options else None

    def audit(self, i: int, profile: Profile | None, part: bool = False) -> GameAudit:
        """Game ``i`` (its re-check subject with ``part``) audited under ``profile``."""
        self.n_audits += 1
        game = self.subjects[i].game if part else self.games[i]
        return audit_under(game, effective_options(self.ruleset, game.options, profile))

    def flagged(self, audits: Mapping[int, GameAudit]) -> dict[int, GameAudit]:
        """The subjects' audits that still hold a re-checkable error."""
        return {i: a for i, a in audits.items()
                if any(rechecked(f) and finding_key(f) in self.subjects[i].keys(a) for f in a.findings)}

    def effect(self, chosen: Mapping[str, Any], current: Mapping[int, GameAudit],
               trial: tuple[Reading, ...]) -> Effect:
        options = dict(chosen)
        for r in trial:
            options[r.name] = r.value
        cleared: list[FindingKey] = []
        added: list[FindingKey] = []
        hands: set[tuple[int, int | None]] = set()
        explained, contradicted, hard = [], [], []
        audits = {}
        profile = self.profile(options)
        for i, before in current.items():
            after = self.audit(i, profile, part=True)
            audits[i] = after
            gone, came = changes(before, after, self.subjects[i])
            cleared += gone
            added += came
            hands.update((i, k[1]) for k in gone + came)
            if came:
                contradicted.append(after.game_id)
                if set(came) & error_keys(before):
                    hard.append(after.game_id)
            elif gone:
                explained.append(after.game_id)
        c, cs, cp = _kind_counts(cleared)
        a, as_, ap = _kind_counts(added)
        return Effect(trial, c, cs, cp, a, as_, ap, len(hands), tuple(explained), tuple(contradicted),
                      tuple(hard), audits)


def payout_candidates(ruleset: str, audits: Iterable[GameAudit], current: Mapping[str, Any]) -> tuple[Reading, ...]:
    """Values of the :data:`SOLVED_FROM_PAYOUTS` options that the recorded payouts give.

    Each seat's difference d = recorded − recomputed in a hand whose payouts disagree is
    solved as if the option entered that seat's payout linearly (value ± d/k for k payers
    1…4: a base, a penalty), as a factor (value × recorded/recomputed: a base of 2^fan) or
    as an exponent (value + log2(recorded/recomputed): a cap, a fan count). The values given
    most often are the candidates; the re-checks judge them."""
    names = SOLVED_FROM_PAYOUTS.get(ruleset, ())
    if not names:
        return ()
    diffs = []
    for audit in audits:
        for h in audit.hands:
            if h.recorded_deltas is None or h.computed_deltas is None:
                continue
            diffs += [(r, c) for r, c in zip(h.recorded_deltas, h.computed_deltas, strict=False) if r != c]
    out: list[Reading] = []
    for name in names:
        spec = option_spec(ruleset, name)
        v0 = current.get(name, spec.default)
        votes: Counter[object] = Counter()
        if isinstance(v0, int) and not isinstance(v0, bool):
            for r, c in diffs:
                d = r - c
                for k in range(1, 5):
                    if d % k == 0:
                        votes[v0 + d // k] += 1
                        votes[v0 - d // k] += 1
                if c and r and r % c == 0 and r // c > 0:
                    votes[v0 * (r // c)] += 1
                    ratio = r // c
                    if ratio & (ratio - 1) == 0:
                        votes[v0 + int(math.log2(ratio))] += 1
                if c and r and c % r == 0 and c // r > 0:
                    ratio = c // r
                    if v0 % ratio == 0:
                        votes[v0 // ratio] += 1
                    if ratio & (ratio - 1) == 0:
                        votes[v0 - int(math.log2(ratio))] += 1
        values: list[object] = []
        values += [v for v, _ in sorted(votes.items(), key=lambda kv: (-kv[1], repr(kv[0])))
                   if v != v0 and isinstance(v, int) and v >= 0][:SOLVED_CANDIDATES]
        if "null" in spec.type and v0 is not None and diffs:
            values.append(None)
        out += [Reading(name, v) for v in values]
    return tuple(out)


def _best(effects: Iterable[Effect]) -> Effect | None:
    ranked = sorted(effects, key=lambda e: (-e.cleared, e.added, -len(e.explained), len(e.readings), e.label))
    return ranked[0] if ranked else None


def _search(s: _Search, baseline: Mapping[int, GameAudit], banned: frozenset[str]
            ) -> tuple[list[Effect], list[Effect]]:
    """Greedy forward selection over the flagged games, then pairs: (tried, chosen)."""
    chosen: list[Effect] = []
    options: dict[str, Any] = {}
    current = {i: subj.audit for i, subj in s.subjects.items()}
    tried: list[Effect] = []
    live: list[Reading] | None = None  # readings worth judging again (cleared something once)
    pairs_done = False
    for _ in range(ROUNDS):
        if not current:
            break
        if live is None:
            candidates = list(readings(s.ruleset, options)) + list(payout_candidates(
                s.ruleset, current.values(), options))
        else:  # the readings that cleared something once, and the values the payouts now give
            candidates = [r for r in live if r.name not in options]
            candidates += [r for r in payout_candidates(s.ruleset, current.values(), options)
                           if r not in candidates and r.name not in options]
        candidates = [r for r in candidates if r.label not in banned]
        effects = [s.effect(options, current, (r,)) for r in candidates]
        if live is None:
            tried = effects
            live = [e.readings[0] for e in effects if e.cleared]
        pick = _best(e for e in effects if e.qualifies(s.min_games, s.max_contradicted))
        if pick is None and not pairs_done:
            pairs_done = True
            pool = [e.readings[0] for e in sorted(effects, key=lambda e: (-e.cleared, e.label)) if e.cleared][:PAIR_POOL]
            pairs = [(a, b) for n, a in enumerate(pool) for b in pool[n + 1:] if a.name != b.name]
            pick = _best(e for e in (s.effect(options, current, p) for p in pairs) if e.qualifies(s.min_games, s.max_contradicted))
        if pick is None:
            break
        chosen.append(pick)
        for r in pick.readings:
            options[r.name] = r.value
        current = s.flagged(pick.audits)
    return tried, chosen


MIN_GAMES = 3
MAX_CONTRADICTED = 0.1


def calibrate(ruleset: str, games: Sequence[Any], min_games: int = MIN_GAMES,
              max_contradicted: float = MAX_CONTRADICTED) -> Calibration:
    """The readings that explain ``games`` (all of ``ruleset``), judged as the module says."""
    s = _Search(ruleset, games, min_games, max_contradicted)
    baseline = {i: s.audit(i, None) for i in range(len(games))}
    errors_before = sum(len(error_keys(a)) for a in baseline.values())
    s.subjects = {i: subject(games[i], a, games[i].options or {}) for i, a in baseline.items()
                  if any(rechecked(f) for f in a.findings)}
    s.n_audits += sum(1 for subj in s.subjects.values() if subj.partial)
    banned: frozenset[str] = frozenset()
    dropped: list[str] = []
    tried: list[Effect] = []
    while True:
        round_tried, chosen = _search(s, baseline, banned)
        tried = tried or round_tried
        options = {r.name: r.value for e in chosen for r in e.readings}
        profile = s.profile(options)
        final = {i: s.audit(i, profile) for i in range(len(games))} if options else baseline
        culprits = _contradictions(s, baseline, final, chosen)
        if not culprits:
            break
        banned |= culprits
        dropped += sorted(culprits)
    return Calibration(
        ruleset=ruleset, games=len(games), flagged=len(s.subjects),
        games_flagged_before=sum(1 for a in baseline.values() if error_keys(a)), errors_before=errors_before,
        errors_after=sum(len(error_keys(a)) for a in final.values()),
        games_flagged_after=sum(1 for a in final.values() if error_keys(a)),
        tried=tuple(tried), chosen=tuple(chosen), dropped=tuple(dropped), audits=s.n_audits)


def _contradictions(s: _Search, baseline: Mapping[int, GameAudit], final: Mapping[int, GameAudit],
                    chosen: Sequence[Effect]) -> frozenset[str]:
    """The chosen readings that, over the whole corpus, contradict more games than the
    search allows or make a hard error vanish (labels): each is judged on the games the
    profile contradicts by leaving it out."""
    hit = {i: changes(baseline[i], final[i])[1] for i in final}
    hit = {i: came for i, came in hit.items() if came}
    if not hit:
        return frozenset()
    out: set[str] = set()
    for e in chosen:
        rest = s.profile({r.name: r.value for other in chosen if other is not e for r in other.readings})
        its = [i for i in hit if len(changes(baseline[i], s.audit(i, rest))[1]) < len(hit[i])]
        hard = any(set(hit[i]) & error_keys(baseline[i]) for i in its)
        if hard or too_many(len(its), len(e.explained), s.max_contradicted):
            out.update(r.label for r in e.readings)
    return frozenset(out)


def profile_of(results: Iterable[Calibration], name: str = "calibrated") -> Profile:
    """The recommended profile: one table per ruleset with the readings chosen for it."""
    return Profile.from_tables({c.ruleset: c.options for c in results if c.options}, name=name)
