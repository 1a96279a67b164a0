"""Charts as inline SVG strings: no JavaScript library, nothing fetched.

Three shapes cover the report: horizontal bars (optionally stacked by series) for counts
by category, vertical bars for a histogram over integer bins, and vertical bars over time
(stacked by series) for trends. Every label taken from the data is escaped here; callers
pass plain text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

FONT = "font-family:system-ui,'Noto Sans CJK SC','Noto Sans',sans-serif;font-size:12px"
PALETTE = ("#3b6ea5", "#d9822b", "#5b9c5b", "#a05195", "#c23b3b", "#7a7a7a")
SEVERITY_COLOURS = {"error": "#c23b3b", "warning": "#d9a02b", "info": "#6a8fbf"}


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str


def _text_width(s: str) -> float:
    """Rough rendered width in px at 12px: CJK glyphs are about twice a Latin one."""
    return sum(12.0 if ord(c) > 0x2E80 else 7.0 for c in s)


def _num(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"


def _figure(svg: str, title: str, note: str = "") -> str:
    cap = f"<figcaption>{escape(title)}"
    if note:
        cap += f' <span class="note">{escape(note)}</span>'
    cap += "</figcaption>"
    return f'<figure class="chart">{cap}{svg}</figure>'


def _empty(title: str, message: str) -> str:
    return (f'<figure class="chart">'
            f'<figcaption>{escape(title)}</figcaption><p class="nodata">{escape(message)}</p></figure>')


def hbar(title: str, rows: Sequence[tuple[str, Sequence[float]]], *,
         series: Sequence[Series] = (Series("", PALETTE[0]),), width: int = 520,
         links: Mapping[str, str] | None = None, note: str = "", empty: str = "nothing to show") -> str:
    """Horizontal bars, one row per (label, values); values are stacked in series order.
    ``links`` maps a label to the address its row links to."""
    if not rows or all(sum(v) == 0 for _, v in rows):
        return _empty(title, empty)
    bar_h, gap, pad = 18, 6, 8
    label_w = min(220.0, max(_text_width(lbl) for lbl, _ in rows) + 12)
    legend_h = 22 if len(series) > 1 else 0
    value_w = 64
    plot_w = width - label_w - value_w - pad
    top = pad + legend_h
    height = top + len(rows) * (bar_h + gap) + pad
    vmax = max(sum(v) for _, v in rows) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}">', f"<title>{escape(title)}</title>"]
    if legend_h:
        x = label_w
        for s in series:
            parts.append(f'<rect x="{x:.0f}" y="{pad}" width="12" height="12" fill="{s.colour}"/>'
                         f'<text x="{x + 16:.0f}" y="{pad + 10}">{escape(s.name)}</text>')
            x += 28 + _text_width(s.name)
    for i, (label, values) in enumerate(rows):
        y = top + i * (bar_h + gap)
        href = (links or {}).get(label)
        if href:
            parts.append(f'<a href="{escape(href)}">')
        parts.append(f'<text x="{label_w - 6:.0f}" y="{y + 13}" text-anchor="end">{escape(label)}</text>')
        x = label_w
        for s, v in zip(series, values, strict=False):
            if v <= 0:
                continue
            w = max(1.0, plot_w * v / vmax)
            tip = f"{label}: {_num(v)}" + (f" {s.name}" if s.name else "")
            parts.append(f'<rect class="bar" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                         f'fill="{s.colour}"><title>{escape(tip)}</title></rect>')
            x += w
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 13}" fill="#333">{escape(_num(sum(values)))}</text>')
        if href:
            parts.append("</a>")
    parts.append("</svg>")
    return _figure("".join(parts), title, note)


def histogram(title: str, bins: Sequence[tuple[int, int, int]], *, x_label: str, width: int = 520,
              note: str = "", empty: str = "nothing to show") -> str:
    """Vertical bars over integer bins ``(lo, hi_exclusive, count)``."""
    if not bins or all(c == 0 for _, _, c in bins):
        return _empty(title, empty)
    left, right, top, bottom = 44, 24, 12, 44
    height = 240
    plot_w, plot_h = width - left - right, height - top - bottom
    cmax = max(c for _, _, c in bins)
    bw = plot_w / len(bins)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}">', f"<title>{escape(title)}</title>",
             f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#888"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>',
             f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{cmax}</text>',
             f'<text x="{left - 6}" y="{top + plot_h}" text-anchor="end">0</text>']
    every = max(1, -(-len(bins) // 8))
    for i, (lo, hi, c) in enumerate(bins):
        x = left + i * bw
        h = plot_h * c / cmax if cmax else 0
        label = str(lo) if hi - lo == 1 else f"{lo}…{hi - 1}"
        colour = PALETTE[1] if hi <= 0 else PALETTE[0]
        if c:
            parts.append(f'<rect class="bar" x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(1.0, bw - 2):.1f}" '
                         f'height="{h:.1f}" fill="{colour}"><title>{escape(label)}: {c}</title></rect>')
        if i % every == 0:  # bin edges, not centres: the value a bar starts at
            parts.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="#888"/>'
                         f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{escape(str(lo))}</text>')
    if len(bins) % every == 0:
        parts.append(f'<text x="{left + plot_w:.1f}" y="{top + plot_h + 16}" text-anchor="middle">'
                     f"{escape(str(bins[-1][1]))}</text>")
    parts.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 8}" text-anchor="middle" fill="#555">'
                 f"{escape(x_label)}</text></svg>")
    return _figure("".join(parts), title, note)


def timeline(title: str, periods: Sequence[str], series: Sequence[tuple[Series, Sequence[float]]], *,
             width: int = 520, note: str = "", empty: str = "nothing to show") -> str:
    """Vertical bars over time, one per period, stacked by series (in order)."""
    totals = [sum(vals[i] for _, vals in series) for i in range(len(periods))]
    if not periods or not any(totals):
        return _empty(title, empty)
    left, right, top, bottom = 52, 16, 12, 44
    legend_rows = -(-len(series) // 4) if len(series) > 1 else 0
    legend_h = legend_rows * 18
    height = 240 + legend_h
    plot_w, plot_h = width - left - right, height - top - bottom - legend_h
    vmax = max(totals) or 1
    bw = plot_w / len(periods)
    base_y = top + legend_h + plot_h
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}">', f"<title>{escape(title)}</title>"]
    for k, (s, _) in enumerate(series if legend_rows else ()):
        x, ly = left + (k % 4) * (plot_w / 4), top + (k // 4) * 18
        parts.append(f'<rect x="{x:.0f}" y="{ly}" width="12" height="12" fill="{s.colour}"/>'
                     f'<text x="{x + 16:.0f}" y="{ly + 10}">{escape(s.name)}</text>')
    parts += [f'<line x1="{left}" y1="{base_y}" x2="{width - right}" y2="{base_y}" stroke="#888"/>',
              f'<line x1="{left}" y1="{base_y - plot_h}" x2="{left}" y2="{base_y}" stroke="#888"/>',
              f'<text x="{left - 6}" y="{base_y - plot_h + 10}" text-anchor="end">{escape(_num(vmax))}</text>',
              f'<text x="{left - 6}" y="{base_y}" text-anchor="end">0</text>']
    every = max(1, -(-len(periods) // 6))
    for i, period in enumerate(periods):
        x = left + i * bw
        y = float(base_y)
        for s, vals in series:
            v = vals[i]
            if v <= 0:
                continue
            h = plot_h * v / vmax
            y -= h
            tip = f"{period}: {_num(v)}" + (f" {s.name}" if s.name else "")
            parts.append(f'<rect class="bar" x="{x + 1:.1f}" y="{y:.1f}" width="{max(1.0, bw - 2):.1f}" '
                         f'height="{h:.1f}" fill="{s.colour}"><title>{escape(tip)}</title></rect>')
        if i % every == 0:
            parts.append(f'<text x="{x + bw / 2:.1f}" y="{base_y + 16}" text-anchor="middle">'
                         f"{escape(period)}</text>")
    parts.append("</svg>")
    return _figure("".join(parts), title, note)
