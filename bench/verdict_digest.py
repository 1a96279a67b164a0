"""One digest of every verdict, and a listing of each hand's: a check that a change left every finding and score as it was.

    python -m bench.verdict_digest [--hands N] [--keep DIR] [--models] [-v] [--jobs N]
    python -m bench.verdict_digest --check [--corpus NAME ...]   # compare with bench/verdicts/, exit 1 on a change
    python -m bench.verdict_digest --write [--corpus NAME ...]   # rewrite bench/verdicts/

Audits the sample logs, the real-log fixtures, ``../shared/real-logs`` (when present) and
freshly simulated corpora of every ruleset, clean and with ``--faults 0.3`` (fixed seeds,
so the same code always gives the same corpora), and prints one SHA-256 over every
game's audit (each finding with its code, hand, seq, seat, expected and recorded values;
each hand's outcome, wins, scores and payouts), then a line per input with its own digest.
Records are read as the audit reads them: the fast validation path first
(``mahjong_audit.schemas.log_fast``), the models for what it declines (``--models``: the models alone).
Run it before and after a change: the digests must be identical. A rejection names its
file relative to its corpus (the simulated ones by file name), so the digests do not depend
on the folder: they compare between clones, worktrees and runs without ``--keep``.

The same audits are also written as a listing, one file per corpus in ``bench/verdicts/``
(committed), one line per hand, so that a change of verdict says which hands moved::

    mcr-faulty.jsonl:3  mcr-faulty-0002  h1  4c0e9a1f2b7d  win  w=2  total=9  score/total,payout/delta*2

(the file and line of the record, the game id, the hand's index in the game, a digest of
the hand's verdict — its facts and its findings — then its outcome, winning seats, their
recomputed totals and its finding codes). Each game has a ``game`` line too (its header,
the findings of no one hand, and the order of the hands' findings), each rejected record a
``rejected`` line. Paths are relative to the corpus, so the listing is the same in every
clone. ``--check`` compares and prints the lines that moved; ``--write`` rewrites the files
after a change of verdict that was meant (commit them with it).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "real-logs"
LISTINGS = ROOT / "bench" / "verdicts"
RULESETS = ("mcr", "longgang", "guangdong")
FAULTS = ("0", "0.3")
DEFAULT_HANDS = 400
SIM_SEED = 7
#: the fixed corpora: listing name → folder
FIXED = {"samples": ROOT / "sample_logs", "fixtures": ROOT / "tests" / "fixtures" / "real", "real-logs": SHARED}
DIGEST_CHARS = 12  # of a hand's SHA-256 in the listing
SHOWN = 40  # moved lines printed per corpus by --check


class Corpus(NamedTuple):
    """One listing: its name, the folder its paths are relative to, and its files."""

    name: str
    root: Path
    files: tuple[Path, ...]


def _log_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".txt", ".pmn")
                  and not p.name.endswith(("_metadata.json", ".labels.jsonl"))
                  and p.name not in ("README.txt", "README-en.txt"))


def sim_name(ruleset: str, faults: str) -> str:
    return f"sim-{ruleset}-faults{faults}"


def simulate(tmp: Path, hands: int, which: Sequence[tuple[str, str]], jobs: int = 1) -> dict[tuple[str, str], Path]:
    """The simulated corpora (seed 7, 4-hand games) in ``tmp``, made ``jobs`` at a time; reused when present."""
    games = max(1, hands // 4)
    out = {key: tmp / f"{key[0]}-faults{key[1]}.jsonl" for key in which}
    todo = [key for key in which if not out[key].exists()]
    running: list[tuple[subprocess.Popen, Path, Path]] = []

    def finish(proc: subprocess.Popen, part: Path, path: Path) -> None:
        _, err = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"simulate failed ({proc.returncode}) for {path.name}:\n{err.decode(errors='replace')}")
        part.rename(path)

    for rs, faults in todo:
        path = out[(rs, faults)]
        part = path.with_name(path.stem + ".part.jsonl")  # renamed when complete: --keep never reuses a half-written corpus
        running.append((subprocess.Popen(
            [sys.executable, "-m", "mahjong_audit", "simulate", "--ruleset", rs, "--games", str(games),
             "--hands-per-game", "4", "--seed", str(SIM_SEED), "--faults", faults,
             "--labels", str(tmp / f"{rs}-faults{faults}.labels.jsonl"), "--quiet", "--output", str(part)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT), part, path))
        if len(running) >= max(1, jobs):
            finish(*running.pop(0))
    for item in running:
        finish(*item)
    return out


def corpora(tmp: Path, hands: int, names: Iterable[str] | None = None, jobs: int = 1) -> list[Corpus]:
    """The corpora to audit (all, or those named), in the digest's order; simulated ones written into ``tmp``."""
    wanted = set(names) if names is not None else None
    out = [Corpus(name, root, tuple(_log_files(root))) for name, root in FIXED.items()
           if (wanted is None or name in wanted) and root.is_dir()]
    keys = [(rs, f) for rs in RULESETS for f in FAULTS if wanted is None or sim_name(rs, f) in wanted]
    made = simulate(tmp, hands, keys, jobs)
    out += [Corpus(sim_name(*key), tmp, (made[key],)) for key in keys]
    return out


def inputs(tmp: Path, hands: int) -> list[Path]:
    """The files to audit: fixed ones, then simulated corpora written into ``tmp``."""
    return [p for c in corpora(tmp, hands) for p in c.files]


def _codes(findings: Iterable[Any]) -> str:
    n = Counter(f.code for f in findings)
    return ",".join(c if k == 1 else f"{c}*{k}" for c, k in sorted(n.items())) or "-"


def _short(*parts: object) -> str:
    return hashlib.sha256("\n".join(map(repr, parts)).encode()).hexdigest()[:DIGEST_CHARS]


def _token(s: str | None) -> str:
    """A game id as one field of a line (whitespace would split it)."""
    return "-" if not s else s if not any(c.isspace() for c in s) else repr(s)


def hand_lines(where: str, audit: Any) -> list[str]:
    """The listing's lines for one game's audit: a ``game`` line, then a line per hand."""
    numbers = {h.hand_no for h in audit.hands}
    by_hand: dict[int, list[Any]] = {}
    loose = []  # findings of the game, or of a hand number no hand has
    order: list[int | None] = []  # the hands' findings in the order they come, runs collapsed
    for f in audit.findings:
        key = f.hand_no if f.hand_no in numbers else None
        (by_hand.setdefault(key, []) if key is not None else loose).append(f)
        if not order or order[-1] != key:
            order.append(key)
    gid = _token(audit.game_id)
    out = [f"{where}  {gid}  game  {_short(audit.game_id, audit.ruleset, audit.platform, audit.players, loose, order)}"
           f"  {audit.ruleset}  hands={len(audit.hands)}  {_codes(loose)}"]
    for i, h in enumerate(audit.hands):
        own = by_hand.get(h.hand_no, [])
        outcome = h.result + (f":{h.draw_reason}" if h.draw_reason else "")
        winners = ",".join(str(w.seat) for w in h.wins) or "-"
        totals = ",".join("-" if w.score is None else str(w.score.total) for w in h.wins) or "-"
        false = f"  false={','.join(map(str, h.false_wins))}" if h.false_wins else ""
        out.append(f"{where}  {gid}  h{i}  {_short(h, own)}  {outcome}  w={winners}  total={totals}{false}"
                   f"  {_codes(own)}")
    return out


class FileAudit(NamedTuple):
    digest: str  # over the audits' reprs, rejections naming their file as the listing does
    games: int
    findings: int
    codes: Counter
    lines: tuple[str, ...]  # the listing's lines (paths relative to the corpus)


def audit_listing(path: Path, name: str | None = None, models: bool = False) -> FileAudit:
    """One file's audits (rejections included): the digest, counts, codes and listing lines.
    ``name``: the file as the listing names it (default: its file name)."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline import parse, read

    name = name or path.name
    h = hashlib.sha256()
    games = 0
    codes: Counter = Counter()
    lines: list[str] = []
    # the audit's own path: the fast validation first (mahjong_audit.schemas.log_fast), the models for the rest
    records = read.read_file(str(path))
    parsed_all = (p for rec in records for p in parse.parse_record(rec, fast=not models))
    for parsed in parsed_all:
        if not isinstance(parsed, parse.ParsedGame):
            # a rejection names its file: as the listing names it, so no digest depends on the folder
            moved = dataclasses.replace(parsed, source=name, message=parsed.message.replace(str(path), name))
            h.update(repr(moved).encode())
            codes[parsed.code] += 1
            lines.append(f"{name}:{parsed.line if parsed.line is not None else '-'}  {_token(parsed.game_id)}  "
                         f"rejected  {_short(moved)}  {parsed.code}")
            continue
        audit = audit_game(parsed.game)
        games += 1
        h.update(repr(audit).encode())
        codes.update(f.code for f in audit.findings)
        where = f"{name}:{parsed.line}" + (f".{parsed.index}" if parsed.index else "")
        lines += hand_lines(where, audit)
    return FileAudit(h.hexdigest(), games, sum(codes.values()), codes, tuple(lines))


def audit_file(path: Path, models: bool = False) -> tuple[str, int, int, Counter]:
    """Digest of one file's audits (rejections included), games, findings and codes."""
    return audit_listing(path, None, models)[:4]


def _job(args: tuple[Path, str, bool]) -> FileAudit:
    return audit_listing(*args)


def audit_all(work: Sequence[tuple[Path, str]], models: bool, jobs: int) -> list[FileAudit]:
    """``audit_listing`` of each (path, name), in order, ``jobs`` processes at a time (largest files first)."""
    if jobs <= 1 or len(work) < 2:
        return [audit_listing(p, n, models) for p, n in work]
    by_size = sorted(range(len(work)), key=lambda i: -work[i][0].stat().st_size)
    with ProcessPoolExecutor(jobs) as pool:
        done = dict(zip(by_size, pool.map(_job, [(work[i][0], work[i][1], models) for i in by_size]), strict=True))
    return [done[i] for i in range(len(work))]


def header(corpus: Corpus, hands: int) -> str:
    what = (f"simulated: {hands} hands, seed {SIM_SEED}" if corpus.name.startswith("sim-")
            else f"{len(corpus.files)} files")
    return f"# bench.verdict_digest listing of {corpus.name} ({what}): file:line  game  hand  digest  outcome ..."


def listing_text(corpus: Corpus, audits: Sequence[FileAudit], hands: int) -> str:
    return "\n".join([header(corpus, hands), *(line for a in audits for line in a.lines)]) + "\n"


def compare(name: str, committed: str, current: str, shown: int = SHOWN) -> list[str]:
    """The lines that moved between a committed listing and the current one (empty: none), as a diff."""
    if committed == current:
        return []
    diff = [d for d in difflib.unified_diff(committed.splitlines(), current.splitlines(),
                                            f"bench/verdicts/{name}.txt (committed)", f"{name} (this code)",
                                            n=0, lineterm="")]
    body = [d for d in diff if d[:1] in "+-" and not d.startswith(("+++", "---"))]
    moved = {d[1:].split("  ", 1)[0] for d in body}
    out = [f"{name}: {sum(d.startswith('-') for d in body)} lines gone, {sum(d.startswith('+') for d in body)} new, "
           f"in {len(moved)} records"]
    out += diff[:shown + 2]
    if len(diff) > shown + 2:
        out.append(f"… {len(diff) - shown - 2} more diff lines")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.verdict_digest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=DEFAULT_HANDS, help=f"hands per simulated corpus "
                    f"(default {DEFAULT_HANDS}, the size of the committed listing)")
    ap.add_argument("--keep", help="keep the simulated corpora in this folder (and reuse them when present)")
    ap.add_argument("--models", action="store_true", help="validate every record with the pydantic models "
                    "instead of the audit's fast path first")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print each input's finding codes")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare each hand's verdict with the listing in "
                      "bench/verdicts/ and print the hands that moved (exit status 1 if any did)")
    mode.add_argument("--write", action="store_true", help="rewrite the listing in bench/verdicts/")
    ap.add_argument("--corpus", action="append", metavar="NAME",
                    help="only this corpus (repeatable): " + ", ".join(
                        [*FIXED, *(sim_name(r, f) for r in RULESETS for f in FAULTS)]))
    ap.add_argument("--listings", default=str(LISTINGS), help=argparse.SUPPRESS)  # the tests' own folder
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="processes auditing and simulating at once (default: 2, or 1 on one core)")
    args = ap.parse_args(argv)
    known = [*FIXED, *(sim_name(r, f) for r in RULESETS for f in FAULTS)]
    unknown = sorted(set(args.corpus or ()) - set(known))
    if unknown:
        ap.error(f"unknown corpus {', '.join(unknown)} (choose from {', '.join(known)})")
    if (args.check or args.write) and args.hands != DEFAULT_HANDS:
        ap.error(f"the committed listing is of {DEFAULT_HANDS}-hand simulated corpora: --check and --write "
                 "take no other --hands")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    listings = Path(args.listings)
    if args.check and not listings.is_dir():
        ap.error(f"no listing to check against: {listings} is not a folder (--write makes it)")
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="verdict-digest-") as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        chosen = corpora(where, args.hands, args.corpus, args.jobs)
        work = [(p, os.path.relpath(p, c.root)) for c in chosen for p in c.files]
        audits = audit_all(work, args.models, args.jobs)
    total = hashlib.sha256()
    lines = []
    for (path, _), a in zip(work, audits, strict=True):
        total.update(a.digest.encode())
        name = os.path.relpath(path, ROOT) if path.is_relative_to(ROOT.parent) else path.name
        lines.append(f"{a.digest[:16]}  {a.games:5d} games {a.findings:6d} findings  {name}")
        if args.verbose:
            lines += [f"      {n:6d} {c}" for c, n in sorted(a.codes.items())]
    print(total.hexdigest())
    print("\n".join(lines))
    status = 0
    if args.check or args.write:
        print()
        at = 0
        for c in chosen:
            text = listing_text(c, audits[at:at + len(c.files)], args.hands)
            at += len(c.files)
            target = listings / f"{c.name}.txt"
            if args.write:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                print(f"wrote {target} ({text.count(chr(10)) - 1} lines)")
            elif not target.exists():
                print(f"{c.name}: no committed listing ({target}); --write makes it")
                status = 1
            else:
                moved = compare(c.name, target.read_text(encoding="utf-8"), text)
                print("\n".join(moved) if moved else f"{c.name}: every hand as listed ({text.count(chr(10)) - 1} lines)")
                status = status or (1 if moved else 0)
        missing = sorted(set(FIXED) & set(args.corpus or FIXED) - {c.name for c in chosen})
        for name in missing:
            print(f"{name}: not checked ({FIXED[name]} is not here)")
        print(f"{'checked' if args.check else 'written'} in {time.perf_counter() - t0:.0f} s")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
