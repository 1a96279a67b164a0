"""mahjong-audit: replay, verify and score Chinese mahjong game logs.

The installed distribution has one top-level name, ``mahjong_audit``:

- ``mahjong_audit.engine``: tiles, decomposition, the replay and the rulesets (pure Python);
- ``mahjong_audit.schemas``: the pydantic models of the log format and of the result rows;
- ``mahjong_audit.pipeline``: the Beam pipeline, the DuckDB sink and the command line.

In the repository these live at the top level as ``engine/``, ``schemas/`` and ``pipeline/``,
and ``mahjong_audit/`` holds symbolic links to them: the wheel and the editable install carry
them under this one name. Imported by their short names the three packages refuse to load
(their ``__init__`` says which name to use). A checkout made without symbolic links (git's
``core.symlinks=false``, the Windows default) has small text files in place of the links: run
from such a tree, this package finds the three folders at the top level itself
(:func:`_find_unlinked_packages`), and ``setup.py`` refuses to build it with the command that
restores the links.
"""

from pathlib import Path as _Path

#: the three packages that live at the repository's top level
LINKED = ("engine", "schemas", "pipeline")


def _find_unlinked_packages() -> None:
    """In a checkout without symbolic links, look for the linked packages one folder up."""
    here = _Path(__file__).resolve().parent
    if any((here / name).is_file() for name in LINKED):
        __path__.append(str(here.parent))  # noqa: F821 — a package's own __path__


_find_unlinked_packages()

from importlib.metadata import PackageNotFoundError, version  # noqa: E402

try:
    __version__ = version("mahjong-audit")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

# Before any engine module loads: use the compiled engine only when it is current (accel.py).
from mahjong_audit import accel as _accel  # noqa: E402

_accel.install()
