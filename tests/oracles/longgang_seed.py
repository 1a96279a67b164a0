"""A second, independent reading of 龙港麻将 scoring, straight from the seed text.

Source: ../shared/seeds/000_9ad7a1daf589f000.txt (cited below by its own section
numbers), with the defaults of ../shared/spec/rules-longgang.md where the seed offers
choices. It imports nothing from the project: it is the thing the engine is checked
against (tests/test_longgang_oracle.py, ``python -m tests.oracles.compare_longgang``).

Input: one ``score`` situation (the JSON object of docs in ../shared/spec/score-cli.md,
with ``ruleset_fields.indicator`` and optionally ``role: "other"`` for a 陪家).
Output: :class:`Verdict` — the best total, and every (胡, 台) breakdown that reaches it.

Speed is secondary: every placement of every wild tile is enumerated (any kind, its own
kind included — 财神归位 — and beyond the fourth copy, as 三)e allows: "如手牌已碰红中,
再胡红中配两财神，计3台" needs a fifth and sixth 中).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

# --------------------------------------------------------------------------- tiles
# kinds 0-8 m, 9-17 p, 18-26 s, 27-30 E S W N (1z-4z), 31 白 (absent), 32 发 (6z), 33 中 (7z)
WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}
FA, ZHONG, BAI = 32, 33, 31
# 一、A)5) "花牌：春、夏、秋、冬四张。相对应的是庄家、南风家、西风家、北风家": 1f..4f by seat wind.
SEAT_FLOWER = {"E": "1f", "S": "2f", "W": "3f", "N": "4f"}
# 一、A)4) "共有东、南、西、北、中、发六种" (6)"龙港麻将无白板"): wilds never become 白.
JOKER_KINDS = tuple(k for k in range(34) if k != BAI)


def kind(text: str) -> int:
    n, s = int(text[0]), text[1]
    if s in "mps" and 1 <= n <= 9:
        return "mps".index(s) * 9 + n - 1
    if s == "z" and 1 <= n <= 7:
        return 26 + n
    raise ValueError(f"{text!r} is not a suited or honour tile")


def name(k: int) -> str:
    return f"{k % 9 + 1}{'mps'[k // 9]}" if k < 27 else f"{k - 26}z"


def is_big(k: int) -> bool:
    """一、A)7) "老头牌与字牌合称为么九牌俗称大子": 1, 9 and honours."""
    return k >= 27 or k % 9 in (0, 8)


def suit(k: int) -> int:
    return k // 9 if k < 27 else 3


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class Options:
    """Readings where the seed (or the spec against it) can be read two ways.

    The defaults are this oracle's reading; the comparison script re-scores a
    disagreeing hand with each alternative to name the cause."""

    # 四、9 混一色 "（无财神２台，1财神1台，花财２台，2财神2台…）" and 四、14 对对胡 likewise:
    # read as totals that already include the 财神 item (硬胡 / 坐花 / 两财神), so the
    # pattern itself is 1台; the check is "不含财神…的对对胡兼混一色为三台" = 1 + 1 + 硬胡 1.
    # True: the spec's reading "混一色 1 (2 without wilds)", on top of 硬胡.
    pattern_two_when_hard: bool = False
    # 四、1 "两个神计一台": two real 财神. True: 坐花 + one 财神 is also "two" (四、3 "坐花与正财1台").
    flower_is_second_wild: bool = False
    # 四、1 both "两个神计一台" and "没有财神…也计一台" when two 财神 sit in their own place.
    # True: a hand whose wilds are all 归位 is "no wild", so 两财神 is not added.
    restored_not_two_wilds: bool = False
    # 八对半: every 中/发/坐风 pair scores 2 (一、C) "中，发，坐风对子的计２胡"). False: only one (the 将).
    eight_pairs_every_value_pair: bool = True
    # 陪家: a pair of 中/发/坐风 of real tiles scores 2 (spec "pair of 中…: 2" for every seat).
    other_value_pair: bool = True
    # 二、二)1 "单吊自摸的不计自摸2胡" (default) vs "（现习惯上来法也有计4胡的）".
    single_wait_self_draw_bonus: bool = False
    # 二、二)3 "（龙港来法靠壁（边张）、单吊不计2胡，但有的地方也计2户…）".
    edge_single_discard_bonus: bool = False
    # A drawn wild completes the hand wherever it is placed: its place in the chosen
    # reading decides the wait ("position"). Alternative: "two" (a drawn wild is a plain
    # self-draw, 2 胡).
    drawn_wild_wait: str = "position"
    # 陪家: 三)f's example "坐花，两个财神，红中…只算红中刻8…计2台" makes a triplet of one real
    # tile and two wilds, against 一、A)2) "两个财神或坐花配一张牌可视为暗刻胡，非胡牌者不行"
    # (the spec: wilds only turn a pair into a triplet). True: the example's reading.
    other_single_two_wilds: bool = False
    # 陪家: 两财神 / 坐花 台 count for wilds held even when 卖兵 (五、(二)4 B's example
    # counts 红中刻, 坐花 and 双财神 with one 红中 and three wilds). False: 三)f "财神作废".
    other_wild_tai_when_held: bool = False
    # 陪家: a wild may join two of a real triplet (the third left over) to use up a wild.
    # False: a real triplet stays one; wilds only complete pairs (spec wording).
    other_split_triplet: bool = False
    # 陪家: the seat picks which wild completes a pair (坐花 or 财神), as is best for it.
    # True: 财神 are used before the 坐花 (the engine's apparent order).
    other_cai_first: bool = False
    # 二、二)9 "开杠或补花时，用杠尾摸的那张牌（岭上牌）而和牌，只计自摸2胡，有的地方来法也计一台":
    # read as "counts as a self-draw (not an extra 台)", the wait bonus as usual.
    # Default: the literal reading, 2 胡 whatever the wait (卡档 not 4, 单吊 2), as issue 12
    # cause 6 asks. False: "counts as a self-draw", the wait bonus as usual.
    replacement_always_two: bool = True
    # 二、三)e "如手牌已碰红中（青发，坐风同理）,再胡红中配两财神…（或手中有四个红中配双财神也计3台）":
    # a wild may stand for a fifth (sixth) copy. Default: of any kind (the wild is any tile,
    # 三)a "财神可以用来代替其他所有的牌"). False: only 中, 发 and the seat wind, the kinds 三)e names.
    fifth_copy_any: bool = True


DEFAULT = Options()

# --------------------------------------------------------------------------- result


@dataclass(frozen=True)
class Verdict:
    valid: bool
    total: int = 0
    limit: bool = False
    others_zero: bool = False
    follow_tai: int = 0
    # every (胡, 台) reaching the best (total, follow_tai); 胡 includes the winner's 20.
    breakdowns: frozenset = field(default_factory=frozenset)
    error: str = ""
    example: tuple = ()  # one best reading, for messages


# --------------------------------------------------------------------------- decomposition
# A group is (type, members, meld); members are (kind, source) with source "r" (a real
# tile of that kind) or "j" (a wild standing for that kind); meld None = in hand.


def _all_joker_sets() -> list:
    out = [("tri", ((k, "j"),) * 3) for k in JOKER_KINDS]
    for s in range(3):
        for r in range(7):
            b = s * 9 + r
            out.append(("seq", ((b, "j"), (b + 1, "j"), (b + 2, "j"))))
    return out


_JOKER_SETS = _all_joker_sets()
_JOKER_PAIRS = [("pair", ((k, "j"), (k, "j"))) for k in JOKER_KINDS]


def _fill_jokers(j: int, sets: int, pair: int) -> Iterator[tuple]:
    if j != 3 * sets + 2 * pair:
        return
    if sets == 0 and pair == 0:
        yield ()
        return
    if pair:
        for p in _JOKER_PAIRS:
            for rest in _fill_jokers(j - 2, sets, 0):
                yield (p, *rest)
        return
    for s in _JOKER_SETS:
        for rest in _fill_jokers(j - 3, sets - 1, 0):
            yield (s, *rest)


def _standard(counts: list, j: int, sets: int, pair: int, tris_only: bool = False) -> Iterator[tuple]:
    """三、4 "将手中的牌凑成五组顺子或刻子或杠子，再加上一对" — with wilds as any tile
    (三)a "财神可以用来代替其他所有的牌"). ``tris_only``: pairs and triplets only (八对半)."""
    k = next((i for i in range(34) if counts[i]), None)
    if k is None:
        yield from _fill_jokers(j, sets, pair)
        return
    if sum(counts) + j != 3 * sets + 2 * pair:
        return
    c = counts[k]
    if pair:
        for real in (2, 1):
            if c >= real and j >= 2 - real:
                counts[k] -= real
                g = ("pair", ((k, "r"),) * real + ((k, "j"),) * (2 - real))
                for rest in _standard(counts, j - 2 + real, sets, pair - 1, tris_only):
                    yield (g, *rest)
                counts[k] += real
    if sets:
        for real in (3, 2, 1):
            if c >= real and j >= 3 - real:
                counts[k] -= real
                g = ("tri", ((k, "r"),) * real + ((k, "j"),) * (3 - real))
                for rest in _standard(counts, j - 3 + real, sets - 1, pair, tris_only):
                    yield (g, *rest)
                counts[k] += real
        if k < 27 and not tris_only:
            r = k % 9
            for off in (0, 1, 2):
                start = k - off
                if r - off < 0 or r - off + 2 > 8:
                    continue
                yield from _seq_from(counts, j, sets, pair, start, off, tris_only)


def _seq_from(counts, j, sets, pair, start, off, tris_only):
    # members below k are wilds (every lower real tile is used up); k itself is real;
    # members above k are real or wild (both tried).
    choices = []
    for p in range(3):
        kd = start + p
        if p < off:
            choices.append(("j",))
        elif p == off:
            choices.append(("r",))
        else:
            choices.append(("r", "j") if counts[kd] else ("j",))
    for a in choices[0]:
        for b in choices[1]:
            for c in choices[2]:
                src = (a, b, c)
                need_j = src.count("j")
                if need_j > j:
                    continue
                if any(s == "r" and counts[start + p] == 0 for p, s in enumerate(src)):
                    continue
                for p, s in enumerate(src):
                    if s == "r":
                        counts[start + p] -= 1
                g = ("seq", tuple((start + p, s) for p, s in enumerate(src)))
                for rest in _standard(counts, j - need_j, sets - 1, pair, tris_only):
                    yield (g, *rest)
                for p, s in enumerate(src):
                    if s == "r":
                        counts[start + p] += 1


def _eight_pairs(counts: list, j: int, pairs: int, tri: int) -> Iterator[tuple]:
    """三、5 A "(选用)11、11、11、11、11、11、11、111（八对半）"; 四、18 "4张同样的牌可视作2对"."""
    k = next((i for i in range(34) if counts[i]), None)
    if k is None:
        if j != 2 * pairs + 3 * tri:
            return
        if pairs == 0 and tri == 0:
            yield ()
            return
        if tri:
            for kk in JOKER_KINDS:
                for rest in _eight_pairs(counts, j - 3, pairs, 0):
                    yield (("tri", ((kk, "j"),) * 3), *rest)
            return
        for kk in JOKER_KINDS:
            for rest in _eight_pairs(counts, j - 2, pairs - 1, 0):
                yield (("pair", ((kk, "j"),) * 2), *rest)
        return
    if sum(counts) + j != 2 * pairs + 3 * tri:
        return
    c = counts[k]
    if pairs:
        for real in (2, 1):
            if c >= real and j >= 2 - real:
                counts[k] -= real
                g = ("pair", ((k, "r"),) * real + ((k, "j"),) * (2 - real))
                for rest in _eight_pairs(counts, j - 2 + real, pairs - 1, tri):
                    yield (g, *rest)
                counts[k] += real
    if tri:
        for real in (3, 2, 1):
            if c >= real and j >= 3 - real:
                counts[k] -= real
                g = ("tri", ((k, "r"),) * real + ((k, "j"),) * (3 - real))
                for rest in _eight_pairs(counts, j - 3 + real, pairs, tri - 1):
                    yield (g, *rest)
                counts[k] += real


# --------------------------------------------------------------------------- situation


@dataclass(frozen=True)
class Hand:
    real: tuple  # counts of real (non-wild) tiles in hand, winning tile included
    cai: int  # real 财神 in hand (tiles of the indicator's kind)
    flower: int  # 坐花 held in hand (0/1)
    melds: tuple  # groups with meld type
    win: object  # kind of the winning tile, or "cai" / "flower"
    self_drawn: bool
    seat: int  # seat-wind kind
    wild_kind: int
    flowers_aside: int  # 客花 set aside
    heavenly: bool
    earthly: bool
    other: bool  # scored as a 陪家
    kong: bool  # 杠上开花 / 补花 replacement (self-drawn) or 抢杠 (discard)


class Unsupported(ValueError):
    """A situation this oracle does not read (花财神, a 客花 held in hand)."""


def parse(sit: dict) -> Hand:
    fields = sit.get("ruleset_fields") or {}
    ind = fields.get("indicator", fields.get("wildcard_indicator"))
    if ind is None or str(ind).endswith("f"):
        raise Unsupported("no indicator or a flower indicator (花财神)")
    wk = kind(str(ind))
    sw = sit.get("seat_wind", "E")
    own = SEAT_FLOWER[sw]
    tiles = list(sit.get("concealed", []))
    if sit.get("win_tile"):
        tiles.append(sit["win_tile"])
    counts = [0] * 34
    cai = fl = 0
    for t in tiles:
        if t == own:
            fl += 1
        elif t.endswith("f"):
            raise Unsupported(f"a flower other than the 坐花 in hand: {t}")
        elif kind(t) == wk:
            cai += 1
        else:
            counts[kind(t)] += 1
    melds = []
    for m in sit.get("melds", []):
        t = m["type"]
        if t == "chi":
            ks = sorted(kind(x) for x in m["tiles"])
            melds.append(("seq", tuple((k, "r") for k in ks), "chi"))
        elif t == "pon":
            k = kind(m["tile"])
            melds.append(("tri", ((k, "r"),) * 3, "pon"))
        else:
            k = kind(m["tile"])
            melds.append(("kong", ((k, "r"),) * 4, "kong_closed" if m.get("concealed") else "kong_open"))
    w = sit.get("win_tile")
    win = None if w is None else "flower" if w == own else "cai" if kind(w) == wk else kind(w)
    return Hand(
        tuple(counts), cai, fl, tuple(melds), win, bool(sit.get("self_drawn")), WINDS[sw], wk,
        len(sit.get("flowers", [])), bool(fields.get("heavenly")), bool(fields.get("human")),
        fields.get("role") in ("other", "loser", "peijia"),
        bool(sit.get("kong")) or sit.get("replacement") in ("kong", "flower"),
    )


# --------------------------------------------------------------------------- scoring tables
# 一、C) "暗杠：小子暗杠16胡 大子暗杠32胡 明杠：小子明杠8胡 大子明杠16胡
#         暗刻：小子暗刻4胡 大子暗刻8胡 明刻：小子明刻2胡 大子明刻4胡"
FACE = {"kong_closed": (16, 32), "kong_open": (8, 16), "concealed": (4, 8), "exposed": (2, 4)}
# 二、二)4 "每杠一个花可计4胡数"
FLOWER_HU = 4
# 五、(二)1 "基础胡数 =20+ 牌面胡数（限胡牌者）"
BASE = 20
# 五、(二)2 "最高300胡"; 4 "总胡数以10胡为单位，如38胡算40胡"
CAP, UNIT = 300, 10
# 五、(三) "无台跟３０…3台跟１２０… 台数跟胡数最高3台"
FOLLOW_MAX = 3


def _round(x: int) -> int:
    return min(CAP, math.ceil(x / UNIT) * UNIT)


def _value_kinds(h: Hand) -> set:
    # 一、C) "雀头（将牌）：中，发，坐风对子的计２胡"; 四、2 "坐风刻子或中发任意刻子，每个刻子均计1台"
    return {ZHONG, FA, h.seat}


def _wait(group: tuple, pos: int) -> str:
    """二、二)7 "独听…有单吊、边张、卡挡、坎张等…按高的胡数算": the winning tile's place in
    the chosen reading (五、(一)1 the winner picks the reading)."""
    typ, mem = group[0], group[1]
    if typ == "pair":
        return "single"
    if typ == "tri":
        return "triplet"
    if pos == 1:
        return "closed"  # 卡档/坎张: "胡2张牌之间的牌"
    lo = mem[0][0] % 9
    if (pos == 2 and lo == 0) or (pos == 0 and lo == 6):
        return "edge"  # 边张: 12 waiting 3, 89 waiting 7
    return "two_sided"


def _wait_hu(w: str, h: Hand, o: Options) -> int:
    if h.self_drawn:
        # 二、二)1 "自摸卡档牌胡牌时为4胡，边牌胡牌时为2胡，自摸刻子在刻子胡数上加2胡…
        # 但单吊自摸的不计自摸2胡"
        if w == "closed":
            return 4
        if w == "single":
            return 2 if o.single_wait_self_draw_bonus else 0
        return 2
    # 二、二)3 "卡挡、坎张吃胡的牌2胡数…六、七万吃五万或八万胡牌的不计胡数
    # （龙港来法靠壁（边张）、单吊不计2胡…）"
    if w == "closed":
        return 2
    if w in ("edge", "single") and o.edge_single_discard_bonus:
        return 2
    return 0


def _winner_score(h: Hand, groups: tuple, win_at, o: Options, eight: bool):
    """(hu incl. 20, tai, limit) of one reading with the winning tile at ``win_at``."""
    vk = _value_kinds(h)
    face = FLOWER_HU * h.flowers_aside
    tai = 0
    wait = None
    if win_at is not None:
        gi, pi = win_at
        wait = _wait(groups[gi], pi)
        if wait in ("closed", "edge", "two_sided", "single", "triplet"):
            if h.self_drawn and h.kong and o.replacement_always_two:
                face += 2
            elif h.win in ("cai", "flower") and o.drawn_wild_wait != "position":
                face += 2
            else:
                face += _wait_hu(wait, h, o)
    for gi, (typ, mem, meld) in enumerate(groups):
        k = mem[0][0]
        big = is_big(k)
        if typ in ("tri", "kong"):
            if meld in ("kong_closed", "kong_open"):
                face += FACE[meld][big]
            elif meld == "pon":
                face += FACE["exposed"][big]
            elif win_at is not None and win_at[0] == gi and not h.self_drawn:
                # 二、二)2 "碰胡：碰牌成刻子的胡数，按明刻胡数算"
                face += FACE["exposed"][big]
            else:
                # 一、A)2) "暗刻中可以含财神及坐花；两个财神或坐花配一张牌可视为暗刻胡"
                face += FACE["concealed"][big]
            # 四、2 "每个刻子均计1台，如是中发坐风为财神的，不另计其刻子台数"
            if k in vk and k != h.wild_kind:
                tai += 1
        elif typ == "pair" and k in vk:
            # 三)a "如是财神坐花对作将牌，不计将胡数"; 一、B)4) "单发坐风配财神坐花成对子的，胡牌者计2胡"
            if any(s == "r" for _, s in mem):
                face += 2
    if eight and not o.eight_pairs_every_value_pair:
        extra = sum(1 for typ, mem, _ in groups if typ == "pair" and mem[0][0] in vk
                    and any(s == "r" for _, s in mem))
        face -= 2 * max(0, extra - 1)
    # 四、1 "两个神计一台，胡牌时没有财神(坐花)也计一台"
    jokers = [m for _, mem, _ in groups for m in mem if m[1] == "j"]
    restored = h.flower == 0 and all(k == h.wild_kind for k, _ in jokers)  # 三)c 财神归位
    two = h.cai == 2 or (o.flower_is_second_wild and h.cai == 1 and h.flower == 1)
    if two and not (o.restored_not_two_wilds and restored and h.cai):
        tai += 1
    if restored:
        tai += 1
    # 四、3 "坐花胡牌的都可计算1台"; 四、5 "坐花胡牌的，又杠了其他三个花牌的可计2台（坐花不再重复计台）"
    if h.flower:
        tai += 2 if h.flowers_aside == 3 else 1
    kinds = [m[0] for _, mem, _ in groups for m in mem]
    suits = {suit(k) for k in kinds}
    # 四、9 混一色 "由单色及字牌的任何牌组成"
    if len(suits) == 2 and 3 in suits:
        tai += 2 if (o.pattern_two_when_hard and restored) else 1
    # 四、14 对对胡 "由五副刻子（含杠子）加一对"
    if not eight and all(typ != "seq" for typ, _, _ in groups):
        tai += 2 if (o.pattern_two_when_hard and restored) else 1
    # limits (腊子): 五、(二)6 / 四、8-15
    limit = False
    if suits == {0} or suits == {1} or suits == {2}:
        limit = True  # 四、8 清一色 "财神可以在里面"，"含八对半型"
    if suits == {3}:
        limit = True  # 四、11 字一色
    no_seq = all(typ != "seq" for typ, _, _ in groups)
    if no_seq and not eight and all(is_big(k) for k in kinds):
        limit = True  # 四、12 清老头 / 四、13 混老头 "「对对和」且每组刻子或将牌均为「字牌」或「老头牌」"
    wind_tris = sum(1 for typ, mem, _ in groups if typ in ("tri", "kong") and 27 <= mem[0][0] <= 30)
    wind_pair = any(typ == "pair" and 27 <= mem[0][0] <= 30 for typ, mem, _ in groups)
    if not eight and (wind_tris == 4 or (wind_tris == 3 and wind_pair)):
        limit = True  # 四、10 大四喜 / 小四喜
    if h.cai == 2 and h.flower == 1:
        # 四、15 "两个正财神配坐花三张组成刻子…按三台腊子胡牌"
        if any(typ == "tri" and meld is None and all(s == "j" for _, s in mem) for typ, mem, meld in groups):
            limit = True
    return BASE + face, tai, limit


def _verdict(cands: list) -> Verdict:
    """cands: (total, follow, hu, tai, limit, reading)."""
    best = max((c[0], c[1]) for c in cands)
    top = [c for c in cands if (c[0], c[1]) == best]
    # 五、(二)6 "腊子情况：第一种是算出来的，三台满300胡" — reaching the cap is 腊子 too
    lim = any(c[4] for c in top) or best[0] >= CAP
    return Verdict(True, best[0], lim, False, best[1],
                   frozenset((c[2], c[3]) for c in top), example=top[0][5])


def _beyond_fourth(h: Hand, groups) -> bool:
    """A wild shows a fifth copy of a kind other than 中, 发 or the seat wind."""
    shown = [0] * 34
    wild_of = [False] * 34
    for _typ, mem, _meld in groups:
        for k, s in mem:
            shown[k] += 1
            wild_of[k] |= s == "j"
    return any(shown[k] > 4 and wild_of[k] and k not in _value_kinds(h) for k in range(34))


def score_winner(h: Hand, o: Options = DEFAULT) -> Verdict:
    # 四、7 "凡手牌中含用三个正财神即可马上胡牌…不必符合一般胡牌条件,三台腊子，其他人不能算胡数"
    if h.cai >= 3:
        return Verdict(True, CAP, True, True, FOLLOW_MAX, frozenset({(BASE, 3)}))
    j = h.cai + h.flower
    counts = list(h.real)
    sets = 5 - len(h.melds)
    readings = set()
    if sum(counts) + j == 3 * sets + 2:
        for r in _standard(counts, j, sets, 1):
            readings.add((tuple(sorted((t, m, None) for t, m in r)), False))
    # 三、5 A 八对半 (选用, on by default); 四、18 "由七个对子与一个刻子组成…不能有暗杠"
    if not h.melds and sum(counts) + j == 17:
        for r in _eight_pairs(counts, j, 7, 1):
            readings.add((tuple(sorted((t, m, None) for t, m in r)), True))
    if not readings:
        return Verdict(False, error="not_a_win")
    special = h.heavenly or h.earthly
    cands = []
    for groups0, eight in readings:
        groups = groups0 + h.melds
        if not o.fifth_copy_any and _beyond_fourth(h, groups):
            continue
        spots = []
        for gi, (_typ, mem, _meld) in enumerate(groups0):
            for pi, (k, s) in enumerate(mem):
                if h.win in ("cai", "flower"):
                    ok = s == "j"
                else:
                    ok = s == "r" and k == h.win
                if ok:
                    spots.append((gi, pi))
        for spot in set(spots) or {None}:
            if spot is None and h.win is not None:
                continue
            hu, tai, lim = _winner_score(h, groups, spot, o, eight)
            if lim or special:
                cands.append((CAP, FOLLOW_MAX, hu, tai, True, groups))
            else:
                cands.append((_round(hu * 2 ** tai), min(tai, FOLLOW_MAX), hu, tai, False, groups))
    if not cands:
        return Verdict(False, error="not_a_win")
    v = _verdict(cands)
    if special:
        # 四、6 "天胡，地胡，人满贯计３００胡腊子,其他三家不能算胡数"
        v = replace(v, limit=True, others_zero=True)
    return v


def score_other(h: Hand, o: Options = DEFAULT) -> Verdict:
    """A 陪家. 五、(二)3 "牌面胡数*2^台数(其它玩家）"; 三)f 财神卖兵 "对没胡牌者，财神坐花如不能
    与手牌组成刻子…财神作废，两财神不得当独作对子，三个财神不能当独作刻子"; 一、A)2)
    "两个财神或坐花配一张牌可视为暗刻胡 ，非胡牌者不行"."""
    vk = _value_kinds(h)
    base_face = FLOWER_HU * h.flowers_aside
    base_tai = 0
    for typ, mem, meld in h.melds:
        k = mem[0][0]
        big = is_big(k)
        if meld in ("kong_closed", "kong_open"):
            base_face += FACE[meld][big]
        elif meld == "pon":
            base_face += FACE["exposed"][big]
        if typ != "seq" and k in vk and k != h.wild_kind:
            base_tai += 1
    melded = [0] * 34
    for _typ, mem, _meld in h.melds:
        for k, _s in mem[:4]:
            melded[k] += 1
    kinds = [k for k in range(34) if h.real[k] >= (1 if o.other_single_two_wilds else 2)]
    # per kind: (real triplets, pair+wild triplets, value pair left)
    per_kind = []
    for k in kinds:
        c = h.real[k]
        opts = []
        for t3 in range(c // 3 + 1):
            for t2 in range((c - 3 * t3) // 2 + 1):
                two_pairs = c == 4 and t2 == 2
                # a real triplet stays a triplet: wilds only complete pairs (三)f), except
                # four alike read as two pairs (四、18 "4张同样的牌可视作2对"; 三)e for the winner)
                if t3 != c // 3 and not two_pairs and not o.other_split_triplet:
                    continue
                left = c - 3 * t3 - 2 * t2
                opts.append((t3, t2, 0, left >= 2))
                if o.other_single_two_wilds and left == 1:
                    opts.append((t3, t2, 1, False))  # a lone tile + two wilds
        per_kind.append((k, opts))
    wilds = ["c"] * h.cai + ["f"] * h.flower
    cands = []

    def walk(i: int, used: int, face: int, tai: int, pair_bonus: int) -> None:
        if i == len(per_kind):
            for n_c in range(min(used, h.cai) + 1):
                n_f = used - n_c
                if o.other_cai_first and n_c != min(used, h.cai):
                    continue
                if n_f > h.flower:
                    continue
                if o.other_wild_tai_when_held:
                    n_c, n_f = h.cai, h.flower
                t = tai
                # 四、1 "两个神计一台…没胡牌，坐花也计一台，如坐花财神卖兵的，不计台"
                if n_c == 2 or (o.flower_is_second_wild and n_c == 1 and n_f == 1):
                    t += 1
                if n_f:
                    # 四、5 四花 "没胡牌的也算2台…坐花如是财神卖兵的，则四花算0台"
                    t += 2 if h.flowers_aside == 3 else 1
                pb = pair_bonus if o.other_value_pair else 0
                f = face + pb
                cands.append((_round(f * 2 ** t), min(t, FOLLOW_MAX), f, t, False, ()))
            return
        k, opts = per_kind[i]
        for t3, t2, t1, vpair in opts:
            need = t2 + 2 * t1
            if used + need > len(wilds):
                continue
            if (not o.fifth_copy_any and need and k not in vk
                    and 3 * (t3 + t2 + t1) + melded[k] > 4):
                continue
            big = is_big(k)
            n = t3 + t2 + t1
            f = face + n * FACE["concealed"][big]
            t = tai + (n if (k in vk and k != h.wild_kind) else 0)
            pb = pair_bonus + (2 if (vpair and k in vk) else 0)
            walk(i + 1, used + need, f, t, pb)

    walk(0, 0, base_face, base_tai, 0)
    v = _verdict(cands)
    return v


def score(sit: dict, o: Options = DEFAULT) -> Verdict:
    h = parse(sit)
    if h.other:
        # 二、三)c "跟胡数仅限胡家": a 陪家 has no 跟胡数 level (the command reports 0)
        # Protocol, not scoring: `limit` is 腊子, a winner's word (五、(二)4 "胡家三台满贯称为“腊子”，
        # 陪家最高胡数亦为300胡"); a 陪家 reaching 300 is capped there, not 腊子 (docs/score-cli.md).
        v = score_other(h, o)
        return replace(v, follow_tai=0, limit=False) if v.valid else v
    return score_winner(h, o)


def agrees(v: Verdict, res: dict) -> bool:
    """Does the engine's result ``res`` (a ``score`` output line) match verdict ``v``?"""
    if not v.valid or not res.get("valid"):
        return v.valid == bool(res.get("valid"))
    if res.get("total") != v.total:
        return False
    if "follow_tai" in res and res["follow_tai"] != v.follow_tai:
        return False
    if "limit" in res and bool(res["limit"]) != v.limit:
        return False
    if v.limit:
        return bool(res.get("others_zero")) == v.others_zero
    return (res.get("hu"), res.get("tai")) in v.breakdowns
