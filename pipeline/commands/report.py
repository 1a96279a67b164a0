"""``mahjong-audit report --db FILE -o report.html``: an HTML audit report with charts.

One self-contained page (styles, script and SVG charts inline; nothing is fetched when
it is opened) from the audit database, opened read-only. The database stores findings
but no events: give the audited logs with ``--logs`` to add a replay of every hand with
findings (the deal, each event, each seat's tiles right after the finding's event).
"""

from __future__ import annotations

import argparse
import os
import sys

from mahjong_audit.pipeline import exits


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "report", help="write a self-contained HTML report (charts, findings, replays) from an audit database",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1], epilog=exits.epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", metavar="FILE", help="DuckDB database written by `mahjong-audit audit`")
    src.add_argument("--parquet", metavar="DIR", help="Parquet dataset written by `mahjong-audit audit --parquet`")
    p.add_argument("-o", "--output", default="report.html", metavar="FILE",
                   help="HTML file to write (default: report.html; '-' for stdout)")
    p.add_argument("--logs", nargs="+", default=[], metavar="INPUT",
                   help="the audited logs (files, globs, directories), to replay the hands with findings")
    p.add_argument("--from", dest="importer", metavar="NAME", help="importer for --logs in a platform format")
    p.add_argument("--max-findings", type=int, default=5000, metavar="N",
                   help="list at most N findings in the drill-down (default 5000; the counts cover all)")
    p.add_argument("--max-replays", type=int, default=200, metavar="N",
                   help="replay at most N hands with findings (default 200)")
    p.add_argument("--max-players", type=int, default=500, metavar="N",
                   help="list at most N players, worst offenders first (default 500)")
    p.set_defaults(func=run)


def _err(msg: str) -> None:
    exits.error("report", msg)


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.pipeline.report import build

    if min(args.max_findings, args.max_replays, args.max_players) < 0:
        _err("--max-findings, --max-replays and --max-players must be ≥ 0")
        return 1
    # a database or dataset that cannot be read: errors.DatabaseError, reported by the command line
    built = build(args.db, logs=args.logs, importer=args.importer, max_findings=args.max_findings,
                  max_replays=args.max_replays, max_players=args.max_players, parquet=args.parquet)
    for problem in built.replay_problems:
        _err(f"warning: {problem}")
    if args.output == "-":
        sys.stdout.write(built.html)
    else:
        try:
            tmp = f"{args.output}.tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(built.html)
            os.replace(tmp, args.output)
        except OSError as e:
            _err(f"cannot write {args.output}: {e}")
            return 1
        d = built.data
        print(f"report: {args.output} ({d.games} games, {d.findings_total} findings, "
              f"{built.replays} hands replayed, {len(built.html) // 1024} KiB)")
    return 0
