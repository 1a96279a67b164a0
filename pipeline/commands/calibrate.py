"""``mahjong-audit calibrate INPUT... [--ruleset R] [-o PROFILE] [--sample N]``: which house-rules
readings explain a corpus.

The inputs are read as ``audit`` reads them (files, globs, directories; ``--from`` for a
platform format), in this process, without Beam or a database. Each ruleset's games are
audited with the defaults; the games with error findings are audited again under every
documented alternative reading (and under the values of a base, a cap or a penalty the
recorded payouts give), and the readings that explain several games and contradict none
become the recommended profile (mahjong_audit.engine.calibration). The table of every reading that changes
a verdict goes to stdout, the profile as TOML to ``-o`` (or stdout). Exit status 1 on a bad
argument or an input that cannot be read, else 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from mahjong_audit.pipeline.cli import byte_size

EXAMPLES = 3  # example game ids per reading


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "calibrate", help="find the house-rules readings that explain a corpus; write them as a profile",
        description=__doc__.split("\n\n")[0], epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, glob or directory (as audit takes them)")
    p.add_argument("--ruleset", help="only this ruleset's games (default: each ruleset found)")
    p.add_argument("-o", "--output", metavar="PROFILE", help="write the recommended profile here (TOML); "
                   "default: print it after the table")
    p.add_argument("--sample", type=_positive, metavar="N",
                   help="calibrate on N records drawn at random (seeded: the same N give the same sample)")
    p.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    p.add_argument("--min-games", type=_positive, default=None, metavar="K",
                   help="a reading must explain errors in at least K games (default 3)")
    p.add_argument("--max-contradicted", type=_share, default=None, metavar="SHARE",
                   help="and add errors to at most this share of the games it changes (default 0.1: a fault "
                        "the defaults hid shows again under the true reading)")
    p.add_argument("--from", dest="importer", metavar="NAME",
                   help="importer for a platform format (default: detected per file)")
    p.add_argument("--max-record-bytes", type=byte_size, default=None, metavar="N",
                   help="a record longer than N bytes is rejected (default 64M, as audit)")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return n


def _share(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= x < 1:
        raise argparse.ArgumentTypeError(f"must be at least 0 and below 1: {text!r}")
    return x


def _sampled(records, n: int | None, seed: int) -> list:
    """Every record, or ``n`` of them drawn uniformly (reservoir sampling: one pass, ``n`` held)."""
    if n is None:
        return list(records)
    rng = random.Random(f"mahjong-audit-calibrate:{seed}")
    kept: list = []
    for k, rec in enumerate(records):
        if k < n:
            kept.append(rec)
        else:
            j = rng.randrange(k + 1)
            if j < n:
                kept[j] = rec
    return kept


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.engine.rulesets import RULESETS
    from mahjong_audit.pipeline import inputs, parse, read
    from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES

    err = sys.stderr
    if args.ruleset is not None and args.ruleset not in RULESETS:
        print(f"mahjong-audit calibrate: --ruleset {args.ruleset}: unknown ruleset (known: {', '.join(RULESETS)})",
              file=err)
        return 1
    if args.output is not None and not Path(args.output).resolve().parent.is_dir():
        print(f"mahjong-audit calibrate: -o {args.output}: no such folder", file=err)
        return 1
    if args.output is not None and Path(args.output).is_dir():
        print(f"mahjong-audit calibrate: -o {args.output}: is a folder (name the profile file)", file=err)
        return 1
    try:
        if args.importer is not None:
            inputs.importer_for("", args.importer)
        files = inputs.expand_inputs(args.inputs)
    except OSError as e:
        print(f"mahjong-audit calibrate: {e}", file=err)
        return 1
    limit = args.max_record_bytes or MAX_RECORD_BYTES
    t0 = time.perf_counter()
    records = _sampled((rec for path in files for rec in read.read_file(path, args.importer, limit)),
                       args.sample, args.seed)
    by_ruleset: dict[str, list[Any]] = {}
    rejected = 0
    for rec in records:
        for out in parse.parse_record(rec, fast=True):
            if isinstance(out, read.Rejection):
                rejected += 1
            elif args.ruleset is None or out.game.ruleset == args.ruleset:
                by_ruleset.setdefault(out.game.ruleset, []).append(out.game)
    print(f"calibrate: {len(files)} files, {len(records)} records{' (sampled)' if args.sample else ''}: "
          f"{sum(map(len, by_ruleset.values()))} games"
          + (f", {rejected} records rejected (not calibrated; audit lists them)" if rejected else ""), file=err)
    if not by_ruleset:
        print("mahjong-audit calibrate: no games to calibrate"
              + (f" of ruleset {args.ruleset}" if args.ruleset else ""), file=err)
        return 1
    from mahjong_audit.engine.calibration import MAX_CONTRADICTED, MIN_GAMES, profile_of

    results = calibrate_all(by_ruleset, args.min_games or MIN_GAMES,
                            MAX_CONTRADICTED if args.max_contradicted is None else args.max_contradicted, sys.stdout)

    text = profile_of(results).to_toml() if any(c.options for c in results) else ""
    header = "# house-rules profile from mahjong-audit calibrate (" + ", ".join(
        f"{c.ruleset}: {c.games} games" for c in results) + ")\n"
    if args.output is not None:
        Path(args.output).write_text(header + text, encoding="utf-8")
        print(f"calibrate: profile written to {args.output}", file=err)
    else:
        print("\n" + header + (text or "# no reading explains the findings better than the defaults\n"), end="")
    print(f"calibrate: {time.perf_counter() - t0:.1f} s, {sum(c.audits for c in results)} game audits", file=err)
    return 0


def calibrate_all(by_ruleset: dict[str, list[Any]], min_games: int, max_contradicted: float, out: TextIO) -> list:
    from mahjong_audit.engine.calibration import calibrate

    results = []
    for ruleset in sorted(by_ruleset):
        c = calibrate(ruleset, by_ruleset[ruleset], min_games, max_contradicted)
        results.append(c)
        print_result(c, out)
    return results


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], out: TextIO) -> None:
    cells = [list(map(str, header))] + [[str(v) for v in r] for r in rows]
    widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
    for n, r in enumerate(cells):
        print("  " + "  ".join(v.ljust(w) if k == 0 or k == len(r) - 1 else v.rjust(w)
                               for k, (v, w) in enumerate(zip(r, widths, strict=True))).rstrip(), file=out)
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths), file=out)


def print_result(c: Any, out: TextIO) -> None:
    print(f"[{c.ruleset}] {c.games} games: under the defaults {c.errors_before} errors in "
          f"{c.games_flagged_before} games, {c.flagged} of them with errors a reading might clear", file=out)
    moving = sorted((e for e in c.tried if e.cleared or e.added), key=lambda e: (-e.cleared, e.added, e.label))
    if moving:
        print("  readings that change a verdict (each alone, over the defaults, on the games with errors):",
              file=out)
        _table(["reading", "errors cleared", "score", "payout", "added", "score+", "payout+", "hands",
                "games explained", "contradicted", "examples"],
               [[e.label, e.cleared, e.cleared_score, e.cleared_payout, e.added, e.added_score, e.added_payout,
                 e.hands, len(e.explained), len(e.contradicted),
                 ", ".join((e.explained or e.contradicted)[:EXAMPLES])] for e in moving], out)
    else:
        print("  no documented reading changes a verdict", file=out)
    for e in c.chosen:
        share = len(e.explained) / c.flagged if c.flagged else 0.0
        print(f"  chosen: {e.label}: clears {e.cleared} errors ({e.cleared_score} score, {e.cleared_payout} payout) "
              f"in {e.hands} hands; explains {len(e.explained)} games ({share:.0%} of those with errors), "
              f"contradicts {len(e.contradicted)}", file=out)
    for label in c.dropped:
        print(f"  dropped: {label}: over the whole corpus it adds errors to too many games", file=out)
    if not c.chosen:
        print("  chosen: none (the defaults stand)", file=out)
    print(f"  under the chosen readings: {c.errors_after} errors in {c.games_flagged_after} games "
          f"(was {c.errors_before}); what remains is for the audit to report", file=out)
