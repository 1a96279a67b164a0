"""``score --ruleset mcr`` against pymahjonggb behind the same JSON-lines protocol.

    python -m bench.score_bench [--hands N] [--repeat K]

Both sides do the whole protocol for each line: parse the JSON situation, score it,
write one JSON result line. Ours is ``mahjong_audit.pipeline.commands.score.score_line_json`` (what the
``score`` command runs per line); the reference turns the same JSON into
``MahjongFanCalculator``'s arguments, calls it and writes its fans. The two are timed in
alternating chunks of CPU time (``time.process_time``), so load from other processes
falls on both alike; the ratio reference/ours is the figure (1.0 = as fast as the C++).
Every hand is a different generated MCR win, scored once, so no cache is warm for it; both
calculators are imported before the timing (ours builds its per-suit tables at import).
``--repeat K`` runs it K times back to back in fresh processes (no cache carried over) and
prints each ratio and their median: on a loaded machine single runs scatter.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import MeldKind, WinSituation
from tests.mcr_handgen import generate

CHUNK = 500
_WIND = "ESWN"
_HONOURS = {"1z": "F1", "2z": "F2", "3z": "F3", "4z": "F4", "5z": "J3", "6z": "J2", "7z": "J1"}


def situation_json(sit: WinSituation) -> str:
    """One input line of the ``score`` command (docs/score-cli.md) for a situation.

    The command rejects what cannot happen, so the line says what can: a chi comes from
    the left (``from`` 1), and a self-drawn ``kong`` (杠上开花) needs a kong in the hand."""
    melds: list[dict[str, Any]] = []
    for m in sit.melds:
        if m.kind is MeldKind.CHI:
            melds.append({"type": "chi", "tiles": [T.name(t) for t in m.tiles], "claimed": T.name(m.claimed),
                          "from": 1})
        elif m.kind is MeldKind.CONCEALED_KONG:
            melds.append({"type": "kong", "tile": T.name(m.first), "concealed": True})
        else:
            melds.append({"type": m.kind.value, "tile": T.name(m.first), "from": m.source or 1})
    return json.dumps({
        "concealed": [T.name(t) for t in sit.concealed], "melds": melds, "win_tile": T.name(sit.win_tile),
        "self_drawn": sit.self_drawn, "seat_wind": _WIND[sit.seat_wind], "round_wind": _WIND[sit.round_wind],
        "flowers": [T.name(t) for t in sit.flowers], "last_tile": sit.last_tile,
        "kong": sit.kong and (not sit.self_drawn or any(m.is_kong for m in sit.melds)),
        "last_copy": sit.last_copy,
    })


def _ref_tile(name: str) -> str:
    return _HONOURS.get(name) or "WBT"["mps".index(name[1])] + name[0]


def reference_line(line: str, calc: Any) -> str:
    """The reference side of the protocol: JSON situation in, JSON fans out."""
    d = json.loads(line)
    pack = []
    for m in d["melds"]:
        if m["type"] == "chi":
            first = sorted(m["tiles"])[0]
            pack.append(("CHI", _ref_tile(sorted(m["tiles"])[1]), int(m["claimed"][0]) - int(first[0]) + 1))
        elif m.get("concealed"):
            pack.append(("GANG", _ref_tile(m["tile"]), 0))
        else:
            pack.append(("PENG" if m["type"] == "pon" else "GANG", _ref_tile(m["tile"]), m["from"]))
    try:
        fans = calc(pack=tuple(pack), hand=tuple(_ref_tile(t) for t in d["concealed"]),
                    winTile=_ref_tile(d["win_tile"]), flowerCount=len(d["flowers"]),
                    isSelfDrawn=d["self_drawn"], is4thTile=d["last_copy"], isAboutKong=d["kong"],
                    isWallLast=d["last_tile"], seatWind=_WIND.index(d["seat_wind"]),
                    prevalentWind=_WIND.index(d["round_wind"]), verbose=True)
    except TypeError as e:
        return json.dumps({"valid": False, "message": str(e)})
    return json.dumps({"valid": True, "fans": [{"name": n, "value": p, "count": c} for p, c, n, _en in fans],
                       "total": sum(p * c for p, c, _n, _en in fans)}, ensure_ascii=False)


def run(n: int = 20000, seed: int = 1) -> dict:
    from mahjong_audit.engine.rulesets import mcr_scoring  # noqa: F401  (imported before timing, like the reference)
    from mahjong_audit.pipeline.commands.score import (
        restore_collector,
        score_line_json,
        tune_collector,
    )

    lines = [situation_json(s) for s in generate(n, seed)]
    before = tune_collector()  # as the score command does before its first line
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        t0 = time.process_time()
        for line in lines:
            score_line_json(line, "mcr")
        ours = time.process_time() - t0
        print(f"score protocol: ours {n / ours:.0f} lines/s (CPU); pymahjonggb not installed")
        return {"lines": n, "ours_lines_per_cpu_s": n / ours}
    ours = ref = 0.0
    w0 = time.perf_counter()
    for c in range(0, n, CHUNK):
        t0 = time.process_time()
        for line in lines[c:c + CHUNK]:
            score_line_json(line, "mcr")
        t1 = time.process_time()
        for line in lines[c:c + CHUNK]:
            reference_line(line, MahjongFanCalculator)
        t2 = time.process_time()
        ours += t1 - t0
        ref += t2 - t1
    wall = time.perf_counter() - w0
    restore_collector(before)
    result = {"lines": n, "ours_lines_per_cpu_s": n / ours, "reference_lines_per_cpu_s": n / ref,
              "ratio": ref / ours, "wall_s": wall}
    print(f"score protocol (JSON line in, JSON line out), {n} MCR hands: ours {n / ours:.0f} lines/CPU-s, "
          f"pymahjonggb {n / ref:.0f} lines/CPU-s; ratio ours/reference {ref / ours:.2f} (goal ≥ 0.8)")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.score_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=1, help="runs, each in a fresh process (default 1: this one)")
    args = ap.parse_args(argv)
    if args.repeat <= 1:
        run(args.hands)
        return 0
    ratios = []
    for _ in range(args.repeat):
        out = subprocess.run([sys.executable, "-m", "bench.score_bench", "--hands", str(args.hands)],
                             capture_output=True, text=True, check=True).stdout
        print(out.strip())
        ratios += [float(w) for w in out.split("ratio ours/reference ")[1:2] for w in w.split()[:1]]
    if ratios:
        print(f"ratios {', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
