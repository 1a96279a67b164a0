"""The run's staging folder: Parquet files written by the workers, listed by a manifest.

Layout under ``<staging>`` (a FileSystems path: local, gs://, …)::

    tables/<table>/<uuid>.parquet   written by workers, one file per table per writer and bundle,
                                    with the columns of tables.STAGING_SCHEMAS
    manifest.json                   {table: [file, …]}: the files of bundles that committed
    progress/                       progress markers (mahjong_audit.pipeline.progress)

A worker writes its rows (the named tuples of ``mahjong_audit.pipeline.rows``, in their table's column
order) in row groups of at most ``batch_rows`` rows while it goes, one Arrow array per
column made from the buffered tuples at once (the source columns, from one value per record), so
neither a worker nor the runner holds more than one batch per table. The driver loads
only the files named by the manifest, which the pipeline writes last from the file names
its bundles *output*: a bundle that failed and was retried leaves files behind, but they
are never named, so no row is loaded twice.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from itertools import accumulate, groupby
from types import MappingProxyType
from typing import BinaryIO

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mahjong_audit.pipeline.errors import ManifestMissing
from mahjong_audit.pipeline.rows import VALUES_OF_TABLE, Row
from mahjong_audit.pipeline.tables import STAGING_SCHEMAS

TABLES_DIR = "tables"
MANIFEST = "manifest.json"
BATCH_ROWS = 4096
# no column statistics: the load reads every staged row, and they cost a third of the writing
PARQUET_OPTIONS: Mapping[str, object] = MappingProxyType({"write_statistics": False})
_TABLE_OF = {values: name for name, values in VALUES_OF_TABLE.items()}


def _source_columns(table: str) -> tuple[int, ...]:
    """Which of (source_file, source_line, source_shard_start) a table's staged rows get
    from their record's position: the staging columns after the row's own."""
    own = len(VALUES_OF_TABLE[table]._fields)
    extra = STAGING_SCHEMAS[table].names[own:]
    return tuple(("source_file", "source_line", "source_shard_start").index(name) for name in extra)


# table -> positions in (file, line, shard start) of the source columns its rows lack
SOURCE_COLUMNS = {table: _source_columns(table) for table in STAGING_SCHEMAS}


def _runs(values: Iterable, run_ends: pa.Array, type: pa.DataType) -> pa.Array:
    """A column holding each of ``values`` over its run of rows (the runs ending at ``run_ends``):
    Arrow repeats the values, one per run converted from Python, not one per row."""
    return pc.run_end_decode(pa.RunEndEncodedArray.from_arrays(run_ends, pa.array(values, type=type)))


def _fs():
    from apache_beam.io.filesystems import FileSystems

    return FileSystems


def table_dir(staging: str, table: str) -> str:
    return _fs().join(staging, TABLES_DIR, table)


class TableWriter:
    """Worker side: rows in, Parquet files out (one per table that got rows).

    Not thread-safe and never shared: one instance per DoFn bundle.
    """

    def __init__(self, staging: str, batch_rows: int = BATCH_ROWS):
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        self.staging, self.batch_rows = staging, batch_rows
        # table -> its buffered rows, and for each record's rows in it (in order) the record's
        # source position (file, line, split start) and how many rows it has there
        self._buffers: dict[str, tuple[list[Row], list[tuple], list[int]]] = {}
        self._writers: dict[str, tuple[str, BinaryIO, pq.ParquetWriter]] = {}

    def add(self, row: Row, source_file: str | None = None, source_line: int | None = None,
            shard_start: int = 0) -> str:
        """Buffer one row, with the source position of its record; returns its table."""
        table = _TABLE_OF[type(row)]
        self.add_rows((row,), source_file, source_line, shard_start)
        return table

    def add_rows(self, rows: Iterable[Row], source_file: str | None = None, source_line: int | None = None,
                 shard_start: int = 0) -> None:
        """Buffer the rows of one record, with its source position (file, line, split start).

        A record's rows come as runs of one table's rows (a hand, its scores, its payouts):
        each run is appended at once, and counted with the record's earlier runs of that table."""
        source = (source_file, source_line, shard_start)
        for kind, run in groupby(rows, type):
            table = _TABLE_OF[kind]
            buf = self._buffers.get(table)
            if buf is None:
                buf = self._buffers[table] = ([], [], [])
            held = len(buf[0])
            buf[0].extend(run)
            if buf[1] and buf[1][-1] is source:  # the record's previous run of this table goes on
                buf[2][-1] += len(buf[0]) - held
            else:
                buf[1].append(source)
                buf[2].append(len(buf[0]) - held)
            if len(buf[0]) >= self.batch_rows:
                self._flush(table)

    def _flush(self, table: str) -> None:
        buf = self._buffers.pop(table, None)
        if not buf or not buf[0]:
            return
        schema = STAGING_SCHEMAS[table]
        if table not in self._writers:
            fs = _fs()
            path = fs.join(table_dir(self.staging, table), f"{uuid.uuid4().hex}.parquet")
            stream = fs.create(path)
            self._writers[table] = (path, stream, pq.ParquetWriter(stream, schema, **PARQUET_OPTIONS))
        own, sources, counts = buf
        fields, width = list(schema), len(own[0])
        own_columns = [pa.array(column, type=field.type)
                       for column, field in zip(zip(*own, strict=True), fields[:width], strict=True)]
        run_ends = pa.array(list(accumulate(counts)), type=pa.int32())
        by_position = tuple(zip(*sources, strict=True))
        source_columns = [_runs(by_position[at], run_ends, field.type)
                          for at, field in zip(SOURCE_COLUMNS[table], fields[width:], strict=True)]
        self._writers[table][2].write_table(pa.Table.from_arrays(own_columns + source_columns, schema=schema),
                                            row_group_size=self.batch_rows)

    def close(self) -> tuple[tuple[str, str], ...]:
        """Write what is buffered, close every file; (table, path) of each file written."""
        for table in list(self._buffers):
            self._flush(table)
        out = []
        for table, (path, stream, writer) in self._writers.items():
            writer.close()
            stream.close()
            out.append((table, path))
        self._writers.clear()
        return tuple(out)


def write_manifest(staging: str, files: Iterable[tuple[str, str]]) -> str:
    """Name the committed files, per table (sorted); returns the manifest's path."""
    by_table: dict[str, list[str]] = {}
    for table, path in files:
        if table not in STAGING_SCHEMAS:
            raise ValueError(f"unknown table {table!r} in the staged files")
        by_table.setdefault(table, []).append(path)
    fs = _fs()
    path = fs.join(staging, MANIFEST)
    with fs.create(path) as f:
        f.write(json.dumps({t: sorted(set(p)) for t, p in sorted(by_table.items())}, indent=1).encode())
    return path



def read_manifest(staging: str) -> Mapping[str, tuple[str, ...]]:
    """table -> the Parquet files to load (tables without rows are left out)."""
    fs = _fs()
    path = fs.join(staging, MANIFEST)
    if not fs.exists(path):
        raise ManifestMissing(f"no {MANIFEST} in {staging}: the pipeline did not complete")
    with fs.open(path) as f:
        data = json.loads(f.read().decode())
    return {t: tuple(p) for t, p in data.items() if p}


def plain(path: str) -> str:
    """A ``file://`` URL as the local path it names (Beam's FileSystems has no ``file``
    scheme); any other path unchanged."""
    if path.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(path).path) or "/"
    return path
