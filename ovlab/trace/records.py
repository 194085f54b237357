"""Records of everything that happened on the simulated hardware.

Every inference that runs on a device leaves an :class:`InferenceRecord` (ids, submit / start /
finish times in simulated seconds, device, batch and subgraph); compiles, device switches,
fallbacks and batch time-outs leave :class:`EventRecord` s. Plots, tables and checks in the labs
are built from these records, so what a learner sees is what the simulation did.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class InferenceRecord:
    """One execution on a device, on behalf of one user inference."""

    seq: int  # user inference number within the Core (start_async / infer order)
    request_id: int  # index of the user InferRequest within its compiled model
    model: str  # NETWORK_NAME of the compiled model the user called
    device: str  # concrete device that ran it: "CPU", "GPU.0", ...
    submitted: float  # when the user submitted it (simulated s)
    started: float = 0.0  # when the device started executing it
    finished: float = 0.0  # when the device finished
    worker: str = ""  # "CPU_HELP", "GPU.0:3", stream or worker label
    batch_id: int | None = None
    batch_size: int | None = None
    subgraph: int | None = None
    status: str = "ok"  # "ok" | "failed" | "timeout-alone" (BATCH ran it alone after waiting)

    @property
    def queue_wait(self) -> float:
        return self.started - self.submitted

    @property
    def service(self) -> float:
        return self.finished - self.started

    @property
    def latency(self) -> float:
        return self.finished - self.submitted

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["queue_wait"] = self.queue_wait
        d["latency"] = self.latency
        return d


@dataclass(slots=True)
class EventRecord:
    """Something that is not an inference: a compile, a switch, a fallback, a timeout."""

    time: float
    kind: str  # compile_start, compile_end, compile_failed, cache_load, switch, helper_released,
    #            fallback, inference_failed, batch_timeout, ...
    device: str = ""
    model: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


class Trace:
    """All records of a Core, in the order things happened."""

    def __init__(self) -> None:
        self.inferences: list[InferenceRecord] = []
        self.events: list[EventRecord] = []

    def __iter__(self):
        return iter(self.inferences)

    def __len__(self) -> int:
        return len(self.inferences)

    def __repr__(self) -> str:
        return f"<Trace: {len(self.inferences)} inferences, {len(self.events)} events>"

    def add(self, record: InferenceRecord) -> None:
        self.inferences.append(record)

    def event(self, time: float, kind: str, device: str = "", model: str = "", **detail) -> None:
        self.events.append(EventRecord(time, kind, device, model, detail))

    def clear(self) -> None:
        self.inferences.clear()
        self.events.clear()

    def to_frame(self):
        """The inference records as a pandas DataFrame (one row per device execution)."""
        import pandas as pd

        cols = list(InferenceRecord.__dataclass_fields__) + ["queue_wait", "latency"]
        return pd.DataFrame([r.as_dict() for r in self.inferences], columns=cols)

    def to_chrome_trace(self, path=None, *, requests: bool = True) -> dict[str, Any]:
        """The records as Chrome Trace Event JSON (a track per device, stream and worker;
        compiles and batches as slices), written to ``path`` if given: open it at
        https://ui.perfetto.dev or ``chrome://tracing``. See :mod:`ovlab.trace.chrome`."""
        from .chrome import to_chrome_trace

        return to_chrome_trace(self, path, requests=requests)

    def events_frame(self):
        """The event records as a pandas DataFrame."""
        import pandas as pd

        rows = [
            {"time": e.time, "kind": e.kind, "device": e.device, "model": e.model, **e.detail}
            for e in self.events
        ]
        return pd.DataFrame(rows)
