"""mahjong-audit: replay, verify and score Chinese mahjong game logs.

The installed distribution has one top-level name, ``mahjong_audit``:

- ``mahjong_audit.engine``: tiles, decomposition, the replay and the rulesets (pure Python);
- ``mahjong_audit.schemas``: the pydantic models of the log format and of the result rows;
- ``mahjong_audit.pipeline``: the Beam pipeline, the DuckDB sink and the command line.

In the repository these live at the top level as ``engine/``, ``schemas/`` and ``pipeline/``;
pyproject.toml maps them under this package.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mahjong-audit")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

# Before any engine module loads: use the compiled engine only when it is current (accel.py).
from mahjong_audit import accel as _accel  # noqa: E402

_accel.install()
