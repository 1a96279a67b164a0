"""The report's chips section: each player's chips over a whole game (龙港's 牌局), for the
games whose logs record them (``hands.chips``, in ``games.players`` order)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import duckdb


@dataclass(frozen=True, slots=True)
class GameChips:
    game_id: str
    ruleset: str
    players: tuple[str, ...]
    hands: tuple[tuple[int, tuple[int, ...]], ...]  # (hand_no, chips per player after it)


def load_chips(con: duckdb.DuckDBPyConnection, limit: int = 20) -> tuple[GameChips, ...]:
    """The first ``limit`` games (by game_id) with chips; none on a database without the column."""
    have = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'hands'").fetchall()}
    if "chips" not in have:
        return ()
    rows = con.execute("""
        WITH kept AS (
          SELECT DISTINCT game_id FROM hands WHERE chips IS NOT NULL ORDER BY game_id LIMIT ?
        )
        SELECT g.game_id, g.ruleset, g.players, h.hand_no, h.chips
        FROM kept JOIN games g USING (game_id) JOIN hands h USING (game_id)
        WHERE h.chips IS NOT NULL
        ORDER BY g.game_id, h.hand_no
    """, [limit]).fetchall()
    out: dict[str, GameChips] = {}
    for game_id, ruleset, players, hand_no, chips in rows:
        g = out.get(game_id) or GameChips(game_id, ruleset, tuple(players), ())
        out[game_id] = GameChips(g.game_id, g.ruleset, g.players, (*g.hands, (int(hand_no), tuple(chips))))
    return tuple(out.values())


def render_chips(games: tuple[GameChips, ...]) -> str:
    """One table a game: a row per player, a column per hand; 断子 (0 or below) marked."""
    if not games:
        return ""
    out = ['<section id="chips"><h2>Chips per player</h2>',
           '<p class="muted">Each player\'s chips (子) after every hand of the game (牌局), as the log records '
           'them; a marked cell is a player broke (断子, 0 or below).</p>']
    for g in games:
        head = "".join(f"<th class=num>{n}</th>" for n, _ in g.hands)
        body = []
        for p, name in enumerate(g.players):
            cells = []
            for _, chips in g.hands:
                v = chips[p] if p < len(chips) else None
                mark = ' style="background:#fdd"' if v is not None and v <= 0 else ""
                cells.append(f"<td class=num{mark}>{'' if v is None else v}</td>")
            body.append(f"<tr><td>{escape(name)}</td>{''.join(cells)}</tr>")
        out.append(f"<h3>{escape(g.game_id)} <small>({escape(g.ruleset)})</small></h3>"
                   f"<table><thead><tr><th>player \\ hand</th>{head}</tr></thead>"
                   f"<tbody>{''.join(body)}</tbody></table>")
    out.append("</section>")
    return "".join(out)
