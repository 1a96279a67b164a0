"""龙港's winning tiles per hand state (``longgang_waits.winning_tiles``, the claim chances' answer
for every tile at once) against asking the shape test about every tile."""

from __future__ import annotations

import random

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.replay import SeatState
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang import Longgang
from mahjong_audit.engine.rulesets.longgang_waits import winning_tiles
from tests.test_fast_exits import _near_complete_hand


def _by_every_tile(c: list[int], n_melds: int, wilds: frozenset[int], rules: S.Rules) -> int:
    mask = 0
    for t in range(T.N_TILES):
        more = list(c)
        more[t] += 1
        if S.complete(more, n_melds, wilds, rules):
            mask |= 1 << t
    return mask


def _tiles(mask: int) -> str:
    return T.fmt([t for t in range(T.N_TILES) if mask >> t & 1])


def test_the_mask_is_the_shape_test_asked_about_every_tile():
    """Random 龙港 hand states, most one tile from a win: clean, with each seat's wilds (a 财神 kind,
    花财神, none), flowers kept or stray, melds (more than five too), a tile more or less; three
    rule sets (八对半 off, 推土机 with four wilds)."""
    r = random.Random(41)
    ready = wild_ready = 0
    for _ in range(6000):
        rules = S.Rules(three_caishen=r.choice((3, 3, 4)), eight_pairs=r.random() < 0.8)
        indicator = r.choice((None, r.randrange(34), r.randrange(34), r.randrange(34, 38)))
        w = S.wilds_for(r.randrange(4), indicator)
        n_melds = r.choice((0, 0, 0, 1, 2, 3, 6))
        c = _near_complete_hand(r, min(n_melds, 5), sorted(w.all))
        if r.random() < 0.1:
            c[r.randrange(34)] += 1  # a tile more: no tile wins (the count)
        mask = winning_tiles(tuple(c), n_melds, w.all, rules)
        assert mask == _by_every_tile(c, n_melds, w.all, rules), (
            c, n_melds, sorted(w.all), rules.three_caishen, rules.eight_pairs, _tiles(mask))
        if mask:
            ready += 1
            wild_ready += any(c[t] for t in w.all)
    assert ready > 1500 and wild_ready > 300  # many ready hands, many with wilds held


def test_a_wild_in_hand_widens_the_waits():
    """二、三)a "财神可以用来代替其他所有的牌": 123m456p789s 111z 22z 3s and a 财神 win on 1s–5s (3s, the
    财神 and the tile a set: 123s 234s 345s 333s), on 2z (222z, the pair 3s + 财神) and on a wild
    (3s and two wilds): the 财神 中 and the 坐花 春. Without the 财神, 3s 4s wait on 2s and 5s."""
    w = S.wilds_for(0, T.parse("7z")[0])  # the dealer: 中 the 财神, 春 its 坐花
    c = T.counts(T.parse("123m456p789s111z22z3s7z"))
    mask = winning_tiles(tuple(c), 0, w.all, S.Rules())
    assert _tiles(mask) == "12345s27z1f"
    assert mask == _by_every_tile(c, 0, w.all, S.Rules())
    clean = T.counts(T.parse("123m456p789s111z22z3s4s"))
    assert _tiles(winning_tiles(tuple(clean), 0, frozenset(), S.Rules())) == "25s"


def test_three_caishen_held_win_on_every_tile_but_a_stray_flower():
    """四、7 推土机 "凡手牌中含用三个正财神即可马上胡牌": three 正财 held, any tile added wins, except a
    flower that is not the seat's (it is set aside, never kept)."""
    w = S.wilds_for(0, T.parse("7z")[0])
    c = T.counts(T.parse("19m19p19s1234z777z"))
    mask = winning_tiles(tuple(c), 0, w.all, S.Rules())
    assert mask == (1 << 34) - 1 | 1 << S.seat_flower(0)
    assert mask == _by_every_tile(c, 0, w.all, S.Rules())


def test_the_ruleset_remembers_the_mask_for_its_quick_no():
    """``Longgang.may_complete_with_one`` of a state ``winning_tiles`` answered: whether any tile wins."""
    rs = Longgang()
    ready = tuple(T.counts(T.parse("123m456p789s111z34s22z")))
    far = tuple(T.counts(T.parse("19m19p19s1234567z25s")))
    assert rs.winning_tiles(ready, (), frozenset()) != 0
    assert rs.winning_tiles(far, (), frozenset()) == 0
    assert rs.may_complete_with_one(ready, (), frozenset()) is True
    assert rs.may_complete_with_one(far, (), frozenset()) is False


def _seat(c: list[int], seat: int, wilds: frozenset[int], n_melds: int) -> SeatState:
    st = SeatState(seat)
    for t, n in enumerate(c):
        if n:
            st.add(t, n)
    st.wilds = wilds
    st.melds = [None] * n_melds  # type: ignore[list-item]
    return st


def test_the_ruleset_answers_a_seat_state_and_its_draws_from_the_suit_keys():
    """``Longgang.winning_tiles_of`` (the suit keys ``SeatState`` keeps, the seat's last state
    remembered) is ``winning_tiles`` of the counts, and ``Longgang.completes_with_draw`` of the state
    plus any tile (a seat's draw: mostly the state asked about last) is the plain test, for random
    states (melds, wilds, flowers, four seats taking turns, a state asked twice, counts beyond 15)."""
    r = random.Random(43)
    wins = 0
    rs = Longgang()
    for i in range(1500):
        rules = S.Rules(three_caishen=r.choice((3, 3, 4)), eight_pairs=r.random() < 0.8)
        if i % 7 == 0:
            rs = Longgang()
        rs.rules = rules
        w = S.wilds_for(r.randrange(4), r.choice((None, r.randrange(34), r.randrange(34, 38))))
        n_melds = r.choice((0, 0, 1, 2))
        c = _near_complete_hand(r, n_melds, sorted(w.all))
        if r.random() < 0.02:
            c[r.randrange(42)] = r.choice((-1, 15, 16))
        st = _seat(c, r.randrange(4), w.all, n_melds)
        want = winning_tiles(tuple(c), n_melds, w.all, rules)
        assert rs.winning_tiles_of(st) == want, (c, n_melds, sorted(w.all))
        assert rs.winning_tiles_of(st) == want
        for t in range(T.N_TILES):
            if c[t] + 1 > 15 or c[t] + 1 < 1:
                continue
            more = list(c)
            more[t] += 1
            plain = S.complete(more, n_melds, w.all, rules)
            st.add(t)
            assert rs.completes_with_draw(st, t) is plain, (c, t, n_melds, sorted(w.all))
            st.add(t, -1)
            wins += plain
    assert wins > 500
