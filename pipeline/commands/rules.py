"""``mahjong-audit rules [--ruleset R] [--json]``: every house rule the engine knows.

Each option of each ruleset: its name, the values it takes, its default, what it changes
and the seed passage it comes from (``mahjong_audit.engine.house_rules``). A game's ``options`` object or
a house-rules profile (``--rules FILE`` of ``audit``, ``simulate`` and ``score``) sets them.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from mahjong_audit.engine.rulesets import RULESETS


def register(subparsers) -> None:
    p = subparsers.add_parser("rules", help="list every house rule (option) of every ruleset",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", choices=list(RULESETS), help="only this ruleset's options")
    p.add_argument("--json", action="store_true",
                   help="a JSON list of objects (ruleset, name, type, default, choices, help, seed)")
    p.set_defaults(func=run)


def listing(ruleset: str | None = None) -> str:
    """The options as text: one block per option, grouped by ruleset."""
    from mahjong_audit.engine.house_rules import allowed_values, option_specs, shown

    out: list[str] = []
    current = None
    for spec in option_specs(ruleset):
        if spec.ruleset != current:
            current = spec.ruleset
            out.append(f"[{current}]" if not out else f"\n[{current}]")
        out.append(f"{spec.name} = {shown(spec.default)}    ({allowed_values(spec)})")
        for label, text in (("", spec.help), ("seed: ", spec.seed)):
            out.extend(textwrap.wrap(label + text, width=96, initial_indent="    ",
                                     subsequent_indent="      "))
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    from mahjong_audit.engine.house_rules import option_specs

    if args.json:
        json.dump([s.as_json() for s in option_specs(args.ruleset)], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(listing(args.ruleset))
    return 0
