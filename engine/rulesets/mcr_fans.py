"""MCR (国标麻将) fan catalogue and 不计 (exclusion) table — pure data.

* ``FANS``: one ordered table of frozen rows.  Order = catalogue order: score items are
  reported in this order and exclusions are applied in this order (a fan that is itself
  excluded no longer excludes anything).  The 81 official fans (花牌 included) plus 明暗杠 are
  enabled by default; rows with ``official=False`` are optional (seed 004's non-GB fans)
  and only scored when named in ``extra_fans``.
* ``EXCLUSIONS``: one row per 不计 clause, ``(fan, excluded fan, scope)``.  ``scope`` is
  ``"hand"`` (every occurrence of the excluded fan goes) or ``"sets"`` (only occurrences
  built from the same sets as the excluding fan, e.g. 圈风刻 hides the 幺九刻 of its own
  wind pung, not of another pung).
* ``VARIANTS``: named value overrides (seed 002); ``MINGXING``: the fans the variant
  ``mingxing`` switches on (seed 002's "明星三缺一特色规则", each row quoting its sentence).
* ``IMPLIED_EXCLUSIONS``: the 不计 rows of the optional fans that no seed writes, applied only
  with the option ``optional_exclusions: "implied"`` (docs/rules/mcr.md).

Names are the Chinese names spelt as by the reference calculator (pymahjonggb), except
that its ``独听・边张/独听・嵌张/独听・单钓`` are 边张/嵌张/单钓将 here.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Fan:
    id: str
    zh: str
    en: str
    value: int
    official: bool = True  # False: optional (non-GB) fan, off unless enabled
    seed: str = ""  # optional fans: the seed that defines it ("002" 明星三缺一, "004")
    quote: str = ""  # optional fans of seed 002: its sentence, as the seed writes it
    in_minimum: bool = True  # counts toward min_fan (天听 / 地听: "不计算起胡番数")


@dataclass(frozen=True, slots=True)
class Exclusion:
    fan: str  # Chinese name of the excluding fan
    excludes: str  # Chinese name of the fan not counted
    scope: str = "hand"  # "hand" or "sets"


F = Fan


def M(id: str, zh: str, en: str, value: int, quote: str, in_minimum: bool = True) -> Fan:
    """An extra of seed 002's "明星三缺一特色规则" (optional; the variant ``mingxing`` turns all on)."""
    return Fan(id, zh, en, value, False, "002", quote, in_minimum)


FANS: tuple[Fan, ...] = (
    # optional, above 88
    F("four_winds_green_pair", "四方大发", "Four Winds with Green Pair", 168, False, "004"),
    F("heavenly_hand", "天和", "Heavenly Hand", 168, False, "004"),
    F("earthly_hand", "地和", "Earthly Hand", 158, False, "004"),
    F("human_hand", "人和", "Human Hand", 108, False, "004"),
    # 88
    F("big_four_winds", "大四喜", "Big Four Winds", 88),
    F("big_three_dragons", "大三元", "Big Three Dragons", 88),
    F("all_green", "绿一色", "All Green", 88),
    F("nine_gates", "九莲宝灯", "Nine Gates", 88),
    F("four_kongs", "四杠", "Four Kongs", 88),
    F("seven_shifted_pairs", "连七对", "Seven Shifted Pairs", 88),
    F("thirteen_orphans", "十三幺", "Thirteen Orphans", 88),
    F("wildcard_kong", "混杠", "Kong of Wildcards", 88, False, "004"),
    # 64
    F("all_terminals", "清幺九", "All Terminals", 64),
    F("little_four_winds", "小四喜", "Little Four Winds", 64),
    F("little_three_dragons", "小三元", "Little Three Dragons", 64),
    F("all_honors", "字一色", "All Honors", 64),
    F("four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 64),
    F("pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 64),
    M("heavenly_win", "天胡", "Heavenly Win (明星三缺一)", 64,
      "只属于庄家的特权， 配牌后在庄家尚未打出第一张牌时 ，庄家如果发现手内已完成胡牌型态，称为「天胡」"),
    M("eight_immortals", "八仙过海", "Eight Immortals Cross the Sea", 64,
      "当某家拿到全部八张花牌，可立即喊胡，称为「八仙过海」，三家通赔64番"),
    # 48
    F("quadruple_chow", "一色四同顺", "Quadruple Chow", 48),
    F("four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 48),
    M("first_round_win", "地胡", "Earthly Win (明星三缺一)", 48, "任何在第一圈由非庄家所胡的牌"),
    # 32
    F("four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 32),
    F("three_kongs", "三杠", "Three Kongs", 32),
    F("all_terminals_and_honors", "混幺九", "All Terminals and Honors", 32),
    M("heavenly_ready", "天听", "Heavenly Ready", 32,
      "家取完牌后，打出第一张牌后，已经听牌，称为「天听」。 天听不与听牌重复计台。（天听不计算起胡番数）", False),
    M("four_plants", "梅兰竹菊", "Four Plants", 32, "花牌凑满梅兰竹菊"),
    M("four_seasons", "春夏秋冬", "Four Seasons", 32, "花牌凑满春夏秋冬"),
    # 24
    F("seven_pairs", "七对", "Seven Pairs", 24),
    F("greater_honors_and_knitted", "七星不靠", "Greater Honors and Knitted Tiles", 24),
    F("all_even_pungs", "全双刻", "All Even Pungs", 24),
    F("full_flush", "清一色", "Full Flush", 24),
    F("pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24),
    F("pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24),
    F("upper_tiles", "全大", "Upper Tiles", 24),
    F("middle_tiles", "全中", "Middle Tiles", 24),
    F("lower_tiles", "全小", "Lower Tiles", 24),
    M("all_258_pungs", "全将碰", "All 2-5-8 Pungs", 24, "整副牌由二、五、八的刻子组成的"),
    M("concealed_pure_straight", "一条龙", "Unclaimed Pure Straight", 24, "拿齐一至九同一花色的牌，此一至九的牌不得为吃牌所得"),
    # 16
    F("pure_straight", "清龙", "Pure Straight", 16),
    F("three_suited_terminal_chows", "三色双龙会", "Three-Suited Terminal Chows", 16),
    F("pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16),
    F("all_five", "全带五", "All Fives", 16),
    F("triple_pung", "三同刻", "Triple Pung", 16),
    F("three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16),
    M("earthly_ready", "地听", "Earthly Ready", 16,
      "起牌后海底八张牌，且四家不碰牌吃牌以内情况下听牌，称为地听。 地听不与听牌重复计台（地听不计算起胡番数）", False),
    # 12
    F("lesser_honors_and_knitted", "全不靠", "Lesser Honors and Knitted Tiles", 12),
    F("knitted_straight", "组合龙", "Knitted Straight", 12),
    F("upper_four", "大于五", "Upper Four", 12),
    F("lower_four", "小于五", "Lower Four", 12),
    F("big_three_winds", "三风刻", "Big Three Winds", 12),
    M("two_pure_double_chows", "双龙抱", "Two Pure Double Chows", 12, "拿到两副般高，将牌为任意一对。不可吃"),
    M("half_melded", "半求", "Half Melded Hand", 12, "全部的牌都是由吃或碰取得，但最后独听将必须自摸胡"),
    M("all_one_number", "全带", "All Sets Share a Number", 12, "整副牌的顺子、刻子及将都带有同一数字"),
    # 8
    F("mixed_straight", "花龙", "Mixed Straight", 8),
    F("reversible_tiles", "推不倒", "Reversible Tiles", 8),
    F("mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8),
    F("mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8),
    F("chicken_hand", "无番和", "Chicken Hand", 8),
    F("last_tile_draw", "妙手回春", "Last Tile Draw", 8),
    F("last_tile_claim", "海底捞月", "Last Tile Claim", 8),
    F("out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8),
    F("robbing_the_kong", "抢杠和", "Robbing the Kong", 8),
    # 6
    F("all_pungs", "碰碰和", "All Pungs", 6),
    F("half_flush", "混一色", "Half Flush", 6),
    F("mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6),
    F("all_types", "五门齐", "All Types", 6),
    F("melded_hand", "全求人", "Melded Hand", 6),
    F("two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 6),
    F("two_dragons_pungs", "双箭刻", "Two Dragon Pungs", 6),
    F("mixed_four_shifted_pungs", "混四节", "Mixed Four Shifted Pungs", 6, False, "004"),
    # 5
    F("concealed_and_melded_kong", "明暗杠", "Concealed Kong and Melded Kong", 5),
    # 4
    F("outside_hand", "全带幺", "Outside Hand", 4),
    F("fully_concealed_hand", "不求人", "Fully Concealed Hand", 4),
    F("two_melded_kongs", "双明杠", "Two Melded Kongs", 4),
    F("last_copy", "和绝张", "Last Tile", 4),
    F("mixed_four_shifted_chows", "混四步", "Mixed Four Shifted Chows", 4, False, "004"),
    F("mixed_three_shifted_pungs", "混三节", "Two-Suited Shifted Pungs", 4, False, "004"),
    M("four_in_two_chows", "四归二", "Tile Hog in Two Chows and the Pair", 4, "同花色的四张同数牌番成两个顺子及一个将"),
    # 2
    F("dragon_pung", "箭刻", "Dragon Pung", 2),
    F("prevalent_wind", "圈风刻", "Prevalent Wind", 2),
    F("seat_wind", "门风刻", "Seat Wind", 2),
    F("concealed_hand", "门前清", "Concealed Hand", 2),
    F("all_chows", "平和", "All Chows", 2),
    F("tile_hog", "四归一", "Tile Hog", 2),
    F("double_pung", "双同刻", "Double Pung", 2),
    F("two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2),
    F("concealed_kong", "暗杠", "Concealed Kong", 2),
    F("all_simples", "断幺", "All Simples", 2),
    F("mixed_three_shifted_chows", "混三步", "Two-Suited Shifted Chows", 2, False, "004"),
    # 1
    F("pure_double_chow", "一般高", "Pure Double Chow", 1),
    F("mixed_double_chow", "喜相逢", "Mixed Double Chow", 1),
    F("short_straight", "连六", "Short Straight", 1),
    F("two_terminal_chows", "老少副", "Two Terminal Chows", 1),
    F("pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1),
    F("melded_kong", "明杠", "Melded Kong", 1),
    F("one_voided_suit", "缺一门", "One Voided Suit", 1),
    F("no_honors", "无字", "No Honors", 1),
    M("closed_five", "卡五", "Closed Wait on Five", 1, "手中有一张四和一张六，听五 (不可吃牌)"),
    F("edge_wait", "边张", "Edge Wait", 1),
    F("closed_wait", "嵌张", "Closed Wait", 1),
    F("single_wait", "单钓将", "Single Wait", 1),
    M("lone_wait", "独听", "One Waiting Tile", 1, "听牌时只听一张牌"),
    F("self_drawn", "自摸", "Self-Drawn", 1),
    F("pair_258", "258将", "2-5-8 Pair", 1, False, "004"),
    F("pair_19", "幺九头", "Terminal Pair", 1, False, "004"),
    M("pair_of_258", "将", "2-5-8 Pair (明星三缺一)", 1, "将为一对二、五或八"),
    M("no_fives", "缺五", "No Fives", 1, "整副牌中没有「五」这个数字"),
    M("declared_ready", "立直", "Ready while Concealed", 1, "门清时听牌"),
    F("flower_tiles", "花牌", "Flower Tiles", 1),
)
del F, M

FAN_BY_ZH = MappingProxyType({f.zh: f for f in FANS})
FAN_BY_ID = MappingProxyType({f.id: f for f in FANS})
ORDER = MappingProxyType({f.zh: i for i, f in enumerate(FANS)})
DEFAULT_VALUES = MappingProxyType({f.zh: f.value for f in FANS})
OFFICIAL = frozenset(f.zh for f in FANS if f.official)
OPTIONAL = frozenset(f.zh for f in FANS if not f.official)
#: seed 002's "明星三缺一特色规则": the fans the variant ``mingxing`` switches on
MINGXING = frozenset(f.zh for f in FANS if f.seed == "002")
#: fans that never count toward the minimum (花牌 aside): "不计算起胡番数"
NOT_IN_MINIMUM = frozenset(f.zh for f in FANS if not f.in_minimum)

# Other spellings accepted in ``values`` / ``extra_fans`` (seed and oracle spellings).
ALIASES = MappingProxyType({
    "门清自摸": "不求人",
    "独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将", "单钓": "单钓将",
    "坎张": "嵌张", "断幺九": "断幺", "青龙": "清龙", "平胡": "平和", "无番胡": "无番和",
    "碰碰胡": "碰碰和", "对对胡": "碰碰和", "老少配": "老少副", "缺门": "缺一门", "胡绝张": "和绝张",
    "抢杠胡": "抢杠和", "浑带幺": "全带幺", "般高": "一般高", "七连对": "连七对", "七对子": "七对",
})

# Seed 002 values that differ from the official table.
VARIANTS = MappingProxyType({
    "seed002": MappingProxyType({"不求人": 6, "箭刻": 4}),
    "mingxing": MappingProxyType({"不求人": 6, "箭刻": 4}),  # seed 002's values; MINGXING switched on too
})

E = Exclusion
_H, _S = "hand", "sets"
EXCLUSIONS: tuple[Exclusion, ...] = (
    # optional fans
    E("四方大发", "大四喜"), E("四方大发", "三风刻"), E("四方大发", "碰碰和"),
    E("四方大发", "圈风刻"), E("四方大发", "门风刻"), E("四方大发", "幺九刻"),
    E("混四节", "混三节"), E("混四步", "混三步"),
    # one fact, two fans: the higher counts (seed 004's over seed 002's; 258将 over 将)
    E("天和", "天胡"), E("地和", "地胡"), E("人和", "地胡"), E("258将", "将"),
    # seed 002's own words: "天听不与听牌重复计台", "地听不与听牌重复计台" (听牌 = 立直, and 天听 over 地听)
    E("天听", "地听"), E("天听", "立直"), E("地听", "立直"),
    # 一条龙 is 清龙 won without a chi (seed 002 lists both): it counts in 清龙's place, with its rows
    E("一条龙", "清龙"), E("一条龙", "连六"), E("一条龙", "老少副"),
    # seed 002's 十三幺: "不计五门齐、门清自摸、单钓将、浑带幺、门前清、缺五"
    E("十三幺", "缺五"),
    # 88
    E("大四喜", "小四喜"), E("大四喜", "三风刻"), E("大四喜", "碰碰和"), E("大四喜", "圈风刻"),
    E("大四喜", "门风刻"), E("大四喜", "幺九刻"),
    E("大三元", "小三元"), E("大三元", "双箭刻"), E("大三元", "箭刻"), E("大三元", "幺九刻", _S),
    E("绿一色", "混一色"), E("绿一色", "缺一门"),
    E("九莲宝灯", "清一色"), E("九莲宝灯", "门前清"), E("九莲宝灯", "不求人"),
    E("九莲宝灯", "无字"), E("九莲宝灯", "缺一门"),
    E("四杠", "三杠"), E("四杠", "双明杠"), E("四杠", "双暗杠"), E("四杠", "明暗杠"),
    E("四杠", "明杠"), E("四杠", "暗杠"), E("四杠", "碰碰和"), E("四杠", "单钓将"),
    E("连七对", "七对"), E("连七对", "清一色"), E("连七对", "无字"), E("连七对", "缺一门"),
    E("连七对", "门前清"), E("连七对", "不求人"), E("连七对", "单钓将"),
    E("十三幺", "混幺九"), E("十三幺", "五门齐"), E("十三幺", "门前清"), E("十三幺", "不求人"),
    E("十三幺", "单钓将"),
    # 64
    E("清幺九", "混幺九"), E("清幺九", "碰碰和"), E("清幺九", "全带幺"), E("清幺九", "幺九刻"),
    E("清幺九", "无字"), E("清幺九", "双同刻"),
    E("小四喜", "三风刻"), E("小四喜", "幺九刻"),
    E("小三元", "双箭刻"), E("小三元", "箭刻"), E("小三元", "幺九刻", _S),
    E("字一色", "混幺九"), E("字一色", "碰碰和"), E("字一色", "全带幺"), E("字一色", "幺九刻"),
    E("字一色", "缺一门"),
    E("四暗刻", "三暗刻"), E("四暗刻", "双暗刻"), E("四暗刻", "碰碰和"), E("四暗刻", "门前清"),
    E("四暗刻", "不求人"),
    E("一色双龙会", "七对"), E("一色双龙会", "清一色"), E("一色双龙会", "平和"),
    E("一色双龙会", "一般高"), E("一色双龙会", "老少副"), E("一色双龙会", "无字"),
    E("一色双龙会", "缺一门"),
    # 48
    E("一色四同顺", "一色三同顺"), E("一色四同顺", "一般高"), E("一色四同顺", "四归一"),
    E("一色四节高", "一色三节高"), E("一色四节高", "碰碰和"),
    # 32
    E("一色四步高", "一色三步高"), E("一色四步高", "连六"), E("一色四步高", "老少副"),
    E("三杠", "双明杠"), E("三杠", "双暗杠"), E("三杠", "明暗杠"), E("三杠", "明杠"), E("三杠", "暗杠"),
    E("混幺九", "碰碰和"), E("混幺九", "全带幺"), E("混幺九", "幺九刻"),
    # 24
    E("七对", "门前清"), E("七对", "不求人"), E("七对", "单钓将"),
    E("七星不靠", "全不靠"), E("七星不靠", "五门齐"), E("七星不靠", "门前清"),
    E("七星不靠", "不求人"), E("七星不靠", "单钓将"),
    E("全双刻", "碰碰和"), E("全双刻", "断幺"), E("全双刻", "无字"),
    E("清一色", "无字"), E("清一色", "缺一门"),
    E("一色三同顺", "一般高"),
    E("全大", "大于五"), E("全大", "无字"),
    E("全中", "断幺"), E("全中", "无字"),
    E("全小", "小于五"), E("全小", "无字"),
    # 16
    E("清龙", "连六"), E("清龙", "老少副"),
    E("三色双龙会", "喜相逢"), E("三色双龙会", "老少副"), E("三色双龙会", "平和"),
    E("三色双龙会", "无字"),
    E("全带五", "断幺"), E("全带五", "无字"), E("全带五", "全带"),  # 全带 on 5 is 全带五
    E("三同刻", "双同刻"),
    E("三暗刻", "双暗刻"),
    # 12
    E("全不靠", "五门齐"), E("全不靠", "门前清"), E("全不靠", "不求人"), E("全不靠", "单钓将"),
    E("大于五", "无字"), E("小于五", "无字"),
    E("三风刻", "幺九刻", _S),
    # 8
    E("推不倒", "缺一门"),
    E("三色三同顺", "喜相逢"),
    E("妙手回春", "自摸"), E("杠上开花", "自摸"), E("抢杠和", "和绝张"),
    # 6
    E("混一色", "缺一门"),
    E("全求人", "单钓将"),
    E("双暗杠", "暗杠"), E("双暗杠", "双暗刻"),
    E("双箭刻", "箭刻"), E("双箭刻", "幺九刻", _S),
    # 5
    E("明暗杠", "明杠"), E("明暗杠", "暗杠"),
    # 4
    E("不求人", "门前清"), E("不求人", "自摸"),
    E("双明杠", "明杠"),
    # 2
    E("箭刻", "幺九刻", _S), E("圈风刻", "幺九刻", _S), E("门风刻", "幺九刻", _S),
    E("平和", "无字"), E("断幺", "无字"),
    # 1
    E("边张", "嵌张"), E("边张", "单钓将"), E("嵌张", "单钓将"),
)

#: 不计 rows of the optional fans that no seed writes (seed 004: "任何胡牌型均可", "牌型不限"; seed 002's
#: extras list none but 天听/地听's): what each fan's definition implies. Applied only with the option
#: ``optional_exclusions: "implied"``; by default an optional fan excludes only what its seed writes.
IMPLIED_EXCLUSIONS: tuple[Exclusion, ...] = (
    # no tile of a 天和 was waited on or drawn after the deal; 地和 is self-drawn and concealed
    E("天和", "不求人"), E("天和", "自摸"), E("天和", "边张"), E("天和", "嵌张"), E("天和", "单钓将"),
    E("天和", "卡五"), E("天和", "独听"),
    E("地和", "不求人"), E("地和", "自摸"),
    E("人和", "门前清"),
    E("天胡", "不求人"), E("天胡", "自摸"), E("天胡", "边张"), E("天胡", "嵌张"), E("天胡", "单钓将"),
    E("天胡", "卡五"), E("天胡", "独听"),
    E("地胡", "不求人"), E("地胡", "门前清"), E("地胡", "自摸"),
    E("全将碰", "碰碰和"), E("全将碰", "断幺"), E("全将碰", "无字"), E("全将碰", "将"),
    E("双龙抱", "一般高"),
    E("半求", "单钓将"), E("半求", "自摸"), E("半求", "独听"),
    E("全带", "全带幺"), E("全带", "无字"),
    E("四归二", "四归一"),
    E("卡五", "嵌张"),
    E("边张", "独听"), E("嵌张", "独听"), E("单钓将", "独听"),
)
del E

#: optional fans read from a flag of the situation (the replay's facts; ``score``'s ruleset_fields):
#: (fan, key of ``WinSituation.extra``)
FLAG_FANS: tuple[tuple[str, str], ...] = (
    ("天和", "heavenly"), ("地和", "earthly"), ("人和", "human"), ("混杠", "wildcard_kong"),
    ("天胡", "heavenly"), ("地胡", "first_round_win"), ("天听", "heavenly_ready"), ("地听", "earthly_ready"),
    ("立直", "ready"),
)


def variants_table() -> str:
    """The table of docs/rules/mcr.md: every variant, then every extra of 明星三缺一 with its value,
    the seed's sentence, where the engine reads it, and its 不计 rows (tests compare the two)."""
    flags = dict(FLAG_FANS)
    lines = [
        "| variant / fan | value | seed 002's sentence | read from | excludes | excludes, `implied` only |",
        "|---|---|---|---|---|---|",
        "| `variant: \"official\"` | | the official table (pymahjonggb) | | | |",
    ]
    for name, vals in VARIANTS.items():
        changed = ", ".join(f"{k} {v}" for k, v in vals.items())
        more = "; the 18 fans below switched on" if name == "mingxing" else ""
        lines.append(f"| `variant: \"{name}\"` | | {changed}{more} | | | |")
    for f in FANS:
        if f.seed != "002":
            continue
        where = f"flag `{flags[f.zh]}`" if f.zh in flags else "the hand"
        if f.zh == "立直":
            where += " + the hand"
        own, implied = (_rows_text(f.zh, rows) for rows in (EXCLUSIONS, IMPLIED_EXCLUSIONS))
        minimum = " (not toward the minimum)" if not f.in_minimum else ""
        lines.append(f"| {f.zh} | {f.value}{minimum} | {f.quote} | {where} | {own} | {implied} |")
    return "\n".join(lines) + "\n"


def _rows_text(fan: str, rows: tuple[Exclusion, ...]) -> str:
    """What ``fan`` excludes, and the fans that exclude it ("not with …"), in ``rows``."""
    own = ", ".join(r.excludes for r in rows if r.fan == fan)
    by = ", ".join(r.fan for r in rows if r.excludes == fan)
    return "; ".join(x for x in (own, f"not with {by}" if by else "") if x)


# 九莲宝灯 counts the fans of its best arrangement that the shape forces, by the rank of
# the winning tile (as the reference calculator does); 四归一 and flags come on top.
NINE_GATES_EXTRAS = MappingProxyType({
    1: ("清龙",), 9: ("清龙",),
    2: ("双暗刻", "连六", "幺九刻"), 8: ("双暗刻", "连六", "幺九刻"),
    5: ("双暗刻", "幺九刻"),
    3: ("连六",), 4: ("连六",), 6: ("连六",), 7: ("连六",),
})


def _check() -> None:
    """Import-time sanity of the tables (raises ValueError, never asserts)."""
    if len(FAN_BY_ZH) != len(FANS) or len(FAN_BY_ID) != len(FANS):
        raise ValueError("duplicate fan in FANS")
    if len(OFFICIAL) != 81 + 1:  # 81 official (花牌 included) + 明暗杠
        raise ValueError(f"expected 82 default fans, got {len(OFFICIAL)}")
    seen = set()
    for row in EXCLUSIONS + IMPLIED_EXCLUSIONS:
        if row.fan not in ORDER or row.excludes not in ORDER:
            raise ValueError(f"unknown fan in exclusion {row}")
        if ORDER[row.fan] >= ORDER[row.excludes]:
            raise ValueError(f"exclusion {row} goes against catalogue order")
        if (row.fan, row.excludes) in seen:
            raise ValueError(f"duplicate exclusion {row}")
        seen.add((row.fan, row.excludes))
    if len(MINGXING) != 18 or any(not FAN_BY_ZH[n].quote for n in MINGXING):
        raise ValueError("seed 002's 明星三缺一 section has 18 fans, each with its sentence")


_check()
