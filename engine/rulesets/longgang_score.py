"""龙港麻将 scoring: 胡数 (points) and 台数 (doublings) of every seat, and the chip settlement.

See docs/rules/longgang.md for every rule, its default, its option and its seed passage.

Vocabulary used below:

* 正财 (``real``): a wild tile of the 财神 kind (or, when the indicator is a flower, any
  other flower — 花财神).
* 坐花 (``zuo``): the seat's own flower, kept in hand as a wild.
* 大子: terminals (1, 9) and honours; 小子: 2–8.

Every value is a row in one of the tables below; the functions only detect.

Worked examples from the seed (see tests/test_longgang_score.py):

>>> ceil_cap(38 * 2 ** 3)
300
>>> ceil_cap(38)
40
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Final, final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import PAIR, SEQ, TRIPLET
from mahjong_audit.engine.decompose import is_complete as shape_complete
from mahjong_audit.engine.hand import Meld, MeldKind, NotAWin, Score, ScoreItem, WinSituation
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets.longgang_readings import Reading

# ------------------------------------------------------------------ tables

#: 胡 of one set: (kind, 大子?) -> 胡. Kinds: an (un)konged concealed triplet counts as 暗刻.
SET_HU: Final = MappingProxyType({
    ("暗杠", False): 16, ("暗杠", True): 32,
    ("明杠", False): 8, ("明杠", True): 16,
    ("暗刻", False): 4, ("暗刻", True): 8,
    ("明刻", False): 2, ("明刻", True): 4,
})
#: the item name of each row of SET_HU: 暗杠大子, 明刻小子, …
SET_NAMES: Final = MappingProxyType({(name, big): f"{name}{'大子' if big else '小子'}" for name, big in SET_HU})
#: the 胡 items (name, 胡, "hu") of each kind of set in SET_HU: (小子, 大子); derived once, never
#: changed (a set's item is found by its kind's name, not hashed from a tuple at each set: :func:`_set_item`)
SET_ITEMS: Final[dict[str, tuple[tuple[str, int, str], tuple[str, int, str]]]] = {
    kind: ((SET_NAMES[(kind, False)], SET_HU[(kind, False)], "hu"), (SET_NAMES[(kind, True)], SET_HU[(kind, True)], "hu"))
    for kind, big in SET_HU if not big}
#: a pair (将) of 中, 发 or the seat's own wind
PAIR_HU: Final = 2
#: each flower set aside (补花)
FLOWER_HU: Final = 4
#: the items of a 将 and of a flower set aside
PAIR_ITEM: Final = ("将", PAIR_HU, "hu")
FLOWER_ITEM: Final = ("花", FLOWER_HU, "hu")
#: the winner's base (底胡)
WINNER_BASE: Final = 20
#: winner's bonus by wait, self-drawn: 卡档/坎张 4, 单吊 0, anything else 2 (plain 自摸)
SELF_DRAWN_HU: Final = MappingProxyType({"closed": 4, "edge": 2, "two_sided": 2, "triplet": 2, "single": 0})
#: winner's bonus by wait, on a discard (or robbing a kong): only 卡档/坎张 scores
DISCARD_HU: Final = MappingProxyType({"closed": 2, "edge": 0, "two_sided": 0, "triplet": 0, "single": 0})
#: self-drawn on a kong replacement (杠上开花): only the plain self-draw bonus
KONG_REPLACEMENT_HU: Final = 2

#: 台 of each item (each 台 doubles)
TAI: Final = MappingProxyType({
    "双财神": 1,  # two wilds (正财, or 坐花 + 正财)
    "硬胡": 1,  # no wild substitutes for another tile (none held, or 财神归位)
    "坐花": 1,
    "四花": 2,  # 坐花 + the other three flowers set aside (replaces 坐花)
    "字刻": 1,  # each triplet/kong of 中, 发 or the seat wind
    "混一色": 1,
    "对对胡": 1,
    "平胡": 0,
    "八对半": 0,
    "杠上开花": 1,  # option kong_replacement_tai
    "圈风刻": 1,  # option round_wind_triplet_tai
    "一条龙": 1,  # option pure_straight_tai
})
#: the 台 item (name, 台, "tai") of each row of TAI (derived once, never changed)
TAI_ITEMS: Final[dict[str, tuple[str, int, str]]] = {name: (name, value, "tai") for name, value in TAI.items()}
#: limit hands (腊子): scored at the cap, counted as 3 台 for 跟胡数
LIMIT_TAI: Final = 3
#: every limit hand (腊子) but the appendix's, the one list of their names: first the wins that are limits
#: whatever the tiles (推土机 三财神, 天胡, 地胡, 人胡: :func:`winner_context`), then the rows of
#: :data:`TAI_ROWS` in its order (五、(二)6 "腊子情况")
LIMITS: Final = ("三财神", "天胡", "地胡", "人胡", "财神会", "清一色", "字一色", "大四喜", "小四喜", "清老头", "混老头",
          "四金刚", "八对半")
THREE_CAISHEN, HEAVENLY, EARTHLY, HUMAN = LIMITS[:4]
#: limit hands after which the other seats score 0 (四、6 "其他三家不能算胡数"; 7 推土机)
LIMITS_ZERO_OTHERS: Final = frozenset(LIMITS[:4])
#: 附一 (the seed's appendix of rare hands "有此地方玩法算腊子"): counted only when named in the
#: ``appendix_hands`` option. Value: 台 added, or None for a limit hand (腊子).
APPENDIX_TAI: Final[MappingProxyType[str, int | None]] = MappingProxyType({
    "金门桥": None,  # four runs of one suit, each one step above the last (四步高)
    "四连太宝": 3,  # four identical runs of one suit (一色四同顺): "计3台"
    "绿一色": None,  # only 23468s and 发
    "红孔雀": None,  # only 1579s and 中
    "点点红": None,  # only 135679p, with a pair of 中
    "红一点": None,  # only 23468s, with a pair of 中
    "门清": 1,  # no chi, pon or exposed kong; won on a discard
    "不求人": 1,  # no chi, pon or exposed kong; self-drawn
    "全求人": 1,  # five exposed sets (chi, pon, exposed kong), single wait won on a discard
    "半求人": 1,  # five exposed sets, single wait self-drawn
    "五杠子": None,  # five kongs
    "四杠子": 3,
    "三杠子": 2,
    "五暗刻": 3,  # five concealed triplets/kongs (坎坎胡)
    "四暗刻": 2,
    "五连刻": 3,  # five triplets of one suit, consecutive ranks
    "四连刻": 2,
    "三连杠": 3,  # three kongs of one suit, consecutive ranks
    "三同杠": 3,  # kongs of one rank in the three suits
})
#: appendix rows a higher row of the same series replaces (one row per series)
APPENDIX_EXCLUDES: Final = MappingProxyType({
    "五杠子": ("四杠子", "三杠子"),
    "四杠子": ("三杠子",),
    "五暗刻": ("四暗刻",),
    "五连刻": ("四连刻",),
})
GREEN_TILES: Final = frozenset(T.parse("23468s6z"))
RED_PEACOCK_TILES: Final = frozenset(T.parse("1579s7z"))
RED_DOTS_TILES: Final = frozenset(T.parse("135679p7z"))
ONE_RED_TILES: Final = frozenset(T.parse("23468s7z"))
CAP: Final = 300
UNIT: Final = 10  # totals are rounded up to a multiple of 10 胡
HU_PER_CHIP: Final = 10
#: 跟胡数 by the winner's 台 (capped at 3); the second table after a seat went broke (断筹)
FOLLOW_HU: Final = (30, 60, 90, 120)
FOLLOW_HU_REBOUGHT: Final = (50, 100, 150, 200)
#: 诈胡 penalties in chips: (paid to the dealer, paid to each other seat)
FALSE_WIN_CHIPS: Final = MappingProxyType({"dealer_pays_each": 20, "to_dealer": 20, "to_other": 10})

DRAGON_KINDS: Final = (T.GREEN, T.RED)  # no 白板 in this set


def ceil_cap(hu: int) -> int:
    """Round a total up to a multiple of 10 胡 and cap it at 300."""
    return min(CAP, -(-hu // UNIT) * UNIT)


def is_big(t: int) -> bool:
    """大子: 1, 9 and honours."""
    return T.is_terminal_or_honour(t)


# ------------------------------------------------------------------ wild tiles


@dataclass(frozen=True, slots=True)
class Wilds:
    """Which tiles are wild for one seat.

    ``real`` are the 正财 tiles (the 财神 kind, or the flowers under 花财神); ``zuo`` is
    the seat's own flower (坐花) when it is kept as a wild; ``flower_mode`` is 花财神.
    """

    real: frozenset[int]
    zuo: int | None
    flower_mode: bool
    caishen_kind: int | None  # the suited/honour 财神 kind (None under 花财神)

    def __init__(self, real: frozenset[int], zuo: int | None, flower_mode: bool, caishen_kind: int | None) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        object.__setattr__(self, "real", real)
        object.__setattr__(self, "zuo", zuo)
        object.__setattr__(self, "flower_mode", flower_mode)
        object.__setattr__(self, "caishen_kind", caishen_kind)

    @property
    def all(self) -> frozenset[int]:
        return self.real | ({self.zuo} if self.zuo is not None else frozenset())


def seat_flower(seat_wind: int) -> int:
    """春 for East (the dealer), 夏 South, 秋 West, 冬 North."""
    return T.FLOWER0 + seat_wind


@lru_cache(maxsize=256)
def wilds_for(seat_wind: int, indicator: int | None) -> Wilds:
    """The wilds of a seat given the flipped indicator (None: no 财神 this hand)."""
    zuo: int | None = seat_flower(seat_wind)
    if indicator is not None and T.is_flower(indicator):
        real = frozenset(f for f in range(T.FLOWER0, T.FLOWER0 + 4) if f not in (indicator, zuo))
        if zuo == indicator:
            zuo = None
        return Wilds(real, zuo, True, None)
    if indicator is None:
        return Wilds(frozenset(), zuo, False, None)
    return Wilds(frozenset({indicator}), zuo, False, indicator)


def _tile_of(v: object) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return T.tile(str(v), aliases=True)


def wilds_of(sit: WinSituation) -> Wilds:
    """Wilds from a situation: ``extra['indicator']`` (the flipped tile), or, for the
    ``score`` command, ``wildcards`` (the 财神 tiles) and optionally ``seat_flower``
    (a tile, or false for none)."""
    wc = sit.get("wildcards")
    if wc is not None:
        real = frozenset(_tile_of(x) for x in wc)  # type: ignore[union-attr,attr-defined]
        sf = sit.get("seat_flower", seat_flower(sit.seat_wind))
        zuo = None if sf in (None, False) else _tile_of(sf)
        flower_mode = bool(real) and all(T.is_flower(t) for t in real)
        kind = None if flower_mode or not real else min(real)
        return Wilds(real - ({zuo} if zuo is not None else frozenset()), zuo, flower_mode, kind)
    ind = sit.get("indicator")
    return wilds_for(sit.seat_wind, None if ind is None else _tile_of(ind))


# ------------------------------------------------------------------ rules switches


@dataclass(frozen=True, slots=True)
class Rules:
    """The scoring switches of :class:`mahjong_audit.engine.rulesets.longgang.LonggangOptions`."""

    eight_pairs: bool = True
    eight_pairs_limit: bool = False
    single_wait_self_draw_bonus: bool = False
    edge_single_discard_bonus: bool = False
    kong_replacement_tai: bool = False
    round_wind_triplet_tai: bool = False
    pure_straight_tai: bool = False
    human_win: bool = False
    four_kings_limit: bool = False
    wild_pair_robbing: bool = True
    three_caishen: int = 3
    non_winner_four_flowers_tai: int = 2
    four_winds_wild_restriction: bool = False
    appendix_hands: frozenset[str] = frozenset()
    zuo_is_second_caishen: bool = True
    wild_beyond_fourth_copy: str = "any"
    non_winner_single_two_wilds: bool = True
    non_winner_wild_choice: str = "caishen_first"
    non_winner_split_triplet: bool = False
    home_caishen_pair: str = "own_kind"


# ------------------------------------------------------------------ helpers


def _items(pairs: list[tuple[str, int, str]]) -> tuple[ScoreItem, ...]:
    """Merge (name, value, unit) occurrences into ScoreItems with counts, in first-seen order.

    Merged by name (a string's hash is kept with it), where a breakdown's name has one value and
    unit; a name met with another value or unit merges by the whole occurrence instead
    (:func:`_items_by_occurrence`, the same result). Compiled, an occurrence read from the list is
    a native struct: hashing it whole boxes it into a new tuple at each look-up."""
    at: dict[str, int] = {}  # name -> its place in out
    out: list[ScoreItem] = []
    for name, value, unit in pairs:
        i = at.get(name, -1)
        if i < 0:
            at[name] = len(out)
            out.append(ScoreItem(name, value, 1, unit))
            continue
        known = out[i]
        if known.value != value or known.unit != unit:
            return _items_by_occurrence(pairs)
        out[i] = ScoreItem(name, value, known.count + 1, unit)
    return tuple(out)


def _items_by_occurrence(pairs: list[tuple[str, int, str]]) -> tuple[ScoreItem, ...]:
    """:func:`_items` merging equal (name, value, unit) occurrences."""
    acc: dict[tuple[str, int, str], int] = {}
    for key in pairs:
        acc[key] = acc.get(key, 0) + 1
    return tuple([ScoreItem(n, v, c, unit) for (n, v, unit), c in acc.items()])


def _set_item(kind: str, t: int) -> tuple[str, int, str]:
    """The 胡 item of a set of ``t`` of ``kind`` (a kind of :data:`SET_HU`: 暗杠, 明杠, 暗刻, 明刻)."""
    items = SET_ITEMS[kind]
    return items[1] if is_big(t) else items[0]


def _meld_item(m: Meld) -> tuple[str, int, str] | None:
    """The 胡 item of a meld (a chi scores none)."""
    if m.kind is MeldKind.CHI:
        return None
    if m.kind is MeldKind.CONCEALED_KONG:
        return _set_item("暗杠", m.first)
    if m.kind is MeldKind.KONG:
        return _set_item("明杠", m.first)
    return _set_item("明刻", m.first)


def _honour_scoring(t: int | None, seat_wind: int) -> bool:
    """中, 发 or the seat's own wind."""
    return t is not None and (t in DRAGON_KINDS or t == T.wind_tile(seat_wind))


# ------------------------------------------------------------------ shape test


def complete(counts: Sequence[int], n_melds: int, wilds: frozenset[int], rules: Rules) -> bool:
    """Fast test: 5 sets + a pair (wilds filling), 八对半, or three 正财 in hand."""
    c = counts if isinstance(counts, list) and len(counts) in (34, 42) else T.counts(counts)
    return _wins_with(c, n_melds, wilds, rules.three_caishen, rules.eight_pairs, 0)


def wild_tally(c: Sequence[int], wilds: frozenset[int]) -> tuple[list[int], int, int, int]:
    """The wilds among 34 or 42 standing counts ``c``, in one pass: the 34 natural counts (the
    wild kinds emptied), the 正财 held (wilds that are not flowers), the wild flowers, and the
    wild flowers held."""
    n = len(c)
    nat = list(c[:34])
    real = flowers = flowers_held = 0
    for t in wilds:
        if T.is_flower(t):
            flowers += 1
            if t < n:
                flowers_held += c[t]
        else:
            real += c[t]
            nat[t] = 0
    return nat, real, flowers, flowers_held


def _wins_with(c: Sequence[int], n_melds: int, wilds: frozenset[int], three_caishen: int, eight_pairs: bool,
               extra: int) -> bool:
    """:func:`complete` on 34 or 42 standing counts ``c`` with ``extra`` wilds more (0, or 1 for
    :func:`may_complete_with_one`). One pass over the wilds (held, 正财 held, the wild kinds among
    the 34 emptied in a copy of the natural counts) and the tile count before any shape test:
    both shapes (five sets and a pair, 八对半) hold 3 × sets + 2 tiles."""
    n = len(c)
    if n > T.FLOWER0 and any(c[T.FLOWER0:]):
        for t in range(T.FLOWER0, n):
            if c[t] and t not in wilds:
                return False  # a flower held that should have been set aside
    nat, held, flowers, flowers_held = wild_tally(c, wilds)
    w = extra + held + flowers_held
    real = extra + held  # 正财 held (with extra: the tile added may be a 正财)
    if three_caishen == 4 or flowers >= 2:  # two or more wild flowers are 花财神: every wild a 正财
        real += flowers_held
    if real >= three_caishen:
        return True
    n_sets = 5 - n_melds
    if n_sets < 0:
        return False
    if sum(nat) + w != 3 * n_sets + 2:
        return False
    if shape_complete(nat, n_sets, w):
        return True
    return eight_pairs and n_melds == 0 and R.is_eight_pairs(nat, w)


def may_complete_with_one(counts: tuple[int, ...], n_melds: int, wilds: frozenset[int], rules: Rules) -> bool:
    """A quick no for the replay's what-ifs: False only when no tile added to these 42
    standing counts can make :func:`complete` true (a seat asked about every discard, and about
    its own draw, mostly cannot win on any). See :func:`_may_complete_with_one`."""
    return _may_complete_with_one(counts, n_melds, wilds, rules.three_caishen, rules.eight_pairs)


def _may_complete_with_one(c: tuple[int, ...], n_melds: int, wilds: frozenset[int], three_caishen: int,
                           eight_pairs: bool) -> bool:
    """The test of :func:`complete` with one wild more: a wild may stand for any tile, so when
    the hand cannot win with it, no natural tile added wins either, nor a wild (which is that
    wild), nor a flower the seat must set aside. Not cached: the replay's claim chances ask it
    once per state of a seat's hand (``ChanceTally.new_state``), and hashing 42 counts cost more
    than the test (tests/test_fast_exits.py checks it against :func:`complete` on every tile for
    random hands)."""
    return _wins_with(c, n_melds, wilds, three_caishen, eight_pairs, 1)


# ------------------------------------------------------------------ the winner


def _three_caishen(real: int, zuo: int, w: Wilds, rules: Rules) -> bool:
    n = real + zuo if (w.flower_mode or rules.three_caishen == 4) else real
    return n >= rules.three_caishen


@dataclass(frozen=True, slots=True)
class WinnerContext:
    """What every reading of one winning hand shares: the seat's wilds, the 正财 and 坐花
    held (the winning tile included), the flowers set aside and the special wins (天胡…)."""

    wilds: Wilds
    real: int
    zuo: int
    flower_items: tuple[tuple[str, int, str], ...]
    special: tuple[str, ...]

    def __init__(self, wilds: Wilds, real: int, zuo: int, flower_items: tuple[tuple[str, int, str], ...],
                 special: tuple[str, ...]) -> None:
        # its own (the fields in order): compiled, native, where the dataclass's stays interpreted
        object.__setattr__(self, "wilds", wilds)
        object.__setattr__(self, "real", real)
        object.__setattr__(self, "zuo", zuo)
        object.__setattr__(self, "flower_items", flower_items)
        object.__setattr__(self, "special", special)


def winner_context(sit: WinSituation, rules: Rules) -> WinnerContext:
    """The shared part of a winner's scoring; raise NotAWin for a flower that should have
    been set aside."""
    w = wilds_of(sit)
    return _winner_context(sit, rules, w, w.all, T.counts(sit.full_concealed))


def _winner_context(sit: WinSituation, rules: Rules, w: Wilds, wild: frozenset[int], c: list[int]) -> WinnerContext:
    """:func:`winner_context` of the seat's wilds ``w`` (``wild``: all of them) and its standing counts ``c``."""
    bad_flowers = [t for t in range(T.FLOWER0, T.N_TILES) if c[t] and t not in wild]
    if bad_flowers:
        raise NotAWin("not_a_win", f"flower {T.name(bad_flowers[0])} held but not set aside")
    special: list[str] = []
    if sit.get("heavenly"):
        special.append(HEAVENLY)
    elif sit.get("human") or sit.get("dihu"):
        special.append(EARTHLY)
    elif rules.human_win and (sit.get("earthly") or is_human_win(sit)):
        special.append(HUMAN)
    return WinnerContext(w, sum(c[t] for t in w.real), c[w.zuo] if w.zuo is not None else 0,
                         (FLOWER_ITEM,) * len(sit.flowers), tuple(special))


def score_winner(sit: WinSituation, rules: Rules) -> Score:
    """Score a declared win by its most favourable reading (see :mod:`longgang_readings`);
    raise NotAWin if it is none of the winning shapes."""
    w = wilds_of(sit)
    wild = w.all
    c = T.counts(sit.full_concealed)
    ctx = _winner_context(sit, rules, w, wild, c)
    real, zuo, flower_items, special = ctx.real, ctx.zuo, list(ctx.flower_items), ctx.special
    if _three_caishen(real, zuo, w, rules):
        items = [("底胡", WINNER_BASE, "hu"), *flower_items, (THREE_CAISHEN, LIMIT_TAI, "tai")]
        items += [(s, LIMIT_TAI, "tai") for s in special]
        return _limit_score(items, (THREE_CAISHEN, *special))
    nat = _held(c, w)[0]
    n_sets = 5 - len(sit.melds)
    if n_sets < 0:
        raise NotAWin("not_a_win", "more than five melds")
    win = sit.win_tile
    win_wild = win in wild
    if not win_wild:
        nat[win] -= 1
    readings = R.winner_readings(tuple(nat), None if win_wild else win, win in w.real,
                                 real - (win in w.real), zuo - (win == w.zuo), w.caishen_kind, n_sets,
                                 rules.eight_pairs and not sit.melds)
    robbing = sit.kong and not sit.self_drawn
    # (with wild_beyond_fourth_copy "any" every limit is 99: no reading goes beyond)
    copy_limits = (None if rules.wild_beyond_fourth_copy == "any"
                   else copy_limits_of(sit.melds, sit.seat_wind, _held(c, w)[0]))
    # Each reading is valued by its numbers alone (total, 台, 胡: what its Score says), the first
    # best in this order kept; only that one's items are built.
    best: tuple[tuple[int, int, int], _ReadingItems] | None = None
    rows = tai_rows(rules)
    for r in readings:
        part = r.parts[r.win_idx]
        if robbing and not rules.wild_pair_robbing and part.kind == PAIR and part.wilds > 0:
            continue  # 单吊抢杠 with a 财神 as the pair's other tile (option)
        if copy_limits is not None and not R.within_copy_limits(r, copy_limits):
            continue
        found = _reading_items(sit, r, rules, ctx, rows)
        key = _items_key(found)
        if best is None or key > best[0]:
            best = (key, found)
    if best is None:
        raise NotAWin("not_a_win", "not five sets and a pair, 八对半 or three 财神")
    return _items_score(best[1])


#: kinds a wild may stand for beyond the fourth copy (二、三)e "如手牌已碰红中（青发，坐风同理）,
#: 再胡红中配两财神…或手中有四个红中配双财神也计3台"): 中, 发 and (below) the seat's own wind
BEYOND_FOURTH_COPY: Final = DRAGON_KINDS


def copy_limits_of(melds: Sequence[Meld], seat_wind: int, nat: Sequence[int],
                   any_kind: bool = False) -> tuple[int, ...]:
    """How many copies of each kind the concealed sets may show: 4 less those in melds (but
    never fewer than the natural tiles ``nat`` held: wilds are what may not add a fifth), or
    no limit (99) for the kinds of :data:`BEYOND_FOURTH_COPY` and the seat wind — for every
    kind with ``any_kind`` (option ``wild_beyond_fourth_copy: any``)."""
    if any_kind:
        return (99,) * 34
    limits = [4] * 34
    for m in melds:
        for t in m.tiles[:4]:
            limits[t] -= 1
    limits = [max(n, lim) for n, lim in zip(nat[:34], limits, strict=True)]
    for t in (*BEYOND_FOURTH_COPY, T.wind_tile(seat_wind)):
        limits[t] = 99
    return tuple(limits)


def is_human_win(sit: WinSituation) -> bool:
    """人胡 timing (三、5 B; 四、6): a non-dealer's win within one go-round of the dealer's first
    discard, with no call in between — a self-draw on its first draw, or a win on one of the
    next three discards (the dealer's first discard itself is 地胡)."""
    n = sit.get("first_round_discards")
    if not isinstance(n, int) or sit.get("seat") == sit.get("dealer") or sit.get("seat") is None:
        return False
    return n <= 3 if sit.self_drawn else 2 <= n <= 4


def _limit_score(items: list[tuple[str, int, str]], limits: tuple[str, ...]) -> Score:
    hu = sum(v for _, v, u in items if u == "hu")
    tai = sum(v for _, v, u in items if u == "tai")
    zero = any(x in LIMITS_ZERO_OTHERS for x in limits)
    return Score(_items(items), CAP, details=(("hu", hu), ("tai", tai), ("limit", True),
                                              ("others_zero", zero), ("follow_tai", min(3, tai))))


# ------------------------------------------------------------------ 台: the table of detectors


@final
class _ReadingFacts:
    """What the 台 detectors read of one reading of a winning hand (built once per reading).
    Immutable: every attribute is Final."""

    __slots__ = ("sit", "r", "rules", "wilds", "real", "zuo", "wait", "kong_draw", "sets", "shown", "suits",
                 "honours", "no_seq", "triplet_kinds", "pair_kinds", "wild_pair", "appendix")

    def __init__(self, sit: WinSituation, r: Reading, rules: Rules, w: Wilds, real: int, zuo: int,
                 tiles: list[int | None], wait: str, kong_draw: bool) -> None:
        self.sit: Final = sit
        self.r: Final = r
        self.rules: Final = rules
        self.wilds: Final = w
        self.real: Final = real  # 正财 held, the winning tile included
        self.zuo: Final = zuo  # 坐花 held
        self.wait: Final = wait
        self.kong_draw: Final = kong_draw  # self-drawn on a kong's or a flower's replacement tile
        # one pass over the sets for every fact below
        sets: list[tuple[str, int]] = []
        wild_pair = False
        for i, p in enumerate(r.parts):
            t = tiles[i]
            if t is not None:
                sets.append((p.kind, t))
            elif p.kind == PAIR:
                wild_pair = True
        for m in sit.melds:
            sets.append((SEQ if m.kind is MeldKind.CHI else TRIPLET, m.first))
        shown: list[int] = []
        suits: set[int] = set()
        honours = False
        no_seq = r.shape == "standard"
        triplet_kinds: list[int] = []
        pair_kinds: list[int] = []
        for k, t in sets:
            if k == SEQ:
                shown.extend((t, t + 1, t + 2))
                no_seq = False
            else:
                shown.append(t)
                if k == TRIPLET:
                    triplet_kinds.append(t)
                elif k == PAIR:
                    pair_kinds.append(t)
            if T.is_suited(t):  # a sequence's three tiles are of its first tile's suit
                suits.add(T.suit(t))
            elif T.is_honour(t):
                honours = True
        #: (kind, tile) of every part read as a tile (all-wild parts standing for another tile left out), then
        #: of every meld
        self.sets: Final = sets
        self.shown: Final = shown  # the tiles those sets show
        self.suits: Final = suits
        self.honours: Final = honours
        self.no_seq: Final = no_seq
        self.triplet_kinds: Final = triplet_kinds
        self.pair_kinds: Final = pair_kinds
        #: a pair of wilds standing for another tile: whatever pair suits the patterns
        self.wild_pair: Final = wild_pair
        self.appendix: Final = _appendix(sit, r, sets, shown, r.win_idx, rules)


#: the codes of the 台 detectors (a row's ``detect``), each detector called by :func:`_detect` (and
#: :func:`_detect_set` for the per-set rows): compiled, a function kept in an attribute is called
#: through Python's generic call and its argument parsing (~250 instructions; ~20 rows a reading),
#: a code through one native call
D_CAISHEN_HUI: Final = 0
D_FOUR_FLOWERS: Final = 1
D_ZUOHUA: Final = 2
D_TWO_CAISHEN: Final = 3
D_HARD_WIN: Final = 4
D_HALF_FLUSH: Final = 5
D_FULL_FLUSH: Final = 6
D_ALL_HONOURS: Final = 7
D_ALL_TRIPLETS: Final = 8
D_BIG_FOUR_WINDS: Final = 9
D_LITTLE_FOUR_WINDS: Final = 10
D_ALL_TERMINALS: Final = 11
D_TERMINALS_AND_HONOURS: Final = 12
D_FOUR_KINGS: Final = 13
D_EIGHT_PAIRS_LIMIT: Final = 14
D_EIGHT_PAIRS: Final = 15
D_PURE_STRAIGHT: Final = 16
D_APPENDIX: Final = 17
D_KONG_FLOWER: Final = 18
D_PINGHU: Final = 19
D_HONOUR_TRIPLET: Final = 0
D_ROUND_WIND_TRIPLET: Final = 1


@final
class TaiRow:
    """One row of :data:`TAI_ROWS`: a 台 item (``value`` 台) or, with ``value`` None, a limit hand
    (腊子, a name of :data:`LIMITS` or of the appendix), the code of its detector (``D_…``, see
    :func:`_detect`), and the switch of :class:`Rules` without which the row never counts (``option``;
    "" for none)."""

    __slots__ = ("name", "value", "detect", "option")

    def __init__(self, name: str, value: int | None, detect: int, option: str = "") -> None:
        if value is None and name not in LIMITS and name not in APPENDIX_TAI:
            raise ValueError(f"{name}: a limit hand that LIMITS does not list")
        self.name: Final = name
        self.value: Final = value
        self.detect: Final = detect
        self.option: Final = option


@final
class SetTaiRow:
    """A 台 item counted once for each set that shows it (its detector's code ``detect``: see
    :func:`_detect_set`); ``option`` as :class:`TaiRow`'s."""

    __slots__ = ("name", "value", "detect", "option")

    def __init__(self, name: str, value: int, detect: int, option: str = "") -> None:
        self.name: Final = name
        self.value: Final = value
        self.detect: Final = detect
        self.option: Final = option


def _caishen_hui(f: _ReadingFacts) -> bool:
    """A triplet of wilds alone: two 正财 + 坐花 (three 正财 is 三财神, scored before any reading)."""
    return any(p.kind == TRIPLET and R.part_wilds(f.r, i, f.wilds.caishen_kind) == 3 for i, p in enumerate(f.r.parts))


def four_flowers(w: Wilds, flowers: Sequence[int]) -> bool:
    """The three seasons other than the seat's 坐花 set aside (not under 花财神): with the 坐花 held
    and used, 四花 instead of 坐花."""
    return not w.flower_mode and all(T.FLOWER0 + k in flowers for k in range(4) if T.FLOWER0 + k != w.zuo)


def _four_flowers(f: _ReadingFacts) -> bool:
    """坐花 with the other three seasons set aside (not under 花财神)."""
    return four_flowers(f.wilds, f.sit.flowers)


def _four_flowers_row(f: _ReadingFacts) -> bool:
    return f.zuo > 0 and _four_flowers(f)


def _zuohua(f: _ReadingFacts) -> bool:
    return f.zuo > 0 and not _four_flowers(f)


def _two_caishen(f: _ReadingFacts) -> bool:
    second = f.zuo if f.rules.zuo_is_second_caishen or f.wilds.flower_mode else 0
    return f.real + second >= 2


def _hard_win(f: _ReadingFacts) -> bool:
    return f.r.substitutes == 0


def _scoring_triplet(f: _ReadingFacts, kind: str, t: int) -> bool:
    """A triplet (or kong) that may score a 台: not of the wild kind (二、四)2 "如是中发坐风为财神的，不另计")."""
    return kind == TRIPLET and t not in f.wilds.real and t != f.wilds.caishen_kind


def _honour_triplet(f: _ReadingFacts, kind: str, t: int) -> bool:
    return _scoring_triplet(f, kind, t) and (t in DRAGON_KINDS or t == T.wind_tile(f.sit.seat_wind))


def _round_wind_triplet(f: _ReadingFacts, kind: str, t: int) -> bool:
    return _scoring_triplet(f, kind, t) and t == T.wind_tile(f.sit.round_wind)


def _half_flush(f: _ReadingFacts) -> bool:
    return len(f.suits) == 1 and f.honours


def _full_flush(f: _ReadingFacts) -> bool:
    return len(f.suits) == 1 and not f.honours


def _all_honours(f: _ReadingFacts) -> bool:
    return not f.suits and bool(f.shown)


def _all_triplets(f: _ReadingFacts) -> bool:
    return f.no_seq


def _winds(f: _ReadingFacts) -> int:
    """Wind triplets, when a 四喜 may count them (三、10's option on the wilds in them)."""
    if f.rules.four_winds_wild_restriction and not _four_winds_wilds_ok(f.r, f.real + f.zuo):
        return 0
    return sum(1 for t in f.triplet_kinds if T.is_wind(t))


def _big_four_winds(f: _ReadingFacts) -> bool:
    return _winds(f) == 4


def _little_four_winds(f: _ReadingFacts) -> bool:
    return _winds(f) == 3 and (f.wild_pair or any(T.is_wind(t) for t in f.pair_kinds))


def _all_terminals(f: _ReadingFacts) -> bool:
    return f.no_seq and bool(f.shown) and all(T.is_terminal(t) for t in f.shown)


def _terminals_and_honours(f: _ReadingFacts) -> bool:
    return (f.no_seq and bool(f.shown) and all(T.is_terminal_or_honour(t) for t in f.shown) and bool(f.suits)
            and not _all_terminals(f))


def _four_kings(f: _ReadingFacts) -> bool:
    if f.r.shape != "standard":
        return False
    hon_trip = sum(1 for t in f.triplet_kinds if T.is_honour(t))
    return hon_trip >= 4 or (hon_trip == 3 and (f.wild_pair or any(T.is_honour(t) for t in f.pair_kinds)))


def _eight_pairs_limit(f: _ReadingFacts) -> bool:
    return f.r.shape == "eight_pairs"


def _eight_pairs(f: _ReadingFacts) -> bool:
    return f.r.shape == "eight_pairs" and not f.rules.eight_pairs_limit


def _pure_straight(f: _ReadingFacts) -> bool:
    seq_firsts = {t for k, t in f.sets if k == SEQ}
    return any({9 * s, 9 * s + 3, 9 * s + 6} <= seq_firsts for s in range(3))


def _kong_flower(f: _ReadingFacts) -> bool:
    return f.kong_draw


def _pinghu(f: _ReadingFacts) -> bool:
    sit = f.sit
    return (f.r.shape == "standard" and all(k == SEQ for k, _ in f.sets if k != PAIR)
            and not any(_honour_scoring(t, sit.seat_wind) for t in f.pair_kinds)
            and not sit.flowers and not sit.self_drawn and f.wait != "closed"
            and f.real == 1 and f.zuo == 0 and not honours_mixed(f.suits, f.honours))


def _detect(row: TaiRow, f: _ReadingFacts) -> bool:
    """Whether the reading ``f`` shows ``row`` (its detector by its code; an appendix row: named in
    the reading's appendix)."""
    code = row.detect
    if code == D_CAISHEN_HUI:
        return _caishen_hui(f)
    if code == D_FOUR_FLOWERS:
        return _four_flowers_row(f)
    if code == D_ZUOHUA:
        return _zuohua(f)
    if code == D_TWO_CAISHEN:
        return _two_caishen(f)
    if code == D_HARD_WIN:
        return _hard_win(f)
    if code == D_HALF_FLUSH:
        return _half_flush(f)
    if code == D_FULL_FLUSH:
        return _full_flush(f)
    if code == D_ALL_HONOURS:
        return _all_honours(f)
    if code == D_ALL_TRIPLETS:
        return _all_triplets(f)
    if code == D_BIG_FOUR_WINDS:
        return _big_four_winds(f)
    if code == D_LITTLE_FOUR_WINDS:
        return _little_four_winds(f)
    if code == D_ALL_TERMINALS:
        return _all_terminals(f)
    if code == D_TERMINALS_AND_HONOURS:
        return _terminals_and_honours(f)
    if code == D_FOUR_KINGS:
        return _four_kings(f)
    if code == D_EIGHT_PAIRS_LIMIT:
        return _eight_pairs_limit(f)
    if code == D_EIGHT_PAIRS:
        return _eight_pairs(f)
    if code == D_PURE_STRAIGHT:
        return _pure_straight(f)
    if code == D_APPENDIX:
        return row.name in f.appendix
    if code == D_KONG_FLOWER:
        return _kong_flower(f)
    if code == D_PINGHU:
        return _pinghu(f)
    raise ValueError(f"{row.name}: no detector {code}")


def _detect_set(row: SetTaiRow, f: _ReadingFacts, kind: str, t: int) -> bool:
    """Whether the set (``kind``, ``t``) of the reading ``f`` shows the per-set ``row``."""
    code = row.detect
    if code == D_HONOUR_TRIPLET:
        return _honour_triplet(f, kind, t)
    if code == D_ROUND_WIND_TRIPLET:
        return _round_wind_triplet(f, kind, t)
    raise ValueError(f"{row.name}: no detector {code}")


def _limit(name: str) -> str:
    if name not in LIMITS:
        raise ValueError(f"{name}: not in LIMITS")
    return name


#: the 台 of a winning reading, in the order the breakdown lists them: each row's name, its 台
#: (from :data:`TAI`; None: a limit hand of :data:`LIMITS`, scored at the cap) and its detector (its code).
#: A tuple of :class:`SetTaiRow` counts once per set (each set: the first row it fits). A row
#: behind an option counts only with that switch of :class:`Rules` on (its ``option``: its detector
#: does not ask), the appendix rows (附一, :data:`APPENDIX_TAI`) only when named in ``appendix_hands``:
#: :func:`tai_rows` gives the rows of a set of rules.
TAI_ROWS: Final[tuple[TaiRow | tuple[SetTaiRow, ...], ...]] = (
    TaiRow(_limit("财神会"), None, D_CAISHEN_HUI),  # 四、15 "两个正财神配坐花三张组成刻子…按三台腊子胡牌"
    TaiRow("四花", TAI["四花"], D_FOUR_FLOWERS),  # 四、5 "坐花胡牌的，又杠了其他三个花牌的可计2台"
    TaiRow("坐花", TAI["坐花"], D_ZUOHUA),  # 四、3 "坐花胡牌的都可计算1台"
    TaiRow("双财神", TAI["双财神"], D_TWO_CAISHEN),  # 四、1 "两个神计一台"
    TaiRow("硬胡", TAI["硬胡"], D_HARD_WIN),  # 四、1 "胡牌时没有财神(坐花)也计一台"
    (
        SetTaiRow("字刻", TAI["字刻"], D_HONOUR_TRIPLET),  # 四、2 "坐风刻子或中发任意刻子，每个刻子均计1台"
        SetTaiRow("圈风刻", TAI["圈风刻"], D_ROUND_WIND_TRIPLET, "round_wind_triplet_tai"),
    ),
    TaiRow("混一色", TAI["混一色"], D_HALF_FLUSH),  # 四、9 "由单色及字牌…的混一色的１台"
    TaiRow(_limit("清一色"), None, D_FULL_FLUSH),  # 四、8 "由单色牌组成的顺子、刻子胡牌型，３台满贯300胡"
    TaiRow(_limit("字一色"), None, D_ALL_HONOURS),  # 四、11 "由字牌的刻子(杠)、将组成的和牌…３台满贯300胡"
    TaiRow("对对胡", TAI["对对胡"], D_ALL_TRIPLETS),  # 四、14 "由五副刻子（含杠子）加一对的胡牌１台"
    TaiRow(_limit("大四喜"), None, D_BIG_FOUR_WINDS),  # 四、10 "有东南西北风四付刻子"
    TaiRow(_limit("小四喜"), None, D_LITTLE_FOUR_WINDS),  # 四、10 "有东南西北风中有三付坎子，其中任何一对做将"
    TaiRow(_limit("清老头"), None, D_ALL_TERMINALS),  # 四、12 "全是老头牌…刻子(杠子)或对子"
    TaiRow(_limit("混老头"), None, D_TERMINALS_AND_HONOURS),  # 四、13 "每组刻子或将牌均为「字牌」或「老头牌」"
    TaiRow(_limit("四金刚"), None, D_FOUR_KINGS, "four_kings_limit"),  # "四金刚…有的地方来法算腊子"
    TaiRow(_limit("八对半"), None, D_EIGHT_PAIRS_LIMIT, "eight_pairs_limit"),  # "有的地方来法算腊子"
    TaiRow("八对半", TAI["八对半"], D_EIGHT_PAIRS),  # 四、18 "由七个对子与一个刻子组成"
    TaiRow("一条龙", TAI["一条龙"], D_PURE_STRAIGHT, "pure_straight_tai"),  # "有的地方来法算一台"
    *(TaiRow(name, value, D_APPENDIX) for name, value in APPENDIX_TAI.items()),  # 附一
    TaiRow("杠上开花", TAI["杠上开花"], D_KONG_FLOWER, "kong_replacement_tai"),  # "有的地方来法也计一台"
    TaiRow("平胡", TAI["平胡"], D_PINGHU),  # 四、16 "由五组顺子配对子…0台"
)


#: the switches of :class:`Rules` that rows of :data:`TAI_ROWS` stand behind, in the table's order
ROW_OPTIONS: Final = tuple(dict.fromkeys(r.option for row in TAI_ROWS for r in (row if isinstance(row, tuple) else (row,))
                                         if r.option))


def tai_rows(rules: Rules) -> tuple[TaiRow | tuple[SetTaiRow, ...], ...]:
    """The rows of :data:`TAI_ROWS` that count under ``rules``, in the table's order."""
    return _tai_rows(rules.appendix_hands, tuple([bool(getattr(rules, o)) for o in ROW_OPTIONS]))


@lru_cache(maxsize=64)
def _tai_rows(appendix_hands: frozenset[str], switches: tuple[bool, ...]
              ) -> tuple[TaiRow | tuple[SetTaiRow, ...], ...]:
    """:data:`TAI_ROWS` less the rows behind an option that is off (``switches``: each of
    :data:`ROW_OPTIONS` on or off) and the appendix rows not named in ``appendix_hands`` (which
    never show: a reading's appendix holds only named rows), in the table's order; a group of
    per-set rows keeps those left, in its order (each set's first fit is the same: the rows left
    out never fit)."""
    on = {o for o, v in zip(ROW_OPTIONS, switches, strict=True) if v}
    out: list[TaiRow | tuple[SetTaiRow, ...]] = []
    for row in TAI_ROWS:
        if isinstance(row, tuple):
            group = tuple(r for r in row if not r.option or r.option in on)
            if group:
                out.append(group)
        elif (not row.option or row.option in on) and (row.name not in APPENDIX_TAI or row.name in appendix_hands):
            out.append(row)
    return tuple(out)


def score_reading(sit: WinSituation, r: Reading, rules: Rules, ctx: WinnerContext | None = None) -> Score:
    """The winner's score under one reading of its hand (every row of :func:`tai_rows` asked)."""
    return _items_score(_reading_items(sit, r, rules, ctx if ctx is not None else winner_context(sit, rules),
                                       tai_rows(rules)))


#: one reading's (胡 items, 台 items, limit hands: none, or their names in order, each once) as
#: (name, value, unit) rows, before they are merged into a Score
_ReadingItems = tuple[list[tuple[str, int, str]], list[tuple[str, int, str]], list[str]]


def _items_key(found: _ReadingItems) -> tuple[int, int, int]:
    """(total, 台, 胡) of the Score :func:`_items_score` makes of ``found``, without making it."""
    hu_items, tai_items, limits = found
    if limits:
        hu = sum(v for _, v, _u in hu_items)
        tai = sum(v for _, v, _u in tai_items) + LIMIT_TAI * len(limits)
        return CAP, tai, hu
    hu = sum(v for _, v, _u in hu_items)
    tai = sum(v for _, v, _u in tai_items)
    return ceil_cap(hu << tai), tai, hu


def _items_score(found: _ReadingItems) -> Score:
    hu, tai, limits = found
    if limits:
        return _limit_score(hu + tai + [(x, LIMIT_TAI, "tai") for x in limits], tuple(limits))
    hu_total = sum(v for _, v, _u in hu)
    tai_total = sum(v for _, v, _u in tai)
    total = ceil_cap(hu_total << tai_total)
    return Score(_items(hu + tai), total, details=(
        ("hu", hu_total), ("tai", tai_total), ("limit", total >= CAP), ("others_zero", False),
        ("follow_tai", min(3, tai_total))))


def _reading_items(sit: WinSituation, r: Reading, rules: Rules, ctx: WinnerContext,
                   rows: tuple[TaiRow | tuple[SetTaiRow, ...], ...]) -> _ReadingItems:
    """The 胡 and 台 rows of one reading of a winning hand, and its limit hands; the 台 are
    asked of ``rows`` (those of :func:`tai_rows`)."""
    w, real, zuo, flower_items, special = ctx.wilds, ctx.real, ctx.zuo, list(ctx.flower_items), ctx.special
    win_idx = r.win_idx
    wait = R.wait_of(r.parts[win_idx], r.win_kind)
    # 二、二)9 and 1: a win on the replacement tile of a kong or a flower (补花) counts only 自摸 2
    kong_draw = sit.self_drawn and (sit.kong or sit.get("replacement") in ("kong", "flower"))
    hu: list[tuple[str, int, str]] = [("底胡", WINNER_BASE, "hu")]
    for m in sit.melds:
        item = _meld_item(m)
        if item is not None:
            hu.append(item)
    tiles = [R.free_tile(r, i, w.caishen_kind) for i in range(len(r.parts))]
    if rules.home_caishen_pair == "also_wild":
        # option: a pair of two 正财 at home (财神归位, 硬胡) also stands for whatever pair suits the patterns
        tiles = [None if p.kind == PAIR and p.tile is not None and p.tile == w.caishen_kind and p.wilds == 0 else t
                 for p, t in zip(r.parts, tiles, strict=True)]
    for i, p in enumerate(r.parts):
        free = tiles[i]  # p.tile, unless the part is all wilds standing for another tile
        if p.kind == TRIPLET and free is not None:
            exposed = i == win_idx and not sit.self_drawn
            hu.append(_set_item("明刻" if exposed else "暗刻", free))
        elif p.kind == PAIR and _honour_scoring(p.tile, sit.seat_wind) and R.part_wilds(r, i, w.caishen_kind) < 2:
            hu.append(PAIR_ITEM)  # not for a pair of 财神/坐花 (二、三)a "不计将胡数")
    hu.extend(flower_items)
    if sit.self_drawn:
        if kong_draw:
            bonus = KONG_REPLACEMENT_HU
        elif wait == "single" and rules.single_wait_self_draw_bonus:
            bonus = SELF_DRAWN_HU["two_sided"]
        else:
            bonus = SELF_DRAWN_HU[wait]
        if bonus:
            label = "自摸" if kong_draw else {"closed": "自摸卡档", "single": "自摸单吊"}.get(wait, "自摸")
            hu.append((label, bonus, "hu"))
    else:
        bonus = DISCARD_HU[wait]
        if not bonus and rules.edge_single_discard_bonus and wait in ("edge", "single"):
            bonus = DISCARD_HU["closed"]
        if bonus:
            hu.append(({"closed": "卡档", "edge": "边张", "single": "单吊"}[wait], bonus, "hu"))

    # --- 台: every row of TAI_ROWS this reading shows, in the table's order
    f = _ReadingFacts(sit, r, rules, w, real, zuo, tiles, wait, kong_draw)
    limits: list[str] = list(special)
    tai: list[tuple[str, int, str]] = []
    for row in rows:
        if isinstance(row, tuple):  # per-set rows: for each set, the first row it fits
            for kind, t in f.sets:
                for set_row in row:
                    if _detect_set(set_row, f, kind, t):
                        tai.append((set_row.name, set_row.value, "tai"))
                        break
        elif _detect(row, f):
            if row.value is None:
                limits.append(row.name)
            else:
                tai.append((row.name, row.value, "tai"))
    seen: list[str] = []
    for x in limits:
        if x not in seen:
            seen.append(x)
    return hu, tai, seen


def _four_winds_wilds_ok(arr: Reading, wilds_held: int) -> bool:
    """三、10 (option): a 四喜 with a wild in its wind sets needs two or more wilds held
    (坐花 counting), and no wild standing for a tile outside the wind sets."""
    in_winds = sum(p.wilds for p in arr.parts if p.tile is not None and T.is_wind(p.tile))
    elsewhere = sum(p.wilds for p in arr.parts) - in_winds
    return in_winds == 0 or (wilds_held >= 2 and elsewhere == 0)


def _appendix(sit: WinSituation, arr: Reading, sets: list[tuple[str, int]], shown: list[int],
              win_idx: int, rules: Rules) -> list[str]:
    """The 附一 rows (named in ``rules.appendix_hands``) this reading of the hand shows."""
    if not rules.appendix_hands or arr.shape != "standard":
        return []
    found: list[str] = []
    seqs = sorted(t for k, t in sets if k == SEQ)
    trips = sorted({t for k, t in sets if k == TRIPLET})
    pairs = [t for k, t in sets if k == PAIR]
    kongs = sorted(m.first for m in sit.melds if m.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG))
    exposed = [m for m in sit.melds if m.kind is not MeldKind.CONCEALED_KONG]
    concealed_trips = sum(1 for i, p in enumerate(arr.parts) if p.kind == TRIPLET and p.tile is not None
                          and not (i == win_idx and not sit.self_drawn))
    concealed_trips += sum(1 for m in sit.melds if m.kind is MeldKind.CONCEALED_KONG)

    def run_of(kinds: list[int], n: int) -> bool:
        return any(all(t + k in kinds and T.is_suited(t + k) and T.suit(t + k) == T.suit(t) for k in range(n))
                   for t in kinds if T.is_suited(t))

    if run_of(sorted(set(seqs)), 4):
        found.append("金门桥")
    if any(seqs.count(t) >= 4 for t in set(seqs)):
        found.append("四连太宝")
    if shown and set(shown) <= GREEN_TILES:
        found.append("绿一色")
    if shown and set(shown) <= RED_PEACOCK_TILES:
        found.append("红孔雀")
    if shown and set(shown) <= RED_DOTS_TILES and pairs == [T.RED]:
        found.append("点点红")
    if shown and set(shown) <= ONE_RED_TILES and pairs == [T.RED]:
        found.append("红一点")
    if not exposed:
        found.append("不求人" if sit.self_drawn else "门清")
    if len(exposed) == 5:
        found.append("半求人" if sit.self_drawn else "全求人")
    found.extend({5: ["五杠子"], 4: ["四杠子"], 3: ["三杠子"]}.get(len(kongs), []))
    found.extend({5: ["五暗刻"], 4: ["四暗刻"]}.get(concealed_trips, []))
    if run_of(trips, 5):
        found.append("五连刻")
    elif run_of(trips, 4):
        found.append("四连刻")
    if run_of(kongs, 3):
        found.append("三连杠")
    suited_kongs = {(T.suit(x), T.rank(x)) for x in kongs if T.is_suited(x)}
    if any(all((s, r) in suited_kongs for s in range(3)) for _, r in suited_kongs):
        found.append("三同杠")
    out = [n for n in found if n in rules.appendix_hands]
    dropped = {x for n in out for x in APPENDIX_EXCLUDES.get(n, ())}
    return [n for n in out if n not in dropped]


def honours_mixed(suits: set[int], honours: bool) -> bool:
    """混一色: one suit plus honours."""
    return len(suits) == 1 and honours


# ------------------------------------------------------------------ the other seats (陪家)


def score_other(concealed: Sequence[int], melds: Sequence[Meld], flowers: Sequence[int], seat_wind: int,
                w: Wilds, rules: Rules, round_wind: int = 0) -> Score:
    """Score a seat that did not win: its melds, its concealed triplets and honour pairs,
    flowers set aside; wilds count only where they turn a pair or a single into a
    triplet (财神卖兵 otherwise), and so do their 台. No base, no 硬胡/混一色/对对胡.
    The placement of the wilds is the most favourable one (what the others pay depends on it)."""
    c = T.counts(concealed)
    nat, wild_n, real = _held(c, w)
    if wild_n == 0:
        # no wild: the one placement, its 台 none of the wilds' (the search below would find it)
        return _other_score(nat, real, melds, flowers, seat_wind, w, rules, (), round_wind, 0)
    limits = copy_limits_of(melds, seat_wind, nat, rules.wild_beyond_fourth_copy == "any")
    placements = _placements(nat, wild_n, limits, rules.non_winner_single_two_wilds,
                             rules.non_winner_split_triplet)
    if len(placements) == 1:
        # the wilds have no place (∅ only): none used, so none of their 台 either (as above)
        return _other_score(nat, real, melds, flowers, seat_wind, w, rules, (), round_wind, 0)
    # Each placement is valued by its numbers alone (total, 台, 胡: what score_other_placement
    # gives), the first best in this order kept; only that one is scored in full.
    swt = T.wind_tile(seat_wind)
    hu = FLOWER_HU * len(flowers)
    tai = 0
    for m in melds:
        item = _meld_item(m)
        if item is not None:
            hu += item[1]
            tai += _triplet_tai_value(m.first, swt, round_wind, w, rules)
    for t in range(34):
        if nat[t]:
            kh, kt = _kind_value(t, nat[t], nat[t] // 3, seat_wind, swt, round_wind, w, rules)
            hu, tai = hu + kh, tai + kt
    four = four_flowers(w, flowers)
    zuo_tai = rules.non_winner_four_flowers_tai if four else TAI["坐花"]
    zuo_counts = rules.zuo_is_second_caishen or w.flower_mode
    best: tuple[int, int, int] | None = None
    best_at: tuple[tuple[tuple[int, int], ...], int] = ((), 0)
    #: (胡, 台) a kind's change from its plain triplets to ``trips``, by kind × 16 + trips
    grown: dict[int, tuple[int, int]] = {}
    for chosen, used in placements:
        p_hu, p_tai = hu, tai
        for t, trips in chosen:
            key_t = t * 16 + trips
            change = grown.get(key_t)
            if change is None:
                oh, ot = _kind_value(t, nat[t], nat[t] // 3, seat_wind, swt, round_wind, w, rules)
                nh, nt = _kind_value(t, nat[t], trips, seat_wind, swt, round_wind, w, rules)
                change = grown[key_t] = (nh - oh, nt - ot)
            p_hu, p_tai = p_hu + change[0], p_tai + change[1]
        if rules.non_winner_wild_choice == "best":
            splits = range(max(0, used - (wild_n - real)), min(real, used) + 1)
        else:
            splits = range(min(real, used), min(real, used) + 1)
        for used_real in splits:
            used_zuo = used - used_real
            s_tai = p_tai + (zuo_tai if used_zuo else 0)
            if used_real + (used_zuo if zuo_counts else 0) >= 2:
                s_tai += TAI["双财神"]
            key = (ceil_cap(p_hu << s_tai), s_tai, p_hu)
            if best is None or key > best:
                best, best_at = key, (chosen, used_real)
    if best is None:
        return Score((), 0, details=(("hu", 0), ("tai", 0)))
    return _other_score(nat, real, melds, flowers, seat_wind, w, rules, best_at[0], round_wind, best_at[1])


def _kind_value(t: int, n: int, trips: int, seat_wind: int, swt: int, round_wind: int, w: Wilds,
                rules: Rules) -> tuple[int, int]:
    """胡 and 台 of a 陪家's concealed kind ``t`` (``n`` natural tiles) made into ``trips``
    triplets, as :func:`score_other_placement` counts them (its triplets, an honour pair left)."""
    hu = tai = 0
    if trips:
        hu = trips * _set_item("暗刻", t)[1]
        tai = trips * _triplet_tai_value(t, swt, round_wind, w, rules)
    if n - 3 * trips == 2 and _honour_scoring(t, seat_wind):
        hu += PAIR_HU
    return hu, tai


def wild_cost(nat: Sequence[int], chosen: tuple[tuple[int, int], ...]) -> int:
    """Wilds a 陪家's placement ``chosen`` uses."""
    return sum(3 * m - nat[t] for t, m in chosen if 3 * m > nat[t])


def score_other_placement(concealed: Sequence[int], melds: Sequence[Meld], flowers: Sequence[int], seat_wind: int,
                          w: Wilds, rules: Rules, chosen: tuple[tuple[int, int], ...], round_wind: int = 0,
                          used_real: int | None = None) -> Score:
    """A 陪家's score with its wilds placed as ``chosen`` says (see :func:`other_placements`);
    ``used_real`` of them 正财, the rest 坐花 (default: the 正财 first, 三)f's example)."""
    nat, _, real = _held(T.counts(concealed), w)
    return _other_score(nat, real, melds, flowers, seat_wind, w, rules,
                        chosen, round_wind, used_real)


def _held(c: list[int], w: Wilds) -> tuple[list[int], int, int]:
    """A seat's natural counts (the 34, its wild kinds emptied: the winner's and the 陪家's), the wilds
    it holds and the 正财 among them, from its 42 counts ``c``: one pass over its wilds (``w.all`` is
    a set built at each call)."""
    nat = c[:34]
    real = 0
    for t in w.real:
        real += c[t]
        if t < 34:
            nat[t] = 0
    held = real
    z = w.zuo
    if z is not None and z not in w.real:
        held += c[z]
        if z < 34:
            nat[z] = 0
    return nat, held, real


def _other_score(nat: list[int], real: int, melds: Sequence[Meld], flowers: Sequence[int],
                 seat_wind: int, w: Wilds, rules: Rules, chosen: tuple[tuple[int, int], ...], round_wind: int,
                 used_real: int | None) -> Score:
    """:func:`score_other_placement` on the seat's natural counts ``nat`` and the ``real`` 正财 it
    holds."""
    swt = T.wind_tile(seat_wind)
    hu: list[tuple[str, int, str]] = []
    tai: list[tuple[str, int, str]] = []
    hu_total = tai_total = 0
    for m in melds:
        item = _meld_item(m)
        if item is not None:
            hu.append(item)
            hu_total += item[1]
            name = _triplet_tai_row(m.first, swt, round_wind, w, rules)
            if name is not None:
                tai.append(TAI_ITEMS[name])
                tai_total += TAI[name]
    if flowers:
        hu.extend([FLOWER_ITEM] * len(flowers))
        hu_total += FLOWER_HU * len(flowers)
    used = wild_cost(nat, chosen)
    if used_real is None:
        used_real = min(real, used)  # 正财 fill first; the 坐花 only where they run out (seed f)
    used_zuo = used - used_real
    # each kind's concealed triplets: the plain n // 3, or the placement's (a list by kind: compiled,
    # read natively where a dict of the choices was asked about every kind)
    triplets: list[int] | None = None
    if chosen:
        triplets = [n // 3 for n in nat]
        for t, trips in chosen:
            triplets[t] = trips
    for t in range(34):
        n = nat[t]
        if triplets is not None:
            n_trips = triplets[t]
        elif n:
            n_trips = n // 3
        else:
            continue
        if n_trips:
            item = _set_item("暗刻", t)
            name = _triplet_tai_row(t, swt, round_wind, w, rules)
            for _ in range(n_trips):
                hu.append(item)
                if name is not None:
                    tai.append(TAI_ITEMS[name])
            hu_total += n_trips * item[1]
            if name is not None:
                tai_total += n_trips * TAI[name]
        if n - 3 * n_trips == 2 and _honour_scoring(t, seat_wind):
            hu.append(PAIR_ITEM)
            hu_total += PAIR_HU
    if used_zuo:
        if four_flowers(w, flowers):
            tai.append(("四花", rules.non_winner_four_flowers_tai, "tai"))
            tai_total += rules.non_winner_four_flowers_tai
        else:
            tai.append(TAI_ITEMS["坐花"])
            tai_total += TAI["坐花"]
    if used_real + (used_zuo if rules.zuo_is_second_caishen or w.flower_mode else 0) >= 2:
        tai.append(TAI_ITEMS["双财神"])
        tai_total += TAI["双财神"]
    return Score(_items(hu + tai), ceil_cap(hu_total << tai_total), details=(("hu", hu_total), ("tai", tai_total)))


def _triplet_tai_row(t: int, swt: int, round_wind: int, w: Wilds, rules: Rules) -> str | None:
    """The 台 item a 陪家's triplet (or kong) of ``t`` scores: 字刻, 圈风刻 (option) or none."""
    if t == w.caishen_kind:
        return None
    if t in DRAGON_KINDS or t == swt:
        return "字刻"
    if rules.round_wind_triplet_tai and t == T.wind_tile(round_wind):
        return "圈风刻"
    return None


def _triplet_tai_value(t: int, swt: int, round_wind: int, w: Wilds, rules: Rules) -> int:
    name = _triplet_tai_row(t, swt, round_wind, w, rules)
    return 0 if name is None else TAI[name]


def other_placements(nat: Sequence[int], budget: int, limits: Sequence[int] = (4,) * 34,
                     single_two_wilds: bool = True, split: bool = False) -> list[tuple[tuple[int, int], ...]]:
    """Every placement of a 陪家's wilds (``budget`` of them): for each kind with ``n``
    natural tiles, ``m`` concealed triplets (each with a natural tile: 三个财神不能当独作刻子),
    using ``3m − n`` wilds, at most ``limits[kind]`` copies (see :func:`copy_limits_of`: beyond
    the fourth copy only for 中, 发 and the seat wind, 二、三)e "手中有四个红中配双财神").
    The natural tiles keep their sets: a triplet stays one, a pair takes one wild, a single two,
    and four alike may make two triplets (the fourth, or two pairs) — ``m ≤ ⌈n / 3⌉``; with
    ``split`` (option ``non_winner_split_triplet``) the wilds may also split them
    (发发发 + three wilds: 发发 + 1, 发 + 2, two 发 triplets), ``m ≤ n``.
    Without ``single_two_wilds`` (option ``non_winner_single_two_wilds``) every triplet holds
    two natural tiles (``m ≤ n // 2``).
    Returns the (kind, m) choices that differ from the plain ``n // 3`` (∅ first)."""
    return [chosen for chosen, _ in _placements(list(nat), budget, tuple(limits), single_two_wilds, split)]


def _placements(nat: list[int], budget: int, limits: tuple[int, ...], single_two_wilds: bool,
                split: bool) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """:func:`other_placements`, each with the wilds it uses (:func:`wild_cost`): every m beyond
    the plain ``n // 3`` takes ``3m − n > 0`` wilds, so a placement's cost is the sum of its
    choices' costs, carried along as the placements grow. (A list and a tuple, not sequences: read
    by index, compiled, without a generic call per read.)"""
    out: list[tuple[tuple[tuple[int, int], ...], int]] = [((), 0)]
    if budget <= 0:
        return out  # every triplet beyond the plain ones takes a wild
    for t in range(34):
        n = nat[t]
        if not n:
            continue
        top = (n if split else -(-n // 3)) if single_two_wilds else n // 2
        low = n // 3 + 1
        if low > top:
            continue
        limit = limits[t]
        grown: list[tuple[tuple[tuple[int, int], ...], int]] = []
        for chosen, used in out:
            left = budget - used
            for m in range(low, top + 1):
                cost = 3 * m - n
                if cost > left or 3 * m > limit:
                    break
                grown.append((chosen + ((t, m),), used + cost))
        out += grown
    return out


def zero_score() -> Score:
    return Score((), 0, details=(("hu", 0), ("tai", 0)))


# ------------------------------------------------------------------ money


def follow_hu(follow_tai: int, rebought: bool) -> int:
    """跟胡数 of the winner's 台 (at most 3)."""
    table = FOLLOW_HU_REBOUGHT if rebought else FOLLOW_HU
    return table[max(0, min(3, follow_tai))]


def settle_pairs(winner: int, dealer: int, totals: Sequence[int], follow: int,
                 liable: int | None = None) -> tuple[tuple[int, int, int], ...]:
    """Who pays whom in 胡, ``(payer, payee, amount)`` with amount > 0 (五、(四) "陪家付给胡家相应胡数
    的筹码，各陪家间再按各自胡数的差值付筹。庄家输赢加倍"): every loser pays the winner its total
    (double to/from the dealer) plus 跟胡数 — all of it paid by ``liable`` when a 包三家 discard was won
    on — and the losers pay each other the differences of their own totals, doubled where the dealer
    is one side. The one declaration of a won hand's money: :func:`settle_hu` is its net."""
    out: list[tuple[int, int, int]] = list(_winner_pairs(winner, dealer, totals[winner], follow, liable))
    losers = [s for s in range(4) if s != winner]
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            diff = (totals[a] - totals[b]) * (2 if dealer in (a, b) else 1)
            if diff > 0:
                out.append((b, a, diff))
            elif diff < 0:
                out.append((a, b, -diff))
    return tuple(out)


def _winner_pairs(winner: int, dealer: int, total: int, follow: int,
                  liable: int | None) -> tuple[tuple[int, int, int], ...]:
    return tuple((s if liable is None else liable, winner, (2 if dealer in (s, winner) else 1) * total + follow)
                 for s in range(4) if s != winner)


def net_of(pairs: Iterable[tuple[int, int, int]], n: int = 4) -> list[int]:
    """Each side's net change of ``(payer, payee, amount)`` payments."""
    out = [0] * n
    for payer, payee, amount in pairs:
        out[payer] -= amount
        out[payee] += amount
    return out


def settle_hu(winner: int, dealer: int, totals: Sequence[int], follow: int) -> list[int]:
    """Per-seat change in 胡 (the net of :func:`settle_pairs`): every loser pays the winner
    (double to/from the dealer) plus 跟胡数; the losers settle the differences of their own
    totals among themselves, doubled where the dealer is one side."""
    return net_of(settle_pairs(winner, dealer, totals, follow))


def false_win_chips(seat: int, dealer: int) -> tuple[int, int, int, int]:
    """诈胡: a dealer pays 20 to each seat; anyone else pays the dealer 20 and the others 10."""
    out = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            continue
        if seat == dealer:
            pay = FALSE_WIN_CHIPS["dealer_pays_each"]
        else:
            pay = FALSE_WIN_CHIPS["to_dealer"] if s == dealer else FALSE_WIN_CHIPS["to_other"]
        out[s] += pay
        out[seat] -= pay
    return (out[0], out[1], out[2], out[3])


# ------------------------------------------------------------------ 三财神吊字牌 and 包三家


def three_wild_honour_wait(sit: WinSituation, mode: str, rules: Rules) -> str | None:
    """三财神吊字牌 (四、e): why a win on a discard by a seat holding two 正财 and its 坐花 is
    诈胡, or None. ``false_win`` (the seed's rule): the seat let a win pass this hand and now
    wins on a discarded 中, 发 or its own wind (the 3-台 honour triplet it waited for).
    ``honour_only`` (有的来法): with such a hand only those honours may be won on a discard.
    A self-drawn win is always allowed; so is 三财神 itself."""
    if mode == "off" or sit.self_drawn:
        return None
    w = wilds_of(sit)
    c = T.counts(sit.concealed)
    real = sum(c[t] for t in w.real)
    zuo = c[w.zuo] if w.zuo is not None else 0
    if real < 2 or zuo < 1 or _three_caishen(real, zuo, w, rules):
        return None
    honours = (T.GREEN, T.RED, T.wind_tile(sit.seat_wind))
    held = "two 财神 + 坐花"
    if mode == "false_win" and sit.win_tile in honours and sit.get("declined_win"):
        return f"{held}: let a win pass, then won on a discarded {T.name(sit.win_tile)} (三财神吊字牌, 诈胡)"
    if mode == "honour_only" and sit.win_tile not in honours:
        base = T.counts(sit.concealed)
        n_melds = len(sit.melds)
        for h in honours:
            if h in w.all:
                continue
            base[h] += 1
            ok = complete(base, n_melds, w.all, rules)
            base[h] -= 1
            if ok:
                return f"{held}: only 中, 发 or the seat wind may be won on a discard, not {T.name(sit.win_tile)}"
    return None


def liable_discard(tile: int, hand: Sequence[int], seat_wind_tile: int, wind_is_wild: bool,
                   discarded: Sequence[int], melds: Sequence[Sequence[Meld]], before_seabed: int,
                   window: int) -> str | None:
    """包三家 (四、a–c): in the last ``window`` live draws before the seabed, a single 中 or 发 is
    discarded while the seat should have let go another tile first. Returns the rule or None.

    * ``seat_wind_first`` (a): the seat also holds a single of its own wind, and nobody has
      a pon/kong of the discarded dragon;
    * ``seen_dragon_first`` (b, c): the seat also holds a single of the other dragon, which
      was discarded earlier this hand, while the discarded one was not."""
    if window <= 0 or before_seabed > window or tile not in DRAGON_KINDS or hand[tile] != 1:
        return None
    melded = {m.first for ms in melds for m in ms if m.kind is not MeldKind.CHI}
    if hand[seat_wind_tile] == 1 and not wind_is_wild and tile not in melded:
        return "seat_wind_first"
    other = T.RED if tile == T.GREEN else T.GREEN
    if hand[other] == 1 and discarded[other] > 0 and discarded[tile] == 0:
        return "seen_dragon_first"
    return None


def liability_transfer(hu: Sequence[int], winner: int, liable: int, dealer: int, total: int,
                       follow: int) -> list[int]:
    """The liable discarder pays the winner what each other loser would have paid (包三家);
    the losers' settlement among themselves stays as it was (陪家间另算)."""
    moved = net_of(_winner_pairs(winner, dealer, total, follow, liable))
    kept = net_of(_winner_pairs(winner, dealer, total, follow, None))
    return [h + m - k for h, m, k in zip(hu, moved, kept, strict=True)]


def with_seat(items: Iterable[ScoreItem], seat: int) -> tuple[ScoreItem, ...]:
    return tuple(ScoreItem(i.name, i.value, i.count, i.unit, seat) for i in items)
