"""Platform importers. ``IMPORTERS`` maps a ``--from`` name to an importer instance."""

from __future__ import annotations

from pipeline.importers.base import Importer, ImportFailure, Record

IMPORTERS: dict[str, Importer] = {}


def detect(source: str, head: str) -> str | None:
    """Name of the importer that recognises this file, or None (then it is mahjong-log/1)."""
    for name, imp in IMPORTERS.items():
        if imp.sniff(source, head):
            return name
    return None


__all__ = ["IMPORTERS", "Importer", "ImportFailure", "Record", "detect"]
