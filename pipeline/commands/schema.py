"""``mahjong-audit schema``: print the JSON Schema of the mahjong-log/1 format."""

from __future__ import annotations

import argparse
import json


def register(subparsers) -> None:
    p = subparsers.add_parser("schema", help="print the JSON Schema of mahjong-log/1",
                              description=__doc__)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.schemas.log import json_schema

    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
    return 0
