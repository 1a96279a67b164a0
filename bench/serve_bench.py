"""``make bench-serve``: the live audit under a real HTTP load generator (Debian's ``wrk``).

    python -m bench.serve_bench [--games 100] [--seconds 30] [--soak 120] [--connections 32] [--json FILE]

On one corpus of simulated games (``--games`` per ruleset: mcr, guangdong, longgang; or
``--corpus FILE.jsonl``), in one run:

1. ``audit --workers 1`` of the corpus into a fresh database (one process: one core), and of
   the corpus twice (other game_ids): the difference is its cost per game beyond start-up;
2. ``serve`` on loopback, and ``wrk`` posting the same games (one per request, each under
   a game_id of its own) for ``--seconds`` over ``--connections`` connections: full load;
3. the same at half that rate (8 connections, each waiting between its requests, the wait
   found by two short probes): p50 and p99;
4. a soak at half load for ``--soak`` seconds, the service's RSS sampled every 5 s.

Throughput per core is games per CPU-second of the process doing the work (the service's
own CPU from /proc, the audit's process tree's), so the ratio holds on a machine shared
with other work, where wall-clock rates do not; both are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.pipeline_bench import _TICKS
from tests.serve_harness import Server

ROOT = Path(__file__).resolve().parent.parent
LUA = ROOT / "bench" / "serve_post.lua"
RULESETS = ("mcr", "guangdong", "longgang")


def make_corpus(folder: Path, games: int) -> Path:
    out = folder / "corpus.jsonl"
    with open(out, "wb") as dst:
        for k, ruleset in enumerate(RULESETS):
            part = folder / f"{ruleset}.jsonl"
            subprocess.run([sys.executable, "-m", "mahjong_audit", "simulate", "--ruleset", ruleset, "--games",
                            str(games), "--seed", str(300 + k), "-o", str(part)], check=True, capture_output=True)
            dst.write(part.read_bytes())
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and of its waited-for children (the read copy's cp)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / _TICKS


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def games_committed(server: Server) -> int:
    text = server.get("/metrics").body.decode()
    return int(re.search(r"^mahjong_audit_serve_games_total (\d+)$", text, re.M).group(1))


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(m.group(1)) * _UNITS[m.group(2)] if m else float("nan")


def run_wrk(server: Server, corpus: Path, seconds: float, connections: int, tag: str,
            delay_ms: float = 0.0) -> dict:
    """One wrk run; the service's games committed, CPU seconds and wrk's latency percentiles."""
    env = {**os.environ, "BENCH_GAMES": str(corpus), "BENCH_TAG": tag, "BENCH_DELAY_MS": f"{delay_ms:.1f}"}
    games0, cpu0, t0 = games_committed(server), cpu_seconds(server.pid), time.perf_counter()
    done = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "30s", "--latency",
                           "-s", str(LUA), server.url], capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - t0
    games, cpu = games_committed(server) - games0, cpu_seconds(server.pid) - cpu0
    out = done.stdout
    pct = {p: _ms(v) for p, v in re.findall(r"^\s*(50|75|90|99)%\s+([\d.]+[a-z]+)\s*$", out, re.M)}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)$", out, re.M)
    return {"connections": connections, "delay_ms": round(delay_ms, 1), "seconds": round(wall, 1), "games": games,
            "games_per_s": round(games / wall, 1), "cpu_seconds": round(cpu, 1),
            "games_per_cpu_s": round(games / cpu, 1) if cpu else 0.0,
            "p50_ms": pct.get("50"), "p90_ms": pct.get("90"), "p99_ms": pct.get("99"),
            "non_2xx": int(non2xx.group(1)) if non2xx else 0, "socket_errors": errors.group(1) if errors else ""}


def soak(server: Server, corpus: Path, seconds: float, connections: int, delay_ms: float) -> dict:
    samples: list[tuple[float, float]] = []
    stop = threading.Event()

    def sample() -> None:
        t0 = time.perf_counter()
        while not stop.wait(5.0):
            samples.append((time.perf_counter() - t0, rss_mb(server.pid)))

    start_rss = rss_mb(server.pid)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    got = run_wrk(server, corpus, seconds, connections, "soak", delay_ms)
    stop.set()
    sampler.join()
    rss = [r for _, r in samples] or [start_rss]
    half = max(1, len(rss) // 2)
    return {**got, "rss_start_mb": round(start_rss, 1), "rss_end_mb": round(rss[-1], 1),
            "rss_max_mb": round(max(rss), 1),
            "rss_first_half_mean_mb": round(sum(rss[:half]) / half, 1),
            "rss_second_half_mean_mb": round(sum(rss[half:]) / max(1, len(rss) - half), 1),
            "rss_samples": [[round(t), round(r, 1)] for t, r in samples]}


HALF_CONNECTIONS = 8


def half_load_delay(server: Server, corpus: Path, rate: float, connections: int, probes: int = 2) -> float:
    """The wait between a connection's requests that gives ``rate`` requests a second over
    ``connections`` (wrk keeps each connection closed-loop: rate = connections / (wait + latency)),
    found by short probe runs."""
    latency = 0.5
    delay = max(0.0, connections / rate - latency)
    for k in range(probes):
        got = run_wrk(server, corpus, 6, connections, f"probe{k}", delay * 1000)
        if got["games_per_s"] <= 0:
            break
        latency = max(0.0, connections / got["games_per_s"] - delay)
        delay = max(0.0, connections / rate - latency)
    return delay * 1000


def doubled(corpus: Path, folder: Path) -> Path:
    """The corpus twice, the second copy under other game_ids (a run twice as long)."""
    out = folder / "doubled.jsonl"
    with open(out, "w", encoding="utf-8") as dst:
        for suffix in ("", "-again"):
            for line in corpus.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    game = json.loads(line)
                    game["game_id"] += suffix
                    dst.write(json.dumps(game) + "\n")
    return out


def audit_run(corpus: Path, folder: Path) -> tuple[float, float]:
    """Wall and CPU seconds (its whole process tree, from the kernel's accounting) of
    ``audit CORPUS --workers 1`` into a fresh database."""
    db = folder / f"audit-{corpus.stem}.duckdb"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mahjong_audit", "audit", str(corpus), "--db", str(db), "--workers", "1",
                    "--no-progress"], check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def audit_baseline(corpus: Path, folder: Path, n: int) -> dict:
    """``audit --workers 1`` of the corpus and of it twice: per whole run, and per game beyond
    the start-up (the difference of the two runs), which is what a long run approaches."""
    once_s, once_cpu = audit_run(corpus, folder)
    twice_s, twice_cpu = audit_run(doubled(corpus, folder), folder)
    extra_cpu, extra_s = twice_cpu - once_cpu, twice_s - once_s
    return {"games": n, "seconds": round(once_s, 1), "games_per_s": round(n / once_s, 1),
            "cpu_seconds": round(once_cpu, 1), "games_per_cpu_s": round(n / once_cpu, 1),
            "twice_seconds": round(twice_s, 1), "twice_cpu_seconds": round(twice_cpu, 1),
            "marginal_games_per_s": round(n / extra_s, 1) if extra_s > 0 else None,
            "marginal_games_per_cpu_s": round(n / extra_cpu, 1) if extra_cpu > 0 else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="a JSON Lines file of games (default: simulate --games per ruleset)")
    ap.add_argument("--games", type=int, default=100, help="games per ruleset to simulate (default 100)")
    ap.add_argument("--seconds", type=float, default=30, help="length of the full- and half-load runs (default 30)")
    ap.add_argument("--soak", type=float, default=120, help="length of the soak at half load (default 120; 0: none)")
    ap.add_argument("--connections", type=int, default=32, help="wrk connections at full load (default 32: "
                    "platforms post many games at once; group commit shares a transaction among them)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if shutil.which("wrk") is None:
        print("bench-serve needs wrk (apt-get install wrk)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as tmp:
        folder = Path(tmp)
        corpus = Path(args.corpus) if args.corpus else make_corpus(folder, args.games)
        n = sum(1 for line in corpus.open("rb") if line.strip())
        audit = audit_baseline(corpus, folder, n)
        print(f"audit --workers 1: {audit}", flush=True)
        with Server(folder / "serve.duckdb") as server:
            for line in corpus.read_text().splitlines()[:5]:  # warm: first imports and first commit
                server.post(line.encode(), "application/json")
            full = run_wrk(server, corpus, args.seconds, args.connections, "full")
            print(f"serve, full load: {full}", flush=True)
            delay = half_load_delay(server, corpus, full["games_per_s"] / 2, HALF_CONNECTIONS)
            half = run_wrk(server, corpus, args.seconds, HALF_CONNECTIONS, "half", delay)
            print(f"serve, half load: {half}", flush=True)
            soaked = soak(server, corpus, args.soak, HALF_CONNECTIONS, delay) if args.soak > 0 else None
            if soaked:
                print(f"serve, soak: { {k: v for k, v in soaked.items() if k != 'rss_samples'} }", flush=True)
    def ratio(a: float | None, b: float | None) -> float | None:
        return round(a / b, 2) if a and b else None

    result = {"corpus_games": n, "audit_workers_1": audit, "serve_full": full, "serve_half": half, "soak": soaked,
              "ratio_per_core": ratio(full["games_per_cpu_s"], audit["games_per_cpu_s"]),
              "ratio_per_core_marginal": ratio(full["games_per_cpu_s"], audit["marginal_games_per_cpu_s"]),
              "ratio_wall": ratio(full["games_per_s"], audit["games_per_s"])}
    print(f"throughput per core, serve / audit --workers 1: {result['ratio_per_core']} of a whole run, "
          f"{result['ratio_per_core_marginal']} of its games beyond start-up (wall-clock: {result['ratio_wall']})")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
