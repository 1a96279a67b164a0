"""The service's counters, in Prometheus' text exposition format (``GET /metrics``).

Counted once rows are committed (a game answered is a game counted); the request latency
histogram has fixed buckets; the queue depth is read from the store when scraped. Written
by the event loop and the writer thread: every change and the rendering hold one lock.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Iterable

# request latency buckets (seconds), upper bounds
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
PREFIX = "mahjong_audit_serve"


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.games = self.hands = self.findings = self.rejected = self.duplicates = 0
        self.commits = self.requests = 0
        self.findings_by_kind: dict[str, int] = {}
        self._responses: dict[tuple[str, str, int], int] = {}
        self._latency: dict[str, list[int]] = {}  # route -> counts per bucket (+Inf last)
        self._latency_sum: dict[str, float] = {}

    def committed(self, made: Iterable) -> None:
        """Count the rows of one commit (named tuples of ``mahjong_audit.pipeline.rows``)."""
        from mahjong_audit.pipeline import rows

        with self._lock:
            self.commits += 1
            for row in made:
                kind = type(row)
                if kind is rows.GameValues:
                    self.games += 1
                elif kind is rows.HandValues:
                    self.hands += 1
                elif kind is rows.RejectedValues:
                    self.rejected += 1
                elif kind is rows.FindingValues:
                    self.findings += 1
                    self.findings_by_kind[row.kind] = self.findings_by_kind.get(row.kind, 0) + 1
                    if row.code == rows.DUPLICATE.code:
                        self.duplicates += 1

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            self.requests += 1
            key = (method, route, status)
            self._responses[key] = self._responses.get(key, 0) + 1
            counts = self._latency.setdefault(route, [0] * (len(BUCKETS) + 1))
            counts[bisect_left(BUCKETS, seconds)] += 1
            self._latency_sum[route] = self._latency_sum.get(route, 0.0) + seconds

    def queue_depth(self) -> int:
        """Records waiting for their commit (the store puts its own in place)."""
        return 0

    def text(self) -> str:
        p = PREFIX
        with self._lock:
            out = [
                f"# HELP {p}_games_total Games audited and committed.", f"# TYPE {p}_games_total counter",
                f"{p}_games_total {self.games}",
                f"# HELP {p}_hands_total Hands audited and committed.", f"# TYPE {p}_hands_total counter",
                f"{p}_hands_total {self.hands}",
                f"# HELP {p}_rejected_total Records rejected (committed to the rejected table).",
                f"# TYPE {p}_rejected_total counter", f"{p}_rejected_total {self.rejected}",
                f"# HELP {p}_findings_total Findings committed, by kind.", f"# TYPE {p}_findings_total counter",
                *(f'{p}_findings_total{{kind="{_label(k)}"}} {n}' for k, n in sorted(self.findings_by_kind.items())),
                f"# HELP {p}_commits_total Group commits (transactions) written.",
                f"# TYPE {p}_commits_total counter", f"{p}_commits_total {self.commits}",
                f"# HELP {p}_queue_depth Records audited and waiting for their commit.",
                f"# TYPE {p}_queue_depth gauge", f"{p}_queue_depth {self.queue_depth()}",
                f"# HELP {p}_responses_total HTTP responses, by method, route and status.",
                f"# TYPE {p}_responses_total counter",
                *(f'{p}_responses_total{{method="{m}",route="{_label(r)}",status="{s}"}} {n}'
                  for (m, r, s), n in sorted(self._responses.items())),
                f"# HELP {p}_request_seconds Time from a request's arrival to its response, by route.",
                f"# TYPE {p}_request_seconds histogram",
            ]
            for route, counts in sorted(self._latency.items()):
                acc = 0
                for bound, n in zip((*map(str, BUCKETS), "+Inf"), counts, strict=True):
                    acc += n
                    out.append(f'{p}_request_seconds_bucket{{route="{_label(route)}",le="{bound}"}} {acc}')
                out.append(f'{p}_request_seconds_sum{{route="{_label(route)}"}} {self._latency_sum[route]:.6f}')
                out.append(f'{p}_request_seconds_count{{route="{_label(route)}"}} {acc}')
        return "\n".join(out) + "\n"
