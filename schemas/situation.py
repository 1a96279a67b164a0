"""The ``score`` command's input: one hand situation (see docs/score-cli.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine import tiles as T
from engine.hand import Meld, MeldKind, WinSituation
from schemas.log import Tile

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
Offset = Annotated[int, Field(ge=1, le=3, description="supplier's seat offset: 1 left, 2 opposite, 3 right")]


class MeldIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    type: Literal["chi", "pon", "kong"]
    tiles: list[Tile] | None = Field(None, description="chi: the three tiles")
    tile: Tile | None = Field(None, description="pon / kong: the tile")
    claimed: Tile | None = None
    from_: Offset | None = Field(None, alias="from")
    concealed: bool = False

    @model_validator(mode="after")
    def _shape(self) -> MeldIn:
        if self.type == "chi" and (self.tiles is None or len(self.tiles) != 3):
            raise ValueError("a chi needs 'tiles' (three tiles)")
        if self.type != "chi" and self.tile is None:
            raise ValueError(f"a {self.type} needs 'tile'")
        return self

    def to_meld(self) -> Meld:
        if self.type == "chi":
            tiles = tuple(sorted(T.tile(x) for x in self.tiles or ()))
            claimed = T.tile(self.claimed) if self.claimed else tiles[0]
            return Meld(MeldKind.CHI, tiles, claimed, self.from_ or 1)
        t = T.tile(self.tile or "")
        if self.type == "pon":
            return Meld(MeldKind.PON, (t,) * 3, t, self.from_ or 1)
        if self.concealed:
            return Meld(MeldKind.CONCEALED_KONG, (t,) * 4)
        return Meld(MeldKind.KONG, (t,) * 4, t, self.from_ or 1)


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    concealed: list[Tile]
    melds: list[MeldIn] = Field(default_factory=list)
    win_tile: Tile
    self_drawn: bool = False
    seat_wind: Literal["E", "S", "W", "N"] = "E"
    round_wind: Literal["E", "S", "W", "N"] = "E"
    flowers: list[Tile] = Field(default_factory=list)
    last_tile: bool = False
    kong: bool = False
    last_copy: bool = False
    replacement: Literal["kong", "flower"] | None = Field(
        None, description="a self-drawn win on a replacement tile: after a kong or a flower (补花)")
    ruleset_fields: dict[str, Any] = Field(default_factory=dict)

    def to_situation(self) -> WinSituation:
        fields = dict(self.ruleset_fields)
        if self.replacement is not None:
            fields["replacement"] = self.replacement
        extra = tuple(sorted((k, _freeze(v)) for k, v in fields.items()))
        return WinSituation(
            concealed=tuple(T.tile(x) for x in self.concealed),
            melds=tuple(m.to_meld() for m in self.melds),
            win_tile=T.tile(self.win_tile), self_drawn=self.self_drawn,
            seat_wind=WINDS[self.seat_wind], round_wind=WINDS[self.round_wind],
            flowers=tuple(T.tile(x) for x in self.flowers), last_tile=self.last_tile,
            kong=self.kong or (self.self_drawn and self.replacement == "kong"),
            last_copy=self.last_copy, extra=extra,
        )


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v
