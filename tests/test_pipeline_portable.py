"""`audit` through Beam's portable Job API, the path Flink, Spark and Dataflow take.

Beam's Python job service and an external SDK worker pool run as separate processes on
loopback ports. The workers get the package the way a cluster's workers do: as a wheel
built from this tree and passed with ``--extra_package``, which each worker fetches from
the job's artifacts and installs before it starts (tests/portable_boot.py). Their
interpreter cannot import the project otherwise (checked). The tables must equal those of
a local run on the same input. Unreachable services end the run with exit 1, quickly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import duckdb
import pytest

from mahjong_audit.pipeline import inputs
from mahjong_audit.pipeline.runner import probe
from tests.e2e import make_corpus
from tests.logbuild import win_game
from tests.wheelbuild import build_wheel

ROOT = Path(__file__).resolve().parent.parent
BOOT = Path(__file__).resolve().parent / "portable_boot.py"
TABLES = ("games", "hands", "hand_scores", "payouts", "findings", "rejected")
START_TIMEOUT = 60.0
# One pair of services for the whole module, in one xdist worker (`make test` runs
# with --dist loadgroup; under plain -n each worker would start its own pair).
pytestmark = [pytest.mark.xdist_group("portable"), pytest.mark.slow]  # Beam's job service and workers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(cmd: list[str], log: Path, cwd: Path, env: dict | None = None) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env,
                                start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _wait_ready(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"service exited with {proc.returncode}:\n{log.read_text()[-2000:]}")
        if probe(f"localhost:{port}", 1.0):
            return
    pytest.fail(f"service on port {port} not ready in {START_TIMEOUT} s:\n{log.read_text()[-2000:]}")


def worker_python(root: Path) -> Path:
    """An interpreter with Beam and the other dependencies but not this project: a venv
    whose path includes this venv's site-packages, named in a .pth file, so that the
    project's editable-install hook there is not run."""
    env_dir = root / "worker-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    """(job endpoint, worker pool endpoint, wheel, work folder); both services stopped at the end."""
    root = tmp_path_factory.mktemp("portable")
    wheel = build_wheel(root / "dist")
    python = worker_python(root)
    cant = subprocess.run([str(python), "-c", "import mahjong_audit.pipeline.read"], cwd=root, capture_output=True)
    assert cant.returncode != 0, "the worker interpreter must not see the project before the wheel is installed"
    boot = root / "boot.sh"
    boot.write_text(f"#!/bin/sh\nexec {python} {BOOT} \"$@\"\n")
    boot.chmod(0o755)
    job_port, pool_port = free_port(), free_port()
    env = {**os.environ, "TMPDIR": str(root)}  # the workers' install folders land here
    job = _start([sys.executable, "-m", "apache_beam.runners.portability.local_job_service_main",
                  "--port", str(job_port)], root / "job.log", root, env)
    pool = None
    try:
        pool = _start([sys.executable, "-m", "apache_beam.runners.worker.worker_pool_main",
                       "--service_port", str(pool_port), "--container_executable", str(boot)],
                      root / "pool.log", root, env)
        _wait_ready(job_port, job, root / "job.log")
        _wait_ready(pool_port, pool, root / "pool.log")
        yield f"localhost:{job_port}", f"localhost:{pool_port}", wheel, root
    finally:
        for proc in (pool, job):
            if proc is not None:
                _stop(proc)


def audit_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mahjong_audit", "audit", *args, "--no-progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def table_rows(db: Path, table: str) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        cols = [c for (c,) in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position", [table]).fetchall() if c != "run_id"]
        sel = ", ".join(f'"{c}"' for c in cols)
        return con.execute(f"SELECT {sel} FROM {table} ORDER BY ALL").fetchall()


def padded_file(path: Path) -> None:
    """A file over MIN_SPLIT_BYTES with few records: games at both ends, blank lines of
    spaces between, so that a run with --workers 2 reads it as two byte ranges."""
    games = [json.dumps(win_game(f"p{i}")) for i in range(4)]
    filler = [" " * 1000] * (inputs.MIN_SPLIT_BYTES // 1000 + 10)
    path.write_text("\n".join(games[:2] + filler + games[2:]) + "\n")


def test_portable_job_api_run_equals_local_run(services, tmp_path):
    job, pool, wheel, root = services
    corpus = make_corpus(tmp_path)
    padded_file(corpus / "padded.jsonl")
    local = audit_cli(str(corpus), "--db", str(tmp_path / "local.duckdb"), "--in-memory")
    assert local.returncode == 0, local.stderr
    remote = audit_cli(str(corpus), "--db", str(tmp_path / "portable.duckdb"),
                       "--runner", "PortableRunner", "--job_endpoint", job,
                       "--environment_type", "EXTERNAL", "--environment_config", pool,
                       "--staging", str(tmp_path / "shared-staging"), "--extra_package", str(wheel),
                       "--workers", "2")
    assert remote.returncode == 0, remote.stderr + (tmp_path / "portable.duckdb.log").read_text()[-3000:]
    assert "on PortableRunner" in remote.stdout
    assert "4 files in 5 shards" in (tmp_path / "portable.duckdb.log").read_text()  # padded.jsonl in 2 byte ranges
    for table in TABLES:
        assert table_rows(tmp_path / "portable.duckdb", table) == table_rows(tmp_path / "local.duckdb", table), table
    assert table_rows(tmp_path / "local.duckdb", "games"), "the corpus has games"
    installed = list(root.glob("beam-worker-*/site/mahjong_audit/pipeline/read.py"))
    assert installed, "a worker installed the shipped wheel"


def test_a_house_rules_profile_reaches_the_remote_workers(services, tmp_path):
    # the profile rides in the pipeline's DoFns as plain data: remote workers audit under it
    job, pool, wheel, _ = services
    corpus = make_corpus(tmp_path)
    profile = tmp_path / "house.toml"
    profile.write_text("[mcr]\nbase = 16\n", encoding="utf-8")
    local = audit_cli(str(corpus), "--db", str(tmp_path / "local.duckdb"), "--in-memory", "--rules", str(profile))
    assert local.returncode == 0, local.stderr
    remote = audit_cli(str(corpus), "--db", str(tmp_path / "portable.duckdb"), "--rules", str(profile),
                       "--runner", "PortableRunner", "--job_endpoint", job,
                       "--environment_type", "EXTERNAL", "--environment_config", pool,
                       "--staging", str(tmp_path / "shared-staging"), "--extra_package", str(wheel))
    assert remote.returncode == 0, remote.stderr + (tmp_path / "portable.duckdb.log").read_text()[-3000:]
    for table in TABLES:
        assert table_rows(tmp_path / "portable.duckdb", table) == table_rows(tmp_path / "local.duckdb", table), table
    with duckdb.connect(str(tmp_path / "portable.duckdb"), read_only=True) as con:
        assert con.execute("SELECT DISTINCT readings, profile FROM games").fetchall() == [('{"base":16}', "house.toml")]


def test_unreachable_job_service_fails_fast_with_a_clear_error(tmp_path):
    dead = free_port()
    t0 = time.monotonic()
    res = audit_cli(str(ROOT / "sample_logs" / "mcr-clean.jsonl"), "--db", str(tmp_path / "x.duckdb"),
                    "--runner", "PortableRunner", "--job_endpoint", f"localhost:{dead}",
                    "--environment_type", "EXTERNAL", "--environment_config", f"localhost:{free_port()}",
                    "--staging", str(tmp_path / "staging"), "--connect-timeout", "2", timeout=60)
    assert res.returncode == 1
    assert f"job service (--job_endpoint) at localhost:{dead} did not answer within 2 s" in res.stderr
    assert time.monotonic() - t0 < 30


def test_unreachable_worker_pool_fails_fast_with_a_clear_error(services, tmp_path):
    job, _pool, _wheel, _root = services
    dead = free_port()
    t0 = time.monotonic()
    res = audit_cli(str(ROOT / "sample_logs" / "mcr-clean.jsonl"), "--db", str(tmp_path / "x.duckdb"),
                    "--runner", "PortableRunner", "--job_endpoint", job,
                    "--environment_type", "EXTERNAL", "--environment_config", f"localhost:{dead}",
                    "--staging", str(tmp_path / "staging"), "--connect-timeout", "2", timeout=60)
    assert res.returncode == 1
    assert f"SDK worker pool (--environment_config) at localhost:{dead} did not answer" in res.stderr
    assert time.monotonic() - t0 < 30


def test_worker_pool_dying_after_the_check_fails_the_job_not_hangs(services, tmp_path):
    """--connect-timeout 0 skips the check: the job itself then fails, with exit 1."""
    job, _pool, _wheel, _root = services
    t0 = time.monotonic()
    res = audit_cli(str(ROOT / "sample_logs" / "mcr-clean.jsonl"), "--db", str(tmp_path / "x.duckdb"),
                    "--runner", "PortableRunner", "--job_endpoint", job,
                    "--environment_type", "EXTERNAL", "--environment_config", f"localhost:{free_port()}",
                    "--staging", str(tmp_path / "staging"), "--connect-timeout", "0", timeout=120)
    assert res.returncode == 1
    assert "the job failed on PortableRunner" in res.stderr
    assert time.monotonic() - t0 < 90


def test_staging_may_be_a_file_url_or_a_plain_path():
    from mahjong_audit.pipeline.staging import plain

    assert plain("file:///mnt/shared/audit%20staging") == "/mnt/shared/audit staging"
    assert plain("/mnt/shared/x") == "/mnt/shared/x"
    assert plain("gs://bucket/x") == "gs://bucket/x"


def test_a_file_url_staging_works_for_a_local_run(tmp_path):
    corpus = make_corpus(tmp_path)
    res = audit_cli(str(corpus), "--db", str(tmp_path / "db.duckdb"), "--in-memory",
                    "--staging", (tmp_path / "st").as_uri())
    assert res.returncode == 0, res.stderr
    assert "audited 5 games" in res.stdout and not (tmp_path / "st").exists()  # removed when done


def test_a_remote_runner_without_a_shared_staging_is_refused(tmp_path, capsys):
    from mahjong_audit.pipeline.cli import main

    assert main(["audit", str(ROOT / "sample_logs" / "mcr-clean.jsonl"), "--db", str(tmp_path / "x.duckdb"),
                 "--runner", "PortableRunner", "--job_endpoint", "localhost:1"]) == 1
    assert "needs --staging" in capsys.readouterr().err


def test_a_plain_temp_location_is_a_staging_the_user_chose(tmp_path, capsys):
    """Only the default beside --db is refused for a remote runner; a plain --temp_location
    (a shared mount) is taken, and the run then goes on to the connection check."""
    from mahjong_audit.pipeline.cli import main

    assert main(["audit", str(ROOT / "sample_logs" / "mcr-clean.jsonl"), "--db", str(tmp_path / "x.duckdb"),
                 "--runner", "PortableRunner", "--job_endpoint", f"localhost:{free_port()}",
                 "--temp_location", str(tmp_path / "shared"), "--connect-timeout", "0.5"]) == 1
    err = capsys.readouterr().err
    assert "needs --staging" not in err and "did not answer within 0.5 s" in err


def test_endpoints_named_in_the_options_are_the_ones_checked():
    from mahjong_audit.pipeline import runner

    args = ("--runner", "PortableRunner", "--job_endpoint", "h:1", "--environment_type", "external",
            "--environment_config=h:2")
    assert runner.endpoints(args) == (("job service (--job_endpoint)", "h:1"),
                                      ("SDK worker pool (--environment_config)", "h:2"))
    # an embedded job server and a DOCKER environment have nothing to check
    assert runner.endpoints(("--job_endpoint", "embed", "--environment_type", "DOCKER",
                             "--environment_config", "apache/beam_python3.11_sdk")) == ()
    runner.preflight(args, 0)  # 0: no check at all, even for unreachable hosts
