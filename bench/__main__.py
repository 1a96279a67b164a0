"""``make bench``: every benchmark of the project, in one run.

1. Where the time goes: CPU µs per hand for each stage (read, validate, replay, score,
   pay, rows, parquet, load) on an MCR, a Longgang and a Guangdong corpus
   (``bench.stage_bench``, one fresh process each).
2. ``mahjong-audit audit`` end to end, ``--workers 1``, on each ruleset's 12,000-hand corpus
   and on its first game alone, on the compiled engine (what every install with a C compiler
   runs) and on the sources (``MAHJONG_AUDIT_PURE=1``: what an install without a compiler
   runs): hands/s per wall second and per CPU second, start-up included, and per core in
   steady state (the 12,000-hand run less the one-game run: hands over CPU seconds). Each
   pair of runs is made ``--repeat`` times (default 3), one after the other, and the run of
   least CPU time of each kind is kept: on a shared virtual machine a run's CPU time rises
   with its neighbours' work, never falls below what the code costs. Then MCR with
   ``--workers 2`` and its ratio to ``--workers 1``.
3. Peak memory of ``--workers 2`` against the corpus size (a quarter, half and all of it).
4. ``score --ruleset mcr`` against ``pymahjonggb`` behind the same JSON-lines protocol
   (``bench.score_bench``, in a fresh process per engine), and the fan calculators alone
   (``bench.mcr_bench``).
5. Issue 28's table: each figure, compiled beside pure, against its goal.

The corpora are made once with ``mahjong-audit simulate`` and kept in bench/corpus/.
The chart of the run goes to docs/performance.svg (``--chart``), the figures to
bench/corpus/last-run.json. CPU time is the primary figure: on a shared machine wall
time measures the neighbours too. ``python -m bench --quick`` checks it all works on
small corpora (its chart and figures go to bench/corpus/quick.*); ``--hands N`` sets the
corpora's size (a reduced run: its figures say so).
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
FULL_HANDS = 12000
SIZES = {False: {"mcr": 3000, "longgang": 3000, "guangdong": 3000}, True: {"mcr": 250, "longgang": 60, "guangdong": 60}}
HANDS_PER_GAME = 4
ENGINES = ("compiled", "pure")  # the table's columns: the default install, an install without a C compiler
COLUMNS = {"compiled": "compiled (default install)", "pure": "pure (no compiler)"}
NAMES = {"mcr": "MCR", "longgang": "龙港", "guangdong": "广东"}
GOALS = {"mcr": "≥ 4,000", "longgang": "≥ 3,000", "guangdong": "≥ 4,000", "audit": "—", "score": "≥ 0.8×"}
SCORE_LINES = {False: 20000, True: 2000}


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


def engine_env(engine: str) -> dict[str, str]:
    """The environment of a child process running ``engine`` (``compiled`` or ``pure``)."""
    from mahjong_audit import accel

    env = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
    if engine == "pure":
        env[accel.PURE_ENV] = "1"
    return env


def engine_state(env: dict[str, str]) -> tuple[str, str]:
    """What a child process with ``env`` runs: (``compiled`` | ``stale`` | ``pure``, why)."""
    out = subprocess.run([sys.executable, "-c", "from mahjong_audit import accel; print(*accel.state(), sep='\\t')"],
                         env=env, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    got, why = out.strip().splitlines()[-1].split("\t", 1)
    return got, why


def stages(path: Path, ruleset: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "bench.stage_bench", str(path), "--json"], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "ruleset": ruleset}


def least_cpu(runs: list):
    """The measurement of least CPU time among runs of one command."""
    return min(runs, key=lambda m: m.cpu_seconds)


def steady(one, full) -> float | None:
    """Hands per core-second in steady state: a long run less a one-game run, hands over CPU seconds."""
    hands, cpu = full.hands - one.hands, full.cpu_seconds - one.cpu_seconds
    return hands / cpu if hands > 0 and cpu > 0 else None


def audit_row(name: str, m, one=None, engine: str = "compiled") -> dict:
    """One audit run's figures; ``one`` (the same command on a one-game file) gives the steady state."""
    return {"name": name, "engine": engine, "workers": int(m.name.split("(")[1].split()[0]), "games": m.games,
            "hands": m.hands, "seconds": round(m.seconds, 2), "cpu_seconds": round(m.cpu_seconds, 2),
            "hands_per_s": m.hands / m.seconds if m.seconds else 0.0,
            "hands_per_cpu_s": m.hands / m.cpu_seconds if m.cpu_seconds else 0.0,
            "steady_hands_per_core_s": steady(one, m) if one is not None else None,
            "one_game": None if one is None else {"hands": one.hands, "seconds": round(one.seconds, 2),
                                                  "cpu_seconds": round(one.cpu_seconds, 2)},
            # the longest chain of CPU work: the driver's own, then its busiest worker's. On an
            # idle machine with a core per process the run takes about this long.
            "critical_cpu_s": round(m.cpu_seconds - sum(m.worker_cpu) + max(m.worker_cpu, default=0.0), 2),
            "tree_rss_mb": round(m.tree_rss_mb, 1), "worker_rss_mb": round(m.worker_rss_mb, 1),
            "driver_rss_mb": round(m.driver_rss_mb, 1)}


def audit_table(rows: list[dict]) -> str:
    lines = [f"{'':34}{'hands':>7}{'wall s':>8}{'CPU s':>8}{'hands/s':>9}{'hands/CPU-s':>12}"
             f"{'steady/core':>12}{'peak MB':>9}"]
    for r in rows:
        lines.append(f"{r['name']:34}{r['hands']:7d}{r['seconds']:8.1f}{r['cpu_seconds']:8.1f}"
                     f"{r['hands_per_s']:9.0f}{r['hands_per_cpu_s']:12.0f}"
                     f"{'—' if r['steady_hands_per_core_s'] is None else format(r['steady_hands_per_core_s'], '.0f'):>12}"
                     f"{r['tree_rss_mb']:9.0f}")
    return "\n".join(lines)


def score_run(env: dict[str, str], n: int) -> dict:
    """``bench.score_bench.run`` in a fresh process with ``env`` (the engine is chosen at import)."""
    code = f"import json; from bench import score_bench; print(json.dumps(score_bench.run(n={n})))"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip().splitlines()
    print("\n".join(out[:-1]), flush=True)
    return json.loads(out[-1])


def table28(audits: list[dict], score: dict[str, dict], hands: int) -> list[dict]:
    """Issue 28's rows: each figure per engine (None where not measured), its unit and goal."""
    def find(name: str, engine: str) -> dict | None:
        return next((a for a in audits if a["name"].startswith(name) and a["engine"] == engine), None)

    rows = []
    for rs, label in NAMES.items():
        rows.append({"figure": f"{label}, steady state per core ({hands:,}-hand run − one-game run)",
                     "key": rs, "unit": "hands per core-second", "goal": GOALS[rs],
                     **{e: (find(f"{rs} --workers 1", e) or {}).get("steady_hands_per_core_s") for e in ENGINES}})
    rows.append({"figure": f"`audit --workers 1`, {hands:,} MCR hands, start-up included", "key": "audit",
                 "unit": "hands per wall second (per CPU second)", "goal": GOALS["audit"],
                 **{e: (find("mcr --workers 1", e) or {}).get("hands_per_s") for e in ENGINES},
                 **{f"{e}_cpu": (find("mcr --workers 1", e) or {}).get("hands_per_cpu_s") for e in ENGINES}})
    rows.append({"figure": "`score --ruleset mcr` vs `pymahjonggb`, same JSON-lines protocol", "key": "score",
                 "unit": "ratio of CPU time (1 = as fast)", "goal": GOALS["score"],
                 **{e: score.get(e, {}).get("ratio") for e in ENGINES},
                 **{f"{e}_lines_per_cpu_s": score.get(e, {}).get("ours_lines_per_cpu_s") for e in ENGINES}})
    return rows


def _fmt(row: dict, engine: str) -> str:
    v = row.get(engine)
    if v is None:
        return "—"
    if row["key"] == "score":
        return f"{v:.2f}×"
    if row["key"] == "audit" and row.get(f"{engine}_cpu"):
        return f"{v:,.0f} ({row[f'{engine}_cpu']:,.0f})"
    return f"{v:,.0f}"


def table28_text(rows: list[dict]) -> str:
    w = max(len(r["figure"]) for r in rows) + 2
    lines = [f"{'figure':{w}}{COLUMNS['compiled']:>30}{COLUMNS['pure']:>22}{'goal':>10}"]
    for r in rows:
        lines.append(f"{r['figure']:{w}}{_fmt(r, 'compiled'):>30}{_fmt(r, 'pure'):>22}{r['goal']:>10}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small corpora and fewer scored hands")
    ap.add_argument("--hands", type=int, metavar="N", help=f"hands in each ruleset's corpus (default {FULL_HANDS:,}; "
                    "a multiple of 4): a reduced run, whose figures and chart say so")
    ap.add_argument("--skip-pure", action="store_true", help="measure the compiled engine only (no pure column)")
    ap.add_argument("--repeat", type=int, default=3, metavar="N",
                    help="runs of each --workers 1 audit (the 12,000-hand one and the one-game one); the least "
                         "CPU time of each is kept (default 3; 1 with --quick)")
    ap.add_argument("--chart", help="where the SVG chart goes (default docs/performance.svg, "
                    "bench/corpus/quick.svg with --quick or --hands)")
    args = ap.parse_args(argv)
    if args.hands is not None and (args.hands < 2 * HANDS_PER_GAME or args.hands % HANDS_PER_GAME):
        ap.error(f"--hands must be a multiple of {HANDS_PER_GAME}, at least {2 * HANDS_PER_GAME}")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    repeat = 1 if args.quick else args.repeat
    from bench import chart, mcr_bench, pipeline_bench, stage_bench

    reduced = args.quick or args.hands is not None
    sizes = {r: args.hands // HANDS_PER_GAME for r in NAMES} if args.hands else SIZES[args.quick]
    paths = {r: corpus(r, g) for r, g in sizes.items()}
    load = os.getloadavg()[0]
    engines = ENGINES[:1] if args.skip_pure else ENGINES
    envs = {e: engine_env(e) for e in engines}
    states = {e: engine_state(envs[e]) for e in engines}
    from mahjong_audit import accel

    engine, why = accel.state()
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} at the start "
          "(CPU-time figures are the ones to compare)", flush=True)
    print(f"engine of sections 1, 3 and the fan calculators: {engine} ({why})", flush=True)
    for e in engines:
        print(f"the {COLUMNS[e]} column runs: {states[e][0]} ({states[e][1]})", flush=True)
    if states["compiled"][0] != "compiled":
        print("WARNING: no current compiled engine (make accel builds one): the compiled column measures "
              f"the sources ({states['compiled'][0]})", flush=True)
    if reduced:
        print(f"REDUCED RUN: {', '.join(f'{g * HANDS_PER_GAME} {r}' for r, g in sizes.items())} hands, "
              f"not {FULL_HANDS:,}", flush=True)
    print(flush=True)

    print("== where the time goes (one process, no Beam) ==", flush=True)
    stage_rows = [stages(p, r) for r, p in paths.items()]
    print(stage_bench.table(stage_rows), flush=True)

    print("\n== mahjong-audit audit, end to end ==", flush=True)
    audits: list[dict] = []
    by_workers: dict[int, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        print(audit_table([]), flush=True)
        for e in engines:
            for r, path in paths.items():
                first = pipeline_bench.take(str(path), 1, tmp)
                ones, fulls = [], []
                for _ in range(repeat):
                    ones.append(pipeline_bench.bench_pipeline(first, 1, 1, [], envs[e]))
                    fulls.append(pipeline_bench.bench_pipeline(str(path), sizes[r], 1, [], envs[e]))
                one, m = least_cpu(ones), least_cpu(fulls)
                audits.append(audit_row(f"{r} --workers 1 ({e})", m, one, e))
                print(audit_table([audits[-1]]).splitlines()[1], flush=True)
                if r == "mcr" and e == "compiled":
                    by_workers[1] = audits[-1]
                    start = audits[-1]["one_game"]
                    m = pipeline_bench.bench_pipeline(str(path), sizes[r], 2, [], envs[e])
                    by_workers[2] = audit_row(f"mcr --workers 2 ({e})", m, None, e)
                    audits.append(by_workers[2])
                    print(audit_table([audits[-1]]).splitlines()[1], flush=True)
        mcr_games = sizes["mcr"]
        size_rows = []
        for n in (max(1, mcr_games // 4), max(1, mcr_games // 2)):
            m = pipeline_bench.bench_pipeline(pipeline_bench.take(str(paths["mcr"]), n, tmp), n, 2, [],
                                              envs["compiled"])
            size_rows.append(audit_row(f"mcr {n} games --workers 2", m, None))
        size_rows.append(by_workers[2])
    print(f"\nstart-up (one MCR game, --workers 1, compiled): {start['seconds']:.1f} s wall, "
          f"{start['cpu_seconds']:.1f} s CPU")
    ratio = by_workers[2]["hands_per_s"] / by_workers[1]["hands_per_s"] if by_workers[1]["hands_per_s"] else 0.0
    cpu_ratio = by_workers[1]["critical_cpu_s"] / by_workers[2]["critical_cpu_s"] \
        if by_workers[2]["critical_cpu_s"] else 0.0
    print(f"--workers 2 vs 1: {ratio:.2f}x by wall time; {cpu_ratio:.2f}x by the CPU critical path (driver + "
          "busiest worker: the wall ratio on an idle 2-core machine); goal ≥ 1.5x")
    print("\npeak memory against corpus size (--workers 2):")
    for r in size_rows:
        print(f"  {r['hands']:7d} hands: all processes {r['tree_rss_mb']:.0f} MB, largest worker "
              f"{r['worker_rss_mb']:.0f} MB, driver {r['driver_rss_mb']:.0f} MB; "
              f"{r['hands_per_cpu_s']:.0f} hands/CPU-s")

    print("\n== score --ruleset mcr vs pymahjonggb, same JSON-lines protocol ==", flush=True)
    score = {}
    for e in engines:
        print(f"{COLUMNS[e]}:", flush=True)
        score[e] = score_run(envs[e], SCORE_LINES[reduced])
    print("\n== MCR fan calculators alone (no protocol) ==", flush=True)
    fans = mcr_bench.run(n=SCORE_LINES[reduced])

    hands = sizes["mcr"] * HANDS_PER_GAME
    table = table28(audits, score, hands)
    print(f"\n== issue 28's table{' (REDUCED RUN)' if reduced else ''} "
          f"(--workers 1 runs: the least CPU time of {repeat} each) ==")
    print(table28_text(table))

    results = {"quick": args.quick, "reduced": reduced, "hands": {r: g * HANDS_PER_GAME for r, g in sizes.items()},
               "load_average": load, "repeat": repeat, "engine": engine, "columns": {e: list(states[e]) for e in engines},
               "stages": stage_rows, "startup": start, "audits": audits, "workers_ratio": ratio,
               "workers_cpu_ratio": cpu_ratio, "sizes": size_rows, "score": score, "fans": fans, "table": table}
    out_json = CORPUS_DIR / ("quick-run.json" if reduced else "last-run.json")
    out_json.write_text(json.dumps(results, indent=1, default=str))
    chart_path = Path(args.chart) if args.chart else (CORPUS_DIR / "quick.svg" if reduced
                                                     else ROOT / "docs" / "performance.svg")
    what = "make bench --quick" if args.quick else f"python -m bench --hands {args.hands}" if reduced else "make bench"
    note = (f"{what}{' (REDUCED RUN)' if reduced else ''}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
            f"load average {load:.1f} at the start (other jobs running: wall figures are noisy)")
    chart_path.write_text(chart.svg(stage_rows, [by_workers[1], by_workers[2]], size_rows, note, table))
    print(f"\nfigures: {out_json}\nchart: {chart_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
