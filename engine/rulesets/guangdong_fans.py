"""广东 / 贵港麻将 fan values — pure data (see docs/rules/guangdong.md).

Four tables, nothing mutates them:

* ``REGULAR``: the hands inside the cap (爆胡以内). A regular win scores the highest
  one that applies, then the additions; the sum is capped.
* ``ADDITIONS``: fan added to a regular hand (附加情况): value per occurrence.
* ``SPECIAL``: the hands outside the cap (爆胡以外 / 特殊牌型). The highest that applies
  is the hand's whole score; no additions.
* ``MINIMUM_SITUATIONS``: situations in which a win is worth at least ``MINIMUM_FAN``.

Rows are ordered by value, then by the seed's order; on a tie the earlier row is the
one reported (deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class FanRow:
    id: str  # English id (stable, for code and tests)
    zh: str  # Chinese name: what score items are called
    value: int


R = FanRow

#: 爆胡以内: the highest applicable row scores.
REGULAR: tuple[FanRow, ...] = (
    R("chicken_hand", "鸡胡", 1),  # any complete hand, calls allowed
    R("all_chows", "平胡", 2),  # four sequences, no triplet
    R("half_flush", "混一色", 3),  # one suit plus honours
    R("all_pungs", "对对胡", 4),  # four triplets / kongs, no sequence
)

#: 附加情况: added to a regular hand only, then capped.
ADDITIONS: tuple[FanRow, ...] = (
    R("self_drawn", "自摸", 1),
    R("seat_wind", "门风刻", 1),  # triplet / kong of the seat's own wind (风位)
    R("round_wind", "圈风刻", 1),  # triplet / kong of the round wind (风圈)
    R("dragon_pung", "箭刻", 1),  # per triplet / kong of 中发白 (三元牌)
    R("ready", "报听", 1),  # 其他规则 §5: a win after declaring a ready hand; off by default
)

#: additions that count unless the ``additions`` option says otherwise (报听 is the seed's, not the spec's)
DEFAULT_ADDITIONS = ("自摸", "门风刻", "圈风刻", "箭刻")

#: 爆胡以外: the highest applicable row is the whole score.
SPECIAL: tuple[FanRow, ...] = (
    R("full_flush", "清一色", 5),
    R("half_flush_pungs", "混碰", 5),  # 混一色 + 对对胡
    R("seven_pairs", "七对", 5),
    R("little_three_dragons", "小三元", 6),
    R("mixed_terminals", "混幺九", 6),
    R("full_flush_pungs", "清碰", 7),  # 清一色 + 对对胡
    R("little_four_winds", "小四喜", 7),
    R("all_honours", "字一色", 8),
    R("all_terminals", "清幺九", 8),
    R("big_three_dragons", "大三元", 8),
    R("big_four_winds", "大四喜", 8),
    R("nine_gates", "九莲宝灯", 8),
    R("thirteen_orphans", "十三幺", 8),
)

#: The cap on a regular hand with its additions (爆胡).
CAP = 5

#: A win in one of these situations is worth at least MINIMUM_FAN (不满5番按5番计).
MINIMUM_FAN = 5
MINIMUM_SITUATIONS: tuple[tuple[str, str], ...] = (
    ("kong_replacement", "杠上开花"),  # self-drawn on the replacement tile of a kong
    ("last_tile", "海底捞月"),  # self-drawn on the last tile of the wall
    ("multiple_win", "一炮多响"),  # one discard, several winners
    ("robbing_kong", "抢杠"),  # off by default: the seed's paragraph on 抢杠 is cut off
)
DEFAULT_MINIMUM_SITUATIONS = frozenset({"kong_replacement", "last_tile", "multiple_win"})

#: The other reading of the seed's misaligned table (see docs/rules/guangdong.md):
#: usable as the ``fan_values`` option.
ALTERNATIVE_READING = MappingProxyType({"小三元": 7, "清碰": 6})

REGULAR_BY_ID = MappingProxyType({r.id: r for r in REGULAR})
ADDITIONS_BY_ID = MappingProxyType({r.id: r for r in ADDITIONS})
SPECIAL_BY_ID = MappingProxyType({r.id: r for r in SPECIAL})
ALL_ROWS: tuple[FanRow, ...] = REGULAR + ADDITIONS + SPECIAL
NAMES = frozenset(r.zh for r in ALL_ROWS)
SPECIAL_NAMES = frozenset(r.zh for r in SPECIAL)
ADDITION_NAMES = frozenset(r.zh for r in ADDITIONS)
MINIMUM_NAMES = MappingProxyType(dict(MINIMUM_SITUATIONS))
