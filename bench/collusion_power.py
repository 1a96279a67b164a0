"""``make collusion-power``: how well the collusion statistics find a colluding pair of
each style, and how often they flag an honest one, in every ruleset.

* Power: for each ruleset, style (``feed``, ``soft``, ``dump``, ``signal``:
  ``mahjong_audit.engine.sim.collusion``) and seed, a colluding pair (``p1`` with ``p2``) plays at a
  table of four (``--players 4``, so every hand is shared); the statistics are built on
  the first S hands for each S of ``--sizes``; a seed counts as found at S when (p1, p2)
  — or, for soft play, either order — is flagged, and as found *for its behaviour* when
  the flag names the style's behaviour (feeding, soft play, dumping).
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
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import duckdb
import pyarrow as pa

DOCS = Path(__file__).resolve().parent.parent / "docs"


def audit_rows(games: Iterable[dict]) -> list[dict[str, list[dict]]]:
    """Each game's (mahjong-log/1 dicts) audit rows, by table, from the project's row builders."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline.parse import ParsedGame
    from mahjong_audit.pipeline.rows import audit_rows as rows_of
    from mahjong_audit.pipeline.rows import by_table
    from mahjong_audit.schemas.log import Game

    out = []
    for i, g in enumerate(games):
        game = Game.model_validate(g)
        out.append(dict(by_table(rows_of(ParsedGame("memory", i + 1, 0, game), audit_game(game), "bench"))))
    return out


def rows_db(per_game: Sequence[dict[str, list[dict]]], path: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """An audit database of the games' rows (:func:`audit_rows`) with the collusion tables."""
    from mahjong_audit.pipeline import collusion
    from mahjong_audit.pipeline.tables import ARROW_SCHEMAS, ddl

    con = duckdb.connect(path)
    for stmt in ddl():
        con.execute(stmt)
    rows: dict[str, list[dict]] = defaultdict(list)
    for game in per_game:
        for table, rs in game.items():
            rows[table].extend(rs)
    for table, rs in rows.items():
        con.register("_rows", pa.Table.from_pylist(rs, schema=ARROW_SCHEMAS[table]))
        con.execute(f"INSERT INTO {table} SELECT * FROM _rows")
        con.unregister("_rows")
    collusion.build(con)
    return con


def audited_db(games: Iterable[dict], path: str = ":memory:") -> duckdb.DuckDBPyConnection:
    """An audit database of ``games`` (mahjong-log/1 dicts) with the collusion tables (in memory
    unless ``path`` names a file)."""
    return rows_db(audit_rows(games), path)


# The behaviour each simulated style should be flagged for (mahjong_audit.pipeline.collusion.BEHAVIOURS).
STYLE_BEHAVIOUR = {"feed": "feeding", "soft": "soft_play", "dump": "dumping", "signal": "feeding"}


def _games(ruleset: str, seed: int, n_games: int, players: int, collude: Sequence[str] | None,
           style: str = "feed") -> list[dict]:
    from mahjong_audit.engine.sim import Population, simulate_one

    pop = Population.of_size(players, collude, style)
    return [simulate_one(ruleset, seed, i, 4, None, pop) for i in range(n_games)]


def power_seed(args: tuple[str, str, int, tuple[int, ...]]) -> dict:
    """One colluding corpus: for each size (hands), is the pair flagged (for its style's
    behaviour), by which statistics, and how many other pairs are flagged."""
    ruleset, style, seed, sizes = args
    games = audit_rows(_games(ruleset, seed, max(sizes) // 4, 4, ("p1", "p2"), style))  # audited once
    pair = ("('p1', 'p2'), ('p2', 'p1')" if style == "soft" else "('p1', 'p2')")
    out = {}
    for size in sizes:
        con = rows_db(games[:size // 4])
        row = con.execute(f"SELECT flatten(list(behaviours)), min(p_value) FROM pair_stats "
                          f"WHERE (player_a, player_b) IN ({pair})").fetchone()
        stats = sorted({s for (s,) in con.execute(
            f"SELECT statistic FROM pair_evidence WHERE flagged AND (player_a, player_b) IN ({pair})").fetchall()})
        others = [f"{a}→{b}: {','.join(bs)}" + (f" (beside {x})" if x else "") for a, b, bs, x in con.execute(
            f"SELECT player_a, player_b, behaviours, explained_by FROM pair_stats WHERE len(behaviours) > 0 AND "
            f"(player_a, player_b) NOT IN ({pair}) ORDER BY player_a, player_b").fetchall()]
        innocent = [f"{p} {r}" for p, r in con.execute(
            "SELECT player, rate_name FROM player_anomalies WHERE flagged AND player NOT IN ('p1', 'p2') "
            "ORDER BY player, rate_name").fetchall()]
        behaviours = sorted(set(row[0] or ())) if row else []
        out[str(size)] = {"flagged": bool(behaviours), "for_its_behaviour": STYLE_BEHAVIOUR[style] in behaviours,
                     "behaviours": behaviours, "statistics": stats, "other_flags": len(others),
                     "other_pairs": others,
                     "innocent_pairs": [o for o in others if not set(o.split(":")[0].split("→")) <= {"p1", "p2"}],
                     "innocent_rates_flagged": innocent}
    return {"ruleset": ruleset, "style": style, "seed": seed, "sizes": out}


def _honest_counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int, float | None]:
    flagged, tested, min_p = con.execute(
        "SELECT count(DISTINCT (player_a, player_b)) FILTER (WHERE flagged), count(*) FILTER (WHERE tested), "
        "min(p_value) FROM pair_evidence").fetchall()[0]
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
        con.execute("UPDATE hands SET players = NULL")  # the seating is the game's (one hand per seat order)
        con.unregister("_seating")
        collusion.build(con)
        again.append(_honest_counts(con)[0])
    return {"ruleset": ruleset, "seed": seed, "flagged": flagged, "tested": tested, "min_p": min_p,
            "relabelled_flagged": again}


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


STYLE_COLOURS = {"feed": "#3b6ea5", "soft": "#c27c1b", "dump": "#7a3ba5", "signal": "#3b9a5a"}


def power_svg(ruleset: str, sizes: Sequence[int], series: dict[str, Sequence[float]], seeds: int) -> str:
    """A line chart of detection power against hands shared (log-scaled x), one line per style."""
    w, h, left, right, top, bottom = 560, 330, 56, 90, 44, 46
    xs = [math.log(s) for s in sizes]
    x0, x1 = min(xs), max(xs)

    def px(i: int) -> float:
        return left + (xs[i] - x0) / ((x1 - x0) or 1) * (w - left - right)

    def py(r: float) -> float:
        return top + (1 - r) * (h - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             'font-family="sans-serif" font-size="12">',
             f'<text x="{(w - right + left) / 2}" y="18" text-anchor="middle" font-weight="bold">'
             f'Colluding pair flagged for its behaviour ({ruleset}, {seeds} seeds per point)</text>']
    for r in (0, 0.25, 0.5, 0.75, 0.9, 1.0):
        style = 'stroke="#c23b3b" stroke-dasharray="4 3"' if r == 0.9 else 'stroke="#ddd"'
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{py(r):.1f}" y2="{py(r):.1f}" {style}/>')
        parts.append(f'<text x="{left - 6}" y="{py(r) + 4:.1f}" text-anchor="end">{int(r * 100)}%</text>')
    for i, s in enumerate(sizes):
        parts.append(f'<text x="{px(i):.1f}" y="{h - bottom + 16}" text-anchor="middle">{s:,}</text>')
    parts.append(f'<text x="{(w - right + left) / 2}" y="{h - 8}" text-anchor="middle">'
                 'hands the pair shared (log scale)</text>')
    for n, (style, rates) in enumerate(series.items()):
        colour = STYLE_COLOURS.get(style, "#333")
        pts = " ".join(f"{px(i):.1f},{py(r):.1f}" for i, r in enumerate(rates))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, r in enumerate(rates):
            parts.append(f'<circle cx="{px(i):.1f}" cy="{py(r):.1f}" r="3" fill="{colour}"/>')
        parts.append(f'<text x="{w - right + 10}" y="{top + 16 * n + 4}" fill="{colour}">{style}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _cell(runs: Sequence[dict], size: int) -> str:
    """``k/n (m/n)``: of the n seeds run, k flagged for the style's behaviour, m for anything."""
    cells = [p["sizes"][str(size)] for p in runs if str(size) in p["sizes"]]
    if not cells:
        return "–"
    n = len(cells)
    return f"{sum(c['for_its_behaviour'] for c in cells)}/{n} ({sum(c['flagged'] for c in cells)}/{n})"


def _table(result: dict) -> str:
    """The Markdown tables docs/collusion.md shows: per ruleset and style, the seeds flagged
    for their behaviour (and for anything) at each size, the honest corpora with any flag;
    then the colluding corpora where an innocent player was flagged."""
    sizes = result["sizes"]
    power = result["detail"]["power"]
    lines = ["| ruleset | style | " + " | ".join(f"{s:,}" for s in sizes) + " |",
             "|---|---|" + "---|" * len(sizes)]
    for ruleset in result["rulesets"]:
        for style in result["styles"]:
            runs = [p for p in power if p["ruleset"] == ruleset and p["style"] == style]
            lines.append(f"| {ruleset} | {style} | " + " | ".join(_cell(runs, s) for s in sizes) + " |")
        hon = result["honest"].get(ruleset)
        if hon and hon["seeds"]:
            lines.append(f"| {ruleset} | honest: corpora with any flag | {hon['seeds_with_a_flag']} of "
                         f"{hon['seeds']} ({hon['hands']:,} hands); reseated {hon['relabelled_with_a_flag']} of "
                         f"{hon['relabelled_corpora']} |" + " |" * (len(sizes) - 1))
    lines += ["", "Colluding corpora where a pair with an innocent player (not p1, p2) was flagged, "
              "and where an innocent player's rate was:", "",
              "| ruleset | style | " + " | ".join(f"{s:,}" for s in sizes) + " |",
              "|---|---|" + "---|" * len(sizes)]
    for ruleset in result["rulesets"]:
        for style in result["styles"]:
            runs = [p for p in power if p["ruleset"] == ruleset and p["style"] == style]
            row = []
            for s in sizes:
                cells = [p["sizes"][str(s)] for p in runs if str(s) in p["sizes"]]
                row.append(f"{sum(bool(c['innocent_pairs']) for c in cells)}/{len(cells)} pairs, "
                           f"{sum(bool(c['innocent_rates_flagged']) for c in cells)}/{len(cells)} rates"
                           if cells else "–")
            lines.append(f"| {ruleset} | {style} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def summarise(power: Sequence[dict], honest: Sequence[dict], rulesets: Sequence[str], styles: Sequence[str],
              sizes: Sequence[int], a: argparse.Namespace, seconds: float) -> dict:
    """The JSON of a run (complete or not: the seeds each cell rests on are counted)."""
    result: dict = {"command": a.command, "sizes": list(sizes), "seeds": a.seeds, "rulesets": list(rulesets),
                    "styles": list(styles), "power": {}, "other_pairs_flagged": {}, "honest": {}}
    for r in rulesets:
        result["power"][r], result["other_pairs_flagged"][r] = {}, {}
        for st in styles:
            runs = [p for p in power if p["ruleset"] == r and p["style"] == st]
            result["power"][r][st] = {str(s): {
                "seeds": len(runs),
                "for_its_behaviour": sum(p["sizes"][str(s)]["for_its_behaviour"] for p in runs) / max(1, len(runs)),
                "flagged": sum(p["sizes"][str(s)]["flagged"] for p in runs) / max(1, len(runs))} for s in sizes}
            result["other_pairs_flagged"][r][st] = {str(s): sum(p["sizes"][str(s)]["other_flags"] for p in runs)
                                                    for s in sizes}
        hon = [h for h in honest if h["ruleset"] == r]
        any_flag = sum(1 for h in hon if h["flagged"])
        result["honest"][r] = {
            "seeds": len(hon), "hands": a.honest_hands, "seeds_with_a_flag": any_flag,
            "rate_upper_95": clopper_pearson_upper(any_flag, len(hon)) if hon else None,
            "statistics_tested_per_seed": sum(h["tested"] for h in hon) / max(1, len(hon)),
            "relabelled_corpora": sum(len(h["relabelled_flagged"]) for h in hon),
            "relabelled_with_a_flag": sum(1 for h in hon for f in h["relabelled_flagged"] if f)}
    result["seconds"] = round(seconds)
    result["detail"] = {"power": list(power), "honest": list(honest)}
    return result


def write(result: dict, out: Path) -> None:
    """docs/collusion-power.json, .md and one .svg per ruleset (rewritten after every corpus)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "collusion-power.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (out / "collusion-power.md").write_text(f"`{result['command']}` ({result['seconds']:,} s)\n\n" + _table(result),
                                            encoding="utf-8")
    sizes, styles = result["sizes"], result["styles"]
    for r in result["rulesets"]:
        series = {st: [result["power"][r][st][str(s)]["for_its_behaviour"] for s in sizes] for st in styles}
        (out / f"collusion-power-{r}.svg").write_text(power_svg(r, sizes, series, result["seeds"]), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from mahjong_audit.engine.sim.collusion import STYLES

    ap = argparse.ArgumentParser(prog="python -m bench.collusion_power", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rulesets", default="mcr,guangdong,longgang", help="comma-separated (default all three)")
    ap.add_argument("--styles", default=",".join(STYLES), help="comma-separated (default all)")
    ap.add_argument("--seeds", type=int, default=10, help="colluding corpora per ruleset and style (default 10)")
    ap.add_argument("--sizes", default="200,500,1000,2000", help="hands shared, comma-separated")
    ap.add_argument("--honest-seeds", type=int, default=20, help="honest corpora per ruleset (default 20)")
    ap.add_argument("--honest-hands", type=int, default=1000, help="hands per honest corpus (default 1000)")
    ap.add_argument("--relabel", type=int, default=10, help="reseatings of each honest corpus (default 10)")
    ap.add_argument("--jobs", "--workers", dest="jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(DOCS), help="folder for collusion-power.json/.md/.svg (default docs/)")
    a = ap.parse_args(argv)
    a.command = "python -m bench.collusion_power " + " ".join(sys.argv[1:] if argv is None else argv)
    rulesets = tuple(a.rulesets.split(","))
    styles = tuple(a.styles.split(","))
    bad = [x for x in styles if x not in STYLES]
    if bad:
        ap.error(f"--styles: {', '.join(bad)} not in {', '.join(STYLES)}")
    try:
        sizes = tuple(sorted(int(s) for s in a.sizes.split(",")))
    except ValueError:
        ap.error(f"--sizes: comma-separated numbers of hands, not {a.sizes!r}")
    if a.jobs < 1 or not sizes or min(sizes) < 4:
        ap.error("--jobs must be at least 1 and --sizes at least 4 hands")
    out = Path(a.out)
    t0 = time.perf_counter()
    # seed by seed, every cell's seed k before any cell's seed k + 1, so that a run stopped
    # early (its files are rewritten after every corpus) has every cell on about as many seeds
    jobs: list[tuple] = []
    for s in range(max(a.seeds, a.honest_seeds)):
        if s < a.honest_seeds:
            jobs += [("honest", (r, 5000 + s, a.honest_hands, a.relabel)) for r in rulesets]
        if s < a.seeds:
            jobs += [("power", (r, st, 1000 + s, sizes)) for r in rulesets for st in styles]
    power: list[dict] = []
    honest: list[dict] = []
    # a fresh process per corpus: each imports the engine as it is when it starts (compiled once
    # `make accel` has finished), and a corpus's memory goes with it
    with ProcessPoolExecutor(a.jobs, max_tasks_per_child=1) as pool:
        futures = {pool.submit(power_seed if kind == "power" else honest_seed, args): kind for kind, args in jobs}
        for done, fut in enumerate(as_completed(futures), 1):
            (power if futures[fut] == "power" else honest).append(fut.result())
            result = summarise(power, honest, rulesets, styles, sizes, a, time.perf_counter() - t0)
            write(result, out)
            print(f"{done}/{len(jobs)} corpora in {result['seconds']} s", flush=True)
    result = summarise(power, honest, rulesets, styles, sizes, a, time.perf_counter() - t0)
    write(result, out)
    sys.stdout.write(_table(result))
    print(f"in {result['seconds']} s; wrote {out / 'collusion-power.json'}, .md and one .svg per ruleset")
    return 0


if __name__ == "__main__":
    sys.exit(main())
