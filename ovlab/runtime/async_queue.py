"""``ovlab.AsyncInferQueue``: a pool of infer requests, as in OpenVINO's Python API.

Idle ids form a FIFO: ``0..jobs-1`` at first, then each finished request's id is appended after
its callback ran, so ids are reused in completion order. ``start_async`` blocks (advances the
clock) while every request is busy. An exception raised by the callback, or an inference that
failed, is raised once by the next ``start_async``/``wait_all``/``is_ready``/
``get_idle_request_id``; the queue stays usable (the real runtime aborts the process on the call
after that, see ``reference/openvino-measured.md`` section 12).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .. import _errors
from .._errors import PluginError
from .infer_request import InferRequest


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
        self._pending: BaseException | None = None
        self._idle_event = None

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
            if self._pending is None:
                self._pending = (_errors.from_plugin("infer", error)
                                 if isinstance(error, PluginError) else error)
        elif self._callback is not None:
            try:
                self._callback(request, self._userdata[job_id])
            except Exception as exc:  # noqa: BLE001 - re-raised by the next queue call
                if self._pending is None:
                    self._pending = exc
        self._idle.append(job_id)
        if self._idle_event is not None and not self._idle_event.triggered:
            self._idle_event.succeed()

    def _raise_pending(self) -> None:
        if self._pending is not None:
            exc, self._pending = self._pending, None
            raise exc

    def _wait_idle(self) -> None:
        while not self._idle:
            self._idle_event = self._core.clock.event()
            self._core.clock.run_until(self._idle_event, "an idle request in the AsyncInferQueue")
            self._idle_event = None

    # --- API -----------------------------------------------------------------------------------
    def start_async(self, inputs: Any = None, userdata: Any = None,
                    share_inputs: bool = False) -> None:
        """Start on the next idle request, advancing the clock while all are busy."""
        if not self._requests:
            raise RuntimeError("AsyncInferQueue has no requests (jobs=0 and no optimal number)")
        self._raise_pending()
        self._wait_idle()
        self._raise_pending()
        job_id = self._idle.popleft()
        self._userdata[job_id] = userdata
        self._requests[job_id].start_async(inputs)

    def is_ready(self) -> bool:
        self._raise_pending()
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
