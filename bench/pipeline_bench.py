"""End-to-end throughput and memory of the audit pipeline against a plain single-process loop.

    python -m bench.pipeline_bench --corpus PATH [--take 6250 --take 25000] [--workers 2] [--json]

PATH is any input ``mahjong-audit audit`` accepts (.jsonl/.json, .gz, directories,
globs), e.g. the output of ``mahjong-audit simulate``. ``--take N`` (repeatable) runs
the benchmark on the first N records of a one-file corpus instead of all of it, to show
how throughput and memory change with the input size. For each input, two measurements:

* ``loop``: read + parse + ``mahjong_audit.engine.audit.audit_game`` in one child process, no Beam, no DB;
* ``pipeline``: ``mahjong-audit audit --workers N`` in a child process, into a fresh
  DuckDB file (Beam start-up, Parquet staging and the DuckDB load included).

Reports games/s, hands/s, the CPU seconds of the whole process tree (a check on a busy
machine, where wall time is noisy) and peak RSS, polled from /proc over the child's
process tree: the driver (the child itself), the largest worker process, and the
largest sum over the tree at any moment. The CPU seconds are the kernel's count for the
child and every descendant it waited for (``getrusage(RUSAGE_CHILDREN)`` around the run),
or the /proc poll's sum if that is larger (a descendant left to end on its own); the poll
alone misses up to a polling period of each process's last CPU time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass

_PAGE_KB = 1  # /proc/<pid>/status reports kB
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Measurement:
    name: str
    input_games: int
    games: int
    hands: int
    seconds: float
    driver_rss_mb: float  # peak RSS of the child process itself
    worker_rss_mb: float  # peak RSS of its largest descendant (0: none)
    tree_rss_mb: float  # largest sum of RSS over the process tree at one moment
    workers: int = 0  # descendant processes seen
    cpu_seconds: float = 0.0  # user + system CPU of the whole process tree
    worker_cpu: tuple[float, ...] = ()  # CPU seconds of each descendant process

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def _status_kb(pid: int) -> dict[str, int]:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmHWM:", "VmRSS:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0]) * _PAGE_KB
    except OSError:  # the process just ended
        pass
    return out


def _processes() -> tuple[dict[int, list[int]], dict[int, float]]:
    """Children of every process, and each process's CPU seconds so far (user + system)."""
    kids: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        kids.setdefault(int(fields[1]), []).append(int(name))
        cpu[int(name)] = (int(fields[11]) + int(fields[12])) / _TICKS
    return kids, cpu


class TreeMemory:
    """Polls the RSS of a process and all its descendants until stopped."""

    def __init__(self, pid: int, period: float = 0.5):
        self.pid, self.period = pid, period
        self.peak_kb: dict[int, int] = {}
        self.cpu: dict[int, float] = {}
        self.tree_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            kids, cpu = _processes()
            todo, tree = [self.pid], []
            while todo:
                p = todo.pop()
                tree.append(p)
                todo.extend(kids.get(p, ()))
                self.cpu[p] = max(self.cpu.get(p, 0.0), cpu.get(p, 0.0))
            total = 0
            for p in tree:
                st = _status_kb(p)
                total += st.get("VmRSS", 0)
                self.peak_kb[p] = max(self.peak_kb.get(p, 0), st.get("VmHWM", 0), st.get("VmRSS", 0))
            self.tree_kb = max(self.tree_kb, total)
            if self._stop.wait(self.period):
                return

    def driver_mb(self) -> float:
        return self.peak_kb.get(self.pid, 0) / 1024

    def cpu_seconds(self) -> float:
        return sum(self.cpu.values())

    def worker_cpu(self) -> tuple[float, ...]:
        return tuple(round(c, 1) for p, c in sorted(self.cpu.items()) if p != self.pid)

    def workers(self) -> list[float]:
        return [kb / 1024 for p, kb in self.peak_kb.items() if p != self.pid]


def _children_cpu() -> float:
    """User + system CPU seconds of this process's ended and waited-for descendants so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run_child(cmd: list[str], env: dict[str, str] | None = None
               ) -> tuple[subprocess.CompletedProcess, float, TreeMemory, float]:
    """Run ``cmd`` to its end: its output, wall seconds, polled tree and CPU seconds (see the module doc)."""
    t0, cpu0 = time.perf_counter(), _children_cpu()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    with TreeMemory(proc.pid) as mem:
        out, err = proc.communicate()
    seconds, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{out}\n{err}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), seconds, mem, max(cpu, mem.cpu_seconds())


def loop_child(corpus: str) -> None:
    """Child side of the loop measurement: prints games, hands and seconds as JSON."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline import inputs, parse

    games = hands = 0
    t0 = time.perf_counter()
    for path in inputs.expand_inputs([corpus]):
        for item in parse.parse_file(path):
            if isinstance(item, parse.ParsedGame):
                audit_game(item.game)
                games += 1
                hands += len(item.game.hands)
    print(json.dumps({"games": games, "hands": hands, "seconds": time.perf_counter() - t0}))


def bench_loop(corpus: str, input_games: int) -> Measurement:
    proc, seconds, mem, cpu = _run_child([sys.executable, "-m", "bench.pipeline_bench", "--loop-child", corpus])
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    workers = mem.workers()
    return Measurement("loop (1 process)", input_games, got["games"], got["hands"], seconds,
                       mem.driver_mb(), max(workers, default=0.0), mem.tree_kb / 1024, len(workers),
                       cpu, mem.worker_cpu())


def bench_pipeline(corpus: str, input_games: int, workers: int, extra: list[str],
                   env: dict[str, str] | None = None) -> Measurement:
    """``mahjong-audit audit`` of ``corpus``; ``env``: the child's environment (default: this one's)."""
    import duckdb

    with tempfile.TemporaryDirectory(prefix="pipeline-bench-") as tmp:
        db = os.path.join(tmp, "bench.duckdb")
        cmd = [sys.executable, "-m", "mahjong_audit", "audit", corpus, "--db", db,
               "--workers", str(workers), "--no-progress", *extra]
        _, seconds, mem, cpu = _run_child(cmd, env)
        con = duckdb.connect(db, read_only=True)
        try:
            games = con.execute("SELECT count(*) FROM games").fetchone()[0]
            hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
        finally:
            con.close()
    seen = mem.workers()
    return Measurement(f"pipeline ({workers} workers)", input_games, games, hands, seconds,
                       mem.driver_mb(), max(seen, default=0.0), mem.tree_kb / 1024, len(seen),
                       cpu, mem.worker_cpu())


def take(corpus: str, n: int, folder: str) -> str:
    """The first ``n`` non-empty lines of a one-file JSON Lines corpus, as a new .jsonl.gz."""
    if os.path.isdir(corpus) or not corpus.removesuffix(".gz").endswith((".jsonl", ".ndjson")):
        raise SystemExit("--take needs one .jsonl(.gz) file as --corpus")
    out = os.path.join(folder, f"first-{n}.jsonl.gz")
    opener = gzip.open if corpus.endswith(".gz") else open
    got = 0
    with opener(corpus, "rb") as src, gzip.open(out, "wb", compresslevel=6) as dst:
        for line in src:
            if line.strip():
                dst.write(line)
                got += 1
                if got == n:
                    break
    if got < n:
        raise SystemExit(f"{corpus} has only {got} records, fewer than --take {n}")
    return out


def _table(results: list[Measurement]) -> str:
    head = (f"{'':22} {'input':>7} {'games':>7} {'hands':>7} {'seconds':>8} {'games/s':>8} {'hands/s':>8} "
            f"{'CPU s':>7} {'driver':>8} {'worker':>8} {'tree':>8}")
    lines = [head, f"{'':22} {'games':>7} {'':>7} {'':>7} {'':>8} {'':>8} {'':>8} {'':>7} "
                   f"{'peak MB':>8} {'peak MB':>8} {'peak MB':>8}"]
    for m in results:
        lines.append(f"{m.name:22} {m.input_games:7d} {m.games:7d} {m.hands:7d} {m.seconds:8.1f} "
                     f"{m.games_per_s:8.1f} {m.hands_per_s:8.1f} {m.cpu_seconds:7.1f} {m.driver_rss_mb:8.0f} "
                     f"{m.worker_rss_mb:8.0f} {m.tree_rss_mb:8.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pipeline_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="file, directory or glob of .jsonl(.gz)/.json logs")
    ap.add_argument("--take", type=int, action="append", metavar="N",
                    help="benchmark the first N records of the corpus (repeatable: several sizes)")
    ap.add_argument("--workers", type=int, default=2, help="pipeline worker processes (default 2)")
    ap.add_argument("--skip-loop", action="store_true", help="measure the pipeline only")
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    ap.add_argument("--loop-child", metavar="CORPUS", help=argparse.SUPPRESS)
    args, extra = ap.parse_known_args(argv)  # anything else goes to `mahjong-audit audit`
    if args.loop_child:
        loop_child(args.loop_child)
        return 0
    if not args.corpus:
        ap.error("--corpus is required")

    results: list[Measurement] = []
    with tempfile.TemporaryDirectory(prefix="pipeline-bench-in-") as tmp:
        inputs = [(take(args.corpus, n, tmp), n) for n in sorted(args.take)] if args.take else [(args.corpus, 0)]
        for path, n in inputs:
            results.append(bench_pipeline(path, n, args.workers, extra))
            if not args.skip_loop:
                results.append(bench_loop(path, n))
            if not args.json:
                print(_table(results[-2 if not args.skip_loop else -1:]).split("\n", 2)[2], flush=True)
    if args.json:
        print(json.dumps([{**asdict(m), "games_per_s": round(m.games_per_s, 1),
                           "hands_per_s": round(m.hands_per_s, 1)} for m in results], indent=2))
        return 0
    print(f"\ncorpus: {args.corpus}; pipeline: --workers {args.workers}")
    print(_table(results))
    for m in results:
        if m.worker_cpu:
            print(f"{m.name} at {m.input_games or 'all'} games: CPU s of its worker processes "
                  f"{', '.join(f'{c:.1f}' for c in m.worker_cpu)}")
    loops = {m.input_games: m for m in results if m.name.startswith("loop")}
    for m in results:
        if m.name.startswith("pipeline") and m.input_games in loops and loops[m.input_games].games_per_s:
            print(f"speed-up {m.name} vs loop at {m.input_games or 'all'} games: "
                  f"{m.games_per_s / loops[m.input_games].games_per_s:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
