"""The report's collusion section: heat map, flagged pairs with their evidence and hands."""

from __future__ import annotations

import json
import re

import pytest

from bench.collusion_power import _games, audited_db
from mahjong_audit.pipeline.report import build
from mahjong_audit.pipeline.report.collusion_view import FlowMatrix, heatmap

pytestmark = pytest.mark.slow  # audited databases of simulated corpora


def _corpus(tmp_path, games):
    db, logs = tmp_path / "a.duckdb", tmp_path / "a.jsonl"
    audited_db(games, str(db)).close()
    logs.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    return str(db), str(logs)


def test_a_flagged_pair_is_shown_with_its_evidence_and_linked_hands(tmp_path):
    db, logs = _corpus(tmp_path, _games("guangdong", 1000, 75, 4, ("p1", "p2")))
    built = build(db, logs=[logs])
    html = built.html
    section = html[html.index('<section id="collusion">'):]
    section = section[:section.index("</section>")]
    assert "guangdong: points paid, row player → column player" in section
    row = re.search(r"<tr><td>guangdong</td><td>p1 → p2</td>(.*?)</tr>", section)
    assert row is not None
    cells = re.findall(r"<td class=num>([^<]*)</td>", row.group(1))
    assert cells[0] == "300"  # hands together
    links = re.findall(r'<a href="#(hand-\d+)">', row.group(1))
    assert len(links) >= 5
    for anchor in links:
        assert f'id="{anchor}"' in html  # every link lands on a replay
    assert built.replays >= 5


def test_without_logs_the_hands_are_listed_unlinked_and_an_old_database_gets_a_note(tmp_path):
    import duckdb

    db, _ = _corpus(tmp_path, _games("guangdong", 1000, 75, 4, ("p1", "p2")))
    html = build(db).html
    assert "p1 → p2" in html and "#hand-" not in html
    con = duckdb.connect(db)
    con.execute("DROP VIEW suspicious_pairs")
    con.execute("DROP TABLE pair_stats")
    con.close()
    assert "No <code>pair_stats</code> table" in build(db).html


def test_an_honest_database_says_no_pair_is_flagged(tmp_path):
    db, _ = _corpus(tmp_path, _games("guangdong", 5000, 40, 6, None))
    assert "No pair is flagged." in build(db).html


def test_heat_map_escapes_names_and_shades_by_points():
    svg = heatmap(FlowMatrix("mcr", ("<a>", "b"), ((0.0, 10.0), (5.0, 0.0))))
    assert "&lt;a&gt;" in svg and "<a>" not in svg
    assert "&lt;a&gt; → b: 10 points" in svg
    assert 'fill="rgb(195,65,65)"' in svg  # the largest flow is the darkest
