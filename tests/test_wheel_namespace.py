"""The wheel installs one top-level name, ``mahjong_audit``, and works beside packages
that are themselves called ``pipeline`` and ``schemas`` (issue: one import name).

The test builds the wheel, reads its top-level names, then installs it without
dependencies into a fresh virtual environment that borrows this environment's
third-party packages through a path file (so nothing is downloaded), beside two stub
packages named ``pipeline`` and ``schemas``, and audits the sample logs there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.wheelbuild import build_wheel

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"

pytestmark = pytest.mark.slow


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    if done.returncode != 0:
        raise AssertionError(f"{cmd[:4]}… exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy of the sources (as the portable-runner test ships it), so parallel
    # test workers never share the build folder and the working tree stays clean.
    return build_wheel(tmp_path_factory.mktemp("wheel") / "dist")


def _top_level_names(whl: Path) -> set[str]:
    with zipfile.ZipFile(whl) as z:
        names = {n.split("/", 1)[0] for n in z.namelist()}
    return {n for n in names if not n.endswith((".dist-info", ".data"))}


def test_wheel_installs_only_mahjong_audit(wheel):
    assert _top_level_names(wheel) == {"mahjong_audit"}
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    for module in ("mahjong_audit/__main__.py", "mahjong_audit/engine/audit.py",
                   "mahjong_audit/engine/rulesets/mcr.py", "mahjong_audit/schemas/log.py",
                   "mahjong_audit/pipeline/cli.py", "mahjong_audit/pipeline/importers/pmn.py"):
        assert module in names


def _stub(site: Path, name: str) -> None:
    pkg = site / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(f"STUB = {name!r}\n")


def test_wheel_audits_beside_packages_named_pipeline_and_schemas(wheel, tmp_path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    py = venv / "bin" / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    # Third-party dependencies from this environment, appended after the venv's own
    # site-packages (a path file adds the folder only; its .pth files, among them the
    # editable install of this repository, are not processed).
    (site / "borrowed-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _stub(site, "pipeline")
    _stub(site, "schemas")
    _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps", str(wheel)])

    probe = _run([str(py), "-c",
                  "import pipeline, schemas, mahjong_audit.engine.audit as a, mahjong_audit.pipeline.cli as c; "
                  "print(pipeline.STUB, schemas.STUB, a.__file__, c.__file__)"], cwd=tmp_path).stdout.split()
    assert probe[:2] == ["pipeline", "schemas"]
    assert all(str(site) in p for p in probe[2:]), probe

    db = tmp_path / "audit.duckdb"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    exe = venv / "bin" / "mahjong-audit"
    _run([str(exe), "audit", str(SAMPLES), "--db", str(db), "--workers", "1"], cwd=tmp_path, env=env)
    stats = _run([str(py), "-m", "mahjong_audit", "stats", "--db", str(db)], cwd=tmp_path, env=env)
    assert stats.stdout.strip()
    games = json.loads(_run([str(py), "-c",
                             "import duckdb, sys; print(duckdb.connect(sys.argv[1], read_only=True)"
                             ".execute('select count(*) from games').fetchone()[0])", str(db)],
                            cwd=tmp_path, env=env).stdout)
    assert games > 0
