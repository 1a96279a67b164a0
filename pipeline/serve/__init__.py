"""``mahjong-audit serve``: the live audit, an HTTP service on the batch audit's engine and tables.

- :mod:`.ingest` — a request body -> records (``mahjong_audit.pipeline.read``, ``.parse``) -> games audited by
  the pipeline's per-game audit (``mahjong_audit.engine.rechecks``) -> rows (``mahjong_audit.pipeline.rows``, as the pipeline makes them);
- :mod:`.store` — one writer thread that owns the DuckDB file and commits the rows of
  every request waiting in one transaction (group commit, through ``mahjong_audit.pipeline.sink``'s load,
  so a re-posted game_id replaces its rows as a batch re-run does), and publishes a read
  copy for ``stats`` and ``report`` (:mod:`.replica`);
- :mod:`.metrics` — counters and the latency histogram in Prometheus' text format;
- :mod:`.app` — the FastAPI application (routes, bearer token, body size limit);
- :mod:`.page` — the live page served at ``/``.

Only :mod:`.replica` is imported by other commands (it needs neither FastAPI nor Beam).
"""
