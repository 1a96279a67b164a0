"""The HTTP application: FastAPI routes over :class:`store.Store`, behind one ASGI gate.

The gate (:class:`Gate`) times every request for ``/metrics`` and, with a token, answers
401 to any request but ``/healthz`` without ``Authorization: Bearer <token>``. A body is
read in chunks and refused with 413 as soon as it is over ``max_record_bytes`` (at once
when its Content-Length says so), never held whole. The records are audited in the event
loop (the work is CPU-bound: threads would add nothing under the GIL), which gives way to
other requests between records; their rows then wait for the writer's commit.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from mahjong_audit.pipeline import rows
from mahjong_audit.pipeline.errors import StoreFailed
from mahjong_audit.pipeline.importers import IMPORTERS
from mahjong_audit.pipeline.serve import ingest, page
from mahjong_audit.pipeline.serve.metrics import Metrics
from mahjong_audit.pipeline.serve.models import (
    Batch,
    FindingsPage,
    Health,
    Problem,
    Summary,
    Verdict,
)
from mahjong_audit.pipeline.serve.store import SOURCE_PREFIX, RunInfo, Store
from mahjong_audit.schemas.log import Game

JSON_TYPES = frozenset({"application/json"})
NDJSON_TYPES = frozenset({"application/x-ndjson", "application/jsonl", "application/json-lines",
                          "application/x-jsonlines"})
YIELD_EVERY = 4  # records audited between two turns of the event loop
ROUTES = ("/", "/healthz", "/metrics", "/openapi.json", "/docs", "/v1/games", "/v1/findings", "/v1/summary")


@dataclass(frozen=True)
class Settings:
    db: str
    run: RunInfo
    audit_fn: ingest.AuditFn
    new_request_id: Callable[[], str]
    max_record_bytes: int
    token: str | None = None
    publish_seconds: float = 10.0
    url: str = ""


def _route(path: str) -> str:
    if path.startswith("/v1/games/"):
        return "/v1/games/{game_id}"
    return path if path in ROUTES else "other"


class Gate:
    """ASGI middleware: the bearer token check and the latency histogram."""

    def __init__(self, app: Any, token: str | None, metrics: Metrics):
        self.app, self.metrics = app, metrics
        self.expected = f"Bearer {token}".encode() if token is not None else None

    def _authorized(self, scope: dict) -> bool:
        if self.expected is None or scope["path"] == "/healthz":
            return True
        got = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
        return hmac.compare_digest(got, self.expected)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket" and not self._authorized(scope):
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 500

        async def sending(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            if self._authorized(scope):
                await self.app(scope, receive, sending)
            else:
                await JSONResponse({"detail": "missing or wrong bearer token"}, 401,
                                   headers={"WWW-Authenticate": "Bearer"})(scope, receive, sending)
        finally:
            self.metrics.observe(scope["method"], _route(scope["path"]), status, time.perf_counter() - t0)


def _plain_name(name: str) -> bool:
    return 0 < len(name) <= 255 and name not in (".", "..") and not any(c in name for c in "/\\\x00")


def _problem(status: int, detail: str) -> JSONResponse:
    return JSONResponse(Problem(detail=detail).model_dump(), status)


def _json(model, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status, media_type="application/json")


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The body, or None as soon as it is over ``limit`` bytes (the rest is not read)."""
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
    return b"".join(parts)


def verdict_of(outcome: ingest.Outcome) -> Verdict:
    """An outcome's rows as the response gives them (the row models, validated strictly)."""
    tables: dict[str, list] = {}
    for model in rows.models(outcome.rows):
        tables.setdefault(rows.table_of(model), []).append(model)
    return Verdict(status=outcome.status, game_id=outcome.game_id, source_file=outcome.source,  # type: ignore[arg-type]
                   source_line=outcome.line, game=(tables.get("games") or [None])[0],
                   hands=tables.get("hands", []), scores=tables.get("hand_scores", []),
                   payouts=tables.get("payouts", []), findings=tables.get("findings", []),
                   rejected=(tables.get("rejected") or [None])[0], error=outcome.error)


def _game_schema() -> tuple[dict, dict]:
    """mahjong-log/1 as an OpenAPI schema: (the request body's schema, its definitions)."""
    schema = Game.model_json_schema(ref_template="#/components/schemas/{model}")
    defs = schema.pop("$defs", {})
    return schema, defs


def open_store(settings: Settings) -> Store:
    """The store of the service (opens the database: ``errors.DatabaseLocked`` if another process holds it)."""
    return Store(settings.db, settings.run, Metrics(), url=settings.url, publish_seconds=settings.publish_seconds)


def create_app(settings: Settings, store: Store) -> FastAPI:
    """The application over an opened store, which it starts and closes with its lifespan."""
    metrics = store.metrics
    state: dict[str, Store] = {"store": store}

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        # The start-up heap (FastAPI, pydantic, Beam, pyarrow, the engine) lives as long as the
        # process: out of the collector's sight, as in the pipeline's workers (transforms.ParseFn).
        gc.freeze()
        store.start()
        try:
            yield
        finally:
            await asyncio.get_running_loop().run_in_executor(None, store.close)

    app = FastAPI(title="mahjong-audit serve", version=settings.run.version, lifespan=lifespan,
                  description="The live audit: post a finished game (mahjong-log/1, or a platform's format with "
                              "?from=), get its verdict once its rows are committed.")
    game_schema, game_defs = _game_schema()
    limit = settings.max_record_bytes

    @app.post("/v1/games", response_model=Verdict | Batch, summary="audit games and store their verdicts",
              responses={400: {"model": Verdict, "description": "a single record that was rejected (stored in "
                                                               "rejected), or a request refused (Problem)"},
                         413: {"model": Problem}, 415: {"model": Problem}, 503: {"model": Problem}},
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": game_schema},
                  "application/x-ndjson": {"schema": {"type": "string", "description": "mahjong-log/1 games, "
                                                                                       "one per line"}},
                  "text/plain": {"schema": {"type": "string", "description": "with ?from=: a platform's file"}}}}})
    async def post_games(request: Request, from_: Annotated[str | None, Query(
                             alias="from", description="importer: " + ", ".join(sorted(IMPORTERS)))] = None,
                         name: Annotated[str | None, Query(
                             description="the name of the file the body was (no folder), for importers that read "
                                         "a match id from it (botzone-json); recorded in source_file")] = None,
                         ) -> Response:
        if from_ is not None and from_ not in IMPORTERS:
            return _problem(400, f"unknown importer {from_!r} (known: {', '.join(sorted(IMPORTERS))})")
        if name is not None and not _plain_name(name):
            return _problem(400, f"name {name!r}: a file name without a folder (no '/', '\\', NUL, '..')")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if from_ is None and ctype not in JSON_TYPES | NDJSON_TYPES:
            return _problem(415, f"content type {ctype or 'none'!r}: send application/json (one game) or "
                                 "application/x-ndjson (one game per line), or name a format with ?from=")
        document = from_ is None and ctype in JSON_TYPES
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return _problem(413 if length.isdigit() else 400,
                            f"body of {length} bytes is over the limit of {limit:,} bytes (--max-record-bytes)"
                            if length.isdigit() else f"bad Content-Length {length!r}")
        body = await _read_body(request, limit)
        if body is None:
            return _problem(413, f"body over the limit of {limit:,} bytes (--max-record-bytes); not read")
        source = SOURCE_PREFIX + settings.new_request_id() + (f"/{name}" if name else "")
        outcomes: list[ingest.Outcome] = []
        for outcome in ingest.body_outcomes(source, body, document=document, importer=from_,
                                            audit_fn=settings.audit_fn, run_id=settings.run.run_id, limit=limit):
            outcomes.append(outcome)
            if len(outcomes) % YIELD_EVERY == 0:
                await asyncio.sleep(0)
        if not outcomes:
            return _problem(400, "no record in the body")
        try:
            await asyncio.wrap_future(state["store"].submit(outcomes))
        except StoreFailed as e:
            return _problem(503, f"{e}; nothing of this request was stored, send it again")
        verdicts = [verdict_of(o) for o in outcomes]
        if document:
            return _json(verdicts[0], 400 if verdicts[0].status == "rejected" else 200)
        count = {s: sum(v.status == s for v in verdicts) for s in ("audited", "duplicate", "rejected")}
        return _json(Batch(records=len(verdicts), games=count["audited"], duplicates=count["duplicate"],
                           rejected=count["rejected"], verdicts=verdicts))

    @app.get("/v1/games/{game_id}", response_model=Verdict, responses={404: {"model": Problem}},
             summary="the stored verdict of a game")
    def get_game(game_id: str) -> Response:
        verdict = state["store"].verdict(game_id)
        if verdict is None:
            return _problem(404, f"no game {game_id!r} in {settings.db}")
        return _json(verdict)

    @app.get("/v1/findings", response_model=FindingsPage, summary="recent findings, newest first, paged",
             responses={400: {"model": Problem}})
    def get_findings(since: Annotated[datetime | None, Query(
                         description="only records received from then on (ISO 8601; UTC if no offset)")] = None,
                     kind: str | None = None, ruleset: str | None = None,
                     before: Annotated[str | None, Query(description="the `next` of the page before")] = None,
                     limit: Annotated[int, Query(ge=1, le=1000, description="findings per page (whole records: "
                                                                            "the last may add some)")] = 100,
                     ) -> Response:
        cursor = None
        if before is not None:
            line, _, src = before.partition(":")
            if not line.isdigit() or not src.startswith(SOURCE_PREFIX):
                return _problem(400, f"bad cursor {before!r}: pass a page's `next` as it is")
            cursor = (int(line), src)
        return _json(state["store"].findings_page(since=since, kind=kind, ruleset=ruleset, before=cursor, limit=limit))

    @app.get("/v1/summary", response_model=Summary, summary="this service's counters (the live page's)")
    def get_summary() -> Response:
        store = state["store"]
        return _json(Summary(
            started_at=settings.run.started_at.replace(tzinfo=UTC), database=settings.db, games=metrics.games,
            hands=metrics.hands, findings=metrics.findings, findings_by_kind=dict(metrics.findings_by_kind),
            rejected=metrics.rejected, requests=metrics.requests, commits=metrics.commits,
            queue_depth=store.queue_depth(), read_copy_at=store.read_copy_at))

    @app.get("/healthz", response_model=Health, responses={503: {"model": Health}}, summary="liveness")
    def healthz() -> Response:
        store = state.get("store")
        if store is None or store.failure is not None or not store.writing():
            return _json(Health(status="failing", detail=store.failure if store and store.failure
                                else "the writer is not running"), 503)
        return _json(Health(status="ok"))

    @app.get("/metrics", response_class=PlainTextResponse, summary="counters in Prometheus text format")
    def get_metrics() -> PlainTextResponse:
        return PlainTextResponse(metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")

    @app.get("/", response_class=HTMLResponse, summary="the live page")
    def live_page() -> HTMLResponse:
        return HTMLResponse(page.HTML)

    plain_openapi = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = plain_openapi()
            schema.setdefault("components", {}).setdefault("schemas", {}).update(game_defs)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(Gate, token=settings.token, metrics=metrics)
    return app
