"""``mahjong-audit stats --db FILE``: the summary views as aligned text tables.

Views: ``player_stats``, ``fan_stats`` and ``finding_summary`` (created by ``audit``).
Exit status 1 if the database is missing or has no audit tables, 2 if it is locked.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

VIEWS = ("player_stats", "fan_stats", "finding_summary")
VIEWS += ("suspicious_pairs", "anomalous_players", "pair_stats", "player_anomalies")  # pipeline.collusion


def register(subparsers) -> None:
    p = subparsers.add_parser("stats", help="print player, fan and finding summaries from an audit database",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", required=True, metavar="FILE", help="DuckDB file written by `audit`")
    p.add_argument("--view", choices=VIEWS, action="append",
                   help="print only this view (repeatable; default: all)")
    p.add_argument("--limit", type=int, default=40, metavar="N", help="rows per view (default 40; 0 = all)")
    p.set_defaults(func=run)


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4g}" if abs(v) < 1 else f"{v:,.2f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return str(v)


def _width(s: str) -> int:
    """Display width: CJK characters take two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Aligned plain-text table: numbers right-aligned, text left-aligned."""
    cells = [[_cell(v) for v in r] for r in rows]
    numeric = [all(isinstance(r[i], int | float) or r[i] is None for r in rows) and bool(rows)
               for i in range(len(headers))]
    widths = [max([_width(h)] + [_width(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        out = []
        for i, v in enumerate(values):
            pad = " " * (widths[i] - _width(v))
            out.append(pad + v if numeric[i] else v + pad)
        return "  ".join(out).rstrip()

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), sep] + [line(r) for r in cells])


def run(args: argparse.Namespace) -> int:
    from pipeline import sink

    if "://" not in args.db and not os.path.exists(args.db):
        print(f"mahjong-audit stats: {args.db}: no such database", file=sys.stderr)
        return 1
    try:
        con = sink.connect(args.db, read_only=True)
    except sink.DatabaseLocked as e:
        print(f"mahjong-audit stats: {e}", file=sys.stderr)
        return 2
    except sink.DatabaseError as e:
        print(f"mahjong-audit stats: {e}", file=sys.stderr)
        return 1
    try:
        present = {n for (n,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
        missing = [v for v in VIEWS if v not in present]
        if missing:
            print(f"mahjong-audit stats: {args.db} has no audit views ({', '.join(missing)}); "
                  "run `mahjong-audit audit` first", file=sys.stderr)
            return 1
        for i, view in enumerate(args.view or VIEWS):
            (total,) = con.execute(f"SELECT count(*) FROM {view}").fetchone()
            limit = f" LIMIT {int(args.limit)}" if args.limit > 0 else ""
            cur = con.execute(f"SELECT * FROM {view}{limit}")
            headers = [d[0] for d in cur.description]
            rows = cur.fetchall()
            shown = f", showing {len(rows)}" if len(rows) < total else ""
            print(("\n" if i else "") + f"{view} ({total} rows{shown})")
            print(format_table(headers, rows))
    finally:
        con.close()
    return 0
