"""msgspec Structs derived from the pydantic models: the types of the fast validation paths.

The models stay the one hand-written declaration of a format (:mod:`mahjong_audit.schemas.log`,
:mod:`mahjong_audit.schemas.situation`). :func:`derive` turns a model and every model it
holds into frozen msgspec Structs, as ``pipeline/tables.py`` derives the DDL from the row
models: one Struct per model, of the same name, with the same fields in the same order,
aliases (``from`` for ``from_``), defaults and bounds (``ge``, ``le``, ``min_length``,
``max_length``; an int bounded to a few values as their ``Literal``, :data:`FEW_INTS`), unknown fields rejected where the model forbids them, a discriminated union
of models as a tagged union of Structs (the tag is the Struct class's ``type``, as the
models' ``type`` field holds it), and the model's public methods. msgspec then decodes and
checks a JSON text in one pass (docs/performance.md has the figures).

What a type cannot say is declared by the caller, explicitly, never guessed:

- ``validators``: for each function of an ``AfterValidator`` the fast path knows, the msgspec
  type that checks it (a tile name: :data:`TILE`, the canonical names), or a looser type
  when the function is also in ``after``;
- ``after``: validators (of a field or of a model) the fast path runs itself after
  decoding, as the same code the models run (schemas/log_fast_checks.py);
- ``keep``: models the Struct holds as themselves (decoded by the model, through the
  decoder's ``dec_hook``), e.g. one that keeps unknown fields;
- ``narrow``: a field the fast path reads as another type than the model's, declining more
  (a float ``id``), keeping the JSON text (free-form objects read by ``json.loads``), or
  without a bound that a check run after decoding implies (an event's ``seq``: its ``ge=0``
  follows from the hand's seqs increasing from -1).

A field type, constraint or validator it does not know is an error at import, never a
silently looser check. msgspec is stricter than the models' lax mode (no ``"0"`` for an
int, no ``1`` for a bool): the fast paths decline such a record, and the caller validates it
with the models. :data:`MODELS_ENV` turns the fast paths off, so that everything is
validated by the models alone (the engine's own switch, ``MAHJONG_AUDIT_PURE``, is
mahjong_audit/accel.py's).
"""

from __future__ import annotations

import inspect
import os
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Annotated, Any, Literal

import annotated_types as at
import msgspec
from msgspec import Meta, Struct
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo
from pydantic.types import Strict

from mahjong_audit.engine import tiles as T

#: set (to anything but the empty string): validate with the pydantic models only, the fast
#: paths (mahjong_audit.schemas.log_fast, mahjong_audit.schemas.situation_fast) declining every record
MODELS_ENV = "MAHJONG_AUDIT_MODELS"

if typing.TYPE_CHECKING:  # a Literal built at run time is no type to the checker
    TILE: Any = str
else:
    TILE = Literal[tuple(T.name(t) for t in range(T.N_TILES))]  # the canonical tile names

#: the bounds of annotated_types (pydantic's Field(ge=…, min_length=…)) as msgspec.Meta's arguments
_BOUNDS: Mapping[type, str] = types.MappingProxyType({
    at.Ge: "ge", at.Le: "le", at.Gt: "gt", at.Lt: "lt", at.MinLen: "min_length", at.MaxLen: "max_length",
})
_PLAIN = (str, int, float, bool, Any, type(None))
#: an int bounded on both sides to fewer values than this (a seat: ``ge=0, le=3``) is derived as the
#: ``Literal`` of those ints: the same JSON values accepted (an int, not a float or a bool, in range),
#: looked up in msgspec's table of them instead of compared with two bounds (a constrained int costs
#: ~70 instructions more; an MCR hand holds ~290 seats: ~17 k instructions a hand of the decode)
FEW_INTS = 8


def models_only() -> bool:
    """True when :data:`MODELS_ENV` asks for the models alone."""
    return bool(os.environ.get(MODELS_ENV))


class UnsupportedField(TypeError):
    """A model field, constraint or validator the derivation cannot express."""


def derive(root: type[BaseModel], *, module: str,
           validators: Mapping[Callable[..., Any], object] | None = None,
           after: Collection[object] = (),
           keep: Collection[type[BaseModel]] = (),
           narrow: Mapping[tuple[type[BaseModel], str], tuple[object, object]] | None = None,
           ) -> dict[type[BaseModel], type[Struct]]:
    """The Struct of ``root`` and of every model it holds, by model. ``module`` is where the
    caller binds each Struct under its name (so that they pickle). ``narrow`` maps
    ``(model, field)`` to ``(type, default)``; the default ``...`` keeps the model's."""
    return _Derivation(module, validators or {}, frozenset(after), frozenset(keep), narrow or {}).run(root)


class _Derivation:
    def __init__(self, module: str, validators: Mapping[Callable[..., Any], object], after: frozenset,
                 keep: frozenset, narrow: Mapping[tuple[type[BaseModel], str], tuple[object, object]]) -> None:
        self.module, self.validators, self.after, self.keep, self.narrow = module, validators, after, keep, narrow
        self.structs: dict[type[BaseModel], type[Struct]] = {}

    def run(self, root: type[BaseModel]) -> dict[type[BaseModel], type[Struct]]:
        self.struct(root)
        unused = [f"{m.__name__}.{f}" for m, f in self.narrow if m not in self.structs or f not in m.model_fields]
        if unused:
            raise UnsupportedField(f"narrowed fields that no derived model has: {', '.join(sorted(unused))}")
        return dict(self.structs)

    def struct(self, model: type[BaseModel], tag_field: str | None = None) -> type[Struct]:
        if model in self.structs:
            return self.structs[model]
        config = model.model_config
        if config.get("extra") != "forbid":
            raise UnsupportedField(f"{model.__name__}: extra={config.get('extra')!r} (keep it as a model)")
        decorators = model.__pydantic_decorators__
        validators: list[tuple[str, Any]] = [*decorators.model_validators.items(),
                                             *decorators.field_validators.items()]
        for name, dec in validators:
            if dec.func not in self.after:
                raise UnsupportedField(f"{model.__name__}.{name}: a validator the fast path does not run")
        fields: list[tuple[Any, ...]] = []
        tag = None
        for name, info in model.model_fields.items():
            where = f"{model.__name__}.{name}"
            if name == tag_field:  # the union's tag: the class's, not a field
                (tag,) = typing.get_args(info.annotation)
                continue
            tp, default = self.narrow.get((model, name), (None, ...))
            if tp is None:
                tp = self.annotated(info.annotation, info.metadata, where)
            if default is ...:
                default = (msgspec.NODEFAULT if info.is_required() else
                           info.default if info.default_factory is None else msgspec.UNSET)
            kw: dict[str, Any] = {"name": info.alias} if info.alias and info.alias != name else {}
            if default is msgspec.UNSET:
                kw["default_factory"] = info.default_factory
            elif default is not msgspec.NODEFAULT:
                kw["default"] = default
            fields.append((name, tp, msgspec.field(**kw)) if kw else (name, tp))
        namespace: dict[str, Any] = {
            k: v for k, v in vars(model).items() if inspect.isfunction(v) and not k.startswith("_")}
        options: dict[str, Any] = {}
        if tag is not None:
            namespace["type"] = tag
            options.update(tag_field=tag_field, tag=tag)
        namespace["__doc__"] = f"The fast path's {model.__name__}: derived from the model (schemas/fast_structs.py)."
        cls = msgspec.defstruct(model.__name__, fields, module=self.module, namespace=namespace,
                                frozen=bool(config.get("frozen")), forbid_unknown_fields=True, kw_only=True,
                                gc=False, **options)
        self.structs[model] = cls
        return cls

    def type(self, tp: Any, where: str, discriminator: str | None = None) -> object:
        if tp in _PLAIN:
            return tp
        origin = typing.get_origin(tp)
        if origin is Annotated:
            base, *meta = typing.get_args(tp)
            return self.annotated(base, meta, where)
        if origin is Literal:
            return tp
        if origin in (typing.Union, types.UnionType):
            args = tuple(self.type(a, where, discriminator) for a in typing.get_args(tp))
            return typing.Union[args]  # noqa: UP007  a union built at run time
        if origin is list:
            (item,) = typing.get_args(tp)
            return list[self.type(item, where)]  # type: ignore[misc]
        if origin is dict:
            key, value = typing.get_args(tp)
            return dict[self.type(key, where), self.type(value, where)]  # type: ignore[misc]
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in self.keep:
                return tp
            return self.struct(tp, discriminator)
        raise UnsupportedField(f"{where}: type {tp!r}")

    def annotated(self, base: Any, metadata: Collection[Any], where: str) -> object:
        """``base`` under pydantic's metadata (bounds, validators, a nested Field's)."""
        bounds: dict[str, Any] = {}
        discriminator = None
        for m in _flat(metadata):
            if isinstance(m, FieldInfo):
                if m.discriminator is not None:
                    if not isinstance(m.discriminator, str):
                        raise UnsupportedField(f"{where}: a callable discriminator")
                    discriminator = m.discriminator
            elif type(m) in _BOUNDS:
                bounds[_BOUNDS[type(m)]] = getattr(m, _BOUNDS[type(m)])
            elif isinstance(m, AfterValidator):
                if m.func not in self.validators:
                    raise UnsupportedField(f"{where}: validator {m.func.__qualname__} has no msgspec type")
                if self.validators[m.func] == base and m.func not in self.after:
                    raise UnsupportedField(f"{where}: validator {m.func.__qualname__} neither typed nor run after")
                base = self.validators[m.func]
            elif isinstance(m, Strict):
                pass  # msgspec is strict
            else:
                raise UnsupportedField(f"{where}: constraint {m!r}")
        tp = self.type(base, where, discriminator)
        if tp is int and bounds.keys() == {"ge", "le"} and 0 <= bounds["le"] - bounds["ge"] < FEW_INTS:
            return Literal[tuple(range(bounds["ge"], bounds["le"] + 1))]  # a seat: see FEW_INTS
        return Annotated[tp, Meta(**bounds)] if bounds else tp


def _flat(metadata: Collection[Any]) -> list[Any]:
    """Pydantic's metadata with each nested Field's own metadata after it."""
    out: list[Any] = []
    for m in metadata:
        out.append(m)
        if isinstance(m, FieldInfo):
            out += _flat(m.metadata)
    return out


__all__ = ["FEW_INTS", "MODELS_ENV", "TILE", "UnsupportedField", "derive", "models_only"]
