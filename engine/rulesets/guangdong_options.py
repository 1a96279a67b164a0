"""广东's options: the :class:`GuangdongOptions` dataclass, ``Guangdong.Options``.

A module of its own that stays Python under the compiled engine (mahjong_audit/accel.py): a frozen
dataclass compiled with mypyc loses its ``Literal`` hints, which option parsing
(``Ruleset.parse_options``), the rules pages' option tables and the re-checks
(engine/house_rules.py) read. The ruleset (``rulesets/guangdong.py``) is compiled and refers to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from mahjong_audit.engine.ruleset import OptionError
from mahjong_audit.engine.rulesets import guangdong_fans as F


def _names(rows: Sequence[F.FanRow]) -> frozenset[str]:
    return frozenset(r.zh for r in rows)


@dataclass(frozen=True)
class GuangdongOptions:
    base: int = field(default=1, metadata={"help": "points of a 0-fan hand: a win pays base × 2^fan",
            "seed": "seed 004 胡牌與算分規則 1 \"番是2倍的意思\"; the base is the spec's (\"Points for `f` fan: `base × 2^f`\")"})
    cap: int | None = field(default=F.CAP, metadata={
        "help": "爆胡: the most a regular hand with its additions scores (null: no cap)",
            "seed": 'seed 004 胡牌與算分規則 2–3 "爆胡〔封頂〕，意思即為多少番為頂…設定爆胡為5番"'})
    additions: frozenset[str] = field(default_factory=lambda: frozenset(F.DEFAULT_ADDITIONS), metadata={
        "help": "additions that count on a regular hand (default 自摸, 门风刻, 圈风刻, 箭刻; add 报听 for the "
                "seed's +1 after a ready declaration)", "choices": tuple(sorted(F.ADDITION_NAMES)),
            "seed": 'seed 004 附加情況 1–4 "自摸在爆胡以內自摸+1番…風位…風圈…三元牌…任意一個刻子為1番"; 其他規則 5 "聽牌：在原有胡番的根底上加一番"'})
    cap_breakers: frozenset[str] = field(default_factory=lambda: _names(F.SPECIAL), metadata={
        "help": "special hands scored beyond the cap; one left out scores as a regular hand (additions, cap)",
        "choices": tuple(sorted(F.SPECIAL_NAMES)),
            "seed": 'seed 004 胡牌與算分規則 2 "特殊牌除外，比方十三幺，可突破爆胡限制，這些特殊牌型不再疊加其他番種"'})
    fan_values: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), metadata={
        "help": "override fan values by Chinese name (the other reading of the seed: {\"小三元\": 7, \"清碰\": 6})",
            "seed": 'seed 004 爆胡以外的牌型 "小三元6清一色+碰碰胡…清碰7拿齊中、發、白三種三元牌，但其中一種是將" (names and descriptions swapped: docs/rules/guangdong.md, decision 1)'})
    minimum_fan: int = field(default=F.MINIMUM_FAN, metadata={
        "help": "the least a win in one of minimum_situations is worth",
            "seed": 'seed 004 其他規則 1–3 "胡牌者不滿5番牌型，按照5番滿計算"'})
    minimum_situations: frozenset[Literal["kong_replacement", "last_tile", "multiple_win", "robbing_kong"]] = field(
        default=F.DEFAULT_MINIMUM_SITUATIONS, metadata={  # type: ignore[arg-type]
            "help": "situations worth at least minimum_fan: kong_replacement (杠上开花), last_tile (海底捞月), "
                    "multiple_win (一炮多响), robbing_kong (抢杠)",
            "seed": 'seed 004 其他規則 1 一炮三響, 2 杠上開花, 3 海底撈月 "摸最后一張牌胡牌。不滿5番牌型，按照5番滿計算"; 6 搶杠 (cut off: "搶杠：明")'})
    multiple_win_from: int = field(default=2, metadata={
        "help": "how many winners on one discard make it a multiple win for the minimum (the seed says 三响: 3)",
            "seed": 'seed 004 其他規則 1 "一炮三響：同一張牌點三個炮，點炮者包三家"'})
    min_fan: int = field(default=0, metadata={"help": "起胡: least fan to win at all (the seed has none: 鸡胡 wins)",
            "seed": 'seed 004 爆胡以內 "雞胡1什么牌都可以胡，可吃碰杠"'})
    seven_pairs_four: bool = field(default=True, metadata={
        "help": "七对 may hold four of a kind as two pairs",
            "seed": 'seed 004 "七對胡5由七個對子組成" (four alike as two pairs: the seed does not say)'})
    bao_sets: int = field(default=3, metadata={
        "help": "包胡: a seat that supplied this many of the winner's claimed sets pays for all (0: off)",
            "seed": 'seed 004 其他規則 4 "如果胡家有人給他九張落地，那么給胡家九張落地者包胡"'})
    false_win_fan: int = field(default=5, metadata={
        "help": "a false winner pays every other seat the points of a hand of this many fan",
            "seed": 'none in the seeds: spec/rules-guangdong.md "False win: pays every other seat the points of a 5-fan hand (option)"'})
    multiple_winners: bool = field(default=True, metadata={"help": "several seats may win on one discard",
            "seed": 'seed 004 其他規則 1 "一炮三響：同一張牌點三個炮，點炮者包三家"'})
    chi: bool = field(default=True, metadata={
        "help": "chi is allowed (the seed: 可吃, from the left player only); false for tables that play without "
                "chi (推倒胡 style), where any chi is illegal_call/not_allowed",
            "seed": 'seed 004 根本規則 2 "可吃，只有下家有權利吃牌，“碰”比“吃”優先"'})
    winner_order: Literal["nearest", "seat_index"] = field(
        default="nearest", metadata={"help": "with multiple_winners off: which declared win takes the discard",
            "seed": "none in the seeds: which win takes a discard when only one may (the engine's general rule: nearest in turn order)"})
    nine_gates: Literal["shape", "pure_wait"] = field(default="shape", metadata={
        "help": "九莲宝灯: any 14 concealed tiles 1112345678999 + one of the suit ('shape'), or only a win "
                "on the nine-sided wait, the 13 tiles before it being 1112345678999 ('pure_wait')",
            "seed": 'seed 004 "九蓮寶燈8" (name and value only: docs/rules/guangdong.md, decision 9)'})

    def check(self) -> None:
        for name in ("base", "minimum_fan", "min_fan", "bao_sets", "false_win_fan"):
            if getattr(self, name) < 0:
                raise OptionError(f"{name} must be ≥ 0")
        if self.cap is not None and self.cap < 1:
            raise OptionError("cap must be ≥ 1 (or null for no cap)")
        if self.multiple_win_from < 2:
            raise OptionError("multiple_win_from must be ≥ 2")
        for opt, known in (("additions", F.ADDITION_NAMES), ("cap_breakers", F.SPECIAL_NAMES),
                           ("fan_values", F.NAMES)):
            unknown = sorted(set(getattr(self, opt)) - known)
            if unknown:
                raise OptionError(f"{opt}: unknown fan name(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
