"""Fixtures shared by the test modules. The builders they use live in plain modules beside
them (``tests/logbuild.py``, ``tests/e2e.py``, ``tests/longgang_build.py``, …): a test module
imports builders from those, never from another ``test_*.py`` (docs/testing.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import make_corpus


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """The small faulty corpus of :func:`tests.e2e.make_corpus`, in this test's tmp_path."""
    return make_corpus(tmp_path)
