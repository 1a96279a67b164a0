"""The audit's fast validation path of ``mahjong-log/1``, in one of two implementations.

The pydantic models of :mod:`mahjong_audit.schemas.log` stay the schema and the fallback: a record the
fast path does not accept goes through them, which give the error message, so verdicts
and messages never depend on the path. Both implementations accept only what the models
accept, with the same values, and build frozen objects with the models' attribute names,
which the engine reads like the models:

- :mod:`mahjong_audit.schemas.log_fast_msgspec`: msgspec decodes and checks the JSON in one pass into
  frozen Structs (~45 CPU µs per MCR hand). msgspec is an optional dependency (the
  ``fast`` extra; ``make`` installs it with the dev extra).
- :mod:`mahjong_audit.schemas.log_fast_core`: pydantic-core builds frozen dataclasses (~160 µs per hand).

The first is used when msgspec is installed, unless ``MAHJONG_AUDIT_PURE`` is set (as for the
compiled engine, mahjong_audit/accel.py): ``make test`` runs the suite on the second,
``make test-accel`` on the first, and each has its own tests against the models.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mahjong_audit.accel import PURE_ENV

if TYPE_CHECKING:
    from mahjong_audit.schemas import log_fast_core, log_fast_msgspec

    Game = log_fast_msgspec.Game | log_fast_core.Game

try:
    if os.environ.get(PURE_ENV):
        raise ImportError(f"{PURE_ENV} is set")
    from mahjong_audit.schemas.log_fast_msgspec import parse_game_json

    IMPLEMENTATION = "msgspec"
except ImportError:
    from mahjong_audit.schemas.log_fast_core import parse_game_json  # type: ignore[assignment]

    IMPLEMENTATION = "pydantic-core"

__all__ = ["IMPLEMENTATION", "parse_game_json"]
