"""One digest of every result table: a check that a change to the rows, the staging
files or the pipeline left the database exactly as it was.

    python -m bench.table_digest [--hands N] [--keep DIR] [--dump DIR] [--workers N]

Audits each input of ``bench.verdict_digest`` (the sample logs, the real-log fixtures,
``../shared/real-logs`` when present, simulated corpora of every ruleset, clean and with
``--faults 0.3``) with ``mahjong-audit audit`` into a DuckDB file of its own, and dumps
every table and view sorted, without what differs from run to run (run ids, the runs
table's clock, the version). Prints one SHA-256 over all of it, then one line per input.
``--dump DIR`` also writes each table as text (one row a line) to compare two runs with
``diff -r``. Run it on the code before and after a change (``PYTHONPATH=<a copy of the
old commit's mahjong_audit, engine, pipeline and schemas>`` audits with the old code): the
digests must be identical.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.verdict_digest import ROOT, inputs

# Columns whose values differ between two runs of the same audit.
PER_RUN = {"run_id", "started_at", "finished_at", "version", "mtime"}
PER_RUN_TABLES = {"runs", "files", "run_files"}  # only there is started_at (etc.) per run


def groups(paths: list[Path], simulated: Path) -> list[tuple[str, list[Path]]]:
    """Inputs audited together: each simulated corpus alone, the other files by folder."""
    out: dict[str, list[Path]] = {}
    for p in paths:
        key = p.name if p.parent == simulated else os.path.relpath(p.parent, ROOT.parent)
        out.setdefault(key, []).append(p)
    return sorted(out.items())


def _rounded(value: object) -> object:
    """Floats to 9 significant digits: the statistics' sums depend on the order rows were
    loaded in, which with several workers differs from run to run in the last digits."""
    return float(f"{value:.9g}") if isinstance(value, float) else value


def dump(db: str) -> dict[str, list[str]]:
    """Every table and view of ``db``, sorted, as lines of text (per-run columns left out)."""
    import duckdb

    con = duckdb.connect(db, read_only=True)
    try:
        con.execute("SET TimeZone = 'UTC'")
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "ORDER BY table_name").fetchall()]
        out = {}
        for name in names:
            cols = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND table_schema = 'main' ORDER BY ordinal_position", [name]).fetchall()]
            keep = [c for c in cols if not (c in PER_RUN and (c == "run_id" or name in PER_RUN_TABLES))]
            sel = ", ".join(f'"{c}"' for c in keep)
            rows = con.execute(f'SELECT {sel} FROM "{name}" ORDER BY ALL').fetchall()
            out[name] = [repr(keep)] + [repr(tuple(_rounded(v) for v in r)) for r in rows]
        return out
    finally:
        con.close()


def audit_into(paths: list[Path], db: str, workers: int) -> None:
    """``mahjong-audit audit`` of ``paths`` into ``db``, run outside the repository (so that
    ``PYTHONPATH=<another version's tree>`` audits with that version's code)."""
    cmd = [sys.executable, "-m", "mahjong_audit", "audit", *map(str, paths), "--db", db,
           "--workers", str(workers), "--no-progress"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=os.path.dirname(db))
    if done.returncode not in (0, 1):  # 1: findings were reported
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.table_digest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="hands per simulated corpus (default 400)")
    ap.add_argument("--keep", help="keep the simulated corpora in this folder (and reuse them when present)")
    ap.add_argument("--dump", help="write every table as text into this folder")
    ap.add_argument("--workers", type=int, default=1, help="audit --workers (default 1)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="table-digest-") as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        total = hashlib.sha256()
        lines = []
        for i, (name, paths) in enumerate(groups(inputs(where, args.hands), where)):
            db = os.path.join(tmp, f"run{i}.duckdb")
            audit_into(paths, db, args.workers)
            tables = dump(db)
            h = hashlib.sha256()
            for table, text in tables.items():
                h.update(f"{table}\n".encode())
                h.update("\n".join(text).encode())
                if args.dump:
                    folder = Path(args.dump) / name.replace(os.sep, "_")
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / f"{table}.txt").write_text("\n".join(text) + "\n")
            total.update(h.hexdigest().encode())
            counts = " ".join(f"{t}={len(v) - 1}" for t, v in tables.items() if t in ("games", "hands", "findings"))
            lines.append(f"{h.hexdigest()[:16]}  {counts}  {name}")
    print(total.hexdigest())
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
