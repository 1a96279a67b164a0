"""`score` gives byte for byte what it gave before the speed work (issue 13), over a fixed set
of valid, invalid and malformed lines of every ruleset (bench/score_identity.py)."""

from __future__ import annotations

from bench import score_identity


def test_score_output_over_the_identity_lines_is_as_recorded():
    assert score_identity.digest() == score_identity.EXPECTED


def test_under_the_old_wild_reading_the_output_is_what_it_was_before_issue_24(tmp_path):
    # the new default (wild_beyond_fourth_copy: any) is the only change: the old reading as a
    # profile gives the output recorded just before it byte for byte
    profile = tmp_path / "old.toml"
    profile.write_text(score_identity.OLD_READING, encoding="utf-8")
    assert score_identity.digest(rules=str(profile)) == score_identity.EXPECTED_BEFORE_ISSUE_24
