"""``mahjong-audit report``: one self-contained HTML page from an audit database.

``queries`` reads the database (read-only), ``charts`` draws inline SVG, ``replay_view``
replays hands with findings from the original logs (optional: the database stores no
events), ``render`` assembles the page. :func:`build` ties them together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from mahjong_audit.pipeline.report import collusion_view, queries
from mahjong_audit.pipeline.report.render import HandKey, render
from mahjong_audit.pipeline.report.replay_view import HandView, hand_view, load_games
from mahjong_audit.pipeline.words import count


@dataclass(frozen=True, slots=True)
class Built:
    html: str
    data: queries.ReportData
    replays: int  # hands rendered with a replay
    replay_problems: tuple[str, ...]


def _hands_with_findings(data: queries.ReportData, limit: int) -> list[HandKey]:
    keys: dict[HandKey, None] = {}
    for f in data.findings:
        if f.game_id is not None and f.hand_no is not None and f.kind not in ("invalid_log", "duplicate_game"):
            keys.setdefault((f.game_id, f.hand_no), None)
            if len(keys) >= limit:
                break
    return list(keys)


def build(db: str, *, logs: Sequence[str] = (), importer: str | None = None, max_findings: int = 5000,
          max_replays: int = 200, max_players: int = 500, generated: datetime | None = None,
          parquet: str | None = None) -> Built:
    """Read ``db`` (or the Parquet dataset ``parquet``, see mahjong_audit.pipeline.dataset) and return the
    page. Raises :class:`~mahjong_audit.pipeline.errors.DatabaseError` (or ``NoDataset``) if it
    cannot be read."""
    if parquet is not None:
        from mahjong_audit.pipeline import dataset

        with dataset.connect(parquet) as con:
            data = queries.load(con, parquet, max_findings=max_findings, max_players=max_players)
            pairs = collusion_view.load(con)
    else:
        con = queries.connect_read_only(db)
        try:
            data = queries.load(con, db, max_findings=max_findings, max_players=max_players)
            pairs = collusion_view.load(con)
        finally:
            con.close()
    views: dict[HandKey, HandView | str] = {}
    problems: tuple[str, ...] = ()
    keys = collusion_view.ordered_keys(_hands_with_findings(data, max_replays),
                                       collusion_view.hands_to_replay(pairs)) if logs else []
    if logs:
        loaded = load_games(logs, {g for g, _ in keys}, importer)
        problems = loaded.problems
        for key in keys:
            game = loaded.games.get(key[0])
            if game is None:
                views[key] = ("not replayed: the logs given with --logs were not found" if not loaded.found_files
                              else "this game is not in the logs given with --logs")
                continue
            seqs = [f.seq for f in data.findings if (f.game_id, f.hand_no) == key]
            try:
                view = hand_view(game, key[1], seqs)
            except Exception as exc:  # noqa: BLE001 — one hand that fails to replay must not stop the report
                views[key] = f"the replay failed: {type(exc).__name__}: {exc}"
                continue
            views[key] = view if view is not None else f"the log of this game has no hand {key[1]}"
        n_hands = len({(f.game_id, f.hand_no) for f in data.findings if f.game_id is not None})
        note = (f"Replays: the hands with findings are replayed from the logs given with --logs "
                f"({count(len(keys), 'hand')}"
                + (f", the first {max_replays} of {n_hands}" if len(keys) < n_hands and len(keys) >= max_replays
                   else "") + "); follow a finding's replay link to see the deal, every event and each "
                "seat's tiles right after the finding's event.")
        if not loaded.found_files:
            note = (f"No replays: the logs given with --logs were not found ({escape('; '.join(problems))}). "
                    "Run the report again with the paths of the audited logs to replay the hands with findings.")
    else:
        note = ("No replays: the database stores no events. Run <code>mahjong-audit report --logs INPUT…</code> "
                "with the audited logs to link each finding to a replay of its hand.")
    html = render(data, views, replay_note=note, collusion=pairs,
                  generated=generated or datetime.now(UTC).replace(tzinfo=None))
    n_ok = sum(isinstance(v, HandView) for v in views.values())
    return Built(html, data, n_ok, problems)
