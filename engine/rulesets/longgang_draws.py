"""龙港麻将 abortive draws (流局 before the wall runs out), each a local variant the seed
names (二、6 d; 三、3 d). Which ones apply is the option ``abortive_draws``; see
docs/rules/longgang.md. Each detector reads a :class:`~mahjong_audit.engine.ruleset.TableView` and
returns True when its draw ends the hand at that point.
"""

from __future__ import annotations

from collections.abc import Callable

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import MeldKind
from mahjong_audit.engine.phases import ACT
from mahjong_audit.engine.ruleset import TableView

#: option value → (names in the seed, passage)
ABORTIVE_DRAWS: dict[str, tuple[str, str]] = {
    "four_winds": ("四同风 / 四风连和", "二、6 d; 三、3 d"),
    "four_kongs": ("四杠 / 四杠和", "二、6 d; 三、3 d"),
    "three_wins": ("三炮同响 / 一炮三响 / 三家连胡", "二、6 d; 三、3 d"),
    "nine_terminals": ("九么九和", "三、3 d"),
}

#: 九么九和: distinct terminal/honour kinds a seat needs to call the draw
NINE_TERMINALS_KINDS = 9
#: 三炮同响: win declarations on one discard that make it a draw
THREE_WINS_CLAIMS = 3
#: 四杠和: kongs on the table (by two or more seats) that start the draw
FOUR_KONGS = 4
#: 四风连和: the first discards of the hand, one per seat from the dealer on, all one wind
FOUR_WINDS_DISCARDS = 4


def four_winds(v: TableView) -> bool:
    """The dealer's first discard is a wind and the next three seats each follow with the same
    wind: judged when the fourth discard's claim window closes with no call."""
    if v.stage != "claims_closed" or v.discards_made != FOUR_WINDS_DISCARDS:
        return False
    if any(m.kind is not MeldKind.CONCEALED_KONG for ms in v.melds for m in ms):
        return False
    seats = tuple(s for s, _ in v.discard_log)
    kinds = {t for _, t in v.discard_log}
    order = tuple((v.dealer + k) % 4 for k in range(FOUR_WINDS_DISCARDS))
    return seats == order and len(kinds) == 1 and T.is_wind(next(iter(kinds)))


def four_kongs(v: TableView) -> bool:
    """Four kongs by two or more seats (one seat's four kongs do not count): the hand is a
    draw once a discard after the fourth kong is not won on (its claim window closes with no
    call), and also when the fourth konger wins on its replacement tile (杠上开花). Robbing the
    fourth kong is a win."""
    if len(v.kongs) < FOUR_KONGS or len({s for s, _ in v.kongs[:FOUR_KONGS]}) < 2:
        return False
    konger, before = v.kongs[FOUR_KONGS - 1]
    if v.stage == "claims_closed":
        return v.discards_made > before
    if v.stage == "before_win":
        return v.event_seat == konger and v.discards_made == before
    return False


def three_wins(v: TableView) -> bool:
    """Three seats declare a win on one discard (judged from the discard's claims)."""
    if v.stage != "event" or v.event_type != "discard":
        return False
    winners = {s for s, call in v.claims if call == "win" and s != v.event_seat}
    return len(winners) >= THREE_WINS_CLAIMS


def nine_terminals(v: TableView) -> bool:
    """九么九和, declared from the first hand: the log ends with the seat to play (after its first
    draw; the dealer after the deal) holding nine or more different terminal/honour kinds,
    before its first discard and with no set called or kong declared in the hand."""
    if v.stage != "log_end" or v.phase != ACT:
        return False
    if any(v.melds) or any(s == v.turn for s, _ in v.discard_log):
        return False
    kinds = {t for t in v.concealed[v.turn] if T.is_terminal_or_honour(t)}
    return len(kinds) >= NINE_TERMINALS_KINDS


DETECTORS: dict[str, Callable[[TableView], bool]] = {
    "four_winds": four_winds,
    "four_kongs": four_kongs,
    "three_wins": three_wins,
    "nine_terminals": nine_terminals,
}


def abortive_draw(v: TableView, enabled: frozenset[str]) -> str | None:
    """The first enabled abortive draw that ends the hand here (its option value), or None."""
    for name, detect in DETECTORS.items():
        if name in enabled and detect(v):
            return name
    return None
