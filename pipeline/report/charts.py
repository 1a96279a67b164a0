"""Charts as inline SVG strings: no JavaScript library, nothing fetched.

Three shapes cover the report: horizontal bars (optionally stacked by series) for counts
by category, vertical bars for a histogram over integer bins, and vertical bars over time
(stacked by series) for trends. Every label taken from the data is escaped here; callers
pass plain text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

#: the page's fonts: the system's own, then a CJK font of each platform (macOS, Windows,
#: Linux desktops), so Chinese never falls to boxes where one of them is installed
FONT_FAMILY = ("system-ui, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', "
               "'Source Han Sans SC', 'WenQuanYi Zen Hei', 'Noto Sans', sans-serif")
FONT = f"font-family:{FONT_FAMILY.replace(', ', ',')};font-size:12px"
#: colours of a chart's series, each told apart from the others; a stacked chart with more
#: series than this shows the first ones and OTHER for the rest (:func:`stacked_series`)
PALETTE = ("#3b6ea5", "#d9822b", "#5b9c5b", "#a05195", "#c23b3b", "#2a9d8f", "#d4b02a", "#8c5a3c",
           "#e07aa8", "#5cc1d6")
OTHER = "#9a9a9a"
SEVERITY_COLOURS = {"error": "#c23b3b", "warning": "#d9a02b", "info": "#6a8fbf"}
LEGEND_ROW = 18  # px per row of a legend


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str


_NARROW = frozenset("iIjl.,:;|!'`")
_SLIM = frozenset("()[]{}frt -")


def _char_width(c: str) -> float:
    if unicodedata.east_asian_width(c) in "WF":
        return 12.0
    if c in _NARROW:
        return 4.0
    if c in _SLIM:
        return 5.5
    if c in "mwMW":
        return 12.0
    return 8.8 if c.isupper() else 7.7


def _text_width(s: str) -> float:
    """Rendered width in px at 12px, on the wide side (a label is laid out in this much room):
    CJK glyphs about twice a Latin one."""
    return sum(_char_width(c) for c in s)


def stacked_series(named: Sequence[tuple[str, Sequence[float]]]) -> list[tuple[Series, list[float]]]:
    """Series of a stacked chart, largest first as given, each in a colour of its own: with
    more than :data:`PALETTE` holds, the first ``len(PALETTE) - 1`` and one "other (N …)"
    that sums the rest."""
    if len(named) <= len(PALETTE):
        return [(Series(n, PALETTE[i]), list(v)) for i, (n, v) in enumerate(named)]
    keep, rest = named[: len(PALETTE) - 1], named[len(PALETTE) - 1:]
    other = [sum(vals) for vals in zip(*(v for _, v in rest), strict=True)]
    return ([(Series(n, PALETTE[i]), list(v)) for i, (n, v) in enumerate(keep)]
            + [(Series(f"other ({len(rest)} more)", OTHER), other)])


def _legend(series: Sequence[Series], x0: float, y0: float, room: float) -> tuple[list[str], int]:
    """A legend laid out in rows within ``room`` px from ``x0``: a swatch and its whole
    label per series, never cut, never over the next one. Returns the SVG and its height."""
    parts, x, y = [], x0, y0
    for s in series:
        w = 16 + _text_width(s.name)
        if x > x0 and x + w > x0 + room:
            x, y = x0, y + LEGEND_ROW
        parts.append(f'<g class="legend"><rect x="{x:.0f}" y="{y:.0f}" width="12" height="12" fill="{s.colour}"/>'
                     f'<text x="{x + 16:.0f}" y="{y + 10:.0f}">{escape(s.name)}</text></g>')
        x += w + 14
    return parts, (int(y - y0) + LEGEND_ROW if series else 0)


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
    label_w = max(_text_width(lbl) for lbl, _ in rows) + 12  # whole labels: a long one widens the chart
    value_w = 64
    width = max(width, int(label_w + value_w + pad + 160))
    plot_w = width - label_w - value_w - pad
    legend, legend_h = _legend(series, label_w, pad, width - label_w - pad) if len(series) > 1 else ([], 0)
    top = pad + legend_h + (4 if legend_h else 0)
    height = top + len(rows) * (bar_h + gap) + pad
    vmax = max(sum(v) for _, v in rows) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}">', f"<title>{escape(title)}</title>", *legend]
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
    legend, legend_h = _legend([s for s, _ in series], 8, top, width - 16) if len(series) > 1 else ([], 0)
    legend_h += 6 if legend_h else 0
    height = 240 + legend_h
    plot_w, plot_h = width - left - right, height - top - bottom - legend_h
    vmax = max(totals) or 1
    bw = plot_w / len(periods)
    base_y = top + legend_h + plot_h
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}">', f"<title>{escape(title)}</title>", *legend]
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
        if i % every == 0:  # centred under its bar, but never past the chart's edges
            half = _text_width(period) / 2
            cx = min(max(x + bw / 2, half + 2), width - half - 2)
            parts.append(f'<text x="{cx:.1f}" y="{base_y + 16}" text-anchor="middle">'
                         f"{escape(period)}</text>")
    parts.append("</svg>")
    return _figure("".join(parts), title, note)
