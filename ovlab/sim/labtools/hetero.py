"""Lab 07's helpers: the tensors a HETERO split sends between devices, the records of one
inference per subgraph, and the time each split costs.

The runs read the records of the compiled model's *own* Core, whichever Core the learner compiled
on (a helper bound to a global ``core`` once read another Core's records and returned a stale
answer).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def crossing_tensors(model, affinity: Mapping[str, str], link=None):
    """One row per output port read on another device than the one that produces it: the
    intermediate tensors HETERO allocates, found from the affinities alone. Constants go with
    their reader and the model's input is fed straight to its subgraph, so neither crosses.

    ``link``: a device spec (``core.platform.devices["NPU"]``) to add what one hop of each
    tensor costs over that device's link (latency + bytes / bandwidth), in µs.
    """
    import pandas as pd

    rows = []
    for op in model.get_ordered_ops():
        if op.get_type_name() in ("Constant", "Parameter"):
            continue
        src = affinity[op.get_friendly_name()]
        for port in op.outputs():
            readers = {affinity[t.get_node().get_friendly_name()] for t in port.get_target_inputs()}
            for dst in sorted(readers - {src}):
                size = int(np.prod(list(port.get_shape()))) * port.get_element_type().get_size()
                rows.append({"tensor": op.get_friendly_name(), "from": src, "to": dst,
                             "shape": str(port.get_shape()),
                             "element type": port.get_element_type().get_type_name(),
                             "bytes": size})
    frame = pd.DataFrame(rows, columns=["tensor", "from", "to", "shape", "element type", "bytes"])
    if link is not None:
        frame["one hop (µs)"] = [round((link.link_latency_s + b / (link.link_gbs * 1e9)) * 1e6)
                                 for b in frame["bytes"]]
    return frame


def subgraph_records(compiled, n: int = 1) -> list[list]:
    """Run ``n`` inferences one after another on ``compiled`` (outputs not read, so no NumPy
    work) and return, for each, its device records sorted by subgraph."""
    core = compiled._core  # the Core this model was compiled on (ovlab only)
    request = compiled.create_infer_request()
    x = np.zeros(list(compiled.inputs[0].shape), np.float32)
    out = []
    for _ in range(n):
        request.start_async({0: x})
        request.wait()
        seq = core.trace.inferences[-1].seq
        out.append(sorted((r for r in core.trace.inferences if r.seq == seq),
                          key=lambda r: r.subgraph or 0))
    return out


def mean_latency_ms(compiled, n: int = 6) -> float:
    """Mean simulated latency (ms) of ``n`` sequential inferences, the first (warm-up) left out."""
    runs = subgraph_records(compiled, n)[1:]
    return 1e3 * float(np.mean([recs[-1].finished - recs[0].submitted for recs in runs]))


def steps_table(records):
    """One row per subgraph of one inference: device, the wait before it started (the transfer
    into it, µs) and its run time (µs)."""
    import pandas as pd

    t_sub = records[0].submitted
    prev = [t_sub] + [r.finished for r in records][:-1]
    return pd.DataFrame([{"subgraph": r.subgraph, "device": r.device,
                          "wait before start (µs)": round((r.started - p) * 1e6),
                          "run (µs)": round((r.finished - r.started) * 1e6)}
                         for r, p in zip(records, prev, strict=True)]).set_index("subgraph")


def transfer_ms(records) -> float:
    """Time one inference spent between its subgraphs (the transfers), in ms."""
    return 1e3 * sum(b.started - a.finished for a, b in zip(records, records[1:], strict=False))


def counters_per_subgraph(request, records):
    """The profiling rows of one inference summed per subgraph (transfers included), beside the
    device of each subgraph, as a one-row-per-subgraph DataFrame (µs)."""
    import pandas as pd

    rows = [{"subgraph": int(r.node_name.split(":")[0][len("subgraph"):]),
             "real time (µs)": r.real_time.total_seconds() * 1e6}
            for r in request.get_profiling_info()]
    table = pd.DataFrame(rows).groupby("subgraph")["real time (µs)"].sum().round().astype(int)
    table = table.to_frame()
    table.insert(0, "device", [r.device for r in records])
    return table
