"""mahjong-audit stats --db FILE (or --parquet DIR): the summary views as aligned text tables.

Views (created by audit): player_stats, fan_stats and finding_summary by default;
period_stats (games, hands, findings, false wins and money at stake per ruleset and
day/week/month), finding_trend (findings per kind and period) and player_monthly
(each player's month by month), and the collusion statistics suspicious_pairs,
anomalous_players, pair_stats and player_anomalies (built by an audit into a DuckDB
database, not for a Parquet dataset alone) with --view.

--ruleset, --player, --since and --until narrow every view to those games and hands
(times in UTC; --until with a plain date includes that day). With --player, views that
list players show that player's rows only. A scope that matches no game says so, with the
rulesets (or players) the database holds; a ruleset the auditor does not know is refused.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from mahjong_audit.pipeline import exits

DEFAULT_VIEWS = ("player_stats", "fan_stats", "finding_summary")
VIEWS: tuple[str, ...] = DEFAULT_VIEWS + ("period_stats", "finding_trend", "player_monthly",
                                          "suspicious_pairs", "anomalous_players",  # mahjong_audit.pipeline.collusion
                                          "pair_stats", "player_anomalies")


def register(subparsers) -> None:
    p = subparsers.add_parser("stats", help="print player, fan and finding summaries from an audit database",
                              description=__doc__, epilog=exits.epilog(),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", metavar="FILE", help="DuckDB file written by `audit`")
    src.add_argument("--parquet", metavar="DIR", help="Parquet dataset written by `audit --parquet`")
    p.add_argument("--view", choices=VIEWS, action="append",
                   help="print only this view (repeatable; default: all)")
    p.add_argument("--limit", type=int, default=40, metavar="N", help="rows per view (default 40; 0 = all)")
    p.add_argument("--ruleset", help="only games of this ruleset")
    p.add_argument("--player", help="only games this player sat in, and this player's rows")
    p.add_argument("--since", metavar="WHEN", help="only hands from this ISO 8601 date or date-time on (UTC)")
    p.add_argument("--until", metavar="WHEN", help="only hands before this date-time (a plain date: up to "
                   "the end of that day)")
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


def _err(msg: str) -> None:
    exits.error("stats", msg)


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.engine.rulesets import RULESETS
    from mahjong_audit.pipeline.scope import Scope
    from mahjong_audit.schemas.instants import InstantError

    if args.ruleset is not None and args.ruleset not in RULESETS:
        _err(f"unknown ruleset {args.ruleset!r} (known: {', '.join(sorted(RULESETS))})")
        return exits.FAILED
    try:
        scope = Scope.parse(ruleset=args.ruleset, player=args.player, since=args.since, until=args.until)
    except InstantError as e:
        _err(str(e))
        return exits.FAILED
    if args.parquet is not None:
        from mahjong_audit.pipeline import dataset

        with dataset.connect(args.parquet) as con:  # errors.NoDataset: reported by the command line
            return _print_views(con, args, scope)
    return _run_db(args, scope)


def _run_db(args: argparse.Namespace, scope) -> int:
    from mahjong_audit.pipeline import errors, sink

    if "://" not in args.db and not os.path.exists(args.db):
        _err(f"{args.db}: no such database")
        return exits.FAILED
    try:
        con = sink.connect(args.db, read_only=True)  # errors.DatabaseError: reported by the command line
    except errors.DatabaseLocked:
        from mahjong_audit.pipeline.serve.replica import connect_read_copy

        copy = connect_read_copy(args.db)  # the database `serve` holds: the copy it publishes
        if copy is None:
            raise
        con, note = copy
        print(f"mahjong-audit stats: {note}", file=sys.stderr)
    try:
        return _print_views(con, args, scope)
    finally:
        con.close()


def _print_views(con, args: argparse.Namespace, scope) -> int:
    from mahjong_audit.pipeline.scope import has_player_column, narrow
    from mahjong_audit.pipeline.words import count

    present = {n for (n,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
    missing = [v for v in (args.view or DEFAULT_VIEWS) if v not in present]
    if missing:
        _err(f"{args.db or args.parquet} has no audit views ({', '.join(missing)}); "
             "run `mahjong-audit audit` first")
        return exits.FAILED
    held = "" if scope.everything else _held(con, scope)  # before narrow() shadows the tables
    narrow(con, scope)
    if not scope.everything:
        row = con.execute("SELECT count(*) FROM games").fetchone()
        if not (row and row[0]):
            _err(f"nothing matched: no game in scope ({scope.describe()}); {held}")
            return exits.OK
        print(f"scope: {scope.describe()}\n")
    for i, view in enumerate(args.view or DEFAULT_VIEWS):
        where, params = "", []
        if scope.player is not None and has_player_column(con, view):
            where, params = " WHERE player = ?", [scope.player]
        row = con.execute(f"SELECT count(*) FROM {view}{where}", params).fetchone()
        total = row[0] if row else 0
        limit = f" LIMIT {int(args.limit)}" if args.limit > 0 else ""
        cur = con.execute(f"SELECT * FROM {view}{where}{limit}", params)
        headers = [d[0] for d in cur.description]
        rows = cur.fetchall()
        shown = f", showing {len(rows)}" if len(rows) < total else ""
        print(("\n" if i else "") + f"{view} ({count(total, 'row')}{shown})")
        print(format_table(headers, rows))
    return 0


def _held(con, scope, shown: int = 12) -> str:
    """What the database holds that a scope names: its rulesets, and its players when the
    scope names one (the first ``shown`` of them by name)."""
    from mahjong_audit.pipeline.words import count

    rulesets = [r for (r,) in con.execute("SELECT DISTINCT ruleset FROM games ORDER BY 1").fetchall()]
    text = f"the database holds {count(len(rulesets), 'ruleset')}: {', '.join(rulesets) or 'none'}"
    if scope.player is None:
        return text
    players = [p for (p,) in con.execute(
        "SELECT DISTINCT p FROM (SELECT unnest(players) AS p FROM games) WHERE p IS NOT NULL ORDER BY 1").fetchall()]
    more = f", … ({len(players) - shown} more; --view player_stats lists them)" if len(players) > shown else ""
    return f"{text}; {count(len(players), 'player')}: {', '.join(players[:shown]) or 'none'}{more}"
