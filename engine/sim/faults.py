"""Fault injection: turn a clean simulated game into a labelled bad one.

For every finding kind of the spec there is one mutation that must produce it. A mutation
never changes its input; it returns the records to write (usually one game; two for a
duplicated game id; a raw text line for a broken JSON record) and a label
``{game_id, hand_no, kind, code, description}`` that goes to a side file, never the log.
Where a mutation would also disturb money (a false win's penalty) or running scores,
the recorded figures are adjusted so the labelled fault is the one the log carries.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld
from mahjong_audit.engine.ruleset import Ruleset
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.engine.rulesets.longgang_chips import REBUY

KINDS = (
    "payout_mismatch", "dead_hand", "illegal_call", "false_win", "claim_priority", "tile_conservation",
    "turn_order", "illegal_discard", "score_mismatch", "outcome_mismatch", "continuity", "duplicate_game",
    "invalid_log",
)
#: kinds found by the pipeline (reading / de-duplicating records), not by audit_game
PIPELINE_KINDS = frozenset({"duplicate_game", "invalid_log"})


@dataclass(frozen=True, slots=True)
class Fault:
    """A mutated game: ``records`` to write in order (dicts, or a str for a raw line)."""

    records: tuple[dict[str, Any] | str, ...]
    label: dict[str, Any]


class _Track:
    """Per-seat tiles and melds before each event of a hand (a plain tile count, enough
    to pick mutations; the auditor's replay is the judge)."""

    def __init__(self, hand: dict[str, Any]):
        self.counts = [T.counts(T.tile(x) for x in d) for d in hand["deal"]]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.before: list[tuple[tuple[tuple[int, ...], ...], tuple[tuple[Meld, ...], ...]]] = []
        for ev in hand["events"]:
            self.before.append((tuple(tuple(c) for c in self.counts), tuple(tuple(m) for m in self.melds)))
            self.apply(ev)
        self.final = [list(c) for c in self.counts]

    def apply(self, ev: dict[str, Any]) -> None:
        s, typ = ev["seat"], ev["type"]
        c = self.counts[s]
        if "tile" not in ev:
            return  # ready: no tile moves
        t = T.tile(ev["tile"])
        if typ == "draw":
            c[t] += 1
        elif typ in ("flower", "discard", "added_kong"):
            c[t] -= 1
        elif typ == "chi":
            for x in ev["tiles"]:
                c[T.tile(x)] -= 1
            self.melds[s].append(Meld.chi(min(t, *(T.tile(x) for x in ev["tiles"]))))
        elif typ == "pon":
            c[t] -= 2
            self.melds[s].append(Meld.pon(t))
        elif typ == "kong":
            c[t] -= 3
            self.melds[s].append(Meld.kong(t))
        elif typ == "concealed_kong":
            c[t] -= 4
            self.melds[s].append(Meld.kong(t, concealed=True))


def _winners(hand: dict[str, Any]) -> set[int]:
    return {w["seat"] for w in hand["outcome"]["wins"]}


def _renumber(hand: dict[str, Any]) -> None:
    for i, ev in enumerate(hand["events"], 1):
        ev["seq"] = i


def _label(game: dict[str, Any], hand_no: int | None, kind: str, code: str, description: str) -> dict[str, Any]:
    return {"game_id": game["game_id"], "hand_no": hand_no, "kind": kind, "code": code,
            "description": description}


def _add_deltas(game: dict[str, Any], hand: dict[str, Any], extra: tuple[int, ...]) -> None:
    oc = hand["outcome"]
    oc["deltas"] = [a + b for a, b in zip(oc["deltas"], extra, strict=True)]
    if game.get("final_scores") is not None:  # per player: through the hand's seating (five players)
        for s, p in enumerate(hand.get("seats") or range(4)):
            game["final_scores"][p] += extra[s]


Mutation = Callable[[dict[str, Any], Ruleset, random.Random], Fault | None]


def _hands(game: dict[str, Any], rng: random.Random) -> list[int]:
    order = list(range(len(game["hands"])))
    rng.shuffle(order)
    return order


def payout_mismatch(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        a, b = rng.sample(range(4), 2)
        k = rng.choice((1, 2, 5, 10))
        extra = tuple(k if s == a else -k if s == b else 0 for s in range(4))
        _add_deltas(game, hand, extra)
        return Fault((game,), _label(game, h, "payout_mismatch", "payout_mismatch/delta",
                                     f"seat {a} recorded {k} more and seat {b} {k} less than the ruleset pays"))
    return None


def dead_hand(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        tr = _Track(hand)
        seats = [s for s in range(4) if s != hand["dealer"] and s not in _winners(hand)]
        for s in seats:
            kept = [t for t in range(T.N_TILES) if tr.final[s][t] and T.name(t) in hand["deal"][s]]
            if not kept:
                continue
            t = rng.choice(kept)
            hand["deal"][s].remove(T.name(t))
            return Fault((game,), _label(game, h, "dead_hand", "dead_hand/too_few",
                                         f"seat {s} was dealt one tile too few ({T.name(t)} left out of its deal)"))
    return None


def _quiet_discards(evs: list[dict[str, Any]]) -> list[int]:
    """Indices of discards nobody declared on, followed by the next seat's draw."""
    return [i for i, ev in enumerate(evs[:-1]) if ev["type"] == "discard" and not ev.get("claims")
            and evs[i + 1]["type"] == "draw"]


def _sequence_with(counts: tuple[int, ...], t: int) -> tuple[int, int] | None:
    if t >= 27:
        return None
    for a, b in ((t - 2, t - 1), (t - 1, t + 1), (t + 1, t + 2)):
        if a >= 0 and b < 27 and a // 9 == t // 9 == b // 9 and counts[a] and counts[b]:
            return a, b
    return None


def illegal_call(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        evs = hand["events"]
        tr = _Track(hand)
        spots = _quiet_discards(evs)
        rng.shuffle(spots)
        for i in spots:
            d, t = evs[i]["seat"], T.tile(evs[i]["tile"])
            for k in (2, 3):
                y = (d + k) % 4
                pick = _sequence_with(tr.before[i + 1][0][y], t)
                if pick is None:
                    continue
                evs[i]["claims"] = [{"seat": y, "call": "chi"}]
                evs.insert(i + 1, {"seq": 0, "type": "chi", "seat": y, "tile": T.name(t),
                                   "tiles": [T.name(pick[0]), T.name(pick[1])], "from": d})
                _renumber(hand)
                return Fault((game,), _label(game, h, "illegal_call", "illegal_call/not_left_player",
                                             f"seat {y} chi'd {T.name(t)} from seat {d}, which is not its left player"))
    return None


def false_win(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        evs = hand["events"]
        tr = _Track(hand)
        winners = _winners(hand)
        spots = [i for i, ev in enumerate(evs) if ev["type"] == "draw" and ev["seat"] not in winners
                 and i + 1 < len(evs) and evs[i + 1]["type"] == "discard"]
        rng.shuffle(spots)
        for i in spots:
            s = evs[i]["seat"]
            counts = list(tr.before[i + 1][0][s])
            ind = hand.get("wildcard_indicator")
            wilds = rs.wild_tiles(s, hand["dealer"], T.tile(ind) if ind else None)
            if rs.is_complete(counts if any(counts[34:]) else counts[:34], tr.before[i + 1][1][s], wilds) or \
                    rs.instant_win(tuple(x for x in range(T.N_TILES) for _ in range(counts[x])), s, hand["dealer"],
                                   T.tile(ind) if ind else None):
                continue
            evs.insert(i + 1, {"seq": 0, "type": "win", "seat": s, "tile": evs[i]["tile"], "from": s})
            _renumber(hand)
            pen = tuple(rs.false_win_penalty(s, hand["dealer"]))
            _add_deltas(game, hand, pen)
            hand["outcome"].setdefault("penalties", []).append({"seat": s, "kind": "false_win", "deltas": list(pen)})
            return Fault((game,), _label(game, h, "false_win", "false_win/incomplete",
                                         f"seat {s} declared a self-drawn win on {evs[i]['tile']} with an "
                                         f"incomplete hand"))
    return None


def claim_priority(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        evs = hand["events"]
        spots = [i for i, ev in enumerate(evs[:-1]) if ev["type"] == "discard"
                 and evs[i + 1]["type"] in ("chi", "pon", "kong")]
        rng.shuffle(spots)
        for i in spots:
            d, y = evs[i]["seat"], evs[i + 1]["seat"]
            others = [s for s in range(4) if s not in (d, y)]
            w = rng.choice(others)
            claims = [c for c in evs[i].get("claims", []) if c["seat"] != w]
            claims.append({"seat": w, "call": "win"})
            evs[i]["claims"] = sorted(claims, key=lambda c: (c["seat"] - d) % 4)
            return Fault((game,), _label(game, h, "claim_priority", "claim_priority/ignored_win",
                                         f"seat {w} declared a win on seat {d}'s {evs[i]['tile']}; the "
                                         f"{evs[i + 1]['type']} by seat {y} was carried out instead"))
    return None


def tile_conservation(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        tr = _Track(hand)
        seen = [0] * T.N_TILES
        for d in hand["deal"]:
            for x in d:
                seen[T.tile(x)] += 1
        for ev in hand["events"]:
            if ev["type"] == "draw":
                seen[T.tile(ev["tile"])] += 1
        full = [t for t in range(34) if seen[t] >= rs.copies[t] > 0]
        seats = [s for s in range(4) if s not in _winners(hand)]
        rng.shuffle(seats)
        for s in seats:
            kept = [t for t in range(34) if tr.final[s][t] and T.name(t) in hand["deal"][s]]
            fifth = [t for t in full if t not in kept]
            if not kept or not fifth:
                continue
            x, y = rng.choice(kept), rng.choice(fifth)
            deal = hand["deal"][s]
            deal[deal.index(T.name(x))] = T.name(y)
            return Fault((game,), _label(game, h, "tile_conservation", "tile_conservation/too_many_copies",
                                         f"seat {s}'s deal has {T.name(y)} for {T.name(x)}: a fifth {T.name(y)}"))
    return None


def turn_order(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        evs = hand["events"]
        spots = [i for i, ev in enumerate(evs) if i > 0 and ev["type"] == "draw" and ev.get("from", "live") == "live"
                 and evs[i - 1]["type"] == "discard"]
        if not spots:
            continue
        i = rng.choice(spots)
        s = evs[i]["seat"]
        wrong = (s + rng.choice((1, 2))) % 4
        evs[i]["seat"] = wrong
        return Fault((game,), _label(game, h, "turn_order", "turn_order/wrong_seat",
                                     f"seat {wrong} drew at seq {evs[i]['seq']}, where it is seat {s}'s turn"))
    return None


def illegal_discard(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        evs = hand["events"]
        tr = _Track(hand)
        spots = _quiet_discards(evs)
        rng.shuffle(spots)
        for i in spots:
            s = evs[i]["seat"]
            held = tr.before[i][0][s]
            absent = [t for t in range(34) if not held[t] and rs.copies[t]]
            if not absent:
                continue
            t = rng.choice(absent)
            old = evs[i]["tile"]
            evs[i]["tile"] = T.name(t)
            return Fault((game,), _label(game, h, "illegal_discard", "illegal_discard/not_held",
                                         f"seat {s} discarded {T.name(t)}, which it does not hold (was {old})"))
    return None


def score_mismatch(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        wins = hand["outcome"]["wins"]
        if not wins:
            continue
        w = rng.choice(wins)
        sc = w["score"]
        if sc.get("fans"):
            f = rng.choice(sc["fans"])
            f[1] += 1
            return Fault((game,), _label(game, h, "score_mismatch", "score_mismatch/fans",
                                         f"seat {w['seat']}'s {f[0]} recorded at {f[1]} instead of {f[1] - 1}"))
        key = "tai" if "tai" in sc else "total"
        sc[key] = sc.get(key, 0) + 1
        code = "score_mismatch/fans" if key == "tai" else "score_mismatch/total"
        return Fault((game,), _label(game, h, "score_mismatch", code,
                                     f"seat {w['seat']}'s recorded {key} is one more than the hand scores"))
    return None


def outcome_mismatch(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    for h in _hands(game, rng):
        hand = game["hands"][h]
        wins = hand["outcome"]["wins"]
        if not wins:
            continue
        w = rng.choice(wins)
        others = [s for s in range(4) if s not in _winners(hand) and s != w.get("from")]
        if not others:
            continue
        old, w["seat"] = w["seat"], rng.choice(others)
        return Fault((game,), _label(game, h, "outcome_mismatch", "outcome_mismatch/winners",
                                     f"the outcome names seat {w['seat']} as winner; seat {old} won"))
    return None


def continuity(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    """A hand numbered wrong or final scores that do not add up; in a game that records chips,
    a chip fault (:data:`CHIP_FAULTS`) where one fits."""
    if any(h.get("chips") is not None for h in game["hands"]):
        kinds = list(CHIP_FAULTS)
        rng.shuffle(kinds)
        for kind in kinds:
            fault = CHIP_FAULTS[kind](game, rs, rng)
            if fault is not None:
                return fault
    hands = game["hands"]
    if len(hands) >= 2 and rng.random() < 0.5:
        h = rng.randrange(1, len(hands))
        hands[h]["hand_no"] += 1
        return Fault((game,), _label(game, hands[h]["hand_no"], "continuity", "continuity/hand_no",
                                     f"hand {h} is numbered {hands[h]['hand_no']}"))
    s = rng.randrange(4)
    game["final_scores"][s] += rng.choice((1, 8, 10))
    return Fault((game,), _label(game, None, "continuity", "continuity/final_scores",
                                 f"seat {s}'s final score differs from initial + hand deltas"))


def _chip_facts(game: dict[str, Any]) -> list[Any]:
    """The auditor's view of each hand's chips (mahjong_audit.engine.result.ChipFacts) in a clean game."""
    from mahjong_audit.engine.audit import audit_game
    from mahjong_audit.schemas.log import parse_game

    return [h.chip_facts for h in audit_game(parse_game(game)).hands]


def _shift_chips(game: dict[str, Any], h: int, change: dict[int, int]) -> None:
    """Hand ``h`` and every later one record ``change`` more chips for these players."""
    for hand in game["hands"][h:]:
        hand["chips"] = [c + change.get(p, 0) for p, c in enumerate(hand["chips"])]


def chips_wrong_payee(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    """A payment made to the wrong player (from then on): a short payer's hand when there is one."""
    facts = _chip_facts(game)
    names = game["players"]
    spots = [(h, d) for h, f in enumerate(facts) if f is not None for d in f.paid]
    short = [(h, d) for h, d in spots if d[0] in facts[h].broke]
    if not spots:
        return None
    h, (payer, payee, amount) = rng.choice(short or spots)
    other = rng.choice([p for p in range(len(names)) if p not in (payer, payee)])
    _shift_chips(game, h, {payee: -amount, other: amount})
    return Fault((game,), _label(game, game["hands"][h]["hand_no"], "continuity", "continuity/chips",
                                 f"{names[payer]}'s {amount} 子 to {names[payee]} recorded as paid to {names[other]}"))


def chips_missed_rebuy(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    """The first player broke (断子) not given its 加筹, from then on."""
    facts = _chip_facts(game)
    for h, f in enumerate(facts):
        if f is not None and f.rebuy is not None:
            _shift_chips(game, h, {f.rebuy: -REBUY[len(game["players"])]})
            return Fault((game,), _label(game, game["hands"][h]["hand_no"], "continuity", "continuity/chips",
                                         f"{game['players'][f.rebuy]} went broke and did not re-buy (加筹 missed)"))
    return None


def chips_played_on(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    """A session that should have ended (a second 断子) goes on: its last hand is played again."""
    facts = _chip_facts(game)
    hands = game["hands"]
    if not hands or facts[-1] is None or not facts[-1].ended:
        return None
    extra = copy.deepcopy(hands[-1])
    extra["hand_no"] = hands[-1]["hand_no"] + 1
    hands.append(extra)
    if game.get("final_scores") is not None:
        seats = extra.get("seats") or list(range(4))
        for s, p in enumerate(seats):
            game["final_scores"][p] += extra["outcome"]["deltas"][s]
        for p in range(len(game["final_scores"])):
            if p not in seats:
                game["final_scores"][p] += extra["outcome"].get("out_delta") or 0
    return Fault((game,), _label(game, extra["hand_no"], "continuity", "continuity/chips",
                                 f"hand {extra['hand_no']} is played after the session ended with hand "
                                 f"{extra['hand_no'] - 1}"))


#: the faults of a game's chips (a 龙港 session), all ``continuity/chips``
CHIP_FAULTS: dict[str, Mutation] = {"wrong_payee": chips_wrong_payee, "missed_rebuy": chips_missed_rebuy,
                                    "played_on": chips_played_on}


def duplicate_game(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    return Fault((game, copy.deepcopy(game)), _label(game, None, "duplicate_game", "duplicate_game/game_id",
                                                      "the whole game record appears twice"))


def invalid_log(game: dict[str, Any], rs: Ruleset, rng: random.Random) -> Fault | None:
    if rng.random() < 0.5:
        text = json.dumps(game, ensure_ascii=False, separators=(",", ":"))
        cut = rng.randrange(len(text) // 4, len(text) - 1)
        return Fault((text[:cut],), _label(game, None, "invalid_log", "invalid_log/json",
                                           f"the record is cut off after {cut} characters"))
    hand = rng.choice(game["hands"])
    ev = next((e for e in hand["events"] if e["type"] == "discard"), None)
    if ev is None:
        hand["round_wind"] = "X"
        what = "round wind 'X'"
    else:
        ev["tile"] = rng.choice(("0m", "10p", "8z", "9f", "5x"))
        what = f"a discard of {ev['tile']!r}"
    return Fault((game,), _label(game, hand["hand_no"], "invalid_log", "invalid_log/schema",
                                 f"hand {hand['hand_no']} has {what}, which is not in the format"))


MUTATIONS: dict[str, Mutation] = {k: globals()[k] for k in KINDS}


def inject(game: dict[str, Any], kind: str, rng: random.Random) -> Fault | None:
    """Apply the mutation of ``kind`` to a copy of ``game`` (None if this game offers no
    place for it, e.g. no executed call for a claim-priority fault)."""
    rs = RULESETS[game["ruleset"]](game.get("options") or {})
    return MUTATIONS[kind](copy.deepcopy(game), rs, rng)


def inject_maybe(game: dict[str, Any], seed: int, index: int, rate: float
                 ) -> tuple[tuple[dict[str, Any] | str, ...], dict[str, Any] | None]:
    """With probability ``rate`` give game ``index`` one fault, of kind
    ``KINDS[index % len(KINDS)]`` (or the next kind that fits this game); otherwise return
    it unchanged. Deterministic for (seed, index); 13 games at rate 1 get every kind once."""
    rng = random.Random(f"mahjong-audit-faults:{seed}:{index}")
    if rate <= 0 or rng.random() >= rate:
        return (game,), None
    first = index % len(KINDS)
    for k in range(len(KINDS)):
        fault = inject(game, KINDS[(first + k) % len(KINDS)], rng)
        if fault is not None:
            return fault.records, fault.label
    return (game,), None
