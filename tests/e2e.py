"""The small corpus of the end-to-end tests, the table counts its audit gives, and reads of an
audit database (not tests: the builders that ``test_pipeline_e2e`` and the other pipeline tests share)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import duckdb

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.schemas.log import Game
from tests.logbuild import draw_game, win_game


def make_corpus(root: Path) -> Path:
    """5 distinct valid games, 1 duplicate, 1 bad JSON line, 1 schema error, 1 .gz, 1 pretty .json."""
    corpus = root / "corpus"
    (corpus / "sub").mkdir(parents=True)
    bad_schema = win_game("bad-schema")
    bad_schema["hands"][0]["events"][0]["tile"] = "10m"
    (corpus / "a.jsonl").write_text(
        json.dumps(win_game("g1")) + "\n"
        + json.dumps(win_game("g2")) + "\n"
        + '{"format": "mahjong-log/1", "game_id": oops}\n'
        + "\n"
        + json.dumps(bad_schema) + "\n"
        + json.dumps(draw_game("g5")) + "\n"
    )
    (corpus / "b.json").write_text(json.dumps(win_game("g3"), indent=2))
    with gzip.open(corpus / "sub" / "c.jsonl.gz", "wt") as f:
        f.write(json.dumps(win_game("g4")) + "\n" + json.dumps(win_game("g1")) + "\n")
    (corpus / "README.txt").write_text("not a log\n")
    return corpus


GAMES = ("g1", "g2", "g3", "g4", "g5")


def expected_counts() -> dict[str, int]:
    engine_findings = sum(
        len(audit_game(Game.model_validate(win_game(g) if g != "g5" else draw_game(g))).findings)
        for g in GAMES
    )
    return {
        "runs": 1, "games": 5, "hands": 5, "hand_scores": 4 * 4, "payouts": 5 * 4,
        "findings": engine_findings + 2 + 1,  # + invalid_log json/schema + duplicate_game
        "rejected": 2,
    }


def counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("runs", "games", "hands", "hand_scores", "payouts", "findings", "rejected")}
    finally:
        con.close()


def query(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()
