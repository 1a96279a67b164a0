"""Properties of guangdong scoring over generated complete hands (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, WinSituation
from mahjong_audit.engine.rulesets import guangdong_fans as F
from mahjong_audit.engine.rulesets.guangdong import Guangdong

RS = Guangdong()
NO_CAP = Guangdong({"cap": None})


@st.composite
def complete_hands(draw):
    """Four sets (some exposed) and a pair, never more than four of a tile."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    while len(sets) < 4:
        if draw(st.booleans()):
            t = draw(st.integers(0, 33))
            need = [t] * 3
            kind = "pon"
        else:
            suit = draw(st.integers(0, 2))
            t = 9 * suit + draw(st.integers(0, 6))
            need = [t, t + 1, t + 2]
            kind = "chi"
        if all(counts[x] + need.count(x) <= 4 for x in set(need)):
            for x in need:
                counts[x] += 1
            sets.append((kind, t))
    pair = draw(st.integers(0, 33).filter(lambda x: counts[x] <= 2))
    counts[pair] += 2
    exposed = draw(st.integers(0, 4))
    melds = tuple(Meld.pon(t, 1) if k == "pon" else Meld.chi(t, t, 1) for k, t in sets[:exposed])
    concealed = [t for k, t in sets[exposed:] for t in ((t,) * 3 if k == "pon" else (t, t + 1, t + 2))] + [pair, pair]
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return WinSituation(tuple(sorted(concealed)), melds, win, draw(st.booleans()),
                        seat_wind=draw(st.integers(0, 3)), round_wind=draw(st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_every_complete_hand_scores_within_the_tables(sit):
    assert RS.is_complete(T.counts(sit.full_concealed, 34), sit.melds)
    score = RS.score_win(sit)
    names = [i.name for i in score.items]
    special = dict(score.details)["special"]
    if special:
        assert len(names) == 1 and names[0] in F.SPECIAL_NAMES
        assert score.total == score.items[0].value
    else:
        assert names[0] in {r.zh for r in F.REGULAR} and set(names[1:]) <= F.ADDITION_NAMES
        assert 1 <= score.total <= F.CAP
        assert score.total == min(F.CAP, sum(i.value * i.count for i in score.items))
    assert 1 <= score.total <= 8
    # without the cap a hand never scores less
    assert NO_CAP.score_win(sit).total >= score.total


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=18))
def test_tile_facts_read_as_each_tile_says(tiles):
    """``_tile_facts`` (worked out from the counts, once per win) says what the rows read of
    every tile one by one: the suits (清一色 / 混一色), all terminals and honours (混幺九,
    清幺九), any honour, any terminal."""
    from mahjong_audit.engine.rulesets.guangdong import ORPHANS, _tile_facts

    suits = {T.suit(t) for t in tiles if T.is_suited(t)}
    honours = any(T.is_honour(t) for t in tiles)
    kind = "honours" if not suits else "mixed" if len(suits) > 1 else "half" if honours else "pure"
    facts = _tile_facts(T.counts(tiles, 34))
    assert facts == (kind, all(t in ORPHANS for t in tiles), honours, any(T.is_terminal(t) for t in tiles))
