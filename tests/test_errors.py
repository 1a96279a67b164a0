"""One small taxonomy of errors (issue 27): the errors of a run derive from
``mahjong_audit.pipeline.errors.AuditError`` and carry the exit status the command line
returns for them; the errors in the data given derive from
``mahjong_audit.engine.errors.InvalidData`` (a ValueError)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.pipeline import errors, exits
from mahjong_audit.pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent
# Not errors of a run or of data: control flow inside the simulator, and a model that declares
# what the derivations cannot express (a column type the table map lacks, a field the fast
# path's Structs cannot check): bugs found at import, never at run time.
OUTSIDE = {"mahjong_audit.engine.sim.game._Retry", "mahjong_audit.pipeline.tables.UnsupportedType",
           "mahjong_audit.schemas.fast_structs.UnsupportedField"}


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for package in ("engine", "schemas", "pipeline"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = "mahjong_audit." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef) and f"{module}.{node.name}" not in OUTSIDE:
                    cls = getattr(importlib.import_module(module), node.name)
                    if isinstance(cls, type) and issubclass(cls, BaseException):
                        found.append(cls)
    return found


def test_every_error_class_is_of_the_taxonomy():
    classes = _exception_classes()
    assert len(classes) > 15
    stray = [c.__qualname__ for c in classes if not issubclass(c, (errors.AuditError, InvalidData))]
    assert stray == []


def test_the_errors_of_a_run_are_declared_in_one_module_and_lock_is_one_class():
    run_errors = [c for c in _exception_classes() if issubclass(c, errors.AuditError)]
    assert {c.__module__ for c in run_errors} == {"mahjong_audit.pipeline.errors"}
    assert [c.__name__ for c in run_errors].count("DatabaseLocked") == 1


def test_each_error_says_its_exit_status():
    assert errors.DatabaseLocked.status == exits.LOCKED == 75
    assert issubclass(errors.DatabaseLocked, errors.DatabaseError)
    for cls in (errors.InputError, errors.NoDataset, errors.DatabaseError, errors.WorkerDied,
                errors.PipelineFailed, errors.RunnerUnreachable, errors.ManifestMissing, errors.StoreFailed):
        assert cls.status == exits.FAILED, cls
    assert issubclass(errors.InputError, OSError) and issubclass(errors.NoDataset, FileNotFoundError)


@pytest.mark.parametrize("error, status", [
    (errors.DatabaseLocked("database x.duckdb is locked by another process"), exits.LOCKED),
    (errors.DatabaseError("x.duckdb is not a DuckDB database"), exits.FAILED),
    (errors.RunnerUnreachable("job service at localhost:8099 did not answer within 5 s"), exits.FAILED),
])
def test_the_command_line_maps_an_error_to_its_status_in_one_line(monkeypatch, capsys, error, status):
    from mahjong_audit.pipeline.commands import validate

    def failing(args):
        raise error

    monkeypatch.setattr(validate, "run", failing)
    assert main(["validate", "x.jsonl"]) == status
    assert capsys.readouterr().err == f"mahjong-audit validate: {error}\n"


def test_a_data_error_is_a_value_error_and_no_error_of_the_run():
    from mahjong_audit.engine.tiles import TileError, parse

    with pytest.raises(TileError) as caught:
        parse("1x")
    assert isinstance(caught.value, InvalidData) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, errors.AuditError)
