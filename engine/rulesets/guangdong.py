"""Ruleset ``guangdong``: 广东 / 贵港麻将 (番 doubling, 爆胡 cap). See docs/rules/guangdong.md.

The fan values are data in ``guangdong_fans``; this module detects the hands and
settles the money.

Public API (what the replay engine, the ``score`` command and the simulator use):

* ``Guangdong(options)`` — bound to one game's options (a mapping or ``Options``).
* ``is_complete(concealed, melds, wilds)`` — shape test: 4 sets + pair, 七对, 十三幺.
* ``score_win(sit) -> Score`` — the fan of one win; raises ``NotAWin``. ``Score.items``
  is the hand (the regular hand and its additions, or the one special hand);
  ``Score.total`` is the fan after the cap and the minimum situations, i.e. what is paid.
  ``sit.extra`` may carry ``("winners", n)``: the number of seats winning on the same
  discard (the replay sets it when a multiple win closes).
* ``points(fan) -> int`` — ``base × 2^fan``.
* ``settle(end) -> Settlement``, ``false_win_penalty(seat, dealer)``,
  ``next_dealer(dealer, winners, drawn)``.

>>> from mahjong_audit.engine.tiles import parse
>>> from mahjong_audit.engine.hand import WinSituation
>>> rs = Guangdong()
>>> s = rs.score_win(WinSituation(parse("123m456m789p11z55s"), (), parse("5s")[0], self_drawn=True))
>>> [(i.name, i.value) for i in s.items], s.total
([('鸡胡', 1), ('自摸', 1)], 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import (
    PAIR,
    SEQ,
    TRIPLET,
    decompositions,
    is_complete,
    is_seven_pairs,
    is_thirteen_orphans,
)
from mahjong_audit.engine.hand import Meld, NotAWin, Score, ScoreItem, WinSituation
from mahjong_audit.engine.ruleset import HandEnd, Ruleset, Settlement, mypyc_attr
from mahjong_audit.engine.rulesets import guangdong_fans as F
from mahjong_audit.engine.rulesets.guangdong_options import GuangdongOptions
from mahjong_audit.engine.situation_check import FieldSpec

ORPHANS: Final = T.TERMINALS_AND_HONOURS
TERMINALS: Final = tuple(t for t in ORPHANS if T.is_terminal(t))
NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


#: the additions' rows, in the order :meth:`Guangdong.additions` lists them
_SELF_DRAWN: Final = F.ADDITIONS_BY_ID["self_drawn"]
_SEAT_WIND: Final = F.ADDITIONS_BY_ID["seat_wind"]
_ROUND_WIND: Final = F.ADDITIONS_BY_ID["round_wind"]
_DRAGON_PUNG: Final = F.ADDITIONS_BY_ID["dragon_pung"]
_READY: Final = F.ADDITIONS_BY_ID["ready"]

#: one way to score a shape: (sort key: total, 1 for a special hand, raw sum), its items, special, capped
_Candidate = tuple[tuple[int, int, int], tuple[ScoreItem, ...], bool, bool]


@dataclass(frozen=True, slots=True)
class _Shape:
    """One reading of a winning hand: its sets (melds included) and pair, or a special shape."""

    kind: str  # "standard" | "seven_pairs" | "thirteen_orphans"
    triplets: tuple[int, ...] = ()  # first tile of each triplet / kong
    sequences: tuple[int, ...] = ()  # first tile of each sequence
    pair: int | None = None

    def __init__(self, kind: str, triplets: tuple[int, ...] = (), sequences: tuple[int, ...] = (),
                 pair: int | None = None) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "triplets", triplets)
        object.__setattr__(self, "sequences", sequences)
        object.__setattr__(self, "pair", pair)


class _TileFacts(NamedTuple):
    """What the rows read of a hand's tiles (concealed and melded), worked out once per win."""

    suits: str  # ``pure`` (one suit), ``half`` (one suit + honours), ``honours``, or ``mixed``
    orphan_only: bool  # every tile a terminal or an honour
    has_honour: bool
    has_terminal: bool


def _tile_facts(counts: list[int]) -> _TileFacts:
    """The :class:`_TileFacts` of the counts (34 kinds) of every tile of a hand. One pass over the
    kinds (compiled, native list reads: no slices, no ``any()`` through Python)."""
    n_suits = 0
    simples = terminal = False
    for k in range(0, 27, 9):
        held = False
        for t in range(k, k + 9):
            if counts[t]:
                held = True
                if t == k or t == k + 8:
                    terminal = True
                else:
                    simples = True
        if held:
            n_suits += 1
    honours = False
    for t in range(27, 34):
        if counts[t]:
            honours = True
            break
    suits = "honours" if not n_suits else "mixed" if n_suits > 1 else "half" if honours else "pure"
    return _TileFacts(suits, not simples, honours, terminal)


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's subclass may wrap its methods
class Guangdong(Ruleset):
    name = "guangdong"
    Options = GuangdongOptions
    hand_size = 13
    shared_by_games = True  # nothing of a game kept (the table of fan values, bound to the options)
    tile_copies = (4,) * 34 + (0,) * 8  # 136 tiles, no flowers
    situation_fields = MappingProxyType({
        "winners": FieldSpec("int", "seats winning on the same discard (一炮多响)", low=1, high=3),
        "ready": FieldSpec("bool", "the winner had declared ready (报听; scored with the addition 报听)"),
    })
    result_details = (("special", False), ("capped", False))

    @property
    def chi_allowed(self) -> bool:  # type: ignore[override]
        return self.options.chi
    kong_after_call = False
    swap_calling_allowed = True
    passed_win_rule = False
    passed_pon_rule = False

    def __init__(self, options: Any = None):
        super().__init__(options)
        #: every row's value under the options (``fan_values``), by Chinese name
        self._values: Mapping[str, int] = MappingProxyType(
            {r.zh: int(self.options.fan_values.get(r.zh, r.value)) for r in F.ALL_ROWS})

    # --- values ------------------------------------------------------------------------
    def value(self, row: F.FanRow) -> int:
        return self._values[row.zh]

    def points(self, fan: int) -> int:
        """Money of a hand of ``fan`` fan, paid by each paying seat: ``base × 2^fan``."""
        return self.options.base * 2 ** fan

    # --- shapes ------------------------------------------------------------------------
    def is_complete(self, concealed: Sequence[int], melds: Sequence[Meld], wilds: frozenset[int] = frozenset()) -> bool:
        """The standing tiles as a list of per-kind counts (34, or 42 with flowers: their counts are
        read as nothing, flowers being no tiles of this ruleset), or as tiles (any other sequence)."""
        if isinstance(concealed, list) and (len(concealed) == 34 or len(concealed) == 42):
            counts = concealed  # read, never changed; the shape tests read the 34 kinds only
        else:
            counts = T.counts(concealed, 34)
        n = len(melds)
        if is_complete(counts, 4 - n):
            return True
        if n == 0 and self._seven_pairs(counts):
            return True
        return n == 0 and is_thirteen_orphans(counts)

    def _seven_pairs(self, counts: Sequence[int]) -> bool:
        if not is_seven_pairs(counts):
            return False
        if self.options.seven_pairs_four:
            return True
        for t in range(34):
            if counts[t] not in (0, 2):
                return False
        return True

    def shapes(self, sit: WinSituation) -> list[_Shape]:
        return self._shapes(sit, T.counts(sit.full_concealed, 34))

    def _shapes(self, sit: WinSituation, counts: list[int]) -> list[_Shape]:
        """:meth:`shapes`, given the counts (34 kinds) of the standing tiles with the winning one."""
        n = len(sit.melds)
        out: list[_Shape] = []
        meld_trips = tuple(m.first for m in sit.melds if m.is_triplet_like)
        meld_seqs = tuple(m.first for m in sit.melds if not m.is_triplet_like)
        for parts in decompositions(counts, 4 - n):
            trips = meld_trips + tuple(p.tile for p in parts if p.kind == TRIPLET and p.tile is not None)
            seqs = meld_seqs + tuple(p.tile for p in parts if p.kind == SEQ and p.tile is not None)
            pair = next(p.tile for p in parts if p.kind == PAIR)
            out.append(_Shape("standard", tuple(sorted(trips)), tuple(sorted(seqs)), pair))
        if n == 0 and self._seven_pairs(counts):
            out.append(_Shape("seven_pairs"))
        if n == 0 and is_thirteen_orphans(counts):
            out.append(_Shape("thirteen_orphans"))
        return out

    # --- scoring -----------------------------------------------------------------------
    def score_win(self, sit: WinSituation) -> Score:
        """Score one win (see the module docstring); raises NotAWin if no winning shape."""
        full = sit.full_concealed
        if sit.flowers or T.is_flower(max(full)):  # flowers are the highest tile ids
            raise NotAWin("not_a_win", "flowers are not part of this ruleset's tiles")
        counts = T.counts(full, 34)
        shapes = self._shapes(sit, counts)
        if not shapes:
            raise NotAWin("not_a_win", "not 4 sets + a pair, 七对 or 十三幺")
        all_tiles = full + tuple(t for m in sit.melds for t in m.tiles)
        for m in sit.melds:
            for t in m.tiles:
                counts[t] += 1
        facts = _tile_facts(counts)
        best: _Candidate | None = None
        for shape in shapes:
            for cand in self._candidates(sit, shape, all_tiles, facts):
                if best is None or cand[0] > best[0]:
                    best = cand
        if best is None:  # every shape has at least the 鸡胡 / 七对 / 十三幺 candidate
            raise NotAWin("not_a_win", "no scoring reading")
        (total, _, _), items, special, capped = best
        details: list[tuple[str, object]] = [("special", special), ("capped", capped)]
        situations = self.minimum_situations(sit)
        if situations and total < self.options.minimum_fan:
            total = self.options.minimum_fan
            details.append(("minimum", "+".join(F.MINIMUM_NAMES[s] for s in situations)))
        return Score(items, total, below_minimum=total < self.options.min_fan, details=tuple(details))

    def minimum_situations(self, sit: WinSituation) -> tuple[str, ...]:
        """Which of the options' minimum situations this win is in (ids, table order)."""
        active = {
            "kong_replacement": sit.kong and sit.self_drawn,
            "last_tile": sit.last_tile and sit.self_drawn,
            "multiple_win": int(sit.get("winners", 1) or 1) >= self.options.multiple_win_from,  # type: ignore[call-overload]
            "robbing_kong": sit.kong and not sit.self_drawn,
        }
        return tuple(k for k, _ in F.MINIMUM_SITUATIONS if active[k] and k in self.options.minimum_situations)

    def _candidates(self, sit: WinSituation, shape: _Shape, all_tiles: tuple[int, ...], facts: _TileFacts
                    ) -> Iterator[_Candidate]:
        """Yield (sort key, items, is_special, capped) for each way to score this shape.
        Sort key: (total, 1 for a special hand, raw sum) — a special hand wins a tie."""
        options = self.options  # (each option read once: compiled, a generic lookup each)
        pure = options.nine_gates == "pure_wait"
        specials = self.special_hands(shape, all_tiles, facts, no_melds=not sit.melds,
                                      nine_gates_win=sit.win_tile if pure else None)
        cap_breakers = options.cap_breakers
        breakers = [r for r in specials if r.zh in cap_breakers]
        for r in breakers:
            v = self.value(r)
            yield (v, 1, v), (ScoreItem(r.zh, v),), True, False
        if shape.kind != "standard":
            if not breakers:  # 七对 / 十三幺 not breaking the cap: scored at its value, capped
                r = self._most_valuable(specials)
                v = self._cap(self.value(r))
                yield (v, 0, self.value(r)), (ScoreItem(r.zh, self.value(r)),), False, v < self.value(r)
            return
        base_rows = self.regular_hands(shape, facts) + [r for r in specials if r not in breakers]
        base = self._most_valuable(base_rows)
        items = [ScoreItem(base.zh, self.value(base))]
        additions = options.additions
        for row, count in self.additions(sit, shape):
            if count and row.zh in additions:
                items.append(ScoreItem(row.zh, self.value(row), count))
        raw = sum(i.value * i.count for i in items)
        total = self._cap(raw)
        yield (total, 0, raw), tuple(items), False, total < raw

    def _most_valuable(self, rows: list[F.FanRow]) -> F.FanRow:
        """The row of the highest value, the first of equal values (as ``max`` keeps it; a loop: compiled,
        ``max`` with a key calls a Python function per row)."""
        best = rows[0]
        top = self.value(best)
        for r in rows:
            v = self.value(r)
            if v > top:
                best, top = r, v
        return best

    def _cap(self, fan: int) -> int:
        return fan if self.options.cap is None else min(fan, self.options.cap)

    @staticmethod
    def regular_hands(shape: _Shape, facts: _TileFacts) -> list[F.FanRow]:
        """The regular rows a standard-shape hand has (鸡胡 always)."""
        rows = [F.REGULAR_BY_ID["chicken_hand"]]
        if not shape.triplets:
            rows.append(F.REGULAR_BY_ID["all_chows"])
        if facts.suits == "half":
            rows.append(F.REGULAR_BY_ID["half_flush"])
        if not shape.sequences:
            rows.append(F.REGULAR_BY_ID["all_pungs"])
        return rows

    @staticmethod
    def additions(sit: WinSituation, shape: _Shape) -> list[tuple[F.FanRow, int]]:
        """(row, count) for every addition (counts may be 0)."""
        trips = shape.triplets  # sorted: its few kinds tested in turn, no set built
        seat, round_ = T.wind_tile(sit.seat_wind), T.wind_tile(sit.round_wind)
        dragons = 0  # the dragon kinds among them (a kind twice, in a faulty hand, once)
        before = -1
        for t in trips:
            if T.is_dragon(t) and t != before:
                dragons += 1
            before = t
        return [
            (_SELF_DRAWN, int(sit.self_drawn)),
            (_SEAT_WIND, int(seat in trips)),
            (_ROUND_WIND, int(round_ in trips)),
            (_DRAGON_PUNG, dragons),
            (_READY, int(bool(sit.get("ready")))),
        ]

    @staticmethod
    def special_hands(shape: _Shape, all_tiles: tuple[int, ...], facts: _TileFacts, *, no_melds: bool,
                      nine_gates_win: int | None = None) -> list[F.FanRow]:
        """The special rows a hand has, in table order. ``nine_gates_win``: score 九莲宝灯 only
        when the tiles without this winning tile are exactly 1112345678999 (option nine_gates)."""
        s = F.SPECIAL_BY_ID
        suits, orphan_only, has_honour, has_terminal = facts
        out: list[F.FanRow] = []
        if shape.kind == "thirteen_orphans":
            return [s["thirteen_orphans"]]
        if suits == "pure":
            out.append(s["full_flush"])
        if orphan_only and has_honour and has_terminal:
            out.append(s["mixed_terminals"])
        if shape.kind == "seven_pairs":
            out.append(s["seven_pairs"])
            return sorted(out, key=F.SPECIAL.index)
        pungs = not shape.sequences
        dragons = sum(1 for t in shape.triplets if T.is_dragon(t))
        winds = sum(1 for t in shape.triplets if T.is_wind(t))
        pair = shape.pair
        if suits == "half" and pungs:
            out.append(s["half_flush_pungs"])
        if dragons == 2 and pair is not None and T.is_dragon(pair):
            out.append(s["little_three_dragons"])
        if suits == "pure" and pungs:
            out.append(s["full_flush_pungs"])
        if winds == 3 and pair is not None and T.is_wind(pair):
            out.append(s["little_four_winds"])
        if suits == "honours":
            out.append(s["all_honours"])
        if orphan_only and not has_honour:
            out.append(s["all_terminals"])
        if dragons == 3:
            out.append(s["big_three_dragons"])
        if winds == 4:
            out.append(s["big_four_winds"])
        if no_melds and suits == "pure" and _nine_gates(all_tiles, nine_gates_win):
            out.append(s["nine_gates"])
        return sorted(out, key=F.SPECIAL.index)

    # --- money -------------------------------------------------------------------------
    def settle(self, end: HandEnd) -> Settlement:
        """Each win: self-drawn, every other seat pays ``points(fan)``; on a discard (or a
        robbed kong) the discarder pays. 包胡: a seat that supplied ``bao_sets`` of the
        winner's claimed sets pays all of it instead."""
        deltas = [0, 0, 0, 0]
        for w in end.wins:
            pts = self.points(w.score.total)
            payers = [s for s in range(4) if s != w.seat] if w.from_seat is None else [w.from_seat]
            bao = self.bao_seat(end, w.seat)
            for p in payers:
                deltas[bao if bao is not None else p] -= pts
                deltas[w.seat] += pts
        return Settlement(tuple(deltas))  # type: ignore[arg-type]

    def bao_seat(self, end: HandEnd, winner: int) -> int | None:
        """The seat that fed ``winner`` ``bao_sets`` claimed sets (包胡), or None."""
        bao_sets = self.options.bao_sets
        if not bao_sets or winner >= len(end.feeders):
            return None
        feeders = end.feeders[winner]
        found: int | None = None  # the lowest such seat (counted in native loops: a hand has a few sets)
        for seat in feeders:
            if seat != winner and (found is None or seat < found):
                n = 0
                for other in feeders:
                    if other == seat:
                        n += 1
                if n >= bao_sets:
                    found = seat
        return found

    def false_win_penalty(self, seat: int, dealer: int) -> tuple[int, int, int, int]:
        p = self.points(self.options.false_win_fan)
        return tuple(-3 * p if s == seat else p for s in range(4))  # type: ignore[return-value]

    def next_dealer(self, dealer: int, winners: Sequence[int], drawn: bool) -> int:
        """The dealer stays after its own win (also as one of several winners) or a draw."""
        if drawn or dealer in winners:
            return dealer
        return (dealer + 1) % 4


def _nine_gates(tiles: Sequence[int], win: int | None = None) -> bool:
    """1112345678999 + one more of the same suit, all concealed (caller checks no melds).
    With ``win`` (the pure reading): the 13 tiles besides the winning tile are exactly
    1112345678999, the hand that waits on all nine tiles of its suit."""
    if len(tiles) != 14:
        return False
    base = 9 * T.suit(tiles[0])
    c = T.counts(tiles, 34)[base:base + 9]
    if win is not None:
        if not base <= win < base + 9:
            return False
        c[win - base] -= 1
        return tuple(c) == NINE_GATES
    return all(have >= need for have, need in zip(c, NINE_GATES, strict=True))


RULESET = Guangdong
