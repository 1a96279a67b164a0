"""The ``score`` command's input: one hand situation (see docs/score-cli.md).

Types are strict (``"false"`` is not a boolean, ``2.7`` not an integer). Errors that say
what is wrong carry their own pydantic error type (``bad_tile``, ``bad_meld``), which the
command turns into the error code of its result (:func:`error_code`). What a ruleset
knows (its tiles, its ``ruleset_fields``) is checked afterwards, by
:mod:`mahjong_audit.engine.situation_check`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, WinSituation
from mahjong_audit.engine.score_lines import meld_of, meld_shape_problem, situation_of


def _check_tile(v: str) -> str:
    try:
        T.tile(v)
    except T.TileError:
        raise PydanticCustomError("bad_tile", "{value!r} is not a tile", {"value": v}) from None
    return v


Tile = Annotated[StrictStr, AfterValidator(_check_tile), Field(description="canonical tile, e.g. '5p', '7z', '1f'")]
Offset = Annotated[StrictInt, Field(ge=1, le=3, description="supplier's seat offset: 1 left, 2 opposite, 3 right")]
Wind = Literal["E", "S", "W", "N"]


class MeldIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True)

    type: Literal["chi", "pon", "kong"]
    tiles: list[Tile] | None = Field(None, description="chi: the three tiles")
    tile: Tile | None = Field(None, description="pon / kong: the tile")
    claimed: Tile | None = None
    from_: Offset | None = Field(None, alias="from")
    concealed: StrictBool = False

    @model_validator(mode="after")
    def _shape(self) -> MeldIn:
        problem = meld_shape_problem(self.type, self.tiles, self.tile, self.claimed, self.from_, self.concealed)
        if problem is not None:
            raise PydanticCustomError("bad_meld", problem)
        return self

    def to_meld(self) -> Meld:
        return meld_of(self.type, self.tiles, self.tile, self.claimed, self.from_, self.concealed)


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: StrictStr | StrictInt | StrictFloat | None = Field(
        None, description="any string or number; echoed in the result so callers can join results to inputs")
    ruleset: StrictStr | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    concealed: list[Tile]
    melds: list[MeldIn] = Field(default_factory=list)
    win_tile: Tile
    self_drawn: StrictBool = False
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    flowers: list[Tile] = Field(default_factory=list)
    last_tile: StrictBool = False
    kong: StrictBool = False
    last_copy: StrictBool = False
    replacement: Literal["kong", "flower"] | None = Field(
        None, description="a self-drawn win on a replacement tile: after a kong or a flower (补花)")
    ruleset_fields: dict[str, Any] = Field(default_factory=dict)

    def to_situation(self, extra: tuple[tuple[str, object], ...] | None = None) -> WinSituation:
        """The engine's situation; ``extra`` is the parsed ``ruleset_fields``
        (:func:`mahjong_audit.engine.situation_check.parse_fields`), else the raw fields, frozen. The
        ``replacement`` kind joins them (the rulesets read it from there)."""
        if extra is None:
            extra = tuple(sorted((k, _freeze(v)) for k, v in self.ruleset_fields.items()))
        return situation_of(self, extra)  # compiled with the engine (mahjong_audit/engine/score_lines.py)


#: pydantic error types → the ``score`` error codes (mahjong_audit.engine.situation_check.ERRORS)
_CODES = {"extra_forbidden": "unknown_field", "missing": "missing_field", "literal_error": "bad_value",
          "greater_than_equal": "bad_value", "less_than_equal": "bad_value",
          "bad_tile": "bad_tile", "bad_meld": "bad_meld"}


def error_code(err: ValidationError) -> str:
    """The error code of the first problem pydantic found (wrong types → ``wrong_type``)."""
    errors = err.errors()
    return _CODES.get(errors[0]["type"], "wrong_type") if errors else "wrong_type"


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v
