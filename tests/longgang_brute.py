"""An independent enumeration of every legal placement of a 龙港 hand's wilds, for the
property tests: the scorer's chosen reading must never be worse than any of these.

It does not share the scorer's search: each wild is given a tile kind (a 正财 its own kind:
财神归位), or, except the winning tile, is left "free" to make a set of wilds only; the
tiles are then split into sets by the plain decomposer with no wilds at all, the wild
copies spread over the sets in every way, and the winning tile put in every set that can
hold it. Each reading is scored by ``longgang_score.score_reading`` (the scoring of one
reading is what the search must not lose). The 陪家 enumeration does the same with the
triplets a non-winner may make (each holding at least one natural tile).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.decompose import PAIR, SEQ, TRIPLET, Part, decompositions
from mahjong_audit.engine.hand import WinSituation
from mahjong_audit.engine.rulesets import longgang_score as S
from mahjong_audit.engine.rulesets.longgang_readings import Reading

FREE = -1


def _near_kinds(nat: list[int], caishen_kind: int | None) -> list[int]:
    """Kinds a wild may stand for in a set with a natural tile (or as a 正财 itself)."""
    out = set()
    for t in range(34):
        if not nat[t]:
            continue
        if T.is_honour(t):
            out.add(t)
            continue
        for d in range(-2, 3):
            u = t + d
            if 0 <= u < 27 and T.suit(u) == T.suit(t):
                out.add(u)
    if caishen_kind is not None:
        out.add(caishen_kind)
    return sorted(out)


def _shapes(c: list[int], n_sets: int, free_parts: tuple[Part, ...],
            eight_pairs: bool) -> Iterator[tuple[str, tuple[Part, ...]]]:
    """The natural tiles' sets and pair, next to the sets made of free wilds only."""
    free_pair = any(p.kind == PAIR for p in free_parts)
    free_sets = len(free_parts) - free_pair
    if n_sets - free_sets >= 0:
        if free_pair:
            yield from _sets_only(c, n_sets - free_sets)
        else:
            yield from (("standard", parts) for parts in decompositions(c, n_sets - free_sets, 0))
    if not eight_pairs or sum(c) + sum(p.wilds for p in free_parts) != 17:
        return
    pairs_needed = 7 - free_pair
    triplets = [None] if free_sets else [t for t in range(34) if c[t] >= 3]
    for t in triplets:
        rest = list(c)
        if t is not None:
            rest[t] -= 3
        if all(n % 2 == 0 for n in rest) and sum(rest) == 2 * pairs_needed:
            pairs = tuple(Part(PAIR, x, 0) for x in range(34) for _ in range(rest[x] // 2))
            yield "eight_pairs", ((Part(TRIPLET, t, 0),) if t is not None else ()) + pairs


def _slots(p: Part) -> list[int]:
    if p.kind == SEQ:
        return [p.tile, p.tile + 1, p.tile + 2]  # type: ignore[operator]
    return [p.tile] * (3 if p.kind == TRIPLET else 2)  # type: ignore[list-item]


def _spread(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put n identical things into boxes of the given capacities."""
    if not caps:
        if n == 0:
            yield ()
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _spread(n - k, caps[1:]):
            yield (k, *rest)


def winner_readings(sit: WinSituation, rules: S.Rules) -> set[Reading]:
    """Every reading of the winner's hand, found by brute force."""
    w = S.wilds_of(sit)
    c = T.counts(sit.full_concealed)
    win = sit.win_tile
    win_wild = win in w.all
    nat = [0 if t in w.all else c[t] for t in range(34)]
    held = [t for t in range(T.N_TILES) for _ in range(c[t]) if t in w.all]
    if win_wild:
        held.remove(win)
    n_sets = 5 - len(sit.melds)
    eight = rules.eight_pairs and not sit.melds
    near = _near_kinds(nat, w.caishen_kind) + [FREE]
    meld_copies = [sum(m.tiles[:4].count(k) for m in sit.melds) for k in range(34)]
    beyond = {T.RED, T.GREEN, T.wind_tile(sit.seat_wind)}
    win_kinds = list(range(34)) if win_wild else [win]
    out: set[Reading] = set()
    seen_assign: set[tuple] = set()
    for x in win_kinds:
        for kinds in itertools.product(near, repeat=len(held)):
            key = (x, tuple(sorted(zip(held, kinds, strict=True))))
            if key in seen_assign:
                continue
            seen_assign.add(key)
            free = sum(1 for k in kinds if k == FREE)
            if free not in (0, 2, 3):
                continue
            homed = sum(1 for t, k in zip(held, kinds, strict=True) if k == w.caishen_kind and t in w.real)
            win_homed = win_wild and win in w.real and x == w.caishen_kind
            subs_by_kind = [0] * 34
            for t, k in zip(held, kinds, strict=True):
                if k != FREE and not (k == w.caishen_kind and t in w.real):
                    subs_by_kind[k] += 1
            full = list(nat)
            if win_wild:
                full[x] += 1
            for k in kinds:
                if k != FREE:
                    full[k] += 1
            if rules.wild_beyond_fourth_copy != "any" and any(
                    full[k] + meld_copies[k] > max(4, nat[k] + meld_copies[k]) for k in range(34) if k not in beyond):
                continue  # a fifth copy only of 中, 发 or the seat wind (二、三)e), unless the option says any
            free_parts: tuple[Part, ...] = {0: (), 2: (Part(PAIR, None, 2),), 3: (Part(TRIPLET, None, 3),)}[free]
            substitutes = len(held) + (1 if win_wild else 0) - homed - (1 if win_homed else 0)
            for shape, parts in _shapes(full, n_sets, free_parts, eight):
                for r in _tagged(parts, free_parts, subs_by_kind, x, win_wild, substitutes, shape):
                    out.add(r)
    return out


def _sets_only(c: list[int], n_sets: int) -> Iterator[tuple[str, tuple[Part, ...]]]:
    """n_sets sets and no pair: add a pair of some kind, decompose, drop that pair."""
    seen = set()
    for t in range(34):
        cc = list(c)
        cc[t] += 2
        for parts in decompositions(cc, n_sets, 0):
            lst = list(parts)
            if Part(PAIR, t, 0) in lst:
                lst.remove(Part(PAIR, t, 0))
                key = tuple(lst)
                if key not in seen:
                    seen.add(key)
                    yield "standard", key


def _key(p: Part) -> tuple[int, str, int]:
    return (-1 if p.tile is None else p.tile, p.kind, p.wilds)


def _tagged(parts: tuple[Part, ...], free_parts: tuple[Part, ...], subs_by_kind: list[int], x: int,
            win_wild: bool, substitutes: int, shape: str) -> Iterator[Reading]:
    """Spread the substituting wilds over the parts' slots of their kind and put the winning
    tile in each part holding its kind."""
    slot_lists = [_slots(p) for p in parts]
    kinds = [k for k in range(34) if subs_by_kind[k]]
    per_kind_options = []
    for k in kinds:
        idx = [i for i, sl in enumerate(slot_lists) if k in sl]
        caps = [slot_lists[i].count(k) for i in idx]
        per_kind_options.append([(idx, spread) for spread in _spread(subs_by_kind[k], caps)])
    for combo in itertools.product(*per_kind_options):
        used = [dict() for _ in parts]  # part -> kind -> substitutes
        for k, (idx, spread) in zip(kinds, combo, strict=True):
            for i, n in zip(idx, spread, strict=True):
                if n:
                    used[i][k] = n
        for wi, sl in enumerate(slot_lists):
            if x not in sl or sl.count(x) - used[wi].get(x, 0) < 1:
                continue
            built = []
            for i, p in enumerate(parts):
                n_sub = sum(used[i].values())
                if i != wi and n_sub == len(slot_lists[i]):
                    built.append((Part(TRIPLET if p.kind != PAIR else PAIR, None, n_sub), False))
                else:
                    built.append((Part(p.kind, p.tile, n_sub), i == wi))
            built += [(p, False) for p in free_parts]
            order = sorted(range(len(built)), key=lambda j: _key(built[j][0]))
            final = tuple(built[j][0] for j in order)
            win_idx = next(n for n, j in enumerate(order) if built[j][1])
            yield Reading(final, win_idx, x, win_wild, substitutes, shape)


def best_winner_key(sit: WinSituation, rules: S.Rules) -> tuple[tuple[int, int, int], Reading] | None:
    best = None
    robbing = sit.kong and not sit.self_drawn
    ctx = S.winner_context(sit, rules)
    for r in winner_readings(sit, rules):
        part = r.parts[r.win_idx]
        if robbing and not rules.wild_pair_robbing and part.kind == PAIR and part.wilds > 0:
            continue
        sc = S.score_reading(sit, r, rules, ctx)
        key = (sc.total, int(dict(sc.details)["tai"]), int(dict(sc.details)["hu"]))
        if best is None or key > best[0]:
            best = (key, r)
    return best


def other_best_key(concealed, melds, flowers, seat_wind, w: S.Wilds, rules: S.Rules) -> tuple[int, int, int]:
    """A 陪家: each wild joins a kind it holds naturally, or is wasted (卖兵); the options
    ``wild_beyond_fourth_copy``, ``non_winner_single_two_wilds``, ``non_winner_split_triplet`` and
    ``non_winner_wild_choice`` are read from ``rules``."""
    c = T.counts(concealed)
    nat = [0 if t in w.all else c[t] for t in range(34)]
    n_wild = sum(c[t] for t in w.all)
    n_real = sum(c[t] for t in w.real)
    kinds = [t for t in range(34) if nat[t]] + [FREE]
    best = None
    for assign in itertools.combinations_with_replacement(kinds, n_wild):
        chosen = []
        for t in range(34):
            if not nat[t]:
                continue
            a = assign.count(t)
            m = min(nat[t], (nat[t] + a) // 3)  # every triplet holds a natural tile
            if not rules.non_winner_single_two_wilds:
                m = min(m, max(nat[t] // 3, nat[t] // 2))  # … two of them (一、A)2))
            elif not rules.non_winner_split_triplet:
                m = min(m, -(-nat[t] // 3))  # natural sets kept whole: one more triplet at most, from a pair or a single
            if t not in (T.RED, T.GREEN, T.wind_tile(seat_wind)) and rules.wild_beyond_fourth_copy != "any":
                m = min(m, max(nat[t] // 3, max(nat[t], 4 - sum(x.tiles[:4].count(t) for x in melds)) // 3))
            if m > nat[t] // 3:
                chosen.append((t, m))
        used = sum(3 * m - nat[t] for t, m in chosen)
        # which wilds fill: the 正财 first, or (option best) every split of 正财 and 坐花
        splits = [min(n_real, used)]
        if rules.non_winner_wild_choice == "best":
            splits = [r for r in range(used + 1) if r <= n_real and used - r <= n_wild - n_real]
        for used_real in splits:
            sc = S.score_other_placement(concealed, melds, flowers, seat_wind, w, rules, tuple(chosen),
                                         used_real=used_real)
            key = (sc.total, int(dict(sc.details)["tai"]), int(dict(sc.details)["hu"]))
            if best is None or key > best:
                best = key
    return best  # type: ignore[return-value]
