"""The optional compiled engine (mahjong_audit/accel.py): when it loads, and that it gives the
same verdicts as the sources. `make test` runs the suite on the pure-Python engine and
`make test-accel` runs it again on the compiled one; the tests marked here as needing the
compiled engine run only in the second."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_audit import accel

ROOT = Path(__file__).resolve().parent.parent
compiled_only = pytest.mark.skipif(not accel.active(), reason="the compiled engine is not built or not in use")


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """Compiled files 'present', with a manifest in a temporary folder."""
    manifest = tmp_path / "compiled.manifest"
    monkeypatch.setattr(accel, "MANIFEST", manifest)
    monkeypatch.setattr(accel, "compiled_files", lambda: [tmp_path / "replay.so"])
    monkeypatch.setattr(accel, "compiled_modules", lambda: set(accel.MODULES))
    monkeypatch.delenv(accel.PURE_ENV, raising=False)
    return manifest


def test_no_compiled_files_means_pure(monkeypatch):
    monkeypatch.setattr(accel, "compiled_files", lambda: [])
    assert accel.state()[0] == "pure"


def test_current_build_is_used(fake_build):
    fake_build.write_text("\n".join(accel.manifest_lines()) + "\n", encoding="utf-8")
    assert accel.state() == ("compiled", f"{len(accel.MODULES)} modules compiled with mypyc:"
                                         f" {len(accel.MODULES) - 1} of the engine, 1 of the validation's checks")


def test_a_source_changed_after_the_build_makes_the_whole_build_stale(fake_build):
    lines = accel.manifest_lines()
    lines[-1] = "0" * 64 + lines[-1][64:]  # one module's source no longer the one compiled
    fake_build.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kind, why = accel.state()
    assert kind == "stale" and "source changed" in why


def test_a_compiled_file_of_a_module_not_listed_makes_the_build_stale(fake_build, monkeypatch):
    """A file left by a build of a longer module list would import a shared library that
    lacks its module."""
    fake_build.write_text("\n".join(accel.manifest_lines()) + "\n", encoding="utf-8")
    monkeypatch.setattr(accel, "compiled_modules", lambda: set(accel.MODULES) | {"mahjong_audit.engine.calibration"})
    kind, why = accel.state()
    assert kind == "stale" and "module list" in why


def test_compiled_modules_are_named_from_their_files():
    """Every listed module has a compiled file after a build; before one, none (a build older
    than the module list is stale, whether or not MAHJONG_AUDIT_PURE hides it)."""
    assert accel.compiled_modules() in (set(), set(accel.MODULES)) or not accel.current()


def test_compiled_files_without_a_manifest_are_stale(fake_build):
    assert accel.state()[0] == "stale"


def test_pure_env_loads_the_sources_of_a_current_build(fake_build, monkeypatch):
    fake_build.write_text("\n".join(accel.manifest_lines()) + "\n", encoding="utf-8")
    monkeypatch.setenv(accel.PURE_ENV, "1")
    assert accel.state()[0] == "pure"


def test_a_stale_build_warns_and_puts_the_sources_first(fake_build, monkeypatch):
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if f is not accel._FINDER])
    with pytest.warns(RuntimeWarning, match="pure-Python engine"):
        assert accel.install() == "stale"
    assert sys.meta_path[0] is accel._FINDER


def test_no_build_yet_still_puts_the_sources_first(monkeypatch):
    """A process that starts with no compiled file (a build under way has removed the old one)
    must not load the new build's modules half-way through its imports."""
    monkeypatch.setattr(accel, "compiled_files", lambda: [])
    monkeypatch.setattr(accel, "compiled_modules", lambda: set())
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if f is not accel._FINDER])
    monkeypatch.setattr(accel._FINDER, "names", accel._FINDER.names)
    assert accel.install() == "pure"
    assert sys.meta_path[0] is accel._FINDER and "mahjong_audit.engine.replay" in accel._FINDER.names


def test_the_manifest_names_the_sources_the_build_compiled(tmp_path, monkeypatch):
    """A source edited while the compiler runs leaves the build stale, not marked current."""
    from mahjong_audit import build_accel

    monkeypatch.setattr(accel, "MANIFEST", tmp_path / "compiled.manifest")
    monkeypatch.setattr(accel, "current", lambda: False)
    monkeypatch.setattr(build_accel, "remove", lambda: None)
    before = accel.manifest_lines()
    edited = [*before[:-1], "0" * 64 + "  " + accel.MODULES[-1]]

    def compile_then_edit(*args, **kwargs):  # the compiler runs; meanwhile a source is edited
        monkeypatch.setattr(accel, "manifest_lines", lambda: edited)
        return []

    import mypyc.build
    import setuptools

    monkeypatch.setattr(mypyc.build, "mypycify", compile_then_edit)
    monkeypatch.setattr(setuptools.Distribution, "run_command", lambda self, name: None)
    assert build_accel.build() == 0
    assert accel.MANIFEST.read_text(encoding="utf-8").splitlines() == before != edited


def test_the_source_finder_finds_only_the_compiled_modules_sources():
    spec = accel._FINDER.find_spec("mahjong_audit.engine.replay")
    assert spec is not None and spec.origin == str(accel.source_path("mahjong_audit.engine.replay"))
    assert spec.origin.endswith("replay.py")
    assert accel._FINDER.find_spec("mahjong_audit.engine.calibration") is None
    spec = accel._FINDER.find_spec("mahjong_audit.schemas.log_fast_checks")  # the one compiled module outside the engine
    assert spec is not None and spec.origin == str(accel.source_path("mahjong_audit.schemas.log_fast_checks"))


def test_every_compiled_module_has_its_source():
    assert all(accel.source_path(m).is_file() for m in accel.MODULES)


@pytest.mark.slow  # a fresh interpreter
def test_a_fresh_process_reports_the_engine_it_runs():
    """`status` agrees with what a process actually imports."""
    env = {**os.environ}
    code = "import mahjong_audit.accel as a; print(a.state()[0], a.active())"
    kind, active = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                  check=True, cwd=ROOT).stdout.split()
    assert (kind == "compiled") == (active == "True")
    env[accel.PURE_ENV] = "1"
    kind, active = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                  check=True, cwd=ROOT).stdout.split()
    assert active == "False"


WITHOUT_EXTENSIONS = """
import sys
class Hide:  # as an install without mypy_extensions (tiles.i64 falls back to int)
    def find_spec(self, name, path=None, target=None):
        if name == "mypy_extensions":
            raise ImportError(name)
sys.meta_path.insert(0, Hide())
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.chances import shape_gate
from mahjong_audit.engine.replay import SeatState
st = SeatState(0)
for t in T.parse("123m456p789s1122z"):
    st.add(t)
waits = shape_gate(st.hand[:34], 0, frozenset())
print(T.i64 is int, "mypy_extensions" in sys.modules, T.fmt([t for t in range(34) if waits >> t & 1]), st.size)
"""


@pytest.mark.slow  # a fresh interpreter
def test_the_sources_run_without_mypy_extensions():
    """The engine's native ints (``tiles.i64``) are plain ints where ``mypy_extensions`` is not
    installed (it comes with mypy, which only a build needs)."""
    env = {**os.environ, accel.PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", WITHOUT_EXTENSIONS], env=env, capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    assert out == ["True", "False", "12z", "13"]


DIGEST = """
import json, sys
from pathlib import Path
from bench.verdict_digest import audit_file
import mahjong_audit.accel as a
out = {str(p): audit_file(p)[:3] for p in sorted(Path('sample_logs').glob('*.json*'))}
for p in sorted(Path('tests/fixtures').rglob('*.json*')):
    out[str(p)] = audit_file(p)[:3]
print(json.dumps({'active': a.active(), 'digests': out}))
"""


@compiled_only
def test_compiled_and_pure_engines_give_the_same_verdicts():
    """Every finding, score and payout of the sample logs and the test fixtures, digested by
    bench.verdict_digest, on the compiled engine and on the sources."""
    runs = {}
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
        if pure:
            env[accel.PURE_ENV] = "1"
        out = subprocess.run([sys.executable, "-c", DIGEST], env=env, capture_output=True, text=True, check=True,
                             cwd=ROOT)
        runs[pure] = json.loads(out.stdout.strip().splitlines()[-1])
    assert runs[False]["active"] and not runs[True]["active"]
    assert len(runs[False]["digests"]) > 20
    assert runs[False]["digests"] == runs[True]["digests"]


@compiled_only
def test_the_fast_paths_checks_after_decoding_load_compiled_with_the_engine():
    """schemas/log_fast_checks.py is in the group (MODULES): compiled beside the engine, from its
    source beside the pure one (test_the_source_finder_…)."""
    from mahjong_audit.schemas import log_fast_checks

    assert "mahjong_audit.schemas.log_fast_checks" in accel.compiled_modules()
    assert not log_fast_checks.__file__.endswith(".py")


@pytest.mark.slow  # a whole audit
def test_the_audit_summary_names_the_engine_and_the_validation_path(tmp_path, capsys):
    """An operator sees which engine and validation path a local run used."""
    from mahjong_audit.pipeline.cli import main
    from mahjong_audit.schemas import log_fast
    from tests.e2e import make_corpus

    corpus = make_corpus(tmp_path)
    assert main(["audit", str(corpus), "--db", str(tmp_path / "a.duckdb"), "--in-memory", "--no-progress"]) == 0
    out = capsys.readouterr().out
    engine = "compiled engine" if accel.state()[0] == "compiled" else "pure-Python engine"
    assert f"{engine}, {log_fast.IMPLEMENTATION} validation" in out


def _wheel_files(wheel: Path) -> list[str]:
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


@pytest.mark.slow
@compiled_only  # minutes of mypyc and the C compiler: `make test-accel` runs it, `make test` not
def test_a_wheel_built_where_a_compiler_is_carries_the_compiled_engine(tmp_path):
    """issue 28: `pip wheel` gives a platform wheel whose workers run the compiled engine."""
    from tests.wheelbuild import build_wheel

    wheel = build_wheel(tmp_path / "dist", compiled=True)
    names = _wheel_files(wheel)
    assert not wheel.name.endswith("-none-any.whl")
    assert "mahjong_audit/engine/compiled.manifest" in names
    for module in accel.MODULES:
        stem = "/".join(module.split("."))
        assert any(n.startswith(stem + ".") and n.endswith(".so") for n in names), module
        assert stem + ".py" in names  # the sources stay beside them


@pytest.mark.slow
@compiled_only
def test_without_a_c_compiler_the_install_goes_on_with_the_sources(tmp_path):
    """One line says the compiled engine is not built; the wheel holds the sources only."""
    import shutil

    src = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.so", "compiled.manifest")
    for name in ("engine", "schemas", "pipeline", "mahjong_audit"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore, symlinks=True)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=900,
                         env={**os.environ, "CC": "/bin/false"})
    assert run.returncode == 0, run.stderr[-2000:]
    said = [line for line in (run.stdout + run.stderr).splitlines() if "mahjong-audit: the compiled engine is not built" in line]
    assert len(said) == 1 and "the pure-Python engine runs" in said[0]
    (wheel,) = (tmp_path / "dist").glob("mahjong_audit-*.whl")
    assert not any(n.endswith(".so") for n in _wheel_files(wheel))
