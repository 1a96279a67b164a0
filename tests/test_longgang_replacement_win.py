"""A self-drawn win on a replacement tile keeps its replacement flag in the replay, on every path
a replacement is drawn (issue 24 item 7a, issue 26 item 4). Seed 二、二)9 "开杠或补花时，用杠尾摸的
那张牌（岭上牌）而和牌，只计自摸2胡"; 二、二)1 "自摸(含补花，补杠胡牌)".

Seat 1 holds ``123m456m789p13s456s77z`` and waits on 2s in the middle (卡档): drawn live the win
scores 自摸卡档 4; drawn as the replacement after a flower or a kong it scores only 自摸 2. The
totals agree (20 + 2 + 4 + 4 = 30 and 20 + 2 + 4 + 2 = 28 both give 60), so a lost flag shows only
as ``score_mismatch/fans`` — the false finding of issue 24 item 7a."""

from __future__ import annotations

from tests.longgang_build import DEAL, HandBuilder, codes, draws, idle_until, left, run, with_wall

#: seat 1 waits on 2s (卡档 1s_3s); seat 3 holds 999m for a kong on the 河底 drawer's discard
CLOSED_DEAL = ("111z2z333z4z666z7z8m9p123s", "123m456m789p13s456s77z", DEAL[2], "345m678m999m13p789s22z")
KEEP = "7z2z1z2s2p9m"


def builder() -> HandBuilder:
    b = HandBuilder(deal=CLOSED_DEAL, keep=KEEP)
    b.discard(0, "2z")
    return b


def the_win(res):
    assert codes(res) == [], [(f.code, f.message) for f in res.findings]
    (w,) = res.hands[0].wins
    assert w.legal and w.seat == 1
    return w


def bonus(w) -> dict[str, int]:
    """The winner's wait bonus items (自摸 / 自摸卡档 / 自摸单吊) by name."""
    return {i.name: i.value for i in w.score.items if i.name.startswith("自摸")}


def with_outcome(h: dict, hu: int, tai: int, total: int, win_tile: str = "2s") -> dict:
    """The hand with the score a platform following 二、二)9 records for seat 1's win."""
    h = dict(h)
    h["outcome"] = {"result": "win", "wins": [{"seat": 1, "from": 1, "tile": win_tile,
                                               "score": {"hu": hu, "tai": tai, "total": total}}]}
    return h


def test_live_draw_is_the_closed_wait():
    """The control: 2s drawn from the live wall is 自摸卡档 4 (二、二)1 "自摸卡档牌胡牌时为4胡")."""
    b = builder()
    b.draw(1, "2s").win(1, "2s", 1)
    w = the_win(run(b.hand()))
    assert bonus(w) == {"自摸卡档": 4}


def test_flower_in_the_middle_of_play_then_the_winning_replacement():
    """补花 in turn play, the replacement wins: 自摸 2, not 自摸卡档 4."""
    b = builder()
    b.draw(1, "3f").ev("flower", 1, tile="3f").draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(b.hand(), 28, 1, 60)))
    assert bonus(w) == {"自摸": 2}


def test_two_flowers_in_a_row_then_the_winning_replacement():
    """The replacement is a flower again ("若所补之牌仍然有花…再补"); the second replacement wins."""
    b = builder()
    b.draw(1, "3f").ev("flower", 1, tile="3f").draw(1, "4f", back=True).ev("flower", 1, tile="4f")
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(b.hand(), 32, 1, 70)))  # 20 + 将 2 + 花 4 × 2 + 自摸 2
    assert bonus(w) == {"自摸": 2}


def hedi_flower(case: str, dead_wall: int = 20) -> HandBuilder:
    """Play on until seat 1 draws the 河底 tile (case Ⅰ) or the one before it (Ⅱ) as the flower 3f
    and sets it aside. Seat 2 sets aside 1f early where needed so that seat 1 is the one drawing."""
    b = builder()
    b.draw(1).discard(1, b.last)
    if (case == "I") == (dead_wall == 20):
        b.draw(2, "1f").ev("flower", 2, tile="1f").draw(2, back=True).discard(2, b.last)
    idle_until(b, 5 if case == "I" else 6, dead_wall)
    assert b.turn == 1
    b.draw(1, "3f").ev("flower", 1, tile="3f")
    return b


def test_kept_replacement_after_a_hedi_flower_case_i():
    """二、一)6 e (Ⅰ)② "从海底牌处末一张": the replacement is the seabed's last tile, kept without a
    discard, and seat 1 wins on it at once (补杠的优先胡牌). The seabed procedure moved the turn on
    to the next seat; the flag must stay (simulate --seed 20261129, game 51, hand 3)."""
    b = hedi_flower("I")
    pos = len(draws(b, False)) + 3
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(with_wall(b, seabed_end=(pos, "2s")), 28, 1, 60)))
    assert bonus(w) == {"自摸": 2} and w.last_tile


def test_kept_zuohua_replacement_after_a_hedi_flower():
    """Game 51's hand exactly: the kept replacement is the seat's own flower (夏, 坐花) standing for
    the 2s. 自摸 2 (20 + 将 2 + 花 4 + 自摸 2 = 28, 坐花 1 台: 60)."""
    b = hedi_flower("I")
    pos = len(draws(b, False)) + 3
    b.draw(1, "2f", back=True).win(1, "2f", 1)
    w = the_win(run(with_outcome(with_wall(b, seabed_end=(pos, "2f")), 28, 1, 60, "2f")))
    assert bonus(w) == {"自摸": 2}


def test_kept_replacement_after_a_flower_before_the_hedi_case_ii():
    """(Ⅱ)② "再补进岭尾最后一张，不用打出，其它三家按序分张": the replacement comes from the far end,
    as in the middle of play, but is kept as the seat's seabed tile; the win on it is 自摸 2."""
    b = hedi_flower("II")
    assert left(b) == 5
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(with_wall(b), 28, 1, 60)))
    assert bonus(w) == {"自摸": 2} and w.last_tile


def test_reserve_replacement_with_a_21_tile_wang():
    """(Ⅰ)① "若王牌有21从牌岭尾补一张牌选一张手中牌打出后再分张": the 王牌's reserve is the
    replacement, in the seat's own turn; a win on it is 自摸 2."""
    opts = {"dead_wall": 21}
    b = hedi_flower("I", dead_wall=21)
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(with_wall(b), 28, 1, 60), options=opts))
    assert bonus(w) == {"自摸": 2}


def test_reserve_is_a_flower_again_then_the_kept_replacement_wins():
    """"假如补来的杠尾牌刚好又是花杠牌则按②步骤": the reserve replacement is 4f, set aside; the second
    replacement (the seabed's last tile) is kept and wins: 自摸 2 (20 + 将 2 + 花 8 + 自摸 2 = 32: 70)."""
    opts = {"dead_wall": 21}
    b = hedi_flower("I", dead_wall=21)
    b.draw(1, "4f", back=True).ev("flower", 1, tile="4f")
    pos = len(draws(b, False)) + 3
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    w = the_win(run(with_outcome(with_wall(b, seabed_end=(pos, "2s")), 32, 1, 70), options=opts))
    assert bonus(w) == {"自摸": 2}


def test_kept_kong_replacement_is_marked_a_kong_replacement():
    """(Ⅰ) "打出这手牌…有人开大明杠": seat 3 kongs the 河底 drawer's 9m and keeps the seabed's last
    tile, 2p, which completes its 1p_3p: 杠上开花, 自摸 2 and the situation says ``replacement: kong``."""
    b = builder()
    idle_until(b, 5)
    assert b.turn == 2
    b.draw(2, "9m").discard(2, "9m", claims=[{"seat": 3, "call": "kong"}])
    b.ev("kong", 3, tile="9m", **{"from": 2})
    pos = len(draws(b, False)) + 3
    b.draw(3, "2p", back=True).win(3, "2p", 3)
    res = run(with_wall(b, seabed_end=(pos, "2p")))
    assert codes(res) == []
    (w,) = res.hands[0].wins
    assert w.legal and w.win_type == "kong_replacement"
    assert {i.name: i.value for i in w.score.items if i.name.startswith("自摸")} == {"自摸": 2}


def test_replay_situation_carries_the_flag_on_the_kept_tile():
    """The situation the replay scores names the replacement (docs/rules/longgang.md: "The replay
    marks such a win in the situation")."""
    from mahjong_audit.engine.replay import HandReplay
    from mahjong_audit.engine.rulesets.longgang import Longgang
    from mahjong_audit.schemas import log as L
    from tests.longgang_build import play_log

    b = hedi_flower("I")
    pos = len(draws(b, False)) + 3
    b.draw(1, "2s", back=True).win(1, "2s", 1)
    hand = L.parse_game(play_log(with_wall(b, seabed_end=(pos, "2s")))).hands[0]
    replay = HandReplay(Longgang(), hand, 0)
    replay.run()
    (w,) = replay.wins
    assert w.situation is not None and w.situation.get("replacement") == "flower"
