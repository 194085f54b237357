"""How a request ran, as a category a plot can colour: the device, and the batch status.

One request of a seed experiment ran in one of a few ways, all told by its ``core.trace`` record:
on AUTO's CPU helper while the real device compiled (``worker`` ``CPU_HELP``), on a device as
submitted, in a batch of N (``batch_size`` N > 1), alone at batch 1 after a batch timer expired
(``status`` ``timeout-alone``), or it failed. The colour says which: the device's own colour for
a plain run (the same colours as every other ovlab plot), and one colour per batch status, so a
fan of wires that *looks* like a batch but ran alone after the timeout shows orange, not purple.
The legend label names the device too ("GPU.0 · in a batch of 16").
"""

from __future__ import annotations

from dataclasses import dataclass

DEVICE_COLORS = {"CPU": "#1f77b4", "GPU.0": "#2ca02c", "GPU.1": "#d62728", "GPU.2": "#9467bd",
                 "NPU": "#ff7f0e", "(CPU)": "#17becf"}
HELPER_COLOR = "#17becf"  # AUTO's CPU helper
BATCH_COLOR = "#9467bd"  # in a batch of N
ALONE_COLOR = "#ff7f0e"  # alone at batch 1 after the batch timer expired
FAILED_COLOR = "#7f7f7f"
GHOST_COLOR = "#9a9a9a"  # the previous run, drawn faintly behind the current one
PINNED_COLOR = "#444444"  # run A of compare mode
ANALYTIC_COLOR = "#000000"

_ORDER = {"helper": 0, "plain": 1, "batch": 2, "alone": 3, "failed": 4}


def device_color(device: str) -> str:
    return DEVICE_COLORS.get(device, "#7f7f7f")


@dataclass(frozen=True, order=True)
class Category:
    """One way a request ran: where, and how it was batched."""

    rank: int
    device: str
    status: str  # "helper" | "plain" | "batch" | "alone" | "failed"
    batch: int = 1

    @property
    def label(self) -> str:
        if self.status == "helper":
            return f"{self.device} · AUTO's CPU helper"
        if self.status == "batch":
            return f"{self.device} · in a batch of {self.batch}"
        if self.status == "alone":
            return f"{self.device} · alone after the timeout"
        if self.status == "failed":
            return f"{self.device} · failed"
        return self.device

    @property
    def color(self) -> str:
        return {"helper": HELPER_COLOR, "batch": BATCH_COLOR, "alone": ALONE_COLOR,
                "failed": FAILED_COLOR}.get(self.status) or device_color(self.device)

    @property
    def symbol(self) -> str:
        return {"batch": "square", "alone": "x", "failed": "x"}.get(self.status, "circle")


def category(device: str, worker: str, batch_size, status: str) -> Category:
    """The category of one request, from the fields of its trace record."""
    device = str(device or "?")
    if status == "failed":
        kind, batch = "failed", 1
    elif str(worker).startswith("CPU_HELP"):
        kind, batch = "helper", 1
    elif status == "timeout-alone":
        kind, batch = "alone", 1
    elif batch_size is not None and batch_size == batch_size and int(batch_size) > 1:  # not NaN
        kind, batch = "batch", int(batch_size)
    else:
        kind, batch = "plain", 1
    return Category(_ORDER[kind], device, kind, batch)


def categorize(frame) -> list[Category]:
    """The category of every row of an experiment's ``requests`` frame, in row order (one
    Category object per distinct record: 2,000 requests fall in a handful)."""
    seen: dict[tuple, Category] = {}
    out = []
    # the columns as Python lists: iterating a Series builds each value through pandas
    # (~1 us a value, 8,000 a change); category() reads them with str() and int()
    for d, w, b, st in zip(frame["device"].tolist(), frame["worker"].tolist(),
                           frame["batch_size"].tolist(), frame["status"].tolist(), strict=True):
        key = (d, w, b if b == b else None, st)  # NaN (no batch) as None: the same category
        c = seen.get(key)
        if c is None:
            c = seen[key] = category(*key)
        out.append(c)
    return out


def slots(devices, found) -> list[Category]:
    """Every category a dashboard on these devices can show, in legend order: one per device
    and batch status (and AUTO's CPU helper), taking the run's own where it has one (for its
    batch size). A dashboard keeps the same traces from run to run, so a new run only restyles
    them (see ``ovlab.sim.widgets.sync``)."""
    found = list(found)
    by_key = {(c.device, c.status): c for c in found}
    out = []
    devices = list(devices)
    if any(d.startswith("CPU") for d in devices):
        out.append(by_key.get(("CPU", "helper"), Category(_ORDER["helper"], "CPU", "helper")))
    for d in devices:
        for status in ("plain", "batch", "alone", "failed"):
            out.append(by_key.get((d, status), Category(_ORDER[status], d, status)))
    return sorted(set(out) | set(found))
