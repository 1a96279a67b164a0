"""The optional compiled engine: the replay's hot modules compiled with mypyc.

The engine is pure Python and stays so; ``make accel`` (``python -m mahjong_audit.build_accel
build``) compiles the modules of :data:`MODULES` from the same sources into C extensions
placed beside them, which Python then imports instead of the ``.py`` files. The results are
identical (the test suite runs on both, and ``bench.verdict_digest`` compares every verdict);
only the speed differs. Nothing needs it: a machine without a compiler runs the sources.

The build writes a manifest of the sources' SHA-256. At import (this module is loaded by
``mahjong_audit/__init__.py``, before any engine module) the compiled modules are used only
when every source still matches the manifest: compiled modules call each other directly, so a
source edited after the build makes the whole set stale, and then every one of them is
loaded from its source, with a warning. ``MAHJONG_AUDIT_PURE=1`` loads the sources even
when the build is current. It switches the engine only: the validation path has its own
switch (``MAHJONG_AUDIT_MODELS``, mahjong_audit/schemas/fast_structs.py), so the pure engine
validates with msgspec, as cluster workers do.

The build is ``python -m mahjong_audit.build_accel build|status|remove`` (build_accel.py).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType

#: the modules compiled, in one mypyc group: the replay and what it calls on every event (the claim
#: chances the collusion statistics read included), what the audit builds of every hand (its
#: facts, findings, the ruleset's hand end and settlement), the score command's per-line code, the
#: Ruleset base and every ruleset (MCR's fan calculator, 广东, Longgang's waits, scoring, chips and
#: abortive draws), and the checks the validation's fast path runs after decoding (compiled or
#: not, the same code; whether that path runs at all is MAHJONG_AUDIT_MODELS's, not this module's).
#: The rulesets allow interpreted subclasses, which tests derive. Each ruleset's Options dataclass is in a module that stays Python (rulesets/mcr_options.py, …): compiled, a
#: frozen dataclass loses the Literal hints that option parsing, the rules tables and the re-checks
#: read.
MODULES = (
    "mahjong_audit.engine.tiles",
    "mahjong_audit.engine.phases",
    "mahjong_audit.engine.hand",
    "mahjong_audit.engine.decompose",
    "mahjong_audit.engine.seabed",
    "mahjong_audit.engine.situation_check",
    "mahjong_audit.engine.score_lines",
    "mahjong_audit.engine.findings",
    "mahjong_audit.engine.ruleset",
    "mahjong_audit.engine.replay",
    "mahjong_audit.engine.chances",
    "mahjong_audit.engine.result",
    "mahjong_audit.engine.audit",
    "mahjong_audit.engine.rulesets.mcr_readings",
    "mahjong_audit.engine.rulesets.mcr_scoring",
    "mahjong_audit.engine.rulesets.longgang_readings",
    "mahjong_audit.engine.rulesets.longgang_score",
    "mahjong_audit.engine.rulesets.longgang_chips",
    "mahjong_audit.engine.rulesets.longgang_draws",
    "mahjong_audit.engine.rulesets.longgang_waits",
    "mahjong_audit.engine.rulesets.longgang",

    "mahjong_audit.engine.rulesets.mcr",
    "mahjong_audit.engine.rulesets.guangdong",
    "mahjong_audit.engine.rulesets.guangdong_fans",
    # the checks the validation's fast path runs after msgspec's decode, the loop over every event's seq
    "mahjong_audit.schemas.log_fast_checks",
)
#: the group's shared library, ``<GROUP>__mypyc`` (mypyc's naming), in the engine package
GROUP = "mahjong_audit.engine.compiled"
#: set (to anything but the empty string): the pure-Python engine, even with a current build
PURE_ENV = "MAHJONG_AUDIT_PURE"

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "engine" / "compiled.manifest"


def source_path(module: str) -> Path:
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


#: the packages holding compiled modules (the engine's, and the fast validation path's checks)
COMPILED_PACKAGES = ("engine", "schemas")


def compiled_files() -> list[Path]:
    """Every extension module under the packages of :data:`COMPILED_PACKAGES`: they are pure
    Python, so any is a build's (also one left by a build of another module list)."""
    return sorted({p for name in COMPILED_PACKAGES for s in importlib.machinery.EXTENSION_SUFFIXES
                   for p in (PACKAGE / name).rglob("*" + s)})


def compiled_modules() -> set[str]:
    """The modules whose compiled files are present (the group's shared library aside)."""
    names = set()
    for p in compiled_files():
        stem = p.name.split(".")[0]
        name = ".".join(("mahjong_audit", *p.parent.relative_to(PACKAGE).parts, stem))
        if name != GROUP + "__mypyc":
            names.add(name)
    return names


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_lines() -> list[str]:
    """``<sha256>  <module>`` for every compiled module's source as it is now."""
    return [f"{_digest(source_path(m))}  {m}" for m in MODULES]


def current() -> bool:
    """The compiled files are those of :data:`MODULES`, built from the sources as they are now."""
    try:
        return (compiled_modules() == set(MODULES)
                and MANIFEST.read_text(encoding="utf-8").splitlines() == manifest_lines())
    except OSError:
        return False


def state() -> tuple[str, str]:
    """(``compiled`` | ``stale`` | ``pure``, why)."""
    if not compiled_files():
        return "pure", "no compiled engine is built (make accel builds one)"
    if os.environ.get(PURE_ENV):  # asked for the sources: whether the build is current does not matter
        return "pure", f"{PURE_ENV} is set"
    try:
        built = MANIFEST.read_text(encoding="utf-8").splitlines()
    except OSError:
        return "stale", f"compiled files without their manifest {MANIFEST.name}"
    if built != manifest_lines():
        return "stale", "a source changed after the compiled engine was built (make accel rebuilds it)"
    if compiled_modules() != set(MODULES):
        return "stale", "the compiled files are not those of the module list (make accel rebuilds them)"
    checks = sum(1 for m in MODULES if not m.startswith("mahjong_audit.engine."))
    return "compiled", (f"{len(MODULES)} modules compiled with mypyc: {len(MODULES) - checks} of the engine,"
                        f" {checks} of the validation's checks")


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources, so their extensions are not loaded."""

    names: frozenset[str] = frozenset(MODULES)

    def find_spec(self, fullname: str, path: object = None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        origin = source_path(fullname)
        if not origin.is_file():  # a checkout without links: the package finds the sources itself
            return None
        return importlib.util.spec_from_file_location(fullname, origin)


_FINDER = _SourceFirst()


def install() -> str:
    """Decide, once per process and before any engine import, whether the compiled modules load."""
    kind, why = state()
    # Not compiled: the sources first even when no compiled file exists yet, so that a build
    # finishing while this process runs (``make accel`` beside a long run) cannot hand its later
    # imports compiled modules beside the pure ones it already loaded.
    if kind != "compiled" and _FINDER not in sys.meta_path:
        _FINDER.names = frozenset(MODULES) | compiled_modules()
        sys.meta_path.insert(0, _FINDER)
        if kind == "stale":
            warnings.warn(f"mahjong-audit: running the pure-Python engine: {why}", RuntimeWarning, stacklevel=2)
    return kind


def active() -> bool:
    """True when the engine running in this process is the compiled one."""
    mod = sys.modules.get("mahjong_audit.engine.replay")
    if mod is None:
        import mahjong_audit.engine.replay as mod
    return not (getattr(mod, "__file__", "") or "").endswith(".py")
