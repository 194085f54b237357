"""Worker requests and the pending queue shared by AUTO's and MULTI's schedulers.

AUTO does not run a user's inference on the user's request: it hands it to one of its own *worker*
requests on a device (``Schedule::generate_workers``). Each device has a pool of N workers (the
``(n)`` of ``GPU(4)`` or the device's ``OPTIMAL_NUMBER_OF_INFER_REQUESTS``); the idle ones sit in a
min-heap, so the lowest-numbered idle worker is used first. An inference that finds no idle worker
waits in one FIFO queue, which is drained each time a worker completes. That is why a learner sees
requests queue behind a single CPU_HELP worker at start-up, and why nothing moves to the GPU at the
very moment it is ready: the queue moves on the next completion.

ovlab keeps the queue strictly FIFO. The real code pops a task and, if no worker is idle, pushes
it back at the *end* of the queue, which can reorder waiting inferences; ovlab keeps the order a
learner expects (see ``schedule.py`` for the other scheduling rules).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

from ...errors import PluginError
from ...runtime.backend import Backend, Job

HELPER = "CPU_HELP"


class WorkerPool:
    """The worker requests AUTO created on one compiled device model."""

    def __init__(self, name: str, device: str, backend: Backend, size: int) -> None:
        self.name = name  # "CPU_HELP" or the device name ("GPU.0")
        self.device = device  # the device that runs them ("CPU" for the helper)
        self.backend = backend
        self.size = max(1, int(size))
        self.contexts = [backend.new_context() for _ in range(self.size)]
        self._idle = list(range(self.size))  # already a heap
        # what inference records show as each worker, made once and shared by every record
        self.labels = [HELPER if name == HELPER else f"{name}:{i}" for i in range(self.size)]

    def __repr__(self) -> str:
        return f"<WorkerPool {self.name}: {len(self._idle)}/{self.size} idle>"

    @property
    def has_idle(self) -> bool:
        return bool(self._idle)

    @property
    def all_idle(self) -> bool:
        return len(self._idle) == self.size

    def take(self) -> int:
        return heapq.heappop(self._idle)

    def give(self, index: int) -> None:
        heapq.heappush(self._idle, index)

    def label(self, index: int) -> str:
        """What inference records show as the worker: ``CPU_HELP`` or ``GPU.0:3``."""
        return self.labels[index]


def pool_size(device, backend: Backend) -> int:
    """``(n)`` from the device string, else the compiled model's optimal number of requests."""
    if device.requests is not None:
        return int(device.requests)
    try:
        return int(backend.optimal_requests())
    except (PluginError, RuntimeError, TypeError, ValueError):
        raise PluginError("Every device used with AUTO should support query "
                          "optimal_number_of_infer_requests property from compiled model",
                          "src/plugins/auto/src/schedule.cpp:90") from None


class WorkerSchedule:
    """Dispatch of user inferences onto worker pools, with the FIFO pending queue.

    Subclasses say where an inference may go (:meth:`_try_start`), what happens after a worker
    completes (:meth:`_after_completion`) and how a failed inference is handled
    (:meth:`_on_failure`, only called when runtime fallback is on).
    """

    def __init__(self, core, model, tag: str, log) -> None:
        self.core = core
        self.model = model
        self.tag = tag  # "AUTO" or "MULTI"
        self.log = log
        self.pending: deque[Job] = deque()
        # compile_model(path): AUTO keeps the path (m_model_path) and compiles each device from
        # it, through the Core's path overload, which applies no implicit batching
        self.from_path = False
        self.runtime_fallback = True
        # OpenVINO serialises scheduling behind a mutex while a fallback device compiles; here
        # inferences wait in the pending queue until the gate opens again.
        self.gate_closed = False
        self._deferred: list[Callable[[], None]] = []

    # --- to implement ------------------------------------------------------------------
    def _try_start(self, job: Job) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def _after_completion(self, pool: WorkerPool) -> None:
        """Hook run after a worker went idle and the queue was drained."""

    def _on_failure(self, pool: WorkerPool, job: Job, error: BaseException, profile: list,
                    device: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- dispatch ----------------------------------------------------------------------------
    def submit(self, job: Job) -> None:
        """Run ``job`` on an idle worker now, or queue it."""
        if self.gate_closed or not self._try_start(job):
            self.pending.append(job)

    def _start_on(self, pool: WorkerPool, job: Job) -> None:
        index = pool.take()
        # the completion target: _worker_done with the pool, the worker and the job bound
        # (a partial is called from C: one Python frame less per request than a closure)
        child = job.child(partial(self._worker_done, pool, index, job), pool.contexts[index])
        child.tags["worker"] = pool.label(index)
        pool.backend.submit(child)

    def _worker_done(self, pool: WorkerPool, index: int, job: Job, outputs, error, profile,
                     device: str) -> None:
        pool.give(index)
        if error is not None and self.runtime_fallback:
            self._on_failure(pool, job, error, profile, device)
            self.drain()
            self._after_completion(pool)
            return
        self.drain()
        self._after_completion(pool)
        job.done(outputs, error=error, profile=profile, device=device)

    def drain(self) -> None:
        """Start queued inferences, oldest first, while a worker is idle for them."""
        while self.pending and not self.gate_closed:
            job = self.pending.popleft()
            if not self._try_start(job):
                self.pending.appendleft(job)
                break

    # --- the fallback gate -----------------------------------------------------------------
    def close_gate(self) -> None:
        self.gate_closed = True

    def open_gate(self) -> None:
        """Let scheduling continue: run the decisions that waited, then drain the queue."""
        self.gate_closed = False
        deferred, self._deferred = self._deferred, []
        for action in deferred:
            action()
        self.drain()

    def defer(self, action: Callable[[], None]) -> None:
        self._deferred.append(action)

    def event(self, kind: str, device: str = "", **detail: Any) -> None:
        self.core.trace.event(self.core.clock.now, kind, device, self.model.get_friendly_name(),
                              **detail)
