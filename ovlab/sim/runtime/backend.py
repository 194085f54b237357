"""What travels between ovlab's plugins: jobs, lazy outputs, and the compiled-model interface.

A user inference becomes a :class:`Job`. Plugins pass jobs down (AUTO to a worker on a device,
BATCH to a batched request, HETERO to one submodel after another) and every job ends with exactly
one call of :meth:`Job.done`, in simulated time, with lazy :class:`Outputs` or an error. Outputs
are lazy because simulated time and numerics are separate: a 10,000-request timing run computes
no tensors unless someone reads them, while a test that reads them gets real NumPy results.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Callable
from typing import Any

import numpy as np


class Outputs:
    """Lazy results of one inference: ``get()`` computes them once, on first use."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: list[np.ndarray] | None = None

    def get(self) -> list[np.ndarray]:
        if self._values is None:
            self._values = self._compute()
        return self._values

    @property
    def ready(self) -> bool:
        return self._values is not None

    def _compute(self) -> list[np.ndarray]:  # pragma: no cover - abstract
        raise NotImplementedError


class Computed(Outputs):
    """Outputs that are already known."""

    __slots__ = ()

    def __init__(self, values: list[np.ndarray]) -> None:
        super().__init__()
        self._values = values


class LazyEval(Outputs):
    """Run ``model`` on ``inputs`` (a dict, or a function returning one) in ``precision``."""

    __slots__ = ("model", "inputs", "precision")

    def __init__(self, model, inputs: dict[int, np.ndarray] | Callable[[], dict], precision: str):
        self._values = None  # Outputs.__init__, inlined: one of these per inference
        self.model, self.inputs, self.precision = model, inputs, precision

    def _compute(self) -> list[np.ndarray]:
        inputs = self.inputs() if callable(self.inputs) else self.inputs
        values = self.model._evaluate(inputs, self.precision)
        self.inputs = None  # drop references to input buffers once computed
        return values


class Sliced(Outputs):
    """Sample ``index`` of a batched run (axis 0 of every output)."""

    __slots__ = ("parent", "index")

    def __init__(self, parent: Outputs, index: int) -> None:
        super().__init__()
        self.parent, self.index = parent, index

    def _compute(self) -> list[np.ndarray]:
        return [v[self.index: self.index + 1].copy() for v in self.parent.get()]


class Job:
    """One user inference on its way through the plugins."""

    __slots__ = ("seq", "request_id", "model_name", "inputs", "submitted", "ctx", "_on_done",
                 "tags", "members", "_finished", "variables")

    def __init__(self, seq: int, request_id: int, model_name: str, inputs: dict[int, Any],
                 submitted: float, on_done: Callable[..., None], ctx: Any = None) -> None:
        self.seq = seq
        self.request_id = request_id
        self.model_name = model_name
        self.inputs = inputs  # dict index -> np.ndarray (or a callable returning that dict)
        self.submitted = submitted
        self.ctx = ctx  # per-request context from Backend.new_context() (BATCH slots)
        self._on_done = on_done
        self.tags: dict[str, Any] = {}  # copied into the InferenceRecord (worker, batch, subgraph)
        self.members: list[Job] | None = None  # a batched job: the user jobs it carries
        self._finished = False
        self.variables: dict | None = None  # the request's variable values (stateful models)

    def child(self, on_done: Callable[..., None], ctx: Any = None, inputs: Any = None) -> Job:
        """A job for the same user inference with another completion target (and context)."""
        job = Job(self.seq, self.request_id, self.model_name,
                  self.inputs if inputs is None else inputs, self.submitted, on_done, ctx)
        job.tags = dict(self.tags)
        job.variables = self.variables
        return job

    def done(self, outputs: Outputs | None = None, error: BaseException | None = None,
             profile: list | None = None, device: str = "") -> None:
        """Finish the job, exactly once."""
        if self._finished:
            raise AssertionError(f"ovlab internal error: inference {self.seq} finished twice")
        self._finished = True
        self._on_done(outputs, error, profile or [], device)


_ZERO = datetime.timedelta(0)


class ProfilingInfo:
    """One row of ``get_profiling_info()``, like ``openvino.ProfilingInfo``."""

    class Status(enum.Enum):
        NOT_RUN = 0
        OPTIMIZED_OUT = 1
        EXECUTED = 2

        def __repr__(self) -> str:
            return f"<Status.{self.name}: {self.value}>"

    NOT_RUN = Status.NOT_RUN
    OPTIMIZED_OUT = Status.OPTIMIZED_OUT
    EXECUTED = Status.EXECUTED

    __slots__ = ("node_name", "node_type", "exec_type", "real_time", "cpu_time", "status")

    def __init__(self) -> None:
        """An empty row to fill, as ``openvino.ProfilingInfo()`` (the runtime's rows come from
        :meth:`_row`)."""
        self.node_name = ""
        self.node_type = ""
        self.exec_type = ""
        self.real_time = datetime.timedelta(0)
        self.cpu_time = datetime.timedelta(0)
        self.status = ProfilingInfo.Status.NOT_RUN

    @classmethod
    def _row(cls, node_name: str, node_type: str, exec_type: str, real_time_s: float,
            cpu_time_s: float, status: ProfilingInfo.Status) -> ProfilingInfo:
        """A row of a request's profile, times in seconds (kept in whole microseconds).

        A compiled model makes one row per op of its model (~320 for GoogLeNet) when it is
        compiled, so the row is filled directly and a zero time is one shared ``timedelta(0)``
        (immutable, equal to what ``timedelta(microseconds=0)`` makes): 2.5 -> ~1 us a row."""
        row = cls.__new__(cls)
        row.node_name = node_name
        row.node_type = node_type
        row.exec_type = exec_type
        row.real_time = _ZERO if not real_time_s else datetime.timedelta(
            microseconds=round(real_time_s * 1e6))
        row.cpu_time = _ZERO if not cpu_time_s else datetime.timedelta(
            microseconds=round(cpu_time_s * 1e6))
        row.status = status
        return row

    def __repr__(self) -> str:
        return "<ProfilingInfo>"

    def renamed(self, prefix: str) -> ProfilingInfo:
        row = ProfilingInfo._row(prefix + self.node_name, self.node_type, self.exec_type, 0, 0,
                                 self.status)
        row.real_time, row.cpu_time = self.real_time, self.cpu_time
        return row


class Backend:
    """A compiled model inside ovlab: what a plugin's compile returns.

    Subclasses implement :meth:`submit` and the property methods. The public
    :class:`ovlab.CompiledModel` wraps one Backend.
    """

    #: tag for errors of get_property: the plugin's own "not supported" message and source
    plugin_name = ""

    def __init__(self, core, model, name: str) -> None:
        self.core = core
        self.model = model  # what the user sees: inputs, outputs, friendly name
        self.name = name  # NETWORK_NAME

    # -- requests -------------------------------------------------------------------------
    def new_context(self) -> Any:
        """Called once for every InferRequest created on this model (BATCH binds slots here)."""
        return None

    def submit(self, job: Job) -> None:
        """Start or queue ``job``; it must end with ``job.done(...)`` later in simulated time."""
        raise NotImplementedError

    # -- properties ---------------------------------------------------------------------------
    def get_property(self, key: str) -> Any:
        raise NotImplementedError

    def set_property(self, props: dict[str, Any]) -> None:
        raise NotImplementedError

    def execution_devices(self) -> list[str]:
        return self.get_property("EXECUTION_DEVICES")

    def optimal_requests(self) -> int:
        return int(self.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))

    def runtime_model(self):
        return self.model

    def release(self) -> None:
        """The user deleted the compiled model (AUTO frees its model-priority registration)."""
