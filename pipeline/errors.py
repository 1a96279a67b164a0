"""The errors that stop a command, each with the exit status it means (``mahjong_audit.pipeline.exits``).

One small taxonomy: every error of a run derives from :class:`AuditError`, whose
``status`` is the exit status the command line returns for it (``mahjong_audit.pipeline.cli``
maps them in one place, printing the message as one line). Errors in the data given
(a tile, a hand, options, a record) derive from
:class:`mahjong_audit.engine.errors.InvalidData` instead: in an audit they become findings
or rejections, never the end of a run.

- :class:`InputError` — an input names nothing readable (a missing file, an empty glob,
  an unknown importer);
- :class:`NoDataset` — a ``--parquet`` folder that holds no dataset;
- :class:`DatabaseError` — the DuckDB file cannot be opened, is not a database, or lacks
  this version's tables; :class:`DatabaseLocked` — another process holds it (exit 75:
  retry later);
- :class:`RunFailed` — the run stopped: :class:`RunnerUnreachable`, :class:`WorkerDied`,
  :class:`PipelineFailed`, :class:`ManifestMissing`;
- :class:`StoreFailed` — ``serve`` could not commit what it was given.
"""

from __future__ import annotations

from typing import ClassVar

from mahjong_audit.pipeline import exits


class AuditError(Exception):
    """An error that stops a command: its message is one line for the operator."""

    #: the exit status of a command that stops on this error
    status: ClassVar[int] = exits.FAILED


class InputError(AuditError, OSError):
    """An input that names nothing readable (missing file, empty glob, unknown importer)."""


class NoDataset(AuditError, FileNotFoundError):
    """The folder holds no dataset written by ``audit --parquet``."""


class DatabaseError(AuditError, RuntimeError):
    """The DuckDB file cannot be opened or read, or does not have this version's tables."""


class DatabaseLocked(DatabaseError):
    """Another process holds the DuckDB file: try again later."""

    status = exits.LOCKED


class RunFailed(AuditError, RuntimeError):
    """The run stopped before it finished; nothing of it was written."""


class RunnerUnreachable(RunFailed):
    """A service the run needs (job service, worker pool) does not answer."""


class WorkerDied(RunFailed):
    """A worker process ended before the pipeline finished."""


class PipelineFailed(RunFailed):
    """A job on a remote runner ended in a failed state."""


class ManifestMissing(RunFailed):
    """The pipeline finished without writing its manifest (it did not complete)."""


class StoreFailed(AuditError, RuntimeError):
    """The commit of a request's rows failed (nothing of them was written)."""
