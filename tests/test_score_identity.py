"""`score` gives byte for byte what it gave before the speed work (issue 13), over a fixed set
of valid, invalid and malformed lines of every ruleset (bench/score_identity.py)."""

from __future__ import annotations

from bench import score_identity


def test_score_output_over_the_identity_lines_is_as_recorded():
    assert score_identity.digest() == score_identity.EXPECTED
