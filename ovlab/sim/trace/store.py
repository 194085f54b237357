"""Keeping records in memory without bound: a ring buffer of the newest N.

A Core records every inference (about 270 bytes each, measured with tracemalloc), which is nothing
for a lab's few thousand requests but 2.7 GB for ten million. :class:`RecordBuffer` keeps the
newest ``maxlen`` records and counts the ones it let go; a run that needs all of them streams
them to a file (``stream.py``) and keeps only a window in memory.
"""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Any

#: records a Trace keeps in memory unless told otherwise: far above any lab (the longest makes
#: about 10,000), and about 270 MB of inference records at the measured ~270 bytes each
DEFAULT_MAX_RECORDS = 1_000_000


def check_limit(max_records: Any) -> int | None:
    """``max_records`` as a positive int, or None (no bound); a clear error otherwise."""
    if max_records is None:
        return None
    if isinstance(max_records, bool) or not isinstance(max_records, int) or max_records < 1:
        raise ValueError(f"max_records must be a positive int or None (no bound), got "
                         f"{max_records!r}")
    return max_records


class RecordBuffer(deque):
    """A deque of records bounded by ``maxlen`` (None: unbounded) that also slices like a list
    (``trace.inferences[-10:]``) and counts what it dropped (``dropped``)."""

    def __init__(self, items=(), maxlen: int | None = None) -> None:
        super().__init__(items, maxlen)
        self.dropped = 0

    def append(self, item) -> None:
        if self.maxlen is not None and len(self) == self.maxlen:
            self.dropped += 1
        super().append(item)

    def clear(self) -> None:
        super().clear()
        self.dropped = 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start <= stop:
                return list(islice(self, start, stop))
            return list(self)[index]
        return super().__getitem__(index)

    def __eq__(self, other) -> bool:
        if isinstance(other, list):
            return list(self) == other
        return super().__eq__(other)

    __hash__ = None

    def resized(self, maxlen: int | None) -> RecordBuffer:
        """A buffer with another bound, keeping the newest records (the others count as
        dropped)."""
        keep = self if maxlen is None or len(self) <= maxlen else islice(
            self, len(self) - maxlen, None)
        out = RecordBuffer(keep, maxlen)
        out.dropped = self.dropped + len(self) - len(out)
        return out
