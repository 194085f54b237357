"""Records of everything that happened on the simulated hardware (``core.trace``).

``records`` holds the record types and the :class:`Trace` a Core keeps; exports and storage of
records for long runs live beside it, one module each.
"""

from .records import EventRecord, InferenceRecord, SchedulerStepRecord, Trace
from .store import DEFAULT_MAX_RECORDS, RecordBuffer
from .stream import RecordStream, read_records

__all__ = ["DEFAULT_MAX_RECORDS", "EventRecord", "InferenceRecord", "RecordBuffer",
           "RecordStream", "SchedulerStepRecord", "Trace", "read_records"]
