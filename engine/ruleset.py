"""The ruleset interface: what the replay engine asks of a ruleset.

A ruleset is a class with its values as data (class attributes and tables in its module)
and a frozen ``Options`` dataclass whose defaults are the documented defaults. An
instance is bound to one game's options. The replay engine is rules-agnostic: every
rule that differs between rulesets is a method or attribute here.

The value objects built for every hand (``SeatEnd``, ``WinEnd``, ``HandEnd``, ``Settlement``)
write their own ``__init__`` (the fields in order, with their defaults), as engine/hand.py's do:
compiled, it is native, where the one ``dataclasses`` generates stays interpreted.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.engine.hand import Meld, NotAWin, Score, ScoreItem, WinSituation
from mahjong_audit.engine.pickling import by_fields
from mahjong_audit.engine.situation_check import FieldSpec

if TYPE_CHECKING:
    from mahjong_audit.engine.replay import SeatState

try:  # mypyc reads the decorator at compile time; a plain install need not have mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:
    def mypyc_attr(*_: object, **__: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


class OptionError(InvalidData):
    """An unknown option or a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """A seat's tiles at the end of a hand (what rulesets that score every seat need)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    wilds: frozenset[int]
    dead: bool  # 相公 / 陪打 / false win: cannot win, may score 0

    def __init__(self, seat: int, concealed: tuple[int, ...], melds: tuple[Meld, ...], flowers: tuple[int, ...],
                 wilds: frozenset[int], dead: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "flowers", flowers)
        object.__setattr__(self, "wilds", wilds)
        object.__setattr__(self, "dead", dead)


@dataclass(frozen=True, slots=True)
class WinEnd:
    """A legal win, with its situation and recomputed score."""

    seat: int
    from_seat: int | None
    situation: WinSituation
    score: Score

    def __init__(self, seat: int, from_seat: int | None, situation: WinSituation, score: Score) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "from_seat", from_seat)
        object.__setattr__(self, "situation", situation)
        object.__setattr__(self, "score", score)


@dataclass(frozen=True, slots=True)
class HandEnd:
    """Everything settlement needs once a hand is over."""

    dealer: int
    round_wind: int
    wins: tuple[WinEnd, ...]  # empty: exhaustive draw
    false_wins: tuple[int, ...]  # seats, in order of their false declarations
    seats: tuple[SeatEnd, ...]
    feeders: tuple[tuple[int, ...], ...] = ()  # per seat: suppliers of its claimed sets

    def __init__(self, dealer: int, round_wind: int, wins: tuple[WinEnd, ...], false_wins: tuple[int, ...],
                 seats: tuple[SeatEnd, ...], feeders: tuple[tuple[int, ...], ...] = ()) -> None:
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "round_wind", round_wind)
        object.__setattr__(self, "wins", wins)
        object.__setattr__(self, "false_wins", false_wins)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "feeders", feeders)


@dataclass(frozen=True, slots=True)
class DiscardContext:
    """A discard as a ruleset may need to judge it while the hand is open (e.g. a liability
    rule): the discarder's tiles before it, the table, and what is left of the wall."""

    seat: int
    tile: int
    dealer: int
    hand: tuple[int, ...]  # the discarder's per-tile counts (42 entries) before the discard
    discarded: tuple[int, ...]  # per-tile counts of the earlier discards of this hand (claimed ones too)
    melds: tuple[tuple[Meld, ...], ...]  # every seat's melds
    drawable_left: int | None  # live tiles still to draw, seabed included; None when unknown
    wilds: frozenset[int] = frozenset()  # the discarder's wild tiles

    def __init__(self, seat: int, tile: int, dealer: int, hand: tuple[int, ...], discarded: tuple[int, ...],
                 melds: tuple[tuple[Meld, ...], ...], drawable_left: int | None,
                 wilds: frozenset[int] = frozenset()) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        # (the replay builds one per 中 or 发 discarded in 龙港)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "drawable_left", drawable_left)
        object.__setattr__(self, "wilds", wilds)


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as :meth:`Ruleset.abortive_draw` sees it (built only for rulesets whose
    ``checks_abortive_draws`` is true).

    ``stage`` says when it is asked: ``"event"`` after an event was applied;
    ``"claims_closed"`` when a discard's claim window closed with nothing called;
    ``"before_win"`` before a win event is applied (a reason then stands instead of the
    win); ``"log_end"`` when the events ran out before the hand ended.
    """

    stage: str
    event_type: str | None  # the event just applied (or about to be, for before_win)
    event_seat: int | None
    claims: tuple[tuple[int, str], ...]  # (seat, call) declared on the open discard / added kong
    dealer: int
    turn: int
    phase: str  # the replay's phase: draw | act | replace | claim | rob | seabed | ended
    discard_log: tuple[tuple[int, int], ...]  # every discard of the hand in order: (seat, tile)
    melds: tuple[tuple[Meld, ...], ...]  # per seat
    kongs: tuple[tuple[int, int], ...]  # every kong in order: (seat, discards made before it)
    dealt: tuple[tuple[int, ...], ...]  # per seat, the tiles dealt
    concealed: tuple[tuple[int, ...], ...]  # per seat, tiles in hand now
    wilds: tuple[frozenset[int], ...]  # per seat

    @property
    def discards_made(self) -> int:
        return len(self.discard_log)


@dataclass(frozen=True, slots=True)
class Settlement:
    """Per-seat score changes of a hand, and the per-seat items behind them."""

    deltas: tuple[int, int, int, int]
    penalties: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: who pays whom, ``(payer seat, payee seat, amount)``, where a ruleset's money is paid
    #: pairwise (龙港's chips, whose short payers pay in an order); their net is ``deltas``
    payments: tuple[tuple[int, int, int], ...] = ()

    def __init__(self, deltas: tuple[int, int, int, int], penalties: tuple[int, int, int, int] = (0, 0, 0, 0),
                 payments: tuple[tuple[int, int, int], ...] = ()) -> None:
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "penalties", penalties)
        object.__setattr__(self, "payments", payments)


def _coerce(name: str, value: Any, hint: Any) -> Any:
    origin = get_origin(hint)
    if origin is Literal:
        if value not in get_args(hint):
            raise OptionError(f"{name}: {value!r} is not one of {list(get_args(hint))}")
        return value
    if origin in (Union, types.UnionType):
        errors = []
        for arg in get_args(hint):
            if arg is type(None):
                if value is None:
                    return None
                continue
            try:
                return _coerce(name, value, arg)
            except OptionError as e:
                errors.append(str(e))
        raise OptionError(errors[0] if errors else f"{name}: bad value {value!r}")
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionError(f"{name}: expected true/false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{name}: expected an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise OptionError(f"{name}: expected a string, got {value!r}")
        return value
    if origin in (tuple, frozenset) or hint in (tuple, frozenset):
        if not isinstance(value, list | tuple | set | frozenset):
            raise OptionError(f"{name}: expected a list, got {value!r}")
        args = get_args(hint)
        inner = args[0] if args else Any
        items = [_coerce(name, v, inner) if inner is not Any else v for v in value]
        return frozenset(items) if (origin or hint) is frozenset else tuple(items)
    if origin in (Mapping, dict) or hint in (Mapping, dict):
        if not isinstance(value, Mapping):
            raise OptionError(f"{name}: expected an object, got {value!r}")
        kt, vt = get_args(hint) or (Any, Any)
        out = {}
        for k, v in value.items():
            out[_coerce(name, k, kt) if kt is not Any else k] = _coerce(f"{name}.{k}", v, vt) if vt is not Any else v
        return types.MappingProxyType(out)
    return value


_PARSED_OPTIONS: Final[dict[tuple[type, str], Any]] = {}
_PARSED_OPTIONS_MAX: Final = 1024
#: the instances :meth:`Ruleset.for_options` shares, by the same keys as :data:`_PARSED_OPTIONS`
_SHARED_RULESETS: Final[dict[tuple[type, str], Ruleset]] = {}


def _plain(v: Any) -> bool:
    """A JSON value made of builtin types only (its repr then says exactly what it is)."""
    if v is None or type(v) in (str, int, float, bool):
        return True
    if type(v) in (list, tuple):
        return all(_plain(x) for x in v)
    if type(v) is dict:
        return all(type(k) is str and _plain(x) for k, x in v.items())
    return False


def _options_key(cls: type, raw: Mapping[str, Any]) -> tuple[type, str] | None:
    if type(raw) is dict and not raw:
        return cls, ""  # most games: no options
    if type(raw) is not dict or not _plain(raw):
        return None
    return cls, repr(sorted(raw.items()))


@functools.cache
def _option_hints(options_cls: type) -> dict[str, Any]:
    return get_type_hints(options_cls)


@mypyc_attr(allow_interpreted_subclasses=True)
class Ruleset:
    """Base class. Subclasses set the class attributes and implement the scoring hooks.

    Compiled with the engine (mahjong_audit/accel.py): a ruleset module left interpreted, or a
    test's subclass, may still derive from it."""

    name: ClassVar[str]
    Options: ClassVar[type]  # a frozen dataclass; its defaults are the documented defaults

    # --- tiles -------------------------------------------------------------------------
    hand_size: ClassVar[int] = 13
    #: copies of each of the 42 tiles in the set (index = tile int)
    tile_copies: ClassVar[tuple[int, ...]] = (4,) * 34 + (1,) * 8
    #: tiles at the back of the wall that are never drawn (王牌)
    dead_wall: ClassVar[int] = 0
    #: when this many drawable tiles remain, each seat in turn gets one, no discards (海底)
    seabed: ClassVar[int] = 0

    # --- claims ------------------------------------------------------------------------
    chi_allowed: ClassVar[bool] = True
    #: may a seat declare a kong in the same turn as its chi or pon?
    kong_after_call: ClassVar[bool] = False
    #: after a chi/pon, may the seat discard the claimed kind (换张)?
    swap_calling_allowed: ClassVar[bool] = True
    #: 过水: a seat that passed a win on a discard may not win on a discard until its own discard
    passed_win_rule: ClassVar[bool] = False
    #: a seat that passed a pon may not pon that kind until its own next turn
    passed_pon_rule: ClassVar[bool] = False
    #: a seat that discards while holding a flower it had to set aside is dead (相公)
    unkept_flower_is_dead: ClassVar[bool] = False
    #: the replay asks :meth:`discard_extra` at every discard
    discard_context: ClassVar[bool] = False
    #: the discarded kinds :meth:`discard_extra` can answer for (None: every kind); the replay
    #: builds the context for these only
    discard_context_kinds: ClassVar[frozenset[int] | None] = None
    #: the replay notes a win a seat could have made and did not (``declined_win`` in the extra)
    tracks_declined_wins: ClassVar[bool] = False
    #: the replay asks :meth:`abortive_draw` (may be a property that reads the options)
    checks_abortive_draws: ClassVar[bool] = False
    #: every seat may declare concealed kongs at the deal (before the first discard), seat by
    #: seat in turn order from the dealer; they do not count as calls for the first go-round
    deal_kongs: ClassVar[bool] = False
    #: the replay and the simulator note after each discard whether the seat is ready early (天听 /
    #: 地听 of seed 002's 明星三缺一; may be a property that reads the options) — see :meth:`is_ready`
    tracks_early_ready: ClassVar[bool] = False

    # --- scored situations (engine/situation_check.py) ------------------------------------
    #: the ``ruleset_fields`` a scored situation may carry, with their strict types
    situation_fields: ClassVar[Mapping[str, FieldSpec]] = types.MappingProxyType({})
    #: the ``score`` result lists its breakdown under ``fans`` (every item a fan) or ``items``
    result_list: ClassVar[str] = "fans"
    #: details every ``score`` result carries, with the value used when a score has none
    result_details: ClassVar[tuple[tuple[str, object], ...]] = ()
    #: an instance keeps nothing of a game or hand (only what its immutable options give, maybe
    #: worked out on first need): the games with the same options may share one (:meth:`for_options`)
    shared_by_games: ClassVar[bool] = False
    #: what the replay reads of this ruleset every hand, read once (``replay.ReplayRules``, built by
    #: the replay on its first hand with this instance: its answers come from the class and the
    #: immutable options, so they never change)
    replay_rules: Any = None

    def __init__(self, options: Any = None):
        if options is None or isinstance(options, Mapping):
            options = self.parse_options(options or {})
        self.options: Any = options
        # read once (the replay asks for it every hand; an option missing from the ruleset's
        # Options costs getattr an AttributeError)
        self._seat_wall_size = int(getattr(options, "seat_wall_size", 0) or 0)

    @classmethod
    def for_options(cls, options: Any = None) -> Ruleset:
        """``cls(options)``, the one entry ``audit_game`` builds its ruleset by. A ruleset that is
        :attr:`shared_by_games` is built once per process for each options object of plain JSON
        values (the key :meth:`parse_options` keeps their parse by), and every game with those
        options gets that instance: building one per game costs more than some games' replay
        (广东's table of fan values). Other options, and other rulesets, get a new instance."""
        key = None
        if cls.shared_by_games and (options is None or isinstance(options, Mapping)):
            key = _options_key(cls, options if options is not None else {})
        if key is not None:
            shared = _SHARED_RULESETS.get(key)
            if shared is not None:
                return shared
        rs = cls(options)
        if key is not None and len(_SHARED_RULESETS) < _PARSED_OPTIONS_MAX:
            _SHARED_RULESETS[key] = rs
        return rs

    # --- options -----------------------------------------------------------------------
    @classmethod
    def parse_options(cls, raw: Mapping[str, Any]) -> Any:
        """Validate a game's ``options`` object: unknown keys and wrong types are errors.

        The result is immutable, so options already seen (plain JSON values) are parsed once
        per process: every game of an archive usually carries the same few option objects."""
        key = _options_key(cls, raw)
        if key is not None and key in _PARSED_OPTIONS:
            return _PARSED_OPTIONS[key]
        opts = cls._parse_options(raw)
        if key is not None and len(_PARSED_OPTIONS) < _PARSED_OPTIONS_MAX:
            _PARSED_OPTIONS[key] = opts
        return opts

    @classmethod
    def _parse_options(cls, raw: Mapping[str, Any]) -> Any:
        fields = {f.name: f for f in dataclasses.fields(cls.Options)}
        hints = _option_hints(cls.Options)
        unknown = sorted(set(raw) - set(fields))
        if unknown:
            raise OptionError(
                f"unknown option(s) {', '.join(map(repr, unknown))} for ruleset {cls.name!r} "
                f"(known: {', '.join(sorted(fields))})"
            )
        values = {k: _coerce(k, v, hints[k]) for k, v in raw.items()}
        try:
            opts = cls.Options(**values)
        except (TypeError, ValueError) as e:
            raise OptionError(str(e)) from None
        check = getattr(opts, "check", None)
        if check is not None:
            check()
        return opts

    @classmethod
    def option_docs(cls) -> list[tuple[str, object, str]]:
        """(name, default, help) for every option, for docs and ``--help``."""
        out = []
        for f in dataclasses.fields(cls.Options):
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc,operator]
            out.append((f.name, default, f.metadata.get("help", "")))
        return out

    # --- per-hand properties (may depend on options) -------------------------------------
    @property
    def copies(self) -> tuple[int, ...]:
        return self.tile_copies

    @property
    def multiple_winners(self) -> bool:
        return bool(getattr(self.options, "multiple_winners", False))

    @property
    def seat_wall_size(self) -> int:
        """Tiles in each seat's own wall after the deal (Botzone draws per seat); 0 = one shared wall."""
        return self._seat_wall_size

    @property
    def false_win_ends_hand(self) -> bool:
        """A false win ends the hand with no winner, only its penalty paid (Botzone's judge);
        by default the false winner is barred and play goes on."""
        return bool(getattr(self.options, "false_win_ends_hand", False))

    @property
    def penalty_verdicts(self) -> bool:
        """A hand may end on a judge's penalty verdict (Botzone's WA): the recorded
        ``wrong_action`` penalty ends it and is paid as a false win's (:meth:`false_win_penalty`)."""
        return bool(getattr(self.options, "penalty_verdicts", False))

    @property
    def multiple_win_payout_known(self) -> bool:
        """False when the platform's payout for several winners is undocumented: the auditor
        then reports ``platform_quirk/multiple_win_payout`` instead of comparing deltas."""
        return getattr(self.options, "multiple_win_payout", "each") != "unknown"

    @property
    def seabed_replacement(self) -> str:
        """How a replacement owed just before the seabed is made (see :mod:`mahjong_audit.engine.seabed`):
        ``"shorten"`` (an ordinary one; the seabed gets shorter) or ``"seed"``."""
        return "shorten"

    @property
    def seabed_reserve(self) -> int:
        """Tiles of the dead wall that a replacement owed just before the seabed may take
        (``"seed"`` procedure; 龙港's 21st 王牌 tile)."""
        return 0

    @property
    def winner_order(self) -> str:
        """``nearest`` (turn order from the discarder) or ``seat_index``."""
        return str(getattr(self.options, "winner_order", "nearest"))

    def wild_tiles(self, seat: int, dealer: int, indicator: int | None) -> frozenset[int]:
        """Tiles that are wild for ``seat`` this hand."""
        return frozenset()

    def flower_kept(self, seat: int, dealer: int, tile: int, indicator: int | None) -> bool:
        """True if this flower stays in hand (e.g. a seat's own flower as a wild)."""
        return False

    def wildcard_indicator_required(self) -> bool:
        return False

    def situation_wilds(self, sit: WinSituation) -> frozenset[int]:
        """The wild tiles of the seat of a scored situation (from its ruleset fields)."""
        return frozenset()

    def situation_table_tiles(self, sit: WinSituation) -> tuple[int, ...]:
        """Tiles a scored situation shows outside the seat's hand (a flipped indicator): they
        count against the copies of each tile."""
        return ()

    def situation_is_winner(self, sit: WinSituation) -> bool:
        """False when the situation scores a seat that did not win (its flags then do not apply)."""
        return True

    def standing_sizes(self, sit: WinSituation) -> tuple[int, ...]:
        """Allowed ``len(concealed) + 1 + 3 × melds`` of a scored situation."""
        return (self.hand_size + 1,)

    # --- wins --------------------------------------------------------------------------
    def is_complete(self, concealed: Sequence[int], melds: Sequence[Meld], wilds: frozenset[int]) -> bool:
        """Fast shape test: do these standing tiles (incl. the winning tile) and melds win?
        The replay passes per-tile counts: 34 entries, or 42 when the seat keeps flowers in hand."""
        raise NotImplementedError

    def may_complete_with_one(self, counts: tuple[int, ...], melds: Sequence[Meld], wilds: frozenset[int]) -> bool:
        """A quick no before the replay's what-ifs: False only when no tile added to these
        standing tiles (42 per-tile counts) could make :meth:`is_complete` true. Default: maybe."""
        return True

    def winning_tiles(self, counts: tuple[int, ...], melds: Sequence[Meld], wilds: frozenset[int]) -> int:
        """Every tile (bit ``t``) whose one more in these standing tiles (42 per-tile counts) makes
        :meth:`is_complete` true, worked out at once, or -1: not known (the replay then asks
        :meth:`may_complete_with_one`, and :meth:`is_complete` per tile). Default: not known."""
        return -1

    def winning_tiles_of(self, st: SeatState) -> int:
        """:meth:`winning_tiles` of a seat's standing tiles in the replay (the claim chances ask
        once per state of its hand); a ruleset may read the suit keys ``SeatState`` keeps.
        Default: of its counts."""
        return self.winning_tiles(tuple(st.hand), st.melds, st.wilds)

    def completes_with_draw(self, st: SeatState, t: int) -> bool:
        """Do a seat's standing tiles win as they stand, ``t`` (its last draw, held) the tile added
        (the replay's self-drawn test, shape only)? Default: :meth:`may_complete_with_one` on the
        hand before the draw, then :meth:`is_complete`."""
        counts = list(st.hand)
        counts[t] -= 1
        if not self.may_complete_with_one(tuple(counts), st.melds, st.wilds):
            return False  # the hand before the draw could not win on any tile
        kept = any(st.hand[T.FLOWER0:])
        return self.is_complete(st.hand[:] if kept else st.hand[:34], st.melds, st.wilds)

    def is_ready(self, counts: Sequence[int], melds: Sequence[Meld]) -> bool:
        """听牌: one more tile of some playing kind would make ``counts`` (per kind, the standing
        tiles) a winning shape with ``melds``. By shape: a kind whose four copies are held counts."""
        c = list(counts[:34])
        for t in range(34):
            c[t] += 1
            done = self.is_complete(c, melds, frozenset())
            c[t] -= 1
            if done:
                return True
        return False

    def instant_win(self, concealed: Sequence[int], seat: int, dealer: int, indicator: int | None) -> bool:
        """True if these standing tiles win at any moment, outside the seat's turn too
        (longgang's 三财神). A log shows it as a ``win`` with ``from`` = the seat, on a tile it holds."""
        return False

    def discard_extra(self, ctx: DiscardContext) -> tuple[tuple[str, object], ...]:
        """Fields added to the ``extra`` of a win on this discard (asked when ``discard_context``)."""
        return ()

    def forbidden_win(self, sit: WinSituation) -> tuple[str, str] | None:
        """(finding code, message) when a complete hand may still not win this way; None if it may."""
        return None

    def score_win(self, sit: WinSituation) -> Score:
        """Score a win; raise NotAWin if it is not a legal shape. ``below_minimum`` marks a
        complete hand that does not reach the ruleset's minimum."""
        raise NotImplementedError

    # --- money -------------------------------------------------------------------------
    def settle(self, end: HandEnd) -> Settlement:
        raise NotImplementedError

    def seat_items(self, end: HandEnd) -> tuple:
        """Scoring items of every seat (winner and others) for the hand_scores table."""
        out: list = []
        for w in end.wins:
            seat: int = w.seat
            for i in w.score.items:
                out.append(ScoreItem(i.name, i.value, i.count, i.unit, seat))
        return tuple(out)

    def false_win_penalty(self, seat: int, dealer: int) -> tuple[int, int, int, int]:
        raise NotImplementedError

    def false_win_standing_share(self, seat: int, dealer: int) -> int:
        """What a false winner in ``seat`` pays each player standing out (five-player games)."""
        return 0

    def abortive_draw(self, view: TableView) -> str | None:
        """A reason when the table as ``view`` shows it ends the hand as a draw before the wall
        runs out (流局); None to play on. Asked only when ``checks_abortive_draws``."""
        return None

    # --- game continuity ---------------------------------------------------------------
    #: players a game may list: more than four means one stands out each hand (替补)
    max_players: ClassVar[int] = 4

    def next_seating(self, seating: tuple[int, ...], standing: tuple[int, ...], dealer: int,
                     next_dealer: int) -> tuple[int, ...] | None:
        """The seating (player indexes in seats 0..3) of the next hand of a game with more
        players than seats, or None when the ruleset fixes no rotation."""
        return None

    def chips_ledger(self, n_players: int) -> Any:
        """The running chips of a whole game (a ledger with ``hand``/``settle_false_wins``/``resync``,
        see engine/rulesets/longgang_chips.py), or None where the ruleset keeps none."""
        return None

    def after_break(self) -> Ruleset:
        """This ruleset once a player went broke and re-bought (longgang: the bracketed 跟胡数)."""
        return self

    def next_dealer(self, dealer: int, winners: Sequence[int], drawn: bool) -> int:
        return (dealer + 1) % 4

    def next_round_wind(self, round_wind: int, hand_no_next: int, dealer_next: int, first_dealer: int,
                        dealer_changed: bool) -> int:
        """Round wind of the next hand (default: advances when the deal returns to the first dealer)."""
        if dealer_changed and dealer_next == first_dealer:
            return (round_wind + 1) % 4
        return round_wind

    def recorded_matches(self, recorded: Any, score: Score) -> tuple[bool, bool]:
        """(items equal, total equal) comparing a recorded score object with ours.
        Rulesets override to compare their own fields."""
        items_ok = True
        fans = getattr(recorded, "fans", None)
        if fans is not None:
            rec: dict[str, int] = {}
            for f in fans:
                name = str(f[0])
                value, count = f[1], f[2] if len(f) > 2 else 1
                # int() only of what is no int already (compiled, int() is a call through Python)
                v: int = value if type(value) is int else int(value)
                n: int = count if type(count) is int else int(count)
                rec[name] = rec.get(name, 0) + v * n
            ours: dict[str, int] = {}
            for i in score.items:
                ours[i.name] = ours.get(i.name, 0) + i.value * i.count
            items_ok = rec == ours  # the same names with the same values
        total = recorded.total
        total_ok = total is None or total == score.total
        return items_ok, total_ok


def not_a_win(message: str) -> NotAWin:
    return NotAWin("not_a_win", message)


by_fields(SeatEnd, WinEnd, HandEnd, DiscardContext, TableView, Settlement)

__all__ = [
    "DiscardContext", "HandEnd", "OptionError", "Ruleset", "SeatEnd", "Settlement", "T", "WinEnd", "mypyc_attr",
    "not_a_win",
]
