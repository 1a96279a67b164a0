"""The importer interface: platform formats turned into ``mahjong-log/1`` game dicts.

An importer splits a source file into records (a record is what one rejected row would
name: file + line, or file + match id) and converts each record into zero or more game
dicts. A record it cannot understand raises :class:`ImportFailure` with a clear reason;
the pipeline turns that into a rejected row, never a crash.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


class ImportFailure(ValueError):
    """A source record the importer cannot turn into a game."""


@dataclass(frozen=True, slots=True)
class Record:
    source: str  # file path or URL as given
    line: int  # 1-based line where the record starts
    text: str


def whole_document(lines: Iterable[str]) -> tuple[int, str] | None:
    """A file that is one document: (line of its first text, its text), or None if blank."""
    start: int | None = None
    parts: list[str] = []
    for no, line in enumerate(lines, 1):
        if start is None:
            if not line.strip():
                continue
            start = no
        parts.append(line)
    return None if start is None else (start, "\n".join(parts))


def json_of(record: Record) -> Any:
    """A record that is one JSON document, decoded; raises ImportFailure naming the line."""
    try:
        return json.loads(record.text)
    except json.JSONDecodeError as e:
        raise ImportFailure(f"not valid JSON: {e.msg} (line {e.lineno})") from None


def blank_line_blocks(source: str, lines: Iterable[str]) -> Iterator[Record]:
    """Records separated by blank lines (each starting at the line of its first text)."""
    start: int | None = None
    block: list[str] = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            if block:
                yield Record(source, start or no, "\n".join(block))
            block, start = [], None
            continue
        if start is None:
            start = no
        block.append(line.strip())
    if block:
        yield Record(source, start or 1, "\n".join(block))


class Importer(ABC):
    name: str  # e.g. "botzone-txt"
    suffixes: tuple[str, ...] = ()  # file name endings it claims (before .gz)

    @abstractmethod
    def records(self, source: str, lines: Iterable[str]) -> Iterator[Record]:
        """Split a file (given as an iterator of text lines, newline stripped) into records."""

    @abstractmethod
    def convert(self, record: Record) -> list[dict[str, Any]]:
        """Turn one record into mahjong-log/1 game dicts; raise ImportFailure if it cannot."""

    def sniff(self, source: str, head: str) -> bool:
        """True if a file whose first characters are ``head`` looks like this format."""
        return False

    def notes(self, source: str, head: str) -> tuple[str, ...]:
        """What a file of this format (recognised from ``head``) cannot tell the audit, e.g.
        that it holds no wall: said once per file in the run's log, never a finding."""
        return ()
