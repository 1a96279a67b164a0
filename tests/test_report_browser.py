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
from tests import test_report_fixtures as F

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (apt-get install chromium)"),
]

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


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
