"""Live progress for long runs, without shared Python state between workers.

Workers report progress by creating empty marker files in a folder of the run's staging
area: ``<phase>-<count>-<uuid>`` (a count in the *name*, so the driver only lists the
folder). Any runner whose workers can write to the staging filesystem (local, gs://, …)
works the same. The driver polls the folder from a thread and draws one status line on
stderr when it is a terminal.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

PHASES = ("read", "parsed", "audited")
_MARKER = re.compile(r"(read|parsed|audited)-(\d+)-[0-9a-f]+$")


def _fs():
    from apache_beam.io.filesystems import FileSystems

    return FileSystems


class Marker:
    """Worker side: counts items of one phase and writes a marker every ``interval`` s.

    One instance per DoFn instance (created in ``setup``); it is never shared.
    """

    def __init__(self, folder: str, phase: str, interval: float = 1.0):
        if phase not in PHASES:
            raise ValueError(f"unknown progress phase {phase!r}")
        self.folder, self.phase, self.interval = folder, phase, interval
        self._pending = 0
        self._last = time.monotonic()

    def add(self, n: int = 1) -> None:
        self._pending += n
        if time.monotonic() - self._last >= self.interval:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            name = f"{self.phase}-{self._pending}-{uuid.uuid4().hex}"
            with _fs().create(_fs().join(self.folder, name)):
                pass
            self._pending = 0
        self._last = time.monotonic()


@dataclass(frozen=True, slots=True)
class Snapshot:
    read: int = 0
    parsed: int = 0
    audited: int = 0


def snapshot(folder: str) -> Snapshot:
    """Driver side: the counts reported so far (zero if the folder does not exist yet)."""
    fs = _fs()
    totals = dict.fromkeys(PHASES, 0)
    try:
        metas = fs.match([fs.join(folder, "*")])[0].metadata_list
    except OSError:  # BeamIOError: folder not created yet
        return Snapshot()
    for m in metas:
        hit = _MARKER.search(m.path)
        if hit:
            totals[hit.group(1)] += int(hit.group(2))
    return Snapshot(**totals)


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def status_line(snap: Snapshot, elapsed: float, rate: float) -> str:
    """One line: ``read 1,200 · parsed 1,200 · audited 400/1,200 games · 35.0/s · ETA 0:00:23``."""
    parts = [f"read {snap.read:,}", f"parsed {snap.parsed:,}"]
    if snap.parsed:
        parts.append(f"audited {snap.audited:,}/{snap.read:,} games")
    else:
        parts.append(f"audited {snap.audited:,} games")
    if rate > 0:
        parts.append(f"{rate:,.1f}/s")
        left = max(snap.read - snap.audited, 0)
        if snap.parsed and left:
            parts.append(f"ETA {_clock(left / rate)}")
    parts.append(f"elapsed {_clock(elapsed)}")
    return " · ".join(parts)


class ProgressBar:
    """Driver side: a thread that redraws the status line every ``period`` seconds."""

    def __init__(self, folder: str, out: TextIO, period: float = 1.0,
                 poll: Callable[[str], Snapshot] = snapshot):
        self.folder, self.out, self.period, self._poll = folder, out, period, poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="progress", daemon=True)
        self._start = time.monotonic()
        self._drawn = False

    def __enter__(self) -> ProgressBar:
        self._start = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if self._drawn:
            self.out.write("\r\x1b[2K")
            self.out.flush()

    def _run(self) -> None:
        window: list[tuple[float, int]] = []  # (time, audited) over the last ~10 s
        while not self._stop.wait(self.period):
            snap = self._poll(self.folder)
            now = time.monotonic()
            window.append((now, snap.audited))
            window = [w for w in window if now - w[0] <= 10.0] or window[-1:]
            t0, a0 = window[0]
            rate = (snap.audited - a0) / (now - t0) if now > t0 else 0.0
            if rate <= 0 and snap.audited:
                rate = snap.audited / max(now - self._start, 1e-9)
            line = status_line(snap, now - self._start, rate)
            self.out.write("\r\x1b[2K" + line[:200])
            self.out.flush()
            self._drawn = True
