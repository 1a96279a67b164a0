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

from mahjong_audit.engine.errors import InvalidData
from mahjong_audit.pipeline.lines import Line


class ImportFailure(InvalidData):
    """A source record the importer cannot turn into a game."""


@dataclass(frozen=True, slots=True)
class Record:
    source: str  # file path or URL as given
    line: int  # 1-based line where the record starts
    text: str


@dataclass(frozen=True, slots=True)
class OverLimit:
    """A record read past because it is over the size limit (``--max-record-bytes``):
    where it starts and its size, its lines' bytes each with its newline."""

    source: str
    line: int
    size: int


def _record(source: str, start: int, parts: list[str] | None, size: int) -> Record | OverLimit:
    return OverLimit(source, start, size) if parts is None else Record(source, start, "\n".join(parts))


def whole_document(source: str, lines: Iterable[Line]) -> Record | OverLimit | None:
    """A file that is one document: its record from the line of its first text on, or
    None if it is blank; an :class:`OverLimit` if any of its lines was read past."""
    start: int | None = None
    parts: list[str] | None = []
    size = 0
    for line in lines:
        if start is None:
            if line.blank:
                continue
            start = line.number
        size += line.size + 1
        if line.text is None:
            parts = None
        elif parts is not None:
            parts.append(line.text)
    return None if start is None else _record(source, start, parts, size)


def json_of(record: Record) -> Any:
    """A record that is one JSON document, decoded; raises ImportFailure naming the line."""
    try:
        return json.loads(record.text)
    except json.JSONDecodeError as e:
        raise ImportFailure(f"not valid JSON: {e.msg} (line {e.lineno})") from None


def blank_line_blocks(source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
    """Records separated by blank lines (each starting at the line of its first text, its
    lines stripped); an :class:`OverLimit` for one with a line read past."""
    start: int | None = None
    block: list[str] | None = []
    size = 0
    for line in lines:
        if line.blank:
            if start is not None:
                yield _record(source, start, block, size)
            block, start, size = [], None, 0
            continue
        if start is None:
            start = line.number
        size += line.size + 1
        if line.text is None:
            block = None
        elif block is not None:
            block.append(line.text.strip())
    if start is not None:
        yield _record(source, start, block, size)


class Importer(ABC):
    name: str  # e.g. "botzone-txt"
    suffixes: tuple[str, ...] = ()  # file name endings it claims (before .gz)

    @abstractmethod
    def records(self, source: str, lines: Iterable[Line]) -> Iterator[Record | OverLimit]:
        """Split a file, given as its :class:`~mahjong_audit.pipeline.lines.Line` s, into
        records. A line without its text was read past (over the size limit): the record
        holding it is an :class:`OverLimit` (:func:`whole_document` and
        :func:`blank_line_blocks` do this)."""

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
