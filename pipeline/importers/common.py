"""Helpers shared by the platform importers: event building, Botzone tile names, MCR fan values.

Everything here is plain data in, plain dicts out; the importers themselves decide what a
platform record means.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.rulesets.mcr_fans import ALIASES, FAN_BY_ZH
from mahjong_audit.pipeline.importers.base import ImportFailure

#: Botzone tile names → canonical tiles. J1/J2/J3 are 中/发/白 (7z/6z/5z).
BOTZONE_SUITS = {"W": "m", "B": "p", "T": "s"}
BOTZONE_HONOURS = {"F1": "1z", "F2": "2z", "F3": "3z", "F4": "4z", "J1": "7z", "J2": "6z", "J3": "5z"}

#: MCR options of every Botzone game: 136 tiles, a 21-tile wall per seat after the deal,
#: its judge's reading of waits in a 组合龙 hand, and a false 和 ends the hand (docs/rules/mcr.md)
BOTZONE_OPTIONS = {"flowers": False, "seat_wall_size": 21, "knitted_waits": "botzone", "false_win_ends_hand": True}

#: platform call words → mahjong-log/1 claim calls
CALLS = {"hu": "win", "peng": "pon", "gang": "kong", "chi": "chi"}


def botzone_tile(text: str) -> str:
    """``'W3'`` → ``'3m'``, ``'J1'`` → ``'7z'``; ImportFailure for anything else."""
    if text in BOTZONE_HONOURS:
        return BOTZONE_HONOURS[text]
    if len(text) == 2 and text[0] in BOTZONE_SUITS and text[1] in "123456789":
        return text[1] + BOTZONE_SUITS[text[0]]
    raise ImportFailure(f"{text!r} is not a Botzone tile")


def chi_tiles(middle: str, claimed: str) -> list[str]:
    """The two tiles a chi takes from hand, given the sequence's middle tile and the claimed tile."""
    m, c = T.tile(middle), T.tile(claimed)
    if not T.is_suited(m) or T.rank(m) in (1, 9):
        raise ImportFailure(f"chi with middle tile {middle}: not the middle of a sequence")
    seq = [m - 1, m, m + 1]
    if c not in seq:
        raise ImportFailure(f"chi around {middle} cannot use the claimed {claimed}")
    seq.remove(c)
    return [T.name(x) for x in seq]


def fan_value(name: str) -> int:
    """Official value of an MCR fan named in Chinese (platform spellings accepted)."""
    fan = FAN_BY_ZH.get(name) or FAN_BY_ZH.get(ALIASES.get(name, ""))
    if fan is None:
        raise ImportFailure(f"unknown MCR fan {name!r}")
    return fan.value


class Events:
    """Collects a hand's events, numbering ``seq`` from 1."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, type_: str, seat: int, **fields: Any) -> dict[str, Any]:
        ev: dict[str, Any] = {"seq": len(self.items) + 1, "type": type_, "seat": seat}
        for k, v in fields.items():
            if v is not None:
                ev["from" if k == "from_" else k] = v
        self.items.append(ev)
        return ev

    @property
    def last(self) -> dict[str, Any] | None:
        return self.items[-1] if self.items else None


def add_claims(event: dict[str, Any], claims: Iterable[tuple[int, str]], actor: int) -> None:
    """Attach declared claims (seat, call) to a discard or added kong, nearest seat first."""
    seen: list[dict[str, Any]] = []
    for seat, call in sorted(set(claims), key=lambda c: ((c[0] - actor) % 4, c[1])):
        seen.append({"seat": seat, "call": call})
    if seen:
        event["claims"] = seen


def seat_list(values: Iterable[Any], what: str, cast=int) -> list[Any]:
    out = list(values)
    if len(out) != 4:
        raise ImportFailure(f"{what}: expected 4 values, got {len(out)}")
    try:
        return [cast(v) for v in out]
    except (TypeError, ValueError):
        raise ImportFailure(f"{what}: not numbers: {out}") from None
