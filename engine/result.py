"""What auditing a game produces: immutable facts per hand and the game's findings.

``audit_game`` (mahjong_audit.engine.audit) returns a :class:`GameAudit`; the pipeline turns it into
table rows. Nothing here knows about Beam or DuckDB.

The classes built for every hand write their own ``__init__`` (the fields in order, with their
defaults), as engine/hand.py's do: compiled, it is native, where the one ``dataclasses``
generates stays interpreted.
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

    def __init__(self, seat: int, from_seat: int | None, tile: str, win_type: str, last_tile: bool, legal: bool,
                 score: Score | None, recorded_total: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "from_seat", from_seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "win_type", win_type)
        object.__setattr__(self, "last_tile", last_tile)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "recorded_total", recorded_total)


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

    def __init__(self, hand_no: int, dealer: int, round_wind: str, result: str, wins: tuple[WinFacts, ...],
                 false_wins: tuple[int, ...], computed_deltas: tuple[int, ...] | None,
                 recorded_deltas: tuple[int, ...] | None, seat_items: tuple[ScoreItem, ...], n_events: int,
                 n_findings: int, draw_reason: str | None = None, players: tuple[str, ...] = (),
                 standing: tuple[str, ...] = (), standing_computed: int | None = None,
                 standing_recorded: int | None = None, penalty_deltas: tuple[int, ...] = (),
                 chips: tuple[int, ...] | None = None, chip_facts: ChipFacts | None = None,
                 chances: Chances | None = None) -> None:
        object.__setattr__(self, "hand_no", hand_no)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "round_wind", round_wind)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "wins", wins)
        object.__setattr__(self, "false_wins", false_wins)
        object.__setattr__(self, "computed_deltas", computed_deltas)
        object.__setattr__(self, "recorded_deltas", recorded_deltas)
        object.__setattr__(self, "seat_items", seat_items)
        object.__setattr__(self, "n_events", n_events)
        object.__setattr__(self, "n_findings", n_findings)
        object.__setattr__(self, "draw_reason", draw_reason)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "standing", standing)
        object.__setattr__(self, "standing_computed", standing_computed)
        object.__setattr__(self, "standing_recorded", standing_recorded)
        object.__setattr__(self, "penalty_deltas", penalty_deltas)
        object.__setattr__(self, "chips", chips)
        object.__setattr__(self, "chip_facts", chip_facts)
        object.__setattr__(self, "chances", chances)


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

    def __init__(self, game_id: str, ruleset: str, platform: str | None, players: tuple[str, ...],
                 hands: tuple[HandFacts, ...], findings: tuple[Finding, ...], readings: str = "{}",
                 profile: str = "", profile_sha256: str = "") -> None:
        object.__setattr__(self, "game_id", game_id)
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "platform", platform)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "findings", findings)
        object.__setattr__(self, "readings", readings)
        object.__setattr__(self, "profile", profile)
        object.__setattr__(self, "profile_sha256", profile_sha256)

by_fields(WinFacts, ChipFacts, HandFacts, GameAudit)
