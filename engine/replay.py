"""The replay state machine: applies a hand's events one by one and checks each.

The machine keeps every seat's concealed tiles, melds, flowers and discards, the wall
position and whose move it is. Each logged event is checked against what the state
allows (turn order, calls, discards, wins); a violation becomes a :class:`Finding` and
the event is applied anyway where that makes sense, so one bad move never stops the
audit of the rest of the hand (python-chess's "collect errors" replay).

The phases (``HandReplay.phase``, which rulesets read as ``TableView.phase``) are the
module constants :data:`DRAW`, :data:`ACT`, :data:`REPLACE`, :data:`CLAIM`, :data:`ROB`,
:data:`SEABED` and :data:`ENDED`.

Every win, declared or asked about, is judged by :meth:`HandReplay.judge_win`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, NamedTuple, cast

import msgspec

from mahjong_audit.engine import chances as C
from mahjong_audit.engine import seabed as SB
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.chances import HONOURS_EMPTY, KEY_SHIFT, ChanceTally
from mahjong_audit.engine.findings import Finding, Severity
from mahjong_audit.engine.hand import (
    Meld,
    MeldKind,
    NotAWin,
    Score,
    WinSituation,
    early_ready_extra,
    early_ready_moments,
    situation_extra,
)
from mahjong_audit.engine.phases import ACT, CLAIM, DRAW, ENDED, PHASES, REPLACE, ROB, SEABED  # noqa: F401 — PHASES: the replay's catalogue
from mahjong_audit.engine.ruleset import (
    DiscardContext,
    HandEnd,
    Ruleset,
    SeatEnd,
    TableView,
    WinEnd,
)
from mahjong_audit.engine.tiles import i64
from mahjong_audit.schemas import log as L

CALL_RANK: Final = {"win": 3, "kong": 2, "pon": 2, "chi": 1}
#: the event types, each applied by ``HandReplay.on_<type>`` (:meth:`HandReplay._step` dispatches on the type)
EVENT_TYPES: Final = ("draw", "flower", "discard", "chi", "pon", "kong", "concealed_kong", "added_kong", "ready", "win")
# the codes of the event types (their place in EVENT_TYPES), on which _step dispatches: int tests, not string ones
EV_DRAW: Final = 0
EV_FLOWER: Final = 1
EV_DISCARD: Final = 2
EV_CHI: Final = 3
EV_PON: Final = 4
EV_KONG: Final = 5
EV_CONCEALED_KONG: Final = 6
EV_ADDED_KONG: Final = 7
EV_READY: Final = 8
EV_WIN: Final = 9
_TYPE_CODES: Final[dict[str, int]] = {typ: code for code, typ in enumerate(EVENT_TYPES)}
#: the type code of the events of a class whose events all have one type (:func:`event_code`), learnt on first
#: sight; plus :data:`ROWED` for a class whose events are read as a row
_CLASS_CODES: Final[dict[type, int]] = {}
#: a draw's and a discard's fields as the fast path's Structs lay them out (``__struct_fields__``): the events
#: of a class laid out so are read as a row (:data:`ROWED`)
_ROW_FIELDS: Final[dict[int, tuple[str, ...]]] = {
    EV_DRAW: ("seq", "seat", "tile", "from_"), EV_DISCARD: ("seq", "seat", "tile", "claims")}
#: added to the code a class's events have (:data:`_CLASS_CODES`) when they are msgspec Structs of the fields of
#: :data:`_ROW_FIELDS`: ``_step`` takes the seat, the tile and the draw's source or the discard's claims from one
#: :func:`msgspec.structs.astuple` of the event (one call, ~290 instructions compiled with the tuple's freeing)
#: instead of three generic attribute lookups (~160 each): draws and discards are ~90 % of a hand's events
ROWED: Final = 16
#: msgspec.structs.astuple (Final: compiled, a C static, not a look-up in the module's dict on every call)
_astuple: Final = cast(Callable[[object], tuple[Any, ...]], msgspec.structs.astuple)


def event_code(ev: L.Event) -> int:
    """The code of an event's type (its place in :data:`EVENT_TYPES`; KeyError for no event type).

    The fast validation path's events (msgspec Structs, schemas/log_fast.py) hold their type as
    their class's tag, a plain class attribute, and no attribute of their own but their fields:
    every event of such a class has the class's type, so its code is remembered by class and
    looked up by the event's class (a look-up by identity), not read from each event (a generic
    attribute lookup) and compared with the type names. Any other event (a model, whose type is
    a field; a stand-in) has its type read each time."""
    cls = type(ev)
    code = _CLASS_CODES.get(cls, -1)
    if code >= 0:
        return code % ROWED
    typ: str = ev.type
    code = _TYPE_CODES[typ]
    if vars(cls).get("type") == typ and getattr(cls, "__dictoffset__", -1) == 0:
        rowed = isinstance(ev, msgspec.Struct) and getattr(cls, "__struct_fields__", None) == _ROW_FIELDS.get(code)
        _CLASS_CODES[cls] = code + ROWED if rowed else code
    return code


def seq_of(ev: L.Event | None) -> int | None:
    """An event's seq (None for none)."""
    return ev.seq if ev is not None else None


def tiles_of(counts: list[int]) -> tuple[int, ...]:
    """Per-tile counts -> the sorted tiles they hold."""
    # a comprehension over plain ints: compiled, a native loop (itertools' chain/repeat are looked up
    # and called through Python on every tile kind)
    return tuple([t for t, n in enumerate(counts) if n > 0 for _ in range(n)])


class SeatState:
    """One seat's state in the replay (mutable). A plain class, not a dataclass: compiled, its
    ``__init__`` is native (a dataclass's generated one stays interpreted), and one is built per
    seat and hand."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hand: list[int] = [0] * T.N_TILES
        self.melds: list[Meld] = []
        self.flowers: list[int] = []
        self.discards: list[int] = []
        self.wilds: frozenset[int] = frozenset()
        self.dead: str | None = None  # 相公: the finding code that made it so
        self.barred: str | None = None  # may not win (false win, wild discarded, …)
        self.passed_win = False  # 过水 on wins
        self.passed_pon: set[int] = set()
        self.called: Meld | None = None  # chi/pon made this turn (kong-after-call, swap-calling)
        self.last_draw: int | None = None
        self.last_draw_back = False
        self.pending_back = 0  # replacement draws owed
        self.ready = False  # declared a ready hand (报听)
        self.back_reasons: list[str] = []  # "kong" / "flower", in order owed
        self.last_back_reason: str | None = None
        self.feeders: list[int] = []  # seat that supplied each claimed set
        self.seabed_draws = 0  # tiles received in the seabed phase (kept, never discarded)
        self.declined_win = False  # could have won this hand and did not (rulesets with tracks_declined_wins)
        self.heavenly_ready = False  # 天听: ready right after its first discard (rulesets with tracks_early_ready)
        self.earthly_ready = False  # 地听: ready within the first eight wall draws, before any call
        self.own_discards = 0  # discards made (claimed ones too), counted when tracks_early_ready
        # add()'s counters and keys are tiles.i64 (unboxed, plain C arithmetic when compiled)
        self.size: i64 = 0  # sum(hand), kept up to date by add() so the per-event count check is O(1)
        self.version: i64 = 0  # bumped by every add(): the win-shape answers are cached per state (ChanceTally.shape_wins)
        # the hand's four suit keys as the claim chances' shape gate reads them (chances.KEY_SHIFT), kept by add()
        self.key_m: i64 = 0
        self.key_p: i64 = 0
        self.key_s: i64 = 0
        self.key_z: i64 = HONOURS_EMPTY
        self.off_keys: i64 = 0  # kinds whose count is below 0 or above 15: the keys then pack no hand
        self.flowers_held: i64 = 0  # flower kinds with a count in hand (not 0)

    def add(self, t: i64, n: i64 = 1) -> None:
        hand = self.hand
        c: i64 = hand[t]
        after = c + n
        hand[t] = after
        self.size += n
        self.version += 1
        if t >= T.FLOWER0:
            if (c == 0) != (after == 0):
                self.flowers_held += 1 if c == 0 else -1
            return
        d = n << KEY_SHIFT[t]
        if t < 9:
            self.key_m += d
        elif t < 18:
            self.key_p += d
        elif t < 27:
            self.key_s += d
        else:
            self.key_z += d
        # one test while both counts are within 0..15 (bits above the fourth: a count outside, or below 0)
        if (c | after) & -16 and (c < 0 or c > 15) != (after < 0 or after > 15):
            self.off_keys += 1 if after < 0 or after > 15 else -1

    def count(self) -> int:
        return self.size + 3 * len(self.melds)

    def concealed(self) -> tuple[int, ...]:
        return tiles_of(self.hand)


class WinRecordInternal:
    """A declared win as the replay recorded it (mutable: a shared win is scored again). A plain
    class, so that its ``__init__`` is native when compiled."""

    def __init__(self, seat: int, from_seat: int | None, tile: int, win_type: str, last_tile: bool,
                 situation: WinSituation | None, score: Score | None, legal: bool) -> None:
        self.seat = seat
        self.from_seat = from_seat
        self.tile = tile
        self.win_type = win_type
        self.last_tile = last_tile
        self.situation = situation
        self.score = score
        self.legal = legal


class WinKind(NamedTuple):
    """How a declared win was made, as its resolver in :meth:`HandReplay.on_win` reads the log and
    the table. (Named tuples: built on every win and what-if, they cost less than frozen dataclasses
    in the pure engine.)"""

    win_type: str  # "self_drawn", "kong_replacement" (杠上开花), "discard" or "robbing_kong"
    from_seat: int | None  # the seat that supplied the tile; None for a win by the seat itself (self-drawn)
    kong: bool  # 杠上开花 when self-drawn, 抢杠和 otherwise
    last_tile: bool  # 妙手回春 / 海底捞月 when self-drawn, 河底捞鱼 on a discard


class WinJudgement(NamedTuple):
    """The replay's verdict on one win (:meth:`HandReplay.judge_win`).

    ``situation`` is None when the seat does not hold the winning tile; ``score`` is what a
    declared win records: the ruleset's score of a legal win or of one below the minimum, else
    None; ``reason`` is (finding code, message) for a win that is not legal, None for a legal one."""

    situation: WinSituation | None
    score: Score | None
    reason: tuple[str, str] | None


_new_tuple: Final = tuple.__new__


def _judged(situation: WinSituation | None, score: Score | None, reason: tuple[str, str] | None) -> WinJudgement:
    """``WinJudgement(situation, score, reason)`` made by ``tuple.__new__``: the named tuple's own
    ``__new__`` is interpreted Python code (~2 k instructions a judgement in the compiled replay)."""
    return _new_tuple(WinJudgement, (situation, score, reason))


class ReplayRules:
    """What the replay reads of a ruleset every hand, read once per ruleset instance
    (:meth:`of`): its switches and sizes are class attributes or option properties, a generic
    lookup each when read from the ruleset (compiled), ~20 of them a hand. They never change
    for an instance (its class and its immutable options give them), and a ruleset is shared
    by every hand of a game, or every game with the same options (``Ruleset.for_options``).
    A plain class: compiled, its attributes are native."""

    def __init__(self, rs: Ruleset) -> None:
        self.copies: tuple[int, ...] = rs.copies
        self.copies_total = sum(self.copies)
        self.hand_size: int = rs.hand_size
        self.dead_wall: int = rs.dead_wall
        self.seabed: int = rs.seabed
        self.seabed_reserve: int = rs.seabed_reserve
        self.seat_wall_size: int = rs.seat_wall_size
        self.abortive: bool = rs.checks_abortive_draws
        self.context_kinds: frozenset[int] | None = rs.discard_context_kinds
        self.discard_context: bool = rs.discard_context
        self.passed_win_rule: bool = rs.passed_win_rule
        self.passed_pon_rule: bool = rs.passed_pon_rule
        self.tracks_declined_wins: bool = rs.tracks_declined_wins
        #: the claim-window scan of the other seats (过水, passed pons, declined wins) has work to do
        self.scans_claim_window = self.passed_win_rule or self.tracks_declined_wins or self.passed_pon_rule
        self.unkept_flower_is_dead: bool = rs.unkept_flower_is_dead
        self.swap_calling_allowed: bool = rs.swap_calling_allowed
        self.multiple_winners: bool = rs.multiple_winners
        self.nearest_first = rs.winner_order == "nearest"  # the claims' seat order (priority_key)
        self.tracks_early_ready: bool = rs.tracks_early_ready
        self.chi_allowed: bool = rs.chi_allowed
        #: the claim chances' shape answers (ChanceTally.new_state): the ruleset's own quick no, or the gate's
        self.own_quick_no = C.own_quick_no(rs)
        self.gated = C.gated(rs)

    @staticmethod
    def of(rs: Ruleset) -> ReplayRules:
        """The ruleset's :class:`ReplayRules`, built on its first hand (kept in ``rs.replay_rules``)."""
        rules = rs.replay_rules
        if rules is None:
            rules = rs.replay_rules = ReplayRules(rs)
        return cast(ReplayRules, rules)


class HandReplay:
    """Replays one hand. ``run()`` returns the findings; results are attributes."""

    #: check every seat's tile count after every event, not only the seats the event can change
    #: (the same findings, slower: tests compare the two)
    FULL_COUNT_CHECK = False

    def __init__(self, ruleset: Ruleset, hand: L.Hand, round_wind: int):
        self.rs = ruleset
        self.h = hand
        self.round_wind = round_wind
        self.dealer = hand.dealer
        self.findings: list[Finding] = []
        self.seats = [SeatState(s) for s in range(4)]
        rules = ReplayRules.of(ruleset)
        self.rules = rules
        self.copies = rules.copies
        self.pool = list(self.copies)  # copies not yet seen
        self.indicator = T.tile(hand.wildcard_indicator) if hand.wildcard_indicator else None
        self.turn = hand.dealer
        self.phase: str = DRAW
        self.saved: tuple[int, str] | None = None  # (turn, phase) to return to after replacement draws
        # the last discard (the open one in a claim window): its seat (-1: none yet), tile and event
        self.last_discarder = -1
        self.last_discard_tile = 0
        self.last_discard_event: L.Discard | None = None
        self.last_added_kong: tuple[int, int] | None = None  # (seat, tile)
        self.claims: list[L.Claim] | None = None
        self.claim_event: L.Discard | L.AddedKong | None = None  # the discard or added kong whose claims are open
        self.discards_made = 0
        self.live_drawn = 0
        self.back_drawn = 0
        self.wins: list[WinRecordInternal] = []
        self.false_wins: list[int] = []
        self.penalties = [0, 0, 0, 0]
        self.ended = False
        self.after_end_reported = False
        self.first_go_round = True
        #: the event being applied (None at the deal and after the last one): a finding takes its seq,
        #: read only then (an attribute of a log object is a generic lookup)
        self.event: L.Event | None = None
        #: the classes of the last two events whose class gives their type (:func:`event_code`), and
        #: their type codes: draws and discards take turns, so most events find their class here (an
        #: identity test) without a look-up
        self.last_class: type | None = None
        self.last_code = -1
        self.prev_class: type | None = None
        self.prev_code = -1
        self.seat_wall_pos = [0, 0, 0, 0]
        self.visible = [0] * T.N_TILES  # tiles shown on the table (discards, exposed melds)
        self.pending_end = False  # a legal win on a discard that others may still share
        self.window_wins: set[int] = set()  # seats that declared a win in the open claim window
        self.exhausted = False
        self.seabed_left = 0  # seabed tiles still to hand out
        self.seabed_drawer: int | None = None  # the seat that received the last seabed tile
        self.discarded = [0] * T.N_TILES  # every discard of the hand, claimed ones too
        self.discard_fields: tuple[tuple[str, object], ...] = ()  # the ruleset's discard_extra for the open discard
        #: every discard of the hand in order, its seat and tile as ``seat << 6 | tile`` (no tuple per discard)
        self.discard_log: list[int] = []
        self.kongs: list[tuple[int, int]] = []  # (seat, discards made before it) of every kong, in order
        self.draw_reason: str | None = None  # an abortive draw (流局) the ruleset declared
        # the ruleset's constants the events read, as attributes of the replay (ReplayRules: read once per ruleset)
        self.hand_size = rules.hand_size
        self.abortive = rules.abortive
        self.context_kinds = rules.context_kinds
        self.seat_wall_size = rules.seat_wall_size
        self.scans_claim_window = rules.scans_claim_window
        self.unkept_flower_is_dead = rules.unkept_flower_is_dead
        self.tracks_declined_wins = rules.tracks_declined_wins
        self.discard_context = rules.discard_context
        self.swap_calling_allowed = rules.swap_calling_allowed
        self.multiple_winners = rules.multiple_winners
        self.nearest_first = rules.nearest_first
        self.seabed = rules.seabed
        self.wall = hand.wall  # the logged shared wall (None: not logged), read on every draw
        self.own_wall_sizes: tuple[int, ...] | None = (
            tuple(len(w) for w in hand.seat_walls) if hand.seat_walls is not None
            else (self.seat_wall_size,) * 4 if self.seat_wall_size else None)
        #: drawable tiles of one shared wall before any draw (None: per-seat walls)
        self.shared_wall_size: int | None = (
            len(hand.wall) - rules.dead_wall if hand.wall is not None
            else None if self.own_wall_sizes is not None
            else rules.copies_total - sum(len(d) for d in hand.deal) - (1 if self.indicator is not None else 0)
            - rules.dead_wall)
        # the deal and the seabed
        self.dead_shift = 0  # tiles the seabed replacement procedure moved into (+) or out of (−) the dead wall
        self.reserve_left = rules.seabed_reserve  # 王牌 tiles a replacement just before the seabed may take
        self.deal_kong_pos = 0  # the latest seat (counted from the dealer) that declared a kong at the deal
        self.deal_melds = 0  # concealed kongs made at the deal (not calls, for the first go-round)
        self.last_acting = -1  # the seat holding one tile more at the last tile-count check (-1: none)
        #: set by a draw or discard made in its turn (see :meth:`check_counts`): the acting seat after it
        #: (-1: none), the tile counts being right without a check; -2: not known, check
        self.counts_kept = -2
        #: 明星三缺一 (seed 002): note after each discard whether the seat is ready early (天听 / 地听)
        self.tracks_early_ready = rules.tracks_early_ready
        self.chances = ChanceTally()  # who could have won or called on whose discard (collusion statistics)

    # ------------------------------------------------------------------ helpers
    def find(self, code: str, message: str, *, seat: int | None = None, severity: Severity = Severity.ERROR,
             expected: object = None, recorded: object = None, seq: int | None = -1) -> None:
        self.findings.append(Finding(
            code=code, message=message, hand_no=self.h.hand_no, seq=seq_of(self.event) if seq == -1 else seq,
            seat=seat, severity=severity,
            expected=None if expected is None else str(expected),
            recorded=None if recorded is None else str(recorded),
        ))

    def take_from_pool(self, t: int, what: str, seat: int) -> None:
        """Tile ``t`` comes out of the set, taken by ``seat`` (-1: none, as a plain int: compiled,
        an optional int is boxed on every call); ``what`` names the move in a finding, ``{seat}``
        in it filled in then (not on every draw)."""
        pool = self.pool
        left = pool[t]
        if left <= 0:  # a kind the set has none of starts at 0 too: one test for both findings
            taker = seat if seat >= 0 else None
            if self.copies[t] == 0:
                self.find("tile_conservation/not_in_set",
                          f"{what.format(seat=taker)}: {T.name(t)} is not in the {self.rs.name} tile set",
                          seat=taker, recorded=T.name(t))
            else:
                self.find("tile_conservation/too_many_copies",
                          f"{what.format(seat=taker)}: a copy of {T.name(t)} beyond the {self.copies[t]} in the set",
                          seat=taker, expected=f"≤{self.copies[t]}", recorded=self.copies[t] - left + 1)
        pool[t] = left - 1  # not `-=`: compiled, an item's `-=` is a generic subtraction

    def mark_dead(self, s: int, code: str, message: str, **kw: object) -> None:
        st = self.seats[s]
        if st.dead is None:
            st.dead = code
            self.find(code, message, seat=s, **kw)  # type: ignore[arg-type]

    def expected_count(self, s: int) -> int:
        turn, phase = self.saved if self.phase == REPLACE and self.saved else (self.turn, self.phase)
        n = self.hand_size + (1 if s == turn and phase in (ACT, ROB) else 0) + self.seats[s].seabed_draws
        return n - self.seats[s].pending_back

    def check_counts(self, s: int, turn_before: int) -> None:
        """相公: after an event by seat ``s`` (``turn_before``: the turn seat the event found),
        every live seat must hold the tiles its place in the play calls for; one that does not
        becomes dead, named with the event's seq.

        After each check every live seat is right, and an event changes the tiles or the due
        count of its own seat, of the turn seat it found and of the seats acting (holding one
        tile more) before and after it, of no other. When all of those are ``s`` (draws,
        discards, flowers and kongs in turn: most events) only ``s`` is checked, else all four
        in seat order, so the findings are those of checking all four every time.

        A live draw by the seat whose turn it is to draw, and a discard of a held tile by the
        seat whose turn it is to act, are not checked at all (``counts_kept``, set by
        :meth:`on_draw` and :meth:`on_discard`): the seat's tiles and its due count each change
        by one the same way (the draw makes it the acting seat, the discard ends that), nothing
        else changes, and it was right after the last check, so the check would find it right."""
        saved = self.saved
        if saved is not None and self.phase == REPLACE:
            turn, phase = saved
        else:
            turn, phase = self.turn, self.phase
        acting = turn if phase == ACT or phase == ROB else -1
        last = self.last_acting
        self.last_acting = acting
        if self.ended or self.pending_end:
            return  # a legal win is in: winners hold the winning tile, a robbed konger lost its kong tile
        if turn_before == s and (acting == s or acting == -1) and (last == s or last == -1) \
                and not self.FULL_COUNT_CHECK:
            self.check_count(self.seats[s], acting)
        else:
            for st in self.seats:
                self.check_count(st, acting)

    def check_count(self, st: SeatState, acting: int) -> None:
        """:meth:`check_counts` for one seat (``acting``: the seat holding one tile more, -1 none)."""
        if st.dead is not None:
            return
        # expected_count(), inlined: this runs after every event
        want = self.hand_size + (1 if st.seat == acting else 0) + st.seabed_draws - st.pending_back
        have = st.size + 3 * len(st.melds)
        if have > want:
            self.mark_dead(st.seat, "dead_hand/too_many",
                           f"seat {st.seat} holds {have} tiles where {want} are due (大相公)",
                           expected=want, recorded=have)
        elif have < want:
            self.mark_dead(st.seat, "dead_hand/too_few",
                           f"seat {st.seat} holds {have} tiles where {want} are due (小相公)",
                           expected=want, recorded=have)

    def drawable_left(self) -> int | None:
        """Tiles left to draw, where the log lets us know it."""
        if self.shared_wall_size is None:
            return None
        return self.shared_wall_size - self.live_drawn - self.back_drawn - self.dead_shift

    def own_wall_left(self, s: int) -> int | None:
        """Tiles left in seat ``s``'s own wall when every seat draws from its own wall
        (Botzone: logged ``seat_walls``, or the ruleset's ``seat_wall_size``); None with one shared wall."""
        if self.own_wall_sizes is None:
            return None
        return self.own_wall_sizes[s] - self.seat_wall_pos[s]

    def wall_exhausted(self) -> bool:
        """No live draw can follow the current turn: the shared wall is used up, or (per-seat
        walls) the seat after ``self.turn`` has nothing left in its own wall."""
        left = self.drawable_left() if self.own_wall_sizes is None else self.own_wall_left((self.turn + 1) % 4)
        return left is not None and left <= 0

    # ------------------------------------------------------------------ the deal
    def deal(self) -> None:
        hs = self.hand_size
        dealt = self.h.deal
        for s in range(4):
            st = self.seats[s]
            st.wilds = self.rs.wild_tiles(s, self.dealer, self.indicator)
            names = dealt[s]
            n = len(names)
            if n != hs and not (s == self.dealer and n == hs + 1):
                allowed = (hs, hs + 1) if s == self.dealer else (hs,)
                self.find("tile_conservation/deal_size",
                          f"seat {s} was dealt {n} tiles, expected {' or '.join(map(str, allowed))}",
                          seat=s, expected="/".join(map(str, allowed)), recorded=n, seq=None)
            for x in names:  # (no list of the tiles: compiled, each would be boxed into it)
                t = T.tile(x)
                self.take_from_pool(t, "deal of seat {seat}", s)
                st.add(t)
        if self.indicator is not None:
            self.take_from_pool(self.indicator, "wildcard indicator", -1)
        elif self.rs.wildcard_indicator_required():
            self.find("tile_conservation/wildcard_indicator", "no wildcard_indicator in a ruleset with wild tiles", seq=None)
        if len(self.h.deal[self.dealer]) == hs + 1:
            self.phase = ACT
            self.seats[self.dealer].last_draw = T.tile(self.h.deal[self.dealer][-1])
        else:
            self.phase = DRAW
        self.turn = self.dealer
        self.last_acting = self.dealer if self.phase == ACT else -1
        for s in range(4):
            st = self.seats[s]
            have = st.count()
            want = self.expected_count(s)
            if have != want and st.dead is None:
                code = "dead_hand/too_many" if have > want else "dead_hand/too_few"
                st.dead = code
                self.find(code, f"seat {s} starts with {have} tiles where {want} are due", seat=s,
                          expected=want, recorded=have, seq=None)

    # ------------------------------------------------------------------ events
    def snapshot(self) -> tuple:
        """The observable state: per seat (concealed, melds, flowers, discards, dead, barred), turn, phase."""
        seats = tuple((T.fmt(st.concealed()), tuple(map(str, st.melds)), tuple(st.flowers), tuple(st.discards),
                       st.dead, st.barred) for st in self.seats)
        return seats, self.turn, self.phase, self.ended, len(self.findings)

    def run(self, observer: Callable[[int, HandReplay], None] | None = None) -> list[Finding]:
        """Replay every event; ``observer(index, self)`` is called after each one."""
        self.deal()
        for index, ev in enumerate(self.h.events):
            self._step(ev)
            if observer is not None:
                observer(index, self)
        return self._finish()

    def _step(self, ev: L.Event) -> None:
        # the type (as its code) and the seat read once (an attribute of a log object is a generic
        # lookup): the handlers take the seat from here, a draw's and a discard's handler their other
        # fields too (read as a row where the class allows, see ROWED)
        cls = type(ev)
        if cls is self.last_class:
            code = self.last_code
        elif cls is self.prev_class:
            code = self.prev_code
        else:
            code = _CLASS_CODES.get(cls, -1)
            if code >= 0:  # one type for every event of the class: kept for the hand's next events
                self.prev_class, self.prev_code = self.last_class, self.last_code
                self.last_class, self.last_code = cls, code
            else:
                code = event_code(ev)  # (learnt there, kept here from the class's next event on)
        rowed = code >= ROWED
        row: tuple[Any, ...] = ()
        if rowed:
            code -= ROWED
            row = _astuple(ev)  # (seq, seat, tile, from_ or claims): _ROW_FIELDS
            seat: int = row[1]
        else:
            seat = ev.seat
        win = code == EV_WIN
        self.event = ev
        if self.pending_end and not (win and (self.phase == CLAIM or self.phase == ROB)):
            self.finish_multiple_win()
        if self.ended:
            self.report_after_end(ev)
            return
        if self.phase == CLAIM and not (win or code == EV_PON or code == EV_CHI or code == EV_KONG):
            self.close_claim_window(None)
            if self.draw_reason is not None:
                self.report_after_end(ev)
                return
        if self.phase == SEABED and not self.seabed_allows(ev):
            return
        if self.phase == ROB and not (win and cast(L.Win, ev).robbing_kong):
            self.close_rob_window(None)
        if win and self.abortive and self.ask_abortive("before_win", ev):
            return
        turn = self.turn  # before the handler: a seat whose count it may change besides the event's own
        self.counts_kept = -2
        # the on_<type> of the event, most frequent first (direct calls: no table of functions)
        if code == EV_DRAW:
            draw = cast(L.Draw, ev)
            if rowed:
                source: str = row[3]  # (typed: a string's comparison, not a generic one)
                self.on_draw(draw, seat, row[2], source == "back")
            else:
                self.on_draw(draw, seat, draw.tile, draw.from_ == "back")
        elif code == EV_DISCARD:
            discard = cast(L.Discard, ev)
            if rowed:
                self.on_discard(discard, seat, row[2], row[3])
            else:
                self.on_discard(discard, seat, discard.tile, discard.claims)
        elif code == EV_FLOWER:
            self.on_flower(cast(L.Flower, ev), seat)
        elif code == EV_PON:
            self.on_pon(cast(L.Pon, ev), seat)
        elif code == EV_CHI:
            self.on_chi(cast(L.Chi, ev), seat)
        elif win:
            self.on_win(cast(L.Win, ev), seat)
        elif code == EV_KONG:
            self.on_kong(cast(L.Kong, ev), seat)
        elif code == EV_CONCEALED_KONG:
            self.on_concealed_kong(cast(L.ConcealedKong, ev), seat)
        elif code == EV_ADDED_KONG:
            self.on_added_kong(cast(L.AddedKong, ev), seat)
        else:
            self.on_ready(cast(L.Ready, ev), seat)
        kept = self.counts_kept
        if kept != -2 and not self.FULL_COUNT_CHECK:
            self.counts_kept = -2
            self.last_acting = kept  # what check_counts would record; it would find every count right
        else:
            self.check_counts(seat, turn)
        if self.abortive and not self.ended:
            self.ask_abortive("event", ev)

    def report_after_end(self, ev: L.Event) -> None:
        if not self.after_end_reported:
            self.after_end_reported = True
            self.find("turn_order/after_end", f"{ev.type} by seat {ev.seat} after the hand ended", seat=ev.seat)

    # abortive draws (流局 before the wall runs out) -------------------------------
    def table_view(self, stage: str, ev: L.Event | None) -> TableView:
        claims = tuple((c.seat, c.call) for c in (self.claims or ()))
        return TableView(
            stage, ev.type if ev is not None else None, ev.seat if ev is not None else None, claims,
            self.dealer, self.turn, self.phase, tuple([(d >> 6, d & 63) for d in self.discard_log]),
            tuple(tuple(st.melds) for st in self.seats), tuple(self.kongs),
            tuple(tuple(T.tile(x) for x in d) for d in self.h.deal),
            tuple(st.concealed() for st in self.seats), tuple(st.wilds for st in self.seats))

    def ask_abortive(self, stage: str, ev: L.Event | None) -> bool:
        """Ask the ruleset whether the hand ends here as an abortive draw; end it if so."""
        reason = self.rs.abortive_draw(self.table_view(stage, ev))
        if reason is None:
            return False
        self.draw_reason = reason
        self.pending_end = False
        self.claims = None
        self.end_exhausted()
        return True

    def _finish(self) -> list[Finding]:
        if self.pending_end:
            self.finish_multiple_win()
        if self.phase == CLAIM and not self.ended:
            self.close_claim_window(None)
        if self.phase == ROB and not self.ended:
            self.close_rob_window(None)  # nobody robbed the added kong: its replacement is owed
        if self.abortive and not self.ended and self.phase != SEABED:
            self.ask_abortive("log_end", None)
        if self.phase == SEABED and not self.ended:
            self.end_exhausted()
        self.event = None
        return self.findings

    def wrong_turn(self, ev: L.Event, expected: str) -> None:
        code = "turn_order/wrong_seat" if ev.seat != self.turn else "turn_order/wrong_phase"
        self.find(code, f"{ev.type} by seat {ev.seat}: {expected}", seat=ev.seat, expected=expected,
                  recorded=f"{ev.type} by seat {ev.seat}")

    # seabed (海底) -------------------------------------------------------------
    def start_seabed(self, first: int, left: int) -> None:
        """The last ``left`` drawable tiles go one to each seat from ``first`` on."""
        self.turn = first
        self.phase = SEABED
        self.seabed_left = left
        self.seabed_drawer = None

    def seabed_allows(self, ev: L.Event) -> bool:
        """In the seabed phase only live draws and self-drawn wins happen; after the last
        seabed tile only a win by its receiver. Anything else is reported and skipped."""
        if self.seabed_left <= 0 and not (ev.type == "win" and ev.seat == self.seabed_drawer):
            self.end_exhausted()
            self.after_end_reported = True
            self.find("turn_order/after_end", f"{ev.type} by seat {ev.seat} after the seabed tiles ran out",
                      seat=ev.seat)
            return False
        if (ev.type == "draw" and ev.from_ == "live") or ev.type == "win":
            return True
        self.find("turn_order/seabed", f"{ev.type} by seat {ev.seat} during the seabed phase", seat=ev.seat,
                  recorded=ev.type)
        return False

    def end_exhausted(self) -> None:
        self.exhausted = True
        self.ended = True
        self.phase = ENDED

    def on_seabed_draw(self, ev: L.Draw, s: int, name: str) -> None:
        t = T.tile(name)
        st = self.seats[s]
        if s != self.turn:
            self.wrong_turn(ev, f"seat {self.turn} receives the next seabed tile")
        self.live_drawn += 1
        self.check_wall(s, t, False)
        self.take_from_pool(t, "seabed draw by seat {seat}", s)
        st.add(t)
        st.seabed_draws += 1
        st.last_draw, st.last_draw_back = t, False
        self.seabed_drawer = s
        self.seabed_left -= 1
        self.turn = (s + 1) % 4

    def late_replacement(self) -> tuple[SB.Replacement, int | None]:
        """The replacement draw due now (二、一)6 e when it is owed at the 河底 tile or the one
        before it) and, for one taken from the seabed's end, its position in the logged wall.
        Updates the dead wall's reserve and shift; called before ``back_drawn`` counts the draw."""
        left = self.drawable_left() if self.own_wall_sizes is None else None
        late = SB.replacement(self.rs.seabed_replacement, self.seabed, left, self.reserve_left)
        if late.reserve:
            self.reserve_left -= 1
            self.dead_shift -= 1
        self.dead_shift += late.dead_extra
        index = self.live_drawn + left - 1 if late.seabed_end and left is not None and self.h.wall else None
        return late, index

    def seabed_after_replacement(self, s: int) -> None:
        """二、一)6 e ②: seat ``s`` keeps its replacement as its seabed tile (no discard) and may win
        on it first (补杠的优先胡牌); the tiles left go one to each other seat from the next on."""
        self.saved = None
        self.start_seabed((s + 1) % 4, max(0, self.drawable_left() or 0))
        self.seats[s].seabed_draws += 1
        self.seabed_drawer = s

    def on_draw(self, ev: L.Draw, s: int, name: str, back: bool) -> None:
        """Seat ``s`` draws the tile ``name``, from the back (a replacement) or the live wall:
        ``ev``'s fields, read by :meth:`_step`."""
        if self.phase == SEABED:
            self.on_seabed_draw(ev, s, name)
            return
        t = T.tile(name)
        st = self.seats[s]
        normal = not back and self.phase == DRAW and s == self.turn  # a live draw in turn (check_counts)
        late, wall_index = SB.ORDINARY, None
        if back:
            if not (self.phase == REPLACE and s == self.turn):
                self.wrong_turn(ev, f"a replacement draw is due from seat {self.turn}" if self.phase == REPLACE
                                else f"no replacement draw is due (phase {self.phase}, seat {self.turn})")
            late, wall_index = self.late_replacement()
            self.back_drawn += 1
            st.pending_back = max(0, st.pending_back - 1)
            st.last_back_reason = st.back_reasons.pop(0) if st.back_reasons else None
        else:
            if normal:
                pass  # its turn to draw: no phase to compare again
            elif self.phase == REPLACE:
                self.find("turn_order/missing_replacement",
                          f"seat {self.turn} owed a replacement draw, seat {s} drew from the live wall",
                          seat=self.turn)
                self.seats[self.turn].pending_back = 0
                self.seats[self.turn].back_reasons.clear()
                self.saved = None
            else:
                self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
            shared = self.shared_wall_size  # wall_exhausted(), inlined: with one shared wall it is known
            if self.own_wall_sizes is None and shared is not None and \
                    shared - self.live_drawn - self.back_drawn - self.dead_shift <= 0:
                self.find("tile_conservation/wall_exhausted", f"seat {s} drew {name} after the wall ran out",
                          seat=s, recorded=name)
            self.live_drawn += 1
            self.first_go_round = self.first_go_round and self.live_drawn <= 4
        if self.wall is not None or self.own_wall_sizes is not None:  # else no wall to check against
            self.check_wall(s, t, back, wall_index)
        self.take_from_pool(t, "draw by seat {seat}", s)
        st.add(t)
        st.last_draw = t
        st.last_draw_back = back
        st.called = None
        if len(st.passed_pon):  # (len: compiled, a set's truth is a generic call)
            st.passed_pon.clear()
        if late.then_seabed and st.pending_back == 0:
            self.seabed_after_replacement(s)
        elif back and st.pending_back == 0 and self.saved is not None:
            self.turn, self.phase = self.saved
            self.saved = None
        elif back and st.pending_back > 0:
            self.turn, self.phase = s, REPLACE
        else:
            if normal:
                self.counts_kept = s  # it was due to draw; it now holds one tile more and acts
            self.turn, self.phase = s, ACT

    def check_wall(self, s: int, t: int, back: bool, index: int | None = None) -> None:
        """Check a draw against the logged wall(s); ``index`` overrides the position (a
        replacement taken from the seabed's end)."""
        wall = self.wall
        if wall is not None:
            idx = index if index is not None else len(wall) - self.back_drawn if back else self.live_drawn - 1
            if 0 <= idx < len(wall):
                if wall[idx] != T.name(t):  # the log's tiles are canonical names
                    self.find("tile_conservation/wall_mismatch",
                              f"seat {s} drew {T.name(t)}, the wall gives {wall[idx]} at position {idx}",
                              seat=s, expected=wall[idx], recorded=T.name(t))
            else:
                self.find("tile_conservation/wall_exhausted", f"seat {s} drew beyond the end of the wall",
                          seat=s, recorded=T.name(t))
        elif (left := self.own_wall_left(s)) is not None:
            own = self.h.seat_walls[s] if self.h.seat_walls is not None else None
            pos = self.seat_wall_pos[s]
            if left <= 0:
                self.find("tile_conservation/wall_exhausted", f"seat {s} drew beyond the end of its wall",
                          seat=s, recorded=T.name(t))
            elif own is not None and T.tile(own[pos]) != t:
                self.find("tile_conservation/wall_mismatch",
                          f"seat {s} drew {T.name(t)}, its wall gives {own[pos]} at position {pos}",
                          seat=s, expected=own[pos], recorded=T.name(t))
            self.seat_wall_pos[s] = pos + 1

    def remove(self, s: int, t: int, n: int, what: str, code: str) -> bool:
        """Seat ``s`` gives up ``n`` × ``t``; ``what`` names the move in a finding, ``{tile}`` in it
        filled in then (not on every discard)."""
        st = self.seats[s]
        if st.hand[t] < n:
            self.find(code, f"seat {s} {what.format(tile=T.name(t))} but holds {st.hand[t]} × {T.name(t)}", seat=s,
                      expected=f"{n}×{T.name(t)}", recorded=f"{st.hand[t]}×{T.name(t)}")
            st.add(t, -st.hand[t])
            return False
        st.add(t, -n)
        return True

    def on_flower(self, ev: L.Flower, s: int) -> None:
        t = T.tile(ev.tile)
        st = self.seats[s]
        if not T.is_flower(t):
            self.find("turn_order/wrong_phase", f"seat {s} set aside {ev.tile}, which is not a flower", seat=s)
            return
        before_play = self.discards_made == 0 and self.phase in (ACT, DRAW, REPLACE)
        if not before_play and not ((self.phase == ACT or self.phase == REPLACE) and s == self.turn):
            self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
        self.remove(s, t, 1, "set aside {tile}", "illegal_discard/not_held")
        st.flowers.append(t)
        visible = self.visible
        visible[t] = visible[t] + 1  # (an item's `+=` is a generic add when compiled)
        self.owe_replacement(s, "flower")

    def owe_replacement(self, s: int, reason: str, resume: bool = False) -> None:
        """Seat ``s`` owes a replacement draw. After it the table returns to where it was for a
        flower (or with ``resume``), and to the seat's own turn for a kong it made in its turn."""
        left = self.own_wall_left(s) if reason == "kong" else None
        if left is not None and left <= 0:
            self.end_exhausted()  # per-seat walls: the seat due to draw has none left (Botzone: 荒庄)
            return
        st = self.seats[s]
        st.pending_back += 1
        st.back_reasons.append(reason)
        if self.phase != REPLACE:
            self.saved = (self.turn, self.phase) if reason == "flower" or resume else (s, ACT)
        self.turn = s
        self.phase = REPLACE

    def on_discard(self, ev: L.Discard, s: int, name: str, claims: list[L.Claim] | None) -> None:
        """Seat ``s`` discards the tile ``name``, the other seats declaring ``claims`` on it: ``ev``'s
        fields, read by :meth:`_step`."""
        t = T.tile(name)
        st = self.seats[s]
        in_turn = self.phase == ACT and s == self.turn  # (check_counts)
        if self.phase == SEABED:
            self.find("turn_order/seabed", f"seat {s} discarded during the seabed phase", seat=s)
        elif self.phase == REPLACE and s == self.turn:
            self.find("turn_order/missing_replacement", f"seat {s} discarded before its replacement draw", seat=s)
            st.pending_back = 0
            st.back_reasons.clear()
            self.saved = None
        elif not in_turn:
            self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
        if len(st.wilds) and t in st.wilds:  # most rulesets have no wilds: no look-up then (len: see on_draw)
            self.find("illegal_discard/wild", f"seat {s} discarded a wild tile {name}", seat=s, recorded=name)
            st.barred = st.barred or "illegal_discard/wild"
        elif T.is_flower(t) and not self.rs.flower_kept(s, self.dealer, t, self.indicator):
            self.find("illegal_discard/flower", f"seat {s} discarded flower {name} instead of setting it aside",
                      seat=s, recorded=name)
        if self.unkept_flower_is_dead and st.dead is None and st.flowers_held:
            held = [f for f in range(T.FLOWER0, T.N_TILES)
                    if st.hand[f] and f != t and not self.rs.flower_kept(s, self.dealer, f, self.indicator)]
            if held:
                self.mark_dead(s, "dead_hand/missed_flower",
                               f"seat {s} discarded while still holding flower {T.name(held[0])} (相公)",
                               recorded=T.name(held[0]))
        if self.tracks_declined_wins and st.called is None and st.last_draw is not None and \
                self.can_win_now(st):
            st.declined_win = True  # a complete hand discarded instead of a self-drawn win
        self.discard_fields = ()
        if self.discard_context and (self.context_kinds is None or t in self.context_kinds):
            self.discard_fields = self.rs.discard_extra(DiscardContext(
                s, t, self.dealer, tuple(st.hand), tuple(self.discarded), tuple(tuple(x.melds) for x in self.seats),
                self.drawable_left(), st.wilds))
        discarded = self.discarded
        discarded[t] = discarded[t] + 1  # an item's `+=` is a generic add when compiled; this one is native
        if st.called is not None and not self.swap_calling_allowed and self.swap_call(st.called, t):
            self.find("illegal_discard/swap_call",
                      f"seat {s} discarded {name} straight after calling {st.called} (换张)", seat=s,
                      recorded=name)
        if st.hand[t] > 0:
            st.add(t, -1)  # remove(), its usual way inlined: a discard is every other event
            if in_turn:
                self.counts_kept = -1  # a held tile discarded in turn: one tile and the acting seat less
        else:
            self.remove(s, t, 1, "discarded {tile}", "illegal_discard/not_held")
        st.discards.append(t)
        self.discard_log.append(s << 6 | t)
        visible = self.visible
        visible[t] = visible[t] + 1
        st.called = None
        st.passed_win = False  # 过水 lasts until the seat's own discard
        self.discards_made += 1
        if self.tracks_early_ready:
            self.note_early_ready(st)
        self.last_discarder = s
        self.last_discard_tile = t
        self.last_discard_event = ev
        if len(self.window_wins):
            self.window_wins = set()
        self.claims = claims
        self.claim_event = ev
        self.turn = s
        self.phase = CLAIM

    # 明星三缺一 (seed 002): the early-ready facts ------------------------------------------
    def note_early_ready(self, st: SeatState) -> None:
        """After seat ``st``'s discard: is it ready now, at a moment that makes 天听 or 地听?"""
        st.own_discards += 1
        first, early = early_ready_moments(
            st.own_discards, self.live_drawn,
            any(not m.is_concealed for x in self.seats for m in x.melds))
        if (first or early) and self.rs.is_ready(st.hand, st.melds):
            st.heavenly_ready = st.heavenly_ready or first
            st.earthly_ready = st.earthly_ready or early

    @staticmethod
    def swap_call(meld: Meld, t: int) -> bool:
        if meld.kind is MeldKind.PON:
            return t == meld.first
        other_end = None
        if meld.claimed == meld.tiles[0]:
            other_end = meld.tiles[2] + 1 if T.rank(meld.tiles[2]) < 9 else None
        elif meld.claimed == meld.tiles[2]:
            other_end = meld.tiles[0] - 1 if T.rank(meld.tiles[0]) > 1 else None
        return t == meld.claimed or t == other_end

    # claims ------------------------------------------------------------------
    def close_claim_window(self, executed: tuple[int, str] | None) -> None:
        """Check declared claims against what was carried out; work out passed wins/pons."""
        discarder = self.last_discarder
        if discarder < 0:
            return
        t = self.last_discard_tile
        self.check_priority(self.claims, executed, discarder, self.last_discard_event)
        self.chances.window(self, discarder, t, executed)  # before the scan sets 过水 (mahjong_audit.engine.chances)
        if self.scans_claim_window:
            self.scan_claim_window(discarder, t, executed)
        if executed is None:
            # wall_exhausted(), asked while the discarder's turn is current, and the tiles left to draw
            if self.own_wall_sizes is None:
                left = self.drawable_left()
                exhausted = left is not None and left <= 0
            else:
                left = None
                own = self.own_wall_left((self.turn + 1) % 4)
                exhausted = own is not None and own <= 0
            self.turn = (discarder + 1) % 4
            self.phase = DRAW
            if exhausted:
                self.end_exhausted()
            elif self.seabed and left is not None and left <= self.seabed:
                self.start_seabed((discarder + 1) % 4, left)
            if self.abortive and not self.ended:
                self.ask_abortive("claims_closed", None)
        self.claims = None

    def scan_claim_window(self, discarder: int, t: int, executed: tuple[int, str] | None) -> None:
        """The other seats as the window closes: a win passed (过水, declined wins), a pon passed.
        (龙港's: the seats that won on the tile or declared a win as bit masks, the ruleset's
        switches read once.)"""
        rules = self.rules
        passed_win_rule = rules.passed_win_rule
        scans_wins = passed_win_rule or rules.tracks_declined_wins
        passed_pon_rule = rules.passed_pon_rule
        skip = 0  # the seats that won on the tile, and the one whose call was carried out
        for w in self.wins:
            if w.tile == t:
                skip |= 1 << w.seat
        if executed:
            skip |= 1 << executed[0]
        declared_win = 0
        if self.claims:
            for c in self.claims:
                if c.call == "win":
                    declared_win |= 1 << c.seat
        # could_win as the chances asked it in this window: the seats asked, and those it said win (bit per seat)
        asked, asked_wins = self.chances.asked, self.chances.asked_wins
        for k in range(1, 4):
            y = (discarder + k) % 4
            if skip >> y & 1:
                continue
            st = self.seats[y]
            if scans_wins and not declared_win >> y & 1 and \
                    (asked_wins >> y & 1 == 1 if asked >> y & 1 else self.could_win(y, t, discarder)):
                st.passed_win = st.passed_win or passed_win_rule
                st.declined_win = True
            if passed_pon_rule and st.hand[t] >= 2 and t not in st.wilds:
                st.passed_pon.add(t)

    def close_rob_window(self, executed: tuple[int, str] | None) -> None:
        if self.last_added_kong is None:
            return
        konger, _ = self.last_added_kong
        self.check_priority(self.claims, executed, konger, self.claim_event)
        self.claims = None
        self.last_added_kong = None
        self.seats[konger].pending_back -= 1  # owe_replacement counts it again
        self.phase = ACT
        self.turn = konger
        self.owe_replacement(konger, "kong")

    def priority_key(self, seat: int, call: str, discarder: int) -> int:
        """A claim's priority as one int (higher first): its call's rank, then the seat order (the
        nearest seat after the discarder, or the lowest seat, by the ruleset's ``winner_order``)."""
        order = (seat - discarder) % 4 if self.nearest_first else seat
        return CALL_RANK[call] * 8 - order

    def check_priority(self, claims: list[L.Claim] | None, executed: tuple[int, str] | None,
                       discarder: int, opened: L.Discard | L.AddedKong | None) -> None:
        """The claims declared on ``opened`` (the discard or added kong of ``discarder``) against
        the one ``executed`` (None: nothing was carried out)."""
        if claims is None:
            return
        # one pass over the claims but the discarder's own (attributes of log objects, each read once):
        # the executed call among them?, the first claim of the highest priority (as max() picks it)
        declared = executed is None
        best_seat, best_call, top = -1, "", -1
        for c in claims:
            seat = c.seat
            if seat == discarder:
                continue
            call = c.call
            if not declared and executed is not None and seat == executed[0] and call == executed[1]:
                declared = True
            key = self.priority_key(seat, call, discarder)
            if key > top:
                best_seat, best_call, top = seat, call, key
        if executed is not None and not declared:
            ex_seat, ex_call = executed
            self.find("claim_priority/undeclared",
                      f"seat {ex_seat}'s {ex_call} is not among the declared claims", seat=ex_seat,
                      severity=Severity.WARNING, recorded=f"{ex_call} by {ex_seat}")
        if best_seat < 0:
            return  # no claim but the discarder's own
        if executed is None:
            if best_call == "win" and not self.seats[best_seat].barred:
                self.find("claim_priority/ignored_win",
                          f"seat {best_seat} declared a win on the discard at seq {seq_of(opened)}; nothing was carried out",
                          seat=best_seat, expected=f"win by {best_seat}", recorded="no call")
            return
        ex_rank = CALL_RANK[executed[1]]
        if ex_rank < CALL_RANK[best_call]:
            code = "claim_priority/ignored_win" if best_call == "win" else "claim_priority/lower_call"
            self.find(code, f"{executed[1]} by seat {executed[0]} carried out over {best_call} by seat {best_seat}",
                      seat=executed[0], expected=f"{best_call} by {best_seat}", recorded=f"{executed[1]} by {executed[0]}")
        elif best_call == "win" and self.multiple_winners:
            for c in claims:
                seat, call = c.seat, c.call
                if seat != discarder and call == "win" and seat not in self.window_wins and \
                        not self.seats[seat].barred:
                    self.find("claim_priority/ignored_win",
                              f"seat {seat} declared a win on the discard at seq {seq_of(opened)}, which allows several "
                              f"winners, and its win was not carried out", seat=seat,
                              expected=f"win by {seat}", recorded="no call")
        elif ex_rank == CALL_RANK[best_call] and executed[0] != best_seat:
            self.find("claim_priority/seat_order",
                      f"{executed[1]} by seat {executed[0]} carried out; the order gives seat {best_seat}",
                      seat=executed[0], expected=f"{best_call} by {best_seat}", recorded=f"{executed[1]} by {executed[0]}")

    def claim_target(self, ev: L.Chi | L.Pon | L.Kong, s: int, call: str) -> int | None:
        """Validate that seat ``s``'s call takes the last discard; returns the tile or None."""
        t = T.tile(ev.tile)
        discarder = self.last_discarder
        if self.phase != CLAIM or discarder < 0:
            self.wrong_turn(ev, "a call is only possible right after a discard")
            return None
        dt = self.last_discard_tile
        if s == discarder:
            self.find("illegal_call/own_discard", f"seat {s} called its own discard", seat=s)
            return None
        if t != dt or ev.from_ != discarder:
            self.find("illegal_call/wrong_tile",
                      f"{call} of {ev.tile} from seat {ev.from_}; the last discard is {T.name(dt)} by seat {discarder}",
                      seat=s, expected=f"{T.name(dt)} from {discarder}", recorded=f"{ev.tile} from {ev.from_}")
        wilds = self.seats[s].wilds
        if len(wilds) and t in wilds:  # (no look-up without wilds, as in on_discard)
            self.find("illegal_call/wild_in_meld", f"seat {s} called a wild tile {ev.tile}", seat=s)
        self.close_claim_window((s, call))
        st = self.seats[discarder]
        if st.discards and st.discards[-1] == dt:
            st.discards.pop()  # the claimed tile leaves the discard pile (it stays visible in the meld)
        return dt

    def take_call(self, s: int, meld: Meld, discarder: int) -> None:
        st = self.seats[s]
        st.melds.append(meld)
        st.feeders.append(discarder)
        self.turn = s
        if len(st.passed_pon):
            st.passed_pon.clear()

    def on_chi(self, ev: L.Chi, s: int) -> None:
        if not self.rules.chi_allowed:
            self.find("illegal_call/not_allowed", "chi is not allowed in this ruleset", seat=s)
        t = self.claim_target(ev, s, "chi")
        if t is None:
            t = T.tile(ev.tile)
        discarder = self.last_discarder if self.last_discarder >= 0 else (s + 3) % 4
        if discarder != (s + 3) % 4:
            self.find("illegal_call/not_left_player",
                      f"seat {s} chi'd a discard of seat {discarder}; only seat {(s + 3) % 4} (left) may be chi'd",
                      seat=s, expected=f"from {(s + 3) % 4}", recorded=f"from {discarder}")
        own = sorted([T.tile(x) for x in ev.tiles])  # a list, not a generator: compiled, a native loop
        seq = sorted(own + [t])
        if not (T.is_suited(seq[0]) and T.suit(seq[0]) == T.suit(seq[2]) and seq[1] == seq[0] + 1 and seq[2] == seq[0] + 2):
            self.find("illegal_call/not_a_sequence", f"chi {T.fmt(seq)} is not a sequence", seat=s,
                      recorded=T.fmt(seq))
        for x in own:
            if x in self.seats[s].wilds:
                self.find("illegal_call/wild_in_meld", f"seat {s} used wild {T.name(x)} in a chi", seat=s)
            self.remove(s, x, 1, "chi'd with {tile}", "illegal_call/tiles_not_held")
            self.visible[x] = self.visible[x] + 1
        meld = Meld(MeldKind.CHI, tuple(seq), t, (s - discarder) % 4)
        self.take_call(s, meld, discarder)
        self.seats[s].called = meld
        self.phase = ACT
        self.seats[s].last_draw = None

    def on_pon(self, ev: L.Pon, s: int) -> None:
        t = self.claim_target(ev, s, "pon")
        if t is None:
            t = T.tile(ev.tile)
        if t in self.seats[s].passed_pon:
            self.find("illegal_call/passed_pon", f"seat {s} pon'd {T.name(t)} after passing it this go-round", seat=s)
        discarder = self.last_discarder if self.last_discarder >= 0 else s
        self.remove(s, t, 2, "pon'd {tile}", "illegal_call/tiles_not_held")
        self.visible[t] = self.visible[t] + 2
        meld = Meld(MeldKind.PON, (t, t, t), t, (s - discarder) % 4)
        self.take_call(s, meld, discarder)
        self.seats[s].called = meld
        self.phase = ACT
        self.seats[s].last_draw = None

    def on_kong(self, ev: L.Kong, s: int) -> None:
        t = self.claim_target(ev, s, "kong")
        if t is None:
            t = T.tile(ev.tile)
        discarder = self.last_discarder if self.last_discarder >= 0 else s
        self.remove(s, t, 3, "kong'd {tile}", "illegal_call/tiles_not_held")
        self.visible[t] = self.visible[t] + 3
        self.take_call(s, Meld(MeldKind.KONG, (t,) * 4, t, (s - discarder) % 4), discarder)
        self.kongs.append((s, self.discards_made))
        self.need_replacement(s)

    def need_replacement(self, s: int) -> None:
        self.seats[s].called = None
        self.phase = ACT
        self.owe_replacement(s, "kong")

    def kong_turn_check(self, ev: L.Event) -> bool:
        st = self.seats[ev.seat]
        if not (self.phase == ACT and ev.seat == self.turn):
            self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
        if st.called is not None and not self.rs.kong_after_call:
            self.find("illegal_call/kong_after_call", f"seat {ev.seat} declared a kong in the turn of its {st.called.kind}",
                      seat=ev.seat)
        return True

    def on_concealed_kong(self, ev: L.ConcealedKong, s: int) -> None:
        t = T.tile(ev.tile)
        in_turn = self.phase == ACT and s == self.turn
        if in_turn:
            self.kong_turn_check(ev)
        elif self.at_deal():
            self.check_deal_kong_order(ev)
        else:
            self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
        if t in self.seats[s].wilds:
            self.find("illegal_call/wild_in_meld", f"seat {s} made a kong of wild {ev.tile}", seat=s)
        self.remove(s, t, 4, "declared a concealed kong of {tile}", "illegal_call/tiles_not_held")
        self.seats[s].melds.append(Meld(MeldKind.CONCEALED_KONG, (t,) * 4))
        self.kongs.append((s, self.discards_made))
        if self.at_deal():
            self.deal_melds += 1
        if in_turn:
            self.need_replacement(s)
        else:
            # at the deal, or out of turn (reported above): after the replacement the table goes
            # on where it was, so one stray kong does not derail the rest of the hand
            self.seats[s].called = None
            self.owe_replacement(s, "kong", resume=True)

    # the deal -----------------------------------------------------------------
    def at_deal(self) -> bool:
        """Before the first discard, in a ruleset where every seat may make concealed kongs then."""
        return self.rs.deal_kongs and self.discards_made == 0 and self.phase in (ACT, DRAW, REPLACE)

    def check_deal_kong_order(self, ev: L.ConcealedKong) -> None:
        """Concealed kongs at the deal go seat by seat, 东→南→西→北 from the dealer (二、二)10);
        each seat finishes its own before the next starts (二、二)9)."""
        pos = (ev.seat - self.dealer) % 4
        if pos < self.deal_kong_pos:
            later = (self.dealer + self.deal_kong_pos) % 4
            self.find("turn_order/wrong_seat", f"concealed kong by seat {ev.seat} at the deal after seat {later}'s: "
                      "kongs at the deal go 东→南→西→北", seat=ev.seat, severity=Severity.WARNING,
                      expected=f"before seat {later}", recorded=f"concealed_kong by seat {ev.seat}")
        self.deal_kong_pos = max(self.deal_kong_pos, pos)

    def on_added_kong(self, ev: L.AddedKong, s: int) -> None:
        t = T.tile(ev.tile)
        st = self.seats[s]
        self.kong_turn_check(ev)
        idx = next((i for i, m in enumerate(st.melds) if m.kind is MeldKind.PON and m.first == t), None)
        if idx is None:
            self.find("illegal_call/no_pon_to_add", f"seat {s} added {ev.tile} to a kong without a pon of it", seat=s)
        else:
            old = st.melds[idx]
            st.melds[idx] = Meld(MeldKind.KONG, (t,) * 4, old.claimed, old.source, added=True)
        self.remove(s, t, 1, "added {tile} to a kong", "illegal_call/tiles_not_held")
        visible = self.visible
        visible[t] = visible[t] + 1
        st.passed_win = False
        self.last_added_kong = (s, t)
        self.kongs.append((s, self.discards_made))
        self.window_wins = set()
        self.claims = ev.claims
        self.claim_event = ev
        st.pending_back += 1
        self.turn = s
        self.phase = ROB

    def on_ready(self, ev: L.Ready, s: int) -> None:
        self.seats[s].ready = True

    # wins --------------------------------------------------------------------
    def on_win(self, ev: L.Win, s: int) -> None:
        """A declared win: the resolver of its kind checks it against the table and says how it
        was made; :meth:`take_win` judges it and records it (the shared tail)."""
        t = T.tile(ev.tile)
        self.window_wins.add(s)
        if ev.robbing_kong:
            how = self.robbing_kong_win(ev, s, t)
        elif ev.from_ != s:
            how = self.discard_win(ev, s, t)
        elif self.phase == SEABED and s == self.seabed_drawer:
            how = self.seabed_win(ev, s, t)
        elif self.seats[s].hand[t] > 0 and self.instant_win_declared(s, t):
            how = WinKind("self_drawn", None, False, False)  # e.g. 三财神: a win at any moment
        else:
            how = self.self_drawn_win(ev, s, t)
        self.take_win(ev, s, t, how)

    def robbing_kong_win(self, ev: L.Win, s: int, t: int) -> WinKind:
        """抢杠和: a win on the tile of the open added kong."""
        if self.phase != ROB or self.last_added_kong is None:
            self.find("false_win/wrong_tile", f"seat {s} robbed a kong but no added kong is open", seat=s)
            return WinKind("robbing_kong", ev.from_, True, False)
        konger, kt = self.last_added_kong
        if kt != t or konger != ev.from_:
            self.find("false_win/wrong_tile", f"seat {s} robbed {ev.tile}; the added kong is {T.name(kt)}",
                      seat=s, expected=T.name(kt), recorded=ev.tile)
        return WinKind("robbing_kong", konger, True, False)

    def discard_win(self, ev: L.Win, s: int, t: int) -> WinKind:
        """A win on the open discard."""
        discarder = self.last_discarder
        if self.phase != CLAIM or discarder < 0:
            self.wrong_turn(ev, "a win on a discard is only possible right after a discard")
            return WinKind("discard", ev.from_, False, False)
        dt = self.last_discard_tile
        if dt != t or ev.from_ != discarder:
            self.find("false_win/wrong_tile",
                      f"seat {s} won on {ev.tile} from seat {ev.from_}; the last discard is {T.name(dt)} by {discarder}",
                      seat=s, expected=f"{T.name(dt)} from {discarder}", recorded=f"{ev.tile} from {ev.from_}")
        return WinKind("discard", discarder, False, self.wall_exhausted())

    def seabed_win(self, ev: L.Win, s: int, t: int) -> WinKind:
        """A win on the seabed tile the seat received (the hand's last for it)."""
        st = self.seats[s]
        if st.last_draw != t:
            self.find("false_win/wrong_tile", f"seat {s} declared a seabed win on {ev.tile}, it received "
                      f"{T.name(st.last_draw) if st.last_draw is not None else 'none'}", seat=s,
                      recorded=ev.tile)
        # a replacement kept as the seat's seabed tile (二、一)6 e ②) is still a kong's or a flower's
        kong = self.replacement_of(s) == "kong"
        return WinKind("kong_replacement" if kong else "self_drawn", None, kong, True)

    def self_drawn_win(self, ev: L.Win, s: int, t: int) -> WinKind:
        """A win on the seat's own last draw, in its turn."""
        st = self.seats[s]
        if not (self.phase == ACT and self.turn == s):
            self.wrong_turn(ev, f"seat {self.turn} to {self.phase}")
        if st.last_draw != t:
            self.find("false_win/wrong_tile", f"seat {s} declared a self-drawn win on {ev.tile}, its last draw is "
                      f"{T.name(st.last_draw) if st.last_draw is not None else 'none'}", seat=s,
                      expected=T.name(st.last_draw) if st.last_draw is not None else None, recorded=ev.tile)
        kong = self.replacement_of(s) == "kong"
        # 妙手回春: the drawn tile was the hand's last (as Botzone's judge has it: the seat after the
        # drawer has an empty wall, the same test as after a discard)
        return WinKind("kong_replacement" if kong else "self_drawn", None, kong, self.wall_exhausted())

    def take_win(self, ev: L.Win, s: int, t: int, how: WinKind) -> None:
        """Judge a declared win made ``how`` and record it: a legal one joins the wins (and may end
        the hand), a false one is reported, bars the seat and costs its penalty."""
        self_drawn = how.from_seat is None  # the winning tile is the seat's own, in its hand already
        judged = self.judge_win(s, t, self_drawn=self_drawn, in_hand=self_drawn, kong=how.kong,
                                last_tile=how.last_tile, from_seat=how.from_seat,
                                last_copy=self.last_copy(t, self_drawn=self_drawn, in_hand=self_drawn, kong=how.kong))
        rec = WinRecordInternal(s, how.from_seat, t, how.win_type, how.last_tile, judged.situation, judged.score,
                                judged.reason is None)
        if judged.reason is None:
            self.accept_win(rec, in_hand=self_drawn)
        else:
            self.reject_win(ev, rec, judged.reason)

    def accept_win(self, rec: WinRecordInternal, *, in_hand: bool) -> None:
        """A legal win: recorded, the tile joins the winner's hand (unless ``in_hand``), then the hand
        ends or (several winners allowed) waits for the other winners on the same tile."""
        s, t, win_type, from_seat = rec.seat, rec.tile, rec.win_type, rec.from_seat
        if self.wins and any(w.legal for w in self.wins) and \
                not (self.multiple_winners and win_type != "self_drawn"):
            self.find("claim_priority/seat_order", f"a second winner (seat {s}) where one winner is allowed",
                      seat=s)
        self.wins.append(rec)
        if not in_hand:
            self.seats[s].add(t)  # the winning tile joins the hand for end-of-hand scoring
            if win_type == "discard" and from_seat is not None:
                d = self.seats[from_seat]
                if d.discards and d.discards[-1] == t and not self.multiple_winners:
                    d.discards.pop()
            elif win_type == "robbing_kong" and from_seat is not None:
                self.unmake_added_kong(from_seat, t)
        if self.multiple_winners and win_type != "self_drawn":
            self.pending_end = True  # others may still win on the same tile
        else:
            self.finish_win(s)

    def reject_win(self, ev: L.Win, rec: WinRecordInternal, reason: tuple[str, str]) -> None:
        """A false win: reported and recorded, the seat barred, its penalty paid."""
        s = rec.seat
        code, message = reason
        self.find(code, message, seat=s, recorded=ev.tile)
        self.wins.append(rec)
        self.false_wins.append(s)
        st = self.seats[s]
        st.barred = st.barred or code
        pen = self.rs.false_win_penalty(s, self.dealer)
        self.penalties = [a + b for a, b in zip(self.penalties, pen, strict=True)]
        if self.rs.false_win_ends_hand:
            self.end_on_false_win(s)

    def end_on_false_win(self, s: int) -> None:
        """The platform ends the hand on a false win (Botzone): a draw with only the penalty paid.
        The declaration is checked against the window's other claims like a carried-out win."""
        self.pending_end = False
        self.finish_win(s)
        self.exhausted = True
        self.draw_reason = "false_win"

    def instant_win_declared(self, s: int, t: int) -> bool:
        """A win the ruleset allows at any moment (三财神): outside the seat's turn on any tile it
        holds, or in its turn (the dealer at the deal: 天和 with 三财神) on one of its wild tiles
        other than its last draw."""
        st = self.seats[s]
        acting = self.phase == ACT and self.turn == s
        if acting and (t not in st.wilds or st.last_draw == t):
            return False
        return self.rs.instant_win(st.concealed(), s, self.dealer, self.indicator)

    def unmake_added_kong(self, konger: int, t: int) -> None:
        """A robbed added kong was never made: the konger keeps its pon and owes no replacement."""
        st = self.seats[konger]
        for i, m in enumerate(st.melds):
            if m.kind is MeldKind.KONG and m.added and m.first == t:
                st.melds[i] = Meld(MeldKind.PON, (t, t, t), m.claimed, m.source)
                break
        st.pending_back = 0
        st.back_reasons.clear()

    def finish_win(self, s: int | None) -> None:
        """Close the window the win was made in (checking declared claims) and end the hand."""
        executed = (s, "win") if s is not None else None
        if self.phase == CLAIM:
            self.close_claim_window(executed)
        elif self.phase == ROB:
            self.check_priority(self.claims, executed, self.last_added_kong[0] if self.last_added_kong else -1,
                                self.claim_event)
        self.ended = True
        self.phase = ENDED

    def finish_multiple_win(self) -> None:
        self.pending_end = False
        legal = [w for w in self.wins if w.legal]
        if len(legal) > 1:
            self.rescore_shared(legal)
        first = legal[0].seat if legal else None
        self.finish_win(first)

    def rescore_shared(self, legal: list[WinRecordInternal]) -> None:
        """Several seats won on one discard: each winner's situation gets ``("winners", n)``
        in ``extra`` and is scored again (rulesets with a multiple-win rule read it)."""
        n = len(legal)
        for w in legal:
            if w.situation is None:
                continue
            extra = tuple(sorted([kv for kv in w.situation.extra if kv[0] != "winners"] + [("winners", n)],
                                 key=lambda kv: kv[0]))
            sit = replace(w.situation, extra=extra)
            try:
                w.score = self.rs.score_win(sit)
            except NotAWin:
                continue  # scored as a win a moment ago; keep the first score
            w.situation = sit

    def judge_win(self, s: int, t: int, *, self_drawn: bool, in_hand: bool, from_seat: int | None,
                  kong: bool = False, last_tile: bool = False, last_copy: bool = False) -> WinJudgement:
        """The one judgement of a win, declared (:meth:`on_win`) or asked about (:meth:`can_win_now`,
        :meth:`could_win`, :meth:`win_value`): seat ``s`` wins on ``t`` (already among its tiles when
        ``in_hand``), from ``from_seat`` (None: by itself). Builds the situation with the given flags,
        then tries in order: a seat that may not win (barred, dead, 过水 on a discard), the ruleset's
        score (not a winning shape), its minimum, a way of winning it forbids."""
        st = self.seats[s]
        hand = st.hand
        if in_hand:
            if hand[t] <= 0:
                return _judged(None, None, ("false_win/incomplete",
                                                 f"seat {s} does not hold the winning tile {T.name(t)}"))
            counts = list(hand)
            counts[t] = counts[t] - 1  # not ``-=``: mypyc subtracts from a list's item generically
            concealed = tiles_of(counts)
        else:
            concealed = tiles_of(hand)  # the standing tiles; the winning tile comes from another seat
        sit = WinSituation(
            concealed=concealed, melds=tuple(st.melds), win_tile=t, self_drawn=self_drawn,
            seat_wind=(s - self.dealer) % 4, round_wind=self.round_wind, flowers=tuple(st.flowers),
            last_tile=last_tile, kong=kong, last_copy=last_copy, extra=self.situation_extra(s, from_seat))
        if st.barred:
            return _judged(sit, None, ("false_win/no_win_allowed",
                                            f"seat {s} may not win this hand ({st.barred})"))
        if st.dead:
            return _judged(sit, None, ("false_win/dead_hand",
                                            f"seat {s} declared a win with a dead hand ({st.dead})"))
        if st.passed_win and not self_drawn:
            return _judged(sit, None, ("false_win/passed_win",
                                            f"seat {s} passed a win earlier and has not discarded since (过水)"))
        try:
            score = self.rs.score_win(sit)
        except NotAWin as e:
            return _judged(sit, None, ("false_win/incomplete",
                                            f"seat {s}: {e} ({T.fmt(concealed)} + {T.name(t)}"
                                            f"{' ' + ' '.join(map(str, st.melds)) if st.melds else ''})"))
        if score.below_minimum:
            return _judged(sit, score, ("false_win/below_minimum",
                                             f"seat {s}'s hand scores {score.total}, below the ruleset's minimum"))
        forbidden = self.rs.forbidden_win(sit)
        if forbidden is not None:
            return _judged(sit, None, forbidden)
        return _judged(sit, score, None)

    def last_copy(self, t: int, *, self_drawn: bool, in_hand: bool, kong: bool) -> bool:
        """和绝张: the three other copies of ``t`` are on the table (a robbed kong's tile never is:
        抢杠和 scores as such)."""
        visible_other = self.visible[t] - (1 if not in_hand and not kong else 0)
        return visible_other >= 3 and not (kong and not self_drawn)

    def situation_extra(self, s: int, from_seat: int | None) -> tuple[tuple[str, object], ...]:
        melds = 0  # a loop, not sum() of a list: a generic call in the compiled module
        for x in self.seats:
            melds += len(x.melds)
        st = self.seats[s]
        out = situation_extra(
            dealer=self.dealer, seat=s, from_seat=from_seat, discards_made=self.discards_made,
            first_go_round=self.first_go_round, any_melds=melds > self.deal_melds,
            ready=st.ready, indicator=self.indicator, wilds=st.wilds)
        more = list(self.discard_fields) if from_seat is not None and self.phase == CLAIM else []
        if st.declined_win:
            more.append(("declined_win", True))
        replacement = self.replacement_of(s) if from_seat is None else None
        if replacement is not None:
            more.append(("replacement", replacement))  # the win's tile is a kong's or a flower's replacement
        more += early_ready_extra(st.heavenly_ready, st.earthly_ready)  # 天听 / 地听 (seed 002)
        if not more:
            return out
        # ``sorted(out + more, key=name)``: ``out`` is sorted by name, so each of ``more`` goes after every
        # pair whose name is not greater (stable, like the sort), without a key function called per pair
        merged = list(out)
        for kv in more:
            j = len(merged)
            while j > 0 and merged[j - 1][0] > kv[0]:
                j -= 1
            merged.insert(j, kv)
        return tuple(merged)

    def replacement_of(self, s: int) -> str | None:
        """``"kong"`` or ``"flower"`` when seat ``s``'s last draw was the replacement for a kong or a
        flower and that tile is still the one it may win on by itself: in its own turn, or kept as
        its seabed tile (二、一)6 e ②: no discard, the seabed goes on from the next seat, and the
        seat may win on it first). Else None. (二、二)9 "开杠或补花时，用杠尾摸的那张牌（岭上牌）而和牌".)"""
        st = self.seats[s]
        if not st.last_draw_back or st.last_back_reason not in ("kong", "flower"):
            return None
        if self.turn == s or (self.phase == SEABED and self.seabed_drawer == s):
            return st.last_back_reason
        return None

    def can_win_now(self, st: SeatState) -> bool:
        """Do the seat's tiles (one more than a hand) win as they stand, its last draw as the winning
        tile (shape, minimum and the ruleset's forbidden ways; asked as a plain self-drawn win)?"""
        t = st.last_draw
        if st.dead or st.barred or t is None or st.hand[t] <= 0:
            return False
        if not self.rs.completes_with_draw(st, t):
            return False
        return self.judge_win(st.seat, t, self_drawn=True, in_hand=True, from_seat=None).reason is None

    def could_win(self, y: int, t: int, discarder: int) -> bool:
        """Would seat ``y`` win on ``discarder``'s discard ``t`` (a seat that may win, shape, minimum,
        the ruleset's forbidden ways)? The cheap shape tests first: most seats are far from a win."""
        st = self.seats[y]
        if st.dead or st.barred or st.passed_win:
            return False
        if not self.chances.shape_wins(self, y, t):  # the ruleset's quick no and shape test, cached per hand state
            return False
        return self.judge_win(y, t, self_drawn=False, in_hand=False, from_seat=discarder,
                              last_tile=self.wall_exhausted()).reason is None

    # ------------------------------------------------------------------ end
    def hand_end(self) -> HandEnd:
        wins = tuple(WinEnd(w.seat, w.from_seat, w.situation, w.score) for w in self.wins
                     if w.legal and w.situation is not None and w.score is not None)
        seats = tuple(SeatEnd(st.seat, st.concealed(), tuple(st.melds), tuple(st.flowers), st.wilds,
                              bool(st.dead or st.barred)) for st in self.seats)
        return HandEnd(self.dealer, self.round_wind, wins, tuple(self.false_wins), seats,
                       tuple(tuple(st.feeders) for st in self.seats))

    def win_value(self, s: int, t: int, *, self_drawn: bool) -> int | None:
        """What-if for oracles: the ruleset's total if seat ``s`` won on ``t`` right now — its own
        last draw (``self_drawn``), the open discard, or the open added kong (robbing) — or None if
        the tiles do not win. Dead/barred seats, 过水 and the minimum are not applied here."""
        robbing = not self_drawn and self.phase == ROB
        kong = robbing or (self_drawn and self.replacement_of(s) == "kong")
        judged = self.judge_win(s, t, self_drawn=self_drawn, in_hand=self_drawn, kong=kong,
                                last_tile=False if robbing else self.wall_exhausted(),
                                last_copy=self.last_copy(t, self_drawn=self_drawn, in_hand=self_drawn, kong=kong),
                                from_seat=None if self_drawn else self.turn)
        if judged.situation is None:
            return None
        score = judged.score
        if score is None:
            try:
                score = self.rs.score_win(judged.situation)
            except NotAWin:
                return None
        return score.total
