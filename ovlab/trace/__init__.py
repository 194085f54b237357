"""Records of everything that happened on the simulated hardware (``core.trace``).

``records`` holds the record types and the :class:`Trace` a Core keeps; exports and storage of
records for long runs live beside it, one module each.
"""

from .records import EventRecord, InferenceRecord, Trace

__all__ = ["EventRecord", "InferenceRecord", "Trace"]
