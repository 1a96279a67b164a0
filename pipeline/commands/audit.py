"""``mahjong-audit audit INPUT... --db FILE``: audit game logs at scale into DuckDB.

The driver splits the input files into shards (``mahjong_audit.pipeline.inputs.plan_shards``: a big
uncompressed JSON Lines file is read as byte ranges by several workers); the Beam pipeline
(``mahjong_audit.pipeline.transforms.AuditPipeline``) audits the shards and writes Parquet files into a
staging folder unique to the run; the driver then loads them into the DuckDB file in one
transaction (``mahjong_audit.pipeline.sink``), keeping the first copy of each game_id, and/or writes
them as a partition of a Parquet dataset (``--parquet``, ``mahjong_audit.pipeline.dataset``), and
removes the folder. ``--skip-audited`` leaves out files audited unchanged
(``mahjong_audit.pipeline.incremental``). Options this command does not
know are Beam pipeline options and are passed through unchanged.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import TextIO

from mahjong_audit.engine.house_rules import load_profile
from mahjong_audit.pipeline import errors, exits
from mahjong_audit.pipeline.cli import byte_size
from mahjong_audit.pipeline.words import count
from mahjong_audit.pipeline.workers import watch_workers

EPILOG = """\
Any other option is a Beam pipeline option, passed through unchanged, e.g.
  --runner FlinkRunner --flink_master HOST:8081 --environment_type LOOPBACK
  --runner DataflowRunner --project P --region R --temp_location gs://B/tmp
        --extra_package dist/mahjong_audit-*.whl   (pip wheel --no-deps -w dist .)
  --runner PortableRunner --job_endpoint HOST:8099 --environment_type EXTERNAL
        --environment_config HOST:50000 --extra_package dist/mahjong_audit-*.whl
On a cluster the workers need this package installed (--extra_package with the wheel, or a
custom container) and --staging (or --temp_location) must be a path every worker and
this machine can reach: gs://bucket/audit-staging, s3://…, or a shared mount. A run
that fails (an unreachable job service or worker pool, a failed job, a worker process
that died) leaves the database as it was.

"""+ exits.epilog()

OUR_OPTIONS = frozenset({
    "-h", "--help", "--db", "--from", "--workers", "--in-memory", "--staging", "--log",
    "--progress", "--no-progress", "--connect-timeout", "--parquet", "--skip-audited",
    "--max-record-bytes", "--wait", "--rules",
})


class _PassThroughParser(argparse.ArgumentParser):
    """Collects words that are not ours as Beam options into ``namespace.beam_args``."""

    def parse_known_args(self, args=None, namespace=None):
        from mahjong_audit.pipeline.runner import split_args

        words = list(sys.argv[1:] if args is None else args)
        split = split_args(words, OUR_OPTIONS)
        ns, extras = super().parse_known_args(list(split.ours), namespace)
        ns.beam_args = tuple(split.beam) + tuple(extras)
        ns.unknown_beam_options = split.unknown
        return ns, []


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "audit", help="audit game logs (files, globs, directories; .json/.jsonl[.gz]) into DuckDB",
        description=__doc__.split("\n\n")[0], epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.__class__ = _PassThroughParser  # same layout; only parse_known_args differs
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, glob or directory (local, gs://, s3://)")
    p.add_argument("--db", metavar="FILE", help="DuckDB database file (created if missing); "
                   "optional when --parquet is given")
    p.add_argument("--parquet", metavar="DIR",
                   help="also (or instead) write the result tables as a Parquet dataset: DIR/<table>/run=<id>/ "
                        "(any Beam path: a folder, gs://…, s3://…)")
    p.add_argument("--skip-audited", action="store_true",
                   help="leave out input files audited before with the same size and modification time "
                        "(the files table)")
    p.add_argument("--from", dest="importer", metavar="NAME",
                   help="importer for a platform format (default: detected per file, else mahjong-log/1)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="local worker processes (default: number of cores; 1 = in this process); "
                        "with another --runner, how many shards a big file is read in")
    p.add_argument("--in-memory", action="store_true", help="run in this process (small inputs, tests)")
    p.add_argument("--staging", metavar="DIR",
                   help="base folder for the run's Parquet staging files: any path the workers reach "
                        "(a shared mount, file://…, gs://…, s3://…); default: --temp_location if given, "
                        "else beside --db, else DIR/_staging of --parquet")
    p.add_argument("--connect-timeout", type=float, default=None, metavar="S",
                   help="seconds a job service (--job_endpoint) or external worker pool has to accept "
                        "a connection before the run is given up (default 30; 0 = do not check)")
    p.add_argument("--log", metavar="FILE", help="log file for runner and worker output (default: <db>.log; "
                        "with only --parquet, DIR/_logs/<run>.log for a local DIR)")
    p.add_argument("--max-record-bytes", type=byte_size, default=None, metavar="N",
                   help="reject a record (a line, or a multi-line record) longer than N bytes, "
                        "with its size, without reading it into memory; suffixes K, M, G "
                        "(default: 64M)")
    p.add_argument("--rules", metavar="FILE",
                   help="house-rules profile (TOML, one table per ruleset; mahjong-audit rules lists the "
                        "options): a log's own options win over it, it wins over the defaults")
    p.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="if another process holds the database, wait up to SECONDS for it "
                        f"(default: 0, fail at once with exit status {exits.LOCKED})")
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_const", const=True,
                      help="always draw the progress line on stderr")
    prog.add_argument("--no-progress", dest="progress", action="store_const", const=False,
                      help="never draw it (default: only when stderr is a terminal)")
    p.set_defaults(func=run, beam_args=(), unknown_beam_options=())


# --------------------------------------------------------------------------- helpers


def _err(msg: str) -> None:
    exits.error("audit", msg)


def new_run_id(now: datetime) -> str:
    """The run's id: its start to the microsecond, then a random part. Ids sort in the
    order runs started (the Parquet dataset takes a game's latest run as the greatest id),
    also for two runs in the same second."""
    return now.strftime("%Y%m%dT%H%M%S.%fZ") + "-" + uuid.uuid4().hex[:8]


@contextlib.contextmanager
def quiet_stderr(log_path: str) -> Iterator[TextIO]:
    """Send logging and everything written to fd 2 (worker processes inherit it) to the
    log file; yield a stream on the real stderr for the progress line."""
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    sys.stderr.flush()
    saved_fd = os.dup(2)
    log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    handler = logging.StreamHandler(os.fdopen(os.dup(log_fd), "a", buffering=1, encoding="utf-8"))
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    real = os.fdopen(os.dup(saved_fd), "w", buffering=1, encoding="utf-8", errors="replace")
    try:
        os.dup2(log_fd, 2)
        root.handlers = [handler]
        root.setLevel(logging.INFO)
        yield real
    finally:
        sys.stderr.flush()
        root.handlers, root.level = saved_handlers, saved_level
        handler.close()
        os.dup2(saved_fd, 2)
        os.close(saved_fd)
        os.close(log_fd)
        real.close()


def default_staging(db: str | None, beam_args: Sequence[str], explicit: str | None,
                    parquet: str | None = None) -> str:
    from mahjong_audit.pipeline.runner import option_value

    if explicit:
        return explicit
    temp = option_value(beam_args, "temp_location")
    if temp:
        return temp.rstrip("/") + "/mahjong-audit-staging"
    if db is None:
        if parquet is None:
            raise ValueError("the staging folder goes beside --db or in --parquet DIR: give one")
        return _join(parquet, "_staging")
    db_abs = os.path.abspath(db)
    return os.path.join(os.path.dirname(db_abs), f".{os.path.basename(db_abs)}.staging")


def default_log(db: str | None, parquet: str | None, run_id: str) -> str:
    """<db>.log; without --db, DIR/_logs/<run>.log for a local dataset, else ./<run>.log."""
    if db is not None:
        return f"{db}.log"
    if parquet is not None and "://" not in parquet:
        os.makedirs(os.path.join(parquet, "_logs"), exist_ok=True)
        return os.path.join(parquet, "_logs", f"{run_id}.log")
    return f"mahjong-audit-{run_id}.log"


def _join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name if "://" in base else os.path.join(base, name)


def _log_metrics(result) -> None:
    from apache_beam.metrics.metric import MetricsFilter

    from mahjong_audit.pipeline.transforms import NAMESPACE

    try:
        counters = result.metrics().query(MetricsFilter().with_namespace(NAMESPACE))["counters"]
    except (NotImplementedError, AttributeError, KeyError) as e:  # runner without metrics
        logging.info("metrics not available from this runner: %s", e)
        return
    for c in sorted(counters, key=lambda c: c.key.metric.name):
        logging.info("metric %s = %s", c.key.metric.name, c.committed)


# --------------------------------------------------------------------------- run


def run(args: argparse.Namespace, audit_fn=None) -> int:
    """Run the audit. ``audit_fn`` replaces mahjong_audit.engine.audit.audit_game (tests only)."""
    from mahjong_audit.pipeline import incremental, inputs, runner, sink
    from mahjong_audit.pipeline import staging as staging_files
    from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES

    t0 = time.monotonic()
    started = datetime.now(UTC).replace(tzinfo=None)
    run_id = new_run_id(datetime.now(UTC))
    for opt in args.unknown_beam_options:
        _err(f"warning: {opt} is neither an audit option nor a known Beam option; passed to Beam")
    if args.db is None and args.parquet is None:
        _err("give --db FILE, --parquet DIR or both")
        return 1
    if args.db is not None:  # a log given as --db: refused before anything is read (errors.DatabaseError)
        sink.check_database_file(args.db)
    parquet = staging_files.plain(args.parquet) if args.parquet else None

    try:
        profile = load_profile(args.rules)  # a profile that cannot be used: one line, exit 1, before any work
        if args.importer is not None:
            inputs.importer_for("", args.importer)
        walk = inputs.walk_inputs(args.inputs)
        files = walk.files
        choice = runner.choose(args.beam_args, args.workers, args.in_memory)
    except (OSError, ValueError) as e:
        _err(str(e))
        return 1
    staging_base = staging_files.plain(default_staging(args.db, args.beam_args, args.staging, parquet))
    beside_db = not (args.staging or runner.option_value(args.beam_args, "temp_location") or args.db is None)
    if not choice.local and beside_db and "://" not in staging_base:
        _err(f"runner {choice.name} needs --staging (or --temp_location) on a filesystem every worker "
             "reaches: a shared mount (/mnt/shared/audit-staging) or gs://bucket/audit-staging")
        return 1
    runner.preflight(choice.args, runner.CONNECT_TIMEOUT if args.connect_timeout is None
                     else args.connect_timeout)  # errors.RunnerUnreachable: reported by the command line
    staging = _join(staging_base, run_id)
    log_path = args.log or default_log(args.db, parquet, run_id)
    limit = args.max_record_bytes or MAX_RECORD_BYTES

    con = pool = None
    if args.db is not None:  # errors.DatabaseLocked (exit 75), errors.DatabaseError: reported by the command line
        con = sink.connect(args.db, wait=args.wait)
    try:
        pool = _warm_pool(choice)
        if con is not None:
            sink.ensure_schema(con)
            if beside_db and choice.local:  # the db's own staging base: ours alone while we hold the db
                sink.remove_leftover_staging(staging_base)
        stats = incremental.file_stats(files)
        selection = incremental.Selection(files, ())
        if args.skip_audited:
            selection = incremental.select(files, stats, _known_files(con, parquet, files, profile))
        todo = selection.audit
        sizes = {f: stats[f].size for f in todo}
        try:
            shards = inputs.plan_shards(todo, 1 if choice.in_process else args.workers, sizes,
                                      inputs.importers_for_splitting(todo, sizes, args.importer))
        except (OSError, ValueError) as e:
            _err(str(e))
            return 1
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        with quiet_stderr(log_path) as real_stderr:
            logging.info("run %s: %d files in %d shards (%d skipped as audited unchanged), runner %s, staging %s",
                         run_id, len(todo), len(shards), len(selection.skipped), _runner_label(choice), staging)
            for path, note in inputs.format_notes(todo, args.importer):
                logging.info("%s: %s", path, note)
            for path in walk.skipped:
                logging.info("skipped (no format recognised): %s", path)
            try:
                _run_pipeline(shards, choice, run_id, staging, args.importer, audit_fn,
                              real_stderr if show else None, limit, pool, profile)
                if pool is not None:
                    pool.release()
                summary = _load(con, parquet, staging, todo, stats,
                                lambda s: _run_row(run_id, started, args.inputs, choice.name, s), run_id)
            finally:
                sink.remove_staging(staging)
    except errors.WorkerDied as e:
        _err(f"{e}; nothing was written to {args.db or parquet} (details in {log_path})")
        return e.status
    except errors.PipelineFailed as e:
        _err(f"{e} (details in {log_path})")
        return e.status
    finally:
        if pool is not None:
            pool.close()
        if con is not None:
            con.close()
    _print_summary(summary, time.monotonic() - t0, _runner_label(choice), args.db, log_path,
                   len(selection.skipped), parquet, inputs.describe_skipped(walk.skipped))
    return 0


def _known_files(con, parquet: str | None, files, profile=None):
    """path -> (size, mtime, content_hash) of the inputs as last audited (database first),
    leaving out those audited under another house-rules profile than ``profile``."""
    from mahjong_audit.pipeline import dataset, incremental

    sha = profile.sha256 if profile is not None else ""

    def known(c):
        other = incremental.audited_under_other_rules(c, files, sha)
        return {p: k for p, k in incremental.known_files(c, files).items() if p not in other}

    if con is None and parquet is not None:
        with dataset.connect(parquet, required=False) as dcon:
            return known(dcon)
    return known(con)


def _load(con, parquet, staging, sources, stats, make_run, run_id):
    """Load the staged run into the database and/or write it to the Parquet dataset."""
    import tempfile

    from mahjong_audit.pipeline import dataset, sink
    from mahjong_audit.pipeline import staging as staging_files

    summary = None
    if con is not None:
        summary = sink.load_staging(con, staging, sources, make_run, stats)
    if parquet is not None:
        with tempfile.TemporaryDirectory(prefix="mahjong-audit-load-") as tmp:
            files = sink.localise(staging_files.read_manifest(staging), tmp)
            written = dataset.write(files, sources, make_run, stats, parquet, run_id)
        summary = summary or written
    return summary


def _warm_pool(choice):
    """The warm worker pool for a local run with several worker processes, else None."""
    from mahjong_audit.pipeline import warm_pool

    pool = warm_pool.take()  # started early by the command line, if it asked for this
    if choice.pinned_fnapi and not choice.in_process and warm_pool.enabled():
        return pool or warm_pool.start()
    if pool is not None:
        pool.close()
    return None


def _worker_command(pool) -> str | None:
    """The pool's worker command once it listens; None (Beam's own workers) if it failed."""
    if pool is None:
        return None
    if pool.ready():
        logging.info("worker processes: forked from the warm pool (%s)", pool.socket)
        return pool.command()
    logging.warning("warm worker pool did not start (%s); the workers start cold", pool.failure)
    return None


def _run_pipeline(shards, choice, run_id, staging, importer, audit_fn, progress_out,
                  max_record_bytes: int, pool=None, profile=None) -> None:
    import apache_beam as beam

    from mahjong_audit.pipeline import runner
    from mahjong_audit.pipeline.progress import ProgressBar
    from mahjong_audit.pipeline.runner import make_pipeline
    from mahjong_audit.pipeline.transforms import AuditPipeline

    progress_dir = _join(staging, "progress") if progress_out is not None else None
    p = make_pipeline(choice, _worker_command(pool))
    _ = (
        p
        | "Shards" >> beam.Create(list(shards))
        | "Audit" >> AuditPipeline(run_id=run_id, staging=staging, importer=importer,
                                   audit_fn=audit_fn, progress_dir=progress_dir,
                                   max_record_bytes=max_record_bytes, profile=profile)
    )
    bar = ProgressBar(progress_dir, progress_out) \
        if progress_dir is not None and progress_out is not None else contextlib.nullcontext()
    with bar, watch_workers():
        result = p.run()
        try:
            result.wait_until_finish()
        except RuntimeError as e:
            if choice.local:
                raise
            logging.exception("the job failed")
            raise errors.PipelineFailed(f"the job failed on {choice.name}: {runner.first_line(e)}") from None
    _log_metrics(result)


def _run_row(run_id, started, inputs, runner_name, summary):
    from mahjong_audit import __version__
    from mahjong_audit.schemas.results import RunRow

    return RunRow(
        run_id=run_id, started_at=started, finished_at=datetime.now(UTC).replace(tzinfo=None),
        version=__version__, inputs=list(inputs), runner=runner_name,
        games=summary.games, hands=summary.hands, findings=summary.findings, rejected=summary.rejected,
        records=summary.records, duplicates=summary.duplicates,
    )


def _runner_label(choice) -> str:
    """The runner, and on this machine which engine, validation path and inflate (``.gz``)
    the workers run (a cluster's workers run what their own installation has)."""
    if not choice.local:
        return choice.name
    from mahjong_audit import accel
    from mahjong_audit.pipeline import gunzip
    from mahjong_audit.schemas import log_fast

    engine = "compiled engine" if accel.state()[0] == "compiled" else "pure-Python engine"
    return f"{choice.name}, {engine}, {log_fast.IMPLEMENTATION} validation, {gunzip.IMPLEMENTATION} inflate"


def _print_summary(summary, elapsed: float, runner_name: str, db: str | None, log_path: str,
                   skipped: int = 0, parquet: str | None = None, unread: str | None = None) -> None:
    from mahjong_audit import __version__

    rate = summary.games / elapsed if elapsed > 0 else 0.0
    kinds = ", ".join(f"{k} {n}" for k, n in summary.findings_by_kind) or "none"
    print(f"audited {count(summary.games, 'game')}, {count(summary.hands, 'hand')} in {elapsed:.1f} s "
          f"({rate:.1f} games/s) on {runner_name}")
    print(f"findings: {summary.findings} ({kinds})")
    if summary.duplicates:
        print(f"duplicates: {count(summary.duplicates, 'later copy', 'later copies')} of a game_id left out")
    print(f"rejected: {count(summary.rejected, 'record')}")
    print(f"records: {summary.records:,} read = {count(summary.games, 'game')} + "
          f"{count(summary.duplicates, 'duplicate')} + {summary.rejected} rejected")
    for f in summary.unreconciled:
        print(f"warning: {f.source_file}: {count(f.records, 'record')} read but {count(f.games, 'game')} + "
              f"{count(f.duplicates, 'duplicate')} + {f.rejected} rejected (please report this)")
    if skipped:
        print(f"skipped: {count(skipped, 'file')} audited unchanged before (--skip-audited)")
    if unread:
        print(unread)
    if parquet:
        print(f"parquet dataset: {parquet}")
    print(f"database: {db or 'none'}  (log: {log_path}; mahjong-audit {__version__})")
