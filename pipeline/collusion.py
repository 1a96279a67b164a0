"""Collusion and anomaly statistics: who feeds whom, per ruleset, with honest p-values.

Built in the driver at the end of every load (``build``), inside the load's transaction,
from the whole database, so a re-run never duplicates a row. DuckDB SQL aggregates the
counts (out of core, like the rest of the load); this module adds what SQL has not — exact
binomial and beta-binomial tails, Wilson intervals, Benjamini–Hochberg — with the standard library
(``mahjong_audit.pipeline.stats_math``), and bulk-inserts the results from Arrow tables.

Tables (every figure is per ruleset: MCR points, 龙港 chips and 广东 番 never mix):

* ``pair_stats`` — one row per ordered pair of players who shared a table: hands
  together, the feeder's deal-ins (all, and at the receiver's tables), deal-ins from
  feeder to receiver, the number expected if the feeder's deal-ins went to the others at
  the table in proportion to their wins on discards, points either way, the one-sided
  p-value and its BH q-value;
* ``pair_evidence`` — one row per ordered pair (A, B), ruleset and statistic of A
  favouring B (:data:`STATISTICS`: feeding, soft play, dumping): what was observed, what
  was expected, the p-value and a Benjamini–Hochberg q-value over **every** tested
  statistic of every pair (one family; once a flagged pair is left out of the passes, the
  other pairs are judged over their own statistics), and, for a flag that shares a player with a
  stronger flagged pair, that pair (``explained_by``);
* ``player_anomalies`` — one row per player, ruleset and rate (win, self-draw, deal-in,
  false win, limit hand): the rate with its 95% Wilson interval against the rest of the
  population (the players of flagged pairs left out of it), a two-sided exact binomial
  p-value and its BH q-value.

Views: ``suspicious_pairs`` (the flagged pairs, with the behaviours that flagged them and
their evidence) and ``anomalous_players`` (the flagged rates). What each statistic
assumes and cannot see: ``docs/collusion.md``.
"""

from __future__ import annotations

import math
import types
import typing
from dataclasses import dataclass

import duckdb
import pyarrow as pa
from pydantic import BaseModel, ConfigDict

from mahjong_audit.pipeline.stats_math import (
    betabinom_cdf,
    betabinom_sf,
    bh_adjust,
    mann_whitney_sf,
    midranks,
    wilson,
)
from mahjong_audit.pipeline.tables import SEATING, arrow_schema, column_names, create_table_sql


@dataclass(frozen=True, slots=True)
class Settings:
    """The statistics' fixed choices (documented in docs/collusion.md)."""

    fdr: float = 0.05  # Benjamini–Hochberg false discovery rate, one family per table
    min_hands_together: int = 100  # a pair is tested only with this many hands at one table …
    min_deal_ins: int = 15  # … and this many of the feeder's deal-ins at those tables
    prior: int = 30  # a player's share of deal-ins is shrunk toward the ruleset's by this many deal-ins
    passes: int = 4  # estimates again without the strongest flagged pair, at most this many times in all
    min_player_hands: int = 100  # a player's rates are tested from this many hands on …
    min_population: int = 2  # … against at least this many other players (one other: which is unusual?)
    min_chances: int = 5  # passed wins / calls: tested from this many of A's chances on B's discards
    chance_prior: int = 30  # A's pass rate on the others' discards is shrunk toward the ruleset's by this many
    min_value_deal_ins: int = 5  # value tests: this many deal-ins from A to B …
    min_receiver_wins: int = 15  # … and this many of B's wins on the others' discards
    big_share: float = 0.1  # a big hand: at the ruleset's limit, or in the top tenth of its deal-in values


SETTINGS = Settings()

# A win at or above these totals is a limit hand (first winner's total, hands.total):
# MCR 64/88-fan hands, 广东 at or beyond the 爆胡 cap of 5 番, 龙港 at the 300-胡 cap.
LIMIT_TOTALS: typing.Mapping[str, int] = types.MappingProxyType({"mcr": 64, "guangdong": 5, "longgang": 300})

RATES = ("win", "self_draw", "deal_in", "false_win", "limit_hand")

# Statistic of the ordered pair (A, B) -> (the behaviour of A toward B it tests, what it compares).
STATISTICS: typing.Mapping[str, tuple[str, str]] = types.MappingProxyType({
    "feeding": ("feeding", "A's deal-ins to B, against the number B's wins on others' discards predict (upper tail)"),
    "deal_in_deficit": ("soft_play", "B's deal-ins to A, against the number expected (lower tail): A spares B"),
    "wins_passed": ("soft_play", "wins A could have made on B's discards and passed, against A's rate on others'"),
    "calls_passed": ("soft_play", "pons and kongs A could have made on B's discards and passed, against A's rate "
                                  "on others'"),
    "deal_in_value": ("dumping", "the points A paid B through deal-ins, against the points of B's wins on others' "
                                 "discards (Mann–Whitney, upper tail)"),
    "big_hands": ("dumping", "A's deal-ins into B's big hands, against B's share of big hands on others' discards"),
})
BEHAVIOURS = ("feeding", "soft_play", "dumping")


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PairStatRow(_Row):
    """One ordered pair (feeder A, receiver B) of players who shared a table, in one ruleset."""

    ruleset: str
    player_a: str
    player_b: str
    games_together: int
    hands_together: int
    a_deal_ins: int  # A's deal-ins in the ruleset, to anyone
    a_deal_ins_together: int  # A's deal-ins in hands B played
    deal_ins_a_to_b: int
    expected_a_to_b: float
    ratio: float | None  # observed / expected
    points_a_to_b: float
    points_b_to_a: float
    net_flow_a_to_b: float
    p_value: float | None  # P(≥ observed | no preference), None when not tested
    q_value: float | None  # the feeding statistic's q in pair_evidence's family
    tested: bool
    flagged: bool  # flagged for feeding
    behaviours: list[str]  # every behaviour of A toward B that pair_evidence flagged
    explained_by: str | None  # "X→Y": a stronger flagged pair sharing a player (its flag may be a side effect)


class PairEvidenceRow(_Row):
    """One statistic (:data:`STATISTICS`) of A favouring B, in one ruleset."""

    ruleset: str
    player_a: str
    player_b: str
    statistic: str
    behaviour: str  # feeding | soft_play | dumping
    trials: int  # deal-ins, chances or values the statistic rests on
    observed: float
    expected: float | None
    p_value: float | None
    q_value: float | None  # Benjamini–Hochberg over every tested statistic (a pair not left out: over theirs)
    tested: bool
    flagged: bool
    explained_by: str | None


class PlayerAnomalyRow(_Row):
    """One rate of one player in one ruleset against the rest of the population."""

    ruleset: str
    player: str
    rate_name: str
    hands: int
    count: int
    rate: float
    ci_low: float
    ci_high: float
    population_rate: float  # the other players' pooled rate (players of flagged pairs left out)
    p_value: float | None
    q_value: float | None
    tested: bool
    flagged: bool
    direction: str | None  # high | low


TABLES: typing.Mapping[str, type[_Row]] = types.MappingProxyType({
    "pair_stats": PairStatRow,
    "pair_evidence": PairEvidenceRow,
    "player_anomalies": PlayerAnomalyRow,
})

VIEWS: typing.Mapping[str, str] = types.MappingProxyType({
    "suspicious_pairs": """
SELECT ps.ruleset, ps.player_a AS feeder, ps.player_b AS receiver, array_to_string(ps.behaviours, ',') AS behaviours,
       e.evidence, ps.explained_by, ps.hands_together,
       ps.a_deal_ins_together AS feeder_deal_ins, ps.deal_ins_a_to_b AS deal_ins_to_receiver,
       round(ps.expected_a_to_b, 1) AS expected, round(ps.net_flow_a_to_b, 1) AS net_flow,
       e.p_value, e.q_value
FROM pair_stats ps
JOIN (SELECT ruleset, player_a, player_b, min(p_value) AS p_value, min(q_value) AS q_value,
             string_agg(statistic || ' ' || round(observed, 1) || ' vs ' || coalesce(round(expected, 1)::VARCHAR, '–')
                        || ' (q ' || printf('%.2g', q_value) || ')', '; ' ORDER BY p_value) AS evidence
      FROM pair_evidence WHERE flagged GROUP BY ruleset, player_a, player_b) e
  USING (ruleset, player_a, player_b)
ORDER BY ps.explained_by IS NOT NULL, e.p_value, ps.ruleset, ps.player_a, ps.player_b
""",
    "anomalous_players": """
SELECT ruleset, player, rate_name, direction, hands, count, round(rate, 4) AS rate,
       round(ci_low, 4) AS ci_low, round(ci_high, 4) AS ci_high,
       round(population_rate, 4) AS population_rate, p_value, q_value
FROM player_anomalies WHERE flagged
ORDER BY p_value, ruleset, player, rate_name
""",
})

# --------------------------------------------------------------------------- SQL

# Every hand with who sat where (tables.SEATING; the views count hands by the same rule): made
# once per build as a temp table (:func:`seat_tables`), which the queries below read as
# ``hand_rows`` and ``deal_hands`` (the wins on a discard, or a robbed kong: the discarder, the
# ``feeder``, dealt in). Each hands row is one hand, known by ``hand`` (its rowid): a hand number
# that repeats within a game (a faulty log) is two hands, each counted once. A seat's player is
# taken from the hand's own seating list by position (``seating[seat + 1]``; seats are 0-3), never
# by joining seats back on (game, hand_no), which paired the seats of two hands sharing a number
# 2 × 2. ``game`` is the games row's rowid: the per-game counts group on it.
SEAT_TABLES = (
    f"""CREATE OR REPLACE TEMP TABLE _collusion_hands AS
  SELECT h.rowid AS hand, g.rowid AS game, h.game_id, h.hand_no, h.ruleset, {SEATING} AS seating,
         h.result, h.win_type, h.winners, h.total, h.false_wins,
         CASE WHEN h.result = 'win' AND h.win_type IN ('discard', 'robbing_kong') THEN h.discarder END AS discarder
  FROM hands h JOIN games g USING (game_id)""",
)
_SEATS = """
hand_rows AS (SELECT * FROM _collusion_hands),
deal_hands AS (SELECT *, seating[discarder + 1] AS feeder FROM _collusion_hands WHERE discarder IS NOT NULL)"""


def seat_tables(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)make the temp table the queries read as ``hand_rows`` and ``deal_hands``."""
    for stmt in SEAT_TABLES:
        con.execute(stmt)


def drop_seat_tables(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("DROP TABLE IF EXISTS _collusion_hands")


# One row per deal-in hand and seat other than the discarder (the seat's place after it).
OCC_SQL = f"""
WITH {_SEATS}
  SELECT ruleset, hand, feeder AS a, seating[x + 1] AS b, list_contains(winners, x) AS hit,
         (x - discarder + n_seats) % n_seats AS place
  FROM (SELECT ruleset, hand, feeder, seating, winners, discarder, len(seating) AS n_seats,
               unnest(range(len(seating))) AS x
        FROM deal_hands)
  WHERE x <> discarder AND seating[x + 1] <> feeder
"""

# Pairs that shared a table, with what does not change from pass to pass: hands and games
# together, the feeder's deal-ins, and the money flow either way. The payouts name their
# player and carry only (game_id, hand_no): those of two hands sharing a number are one
# pool (each payout once, its loss shared out to the pool's gainers).
BASE_SQL = f"""
WITH {_SEATS},
a_total AS (SELECT ruleset, feeder AS a, count(*) AS n FROM deal_hands GROUP BY ruleset, feeder),
seatings AS (  -- a game's hands by who sat where (most games keep one seating throughout)
  SELECT ruleset, game, seating, count(*) AS hands FROM hand_rows GROUP BY ruleset, game, seating
),
together AS (  -- hands (and games) in which both sat at the table: per game first, then per pair
  SELECT ruleset, a, b, count(*) AS games, sum(hands)::BIGINT AS hands
  FROM (SELECT ruleset, game, a, b, sum(hands) AS hands
        FROM (SELECT ruleset, game, hands, a, unnest(seating) AS b
              FROM (SELECT ruleset, game, hands, seating, unnest(seating) AS a FROM seatings))
        WHERE a <> b
        GROUP BY ruleset, game, a, b)
  GROUP BY ruleset, a, b
),
pay AS (  -- payouts name their player (a player standing out of a five-player hand too)
  SELECT g.rowid AS game, p.hand_no, g.ruleset, p.player, coalesce(p.recorded, p.computed) AS d
  FROM payouts p JOIN games g USING (game_id)
  WHERE coalesce(p.recorded, p.computed) IS NOT NULL AND p.player IS NOT NULL
),
gains AS (SELECT game, hand_no, sum(d) AS g FROM pay WHERE d > 0 GROUP BY game, hand_no),
flows AS (  -- each hand's losses shared out to its gainers in proportion to their gains
  SELECT l.ruleset, l.player AS a, w.player AS b, sum(-l.d * w.d / g.g) AS pts
  FROM pay l
  JOIN pay w ON w.game = l.game AND w.hand_no = l.hand_no AND w.d > 0 AND w.player <> l.player
  JOIN gains g ON g.game = l.game AND g.hand_no = l.hand_no
  WHERE l.d < 0
  GROUP BY l.ruleset, l.player, w.player
)
SELECT t.ruleset, t.a, t.b, t.games, t.hands, coalesce(atot.n, 0) AS a_all,
       coalesce(fab.pts, 0) AS ab, coalesce(fba.pts, 0) AS ba
FROM together t
LEFT JOIN a_total atot ON atot.ruleset = t.ruleset AND atot.a = t.a
LEFT JOIN flows fab ON fab.ruleset = t.ruleset AND fab.a = t.a AND fab.b = t.b
LEFT JOIN flows fba ON fba.ruleset = t.ruleset AND fba.a = t.b AND fba.b = t.a
"""

# Per ordered pair: the feeder's deal-ins at tables with the receiver, hits, and the
# expected hits. In each deal-in hand, the receiver's share is its weight over the sum of
# the weights of every seat but the discarder. A seat's weight is its share of the other
# players' deal-ins at its tables (wins on discards over deal-ins it could take), leaving
# out this discarder's and those of every player of the pairs given as excluded, shrunk
# toward the ruleset's share by ``prior`` deal-ins, times the ruleset's factor for the
# seat's place after the discarder. A seat of an excluded pair with the discarder competes
# for the other seats' shares with the share it really took of this discarder's deal-ins,
# not shrunk (a feeder who never wins off its receiver leaves the receiver's deal-ins to the
# others: a soft partner who took none of them must not count for a prior's worth of them).
# Parameters: excluded (ruleset, a, b) as three lists, then prior three times.
PAIR_SQL = """
WITH occ AS (SELECT * FROM _collusion_occ),
pair_counts AS (
  SELECT ruleset, a, b, count(*) AS n, count(*) FILTER (WHERE hit) AS k FROM occ GROUP BY ruleset, a, b
),
pop AS (SELECT ruleset, sum(k) / sum(n) AS share FROM pair_counts GROUP BY ruleset),
excluded AS (
  SELECT unnest(?::VARCHAR[]) AS ruleset, unnest(?::VARCHAR[]) AS a, unnest(?::VARCHAR[]) AS b
),
excluded_pairs AS (SELECT ruleset, a, b FROM excluded UNION SELECT ruleset, b, a FROM excluded),
excluded_players AS (SELECT DISTINCT ruleset, a AS player FROM excluded_pairs),
receiver_tot AS (SELECT ruleset, b, sum(n) AS n, sum(k) AS k FROM pair_counts GROUP BY ruleset, b),
excluded_tot AS (  -- the deal-ins of excluded pairs' players, which their pairs bend
  SELECT pc.ruleset, pc.b, sum(pc.n) AS n, sum(pc.k) AS k
  FROM pair_counts pc JOIN excluded_players xp ON xp.ruleset = pc.ruleset AND xp.player = pc.a
  GROUP BY pc.ruleset, pc.b
),
places AS (  -- how often each place after the discarder takes a deal-in, relative to the mean
  SELECT ruleset, place,
         (count(*) FILTER (WHERE hit) + 1) / (avg(count(*) FILTER (WHERE hit)) OVER (PARTITION BY ruleset) + 1)
           AS factor
  FROM occ GROUP BY ruleset, place
),
weighted AS (
  SELECT o.ruleset, o.hand, o.a, o.b, o.hit,
         pl.factor
         * (rt.k - coalesce(xt.k, 0) - CASE WHEN xa.player IS NULL THEN pc.k ELSE 0 END + ? * pop.share)
         / (rt.n - coalesce(xt.n, 0) - CASE WHEN xa.player IS NULL THEN pc.n ELSE 0 END + ?) AS w,
         rt.n - coalesce(xt.n, 0) - CASE WHEN xa.player IS NULL THEN pc.n ELSE 0 END + ? AS m,
         CASE WHEN ep.a IS NOT NULL  -- an excluded pair competes for the others' share as it played (raw)
              THEN pl.factor * pc.k / pc.n END AS w_own
  FROM occ o
  JOIN pair_counts pc ON pc.ruleset = o.ruleset AND pc.a = o.a AND pc.b = o.b
  JOIN receiver_tot rt ON rt.ruleset = o.ruleset AND rt.b = o.b
  JOIN pop ON pop.ruleset = o.ruleset
  JOIN places pl ON pl.ruleset = o.ruleset AND pl.place = o.place
  LEFT JOIN excluded_tot xt ON xt.ruleset = o.ruleset AND xt.b = o.b
  LEFT JOIN excluded_pairs ep ON ep.ruleset = o.ruleset AND ep.a = o.a AND ep.b = o.b
  LEFT JOIN excluded_players xa ON xa.ruleset = o.ruleset AND xa.player = o.a
),
hand_weights AS (  -- a window over the hand's seats cost more than this sum and join
  SELECT hand, sum(coalesce(w_own, w)) AS total FROM weighted GROUP BY hand
),
shares AS (  -- the receiver at its outside weight, the others at theirs (or as they played, if excluded)
  SELECT o.*, o.w / nullif(hw.total - coalesce(o.w_own, o.w) + o.w, 0) AS share
  FROM weighted o JOIN hand_weights hw USING (hand)
),
pair_deals AS (
  SELECT ruleset, a, b, count(*) AS n, count(*) FILTER (WHERE hit) AS k, coalesce(sum(share), 0) AS expected,
         max(m) AS m  -- the deal-ins (+ prior) the receiver's weight rests on
  FROM shares GROUP BY ruleset, a, b
)
SELECT t.ruleset, t.a, t.b, t.games, t.hands, t.a_all,
       coalesce(pd.n, 0), coalesce(pd.k, 0), coalesce(pd.expected, 0), coalesce(pd.m, 0), t.ab, t.ba
FROM _collusion_base t
LEFT JOIN pair_deals pd ON pd.ruleset = t.ruleset AND pd.a = t.a AND pd.b = t.b
ORDER BY t.ruleset, t.a, t.b
"""

# Per player and ruleset: hands and the count of each rate's event (each hand's seats from its
# seating list; ``discarder`` is set only on a deal-in).
PLAYER_SQL = f"""
WITH {_SEATS},
limits AS (SELECT unnest(?::VARCHAR[]) AS ruleset, unnest(?::BIGINT[]) AS total),
seated AS (
  SELECT ruleset, result, win_type, winners, total, false_wins, discarder,
         unnest(seating) AS player, unnest(range(len(seating))) AS seat
  FROM hand_rows
)
SELECT s.ruleset, s.player, count(*) AS hands,
       count(*) FILTER (WHERE s.result = 'win' AND list_contains(s.winners, s.seat)) AS win,
       count(*) FILTER (WHERE s.result = 'win' AND list_contains(s.winners, s.seat)
                        AND s.win_type IN ('self_drawn', 'kong_replacement')) AS self_draw,
       count(*) FILTER (WHERE s.discarder = s.seat) AS deal_in,
       count(*) FILTER (WHERE list_contains(s.false_wins, s.seat)) AS false_win,
       count(*) FILTER (WHERE s.result = 'win' AND s.winners[1] = s.seat AND s.total >= l.total) AS limit_hand
FROM seated s
LEFT JOIN limits l ON l.ruleset = s.ruleset
GROUP BY s.ruleset, s.player
ORDER BY s.ruleset, s.player
"""


# Per ordered pair (A, B): A's chances on B's discards (mahjong_audit.engine.chances; hands.win_chances
# and its sisters hold them per seat pair, index seat * 4 + from_seat).
CHANCE_SQL = """
WITH ch AS (
  SELECT h.ruleset, coalesce(h.players, g.players[1:4]) AS seating,
         unnest(range(16)) AS i, unnest(h.win_chances) AS wc, unnest(h.wins_passed) AS wp,
         unnest(h.call_chances) AS cc, unnest(h.calls_passed) AS cp
  FROM hands h JOIN games g USING (game_id)
  WHERE h.win_chances IS NOT NULL
)
SELECT ruleset, seating[i // 4 + 1] AS a, seating[i % 4 + 1] AS b, sum(wc), sum(wp), sum(cc), sum(cp)
FROM ch
WHERE (wc > 0 OR cc > 0) AND seating[i // 4 + 1] <> seating[i % 4 + 1]
GROUP BY ruleset, a, b
ORDER BY ruleset, a, b
"""

# Every deal-in with its value: the discarder A, the winner B and B's total (hands.total is
# the first winner's; a second winner of the same discard has none).
VALUE_SQL = f"""
WITH {_SEATS}
SELECT ruleset, feeder, seating[winners[1] + 1] AS receiver, total
FROM deal_hands
WHERE feeder <> seating[winners[1] + 1] AND total IS NOT NULL
ORDER BY ruleset, receiver, game_id, hand_no
"""

# --------------------------------------------------------------------------- rows


def pair_rows(counts: typing.Sequence[tuple], settings: Settings = SETTINGS) -> list[dict]:
    """``pair_stats`` rows from the aggregated counts of :data:`PAIR_SQL`.

    The p-value is the upper tail P(X ≥ k) of a beta-binomial: X ~ Bin(n, s) with the
    receiver's mean share s = expected / n not known exactly but estimated from the m
    deal-ins its weight rests on, s ~ Beta(s·m, (1 − s)·m). With the share known
    (m → ∞) this is the exact binomial tail, which by Hoeffding (1956) bounds the tail of
    the true count (a sum of Bernoulli trials with the per-hand shares) from above
    whenever k ≥ expected + 1; the beta widens it by the estimate's own uncertainty.
    """
    rows = []
    for ruleset, a, b, games, hands, a_all, n, k, expected, m, ab, ba in counts:
        tested = hands >= settings.min_hands_together and n >= settings.min_deal_ins and expected > 0
        p = p_low = None
        if tested:
            share = min(1.0 - 1e-9, expected / n)
            p = betabinom_sf(int(k), int(n), share * m, (1.0 - share) * m)
            p_low = betabinom_cdf(int(k), int(n), share * m, (1.0 - share) * m)
        rows.append({
            "ruleset": ruleset, "player_a": a, "player_b": b, "games_together": int(games),
            "hands_together": int(hands), "a_deal_ins": int(a_all), "a_deal_ins_together": int(n),
            "deal_ins_a_to_b": int(k), "expected_a_to_b": float(expected),
            "ratio": (k / expected) if expected > 0 else None,
            "points_a_to_b": float(ab), "points_b_to_a": float(ba), "net_flow_a_to_b": float(ab - ba),
            "p_value": p, "q_value": None, "tested": tested, "flagged": False,
            "behaviours": [], "explained_by": None, "p_low": p_low,
        })
    _adjust(rows, settings)
    return rows


def player_rows(counts: typing.Sequence[tuple], settings: Settings = SETTINGS,
                left_out: typing.AbstractSet[tuple[str, str]] = frozenset()) -> list[dict]:
    """``player_anomalies`` rows from the counts of :data:`PLAYER_SQL` (one family for BH).
    The population a player is compared with leaves out the ``left_out`` (ruleset, player)
    — the players of flagged pairs, whose collusion would bend it (a feeder's deal-ins
    would make everyone else's rate look low).

    A rate is tested against at least ``settings.min_population`` other players: against
    one, the test compares two players and cannot say which of them is unusual (at a table
    of four with a flagged pair left out, the two innocent players were compared with each
    other, and both flagged, one high and one low, on the same difference). The rates of
    the ``left_out`` players are judged in one Benjamini–Hochberg family with everyone's;
    the other players' rates again in a family of their own, as the pairs are
    (:func:`judge`): the colluders' own discoveries do not lower the bar for the others."""
    totals: dict[tuple[str, str], list[int]] = {}
    population: dict[str, int] = {}
    for ruleset, player, hands, *events in counts:
        if (ruleset, player) in left_out:
            continue
        population[ruleset] = population.get(ruleset, 0) + 1
        for name, k in zip(RATES, events, strict=True):
            t = totals.setdefault((ruleset, name), [0, 0])
            t[0] += hands
            t[1] += k
    rows = []
    for ruleset, player, hands, *events in counts:
        for name, k in zip(RATES, events, strict=True):
            all_hands, all_k = totals.get((ruleset, name), (0, 0))
            others = population.get(ruleset, 0)
            if (ruleset, player) in left_out:
                rest_n, rest_k = all_hands, all_k
            else:
                rest_n, rest_k = all_hands - hands, all_k - k
                others -= 1
            pop = rest_k / rest_n if rest_n else 0.0
            lo, hi = wilson(k, hands)
            tested = hands >= settings.min_player_hands and rest_n > 0 and others >= settings.min_population
            p = _two_sided(int(k), int(hands), rest_k, rest_n) if tested else None
            rows.append({
                "ruleset": ruleset, "player": player, "rate_name": name, "hands": int(hands), "count": int(k),
                "rate": k / hands if hands else 0.0, "ci_low": lo, "ci_high": hi, "population_rate": pop,
                "p_value": p, "q_value": None, "tested": tested, "flagged": False,
                "direction": ("high" if k / hands > pop else "low") if hands else None,
            })
    _adjust(rows, settings)
    if left_out:
        rest = [r for r in rows if (r["ruleset"], r["player"]) not in left_out]
        for r in rest:
            r["q_value"], r["flagged"] = None, False
        _adjust(rest, settings)
    return rows


def _two_sided(k: int, n: int, rest_k: int, rest_n: int) -> float:
    """Two-sided p-value of k events in n hands against the others' k in n: twice the
    smaller tail of a beta-binomial whose rate is the others' pooled rate as sure as
    their hands (Beta(rest_k + ½, rest_n − rest_k + ½)). Against many hands it is the
    exact binomial test; against a few (a population of one or two players once the
    flagged pairs are left out) it does not take the others' luck for their rate.

    >>> round(_two_sided(30, 100, 200, 1000), 4), round(_two_sided(30, 100, 20, 100), 4)
    (0.0306, 0.1191)
    """
    if n == 0:
        return 1.0
    a, b = rest_k + 0.5, rest_n - rest_k + 0.5
    return min(1.0, 2.0 * min(betabinom_sf(k, n, a, b), betabinom_cdf(k, n, a, b)))


def _adjust(rows: list[dict], settings: Settings) -> None:
    tested = [r for r in rows if r["tested"]]
    for r, q in zip(tested, bh_adjust([r["p_value"] for r in tested]), strict=True):
        r["q_value"] = q
        r["flagged"] = q <= settings.fdr


def _evidence(ruleset: str, a: str, b: str, statistic: str, trials: int, observed: float,
              expected: float | None, p: float | None) -> dict:
    return {"ruleset": ruleset, "player_a": a, "player_b": b, "statistic": statistic,
            "behaviour": STATISTICS[statistic][0], "trials": int(trials), "observed": float(observed),
            "expected": None if expected is None else float(expected), "p_value": p, "q_value": None,
            "tested": p is not None, "flagged": False, "explained_by": None}


def _shrunk(k: float, n: float, pop: float, prior: float) -> tuple[float, float]:
    """The Beta(α, β) of a rate seen as k in n, shrunk toward ``pop`` by ``prior`` trials."""
    m = n + prior
    r = min(1.0 - 1e-9, max(1e-9, (k + prior * pop) / m))
    return r * m, (1.0 - r) * m


def count_evidence(pairs: typing.Sequence[dict], settings: Settings = SETTINGS) -> list[dict]:
    """``feeding`` and ``deal_in_deficit`` rows from the ``pair_stats`` rows: A's deal-ins to
    B above the number expected, and B's deal-ins to A below it (A does not take them)."""
    by_key = {(r["ruleset"], r["player_a"], r["player_b"]): r for r in pairs}
    out = []
    for r in pairs:
        out.append(_evidence(r["ruleset"], r["player_a"], r["player_b"], "feeding", r["a_deal_ins_together"],
                             r["deal_ins_a_to_b"], r["expected_a_to_b"], r["p_value"]))
        back = by_key.get((r["ruleset"], r["player_b"], r["player_a"]))
        if back is not None:
            out.append(_evidence(r["ruleset"], r["player_a"], r["player_b"], "deal_in_deficit",
                                 back["a_deal_ins_together"], back["deal_ins_a_to_b"], back["expected_a_to_b"],
                                 back.get("p_low")))
    return out


def chance_evidence(pairs: typing.Sequence[dict], chances: typing.Sequence[tuple],
                    settings: Settings = SETTINGS) -> list[dict]:
    """``wins_passed`` and ``calls_passed`` rows: of A's chances to win (or pon/kong) on B's
    discards, the ones A let pass, against A's own rate on everyone else's discards
    (beta-binomial upper tail; A's rate shrunk toward the ruleset's by ``chance_prior``)."""
    per_pair = {(r, a, b): (wc, wp, cc, cp) for r, a, b, wc, wp, cc, cp in chances}
    per_a: dict[tuple[str, str], list[int]] = {}
    per_rs: dict[str, list[int]] = {}
    for (r, a, _b), counts in per_pair.items():
        for acc in (per_a.setdefault((r, a), [0, 0, 0, 0]), per_rs.setdefault(r, [0, 0, 0, 0])):
            for i, v in enumerate(counts):
                acc[i] += int(v)
    out = []
    for row in pairs:
        r, a, b = row["ruleset"], row["player_a"], row["player_b"]
        mine = per_pair.get((r, a, b), (0, 0, 0, 0))
        tot, rs = per_a.get((r, a), [0, 0, 0, 0]), per_rs.get(r, [0, 0, 0, 0])
        for statistic, i in (("wins_passed", 0), ("calls_passed", 2)):
            n, k = int(mine[i]), int(mine[i + 1])
            n_else, k_else = tot[i] - n, tot[i + 1] - k
            pop = (rs[i + 1] + 0.5) / (rs[i] + 1.0)
            alpha, beta = _shrunk(k_else, n_else, pop, settings.chance_prior)
            expected = n * alpha / (alpha + beta)
            tested = row["hands_together"] >= settings.min_hands_together and n >= settings.min_chances
            out.append(_evidence(r, a, b, statistic, n, k, expected,
                                 betabinom_sf(k, n, alpha, beta) if tested else None))
    return out


def big_threshold(totals: typing.Sequence[int], limit: int | None, share: float) -> int | None:
    """A big hand's least total: the ruleset's limit, or the cut that makes the top
    ``share`` of the deal-in values big, whichever is lower.

    Ties count whole: a cut falls between two totals, never inside a tie group, so on a
    coarse scale (广东's 番 run 1 to 8, and nearly half the wins are at 2) the share
    above a cut jumps. Of the cuts, the one whose share is nearest ``share`` by ratio is
    taken (the smaller share on a tie of ratios): 9.6% is nearer 10% than 49% is, and
    11.6% nearer than 8.3%.

    >>> big_threshold(list(range(1, 101)), 300, 0.1), big_threshold(list(range(1, 101)), 50, 0.1)
    (91, 50)
    >>> big_threshold([1] * 50 + [2] * 40 + [3] * 3 + [4] * 2 + [5] * 5, 5, 0.1)  # ≥ 2 is half of them
    3
    >>> big_threshold([1] * 50 + [2] * 34 + [3] * 9 + [4] * 2 + [5] * 5, 5, 0.1)  # ≥ 3 is 16%, ≥ 4 is 7%
    4
    """
    if not totals:
        return limit
    counts: dict[int, int] = {}
    for t in totals:
        counts[t] = counts.get(t, 0) + 1
    best: tuple[float, float, int] | None = None
    above = 0
    for v in sorted(counts, reverse=True):
        above += counts[v]
        frac = above / len(totals)
        key = (abs(math.log(frac / share)), frac, v)
        if best is None or key < best:
            best = key
    top = best[2] if best is not None else max(counts)
    return top if limit is None else min(limit, top)


def value_evidence(pairs: typing.Sequence[dict], values: typing.Sequence[tuple],
                   settings: Settings = SETTINGS) -> list[dict]:
    """``deal_in_value`` and ``big_hands`` rows from every deal-in's (ruleset, A, B, total).

    * ``deal_in_value``: the values of A's deal-ins to B ranked among all of B's wins on
      discards, a one-sided Mann–Whitney test (do A's rank higher than the others'?);
    * ``big_hands``: of A's deal-ins to B, the big ones (:func:`big_threshold`), against B's
      share of big hands among its wins on the others' discards (beta-binomial upper tail,
      shrunk toward the ruleset's share by ``prior`` wins)."""
    by_b: dict[tuple[str, str], list[tuple[str, int]]] = {}
    totals: dict[str, list[int]] = {}
    for r, a, b, total in values:
        by_b.setdefault((r, b), []).append((a, int(total)))
        totals.setdefault(r, []).append(int(total))
    least = {r: big_threshold(t, LIMIT_TOTALS.get(r), settings.big_share) for r, t in totals.items()}
    pop_big = {r: sum(v >= (least[r] or 0) for v in t) / len(t) for r, t in totals.items()}
    ranked: dict[tuple[str, str], tuple[dict[str, list[float]], dict[str, list[int]], float, int]] = {}
    for key, wins in by_b.items():
        ranks, ties = midranks([float(v) for _, v in wins])
        per_a: dict[str, list[float]] = {}
        vals: dict[str, list[int]] = {}
        for (a, v), rank in zip(wins, ranks, strict=True):
            per_a.setdefault(a, []).append(rank)
            vals.setdefault(a, []).append(v)
        ranked[key] = (per_a, vals, ties, len(wins))
    out = []
    for row in pairs:
        r, a, b = row["ruleset"], row["player_a"], row["player_b"]
        per_a, vals, ties, n_all = ranked.get((r, b), ({}, {}, 0.0, 0))
        mine, mine_v = per_a.get(a, []), vals.get(a, [])
        n1, n2 = len(mine), n_all - len(mine)
        tested = (row["hands_together"] >= settings.min_hands_together and n1 >= settings.min_value_deal_ins
                  and n2 >= settings.min_receiver_wins)
        others = [v for x, vs in vals.items() if x != a for v in vs]
        mean_else = sum(others) / len(others) if others else None
        out.append(_evidence(r, a, b, "deal_in_value", n1, sum(mine_v) / n1 if n1 else 0.0, mean_else,
                             mann_whitney_sf(sum(mine), n1, n2, ties) if tested else None))
        cut = least.get(r)
        k = sum(v >= cut for v in mine_v) if cut is not None else 0
        k_else = sum(v >= cut for v in others) if cut is not None else 0
        alpha, beta = _shrunk(k_else, n2, pop_big.get(r, 0.0), settings.prior)
        out.append(_evidence(r, a, b, "big_hands", n1, k, n1 * alpha / (alpha + beta),
                             betabinom_sf(k, n1, alpha, beta) if tested and cut is not None else None))
    return out


def judge(evidence: list[dict], pairs: list[dict], settings: Settings = SETTINGS,
          left_out: typing.AbstractSet[tuple[str, str, str]] = frozenset()) -> None:
    """One Benjamini–Hochberg family over every tested statistic; then each pair's flagged
    behaviours, and for a flagged pair sharing one player with a stronger flagged pair
    (smaller p-value), that pair (its flag may be the stronger pair's side effect: an
    innocent player who deals into a fed receiver).

    The pairs ``left_out`` of the passes (:func:`pair_passes`, either order) are judged in
    the family of every statistic; the other pairs' statistics are judged again in the
    family of theirs alone, as if the left-out pairs were not there — which is what the
    passes do for their weights. Otherwise a colluding pair's own discoveries (half a dozen
    statistics with tiny p-values) would raise Benjamini–Hochberg's bar for every other
    pair, and an innocent neighbour's chance p-value of 0.002 would be flagged beside it.
    When nothing is flagged, nothing is left out and the family is the same."""
    _adjust(evidence, settings)
    both = set(left_out) | {(r, b, a) for r, a, b in left_out}
    if both:
        rest = [e for e in evidence if (e["ruleset"], e["player_a"], e["player_b"]) not in both]
        for e in rest:
            e["q_value"], e["flagged"] = None, False
        _adjust(rest, settings)
    best: dict[tuple[str, str, str], float] = {}
    behaviours: dict[tuple[str, str, str], list[str]] = {}
    for e in evidence:
        if e["flagged"]:
            key = (e["ruleset"], e["player_a"], e["player_b"])
            best[key] = min(best.get(key, 1.0), e["p_value"])
            if e["behaviour"] not in behaviours.setdefault(key, []):
                behaviours[key].append(e["behaviour"])
    order = sorted(best, key=lambda k: (best[k], k))
    explained: dict[tuple[str, str, str], str] = {}
    for i, key in enumerate(order):
        for stronger in order[:i]:
            if stronger[0] == key[0] and len({stronger[1], stronger[2]} & {key[1], key[2]}) == 1 \
                    and stronger not in explained:
                explained[key] = f"{stronger[1]}→{stronger[2]}"
                break
    for e in evidence:
        e["explained_by"] = explained.get((e["ruleset"], e["player_a"], e["player_b"])) if e["flagged"] else None
    feeding = {(e["ruleset"], e["player_a"], e["player_b"]): e for e in evidence if e["statistic"] == "feeding"}
    for r in pairs:
        key = (r["ruleset"], r["player_a"], r["player_b"])
        f = feeding.get(key)
        r["q_value"] = f["q_value"] if f is not None else None
        r["flagged"] = bool(f is not None and f["flagged"])
        r["behaviours"] = sorted(behaviours.get(key, []), key=BEHAVIOURS.index)
        r["explained_by"] = explained.get(key)
        r["p_best"] = best.get(key)  # the pair's smallest flagged p-value (any behaviour), for the passes


# --------------------------------------------------------------------------- build


@dataclass(frozen=True, slots=True)
class Built:
    pairs: int
    pairs_tested: int
    pairs_flagged: int  # pairs with any flagged behaviour
    statistics_tested: int
    player_rates: int
    player_rates_flagged: int


def ddl() -> tuple[str, ...]:
    """Statements that (re)create this module's empty tables and its views."""
    stmts = [create_table_sql(name, model).replace("CREATE TABLE IF NOT EXISTS", "CREATE OR REPLACE TABLE")
             for name, model in TABLES.items()]
    stmts += [f"CREATE OR REPLACE VIEW {name} AS {sql.strip()}" for name, sql in VIEWS.items()]
    return tuple(stmts)


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict]) -> None:
    if not rows:
        return
    model = TABLES[table]
    arrow = pa.Table.from_pylist(rows, schema=arrow_schema(model))  # keys beyond the model's are left out
    cols = ", ".join(f'"{c}"' for c in column_names(model))
    con.register("_collusion_rows", arrow)
    try:
        con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _collusion_rows")
    finally:
        con.unregister("_collusion_rows")


def strongest_pairs(rows: typing.Sequence[dict], excluded: set[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """The flagged pair to leave out next, per ruleset: the strongest (smallest flagged
    p-value, any behaviour: :func:`judge`'s ``p_best``) not yet left out. One at a time,
    because a colluding pair bends its neighbours' figures (a feeder or a soft player who
    never wins off its partner sends the partner's deal-ins to the others; a feeder's
    deal-ins seem to avoid the third players), so its neighbours look flagged until it is
    left out. A pair is left out both ways (B→A with A→B)."""
    best: dict[str, dict] = {}
    for r in rows:
        key = (r["ruleset"], r["player_a"], r["player_b"])
        if r.get("p_best") is not None and key not in excluded and (key[0], key[2], key[1]) not in excluded:
            cur = best.get(r["ruleset"])
            if cur is None or (r["p_best"], r["player_a"], r["player_b"]) < (
                    cur["p_best"], cur["player_a"], cur["player_b"]):
                best[r["ruleset"]] = r
    return {(r["ruleset"], r["player_a"], r["player_b"]) for r in best.values()}


def pair_passes(con: duckdb.DuckDBPyConnection, settings: Settings = SETTINGS) -> tuple[list[dict], list[dict]]:
    """(After :func:`seat_tables`.) ``pair_stats`` rows and the ``pair_evidence`` rows judged with them, estimated again
    without the strongest flagged pair's deal-ins (:func:`strongest_pairs`: flagged for any
    behaviour, soft play and dumping too) until no new pair is flagged (at most
    ``settings.passes`` times in all): a colluding pair would otherwise bend the weights of
    the players it shares tables with. The chance and value statistics do not rest on
    the weights; they are computed once and judged again with each pass's counts."""
    excluded: set[tuple[str, str, str]] = set()
    rows: list[dict] = []
    evidence: list[dict] = []
    fixed: list[dict] = []
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_occ AS {OCC_SQL}")
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_base AS {BASE_SQL}")
    try:
        for i in range(settings.passes):
            ex = sorted(excluded)
            params = [[e[0] for e in ex], [e[1] for e in ex], [e[2] for e in ex]] + [settings.prior] * 3
            rows = pair_rows(con.execute(PAIR_SQL, params).fetchall(), settings)
            if i == 0:  # the same pairs in every pass (the base is computed once)
                fixed = (chance_evidence(rows, con.execute(CHANCE_SQL).fetchall(), settings)
                         + value_evidence(rows, con.execute(VALUE_SQL).fetchall(), settings))
            evidence = count_evidence(rows, settings) + [dict(e) for e in fixed]
            judge(evidence, rows, settings, excluded)
            new = strongest_pairs(rows, excluded)
            if not new:
                break
            excluded |= new
    finally:
        con.execute("DROP TABLE IF EXISTS _collusion_occ")
        con.execute("DROP TABLE IF EXISTS _collusion_base")
    return rows, evidence


def build(con: duckdb.DuckDBPyConnection, settings: Settings = SETTINGS) -> Built:
    """Rebuild the tables and views from the whole database (the caller holds the transaction)."""
    for stmt in ddl():
        con.execute(stmt)
    seat_tables(con)
    try:
        pairs, evidence = pair_passes(con, settings)
        left_out = {(r["ruleset"], p) for r in pairs if r["behaviours"] for p in (r["player_a"], r["player_b"])}
        names = sorted(LIMIT_TOTALS)
        counts = con.execute(PLAYER_SQL, [names, [LIMIT_TOTALS[n] for n in names]]).fetchall()
    finally:
        drop_seat_tables(con)
    players = player_rows(counts, settings, left_out)
    _insert(con, "pair_stats", pairs)
    _insert(con, "pair_evidence", evidence)
    _insert(con, "player_anomalies", players)
    return Built(len(pairs), sum(r["tested"] for r in pairs), sum(bool(r["behaviours"]) for r in pairs),
                 sum(e["tested"] for e in evidence), len(players), sum(r["flagged"] for r in players))
