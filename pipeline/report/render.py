"""One self-contained HTML page from the report data: styles, script and charts inline.

Nothing is fetched when the page is opened: charts are inline SVG (``charts``), the
only script is the small filter below, and there are no images or fonts to load. Every
string taken from the database or the logs goes through ``html.escape``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from html import escape

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, MeldKind
from mahjong_audit.pipeline.report import charts, collusion_view
from mahjong_audit.pipeline.report.chips import render_chips
from mahjong_audit.pipeline.report.queries import WIN_TYPES, FindingInfo, ReportData
from mahjong_audit.pipeline.report.replay_view import HandView, SeatView, Snapshot
from mahjong_audit.pipeline.words import count

HandKey = tuple[str, int]

WIN_TYPE_LABELS = {
    "self_drawn": "self-drawn (自摸)",
    "discard": "on a discard (点和)",
    "robbing_kong": "robbing a kong (抢杠)",
    "kong_replacement": "kong replacement (杠上开花)",
}
MAX_FAN_BARS = 25
MAX_RUNS = 20

CSS = """
:root { --err:#c23b3b; --warn:#d9a02b; --info:#6a8fbf; --ink:#1d232b; --muted:#5f6b78; --line:#d9dee4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 FONT_FAMILY; color: var(--ink);
       background: #f4f6f8; }
header { background: #1f3a57; color: #fff; padding: 18px 32px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: #c9d6e3; }
main { max-width: 1220px; margin: 0 auto; padding: 16px 32px 48px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 14px 20px; margin: 16px 0; }
h2 { font-size: 18px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { flex: 1 1 150px; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; background: #fafbfc; }
.card b { display: block; font-size: 24px; }
.card span { color: var(--muted); font-size: 12px; }
.card.bad b { color: var(--err); }
.verdict { font-size: 16px; margin: 10px 0 0; }
.verdict.ok { color: #2d7a3a; } .verdict.bad { color: var(--err); }
.grid { display: flex; flex-wrap: wrap; gap: 18px; }
figure.chart { margin: 0; flex: 1 1 500px; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 4px; }
.note, .muted { color: var(--muted); font-weight: normal; font-size: 12px; }
.nodata { color: var(--muted); font-style: italic; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #eef1f4; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.sev-error td.sev { color: var(--err); font-weight: 600; }
tr.sev-warning td.sev { color: #9a6b00; font-weight: 600; }
.filters { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
.scroll { max-height: 640px; overflow: auto; border: 1px solid var(--line); }
code { font-size: 12px; }
.t { display: inline-block; min-width: 22px; padding: 0 2px; margin: 1px; border: 1px solid #b9c0c8;
     border-radius: 3px; background: #fff; text-align: center; font: 12px/18px ui-monospace, monospace; }
.t.m { color: #b02a2a; } .t.p { color: #1f5fa8; } .t.s { color: #2a7a2a; } .t.z { color: #222; background: #f3efe4; }
.t.f { color: #8a4fa0; } .t.hl { outline: 2px solid var(--warn); }
.meld { display: inline-block; margin: 0 6px 0 0; padding: 1px 3px; border: 1px dashed #9aa5b1; border-radius: 4px; }
.meld small { color: var(--muted); }
details.hand { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 6px 12px; background: #fcfcfd; }
details.hand summary { cursor: pointer; font-weight: 600; }
table.events td { border: none; padding: 1px 6px; }
tr.ev-find td { background: #fff4d6; }
tr.snap td { padding: 4px 6px 10px 24px; }
table.seats td { border-bottom: 1px solid #eceff2; }
table.seats tr.actor td { background: #fdeaea; }
.msg { color: var(--err); }
#findings { table-layout: fixed; }
#findings td { overflow-wrap: anywhere; }
table.seats td:first-child { width: 230px; }
""".replace("FONT_FAMILY", charts.FONT_FAMILY)

SCRIPT = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('#findings tbody tr'));
  var kindSel = document.getElementById('kind-filter');
  var sevSel = document.getElementById('severity-filter');
  var text = document.getElementById('text-filter');
  var shown = document.getElementById('shown-count');
  if (kindSel) {
    var kinds = {};
    rows.forEach(function (r) { kinds[r.dataset.kind] = (kinds[r.dataset.kind] || 0) + 1; });
    Object.keys(kinds).sort().forEach(function (k) {
      var o = document.createElement('option');
      o.value = k; o.textContent = k + ' (' + kinds[k] + ')';
      kindSel.appendChild(o);
    });
  }
  function apply() {
    var k = kindSel ? kindSel.value : '', s = sevSel ? sevSel.value : '';
    var q = text ? text.value.toLowerCase() : '';
    var n = 0;
    rows.forEach(function (r) {
      var ok = (!k || r.dataset.kind === k) && (!s || r.dataset.severity === s) &&
               (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    if (shown) shown.textContent = n + ' of ' + rows.length + ' shown';
  }
  function fromHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (h.indexOf('kind=') === 0 && kindSel) {
      kindSel.value = h.slice(5); apply();
      document.getElementById('drilldown').scrollIntoView();
      return;
    }
    var target = h && document.getElementById(h), el = target;
    while (el) { if (el.tagName === 'DETAILS') el.open = true; el = el.parentElement; }
    if (target) target.scrollIntoView();
  }
  [kindSel, sevSel].forEach(function (el) { if (el) el.addEventListener('change', apply); });
  if (text) text.addEventListener('input', apply);
  window.addEventListener('hashchange', fromHash);
  apply();
  fromHash();
  document.body.dataset.ready = 'yes';
})();
"""


# --------------------------------------------------------------------------- small pieces


def _e(v: object) -> str:
    return "" if v is None else escape(str(v))


def _int(n: int) -> str:
    return f"{n:,}"




def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def tile_html(t: int, *, highlight: bool = False) -> str:
    n = T.name(t)
    cls = "f" if T.is_flower(t) else n[-1]
    return f'<span class="t {cls}{" hl" if highlight else ""}">{escape(n)}</span>'


def tiles_html(ts: Sequence[int], *, sort: bool = True) -> str:
    seq = sorted(ts) if sort else list(ts)
    return "".join(tile_html(t) for t in seq) or '<span class="muted">—</span>'


def meld_html(m: Meld) -> str:
    label = {MeldKind.CHI: "chi", MeldKind.PON: "pon", MeldKind.KONG: "kong",
             MeldKind.CONCEALED_KONG: "concealed kong"}[m.kind]
    return (f'<span class="meld"><small>{label}</small> '
            + "".join(tile_html(t, highlight=(t == m.claimed)) for t in m.tiles) + "</span>")


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, num: Sequence[int] = (),
           attrs: str = "") -> str:
    head = "".join(f'<th{" class=num" if i in num else ""}>{h}</th>' for i, h in enumerate(headers))
    body = "".join(
        "<tr>" + "".join(f'<td{" class=num" if i in num else ""}>{c}</td>' for i, c in enumerate(r)) + "</tr>"
        for r in rows)
    return f"<table {attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# --------------------------------------------------------------------------- sections


def _header(data: ReportData, generated: datetime) -> str:
    run = data.runs[0] if data.runs else None
    sub = f"database <code>{_e(data.db_path)}</code> · report written {generated:%Y-%m-%d %H:%M} UTC"
    if run is not None:
        sub += (f" · last audit run {_e(run.run_id)} finished {run.finished_at:%Y-%m-%d %H:%M} UTC"
                f" with mahjong-audit {_e(run.version)} ({_e(run.runner)})")
    return f"<header><h1>Mahjong audit report</h1><p>{sub}</p></header>"


def _summary(data: ReportData) -> str:
    errors = dict(data.severities).get("error", 0)
    warnings = dict(data.severities).get("warning", 0)
    hinged = sum(c.depends_on_rules for c in data.codes)
    cards = [
        ("games", _int(data.games), False),
        ("hands", _int(data.hands), False),
        ("findings", _int(data.findings_total), data.findings_total > 0),
        ("errors / warnings", f"{_int(errors)} / {_int(warnings)}", errors > 0),
        ("hard errors / depends on house rules", f"{_int(errors - hinged)} / {_int(hinged)}", errors > hinged),
        ("rejected records", _int(data.rejected), data.rejected > 0),
        ("money at stake" + (" (all rulesets; units differ)" if len(data.rulesets) > 1 else ""),
         _int(data.payouts.money_at_stake), data.payouts.money_at_stake > 0),
    ]
    out = ['<section id="summary"><h2>Summary</h2><div class="cards">']
    for label, value, bad in cards:
        out.append(f'<div class="card{" bad" if bad else ""}"><b>{value}</b><span>{escape(label)}</span></div>')
    out.append("</div>")
    if data.missing_tables:
        out.append(f'<p class="verdict bad">The database has no {", ".join(map(escape, data.missing_tables))} '
                   "table(s); they are shown as empty. Was <code>mahjong-audit audit</code> run on it?</p>")
    if data.empty:
        out.append('<p class="verdict">The database holds no audited games: nothing to report.</p>')
    elif data.clean:
        out.append(f'<p class="verdict ok">No findings: {"the" if data.games == 1 else "all"} '
                   f"{count(data.games, 'game')} ({count(data.hands, 'hand')}) replayed cleanly, every score "
                   "and payout matched, and no record was rejected.</p>")
    else:
        text = (f"{count(data.findings_total, 'finding')} in {count(data.games_with_findings, 'game')} "
                f"of {_int(data.games)}")
        if data.rejected:
            text += f" and {count(data.rejected, 'rejected record')}"
        text += (f"; {_int(data.payouts.differing)} of {count(data.payouts.compared, 'recorded seat payout')} "
                 f"differ from the recomputed ones, by {count(data.payouts.money_at_stake, 'point')} in all.")
        out.append(f'<p class="verdict bad">{text}</p>')
    if data.rulesets:
        out.append("<h3>By ruleset</h3>")
        out.append(_table(["ruleset", "games", "hands", "wins", "draws", "money at stake (its own unit)"],
                          [[_e(r.ruleset), _int(r.games), _int(r.hands), _int(r.wins), _int(r.draws),
                            _int(r.money_at_stake)] for r in data.rulesets], num=(1, 2, 3, 4, 5)))
    if data.readings:
        out.append(_readings(data))
    if data.runs:
        run = data.runs[0]
        out.append("<h3>Audit runs</h3>")
        out.append(_table(
            ["run", "finished (UTC)", "version", "runner", "inputs", "games", "hands", "findings", "rejected"],
            [[_e(r.run_id), f"{r.finished_at:%Y-%m-%d %H:%M:%S}", _e(r.version), _e(r.runner),
              "<br>".join(f"<code>{_e(i)}</code>" for i in r.inputs), _int(r.games), _int(r.hands),
              _int(r.findings), _int(r.rejected)] for r in data.runs[:MAX_RUNS]],
            num=(5, 6, 7, 8)))
        if len(data.runs) > 1:
            shown = f" (the latest {MAX_RUNS} above)" if len(data.runs) > MAX_RUNS else ""
            out.append(f'<p class="muted">{len(data.runs)} runs wrote to this database{shown}; the figures above are the '
                       f"database's current contents (a re-run replaces the games it audits again). Latest: "
                       f"{_e(run.run_id)}.</p>")
    out.append("</section>")
    return "".join(out)


def _readings(data: ReportData) -> str:
    """The readings (house rules) each ruleset's verdicts were reached under: the options that
    differed from the defaults, and the profile given with ``--rules``."""
    rows = []
    for r in data.readings:
        if r.readings is None:
            readings = '<span class="muted">not recorded (audited by an older version)</span>'
        elif r.readings == "{}":
            readings = "the defaults"
        else:
            readings = "<br>".join(f"<code>{_e(k)} = {_e(json.dumps(v, ensure_ascii=False))}</code>"
                                   for k, v in json.loads(r.readings).items())
        profile = "—" if r.profile is None else f"<code>{_e(r.profile)}</code> ({_e((r.profile_sha256 or '')[:12])})"
        rows.append([_e(r.ruleset), readings, profile, _int(r.games)])
    return ("<h3>Readings (house rules) by ruleset</h3>"
            + _table(["ruleset", "options that differ from the defaults", "profile (--rules, SHA-256)", "games"],
                     rows, num=(3,))
            + '<p class="muted">A game\'s own <code>options</code> win over the profile, the profile over the '
              "defaults; <code>mahjong-audit rules</code> lists every option.</p>")


def _finding_charts(data: ReportData) -> str:
    severities = sorted({s for k in data.kinds for s, _ in k.by_severity},
                        key=lambda s: (list(charts.SEVERITY_COLOURS).index(s) if s in charts.SEVERITY_COLOURS else 9, s))
    series = [charts.Series(s, charts.SEVERITY_COLOURS.get(s, charts.OTHER)) for s in severities]
    rows = [(k.kind, [dict(k.by_severity).get(s, 0) for s in severities]) for k in data.kinds]
    kinds_chart = charts.hbar("Findings by kind", rows, series=series or [charts.Series("", charts.PALETTE[0])],
                              links={k.kind: f"#kind={k.kind}" for k in data.kinds},
                              note="click a bar to list its findings", empty="no findings")
    bins = [(b.lo, b.hi, b.count) for b in data.payouts.bins]
    hist = charts.histogram(
        "Payout differences (recorded − recomputed, per seat and hand)", bins, x_label="points",
        note=f"{_int(data.payouts.differing)} differing of {_int(data.payouts.compared)} compared",
        empty="every recorded payout matches the recomputed one" if data.payouts.compared else "no payouts compared")
    out = ['<section id="charts"><h2>Findings and payouts</h2><div class="grid">', kinds_chart, hist, "</div>"]
    if data.codes:
        out.append("<h3>Finding codes</h3>")
        out.append(_table(["kind", "code", "severity", "findings", "games", "hard", "depends on house rules"],
                          [[f'<a href="#kind={_e(c.kind)}">{_e(c.kind)}</a>', f"<code>{_e(c.code)}</code>",
                            _e(c.severity), _int(c.count), _int(c.games),
                            _int(c.count - c.depends_on_rules) if c.severity == "error" else "",
                            _int(c.depends_on_rules) if c.severity == "error" else ""]
                           for c in data.codes], num=(3, 4, 5, 6)))
        if any(c.depends_on_rules for c in data.codes):
            out.append('<p class="muted">An error that <em>depends on house rules</em> goes away under a '
                       "documented alternative reading of the rules (the drill-down names it; "
                       "<code>mahjong-audit calibrate</code> tells which readings the platform uses); a hard one "
                       "holds under every reading.</p>")
    out.append("</section>")
    return "".join(out)


def _ruleset_charts(data: ReportData) -> str:
    rulesets = sorted({r.ruleset for r in data.rulesets} | {i.ruleset for i in data.items}
                      | {w.ruleset for w in data.win_types})
    out = ['<section id="rulesets"><h2>Scoring and wins by ruleset</h2>']
    if not rulesets:
        out.append('<p class="nodata">No hands in the database.</p>')
    last = dict(data.last_tile_wins)
    scored = {s.ruleset: s for s in data.scored}
    for rs in rulesets:
        items = [i for i in data.items if i.ruleset == rs]
        unit = "/".join(sorted({i.unit for i in items})) or "item"
        shown = items[:MAX_FAN_BARS]
        notes = [f"top {len(shown)} of {len(items)}"] if len(items) > len(shown) else []
        over = scored.get(rs)
        counted = "wins"
        if over is not None and over.seats > over.wins:  # every seat scored, not only the winner's
            counted = "seats"
            notes.insert(0, f"{over.seats} seats scored in {over.wins} wins: every seat of a hand is scored")
        fan_chart = charts.hbar(
            f"{rs}: scoring items ({unit}) — {counted} that score each",
            [(i.item, [i.hands]) for i in shown], note="; ".join(notes), empty="no scored wins")
        wt = {w.win_type: w.count for w in data.win_types if w.ruleset == rs}
        rows = [(WIN_TYPE_LABELS.get(k, k), [wt.get(k, 0)]) for k in WIN_TYPES]
        rows += [(k, [v]) for k, v in sorted(wt.items()) if k not in WIN_TYPES]
        rows.append(("on the last tile (海底/河底)", [last.get(rs, 0)]))
        win_chart = charts.hbar(f"{rs}: win types", rows, series=[charts.Series("", charts.PALETTE[2])],
                                note="last-tile wins are also counted under their type", empty="no wins")
        out.append(f'<h3>{_e(rs)}</h3><div class="grid">{fan_chart}{win_chart}</div>')
    out.append("</section>")
    return "".join(out)


def _trends(data: ReportData) -> str:
    weeks = sorted({w.week for w in data.weekly_findings} | {w.week for w in data.weekly_stake})
    labels = [f"{w:%Y-%m-%d}" for w in weeks]
    out = ['<section id="trends"><h2>Over time</h2>']
    if not weeks:
        out.append('<p class="nodata">No game in the database has a start time (<code>started_at</code>), '
                   "so there is nothing to show over time.</p></section>")
        return "".join(out)

    def stacked(counts, order) -> list[tuple[charts.Series, list[float]]]:
        by = {(c.week, c.series): c.value for c in counts}
        return charts.stacked_series([(name, [by.get((w, name), 0) for w in weeks]) for name in order])

    totals: dict[str, int] = {}
    for c in data.weekly_findings:
        totals[c.series] = totals.get(c.series, 0) + c.value
    kinds = sorted(totals, key=lambda k: (-totals[k], k))
    untimed = data.untimed_games
    note = (f"{count(untimed, 'game')} without a start time {'is' if untimed == 1 else 'are'} left out"
            if untimed else "")
    findings = charts.timeline("Findings per week, by kind", labels, stacked(data.weekly_findings, kinds),
                               note=note, empty="no findings in dated games")
    rulesets = sorted({c.series for c in data.weekly_stake})
    stake = charts.timeline("Money at stake per week (Σ |recorded − recomputed|), by ruleset", labels,
                            stacked(data.weekly_stake, rulesets),
                            note="each ruleset in its own unit", empty="every dated payout matches")
    out.append(f'<p class="muted">Weeks start on Monday, in UTC; a hand counts at its start time.</p>'
               f'<div class="grid">{findings}{stake}</div></section>')
    return "".join(out)


def _players(data: ReportData) -> str:
    out = ['<section id="players"><h2>Players</h2>']
    if not data.players:
        out.append('<p class="nodata">No players in the database.</p></section>')
        return "".join(out)
    out.append('<p class="muted">One table per ruleset (their scores are in different units). '
               "Worst offenders first: most false wins (诈胡) and dead hands (相公), "
               "then lowest net score. Rates are per hand played.</p>")
    shown = len({p.player for p in data.players})
    if shown < data.players_total:
        out.append(f'<p class="muted">Showing {_int(shown)} of {_int(data.players_total)} players (the worst '
                   "offenders of each ruleset); the <code>player_stats</code> view has them all.</p>")
    for rs in sorted({p.ruleset for p in data.players}):
        rows = [[_e(p.player) or '<span class="muted">(unnamed)</span>', _int(p.games), _int(p.hands),
                 _pct(p.win_rate), _pct(p.deal_in_rate), f"{p.net_score:+,}", _int(p.false_wins),
                 _int(p.dead_hands)]
                for p in data.players if p.ruleset == rs]
        out.append(f'<h3>{_e(rs)}</h3><div class="scroll">')
        out.append(_table(["player", "games", "hands", "win rate", "deal-in rate", "net score",
                           "false wins 诈胡", "dead hands 相公"], rows, num=(1, 2, 3, 4, 5, 6, 7)))
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def _where(f: FindingInfo) -> str:
    if f.game_id is None:
        return f"<code>{_e(f.source_file)}{'' if f.source_line is None else ':' + str(f.source_line)}</code>"
    return _e(f.game_id)


def _findings(data: ReportData, anchors: Mapping[HandKey, str], replay_note: str) -> str:
    out = ['<section id="drilldown"><h2>Findings</h2>']
    if not data.findings:
        out.append('<p class="nodata">No findings.</p></section>')
        return "".join(out)
    if len(data.findings) < data.findings_total:
        out.append(f'<p class="muted">Showing the first {_int(len(data.findings))} of '
                   f"{_int(data.findings_total)} findings (ordered by game, hand and seq); "
                   "query the <code>findings</code> table for the rest.</p>")
    out.append(f'<p class="muted">{replay_note}</p>')
    sevs = sorted({f.severity for f in data.findings})
    out.append('<div class="filters"><label>kind <select id="kind-filter"><option value="">all kinds</option>'
               '</select></label><label>severity <select id="severity-filter"><option value="">all</option>'
               + "".join(f'<option value="{_e(s)}">{_e(s)}</option>' for s in sevs)
               + '</select></label><label>text <input id="text-filter" type="search" placeholder="game, player, '
               'message…"></label><span id="shown-count" class="muted"></span></div>')
    widths = (15, 4, 4, 9, 17, 6, 9, 9, 21, 6)  # per cent; the kind is the code's prefix
    out.append('<div class="scroll"><table id="findings"><colgroup>'
               + "".join(f'<col style="width:{w}%">' for w in widths)
               + '</colgroup><thead><tr><th>game</th><th class=num>hand</th>'
               "<th class=num>seq</th><th>seat</th><th>code</th><th>severity</th><th>expected</th>"
               "<th>recorded</th><th>message</th><th>replay</th></tr></thead><tbody>")
    for f in data.findings:
        key = (f.game_id, f.hand_no) if f.game_id is not None and f.hand_no is not None else None
        anchor = anchors.get(key) if key else None
        link = ""
        if anchor:
            target = f"{anchor}-s{f.seq}" if f.seq is not None else f"{anchor}-end"
            link = f'<a href="#{target}">replay</a>'
        seat = "" if f.seat is None else str(f.seat) + (f" {_e(f.player)}" if f.player else "")
        out.append(
            f'<tr class="sev-{_e(f.severity)}" data-kind="{_e(f.kind)}" data-severity="{_e(f.severity)}">'
            f"<td>{_where(f)}</td><td class=num>{_e(f.hand_no)}</td><td class=num>{_e(f.seq)}</td>"
            f"<td>{seat}</td><td><code>{_e(f.code)}</code></td>"
            f'<td class="sev">{_e(f.severity)}{_depends_note(f)}</td><td>{_e(f.expected)}</td>'
            f"<td>{_e(f.recorded)}</td><td>{_e(f.message)}{_depends_readings(f)}</td><td>{link}</td></tr>")
    out.append("</tbody></table></div></section>")
    return "".join(out)


def _depends_note(f: FindingInfo) -> str:
    return "<br><small>depends on house rules</small>" if f.depends_on else ""


def _depends_readings(f: FindingInfo) -> str:
    if not f.depends_on:
        return ""
    return "<br><small>clears under " + ", ".join(f"<code>{_e(r)}</code>" for r in f.depends_on) + "</small>"


def _expected_recorded(f: FindingInfo) -> str:
    parts = [f"{label} {_e(v)}" for label, v in (("expected", f.expected), ("recorded", f.recorded)) if v is not None]
    return f" ({', '.join(parts)})" if parts else ""


def _seats_html(view: HandView, snap: Snapshot, actors: set[int]) -> str:
    rows = []
    for sv in snap.seats:
        rows.append(_seat_row(view, sv, sv.seat in actors))
    return ('<table class="seats"><thead><tr><th>seat</th><th>concealed</th><th>melds</th><th>flowers</th>'
            "<th>discards</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _seat_label(view: HandView, seat: int) -> str:
    wind = "ESWN"[(seat - view.dealer) % 4]
    player = view.players[seat] if seat < len(view.players) else ""
    return f"{seat} {wind}{' ' + _e(player) if player else ''}"


def _seat_row(view: HandView, sv: SeatView, actor: bool) -> str:
    dead = f' <span class="msg">dead ({_e(sv.dead)})</span>' if sv.dead else ""
    return (f'<tr{" class=actor" if actor else ""}><td>{_seat_label(view, sv.seat)}{dead}</td>'
            f"<td>{tiles_html(sv.concealed)}</td><td>{''.join(meld_html(m) for m in sv.melds) or '—'}</td>"
            f"<td>{tiles_html(sv.flowers)}</td><td>{tiles_html(sv.discards, sort=False)}</td></tr>")


def _hand_html(anchor: str, view: HandView, findings: Sequence[FindingInfo]) -> str:
    by_seq: dict[int | None, list[FindingInfo]] = {}
    for f in findings:
        by_seq.setdefault(f.seq, []).append(f)
    snaps = {s.seq: s for s in view.snapshots}
    out = [f'<details class="hand" id="{anchor}"><summary>{_e(view.game_id)} · hand {view.hand_no} '
           f"· {_e(view.ruleset)} · round {_e(view.round_wind)}, dealer seat {view.dealer} "
           f'<span class="muted">({count(len(findings), "finding")})</span></summary>']
    if view.wildcard_indicator is not None:
        out.append(f"<p>wild-tile indicator {tile_html(view.wildcard_indicator)}</p>")
    out.append("<h3>Deal</h3><table class=seats><tbody>")
    for s, d in enumerate(view.deal):
        out.append(f"<tr><td>{_seat_label(view, s)}</td><td>{tiles_html(d)}</td></tr>")
    out.append("</tbody></table><h3>Events</h3><table class=events><tbody>")

    def finding_block(seq: int | None, fs: list[FindingInfo]) -> str:
        snap = snaps.get(seq)
        msgs = "".join(f'<div class="msg">{_e(f.code)}: {_e(f.message)}{_expected_recorded(f)}</div>' for f in fs)
        where = f"after seq {seq}" if seq is not None else "at the end of the hand"
        body = _seats_html(view, snap, {f.seat for f in fs if f.seat is not None}) if snap else ""
        sid = f"{anchor}-s{seq}" if seq is not None else f"{anchor}-end"
        return f'<tr class="snap" id="{sid}"><td colspan="3">{msgs}<div class="muted">tiles {where}:</div>{body}</td></tr>'

    for ev in view.events:
        hit = ev.seq in by_seq
        out.append(f'<tr{" class=ev-find" if hit else ""}><td class=num>{ev.seq}</td>'
                   f"<td>seat {ev.seat}</td><td>{_e(ev.text)}</td></tr>")
        if hit:
            out.append(finding_block(ev.seq, by_seq[ev.seq]))
    known = {ev.seq for ev in view.events}
    for seq, fs in sorted(by_seq.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        if seq not in known:
            out.append(finding_block(seq, fs))
    out.append("</tbody></table></details>")
    return "".join(out)


def _replays(data: ReportData, views: Mapping[HandKey, HandView | str], anchors: Mapping[HandKey, str]) -> str:
    if not anchors:
        return ""
    by_hand: dict[HandKey, list[FindingInfo]] = {}
    for f in data.findings:
        if f.game_id is not None and f.hand_no is not None:
            by_hand.setdefault((f.game_id, f.hand_no), []).append(f)
    out = ['<section id="replays"><h2>Replays of hands with findings</h2>']
    for key, anchor in anchors.items():
        view = views.get(key)
        if isinstance(view, HandView):
            out.append(_hand_html(anchor, view, by_hand.get(key, [])))
        else:
            out.append(f'<details class="hand" id="{anchor}"><summary>{_e(key[0])} · hand {key[1]}</summary>'
                       f'<p class="nodata">{_e(view or "no replay")}</p></details>')
    out.append("</section>")
    return "".join(out)


# --------------------------------------------------------------------------- page


def render(data: ReportData, views: Mapping[HandKey, HandView | str], *, replay_note: str,
           generated: datetime, collusion: collusion_view.CollusionData | None = None) -> str:
    """The whole page. ``views`` maps (game_id, hand_no) to a replay or to why there is none;
    hands not in it get no replay link."""
    anchors = {key: f"hand-{i}" for i, key in enumerate(views)}
    body = "".join([
        _header(data, generated),
        "<main>",
        _summary(data),
        _finding_charts(data),
        _ruleset_charts(data),
        _trends(data),
        _players(data),
        collusion_view.render(collusion, anchors),
        render_chips(data.chips),
        _findings(data, anchors, replay_note),
        _replays(data, views, anchors),
        "</main>",
    ])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
            f"<title>Mahjong audit report — {_e(data.db_path)}</title><style>{CSS}</style></head>"
            f"<body>{body}<script>{SCRIPT}</script></body></html>\n")
