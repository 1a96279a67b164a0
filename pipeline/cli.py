"""The ``mahjong-audit`` command. Each subcommand lives in ``mahjong_audit.pipeline.commands.<name>``
and exposes ``register(subparsers)``, which adds its parser and sets ``func``."""

from __future__ import annotations

import argparse
import gc
import importlib
import re
import sys

from mahjong_audit import __version__
from mahjong_audit.pipeline import errors, exits

COMMANDS = ("audit", "stats", "validate", "schema", "score", "simulate", "import_", "report", "calibrate",
            "rules", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-audit",
        description="Replay, verify and score mahjong game logs; results into DuckDB.",
        epilog=exits.epilog(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--debug", action="store_true",
                        help="add the traceback to every error reported (also accepted after the command)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"mahjong_audit.pipeline.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"mahjong_audit.pipeline.commands.{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    for p in (parser, *sub.choices.values()):
        plain_help(p)
    return parser


def byte_size(text: str) -> int:
    """An option value in bytes: ``'65536'``, ``'512K'``, ``'64M'``, ``'1G'``."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().removesuffix("B")
    mult = units.get(t[-1:], 1)
    try:
        n = int(float(t[:-1] if t[-1:] in units else t) * mult)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 65536, 512K, 64M)") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (at least 1 byte)")
    return n


_RST = re.compile(r"``([^`]*)``|:(?:func|class|mod|meth|data|attr):`~?([^`]*)`")


def plain(text: str | None) -> str | None:
    """Help text without reStructuredText markup: ````x```` and ``:func:`x``` become x."""
    return None if text is None else _RST.sub(lambda m: m.group(1) or m.group(2), text)


def plain_help(parser: argparse.ArgumentParser) -> None:
    """Strip markup from a parser's description, epilog and option help (docstrings are
    reused as help texts; a terminal shows them as plain text)."""
    parser.description, parser.epilog = plain(parser.description), plain(parser.epilog)
    for action in parser._actions:
        if isinstance(action.help, str):
            action.help = plain(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = plain(choice.help)


def main(argv: list[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in words[: words.index("--")] if "--" in words else "--debug" in words
    if debug:
        words.remove("--debug")
    from mahjong_audit.pipeline import warm_pool

    warm_pool.start_early(words)  # worker processes import beside our own start-up
    args = build_parser().parse_args(words)
    with exits.debugging(debug):
        return _run(args, debug)


def _run(args: argparse.Namespace, debug: bool) -> int:
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"mahjong-audit {args.command}: interrupted", file=sys.stderr)
        return exits.INTERRUPTED
    except BrokenPipeError:  # output piped into a command that stopped reading
        sys.stderr.close()
        return exits.FAILED
    except errors.AuditError as e:  # the taxonomy's: one line, the status the error means
        exits.error(args.command, str(e))
        return e.status
    except OSError as e:  # an expected failure: a file that cannot be read or written
        where = f"{e.filename}: " if e.filename else ""
        exits.error(args.command, f"{where}{e.strerror or e}")
        return exits.FAILED
    except Exception as e:  # noqa: BLE001  one clear line instead of a traceback; --debug shows it
        text = str(e).strip().splitlines()
        exits.error(args.command, f"error: {type(e).__name__}: {text[0] if text else ''}"
                    + ("" if debug else "  (--debug shows the traceback)"))
        return exits.FAILED


def command() -> int:
    """The ``mahjong-audit`` program: :func:`main`, then an exit that does not walk the
    heap. Python collects garbage once more as it ends; after a local run with worker
    processes that final pass over Beam's and the engine's objects takes ~0.2 s and frees
    nothing the operating system would not."""
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(command())
