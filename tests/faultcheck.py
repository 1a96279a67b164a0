"""Whether a labelled fault of the simulator's fault injection is found (not a test: shared by the
fault-injection tests of every ruleset and the 龙港 session tests)."""

from __future__ import annotations

import json

from pydantic import ValidationError

from mahjong_audit.engine.audit import audit_game
from mahjong_audit.schemas.log import Game


def found(records: tuple, kind: str, code: str, hand_no: int | None) -> bool:
    """Is the labelled fault found where the auditor (or the pipeline) looks for it?"""
    if kind == "duplicate_game":
        return len(records) == 2 and records[0]["game_id"] == records[1]["game_id"]
    if kind == "invalid_log":
        rec = records[0]
        try:
            Game.model_validate(json.loads(rec) if isinstance(rec, str) else rec)
        except json.JSONDecodeError:
            return code == "invalid_log/json"
        except ValidationError:
            return code == "invalid_log/schema"
        return False
    audit = audit_game(Game.model_validate(records[0]))
    return any(f.kind == kind and f.code == code and (hand_no is None or f.hand_no == hand_no)
               for f in audit.findings)
