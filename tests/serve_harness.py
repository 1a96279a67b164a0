"""The real ``mahjong-audit serve`` in a subprocess on a free loopback port, and a small
HTTP client (the standard library's http.client), for tests and the bench."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START_SECONDS = 90  # the machine may be busy: Beam's and the engine's imports take a few seconds


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self):
        return json.loads(self.body)


class Server:
    """``serve --db DB --port 0 …`` started and stopped; ``url`` once it listens."""

    def __init__(self, db: Path, *args: str, env: dict[str, str] | None = None):
        self.db, self.args = db, args
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.token: str | None = None

    def start(self) -> Server:
        self.log = Path(f"{self.db}.serve.log")
        with open(self.log, "ab") as log:  # a file, not a pipe nobody reads
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mahjong_audit.pipeline.cli", "serve", "--db", str(self.db), "--port", "0",
                 *self.args], stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT, env=self.env)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line.startswith("serving "):
            self.proc.wait(timeout=START_SECONDS)
            raise RuntimeError(f"serve did not start: {line}{self.log.read_text()}")
        self.url = line.split()[1]
        return self

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc else -1

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --------------------------------------------------------------- requests

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None,
                token: str | None = None, timeout: float = 120) -> Reply:
        headers = {}
        if content_type:
            headers["Content-Type"] = content_type
        token = token if token is not None else self.token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn = self.connection(timeout)
        try:
            conn.putrequest(method, path)
            for k, v in {**headers, "Content-Length": str(len(body or b""))}.items():
                conn.putheader(k, v)
            conn.endheaders()
            try:
                conn.send(body or b"")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered (413) before it had all the body: read its answer
            r = conn.getresponse()
            return Reply(r.status, r.read(), dict(r.headers))
        finally:
            conn.close()

    def get(self, path: str, **kw) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, body: bytes, content_type: str = "application/x-ndjson", query: str = "", **kw) -> Reply:
        return self.request("POST", "/v1/games" + query, body, content_type, **kw)

    def connection(self, timeout: float = 60) -> http.client.HTTPConnection:
        host, port = self.url.removeprefix("http://").rsplit(":", 1)
        return http.client.HTTPConnection(host, int(port), timeout=timeout)


def wait_for(predicate, seconds: float = 30, step: float = 0.1):
    deadline = time.monotonic() + seconds
    while True:
        got = predicate()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(step)
