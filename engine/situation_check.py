"""One check of a scored situation for every ruleset: what cannot exist is rejected with a code.

The ``score`` command (and any library caller) builds a :class:`~mahjong_audit.engine.hand.WinSituation`
from outside input. Before a ruleset scores it, :func:`parse_fields` reads its
``ruleset_fields`` against the ruleset's declared fields (:class:`FieldSpec`, strict types),
and :func:`check_situation` rejects any hand that cannot occur at the table: tiles outside
the ruleset's set or beyond their copies, melds that are not melds, impossible flowers,
wilds where they never go, flags that contradict each other, the wrong number of tiles.
Each rejection is an :class:`InvalidSituation` carrying a code of :data:`ERRORS`.

The check is shared; what only one ruleset knows comes from small hooks on
:class:`~mahjong_audit.engine.ruleset.Ruleset`: ``copies`` (its tile set), ``chi_allowed``,
``situation_fields``, ``situation_wilds``, ``situation_table_tiles``,
``situation_is_winner`` and ``standing_sizes``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.engine.hand import Meld, MeldKind, WinSituation

if TYPE_CHECKING:
    from mahjong_audit.engine.ruleset import Ruleset

#: every error code a ``score`` line can return, with what it means (docs/score-cli.md lists
#: the same table). The first group comes from reading the line, the second from this
#: module's checks, the last from scoring.
ERRORS: Final[Mapping[str, str]] = MappingProxyType({
    # reading the line (pipeline/commands/score.py, schemas/situation.py)
    "invalid_json": "the line is not JSON",
    "missing_field": "a required field (concealed, win_tile, a meld's type) is absent, or a ruleset_fields key "
                     "without the keys it needs (seat_flower without wildcards)",
    "unknown_field": "a field the situation (or a meld) does not have, or a ruleset_fields key the ruleset does "
                     "not read",
    "wrong_type": "a value of the wrong JSON type (or a line that is not an object): strict booleans and "
                  "integers (\"false\" is not false, 2.7 is not 2), lists, objects, strings",
    "bad_value": "a value of the right type outside its allowed set or range (a role, a wind, a seat, winners > 1 "
                 "where the options allow one winner)",
    "bad_tile": "a string that is not a tile name",
    "bad_meld": "a meld of the wrong shape (a chi without three tiles, a pon or kong without its tile, "
                "'concealed' on a chi or pon, 'from' on a concealed kong)",
    "unknown_ruleset": "the ruleset named by --ruleset or the line's ruleset field does not exist",
    "invalid_options": "the line's options are unknown to the ruleset or of the wrong type",
    # what cannot exist (this module)
    "conflicting_fields": "two ruleset_fields that exclude each other (indicator and wildcards), or seat/dealer "
                          "that disagree with seat_wind",
    "tile_not_in_set": "a tile the ruleset does not play with (白板 or 5f–8f in longgang, any flower in "
                       "guangdong or in mcr with flowers off)",
    "not_a_flower": "a tile listed under flowers that is not a flower",
    "duplicate_flower": "a flower listed twice (or set aside and held at once)",
    "kept_flower_set_aside": "a flower the seat keeps in hand as a wild (longgang's 坐花, any flower under 花财神) "
                             "listed as set aside",
    "flower_in_hand": "a flower among the standing tiles that the ruleset sets aside",
    "too_many_copies": "more copies of a tile than the set holds (hand, melds, flowers and the flipped "
                       "indicator together)",
    "not_a_run": "a chi that is not three consecutive tiles of one suit (honours, across suits, a gap)",
    "claimed_not_in_meld": "a meld's claimed tile is not one of its tiles",
    "chi_not_from_left": "a chi claimed from a seat other than the left one (from ≠ 1)",
    "chi_not_allowed": "a chi in a ruleset (or options) without chi",
    "wild_in_meld": "a wild tile inside a chi, pon or kong",
    "wild_discard_win": "a win on a discarded (or robbed) wild tile: wilds are never discarded",
    "flag_needs_dealer": "a flag only the dealer can have (heavenly: 天和/天胡) on another seat",
    "flag_needs_non_dealer": "a flag only a non-dealer can have (earthly, human, dihu) on the dealer",
    "flag_needs_seat": "a flag only one seat can have (mcr's earthly 地和: the dealer's next seat, seat wind S) "
                       "on another",
    "flag_needs_self_draw": "a self-draw flag (heavenly, earthly) on a win on a discard",
    "flag_needs_discard": "a flag of a win on a discard (longgang's human/dihu 地胡; winners > 1) on a self-draw",
    "flag_needs_no_call": "a first-go-round flag (heavenly, earthly, human, dihu) on a hand with a chi, pon or "
                          "exposed kong",
    "kong_flag_without_kong": "kong on a self-draw (杠上开花) but the hand has no kong",
    "replacement_needs_self_draw": "replacement (a win on a kong or flower replacement tile) on a win on a discard",
    "replacement_without_flower": "replacement: flower, but no flower was set aside (flowers is empty)",
    "wrong_tile_count": "standing tiles + 3 per meld + the winning tile is not the ruleset's winning hand size",
    # scoring (the ruleset)
    "not_a_win": "the tiles are no winning shape of the ruleset",
})


class InvalidSituation(InvalidData):
    """A situation that cannot exist; ``code`` is a key of :data:`ERRORS`."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


FieldKind = Literal["bool", "int", "tile", "tiles", "flower_or_false", "choice"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One ``ruleset_fields`` key a ruleset reads: its type (strict), range or choices, the
    keys it may not be combined with, the keys without which it would mean nothing, and for
    a timing flag (天和, 地和, …) who can have it and how."""

    kind: FieldKind
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    #: a flag (``bool``) that, when true, fixes who won and how: only the dealer (True) or only
    #: another seat (False); only by self-draw (True) or only on a discard (False); None = either
    dealer: bool | None = None
    self_drawn: bool | None = None
    #: the flag is a first-go-round win: no seat has called yet, so no chi, pon or exposed kong
    no_call: bool = False
    #: the only seat wind (0 = E … 3 = N) that can have the flag; None = any
    seat_wind: int | None = None


def _fail(code: str, message: str) -> InvalidSituation:
    return InvalidSituation(code, message)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _tile_value(rs: Ruleset, name: str, v: object) -> int:
    if not isinstance(v, str):
        raise _fail("wrong_type", f"ruleset_fields.{name}: expected a tile name, got {v!r}")
    try:
        t = T.tile(v)
    except T.TileError:
        raise _fail("bad_tile", f"ruleset_fields.{name}: {v!r} is not a tile") from None
    if not rs.copies[t]:
        raise _fail("tile_not_in_set", f"ruleset_fields.{name}: {v} is not among {rs.name}'s tiles")
    return t


def _field_value(rs: Ruleset, name: str, spec: FieldSpec, v: object) -> object:
    kind = spec.kind
    if kind == "bool":
        if not isinstance(v, bool):
            raise _fail("wrong_type", f"ruleset_fields.{name}: expected true/false, got {v!r}")
        return v
    if kind == "int":
        if not _is_int(v):
            raise _fail("wrong_type", f"ruleset_fields.{name}: expected an integer, got {v!r}")
        n = int(v)  # type: ignore[call-overload]
        if (spec.low is not None and n < spec.low) or (spec.high is not None and n > spec.high):
            raise _fail("bad_value", f"ruleset_fields.{name}: {n} is outside {spec.low}..{spec.high}")
        return n
    if kind == "choice":
        if not isinstance(v, str):
            raise _fail("wrong_type", f"ruleset_fields.{name}: expected a string, got {v!r}")
        if v not in spec.choices:
            raise _fail("bad_value", f"ruleset_fields.{name}: {v!r} is not one of {list(spec.choices)}")
        return v
    if kind == "tile":
        return _tile_value(rs, name, v)
    if kind == "tiles":
        if not isinstance(v, list):
            raise _fail("wrong_type", f"ruleset_fields.{name}: expected a list of tiles, got {v!r}")
        return tuple(_tile_value(rs, name, x) for x in v)
    # flower_or_false
    if v is False:
        return False
    t = _tile_value(rs, name, v)
    if not T.is_flower(t):
        raise _fail("not_a_flower", f"ruleset_fields.{name}: {v} is not a flower")
    return t


def parse_fields(rs: Ruleset, raw: Mapping[str, object]) -> tuple[tuple[str, object], ...]:
    """``ruleset_fields`` as sorted (key, value) pairs for ``WinSituation.extra``, tiles as ints.
    Unknown keys, wrong types and values out of range raise :class:`InvalidSituation`."""
    if not raw:
        return ()
    specs = rs.situation_fields
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        known = ", ".join(sorted(specs)) or "none"
        raise _fail("unknown_field", f"ruleset_fields: {', '.join(map(repr, unknown))} unknown to {rs.name} "
                                     f"(known: {known})")
    out = []
    for name in sorted(raw):
        spec = specs[name]
        clash = sorted(set(spec.excludes) & set(raw))
        if clash:
            raise _fail("conflicting_fields", f"ruleset_fields: {name} and {clash[0]} exclude each other")
        absent = [k for k in spec.requires if k not in raw]
        if absent:
            raise _fail("missing_field", f"ruleset_fields: {name} needs {' and '.join(absent)}")
        out.append((name, _field_value(rs, name, spec, raw[name])))
    return tuple(out)


_CHI: Final = MeldKind.CHI


def _check_meld(rs: Ruleset, m: Meld, wilds: frozenset[int]) -> None:
    if m.kind is _CHI:
        if not rs.chi_allowed:
            raise _fail("chi_not_allowed", f"chi {T.fmt(m.tiles)}: {rs.name} is played without chi")
        a, b, c = sorted(m.tiles)
        if not (T.is_suited(a) and b == a + 1 and c == a + 2 and T.suit(a) == T.suit(c)):
            raise _fail("not_a_run", f"chi {T.fmt(m.tiles, sort=False)} is not three consecutive tiles of one suit")
        if m.source not in (None, 1):
            raise _fail("chi_not_from_left", f"chi {T.fmt(m.tiles)} claimed from offset {m.source}: "
                                             "a chi comes only from the left seat (from 1)")
    if m.claimed is not None and m.claimed not in m.tiles:
        raise _fail("claimed_not_in_meld", f"{m}: the claimed tile {T.name(m.claimed)} is not in it")
    if wilds:
        bad = [t for t in m.tiles if t in wilds]
        if bad:
            raise _fail("wild_in_meld", f"{m}: {T.name(bad[0])} is wild and never goes into a chi, pon or kong")


def _flag_checks(rs: Ruleset, sit: WinSituation) -> None:
    """The ruleset fields that fix who won and how (timing flags, seat/dealer, winners)."""
    dealer = sit.seat_wind == 0
    seat, dealer_seat = sit.get("seat"), sit.get("dealer")
    if _is_int(seat) and _is_int(dealer_seat):
        if (seat - dealer_seat) % 4 != sit.seat_wind:  # type: ignore[operator]
            raise _fail("conflicting_fields", f"seat {seat} with dealer {dealer_seat} is seat wind "
                                              f"{'ESWN'[(seat - dealer_seat) % 4]}, not {'ESWN'[sit.seat_wind]}")  # type: ignore[operator]
    for flag, value in sit.extra:
        spec = rs.situation_fields.get(flag)
        if value is not True or spec is None:
            continue
        if spec.dealer is True and not dealer:
            raise _fail("flag_needs_dealer", f"{flag}: only the dealer (seat wind E) can have it")
        if spec.dealer is False and dealer:
            raise _fail("flag_needs_non_dealer", f"{flag}: the dealer (seat wind E) cannot have it")
        if spec.self_drawn is True and not sit.self_drawn:
            raise _fail("flag_needs_self_draw", f"{flag} is a self-drawn win: self_drawn must be true")
        if spec.self_drawn is False and sit.self_drawn:
            raise _fail("flag_needs_discard", f"{flag} is a win on a discard: self_drawn must be false")
        if spec.seat_wind is not None and sit.seat_wind != spec.seat_wind:
            raise _fail("flag_needs_seat", f"{flag}: only seat wind {'ESWN'[spec.seat_wind]} can have it, not "
                                           f"{'ESWN'[sit.seat_wind]}")
        if spec.no_call and any(not m.is_concealed for m in sit.melds):
            raise _fail("flag_needs_no_call", f"{flag} is a win before anyone called: no chi, pon or exposed kong")
    winners = sit.get("winners", 1)
    if _is_int(winners) and winners > 1:  # type: ignore[operator]
        if not rs.multiple_winners:
            raise _fail("bad_value", f"winners {winners}: this game's options allow one winner per discard")
        if sit.self_drawn:
            raise _fail("flag_needs_discard", f"winners {winners}: several winners share one discard, "
                                              "so self_drawn must be false")


_NO_WILDS: Final[frozenset[int]] = frozenset()
#: the hooks of :class:`~mahjong_audit.engine.ruleset.Ruleset` that :func:`check_situation` may skip
_SKIPPABLE_HOOKS: Final = ("situation_wilds", "situation_table_tiles", "situation_is_winner")
#: per ruleset class: True when it keeps all of ``_SKIPPABLE_HOOKS`` as the base class has them (no
#: wilds, no table tiles, every situation a winner), so the check need not call them
_PLAIN_HOOKS: Final[dict[type, bool]] = {}


def _plain_hooks(rs: Ruleset) -> bool:
    cls = type(rs)
    plain = _PLAIN_HOOKS.get(cls)
    if plain is None:
        from mahjong_audit.engine.ruleset import Ruleset

        plain = _PLAIN_HOOKS[cls] = all(getattr(cls, h) is getattr(Ruleset, h) for h in _SKIPPABLE_HOOKS)
    return plain


def _count(counts: list[int], tiles: tuple[int, ...], copies: tuple[int, ...]) -> bool:
    """Add the tiles to their counts; whether one went beyond its copies."""
    beyond = False
    for t in tiles:
        n = counts[t] + 1
        counts[t] = n
        if n > copies[t]:
            beyond = True
    return beyond


def _beyond(counts: list[int], copies: tuple[int, ...]) -> list[int]:
    """The tiles counted beyond their copies, in tile order."""
    return [t for t in range(T.N_TILES) if counts[t] > copies[t]]


def check_situation(rs: Ruleset, sit: WinSituation) -> None:
    """Raise :class:`InvalidSituation` if ``sit`` cannot occur under ``rs`` (fields already parsed).

    Checked in this order, the first problem reported: tiles outside the set, flowers that are
    not flowers, each meld, copies, flowers held or set aside wrongly, the tile count, then
    (for a winner) a win on a wild and the flags."""
    copies = rs.copies
    counts = [0] * T.N_TILES
    beyond = _count(counts, sit.concealed, copies)
    win = sit.win_tile
    n = counts[win] + 1
    counts[win] = n
    if n > copies[win]:
        beyond = True
    for m in sit.melds:
        if _count(counts, m.tiles, copies):
            beyond = True
    if _count(counts, sit.flowers, copies):
        beyond = True
    over = _beyond(counts, copies) if beyond else []
    for t in over:
        if not copies[t]:
            raise _fail("tile_not_in_set", f"{T.name(t)} is not among {rs.name}'s tiles")
    for t in sit.flowers:
        if not T.is_flower(t):
            raise _fail("not_a_flower", f"flowers: {T.name(t)} is not a flower")
    plain = _plain_hooks(rs)
    wilds = _NO_WILDS if plain else rs.situation_wilds(sit)
    for m in sit.melds:
        _check_meld(rs, m, wilds)
    table = () if plain else rs.situation_table_tiles(sit)
    if table:
        for t in table:
            counts[t] += 1
        over = _beyond(counts, copies)
    for t in over:
        n = counts[t]
        if T.is_flower(t):
            raise _fail("duplicate_flower", f"{T.name(t)} appears {n} times; there is one")
        raise _fail("too_many_copies", f"{n} copies of {T.name(t)}; the set has {copies[t]}")
    if win >= T.N_KINDS or any(t >= T.N_KINDS for t in sit.concealed):
        for t in sit.full_concealed:
            if T.is_flower(t) and t not in wilds:
                raise _fail("flower_in_hand", f"{T.name(t)} is among the standing tiles, but {rs.name} sets it aside")
    for t in sit.flowers:
        if t in wilds:
            raise _fail("kept_flower_set_aside", f"flowers: {T.name(t)} stays in hand as a wild, it is never set aside")
    n = len(sit.concealed) + 1 + 3 * len(sit.melds)
    sizes = rs.standing_sizes(sit)
    if n not in sizes:
        want = " or ".join(map(str, sizes))
        raise _fail("wrong_tile_count", f"{len(sit.concealed)} standing + {len(sit.melds)} melds × 3 + the winning "
                                        f"tile = {n}, not {want}")
    if not plain and not rs.situation_is_winner(sit):
        return
    if not sit.self_drawn and sit.win_tile in wilds:
        raise _fail("wild_discard_win", f"a win on a discarded {T.name(sit.win_tile)}: wild tiles are never "
                                        "discarded")
    if sit.kong and sit.self_drawn and not any(m.is_kong for m in sit.melds):
        raise _fail("kong_flag_without_kong", "kong with self_drawn is a win on a kong replacement (杠上开花), "
                                              "but the hand has no kong")
    replacement = dict(sit.extra).get("replacement") if sit.extra else None
    if replacement is not None and not sit.self_drawn:
        raise _fail("replacement_needs_self_draw", f"replacement: {replacement} is a self-drawn win on a "
                                                   "replacement tile, but self_drawn is false")
    if replacement == "flower" and not sit.flowers:
        raise _fail("replacement_without_flower", "replacement: flower follows a flower set aside, but flowers "
                                                  "is empty")
    if sit.extra:
        _flag_checks(rs, sit)


__all__ = ["ERRORS", "FieldSpec", "InvalidSituation", "check_situation", "parse_fields"]
