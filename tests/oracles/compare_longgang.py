"""Compare the seed oracle with ``mahjong-audit score --ruleset longgang`` on random hands.

    python -m tests.oracles.compare_longgang --hands 5000 --seed 1 [--show 1] [--out FILE]

Runs the command once (JSON Lines in, out), scores every situation with
:mod:`tests.oracles.longgang_seed`, and groups the disagreements by cause: an
alternative reading of the seed (an :class:`Options` switch) under which the oracle
agrees, else a signature of the situation's features. Prints one minimal example
(the shortest situation) per group.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from tests.oracles import longgang_seed as O
from tests.oracles.longgang_gen import situations

ROOT = Path(__file__).resolve().parents[2]
# engine behaviours still to fix (the comparison names them; each has an xfail test): none.
# The lg-score branch fixed the five it listed (财神归位 as 硬胡, the wait of a drawn wild,
# 陪家 four alike + wilds, a pair of two wilds scoring no 将); their switches are gone.
KNOWN: dict[str, dict] = {}
# readings where the seed is ambiguous (or the spec reads it otherwise)
ALTERNATIVES = {
    **KNOWN,
    "坐花 + one 财神 counts as two 财神": {"flower_is_second_wild": True},
    "a wild beyond the fourth copy only for 中/发/坐风 (二、三)e)": {"fifth_copy_any": False},
    "all 财神 归位 is not 两财神": {"restored_not_two_wilds": True},
    "八对半: only one value pair scores": {"eight_pairs_every_value_pair": False},
    "陪家: value pair scores nothing": {"other_value_pair": False},
    "drawn wild is a plain self-draw (2 胡)": {"drawn_wild_wait": "two"},
    "陪家: one tile + two wilds make a triplet": {"other_single_two_wilds": True},
    "陪家: a wild splits a real triplet": {"other_split_triplet": True},
    "陪家: 财神 used before the 坐花 (no choice)": {"other_cai_first": True},
    "replacement win: the wait bonus as usual (只计自摸2胡 read as 'a self-draw')": {"replacement_always_two": False},
    "陪家: wild 台 count when 卖兵": {"other_wild_tai_when_held": True},
    "hard 混一色/对对胡 as 2台 (spec reading)": {"pattern_two_when_hard": True},
}


def cli() -> list[str]:
    exe = ROOT / ".venv" / "bin" / "mahjong-audit"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "mahjong_audit"]


#: the engine's options that select this oracle's default readings (each is documented in
#: docs/rules/longgang.md); with them, the two must agree on every hand
ORACLE_READINGS = {"zuo_is_second_caishen": False, "wild_beyond_fourth_copy": "any",
                   "non_winner_single_two_wilds": False, "non_winner_wild_choice": "best"}


def run_engine(sits: list[dict], options: dict | None = None) -> list[dict]:
    """One subprocess for the whole batch; results in input order. ``options``: the engine's
    ruleset options for every line."""
    if options:
        sits = [{**s, "options": options} for s in sits]
    text = "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sits)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(cli() + ["score", "--ruleset", "longgang"], input=text, capture_output=True,
                         text=True, check=False, cwd=ROOT, env=env)
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    if len(lines) != len(sits):
        raise RuntimeError(f"score returned {len(lines)} lines for {len(sits)}: {out.stderr[-2000:]}")
    return lines


def features(s: dict) -> str:
    """A short signature of what a situation contains, to group unexplained cases."""
    f = s.get("ruleset_fields", {})
    if f.get("role") == "other":
        tags = ["陪家"]
    else:
        tags = ["win"]
    ind = f.get("indicator")
    own = O.SEAT_FLOWER[s.get("seat_wind", "E")]
    tiles = s["concealed"] + [s["win_tile"]]
    n_cai = sum(1 for t in tiles if t == ind)
    if n_cai:
        tags.append(f"财神×{n_cai}")
    if own in tiles:
        tags.append("坐花")
    if s["win_tile"] in (ind, own) and tags[0] == "win":
        tags.append("wild drawn")
    if s.get("kong"):
        tags.append("kong flag")
    if s.get("self_drawn"):
        tags.append("self-drawn")
    return " ".join(tags)


def classify(s: dict, res: dict) -> str:
    """The first alternative reading (then pair, three, for a 陪家 four of them) under which
    the oracle agrees; else a signature of the situation."""
    items = list(ALTERNATIVES.items())
    most = 4 if s.get("ruleset_fields", {}).get("role") == "other" else 2  # a 陪家 is cheap to score
    for size in range(1, most + 1):
        for combo in itertools.combinations(items, size):
            keys = [k for _, c in combo for k in c]
            if len(keys) != len(set(keys)):
                continue
            change = {k: v for _, c in combo for k, v in c.items()}
            if O.agrees(O.score(s, replace(O.DEFAULT, **change)), res):
                return " + ".join(label for label, _ in combo)
    return "unexplained: " + features(s)


def compare(sits: list[dict], options: dict | None = None) -> tuple[int, dict]:
    """(number compared, {cause: [(situation, engine result, oracle verdict), ...]})."""
    results = run_engine(sits, options)
    groups: dict = defaultdict(list)
    n = 0
    for s, r in zip(sits, results, strict=True):
        try:
            v = O.score(s)
        except O.Unsupported:
            continue
        n += 1
        if not O.agrees(v, r):
            groups[classify(s, r)].append((s, r, v))
    return n, groups


def describe(v: O.Verdict) -> dict:
    if not v.valid:
        return {"valid": False, "error": v.error}
    return {"total": v.total, "limit": v.limit, "follow_tai": v.follow_tai,
            "hu_tai": sorted(v.breakdowns)[:6]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--other-share", type=float, default=0.3)
    ap.add_argument("--show", type=int, default=1, help="examples per group")
    ap.add_argument("--out", help="write every disagreement as JSON Lines here")
    ap.add_argument("--oracle-readings", action="store_true",
                    help="run the engine with the options that select the oracle's readings (ORACLE_READINGS)")
    a = ap.parse_args(argv)
    sits = situations(a.hands, a.seed, a.other_share)
    n, groups = compare(sits, ORACLE_READINGS if a.oracle_readings else None)
    bad = sum(len(v) for v in groups.values())
    print(f"{n} hands compared, {bad} disagree ({100.0 * bad / max(n, 1):.1f}%)")
    for cause, cases in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n## {len(cases):5d}  {cause}")
        cases = sorted(cases, key=lambda c: len(json.dumps(c[0])))
        for s, r, v in cases[: a.show]:
            print("  situation:", json.dumps(s, ensure_ascii=False))
            short = {k: r[k] for k in ("valid", "error", "hu", "tai", "total", "limit", "follow_tai") if k in r}
            items = [f"{i['name']}{i['value']}x{i['count']}" for i in r.get("items", [])]
            print("  engine:   ", json.dumps(short, ensure_ascii=False), " ".join(items))
            print("  oracle:   ", json.dumps(describe(v), ensure_ascii=False))
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            for cause, cases in groups.items():
                for s, r, v in cases:
                    fh.write(json.dumps({"cause": cause, "situation": s, "engine": r,
                                         "oracle": describe(v)}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
