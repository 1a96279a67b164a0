"""Where the audit's time goes: CPU µs per hand for each stage, in one plain process.

    python -m bench.stage_bench CORPUS [--json] [--repeat N]

The stages are the pipeline's own functions called one after the other on the whole
corpus, without Beam, a batch of records at a time as the pipeline does: ``read``
(decompress, split into records), ``validate`` (the fast path of
``mahjong_audit.schemas.log_fast``), ``replay`` (``audit_game`` less the two below), ``score``
(the ruleset's ``score_win``, called by the replay for wins and what-ifs), ``pay``
(``settle`` and ``seat_items``), ``rows`` (result rows and their check that every value can
be stored), ``parquet`` (staging files) and
``load`` (the DuckDB load). Times are CPU time (``time.process_time``): on a shared
machine wall time measures the neighbours too, and CPU time rises with them (shared caches);
``--repeat N`` measures N times, each in a fresh process (a second pass over the same hands
in one process would find every cache warm), and keeps each stage's least.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import islice

STAGES = ("read", "validate", "replay", "score", "pay", "rows", "parquet", "load")


class _Timer:
    """Accumulates the CPU time of calls to some methods of the rulesets."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0

    def timed(self, original: Callable) -> Callable:
        def timed(*args, **kwargs):
            t0 = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - t0
                self.calls += 1

        return timed


def _timed_rulesets(timers: dict[str, _Timer]) -> Callable[[], None]:
    """Registers in each ruleset's place a subclass whose methods named in ``timers`` are timed,
    and returns what puts the rulesets back. A subclass, not the class patched: the compiled
    engine's rulesets are native classes, whose methods the compiled replay calls directly (an
    interpreted subclass's methods it looks up by name, so the subclass's are the ones called)."""
    from mahjong_audit.engine.rulesets import RULESETS

    saved = dict(RULESETS)
    for name, cls in saved.items():
        methods = {m: t.timed(getattr(cls, m)) for m, t in timers.items()}
        RULESETS[name] = type(cls.__name__, (cls,), {"__module__": __name__, **methods})
    return lambda: RULESETS.update(saved)


def measure(corpus: str) -> dict:
    """CPU seconds of each stage over the whole corpus, and what it held."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.engine.rulesets import RULESETS
    from mahjong_audit.pipeline import inputs, parse, read, rows, sink, staging
    from mahjong_audit.pipeline.commands.audit import _run_row
    from mahjong_audit.pipeline.transforms import GAMES_PER_BATCH, set_up_collector
    from mahjong_audit.schemas.log_fast import parse_game_json

    files = inputs.expand_inputs([corpus])  # start-up (imports, the validator's schema) is not a stage
    parse_game_json("{}")
    for cls in RULESETS.values():  # a ruleset's options check imports its scorer (MCR's: ~0.17 s compiled)
        cls.parse_options({})
    staging.table_dir("", "")  # imports Beam's FileSystems, as the pipeline's worker has at its start
    set_up_collector()  # as the pipeline's parse worker does after its start-up
    cpu = dict.fromkeys(STAGES, 0.0)
    score, pay = _Timer(), _Timer()
    undo = [_timed_rulesets({"score_win": score, "settle": pay, "seat_items": pay})]
    games = hands = 0
    rulesets: set[str] = set()
    clock = time.process_time
    # The records go through the stages a batch at a time, as in the pipeline's fused stage
    # (transforms.GAMES_PER_BATCH): each stage over the whole batch, then the next; nothing
    # else accumulates in memory (a growing heap would make the garbage collector's passes,
    # and so every stage, slower).
    with tempfile.TemporaryDirectory(prefix="stage-bench-") as tmp:
        stage_dir = os.path.join(tmp, "staging")
        writer = staging.TableWriter(stage_dir)
        try:
            for path in files:
                records = read.read_records(path)
                while True:
                    t0 = clock()
                    batch = list(islice(records, GAMES_PER_BATCH))
                    t1 = clock()
                    cpu["read"] += t1 - t0
                    if not batch:
                        break
                    parsed = [p for rec in batch for p in parse.parse_record(rec, fast=True)
                              if isinstance(p, parse.ParsedGame)]
                    t2 = clock()
                    cpu["validate"] += t2 - t1
                    audits = [audit_game(p.game) for p in parsed]
                    t3 = clock()
                    cpu["replay"] += t3 - t2
                    made = [rows.audit_values(p, audit, "bench") for p, audit in zip(parsed, audits, strict=True)]
                    for game_rows in made:
                        rows.check_storable(game_rows)
                    t4 = clock()
                    cpu["rows"] += t4 - t3
                    for p, game_rows in zip(parsed, made, strict=True):
                        writer.add_rows(game_rows, p.source, p.line, p.shard_start)
                    cpu["parquet"] += clock() - t4
                    games += len(parsed)
                    hands += sum(len(p.game.hands) for p in parsed)
                    rulesets.update(p.game.ruleset for p in parsed)
        finally:
            for u in reversed(undo):
                u()
        t0 = clock()
        staging.write_manifest(stage_dir, writer.close())
        cpu["parquet"] += clock() - t0
        cpu["score"], cpu["pay"] = score.seconds, pay.seconds
        cpu["replay"] -= score.seconds + pay.seconds

        con = sink.connect(os.path.join(tmp, "bench.duckdb"))
        try:
            sink.ensure_schema(con)
            started = datetime.now(UTC).replace(tzinfo=None)
            t0 = time.process_time()
            sink.load_staging(con, stage_dir, [corpus],
                              lambda s: _run_row("bench", started, [corpus], "bench", s))
            cpu["load"] = time.process_time() - t0
        finally:
            con.close()
    return {"corpus": corpus, "ruleset": ",".join(sorted(rulesets)), "games": games, "hands": hands,
            "score_calls": score.calls,
            "cpu_s": {k: round(cpu[k], 4) for k in STAGES},
            "us_per_hand": {k: round(cpu[k] / hands * 1e6, 1) if hands else 0.0 for k in STAGES}}


def table(results: list[dict]) -> str:
    head = f"{'µs per hand (CPU)':24}" + "".join(f"{s:>9}" for s in STAGES) + f"{'total':>9}{'hands/CPU-s':>13}"
    lines = [head]
    for r in results:
        us = r["us_per_hand"]
        total = sum(us.values())
        name = f"{r.get('ruleset', '?')} ({r['hands']} hands)"
        lines.append(f"{name:24}" + "".join(f"{us[s]:9.0f}" for s in STAGES)
                     + f"{total:9.0f}{1e6 / total if total else 0:13.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.stage_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--json", action="store_true", help="print the measurement as JSON")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="measure N times and keep each stage's least CPU time (default 1)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat: expected 1 or more")
    result = measure(args.corpus)
    for _ in range(args.repeat - 1):
        out = subprocess.run([sys.executable, "-m", "bench.stage_bench", args.corpus, "--json"],
                             check=True, capture_output=True, text=True).stdout
        again = json.loads(out.strip().splitlines()[-1])
        for k in STAGES:
            if again["cpu_s"][k] < result["cpu_s"][k]:
                result["cpu_s"][k], result["us_per_hand"][k] = again["cpu_s"][k], again["us_per_hand"][k]
    print(json.dumps(result) if args.json else table([result]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
