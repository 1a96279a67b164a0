"""The ``score`` command's input: one hand situation (see docs/score-cli.md).

Types are strict (``"false"`` is not a boolean, ``2.7`` not an integer). Errors that say
what is wrong carry their own pydantic error type (``bad_tile``, ``bad_meld``), which the
command turns into the error code of its result (:func:`error_code`). What a ruleset
knows (its tiles, its ``ruleset_fields``) is checked afterwards, by
:mod:`engine.situation_check`.
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
from mahjong_audit.engine.hand import Meld, MeldKind, WinSituation

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}


def _check_tile(v: str) -> str:
    try:
        T.tile(v)
    except T.TileError:
        raise PydanticCustomError("bad_tile", "{value!r} is not a tile", {"value": v}) from None
    return v


Tile = Annotated[StrictStr, AfterValidator(_check_tile), Field(description="canonical tile, e.g. '5p', '7z', '1f'")]
Offset = Annotated[StrictInt, Field(ge=1, le=3, description="supplier's seat offset: 1 left, 2 opposite, 3 right")]
Wind = Literal["E", "S", "W", "N"]


def _bad_meld(message: str) -> PydanticCustomError:
    return PydanticCustomError("bad_meld", message)


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
        if self.type == "chi":
            if self.tiles is None or len(self.tiles) != 3:
                raise _bad_meld("a chi needs 'tiles' (three tiles)")
            if self.tile is not None or self.concealed:
                raise _bad_meld("a chi has 'tiles' (and 'claimed'), not 'tile' or 'concealed'")
            return self
        if self.tile is None:
            raise _bad_meld(f"a {self.type} needs 'tile'")
        if self.tiles is not None:
            raise _bad_meld(f"a {self.type} has 'tile', not 'tiles'")
        if self.concealed and self.type != "kong":
            raise _bad_meld("only a kong can be concealed")
        if self.concealed and (self.from_ is not None or self.claimed is not None):
            raise _bad_meld("a concealed kong has no 'from' or 'claimed'")
        return self

    def to_meld(self) -> Meld:
        if self.type == "chi":
            tiles = tuple(sorted(T.tile(x) for x in self.tiles or ()))
            claimed = T.tile(self.claimed) if self.claimed else tiles[0]
            return Meld(MeldKind.CHI, tiles, claimed, self.from_ or 1)
        t = T.tile(self.tile or "")
        claimed = T.tile(self.claimed) if self.claimed else t
        if self.type == "pon":
            return Meld(MeldKind.PON, (t,) * 3, claimed, self.from_ or 1)
        if self.concealed:
            return Meld(MeldKind.CONCEALED_KONG, (t,) * 4)
        return Meld(MeldKind.KONG, (t,) * 4, claimed, self.from_ or 1)


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
        (:func:`engine.situation_check.parse_fields`), else the raw fields, frozen. The
        ``replacement`` kind joins them (the rulesets read it from there)."""
        if extra is None:
            extra = tuple(sorted((k, _freeze(v)) for k, v in self.ruleset_fields.items()))
        if self.replacement is not None:
            extra = tuple(sorted((*extra, ("replacement", self.replacement))))
        return WinSituation(
            concealed=tuple(T.tile(x) for x in self.concealed),
            melds=tuple(m.to_meld() for m in self.melds),
            win_tile=T.tile(self.win_tile), self_drawn=self.self_drawn,
            seat_wind=WINDS[self.seat_wind], round_wind=WINDS[self.round_wind],
            flowers=tuple(T.tile(x) for x in self.flowers), last_tile=self.last_tile,
            kong=self.kong or (self.self_drawn and self.replacement == "kong"),
            last_copy=self.last_copy, extra=extra,
        )


#: pydantic error types → the ``score`` error codes (engine.situation_check.ERRORS)
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
