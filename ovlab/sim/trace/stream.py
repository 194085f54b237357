"""Streaming records to a file, for runs longer than memory should hold.

``core.trace.stream_to("run.parquet")`` writes every inference record from then on to a Parquet
file (through pyarrow, when it is installed) or a CSV file (``.csv``, or when pyarrow is missing),
a chunk of rows at a time, and event records to a sibling file (``run.events.parquet``, their
``detail`` dict as a JSON string). Memory then holds only the in-memory window (the Trace's
``max_records``) and one chunk. :func:`read_records` reads a file back as the DataFrame
``Trace.to_frame()`` gives.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

INFERENCE_COLUMNS = ("seq", "request_id", "model", "device", "submitted", "started", "finished",
                     "worker", "batch_id", "batch_size", "subgraph", "status")
EVENT_COLUMNS = ("time", "kind", "device", "model", "detail")


def _have_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def choose_format(path: Path, format: str | None) -> str:
    """``"parquet"`` or ``"csv"``: asked for, else from the suffix, else Parquet if possible."""
    if format is None:
        suffix = path.suffix.lower()
        format = "csv" if suffix == ".csv" else "parquet" if suffix == ".parquet" else None
        if format is None:
            format = "parquet" if _have_pyarrow() else "csv"
    if format not in ("parquet", "csv"):
        raise ValueError(f"stream format must be 'parquet' or 'csv', got {format!r}")
    if format == "parquet" and not _have_pyarrow():
        raise ImportError("streaming to Parquet needs pyarrow (pip install pyarrow); "
                          "use a .csv path or format='csv' instead")
    return format


def events_path(path: Path) -> Path:
    """``run.parquet`` -> ``run.events.parquet``: where the event records go."""
    return path.with_name(f"{path.stem}.events{path.suffix}")


class _Sink:
    """One file of rows with fixed columns, written a chunk at a time."""

    def __init__(self, path: Path, columns: tuple[str, ...], format: str, chunk_rows: int,
                 types: dict[str, str]) -> None:
        self.path, self.columns, self.format = path, columns, format
        self.chunk_rows = chunk_rows
        self.types = types
        self.rows: list[tuple] = []
        self.written = 0
        self._file = None
        self._csv = None
        self._parquet = None

    def add(self, row: tuple) -> None:
        self.rows.append(row)
        if len(self.rows) >= self.chunk_rows:
            self.flush()

    def flush(self) -> None:
        if not self.rows and (self._file is not None or self._parquet is not None):
            return
        rows, self.rows = self.rows, []
        if self.format == "csv":
            if self._file is None:
                self._file = open(self.path, "w", newline="", encoding="utf-8")  # noqa: SIM115
                self._csv = csv.writer(self._file)
                self._csv.writerow(self.columns)
            self._csv.writerows(rows)
            self._file.flush()
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            schema = pa.schema([(c, getattr(pa, self.types[c])()) for c in self.columns])
            columns = list(zip(*rows, strict=True)) if rows else [[] for _ in self.columns]
            table = pa.table({c: pa.array(list(v), type=schema.field(c).type)
                              for c, v in zip(self.columns, columns, strict=True)}, schema=schema)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(str(self.path), schema)
            self._parquet.write_table(table)
        self.written += len(rows)

    def close(self) -> None:
        self.flush()
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None


_INFERENCE_TYPES = {"seq": "int64", "request_id": "int64", "model": "string", "device": "string",
                    "submitted": "float64", "started": "float64", "finished": "float64",
                    "worker": "string", "batch_id": "int64", "batch_size": "int64",
                    "subgraph": "int64", "status": "string"}
_EVENT_TYPES = {"time": "float64", "kind": "string", "device": "string", "model": "string",
                "detail": "string"}


class RecordStream:
    """Where a Trace writes its records while streaming; close it (or use ``with``) at the end."""

    def __init__(self, path: str | Path, format: str | None = None,
                 chunk_rows: int = 65_536) -> None:
        path = Path(path)
        if not isinstance(chunk_rows, int) or chunk_rows < 1:
            raise ValueError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
        self.format = choose_format(path, format)
        self.path = path
        self.events_path = events_path(path)
        self._inferences = _Sink(path, INFERENCE_COLUMNS, self.format, chunk_rows,
                                 _INFERENCE_TYPES)
        self._events = _Sink(self.events_path, EVENT_COLUMNS, self.format, chunk_rows,
                             _EVENT_TYPES)
        self.closed = False

    def __repr__(self) -> str:
        return (f"<RecordStream {self.format} {self.path}: {self.inferences_written} inferences, "
                f"{self.events_written} events{' (closed)' if self.closed else ''}>")

    @property
    def inferences_written(self) -> int:
        return self._inferences.written + len(self._inferences.rows)

    @property
    def events_written(self) -> int:
        return self._events.written + len(self._events.rows)

    def add(self, record) -> None:
        self._inferences.add(tuple(getattr(record, c) for c in INFERENCE_COLUMNS))

    def event(self, record) -> None:
        detail = json.dumps(record.detail, default=str, sort_keys=True)
        self._events.add((record.time, record.kind, record.device, record.model, detail))

    def flush(self) -> None:
        self._inferences.flush()
        self._events.flush()

    def close(self) -> None:
        if not self.closed:
            self._inferences.close()
            self._events.close()
            self.closed = True

    def __enter__(self) -> RecordStream:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def read_records(path: str | Path, events: bool = False):
    """A streamed file as a DataFrame: the inference records (``queue_wait`` and ``latency``
    added, as in ``Trace.to_frame()``), or with ``events=True`` the event records."""
    import pandas as pd

    path = Path(path)
    target = events_path(path) if events else path
    if target.suffix.lower() == ".csv" or (target.suffix.lower() != ".parquet"
                                            and not _have_pyarrow()):
        frame = pd.read_csv(target)
    else:
        frame = pd.read_parquet(target)
    if events:
        frame["detail"] = [json.loads(d) if isinstance(d, str) else {} for d in frame["detail"]]
        return frame
    frame["queue_wait"] = frame["started"] - frame["submitted"]
    frame["latency"] = frame["finished"] - frame["submitted"]
    return frame
