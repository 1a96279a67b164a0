"""Noticing a local worker process that died (killed, out of memory).

Beam's FnApiRunner in ``multi_processing`` mode starts each worker from a thread that
raises ``RuntimeError("Worker subprocess exited with return code N")`` when the worker
ends badly, and the pipeline then waits for it forever. :func:`watch_workers` catches
that exception on its thread, interrupts the main thread, and turns the interruption
into :class:`WorkerDied`; the workers still running (children of this process) are
stopped, so the run ends instead of hanging.
"""

from __future__ import annotations

import _thread
import contextlib
import os
import re
import signal
import threading
from collections.abc import Iterator

from mahjong_audit.pipeline.errors import WorkerDied

_EXITED = re.compile(r"Worker subprocess exited with return code (-?\d+)")
WORKER_MODULE = "apache_beam.runners.worker.sdk_worker_main"



def describe_exit(code: int) -> str:
    """``137`` -> 'killed by SIGKILL, perhaps for lack of memory'."""
    sig = code - 128 if code > 128 else -code if code < 0 else 0
    if sig:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        hint = ", perhaps for lack of memory" if sig == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exit status {code}"


def _children() -> list[int]:
    """Process ids of this process's direct and indirect children (Linux /proc)."""
    me, parents = os.getpid(), {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read().decode(errors="replace")
            except OSError:
                continue
            parents[int(name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [me]
    while todo:
        pid = todo.pop()
        kids = [c for c, p in parents.items() if p == pid]
        out += kids
        todo += kids
    return out


def stop_workers() -> None:
    """Kill the worker processes this process started (found by their module name)."""
    for pid in _children():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if WORKER_MODULE.encode() in cmd:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _interrupt_main() -> None:
    """KeyboardInterrupt in the main thread, even while it blocks on a lock (a real
    signal, sent to that thread, wakes the wait)."""
    main = threading.main_thread().ident
    if main is not None and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.pthread_kill(main, signal.SIGINT)
    else:
        _thread.interrupt_main()


@contextlib.contextmanager
def watch_workers() -> Iterator[None]:
    """Within this block, a worker's death raises :class:`WorkerDied` in this thread."""
    died: list[str] = []
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        m = _EXITED.search(str(args.exc_value)) if args.exc_value is not None else None
        if m and not died:
            died.append(f"a worker process died: {describe_exit(int(m.group(1)))}")
            _interrupt_main()
        previous(args)

    threading.excepthook = hook
    try:
        yield
    except KeyboardInterrupt:
        if died:
            raise WorkerDied(died[0]) from None
        raise
    finally:
        threading.excepthook = previous
        if died:
            stop_workers()
