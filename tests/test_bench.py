"""The bench's parts work on small inputs (the timings themselves are never tested)."""

from __future__ import annotations

import json
import os
import sys
import xml.dom.minidom
from pathlib import Path

import pytest

from bench import chart, score_bench, stage_bench, table_digest, verdict_digest
from mahjong_audit.pipeline.commands.score import score_line
from tests.mcr_handgen import generate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def test_stage_bench_times_every_stage_of_a_sample_corpus():
    r = stage_bench.measure(str(SAMPLES / "mcr-clean.jsonl"))
    assert r["games"] > 0 and r["hands"] >= r["games"]
    assert set(r["us_per_hand"]) == set(stage_bench.STAGES)
    assert r["score_calls"] > 0  # the ruleset's score_win was timed, and put back afterwards
    from mahjong_audit.engine.rulesets.mcr import MCR
    assert MCR.score_win.__qualname__ == "MCR.score_win"


def test_score_bench_reference_protocol_gives_the_same_totals_as_ours():
    pytest.importorskip("MahjongGB")
    from MahjongGB import MahjongFanCalculator

    for sit in generate(60, seed=5):
        line = score_bench.situation_json(sit)
        ours = score_line(line, "mcr")
        theirs = json.loads(score_bench.reference_line(line, MahjongFanCalculator))
        assert ours["valid"] and theirs["valid"]
        assert ours["total"] == theirs["total"], line


def test_chart_is_one_svg_document_with_every_stage():
    stages = [{"ruleset": "mcr", "us_per_hand": dict.fromkeys(stage_bench.STAGES, 100.0)}]
    workers = [{"workers": w, "hands_per_s": 300.0 * w, "hands_per_cpu_s": 700.0} for w in (1, 2)]
    sizes = [{"hands": n, "hands_per_cpu_s": 600.0, "tree_rss_mb": 590.0} for n in (3000, 6000, 12000)]
    text = chart.svg(stages, workers, sizes, note="test <run>")
    doc = xml.dom.minidom.parseString(text)
    assert doc.documentElement.tagName == "svg"
    labels = {t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild}
    assert set(stage_bench.STAGES) <= labels and "test <run>" in labels


def test_verdict_digest_is_the_same_on_each_run_and_counts_the_findings():
    path = SAMPLES / "mcr-faulty.jsonl"
    first = verdict_digest.audit_file(path)
    digest, games, findings, codes = first
    assert verdict_digest.audit_file(path) == first
    assert games == 13 and findings == sum(codes.values()) > 0
    assert codes["invalid_log/schema"] == 1  # a rejected record counts too, with its code
    assert digest != verdict_digest.audit_file(SAMPLES / "mcr-clean.jsonl")[0]


@pytest.mark.slow  # two whole audits
def test_table_digest_dumps_the_same_tables_from_two_runs_of_one_audit(tmp_path):
    """Two audits of one file differ in run ids and clocks only, which the dump leaves out."""
    path = SAMPLES / "mcr-faulty.jsonl"
    dumps = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        db = str(tmp_path / name / "audit.duckdb")
        table_digest.audit_into([path], db, workers=1)
        dumps.append(table_digest.dump(db))
    assert dumps[0] == dumps[1]
    tables = dumps[0]
    assert {"games", "hands", "findings", "rejected", "runs", "pair_stats"} <= set(tables)
    assert len(tables["games"]) > 1 and len(tables["rejected"]) == 2  # a header line, then the rows
    assert all("run_id" not in header for header in (t[0] for t in tables.values()))
    groups = dict(table_digest.groups([path, tmp_path / "x.jsonl"], tmp_path))
    assert groups == {os.path.relpath(path.parent, table_digest.ROOT.parent): [path], "x.jsonl": [tmp_path / "x.jsonl"]}


def test_issue_28_table_puts_compiled_beside_pure_and_the_chart_draws_it():
    from bench.__main__ import table28, table28_text

    def row(rs, engine, steady):
        return {"name": f"{rs} --workers 1 ({engine})", "engine": engine, "steady_hands_per_core_s": steady,
                "hands_per_s": steady / 2, "hands_per_cpu_s": steady / 1.5}

    audits = [row(rs, e, v * (2 if e == "compiled" else 1)) for rs, v in
              (("mcr", 1700.0), ("longgang", 560.0), ("guangdong", 2200.0)) for e in ("compiled", "pure")]
    score = {"compiled": {"ratio": 0.5, "ours_lines_per_cpu_s": 19000.0}, "pure": {"ratio": 0.3}}
    table = table28(audits, score, 12000)
    assert [r["key"] for r in table] == ["mcr", "longgang", "guangdong", "audit", "score"]
    assert table[1]["compiled"] == 1120.0 and table[1]["pure"] == 560.0 and table[3]["pure"] == 850.0
    text = table28_text(table)
    assert "compiled (default install)" in text and "pure (no compiler)" in text and "0.30×" in text
    stages = [{"ruleset": "mcr", "us_per_hand": dict.fromkeys(stage_bench.STAGES, 100.0)}]
    doc = xml.dom.minidom.parseString(chart.svg(stages, [], [], table=table))
    labels = {t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild}
    assert {"龙港", "广东", "pure (no compiler)"} <= labels and "3400" in labels


def test_a_run_counts_all_its_cpu_time_not_only_what_the_poll_saw():
    # a child busy for ~0.3 s ends before the /proc poll (every 0.5 s) sees most of it; the
    # kernel's count of the waited-for child has it all
    from bench import pipeline_bench

    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    _, _, mem, cpu = pipeline_bench._run_child([sys.executable, "-c", busy])
    assert cpu >= 0.3 and cpu >= mem.cpu_seconds()


def test_audit_table_leaves_the_steady_state_blank_where_it_was_not_measured():
    from bench.__main__ import audit_table

    row = {"name": "mcr --workers 2 (compiled)", "hands": 12000, "seconds": 3.9, "cpu_seconds": 6.4,
           "hands_per_s": 3069.0, "hands_per_cpu_s": 1887.0, "tree_rss_mb": 718.0}
    measured, unmeasured = ({**row, "steady_hands_per_core_s": v} for v in (3875.4, None))
    assert audit_table([measured]).splitlines()[1].split()[-2] == "3875"
    assert audit_table([unmeasured]).splitlines()[1].split()[-2] == "—"  # not a steady state of 0
