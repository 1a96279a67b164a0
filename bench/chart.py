"""The bench's chart: one SVG, three panels, drawn from the figures ``make bench`` measured.

1. CPU µs per hand for each stage, one stacked bar per ruleset;
2. hands/s of ``audit --workers 1`` and ``--workers 2`` (wall and per CPU second);
3. hands/s and peak memory against the corpus size;
4. issue 28's figures, compiled (the default install) beside pure (an install without a C
   compiler): each ruleset's steady state per core, ``audit --workers 1`` with start-up, and
   ``score`` against pymahjonggb (when the run's figures have the table).

Plain SVG text, no plotting library.
"""

from __future__ import annotations

from html import escape

from bench.stage_bench import STAGES

COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7")
W, H = 1080, 380
W4 = 1440  # with the fourth panel
PANEL_W, TOP, BOTTOM = 300, 60, 300  # plot area of each panel: y from TOP to BOTTOM


def _text(x: float, y: float, s: str, size: int = 12, anchor: str = "middle", **kw: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in kw.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{escape(s)}</text>'


def _axis(x0: float, top: float, ymax: float, unit: str) -> list[str]:
    out = [f'<line x1="{x0}" y1="{TOP}" x2="{x0}" y2="{BOTTOM}" stroke="#333"/>',
           f'<line x1="{x0}" y1="{BOTTOM}" x2="{x0 + PANEL_W - 40}" y2="{BOTTOM}" stroke="#333"/>']
    for k in range(5):
        v = ymax * k / 4
        y = BOTTOM - (BOTTOM - TOP) * k / 4
        out.append(f'<line x1="{x0 - 4}" y1="{y:.1f}" x2="{x0}" y2="{y:.1f}" stroke="#333"/>')
        out.append(_text(x0 - 6, y + 4, f"{v:.0f}", 10, "end"))
    out.append(_text(x0 - 30, top - 12, unit, 11, "start"))
    return out


def _nice(v: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k that is at least ``v`` (an axis maximum)."""
    for mag in (1, 10, 100, 1000, 10000, 100000, 1000000):
        for step in (1, 2, 2.5, 5):
            if step * mag >= v:
                return step * mag
    return v


def stages_panel(x0: float, stages: list[dict]) -> list[str]:
    totals = [sum(r["us_per_hand"].values()) for r in stages]
    ymax = _nice(max(totals, default=1) * 1.05)
    out = [_text(x0 + PANEL_W / 2 - 20, 30, "CPU µs per hand, by stage", 14, font_weight="bold")]
    out += _axis(x0, TOP, ymax, "µs")
    bw = min(60, (PANEL_W - 60) / max(len(stages), 1) - 10)
    for i, r in enumerate(stages):
        x = x0 + 15 + i * (bw + 10)
        y = BOTTOM
        for k, s in enumerate(STAGES):
            h = (BOTTOM - TOP) * r["us_per_hand"][s] / ymax
            out.append(f'<rect x="{x:.1f}" y="{y - h:.1f}" width="{bw:.1f}" height="{h:.1f}" fill="{COLOURS[k]}">'
                       f'<title>{escape(r["ruleset"])} {s}: {r["us_per_hand"][s]:.0f} µs</title></rect>')
            y -= h
        out.append(_text(x + bw / 2, BOTTOM + 14, r["ruleset"], 11))
        out.append(_text(x + bw / 2, y - 4, f"{totals[i]:.0f}", 10))
    lx = x0 + PANEL_W - 80
    for k, s in enumerate(STAGES):
        out.append(f'<rect x="{lx}" y="{TOP + k * 15}" width="10" height="10" fill="{COLOURS[k]}"/>')
        out.append(_text(lx + 14, TOP + k * 15 + 9, s, 10, "start"))
    return out


def workers_panel(x0: float, runs: list[dict]) -> list[str]:
    """``runs``: one dict per worker count: workers, hands_per_s (wall), hands_per_cpu_s."""
    ymax = _nice(max([r["hands_per_s"] for r in runs] + [r["hands_per_cpu_s"] for r in runs] + [1]) * 1.05)
    out = [_text(x0 + PANEL_W / 2 - 20, 30, "audit: 1 vs 2 workers", 14, font_weight="bold")]
    out += _axis(x0, TOP, ymax, "hands/s")
    bw = 36
    for i, r in enumerate(runs):
        x = x0 + 25 + i * 110
        for j, (key, colour, label) in enumerate((("hands_per_s", "#4e79a7", "wall"),
                                                  ("hands_per_cpu_s", "#f28e2b", "per CPU s"))):
            h = (BOTTOM - TOP) * r[key] / ymax
            out.append(f'<rect x="{x + j * (bw + 4)}" y="{BOTTOM - h:.1f}" width="{bw}" height="{h:.1f}" '
                       f'fill="{colour}"><title>{label}: {r[key]:.0f}</title></rect>')
            out.append(_text(x + j * (bw + 4) + bw / 2, BOTTOM - h - 4, f"{r[key]:.0f}", 10))
        out.append(_text(x + bw + 2, BOTTOM + 14, f"--workers {r['workers']}", 11))
    out.append(f'<rect x="{x0 + 20}" y="{BOTTOM + 26}" width="10" height="10" fill="#4e79a7"/>')
    out.append(_text(x0 + 34, BOTTOM + 35, "hands per wall second", 10, "start"))
    out.append(f'<rect x="{x0 + 150}" y="{BOTTOM + 26}" width="10" height="10" fill="#f28e2b"/>')
    out.append(_text(x0 + 164, BOTTOM + 35, "hands per CPU second", 10, "start"))
    return out


def sizes_panel(x0: float, sizes: list[dict]) -> list[str]:
    """``sizes``: hands, hands_per_cpu_s and tree_rss_mb at each corpus size."""
    out = [_text(x0 + PANEL_W / 2 - 20, 30, "against corpus size (--workers 2)", 14, font_weight="bold")]
    if not sizes:
        return out
    ymax = _nice(max(max(r["hands_per_cpu_s"] for r in sizes), max(r["tree_rss_mb"] for r in sizes)) * 1.05)
    out += _axis(x0, TOP, ymax, "hands/CPU-s · MB")
    xmax = max(r["hands"] for r in sizes)
    span = PANEL_W - 70

    def point(r: dict, key: str) -> tuple[float, float]:
        return x0 + 10 + span * r["hands"] / xmax, BOTTOM - (BOTTOM - TOP) * r[key] / ymax

    for key, colour in (("hands_per_cpu_s", "#4e79a7"), ("tree_rss_mb", "#e15759")):
        pts = [point(r, key) for r in sizes]
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                   + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
        for (x, y), r in zip(pts, sizes, strict=True):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
            out.append(_text(x, y - 6, f"{r[key]:.0f}", 10))
    for r in sizes:
        x, _ = point(r, "hands_per_cpu_s")
        out.append(_text(x, BOTTOM + 14, f"{r['hands']}", 10))
    out.append(_text(x0 + PANEL_W / 2 - 20, BOTTOM + 28, "hands in the corpus", 10))
    out.append(f'<rect x="{x0 + 10}" y="{BOTTOM + 36}" width="10" height="10" fill="#4e79a7"/>')
    out.append(_text(x0 + 24, BOTTOM + 45, "hands per CPU second", 10, "start"))
    out.append(f'<rect x="{x0 + 150}" y="{BOTTOM + 36}" width="10" height="10" fill="#e15759"/>')
    out.append(_text(x0 + 164, BOTTOM + 45, "peak MB (all processes)", 10, "start"))
    return out


ENGINE_COLOURS = (("compiled", "#4e79a7", "compiled (default install)"), ("pure", "#bab0ac", "pure (no compiler)"))


def engines_panel(x0: float, table: list[dict]) -> list[str]:
    """``table``: issue 28's rows (``bench.__main__.table28``): hands/s bars per engine, and score's ratio."""
    out = [_text(x0 + PANEL_W / 2 - 20, 30, "compiled vs pure, hands/s", 14, font_weight="bold")]
    bars = [r for r in table if r["key"] != "score"]
    values = [r[e] for r in bars for e, _, _ in ENGINE_COLOURS if r.get(e)]
    ymax = _nice(max(values + [1]) * 1.05)
    out += _axis(x0, TOP, ymax, "hands/s")
    labels = {"mcr": "MCR", "longgang": "龙港", "guangdong": "广东", "audit": "audit -w 1"}
    bw = 24
    for i, r in enumerate(bars):
        x = x0 + 12 + i * 64
        for j, (engine, colour, label) in enumerate(ENGINE_COLOURS):
            v = r.get(engine)
            if v is None:
                continue
            h = (BOTTOM - TOP) * v / ymax
            out.append(f'<rect x="{x + j * (bw + 2)}" y="{BOTTOM - h:.1f}" width="{bw}" height="{h:.1f}" '
                       f'fill="{colour}"><title>{escape(r["figure"])}, {label}: {v:.0f}</title></rect>')
            out.append(_text(x + j * (bw + 2) + bw / 2, BOTTOM - h - 4, f"{v:.0f}", 9))
        out.append(_text(x + bw, BOTTOM + 14, labels.get(r["key"], r["key"]), 11))
    score = next((r for r in table if r["key"] == "score"), None)
    if score is not None:
        ratios = ", ".join(f"{label.split(' ')[0]} {score[e]:.2f}×" for e, _, label in ENGINE_COLOURS
                           if score.get(e) is not None)
        out.append(_text(x0 + PANEL_W / 2 - 20, BOTTOM + 28, f"score vs pymahjonggb: {ratios or '—'}", 10))
    for j, (_, colour, label) in enumerate(ENGINE_COLOURS):
        out.append(f'<rect x="{x0 + 10 + j * 150}" y="{BOTTOM + 36}" width="10" height="10" fill="{colour}"/>')
        out.append(_text(x0 + 24 + j * 150, BOTTOM + 45, label, 10, "start"))
    return out


def svg(stages: list[dict], workers: list[dict], sizes: list[dict], note: str = "",
        table: list[dict] | None = None) -> str:
    """The chart; ``table`` (issue 28's rows) adds the fourth panel."""
    width = W4 if table else W
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{H}" viewBox="0 0 {width} {H}" '
             'font-family="sans-serif">', f'<rect width="{width}" height="{H}" fill="white"/>']
    parts += stages_panel(60, stages)
    parts += workers_panel(420, workers)
    parts += sizes_panel(780, sizes)
    if table:
        parts += engines_panel(1140, table)
    if note:
        parts.append(_text(width / 2, H - 6, note, 10, fill="#555"))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Redraw the chart from a run's figures: ``python -m bench.chart FIGURES.json OUT.svg``."""
    import argparse
    import json
    from pathlib import Path

    ap = argparse.ArgumentParser(prog="python -m bench.chart", description=main.__doc__)
    ap.add_argument("figures", help="bench/corpus/last-run.json of a `make bench` run")
    ap.add_argument("out", help="the SVG to write")
    ap.add_argument("--note", default="", help="a line of text under the chart")
    args = ap.parse_args(argv)
    r = json.loads(Path(args.figures).read_text())
    workers = [a for a in r["audits"] if a["name"].startswith("mcr --workers") and a.get("engine", "compiled")
               == "compiled"]
    Path(args.out).write_text(svg(r["stages"], workers, r["sizes"], args.note, r.get("table")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
