"""The C library's memory calls, where the C library is glibc: the one place ovlab reaches past
Python to give memory back to the system.

Why ovlab does this at all: a learner's kernel has a memory budget, and glibc keeps freed memory
resident (``malloc_trim`` gives it back; a fixed ``M_MMAP_THRESHOLD`` keeps large blocks out of
the heap). Elsewhere (musl, macOS, Windows) these are no-ops.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Any

__all__ = ["glibc", "malloc_trim", "set_mmap_threshold"]

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number


@cache
def glibc() -> Any | None:
    """glibc as a ``ctypes`` library, or None where the C library is not glibc."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        lib.malloc_trim, lib.mallopt  # noqa: B018 - glibc's, not musl's
    except (OSError, AttributeError):
        return None
    return lib


def malloc_trim() -> None:
    """Give freed heap memory back to the system."""
    lib = glibc()
    if lib is not None:
        lib.malloc_trim(0)


def set_mmap_threshold(nbytes: int) -> None:
    """Serve blocks of ``nbytes`` and more from their own mappings (returned when freed)."""
    lib = glibc()
    if lib is not None:
        lib.mallopt(_M_MMAP_THRESHOLD, nbytes)
