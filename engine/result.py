"""What auditing a game produces: immutable facts per hand and the game's findings.

``audit_game`` (mahjong_audit.engine.audit) returns a :class:`GameAudit`; the pipeline turns it into
table rows. Nothing here knows about Beam or DuckDB.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mahjong_audit.engine.chances import Chances
from mahjong_audit.engine.findings import Finding
from mahjong_audit.engine.hand import Score, ScoreItem
from mahjong_audit.engine.pickling import by_fields


@dataclass(frozen=True, slots=True)
class WinFacts:
    """One win as the engine replayed it. ``score`` is the recomputed one (None if unscorable)."""

    seat: int
    from_seat: int | None  # None for a self-drawn win
    tile: str
    win_type: str  # self_drawn | discard | robbing_kong | kong_replacement
    last_tile: bool
    legal: bool
    score: Score | None
    recorded_total: int | None = None


@dataclass(frozen=True, slots=True)
class ChipFacts:
    """What a hand did to a game's chips (龙港's 牌局), worked out by the auditor: each debt as paid
    (``(payer, payee, amount)``, indexes into the game's players; a short payer's below what it
    owed), who went broke (断子), who re-bought (加筹) and whether the game ended with the hand."""

    paid: tuple[tuple[int, int, int], ...] = ()
    broke: tuple[int, ...] = ()
    rebuy: int | None = None
    ended: bool = False


@dataclass(frozen=True, slots=True)
class HandFacts:
    hand_no: int
    dealer: int
    round_wind: str
    result: str  # win | draw | unfinished
    wins: tuple[WinFacts, ...]
    false_wins: tuple[int, ...]  # seats that declared a false win
    computed_deltas: tuple[int, ...] | None
    recorded_deltas: tuple[int, ...] | None
    seat_items: tuple[ScoreItem, ...]  # every computed scoring item, each with its seat
    n_events: int
    n_findings: int
    draw_reason: str | None = None  # an abortive draw (流局 before the wall ran out): the ruleset's reason
    players: tuple[str, ...] = ()  # who sat in seats 0..3 this hand (names; "" where the log names nobody)
    standing: tuple[str, ...] = ()  # five-player games: who stood out (岸上) this hand
    standing_computed: int | None = None  # each standing player's recomputed change (its 诈胡 share)
    standing_recorded: int | None = None  # outcome.out_delta as logged
    penalty_deltas: tuple[int, ...] = ()  # the 诈胡 part of computed_deltas, per seat (standing shares included)
    chips: tuple[int, ...] | None = None  # each player's chips after the hand (players order), where kept
    #: where chips are kept: the payments, 断子, 加筹 and end behind ``chips`` (derived from them and the
    #: hand's money, so left out of the repr the verdict digest hashes)
    chip_facts: ChipFacts | None = field(default=None, repr=False)
    #: who could have won or called on whose discard, and passed (mahjong_audit.engine.chances; statistics, not verdicts)
    chances: Chances | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class GameAudit:
    game_id: str
    ruleset: str
    platform: str | None
    players: tuple[str, ...]
    hands: tuple[HandFacts, ...]
    findings: tuple[Finding, ...]
    # The readings the verdicts were reached under (kept out of the repr, which is the verdict
    # bench.verdict_digest hashes): the options that differ from the ruleset's defaults, as JSON
    # text (mahjong_audit.engine.house_rules.readings_json), and the house-rules profile's name and SHA-256
    # ("" when none was given).
    readings: str = field(default="{}", repr=False)
    profile: str = field(default="", repr=False)
    profile_sha256: str = field(default="", repr=False)

by_fields(WinFacts, ChipFacts, HandFacts, GameAudit)
