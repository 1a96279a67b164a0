"""The value objects of engine/hand.py write their own ``__init__`` (mypyc compiles it; the one
``dataclasses`` generates stays interpreted): it must take the fields, in order, with their
defaults, and leave the dataclass behaviour as it was: equality, hashing, repr, ``fields``,
``dataclasses.replace``, immutability and pickling, on either engine."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from mahjong_audit import accel
from mahjong_audit.engine import tiles as T
from mahjong_audit.engine.hand import Meld, MeldKind, Score, ScoreItem, WinSituation

SITUATION = WinSituation(T.parse("123m456p789s1z"), (Meld.pon(T.tile("5z")),), T.tile("1z"), False, 1, 0,
                         (T.tile("1f"),), False, False, True, (("seat", 1),))
EXAMPLES = [
    Meld(MeldKind.CHI, (0, 1, 2), 1, 1),
    Meld.kong(T.tile("7z"), 2, added=True),
    SITUATION,
    ScoreItem("花牌", 1, 2),
    ScoreItem("门风刻", 2, unit="tai", seat=3),
    Score((ScoreItem("碰碰和", 6),), 6, True, (("decomposition", "[555z] 123m 456p 789s 11z"),)),
]


def _field_values(obj: object) -> tuple[object, ...]:
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [Meld, WinSituation, ScoreItem, Score])
def test_init_arguments_are_the_fields_in_order_with_their_defaults(cls):
    fields = dataclasses.fields(cls)
    if accel.active():  # a compiled __init__ has no signature to read: call it with the defaults left out
        required = [f for f in fields if f.default is dataclasses.MISSING]
        example = next(e for e in EXAMPLES if type(e) is cls)
        obj = cls(*_field_values(example)[:len(required)])
        for f in fields[len(required):]:
            assert getattr(obj, f.name) == f.default
        return
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: type(o).__name__)
def test_positional_keyword_and_replace_build_equal_objects(obj):
    values = _field_values(obj)
    names = [f.name for f in dataclasses.fields(obj)]
    by_keywords = type(obj)(**dict(zip(names, values, strict=True)))
    assert type(obj)(*values) == by_keywords == obj
    assert hash(by_keywords) == hash(obj) == hash(values)  # the dataclass's hash: of the fields' tuple
    assert dataclasses.replace(obj) == obj
    assert dataclasses.replace(obj, **{names[0]: values[0]}) == obj


def test_replace_changes_only_the_fields_named():
    """``dataclasses.replace`` builds through the class's own ``__init__`` (tests/test_speed_paths.py replaces a situation)."""
    changed = dataclasses.replace(SITUATION, self_drawn=True, kong=True)
    assert (changed.self_drawn, changed.kong) == (True, True)
    assert _field_values(changed) == (*_field_values(SITUATION)[:3], True, *_field_values(SITUATION)[4:8], True,
                                      *_field_values(SITUATION)[9:])


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: type(o).__name__)
def test_repr_is_the_dataclass_repr(obj):
    fields = ", ".join(f"{f.name}={getattr(obj, f.name)!r}" for f in dataclasses.fields(obj))
    assert repr(obj) == f"{type(obj).__qualname__}({fields})"


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: type(o).__name__)
def test_still_frozen_and_pickles(obj):
    name = dataclasses.fields(obj)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, name, None)
    back = pickle.loads(pickle.dumps(obj))
    assert back == obj and repr(back) == repr(obj)


def test_the_compiled_engine_builds_them_natively():
    """Under the compiled engine the classes' ``__init__`` is a slot wrapper, not Python code."""
    if not accel.active():
        pytest.skip("the pure engine")
    for cls in (Meld, WinSituation, ScoreItem, Score):
        assert not inspect.isfunction(cls.__init__), cls
