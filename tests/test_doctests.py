"""The examples in the engine's, the schemas' and the pipeline's docstrings run as tests.

Collected here (not with ``--doctest-modules``) so each module is imported by its one name,
``mahjong_audit.…``, whatever folder pytest starts from.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _modules_with_examples() -> list[str]:
    names = []
    for folder in ("engine", "schemas", "pipeline"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                names.append(".".join(("mahjong_audit", *parts)))
    return names


MODULES = _modules_with_examples()


def test_there_are_examples_to_run():
    assert len(MODULES) >= 5


def _with_its_examples(name: str):
    """The module, or where it is compiled (mypyc keeps no function docstrings) a copy loaded
    from its source under a private name, so its examples run against the compiled rest."""
    module = importlib.import_module(name)
    if str(getattr(module, "__file__", "")).endswith(".py"):
        return module
    source = ROOT.joinpath(*name.split(".")[1:]).with_suffix(".py")
    spec = importlib.util.spec_from_file_location(f"_doctest_{name.replace('.', '_')}", source)
    copy = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = copy  # dataclasses look their module up there (string annotations)
    try:
        spec.loader.exec_module(copy)
    finally:
        del sys.modules[spec.name]
    return copy


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = _with_its_examples(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0, f"{name}: its examples were not found (a compiled module keeps no docstrings?)"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
