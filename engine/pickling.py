"""Pickling of the engine's frozen dataclasses, compiled or not.

A frozen dataclass compiled by mypyc (mahjong_audit/accel.py) is a native class: pickle's
default way back, an empty instance whose fields are then set one by one, meets the frozen
``__setattr__`` and fails. A Beam runner pickles whatever crosses a stage boundary (a
Flink, Spark or Dataflow worker may split stages where the local runner fuses them), so
every result object must survive it on both engines. :func:`by_fields` registers a class
with :mod:`copyreg` (which pickle and cloudpickle both consult): it is rebuilt by calling
the class with its fields in order, through its own ``__init__`` and checks.

>>> from mahjong_audit.engine.findings import Finding
>>> import pickle
>>> f = Finding("continuity/hand_no", "hand 2 follows hand 0", hand_no=2)
>>> pickle.loads(pickle.dumps(f)) == f
True
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any


def _rebuild(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


def by_fields(*classes: type) -> None:
    """Pickle instances of ``classes`` (frozen dataclasses whose fields are all ``__init__``
    arguments) as a call of the class with their fields."""
    for cls in classes:
        copyreg.pickle(cls, _rebuild)


__all__ = ["by_fields"]
