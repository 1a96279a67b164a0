"""One digest of every verdict: a check that a speed change left every finding and score as it was.

    python -m bench.verdict_digest [--hands N] [--keep DIR] [--models] [-v]

Audits the sample logs, the real-log fixtures, ``../shared/real-logs`` (when present) and
freshly simulated corpora of every ruleset, clean and with ``--faults 0.3`` (fixed seeds,
so the same code always gives the same corpora), and prints one SHA-256 over every
game's audit (each finding with its code, hand, seq, seat, expected and recorded values;
each hand's outcome, wins, scores and payouts), then a line per input with its own digest.
Records are read as the audit reads them: the fast validation path first
(``mahjong_audit.schemas.log_fast``), the models for what it declines (``--models``: the models alone).
Run it before and after a change: the digests must be identical. Rejections name their
file, so compare runs made from the same folder (swap the code, not the folder).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "real-logs"
RULESETS = ("mcr", "longgang", "guangdong")


def inputs(tmp: Path, hands: int) -> list[Path]:
    """The files to audit: fixed ones, then simulated corpora written into ``tmp``."""
    fixed = [ROOT / "sample_logs", ROOT / "tests" / "fixtures" / "real"]
    if SHARED.is_dir():
        fixed.append(SHARED)
    out: list[Path] = []
    for root in fixed:
        out += sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".txt", ".pmn")
                      and not p.name.endswith(("_metadata.json", ".labels.jsonl"))
                      and p.name not in ("README.txt", "README-en.txt"))
    games = max(1, hands // 4)
    for rs in RULESETS:
        for faults in ("0", "0.3"):
            path = tmp / f"{rs}-faults{faults}.jsonl"
            if not path.exists():
                subprocess.run([sys.executable, "-m", "mahjong_audit", "simulate", "--ruleset", rs,
                                "--games", str(games), "--hands-per-game", "4", "--seed", "7", "--faults", faults,
                                "--labels", str(tmp / f"{rs}-faults{faults}.labels.jsonl"), "--quiet",
                                "--output", str(path)], check=True, capture_output=True)
            out.append(path)
    return out


def audit_file(path: Path, models: bool = False) -> tuple[str, int, int, Counter]:
    """Digest of one file's audits (rejections included), games, findings and codes."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline import parse, read

    h = hashlib.sha256()
    games = 0
    codes: Counter = Counter()
    # the audit's own path: the fast validation first (mahjong_audit.schemas.log_fast), the models for the rest
    records = read.read_file(str(path))
    parsed_all = (p for rec in records for p in parse.parse_record(rec, fast=not models))
    for parsed in parsed_all:
        if not isinstance(parsed, parse.ParsedGame):
            h.update(repr(parsed).encode())
            codes[parsed.code] += 1
            continue
        audit = audit_game(parsed.game)
        games += 1
        h.update(repr(audit).encode())
        codes.update(f.code for f in audit.findings)
    return h.hexdigest(), games, sum(codes.values()), codes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.verdict_digest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="hands per simulated corpus (default 400)")
    ap.add_argument("--keep", help="keep the simulated corpora in this folder (and reuse them when present)")
    ap.add_argument("--models", action="store_true", help="validate every record with the pydantic models "
                    "instead of the audit's fast path first")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print each input's finding codes")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="verdict-digest-") as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        total = hashlib.sha256()
        lines = []
        for path in inputs(where, args.hands):
            digest, games, findings, codes = audit_file(path, args.models)
            total.update(digest.encode())
            name = os.path.relpath(path, ROOT) if path.is_relative_to(ROOT.parent) else path.name
            lines.append(f"{digest[:16]}  {games:5d} games {findings:6d} findings  {name}")
            if args.verbose:
                lines += [f"      {n:6d} {c}" for c, n in sorted(codes.items())]
    print(total.hexdigest())
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
