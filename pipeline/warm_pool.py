"""Warm worker processes for local runs with ``--workers N`` (N > 1).

Beam's local runner starts each worker as ``python -m …sdk_worker_main``, and a new
Python process spends about a second importing Beam, pyarrow and the engine before it
audits anything: on a 2-core machine that second is a fifth of a 12,000-hand run. The
warm pool pays it once, early and beside the driver's own start-up:

* :class:`WarmPool` (in the driver) starts ``python -m mahjong_audit.pipeline.warm_pool
  SOCKET`` as soon as the command line asks for several local workers;
* that process imports everything a worker needs, then listens on a Unix socket;
* the pipeline's environment is a subprocess command, :mod:`mahjong_audit.pipeline.warm_client`,
  a standard-library-only script that hands the worker's settings to the pool, which
  forks an already-imported copy of itself to be the worker. The client waits for that
  worker and ends as it ended (exit status, or the same signal), so Beam and
  :mod:`mahjong_audit.pipeline.workers` see a worker process exactly as before.

Nothing changes inside transforms: the same SDK harness runs the same bundles; only the
process start-up is shorter. If the pool cannot start, the run uses Beam's own worker
command. ``MAHJONG_AUDIT_WARM_WORKERS=0`` turns the pool off.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from typing import NoReturn

POOL_MODULE = "mahjong_audit.pipeline.warm_pool"
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warm_client.py")
READY = b"ready\n"
ENV_SWITCH = "MAHJONG_AUDIT_WARM_WORKERS"

# What a worker imports on its first bundle (the DoFns' modules, the engine, Parquet).
PRELOAD = (
    "apache_beam.runners.worker.sdk_worker_main",
    "mahjong_audit.pipeline.transforms",
    "mahjong_audit.pipeline.read",
    "mahjong_audit.pipeline.parse",
    "mahjong_audit.pipeline.rows",
    "mahjong_audit.pipeline.staging",
    "mahjong_audit.engine.audit",
    "mahjong_audit.schemas.log_fast",
    "pyarrow.parquet",
)


def enabled() -> bool:
    """On Linux (fork, Unix sockets, descriptor passing), unless switched off."""
    return sys.platform.startswith("linux") and \
        os.environ.get(ENV_SWITCH, "1").lower() not in ("0", "false", "no", "off")


# --------------------------------------------------------------------------- driver side


class WarmPool:
    """The pool process, started now; :meth:`command` is the worker command for Beam
    once :meth:`ready` says the pool listens. Close it when the run ends."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="mahjong-audit-pool-")
        self.socket = os.path.join(self._dir, "pool.sock")
        self._errors = os.path.join(self._dir, "pool.err")
        with open(self._errors, "wb") as err:  # the pool's own messages; its workers write where Beam's would
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                [sys.executable, "-m", POOL_MODULE, self.socket],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        self._ready: bool | None = None
        self.failure = ""  # why the pool is not ready, once :meth:`ready` said so

    def ready(self, timeout: float = 60.0) -> bool:
        """True once the pool has imported everything and listens (waits up to ``timeout``)."""
        if self._ready is None:
            proc = self._proc
            ok = False
            if proc is not None and proc.stdout is not None:
                r, _, _ = select.select([proc.stdout], [], [], timeout)
                ok = bool(r) and proc.stdout.readline() == READY
            self._ready = ok
            if not ok:
                with contextlib.suppress(OSError), open(self._errors, "rb") as f:
                    lines = f.read().decode(errors="replace").strip().splitlines()
                    self.failure = lines[-1] if lines else f"no answer within {timeout:g} s"
                self.close()
        return self._ready

    def command(self) -> str:
        return " ".join(shlex.quote(w) for w in (sys.executable, "-I", "-S", CLIENT, self.socket))

    def release(self) -> None:
        """Tell the pool to stop (its workers have ended with the pipeline); it exits while
        the driver loads the results. :meth:`close` then waits for it."""
        proc = self._proc
        if proc is not None and proc.stdin is not None and not proc.stdin.closed:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # end of input: the pool stops any worker left and exits

    def close(self) -> None:
        """Stop the pool and wait for it; one never used is killed outright (it may still
        be importing, and a command that ends early should not wait for that)."""
        self.release()
        proc, self._proc = self._proc, None
        if proc is not None:
            if not self._ready:
                proc.kill()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> WarmPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_early: WarmPool | None = None


def start() -> WarmPool | None:
    """A new pool, or None if not even its process can be started (no temporary folder, no
    process to spare): the run then starts its workers as Beam does."""
    try:
        return WarmPool()
    except OSError as e:
        import logging

        logging.getLogger(__name__).warning("warm worker pool not started: %s", e)
        return None


def _workers_asked(words: list[str]) -> int:
    """``--workers N`` among an ``audit`` command line's words (before ``--``), else 1."""
    n = 1
    for i, w in enumerate(words):
        if w == "--":
            break
        value = words[i + 1] if w == "--workers" and i + 1 < len(words) else \
            w.split("=", 1)[1] if w.startswith("--workers=") else None
        if value is not None:
            with contextlib.suppress(ValueError):
                n = int(value)
    return n


def start_early(words: list[str]) -> None:
    """Start the pool now, before the driver imports Beam, if these command-line words
    ask for a local audit with several worker processes (the audit takes it with
    :func:`take`, or starts one itself)."""
    global _early
    head = words[: words.index("--")] if "--" in words else words
    if (not head or head[0] != "audit" or not enabled() or _early is not None
            or any(w in ("-h", "--help", "--in-memory") or w.split("=", 1)[0] == "--runner" for w in head)
            or _workers_asked(head) < 2):
        return
    import atexit

    _early = start()
    if _early is not None:
        atexit.register(_early.close)


def take() -> WarmPool | None:
    """The pool :func:`start_early` started, if any (the caller closes it)."""
    global _early
    pool, _early = _early, None
    return pool


# --------------------------------------------------------------------------- pool side


def _preload() -> None:
    """Import what a worker needs, quietly (a worker's import-time warnings are Beam's to
    print, in each worker, not the pool's)."""
    import importlib
    import logging

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers = [logging.NullHandler()]
    try:
        for name in PRELOAD:
            importlib.import_module(name)
    finally:
        root.handlers, root.level = handlers, level


def _run_worker(settings: dict[str, str]) -> int:
    """In the forked child: be the SDK worker Beam asked for; its exit status."""
    os.environ.update(settings)
    from apache_beam.runners.worker import sdk_worker_main

    try:
        sdk_worker_main.main([])
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001  as an uncaught exception would end the process
        traceback.print_exc()
        return 1
    return 0


def _status_words(status: int) -> bytes:
    if os.WIFSIGNALED(status):
        return b"signal %d\n" % os.WTERMSIG(status)
    return b"exit %d\n" % (os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _receive(conn: socket.socket) -> tuple[dict[str, str], list[int]]:
    """A client's settings and the descriptors of its stdout and stderr."""
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 2)
    while data and not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return json.loads(data or b"{}"), list(fds)


def _become_worker(settings: dict[str, str], client_fds: list[int], sockets: list[socket.socket],
                   pipes: list[int]) -> NoReturn:
    """In the child just forked: drop the pool's sockets, pipes and signal handling, write
    where the client writes, run the worker, and end with its status."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in pipes:
            os.close(fd)
        for sock in sockets:
            sock.close()
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, onto in zip(client_fds, (1, 2), strict=False):
            os.dup2(fd, onto)
        code = _run_worker(settings)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)  # never the pool's own clean-up


def serve(path: str) -> None:
    """Import, listen on ``path``, fork a worker per client, until stdin ends."""
    import gc

    _preload()
    gc.freeze()  # the forked workers share these pages; a collection would write to them all
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    clients: dict[int, socket.socket] = {}  # worker pid -> its client's connection
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    stdin = sys.stdin.fileno()
    try:
        while True:
            watched = [listener, stdin, wake_r, *clients.values()]
            readable, _, _ = select.select(watched, [], [])
            if wake_r in readable:
                os.read(wake_r, 4096)
            _reap(clients)
            if stdin in readable and not os.read(stdin, 4096):
                return  # the driver is done (or gone)
            for pid, conn in list(clients.items()):
                if conn in readable:  # the client went away: so does its worker
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            if listener in readable:
                conn, _ = listener.accept()
                settings, fds = _receive(conn)
                pid = os.fork()
                if pid == 0:
                    _become_worker(settings, fds, [listener, conn, *clients.values()], [wake_r, wake_w])
                for fd in fds:
                    os.close(fd)
                clients[pid] = conn
    finally:
        for pid in clients:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap(clients, block=True)


def _reap(clients: dict[int, socket.socket], block: bool = False) -> None:
    """Tell the client of each ended worker how it ended."""
    while clients:
        try:
            pid, status = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = clients.pop(pid, None)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.sendall(_status_words(status))
            conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
    os._exit(0)  # nothing to flush or clean: no interpreter teardown of everything preloaded
