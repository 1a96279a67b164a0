"""Ruleset ``mcr``: Mahjong Competition Rules (国标麻将). See docs/rules/mcr.md.

Shapes and play rules live here; the fan catalogue is ``mcr_fans`` and the fan
calculator ``mcr_scoring``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import permutations
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import is_complete, is_seven_pairs, is_thirteen_orphans
from mahjong_audit.engine.hand import Meld, Score, WinSituation
from mahjong_audit.engine.ruleset import HandEnd, Ruleset, Settlement, mypyc_attr
from mahjong_audit.engine.rulesets.mcr_options import MCROptions
from mahjong_audit.engine.situation_check import FieldSpec

if TYPE_CHECKING:  # imported on first use (:func:`_calculator`)
    from mahjong_audit.engine.rulesets.mcr_scoring import Calculator

ORPHANS: Final = T.TERMINALS_AND_HONOURS
#: the six ways to lay 147 / 258 / 369 over the three suits (组合龙 / 全不靠)
KNITTED: Final = tuple(
    frozenset(9 * suit + r for suit, start in zip(perm, (0, 1, 2), strict=True) for r in (start, start + 3, start + 6))
    for perm in permutations(range(3))
)
#: each of :data:`KNITTED` as its nine tiles in order, and as 34 flags: may a 全不靠 of that
#: pattern hold this kind (one of its nine tiles, or an honour)
_KNITTED_TILES: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(p)) for p in KNITTED)
_KNITTED_ALLOWED: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(t in p or t >= 27 for t in range(34)) for p in KNITTED)


_COPIES_WITH_FLOWERS: Final = (4,) * 34 + (1,) * 8
_COPIES_NO_FLOWERS: Final = (4,) * 34 + (0,) * 8


@functools.cache
def _calculator() -> type[Calculator]:
    """The fan calculator's class (:class:`~mahjong_audit.engine.rulesets.mcr_scoring.Calculator`),
    imported on first use (it builds its tables at import); an import statement in ``score_win``
    itself would cost microseconds on every win."""
    from mahjong_audit.engine.rulesets.mcr_scoring import Calculator

    return Calculator


def complete_counts(counts: Sequence[int], n_melds: int) -> bool:
    """Do these 34 per-kind counts (14 - 3 per meld tiles) form an MCR winning shape?"""
    if is_complete(counts, 4 - n_melds):
        return True
    if n_melds == 0 and (is_seven_pairs(counts) or is_thirteen_orphans(counts)):
        return True
    return n_melds <= 1 and knitted_shape(counts, n_melds)


def knitted_shape(counts: Sequence[int], n_melds: int) -> bool:
    """全不靠 / 七星不靠 (14 distinct tiles from a knitted pattern + honours) or
    组合龙 + one set + pair."""
    c: list[int] = list(counts[:34])
    distinct = n_melds == 0 and sum(c) == 14 and max(c) <= 1  # the same for every pattern
    for p in range(len(_KNITTED_TILES)):
        if distinct:
            allowed = _KNITTED_ALLOWED[p]
            fits = True
            for t in range(34):
                if c[t] != 0 and not allowed[t]:
                    fits = False
                    break
            if fits:
                return True
        pattern = _KNITTED_TILES[p]
        held = True
        for t in pattern:
            if c[t] < 1:
                held = False
                break
        if held:
            rest = c.copy()
            for t in pattern:
                rest[t] -= 1
            if is_complete(rest, 1 - n_melds):
                return True
    return False


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's subclass may wrap its methods
class MCR(Ruleset):
    name = "mcr"
    Options = MCROptions
    hand_size = 13
    shared_by_games = True  # nothing of a game kept (the fan calculator, bound to the options, built once)
    chi_allowed = True
    kong_after_call = False
    swap_calling_allowed = True
    passed_win_rule = False
    passed_pon_rule = False
    #: the flags of the optional fans of ``extra_fans`` (read only when that fan is on)
    situation_fields = MappingProxyType({
        "heavenly": FieldSpec("bool", "天和 / 天胡: the dealer wins on its dealt tiles", dealer=True,
                              self_drawn=True, no_call=True),
        "earthly": FieldSpec("bool", "地和: the dealer's next seat (下家) wins by self-draw right after the "
                             "dealer's first discard", dealer=False, self_drawn=True, no_call=True, seat_wind=1),
        "human": FieldSpec("bool", "人和: a non-dealer wins in the first go-round", dealer=False, no_call=True),
        "wildcard_kong": FieldSpec("bool", "混杠"),
        # 明星三缺一 (seed 002)
        "first_round_win": FieldSpec("bool", "地胡: a non-dealer wins in the first go-round (第一圈), self-drawn "
                                     "or on a discard", dealer=False, no_call=True),
        "heavenly_ready": FieldSpec("bool", "天听: the seat was ready right after its first discard"),
        "earthly_ready": FieldSpec("bool", "地听: the seat was ready within the first eight tiles drawn from the "
                                   "wall, before any chi or pon"),
        "ready": FieldSpec("bool", "立直: the seat declared ready (报听); scored when the hand is concealed"),
    })

    @property
    def copies(self) -> tuple[int, ...]:
        return _COPIES_WITH_FLOWERS if self.options.flowers else _COPIES_NO_FLOWERS

    def __init__(self, options: Any = None):
        super().__init__(options)
        #: the fan calculator with this game's options bound, built on the first win (:meth:`score_win`)
        self._scorer: Calculator | None = None

    def is_complete(self, concealed: Sequence[int], melds: Sequence[Meld], wilds: frozenset[int] = frozenset()) -> bool:
        """The standing tiles as a list of per-kind counts (34, or all 42 when the seat holds a
        flower: the 8 flower counts are read as nothing, flowers are set aside and are no part of
        a hand, seed 002 花牌), or as tiles (any other sequence)."""
        if isinstance(concealed, list) and (len(concealed) == 34 or len(concealed) == 42):
            return complete_counts(concealed, len(melds))  # it reads the 34 kinds only
        return complete_counts(T.counts(concealed, 34), len(melds))

    def score_win(self, sit: WinSituation) -> Score:
        """The fan calculator with this ruleset's options bound, built on the first win (the
        options are immutable): a win costs one call, not reading six options."""
        scorer = self._scorer
        if scorer is None:
            o = self.options
            scorer = self._scorer = _calculator()(
                o.values(), o.fans_on(), o.min_fan, o.knitted_waits, o.optional_exclusions, o.extras_in_minimum)
        return scorer.score(sit)

    # --- 明星三缺一 (seed 002): the facts only the game knows ---------------------------------
    @property
    def tracks_early_ready(self) -> bool:  # type: ignore[override]
        """The replay and the simulator note when a seat is ready early (天听, 地听)."""
        return bool({"天听", "地听"} & self.options.fans_on())

    def settle(self, end: HandEnd) -> Settlement:
        d = [0, 0, 0, 0]
        base: int = self.options.base
        for w in end.wins:
            fan: int = w.score.total
            winner: int = w.seat
            payer = -1 if w.from_seat is None else w.from_seat
            for s in range(4):
                if s != winner:
                    pay = base + fan if payer < 0 or payer == s else base
                    d[s] -= pay
                    d[winner] += pay
        return Settlement((d[0], d[1], d[2], d[3]))

    def false_win_penalty(self, seat: int, dealer: int) -> tuple[int, int, int, int]:
        p = self.options.false_win_penalty
        return tuple(-3 * p if s == seat else p for s in range(4))  # type: ignore[return-value]

    def next_dealer(self, dealer: int, winners: Sequence[int], drawn: bool) -> int:
        return (dealer + 1) % 4  # MCR: the deal passes every hand


RULESET = MCR
