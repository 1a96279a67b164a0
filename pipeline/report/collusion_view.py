"""The report's collusion section: a money-flow heat map of the most active players per
ruleset, and each flagged pair with the behaviours that flagged it (feeding, soft play,
dumping), every flagged statistic's evidence, and the hands where the feeder dealt in to
the receiver (``mahjong_audit.pipeline.collusion`` builds the tables it reads).

A database written before these tables existed shows a note instead of the section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import duckdb

from mahjong_audit.pipeline.collusion import SETTINGS, STATISTICS
from mahjong_audit.pipeline.report.charts import FONT, _figure, _text_width
from mahjong_audit.pipeline.words import count

HandKey = tuple[str, int]


@dataclass(frozen=True, slots=True)
class FlowMatrix:
    """Points from row player to column player (each hand's losses shared out to its gainers)."""

    ruleset: str
    players: tuple[str, ...]  # the most active players, most hands first
    points: tuple[tuple[float, ...], ...]  # points[i][j]: from players[i] to players[j]


@dataclass(frozen=True, slots=True)
class PairEvidence:
    ruleset: str
    feeder: str
    receiver: str
    hands_together: int
    feeder_deal_ins: int  # in hands the receiver played
    deal_ins: int  # to the receiver
    expected: float
    p_value: float
    q_value: float
    net_flow: float
    hands: tuple[tuple[str, int, str | None], ...]  # (game_id, hand_no, winning tile) of the deal-ins, first N
    behaviours: tuple[str, ...] = ("feeding",)
    evidence: tuple[Evidence, ...] = ()  # the flagged statistics, strongest first
    explained_by: str | None = None  # a stronger flagged pair sharing a player


@dataclass(frozen=True, slots=True)
class Evidence:
    statistic: str
    trials: int
    observed: float
    expected: float | None
    p_value: float
    q_value: float


@dataclass(frozen=True, slots=True)
class CollusionData:
    available: bool  # the database has the collusion tables
    pairs: int
    pairs_tested: int
    flagged: tuple[PairEvidence, ...]
    matrices: tuple[FlowMatrix, ...]


def load(con: duckdb.DuckDBPyConnection, *, max_players: int = 12, max_pairs: int = 20,
         max_hands: int = 40) -> CollusionData:
    have = {n for (n,) in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
    if "pair_stats" not in have:
        return CollusionData(False, 0, 0, (), ())
    counts = con.execute("SELECT count(*), count(*) FILTER (WHERE tested) FROM pair_stats").fetchone()
    pairs, tested = counts if counts is not None else (0, 0)
    flagged = []
    has_evidence = "pair_evidence" in have
    evidence: dict[tuple[str, str, str], list[Evidence]] = {}
    if has_evidence:
        for r in con.execute("SELECT ruleset, player_a, player_b, statistic, trials, observed, expected, p_value, "
                             "q_value FROM pair_evidence WHERE flagged ORDER BY p_value, statistic").fetchall():
            evidence.setdefault((r[0], r[1], r[2]), []).append(
                Evidence(str(r[3]), int(r[4]), float(r[5]), None if r[6] is None else float(r[6]), float(r[7]),
                         float(r[8])))
    sql = ("SELECT ruleset, player_a, player_b, hands_together, a_deal_ins_together, deal_ins_a_to_b, "
           "expected_a_to_b, coalesce(p_value, 1), coalesce(q_value, 1), net_flow_a_to_b, behaviours, explained_by "
           "FROM pair_stats WHERE len(behaviours) > 0" if has_evidence else
           "SELECT ruleset, player_a, player_b, hands_together, a_deal_ins_together, deal_ins_a_to_b, "
           "expected_a_to_b, p_value, q_value, net_flow_a_to_b, ['feeding'], NULL FROM pair_stats WHERE flagged")
    rows = con.execute(sql).fetchall()
    strongest = {(r[0], r[1], r[2]): min((e.p_value for e in evidence.get((r[0], r[1], r[2]), ())), default=r[7])
                 for r in rows}
    rows.sort(key=lambda r: (r[11] is not None, strongest[(r[0], r[1], r[2])], r[0], r[1], r[2]))
    for r in rows[:max_pairs]:
        hands = tuple(con.execute("""
            SELECT h.game_id, h.hand_no, h.winning_tile
            FROM hands h JOIN games g USING (game_id)
            WHERE g.ruleset = ? AND h.result = 'win' AND h.win_type IN ('discard', 'robbing_kong')
              AND h.discarder IS NOT NULL
              AND coalesce(h.players, g.players[1:4])[h.discarder + 1] = ?
              AND list_contains(h.winners, list_position(coalesce(h.players, g.players[1:4]), ?) - 1)
            ORDER BY h.game_id, h.hand_no LIMIT ?""", [r[0], r[1], r[2], max_hands]).fetchall())
        flagged.append(PairEvidence(str(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), int(r[5]),
                                    float(r[6]), float(r[7]), float(r[8]), float(r[9]), hands,
                                    tuple(r[10]), tuple(evidence.get((r[0], r[1], r[2]), ())), r[11]))
    matrices = []
    for (ruleset,) in con.execute("SELECT DISTINCT ruleset FROM pair_stats ORDER BY ruleset").fetchall():
        players = tuple(p for (p,) in con.execute(
            "SELECT player FROM player_anomalies WHERE ruleset = ? AND rate_name = 'win' "
            "ORDER BY hands DESC, player LIMIT ?", [ruleset, max_players]).fetchall())
        flows = {(a, b): v for a, b, v in con.execute(
            "SELECT player_a, player_b, points_a_to_b FROM pair_stats WHERE ruleset = ? "
            "AND list_contains(?, player_a) AND list_contains(?, player_b)",
            [ruleset, list(players), list(players)]).fetchall()}
        matrices.append(FlowMatrix(ruleset, players, tuple(
            tuple(float(flows.get((a, b), 0.0)) for b in players) for a in players)))
    return CollusionData(True, int(pairs), int(tested), tuple(flagged), tuple(matrices))


def hands_to_replay(data: CollusionData, per_pair: int = 5) -> list[HandKey]:
    """The first hands of each flagged pair, to replay beside the findings' hands."""
    return [(g, h) for p in data.flagged for g, h, _ in p.hands[:per_pair]]


def heatmap(m: FlowMatrix) -> str:
    """An SVG heat map of ``m`` (row pays column); darker is more points."""
    n = len(m.players)
    title = f"{m.ruleset}: points paid, row player → column player"
    if n < 2:
        return _figure('<p class="nodata">fewer than two players</p>', title)
    cell = 34 if n <= 12 else 24
    label_w = max(_text_width(p) for p in m.players) + 10  # whole names: a long one widens the map
    # Column labels are turned 60° up from their cell: a name of width w rises 0.87·w (plus
    # the glyphs' own height) and reaches 0.5·w to the right; the map leaves that room, no more.
    rise = max(_text_width(p) for p in m.players) * 0.87 + 12
    top = rise + 6
    reach = max(label_w + j * cell + cell / 2 + 4 + 0.5 * _text_width(p) + 12 for j, p in enumerate(m.players))
    size_w, size_h = max(label_w + n * cell + 10, reach), top + n * cell + 10
    vmax = max((v for row in m.points for v in row), default=0.0) or 1.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{size_w:.0f}" height="{size_h:.0f}" '
             f'viewBox="0 0 {size_w:.0f} {size_h:.0f}" style="{FONT}"><title>{escape(title)}</title>']
    for j, p in enumerate(m.players):
        x = label_w + j * cell + cell / 2
        parts.append(f'<text transform="translate({x + 4:.1f},{top - 4:.1f}) rotate(-60)">{escape(p)}</text>')
    for i, a in enumerate(m.players):
        y = top + i * cell
        parts.append(f'<text x="{label_w - 6:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="end">{escape(a)}</text>')
        for j, b in enumerate(m.players):
            x = label_w + j * cell
            v = m.points[i][j]
            if i == j:
                fill = "#eee"
            else:
                t = v / vmax
                fill = f"rgb({int(255 - 60 * t)},{int(255 - 190 * t)},{int(255 - 190 * t)})"
            tip = f"{a} → {b}: {v:,.0f} points" if i != j else a
            parts.append(f'<rect class="cell" x="{x:.1f}" y="{y:.1f}" width="{cell - 1}" height="{cell - 1}" '
                         f'fill="{fill}"><title>{escape(tip)}</title></rect>')
            if i != j and cell >= 34 and v:
                ink = "#fff" if v / vmax > 0.6 else "#333"
                parts.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="middle" '
                             f'font-size="10" fill="{ink}">{_short(v)}</text>')
    parts.append("</svg>")
    return _figure("".join(parts), title, f"the {n} players with the most hands; hover a cell for its points")


def _short(v: float) -> str:
    return f"{v / 1000:.1f}k" if abs(v) >= 10_000 else f"{v:,.0f}"


def _fmt_p(p: float) -> str:
    return f"{p:.2e}" if p < 0.001 else f"{p:.4f}"


def render(data: CollusionData | None, anchors: Mapping[HandKey, str]) -> str:
    """The section's HTML; ``anchors`` maps a hand to its replay's id (hands without one get none)."""
    out = ['<section id="collusion"><h2>Who feeds whom</h2>']
    if data is None or not data.available:
        out.append('<p class="nodata">No <code>pair_stats</code> table: the collusion statistics are built when '
                   "an audit loads a DuckDB database (<code>--db</code>), not for a Parquet dataset alone; a "
                   "database audited by an older version gets them at its next audit.</p></section>")
        return "".join(out)
    out.append(f'<p class="muted">{data.pairs:,} ordered pairs shared a table; {data.pairs_tested:,} had the '
               f"minimum sample ({SETTINGS.min_hands_together} hands together, {SETTINGS.min_deal_ins} of the "
               f"feeder's deal-ins) and were tested: deal-ins from feeder to receiver against the number expected "
               f"if the feeder's deal-ins went to the others in proportion to their wins on discards "
               "(beta-binomial tail). Beside feeding, each pair is tested for soft play (the partner's deal-ins "
               "missing, wins and calls on the partner's discards passed up) and dumping (deal-ins worth more than "
               "the partner's other wins, or into its big hands); every statistic of every pair is one family, "
               f"flagged by Benjamini–Hochberg at a false discovery rate of {SETTINGS.fdr:.0%}. "
               "A flag is a reason to look, not a verdict: see docs/collusion.md.</p>")
    if data.matrices:
        out.append('<div class="grid">' + "".join(heatmap(m) for m in data.matrices) + "</div>")
    if not data.flagged:
        out.append('<p class="verdict ok">No pair is flagged.</p></section>')
        return "".join(out)
    out.append(f'<h3>Flagged pairs ({len(data.flagged)})</h3>')
    head = ("<tr><th>ruleset</th><th>A → B</th><th>behaviour</th><th>evidence</th><th class=num>hands together</th>"
            "<th class=num>feeder's deal-ins</th><th class=num>to the receiver</th><th class=num>expected</th>"
            "<th class=num>feeding p</th><th class=num>feeding q</th><th class=num>net points</th><th>hands</th></tr>")
    rows = []
    for p in data.flagged:
        links = []
        for g, h, tile in p.hands:
            label = f"{escape(g)} #{h}" + (f" ({escape(tile)})" if tile else "")
            anchor = anchors.get((g, h))
            links.append(f'<a href="#{anchor}">{label}</a>' if anchor else label)
        more = p.deal_ins - len(p.hands)
        hands_html = (f"<details><summary>{count(len(p.hands), 'hand')}"
                      f"{f' (of {p.deal_ins})' if more > 0 else ''}</summary>" + "<br>".join(links) + "</details>")
        behaviour = ", ".join(b.replace("_", " ") for b in p.behaviours)
        if p.explained_by:
            behaviour += f'<br><span class="muted">beside the stronger pair {escape(p.explained_by)}</span>'
        rows.append(f"<tr><td>{escape(p.ruleset)}</td><td>{escape(p.feeder)} → {escape(p.receiver)}</td>"
                    f"<td>{behaviour}</td><td>{_evidence_html(p.evidence)}</td>"
                    f"<td class=num>{p.hands_together:,}</td><td class=num>{p.feeder_deal_ins:,}</td>"
                    f"<td class=num>{p.deal_ins:,}</td><td class=num>{p.expected:.1f}</td>"
                    f"<td class=num>{_fmt_p(p.p_value)}</td><td class=num>{_fmt_p(p.q_value)}</td>"
                    f"<td class=num>{p.net_flow:+,.0f}</td><td>{hands_html}</td></tr>")
    out.append(f'<table id="pairs"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></section>')
    return "".join(out)


def _evidence_html(evidence: Sequence[Evidence]) -> str:
    items = []
    for e in evidence:
        expected = f" vs {e.expected:,.1f} expected" if e.expected is not None else ""
        tip = escape(STATISTICS[e.statistic][1], quote=True)
        items.append(f'<span title="{tip}">{escape(e.statistic.replace("_", " "))}: {e.observed:,.1f}{expected} '
                     f"of {e.trials:,} (q {_fmt_p(e.q_value)})</span>")
    return "<br>".join(items)


def ordered_keys(first: Sequence[HandKey], more: Sequence[HandKey]) -> list[HandKey]:
    """``first`` then the keys of ``more`` not in it, in order."""
    seen = dict.fromkeys(first)
    for k in more:
        seen.setdefault(k, None)
    return list(seen)
