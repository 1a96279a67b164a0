"""Collusion and anomaly statistics: who feeds whom, per ruleset, with honest p-values.

Built in the driver at the end of every load (``build``), inside the load's transaction,
from the whole database, so a re-run never duplicates a row. DuckDB SQL aggregates the
counts (out of core, like the rest of the load); this module adds what SQL has not — exact
binomial and beta-binomial tails, Wilson intervals, Benjamini–Hochberg — with the standard library
(``pipeline.stats_math``), and bulk-inserts the results from Arrow tables.

Tables (every figure is per ruleset: MCR points, 龙港 chips and 广东 番 never mix):

* ``pair_stats`` — one row per ordered pair of players who shared a table: hands
  together, the feeder's deal-ins (all, and at the receiver's tables), deal-ins from
  feeder to receiver, the number expected if the feeder's deal-ins went to the others at
  the table in proportion to their wins on discards, points either way, the one-sided
  p-value and its BH q-value;
* ``player_anomalies`` — one row per player, ruleset and rate (win, self-draw, deal-in,
  false win, limit hand): the rate with its 95% Wilson interval against the rest of the
  population, a two-sided exact binomial p-value and its BH q-value.

Views: ``suspicious_pairs`` (the flagged pairs) and ``anomalous_players`` (the flagged
rates). What each statistic assumes and cannot see: ``docs/collusion.md``.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass

import duckdb
import pyarrow as pa
from pydantic import BaseModel, ConfigDict

from mahjong_audit.pipeline.stats_math import betabinom_sf, bh_adjust, binom_two_sided, wilson
from mahjong_audit.pipeline.tables import arrow_schema, column_names, create_table_sql


@dataclass(frozen=True, slots=True)
class Settings:
    """The statistics' fixed choices (documented in docs/collusion.md)."""

    fdr: float = 0.05  # Benjamini–Hochberg false discovery rate, one family per table
    min_hands_together: int = 100  # a pair is tested only with this many hands at one table …
    min_deal_ins: int = 15  # … and this many of the feeder's deal-ins at those tables
    prior: int = 30  # a player's share of deal-ins is shrunk toward the ruleset's by this many deal-ins
    passes: int = 4  # estimates again without the strongest flagged pair, at most this many times in all
    min_player_hands: int = 100  # a player's rates are tested from this many hands on


SETTINGS = Settings()

# A win at or above these totals is a limit hand (first winner's total, hands.total):
# MCR 64/88-fan hands, 广东 at or beyond the 爆胡 cap of 5 番, 龙港 at the 300-胡 cap.
LIMIT_TOTALS: typing.Mapping[str, int] = types.MappingProxyType({"mcr": 64, "guangdong": 5, "longgang": 300})

RATES = ("win", "self_draw", "deal_in", "false_win", "limit_hand")


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
    q_value: float | None  # Benjamini–Hochberg over the tested pairs
    tested: bool
    flagged: bool


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
    population_rate: float  # the other players' pooled rate
    p_value: float | None
    q_value: float | None
    tested: bool
    flagged: bool
    direction: str | None  # high | low


TABLES: typing.Mapping[str, type[_Row]] = types.MappingProxyType({
    "pair_stats": PairStatRow,
    "player_anomalies": PlayerAnomalyRow,
})

VIEWS: typing.Mapping[str, str] = types.MappingProxyType({
    "suspicious_pairs": """
SELECT ruleset, player_a AS feeder, player_b AS receiver, hands_together,
       a_deal_ins_together AS feeder_deal_ins, deal_ins_a_to_b AS deal_ins_to_receiver,
       round(expected_a_to_b, 1) AS expected, round(ratio, 2) AS ratio,
       round(net_flow_a_to_b, 1) AS net_flow, p_value, q_value
FROM pair_stats WHERE flagged
ORDER BY p_value, ruleset, player_a, player_b
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

_SEATS = """
seats AS (  -- who sat where in each hand (hands.players; the game's first four before it existed)
  SELECT game_id, hand_no, ruleset, len(seating) AS n_seats,
         unnest(seating) AS player, unnest(range(len(seating))) AS seat
  FROM (SELECT h.game_id, h.hand_no, h.ruleset, coalesce(h.players, g.players[1:4]) AS seating
        FROM hands h JOIN games g USING (game_id))
),
deal_hands AS (  -- a win on a discard (or a robbed kong): the discarder dealt in
  SELECT h.game_id, h.hand_no, h.discarder, h.winners
  FROM hands h
  WHERE h.result = 'win' AND h.win_type IN ('discard', 'robbing_kong') AND h.discarder IS NOT NULL
)"""

# One row per deal-in hand and seat other than the discarder (the seat's place after it).
OCC_SQL = f"""
WITH {_SEATS}
  SELECT a.ruleset, d.game_id, d.hand_no, a.player AS a, x.player AS b,
         list_contains(d.winners, x.seat) AS hit,
         (x.seat - d.discarder + x.n_seats) % x.n_seats AS place
  FROM deal_hands d
  JOIN seats a ON a.game_id = d.game_id AND a.hand_no = d.hand_no AND a.seat = d.discarder
  JOIN seats x ON x.game_id = d.game_id AND x.hand_no = d.hand_no AND x.seat <> d.discarder
  WHERE a.player <> x.player
"""

# Pairs that shared a table, with what does not change from pass to pass: hands and games
# together, the feeder's deal-ins, and the money flow either way.
BASE_SQL = f"""
WITH {_SEATS},
a_total AS (
  SELECT a.ruleset, a.player AS a, count(*) AS n
  FROM deal_hands d JOIN seats a ON a.game_id = d.game_id AND a.hand_no = d.hand_no AND a.seat = d.discarder
  GROUP BY a.ruleset, a.player
),
together AS (  -- hands (and games) in which both sat at the table
  SELECT sa.ruleset, sa.player AS a, sb.player AS b,
         count(DISTINCT sa.game_id) AS games, count(*) AS hands
  FROM seats sa
  JOIN seats sb ON sb.game_id = sa.game_id AND sb.hand_no = sa.hand_no AND sb.seat <> sa.seat
                   AND sb.player <> sa.player
  GROUP BY sa.ruleset, sa.player, sb.player
),
pay AS (  -- payouts name their player (a player standing out of a five-player hand too)
  SELECT p.game_id, p.hand_no, h.ruleset, p.player, coalesce(p.recorded, p.computed) AS d
  FROM payouts p JOIN hands h USING (game_id, hand_no)
  WHERE coalesce(p.recorded, p.computed) IS NOT NULL AND p.player IS NOT NULL
),
gains AS (SELECT game_id, hand_no, sum(d) AS g FROM pay WHERE d > 0 GROUP BY game_id, hand_no),
flows AS (  -- each hand's losses shared out to its gainers in proportion to their gains
  SELECT l.ruleset, l.player AS a, w.player AS b, sum(-l.d * w.d / g.g) AS pts
  FROM pay l
  JOIN pay w ON w.game_id = l.game_id AND w.hand_no = l.hand_no AND w.d > 0 AND w.player <> l.player
  JOIN gains g ON g.game_id = l.game_id AND g.hand_no = l.hand_no
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
# for the other seats' shares with the share it took of this discarder's deal-ins (a
# feeder who never wins off its receiver leaves the receiver's deal-ins to the others).
# Parameters: excluded (ruleset, a, b) as three lists, then prior five times.
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
  SELECT o.ruleset, o.game_id, o.hand_no, o.a, o.b, o.hit,
         pl.factor
         * (rt.k - coalesce(xt.k, 0) - CASE WHEN xa.player IS NULL THEN pc.k ELSE 0 END + ? * pop.share)
         / (rt.n - coalesce(xt.n, 0) - CASE WHEN xa.player IS NULL THEN pc.n ELSE 0 END + ?) AS w,
         rt.n - coalesce(xt.n, 0) - CASE WHEN xa.player IS NULL THEN pc.n ELSE 0 END + ? AS m,
         CASE WHEN ep.a IS NOT NULL  -- an excluded pair competes for the others' share as it played
              THEN pl.factor * (pc.k + ? * pop.share) / (pc.n + ?) END AS w_own
  FROM occ o
  JOIN pair_counts pc ON pc.ruleset = o.ruleset AND pc.a = o.a AND pc.b = o.b
  JOIN receiver_tot rt ON rt.ruleset = o.ruleset AND rt.b = o.b
  JOIN pop ON pop.ruleset = o.ruleset
  JOIN places pl ON pl.ruleset = o.ruleset AND pl.place = o.place
  LEFT JOIN excluded_tot xt ON xt.ruleset = o.ruleset AND xt.b = o.b
  LEFT JOIN excluded_pairs ep ON ep.ruleset = o.ruleset AND ep.a = o.a AND ep.b = o.b
  LEFT JOIN excluded_players xa ON xa.ruleset = o.ruleset AND xa.player = o.a
),
shares AS (  -- the receiver at its outside weight, the others at theirs (or as they played, if excluded)
  SELECT *, w / nullif(sum(coalesce(w_own, w)) OVER (PARTITION BY game_id, hand_no) - coalesce(w_own, w) + w, 0)
              AS share
  FROM weighted
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

# Per player and ruleset: hands and the count of each rate's event.
PLAYER_SQL = f"""
WITH {_SEATS},
limits AS (SELECT unnest(?::VARCHAR[]) AS ruleset, unnest(?::BIGINT[]) AS total)
SELECT s.ruleset, s.player, count(*) AS hands,
       count(*) FILTER (WHERE h.result = 'win' AND list_contains(h.winners, s.seat)) AS win,
       count(*) FILTER (WHERE h.result = 'win' AND list_contains(h.winners, s.seat)
                        AND h.win_type IN ('self_drawn', 'kong_replacement')) AS self_draw,
       count(*) FILTER (WHERE d.game_id IS NOT NULL AND d.discarder = s.seat) AS deal_in,
       count(*) FILTER (WHERE list_contains(h.false_wins, s.seat)) AS false_win,
       count(*) FILTER (WHERE h.result = 'win' AND h.winners[1] = s.seat AND h.total >= l.total) AS limit_hand
FROM seats s JOIN hands h USING (game_id, hand_no)
LEFT JOIN deal_hands d ON d.game_id = h.game_id AND d.hand_no = h.hand_no
LEFT JOIN limits l ON l.ruleset = s.ruleset
GROUP BY s.ruleset, s.player
ORDER BY s.ruleset, s.player
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
        p = None
        if tested:
            share = min(1.0 - 1e-9, expected / n)
            p = betabinom_sf(int(k), int(n), share * m, (1.0 - share) * m)
        rows.append({
            "ruleset": ruleset, "player_a": a, "player_b": b, "games_together": int(games),
            "hands_together": int(hands), "a_deal_ins": int(a_all), "a_deal_ins_together": int(n),
            "deal_ins_a_to_b": int(k), "expected_a_to_b": float(expected),
            "ratio": (k / expected) if expected > 0 else None,
            "points_a_to_b": float(ab), "points_b_to_a": float(ba), "net_flow_a_to_b": float(ab - ba),
            "p_value": p, "q_value": None, "tested": tested, "flagged": False,
        })
    _adjust(rows, settings)
    return rows


def player_rows(counts: typing.Sequence[tuple], settings: Settings = SETTINGS) -> list[dict]:
    """``player_anomalies`` rows from the counts of :data:`PLAYER_SQL` (one family for BH)."""
    totals: dict[tuple[str, str], list[int]] = {}
    for ruleset, _player, hands, *events in counts:
        for name, k in zip(RATES, events, strict=True):
            t = totals.setdefault((ruleset, name), [0, 0])
            t[0] += hands
            t[1] += k
    rows = []
    for ruleset, player, hands, *events in counts:
        for name, k in zip(RATES, events, strict=True):
            all_hands, all_k = totals[(ruleset, name)]
            rest_n, rest_k = all_hands - hands, all_k - k
            pop = rest_k / rest_n if rest_n else 0.0
            lo, hi = wilson(k, hands)
            tested = hands >= settings.min_player_hands and rest_n > 0
            p = binom_two_sided(k, hands, pop) if tested else None
            rows.append({
                "ruleset": ruleset, "player": player, "rate_name": name, "hands": int(hands), "count": int(k),
                "rate": k / hands if hands else 0.0, "ci_low": lo, "ci_high": hi, "population_rate": pop,
                "p_value": p, "q_value": None, "tested": tested, "flagged": False,
                "direction": ("high" if k / hands > pop else "low") if hands else None,
            })
    _adjust(rows, settings)
    return rows


def _adjust(rows: list[dict], settings: Settings) -> None:
    tested = [r for r in rows if r["tested"]]
    for r, q in zip(tested, bh_adjust([r["p_value"] for r in tested]), strict=True):
        r["q_value"] = q
        r["flagged"] = q <= settings.fdr


# --------------------------------------------------------------------------- build


@dataclass(frozen=True, slots=True)
class Built:
    pairs: int
    pairs_tested: int
    pairs_flagged: int
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
    arrow = pa.Table.from_pylist(rows, schema=arrow_schema(model))
    cols = ", ".join(f'"{c}"' for c in column_names(model))
    con.register("_collusion_rows", arrow)
    try:
        con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _collusion_rows")
    finally:
        con.unregister("_collusion_rows")


def strongest_pairs(rows: typing.Sequence[dict], excluded: set[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """The flagged pair to leave out next, per ruleset: the strongest not yet left out. One at
    a time, because a colluding pair bends its neighbours' figures (a feeder who never wins
    off its receiver sends the receiver's deal-ins to the others; a feeder's deal-ins seem
    to avoid the third players), so its neighbours look flagged until it is left out."""
    best: dict[str, dict] = {}
    for r in rows:
        key = (r["ruleset"], r["player_a"], r["player_b"])
        if r["flagged"] and key not in excluded:
            cur = best.get(r["ruleset"])
            if cur is None or (r["p_value"], r["player_a"], r["player_b"]) < (
                    cur["p_value"], cur["player_a"], cur["player_b"]):
                best[r["ruleset"]] = r
    return {(r["ruleset"], r["player_a"], r["player_b"]) for r in best.values()}


def pair_passes(con: duckdb.DuckDBPyConnection, settings: Settings = SETTINGS) -> list[dict]:
    """``pair_stats`` rows, estimated again without the strongest flagged pairs' deal-ins
    (:func:`strongest_pairs`) until no new pair is flagged (at most ``settings.passes``
    times in all): a colluding pair would otherwise bend the weights of the players it
    shares tables with."""
    excluded: set[tuple[str, str, str]] = set()
    rows: list[dict] = []
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_occ AS {OCC_SQL}")
    con.execute(f"CREATE OR REPLACE TEMP TABLE _collusion_base AS {BASE_SQL}")
    try:
        for _ in range(settings.passes):
            ex = sorted(excluded)
            params = [[e[0] for e in ex], [e[1] for e in ex], [e[2] for e in ex]] + [settings.prior] * 5
            rows = pair_rows(con.execute(PAIR_SQL, params).fetchall(), settings)
            new = strongest_pairs(rows, excluded)
            if not new:
                break
            excluded |= new
    finally:
        con.execute("DROP TABLE IF EXISTS _collusion_occ")
        con.execute("DROP TABLE IF EXISTS _collusion_base")
    return rows


def build(con: duckdb.DuckDBPyConnection, settings: Settings = SETTINGS) -> Built:
    """Rebuild the tables and views from the whole database (the caller holds the transaction)."""
    for stmt in ddl():
        con.execute(stmt)
    pairs = pair_passes(con, settings)
    names = sorted(LIMIT_TOTALS)
    players = player_rows(con.execute(PLAYER_SQL, [names, [LIMIT_TOTALS[n] for n in names]]).fetchall(), settings)
    _insert(con, "pair_stats", pairs)
    _insert(con, "player_anomalies", players)
    return Built(len(pairs), sum(r["tested"] for r in pairs), sum(r["flagged"] for r in pairs),
                 len(players), sum(r["flagged"] for r in players))
