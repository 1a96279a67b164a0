"""Runner selection and Beam option pass-through for ``mahjong-audit audit``.

Without ``--runner`` the pipeline runs on the portable ``FnApiRunner``, pinned
explicitly (the plain DirectRunner may try to download Prism, which fails offline):
``--workers 1`` / ``--in-memory`` run in this process, otherwise in
``multi_processing`` mode with ``direct_num_workers`` = ``--workers`` worker processes.
Any other Beam option (``--runner FlinkRunner --flink_master …``, Dataflow, Spark,
``--setup_file``, ``--extra_package`` …) is passed to ``PipelineOptions`` unchanged.

What matters for FnApiRunner's throughput (Beam 2.77): it has no bundle-size option; it
runs each stage as one bundle per worker, its input dealt round-robin (by key after a
shuffle), and keeps every PCollection that crosses a stage boundary in the driver's
memory. Hence the audit shuffles only shard descriptors and does everything else in one
fused stage. ``multi_processing`` is the mode that scales (``multi_threading`` shares
one GIL). A worker process Beam starts itself spends ~1 s importing before its first
bundle; the audit instead forks its workers from a warm pool started beside the driver
(``mahjong_audit.pipeline.warm_pool``, ``make_pipeline``'s ``worker_command``), the same harness in the
same kind of process, ready in milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from mahjong_audit.pipeline.errors import RunnerUnreachable

LOCAL_RUNNERS = frozenset({
    "FnApiRunner", "DirectRunner", "BundleBasedDirectRunner", "SwitchingDirectRunner", "PrismRunner",
})


@dataclass(frozen=True, slots=True)
class BeamArgs:
    """Command-line words split into ours and Beam's."""

    ours: tuple[str, ...]
    beam: tuple[str, ...]
    unknown: tuple[str, ...] = field(default=())  # neither ours nor a registered Beam option


@contextlib.contextmanager
def quiet_import() -> Iterator[None]:
    """Import Beam without its import-time warnings on the terminal (e.g. a missing GCP
    client): root logging goes nowhere meanwhile, so ``logging.basicConfig`` is not
    triggered either."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers = [logging.NullHandler()]
    root.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        root.handlers, root.level = handlers, level


def _beam_parser() -> argparse.ArgumentParser:
    """A parser knowing every registered Beam pipeline option (to tell flags from values)."""
    with quiet_import():
        import apache_beam  # noqa: F401
        from apache_beam.options.pipeline_options import PipelineOptions

    parser = argparse.ArgumentParser(allow_abbrev=False, add_help=False)
    seen: dict[str, type] = {}
    todo = list(PipelineOptions.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        seen.setdefault(f"{cls.__module__}.{cls.__qualname__}", cls)
    for cls in seen.values():
        try:
            cls._add_argparse_args(parser)  # type: ignore[arg-type]  # the documented extension point
        except argparse.ArgumentError:
            continue  # an option class registered twice (re-imported module)
    return parser


def split_args(words: Sequence[str], our_options: frozenset[str]) -> BeamArgs:
    """Separate Beam options (``--name value`` or ``--name=value``) from our own words.

    A Beam option that is a flag takes no value; an option unknown to Beam takes the
    next word as its value unless that word starts with ``-``.
    """
    beam_actions = _beam_parser()._option_string_actions
    ours: list[str] = []
    beam: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            ours.extend(words[i:])
            break
        name = w.split("=", 1)[0]
        if not w.startswith("--") or name in our_options:
            ours.append(w)
            i += 1
            continue
        action = beam_actions.get(name)
        takes_value = action.nargs != 0 if action is not None else True
        group = [w]
        if "=" not in w and takes_value and i + 1 < len(words) and not words[i + 1].startswith("-"):
            group.append(words[i + 1])
        beam.extend(group)
        if action is None:
            unknown.append(name)
        i += len(group)
    return BeamArgs(tuple(ours), tuple(beam), tuple(unknown))


def runner_flag(beam_args: Sequence[str]) -> str | None:
    for i, w in enumerate(beam_args):
        if w == "--runner" and i + 1 < len(beam_args):
            return beam_args[i + 1]
        if w.startswith("--runner="):
            return w.split("=", 1)[1]
    return None


def option_value(beam_args: Sequence[str], name: str) -> str | None:
    flag = f"--{name}"
    for i, w in enumerate(beam_args):
        if w == flag and i + 1 < len(beam_args):
            return beam_args[i + 1]
        if w.startswith(flag + "="):
            return w.split("=", 1)[1]
    return None


@dataclass(frozen=True, slots=True)
class RunnerChoice:
    name: str  # for the runs table and messages
    local: bool  # workers share this machine's filesystem
    args: tuple[str, ...]  # the full PipelineOptions argv
    pinned_fnapi: bool  # True: construct FnApiRunner explicitly
    in_process: bool = False  # True: everything runs in this process (one worker)


def choose(beam_args: Sequence[str], workers: int, in_memory: bool) -> RunnerChoice:
    runner = runner_flag(beam_args)
    if runner is not None:
        short = runner.rsplit(".", 1)[-1]
        return RunnerChoice(short, short in LOCAL_RUNNERS, tuple(beam_args), False)
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    mode = "in_memory" if in_memory or workers == 1 else "multi_processing"
    n = 1 if mode == "in_memory" else workers
    args = (*beam_args, f"--direct_running_mode={mode}", f"--direct_num_workers={n}")
    return RunnerChoice(f"FnApiRunner({mode}, {n} worker{'s' if n > 1 else ''})", True, args, True,
                        mode == "in_memory")


class _SameWorkersAnyMode(logging.Filter):
    """Drops FnApiRunner's advice to use ``multi_processing`` when several workers run
    in a process environment of our own (the warm pool), which is what that mode does."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "direct_running_mode should be" not in record.getMessage()


_SAME_WORKERS_ANY_MODE = _SameWorkersAnyMode()


def make_pipeline(choice: RunnerChoice, worker_command: str | None = None):
    """The pipeline on the chosen runner. ``worker_command``: start each local worker
    process with this shell command instead of Beam's own (``mahjong_audit.pipeline.warm_pool``)."""
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions

    args = list(choice.args)
    if choice.pinned_fnapi:
        from apache_beam.runners.portability.fn_api_runner import FnApiRunner, fn_runner

        environment = None
        if worker_command is not None and not choice.in_process:
            from apache_beam.transforms.environments import SubprocessSDKEnvironment

            environment = SubprocessSDKEnvironment.from_command_string(worker_command)
            # multi_processing would replace the environment with Beam's own command
            args = [a for a in args if not a.startswith("--direct_running_mode=")]
            fn_runner._LOGGER.addFilter(_SAME_WORKERS_ANY_MODE)  # once: the same filter is not added twice
        return beam.Pipeline(runner=FnApiRunner(default_environment=environment),
                             options=PipelineOptions(args))
    return beam.Pipeline(options=PipelineOptions(args))


# --------------------------------------------------------------------------- preflight

CONNECT_TIMEOUT = 30.0  # seconds an endpoint has to accept a connection



def endpoints(beam_args: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(what, host:port) of each gRPC service the driver is told about: the portable job
    service (``--job_endpoint``) and an external worker pool (``--environment_type
    EXTERNAL --environment_config host:port``). An embedded job server is not listed."""
    out = []
    job = option_value(beam_args, "job_endpoint")
    if job and job != "embed":
        out.append(("job service (--job_endpoint)", job))
    if (option_value(beam_args, "environment_type") or "").upper() == "EXTERNAL":
        pool = option_value(beam_args, "environment_config")
        if pool:
            out.append(("SDK worker pool (--environment_config)", pool))
    return tuple(out)


def probe(address: str, timeout: float) -> bool:
    """True if a gRPC channel to ``address`` becomes ready within ``timeout`` seconds."""
    import grpc

    channel = grpc.insecure_channel(address)
    try:
        grpc.channel_ready_future(channel).result(timeout=timeout)
        return True
    except grpc.FutureTimeoutError:
        return False
    finally:
        channel.close()


def preflight(beam_args: Sequence[str], timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`RunnerUnreachable` if a service named in the options does not accept a
    connection within ``timeout`` seconds (instead of a job that waits for it for ever).
    ``timeout`` 0 skips the check (e.g. a worker pool only the cluster can reach)."""
    if timeout <= 0:
        return
    for what, address in endpoints(beam_args):
        if not probe(address, timeout):
            raise RunnerUnreachable(f"{what} at {address} did not answer within {timeout:g} s")



def first_line(error: BaseException) -> str:
    """The first line of an error's message (a runner's message ends in a long traceback)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
