"""Ruleset ``mcr``: Mahjong Competition Rules (国标麻将). See docs/rules/mcr.md.

Shapes and play rules live here; the fan catalogue is ``mcr_fans`` and the fan
calculator ``mcr_scoring``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from types import MappingProxyType
from typing import Any, Final, Literal

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import is_complete, is_seven_pairs, is_thirteen_orphans
from mahjong_audit.engine.hand import Meld, Score, WinSituation
from mahjong_audit.engine.ruleset import HandEnd, OptionError, Ruleset, Settlement, mypyc_attr
from mahjong_audit.engine.situation_check import FieldSpec

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


def _optional_fans() -> tuple[str, ...]:
    """The fans ``extra_fans`` may switch on (the listing asks; the table loads on first use)."""
    from mahjong_audit.engine.rulesets import mcr_fans

    return tuple(sorted(mcr_fans.OPTIONAL))


@dataclass(frozen=True)
class MCROptions:
    min_fan: int = field(default=8, metadata={"help": "minimum fan to win, flowers excluded",
            "seed": 'spec/rules-mcr.md "minimum | 8 fan, flowers excluded"; seed 002 花牌 "不计在起胡番内，胡牌后才能计番"'})
    base: int = field(default=8, metadata={"help": "base points each paying seat adds",
            "seed": 'none in the seeds: spec/rules-mcr.md payouts "self-drawn: each of the other three pays `8 + fan`"'})
    false_win_penalty: int = field(default=10, metadata={"help": "a false winner pays this to each other seat",
            "seed": 'none in the seeds: spec/rules-mcr.md "the false winner pays 10 to each other seat"'})
    flowers: bool = field(default=True, metadata={"help": "play with the 8 flowers (144 tiles); false = 136",
            "seed": 'seed 002 花牌 "即春夏秋冬，梅兰竹菊，每花计一番"'})
    multiple_winners: bool = field(default=False, metadata={"help": "allow several winners on one discard",
            "seed": 'none in the seeds: spec/rules-mcr.md "one winner per discard: the seat nearest the discarder in turn order (截和)"'})
    winner_order: Literal["nearest", "seat_index"] = field(
        default="nearest", metadata={"help": "which of several declared wins takes the discard",
            "seed": 'none in the seeds: spec/rules-mcr.md "the seat nearest the discarder in turn order (截和)"'})
    multiple_win_payout: Literal["each", "unknown"] = field(default="each", metadata={
        "help": "several winners: each is paid as if alone, or 'unknown' (undocumented by the platform: "
                "reported as platform_quirk/multiple_win_payout, deltas not compared)",
            "seed": "none in the seeds: mahjongsoft does not publish how a double win is paid (docs/importers.md)"})
    seat_wall_size: int = field(default=0, metadata={
        "help": "Botzone: each seat draws from its own wall of this many tiles after the deal (21); "
                "0 = one shared wall",
            "seed": "none in the seeds: Botzone's per-seat walls (docs/rules/mcr.md, Per-seat walls)"})
    variant: Literal["official", "seed002", "mingxing"] = field(default="official", metadata={
        "help": "fan values: the official table, or seed 002's (门清自摸/不求人 6, 箭刻 4); 'mingxing' = seed "
                "002's values and its 明星三缺一 section (all 18 extras) switched on",
        "seed": 'seed 002 "门清自摸 6 4副牌及将中没有吃牌、碰牌(包括明杠)，自摸胡牌，不计自摸"; its 箭刻 4; '
                "002: 明星三缺一特色规则"})
    fan_values: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), metadata={
        "help": "override single fan values by Chinese name or id, e.g. {\"箭刻\": 4}",
            "seed": 'spec/rules-mcr.md "fan values live in data, so an option can change a value or switch a fan on"'})
    false_win_ends_hand: bool = field(default=False, metadata={
        "help": "a false win ends the hand: no winner, only the penalty is paid (Botzone's judge, verdict WH); "
                "false = the false winner may not win and play goes on",
            "seed": "none in the seeds: Botzone's judge (verdict WH; docs/rules/mcr.md, False wins on Botzone)"})
    penalty_verdicts: bool = field(default=False, metadata={
        "help": "a hand may end on a judge's penalty verdict (Botzone: WA, a refused answer): a recorded penalty "
                "'wrong_action' ends it, the offender paying 3 × false_win_penalty, each other seat getting one",
        "seed": "none in the seeds: Botzone's judge (verdict WA; docs/importers.md)"})
    knitted_waits: Literal["reference", "botzone"] = field(default="reference", metadata={
        "help": "组合龙 with the winning tile in the knitted straight: 'reference' judges 边张/嵌张/单钓将 "
                "on the set and pair (pymahjonggb); 'botzone' never scores them (Botzone's judge)",
            "seed": "none in the seeds: Botzone's judge (match 26609326); seed 002 组合龙 \"3种花色的147、258、369不能错位的序数牌\""})
    extra_fans: frozenset[str] = field(default_factory=frozenset, metadata={
        "help": "switch on non-GB fans: seed 004's (四方大发, 天和, 地和, 人和, …) or seed 002's 明星三缺一 "
                "extras (独听, 将, 缺五, … 天胡)", "choices": _optional_fans,
        "seed": 'seed 004 "四方大發168番〔非國標牌型〕", "天和168番", "地和158番", "人和108番", 258將 / 幺九頭 '
                '"〔非國標牌型〕1番"; 002: 明星三缺一特色规则'})
    optional_exclusions: Literal["seed", "implied"] = field(default="seed", metadata={
        "help": "what the optional fans exclude: 'seed' = only what a seed writes (天听/地听 not with 立直; one "
                "fact counted once); 'implied' = also what each one's definition implies (天和 without 自摸 and "
                "the wait fans, 全将碰 without 碰碰和, …; docs/rules/mcr.md)",
        "seed": "004: 天和 \"任何胡牌型均可\", 地和 / 人和 \"牌型不限\"; 002 writes no 不计 for its extras but "
                "\"天听不与听牌重复计台\", \"地听不与听牌重复计台\""})
    extras_in_minimum: bool = field(default=True, metadata={
        "help": "seed 002's extras count toward min_fan (天听 and 地听 never do: '不计算起胡番数'); false = "
                "none of the 18 does", "seed": "002: \"天听不计算起胡番数\", \"地听不计算起胡番数\""})

    def check(self) -> None:
        from mahjong_audit.engine.rulesets import mcr_fans
        from mahjong_audit.engine.rulesets.mcr_scoring import resolve_values

        if self.min_fan < 0 or self.base < 0 or self.false_win_penalty < 0 or self.seat_wall_size < 0:
            raise OptionError("min_fan, base, false_win_penalty and seat_wall_size must be ≥ 0")
        try:
            resolve_values(self.values())  # type: ignore[arg-type]  # it checks them
        except (ValueError, KeyError) as e:
            raise OptionError(f"fan_values: {e}") from None
        unknown = sorted(self.extra_fans - mcr_fans.OPTIONAL)
        if unknown:
            raise OptionError(f"extra_fans: {unknown} are not optional fans "
                              f"(known: {', '.join(sorted(mcr_fans.OPTIONAL))})")

    def values(self) -> Mapping[str, object] | None:
        """The value overrides handed to the fan calculator."""
        if self.variant == "official" and not self.fan_values:
            return None
        out: dict[str, object] = {self.variant: True} if self.variant != "official" else {}
        out.update(self.fan_values)
        return out

    def fans_on(self) -> frozenset[str]:
        """The optional fans switched on: ``extra_fans``, and seed 002's 明星三缺一 section with
        the variant ``mingxing``."""
        return _fans_on(self.extra_fans, self.variant)


@functools.lru_cache(maxsize=64)
def _fans_on(extra_fans: frozenset[str], variant: str) -> frozenset[str]:
    from mahjong_audit.engine.rulesets import mcr_fans

    return extra_fans | mcr_fans.MINGXING if variant == "mingxing" else extra_fans


_COPIES_WITH_FLOWERS: Final = (4,) * 34 + (1,) * 8
_COPIES_NO_FLOWERS: Final = (4,) * 34 + (0,) * 8


@functools.cache
def _calculator() -> Callable[..., Score]:
    """The fan calculator, imported on first use (it builds its tables at import); an import
    statement in ``score_win`` itself would cost microseconds on every win."""
    from mahjong_audit.engine.rulesets.mcr_scoring import score_mcr

    return score_mcr


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
        self._scorer: Callable[[WinSituation], Score] | None = None

    def is_complete(self, concealed: Sequence[int], melds: Sequence[Meld], wilds: frozenset[int] = frozenset()) -> bool:
        counts = T.counts(concealed, 34) if not isinstance(concealed, list) else concealed
        if len(counts) != 34:
            counts = T.counts(concealed, 34)
        return complete_counts(counts, len(melds))

    def score_win(self, sit: WinSituation) -> Score:
        """The fan calculator with this ruleset's options bound, built on the first win (the
        options are immutable): a win costs one call, not reading six options."""
        scorer = self._scorer
        if scorer is None:
            o = self.options
            scorer = self._scorer = functools.partial(
                _calculator(), values=o.values(), extra_fans=o.fans_on(), min_fan=o.min_fan,
                knitted_waits=o.knitted_waits, optional_exclusions=o.optional_exclusions,
                extras_in_minimum=o.extras_in_minimum)
        return scorer(sit)

    # --- 明星三缺一 (seed 002): the facts only the game knows ---------------------------------
    @property
    def tracks_early_ready(self) -> bool:  # type: ignore[override]
        """The replay and the simulator note when a seat is ready early (天听, 地听)."""
        return bool({"天听", "地听"} & self.options.fans_on())


    def settle(self, end: HandEnd) -> Settlement:
        deltas = [0, 0, 0, 0]
        base = self.options.base
        for w in end.wins:
            fan = w.score.total
            for s in range(4):
                if s == w.seat:
                    continue
                pay = base + fan if (w.from_seat is None or w.from_seat == s) else base
                deltas[s] -= pay
                deltas[w.seat] += pay
        return Settlement(tuple(deltas))  # type: ignore[arg-type]

    def false_win_penalty(self, seat: int, dealer: int) -> tuple[int, int, int, int]:
        p = self.options.false_win_penalty
        return tuple(-3 * p if s == seat else p for s in range(4))  # type: ignore[return-value]

    def next_dealer(self, dealer: int, winners: Sequence[int], drawn: bool) -> int:
        return (dealer + 1) % 4  # MCR: the deal passes every hand


RULESET = MCR
