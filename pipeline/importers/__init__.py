"""Platform importers. ``IMPORTERS`` maps a ``--from`` name to an importer instance.

See docs/importers.md for the formats and their mapping onto mahjong-log/1.
"""

from __future__ import annotations

from mahjong_audit.pipeline.importers.base import Importer, ImportFailure, OverLimit, Record
from mahjong_audit.pipeline.importers.botzone_json import BotzoneJson
from mahjong_audit.pipeline.importers.botzone_txt import BotzoneTxt
from mahjong_audit.pipeline.importers.pmn import Pmn
from mahjong_audit.pipeline.importers.tziakcha import Tziakcha

IMPORTERS: dict[str, Importer] = {imp.name: imp for imp in (BotzoneTxt(), BotzoneJson(), Pmn(), Tziakcha())}


def detect(source: str, head: str) -> str | None:
    """Name of the importer that recognises this file, or None (then it is mahjong-log/1)."""
    for name, imp in IMPORTERS.items():
        if imp.sniff(source, head):
            return name
    return None


__all__ = ["IMPORTERS", "Importer", "ImportFailure", "OverLimit", "Record", "detect"]
