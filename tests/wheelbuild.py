"""The project built as a wheel, for the tests that install it the way a cluster's workers do
(not tests: shared by the portable-runner, wheel-namespace and compiled-engine tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(out: Path, compiled: bool = False) -> Path:
    """The project as a wheel, as one would build it to ship to a cluster (built from a
    copy of the sources, so the build leaves nothing in the working tree). Without
    ``compiled`` the build skips the compiled engine (MAHJONG_AUDIT_COMPILE=0: minutes of
    mypyc and C compiler that these tests do not need)."""
    src = out.parent / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in ("engine", "schemas", "pipeline", "mahjong_audit"):  # mahjong_audit links to the others
        shutil.copytree(ROOT / name, src / name, ignore=ignore, symlinks=True)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    env = {**os.environ, "MAHJONG_AUDIT_COMPILE": "1" if compiled else "0"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "-w", str(out), str(src)],
                   check=True, timeout=900, capture_output=True, env=env)
    (wheel,) = out.glob("mahjong_audit-*.whl")
    return wheel
