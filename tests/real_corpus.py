"""The real platform logs the tests read (not tests): the fixtures in tests/fixtures/real, always
there, and the full ../shared/real-logs folder when it is present (MAHJONG_AUDIT_REAL_LOGS names it
elsewhere), imported with the importer of each file's shape."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from mahjong_audit.pipeline.importers import IMPORTERS
from mahjong_audit.pipeline.lines import text_lines
from mahjong_audit.schemas.log import Game

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "real"
SHARED = Path(os.environ.get("MAHJONG_AUDIT_REAL_LOGS", HERE.parent.parent / "shared" / "real-logs"))


def sources(root: Path) -> list[tuple[str, Path]]:
    out = [("botzone-txt", p) for p in sorted(root.glob("**/sample.txt"))]
    out += [("botzone-json", p) for p in sorted(root.glob("**/*_lite.json"))]
    out += [("botzone-json", p) for p in sorted(root.glob("**/*.log"))]  # judge logs and display logs
    out += [("pmn", p) for p in sorted(root.glob("**/*.pmn"))]
    out += [("tziakcha", p) for p in sorted(root.glob("**/session-*.json"))]
    return out


@cache
def games(root: Path) -> tuple[Game, ...]:
    out = []
    for name, path in sources(root):
        imp = IMPORTERS[name]
        for rec in imp.records(str(path), text_lines(path.read_text(encoding="utf-8"))):
            out.extend(Game.model_validate(d) for d in imp.convert(rec))
    return tuple(out)


def roots() -> list:
    return [pytest.param(FIXTURES, id="fixtures"),
            pytest.param(SHARED, id="shared", marks=pytest.mark.skipif(
                not SHARED.is_dir(), reason="../shared/real-logs is not present"))]
