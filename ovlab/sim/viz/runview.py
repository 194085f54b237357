"""A seed experiment's run as the plots see it, whole or as it stood at one moment.

A :class:`RunView` holds the requests of an :class:`ovlab.sim.experiments.ExperimentResult` in
completion order with their category (device and batch status, from the ``core.trace``
records), and the run's events (compiles, the device switch, batch timer ticks, also from
``core.trace``), all in seconds since the first submit. :meth:`RunView.at` cuts it at a moment:
only the requests whose result had arrived and the events that had happened by then, with a
compile still running shown as running. Live dashboards draw ``view.at(t)`` frame after frame,
so a live plot can only show what the run had done at ``t``: never a switch that is still to
come, never a summary of another run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..hardware.platforms import resolve_device_name
from .palette import Category, categorize, slots


@dataclass(frozen=True)
class CompileSpan:
    """One compile on a device, seconds since the first submit (negative: before it)."""

    device: str
    start: float
    end: float  # when it ends (the plugin knows the duration when the compile starts)
    kind: str = "compile"  # "compile" | "cache_load"
    note: str = ""  # e.g. "the batch-16 model"
    failed: bool = False

    @property
    def label(self) -> str:
        what = "loads from the cache" if self.kind == "cache_load" else "compiles"
        note = f" {self.note}" if self.note else ""
        return f"{self.device} {what}{note}"


@dataclass(frozen=True)
class Tick:
    """A batch timer that expired with requests queued: they ran alone, at batch 1."""

    time: float
    device: str
    worker: int
    requests: int


@dataclass
class RunView:
    """The requests and events of a run, up to ``now`` (seconds since the first submit)."""

    label: str
    device: str
    config: dict[str, Any]
    interval_ms: float
    niter: int
    queue_size: int
    optimal_requests: int
    frame: Any  # pandas DataFrame in completion order: n, submit, result, latency, device, ...
    categories: list[Category]  # every category of the WHOLE run, in legend order
    compiles: list[CompileSpan] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)
    switch: tuple[float, str] | None = None  # (time, device)
    end: float = 0.0  # the whole run's last result
    target: str | None = None  # the device the run settles on (AUTO's selection)
    now: float = math.inf
    # the whole run's compiles, kept by every cut: a live frame's progress band counts the
    # compiles still to come back to back (the batched copy), i.e. what remains
    planned: list[CompileSpan] = field(default_factory=list)

    # --- building -------------------------------------------------------------------------
    @classmethod
    def from_result(cls, result, label: str = "", devices=None) -> RunView:
        """``devices``: the platform's devices, to give the view a category for every device
        and batch status (a dashboard's fixed set of traces); default: the run's own only."""
        frame = result.requests.sort_values(["result", "n"], kind="stable").reset_index(drop=True)
        cats = categorize(frame)  # a few distinct objects, each repeated: looked up by id
        frame["category"] = cats
        distinct = {id(c): c for c in cats}
        found = set(distinct.values())
        categories = slots(devices, found) if devices is not None else sorted(found)
        code = {c: i for i, c in enumerate(categories)}
        code_of = {i: code[c] for i, c in distinct.items()}
        frame["cat_code"] = np.array([code_of[id(c)] for c in cats], dtype=int)
        t0 = result.t_start
        batch_sizes = sorted({int(b) for b in frame["batch_size"].dropna().tolist() if b > 1})
        compiles = _compile_spans(result.events, t0, batch_sizes[-1] if batch_sizes else None)
        ticks = [Tick(e.time - t0, e.device, int(e.detail.get("worker", 0)),
                      int(e.detail.get("requests", 0)))
                 for e in result.events if e.kind == "batch_timeout"]
        switch = next(((e.time - t0, e.device) for e in result.events if e.kind == "switch"),
                      None)
        end = float(frame["result"].max()) if len(frame) else 0.0
        selected = next((e.device for e in result.events
                         if e.kind == "select" and e.detail.get("reason") == "initial"), None)
        # the devices the run's requests ran on (not the platform's every slot), and AUTO's
        # selection named as the records name it ("GPU" -> "GPU.0"), resolved here once
        ran = sorted({c.device for c in found if c.status != "helper"})
        target = (resolve_device_name(selected, ran) or selected if selected
                  else (ran[0] if len(ran) == 1 else None))
        return cls(label or _label(result), result.device, dict(result.config),
                   float(result.interval_ms), len(frame), result.queue_size,
                   result.optimal_requests, frame, categories, compiles, ticks, switch, end,
                   target, planned=list(compiles))

    # --- cutting --------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        return self.now >= self.end

    def at(self, t: float) -> RunView:
        """The run as it stood ``t`` seconds after the first submit."""
        if t >= self.end and self.now >= self.end:
            return replace(self, now=max(t, self.end))
        k = int(np.searchsorted(self.frame["result"].to_numpy(), t, side="right"))
        return replace(
            self, frame=self.frame.iloc[:k], now=t,
            compiles=[c for c in self.compiles if c.start <= t],
            ticks=[k_ for k_ in self.ticks if k_.time <= t],
            switch=self.switch if self.switch is not None and self.switch[0] <= t else None)

    # --- reading --------------------------------------------------------------------------
    @property
    def latency(self) -> np.ndarray:
        return self.frame["latency"].to_numpy()

    def index_at(self, t: float) -> float:
        """x of time ``t`` on the seed's iteration axis: the completions before it."""
        return float(np.searchsorted(self.frame["result"].to_numpy(), t, side="left"))

    @property
    def switch_index(self) -> int | None:
        """The first completion on the new device after the switch (the seed's step)."""
        if self.switch is None:
            return None
        f = self.frame
        later = np.flatnonzero((f["result"].to_numpy() >= self.switch[0])
                               & ~f["worker"].astype(str).str.startswith("CPU_HELP").to_numpy())
        return int(later[0]) if len(later) else None

    @property
    def clock_text(self) -> str:
        """The live replay's clock: ``t = 3.2 s`` since the first submit (the x axis's zero),
        never negative: before the first submit the devices are still compiling."""
        if self.now < 0:
            return f"compiling, first submit in {-self.now:.1f} s"
        return f"t = {self.now:.1f} s"

    def compile_chain(self, span: CompileSpan) -> list[CompileSpan]:
        """``span`` and the compiles on its device that run back to back with it (GPU
        THROUGHPUT compiles the model, then its batched copy): what the run waits for."""
        same = sorted((c for c in (self.planned or self.compiles) if c.device == span.device),
                      key=lambda c: c.start)
        i = same.index(span)
        lo = hi = i
        while lo > 0 and same[lo].start - same[lo - 1].end < 1e-3:
            lo -= 1
        while hi + 1 < len(same) and same[hi + 1].start - same[hi].end < 1e-3:
            hi += 1
        return same[lo:hi + 1]

    def running_compiles(self) -> list[CompileSpan]:
        """Compiles that had started but not ended at ``now``."""
        return [c for c in self.compiles if c.start <= self.now < c.end]

    def stats(self) -> dict[str, float]:
        """Median, p99 and max latency (ms), throughput (inferences/s) of the requests so far."""
        lat = self.latency * 1000.0
        if not len(lat):
            return {"requests": 0, "median": math.nan, "p99": math.nan, "max": math.nan,
                    "throughput": math.nan}
        span = float(self.frame["result"].max() - self.frame["submit"].min())
        return {"requests": len(lat), "median": float(np.median(lat)),
                "p99": float(np.percentile(lat, 99)), "max": float(lat.max()),
                "throughput": len(lat) / span if span > 0 else math.nan}


def _label(result) -> str:
    cfg = result.config
    hint = cfg.get("PERFORMANCE_HINT", "")
    parts = [result.device, str(hint)]
    if str(hint) != "LATENCY":
        if str(cfg.get("ALLOW_AUTO_BATCHING", "YES")).upper() in ("NO", "FALSE", "0"):
            parts.append("no batching")
        elif "AUTO_BATCH_TIMEOUT" in cfg:
            parts.append(f"timeout {cfg['AUTO_BATCH_TIMEOUT']} ms")
    if cfg.get("PERFORMANCE_HINT_NUM_REQUESTS"):
        parts.append(f"{cfg['PERFORMANCE_HINT_NUM_REQUESTS']} requests")
    return " ".join(p for p in parts if p)


def _compile_spans(events, t0: float, batch: int | None) -> list[CompileSpan]:
    """Pair each compile_start / cache_load with its end, per device, in order."""
    spans: list[CompileSpan] = []
    open_: dict[str, list[tuple[float, str, float]]] = {}
    count: dict[str, int] = {}
    for e in events:
        if e.kind in ("compile_start", "cache_load"):
            seconds = float(e.detail.get("seconds", 0.0))
            open_.setdefault(e.device, []).append((e.time, e.kind, seconds))
        elif e.kind in ("compile_end", "compile_failed") and open_.get(e.device):
            start, kind, _seconds = open_[e.device].pop(0)
            count[e.device] = count.get(e.device, 0) + 1
            note = ""
            if batch and count[e.device] == 2 and kind == "compile_start":
                note = f"the batch-{batch} model"
            spans.append(CompileSpan(e.device, start - t0, e.time - t0,
                                     "cache_load" if kind == "cache_load" else "compile", note,
                                     e.kind == "compile_failed"))
    for device, pending in open_.items():  # still running when the run ended
        for start, kind, seconds in pending:
            spans.append(CompileSpan(device, start - t0, start - t0 + seconds,
                                     "cache_load" if kind == "cache_load" else "compile"))
    return sorted(spans, key=lambda c: (c.start, c.device))
