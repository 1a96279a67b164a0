"""The claim chances' shape gate, fed by the suit keys each seat keeps (``SeatState.add``).

* The four keys, the count of kinds beyond the keys' four bits and the flower kinds held, kept
  by additions, are the ones recomputed from the counts: after every event of random games
  (MCR and 广东, clean and faulty) and after random additions (negative counts, beyond 15).
* Each seat's kept shape answer (``_SeatGate``: the state it answered, the tiles that may win it,
  the tiles the ruleset's test was asked about and its answers, as bit masks) is the one a fresh
  tally works out for the same state, after every event of random games (MCR, 广东 and 龙港,
  clean and faulty); a tile outside the mask, which the window answers by a bit test, is one
  the ruleset's ``is_complete`` says no to, and every remembered answer is ``is_complete``'s.
* Where the gate names tiles for a hand of the right size (``_EXACT``) the ruleset's
  ``is_complete`` is not asked: on random hands, for every tile, ``shape_wins`` is the
  ruleset's ``is_complete`` (MCR and 广东, the options that change shapes), and the named
  tiles are answered without it. (Hands without flowers: the window never asks about a flower,
  and MCR's ``is_complete`` reads 34 counts.)
"""

from __future__ import annotations

import random

import pytest

from mahjong_audit.engine import chances
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import WINDS
from mahjong_audit.engine.hand import Meld, MeldKind
from mahjong_audit.engine.replay import HandReplay, SeatState
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.sim import faults
from mahjong_audit.engine.sim.game import game_id, game_rng, simulate_game
from mahjong_audit.schemas.log import Game
from tests.test_speed_paths import _gate_hand


def recomputed(st: SeatState) -> tuple[int, int, int, int, int, int]:
    keys = []
    for start, n in ((0, 9), (9, 9), (18, 9), (27, 7)):
        key = chances._HONOUR_KEY if start == 27 else 0
        for t in range(start, start + n):
            key = key << 4 | st.hand[t] & 15
        keys.append(key)
    off = sum(1 for t in range(34) if not 0 <= st.hand[t] <= 15)
    flowers = sum(1 for t in range(T.FLOWER0, T.N_TILES) if st.hand[t])
    return keys[0], keys[1], keys[2], keys[3], off, flowers


def kept(st: SeatState) -> tuple[int, int, int, int, int, int]:
    return st.key_m, st.key_p, st.key_s, st.key_z, st.off_keys, st.flowers_held


def games(ruleset: str, seed: int, n: int) -> list[Game]:
    rs = RULESETS[ruleset]({})
    out = []
    for i in range(n):
        doc = simulate_game(rs, game_rng(seed, i), game_id(ruleset, seed, i), 2)
        records, _ = faults.inject_maybe(doc, seed, i, 0.5)
        for rec in records:
            if isinstance(rec, dict):
                try:
                    out.append(Game.model_validate(rec))
                except ValueError:
                    continue  # a record the audit rejects: no replay
    return out


@pytest.mark.parametrize("ruleset", ["mcr", "guangdong"])
def test_seat_keys_follow_the_counts_after_every_event(ruleset):
    checked = 0

    def check(i: int, replay: HandReplay) -> None:
        nonlocal checked
        for st in replay.seats:
            if kept(st)[4] == 0:  # while a count is beyond 0..15 a key packs no hand (the gate asks)
                assert kept(st) == recomputed(st), (i, st.seat, T.fmt(st.concealed()))
            else:
                assert kept(st)[4:] == recomputed(st)[4:]
            checked += 1

    for game in games(ruleset, 31, 12):
        rs = RULESETS[game.ruleset](game.options)
        for hand in game.hands:
            HandReplay(rs, hand, WINDS.index(hand.round_wind)).run(check)
    assert checked > 1000


def test_seat_keys_follow_random_additions():
    """Counts below 0 and beyond 15 (no real hand, a faulty log's), and back: the keys are sums."""
    r = random.Random(5)
    for _ in range(300):
        st = SeatState(0)
        for _ in range(40):
            t = r.randrange(T.N_TILES)
            st.add(t, r.choice((1, 1, -1, -1, 2, -3, 17, -17)))
            want = recomputed(st)
            assert kept(st)[4:] == want[4:]
            if want[4] == 0:
                assert kept(st) == want


@pytest.mark.parametrize("ruleset", ["mcr", "guangdong", "longgang"])
def test_kept_shape_answers_are_the_recomputed_ones_after_every_event(ruleset):
    checked = masked = 0

    def check(i: int, replay: HandReplay) -> None:
        nonlocal checked, masked
        for st in replay.seats:
            y = st.seat
            g = replay.chances.gates[y]
            if g.version != st.version or g.melds != len(st.melds):
                continue  # not asked since the hand changed: worked out when a window asks
            fresh = chances.ChanceTally()
            fresh.new_state(replay, y)
            assert g.waits == fresh.gates[y].waits, (i, y, T.fmt(st.concealed()))
            for t in range(34):
                counts = st.hand[:] if any(st.hand[T.FLOWER0:]) else st.hand[:34]
                counts[t] += 1
                want = replay.rs.is_complete(counts, st.melds, st.wilds)
                if g.waits != chances.ASK and not g.waits >> t & 1:
                    assert not want, (i, y, T.fmt(st.concealed()), T.name(t))  # the window's bit test
                    masked += 1
                if g.known >> t & 1:
                    assert (g.wins >> t & 1 == 1) == want, (i, y, T.fmt(st.concealed()), T.name(t))
            assert g.wins & ~g.known == 0
            checked += 1

    for game in games(ruleset, 37, 8):
        rs = RULESETS[game.ruleset](game.options)
        for hand in game.hands:
            HandReplay(rs, hand, WINDS.index(hand.round_wind)).run(check)
    assert checked > 500
    assert masked > 0 or ruleset == "longgang"  # 龙港's own quick no answers "ask" or "none"


def _with(st: SeatState, counts: list[int], n_melds: int, wilds: frozenset[int]) -> None:
    for t in range(T.N_TILES):
        if counts[t]:
            st.add(t, counts[t])
    st.melds = [Meld(MeldKind.PON, (27 + k % 7,) * 3) for k in range(n_melds)]
    st.wilds = wilds


RULESET_OPTIONS = (("mcr", {}), ("mcr", {"variant": "mingxing"}), ("guangdong", {}),
                   ("guangdong", {"seven_pairs_four": False}))


@pytest.mark.parametrize(("ruleset", "options"), RULESET_OPTIONS, ids=lambda v: str(v))
def test_named_tiles_are_the_shape_tests_answer_on_random_hands(ruleset, options):
    rs = RULESETS[ruleset](options)
    game = games(ruleset, 3, 1)[0]
    r = random.Random(41)
    exact = 0
    for _ in range(2500):
        c, n_melds, wilds = _gate_hand(r)
        c[T.FLOWER0:] = [0] * (T.N_TILES - T.FLOWER0)  # MCR's is_complete reads 34 counts (flowers: not asked)
        replay = HandReplay(rs, game.hands[0], 0)
        st = SeatState(0)
        _with(st, c, n_melds, wilds)
        replay.seats[0] = st
        tally = replay.chances
        for t in range(34):
            counts = st.hand[:34]
            counts[t] += 1
            want = rs.is_complete(counts, st.melds, st.wilds)
            assert tally.shape_wins(replay, 0, t) == want, (T.fmt(tiles_of(c)), n_melds, sorted(wilds), T.name(t))
        waits = tally.gates[0].waits
        if waits != chances.ASK and waits & chances._EXACT:
            exact += 1
            assert tally.gates[0].known == 0  # every named tile answered without the ruleset's test
    assert exact > 300


def tiles_of(c: list[int]) -> list[int]:
    return [t for t in range(T.N_TILES) for _ in range(max(c[t], 0))]
