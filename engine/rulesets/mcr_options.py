"""MCR's options (国标麻将): the :class:`MCROptions` dataclass, ``MCR.Options``.

A module of its own that stays Python under the compiled engine (mahjong_audit/accel.py): a frozen
dataclass compiled with mypyc loses its ``Literal`` hints, which option parsing
(``Ruleset.parse_options``), the rules pages' option tables and the re-checks
(engine/house_rules.py) read. The ruleset (``rulesets/mcr.py``) is compiled and refers to it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from mahjong_audit.engine.ruleset import OptionError


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
