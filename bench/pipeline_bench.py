"""End-to-end throughput of the audit pipeline against a plain single-process loop.

    python -m bench.pipeline_bench --corpus PATH [--workers 2] [--json]

PATH is any input ``mahjong-audit audit`` accepts (.jsonl/.json, .gz, directories,
globs), e.g. the output of ``mahjong-audit simulate``. Two measurements on the same
corpus:

* ``loop``: read + parse + ``engine.audit.audit_game`` in this process, no Beam, no DB;
* ``pipeline``: ``mahjong-audit audit --workers N`` in a child process, into a fresh
  DuckDB file (Beam start-up, Parquet staging and the DuckDB load included).

Reports games/s, hands/s and peak RSS (the loop's own; for the pipeline the largest
of the driver and its worker processes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Measurement:
    name: str
    games: int
    hands: int
    seconds: float
    peak_rss_mb: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def _rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0  # Linux: KiB


def bench_loop(corpus: str) -> Measurement:
    from engine.audit import audit_game
    from pipeline import read

    games = hands = 0
    t0 = time.perf_counter()
    for path in read.expand_inputs([corpus]):
        for item in read.parse_file(path):
            if isinstance(item, read.ParsedGame):
                audit_game(item.game)
                games += 1
                hands += len(item.game.hands)
    return Measurement("loop (1 process)", games, hands, time.perf_counter() - t0,
                       _rss_mb(resource.RUSAGE_SELF))


def bench_pipeline(corpus: str, workers: int) -> Measurement:
    import duckdb

    with tempfile.TemporaryDirectory(prefix="pipeline-bench-") as tmp:
        db = os.path.join(tmp, "bench.duckdb")
        cmd = [sys.executable, "-m", "pipeline.cli", "audit", corpus, "--db", db,
               "--workers", str(workers), "--no-progress"]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"audit failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        con = duckdb.connect(db, read_only=True)
        try:
            games = con.execute("SELECT count(*) FROM games").fetchone()[0]
            hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
        finally:
            con.close()
    return Measurement(f"pipeline ({workers} workers)", games, hands, seconds,
                       _rss_mb(resource.RUSAGE_CHILDREN))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pipeline_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, help="file, directory or glob of .jsonl(.gz)/.json logs")
    ap.add_argument("--workers", type=int, default=2, help="pipeline worker processes (default 2)")
    ap.add_argument("--skip-loop", action="store_true", help="measure the pipeline only")
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    args = ap.parse_args(argv)

    results = [bench_pipeline(args.corpus, args.workers)]  # first: its RSS is then the children's only
    if not args.skip_loop:
        results.append(bench_loop(args.corpus))
    if args.json:
        print(json.dumps([{**asdict(m), "games_per_s": round(m.games_per_s, 1),
                           "hands_per_s": round(m.hands_per_s, 1)} for m in results], indent=2))
        return 0
    print(f"corpus: {args.corpus}")
    print(f"{'':22} {'games':>8} {'hands':>8} {'seconds':>8} {'games/s':>9} {'hands/s':>9} {'peak RSS':>9}")
    for m in results:
        print(f"{m.name:22} {m.games:8d} {m.hands:8d} {m.seconds:8.1f} {m.games_per_s:9.1f} "
              f"{m.hands_per_s:9.1f} {m.peak_rss_mb:7.0f}MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
