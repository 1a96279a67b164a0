"""Not tests: a small audit database for the report tests, built the way the audit builds one:
synthetic logs audited by ``mahjong_audit.engine.audit.audit_game``, rows from ``mahjong_audit.pipeline.rows``, tables
from ``mahjong_audit.pipeline.tables.ddl()`` and one bulk insert per table. A few hand-written rows add
a second ruleset (台-based, with a robbing-kong win) that the engine need not know."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import duckdb

from mahjong_audit.pipeline.tables import ddl
from mahjong_audit.schemas.results import TABLES, GameRow, HandRow, HandScoreRow, PayoutRow, RunRow

HOSTILE = "bob <script>alert(1)</script>"
RUN_ID = "20261129T120000Z-deadbeef"

_DEAL = [
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p",
    "1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 5s 6s",
    "6p 6p 7p 7p 8p 8p 9p 9p 1z 1z 2z 2z 3z",
    "5z 5z 5z 6z 6z 6z 7z 7z 7z 4z 4z 3z 9s",
]


def _hand(hand_no: int, draw: str, deltas: list[int], total: int) -> dict:
    return {
        "hand_no": hand_no, "round_wind": "E", "dealer": 0,
        "deal": [d.split() for d in _DEAL],
        "events": [
            {"seq": 1, "type": "discard", "seat": 0, "tile": "5p"},
            {"seq": 2, "type": "draw", "seat": 1, "tile": draw},
            {"seq": 3, "type": "win", "seat": 1, "tile": draw, "from": 1},
        ],
        "outcome": {"result": "win", "wins": [{"seat": 1, "from": 1, "tile": draw, "score": {"total": total}}],
                    "deltas": deltas},
    }


def games() -> list[dict]:
    """Game 1: a false win (8s does not complete seat 1's hand) in hand 0 and a legal
    self-drawn win recorded with the wrong total and payouts in hand 1. Game 2: clean."""
    players = ["alice", HOSTILE, "carol", "dave"]
    g1 = {"format": "mahjong-log/1", "game_id": "g-<1>", "platform": "test", "ruleset": "mcr",
          "players": players,
          "hands": [{**_hand(0, "8s", [0, 0, 0, 0], 0), "outcome": {"result": "draw", "deltas": [0, 0, 0, 0]}},
                    {**_hand(1, "7s", [-8, 24, -8, -8], 8), "round_wind": "E"}]}
    clean = _hand(0, "7s", [-77, 231, -77, -77], 69)
    g2 = {"format": "mahjong-log/1", "game_id": "g-2", "platform": "test", "ruleset": "mcr",
          "players": ["erin", "frank", "grace", "heidi"], "hands": [clean]}
    return [g1, g2]


def write_logs(folder: Path) -> Path:
    path = folder / "games.jsonl"
    lines = [json.dumps(g, ensure_ascii=False) for g in games()] + ['{"format": "mahjong-log/1", "game_id": ']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, rows: list) -> None:
    if not rows:
        return
    cols = list(TABLES[table].model_fields)
    data = [[r.model_dump()[c] for c in cols] for r in rows]
    con.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(cols))})', data)


def create_empty(db: Path) -> None:
    con = duckdb.connect(str(db))
    for stmt in ddl():
        con.execute(stmt)
    con.close()


def build_db(db: Path, logs: Path) -> None:
    """Audit ``logs`` in this process and load the rows into a new database ``db``."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.pipeline import parse, rows

    out: dict[str, list] = {t: [] for t in TABLES}
    for item in parse.parse_file(str(logs)):
        made = (rows.audit_rows(item, audit_game(item.game), RUN_ID) if isinstance(item, parse.ParsedGame)
                else rows.rejection_rows(item, RUN_ID))
        for r in made:
            out[rows.table_of(r)].append(r)
    # A second, 台-based ruleset the report must handle like any other (hand-written rows).
    out["games"].append(GameRow(
        game_id="lg-1", run_id=RUN_ID, platform="test", ruleset="longgang", started_at=None,
        players=["ivan", "judy", "mallory", "niaj"], hands=1, findings=0, source_file="lg.json", source_line=1))
    out["hands"].append(HandRow(
        game_id="lg-1", hand_no=0, ruleset="longgang", round_wind="S", dealer=2, result="win", winners=[3],
        win_type="robbing_kong", last_tile=True, winning_tile="5p", discarder=1, total=6, recorded_total=6,
        false_wins=[], events=40, findings=0))
    out["hand_scores"] += [
        HandScoreRow(game_id="lg-1", hand_no=0, seat=3, player=None, ruleset="longgang", item=i, unit="tai",
                     value=v, count=1, points=v) for i, v in (("抢杠", 2), ("门清", 1), ("海底捞月", 3))]
    out["payouts"].append(PayoutRow(game_id="lg-1", hand_no=0, seat=1, player=None, recorded=-12, computed=-6,
                                    diff=-6))
    n = {t: len(v) for t, v in out.items()}
    out["runs"].append(RunRow(
        run_id=RUN_ID, started_at=datetime(2026, 11, 29, 12, 0), finished_at=datetime(2026, 11, 29, 12, 1),
        version="0.1.0", inputs=[str(logs)], runner="DirectRunner", games=n["games"], hands=n["hands"],
        findings=n["findings"], rejected=n["rejected"]))
    create_empty(db)
    con = duckdb.connect(str(db))
    for table, table_rows in out.items():
        insert_rows(con, table, table_rows)
    con.close()
