"""``make bench``: every benchmark of the project, in one run.

1. MCR scoring: our fan calculator against the reference ``pymahjonggb`` on the same
   generated hands (hands/s and the ratio).
2. The audit pipeline end to end on a generated corpus of 100,000 hands (25,000 MCR games
   of 4 hands, made once with ``mahjong-audit simulate`` and kept in bench/corpus/),
   against ``audit_game`` in a plain single-process loop, with peak memory.

``python -m bench --quick`` uses a 10,000-hand corpus and fewer scored hands.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"


def corpus(games: int, seed: int = 1) -> Path:
    path = CORPUS_DIR / f"mcr-{games}x4-seed{seed}.jsonl.gz"
    if not path.exists():
        CORPUS_DIR.mkdir(parents=True, exist_ok=True)
        print(f"generating {games} games × 4 hands → {path} …", flush=True)
        t0 = time.perf_counter()
        tmp = path.with_suffix(".tmp.gz")
        subprocess.run([sys.executable, "-m", "pipeline.cli", "simulate", "--ruleset", "mcr", "--games", str(games),
                        "--hands-per-game", "4", "--seed", str(seed), "--workers", "2", "-o", str(tmp)], check=True)
        tmp.rename(path)
        print(f"  generated in {time.perf_counter() - t0:.0f} s", flush=True)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small corpus and fewer hands")
    args = ap.parse_args(argv)

    from bench import mcr_bench, pipeline_bench

    print("== MCR scoring: ours vs pymahjonggb ==", flush=True)
    mcr_bench.run(n=5000 if args.quick else 20000)
    print("\n== audit pipeline vs plain loop ==", flush=True)
    games = 2500 if args.quick else 25000
    path = corpus(games)
    # two sizes of the same corpus: throughput, and peak memory that must not grow with the input
    return pipeline_bench.main(["--corpus", str(path), "--take", str(games // 4), "--take", str(games)])


if __name__ == "__main__":
    sys.exit(main())
