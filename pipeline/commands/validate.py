"""``mahjong-audit validate FILE...``: check that game logs parse and match mahjong-log/1.

Uses the same record reading and parsing as ``audit`` (no Beam pipeline). Every bad
record is printed on stdout as ``file:line: code [game_id]: message``; a summary goes to
stderr. Exit status 1 if any record is bad or an input cannot be read, else 0.
"""

from __future__ import annotations

import argparse
import sys

from mahjong_audit.pipeline.cli import byte_size


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "validate", help="check logs against mahjong-log/1 (JSON, JSONL, .gz) without auditing",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="FILE", help="file, glob or directory")
    p.add_argument("--from", dest="importer", metavar="NAME",
                   help="importer for a platform format (default: detected per file)")
    p.add_argument("--max-record-bytes", type=byte_size, default=None, metavar="N",
                   help="a record longer than N bytes is bad, reported with its size; suffixes "
                        "K, M, G (default: 64M, as audit)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.pipeline import exits, inputs, parse, read
    from mahjong_audit.pipeline.lines import MAX_RECORD_BYTES
    from mahjong_audit.pipeline.words import count

    try:
        if args.importer is not None:
            inputs.importer_for("", args.importer)
        walk = inputs.walk_inputs(args.inputs)
        files = walk.files
    except OSError as e:
        exits.error("validate", str(e))
        return 1
    games = bad = 0
    for path in files:
        for out in parse.parse_file(path, args.importer, args.max_record_bytes or MAX_RECORD_BYTES):
            if isinstance(out, read.Rejection):
                bad += 1
                print(out, flush=False)
            else:
                games += 1
    sys.stdout.flush()
    print(f"{count(len(files), 'file')}: {count(games, 'valid game')}, {count(bad, 'bad record')}",
          file=sys.stderr)
    for line in inputs.walk_report(walk, args.importer):
        print(line, file=sys.stderr)
    return 1 if bad else 0
