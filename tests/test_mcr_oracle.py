"""Differential test: our MCR calculator against the reference pymahjonggb, fan for fan.

No known disagreements: there is no exception list.  If one is ever found where the
reference is wrong, add it as a named test below with the rule-based argument.
"""

from __future__ import annotations

import collections

import pytest

from mahjong_audit.engine.hand import NotAWin
from mahjong_audit.engine.rulesets import mcr_fans as DATA
from mahjong_audit.engine.rulesets.mcr_scoring import score_mcr
from tests.mcr_handgen import generate, oracle_score

pytest.importorskip("MahjongGB")

N_HANDS = 12_000
SEED = 20240601


def _ours(sit):
    try:
        sc = score_mcr(sit)
    except NotAWin:
        return None
    return {i.name: i.count for i in sc.items}, sc.total


@pytest.mark.slow
def test_oracle_agrees_on_random_hands():
    hands = generate(N_HANDS, SEED)
    coverage: collections.Counter[str] = collections.Counter()
    disagreements = []
    for sit in hands:
        ref = oracle_score(sit)
        mine = _ours(sit)
        if ref is not None:
            coverage.update(ref[0])
        if mine != ref:
            disagreements.append((sit, mine, ref))
    assert not disagreements, f"{len(disagreements)} disagreements, first: {disagreements[0]}"
    missing = DATA.OFFICIAL - set(coverage)
    assert not missing, f"fans never produced by the generator: {sorted(missing)}"


def test_oracle_tile_mapping():
    # J2 is 发: 23468s + 发 is 绿一色 for the oracle; J3 is 白 (推不倒)
    from mahjong_audit.engine import tiles as T
    from mahjong_audit.engine.hand import WinSituation

    s = WinSituation(concealed=T.parse("234234666s88s66z"), melds=(), win_tile=T.tile("6z"), self_drawn=False)
    ref = oracle_score(s)
    assert ref is not None and "绿一色" in ref[0]
    assert _ours(s) == ref
