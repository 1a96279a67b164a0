"""``make bench``: every benchmark of the project, in one run.

1. Where the time goes: CPU µs per hand for each stage (read, validate, replay, score,
   pay, rows, parquet, load) on an MCR, a Longgang and a Guangdong corpus
   (``bench.stage_bench``, one fresh process each).
2. ``mahjong-audit audit`` end to end: ``--workers 1`` on the 12,000-hand MCR corpus,
   including start-up, then ``--workers 2`` and their ratio; Longgang and Guangdong with
   ``--workers 1``; hands/s per wall second and per CPU second, and per core in steady
   state (CPU time less the start-up's).
3. Peak memory of ``--workers 2`` against the corpus size (a quarter, half and all of it).
4. ``score --ruleset mcr`` against ``pymahjonggb`` behind the same JSON-lines protocol
   (``bench.score_bench``), and the fan calculators alone (``bench.mcr_bench``).

The corpora are made once with ``mahjong-audit simulate`` and kept in bench/corpus/.
The chart of the run goes to docs/performance.svg (``--chart``), the figures to
bench/corpus/last-run.json. CPU time is the primary figure: on a shared machine wall
time measures the neighbours too. ``python -m bench --quick`` checks it all works on
small corpora in a few minutes (its chart goes to bench/corpus/quick.svg).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "bench" / "corpus"
SIZES = {False: {"mcr": 3000, "longgang": 500, "guangdong": 500}, True: {"mcr": 250, "longgang": 60, "guangdong": 60}}
HANDS_PER_GAME = 4


def corpus(ruleset: str, games: int, seed: int = 1) -> Path:
    path = CORPUS_DIR / f"{ruleset}-{games}x{HANDS_PER_GAME}-seed{seed}.jsonl.gz"
    if not path.exists():
        CORPUS_DIR.mkdir(parents=True, exist_ok=True)
        print(f"generating {games} {ruleset} games × {HANDS_PER_GAME} hands → {path} …", flush=True)
        t0 = time.perf_counter()
        tmp = path.with_suffix(".tmp.gz")
        subprocess.run([sys.executable, "-m", "mahjong_audit", "simulate", "--ruleset", ruleset, "--games", str(games),
                        "--hands-per-game", str(HANDS_PER_GAME), "--seed", str(seed), "--workers", "2", "--quiet",
                        "-o", str(tmp)], check=True)
        tmp.rename(path)
        print(f"  generated in {time.perf_counter() - t0:.0f} s", flush=True)
    return path


def stages(path: Path, ruleset: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "bench.stage_bench", str(path), "--json"], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "ruleset": ruleset}


def startup(folder: str, path: Path) -> dict:
    """``audit --workers 1`` on a one-game file: what every run pays before its first game."""
    from bench import pipeline_bench

    one = pipeline_bench.take(str(path), 1, folder)
    m = pipeline_bench.bench_pipeline(one, 1, 1, [])
    return {"seconds": m.seconds, "cpu_seconds": m.cpu_seconds}


def audit_row(name: str, m, start_cpu: float | None) -> dict:
    """One audit run's figures; ``start_cpu`` (one process's start-up) gives the steady state."""
    steady = m.cpu_seconds - start_cpu if start_cpu is not None else 0.0
    return {"name": name, "workers": int(m.name.split("(")[1].split()[0]), "games": m.games, "hands": m.hands,
            "seconds": round(m.seconds, 2), "cpu_seconds": round(m.cpu_seconds, 2),
            "hands_per_s": m.hands / m.seconds if m.seconds else 0.0,
            "hands_per_cpu_s": m.hands / m.cpu_seconds if m.cpu_seconds else 0.0,
            "steady_hands_per_core_s": m.hands / steady if steady > 0 else None,
            # the longest chain of CPU work: the driver's own, then its busiest worker's. On an
            # idle machine with a core per process the run takes about this long.
            "critical_cpu_s": round(m.cpu_seconds - sum(m.worker_cpu) + max(m.worker_cpu, default=0.0), 2),
            "tree_rss_mb": round(m.tree_rss_mb, 1), "worker_rss_mb": round(m.worker_rss_mb, 1),
            "driver_rss_mb": round(m.driver_rss_mb, 1)}


def audit_table(rows: list[dict]) -> str:
    lines = [f"{'':26}{'hands':>7}{'wall s':>8}{'CPU s':>8}{'hands/s':>9}{'hands/CPU-s':>12}"
             f"{'steady/core':>12}{'peak MB':>9}"]
    for r in rows:
        lines.append(f"{r['name']:26}{r['hands']:7d}{r['seconds']:8.1f}{r['cpu_seconds']:8.1f}"
                     f"{r['hands_per_s']:9.0f}{r['hands_per_cpu_s']:12.0f}"
                     f"{r['steady_hands_per_core_s'] or 0:12.0f}"
                     f"{r['tree_rss_mb']:9.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small corpora and fewer scored hands")
    ap.add_argument("--chart", help="where the SVG chart goes (default docs/performance.svg, "
                    "bench/corpus/quick.svg with --quick)")
    args = ap.parse_args(argv)
    from bench import chart, mcr_bench, pipeline_bench, score_bench, stage_bench

    sizes = SIZES[args.quick]
    paths = {r: corpus(r, g) for r, g in sizes.items()}
    load = os.getloadavg()[0]
    from mahjong_audit import accel

    engine, why = accel.state()
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} at the start "
          "(CPU-time figures are the ones to compare)", flush=True)
    print(f"engine: {engine} ({why}; MAHJONG_AUDIT_PURE=1 measures the sources)\n", flush=True)

    print("== where the time goes (one process, no Beam) ==", flush=True)
    stage_rows = [stages(p, r) for r, p in paths.items()]
    print(stage_bench.table(stage_rows), flush=True)

    print("\n== mahjong-audit audit, end to end ==", flush=True)
    audits: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        start = startup(tmp, paths["mcr"])
        print(f"start-up (one game, --workers 1): {start['seconds']:.1f} s wall, {start['cpu_seconds']:.1f} s CPU",
              flush=True)
        mcr_games = sizes["mcr"]
        by_workers = {}
        for w in (1, 2):
            m = pipeline_bench.bench_pipeline(str(paths["mcr"]), mcr_games, w, [])
            by_workers[w] = audit_row(f"mcr --workers {w}", m, start["cpu_seconds"] if w == 1 else None)
            audits.append(by_workers[w])
            print(audit_table([by_workers[w]]).splitlines()[1], flush=True)
        for r in ("longgang", "guangdong"):
            m = pipeline_bench.bench_pipeline(str(paths[r]), sizes[r], 1, [])
            audits.append(audit_row(f"{r} --workers 1", m, start["cpu_seconds"]))
            print(audit_table([audits[-1]]).splitlines()[1], flush=True)
        size_rows = []
        for n in (mcr_games // 4, mcr_games // 2):
            m = pipeline_bench.bench_pipeline(pipeline_bench.take(str(paths["mcr"]), n, tmp), n, 2, [])
            size_rows.append(audit_row(f"mcr {n} games --workers 2", m, None))
        size_rows.append(by_workers[2])
    print()
    print(audit_table(audits))
    ratio = by_workers[2]["hands_per_s"] / by_workers[1]["hands_per_s"] if by_workers[1]["hands_per_s"] else 0.0
    cpu_ratio = by_workers[1]["critical_cpu_s"] / by_workers[2]["critical_cpu_s"] \
        if by_workers[2]["critical_cpu_s"] else 0.0
    print(f"--workers 2 vs 1: {ratio:.2f}x by wall time; {cpu_ratio:.2f}x by the CPU critical path (driver + "
          "busiest worker: the wall ratio on an idle 2-core machine); goal ≥ 1.5x")
    print(f"--workers 1 on {by_workers[1]['hands']} MCR hands, start-up included: "
          f"{by_workers[1]['hands_per_s']:.0f} hands/s wall, {by_workers[1]['hands_per_cpu_s']:.0f} per CPU second "
          f"(goal ≥ 1,500); steady state {by_workers[1]['steady_hands_per_core_s']:.0f} hands per core-second "
          "(goal 2,000)")
    print("\npeak memory against corpus size (--workers 2):")
    for r in size_rows:
        print(f"  {r['hands']:7d} hands: all processes {r['tree_rss_mb']:.0f} MB, largest worker "
              f"{r['worker_rss_mb']:.0f} MB, driver {r['driver_rss_mb']:.0f} MB; "
              f"{r['hands_per_cpu_s']:.0f} hands/CPU-s")

    print("\n== score --ruleset mcr vs pymahjonggb, same JSON-lines protocol ==", flush=True)
    score = score_bench.run(n=2000 if args.quick else 20000)
    print("\n== MCR fan calculators alone (no protocol) ==", flush=True)
    fans = mcr_bench.run(n=2000 if args.quick else 20000)

    results = {"quick": args.quick, "load_average": load, "engine": engine, "stages": stage_rows, "startup": start,
               "audits": audits, "workers_ratio": ratio, "workers_cpu_ratio": cpu_ratio, "sizes": size_rows, "score": score, "fans": fans}
    out_json = CORPUS_DIR / ("quick-run.json" if args.quick else "last-run.json")
    out_json.write_text(json.dumps(results, indent=1, default=str))
    chart_path = Path(args.chart) if args.chart else (CORPUS_DIR / "quick.svg" if args.quick
                                                     else ROOT / "docs" / "performance.svg")
    note = (f"make bench{' --quick' if args.quick else ''}, {time.strftime('%Y-%m-%d')}, {engine} engine, "
            f"{os.cpu_count()} cores, "
            f"load average {load:.1f} at the start (other jobs running: wall figures are noisy)")
    chart_path.write_text(chart.svg(stage_rows, [by_workers[1], by_workers[2]], size_rows, note))
    print(f"\nfigures: {out_json}\nchart: {chart_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
