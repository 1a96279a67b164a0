"""Registry of rulesets: ``RULESETS[name]`` is the Ruleset class of that name."""

from __future__ import annotations

import importlib

from mahjong_audit.engine.ruleset import OptionError, Ruleset

_MODULES = {
    "mcr": "mahjong_audit.engine.rulesets.mcr",
    "longgang": "mahjong_audit.engine.rulesets.longgang",
    "guangdong": "mahjong_audit.engine.rulesets.guangdong",
}


def _load() -> dict[str, type[Ruleset]]:
    out: dict[str, type[Ruleset]] = {}
    for name, module in _MODULES.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            continue  # ruleset not built yet
        out[name] = mod.RULESET
    return out


RULESETS: dict[str, type[Ruleset]] = _load()


def get(name: str, options: dict | None = None) -> Ruleset:
    """A ruleset instance bound to validated options (raises KeyError / OptionError)."""
    return RULESETS[name](options or {})


__all__ = ["OptionError", "RULESETS", "Ruleset", "get"]
