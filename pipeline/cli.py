"""The ``mahjong-audit`` command. Each subcommand lives in ``pipeline.commands.<name>``
and exposes ``register(subparsers)``, which adds its parser and sets ``func``."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ("audit", "stats", "validate", "schema", "score", "simulate", "import_", "report")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-audit",
        description="Replay, verify and score mahjong game logs; results into DuckDB.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"pipeline.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"pipeline.commands.{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
