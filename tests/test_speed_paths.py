"""The fast paths of the replay's what-ifs give the answers of the plain computations.

* :meth:`ChanceTally.shape_wins` (could-win's shape answer, cached per seat hand state) agrees,
  after every event of sample games of every ruleset, clean and faulty, with the ruleset's
  plain ``is_complete`` of the seat's tiles with the tile added, for every tile.
* :func:`longgang_score.score_other` values each placement of a 陪家's wilds by its numbers
  and scores only the best one in full: the same score as scoring every placement in full and
  keeping the first best.
* :func:`decompose.is_complete` keys a suit by its counts as bytes, and by a tuple when a
  count does not fit in a byte.
* 龙港's shape tests (``complete`` and the quick no ``may_complete_with_one``) read the counts as
  given, with each set of wilds' tiles worked out once: the answers of the plain test, which
  copied the counts, emptied the wild kinds and counted the wilds for every call.
* :func:`longgang_score.score_winner` values each reading by its numbers and builds the items of
  the best one only, and reads only the appendix rows the rules name: the same score as scoring
  every reading in full (``score_reading`` over every row of ``TAI_ROWS``) and keeping the first best.
* :func:`chances.shape_gate` (the tiles that may win a hand state, from per-suit answers)
  names exactly the tiles ``is_complete`` completes, and asks about every tile exactly where
  the gate before it saw a special shape near; its per-suit pass (``chances._sets_only``,
  ``_pair_and_sets``: used up without wilds, one greedy pass) says "no wilds needed" exactly where
  ``decompose.suit_least`` does. Its per-suit answers are read for keys of counts 0..3 from a list
  by the counts packed two bits a kind (``chances._front_index``): one place per key, the answers
  of the plain look-up.
* :func:`tiles.tile` works a canonical name out from its two characters: the look-up of the
  name among the tiles' names for every string, canonical or near (every two characters of a
  wide range), with and without the aliases.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from mahjong_audit.engine import chances
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import WINDS
from mahjong_audit.engine.chances import ASK, shape_gate
from mahjong_audit.engine.decompose import (
    HONOURS_EMPTY,
    KEY_SHIFT,
    is_complete,
    is_seven_pairs,
    suit_least,
)
from mahjong_audit.engine.hand import NotAWin
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.rulesets import longgang_readings as R
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.mcr import KNITTED, ORPHANS
from mahjong_audit.schemas.log import Game
from tests import longgang_handgen as G

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def sample_games() -> list[Game]:
    out = []
    for path in sorted(SAMPLES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines()[:4]:
            try:
                out.append(Game.model_validate(json.loads(line)))
            except ValueError:
                continue  # a record the audit rejects: no replay to check
    return out


def plain_shape(replay: HandReplay, y: int, t: int) -> bool:
    st = replay.seats[y]
    if T.is_flower(t) and type(replay.rs).flower_kept is Ruleset.flower_kept:
        # flowers set aside (MCR, 广东): a flower never wins a hand (seed 002 花牌 "不计在起胡番内，胡牌后才能
        # 计番"), the gate names none. The shape test reads flower counts as nothing, so it would
        # call a seat's full hand on its turn (a state the replay asks nothing of) with a flower complete.
        return False
    counts = st.hand[:]
    counts[t] += 1
    return replay.rs.is_complete(counts if any(counts[T.FLOWER0:]) else counts[:34], st.melds, st.wilds)


@pytest.mark.parametrize("game", sample_games(), ids=lambda g: f"{g.ruleset}-{g.game_id}")
def test_cached_shape_answers_match_the_plain_test_after_every_event(game):
    ruleset = RULESETS[game.ruleset](game.options)
    checked = 0

    def check(i: int, replay: HandReplay) -> None:
        nonlocal checked
        y = i % 4  # one seat per event, every tile; the cache is asked in between by the replay itself
        for t in range(T.N_TILES):
            assert replay.chances.shape_wins(replay, y, t) == plain_shape(replay, y, t), (i, y, T.name(t))
            checked += 1

    for hand in game.hands:
        HandReplay(ruleset, hand, WINDS.index(hand.round_wind)).run(check)
    assert checked > 0


OTHER_RULES = (
    S.Rules(),
    S.Rules(non_winner_wild_choice="best"),
    S.Rules(non_winner_split_triplet=True, wild_beyond_fourth_copy="any"),
    S.Rules(non_winner_single_two_wilds=False, zuo_is_second_caishen=False, non_winner_four_flowers_tai=1),
    S.Rules(wild_beyond_fourth_copy="value_honours", round_wind_triplet_tai=True),
)


def natural(c, w):
    """The 34 natural counts, the wilds' kinds emptied (written here apart from the engine's)."""
    return [0 if t in w.all else n for t, n in enumerate(c[:34])]


def score_every_placement(concealed, melds, flowers, seat_wind, w, rules, round_wind):
    """The 陪家's score as it was computed before: every placement scored in full, the first best kept."""
    c = T.counts(concealed)
    nat = natural(c, w)
    wild_n = sum(c[t] for t in w.all)
    real = sum(c[t] for t in w.real)
    limits = S.copy_limits_of(melds, seat_wind, nat, rules.wild_beyond_fourth_copy == "any")
    best = None
    for chosen in S.other_placements(nat, wild_n, limits, rules.non_winner_single_two_wilds,
                                     rules.non_winner_split_triplet):
        used = S.wild_cost(nat, chosen)
        if rules.non_winner_wild_choice == "best":
            splits = range(max(0, used - (wild_n - real)), min(real, used) + 1)
        else:
            splits = range(min(real, used), min(real, used) + 1)
        for used_real in splits:
            sc = S.score_other_placement(concealed, melds, flowers, seat_wind, w, rules, chosen, round_wind, used_real)
            d, bd = dict(sc.details), dict(best.details) if best is not None else {}
            if best is None or (sc.total, d["tai"], d["hu"]) > (best.total, bd["tai"], bd["hu"]):
                best = sc
    return best


@pytest.mark.parametrize("rules", OTHER_RULES, ids=range(len(OTHER_RULES)))
def test_other_seat_best_placement_is_the_full_scoring_of_every_placement(rules):
    rng = random.Random(11)
    several = 0
    for _ in range(400):
        tiles, melds, seat_wind, indicator = G.other_hand(rng)
        w = S.wilds_for(seat_wind, indicator)
        flowers = tuple(f for f in range(T.FLOWER0, T.FLOWER0 + 4) if f not in w.all and rng.random() < 0.4)
        round_wind = rng.randrange(4)
        got = S.score_other(tiles, melds, flowers, seat_wind, w, rules, round_wind)
        assert got == score_every_placement(tiles, melds, flowers, seat_wind, w, rules, round_wind), T.fmt(tiles)
        c = T.counts(tiles)
        several += len(S.other_placements(natural(c, w), sum(c[t] for t in w.all))) > 1
    assert several > 50  # many hands have a choice to make


def test_is_complete_beyond_a_byte_and_beyond_four_copies():
    """Counts beyond four copies (no real hand, but a count list may say so), and beyond a byte
    (the tuple key)."""
    c = [0] * 34
    c[0] = 8  # 111 111 11m
    assert is_complete(c, 2)
    c[27] = 8  # and eight 东: 16 tiles, not 3n + 2
    assert not is_complete(c, 4)
    c[27] = 9  # 111 111 11m 111 111 111z
    assert is_complete(c, 5)
    c[27], c[1] = 0, 1  # 111 111 11m and 2m with two wilds: 222m
    assert is_complete(c, 3, wilds=2)
    assert not is_complete(c, 3, wilds=5)
    c = [0] * 34
    c[5] = 300  # 100 triplets of 6m
    assert is_complete(c, 100, wilds=2) and not is_complete(c, 100)


def plain_complete(counts, n_melds, wilds, rules, extra=0):
    """龙港's ``complete`` as it was (``extra`` 1: the quick no): the 42 counts copied, every
    flower held checked, the wilds and 正财 counted, the wild kinds emptied from a copy."""
    c = list(counts) + [0] * (42 - len(counts)) if isinstance(counts, list) else T.counts(counts)
    for t in range(T.FLOWER0, T.N_TILES):
        if c[t] and t not in wilds:
            return False
    every = rules.three_caishen == 4 or sum(1 for t in wilds if T.is_flower(t)) >= 2
    w = sum(c[t] for t in wilds)
    real = sum(c[t] for t in wilds if every or not T.is_flower(t))
    if real + extra >= rules.three_caishen:
        return True
    if n_melds > 5:
        return False
    nat = [0 if t in wilds else c[t] for t in range(34)]
    if is_complete(nat, 5 - n_melds, w + extra):
        return True
    return rules.eight_pairs and n_melds == 0 and R.is_eight_pairs(nat, w + extra)


SHAPE_RULES = (S.Rules(), S.Rules(three_caishen=4), S.Rules(eight_pairs=False))


def _shape_cases(rng: random.Random):
    """Standing counts of random 龙港 hands (winning ones, one tile less, a few tiles changed,
    flowers kept or not) as 42- and 34-entry lists and tile tuples, with each seat's wilds, a
    花财神's, none, or two wild kinds (a ``score`` line's ``wildcards``)."""
    while True:
        sit = G.winning_hand(rng)
        if sit is None:
            continue
        tiles = list(sit.concealed) + [sit.win_tile]
        for _ in range(rng.choice((0, 0, 1, 2))):
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        if rng.random() < 0.5:
            tiles.pop(rng.randrange(len(tiles)))
        if rng.random() < 0.05:
            tiles.append(rng.randrange(T.FLOWER0, T.N_TILES))
        pick = rng.random()
        if pick < 0.1:
            wilds = frozenset()
        elif pick < 0.2:
            wilds = frozenset(rng.sample(range(34), 2)) | {T.FLOWER0 + sit.seat_wind}
        else:
            wilds = S.wilds_of(sit).all
        yield tiles, len(sit.melds), wilds


def test_longgang_shape_tests_answer_as_the_plain_test():
    rng = random.Random(47)
    cases = _shape_cases(rng)
    answers = {True: 0, False: 0}
    for _ in range(6000):
        tiles, n_melds, wilds = next(cases)
        rules = rng.choice(SHAPE_RULES)
        c = T.counts(tiles)
        for given in (c, c[:34] if not any(c[T.FLOWER0:]) else c, tuple(tiles)):
            want = plain_complete(given, n_melds, wilds, rules)
            assert S.complete(given, n_melds, wilds, rules) == want, (T.fmt(tiles), n_melds, sorted(wilds))
            answers[want] += 1
        want = plain_complete(c, n_melds, wilds, rules, extra=1)
        assert S.may_complete_with_one(tuple(c), n_melds, wilds, rules) == want, (T.fmt(tiles), sorted(wilds))
        answers[want] += 1
    assert min(answers.values()) > 2000  # both answers come up often


WINNER_RULES = (
    S.Rules(),
    S.Rules(appendix_hands=frozenset(S.APPENDIX_TAI)),
    S.Rules(appendix_hands=frozenset({"门清", "不求人", "四暗刻"}), eight_pairs_limit=True, four_kings_limit=True),
    S.Rules(home_caishen_pair="also_wild", pure_straight_tai=True, round_wind_triplet_tai=True,
            single_wait_self_draw_bonus=True, edge_single_discard_bonus=True),
    S.Rules(wild_beyond_fourth_copy="value_honours", wild_pair_robbing=False, zuo_is_second_caishen=False),
)


def score_every_reading(sit, rules):
    """The winner's score as it was computed before: every reading scored in full (each row of
    ``TAI_ROWS`` asked), the first best by (total, 台, 胡) kept."""
    ctx = S.winner_context(sit, rules)
    c = T.counts(sit.full_concealed)
    w = ctx.wilds
    nat = natural(c, w)
    win = sit.win_tile
    win_wild = win in w.all
    if not win_wild:
        nat[win] -= 1
    readings = R.winner_readings(tuple(nat), None if win_wild else win, win in w.real, ctx.real - (win in w.real),
                                 ctx.zuo - (win == w.zuo), w.caishen_kind, 5 - len(sit.melds),
                                 rules.eight_pairs and not sit.melds)
    limits = S.copy_limits_of(sit.melds, sit.seat_wind, natural(c, w), rules.wild_beyond_fourth_copy == "any")
    robbing = sit.kong and not sit.self_drawn
    best = None
    for r in readings:
        part = r.parts[r.win_idx]
        if robbing and not rules.wild_pair_robbing and part.kind == "pair" and part.wilds > 0:
            continue
        if not R.within_copy_limits(r, limits):
            continue
        sc = S.score_reading(sit, r, rules, ctx)
        d = dict(sc.details)
        key = (sc.total, d["tai"], d["hu"])
        if best is None or key > best[0]:
            best = (key, sc)
    return None if best is None else best[1]


@pytest.mark.parametrize("rules", WINNER_RULES, ids=range(len(WINNER_RULES)))
def test_winner_best_reading_is_the_full_scoring_of_every_reading(rules):
    rng = random.Random(53)
    scored = limits = 0
    for _ in range(400):
        sit = G.winning_hand(rng)
        if sit is None:
            continue
        if rng.random() < 0.3:
            sit = replace(sit, self_drawn=False, kong=rng.random() < 0.3)
        if S._three_caishen(S.winner_context(sit, rules).real, S.winner_context(sit, rules).zuo,
                            S.wilds_of(sit), rules):
            continue
        want = score_every_reading(sit, rules)
        if want is None:
            with pytest.raises(NotAWin):
                S.score_winner(sit, rules)
            continue
        assert S.score_winner(sit, rules) == want, T.fmt(sit.full_concealed)
        scored += 1
        limits += bool(dict(want.details)["limit"])
    assert scored > 200 and limits > 5  # limit hands among them


def _old_gate(hand: list[int], n_melds: int, wilds: frozenset[int]) -> bool:
    """The claim chances' gate as it was before ``chances.shape_gate`` (sixth round): a standard
    hand with one wild more, then the special shapes by a pass over the 34 counts."""
    if any(hand[T.FLOWER0:]) or any(hand[w] for w in wilds):
        return True
    total = sum(hand[:34])
    if (total - 1) % 3 == 0 and is_complete(hand, (total - 1) // 3, 1):
        return True
    if n_melds > 1:
        return False
    return _old_specials(hand, n_melds, total)


def _old_specials(hand: list[int], n_melds: int, total: int) -> bool:
    held = sum(1 << t for t in range(34) if hand[t])
    pairs = sum(n // 2 for n in hand[:34])
    orphans = sum(1 << t for t in ORPHANS)
    if n_melds == 0 and ((held & orphans).bit_count() >= 12 or pairs >= (total + 1) // 2 - 1):
        return True
    # 全不靠 / 七星不靠: 13 distinct tiles, the suited ones all in one knitted pattern (the gate
    # of the seventh round asked about any 13 distinct tiles)
    suited = held & ((1 << 27) - 1)
    if n_melds == 0 and total == 13 and held.bit_count() == total and \
            any(not suited & ~sum(1 << t for t in p) for p in KNITTED):
        return True
    return any((held & sum(1 << t for t in p)).bit_count() >= 8 for p in KNITTED)


def _gate_hand(r: random.Random) -> tuple[list[int], int, frozenset[int]]:
    """42 counts, a number of melds and wild tiles: random tiles, hands one tile from a standard
    hand (or two), near seven pairs, thirteen orphans or a knitted row, wrong sizes, five copies."""
    n_melds = r.choice((0, 0, 0, 1, 1, 2, 3, 4))
    size = r.choice((13, 13, 13, 16)) - 3 * n_melds + r.choice((0, 0, 0, 0, -1, 1, -3, 3))
    size = max(size, 1)
    c = [0] * 42
    kind = r.random()
    tiles: list[int] = []
    if kind < 0.35:  # sets and a pair, less a tile or two
        while len(tiles) < size + 1:
            if r.random() < 0.5:
                s, v = r.randrange(3), r.randrange(7)
                tiles += [9 * s + v, 9 * s + v + 1, 9 * s + v + 2]
            else:
                tiles += [r.randrange(34)] * r.choice((2, 3))
        r.shuffle(tiles)
        tiles = tiles[:size]
    elif kind < 0.45 and n_melds == 0:  # near seven pairs
        tiles = [t for k in r.sample(range(34), 7) for t in (k, k)][: size]
    elif kind < 0.55:  # near thirteen orphans or a knitted row, with honours
        pool = list(ORPHANS) if r.random() < 0.5 else sorted(r.choice(KNITTED)) + list(range(27, 34))
        tiles = [r.choice(pool) for _ in range(size)]
    else:
        tiles = [r.randrange(34) for _ in range(size)]
    for t in tiles:
        c[t] += 1
    if r.random() < 0.03:
        c[r.randrange(34)] += r.choice((4, 5, 70, 300))  # five copies or more; a suit of 64 tiles; beyond a byte
    wilds: frozenset[int] = frozenset()
    if r.random() < 0.05:
        wilds = frozenset({r.randrange(42)})
    if r.random() < 0.03:
        c[r.randrange(T.FLOWER0, T.N_TILES)] += 1
    return c, n_melds, wilds


def test_shape_gate_names_exactly_the_tiles_that_make_a_standard_hand():
    """``chances.shape_gate`` against the plain tests on random hands: ASK exactly when the
    old gate's special shapes (or flowers, wilds, a count beyond 15) say "maybe", but for a
    hand of 13 tiles near seven pairs alone; else the tiles ``is_complete`` completes one by one,
    no more, no fewer; and "no tile" exactly when the old gate said no. Near seven pairs alone
    (no melds, 13 tiles, six pairs), the tiles that make a standard hand and the kinds held an
    odd number of times, marked ``LOOSE``: every tile that makes seven pairs among them."""
    r = random.Random(29)
    asked = named = none = loose = 0
    for _ in range(6000):
        c, n_melds, wilds = _gate_hand(r)
        got = shape_gate(c, n_melds, wilds)
        if max(c) > 15:  # no real hand: no quick answer (the old gate's answer may be no)
            assert got == ASK
            asked += 1
            continue
        assert chances.may_complete(c, n_melds, wilds) == _old_gate(c, n_melds, wilds) == (got != 0), (c, n_melds)
        total = sum(c[:34])
        flowers_or_wilds = any(c[T.FLOWER0:]) or any(c[w] for w in wilds)
        special = flowers_or_wilds or (n_melds <= 1 and _old_specials(c, n_melds, total))
        # (six pairs in 13 tiles leave at most 7 kinds: too few for thirteen orphans or a knitted shape)
        near_pairs_alone = not flowers_or_wilds and n_melds == 0 and total == 13 and sum(n // 2 for n in c[:34]) >= 6
        if special and not near_pairs_alone:
            assert got == ASK, (c, n_melds)
            asked += 1
            continue
        want = 0
        for t in range(34):
            c[t] += 1
            if (total + 1) % 3 == 2 and is_complete(c, (total - 1) // 3):
                want |= 1 << t
            c[t] -= 1
        if near_pairs_alone:
            odd = sum(1 << t for t in range(34) if c[t] % 2)
            assert got == want | odd | chances.LOOSE, (T.fmt(t for t in range(34) for _ in range(c[t])), n_melds)
            for t in range(34):
                c[t] += 1
                assert not is_seven_pairs(c) or got >> t & 1, (c, t)
                c[t] -= 1
            loose += 1
            continue
        assert got == want, (T.fmt(t for t in range(34) for _ in range(c[t])), n_melds)
        named += want != 0
        none += want == 0
    assert asked > 300 and named > 1000 and none > 1000 and loose > 50


def test_gate_suit_pass_agrees_with_the_fewest_wilds():
    """``chances._sets_only`` / ``_pair_and_sets`` (one greedy pass, the pair's kind picked by the
    kinds' sum modulo 3) say True exactly where ``suit_least`` needs no wilds without the pair /
    with it: every suit of up to fourteen tiles (counts up to four: 448,480 suits, every suit a
    hand holds, with one tile more), and random suits with counts no
    hand holds (up to 16, as the gate's waits ask one tile beyond a count of 15), packed as
    ``chances._spread`` packs a suit key's counts (five bits a kind, the first kind lowest)."""
    def check(c: tuple[int, ...], honour: bool) -> None:
        m0, m1 = suit_least(c, honour)
        kinds = len(c)
        wide = sum(n << chances._WIDE * r for r, n in enumerate(c))
        assert chances._sets_only(wide, kinds, honour) == (m0 == 0), (c, honour)
        assert chances._pair_and_sets(wide, kinds, honour) == (m1 == 0), (c, honour)

    for honour in (False, True):
        for c in itertools.product(range(5), repeat=7 if honour else 9):
            if sum(c) <= 14:
                check(c, honour)
    r = random.Random(30)
    for _ in range(3000):
        honour = r.random() < 0.3
        check(tuple(r.choice((0, 0, 1, 2, 3, 4, 5, 6, 7, 15, 16)) for _ in range(7 if honour else 9)), honour)


def test_the_front_of_the_suit_answers_gives_each_key_its_own_place_and_its_answer():
    """``chances._front_index`` packs a suit key of counts 0..3 (nine kinds, or the honours' seven
    with their mark) into a place of ``_FRONT`` of its own, and ``_facts`` reads there what
    ``_suit_facts`` works out (keys with a count above 3 go to the dict)."""
    def key(counts, honour):
        k = HONOURS_EMPTY if honour else 0
        for r, n in enumerate(counts):
            k += n << KEY_SHIFT[27 + r if honour else r]
        return k

    places = set()
    for honour, kinds in ((False, 9), (True, 7)):
        for counts in itertools.product(range(4), repeat=kinds):
            places.add(chances._front_index(key(counts, honour)))
    assert len(places) == 4 ** 9 + 4 ** 7 and max(places) < len(chances._FRONT)
    r = random.Random(7)
    for _ in range(3000):
        honour = r.random() < 0.3
        counts = [r.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(7 if honour else 9)]
        k = key(counts, honour)
        assert chances._facts(k) == chances._facts(k) == chances._suit_facts(k), (counts, honour)


def test_a_suit_met_for_the_first_time_gets_the_answers_of_the_fewest_wilds():
    """``chances._suit_facts`` and ``_suit_waits`` read a suit's counts off its key (``_spread``, no
    list): the tile count, the kinds held and the two "no wilds needed" bits are those of the
    counts, and the waits are the kinds whose one tile more ``suit_least`` uses up without wilds
    (without the pair for 2 modulo 3 tiles, with it for 1), on random suits with counts up to 15."""
    r = random.Random(16)
    for _ in range(3000):
        honour = r.random() < 0.3
        kinds = 7 if honour else 9
        counts = [r.choice((0, 0, 0, 1, 1, 2, 3, 4, 15)) for _ in range(kinds)]
        key = HONOURS_EMPTY if honour else 0
        for k, n in enumerate(counts):
            key += n << KEY_SHIFT[27 + k if honour else k]
        tiles = sum(counts)
        m0, m1 = suit_least(tuple(counts), honour)
        facts = chances._suit_facts(key)
        if tiles <= 63:
            assert facts & 255 == tiles and facts >> chances._HELD == sum(1 << k for k, n in enumerate(counts) if n)
            want = 1 if tiles % 3 == 0 and m0 == 0 else 2 if tiles % 3 == 2 and m1 == 0 else 0
            assert facts >> chances._CLASSES & 3 == want, (counts, honour)
        waits = 0
        for k in range(kinds if tiles % 3 else 0):
            more = counts[:]
            more[k] += 1
            w0, w1 = suit_least(tuple(more), honour)
            if tiles % 3 == 2 and w0 == 0:
                waits |= 1 << k
            elif tiles % 3 == 1 and w1 == 0:
                waits |= 1 << (k + 9)
        assert chances._suit_waits(key) == waits, (counts, honour)


def test_the_gates_packed_values_fit_in_64_bits():
    """The gate's packed values are ``tiles.i64`` (native 64-bit ints when compiled): the largest
    suit key ``SeatState`` keeps while its counts pack a hand (every count 15, the honours' mark),
    its per-suit answers (``_suit_facts``; the gate adds four suits' field by field), its counts
    spread five bits a kind with one tile more (``_spread``), and a mask of every tile with both
    marks (``_EXACT``, ``LOOSE``) stay below 2**63; those from keys stay below 2**56."""
    for honour, kinds in ((False, 9), (True, 7)):
        key = HONOURS_EMPTY if honour else 0
        for r in range(kinds):
            key += 15 << KEY_SHIFT[27 + r if honour else r]
        assert 0 <= key < 2 ** 40
        assert 0 <= chances._suit_facts(key) < 2 ** 56 and 4 * chances._suit_facts(key) < 2 ** 63
        assert chances._spread(key, kinds) + (1 << chances._WIDE * (kinds - 1)) < 2 ** 63
    facts = max(chances._pack(63, 255, 255, 255, 255, 3, 511), chances._pack(64, 0, 0, 0, 0, 0, 0))
    assert facts < 2 ** 56
    assert ((1 << T.N_TILES) - 1) | chances._EXACT | chances.LOOSE < 2 ** 63


@pytest.mark.parametrize("aliases", [False, True])
def test_a_tile_from_its_two_characters_is_the_look_up_of_its_name(aliases):
    names = {T.name(t): t for t in range(T.N_TILES)}
    chars = [chr(c) for c in range(0, 400)] + ["东", "中", "春", "１", "٣"]
    near = [a + b for a in chars for b in chars[:130]] + ["", "1", "5p ", " 5p", "10m", "5pp", "5P", *chars]
    for text in [*names, *near, *T._ALIASES]:
        want = names.get(text)
        if aliases and text in T._ALIASES:
            want = names[T._ALIASES[text]]
        if want is None:
            with pytest.raises(T.TileError):
                T.tile(text, aliases=aliases)
        else:
            assert T.tile(text, aliases=aliases) == want
