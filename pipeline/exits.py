"""What every ``mahjong-audit`` command returns and how it reports an error.

One table of exit statuses (the README and ``--help`` show it), so a script can tell
"fix the command" (2) from "retry later" (75) from "it failed" (1). An error is one line
on stderr, ``mahjong-audit COMMAND: message``; under ``--debug`` a traceback comes before
it: the exception's, or where the command reported it when no exception was raised.
Which error means which status is said by the errors themselves
(``mahjong_audit.pipeline.errors``: each has its ``status``), and the command line maps
them in one place (``mahjong_audit.pipeline.cli``).
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Iterator
from contextvars import ContextVar

OK = 0
FAILED = 1
USAGE = 2  # argparse's own status for a command line it cannot parse
LOCKED = 75  # EX_TEMPFAIL of sysexits.h: try again later
INTERRUPTED = 130  # 128 + SIGINT, as a shell gives

#: (status, meaning), in the order ``--help`` and the README list them
STATUSES: tuple[tuple[int, str], ...] = (
    (OK, "done (findings are not an error)"),
    (FAILED, "error: a missing input, a file that is not a database, I/O, a failed job, a worker that died"),
    (USAGE, "usage: the command line is wrong (unknown option, missing argument)"),
    (LOCKED, "the database is locked by another process: retry later (audit --wait SECONDS waits)"),
    (INTERRUPTED, "interrupted (Ctrl-C)"),
)

_DEBUG: ContextVar[bool] = ContextVar("mahjong_audit_debug", default=False)


def epilog() -> str:
    """The exit statuses as ``--help`` prints them."""
    return "exit status:\n" + "\n".join(f"  {code:<4}{text}" for code, text in STATUSES)


@contextlib.contextmanager
def debugging(on: bool) -> Iterator[None]:
    """While inside, :func:`error` adds a traceback (the command line's ``--debug``)."""
    token = _DEBUG.set(on)
    try:
        yield
    finally:
        _DEBUG.reset(token)


def debug() -> bool:
    return _DEBUG.get()


def error(command: str, message: str) -> None:
    """Report an error of ``command`` in one line; with ``--debug``, its traceback first
    (so the line stays the last one on the terminal)."""
    if _DEBUG.get():
        if sys.exc_info()[1] is not None:
            traceback.print_exc()
        else:  # the command's own check: show where it was made
            print("Traceback (where the error was reported):", file=sys.stderr)
            traceback.print_stack(sys._getframe(1), file=sys.stderr)
    print(f"mahjong-audit {command}: {message}", file=sys.stderr)
