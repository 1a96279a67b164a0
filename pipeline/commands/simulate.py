"""``mahjong-audit simulate``: write simulated games (optionally with labelled faults).

Game ``i`` of a run depends only on ``(ruleset, seed, i)``, so ``--workers N`` makes the
same file as a serial run. Coverage counts and the generation speed go to stderr.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

CHUNK = 50


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="write simulated games (bots) in mahjong-log/1, optionally with labelled faults",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument("--ruleset", required=True, help="ruleset name (mcr, longgang, guangdong)")
    p.add_argument("--games", type=int, required=True, help="number of games")
    p.add_argument("--options", metavar="JSON", help="the ruleset's options as a JSON object, recorded in every "
                   "game (e.g. '{\"variant\": \"mingxing\"}' for mcr); default: the ruleset's defaults")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--hands-per-game", type=int, default=None, metavar="K",
                   help="hands per game (default 4); with --five or --chips the most a session plays (default 300)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="output .jsonl or .jsonl.gz")
    p.add_argument("--faults", type=float, default=0.0, metavar="RATE",
                   help="share of games that get one labelled fault (0..1)")
    p.add_argument("--labels", metavar="FILE", help="where fault labels go (JSON lines; required with --faults)")
    p.add_argument("--start", metavar="DATE", help="give games start times from this ISO 8601 date or "
                   "date-time (UTC if no offset) on, spread over --days; default: no times")
    p.add_argument("--days", type=float, default=30.0, help="the period --start spreads games over (default 30)")
    p.add_argument("--players", type=int, metavar="N",
                   help="a population of N players p1..pN; four are drawn to each game's table")
    p.add_argument("--collude", metavar="A,B",
                   help="with --players: A feeds B (discards B's winning tiles, never wins off B); "
                        "games where both sit go to --labels")
    from mahjong_audit.engine.sim.collusion import STYLES

    p.add_argument("--collude-style", choices=STYLES, default=None,
                   help="with --collude: feed (default: A discards B's winning tiles), soft (A and B never win on, "
                        "pon or kong each other's discards), dump (A feeds B's big hands only), signal (A feeds "
                        "B's wait 5%% of the time); docs/collusion.md")
    p.add_argument("--workers", type=int, default=1, help="processes generating games (default 1)")
    p.add_argument("--quiet", action="store_true", help="no coverage report on stderr")
    p.add_argument("--rules", metavar="FILE",
                   help="house-rules profile (TOML, one table per ruleset): the bots play and score under "
                        "its table for --ruleset, and each log records it in its options")
    p.add_argument("--five", action="store_true",
                   help="whole sessions (牌局) of five players over the four seats, one standing out by the ruleset's "
                        "rotation, with each player's chips after every hand, 加筹 and 断子 (longgang only)")
    p.add_argument("--chips", action="store_true",
                   help="whole sessions (牌局) of four players with their chips, played to their end (longgang only)")
    p.add_argument("--false-wins", type=float, default=None, metavar="RATE",
                   help="with --five or --chips: the share of hands in which a seat declares a win it does not have "
                        "(a deliberate 诈胡, listed in --labels; default 0.03)")
    p.set_defaults(func=run)


#: (ruleset, seed, start, n, hands, fault rate, period, population, session players (0: plain games),
#: deliberate 诈胡 rate, ruleset options)
Job = tuple[str, int, int, int, int, float, "tuple[int, str, float] | None", Any, int, float, dict]


def _chunk(args: Job) -> tuple[list[str], list[str], Counter]:
    """Games ``start .. start+n-1`` as JSON lines, their fault and collusion labels, and coverage."""
    from mahjong_audit.engine.sim import simulate_one, start_time
    from mahjong_audit.engine.sim.faults import inject_maybe
    from mahjong_audit.engine.sim.five import false_win_labels, session_one
    from mahjong_audit.schemas.instants import parse_instant

    ruleset, seed, start, n, hands, rate, period, population, session, false_win_rate, options = args
    cov: Counter = Counter()
    lines: list[str] = []
    labels: list[str] = []
    for i in range(start, start + n):
        if session:
            game = session_one(ruleset, options, seed, i, session, hands, false_win_rate, cov)
            labels.extend(json.dumps(lab, ensure_ascii=False) for lab in false_win_labels(game))
        else:
            game = simulate_one(ruleset, seed, i, hands, cov, population, options)
        if period is not None:
            total, first, days = period
            game["started_at"] = start_time(seed, i, total, parse_instant(first), days)
        pair = population.label(game["game_id"], game["players"]) if population is not None else None
        if pair is not None:
            labels.append(json.dumps(pair, ensure_ascii=False))
            cov["collusion_games"] += 1
        records, label = inject_maybe(game, seed, i, rate)
        if label is not None:
            labels.append(json.dumps(label, ensure_ascii=False))
            cov[f"fault_{label['kind']}"] += 1
        lines.extend(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False, separators=(",", ":"))
                     for r in records)
    return lines, labels, cov


def _open(path: str) -> TextIO:
    if path.endswith(".gz"):
        return gzip.open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def _jobs(a: Any, population: Any = None) -> Iterator[Job]:
    period = (a.games, a.start, a.days) if a.start else None
    for start in range(0, a.games, CHUNK):
        yield (a.ruleset, a.seed, start, min(CHUNK, a.games - start), a.hands_per_game, a.faults, period,
               population, 5 if a.five else 4 if a.chips else 0, a.false_wins, a.options)


def _options(ruleset: str, text: str | None) -> dict[str, Any]:
    """The ``--options`` object, checked by the ruleset; raises ValueError."""
    from mahjong_audit.engine.rulesets import RULESETS, OptionError

    if not text:
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(options, dict):
        raise ValueError("expected a JSON object")
    try:
        RULESETS[ruleset].parse_options(options)
    except OptionError as e:
        raise ValueError(str(e)) from None
    return options


def _population(a: Any) -> Any:
    """The --players/--collude population, or None; raises ValueError on bad values."""
    from mahjong_audit.engine.sim.collusion import Population

    if a.players is None:
        if a.collude:
            raise ValueError("--collude needs --players N")
        return None
    if a.collude_style is not None and not a.collude:
        raise ValueError("--collude-style needs --collude A,B")
    return Population.of_size(a.players, a.collude.split(",") if a.collude else None, a.collude_style or "feed")


def run(a: Any) -> int:
    from mahjong_audit.engine.house_rules import load_profile
    from mahjong_audit.engine.rulesets import RULESETS
    from mahjong_audit.engine.sim.five import FALSE_WIN_RATE, SESSION_HANDS
    from mahjong_audit.pipeline import exits

    if a.ruleset not in RULESETS:
        exits.error("simulate", f"unknown ruleset {a.ruleset!r} (known: {', '.join(sorted(RULESETS))})")
        return 1
    try:
        profile = load_profile(getattr(a, "rules", None))
    except ValueError as e:  # mahjong_audit.engine.house_rules.ProfileError: one line, before any game is played
        print(f"simulate: {e}", file=sys.stderr)
        return 1
    if a.faults and not a.labels:
        exits.error("simulate", "--faults needs --labels FILE")
        return 1
    if a.hands_per_game is None:
        a.hands_per_game = SESSION_HANDS if a.five or a.chips else 4
    if a.false_wins is None:
        a.false_wins = FALSE_WIN_RATE if a.five or a.chips else 0.0
    elif not (a.five or a.chips):
        exits.error("simulate", "--false-wins is for sessions (--five or --chips)")
        return 1
    if not 0.0 <= a.faults <= 1.0 or not 0.0 <= a.false_wins <= 1.0 or a.games < 0 or a.hands_per_game < 1:
        exits.error("simulate", "--faults and --false-wins must be in 0..1, --games ≥ 0, --hands-per-game ≥ 1")
        return 1
    if a.five and a.chips:
        exits.error("simulate", "--five already plays sessions with chips; give one of --five, --chips")
        return 1
    if a.five and RULESETS[a.ruleset].max_players < 5:
        exits.error("simulate", f"{a.ruleset} seats at most {RULESETS[a.ruleset].max_players} players")
        return 1
    if a.chips and RULESETS[a.ruleset]({}).chips_ledger(4) is None:
        exits.error("simulate", f"{a.ruleset} keeps no chips over a session (--chips is for longgang)")
        return 1
    if (a.five or a.chips) and a.players is not None:
        exits.error("simulate", "a session plays named bots (bot0..); it does not take --players")
        return 1
    try:
        a.options = _options(a.ruleset, a.options)
    except ValueError as e:
        exits.error("simulate", f"--options: {e}")
        return 1
    if profile is not None:  # the profile's table for the ruleset, --options over it (a log's over a profile)
        a.options = {**profile.options_for(a.ruleset), **a.options}
        try:
            RULESETS[a.ruleset](a.options)
        except ValueError as e:  # OptionError: the two do not go together
            print(f"simulate: --options with {profile.name}: {e}", file=sys.stderr)
            return 1
    if a.start:
        from mahjong_audit.schemas.instants import InstantError, parse_instant

        try:
            parse_instant(a.start)
        except InstantError as e:
            exits.error("simulate", f"--start: {e}")
            return 1
        if a.days <= 0:
            exits.error("simulate", "--days must be > 0")
            return 1
    try:
        population = _population(a)
    except ValueError as e:
        exits.error("simulate", f"{e}")
        return 1
    if population is not None and population.collude and not a.labels:
        exits.error("simulate", "--collude needs --labels FILE (which games had the pair at one table)")
        return 1
    t0 = time.perf_counter()
    cov: Counter = Counter()
    labels_out = _open(a.labels) if a.labels else None
    try:
        with _open(a.output) as out:
            if a.workers > 1:
                with ProcessPoolExecutor(a.workers) as pool:
                    results = pool.map(_chunk, _jobs(a, population))
                    for lines, labels, c in results:
                        _write(out, labels_out, lines, labels, c, cov)
            else:
                for job in _jobs(a, population):
                    _write(out, labels_out, *_chunk(job), cov)
    finally:
        if labels_out is not None:
            labels_out.close()
    dt = time.perf_counter() - t0
    if not a.quiet:
        print(report(cov, dt), file=sys.stderr)
    return 0


def _write(out: TextIO, labels_out: TextIO | None, lines: list[str], labels: list[str], c: Counter,
           cov: Counter) -> None:
    for line in lines:
        out.write(line + "\n")
    if labels_out is not None:
        for line in labels:
            labels_out.write(line + "\n")
    cov.update(c)


def report(cov: Counter, seconds: float) -> str:
    hands = cov.get("hands", 0)
    rate = hands / seconds if seconds > 0 else 0.0
    lines = [f"simulated {cov.get('games', 0)} games, {hands} hands in {seconds:.1f} s ({rate:.0f} hands/s)"]
    groups = (("wins", "win_"), ("calls", "call_"), ("competing claims", "claims_"), ("faults", "fault_"),
              ("plans", "plan_"), ("collusion", "collusion_"), ("seat policies", "policy_"))
    for title, prefix in groups:
        items = sorted((k.removeprefix(prefix), v) for k, v in cov.items() if k.startswith(prefix))
        if items:
            lines.append(f"  {title}: " + ", ".join(f"{k} {v}" for k, v in items))
    other = sorted((k, v) for k, v in cov.items()
                   if not any(k.startswith(p) for _, p in groups) and k not in ("games", "hands"))
    if other:
        lines.append("  other: " + ", ".join(f"{k} {v}" for k, v in other))
    return "\n".join(lines)
