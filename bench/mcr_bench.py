"""MCR fan calculator speed: ours vs pymahjonggb on the same generated hands.

    python -m bench.mcr_bench

Each hand is scored once (our memo caches start empty, as in a fresh process).  The
two calculators are timed chunk by chunk, alternating, so that load from other
processes on a shared machine falls on both alike; the ratio is the number to compare
between runs (repeat a few times and take the median).
"""

from __future__ import annotations

import time

from mahjong_audit.engine.rulesets.mcr_scoring import score_mcr
from tests.mcr_handgen import generate, oracle_args

CHUNK = 500


def run(n: int = 20000, seed: int = 1) -> dict:
    hands = generate(n, seed)
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        t0 = time.perf_counter()
        for s in hands:
            score_mcr(s)
        ours_s = time.perf_counter() - t0
        print(f"mcr: ours {n / ours_s:.0f} hands/s (pymahjonggb not installed)")
        return {"hands": n, "ours_hands_per_s": n / ours_s}
    args = [oracle_args(s) for s in hands]
    ours_s = ref_s = 0.0
    for c in range(0, n, CHUNK):
        t0 = time.perf_counter()
        for s in hands[c:c + CHUNK]:
            score_mcr(s)
        t1 = time.perf_counter()
        for a in args[c:c + CHUNK]:
            MahjongFanCalculator(**a)
        t2 = time.perf_counter()
        ours_s += t1 - t0
        ref_s += t2 - t1
    # the oracle's input conversion (our tiles -> its strings) timed separately
    t0 = time.perf_counter()
    for s in hands:
        oracle_args(s)
    conv_s = time.perf_counter() - t0
    result = {
        "hands": n,
        "ours_hands_per_s": n / ours_s,
        "oracle_hands_per_s": n / ref_s,
        "oracle_with_conversion_hands_per_s": n / (ref_s + conv_s),
        "ratio": ref_s / ours_s,
    }
    print(
        f"mcr: ours {result['ours_hands_per_s']:.0f} hands/s, "
        f"pymahjonggb {result['oracle_hands_per_s']:.0f} hands/s "
        f"({result['oracle_with_conversion_hands_per_s']:.0f} with input conversion), "
        f"ratio ours/oracle {result['ratio']:.3f}"
    )
    return result


if __name__ == "__main__":
    run()
