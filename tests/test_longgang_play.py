"""龙港麻将 play that must audit clean, and its illegal variants (issue 12, items 7–10):
concealed kongs at the deal by any seat (二、二)9, 10), the dealer's 三财神 at the deal
(四、6, 7), a flower or kong replacement at the 河底 tile or the one before it (二、一)6 e),
and 包三家's window (四、a–c "行牌至最后阶段（分张前几张）")."""

from __future__ import annotations

import copy

import pytest

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.audit import audit_game
from mahjong_audit.engine.rulesets.longgang import Longgang, liability_draw
from mahjong_audit.schemas import log as L
from tests.logbuild import audit as audit_dict
from tests.logbuild import game as mcr_game
from tests.logbuild import hand
from tests.longgang_build import (
    DEAL,
    LIABLE_DEAL,
    HandBuilder,
    codes,
    draws,
    idle_until,
    left,
    run,
    with_wall,
)


def recorded(*hands: dict, options=None) -> list[dict]:
    """The hands with the outcome the engine computes written in (what a correct platform records)."""
    hands = copy.deepcopy(list(hands))
    res = run(*hands, options=options)
    for h, facts in zip(hands, res.hands, strict=True):
        wins = [{"seat": w.seat, "from": w.seat if w.from_seat is None else w.from_seat, "tile": w.tile,
                 "score": {"total": w.score.total}} for w in facts.wins if w.legal]
        h["outcome"] = {"result": "win" if wins else "draw", "wins": wins,
                        "deltas": list(facts.computed_deltas or (0, 0, 0, 0))}
    return hands


def all_codes(res) -> list[str]:
    return [f.code for f in res.findings]


# ------------------------------------------------------------ 7. concealed kongs at the deal

# seats 1 and 2 hold four alike; seat 1 waits on 中 (7z) after its kong.
KONG_DEAL = (
    "111z2z333z4z666z7z9m9p123s",  # dealer
    "1111m456m789p123s45s7z",  # seat 1: 1m ×4; with 6s as its replacement it waits on 中
    "2222m567m234p678p8s9s1p",  # seat 2: 2m ×4
    "345m678m346p789s22z1p9s",
)


def deal_kong_hand(order=(1, 2)) -> HandBuilder:
    """二、二)10: after the deal the seats make their concealed kongs 东→南→西→北, each drawing
    its replacement; then the dealer leads. Seat 1 later wins on the dealer's 中."""
    b = HandBuilder(deal=KONG_DEAL, keep="7z2z")
    for s in order:
        b.ev("concealed_kong", s, tile=f"{s}m")
        b.draw(s, "6s" if s == 1 else None, back=True)
    b.discard(0, "2z").idle(3)
    b.draw(0).discard(0, "7z").win(1, "7z", 0)
    return b


def test_concealed_kongs_at_the_deal_by_two_seats_audit_clean():
    h0 = deal_kong_hand().hand(0)
    res = run(*recorded(h0))
    assert all_codes(res) == []
    facts = res.hands[0]
    assert facts.wins[0].seat == 1 and facts.wins[0].legal
    assert "暗杠大子" in [i.name for i in facts.wins[0].score.items]  # seat 1 scores its kong of 1m


def test_deal_kongs_then_the_next_hand_continues():
    """The issue's derailment: a seat's kong at the deal made the next hand a continuity error."""
    h0 = deal_kong_hand().hand(0)
    b1 = HandBuilder(dealer=1, deal=(DEAL[3], "111z2z333z4z666z7z9m9p123s", DEAL[2], "123m456m789p123s456s7z"),
                     keep="7z2z")
    b1.turn = 1
    b1.discard(1, "2z").idle(3)
    b1.draw(1).discard(1, "7z").win(3, "7z", 1)
    res = run(*recorded(h0, b1.hand(1)))
    assert all_codes(res) == []


def test_deal_kongs_out_of_seat_order_are_reported_and_the_hand_goes_on():
    res = run(deal_kong_hand(order=(2, 1)).hand())
    assert codes(res) == ["turn_order/wrong_seat"]
    f = res.findings[0]
    assert f.seat == 1 and f.severity.name == "WARNING"
    assert res.hands[0].wins[0].legal  # seat 1's win stands


def test_kong_at_the_deal_without_four_tiles_is_caught():
    b = HandBuilder(deal=KONG_DEAL, keep="7z2z")
    b.ev("concealed_kong", 3, tile="3m").draw(3, back=True)
    assert "illegal_call/tiles_not_held" in codes(run(b.hand()))


def test_a_kong_may_wait_until_the_seats_own_turn():
    """二、二)9 "暗杠可以马上补也可以往后再补": seat 2 keeps its four 2m through the deal and
    makes the kong after its first draw."""
    b = HandBuilder(deal=KONG_DEAL, keep="7z2z2m")
    b.discard(0, "2z").draw(1).discard(1, b.last).draw(2)
    b.ev("concealed_kong", 2, tile="2m").draw(2, back=True)
    b.discard(2, b.last).idle(1)
    assert codes(run(b.hand())) == []


def test_a_concealed_kong_out_of_turn_is_reported_once_and_the_hand_does_not_derail():
    """After the first discard seat 2's kong is out of turn: one finding, then the table goes on
    where it was — no 相公 for any seat, seat 1's later win is legal, no penalty."""
    b = HandBuilder(deal=KONG_DEAL, keep="7z2z2m")
    b.ev("concealed_kong", 1, tile="1m").draw(1, "6s", back=True)  # a legal kong at the deal
    facts = stray_event_then_seat_1_wins(b, "concealed_kong", 2, "2m")
    assert facts.computed_deltas[1] > 0


def stray_event_then_seat_1_wins(b: HandBuilder, kind: str, seat: int, tile: str):
    """Seat 1 draws; ``seat`` makes ``kind`` of ``tile`` (out of turn) with its replacement; seat 1
    discards its draw; play goes round to seat 1's win on the dealer's 中. Exactly one finding."""
    b.discard(0, "2z").draw(1)
    b.ev(kind, seat, tile=tile).draw(seat, back=True)  # seat 1 is to discard
    b.discard(1, b.events[-3]["tile"])
    b.turn = 2
    b.idle(2)
    b.draw(0).discard(0, "7z").win(1, "7z", 0)
    res = run(b.hand())
    assert codes(res) == ["turn_order/wrong_seat"]
    assert res.hands[0].wins[0].legal
    return res.hands[0]


def test_a_kong_at_the_deal_is_not_a_call_for_earthly_win():
    """A concealed kong at the deal does not break 地胡 (a win on the dealer's first discard)."""
    deal = (DEAL[0], DEAL[1], DEAL[2], "8888m345m346p789s22z1p")
    b = HandBuilder(deal=deal)
    b.ev("concealed_kong", 3, tile="8m").draw(3, back=True).discard(0, "7z").win(1, "7z", 0)
    res = run(*recorded(b.hand()))
    assert all_codes(res) == []
    assert "地胡" in [i.name for i in res.hands[0].wins[0].score.items]


def test_a_flower_out_of_turn_is_reported_once_and_the_table_resumes():
    deal = (DEAL[0], DEAL[1], DEAL[2], "345m678m346p789s22z1p3f")  # seat 3 holds 3f (秋: not its own)
    stray_event_then_seat_1_wins(HandBuilder(deal=deal, keep="7z2z"), "flower", 3, "3f")


def test_mcr_has_no_kongs_at_the_deal():
    """In a ruleset without deal kongs a non-dealer's kong before the first discard is out of turn
    (reported), and the replay still resynchronises."""
    h = hand(["5p123m456m789m1122z", "1111p234567899p", "123456789s1234z", "123456789m5566z"],
             "1 concealed_kong 1p", "1 draw 1s back", "0 discard 5p", "1 draw 3z", "1 discard 3z")
    got = [f.code for f in audit_dict(mcr_game(h)).findings]
    assert got.count("turn_order/wrong_seat") == 1
    assert not [c for c in got if c.startswith("dead_hand")]


# ------------------------------------------------------------ 8. the dealer's 三财神 at the deal

THREE_WILD_DEALER = ("5p5p5p1z2z333z4z666z9m9p12s7p", *DEAL[1:])  # the dealer's 17th tile is 7p


def test_dealers_three_caishen_at_the_deal_is_a_heavenly_limit():
    """四、6 "天和：庄家起牌或者补完花（可暗杠）而胡牌 … 含三财神胡牌"; 四、7 推土机. Declared as a
    ``win`` with ``from`` = the dealer on one of its 财神, not on its last tile (7p)."""
    b = HandBuilder(deal=THREE_WILD_DEALER)
    b.win(0, "5p", 0)
    res = run(*recorded(b.hand()))
    assert all_codes(res) == []
    w = res.hands[0].wins[0]
    assert w.legal and w.score.total == 300
    assert res.hands[0].computed_deltas[0] == 3 * 72


def test_dealers_three_caishen_after_a_kong_at_the_deal():
    deal = ("5p5p5p1z2z3333z666z9m9p12s7p", *DEAL[1:])
    b = HandBuilder(deal=deal)
    b.ev("concealed_kong", 0, tile="3z").draw(0, back=True).win(0, "5p", 0)
    assert all_codes(run(*recorded(b.hand()))) == []


def test_dealers_three_caishen_on_its_17th_tile():
    b = HandBuilder(deal=("5p5p1z2z333z4z666z9m9p12s7p5p", *DEAL[1:]))  # the 17th tile is the third 财神
    b.win(0, "5p", 0)
    res = run(*recorded(b.hand()))
    assert all_codes(res) == []
    assert {"三财神", "天胡"} <= {i.name for i in res.hands[0].wins[0].score.items}


def test_dealer_without_three_caishen_still_gets_wrong_tile():
    deal = ("5p5p1z1z2z333z4z666z9m9p12s7p", *DEAL[1:])
    b = HandBuilder(deal=deal)
    b.win(0, "5p", 0)
    assert "false_win/wrong_tile" in codes(run(b.hand()))


def test_three_caishen_on_a_tile_that_is_not_a_wild_is_wrong():
    b = HandBuilder(deal=THREE_WILD_DEALER)
    b.win(0, "1z", 0)
    assert "false_win/wrong_tile" in codes(run(b.hand()))


# ------------------------------------------------------------ 9. replacements at the 河底 tile

def test_seabed_procedure_option_and_reserve():
    assert Longgang().seabed_replacement == "seed" and Longgang().seabed_reserve == 0
    assert Longgang({"dead_wall": 21}).seabed_reserve == 1
    assert Longgang({"dead_wall": 21, "seabed_replacement": "shorten"}).seabed_reserve == 0


def hedi_flower(seat_draws_hedi: bool, deal=DEAL) -> HandBuilder:
    """Play to the tile before the 河底 (Ⅱ) or the 河底 itself (Ⅰ), drawn by seat 1 as the flower 3f.
    Seat 2 sets aside 1f early when needed so that seat 1 is the one drawing it."""
    b = HandBuilder(deal=deal, keep="7z2z1z")
    b.discard(0, "2z").draw(1).discard(1, b.last)
    if seat_draws_hedi:
        b.draw(2, "1f").ev("flower", 2, tile="1f").draw(2, back=True).discard(2, b.last)
    idle_until(b, 5 if seat_draws_hedi else 6)
    assert b.turn == 1
    b.draw(1, "3f").ev("flower", 1, tile="3f")
    return b


def test_flower_as_the_hedi_tile_20_tile_wang():
    """二、一)6 e (Ⅰ)② "若王牌是20张则从海底牌处末一张，下家摸首张，其它家按序各摸一张": the
    replacement is the seabed's last tile, kept without a discard; the next three seats share
    the other three; nobody wins: exhaustive draw."""
    b = hedi_flower(True)
    pos = len(draws(b, False)) + 3  # the 4th seabed tile
    b.draw(1, back=True)
    for s in (2, 3, 0):
        b.draw(s)
    h = with_wall(b, seabed_end=(pos, b.events[-4]["tile"]))
    res = run(*recorded(h))
    assert all_codes(res) == []
    assert res.hands[0].result == "draw"


def test_haidi_win_on_the_replacement_after_a_hedi_flower():
    """补杠的优先胡牌: seat 1 wins on its replacement (the seabed's last tile) at once — 海底捞月,
    a self-drawn win on the last tile."""
    b = hedi_flower(True)
    pos = len(draws(b, False)) + 3
    b.draw(1, "7z", back=True).win(1, "7z", 1)
    res = run(*recorded(with_wall(b, seabed_end=(pos, "7z"))))
    assert all_codes(res) == []
    w = res.hands[0].wins[0]
    assert w.legal and w.win_type == "self_drawn" and w.last_tile


def test_haidi_win_by_a_seat_sharing_the_seabed():
    """The seat after the replacer receives the first of the three seabed tiles left and wins."""
    deal = (DEAL[0], DEAL[1], "234m567m234p678p888s7z", DEAL[3])  # seat 2 waits on 中
    b = hedi_flower(True, deal)
    pos = len(draws(b, False)) + 3
    b.draw(1, back=True)
    kept = b.last
    b.draw(2, "7z").win(2, "7z", 2)
    res = run(*recorded(with_wall(b, seabed_end=(pos, kept))))
    assert all_codes(res) == []
    w = res.hands[0].wins[0]
    assert w.seat == 2 and w.legal and w.last_tile


def test_hedi_flower_is_not_discarded_and_no_fourth_seabed_tile():
    """The illegal variants: a discard after the kept replacement, and a fourth seabed draw."""
    b = hedi_flower(True)
    b.draw(1, back=True)
    b.discard(1, b.last)
    assert "turn_order/seabed" in codes(run(b.hand()))
    b = hedi_flower(True)
    b.draw(1, back=True)
    for s in (2, 3, 0, 1):
        b.draw(s)
    assert "turn_order/after_end" in codes(run(b.hand()))


def test_hedi_replacement_must_be_the_seabeds_last_tile():
    b = hedi_flower(True)
    b.draw(1, back=True)
    for s in (2, 3, 0):
        b.draw(s)
    h = with_wall(b)  # the replacement placed at the far end, as an ordinary one
    assert "tile_conservation/wall_mismatch" in codes(run(h))


def test_flower_before_the_hedi_tile_20_tile_wang():
    """(Ⅱ)② "王牌前移一幢成11幢（此时海底牌只剩3张），再补进岭尾最后一张，不用打出，其它三家按序
    分张": the replacement comes from the far end, no discard, three seabed tiles for the others."""
    b = hedi_flower(False)
    assert left(b) == 5
    b.draw(1, back=True)
    for s in (2, 3, 0):
        b.draw(s)
    res = run(*recorded(with_wall(b)))
    assert all_codes(res) == []
    assert res.hands[0].result == "draw"


def test_win_after_a_flower_before_the_hedi_tile():
    b = hedi_flower(False)
    b.draw(1, "7z", back=True).win(1, "7z", 1)
    res = run(*recorded(with_wall(b)))
    assert all_codes(res) == []
    assert res.hands[0].wins[0].last_tile


def test_kong_on_the_hedi_drawers_discard():
    """(Ⅰ) "打出这手牌 … 有人开大明杠": the 河底 drawer's discard is konged; the konger takes the
    seabed's last tile, keeps it, and the other three share the rest."""
    deal = ("111z2z333z4z666z7z8m9p123s", DEAL[1], DEAL[2], "345m678m999m46p789s22z")  # seat 3: 999m
    b = HandBuilder(deal=deal, keep="7z2z1z9m")
    b.discard(0, "2z")
    idle_until(b, 5)
    assert b.turn == 2
    b.draw(2, "9m").discard(2, "9m", claims=[{"seat": 3, "call": "kong"}])
    b.ev("kong", 3, tile="9m", **{"from": 2})
    pos = len(draws(b, False)) + 3
    b.draw(3, back=True)
    kept = b.last
    for s in (0, 1, 2):
        b.draw(s)
    res = run(*recorded(with_wall(b, seabed_end=(pos, kept))))
    assert all_codes(res) == []


def test_shorten_option_keeps_the_old_procedure():
    """``seabed_replacement: shorten``: an ordinary replacement, a discard, a seabed one shorter."""
    b = hedi_flower(True)
    b.draw(1, back=True).discard(1, b.last)
    for s in (2, 3, 0):
        b.draw(s)
    opts = {"seabed_replacement": "shorten"}
    res = run(*recorded(with_wall(b), options=opts), options=opts)
    assert all_codes(res) == []
    assert "turn_order/seabed" in codes(run(with_wall(b)))  # the default procedure has no discard there


def test_21_tile_wang_reserve_then_the_full_seabed():
    """(Ⅰ)① "若王牌有21从牌岭尾补一张牌选一张手中牌打出后再分张": the reserve tile is the
    replacement, the seat discards, and all four seabed tiles are handed out."""
    opts = {"dead_wall": 21}
    b = HandBuilder(keep="7z2z1z")
    b.discard(0, "2z").draw(1).discard(1, b.last)
    while left(b, 21) > 5:
        b.idle(1)
    assert b.turn == 1
    b.draw(1, "3f").ev("flower", 1, tile="3f").draw(1, back=True).discard(1, b.last)
    for s in (2, 3, 0, 1):
        b.draw(s)
    res = run(*recorded(with_wall(b), options=opts), options=opts)
    assert all_codes(res) == []
    # with a 20-tile 王牌 the same log keeps a tile too many: the seed's ② applies there
    assert codes(run(with_wall(b))) != []


def test_21_tile_wang_second_flower_falls_back_to_the_20_tile_procedure():
    """"假如补来的杠尾牌刚好又是花杠牌则按②步骤": the reserve replacement is a flower again."""
    opts = {"dead_wall": 21}
    b = HandBuilder(keep="7z2z1z")
    b.discard(0, "2z").draw(1).discard(1, b.last)
    while left(b, 21) > 5:
        b.idle(1)
    b.draw(1, "3f").ev("flower", 1, tile="3f").draw(1, "4f", back=True).ev("flower", 1, tile="4f")
    pos = len(draws(b, False)) + 3
    b.draw(1, back=True)
    kept = b.last
    for s in (2, 3, 0):
        b.draw(s)
    res = run(*recorded(with_wall(b, seabed_end=(pos, kept)), options=opts), options=opts)
    assert all_codes(res) == []


FLOWERS = ["1f", "2f", "3f", "4f"]


def flower_turn(b: HandBuilder, flowers: list[str]) -> str | None:
    """The seat to play draws a flower that is not its own (a 客花), sets it aside and takes its
    replacement; returns the flower (None if none is left for that seat)."""
    s = b.turn
    own = T.name(T.FLOWER0 + (s - b.dealer) % 4)
    f = next((x for x in flowers if x != own), None)
    if f is not None:
        flowers.remove(f)
        b.draw(s, f).ev("flower", s, tile=f)
    return f


@pytest.mark.parametrize("shift", [0, 1, 2])
@pytest.mark.parametrize("dead_wall", [20, 21])
@pytest.mark.parametrize("case", ["I", "II"])
def test_family_of_late_flowers_audits_clean(case: str, dead_wall: int, shift: int):
    """Generated hands: a flower as the 河底 tile (Ⅰ) or the one before it (Ⅱ), with a 20- or
    21-tile 王牌, drawn by whichever seat is due (early flower replacements move it round)."""
    opts = {"dead_wall": dead_wall}
    reserve = 0
    flowers = list(FLOWERS)

    def n_left() -> int:
        return left(b, dead_wall) + reserve

    b = HandBuilder(keep="7z2z")
    b.discard(0, "2z")
    for _ in range(shift):
        if flower_turn(b, flowers) is None:
            pytest.skip("no 客花 left for this seat")
        b.draw(b.turn, back=True).discard(b.turn, b.last)
    while n_left() > (5 if case == "I" else 6):
        b.idle(1)
    drawer = b.turn
    if flower_turn(b, flowers) is None:
        pytest.skip("no 客花 left for the drawer")
    seabed_end = None
    if dead_wall == 21:  # ①: the reserve, a discard, then play on to the full seabed
        b.draw(drawer, back=True)
        reserve = 1
        b.discard(drawer, b.last)
        while n_left() > 4:
            b.idle(1)
        first, n = b.turn, 4
    else:  # ②: the replacement kept, the other three share what is left
        if case == "I":
            seabed_end = len(draws(b, False)) + 3
        b.draw(drawer, back=True)
        if seabed_end is not None:
            seabed_end = (seabed_end, b.last)
        first, n = (drawer + 1) % 4, 3
    for k in range(n):
        b.draw((first + k) % 4)
    h = with_wall(b, seabed_end=seabed_end)
    res = run(*recorded(h, options=opts), options=opts)
    assert all_codes(res) == [] and res.hands[0].result == "draw"


# ------------------------------------------------------------ 10. 包三家's window

def test_liability_window_positions():
    """The window counts live draws back from the 河底 tile: a discard after the 河底 draw is at 1
    (4 tiles left: the seabed), after the draw before it at 2, …"""
    assert liability_draw(4, 4) == 1
    assert liability_draw(7, 4) == 4
    assert liability_draw(8, 4) == 5


def liable_at(position: int) -> HandBuilder:
    """The dealer discards its single 中 (holding a single 东: 四、a) after the live draw at
    ``position`` counted back from the 河底 tile; seat 1 wins on it."""
    b = HandBuilder(deal=LIABLE_DEAL, indicator="3z", keep="7z1z")
    b.discard(0, "1s")
    flowers = (3 - position) % 4  # shift the parity with flower replacements so the dealer draws there
    for f in ("3f", "4f", "2f")[:flowers]:  # seats 1, 2, 3 each set aside another seat's flower
        s = b.turn
        b.draw(s, f).ev("flower", s, tile=f).draw(s, back=True).discard(s, b.last)
    while left(b) > 4 + position:
        b.idle(1)
    assert b.turn == 0, (position, b.turn)
    b.draw(0)
    assert left(b) == 4 + position - 1
    b.discard(0, "7z").win(1, "7z", 0)
    return b


def liable(position: int, window: int | None = None) -> bool:
    """Does the dealer pay for all (包三家)? Its deltas differ from those with the rule off."""
    h = liable_at(position).hand()
    res = run(h, options=None if window is None else {"liability_window": window})
    off = run(h, options={"liability_window": 0})
    assert codes(res) == [] and res.hands[0].wins[0].legal
    return res.hands[0].computed_deltas != off.hands[0].computed_deltas


def test_liability_window_boundary():
    """Default 4: the discard after the 4th-last live draw is inside, after the 5th-last outside."""
    assert liable(4)
    assert not liable(5)
    assert liable(1)
    assert not liable(4, window=3)
    assert liable(3, window=3)


# ------------------------------------------------------------ the simulator plays them too

# games of the run (seed 31, 2 hands each) that show the situations above; the wider corpus
# (tests/test_sim_clean.py, make bench) meets them at about the same rate
SIM_GAMES = {
    20: (4, 37, 56, 82),  # kept replacements (4, 37; 37 is won on it), kongs at the deal by non-dealers (56, 82)
    21: (37, 139),  # the reserve tile (37, 139), then a second replacement kept (139)
}


def test_simulated_deal_kongs_and_seabed_replacements_audit_clean():
    from collections import Counter

    from mahjong_audit.engine.sim.game import game_id, game_rng, simulate_game

    cov: Counter = Counter()
    for dead_wall, indices in SIM_GAMES.items():
        opts = {"dead_wall": dead_wall}
        for i in indices:
            g = simulate_game(Longgang(opts), game_rng(31, i), game_id("longgang", 31, i), 2, cov)
            g["options"] = opts
            res = audit_game(L.parse_game(g))
            assert [(f.code, f.message) for f in res.findings] == [], (dead_wall, i)
    for key in ("deal_kongs_non_dealer", "seabed_replacement_kept", "seabed_replacement_reserve"):
        assert cov[key] > 0, key
