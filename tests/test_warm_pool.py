"""The warm worker pool (mahjong_audit.pipeline.warm_pool, mahjong_audit.pipeline.warm_client): when it starts, that a
worker forked from it ends the way Beam expects of a worker process, that nothing is left
running, and that a run falls back to Beam's own workers when the pool cannot start."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mahjong_audit.pipeline import warm_client, warm_pool, workers
from mahjong_audit.pipeline.cli import main
from tests.e2e import counts, expected_counts, make_corpus

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool is Linux-only"),
              pytest.mark.slow]  # whole audits on pools of worker processes


# --------------------------------------------------------------------------- when it starts


@pytest.mark.parametrize(("words", "n"), [
    (["audit", "x", "--workers", "2"], 2), (["audit", "--workers=3", "x"], 3), (["audit", "x"], 1),
    (["audit", "x", "--workers", "two"], 1), (["audit", "--", "--workers", "2"], 1),
])
def test_workers_asked(words, n):
    assert warm_pool._workers_asked(words) == n


@pytest.mark.parametrize(("words", "starts"), [
    (["audit", "in", "--db", "d", "--workers", "2"], True),
    (["audit", "in", "--db", "d"], False),  # one worker: in this process
    (["audit", "in", "--workers", "2", "--in-memory"], False),
    (["audit", "in", "--workers", "2", "--runner", "FlinkRunner"], False),  # a cluster's workers
    (["audit", "in", "--workers", "2", "--runner=DirectRunner"], False),
    (["audit", "--help", "--workers", "2"], False),
    (["stats", "--workers", "2"], False),
    ([], False),
])
def test_started_early_only_for_several_local_workers(monkeypatch, words, starts):
    made = []
    monkeypatch.setattr(warm_pool, "WarmPool", lambda: made.append(1) or _Fake())
    monkeypatch.setattr(warm_pool, "_early", None)
    warm_pool.start_early(words)
    assert bool(made) == starts
    assert (warm_pool.take() is not None) == starts
    assert warm_pool.take() is None  # taken once


def test_a_pool_that_cannot_even_be_started_leaves_the_run_to_beam(tmp_path, capsys, monkeypatch, caplog):
    def no_folder(self):
        raise PermissionError(13, "Permission denied", "/tmp/mahjong-audit-pool-x")

    monkeypatch.setattr(warm_pool.WarmPool, "__init__", no_folder)
    corpus, db = make_corpus(tmp_path), tmp_path / "c.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), "--workers", "2"]) == 0
    assert counts(db) == expected_counts()
    assert "warm worker pool not started: [Errno 13] Permission denied" in caplog.text  # a warning
    assert "forked from the warm pool" not in (tmp_path / "c.duckdb.log").read_text()


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv(warm_pool.ENV_SWITCH, "0")
    assert not warm_pool.enabled()
    monkeypatch.setattr(warm_pool, "_early", None)
    warm_pool.start_early(["audit", "in", "--workers", "2"])
    assert warm_pool.take() is None


class _Fake:
    def close(self):
        pass


# --------------------------------------------------------------------------- the client


def _fake_pool(path: str, reply: bytes | None, seen: dict) -> threading.Thread:
    """A one-connection stand-in for the pool: records what the client sends, answers ``reply``."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def serve():
        conn, _ = listener.accept()
        settings, fds = warm_pool._receive(conn)
        seen["settings"], seen["fds"] = settings, len(fds)
        for fd in fds:
            os.close(fd)
        if reply is not None:
            conn.sendall(reply)
        conn.close()
        listener.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize(("reply", "code"), [
    (b"exit 0\n", 0), (b"exit 3\n", 3), (b"signal 15\n", -15), (b"signal 9\n", -9), (None, 1),
])
def test_the_client_ends_as_its_worker_ended(tmp_path, reply, code):
    path, seen = str(tmp_path / "p.sock"), {}
    t = _fake_pool(path, reply, seen)
    env = {**os.environ, "WORKER_ID": "worker_7", "CONTROL_API_SERVICE_DESCRIPTOR": "url: 'localhost:1'"}
    proc = subprocess.run([sys.executable, "-I", "-S", warm_client.__file__, path], env=env,
                          capture_output=True, timeout=30)
    t.join(5)
    assert proc.returncode == code
    assert seen["settings"] == {"WORKER_ID": "worker_7", "CONTROL_API_SERVICE_DESCRIPTOR": "url: 'localhost:1'"}
    assert seen["fds"] == 2  # its stdout and stderr, for the worker to write to
    if code == 1:
        assert b"the pool ended before the worker did" in proc.stderr


# --------------------------------------------------------------------------- the pool


_POOL_WITH_FAKE_WORKERS = """
import os, sys, time
from mahjong_audit.pipeline import warm_pool
warm_pool.PRELOAD = ()
def fake_worker(settings):
    print("worker", settings.get("WORKER_ID"), os.getpid(), flush=True)  # to the client's stdout
    if settings.get("WORKER_ID") == "sleeper":
        time.sleep(60)
    if settings.get("WORKER_ID") == "killed":
        os.kill(os.getpid(), 9)
    return int(settings.get("WORKER_ID", "0")) if settings.get("WORKER_ID", "").isdigit() else 0
warm_pool._run_worker = fake_worker
warm_pool.serve(sys.argv[1])
"""


@pytest.fixture
def fake_pool(tmp_path):
    path = str(tmp_path / "pool.sock")
    proc = subprocess.Popen([sys.executable, "-c", _POOL_WITH_FAKE_WORKERS, path],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=Path(__file__).parents[1])
    assert proc.stdout.readline() == warm_pool.READY
    yield path, proc
    proc.stdin.close()
    proc.wait(10)


def _client(path, worker_id, **kw):
    env = {**os.environ, "WORKER_ID": worker_id}
    return subprocess.Popen([sys.executable, "-I", "-S", warm_client.__file__, path], env=env,
                            stdout=subprocess.PIPE, **kw)


def test_a_forked_worker_writes_to_its_client_and_its_end_is_passed_on(fake_pool):
    path, _ = fake_pool
    for worker_id, code in (("0", 0), ("3", 3), ("killed", -signal.SIGKILL)):
        client = _client(path, worker_id)
        out, _ = client.communicate(timeout=30)
        assert client.returncode == code
        assert out.startswith(f"worker {worker_id} ".encode())


def test_a_worker_whose_client_is_gone_is_stopped_and_the_pool_ends_with_its_input(fake_pool):
    path, proc = fake_pool
    client = _client(path, "sleeper")
    pid = int(client.stdout.readline().split()[2])
    client.kill()
    client.wait()
    _gone_within(pid, 10)
    sleeper = _client(path, "sleeper")
    pid = int(sleeper.stdout.readline().split()[2])
    proc.stdin.close()  # the driver ends: the pool stops what is left, and exits
    assert proc.wait(10) == 0
    _gone_within(pid, 10)
    assert sleeper.wait(10) == -signal.SIGKILL


def _gone_within(pid: int, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return  # ended, not yet reaped
        except OSError:
            return
        time.sleep(0.05)
    pytest.fail(f"process {pid} still runs")


# --------------------------------------------------------------------------- in a run


def _pool_processes() -> list[int]:
    out = []
    for pid in workers._children():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if warm_pool.POOL_MODULE.encode() in f.read():
                    out.append(pid)
        except OSError:
            continue
    return out


def test_a_two_process_run_uses_the_pool_and_leaves_nothing_running(tmp_path, capsys):
    corpus, db = make_corpus(tmp_path), tmp_path / "a.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), "--workers", "2"]) == 0
    assert counts(db) == expected_counts()
    assert "forked from the warm pool" in (tmp_path / "a.duckdb.log").read_text()
    assert not _pool_processes()
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("mahjong-audit-pool-*/pool.sock"))


def test_a_pool_that_does_not_start_leaves_the_run_to_beams_own_workers(tmp_path, capsys, monkeypatch):
    def not_ready(self, timeout=60.0):
        self.failure = "it was told not to"
        self.close()
        return False

    monkeypatch.setattr(warm_pool.WarmPool, "ready", not_ready)
    corpus, db = make_corpus(tmp_path), tmp_path / "b.duckdb"
    assert main(["audit", str(corpus), "--db", str(db), "--workers", "2"]) == 0
    assert counts(db) == expected_counts()
    log = (tmp_path / "b.duckdb.log").read_text()
    assert "warm worker pool did not start (it was told not to); the workers start cold" in log
    assert "forked from the warm pool" not in log
    assert not _pool_processes()


def test_a_pool_that_dies_before_it_is_ready_says_why(monkeypatch):
    pool = warm_pool.WarmPool()
    pool._proc.kill()
    assert not pool.ready(timeout=30)
    assert pool.failure
    assert not _pool_processes()


def test_a_command_that_ends_before_its_run_does_not_wait_for_the_pool(tmp_path, capsys):
    t0 = time.monotonic()
    assert main(["audit", str(tmp_path / "none"), "--workers", "2"]) == 1  # no --db: a usage error
    early = warm_pool.take()
    assert early is not None
    early.close()  # as atexit does when the program ends
    assert "give --db FILE" in capsys.readouterr().err
    pool = warm_pool.WarmPool()
    pool.close()  # never asked for: killed, not waited for
    assert time.monotonic() - t0 < 5
    assert not _pool_processes()
