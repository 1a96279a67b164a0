"""The finding catalogue: codes are well-formed, documented, and the docs are in sync."""

from pathlib import Path

import pytest

from mahjong_audit.engine.findings import CODES, Finding, Kind, kind_of, markdown_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "findings.md"


def test_every_kind_has_codes():
    kinds = {kind_of(c) for c in CODES}
    assert kinds == set(Kind)


def test_docs_table_is_generated_from_the_catalogue():
    assert markdown_table() in DOC.read_text(encoding="utf-8")


def test_unknown_code_is_rejected():
    with pytest.raises(ValueError):
        Finding("false_win/whatever", "x")


def test_every_code_is_named_in_some_test():
    """House rule: every finding code has a test that triggers it (and its clean twin)."""
    here = Path(__file__).resolve().parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in here.glob("test_*.py") if p.name != Path(__file__).name)
    missing = [c for c in CODES if c not in text]
    assert missing == []
