"""A Core's trace as Chrome's Trace Event JSON, for Perfetto (ui.perfetto.dev) and chrome://tracing.

A plot shows one view of a run; a timeline viewer lets a learner zoom from the 15 s GPU compile
down to the 50 ms of one batch, and see every device, stream and worker at once. The file follows
the Trace Event Format (the JSON object form, ``{"traceEvents": [...]}``):

* one **process** per device (``CPU``, ``GPU.0``...), named and sorted by device;
* one **thread** (track) per stream or worker the records name: ``stream 0`` (``GPU.0#0``), AUTO's
  ``CPU helper`` (``CPU_HELP``) and worker requests (``AUTO worker 3`` for ``GPU.0:3``), and a
  ``compile`` track; a track whose slices would overlap (two helper inferences sharing the CPU)
  is split into lanes (``CPU helper (2)``), because a thread's complete events must nest;
* every execution is a complete slice (``ph: "X"``) from start to finish; a batch is one slice
  ("batch 12: 16 requests", the members' sequence numbers in ``args``), a request that ran alone
  after the batch timer says so;
* every compile (and cache load) is a slice on its device's compile track;
* each user request is an async slice (``ph: "b"/"e"``) from submit to result on its device's
  ``requests`` track, so waiting for a batch shows as a long bar over a short execution;
* the device switch, batch timer ticks, fallbacks and failures are instant events (``ph: "i"``),
  a tick on the ``BATCH worker k`` track of the device.

Times are simulated microseconds since the Core was created. The exporter reads only the records
a :class:`~ovlab.sim.trace.records.Trace` holds (``trace.inferences`` and ``trace.events``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_US = 1e6
_INSTANT_SCOPE = {"switch": "g", "batch_timeout": "t"}


def _device_key(name: str) -> tuple:
    order = {"CPU": 0, "GPU": 1, "NPU": 2}
    head, _, idx = name.partition(".")
    return (order.get(head, 3), head, int(idx) if idx.isdigit() else -1, name)


def _thread_name(device: str, worker: str) -> str:
    if worker.startswith("CPU_HELP"):
        return "CPU helper"
    m = re.fullmatch(re.escape(device) + r"#(\d+)", worker)
    if m:
        return f"stream {m.group(1)}"
    m = re.fullmatch(r".*:(\d+)", worker)
    if m:
        return f"AUTO worker {m.group(1)}"
    return worker or "inference"


class _Tracks:
    """pids per device, tids per (device, track), with lanes for overlapping slices."""

    def __init__(self) -> None:
        self.pids: dict[str, int] = {}
        self.tids: dict[tuple[str, str], int] = {}
        self.lane_ends: dict[tuple[str, str], list[float]] = {}

    def pid(self, device: str) -> int:
        return self.pids.setdefault(device or "?", len(self.pids) + 1)

    def tid(self, device: str, name: str) -> int:
        key = (device or "?", name)
        if key not in self.tids:
            self.pid(device)
            self.tids[key] = len(self.tids) + 1
        return self.tids[key]

    def lane(self, device: str, name: str, start: float, end: float) -> int:
        """The tid of the first lane of track ``name`` free at ``start`` (slices never
        overlap within a thread)."""
        ends = self.lane_ends.setdefault((device, name), [])
        for i, last in enumerate(ends):
            if last <= start:
                ends[i] = end
                return self.tid(device, name if i == 0 else f"{name} ({i + 1})")
        ends.append(end)
        i = len(ends) - 1
        return self.tid(device, name if i == 0 else f"{name} ({i + 1})")

    def metadata(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for rank, device in enumerate(sorted(self.pids, key=_device_key)):
            pid = self.pids[device]
            out.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                        "args": {"name": device}})
            out.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                        "args": {"sort_index": rank}})
        for (device, name), tid in self.tids.items():
            pid = self.pids[device]
            out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                        "args": {"name": name}})
            out.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                        "args": {"sort_index": _track_rank(name)}})
        return out


def _track_rank(name: str) -> int:
    for rank, prefix in enumerate(("compile", "CPU helper", "stream", "AUTO worker",
                                   "BATCH worker")):
        if name.startswith(prefix):
            return rank * 1000 + (int(m.group()) if (m := re.search(r"\d+", name)) else 0)
    return 9000


def chrome_trace_events(trace, requests: bool = True) -> list[dict[str, Any]]:
    """The Trace Event list of a :class:`~ovlab.sim.trace.records.Trace`."""
    tracks = _Tracks()
    events: list[dict[str, Any]] = []
    _inferences(trace, tracks, events)
    if requests:
        _requests(trace, tracks, events)
    _compiles(trace, tracks, events)
    _instants(trace, tracks, events)
    return tracks.metadata() + sorted(events, key=lambda e: (e["ts"], e["ph"] != "e"))


def _inferences(trace, tracks: _Tracks, events: list) -> None:
    records = sorted(trace.inferences, key=lambda r: (r.started, r.seq))
    batches: dict[tuple, list[int]] = {}
    for r in records:
        if r.batch_id is not None and r.batch_size and r.batch_size > 1:
            batches.setdefault((r.device, r.worker, r.batch_id), []).append(r.seq)
    seen: set[tuple] = set()
    for r in records:
        if r.batch_id is not None and r.batch_size and r.batch_size > 1:
            key = (r.device, r.worker, r.batch_id)
            if key in seen:
                continue
            seen.add(key)
            members = batches[key]
            name = f"batch {r.batch_id}: {r.batch_size} requests"
            args = {"batch_id": r.batch_id, "batch_size": r.batch_size, "seqs": members,
                    "model": r.model}
        else:
            alone = r.status == "timeout-alone"
            name = f"request {r.seq}" + (" (alone after the batch timeout)" if alone else "")
            args = {"seq": r.seq, "request_id": r.request_id, "model": r.model,
                    "status": r.status, "queue_wait_ms": round(r.queue_wait * 1e3, 6)}
            if r.subgraph is not None:
                args["subgraph"] = r.subgraph
        tid = tracks.lane(r.device, _thread_name(r.device, r.worker), r.started, r.finished)
        events.append({"name": name, "cat": "inference", "ph": "X", "ts": r.started * _US,
                       "dur": max(0.0, (r.finished - r.started) * _US),
                       "pid": tracks.pid(r.device), "tid": tid, "args": args})


def _requests(trace, tracks: _Tracks, events: list) -> None:
    last: dict[int, Any] = {}
    for r in trace.inferences:  # HETERO / BATCH may leave several records: keep the last
        last[r.seq] = r
    for r in last.values():
        pid, tid = tracks.pid(r.device), tracks.tid(r.device, "requests")
        common = {"cat": "request", "id": r.seq, "pid": pid, "tid": tid,
                  "name": f"request {r.seq}"}
        events.append({**common, "ph": "b", "ts": r.submitted * _US,
                       "args": {"latency_ms": round(r.latency * 1e3, 6), "status": r.status,
                                "batch_size": r.batch_size}})
        events.append({**common, "ph": "e", "ts": r.finished * _US})


def _compiles(trace, tracks: _Tracks, events: list) -> None:
    open_: dict[str, list] = {}
    for e in trace.events:
        if e.kind in ("compile_start", "cache_load"):
            open_.setdefault(e.device, []).append(e)
        elif e.kind in ("compile_end", "compile_failed") and open_.get(e.device):
            start = open_[e.device].pop(0)
            what = "load from cache" if start.kind == "cache_load" else "compile"
            failed = " (failed)" if e.kind == "compile_failed" else ""
            tid = tracks.lane(e.device, "compile", start.time, e.time)
            events.append({"name": f"{what} {start.model}{failed}", "cat": "compile", "ph": "X",
                           "ts": start.time * _US, "dur": max(0.0, (e.time - start.time) * _US),
                           "pid": tracks.pid(e.device), "tid": tid,
                           "args": {"model": start.model, "seconds": start.detail.get("seconds")}})


def _instants(trace, tracks: _Tracks, events: list) -> None:
    for e in trace.events:
        if e.kind in ("compile_start", "cache_load", "compile_end"):
            continue
        device = e.device or "?"
        scope = _INSTANT_SCOPE.get(e.kind, "p")
        if e.kind == "batch_timeout":
            tid = tracks.tid(device, f"BATCH worker {e.detail.get('worker', 0)}")
            name = f"batch timer: {e.detail.get('requests', 0)} request(s) run alone"
        else:
            tid = tracks.tid(device, "compile" if e.kind == "compile_failed" else "events")
            name = f"{e.kind} {device}".strip()
        events.append({"name": name, "cat": e.kind, "ph": "i", "s": scope, "ts": e.time * _US,
                       "pid": tracks.pid(device), "tid": tid,
                       "args": {"model": e.model, **_plain(e.detail)}})


def _plain(detail: dict[str, Any]) -> dict[str, Any]:
    """Event details as JSON values (enums and other objects as their text)."""
    return json.loads(json.dumps(detail, default=str))


def to_chrome_trace(trace, path: str | Path | None = None, *,
                    requests: bool = True) -> dict[str, Any]:
    """The trace as a Trace Event JSON object; written to ``path`` if given.

    Open the file at https://ui.perfetto.dev ("Open trace file") or in Chrome at
    ``chrome://tracing`` ("Load"). ``requests=False`` leaves out the per-request async slices
    (smaller files for long runs).
    """
    doc = {"traceEvents": chrome_trace_events(trace, requests=requests),
           "displayTimeUnit": "ms",
           "otherData": {"producer": "ovlab", "clock": "simulated time since the Core was made"}}
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    return doc
