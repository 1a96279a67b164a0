"""Counted nouns in output: ``1 file``, ``2 files``, ``1 later copy``, ``12,000 hands``."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``count(1, "file")`` is ``'1 file'``,
    ``count(3, "later copy", "later copies")`` is ``'3 later copies'``; thousands are
    separated (``'12,000 hands'``)."""
    return f"{n:,} {one if n == 1 else (many if many is not None else one + 's')}"
