"""``mahjong-audit import [--from NAME] INPUT... -o OUT.jsonl``: convert platform logs to mahjong-log/1.

Each input (file, glob or directory) is read with the importer named by ``--from``
(``botzone-txt``, ``botzone-json``, ``pmn``, ``tziakcha``) or, without it, the one that recognises the
file's first characters. Every converted game that matches the schema is written as
one JSON line to OUT (``-`` = stdout; ``.gz`` compresses). A record that cannot be
converted is reported on stderr as ``file:line: code [game id]: reason`` and the rest
is still converted. Exit status 1 if any record was rejected or an input unreadable.

A Botzone ``data.txt`` is only picked up when named as a file (directories hold many
README.txt files); ``*_metadata.json`` files next to Botzone match records are read
with them and give no games of their own. See docs/importers.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from typing import IO, Any


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "import", help="convert platform logs (Botzone text/JSON, PMN) to mahjong-log/1 JSON lines",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, glob or directory")
    p.add_argument("--from", dest="importer", metavar="NAME",
                   help="platform format: botzone-txt, botzone-json, pmn or tziakcha (default: detected per file)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl",
                   help="where to write the games, one JSON document per line ('-' = stdout)")
    p.set_defaults(func=run)


def _open_out(path: str) -> IO[str]:
    if path == "-":
        return sys.stdout
    if path.endswith(".gz"):
        return gzip.open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def convert_file(path: str, chosen: str | None) -> tuple[list[dict[str, Any]], list[Any]]:
    """Games (dicts that passed the schema) and rejections of one input file."""
    from mahjong_audit.pipeline import inputs, parse, read
    from mahjong_audit.pipeline.importers import IMPORTERS, ImportFailure, Record

    games: list[dict[str, Any]] = []
    rejected: list[Any] = []
    try:
        name = inputs.importer_for(path, chosen)
    except OSError as e:
        return games, [read.Rejection(path, None, "invalid_log/import", f"unreadable: {e}")]
    if name is None:
        known = ", ".join(sorted(IMPORTERS))
        return games, [read.Rejection(path, None, "invalid_log/import",
                                      f"no importer recognises this file (name one with --from: {known})")]
    for rec in read.read_file(path, name):
        if isinstance(rec, read.Rejection):
            rejected.append(rec)
            continue
        try:
            dicts = IMPORTERS[name].convert(Record(rec.source, rec.line, rec.text))
        except ImportFailure as e:
            rejected.append(read.Rejection(rec.source, rec.line, "invalid_log/import", f"{name}: {read.short(str(e))}"))
            continue
        except Exception as e:  # noqa: BLE001  an importer bug: this record is reported, the rest converted
            rejected.append(read.Rejection(rec.source, rec.line, "invalid_log/import",
                                           f"the {name} importer failed on this record: "
                                           f"{type(e).__name__}: {read.short(str(e))}"))
            continue
        if not dicts:
            rejected.append(read.Rejection(rec.source, rec.line, "invalid_log/import", f"{name}: no game in this record"))
            continue
        for i, d in enumerate(dicts):
            out = parse.validate_dict(d, rec.source, rec.line, i)
            if isinstance(out, read.Rejection):
                rejected.append(out)
            else:
                games.append(d)
    return games, rejected


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.pipeline import exits, inputs
    from mahjong_audit.pipeline.words import count

    try:
        if args.importer is not None:
            inputs.importer_for("", args.importer)
        walk = inputs.walk_inputs(args.inputs)
        files = walk.files
    except OSError as e:
        exits.error("import", str(e))
        return 1
    n_games = n_bad = 0
    out = _open_out(args.output)
    try:
        for path in files:
            games, rejected = convert_file(path, args.importer)
            for g in games:
                out.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")
            for r in rejected:
                print(r, file=sys.stderr)
            n_games += len(games)
            n_bad += len(rejected)
    finally:
        if out is not sys.stdout:
            out.close()
        else:
            out.flush()
    where = "stdout" if args.output == "-" else args.output
    print(f"{count(len(files), 'file')}: {count(n_games, 'game')} written to {where}, "
          f"{count(n_bad, 'record')} rejected", file=sys.stderr)
    for line in inputs.walk_report(walk, args.importer):
        print(line, file=sys.stderr)
    return 1 if n_bad else 0
