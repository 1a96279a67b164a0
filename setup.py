"""Builds the compiled engine into every install that has a C compiler (mahjong_audit/accel.py).

pyproject.toml declares the project; this file only adds the build step: the modules of
``accel.MODULES`` compiled with mypyc, as black and mypy ship themselves. ``pip install``
(editable or not) and ``pip wheel`` run it; the wheel is then a platform wheel carrying the
compiled modules beside their sources, with the manifest ``accel.py`` checks them against.
Where the build cannot run (no C compiler, no Python headers) one line says so and the
install goes on with the pure-Python engine. ``MAHJONG_AUDIT_COMPILE=0`` skips the build.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SWITCH = "MAHJONG_AUDIT_COMPILE"


def _accel():
    """mahjong_audit/accel.py by its path: it needs only the standard library, and importing
    the package itself would want its dependencies."""
    spec = importlib.util.spec_from_file_location("_mahjong_audit_accel", ROOT / "mahjong_audit" / "accel.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _say(message: str) -> None:
    # pip shows a build's output only with -v; stderr of a successful build is kept in its log
    print(f"mahjong-audit: {message}", file=sys.stderr)


class BuildCompiledEngine(build_ext):
    """Replaces the placeholder extension by mypyc's, builds them, writes the manifest; a
    build that cannot run leaves the pure-Python engine."""

    def finalize_options(self) -> None:
        self._accel = _accel()
        self._skipped = ""
        if _switched_off():
            self._skipped = f"{SWITCH}=0"
        else:
            try:
                self.distribution.ext_modules = self._mypyc_extensions(self._accel)
            except Exception as e:  # noqa: BLE001 — the optional build must never stop an install
                self._skipped = _reason(e)
        if self._skipped:
            self.distribution.ext_modules = []
        super().finalize_options()

    def run(self) -> None:
        accel = self._accel
        if not self._skipped:
            try:
                super().run()
            except Exception as e:  # noqa: BLE001 — no compiler, no headers: the sources run
                self._skipped = _reason(e)
                if self.inplace:
                    for p in accel.compiled_files() + [accel.MANIFEST]:
                        p.unlink(missing_ok=True)
                self.extensions = []
        if self._skipped:
            _say(f"the compiled engine is not built ({self._skipped}); the pure-Python engine runs")
            return
        target = accel.MANIFEST if self.inplace else Path(self.build_lib, "mahjong_audit", "engine", accel.MANIFEST.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(accel.manifest_lines()) + "\n", encoding="utf-8")
        _say(f"compiled engine built ({len(accel.MODULES)} modules)")

    @staticmethod
    def _mypyc_extensions(accel):
        from mypyc.build import mypycify

        sources = [str(accel.source_path(m).relative_to(ROOT)) for m in accel.MODULES]
        old = os.getcwd()
        os.chdir(ROOT)  # mypyc names modules by their path from here: mahjong_audit/engine/…
        try:
            return mypycify(["--no-warn-unused-configs", *sources], opt_level="3", debug_level="0",
                            group_name=accel.GROUP)
        finally:
            os.chdir(old)

    def build_extension(self, ext: Extension) -> None:
        old = os.getcwd()
        os.chdir(ROOT)  # mypyc's generated C is found from the project root (build/…)
        try:
            super().build_extension(ext)
        finally:
            os.chdir(old)


def unlinked_packages(root: Path = ROOT) -> list[str]:
    """The packages whose link under mahjong_audit/ is a plain file: a checkout made with
    ``core.symlinks=false`` (git's default on Windows) writes each link as a short text file."""
    return [name for name in ("engine", "schemas", "pipeline") if (root / "mahjong_audit" / name).is_file()]


def refuse_unlinked_checkout(root: Path = ROOT) -> None:
    missing = unlinked_packages(root)
    if missing:
        raise SystemExit(
            "mahjong-audit: mahjong_audit/" + ", mahjong_audit/".join(missing) + " should be symbolic links "
            "to the top-level folders, and this checkout has text files there (git core.symlinks=false). "
            "Restore them with: git config core.symlinks true && git checkout -- mahjong_audit"
        )


def _switched_off() -> bool:
    return os.environ.get(SWITCH, "1").strip().lower() in ("0", "false", "no", "off")


def _reason(e: BaseException) -> str:
    """What stopped the build, in a few words (a compiler's whole command line is not one)."""
    name = type(e).__name__
    if name in ("CompileError", "LinkError", "CCompilerError", "DistutilsExecError"):
        return "no working C compiler"
    if isinstance(e, ImportError):
        return f"mypyc is not available: {e}"
    first = str(e).splitlines()[0][:120] if str(e) else ""
    return f"{name}: {first}" if first else name


refuse_unlinked_checkout()

# The one placeholder makes setuptools run build_ext (and tag the wheel for the platform);
# BuildCompiledEngine replaces it by the modules mypyc generates. Switched off: a pure wheel.
setup(
    ext_modules=[] if _switched_off() else [Extension("mahjong_audit.engine.compiled__mypyc", sources=[])],
    cmdclass={"build_ext": BuildCompiledEngine},
)
