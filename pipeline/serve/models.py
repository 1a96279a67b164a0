"""The service's request and response models: built of the tables' own row models
(``mahjong_audit.schemas.results``), so ``/openapi.json`` describes each field as the tables hold it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mahjong_audit.schemas.results import (
    FindingRow,
    GameRow,
    HandRow,
    HandScoreRow,
    PayoutRow,
    RejectedRow,
)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Verdict(_Model):
    """One record of a request as the tables hold it once committed: an audited game (its
    ``games`` row, each hand's recomputed totals, scoring items and payouts, its findings),
    a rejected record (its ``rejected`` row and ``invalid_log`` finding, and ``error``: the
    line ``validate`` prints for it) or a later copy of a game_id in the same request
    (``duplicate``: one ``duplicate_game/game_id`` finding, the first copy is kept)."""

    status: Literal["audited", "rejected", "duplicate"]
    game_id: str | None
    source_file: str = Field(description="where the service recorded the record: serve://<request id>")
    source_line: int | None = Field(description="line of the record in the request body (1-based)")
    game: GameRow | None = None
    hands: list[HandRow] = []
    scores: list[HandScoreRow] = []
    payouts: list[PayoutRow] = []
    findings: list[FindingRow] = []
    rejected: RejectedRow | None = None
    error: str | None = Field(None, description="a rejected record: file:line: code [game_id]: message, "
                                                "as `mahjong-audit validate` gives it")


class Batch(_Model):
    """The verdicts of a JSON Lines body or of a platform file (``?from=``), in body order."""

    records: int = Field(description="verdicts below = audited games + duplicates + rejected records")
    games: int
    duplicates: int
    rejected: int
    verdicts: list[Verdict]


class Problem(_Model):
    """A request refused as a whole (nothing was stored)."""

    detail: str


class FoundRow(FindingRow):
    """A finding, with when the service received its record."""

    received_at: datetime | None = Field(description="when the request holding the record came in (UTC)")


class FindingsPage(_Model):
    """Findings newest first; ``next``: pass it as ``before`` for the page after this one."""

    findings: list[FoundRow]
    next: str | None


class Summary(_Model):
    """This service's counters since it started (the live page polls them)."""

    started_at: datetime
    database: str
    games: int
    hands: int
    findings: int
    findings_by_kind: dict[str, int]
    rejected: int
    requests: int
    commits: int
    queue_depth: int
    read_copy_at: datetime | None = Field(description="when the read copy for stats and report was last published")


class Health(_Model):
    status: Literal["ok", "failing"]
    detail: str = ""
