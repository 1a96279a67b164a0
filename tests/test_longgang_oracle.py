"""龙港 scoring checked against a second, independent reading of the seed.

tests/oracles/longgang_seed.py scores a ``score`` situation straight from the seed
(../shared/seeds/000_9ad7a1daf589f000.txt) without importing the project; here it is
checked on the seed's own worked examples, then compared with
``mahjong-audit score --ruleset longgang`` on a few hundred random hands (one
subprocess). Thousands: ``python -m tests.oracles.compare_longgang --hands 5000 --seed S``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.oracles import longgang_seed as O
from tests.oracles.compare_longgang import ALTERNATIVES, KNOWN, ORACLE_READINGS, compare
from tests.oracles.longgang_gen import situations

# a few seeds, one subprocess: about 2 s of scoring
HANDS, SEEDS = 300, (20261130, 7, 1)


def chi(tiles: list[str]) -> dict:
    return {"type": "chi", "tiles": tiles, "claimed": tiles[0], "from": 1}


FOUR_CHIS = [chi(["1p", "2p", "3p"]), chi(["4p", "5p", "6p"]), chi(["7s", "8s", "9s"]), chi(["2s", "3s", "4s"])]


def win(concealed, win_tile, *, melds=(), self_drawn=False, seat="S", indicator="5s", **fields):
    return {"concealed": list(concealed), "melds": list(melds), "win_tile": win_tile, "self_drawn": self_drawn,
            "seat_wind": seat, "ruleset_fields": {"indicator": indicator, **fields}}


# --------------------------------------------------------------------------- the oracle on the seed's examples


def test_oracle_closed_wait_self_drawn_is_4_hu():
    # 二、二)1 "如六、八万，自摸7万可计4胡"
    v = O.score(win(["6m", "8m", "5s", "5s"], "7m", melds=FOUR_CHIS, self_drawn=True, indicator="5m"))
    assert v.breakdowns == {(24, 1)}  # 20 + 4; 硬胡 (no wild)
    assert v.total == 50


def test_oracle_triplet_self_drawn_on_a_pair_of_zhong_is_10_hu():
    # 二、二)1 "两个红中再自摸红中可计10胡" (暗刻大子 8 + 自摸 2)
    v = O.score(win(["7z", "7z", "4s", "4s"], "7z", melds=FOUR_CHIS, self_drawn=True, indicator="5m"))
    assert v.breakdowns == {(30, 2)}  # 字刻 + 硬胡
    assert v.total == 120


def test_oracle_ponned_zhong_plus_zhong_and_two_wilds_is_three_tai():
    # 三)e "如手牌已碰红中,再胡红中配两财神，计3台" — a fifth and sixth 中 from wilds
    s = win(["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2p", "2p", "5s", "5s"], "7z",
            melds=[{"type": "pon", "tile": "7z", "from": 2}])
    assert O.score(s).breakdowns == {(28, 3)}


def test_oracle_four_fa_and_the_seat_flower_is_two_tai():
    # 三)g "若手牌中以发发发发花胡牌的，按发刻子配发将计胡数，两台"
    v = O.score(win(["6z", "6z", "6z", "2f"], "6z", melds=FOUR_CHIS))
    assert v.breakdowns == {(30, 2)}  # 暗刻 8 + 发将 2; 字刻 + 坐花


def test_oracle_all_pungs_half_flush_without_wilds_is_three_tai():
    # 四、14 "不含财神、坐花、坐风、红中、青发的对对胡兼混一色为三台，如庄家牌型：「南南南北北」"
    pons = [{"type": "pon", "tile": t, "from": 1} for t in ("2m", "3m", "5m", "6m")]
    v = O.score(win(["2z", "2z", "2z", "4z"], "4z", melds=pons, seat="E", indicator="5p"))
    assert v.breakdowns == {(36, 3)}  # 2×4 + 8; 对对胡 + 混一色 + 硬胡
    assert v.total == 290


def test_oracle_cai_shen_hui_is_a_limit():
    # 四、15 "两个正财神配坐花三张组成刻子，其它牌已组成对，按三台腊子胡牌"
    s = win(["5p", "5p", "1f", "1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "2s", "3s", "4s", "8m"], "8m",
            seat="E", indicator="5p")
    v = O.score(s)
    assert (v.total, v.limit, v.others_zero) == (300, True, False)


def test_oracle_three_cai_shen_wins_at_once_and_zeroes_the_others():
    # 四、7 "凡手牌中含用三个正财神即可马上胡牌…不必符合一般胡牌条件,三台腊子，其他人不能算胡数"
    s = win(["5s", "5s", "1m", "4m", "7m", "1p", "4p", "7p", "2s", "8s", "1z", "2z", "3z", "4z", "6z", "7z"], "5s",
            self_drawn=True)
    v = O.score(s)
    assert (v.total, v.limit, v.others_zero, v.follow_tai) == (300, True, True, 3)


def test_oracle_picks_the_most_favourable_reading_of_the_dealer_example():
    # 五、(二)4 A "胡家三台最少是160胡，如庄家牌型：123 2财4 345 6财8 789 南花；放炮胡牌（混一色1台，坐花1台，
    # 双财神1台，牌面胡数0胡）" — 160 read as written; 五、(一)1 "和牌者可以自由选择最有利的牌形来计分"
    # finds 123 234 456 789 888(财财) + 南花: an 暗刻 of 8万 (4 胡), 24 × 8 = 192 → 200.
    s = win(["1m", "2m", "3m", "2m", "5s", "4m", "3m", "4m", "5m", "6m", "5s", "8m", "7m", "8m", "9m", "1f"], "2z",
            seat="E")
    v = O.score(s)
    assert v.breakdowns == {(24, 3)} and v.total == 200


def test_oracle_other_seat_example_b_needs_held_wild_tai():
    # 五、(二)4 B "陪家三台最少是70胡…手中牌为（春花+红中+，南风，123）…（红中刻1台，坐花1台，双财神1台，
    # 牌面胡数8胡)": with one 红中 pair only one wild can be used (三)f 财神卖兵), so the 3 台
    # need the reading "wild 台 count when held" — a seed ambiguity, kept as an option.
    s = win(["1f", "7z", "7z", "5s", "5s", "1m", "2m", "3m"], "2z", melds=FOUR_CHIS[:2], seat="E", role="other")
    assert O.score(s).breakdowns == {(8, 2)}
    assert O.score(s, replace(O.DEFAULT, other_wild_tai_when_held=True)).total == 70


def test_oracle_other_seat_example_f_needs_one_tile_plus_two_wilds():
    # 三)f "比如手中剩四张牌：坐花，两个财神，红中，则牌面胡数只算红中刻8…计2台" against 一、A)2)
    # "两个财神或坐花配一张牌可视为暗刻胡 ，非胡牌者不行": default follows the rule, the option the example.
    s = win(["1f", "5s", "5s"], "7z", seat="E", role="other")
    assert O.score(s).breakdowns == {(0, 0)}
    assert O.score(s, replace(O.DEFAULT, other_single_two_wilds=True)).breakdowns == {(8, 2)}


def test_oracle_rounds_up_and_caps():
    # 五、(二)4 "如38胡算40胡"; 五、(二)2 "最高300胡，基础胡数38胡3台满300胡"
    assert O._round(38) == 40 and O._round(38 * 8) == 300


def test_oracle_imports_nothing_from_the_project():
    for f in Path(O.__file__).parent.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(engine|schemas|pipeline)\b", text, re.M), f


# --------------------------------------------------------------------------- engine vs oracle


def _hands() -> list[dict]:
    return [s for seed in SEEDS for s in situations(HANDS, seed)]


@pytest.fixture(scope="module")
def comparison():
    return compare(_hands())


def _report(cases) -> str:
    s, r, v = min(cases, key=lambda c: len(str(c[0])))
    return f"{len(cases)} hands, e.g. {s} → engine {r} / oracle total {v.total} {sorted(v.breakdowns)}"


def test_every_disagreement_has_a_documented_cause(comparison):
    n, groups = comparison
    assert n >= HANDS * len(SEEDS) * 0.95
    unexplained = {c: _report(v) for c, v in groups.items() if c.startswith("unexplained")}
    assert not unexplained, unexplained


def test_with_the_oracles_readings_selected_the_engine_agrees_on_every_hand():
    # each remaining cause is a reading the engine has as an option (docs/rules/longgang.md):
    # selecting the oracle's side of each leaves no disagreement at all
    n, groups = compare(_hands(), ORACLE_READINGS)
    assert n >= HANDS * len(SEEDS) * 0.95
    assert not groups, {c: _report(v) for c, v in groups.items()}


# Causes still open. KNOWN: engine behaviours still to fix (none now). The others: the seed
# reads two ways and the engine's default takes the other reading (see the Options comments
# in tests/oracles/longgang_seed.py for the sentences, docs/rules/longgang.md for the options).
OPEN = {label: ("engine bug still open" if label in KNOWN else "seed ambiguous; engine reads it otherwise")
        for label in ALTERNATIVES}


@pytest.mark.parametrize("label", sorted(OPEN))
def test_no_disagreement_of_this_kind(comparison, label):
    _, groups = comparison
    cases = [c for cause, cs in groups.items() if label in cause for c in cs]
    if cases:
        pytest.xfail(f"{OPEN[label]}: {_report(cases)}")


# --------------------------------------------------------------------------- protocol gaps met on the way


_PLAIN = win(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7z"], "7z")


def test_score_echoes_an_id():
    from tests.oracles.compare_longgang import run_engine

    (res,) = run_engine([{**_PLAIN, "id": 7}])
    assert res.get("valid") and res.get("id") == 7


def test_a_bad_indicator_is_one_invalid_line_not_a_crash():
    from tests.oracles.compare_longgang import run_engine

    bad = {**_PLAIN, "ruleset_fields": {"indicator": "9x"}}
    first, second = run_engine([bad, _PLAIN])
    assert first["valid"] is False and second["valid"] is True
