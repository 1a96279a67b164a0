"""Finding kinds and codes: every code is a stable string with a one-line meaning.

A finding is what the auditor reports about one problem in a log. ``kind`` is one of the
spec's kinds; ``code`` refines it (``kind/detail``). ``CODES`` is the catalogue: tests
check that every code has a test that triggers it and one where it must not fire.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from mahjong_audit.engine.pickling import by_fields


class Kind(StrEnum):
    INVALID_LOG = "invalid_log"
    DUPLICATE_GAME = "duplicate_game"
    TILE_CONSERVATION = "tile_conservation"
    TURN_ORDER = "turn_order"
    ILLEGAL_CALL = "illegal_call"
    ILLEGAL_DISCARD = "illegal_discard"
    DEAD_HAND = "dead_hand"
    FALSE_WIN = "false_win"
    CLAIM_PRIORITY = "claim_priority"
    SCORE_MISMATCH = "score_mismatch"
    PAYOUT_MISMATCH = "payout_mismatch"
    OUTCOME_MISMATCH = "outcome_mismatch"
    CONTINUITY = "continuity"
    PLATFORM_QUIRK = "platform_quirk"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


# code -> one-line meaning. The code's prefix before '/' is its kind.
CODES: MappingProxyType[str, str] = MappingProxyType({
    "invalid_log/json": "the record is not valid JSON",
    "invalid_log/schema": "the record does not match the mahjong-log/1 schema",
    "invalid_log/import": "a platform record the importer cannot understand",
    "invalid_log/engine_error": "the replay engine failed on this game (a bug: reported, never fatal)",
    "duplicate_game/game_id": "a game_id already seen in the same input",
    "tile_conservation/too_many_copies": "more copies of a tile than the set has",
    "tile_conservation/deal_size": "a seat was dealt the wrong number of tiles",
    "tile_conservation/wall_mismatch": "a draw differs from the tile the wall gives",
    "tile_conservation/wall_exhausted": "a draw after the drawable wall is used up",
    "tile_conservation/not_in_set": "a tile that this ruleset's set does not contain",
    "tile_conservation/wildcard_indicator": "the wild-tile indicator is missing or not the wall's tile",
    "turn_order/wrong_seat": "an action by a seat whose turn it is not",
    "turn_order/wrong_phase": "an action of a kind not allowed at this point of the turn",
    "turn_order/after_end": "an event after the hand has ended",
    "turn_order/missing_replacement": "no replacement draw after a kong or flower",
    "turn_order/seabed": "a discard, call or kong during the seabed phase",
    "illegal_call/not_left_player": "a chi of a discard not made by the left player",
    "illegal_call/not_a_sequence": "a chi whose tiles do not form a sequence",
    "illegal_call/tiles_not_held": "a call using tiles the seat does not hold",
    "illegal_call/wrong_tile": "a call on a tile other than the last discard",
    "illegal_call/kong_after_call": "a kong in the same turn as a chi or pon",
    "illegal_call/no_pon_to_add": "an added kong without a matching pon",
    "illegal_call/wild_in_meld": "a wild tile used in a chi, pon or kong",
    "illegal_call/own_discard": "a call on the seat's own discard",
    "illegal_call/passed_pon": "a pon of a kind passed earlier in the same go-round (过水)",
    "illegal_call/not_allowed": "a call the ruleset does not have (e.g. chi where chi is off)",
    "illegal_discard/not_held": "a discard of a tile not in hand",
    "illegal_discard/wild": "a discard of a wild tile (陪打)",
    "illegal_discard/swap_call": "a discard the ruleset forbids straight after a call (换张)",
    "illegal_discard/flower": "a flower discarded instead of set aside",
    "dead_hand/too_many": "a seat holds one or more tiles too many (大相公)",
    "dead_hand/too_few": "a seat holds one or more tiles too few (小相公)",
    "dead_hand/missed_flower": "a flower not set aside and replaced when the ruleset requires it",
    "false_win/incomplete": "a declared win on a hand that is not complete (诈胡)",
    "false_win/below_minimum": "a declared win below the ruleset's minimum",
    "false_win/dead_hand": "a declared win by a dead (相公) seat",
    "false_win/passed_win": "a declared win under a passed-win restriction (过水)",
    "false_win/no_win_allowed": "a declared win by a seat barred from winning this hand (陪打, earlier false win)",
    "false_win/wrong_tile": "a declared win on a tile other than the discard / draw",
    "false_win/forbidden_wait": "a complete hand won in a way the ruleset forbids (longgang 三财神吊字牌)",
    "claim_priority/lower_call": "a lower-priority declaration carried out over a higher one",
    "claim_priority/seat_order": "among equal declarations, not the seat the order picks",
    "claim_priority/undeclared": "the carried-out call is not among the declared claims",
    "claim_priority/ignored_win": "a declared win was not carried out and nothing outranked it",
    "score_mismatch/fans": "the recorded fan / item list differs from the recomputed one",
    "score_mismatch/total": "the recorded total differs from the recomputed one",
    "payout_mismatch/delta": "a recorded per-seat delta differs from the recomputed one",
    "payout_mismatch/not_zero_sum": "the recorded deltas of a hand do not sum to zero",
    "outcome_mismatch/result": "recorded win/draw differs from what the events show",
    "outcome_mismatch/winners": "recorded winners differ from the winning events",
    "outcome_mismatch/missing": "a hand has no recorded outcome (nothing to compare)",
    "continuity/hand_no": "hand numbers are not consecutive from 0",
    "continuity/dealer": "the dealer is not the one the rotation gives",
    "continuity/round_wind": "the round wind is not the one the rotation gives",
    "continuity/final_scores": "final scores differ from initial scores plus the hand deltas",
    "continuity/seating": "a five-player game: who sits where is not what the substitute rotation gives",
    "continuity/chips": "a player's recorded chips after a hand differ from the game's running balance, or a hand "
                        "is played after the game ended (断子)",
    "platform_quirk/multiple_win_payout": "a multiple win whose payout rule the platform does not document",
    "platform_quirk/platform_fan": "a win scored with a fan the platform has and the ruleset does not (雀渣's 天和, "
                                   "地和, 人和): the other fans are compared, the deltas are not",
})


def kind_of(code: str) -> Kind:
    return Kind(code.split("/", 1)[0])


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a game. ``hand_no``/``seq``/``seat`` are None where not applicable.

    ``depends_on``: the house-rules readings (``option=value``) under any one of which this
    error goes away (mahjong_audit.engine.rechecks); empty for an error that holds under every reading."""

    code: str
    message: str
    hand_no: int | None = None
    seq: int | None = None
    seat: int | None = None
    severity: Severity = Severity.ERROR
    expected: str | None = None
    recorded: str | None = None
    # An annotation of the re-checks (mahjong_audit.engine.rechecks), not a verdict of the audit: left out of
    # repr, so bench.verdict_digest (a hash of the audits' reprs) measures verdicts alone.
    depends_on: tuple[str, ...] = field(default=(), repr=False)

    @property
    def kind(self) -> Kind:
        return kind_of(self.code)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown finding code {self.code!r}")


by_fields(Finding)


def markdown_table() -> str:
    """The code catalogue as a Markdown table (docs/findings.md is generated from it)."""
    lines = ["| code | kind | meaning |", "|---|---|---|"]
    for code, meaning in CODES.items():
        lines.append(f"| `{code}` | {kind_of(code).value} | {meaning} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # python -m mahjong_audit.engine.findings > docs/findings.md
    print(markdown_table(), end="")
