"""Replays of the hands that have findings, for the report's drill-down.

The database holds findings but not the events, so a replay needs the original logs
(``mahjong-audit report --logs PATH...``). For each hand with findings this module
replays the hand with ``mahjong_audit.engine.replay.HandReplay`` and keeps the deal, every event in
order and each seat's tiles right after each finding's ``seq``. A snapshot after ``seq``
is the state of a replay of the events up to and including ``seq`` (a truncated copy of
the hand): the engine needs no hook for it, at the price of one replay per finding seq,
which is cheap for the few hands a report shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld
from mahjong_audit.engine.replay import HandReplay
from mahjong_audit.engine.rulesets import RULESETS
from mahjong_audit.schemas import log as L

WINDS = "ESWN"


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    discards: tuple[int, ...]
    dead: str | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every seat's tiles right after event ``seq`` (None: after the last event)."""

    seq: int | None
    seats: tuple[SeatView, ...]


@dataclass(frozen=True, slots=True)
class EventLine:
    seq: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class HandView:
    game_id: str
    hand_no: int
    ruleset: str
    round_wind: str
    dealer: int
    players: tuple[str, ...]
    deal: tuple[tuple[int, ...], ...]
    wildcard_indicator: int | None
    events: tuple[EventLine, ...]
    snapshots: tuple[Snapshot, ...]


@dataclass(frozen=True, slots=True)
class LoadedLogs:
    games: Mapping[str, L.Game]
    problems: tuple[str, ...]  # files that could not be read, records that did not parse
    found_files: bool = True  # False when the paths given name no file (missing, a typo)


def load_games(paths: Sequence[str], wanted: Iterable[str], importer: str | None = None) -> LoadedLogs:
    """The games named in ``wanted`` found in ``paths`` (files, globs, directories).

    The first game with a given id wins, as in the audit. Records that do not parse are
    skipped: they are already in the database as ``invalid_log`` findings.
    """
    from mahjong_audit.pipeline import inputs, parse, read

    want = set(wanted)
    found: dict[str, L.Game] = {}
    problems: list[str] = []
    try:
        files = inputs.expand_inputs(paths)
    except (OSError, ValueError) as e:
        return LoadedLogs({}, (str(e),), found_files=False)
    for path in files:
        if want <= found.keys():
            break
        try:
            for rec in read.read_file(path, importer):
                if isinstance(rec, read.Rejection):
                    if rec.line is None:  # the file itself (a bad record is in the database already)
                        problems.append(str(rec))
                    continue
                if rec.importer is None and not _may_hold(rec.text, want - found.keys()):
                    continue  # a native record naming none of the wanted games: not worth validating
                for item in parse.parse_record(rec):
                    if isinstance(item, parse.ParsedGame):
                        game = item.game
                        # parse_record without ``fast`` gives the models (the report reads them)
                        if game.game_id in want and game.game_id not in found and isinstance(game, L.Game):
                            found[game.game_id] = game
        except (OSError, ValueError) as e:
            problems.append(f"{path}: {e}")
    return LoadedLogs(found, tuple(problems))


def _may_hold(text: str, ids: Iterable[str]) -> bool:
    """Whether a JSON text can contain one of ``ids`` as a string (plain or \\u-escaped)."""
    return any(gid in text or json.dumps(gid)[1:-1] in text for gid in ids)


def describe_event(ev: L.Event) -> str:
    """One readable line for an event, tiles in compact notation."""
    kind = ev.type
    if isinstance(ev, L.Draw):
        return f"draws {ev.tile}" + (" (replacement)" if ev.from_ == "back" else "")
    if isinstance(ev, L.Flower):
        return f"sets flower {ev.tile} aside"
    if isinstance(ev, L.Discard | L.AddedKong):
        verb = "discards" if isinstance(ev, L.Discard) else "adds to a kong:"
        text = f"{verb} {ev.tile}"
        if ev.claims:
            text += " — claims: " + ", ".join(f"seat {c.seat} {c.call}" for c in ev.claims)
        return text
    if isinstance(ev, L.Chi):
        return f"chi {ev.tile} from seat {ev.from_} with {T.fmt(T.tile(x) for x in ev.tiles)}"
    if isinstance(ev, L.Pon | L.Kong):
        return f"{kind} {ev.tile} from seat {ev.from_}"
    if isinstance(ev, L.ConcealedKong):
        return f"concealed kong of {ev.tile}"
    if isinstance(ev, L.Win):
        if ev.robbing_kong:
            return f"wins on {ev.tile} robbing seat {ev.from_}'s kong"
        return f"wins on {ev.tile} " + ("self-drawn" if ev.from_ == ev.seat else f"from seat {ev.from_}")
    return kind


def _seat_views(replay: HandReplay) -> tuple[SeatView, ...]:
    return tuple(
        SeatView(st.seat, st.concealed(), tuple(st.melds), tuple(st.flowers), tuple(st.discards), st.dead)
        for st in replay.seats
    )


def snapshot(game: L.Game, hand: L.Hand, seq: int | None) -> Snapshot:
    """Each seat's tiles right after event ``seq`` (``None``: after the whole hand)."""
    ruleset = RULESETS[game.ruleset](game.options)
    part = hand if seq is None else hand.model_copy(update={"events": [e for e in hand.events if e.seq <= seq]})
    replay = HandReplay(ruleset, part, WINDS.index(hand.round_wind))
    replay.run()
    return Snapshot(seq, _seat_views(replay))


def hand_view(game: L.Game, hand_no: int, seqs: Iterable[int | None]) -> HandView | None:
    """The replay of one hand with a snapshot at each of ``seqs``; None if no such hand."""
    hand = next((h for h in game.hands if h.hand_no == hand_no), None)
    if hand is None:
        return None
    order = sorted(set(seqs), key=lambda s: (s is None, s or 0))
    return HandView(
        game_id=game.game_id, hand_no=hand.hand_no, ruleset=game.ruleset, round_wind=hand.round_wind,
        dealer=hand.dealer,
        players=tuple((game.players or ("", "", "", ""))[p] for p in game.seating(hand)),  # this hand's seating
        deal=tuple(tuple(T.tile(x) for x in d) for d in hand.deal),
        wildcard_indicator=T.tile(hand.wildcard_indicator) if hand.wildcard_indicator else None,
        events=tuple(EventLine(ev.seq, ev.seat, describe_event(ev)) for ev in hand.events),
        snapshots=tuple(snapshot(game, hand, s) for s in order),
    )
