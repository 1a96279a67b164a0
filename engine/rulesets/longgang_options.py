"""The options of ruleset ``longgang`` (龙港麻将): :class:`LonggangOptions`, one field per rule
the seed leaves to the table (有的地方 …, 选用), each with its default, help and seed passage.

A module of its own that stays Python when the engine is compiled (mahjong_audit/accel.py): option
parsing (``Ruleset.parse_options``), the rules pages' option tables and the re-checks read the
fields' ``Literal[...]`` hints, which a compiled dataclass loses. The ruleset
(:mod:`mahjong_audit.engine.rulesets.longgang`) is compiled and imports the class from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mahjong_audit.engine.ruleset import OptionError
from mahjong_audit.engine.rulesets import longgang_draws as D
from mahjong_audit.engine.rulesets import longgang_score as S


def _opt(default: Any, help: str, choices: Any = None, *, seed: str) -> Any:
    """An option: its default, what it changes (``help``), the members a set of it may hold
    (``choices``) and the passage of seed 000 it comes from (``seed``)."""
    metadata: dict[str, Any] = {"help": help, "seed": seed}
    if choices is not None:
        metadata["choices"] = tuple(choices)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class LonggangOptions:
    """Options of 龙港麻将. Each default is the seed's 龙港 rule; each option is an
    alternative the seed names (有的地方 …, 选用)."""

    dead_wall: Literal[20, 21] = _opt(
        20, "tiles never drawn at the back of the wall (王牌): 20 or 21. With 21 and seabed_replacement "
            "'seed', the 21st is the reserve a replacement owed at the 河底 tile or the one before it takes",
        seed='二、6 a "王牌一般不能摸，如王牌有21张时，遇海底牌前补花杠时，可补牌岭尾的单张"')
    seabed_replacement: Literal["seed", "shorten"] = _opt(
        "seed", "a flower/kong replacement owed at the 河底 tile or the one before it (二、一)6 e): seed — one "
                "replacement, kept without a discard, the other seats share the three seabed tiles left; "
                "shorten — an ordinary replacement and discard, the seabed one tile shorter",
        seed='二、6 e "分张前补花补杠：（Ⅰ）分张前摸进河底牌刚好是花牌、杠牌或打出这手牌（不一定就是这张牌）有人开大明杠，需补花，补杠"')
    eight_pairs: bool = _opt(True, "八对半 (7 pairs + 1 triplet, concealed, no kong) is a winning shape (选用)",
        seed='三、5 A "(选用)11、11、11、11、11、11、11、111（八对半）"')
    eight_pairs_limit: bool = _opt(False, "八对半 is a limit hand (腊子) (有的地方来法算腊子)",
        seed='四、18 八对半 "有的地方来法算腊子"')
    single_wait_self_draw_bonus: bool = _opt(
        False, "a self-drawn single wait (单吊) also gets the 2 胡 self-draw bonus (现习惯上也有计4胡的)",
        seed='二、二)1 "但单吊自摸的不计自摸2胡，如单吊红中胡牌的，不计4胡，只计红中雀头2胡（现习惯上来法也有计4胡的）"')
    edge_single_discard_bonus: bool = _opt(
        False, "on a discard, an edge (边张) or single (单吊) wait gets 2 胡 like a closed wait (有的地方也计2胡)",
        seed='二、二)3 "龙港来法靠壁（边张）、单吊不计2胡，但有的地方也计2户"')
    kong_replacement_tai: bool = _opt(False, "a win on the replacement tile of a kong or a flower (杠上开花, 补花) adds 1 台 (有的地方来法也计一台)",
        seed='二、二)9 "用杠尾摸的那张牌（岭上牌）而和牌，只计自摸2胡，有的地方来法也计一台"')
    round_wind_triplet_tai: bool = _opt(False, "a triplet of the round wind (圈风刻) adds 1 台 (龙港来法不计)",
        seed='四、2 "与圈风相同的风刻…龙港来法不计台数"')
    pure_straight_tai: bool = _opt(False, "一条龙 (123 456 789 of one suit) adds 1 台 (选用)",
        seed='四、17 一条龙 "（选用、有的地方来法算一台）"')
    human_win: bool = _opt(False, "人胡 (a non-dealer wins by self-draw in the first go-round) is a limit hand "
                                  "(龙港玩法没有人胡)",
        seed='四、6 "人和：从庄家打第一张牌算起，还不过一轮的情况下有玩家报胡的胡牌行为，牌型不限.（龙港玩法没有人胡）"; 三、5 B "人胡（(选用)第一巡内）"')
    four_kings_limit: bool = _opt(False, "四金刚 (3 honour triplets + honour pair, or 4 honour triplets) is a "
                                         "limit hand (有的地方来法算腊子)",
        seed='四、11 四金刚 "牌面中由有三组字牌是刻子和一对其他字牌或四组字牌刻子称之为四金刚…有的地方来法算腊子"')
    wild_pair_robbing: bool = _opt(True, "robbing a kong with a single wait paired by a wild is allowed "
                                         "(有的地方禁止)",
        seed='二、二)6 "有的地方抢杠时不允许用一个“财神”和被抢牌形成一对“将”，单吊抢杠被禁止"; 二、三)d "包括单吊抢杠，此役有的地方是禁止的"')
    three_caishen: Literal[3, 4] = _opt(3, "wilds held that win at once (推土机): 3 正财; 4 = four wilds "
                                          "counting 坐花 (玩法辣子要4个财神)",
        seed='四、7 推土机 "凡手牌中含用三个正财神即可马上胡牌…(玩法辣子要４个财神)"')
    non_winner_four_flowers_tai: Literal[1, 2] = _opt(
        2, "台 of 坐花 + the other three flowers for a non-winner (有的地方没胡只算坐花一台)",
        seed='四、5 四花 "没胡牌的也算2台（有的地方没胡倒只能算坐花一台）"')
    rebought: bool = _opt(False, "use the 跟胡数 after a seat went broke and re-bought (断筹): 50/100/150/200 "
                                 "(a log recording chips switches to them by itself after the first 断子)",
        seed='五、(三) 跟胡数 "括号内是五人或四人来时断筹后加筹跟胡数，当盘筹子断或刚好为零则下盘开始按括号内的数字跟胡"')
    broke_rebuy: bool = _opt(True, "the first player to go broke (断子) re-buys once (加筹: 100 子 at five, 50 at "
                                   "four) and the game goes on; false: the first 断子 ends the game "
                                   "(也有断子不加筹立即结束的)",
        seed='五、(三) "也有断子不加筹立即结束的，事先约定好即可。加筹：一人断子时，五人来法此人加筹一局子（100子），四人来法此人加筹半局子（50子）"')
    short_order: Literal["payer", "winner"] = _opt(
        "payer", "a payer short of chips (不够者付给胡牌者优先，再按逆时针顺序,以断筹为限) pays the winner first, then "
                 "the others in turn order counted from the payer's seat (payer) or from the winner's (winner)",
        seed='五、(三) "不够者付给胡牌者优先，再按逆时针顺序,以断筹为限，筹码不够的部分不需下圈加筹补齐"')
    false_win_short: Literal["capped", "full"] = _opt(
        "capped", "a 诈胡 paid at the end of the game (诈胡者在牌局结束后出钱给各家) by a player short of chips: capped "
                  "at what it holds ((加筹后)牌局结束时筹码不够数，…以断筹为限，少不补); full: paid in full, below zero "
                  "if need be",
        seed='五、g "诈胡者在牌局结束后出钱给各家"; 五、(三)c "(加筹后)牌局结束时筹码不够数，付给胡牌者优先，以断筹为限，少不补"')
    three_wild_honour_wait: Literal["false_win", "honour_only", "off"] = _opt(
        "false_win", "三财神吊字牌: a seat holding two 正财 + 坐花 that let a win pass and then wins on a "
        "discarded 中/发/seat wind commits 诈胡 (false_win); honour_only: in that hand only such a discard may "
        "be won on (有的来法); off: no rule",
        seed='二、四)e "三财神吊字牌…此役禁止，若发生以诈胡论，若是自摸胡是可以的。（此种情况有的来法是只可胡字牌，非字牌不能胡，自摸胡是可以的）"')
    liability_window: int = _opt(
        4, "包三家: a wrong 中/发 discard that is won on makes the discarder pay for all three when it follows one "
           "of the last N live draws before the seabed (分张前几张: the 河底 tile and the N-1 before it); 0 turns "
           "the rule off",
        seed='二、四)a–c "行牌至最后阶段（分张前几张）…若打出红中或青发被别家胡牌，要包三家筹码"')
    four_winds_wild_restriction: bool = _opt(
        False, "大/小四喜 with a wild in its wind sets needs two or more wilds and no wild elsewhere "
               "(现在习惯上不作此限制)",
        seed='四、10 "如四喜中有一个是财神，那么财神必须有两个以上（含坐花），而且财神不能顶替其他牌，现在习惯上不作此限制"')
    zuo_is_second_caishen: bool = _opt(
        True, "双财神 (1 台) also for the 坐花 + one 正财 (四、3 \"坐花与正财1台\"); false: only two 正财 "
              "(四、1 \"两个神计一台\"), the 坐花 scoring its own 台",
        seed='四、3 "坐花与正财1台"; 四、1 "两个神计一台"')
    wild_beyond_fourth_copy: Literal["value_honours", "any"] = _opt(
        "any", "kinds a wild may stand for as a fifth (or sixth) copy: any — every kind (三)a \"财神可以用来代替其他所有"
               "的牌\"; the seed forbids none, so the default accuses no one); value_honours — only 中, 发 and the "
               "seat wind, the kinds 二、三)e shows (the stricter reading)",
        seed='二、三)a "财神可以用来代替其他所有的牌"; 二、三)e "如手牌已碰红中（青发，坐风同理）,再胡红中配两财神，计3台，（或手中有四个红中配双财神也计3台）"')
    non_winner_single_two_wilds: bool = _opt(
        True, "陪家: one natural tile and two wilds make a triplet (三)f's example \"坐花，两个财神，红中…只算红中刻8\"); "
              "false: every triplet of a 陪家 holds two natural tiles (一、A)2) \"两个财神或坐花配一张牌可视为暗刻胡，"
              "非胡牌者不行\")",
        seed="一、A)2) \"两个财神或坐花配一张牌可视为暗刻胡，非胡牌者不行\"; 二、三)f's example \"坐花，两个财神，红中，则牌面胡数只算红中刻8\"")
    non_winner_wild_choice: Literal["caishen_first", "best"] = _opt(
        "caishen_first", "陪家: which wilds fill its triplets: caishen_first — the 正财, the 坐花 only when they run "
                         "out (三)f's example counts 2 台 for 坐花 + two 财神 + 中); best — whichever scores more",
        seed="二、三)f's example (坐花 + 两个财神 + 红中: 2 台); 五、(一)1 \"和牌者可以自由选择最有利的牌形来计分\" (said of the winner)")
    non_winner_split_triplet: bool = _opt(
        False, "陪家: wilds may split the natural tiles of a kind into more triplets (发发发 + two 正财 + 坐花: 发发 + "
               "财, 发 + 财 + 坐花, two 发 triplets); false — a natural triplet stays one, a pair takes one wild, a "
               "single two, and only four alike make a second triplet (二、三)e \"或手中有四个红中配双财神也计3台\")",
        seed='二、三)e "或手中有四个红中配双财神也计3台"; 二、三)f "对没胡牌者，财神坐花如不能与手牌组成刻子，这种情况称为财神当兵"')
    home_caishen_pair: Literal["own_kind", "also_wild"] = _opt(
        "own_kind", "a winner's pair of two 正财 standing for their own kind (财神归位, 二、三)c \"财神归位:是指财神代替本身"
                    "那张牌胡牌\"; 四、18 \"无财神或者财神归位，称为硬八对\"): own_kind — a pair of that kind: 硬胡, and "
                    "its suit counts for 混一色/清一色 (one reading per hand, 五、(一)1 \"仅可按一个牌形计分\"; 四、9 "
                    "\"2财神2台\"); also_wild — 硬胡, and for the patterns a pair of whatever suits the hand (混一色…)",
        seed='二、三)c "财神归位:是指财神代替本身那张牌胡牌"; 四、18 "无财神或者财神归位，称为硬八对"; 五、(一)1 "仅可按一个牌形计分"')
    appendix_hands: frozenset[str] = _opt(
        frozenset(), "the rare hands of the seed's 附一 that count (有此地方玩法算腊子): any of "
                     + ", ".join(S.APPENDIX_TAI), choices=S.APPENDIX_TAI,
        seed='附一 "一些极难之番役，有此地方玩法算腊子"')
    abortive_draws: frozenset[str] = _opt(
        frozenset(), "abortive draws (流局 before the wall runs out) played (有的地方玩流局): any of "
                     + ", ".join(f"{k} ({v[0]})" for k, v in D.ABORTIVE_DRAWS.items()), choices=D.ABORTIVE_DRAWS,
        seed='二、6 d "四同风、四杠、三炮同响有的地方玩流局"; 三、3 d "有的地方三家连胡(一炮三响)，九么九和"')

    def check(self) -> None:
        if self.eight_pairs_limit and not self.eight_pairs:
            raise OptionError("eight_pairs_limit needs eight_pairs")
        if self.liability_window < 0:
            raise OptionError("liability_window: expected 0 or more")
        unknown = sorted(set(self.appendix_hands) - set(S.APPENDIX_TAI))
        if unknown:
            raise OptionError(f"appendix_hands: unknown {', '.join(unknown)} (known: {', '.join(S.APPENDIX_TAI)})")
        unknown = sorted(set(self.abortive_draws) - set(D.ABORTIVE_DRAWS))
        if unknown:
            raise OptionError(f"abortive_draws: unknown {', '.join(unknown)} (known: {', '.join(D.ABORTIVE_DRAWS)})")

    def rules(self) -> S.Rules:
        return S.Rules(
            eight_pairs=self.eight_pairs, eight_pairs_limit=self.eight_pairs_limit,
            single_wait_self_draw_bonus=self.single_wait_self_draw_bonus,
            edge_single_discard_bonus=self.edge_single_discard_bonus,
            kong_replacement_tai=self.kong_replacement_tai, round_wind_triplet_tai=self.round_wind_triplet_tai,
            pure_straight_tai=self.pure_straight_tai, human_win=self.human_win,
            four_kings_limit=self.four_kings_limit, wild_pair_robbing=self.wild_pair_robbing,
            three_caishen=self.three_caishen, non_winner_four_flowers_tai=self.non_winner_four_flowers_tai,
            four_winds_wild_restriction=self.four_winds_wild_restriction,
            appendix_hands=frozenset(self.appendix_hands),
            zuo_is_second_caishen=self.zuo_is_second_caishen,
            wild_beyond_fourth_copy=self.wild_beyond_fourth_copy,
            non_winner_single_two_wilds=self.non_winner_single_two_wilds,
            non_winner_wild_choice=self.non_winner_wild_choice,
            non_winner_split_triplet=self.non_winner_split_triplet,
            home_caishen_pair=self.home_caishen_pair,
        )


__all__ = ["LonggangOptions"]
