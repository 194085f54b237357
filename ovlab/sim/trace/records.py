"""Records of everything that happened on the simulated hardware.

Every inference that runs on a device leaves an :class:`InferenceRecord` (ids, submit / start /
finish times in simulated seconds, device, batch and subgraph); compiles, device switches,
fallbacks and batch time-outs leave :class:`EventRecord` s. Plots, tables and checks in the labs
are built from these records, so what a learner sees is what the simulation did.

Memory is bounded: a Trace keeps the newest ``max_records`` inference records and as many event
records (default 1,000,000 each, ``store.py``), counting what it let go in ``dropped``; a long run
streams every record to a file instead (``stream_to``, ``stream.py``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .store import DEFAULT_MAX_RECORDS, RecordBuffer, check_limit
from .stream import RecordStream

_deque_append = deque.append


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


@dataclass(slots=True)
class SchedulerStepRecord:
    """One step of an LLM pipeline's continuous-batching scheduler (``ovlab.sim.genai``): what
    ``Scheduler.schedule`` decided for that ``step()``. ``phase`` is "prompt", "generate",
    "mixed" (split-fuse: prompt chunks beside generated tokens) or "idle"; ``cache_usage`` is
    in percent, as GenAI's ``PipelineMetrics``."""

    time: float  # simulated s when the step was scheduled
    device: str
    model: str
    step: int
    phase: str
    scheduled_request_ids: list[int]
    num_scheduled_sequences: int
    num_scheduled_tokens: int
    num_prompt_tokens: int
    num_generate_tokens: int
    kv_blocks_used: int
    kv_blocks_total: int
    cache_usage: float
    cache_size_in_bytes: int
    preempted_request_ids: list[int]
    num_waiting: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Trace:
    """The records of a Core, in the order things happened (the newest ``max_records``)."""

    def __init__(self, max_records: int | None = DEFAULT_MAX_RECORDS) -> None:
        limit = check_limit(max_records)
        self.inferences: RecordBuffer = RecordBuffer(maxlen=limit)
        self.events: RecordBuffer = RecordBuffer(maxlen=limit)
        self.scheduler_steps: RecordBuffer = RecordBuffer(maxlen=limit)
        self.stream: RecordStream | None = None

    def __iter__(self):
        return iter(self.inferences)

    def __len__(self) -> int:
        return len(self.inferences)

    def __repr__(self) -> str:
        dropped = (f", {self.dropped} older inferences dropped (max_records={self.max_records})"
                   if self.dropped else "")
        return f"<Trace: {len(self.inferences)} inferences, {len(self.events)} events{dropped}>"

    # --- the bound ---------------------------------------------------------------------------
    @property
    def max_records(self) -> int | None:
        """How many inference (and event) records are kept in memory; None: all."""
        return self.inferences.maxlen

    @property
    def dropped(self) -> int:
        """Inference records let go to stay within ``max_records`` (streamed ones are kept in
        the file)."""
        return self.inferences.dropped

    def set_limit(self, max_records: int | None) -> None:
        """Keep at most ``max_records`` of each kind from now on (the newest); None: no bound."""
        limit = check_limit(max_records)
        self.inferences = self.inferences.resized(limit)
        self.events = self.events.resized(limit)
        self.scheduler_steps = self.scheduler_steps.resized(limit)

    # --- recording ---------------------------------------------------------------------------
    def add(self, record: InferenceRecord) -> None:
        buf = self.inferences  # RecordBuffer.append inlined: one call per inference less
        if len(buf) == buf.maxlen:
            buf.dropped += 1
        _deque_append(buf, record)
        if self.stream is not None:
            self.stream.add(record)

    def event(self, time: float, kind: str, device: str = "", model: str = "", **detail) -> None:
        record = EventRecord(time, kind, device, model, detail)
        self.events.append(record)
        if self.stream is not None:
            self.stream.event(record)

    def scheduler_step(self, record: SchedulerStepRecord) -> None:
        """Keep an LLM scheduler step (streamed as a "scheduler_step" event)."""
        self.scheduler_steps.append(record)
        if self.stream is not None:
            detail = record.as_dict()
            meta = (detail.pop("time"), detail.pop("device"), detail.pop("model"))
            self.stream.event(EventRecord(meta[0], "scheduler_step", meta[1], meta[2], detail))

    def clear(self) -> None:
        self.inferences.clear()
        self.events.clear()
        self.scheduler_steps.clear()

    # --- streaming ---------------------------------------------------------------------------
    def stream_to(self, path: str | Path, format: str | None = None,
                  chunk_rows: int = 65_536) -> RecordStream:
        """Write every record from now on to ``path`` (Parquet through pyarrow, or CSV: by the
        suffix, or ``format``), events to ``<stem>.events<suffix>``. Returns the stream; close
        it with ``stop_stream()`` (or ``with core.trace.stream_to(...):``)."""
        self.stop_stream()
        self.stream = RecordStream(path, format, chunk_rows)
        return self.stream

    def stop_stream(self) -> RecordStream | None:
        """Flush and close the stream, if one is open; return it."""
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.close()
        return stream

    def to_frame(self):
        """The inference records as a pandas DataFrame (one row per device execution)."""
        import pandas as pd

        cols = list(InferenceRecord.__dataclass_fields__) + ["queue_wait", "latency"]
        return pd.DataFrame([r.as_dict() for r in self.inferences], columns=cols)

    def to_chrome_trace(self, path=None, *, requests: bool = True) -> dict[str, Any]:
        """The records as Chrome Trace Event JSON (a track per device, stream and worker;
        compiles and batches as slices), written to ``path`` if given: open it at
        https://ui.perfetto.dev or ``chrome://tracing``. See :mod:`ovlab.sim.trace.chrome`."""
        from .chrome import to_chrome_trace

        return to_chrome_trace(self, path, requests=requests)

    def scheduler_steps_frame(self):
        """The LLM scheduler steps as a pandas DataFrame (one row per pipeline step)."""
        import pandas as pd

        cols = list(SchedulerStepRecord.__dataclass_fields__)
        return pd.DataFrame([r.as_dict() for r in self.scheduler_steps], columns=cols)

    def events_frame(self):
        """The event records as a pandas DataFrame."""
        import pandas as pd

        rows = [
            {"time": e.time, "kind": e.kind, "device": e.device, "model": e.model, **e.detail}
            for e in self.events
        ]
        return pd.DataFrame(rows)
