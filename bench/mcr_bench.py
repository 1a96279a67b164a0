"""MCR fan calculator speed: ours vs pymahjonggb on the same generated hands.

    python -m bench.mcr_bench
"""

from __future__ import annotations

import time

from engine.rulesets.mcr_scoring import score_mcr
from tests.mcr_handgen import generate, oracle_args


def run(n: int = 20000, seed: int = 1) -> dict:
    hands = generate(n, seed)
    t0 = time.perf_counter()
    for s in hands:
        score_mcr(s)
    ours_s = time.perf_counter() - t0

    result = {"hands": n, "ours_hands_per_s": n / ours_s}
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        print(f"mcr: ours {result['ours_hands_per_s']:.0f} hands/s (pymahjonggb not installed)")
        return result
    args = [oracle_args(s) for s in hands]
    t0 = time.perf_counter()
    for a in args:
        MahjongFanCalculator(**a)
    ref_s = time.perf_counter() - t0
    # the oracle's input conversion (our tiles -> its strings) timed separately
    t0 = time.perf_counter()
    for s in hands:
        oracle_args(s)
    conv_s = time.perf_counter() - t0
    result.update(
        oracle_hands_per_s=n / ref_s,
        oracle_with_conversion_hands_per_s=n / (ref_s + conv_s),
        ratio=ref_s / ours_s,
    )
    print(
        f"mcr: ours {result['ours_hands_per_s']:.0f} hands/s, "
        f"pymahjonggb {result['oracle_hands_per_s']:.0f} hands/s "
        f"({result['oracle_with_conversion_hands_per_s']:.0f} with input conversion), "
        f"ratio ours/oracle {result['ratio']:.3f}"
    )
    return result


if __name__ == "__main__":
    run()
