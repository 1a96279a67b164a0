"""The report as a user sees it: rendered by headless Chromium after its script ran.

Needs the Debian package ``chromium`` (/usr/bin/chromium); skipped without it. Set
``REPORT_SCREENSHOT=PATH`` to also keep the screenshot (docs/report.png is made so).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mahjong_audit.pipeline.report import build
from tests import report_fixtures as F
from tests.browser import CHROMIUM, FLAGS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (apt-get install chromium)"),
]

def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    profile.mkdir()
    return subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=90, check=True)


class Dom(HTMLParser):
    """What the tests look at in the DOM Chromium dumps."""

    def __init__(self) -> None:
        super().__init__()
        self.svgs = 0
        self.body: dict[str, str | None] = {}
        self.rows: list[dict[str, str | None]] = []  # rows of the findings table
        self.kind_options: list[str] = []
        self.open_details: list[str] = []
        self.shown = ""
        self._in: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svgs += 1
        elif tag == "body":
            self.body = a
        elif tag == "table" and a.get("id") == "findings":
            self._in.append("findings")
        elif tag == "tr" and "findings" in self._in and "data-kind" in a:
            self.rows.append(a)
        elif tag == "select" and a.get("id") == "kind-filter":
            self._in.append("kinds")
        elif tag == "option" and "kinds" in self._in and a.get("value"):
            self.kind_options.append(a["value"])
        elif tag == "details" and "open" in a:
            self.open_details.append(a.get("id") or "")
        elif tag == "span" and a.get("id") == "shown-count":
            self._in.append("shown")

    def handle_endtag(self, tag):
        if self._in and {"table": "findings", "select": "kinds", "span": "shown"}.get(tag) == self._in[-1]:
            self._in.pop()

    def handle_data(self, data):
        if self._in and self._in[-1] == "shown":
            self.shown += data


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("browser")
    logs = F.write_logs(folder)
    db = folder / "audit.duckdb"
    F.build_db(db, logs)
    out = folder / "report.html"
    out.write_text(build(str(db), logs=[str(logs)]).html, encoding="utf-8")
    return out


def dom(tmp_path: Path, report: Path, fragment: str = "") -> Dom:
    d = Dom()
    d.feed(chromium(tmp_path, "--dump-dom", report.as_uri() + fragment).stdout)
    return d


def test_after_the_script_ran_charts_and_the_findings_table_are_there(report, tmp_path):
    d = dom(tmp_path, report)
    assert d.body.get("data-ready") == "yes"  # the script ran to its end
    assert d.svgs == 6
    assert len(d.rows) == 13 and not any("hidden" in r for r in d.rows)
    # the kind filter's options are built by the script from the rows
    assert d.kind_options == ["continuity", "false_win", "invalid_log", "outcome_mismatch",
                              "payout_mismatch", "score_mismatch"]
    assert 'value="false_win"' not in report.read_text(encoding="utf-8")
    assert d.shown == "13 of 13 shown"


def test_a_kind_link_filters_the_findings_table(report, tmp_path):
    d = dom(tmp_path, report, "#kind=payout_mismatch")
    visible = [r["data-kind"] for r in d.rows if "hidden" not in r]
    assert visible == ["payout_mismatch"] * 8
    assert d.shown == "8 of 13 shown"


def test_a_replay_link_opens_that_hand(report, tmp_path):
    d = dom(tmp_path, report, "#hand-0-s3")
    assert d.open_details == ["hand-0"]


def test_screenshot(report, tmp_path):
    png = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={png}", "--window-size=1280,2000", report.as_uri())
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 2000)
    keep = os.environ.get("REPORT_SCREENSHOT")
    if keep:
        shutil.copyfile(png, keep)


# ----------------------------------------------------------------- charts as drawn (issue 25)

PROBE = """<script>
(function () {
  function rel(r, box, sx, sy) {
    return {l: (r.left - box.left) * sx, t: (r.top - box.top) * sy,
            r: (r.right - box.left) * sx, b: (r.bottom - box.top) * sy};
  }
  var out = [];
  document.querySelectorAll('svg').forEach(function (svg) {
    var box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    var sx = vb.width / box.width, sy = vb.height / box.height;
    var chart = {title: (svg.querySelector('title') || {}).textContent || '', w: vb.width, h: vb.height,
                 texts: [], swatches: []};
    svg.querySelectorAll('text').forEach(function (t) {
      var o = rel(t.getBoundingClientRect(), box, sx, sy);
      o.text = t.textContent; o.legend = !!t.closest('g.legend');
      chart.texts.push(o);
    });
    svg.querySelectorAll('g.legend rect').forEach(function (s) {
      var o = rel(s.getBoundingClientRect(), box, sx, sy);
      o.fill = s.getAttribute('fill');
      chart.swatches.push(o);
    });
    out.push(chart);
  });
  var pre = document.createElement('pre');
  pre.id = 'layout-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


@pytest.fixture(scope="module")
def sample_layout(tmp_path_factory) -> list[dict]:
    """Every chart of the report on sample_logs (13 finding kinds over 12 weeks, Chinese
    item names, a long player name), as Chromium lays it out."""
    import json

    from mahjong_audit.pipeline.cli import main

    folder = tmp_path_factory.mktemp("layout")
    db = folder / "audit.duckdb"
    assert main(["audit", str(Path(__file__).parent.parent / "sample_logs"), "--db", str(db), "--in-memory"]) == 0
    page = folder / "report.html"
    page.write_text(build(str(db)).html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dumped = chromium(folder, "--window-size=1280,2000", "--dump-dom", page.as_uri()).stdout
    text = dumped.split('<pre id="layout-probe">', 1)[1].split("</pre>", 1)[0]
    import html

    return json.loads(html.unescape(text))


def _overlap(a: dict, b: dict, slack: float = 0.5) -> bool:
    return min(a["r"], b["r"]) - max(a["l"], b["l"]) > slack and min(a["b"], b["b"]) - max(a["t"], b["t"]) > slack


def test_every_label_lies_inside_its_charts_view_box(sample_layout):
    assert len(sample_layout) >= 10
    for chart in sample_layout:
        for t in chart["texts"]:
            inside = t["l"] >= -0.5 and t["t"] >= -0.5 and t["r"] <= chart["w"] + 0.5 and t["b"] <= chart["h"] + 0.5
            assert inside, f"{chart['title']}: {t['text']!r} at {t} is cut by the box {chart['w']}×{chart['h']}"


def test_legends_give_each_series_its_own_colour_and_room(sample_layout):
    weekly = next(c for c in sample_layout if c["title"] == "Findings per week, by kind")
    assert len(weekly["swatches"]) >= 8  # the samples' many kinds, each in the legend
    for chart in (c for c in sample_layout if c["swatches"]):
        fills = [s["fill"] for s in chart["swatches"]]
        assert len(set(fills)) == len(fills), f"{chart['title']}: two series share a colour: {fills}"
        labels = [t for t in chart["texts"] if t["legend"]]
        assert len(labels) == len(fills)
        for i, t in enumerate(labels):
            for s in chart["swatches"]:
                assert not _overlap(t, s), f"{chart['title']}: {t['text']!r} runs over a swatch"
            for u in labels[i + 1:]:
                assert not _overlap(t, u), f"{chart['title']}: {t['text']!r} overlaps {u['text']!r}"


def test_chinese_labels_are_drawn_in_a_cjk_font_of_the_stack():
    from mahjong_audit.pipeline.report import charts

    stack = [f.strip().strip("'") for f in charts.FONT_FAMILY.split(",")]
    for font in ("PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Zen Hei"):
        assert font in stack
    assert stack[-1] == "sans-serif" and stack.index("Microsoft YaHei") < stack.index("sans-serif")
    assert charts.FONT_FAMILY in __import__("mahjong_audit.pipeline.report.render", fromlist=["CSS"]).CSS
