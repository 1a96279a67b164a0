"""One import name (issue 27): ``mahjong_audit.*`` everywhere; the short names refuse to load;
a checkout without symbolic links either runs or says how to restore them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["engine", "schemas", "pipeline", "engine.hand", "pipeline.cli"])
def test_short_names_refuse_to_load_and_name_the_right_one(name):
    done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0
    top = name.split(".")[0]
    assert f"import mahjong_audit.{top}, not {top}" in done.stderr


def test_the_long_name_is_one_module():
    import mahjong_audit.engine.hand as hand

    assert sys.modules["mahjong_audit.engine.hand"] is hand
    assert "engine.hand" not in sys.modules


def test_no_source_docstring_or_doctest_says_a_short_name():
    # a reference to a module by its short name (engine.hand, :mod:`pipeline.read`, >>> from
    # schemas.log import …) sends an editor's auto-import to the refused name
    pattern = re.compile(r"(?<![\w./-])(engine|schemas|pipeline)\.([a-z_][a-z_0-9]*)")
    offenders = []
    for folder in ("engine", "schemas", "pipeline", "mahjong_audit", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.is_symlink() or any(part.startswith(".") for part in path.relative_to(ROOT).parts):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in pattern.finditer(line):
                    pkg, mod = m.groups()
                    if (ROOT / pkg / f"{mod}.py").exists() or (ROOT / pkg / mod / "__init__.py").exists():
                        if path.name != "test_import_name.py":
                            offenders.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)}")
    assert not offenders, "\n".join(offenders[:20])


def _checkout_without_links(tmp_path: Path) -> Path:
    """The repository as git writes it with core.symlinks=false: each link a text file."""
    tree = tmp_path / "tree"
    (tree / "mahjong_audit").mkdir(parents=True)
    for name in ("engine", "schemas", "pipeline"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "compiled.manifest"))
        (tree / "mahjong_audit" / name).write_text(f"../{name}", encoding="utf-8")
    for path in (ROOT / "mahjong_audit").iterdir():
        if path.is_file():
            shutil.copy(path, tree / "mahjong_audit" / path.name)
    shutil.copy(ROOT / "setup.py", tree / "setup.py")
    return tree


def test_a_checkout_without_links_runs_from_its_tree(tmp_path):
    tree = _checkout_without_links(tmp_path)
    code = ("import mahjong_audit.engine.hand as h, mahjong_audit.pipeline.cli, mahjong_audit.schemas.log;"
            "print(h.__file__)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tree), "MAHJONG_AUDIT_PURE": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert Path(done.stdout.strip()) == tree / "engine" / "hand.py"


def test_setup_refuses_a_checkout_without_links_and_says_how_to_restore_them(tmp_path):
    tree = _checkout_without_links(tmp_path)
    done = subprocess.run([sys.executable, "setup.py", "--name"], cwd=tree, capture_output=True, text=True)
    assert done.returncode != 0
    assert "git config core.symlinks true && git checkout -- mahjong_audit" in done.stderr
