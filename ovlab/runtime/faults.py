"""Fault injection: tell a device to fail a compile or its n-th inference.

Fallbacks can only be taught if devices fail on demand. ``core.faults.fail_compile("GPU.0")``
makes the next compile on GPU.0 fail (``times=None``: every compile);
``core.faults.fail_inference("GPU.0", nth=5)`` makes the 5th inference that starts on GPU.0 from
now on fail (``count`` consecutive ones, ``count=None``: all of them from the n-th on).
"""

from __future__ import annotations


class Faults:
    def __init__(self) -> None:
        self._compile: dict[str, int | None] = {}
        self._infer: dict[str, list] = {}  # device -> [started_count, first_fail, count]

    def fail_compile(self, device: str, times: int | None = 1) -> None:
        """The next ``times`` compiles on ``device`` fail (``None``: all of them)."""
        self._compile[device] = times

    def fail_inference(self, device: str, nth: int = 1, count: int | None = 1) -> None:
        """Inferences number ``nth`` .. ``nth + count - 1`` on ``device`` (counted from now) fail."""
        if nth < 1:
            raise ValueError("nth counts from 1")
        self._infer[device] = [0, nth, count]

    def clear(self) -> None:
        self._compile.clear()
        self._infer.clear()

    # --- used by the hardware plugins ------------------------------------------------------
    def take_compile_failure(self, device: str) -> bool:
        if device not in self._compile:
            return False
        left = self._compile[device]
        if left is None:
            return True
        if left <= 1:
            del self._compile[device]
        else:
            self._compile[device] = left - 1
        return True

    def take_inference_failure(self, device: str) -> bool:
        state = self._infer.get(device)
        if state is None:
            return False
        state[0] += 1
        n, first, count = state
        if n < first:
            return False
        if count is None or n < first + count:
            return True
        del self._infer[device]
        return False
