"""The fast validation path of a ``score`` line: the shape of :mod:`mahjong_audit.schemas.situation`, checked
by pydantic-core in one pass from the JSON text into plain dicts.

The pydantic models of :mod:`mahjong_audit.schemas.situation` stay the schema (docs, error codes and
messages). Building them costs more per line than the ruleset's checks, so the ``score``
command reads a line here first: the same fields, the same strict types, tile names,
winds, bounds and ``extra="forbid"``, then the models' meld shape check
(:func:`~mahjong_audit.schemas.situation.meld_shape_problem`). What this path accepts, the models accept
with the same values; it accepts less: anything else (every invalid line, a float ``id``,
a meld's ``from_`` spelled by its field name, a JSON text the parser does not take) gives
None, and the command reads the line again with ``json.loads`` and the models, which give
the result or the error. ``pydantic_core``'s JSON parser and ``json.loads`` agree on every
text both accept (numbers, escapes, duplicate keys: the last wins); tests/test_situation_fast.py
checks that, and that both paths give the same result for every line of bench/score_identity.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter
from typing_extensions import TypedDict

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.schemas.situation import meld_of, meld_shape_problem, win_situation

if TYPE_CHECKING:  # a Literal built at run time is no type to the checker
    Tile = str
else:
    Tile = Literal[tuple(T.name(t) for t in range(T.N_TILES))]  # checked in Rust: the names T.tile takes
Wind = Literal["E", "S", "W", "N"]
_CONFIG = ConfigDict(extra="forbid", strict=True)
# TypedDict of typing_extensions: pydantic takes typing.TypedDict only from Python 3.12 on

# "from" is a keyword: the functional form
FastMeld = TypedDict("FastMeld", {
    "type": Literal["chi", "pon", "kong"],
    "tiles": NotRequired[list[Tile] | None],
    "tile": NotRequired[Tile | None],
    "claimed": NotRequired[Tile | None],
    "from": NotRequired[Annotated[StrictInt, Field(ge=1, le=3)] | None],
    "concealed": NotRequired[StrictBool],
})
FastMeld.__pydantic_config__ = _CONFIG  # type: ignore[attr-defined]


class FastSituation(TypedDict):
    """:class:`mahjong_audit.schemas.situation.Situation` as a dict; absent keys take the model's defaults."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]

    id: NotRequired[StrictStr | StrictInt | None]
    ruleset: NotRequired[StrictStr | None]
    options: NotRequired[dict[str, Any]]
    concealed: list[Tile]
    melds: NotRequired[list[FastMeld]]
    win_tile: Tile
    self_drawn: NotRequired[StrictBool]
    seat_wind: NotRequired[Wind]
    round_wind: NotRequired[Wind]
    flowers: NotRequired[list[Tile]]
    last_tile: NotRequired[StrictBool]
    kong: NotRequired[StrictBool]
    last_copy: NotRequired[StrictBool]
    replacement: NotRequired[Literal["kong", "flower"] | None]
    ruleset_fields: NotRequired[dict[str, Any]]


_VALIDATE = TypeAdapter(FastSituation).validate_json


def read(line: str | bytes) -> FastSituation | None:
    """The line as a :class:`FastSituation`, or None when this path does not accept it."""
    try:
        d = _VALIDATE(line)
    except ValueError:  # pydantic's ValidationError, or a JSON text the parser refuses
        return None
    for m in d.get("melds", ()):
        if meld_shape_problem(m["type"], m.get("tiles"), m.get("tile"), m.get("claimed"), m.get("from"),
                              m.get("concealed", False)) is not None:
            return None
    return d


def to_situation(d: FastSituation, extra: tuple[tuple[str, object], ...]) -> WinSituation:
    """The engine's situation, as :meth:`mahjong_audit.schemas.situation.Situation.to_situation` builds it."""
    return win_situation(
        d["concealed"],
        tuple(meld_of(m["type"], m.get("tiles"), m.get("tile"), m.get("claimed"), m.get("from"),
                      m.get("concealed", False)) for m in d.get("melds", ())),
        d["win_tile"], d.get("self_drawn", False), d.get("seat_wind", "E"), d.get("round_wind", "E"),
        d.get("flowers") or [], d.get("last_tile", False), d.get("kong", False), d.get("last_copy", False),
        d.get("replacement"), extra,
    )


__all__ = ["FastMeld", "FastSituation", "read", "to_situation"]
