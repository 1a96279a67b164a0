"""Result rows: one pydantic model per DuckDB table.

The DuckDB DDL and the Arrow/Parquet schema are derived from these models
(``mahjong_audit.pipeline.tables``) through one explicit type map, and so are the named tuples the
pipeline builds its rows as (``mahjong_audit.pipeline.rows``: the fields of each model, in order), so the
tables cannot drift from the code that fills them. Every row carries the key it is replaced by on a re-run
(``game_id`` for game data, ``source_file`` for rejected records).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

# A point in time with its time zone (stored as TIMESTAMPTZ, UTC). Plain ``datetime`` fields
# are naive UTC timestamps (the runs table's own clock).
Instant = Annotated[AwareDatetime, "timestamptz"]


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RunRow(_Row):
    """One audit run."""

    run_id: str
    started_at: datetime
    finished_at: datetime
    version: str
    inputs: list[str]
    runner: str
    games: int
    hands: int
    findings: int
    rejected: int
    records: int | None = None  # records read (None in runs recorded before it was counted)
    duplicates: int | None = None


class RunFileRow(_Row):
    """One input file of a run: its records read, and what became of them.

    ``records = games + duplicates + rejected`` (a record an importer turns into several
    games counts once per game); the load checks it and the summary names a file where
    it does not hold."""

    run_id: str
    source_file: str
    records: int
    games: int
    duplicates: int
    rejected: int


class GameRow(_Row):
    """One audited game."""

    game_id: str
    run_id: str
    platform: str | None
    ruleset: str
    started_at: Instant | None = Field(description="when the game began (from the log), UTC")
    players: list[str]
    hands: int
    findings: int
    source_file: str
    source_line: int
    readings: str | None = Field(None, description="the readings the verdicts were reached under: the options "
                                 "that differ from the ruleset's defaults, as JSON ({} for none; null in rows "
                                 "written before it was recorded)")
    profile: str | None = Field(None, description="the house-rules profile (--rules FILE) the game was audited "
                                "under, by file name; null for none")
    profile_sha256: str | None = Field(None, description="the SHA-256 of that profile's bytes")


class HandRow(_Row):
    """One hand: result, main winner and the win's circumstances."""

    game_id: str
    hand_no: int
    ruleset: str
    round_wind: str
    dealer: int
    started_at: Instant | None = Field(None, description="the hand's own start if logged, else its game's")
    result: str = Field(description="win | draw | unfinished")
    draw_reason: str | None = Field(None, description="an abortive draw's rule (e.g. four_winds), or false_win "
                                    "(MCR false_win_ends_hand), or penalty_verdict (MCR penalty_verdicts); null for a win or an exhausted wall")
    winners: list[int]
    win_type: str | None = Field(description="self_drawn | discard | robbing_kong | kong_replacement")
    last_tile: bool
    winning_tile: str | None
    discarder: int | None
    total: int | None = Field(description="recomputed score total of the (first) winner")
    recorded_total: int | None
    false_wins: list[int]
    events: int
    findings: int
    players: list[str] | None = Field(
        None, description="who sat where this hand: the players in seats 0..3 (players[1] is seat 0); the seat "
                          "columns of hands, payouts, hand_scores and findings map to people through it. Null in "
                          "rows written before it existed: games.players then holds the seating")
    standing: list[str] | None = Field(None, description="five-player games: who stood out (岸上) this hand")
    chips: list[int] | None = Field(
        None, description="each player's chips (子) after the hand, in games.players order: the recorded balance, "
                          "else the recomputed one; null where the game keeps no chips (longgang logs recording them)")
    chips_broke: list[int] | None = Field(
        None, description="where chips are kept: the players who went broke (断子) in this hand, as the auditor "
                          "settles it; 0-based indexes into games.players, like chips")
    chips_rebuy: int | None = Field(None, description="where chips are kept: the player who re-bought (加筹) after "
                                                      "this hand (an index into games.players)")
    chips_end: bool | None = Field(None, description="where chips are kept: the game (牌局) ended with this hand "
                                                     "(a second 断子, or two in one hand)")
    # Claim chances (mahjong_audit.engine.chances), per ordered seat pair at index seat * 4 + from_seat (16 values),
    # for the collusion statistics' soft play; null where the hand was not replayed (an engine error).
    win_chances: list[int] | None = Field(None, description="times seat could have won on from_seat's discard")
    wins_passed: list[int] | None = Field(None, description="of win_chances, the wins let pass (not declared)")
    call_chances: list[int] | None = Field(None, description="times seat could have ponged/konged from_seat's "
                                           "discard")
    calls_passed: list[int] | None = Field(None, description="of call_chances, the calls let pass (not declared)")


class HandScoreRow(_Row):
    """One scoring item (a fan, a 胡 or 台 item) of one seat in one hand, recomputed."""

    game_id: str
    hand_no: int
    seat: int
    player: str | None
    ruleset: str
    item: str
    unit: str
    value: int
    count: int
    points: int


class PayoutRow(_Row):
    """Recorded vs recomputed score change of one player in one hand."""

    game_id: str
    hand_no: int
    seat: int | None = Field(description="the player's seat; null for a player standing out (five-player games)")
    player: str | None
    recorded: int | None
    computed: int | None
    diff: int | None = Field(description="recorded - computed")


class FindingRow(_Row):
    """One finding. Rows with a null game_id come from records that could not be read."""

    game_id: str | None
    hand_no: int | None
    seq: int | None
    seat: int | None
    kind: str
    code: str
    severity: str
    expected: str | None
    recorded: str | None
    message: str
    ruleset: str | None
    source_file: str
    source_line: int | None
    depends_on: list[str] | None = Field(
        None, description="the house-rules readings (option=value) under any one of which this error finding goes "
                          "away (mahjong_audit.engine.rechecks); empty: it holds under every documented reading. Null in rows "
                          "written before it existed")


class RejectedRow(_Row):
    """A record that could not be audited (bad JSON, schema error, importer failure)."""

    run_id: str
    source_file: str
    source_line: int | None
    game_id: str | None
    code: str
    message: str


class FileRow(_Row):
    """One input file as last audited: what ``audit --skip-audited`` compares."""

    path: str
    size: int
    mtime: datetime | None = Field(description="modification time (UTC) the filesystem reported")
    content_hash: str | None = Field(description="SHA-256 of the bytes as stored ('parts:' + the hash of "
                                     "the parts' hashes for a file read in byte ranges); null: not read "
                                     "to the end")
    lines: int
    run_id: str


class FilePartRow(_Row):
    """Staging only: what one shard read of one file (mahjong_audit.pipeline.splits.PartRead)."""

    source_file: str
    shard_start: int
    lines: int
    bytes_read: int
    sha256: str | None


class FileRecordsRow(_Row):
    """Staging only: records of one file parsed by one bundle (one per game for a record
    that holds several); the load sums them over all bundles and shards of the file
    into its ``run_files`` row."""

    source_file: str
    records: int


TABLES: dict[str, type[_Row]] = {
    "runs": RunRow,
    "games": GameRow,
    "hands": HandRow,
    "hand_scores": HandScoreRow,
    "payouts": PayoutRow,
    "findings": FindingRow,
    "rejected": RejectedRow,
    "files": FileRow,
    "run_files": RunFileRow,
}
# Tables the audit writes besides the rows of its games and records (not game data): the
# driver makes their rows at the load, none is staged.
BOOKKEEPING_TABLES = ("runs", "files", "run_files")
# Staged by the workers but never loaded as such.
STAGING_ONLY: dict[str, type[_Row]] = {"file_parts": FilePartRow, "file_records": FileRecordsRow}
