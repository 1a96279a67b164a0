"""``standing_out`` (asked of every hand by the audit) answers a four-player game without a loop:
the same players as the plain definition, every player of ``players`` not among the hand's seats."""

from __future__ import annotations

from itertools import permutations
from types import SimpleNamespace

from mahjong_audit.schemas.log import seating, standing_out


def plain(game: SimpleNamespace, hand: SimpleNamespace) -> tuple[int, ...]:
    seated = set(seating(hand))
    return tuple(p for p in range(len(game.players or ())) if p not in seated)


def test_standing_out_is_every_player_not_seated():
    for players in (None, [], ["a", "b", "c", "d"], ["a", "b", "c", "d", "e"], list("abcdef")):
        n = len(players or ())
        seatings = [None, *([list(p) for p in permutations(range(n), 4)] if n >= 4 else [])]
        for seats in seatings:
            game, hand = SimpleNamespace(players=players), SimpleNamespace(seats=seats)
            assert standing_out(game, hand) == plain(game, hand), (players, seats)
