"""The engine's value objects write their own ``__init__`` (compiled, native; the one ``dataclasses``
generates stays interpreted): engine/hand.py's, the per-hand ones of engine/result.py,
engine/ruleset.py and engine/chances.py, the decompositions' parts, 龙港's readings,
wilds and winner contexts, and 广东's shapes. It must take the
fields, in order, with their defaults, and leave the dataclass behaviour as it was (equality,
hashing, repr, ``fields``, ``replace``, immutability, pickling), on either engine."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from mahjong_audit import accel
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.chances import Chances
from mahjong_audit.engine.decompose import Part
from mahjong_audit.engine.findings import Finding
from mahjong_audit.engine.hand import Meld, MeldKind, Score, ScoreItem, WinSituation
from mahjong_audit.engine.replay import SeatState, WinRecordInternal
from mahjong_audit.engine.result import GameAudit, HandFacts, WinFacts
from mahjong_audit.engine.ruleset import HandEnd, SeatEnd, Settlement, WinEnd
from mahjong_audit.engine.rulesets.guangdong import _Shape
from mahjong_audit.engine.rulesets.longgang_readings import Reading
from mahjong_audit.engine.rulesets.longgang_score import Wilds, WinnerContext

SITUATION = WinSituation(T.parse("123m456p789s1z"), (Meld.pon(T.tile("5z")),), T.tile("1z"), False, 1, 0,
                         (), False, False, False, ())
SCORE = Score((ScoreItem("碰碰和", 6),), 6)
CHANCES = Chances(tuple(range(16)), (0,) * 16, (1,) * 16, (2,) * 16)
WIN_FACTS = WinFacts(1, 2, "1z", "discard", False, True, SCORE, 8)
HAND_FACTS = HandFacts(3, 1, "E", "win", (WIN_FACTS,), (), (8, -8, 0, 0), None, (ScoreItem("x", 1, seat=1),), 40, 0,
                       None, ("a", "b", "c", "d"), (), None, None, (0, 0, 0, 0), None, None, CHANCES)
SEAT_END = SeatEnd(2, T.parse("123m"), (Meld.pon(T.tile("5z")),), (T.tile("1f"),), frozenset({T.tile("1z")}), False)
WIN_END = WinEnd(1, None, SITUATION, SCORE)
FLOWERED = WinSituation(T.parse("123m456p789s1z"), (Meld.pon(T.tile("5z")),), T.tile("1z"), False, 1, 0,
                        (T.tile("1f"),), False, False, True, (("seat", 1),))
EXAMPLES = [
    Meld(MeldKind.CHI, (0, 1, 2), 1, 1),
    Meld.kong(T.tile("7z"), 2, added=True),
    FLOWERED,
    ScoreItem("花牌", 1, 2),
    ScoreItem("门风刻", 2, unit="tai", seat=3),
    Score((ScoreItem("碰碰和", 6),), 6, True, (("decomposition", "[555z] 123m 456p 789s 11z"),)),
    CHANCES,
    WIN_FACTS,
    HAND_FACTS,
    GameAudit("g", "mcr", None, ("a", "b", "c", "d"), (HAND_FACTS,), (Finding("continuity/hand_no", "x", hand_no=2),),
              '{"x": 1}', "p", "0" * 64),
    SEAT_END,
    WIN_END,
    HandEnd(0, 1, (WIN_END,), (3,), (SEAT_END,) * 4, ((1,), (), (), ())),
    Settlement((8, -8, 0, 0), (0, 0, -1, 1), ((1, 0, 8),)),
]
WILDS = Wilds(frozenset({T.tile("5z")}), T.tile("1f"), False, T.tile("5z"))
#: built inside the engine only (not pickled): the same ``__init__`` checks, not the pickling
INNER = [Part("seq", 3, 1), _Shape("standard", (27,), (0, 9, 18), 33),
         Reading((Part("seq", 3, 1), Part("pair", None, 2)), 0, 4, True, 1, "standard"),
         WILDS, WinnerContext(WILDS, 1, 0, (("花", 4, "hu"),), ())]
CLASSES = sorted({type(e) for e in EXAMPLES + INNER}, key=lambda c: c.__name__)


def _field_values(obj: object) -> tuple[object, ...]:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_arguments_are_the_fields_in_order_with_their_defaults(cls):
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    example = next(e for e in EXAMPLES + INNER if type(e) is cls)
    obj = cls(*_field_values(example)[:len(required)])  # the defaults left out
    for f in fields[len(required):]:
        assert getattr(obj, f.name) == f.default
    if accel.active():  # a compiled __init__ has no signature to read
        return
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]


@pytest.mark.parametrize("obj", EXAMPLES + INNER, ids=lambda o: type(o).__name__)
def test_positional_keyword_and_replace_build_equal_objects(obj):
    values = _field_values(obj)
    names = [f.name for f in dataclasses.fields(obj)]
    by_keywords = type(obj)(**dict(zip(names, values, strict=True)))
    assert type(obj)(*values) == by_keywords == obj
    assert hash(by_keywords) == hash(obj)
    assert dataclasses.replace(obj) == obj
    assert dataclasses.replace(obj, **{names[0]: values[0]}) == obj


@pytest.mark.parametrize("obj", EXAMPLES[:6], ids=lambda o: type(o).__name__)
def test_hand_values_hash_as_their_fields(obj):
    """engine/hand.py's objects (every field compared) hash as the tuple of their fields, as the dataclass's do."""
    assert hash(obj) == hash(_field_values(obj))


def test_replace_changes_only_the_fields_named():
    """``dataclasses.replace`` builds through the class's own ``__init__`` (tests/test_speed_paths.py replaces a situation)."""
    changed = dataclasses.replace(FLOWERED, self_drawn=True, kong=True)
    assert (changed.self_drawn, changed.kong) == (True, True)
    assert _field_values(changed) == (*_field_values(FLOWERED)[:3], True, *_field_values(FLOWERED)[4:8], True,
                                      *_field_values(FLOWERED)[9:])


@pytest.mark.parametrize("obj", EXAMPLES + INNER, ids=lambda o: type(o).__name__)
def test_repr_is_the_dataclass_repr(obj):
    fields = ", ".join(f"{f.name}={getattr(obj, f.name)!r}" for f in dataclasses.fields(obj) if f.repr)
    assert repr(obj) == f"{type(obj).__qualname__}({fields})"


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: type(o).__name__)
def test_still_frozen_and_pickles(obj):
    name = dataclasses.fields(obj)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, name, None)
    back = pickle.loads(pickle.dumps(obj))
    assert back == obj and repr(back) == repr(obj)


def test_the_replay_state_starts_empty():
    st = SeatState(2)
    assert (st.seat, st.hand, st.melds, st.size, st.version, st.key_m, st.dead, st.passed_pon) == \
        (2, [0] * T.N_TILES, [], 0, 0, 0, None, set())
    assert SeatState(0).hand is not SeatState(0).hand  # each seat its own lists
    rec = WinRecordInternal(1, 0, 5, "discard", False, None, None, True)
    assert (rec.seat, rec.from_seat, rec.tile, rec.win_type, rec.last_tile, rec.situation, rec.score, rec.legal) == \
        (1, 0, 5, "discard", False, None, None, True)


def test_the_compiled_engine_builds_them_natively():
    """Under the compiled engine the classes' ``__init__`` is a slot wrapper, not Python code."""
    if not accel.active():
        pytest.skip("the pure engine")
    for cls in (*CLASSES, SeatState, WinRecordInternal):
        assert not inspect.isfunction(cls.__init__), cls
