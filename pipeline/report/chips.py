"""The report's chips section: each player's chips over a whole game (龙港's 牌局), for the
games whose logs record them (``hands.chips``, in ``games.players`` order), hand by hand to the
game's end, with who went broke (断子, ``hands.chips_broke``), who re-bought (加筹,
``hands.chips_rebuy``) and the hand that ended the game (``hands.chips_end``) marked."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import duckdb

BROKE_STYLE = "background:#fdd"
REBUY_STYLE = "background:#ffe9b3"


@dataclass(frozen=True, slots=True)
class HandChipsRow:
    """One hand of a game with chips: the balances after it (players order) and what happened."""

    hand_no: int
    chips: tuple[int, ...]
    broke: tuple[int, ...] | None = None  # players (indexes); None: a database from before the column
    rebuy: int | None = None
    ended: bool = False


@dataclass(frozen=True, slots=True)
class GameChips:
    game_id: str
    ruleset: str
    players: tuple[str, ...]
    hands: tuple[HandChipsRow, ...]


def load_chips(con: duckdb.DuckDBPyConnection, limit: int = 20) -> tuple[GameChips, ...]:
    """The first ``limit`` games (by game_id) with chips; none on a database without the column.
    A database from before ``chips_broke``/``chips_rebuy``/``chips_end`` marks 断子 by the balance."""
    have = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'hands'").fetchall()}
    if "chips" not in have:
        return ()
    marks = ("h.chips_broke, h.chips_rebuy, h.chips_end" if {"chips_broke", "chips_rebuy", "chips_end"} <= have
             else "NULL, NULL, NULL")
    rows = con.execute(f"""
        WITH kept AS (
          SELECT DISTINCT game_id FROM hands WHERE chips IS NOT NULL ORDER BY game_id LIMIT ?
        )
        SELECT g.game_id, g.ruleset, g.players, h.hand_no, h.chips, {marks}
        FROM kept JOIN games g USING (game_id) JOIN hands h USING (game_id)
        WHERE h.chips IS NOT NULL
        ORDER BY g.game_id, h.hand_no
    """, [limit]).fetchall()
    out: dict[str, GameChips] = {}
    for game_id, ruleset, players, hand_no, chips, broke, rebuy, ended in rows:
        g = out.get(game_id) or GameChips(game_id, ruleset, tuple(players), ())
        row = HandChipsRow(int(hand_no), tuple(chips), tuple(broke) if broke is not None else None,
                           None if rebuy is None else int(rebuy), bool(ended))
        out[game_id] = GameChips(g.game_id, g.ruleset, g.players, (*g.hands, row))
    return tuple(out.values())


def _cell(name: str, p: int, h: HandChipsRow) -> str:
    v = h.chips[p] if p < len(h.chips) else None
    broke = p in h.broke if h.broke is not None else v is not None and v <= 0
    notes = []
    if broke:
        notes.append("断子")
    if h.rebuy == p:
        notes.append("加筹")
    style = f' style="{REBUY_STYLE if h.rebuy == p else BROKE_STYLE}"' if notes else ""
    title = f' title="{escape(name)}: {" + ".join(notes)}"' if notes else ""
    mark = f' <small class="chip-mark">{" ".join(notes)}</small>' if notes else ""
    return f"<td class=num{style}{title}>{'' if v is None else v}{mark}</td>"


def render_chips(games: tuple[GameChips, ...]) -> str:
    """One table a game: a row per player, a column per hand to the game's end; a player broke
    (断子) and the one who re-bought (加筹) are marked in their cell, the hand that ended the game
    in its column head."""
    if not games:
        return ""
    out = ['<section id="chips"><h2>Chips per player</h2>',
           '<p class="muted">Each player\'s chips (子) after every hand of the game (牌局), as the log records '
           'them, to the game\'s end: <span style="' + BROKE_STYLE + '">断子</span> a player broke in the hand, '
           '<span style="' + REBUY_STYLE + '">加筹</span> the first one broke, re-bought (its balance '
           'includes the 加筹); <b>end</b> the hand that ended the game (a second 断子, or two in one hand).</p>']
    for g in games:
        head = "".join(f"<th class=num>{h.hand_no}{'<br><b>end</b>' if h.ended else ''}</th>" for h in g.hands)
        body = []
        for p, name in enumerate(g.players):
            cells = "".join(_cell(name, p, h) for h in g.hands)
            body.append(f"<tr><td>{escape(name)}</td>{cells}</tr>")
        rebuys = sum(1 for h in g.hands if h.rebuy is not None)
        broke = sum(len(h.broke or ()) for h in g.hands)
        summary = f"{len(g.hands)} hands, {broke} 断子, {rebuys} 加筹" + (", ended" if g.hands[-1].ended else "")
        out.append(f"<h3>{escape(g.game_id)} <small>({escape(g.ruleset)}; {summary})</small></h3>"
                   f"<table><thead><tr><th>player \\ hand</th>{head}</tr></thead>"
                   f"<tbody>{''.join(body)}</tbody></table>")
    out.append("</section>")
    return "".join(out)
