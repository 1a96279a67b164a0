"""广东 / 贵港 money: base × 2^fan, who pays, 包胡, false wins and the dealer rotation
(settle() and friends called directly on hand-made HandEnd objects)."""

from __future__ import annotations

from mahjong_audit.engine.hand import Score, ScoreItem, WinSituation
from mahjong_audit.engine.ruleset import HandEnd, SeatEnd, WinEnd
from mahjong_audit.engine.rulesets.guangdong import Guangdong

RS = Guangdong()


def win(seat: int, from_seat: int | None, fan: int) -> WinEnd:
    sit = WinSituation((), (), 0, from_seat is None)
    return WinEnd(seat, from_seat, sit, Score((ScoreItem("鸡胡", fan),), fan))


def end(*wins: WinEnd, feeders: tuple[tuple[int, ...], ...] = ((), (), (), ()), dealer: int = 0) -> HandEnd:
    seats = tuple(SeatEnd(s, (), (), (), frozenset(), False) for s in range(4))
    return HandEnd(dealer, 0, wins, (), seats, feeders)


def test_points_double_per_fan_times_base():
    assert [RS.points(f) for f in range(6)] == [1, 2, 4, 8, 16, 32]
    assert Guangdong({"base": 3}).points(2) == 12


def test_self_drawn_every_other_seat_pays():
    assert RS.settle(end(win(2, None, 3))).deltas == (-8, -8, 24, -8)


def test_discard_the_discarder_alone_pays():
    assert RS.settle(end(win(2, 0, 3))).deltas == (-8, 0, 8, 0)


def test_multiple_win_the_discarder_pays_every_winner():
    assert RS.settle(end(win(1, 0, 5), win(2, 0, 6), win(3, 0, 5))).deltas == (-128, 32, 64, 32)


def test_bao_on_a_self_drawn_win_the_feeder_pays_for_all():
    # seat 1's three claimed sets all came from seat 0
    e = end(win(1, None, 2), feeders=((), (0, 0, 0), (), ()))
    assert RS.settle(e).deltas == (-12, 12, 0, 0)


def test_bao_on_a_discard_win_the_feeder_pays_instead_of_the_discarder():
    e = end(win(1, 2, 2), feeders=((), (0, 3, 0, 0), (), ()))
    assert RS.settle(e).deltas == (-4, 4, 0, 0)


def test_no_bao_with_two_sets_from_one_seat_or_with_the_option_off():
    e = end(win(1, None, 2), feeders=((), (0, 3, 0), (), ()))
    assert RS.settle(e).deltas == (-4, 12, -4, -4)
    e = end(win(1, None, 2), feeders=((), (0, 0, 0), (), ()))
    assert Guangdong({"bao_sets": 0}).settle(e).deltas == (-4, 12, -4, -4)


def test_bao_in_a_multiple_win_applies_to_the_fed_winner_only():
    e = end(win(1, 0, 5), win(2, 0, 5), feeders=((), (), (3, 3, 3), ()))
    assert RS.settle(e).deltas == (-32, 32, 32, -32)


def test_false_win_pays_every_other_seat_a_five_fan_hand():
    assert RS.false_win_penalty(2, 0) == (32, 32, -96, 32)
    assert Guangdong({"false_win_fan": 3, "base": 2}).false_win_penalty(0, 0) == (-48, 16, 16, 16)


def test_dealer_stays_after_a_dealer_win_or_a_draw():
    assert RS.next_dealer(2, [2], False) == 2
    assert RS.next_dealer(2, [1, 2], False) == 2  # the dealer among several winners
    assert RS.next_dealer(2, [], True) == 2
    assert RS.next_dealer(2, [0], False) == 3
    assert RS.next_dealer(3, [1], False) == 0


def test_bao_seat_is_the_lowest_seat_that_fed_enough_sets_on_random_feeders():
    """``bao_seat`` counts the feeders in native loops: the same seat as counting them
    (``Counter``) and taking the lowest seat other than the winner with ``bao_sets`` or more,
    on random feeders (four seats, up to five sets, 包胡 from 1 to 4 sets or off)."""
    import random
    from collections import Counter

    r = random.Random(16)
    for _ in range(2000):
        bao_sets = r.randrange(5)
        rs = Guangdong({"bao_sets": bao_sets})
        feeders = tuple(tuple(r.randrange(4) for _ in range(r.randrange(6))) for _ in range(4))
        winner = r.randrange(5)  # 4: beyond the feeders
        want = None
        if bao_sets and winner < 4:
            counts = Counter(s for s in feeders[winner] if s != winner)
            want = next((seat for seat, n in sorted(counts.items()) if n >= bao_sets), None)
        assert rs.bao_seat(end(feeders=feeders), winner) == want, (feeders, winner, bao_sets)
