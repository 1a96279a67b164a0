"""Whole simulated games in ``mahjong-log/1``: four bots, any ruleset of the registry.

The simulator keeps its own table state (it does not drive the auditor's replay), so
auditing its output is a real cross-check of both. Everything a ruleset decides is asked
of the ruleset through the :class:`~mahjong_audit.engine.ruleset.Ruleset` interface: the tile set,
hand size, dead wall, wild tiles and kept flowers, call rules, winning shapes
(``is_complete`` then ``score_win``), payouts (``settle``) and dealer / round-wind
rotation. Randomness comes only from the ``random.Random`` passed in, so a seed gives
the same games on every run and platform.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from mahjong_audit.engine import seabed as SB
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import (
    Meld,
    MeldKind,
    NotAWin,
    Score,
    WinSituation,
    early_ready_extra,
    early_ready_moments,
    situation_extra,
)
from mahjong_audit.engine.ruleset import DiscardContext, HandEnd, Ruleset, SeatEnd, WinEnd
from mahjong_audit.engine.sim.bot import (
    NOISE_LEVELS,
    NOISE_LEVELS_MINIMUM,
    SLOW_TABLE,
    Bot,
    choose_plan,
    pairs_shanten,
    shanten,
)

if TYPE_CHECKING:
    from mahjong_audit.engine.sim.collusion import SeatPolicy

WINDS = "ESWN"
MAX_RETRIES = 50


class _Retry(Exception):
    """The shuffled wall cannot finish this hand (a replacement draw with no tile left)."""


@dataclass
class _Seat:
    seat: int
    bot: Bot
    counts: list[int] = field(default_factory=lambda: [0] * T.N_TILES)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    feeders: list[int] = field(default_factory=list)
    wilds: frozenset[int] = frozenset()
    called: Meld | None = None
    last_draw: int | None = None
    last_draw_back: bool = False
    back_reasons: list[str] = field(default_factory=list)
    last_back_reason: str | None = None
    passed_pon: set[int] = field(default_factory=set)
    passed_win: bool = False  # 过水 after a win the seat's policy passed up (until its own discard)
    declined_win: bool = False  # passed up a win this hand (rulesets with tracks_declined_wins)
    barred: bool = False  # declared a false win (诈胡) this hand: may not win any more
    maybe_ready: bool = True  # could a discard complete the hand? (a cheap filter)
    own_discards: int = 0  # discards made, counted when the ruleset tracks_early_ready
    heavenly_ready: bool = False  # 天听 (seed 002): ready right after its first discard
    earthly_ready: bool = False  # 地听 (seed 002): ready within the first eight wall draws, before any call

    def tiles(self) -> tuple[int, ...]:
        return tuple(t for t in range(T.N_TILES) for _ in range(self.counts[t]))

    def plain(self) -> list[int]:
        """34 counts without wild tiles (what the bot plans with)."""
        if not self.wilds:
            return self.counts[:34]
        return [0 if t in self.wilds else self.counts[t] for t in range(34)]

    def n_wilds(self) -> int:
        return sum(self.counts[t] for t in self.wilds)


@dataclass(frozen=True, slots=True)
class _Win:
    seat: int
    from_seat: int | None
    tile: int
    situation: WinSituation
    score: Score
    kind: str


def recorded_score(rs: Ruleset, score: Score) -> dict[str, Any]:
    """The outcome's ``score`` object as a platform would record it for this ruleset."""
    hook = getattr(rs, "recorded_score", None)
    if hook is not None:
        return dict(hook(score))
    details = dict(score.details)
    if "hu" in details or "tai" in details:
        out: dict[str, Any] = {k: details[k] for k in ("hu", "tai") if isinstance(details.get(k), int)}
        out["total"] = score.total
        return out
    return {"fans": [[i.name, i.value, i.count] for i in score.items], "total": score.total}


class HandSim:
    """Plays one hand; :meth:`run` returns the hand record (a JSON-ready dict)."""

    def __init__(self, rs: Ruleset, rng: random.Random, hand_no: int, dealer: int, round_wind: int,
                 cov: Counter, policy: SeatPolicy | None = None, false_win_rate: float = 0.0):
        self.policy = policy  # how some seats play besides their bot (mahjong_audit.engine.sim.collusion)
        #: the share of hands in which a seat declares a win it does not have (a deliberate 诈胡);
        #: 0 draws nothing from ``rng``, so games without them are the same as before
        self.false_win_rate = false_win_rate
        #: the won hand's pairwise payments (``Settlement.payments``), once :meth:`run` has played it
        self.payments: tuple[tuple[int, int, int], ...] = ()
        self.rs = rs
        self.rng = rng
        self.hand_no = hand_no
        self.dealer = dealer
        self.round_wind = round_wind
        self.cov = cov
        self.need = rs.hand_size // 3
        self.tracks_early_ready = rs.tracks_early_ready  # 天听 / 地听 (seed 002's 明星三缺一)
        self._reset()

    def _reset(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.visible = [0] * T.N_TILES
        self.live = 0
        self.back = 0
        self.discards_made = 0
        self.first_go_round = True
        self.wins: list[_Win] = []
        self.last_discard: tuple[int, int] = (0, 0)
        self.discarded = [0] * T.N_TILES
        self.discard_fields: tuple[tuple[str, object], ...] = ()  # the ruleset's discard_extra
        self.dead_shift = 0  # tiles the seabed replacement procedure moved into (+) or out of (−) the dead wall
        self.reserve_left = self.rs.seabed_reserve
        self.kept_replacement: int | None = None  # a seat that keeps its replacement as its seabed tile
        self.deal_melds = 0  # concealed kongs made at the deal
        self.false_wins: list[int] = []  # seats that declared a false win, in order
        self.false_win_at: int | None = None  # a deliberate 诈胡 is due once this many discards are made

    # ------------------------------------------------------------------ helpers
    def emit(self, type_: str, seat: int, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        ev = {"seq": self.seq, "type": type_, "seat": seat, **fields}
        self.events.append(ev)
        return ev

    def drawable_left(self) -> int:
        return len(self.wall) - self.live - self.back - self.rs.dead_wall - self.dead_shift

    def draw(self, s: int, back: bool, reason: str = "") -> int:
        st = self.seats[s]
        if back:
            if self.live + self.back >= len(self.wall):
                raise _Retry
            left = self.drawable_left()
            late = SB.replacement(self.rs.seabed_replacement, self.rs.seabed, left, self.reserve_left)
            t = self.wall[self.live + left - 1] if late.seabed_end else self.wall[len(self.wall) - 1 - self.back]
            self.back += 1
            if late.reserve:
                self.reserve_left -= 1
                self.dead_shift -= 1
                self.cov["seabed_replacement_reserve"] += 1
            self.dead_shift += late.dead_extra
            if late.then_seabed:
                self.kept_replacement = s
                self.cov["seabed_replacement_kept"] += 1
            self.emit("draw", s, tile=T.name(t), **{"from": "back"})
            st.last_back_reason = st.back_reasons.pop(0) if st.back_reasons else None
        else:
            t = self.wall[self.live]
            self.live += 1
            self.first_go_round = self.first_go_round and self.live <= 4
            self.emit("draw", s, tile=T.name(t))
        st.counts[t] += 1
        st.last_draw = t
        st.last_draw_back = back
        st.called = None
        st.passed_pon.clear()
        return t

    def replace_flowers(self, s: int) -> None:
        st = self.seats[s]
        while self.kept_replacement is None:  # a kept seabed tile is never set aside
            fl = next((t for t in range(T.FLOWER0, T.N_TILES) if st.counts[t]
                       and not self.rs.flower_kept(s, self.dealer, t, self.indicator)), None)
            if fl is None:
                return
            self.emit("flower", s, tile=T.name(fl))
            st.counts[fl] -= 1
            st.flowers.append(fl)
            self.visible[fl] += 1
            self.cov["flowers"] += 1
            st.back_reasons.append("flower")
            self.draw(s, back=True)

    def situation_extra(self, s: int, from_seat: int | None) -> tuple[tuple[str, object], ...]:
        out = situation_extra(
            dealer=self.dealer, seat=s, from_seat=from_seat, discards_made=self.discards_made,
            first_go_round=self.first_go_round,
            any_melds=sum(len(x.melds) for x in self.seats) > self.deal_melds,
            ready=False, indicator=self.indicator, wilds=self.seats[s].wilds)
        st = self.seats[s]
        if from_seat is None and st.last_draw_back and st.last_back_reason in ("kong", "flower"):
            out = tuple(sorted((*out, ("replacement", st.last_back_reason)), key=lambda kv: kv[0]))
        if st.heavenly_ready or st.earthly_ready:  # 天听 / 地听 (seed 002)
            out = tuple(sorted(out + early_ready_extra(st.heavenly_ready, st.earthly_ready), key=lambda kv: kv[0]))
        return out

    def try_win(self, s: int, t: int, *, self_drawn: bool, kong: bool, last_tile: bool,
                from_seat: int | None) -> tuple[WinSituation, Score] | None:
        """A legal win for seat ``s`` on ``t`` (scored by the ruleset), or None."""
        st = self.seats[s]
        if st.barred or not self_drawn and (not st.maybe_ready or st.passed_win):
            return None
        counts = list(st.counts)
        if not self_drawn:
            counts[t] += 1
        if counts[t] <= 0 or T.is_flower(t) and t not in st.wilds:
            return None
        shape = counts if any(counts[T.FLOWER0:]) else counts[:34]  # flowers kept in hand are wilds
        if not self.rs.is_complete(shape, st.melds, st.wilds):
            return None
        counts[t] -= 1
        concealed = tuple(x for x in range(T.N_TILES) for _ in range(counts[x]))
        visible_other = self.visible[t] - (1 if not self_drawn and not kong else 0)
        extra = self.situation_extra(s, from_seat)
        if not self_drawn and not kong and self.discard_fields:
            extra = tuple(sorted(extra + self.discard_fields, key=lambda kv: kv[0]))
        if st.declined_win:
            extra = tuple(sorted(extra + (("declined_win", True),), key=lambda kv: kv[0]))
        sit = WinSituation(
            concealed=concealed, melds=tuple(st.melds), win_tile=t, self_drawn=self_drawn,
            seat_wind=(s - self.dealer) % 4, round_wind=self.round_wind, flowers=tuple(st.flowers),
            last_tile=last_tile, kong=kong, last_copy=visible_other >= 3 and not (kong and not self_drawn),  # 抢杠和 only
            extra=extra,
        )
        try:
            score = self.rs.score_win(sit)
        except NotAWin:
            return None
        if self.rs.forbidden_win(sit) is not None:
            return None
        if score.below_minimum:
            self.cov["wins_below_minimum_skipped"] += 1
            return None
        return sit, score

    # ------------------------------------------------------------------ the hand
    def setup(self) -> None:
        rs, rng = self.rs, self.rng
        pool = [t for t in range(T.N_TILES) for _ in range(rs.copies[t])]
        rng.shuffle(pool)
        hs = rs.hand_size
        pos = 0
        deal: list[list[int]] = [[], [], [], []]
        for k in range(4):
            s = (self.dealer + k) % 4
            n = hs + 1 if k == 0 else hs
            deal[s] = pool[pos:pos + n]
            pos += n
        self.indicator = None
        if rs.wildcard_indicator_required():
            self.indicator = pool[pos]
            pos += 1
        self.deal = deal
        self.wall = pool[pos:]
        self.seats = []
        has_minimum = bool(getattr(rs.options, "min_fan", 0))
        slow = not has_minimum and rng.random() < SLOW_TABLE[0]
        if slow:
            self.cov["slow_tables"] += 1
        for s in range(4):
            c = T.counts(deal[s])
            plan = choose_plan(c, pairs_ok=self.need == 4, prefer_high=has_minimum,
                               roll=rng.random())
            noise = SLOW_TABLE[1] if slow else rng.choice(NOISE_LEVELS_MINIMUM if has_minimum else NOISE_LEVELS)
            st = _Seat(s, Bot(plan, self.need, noise), c)
            st.wilds = rs.wild_tiles(s, self.dealer, self.indicator)
            self.seats.append(st)
            self.cov[f"plan_{plan.kind}"] += 1
        self.seats[self.dealer].last_draw = deal[self.dealer][-1]
        if self.false_win_rate > 0 and rng.random() < self.false_win_rate:
            self.false_win_at = rng.randrange(24)

    def run(self) -> dict[str, Any]:
        for _ in range(MAX_RETRIES):
            saved = Counter(self.cov)
            self._reset()
            try:
                self.setup()
                ended = self.play()
            except _Retry:
                self.cov.clear()
                self.cov.update(saved)
                self.cov["hands_reshuffled"] += 1
                continue
            return self.record(ended)
        raise RuntimeError("could not complete a hand after many reshuffles")

    def play(self) -> str:
        for k in range(4):
            self.replace_flowers((self.dealer + k) % 4)
            self.update_ready(self.seats[(self.dealer + k) % 4])
        if self.rs.deal_kongs:
            self.kongs_at_the_deal()
        s = self.dealer
        res = self.act(s)
        while res is None:
            s, res = self.after_discard(s)
        return res

    def kongs_at_the_deal(self) -> None:
        """二、二)10: once the flowers are replaced, every seat from the dealer on (东→南→西→北)
        makes the concealed kongs it wants, each with its replacement (and flowers at once)."""
        for k in range(4):
            s = (self.dealer + k) % 4
            st = self.seats[s]
            while True:
                kt = next((t for t in range(34) if st.counts[t] == 4 and t not in st.wilds
                           and st.bot.wants_kong(t)), None)
                if kt is None:
                    break
                self.emit("concealed_kong", s, tile=T.name(kt))
                st.counts[kt] -= 4
                st.melds.append(Meld(MeldKind.CONCEALED_KONG, (kt,) * 4))
                self.deal_melds += 1
                self.cov["deal_kongs"] += 1
                if s != self.dealer:
                    self.cov["deal_kongs_non_dealer"] += 1
                st.back_reasons.append("kong")
                self.draw(s, back=True)
                self.replace_flowers(s)
            self.update_ready(st)

    def keep_replacement(self, s: int) -> str:
        """二、一)6 e ②: seat ``s`` keeps its replacement without discarding and may win on
        it first; the seabed tiles left go to the other seats."""
        st = self.seats[s]
        t = st.last_draw
        if t is None:
            raise RuntimeError(f"seat {s} keeps a replacement it never drew")
        kong = st.last_back_reason == "kong"
        won = self.try_win(s, t, self_drawn=True, kong=kong, last_tile=True, from_seat=None)
        if won is not None:
            self.emit("win", s, tile=T.name(t), **{"from": s})
            self.wins.append(_Win(s, None, t, won[0], won[1], "seabed"))
            return "win"
        return self.seabed((s + 1) % 4, self.drawable_left())

    def act(self, s: int) -> str | None:
        """Seat ``s`` holds a tile extra: win, kong, or discard. Returns 'win' when the hand ends."""
        rs = self.rs
        st = self.seats[s]
        while True:
            self.replace_flowers(s)
            if self.kept_replacement is not None:
                return self.keep_replacement(self.kept_replacement)
            t = st.last_draw
            if t is not None and st.called is None:
                kong_flag = st.last_draw_back and st.last_back_reason == "kong"
                won = self.try_win(s, t, self_drawn=True, kong=kong_flag, last_tile=self.drawable_left() <= 0,
                                   from_seat=None)
                if won is not None:
                    self.emit("win", s, tile=T.name(t), **{"from": s})
                    self.wins.append(_Win(s, None, t, won[0], won[1], "kong_replacement" if kong_flag else "self_drawn"))
                    return "win"
                if self.false_win_at is not None and self.discards_made >= self.false_win_at:
                    self.false_win(s, t)
            if (st.called is None or rs.kong_after_call) and self.drawable_left() > 0:
                k = self.kong_choice(st)
                if k is not None:
                    kind, kt = k
                    if kind == "concealed":
                        self.emit("concealed_kong", s, tile=T.name(kt))
                        st.counts[kt] -= 4
                        st.melds.append(Meld(MeldKind.CONCEALED_KONG, (kt,) * 4))
                        self.cov["call_concealed_kong"] += 1
                    else:
                        if self.added_kong(s, kt):
                            return "win"
                    st.called = None
                    st.back_reasons.append("kong")
                    self.draw(s, back=True)
                    continue
            self.discard(s)
            return None

    def false_win(self, s: int, t: int) -> None:
        """Seat ``s`` declares a self-drawn win on ``t`` with a hand that does not win (诈胡): it
        pays the ruleset's penalty, may not win again this hand and scores 0 (陪打); play goes on."""
        st = self.seats[s]
        if st.barred or T.is_flower(t) or self.drawable_left() <= 0:
            return
        self.false_win_at = None
        self.emit("win", s, tile=T.name(t), **{"from": s})
        st.barred = True
        self.false_wins.append(s)
        self.cov["deliberate_false_wins"] += 1

    def kong_choice(self, st: _Seat) -> tuple[str, int] | None:
        for t in range(34) if 4 in st.counts else ():
            if st.counts[t] == 4 and t not in st.wilds and st.bot.wants_kong(t):
                return "concealed", t
        for m in st.melds:
            if m.kind is MeldKind.PON and st.counts[m.first] and m.first not in st.wilds:
                return "added", m.first
        return None

    def added_kong(self, s: int, t: int) -> bool:
        """Add ``t`` to the pon; others may rob it. True if it was robbed (hand over)."""
        st = self.seats[s]
        idx = next(i for i, m in enumerate(st.melds) if m.kind is MeldKind.PON and m.first == t)
        old = st.melds[idx]
        st.melds[idx] = Meld(MeldKind.KONG, (t,) * 4, old.claimed, old.source, added=True)
        st.counts[t] -= 1
        self.visible[t] += 1
        st.passed_win = False
        self.cov["call_added_kong"] += 1
        robbers = []
        for k in range(1, 4):
            y = (s + k) % 4
            won = self.try_win(y, t, self_drawn=False, kong=True, last_tile=False, from_seat=s)
            if won is not None and self.declines(y, s):
                won = None
            if won is not None:
                robbers.append((y, won))
        ev = self.emit("added_kong", s, tile=T.name(t))
        if not robbers:
            return False
        ev["claims"] = [{"seat": y, "call": "win"} for y, _ in robbers]
        if not self.rs.multiple_winners:
            robbers = robbers[:1]
        for y, (sit, score) in self.shared(robbers):
            self.emit("win", y, tile=T.name(t), robbing_kong=True, **{"from": s})
            self.seats[y].counts[t] += 1
            self.wins.append(_Win(y, s, t, sit, score, "robbing_kong"))
        st.melds[idx] = old  # a robbed kong was never made: the konger keeps its pon
        return True

    def shared(self, winners: list[tuple[int, tuple[WinSituation, Score]]]
               ) -> list[tuple[int, tuple[WinSituation, Score]]]:
        """Several winners on one tile: each situation carries ``("winners", n)`` and is
        scored again (rulesets with a multiple-win rule read it)."""
        n = len(winners)
        if n < 2:
            return winners
        out = []
        for y, (sit, score) in winners:
            extra = tuple(sorted([kv for kv in sit.extra if kv[0] != "winners"] + [("winners", n)],
                                 key=lambda kv: kv[0]))
            sit2 = replace(sit, extra=extra)
            try:
                out.append((y, (sit2, self.rs.score_win(sit2))))
            except NotAWin:
                out.append((y, (sit, score)))
        return out

    def declines(self, y: int, d: int) -> bool:
        """Does seat ``y``'s policy pass up its win on seat ``d``'s tile? A passed win
        counts as the ruleset's rules on passed wins say (过水, a declined win)."""
        if self.policy is None or self.policy.may_win(y, d):
            return False
        st = self.seats[y]
        st.passed_win = st.passed_win or self.rs.passed_win_rule
        st.declined_win = st.declined_win or self.rs.tracks_declined_wins
        self.cov["policy_passed_wins"] += 1
        return True

    def forbidden_discards(self, st: _Seat) -> frozenset[int]:
        return self.forbidden_after(st.called)

    def can_discard_after(self, plain: list[int], used: tuple[int, int], meld: Meld) -> bool:
        """Would the seat still have a tile it may discard after this call (换张 rules)?"""
        bad = self.forbidden_after(meld)
        rest = list(plain)
        for u in used:
            rest[u] -= 1
        return any(rest[x] for x in range(34) if x not in bad)

    def forbidden_after(self, m: Meld | None) -> frozenset[int]:
        if m is None or self.rs.swap_calling_allowed:
            return frozenset()
        if m.kind is MeldKind.PON:
            return frozenset({m.first})
        out = {m.claimed}
        if m.claimed == m.tiles[0] and T.rank(m.tiles[2]) < 9:
            out.add(m.tiles[2] + 1)
        elif m.claimed == m.tiles[2] and T.rank(m.tiles[0]) > 1:
            out.add(m.tiles[0] - 1)
        return frozenset(x for x in out if x is not None)

    def discard(self, s: int) -> None:
        st = self.seats[s]
        plain = st.plain()
        if sum(plain) == 0:
            raise _Retry  # only wild tiles left in hand: nothing may be discarded
        bad = self.forbidden_discards(st)
        chosen = self.policy.discard(self, s, bad) if self.policy is not None else None
        if chosen is not None:
            t = chosen
            self.cov["policy_discards"] += 1
        elif st.bot.noise and self.rng.random() < st.bot.noise:
            cands = [x for x in range(34) if plain[x] and x not in bad] or [x for x in range(34) if plain[x]]
            t = self.rng.choice(cands)
        else:
            t = st.bot.discard(plain, len(st.melds), st.n_wilds(), bad)
        self.emit("discard", s, tile=T.name(t))
        if self.rs.discard_context:
            self.discard_fields = self.rs.discard_extra(DiscardContext(
                s, t, self.dealer, tuple(st.counts), tuple(self.discarded),
                tuple(tuple(x.melds) for x in self.seats), self.drawable_left(), st.wilds))
        self.discarded[t] += 1
        st.counts[t] -= 1
        self.visible[t] += 1
        st.called = None
        st.passed_win = False
        self.discards_made += 1
        self.last_discard = (s, t)
        self.update_ready(st)
        if self.tracks_early_ready:
            self.note_early_ready(st)

    def note_early_ready(self, st: _Seat) -> None:
        """明星三缺一 (seed 002), as the replay does: is the seat ready now, at a moment that makes
        天听 or 地听?"""
        st.own_discards += 1
        first, early = early_ready_moments(
            st.own_discards, self.live, any(not m.is_concealed for x in self.seats for m in x.melds))
        if (first or early) and self.rs.is_ready(st.counts, st.melds):
            st.heavenly_ready = st.heavenly_ready or first
            st.earthly_ready = st.earthly_ready or early

    def update_ready(self, st: _Seat) -> None:
        """Refresh the seat's ready filter (exact for standard shapes and 七对; a ruleset
        with a passed-win rule always asks the ruleset, so a missed win never bars a seat)."""
        if self.rs.passed_win_rule:
            st.maybe_ready = True
            return
        plain, w = st.plain(), st.n_wilds()
        st.maybe_ready = shanten(plain, self.need - len(st.melds)) - w <= 0 or (
            not st.melds and pairs_shanten(plain, self.need + 3) - w <= 0)

    def after_discard(self, d: int) -> tuple[int, str | None]:
        """The claim window of seat ``d``'s discard; returns the next seat to act (or the end)."""
        rs = self.rs
        _, t = self.last_discard
        ev = self.events[-1]
        last_tile = self.drawable_left() <= 0
        decl: list[tuple[int, str, Any]] = []
        for k in range(1, 4):
            y = (d + k) % 4
            st = self.seats[y]
            won = self.try_win(y, t, self_drawn=False, kong=False, last_tile=last_tile, from_seat=d)
            if won is not None and self.declines(y, d):
                won = None
            if won is not None:
                decl.append((y, "win", won))
                continue
            if t in st.wilds or T.is_flower(t):
                continue
            nm, nw = len(st.melds), len(st.wilds) and st.n_wilds()
            if not st.counts[t] and (k != 1 or not rs.chi_allowed or t >= 27):
                continue
            plain = st.plain()
            if self.policy is not None and st.counts[t] >= 2 and not self.policy.may_call(y, d):
                self.cov["policy_passed_calls"] += 1
            elif (st.counts[t] >= 3 and self.drawable_left() > 0 and st.bot.wants_kong(t)
                    and self.rng.random() < 0.7):
                decl.append((y, "kong", None))
                continue
            elif st.counts[t] >= 2 and not (rs.passed_pon_rule and t in st.passed_pon) and (
                    st.bot.wants_call(plain, nm, nw, t, (t, t)) or self.rng.random() < 0.02) and \
                    self.can_discard_after(plain, (t, t), Meld.pon(t, (y - d) % 4)):
                decl.append((y, "pon", None))
                continue
            if k == 1 and rs.chi_allowed and t < 27:
                pick = self.chi_choice(st, t, plain, nm, nw)
                if pick is not None:
                    decl.append((y, "chi", pick))
        if decl:
            ev["claims"] = [{"seat": y, "call": c} for y, c, _ in decl]
            if len(decl) > 1:
                self.cov["multi_claims"] += 1
                calls = sorted({c for _, c, _ in decl}, key=("win", "kong", "pon", "chi").index)
                self.cov["claims_" + "_over_".join(calls) if len(calls) > 1 else "claims_several_" + calls[0]] += 1
        winners = [x for x in decl if x[1] == "win"]
        if winners:
            if not rs.multiple_winners:
                winners = winners[:1]
            elif len(winners) > 1:
                self.cov["multiple_winners"] += 1
            for y, (sit, score) in self.shared([(y, won) for y, _, won in winners]):
                self.emit("win", y, tile=T.name(t), **{"from": d})
                self.seats[y].counts[t] += 1
                self.wins.append(_Win(y, d, t, sit, score, "discard"))
            return d, "win"
        best = max(decl, key=lambda x: {"kong": 2, "pon": 2, "chi": 1}[x[1]], default=None)
        executor = best[0] if best else None
        if rs.passed_pon_rule:
            for k in range(1, 4):
                y = (d + k) % 4
                if y != executor and self.seats[y].counts[t] >= 2 and t not in self.seats[y].wilds:
                    self.seats[y].passed_pon.add(t)
        if best is None:
            left = self.drawable_left()
            if left <= 0:
                return d, "draw"
            if rs.seabed and left <= rs.seabed:
                return d, self.seabed((d + 1) % 4, left)
            nxt = (d + 1) % 4
            self.draw(nxt, back=False)
            return nxt, self.act(nxt)
        y, call, pick = best
        st = self.seats[y]
        source = (y - d) % 4
        if call == "chi":
            a, b = pick
            self.emit("chi", y, tile=T.name(t), tiles=[T.name(a), T.name(b)], **{"from": d})
            st.counts[a] -= 1
            st.counts[b] -= 1
            self.visible[a] += 1
            self.visible[b] += 1
            meld = Meld(MeldKind.CHI, tuple(sorted((a, b, t))), t, source)
        elif call == "pon":
            self.emit("pon", y, tile=T.name(t), **{"from": d})
            st.counts[t] -= 2
            self.visible[t] += 2
            meld = Meld(MeldKind.PON, (t, t, t), t, source)
        else:
            self.emit("kong", y, tile=T.name(t), **{"from": d})
            st.counts[t] -= 3
            self.visible[t] += 3
            meld = Meld(MeldKind.KONG, (t,) * 4, t, source)
        self.cov[f"call_{call}"] += 1
        st.melds.append(meld)
        st.feeders.append(d)
        st.passed_pon.clear()
        if call == "kong":
            st.called = None
            st.back_reasons.append("kong")
            self.draw(y, back=True)
        else:
            st.called = meld
            st.last_draw = None
        return y, self.act(y)

    def seabed(self, first: int, left: int) -> str:
        """海底: the last ``left`` drawable tiles go one to each seat from ``first`` on, with
        no discards, flowers or kongs; a seat may win on the tile it receives."""
        self.cov["seabed_hands"] += 1
        for k in range(left):
            s = (first + k) % 4
            t = self.draw(s, back=False)
            won = self.try_win(s, t, self_drawn=True, kong=False, last_tile=True, from_seat=None)
            if won is not None:
                self.emit("win", s, tile=T.name(t), **{"from": s})
                self.wins.append(_Win(s, None, t, won[0], won[1], "seabed"))
                return "win"
        return "draw"

    def chi_choice(self, st: _Seat, t: int, plain: list[int], nm: int, nw: int) -> tuple[int, int] | None:
        options = []
        for a, b in ((t - 2, t - 1), (t - 1, t + 1), (t + 1, t + 2)):
            if a < 0 or b >= 27 or a // 9 != t // 9 or b // 9 != t // 9:
                continue
            meld = Meld(MeldKind.CHI, tuple(sorted((a, b, t))), t, 1)
            if plain[a] and plain[b] and st.bot.wants_call(plain, nm, nw, t, (a, b)) and \
                    self.can_discard_after(plain, (a, b), meld):
                options.append((a, b))
        if not options:
            return None
        return options[0]

    # ------------------------------------------------------------------ the record
    def record(self, ended: str) -> dict[str, Any]:
        rs = self.rs
        cov = self.cov
        cov["hands"] += 1
        if ended == "win":
            for w in self.wins:
                cov[f"win_{w.kind}"] += 1
                if w.situation.last_tile:
                    cov["win_last_tile"] += 1
            if len(self.wins) > 1:
                cov["win_multiple"] += 1
        else:
            cov["exhaustive_draws"] += 1
        wins = tuple(WinEnd(w.seat, w.from_seat, w.situation, w.score) for w in self.wins)
        seats = tuple(SeatEnd(st.seat, st.tiles(), tuple(st.melds), tuple(st.flowers), st.wilds, st.barred)
                      for st in self.seats)
        end = HandEnd(self.dealer, self.round_wind, wins, tuple(self.false_wins), seats,
                      tuple(tuple(st.feeders) for st in self.seats))
        settlement = rs.settle(end) if wins else None
        self.payments = settlement.payments if settlement is not None else ()
        deltas = list(settlement.deltas) if settlement is not None else [0, 0, 0, 0]
        penalties = []
        for s in self.false_wins:
            pen = rs.false_win_penalty(s, self.dealer)
            deltas = [a + b for a, b in zip(deltas, pen, strict=True)]
            penalties.append({"seat": s, "kind": "false_win", "deltas": list(pen)})
        outcome: dict[str, Any] = {
            "result": "win" if wins else "draw",
            "wins": [{"seat": w.seat, "from": w.seat if w.from_seat is None else w.from_seat,
                      "tile": T.name(w.tile), "score": recorded_score(rs, w.score)} for w in self.wins],
            "deltas": deltas,
        }
        if penalties:
            outcome["penalties"] = penalties
        hand: dict[str, Any] = {
            "hand_no": self.hand_no, "round_wind": WINDS[self.round_wind], "dealer": self.dealer,
            "wall": T.names(self.wall),
        }
        if self.indicator is not None:
            hand["wildcard_indicator"] = T.name(self.indicator)
        hand["deal"] = [T.names(d) for d in self.deal]
        hand["events"] = self.events
        hand["outcome"] = outcome
        return hand


def simulate_game(ruleset: Ruleset, rng: random.Random, game_id: str, hands: int,
                  cov: Counter | None = None, players: tuple[str, ...] | None = None,
                  policy: SeatPolicy | None = None) -> dict[str, Any]:
    """One game of ``hands`` hands as a ``mahjong-log/1`` document (a dict); ``players``
    names the seats (default bot0..bot3), ``policy`` plays some seats besides their bots."""
    cov = Counter() if cov is None else cov
    dealer = first_dealer = 0
    round_wind = 0
    scores = [0, 0, 0, 0]
    out_hands = []
    for i in range(hands):
        hand = HandSim(ruleset, rng, i, dealer, round_wind, cov, policy).run()
        out_hands.append(hand)
        oc = hand["outcome"]
        scores = [a + b for a, b in zip(scores, oc["deltas"], strict=True)]
        dealer, round_wind = next_deal(ruleset, i, dealer, round_wind, first_dealer, oc)
    cov["games"] += 1
    return {
        "format": "mahjong-log/1", "game_id": game_id, "platform": "mahjong-audit-sim",
        "ruleset": ruleset.name, "options": options_record(ruleset),
        "players": list(players) if players is not None else [f"bot{s}" for s in range(4)],
        "initial_scores": [0, 0, 0, 0], "hands": out_hands, "final_scores": scores,
    }


def options_record(ruleset: Ruleset) -> dict[str, Any]:
    """The game's ``options`` as a log carries them: the ruleset's options that differ from the
    defaults (plain JSON values), so the audit replays the game under the rules it was played by."""
    from mahjong_audit.engine.house_rules import differing_from_defaults

    return differing_from_defaults(ruleset.name, ruleset.options)


def next_deal(ruleset: Ruleset, i: int, dealer: int, round_wind: int, first_dealer: int,
              outcome: dict[str, Any]) -> tuple[int, int]:
    """The dealer and round wind of the hand after hand ``i`` (its ``outcome``)."""
    winners = [w["seat"] for w in outcome["wins"]]
    nxt = ruleset.next_dealer(dealer, winners, outcome["result"] != "win")
    return nxt, ruleset.next_round_wind(round_wind, i + 1, nxt, first_dealer, nxt != dealer)


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` of a run with ``seed`` (independent per game,
    so games can be made in parallel and still match a serial run)."""
    return random.Random(f"mahjong-audit-sim:{seed}:{index}")


def game_id(ruleset: str, seed: int, index: int) -> str:
    return f"sim-{ruleset}-s{seed}-{index:06d}"
