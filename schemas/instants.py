"""Points in time as logs write them: ISO 8601 date-times or plain dates.

A log's ``started_at`` is a string. It must be an ISO 8601 date-time
(``2026-11-01T12:00:00Z``, ``2026-11-01T20:00:00+08:00``, ``2026-11-01 12:00``) or a plain
date (``2026-11-01``). A date-time without an offset is taken as UTC, and so is a plain
date (its midnight). The tables store the instant as a timestamp with time zone.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from mahjong_audit.engine.errors import InvalidData

# A plain date, or a date and time with optional seconds, fraction and offset. Python's
# fromisoformat alone also accepts week dates and compact forms; logs use this subset.
_ISO = re.compile(
    r"\d{4}-\d{2}-\d{2}"
    r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)


class InstantError(InvalidData):
    """A string that is not an ISO 8601 date-time or date."""


def parse_instant(text: str) -> datetime:
    """The UTC instant a log's time string names.

    >>> parse_instant("2026-11-01T20:00:00+08:00").isoformat()
    '2026-11-01T12:00:00+00:00'
    >>> parse_instant("2022-06-25").isoformat()
    '2022-06-25T00:00:00+00:00'
    >>> parse_instant("2026-11-01 12:30Z").isoformat()
    '2026-11-01T12:30:00+00:00'
    """
    if not isinstance(text, str) or not _ISO.fullmatch(text):
        raise InstantError(f"{text!r} is not an ISO 8601 date-time (2026-11-01T12:00:00Z) or date (2026-11-01)")
    try:
        if len(text) == 10:
            moment = datetime.combine(date.fromisoformat(text), datetime.min.time())
        else:
            moment = datetime.fromisoformat(text)
    except ValueError as e:
        raise InstantError(f"{text!r}: {e}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def check_instant(text: str) -> str:
    """Pydantic validator: keep the string as written once it is known to parse."""
    parse_instant(text)
    return text


def object_id_time(hex_id: str) -> str | None:
    """The creation time inside a MongoDB ObjectId (its first four bytes, Unix seconds).

    Botzone's match ids are ObjectIds.

    >>> object_id_time("6a201f5a0000000000000000")
    '2026-06-03T12:34:34Z'
    >>> object_id_time("not-an-id") is None
    True
    """
    if not isinstance(hex_id, str) or not re.fullmatch(r"[0-9a-fA-F]{24}", hex_id):
        return None
    seconds = int(hex_id[:8], 16)
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
