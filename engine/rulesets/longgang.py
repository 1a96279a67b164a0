"""Ruleset ``longgang``: 龙港麻将 (Wenzhou; 16-tile hands, 财神 wild tiles). See docs/rules/longgang.md.

The play rules are class attributes read by the generic replay (engine/replay.py); the
scoring tables and functions live in :mod:`mahjong_audit.engine.rulesets.longgang_score`.

API for callers (the auditor, the ``score`` command, the simulator):

* ``Longgang(options)`` — ``options`` is a mapping (validated, unknown keys rejected) or
  a :class:`LonggangOptions`.
* :meth:`Longgang.wild_tiles` / :meth:`Longgang.flower_kept` — which tiles a seat holds as
  wilds, and which flowers stay in hand instead of being set aside.
* :meth:`Longgang.is_complete` — fast shape test; :meth:`Longgang.score_win` — the
  winner's breakdown (raises NotAWin); :meth:`Longgang.score_seat` — any seat at the end.
* :meth:`Longgang.settle` — chips of a won hand; :meth:`Longgang.false_win_penalty`.
* :meth:`Longgang.instant_win` — 三财神, declarable at any moment.
* :meth:`Longgang.abortive_draw` — the abortive draws of option ``abortive_draws``
  (:mod:`mahjong_audit.engine.rulesets.longgang_draws`), asked by the replay only when one is enabled.

A :class:`~mahjong_audit.engine.hand.WinSituation` for this ruleset carries in ``extra``:
``indicator`` (the flipped tile, int or name) — or ``wildcards`` (the 财神 tiles) and
optionally ``seat_flower`` (a tile, or false) — plus the replay's ``heavenly`` (天胡),
``human`` (won on the dealer's first discard: 地胡), ``earthly`` / ``first_round_discards``
(人胡, option only), ``declined_win`` (三财神吊字牌) and ``liable`` (包三家, from
:meth:`Longgang.discard_extra`).
``role: "other"`` scores the standing tiles (``concealed`` + ``win_tile``) as a non-winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import KEY_SHIFT
from mahjong_audit.engine.hand import Meld, Score, WinSituation
from mahjong_audit.engine.ruleset import (
    DiscardContext,
    HandEnd,
    Ruleset,
    Settlement,
    TableView,
    mypyc_attr,
)
from mahjong_audit.engine.rulesets import longgang_chips as C
from mahjong_audit.engine.rulesets import longgang_draws as D
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets import longgang_waits as W
from mahjong_audit.engine.rulesets.longgang_options import LonggangOptions
from mahjong_audit.engine.situation_check import FieldSpec

if TYPE_CHECKING:
    from mahjong_audit.engine.replay import SeatState


def liability_draw(drawable_left: int, seabed: int) -> int:
    """Where a discard stands in 包三家's window (四、a–c "行牌至最后阶段（分张前几张）"): the live
    draws before the seabed counted back from the 河底 tile, with ``drawable_left`` tiles (seabed
    included) left at the discard. A discard after the 河底 draw is at 1, after the draw before
    it at 2, …; the rule covers positions 1 … ``liability_window``."""
    return drawable_left - seabed + 1

#: roles of a scored situation that mean a seat that did not win (陪家)
NON_WINNER_ROLES: Final = ("other", "loser", "peijia")

#: the ``ruleset_fields`` of a scored situation (see the module docstring)
SITUATION_FIELDS = MappingProxyType({
    "indicator": FieldSpec("tile", "the flipped tile: the other copies of its kind are 财神 (a flower: 花财神)",
                           excludes=("wildcards",)),
    "wildcards": FieldSpec("tiles", "the 财神 tiles themselves (instead of indicator)", excludes=("indicator",)),
    "seat_flower": FieldSpec("flower_or_false", "with wildcards: the seat's 坐花, or false for none "
                                                "(default: the seat wind's flower)", requires=("wildcards",)),
    "heavenly": FieldSpec("bool", "天胡: the dealer wins before its first discard", dealer=True, self_drawn=True,
                          no_call=True),
    "human": FieldSpec("bool", "地胡: a win on the dealer's first discard", dealer=False, self_drawn=False,
                       no_call=True),
    "dihu": FieldSpec("bool", "地胡 (same as human)", dealer=False, self_drawn=False, no_call=True),
    "earthly": FieldSpec("bool", "人胡 by self-draw (with the option human_win)", dealer=False, self_drawn=True,
                         no_call=True),
    "first_round_discards": FieldSpec("int", "discards made so far in an unbroken first go-round (人胡 timing)",
                                      low=0, requires=("seat", "dealer")),
    "seat": FieldSpec("int", "the winner's seat (with dealer: 人胡 timing)", low=0, high=3),
    "dealer": FieldSpec("int", "the dealer's seat", low=0, high=3),
    "declined_win": FieldSpec("bool", "the seat let a win pass earlier in the hand (三财神吊字牌)"),
    "role": FieldSpec("choice", "winner (default), or other / loser / peijia: score the standing tiles as a "
                                "陪家", choices=("winner", *NON_WINNER_ROLES)),
})

#: 136 tiles: suits × 4, 东南西北 × 4, no 白板, 发 中 × 4, 春夏秋冬 once each, no 梅兰竹菊
COPIES = (4,) * 27 + (4, 4, 4, 4, 0, 4, 4) + (1, 1, 1, 1) + (0, 0, 0, 0)


@lru_cache(maxsize=256)
def _seat_wilds(seat_wind: int, indicator: int | None) -> S.Wilds:
    """:func:`longgang_score.wilds_for`, once per seat wind and indicator: the replay asks about
    every flower a seat holds on each of its discards."""
    return S.wilds_for(seat_wind, indicator)


@lru_cache(maxsize=256)
def _seat_wild_tiles(seat_wind: int, indicator: int | None) -> frozenset[int]:
    return _seat_wilds(seat_wind, indicator).all


@lru_cache(maxsize=256)
def _wilds_from_set(wilds: frozenset[int], seat_wind: int) -> S.Wilds:
    """The seat's :class:`longgang_score.Wilds` from its wild tiles (once per set and seat wind)."""
    zuo = S.seat_flower(seat_wind)
    flower_mode = sum(1 for t in wilds if T.is_flower(t)) >= 2
    real = frozenset(wilds - {zuo})
    kind = None if flower_mode else next((t for t in real if not T.is_flower(t)), None)
    return S.Wilds(real, zuo if zuo in wilds else None, flower_mode, kind)


@lru_cache(maxsize=64)
def _rules_of(options: LonggangOptions) -> S.Rules:
    """The scoring switches of ``options`` (immutable, like the options), built once per options: a
    ruleset is made per game, and an archive's games share a few option objects
    (``Ruleset.parse_options``); building them through the options' Python method cost ~40,000
    instructions a game."""
    return options.rules()


def _detail(score: Score, name: str, default: object) -> Any:
    """The value of the detail ``name`` of a score (its ``details`` pairs), or ``default``: read in
    place, without a dict built from the pairs."""
    for key, value in score.details:
        if key == name:
            return value
    return default


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's subclass may wrap its methods
class Longgang(Ruleset):
    """龙港麻将. Play rules as class attributes; scoring in :mod:`longgang_score`."""

    name = "longgang"
    Options = LonggangOptions
    hand_size = 16
    tile_copies = COPIES
    seabed = 4
    chi_allowed = True
    kong_after_call = False
    swap_calling_allowed = False
    passed_win_rule = True
    passed_pon_rule = True
    #: a seat that discards while still holding a flower it had to set aside is 相公
    unkept_flower_is_dead = True
    #: 包三家 is judged at the discard (see :meth:`discard_extra`)
    discard_context = True
    #: 包三家 is about a discarded 中 or 发 only (:func:`longgang_score.liable_discard`)
    discard_context_kinds = frozenset(S.DRAGON_KINDS)
    #: 三财神吊字牌 needs to know whether the seat let a win pass (see :meth:`forbidden_win`)
    tracks_declined_wins = True
    #: concealed kongs at the deal by any seat, 东→南→西→北 (二、二)10)
    deal_kongs = True
    situation_fields = SITUATION_FIELDS
    result_list = "items"
    max_players = 5  # 五人或四人来: one player stands out (替补)
    result_details = (("hu", 0), ("tai", 0), ("limit", False), ("others_zero", False), ("follow_tai", 0))

    def __init__(self, options: Any = None):
        super().__init__(options)
        self.rules = _rules_of(self.options)
        #: (the hand end, every seat's score at it): settle and seat_items both need all four,
        #: and a 陪家's best placement is a search (see :meth:`seat_scores`)
        self._seat_memo: tuple[HandEnd, tuple[Score, ...]] | None = None
        #: per seat, its last hand state whose winning tiles were worked out, and the answer
        #: (:meth:`winning_tiles_of`): the replay asks for every state after a seat's discard (the
        #: claim window), then about the same state plus its next draw (:meth:`completes_with_draw`)
        self._recent = [W.Recent() for _ in range(4)]

    @property
    def dead_wall(self) -> int:  # type: ignore[override]
        return int(self.options.dead_wall)

    @property
    def seabed_replacement(self) -> str:  # type: ignore[override]
        """二、一)6 e (``"seed"``) or the ordinary replacement (``"shorten"``); see :mod:`mahjong_audit.engine.seabed`."""
        return str(self.options.seabed_replacement)

    @property
    def seabed_reserve(self) -> int:  # type: ignore[override]
        """With a 21-tile 王牌 the odd tile at its end is the reserve of 二、一)6 e ①."""
        return 1 if self.options.seabed_replacement == "seed" and self.options.dead_wall == 21 else 0

    # --- wilds and flowers ------------------------------------------------------------
    def wilds(self, seat: int, dealer: int, indicator: int | None) -> S.Wilds:
        """The seat's 正财 and 坐花 (see :class:`longgang_score.Wilds`)."""
        return _seat_wilds((seat - dealer) % 4, indicator)

    def wild_tiles(self, seat: int, dealer: int, indicator: int | None) -> frozenset[int]:
        """财神 (every copy of the indicator's kind; every flower under 花财神) and the
        seat's own flower (坐花)."""
        return _seat_wild_tiles((seat - dealer) % 4, indicator)

    def flower_kept(self, seat: int, dealer: int, tile: int, indicator: int | None) -> bool:
        """The seat's own flower stays in hand as a wild; under 花财神 every flower does."""
        return tile in self.wild_tiles(seat, dealer, indicator)

    def wildcard_indicator_required(self) -> bool:
        return True

    # --- scored situations ------------------------------------------------------------
    def situation_wilds(self, sit: WinSituation) -> frozenset[int]:
        """正财 and 坐花 from ``indicator`` or ``wildcards`` / ``seat_flower``."""
        return S.wilds_of(sit).all

    def situation_table_tiles(self, sit: WinSituation) -> tuple[int, ...]:
        """The flipped indicator is one copy of its kind, out of every hand."""
        ind = sit.get("indicator")
        return (ind,) if isinstance(ind, int) and not isinstance(ind, bool) else ()

    def situation_is_winner(self, sit: WinSituation) -> bool:
        return sit.get("role") not in NON_WINNER_ROLES

    def standing_sizes(self, sit: WinSituation) -> tuple[int, ...]:
        """17 for a winner (16 + the winning tile; a kong adds one beyond its 3); 16 for a 陪家's
        standing tiles, and for 三财神, which wins on the tiles held (四、7 "抓16张牌时如有三财神亦可胡牌")."""
        if not self.situation_is_winner(sit):
            return (self.hand_size,)
        w = S.wilds_of(sit)
        c = T.counts(sit.full_concealed)
        zuo = c[w.zuo] if w.zuo is not None else 0
        if S._three_caishen(sum(c[t] for t in w.real), zuo, w, self.rules):
            return (self.hand_size + 1, self.hand_size)
        return (self.hand_size + 1,)

    # --- wins --------------------------------------------------------------------------
    def is_complete(self, concealed: Sequence[int], melds: Sequence[Meld], wilds: frozenset[int] = frozenset()) -> bool:
        """Standing tiles (a tile sequence, or 34/42 per-tile counts) incl. the winning tile."""
        return S.complete(concealed, len(melds), wilds, self.rules)

    def may_complete_with_one(self, counts: tuple[int, ...], melds: Sequence[Meld], wilds: frozenset[int]) -> bool:
        """Whether any tile wins these standing tiles (:meth:`winning_tiles`: exact)."""
        return self.winning_tiles(counts, melds, wilds) != 0

    def winning_tiles(self, counts: tuple[int, ...], melds: Sequence[Meld], wilds: frozenset[int]) -> int:
        """Every tile whose one more wins these standing tiles, at once (:mod:`longgang_waits`)."""
        return W.winning_tiles(counts, len(melds), wilds, self.rules)

    def winning_tiles_of(self, st: SeatState) -> int:
        """:meth:`winning_tiles` of a seat's standing tiles read from the suit keys the replay keeps,
        the seat's last state remembered (:func:`longgang_waits.mask_of_keys`)."""
        fl = W.flower_key(st.hand) if st.flowers_held else 0
        if st.off_keys or fl < 0:
            return self.winning_tiles(tuple(st.hand), st.melds, st.wilds)  # counts no real hand holds
        return W.mask_of_keys(st.key_m, st.key_p, st.key_s, st.key_z, fl, len(st.melds), st.wilds, self.rules,
                              self._recent[st.seat & 3])

    def completes_with_draw(self, st: SeatState, t: int) -> bool:
        """Bit ``t`` of the winning tiles of the hand before the draw (the mask is exact), which is
        mostly the seat's last state asked about (:meth:`winning_tiles_of`: after its discard)."""
        fl = W.flower_key(st.hand) if st.flowers_held else 0
        if st.off_keys or fl < 0:
            return super().completes_with_draw(st, t)  # counts no real hand holds
        km, kp, ks, kz = st.key_m, st.key_p, st.key_s, st.key_z
        if t >= T.FLOWER0:
            fl -= 1 << 4 * (t - T.FLOWER0)
        elif t < 9:
            km -= 1 << KEY_SHIFT[t]
        elif t < 18:
            kp -= 1 << KEY_SHIFT[t]
        elif t < 27:
            ks -= 1 << KEY_SHIFT[t]
        else:
            kz -= 1 << KEY_SHIFT[t]
        mask = W.mask_of_keys(km, kp, ks, kz, fl, len(st.melds), st.wilds, self.rules, self._recent[st.seat & 3])
        return mask >> t & 1 != 0

    def instant_win(self, concealed: Sequence[int], seat: int, dealer: int, indicator: int | None) -> bool:
        """三财神 (推土机): holding three 正财 wins at any moment, outside the turn too."""
        w = self.wilds(seat, dealer, indicator)
        c = T.counts(concealed)
        real = sum(c[t] for t in w.real)
        zuo = c[w.zuo] if w.zuo is not None else 0
        return S._three_caishen(real, zuo, w, self.rules)

    def forbidden_win(self, sit: WinSituation) -> tuple[str, str] | None:
        """三财神吊字牌 (四、e): see :func:`longgang_score.three_wild_honour_wait`."""
        why = S.three_wild_honour_wait(sit, self.options.three_wild_honour_wait, self.rules)
        return None if why is None else ("false_win/forbidden_wait", why)

    def discard_extra(self, ctx: DiscardContext) -> tuple[tuple[str, object], ...]:
        """包三家 (四、a–c): ``("liable", seat)`` when this discard, won on, makes the discarder pay for all."""
        if ctx.drawable_left is None:
            return ()
        wind = T.wind_tile((ctx.seat - ctx.dealer) % 4)
        reason = S.liable_discard(ctx.tile, ctx.hand, wind, wind in ctx.wilds, ctx.discarded, ctx.melds,
                                  liability_draw(ctx.drawable_left, self.seabed), self.options.liability_window)
        return () if reason is None else (("liable", ctx.seat), ("liable_rule", reason))

    def score_win(self, sit: WinSituation) -> Score:
        """The winner's 胡 and 台 (or, with ``role: "other"``, a non-winner's)."""
        if sit.get("role") in NON_WINNER_ROLES:
            return S.score_other(sit.full_concealed, sit.melds, sit.flowers, sit.seat_wind, S.wilds_of(sit),
                                 self.rules, sit.round_wind)
        return S.score_winner(sit, self.rules)

    def score_seat(self, end: HandEnd, seat: int) -> Score:
        """Any seat's score at the end of a won hand (the winner's recomputed score)."""
        return self.seat_scores(end)[seat]

    def seat_scores(self, end: HandEnd) -> tuple[Score, ...]:
        """Every seat's score at the end of a won hand, worked out once per hand end (the same
        end object asks again for the money, the liability and the items)."""
        memo = self._seat_memo
        if memo is not None and memo[0] is end:
            return memo[1]
        win = end.wins[0] if end.wins else None
        others_zero = win is None or bool(_detail(win.score, "others_zero", False))
        scores = tuple(self._score_seat(end, s, others_zero) for s in range(4))
        self._seat_memo = (end, scores)
        return scores

    def _score_seat(self, end: HandEnd, seat: int, others_zero: bool) -> Score:
        """``seat``'s score: a winner's own, or a 陪家's (0 for a dead seat, or after a win whose
        other seats score nothing: ``others_zero``)."""
        for w in end.wins:
            if w.seat == seat:
                return w.score
        st = end.seats[seat]
        if st.dead or others_zero:
            return S.zero_score()
        return S.score_other(st.concealed, st.melds, st.flowers, (seat - end.dealer) % 4,
                             self.wilds_from_set(st.wilds, (seat - end.dealer) % 4), self.rules, end.round_wind)

    @staticmethod
    def wilds_from_set(wilds: frozenset[int], seat_wind: int) -> S.Wilds:
        return _wilds_from_set(wilds, seat_wind)

    # --- money -------------------------------------------------------------------------
    def totals(self, end: HandEnd) -> tuple[int, int, int, int]:
        """Every seat's total 胡 (the winner's, the 陪家's; 0 for dead seats)."""
        return tuple(sc.total for sc in self.seat_scores(end))  # type: ignore[return-value]

    def settle(self, end: HandEnd) -> Settlement:
        """Chips (10 胡 = 1): losers pay the winner total (double with the dealer) + 跟胡数,
        and settle their own totals' differences (``payments``: each pair, :func:`settle_pairs`;
        every amount is a multiple of 10 胡). Exhaustive draw: nothing."""
        if not end.wins:
            return Settlement((0, 0, 0, 0))
        win = end.wins[0]
        follow = S.follow_hu(int(_detail(win.score, "follow_tai", 0)), self.options.rebought)
        liable = win.situation.get("liable")
        pairs = S.settle_pairs(win.seat, end.dealer, self.totals(end), follow,
                               liable if isinstance(liable, int) and win.from_seat == liable else None)
        chips = tuple((a, b, x // S.HU_PER_CHIP) for a, b, x in pairs)
        return Settlement(tuple(S.net_of(chips)), payments=chips)  # type: ignore[arg-type]

    def seat_items(self, end: HandEnd) -> tuple:
        """Every seat's 胡 and 台 items (unit ``hu``/``tai``) and its total (unit ``total``)."""
        out: list = []
        if not end.wins:
            return ()
        for s, sc in enumerate(self.seat_scores(end)):
            out.extend(S.with_seat(sc.items, s))
            out.append(S.ScoreItem("总胡数", sc.total, 1, "total", s))
        return tuple(out)

    @property
    def checks_abortive_draws(self) -> bool:  # type: ignore[override]
        """The replay builds a table view for :meth:`abortive_draw` only when a draw is enabled."""
        return bool(self.options.abortive_draws)

    def abortive_draw(self, view: TableView) -> str | None:
        """The enabled abortive draw (option ``abortive_draws``) that ends the hand here, by its
        option value; see :mod:`longgang_draws`."""
        return D.abortive_draw(view, frozenset(self.options.abortive_draws))

    def false_win_penalty(self, seat: int, dealer: int) -> tuple[int, int, int, int]:
        """诈胡 in chips: a dealer pays each seat 20; a non-dealer pays the dealer 20, others 10."""
        return S.false_win_chips(seat, dealer)

    def false_win_standing_share(self, seat: int, dealer: int) -> int:
        """诈胡 with five ("五人来的，岸上的人也有份"): the player standing out is paid like a
        non-dealer seat — 20 from a false-winning dealer, 10 from anyone else."""
        return S.FALSE_WIN_CHIPS["dealer_pays_each" if seat == dealer else "to_other"]

    def chips_ledger(self, n_players: int) -> C.ChipLedger:
        """The 牌局's chips per player (底金, 头钱, 加筹, 断子): :mod:`longgang_chips`."""
        o = self.options
        return C.ChipLedger(n_players, bool(o.rebought), bool(o.broke_rebuy), str(o.short_order),
                            str(o.false_win_short))

    def after_break(self) -> Longgang:
        """After a 断子 and 加筹: "当盘筹子断或刚好为零则下盘开始按括号内的数字跟胡"."""
        return self if self.options.rebought else type(self)(replace(self.options, rebought=True))

    def next_seating(self, seating: tuple[int, ...], standing: tuple[int, ...], dealer: int,
                     next_dealer: int) -> tuple[int, ...] | None:
        """Five players: while the dealer keeps the deal nobody moves; when it passes, the old
        dealer stands up and the player standing out takes its seat (the new 北风家):
        "流局或闲家胡牌，轮庄（下家坐庄），原南风家坐庄，替补坐北风家(原庄家位)"."""
        if next_dealer == dealer or len(standing) != 1:
            return seating
        out = list(seating)
        out[dealer] = standing[0]
        return tuple(out)

    def next_dealer(self, dealer: int, winners: Sequence[int], drawn: bool) -> int:
        """The dealer stays after its own win; otherwise (a draw too) the deal passes on."""
        return dealer if dealer in winners else (dealer + 1) % 4

    def recorded_matches(self, recorded: Any, score: Score) -> tuple[bool, bool]:
        """Compare the recorded ``hu`` (the winner's base: 20 + face points) and ``tai``
        with ours (items), and ``total``."""
        items_ok = (recorded.hu is None or recorded.hu == _detail(score, "hu", None)) and (
            recorded.tai is None or recorded.tai == _detail(score, "tai", None))
        total_ok = recorded.total is None or recorded.total == score.total
        return items_ok, total_ok


RULESET = Longgang
