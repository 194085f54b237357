"""``ovlab.AsyncInferQueue``: a pool of infer requests, as in OpenVINO's Python API.

Idle ids form a FIFO: ``0..jobs-1`` at first, then each finished request's id is appended after
its callback ran, so ids are reused in completion order. ``start_async`` blocks (advances the
clock) while every request is busy.

Errors, as the real queue reports them (openvino 2026.4.1, measured with a Reshape whose target
shape is an input and fails at inference time, and with callbacks that raise):

* A failed inference runs no callback; the requests that succeeded run theirs. The failure is
  raised by ``wait_all``, ``start_async`` and ``get_idle_request_id`` as a ``RuntimeError``
  ``Exception from src/inference/src/cpp/infer_request.cpp:246`` /
  ``src/bindings/python/src/pyopenvino/core/async_infer_queue.cpp:158`` / the plugin's lines;
  ``is_ready`` does not raise it. The failed request's own ``wait()`` raises its error too.
* An exception raised by the callback is re-raised, the same Python object, by the next
  ``wait_all``/``start_async``/``is_ready``/``get_idle_request_id``.

Every error is kept, in completion order, and each is raised once by the next call that reports
its kind, so a caller that catches and calls again sees all of them. Deviation: the real queue
never moves past its first failure (the failed request stays at the head of the idle list and
every later ``start_async``/``wait_all`` raises the same error again; after a callback exception
the next call aborts the process); ovlab reports each error once and stays usable.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .. import errors as _errors
from ..errors import PluginError
from .clock import PENDING, Signal
from .infer_request import InferRequest


def _queue_error(error: BaseException) -> BaseException:
    """A failed inference as the queue's calls raise it (measured chain)."""
    if not isinstance(error, PluginError):
        return error
    return RuntimeError(_errors.format_chain(
        ["src/inference/src/cpp/infer_request.cpp:246",
         "src/bindings/python/src/pyopenvino/core/async_infer_queue.cpp:158", *error.sources],
        error.message))


class AsyncInferQueue:
    def __init__(self, model, jobs: int = 0) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
            raise TypeError(  # pybind's size_t refuses negatives with a TypeError (measured)
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino._pyopenvino.AsyncInferQueue(model: "
                "openvino._pyopenvino.CompiledModel, jobs: typing.SupportsInt | "
                f"typing.SupportsIndex = 0)\n\nInvoked with: {model!r}, {jobs!r}")
        if jobs == 0:
            try:
                jobs = int(model.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
            except RuntimeError as exc:
                raise RuntimeError(
                    f"Can't load network: {exc} Please specify number of infer requests "
                    "directly!") from None
        if jobs < 0:
            raise ValueError("jobs must be >= 0")
        self._core = model._core
        self._requests: list[InferRequest] = []
        for i in range(jobs):
            req = model.create_infer_request()
            req._queue_hook = (self, i)
            self._requests.append(req)
        self._idle: deque[int] = deque(range(jobs))
        self._callback: Callable[[InferRequest, Any], None] | None = None
        self._userdata: list[Any] = [None] * jobs
        # errors not raised yet, in completion order: (is an inference failure, exception)
        self._errors: deque[tuple[bool, BaseException]] = deque()
        self._idle_event = None  # the Signal a blocked call waits for, while it waits
        self._idle_signal: Signal | None = None  # the last one, reused once processed

    def __repr__(self) -> str:
        return f"<AsyncInferQueue: {len(self._requests)} jobs>"

    def __len__(self) -> int:
        return len(self._requests)

    def __getitem__(self, i: int) -> InferRequest:
        return self._requests[i]

    def __iter__(self) -> Iterator[InferRequest]:
        return iter(self._requests)

    @property
    def userdata(self) -> list[Any]:
        return list(self._userdata)

    def set_callback(self, callback: Callable[[InferRequest, Any], None]) -> None:
        """``callback(request, userdata)`` after every successful inference."""
        self._callback = callback

    # --- completion (called by the requests) ------------------------------------------------
    def _on_done(self, job_id: int, request: InferRequest, error: BaseException | None) -> None:
        if error is not None:
            self._errors.append((True, _queue_error(error)))  # no callback for a failure
        elif self._callback is not None:
            try:
                self._callback(request, self._userdata[job_id])
            except Exception as exc:  # noqa: BLE001 - re-raised by the next queue call
                self._errors.append((False, exc))
        self._idle.append(job_id)
        idle_event = self._idle_event
        if idle_event is not None and idle_event._value is PENDING:  # not triggered yet
            idle_event.succeed()

    def _raise_pending(self, failures: bool = True) -> None:
        """Raise the oldest error not raised yet (callback errors only, if not ``failures``)."""
        for i, (is_failure, exc) in enumerate(self._errors):
            if failures or not is_failure:
                del self._errors[i]
                raise exc

    def _wait_idle(self) -> None:
        clock = self._core.clock
        while not self._idle:
            event = self._idle_signal
            if event is not None and event.callbacks is None:
                # processed, so out of the heap: made pending again (one object less per wait)
                event._value = PENDING
                event.callbacks = ()
            else:
                event = self._idle_signal = Signal(clock.env)
            self._idle_event = event
            clock.run_until(event, "an idle request in the AsyncInferQueue")
            self._idle_event = None

    # --- API -----------------------------------------------------------------------------------
    def start_async(self, inputs: Any = None, userdata: Any = None,
                    share_inputs: bool = False) -> None:
        """Start on the next idle request, advancing the clock while all are busy."""
        if not self._requests:
            raise RuntimeError("AsyncInferQueue has no requests (jobs=0 and no optimal number)")
        if self._errors:
            self._raise_pending()
        if not self._idle:
            self._wait_idle()
            if self._errors:
                self._raise_pending()
        job_id = self._idle.popleft()
        self._userdata[job_id] = userdata
        if inputs is None:  # an idle request given nothing: InferRequest.start_async's one step
            self._requests[job_id]._begin(silent=False)
        else:
            self._requests[job_id].start_async(inputs)

    def is_ready(self) -> bool:
        self._raise_pending(failures=False)  # the real is_ready reports callback errors only
        return bool(self._idle)

    def get_idle_request_id(self) -> int:
        self._raise_pending()
        self._wait_idle()
        return self._idle[0]

    def wait_all(self) -> None:
        """Advance the clock until every request is idle."""
        for req in self._requests:
            if req._done_event is not None:
                self._core.clock.run_until(req._done_event, "the AsyncInferQueue to drain")
        self._raise_pending()
