"""The ``score`` command's work on a line around the ruleset, compiled with the engine.

Three pieces of ``mahjong-audit score`` (mahjong_audit/pipeline/commands/score.py) that run on
every line: a meld's shape check (:func:`meld_shape_problem`, :func:`melds_shaped`), the engine's
situation of a validated line's fields (:func:`situation_of`, :func:`win_situation`,
:func:`meld_of`; the models of mahjong_audit/schemas/situation.py and the fast path's Structs
call them), and a valid result's JSON text (:func:`valid_text`, :func:`items_text`). They live in the engine only so that mypyc compiles them
(mahjong_audit/accel.py): interpreted, they were about a fifth of a fresh line's instructions
(docs/performance.md, tenth round). Nothing here reads JSON or knows the models; the command
owns the protocol and its general paths (every invalid line, unusual details).

>>> win_situation(["1m", "2m"], (), "3m", True, "S", "W", [], False, False, False, None, ()).win_tile
2
"""

from __future__ import annotations

import json
from typing import Any, Final

from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, MeldKind, Score, ScoreItem, WinSituation

#: a seat or round wind's letter → the engine's wind (0 = east)
WINDS: Final[dict[str, int]] = {"E": 0, "S": 1, "W": 2, "N": 3}
#: a validated tile name → its int (the models and the fast path both checked the name against T.tile's names)
_TILE: Final[dict[str, int]] = {T.name(t): t for t in range(T.N_TILES)}
_CHI: Final = MeldKind.CHI
_PON: Final = MeldKind.PON
_KONG: Final = MeldKind.KONG
_AKONG: Final = MeldKind.CONCEALED_KONG

#: melds made by :func:`meld_of`, by their fields: a Meld is immutable and valid fields make
#: only a few thousand different ones, so each is built once per process
_MELDS: Final[dict[tuple[object, ...], Meld]] = {}
_MELDS_MAX: Final = 1 << 14


def meld_shape_problem(kind: str, tiles: list[str] | None, tile: str | None, claimed: str | None,
                       source: int | None, concealed: bool) -> str | None:
    """What is wrong with a meld's shape (the ``bad_meld`` message), or None."""
    if kind == "chi":
        if tiles is None or len(tiles) != 3:
            return "a chi needs 'tiles' (three tiles)"
        if tile is not None or concealed:
            return "a chi has 'tiles' (and 'claimed'), not 'tile' or 'concealed'"
        return None
    if tile is None:
        return f"a {kind} needs 'tile'"
    if tiles is not None:
        return f"a {kind} has 'tile', not 'tiles'"
    if concealed and kind != "kong":
        return "only a kong can be concealed"
    if concealed and (source is not None or claimed is not None):
        return "a concealed kong has no 'from' or 'claimed'"
    return None


def melds_shaped(melds: list[Any]) -> bool:
    """No meld (of the model ``MeldIn`` or the fast path's Struct) has a :func:`meld_shape_problem`."""
    for m in melds:
        if meld_shape_problem(m.type, m.tiles, m.tile, m.claimed, m.from_, m.concealed) is not None:
            return False
    return True


def meld_of(kind: str, tiles: list[str] | None, tile: str | None, claimed: str | None, source: int | None,
            concealed: bool) -> Meld:
    """The engine's meld of a validated meld's fields (of the model ``MeldIn`` or the fast path's Struct)."""
    key = (kind, tuple(tiles) if tiles else None, tile, claimed, source, concealed)
    meld = _MELDS.get(key)
    if meld is None:
        meld = _new_meld(kind, tiles, tile, claimed, source, concealed)
        if len(_MELDS) < _MELDS_MAX:
            _MELDS[key] = meld
    return meld


def _new_meld(kind: str, tiles: list[str] | None, tile: str | None, claimed: str | None, source: int | None,
              concealed: bool) -> Meld:
    if kind == "chi":
        ts = tuple(sorted([_TILE[t] for t in tiles or ()]))
        return Meld(_CHI, ts, _TILE[claimed] if claimed else ts[0], source or 1)
    t = _TILE[tile or ""]
    got = _TILE[claimed] if claimed else t
    if kind == "pon":
        return Meld(_PON, (t, t, t), got, source or 1)
    if concealed:
        return Meld(_AKONG, (t, t, t, t))
    return Meld(_KONG, (t, t, t, t), got, source or 1)


def win_situation(concealed: list[str], melds: tuple[Meld, ...], win_tile: str, self_drawn: bool, seat_wind: str,
                  round_wind: str, flowers: list[str], last_tile: bool, kong: bool, last_copy: bool,
                  replacement: str | None, extra: tuple[tuple[str, object], ...]) -> WinSituation:
    """The engine's situation of a validated situation's fields; ``extra`` is the parsed
    ``ruleset_fields``, which the ``replacement`` kind joins (the rulesets read it from there)."""
    if replacement is not None:
        extra = tuple(sorted((*extra, ("replacement", replacement))))
    names = _TILE
    return WinSituation(
        tuple([names[t] for t in concealed]), melds, names[win_tile], self_drawn, WINDS[seat_wind],
        WINDS[round_wind], tuple([names[t] for t in flowers]) if flowers else (), last_tile,
        kong or (self_drawn and replacement == "kong"), last_copy, extra,
    )


def situation_of(s: Any, extra: tuple[tuple[str, object], ...]) -> WinSituation:
    """:func:`win_situation` of a validated situation (the model ``Situation`` or the fast path's
    Struct: the same field names), its melds by :func:`meld_of`; ``extra`` is its parsed ``ruleset_fields``."""
    ms = s.melds
    melds: tuple[Meld, ...] = ()
    if ms:
        melds = tuple([meld_of(m.type, m.tiles, m.tile, m.claimed, m.from_, m.concealed) for m in ms])
    return win_situation(s.concealed, melds, s.win_tile, s.self_drawn, s.seat_wind, s.round_wind, s.flowers,
                         s.last_tile, s.kong, s.last_copy, s.replacement, extra)


# --------------------------------------------------------------------------- a valid result's text

#: ``json.dumps(result, ensure_ascii=False)`` without building an encoder for every line
ENCODE: Final = json.JSONEncoder(ensure_ascii=False).encode
#: how that encoder writes a string
STR: Final = json.encoder.encode_basestring
#: the keys a result object sets itself: details under these names take the command's general path
OWN_KEYS: Final = frozenset(("id", "valid", "fans", "items", "total", "below_minimum"))
#: the detail values a result carries
SCALARS: Final = (int, str, bool, float)

_ITEM_TEXT_MAX: Final = 1 << 14
#: an item's text by its fields
_ITEM_TEXT: Final[dict[tuple[str, str | None, int, int], str]] = {}
#: per ``with_unit``: id of an item → (the item, its text)
_ITEM_TEXT_BY_ID: Final[tuple[dict[int, tuple[ScoreItem, str]], dict[int, tuple[ScoreItem, str]]]] = ({}, {})
#: per ``with_unit``: id of a tuple of items → (the tuple, its text)
_ITEMS_TEXT_BY_ID: Final[tuple[dict[int, tuple[tuple[ScoreItem, ...], str]],
                               dict[int, tuple[tuple[ScoreItem, ...], str]]]] = ({}, {})
#: ``'"key": '`` of each result key seen (the keys of results are a small fixed set)
_KEY_TEXT: Final[dict[str, str]] = {}


def item_plain(i: ScoreItem, with_unit: bool) -> dict[str, Any]:
    """One item as a result lists it: under ``fans`` (name, value, count) or ``items`` (with the unit)."""
    if with_unit:
        return {"name": i.name, "unit": i.unit, "value": i.value, "count": i.count}
    return {"name": i.name, "value": i.value, "count": i.count}


def items_text(items: tuple[ScoreItem, ...], with_unit: bool) -> str:
    """The JSON of the items' :func:`item_plain` list, each item's text encoded once per process.

    The calculators hand out one object per distinct item (their memos), so an item is looked up
    by its identity first (the entry holds the item, so its id is not reused while cached), then
    by its fields. A whole breakdown is looked up by its identity before that: MCR's fan
    calculator hands out the same tuple of items for every hand of the same fans (its memo)."""
    whole = _ITEMS_TEXT_BY_ID[1 if with_unit else 0]
    got_all = whole.get(id(items))
    if got_all is not None and got_all[0] is items:
        return got_all[1]
    out: list[str] = []
    seen = _ITEM_TEXT_BY_ID[1 if with_unit else 0]
    for i in items:
        got = seen.get(id(i))
        if got is not None and got[0] is i:
            out.append(got[1])
            continue
        key = (i.name, i.unit if with_unit else None, i.value, i.count)
        t = _ITEM_TEXT.get(key)
        if t is None:
            t = ENCODE(item_plain(i, with_unit))
            if len(_ITEM_TEXT) < _ITEM_TEXT_MAX:
                _ITEM_TEXT[key] = t
        if len(seen) < _ITEM_TEXT_MAX:
            seen[id(i)] = (i, t)
        out.append(t)
    text = "[" + ", ".join(out) + "]"
    if len(whole) >= _ITEM_TEXT_MAX:
        whole.clear()  # one-off tuples (a breakdown with flowers is built per hand) are not kept for ever
    whole[id(items)] = (items, text)
    return text


def key_text(k: str) -> str:
    """``'"key": '``, each key encoded once per process."""
    key = _KEY_TEXT.get(k)
    if key is None:
        key = STR(k) + ": "
        if len(_KEY_TEXT) < _ITEM_TEXT_MAX:
            _KEY_TEXT[k] = key
    return key


def value_text(v: object) -> str:
    """A result value as :data:`ENCODE` writes it."""
    if type(v) is str:
        return STR(v)
    if type(v) is int:
        return str(v)
    if type(v) is bool:
        return "true" if v else "false"
    return ENCODE(v)


def valid_text(score: Score, ruleset: Any, ident: object) -> str | None:
    """A valid result's text, as ``ENCODE`` writes the command's result object (ident, ``valid``, the
    breakdown under the ruleset's ``result_list``, its ``result_details``, the score's scalar details,
    ``total``, ``below_minimum``); None when a detail is under a key the result sets itself (the
    command's general path writes those)."""
    details: tuple[tuple[str, object], ...] = ruleset.result_details
    with_unit = ruleset.result_list != "fans"
    own = score.details
    if not details and len(own) == 1 and type(own[0][1]) is str and own[0][0] not in OWN_KEYS:
        # one string detail (MCR's decomposition) and no ruleset details: what the general path below writes
        head = "{" if ident is None else '{"id": ' + value_text(ident) + ", "
        listing = '"items": ' if with_unit else '"fans": '
        end = ', "below_minimum": true}' if score.below_minimum else "}"
        return f'{head}"valid": true, {listing}{items_text(score.items, with_unit)}, ' \
            f'{key_text(own[0][0])}{STR(own[0][1])}, "total": {value_text(score.total)}{end}'
    extra: dict[str, object] | None = dict(details) if details else None
    for key, value in own:
        if isinstance(value, SCALARS):
            if extra is None:
                extra = {}
            extra[key] = value
    if extra is not None and not OWN_KEYS.isdisjoint(extra):
        return None
    parts = ['"valid": true', ('"items": ' if with_unit else '"fans": ') + items_text(score.items, with_unit)]
    if ident is not None:
        parts.insert(0, '"id": ' + value_text(ident))
    if extra:
        for key, value in extra.items():
            parts.append(key_text(key) + value_text(value))
    parts.append('"total": ' + value_text(score.total))
    if score.below_minimum:
        parts.append('"below_minimum": true')
    return "{" + ", ".join(parts) + "}"


__all__ = ["ENCODE", "OWN_KEYS", "SCALARS", "STR", "WINDS", "item_plain", "items_text", "key_text", "meld_of",
           "meld_shape_problem", "melds_shaped", "situation_of", "valid_text", "value_text", "win_situation"]
