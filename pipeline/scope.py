"""Narrow an audit database's statistics to a ruleset, a player and a period.

:func:`narrow` creates temporary views named like the tables (``games``, ``hands``,
``hand_scores``, ``payouts``, ``findings``) that hold only the rows in scope. DuckDB
looks names up in the temporary schema first, so every summary view (``player_stats``,
``period_stats``, …) computed on that connection afterwards covers the scope only,
without a second copy of its SQL. The database itself is not changed (read-only
connections work).

- ``ruleset``: games of that ruleset.
- ``player``: games the player sat in; per-player views keep the player's own rows,
  ``hand_scores`` the player's own items and ``findings`` those of the player's seat (or
  of the whole game/hand when they name no seat).
- ``since`` / ``until``: hands that began in ``[since, until)`` (a hand's own time, else its
  game's) and games that began then. A plain date for ``until`` includes that whole day.
  Games without a time are out of scope once a period is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import duckdb

from mahjong_audit.schemas.instants import parse_instant


@dataclass(frozen=True, slots=True)
class Scope:
    ruleset: str | None = None
    player: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    @classmethod
    def parse(cls, *, ruleset: str | None = None, player: str | None = None,
              since: str | None = None, until: str | None = None) -> Scope:
        """From command-line strings; raises :class:`mahjong_audit.schemas.instants.InstantError`."""
        end = None
        if until is not None:
            end = parse_instant(until)
            if len(until) == 10:  # a plain date: up to the end of that day
                end += timedelta(days=1)
        return cls(ruleset, player, parse_instant(since) if since is not None else None, end)

    @property
    def everything(self) -> bool:
        return self == Scope()

    def describe(self) -> str:
        parts = []
        if self.ruleset:
            parts.append(f"ruleset {self.ruleset}")
        if self.player:
            parts.append(f"player {self.player}")
        if self.since:
            parts.append(f"from {self.since:%Y-%m-%d %H:%M}Z")
        if self.until:
            parts.append(f"before {self.until:%Y-%m-%d %H:%M}Z")
        return ", ".join(parts) or "everything"


def _literal(value: str | datetime) -> str:
    """A SQL literal (views cannot hold parameters)."""
    if isinstance(value, datetime):
        return f"TIMESTAMPTZ '{value.isoformat()}'"
    return "'" + value.replace("'", "''") + "'"


def _period(column: str, scope: Scope) -> list[str]:
    conds = []
    if scope.since is not None:
        conds.append(f"{column} >= {_literal(scope.since)}")
    if scope.until is not None:
        conds.append(f"{column} < {_literal(scope.until)}")
    return conds


def narrow(con: duckdb.DuckDBPyConnection, scope: Scope) -> None:
    """Shadow the tables with temporary views of the rows in ``scope`` (see the module doc)."""
    if scope.everything:
        return
    row = con.execute("SELECT current_database()").fetchone()
    db = str(row[0]) if row else "memory"
    base = '"' + db.replace('"', '""') + '".main.'

    def view(name: str, where: list[str]) -> None:
        sql = f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT t.* FROM {base}{name} AS t"
        if where:
            sql += " WHERE " + " AND ".join(f"({w})" for w in where)
        con.execute(sql)

    games = []
    if scope.ruleset is not None:
        games.append(f"t.ruleset = {_literal(scope.ruleset)}")
    if scope.player is not None:
        games.append(f"list_contains(t.players, {_literal(scope.player)})")
    view("games", games + _period("t.started_at", scope))

    in_games = "t.game_id IN (SELECT game_id FROM temp.games)"
    view("hands", [in_games] + _period("t.started_at", scope))

    in_hands = ("EXISTS (SELECT 1 FROM temp.hands h "
                "WHERE h.game_id = t.game_id AND h.hand_no = t.hand_no)")
    scores = [in_hands]
    if scope.player is not None:
        scores.append(f"t.player = {_literal(scope.player)}")
    view("hand_scores", scores)
    view("payouts", [in_hands])

    findings = [in_games, f"t.hand_no IS NULL OR {in_hands}"]
    if scope.player is not None:
        findings.append("t.seat IS NULL OR t.seat = list_position("
                        f"(SELECT g.players FROM temp.games g WHERE g.game_id = t.game_id), "
                        f"{_literal(scope.player)}) - 1")
    view("findings", findings)


def has_player_column(con: duckdb.DuckDBPyConnection, view: str) -> bool:
    cols = {c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [view]).fetchall()}
    return "player" in cols
