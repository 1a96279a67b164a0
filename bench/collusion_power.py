"""``make collusion-power``: how well ``pair_stats`` finds a colluding pair, and how often
it flags an honest one.

* Power: for each seed, a colluding pair (``p1`` feeds ``p2``) plays at a table of four
  (``--players 4``, so every hand is shared); the statistics are built on the first
  S hands for each S of ``--sizes``; a seed counts as found at S when (p1, p2) is flagged.
* False flags: honest corpora of ``--honest-hands`` hands from a population of six
  (tables drawn per game, seats in random order); a seed counts when any pair is flagged.
  Each honest corpus is also seated again ``--relabel`` times (the same hands, other
  players at the tables), which measures the statistic on many more honest corpora for
  the price of the simulation of one.

Games are simulated, audited with ``audit_game`` and loaded into an in-memory DuckDB with
the project's own row builders and DDL (no Beam: the statistics are what is measured).
Writes the numbers as JSON and a power chart as SVG (``--out``, default docs/).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import duckdb
import pyarrow as pa

DOCS = Path(__file__).resolve().parent.parent / "docs"


def audited_db(games: Iterable[dict], path: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """An audit database of ``games`` (mahjong-log/1 dicts) with the collusion tables (in memory
    unless ``path`` names a file)."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline import collusion
    from mahjong_audit.pipeline.read import ParsedGame
    from mahjong_audit.pipeline.rows import audit_rows, by_table
    from mahjong_audit.pipeline.tables import ARROW_SCHEMAS, ddl
    from mahjong_audit.schemas.log import Game

    con = duckdb.connect(path)
    for stmt in ddl():
        con.execute(stmt)
    rows: dict[str, list[dict]] = defaultdict(list)
    for i, g in enumerate(games):
        game = Game.model_validate(g)
        parsed = ParsedGame("memory", i + 1, 0, game)
        for table, rs in by_table(audit_rows(parsed, audit_game(game), "bench")).items():
            rows[table].extend(rs)
    for table, rs in rows.items():
        con.register("_rows", pa.Table.from_pylist(rs, schema=ARROW_SCHEMAS[table]))
        con.execute(f"INSERT INTO {table} SELECT * FROM _rows")
        con.unregister("_rows")
    collusion.build(con)
    return con


def _games(ruleset: str, seed: int, n_games: int, players: int, collude: Sequence[str] | None) -> list[dict]:
    from mahjong_audit.engine.sim import Population, simulate_one

    pop = Population.of_size(players, collude)
    return [simulate_one(ruleset, seed, i, 4, None, pop) for i in range(n_games)]


def power_seed(args: tuple[str, int, tuple[int, ...]]) -> dict:
    """One colluding corpus: for each size (hands), is (p1, p2) flagged, and its p-value."""
    ruleset, seed, sizes = args
    games = _games(ruleset, seed, max(sizes) // 4, 4, ("p1", "p2"))
    out = {}
    for size in sizes:
        con = audited_db(games[:size // 4])
        row = con.execute("SELECT flagged, p_value, deal_ins_a_to_b, expected_a_to_b FROM pair_stats "
                          "WHERE player_a = 'p1' AND player_b = 'p2'").fetchone()
        others = con.execute("SELECT count(*) FROM pair_stats WHERE flagged AND NOT "
                             "(player_a = 'p1' AND player_b = 'p2')").fetchone()[0]
        out[size] = {"flagged": bool(row and row[0]), "p_value": row[1] if row else None,
                     "observed": row[2] if row else 0, "expected": row[3] if row else 0.0, "other_flags": others}
    return {"seed": seed, "sizes": out}


def _honest_counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int, float | None]:
    flagged, tested, min_p = con.execute(
        "SELECT count(*) FILTER (WHERE flagged), count(*) FILTER (WHERE tested), min(p_value) FROM pair_stats"
    ).fetchall()[0]
    return int(flagged), int(tested), min_p


def honest_seed(args: tuple[str, int, int, int]) -> dict:
    """One honest corpus, then ``relabel`` more made from the same hands by seating the
    population again (names never change how a game is played, so each is an honest
    corpus too; they share hands, so they are not independent of each other)."""
    from mahjong_audit.engine.sim import Population
    from mahjong_audit.pipeline import collusion

    ruleset, seed, hands, relabel = args
    pop = Population.of_size(6)
    con = audited_db(_games(ruleset, seed, hands // 4, 6, None))
    flagged, tested, min_p = _honest_counts(con)
    again = []
    ids = [g for (g,) in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    for r in range(relabel):
        tables = pa.table({"game_id": ids, "players": [list(pop.table(seed * 1000 + r + 1, i))
                                                       for i in range(len(ids))]})
        con.register("_seating", tables)
        con.execute("UPDATE games SET players = s.players FROM _seating s WHERE games.game_id = s.game_id")
        con.unregister("_seating")
        collusion.build(con)
        again.append(_honest_counts(con)[0])
    return {"seed": seed, "flagged": flagged, "tested": tested, "min_p": min_p, "relabelled_flagged": again}


def clopper_pearson_upper(k: int, n: int, alpha: float = 0.05) -> float:
    """One-sided upper 1-alpha bound on a proportion (bisection on the binomial cdf)."""
    from mahjong_audit.pipeline.stats_math import binom_cdf

    if k >= n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if binom_cdf(k, n, mid) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def power_svg(ruleset: str, sizes: Sequence[int], rates: Sequence[float], seeds: int) -> str:
    """A line chart of detection power against hands shared (log-scaled x)."""
    w, h, left, right, top, bottom = 560, 310, 56, 20, 44, 46
    xs = [math.log(s) for s in sizes]
    x0, x1 = min(xs), max(xs)

    def px(i: int) -> float:
        return left + (xs[i] - x0) / ((x1 - x0) or 1) * (w - left - right)

    def py(r: float) -> float:
        return top + (1 - r) * (h - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             'font-family="sans-serif" font-size="12">',
             f'<text x="{w / 2}" y="18" text-anchor="middle" font-weight="bold">'
             f'Colluding pair flagged ({ruleset}, {seeds} seeds per point)</text>']
    for r in (0, 0.25, 0.5, 0.75, 0.9, 1.0):
        style = 'stroke="#c23b3b" stroke-dasharray="4 3"' if r == 0.9 else 'stroke="#ddd"'
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{py(r):.1f}" y2="{py(r):.1f}" {style}/>')
        parts.append(f'<text x="{left - 6}" y="{py(r) + 4:.1f}" text-anchor="end">{int(r * 100)}%</text>')
    for i, s in enumerate(sizes):
        parts.append(f'<text x="{px(i):.1f}" y="{h - bottom + 16}" text-anchor="middle">{s:,}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">hands the pair shared (log scale)</text>')
    pts = " ".join(f"{px(i):.1f},{py(r):.1f}" for i, r in enumerate(rates))
    parts.append(f'<polyline points="{pts}" fill="none" stroke="#3b6ea5" stroke-width="2"/>')
    for i, r in enumerate(rates):
        parts.append(f'<circle cx="{px(i):.1f}" cy="{py(r):.1f}" r="3.5" fill="#3b6ea5"/>')
        parts.append(f'<text x="{px(i):.1f}" y="{py(r) - 8:.1f}" text-anchor="middle">{int(round(r * 100))}%</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.collusion_power", description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="guangdong")
    ap.add_argument("--seeds", type=int, default=20, help="colluding corpora (default 20)")
    ap.add_argument("--sizes", default="100,200,300,500,1000,2000", help="hands shared, comma-separated")
    ap.add_argument("--honest-seeds", type=int, default=40, help="honest corpora (default 40)")
    ap.add_argument("--honest-hands", type=int, default=1000, help="hands per honest corpus (default 1000)")
    ap.add_argument("--relabel", type=int, default=20, help="reseatings of each honest corpus (default 20)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(DOCS), help="folder for collusion-power.json/.svg (default docs/)")
    ap.add_argument("--chart-only", action="store_true", help="redraw the SVG from an existing collusion-power.json")
    a = ap.parse_args(argv)
    if a.chart_only:
        saved = json.loads((Path(a.out) / "collusion-power.json").read_text(encoding="utf-8"))
        sizes = tuple(int(s) for s in saved["power"])
        svg = power_svg(saved["ruleset"], sizes, [saved["power"][str(s)] for s in sizes], len(saved["detail"]["power"]))
        (Path(a.out) / "collusion-power.svg").write_text(svg, encoding="utf-8")
        return 0
    sizes = tuple(sorted(int(s) for s in a.sizes.split(",")))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        power = list(pool.map(power_seed, [(a.ruleset, 1000 + s, sizes) for s in range(a.seeds)]))
        print(f"power: {a.seeds} seeds in {time.perf_counter() - t0:.0f} s", flush=True)
        honest = list(pool.map(honest_seed, [(a.ruleset, 5000 + s, a.honest_hands, a.relabel)
                                             for s in range(a.honest_seeds)]))
    rates = [sum(p["sizes"][s]["flagged"] for p in power) / max(1, len(power)) for s in sizes]
    any_flag = sum(1 for h in honest if h["flagged"])
    result = {
        "ruleset": a.ruleset, "seconds": round(time.perf_counter() - t0),
        "power": {str(s): r for s, r in zip(sizes, rates, strict=True)},
        "other_pairs_flagged_in_colluding_corpora": {
            str(s): sum(p["sizes"][s]["other_flags"] for p in power) for s in sizes},
        "honest": {"seeds": len(honest), "hands": a.honest_hands, "seeds_with_a_flag": any_flag,
                   "rate": any_flag / max(1, len(honest)),
                   "rate_upper_95": clopper_pearson_upper(any_flag, len(honest)) if honest else None,
                   "pairs_tested_per_seed": sum(h["tested"] for h in honest) / max(1, len(honest)),
                   "relabelled_corpora": sum(len(h["relabelled_flagged"]) for h in honest),
                   "relabelled_with_a_flag": sum(1 for h in honest for f in h["relabelled_flagged"] if f)},
        "detail": {"power": power, "honest": honest},
    }
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "collusion-power.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (out / "collusion-power.svg").write_text(power_svg(a.ruleset, sizes, rates, len(power)), encoding="utf-8")
    for s, r in zip(sizes, rates, strict=True):
        print(f"  {s:>6,} hands shared: flagged in {r:.0%} of {len(power)} seeds")
    print(f"  honest: a pair flagged in {any_flag} of {len(honest)} seeds "
          f"(≤ {result['honest']['rate_upper_95']:.1%} at 95%)" if honest else "  honest: no seeds")
    hr = result["honest"]
    print(f"  honest, reseated: a pair flagged in {hr['relabelled_with_a_flag']} of {hr['relabelled_corpora']} corpora")
    print(f"  in {result['seconds']} s; wrote {out / 'collusion-power.json'} and {out / 'collusion-power.svg'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
