"""Builds the optional compiled engine (mahjong_audit/accel.py says what it is and when it loads).

    python -m mahjong_audit.build_accel build    # compile (needs mypyc, from the dev extra, and a C compiler)
    python -m mahjong_audit.build_accel status   # compiled, stale or pure, and why
    python -m mahjong_audit.build_accel remove   # delete the compiled files

``make accel`` runs the build. The compiled files are placed beside the sources, with a
manifest of the sources' SHA-256 (``engine/compiled.manifest``); none of them is tracked by
git or shipped in the wheel.
"""

from __future__ import annotations

import os
import sys

from mahjong_audit import accel


def build(force: bool = False) -> int:
    """Compile :data:`accel.MODULES` in place (mypyc, then the C compiler) and write the manifest;
    nothing to do when the build is current, unless ``force``."""
    if not force and accel.current():
        print("compiled engine is current: nothing to build (build --force rebuilds it)")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]
    except ImportError as e:
        print(f"cannot build the compiled engine: {e} (pip install -e '.[dev]' brings mypyc)", file=sys.stderr)
        return 1
    remove()
    lines = accel.manifest_lines()  # the sources this build compiles: one edited meanwhile leaves it stale
    root = accel.PACKAGE.parent
    old = os.getcwd()
    os.chdir(root)  # mypyc names modules by their path from here: mahjong_audit/engine/…
    try:
        sources = [str(accel.source_path(m).relative_to(root)) for m in accel.MODULES]
        # the project's mypy settings name modules (Beam, pyarrow) this build never imports
        extensions = mypycify(["--no-warn-unused-configs", *sources], opt_level="3", debug_level="0", group_name=accel.GROUP)
        dist = Distribution({"name": "mahjong-audit-compiled", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.inplace = True  # type: ignore[attr-defined]
        command.build_temp = str(root / "build" / "accel")  # type: ignore[attr-defined]
        dist.run_command("build_ext")
    finally:
        os.chdir(old)
    accel.MANIFEST.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"compiled engine built: {len(accel.compiled_files())} files")
    return 0


def remove() -> int:
    for p in accel.compiled_files() + [accel.MANIFEST]:
        p.unlink(missing_ok=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    what = args[0] if args else "status"
    if what == "build":
        return build(force="--force" in args[1:])
    if what == "remove":
        return remove()
    if what == "status":
        kind, why = accel.state()
        print(f"{kind}: {why}")
        if args[1:2] == ["--require"] and args[2:3] != [kind]:
            print(f"the engine is {kind}, not {args[2:3][0] if args[2:3] else '?'}", file=sys.stderr)
            return 1
        return 0
    print("usage: python -m mahjong_audit.build_accel build [--force] | status [--require KIND] | remove", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
