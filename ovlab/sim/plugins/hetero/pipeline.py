"""HETERO ``MODEL_DISTRIBUTION_POLICY: PIPELINE_PARALLEL``: a model split over devices by memory.

What it follows, as of OpenVINO 2026.4 (``src/plugins/hetero/src/plugin.cpp``, PR #21764, the
2024.3 release notes, openvino issue #38250 which quotes ``plugin.cpp:354`` of tag 2026.4.0):

1. **Device memory** (``get_device_memory_map``): a CPU counts as unlimited; a GPU reports
   ``GPU_DEVICE_TOTAL_MEM_SIZE`` and adds it to the GPUs' pool (``all_gpu_left``); any other
   device (an NPU) makes the map unusable, and HETERO falls back to the plain greedy split.
2. **The ratio each device may take** (``update_config``), with ``total`` the bytes of the
   constants of the part still to place (the "weights estimate") and ``1.2 x total`` what it
   is assumed to need:

   * the last device of the list takes everything left (ratio 1.0);
   * a device with ``memory >= 1.2 x total``, or any CPU, takes everything (ratio 1.0): **so a
     model that fits the first GPU goes there whole and the second GPU gets nothing, without a
     warning** (issue #38250, 2x Arc Pro B70);
   * else, if the GPUs left together hold ``1.2 x total`` (or a CPU is in the list), the device
     takes ``memory / (1.2 x total)`` of the model, but all of it (1.0) if its memory exceeds the
     weights alone, so a model "fits" a GPU up to its memory, not 1/1.2 of it;
   * else its share of the GPUs' memory left, ``memory / all_gpu_left``;
   * every GPU then leaves the pool.
3. **Which ops that is** (``ov::get_supported_nodes`` with ``QUERY_MODEL_RATIO < 1``, only GPUs
   implement it): walking the ops in topological order and adding up constant bytes, the model is
   cut at a constant whose running total falls within 0.95-1.05 x ``ratio x total`` (the first
   one to reach 0.95x, then every later one within the band), and of those cuts the one whose
   boundary tensors hold the fewest elements wins. The device takes everything before the cut;
   ops whose inputs it does not take, and constants whose consumers it does not take, stay for
   the next device. If the very first constant is already above the band, the device takes
   nothing.

The first branch is quoted from tag 2026.4.0 in issue #38250; the others were read in the 2024
version of ``update_config`` (no later text was available) and are assumed unchanged.

The devices are asked in priority order, each about what the ones before left. ovlab asks about
that remainder as one graph where OpenVINO asks each remaining connected region in turn (the same
thing for the chain-shaped models pipeline parallelism is made for). Submodels then compile and
run as in any HETERO split, one after another per request, with different requests overlapping
across the devices (the "pipeline").

ovlab does not model what a GPU does with more weights than memory: the real GPU plugin spills to
host memory and only fails beyond host RAM plus device memory (``engine::check_allocatable``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ...graph import Constant, Model, Node, Parameter, Result
from ...graph.lazy import lazy_constant

UNLIMITED = float("inf")  # what size_t(-1) stands for: the CPU's memory
ESTIMATE = 1.2  # "Estimate the memory size required for the model is 1.2 * total_ops_size"
BAND = (0.95, 1.05)


def constant_bytes(node: Node) -> int:
    """``element_type.size() * shape_size(shape)`` of a Constant (its weights' bytes)."""
    shape = node.get_output_shape(0)
    itemsize = np.dtype(node.get_output_element_type(0).to_dtype()).itemsize
    return int(np.prod(list(shape), dtype=np.int64)) * itemsize


def memory_map(core, devices: Sequence[str]) -> dict[str, float] | None:
    """``get_device_memory_map``: bytes per device (CPU unlimited) and ``all_gpu_left``; None
    when a device cannot tell (any device but CPU and GPU)."""
    mem: dict[str, float] = {"all_gpu_left": 0.0}
    for name in devices:
        if "CPU" in name:
            mem["CPU"] = UNLIMITED
        elif "GPU" in name:
            try:
                size = float(core.get_property(name, "GPU_DEVICE_TOTAL_MEM_SIZE"))
            except RuntimeError:
                return None
            mem[name] = size
            mem["all_gpu_left"] += size
        else:
            return None
    return mem


def query_ratio(mem: dict[str, float], device: str, total: int, last: bool) -> float:
    """``update_config``: the fraction of the remaining model ``device`` may take; updates the
    GPUs' pool like the real function does."""
    if last:
        return 1.0
    own = mem.get(device)
    if own is None and device.startswith("CPU"):
        return 1.0
    if own is None:
        return 1.0
    if own >= ESTIMATE * total or device.startswith("CPU"):
        ratio = 1.0
    elif mem["all_gpu_left"] >= ESTIMATE * total or "CPU" in mem:
        ratio = own / (total * ESTIMATE) if total else 1.0
        if total < own:
            ratio = 1.0
    else:
        ratio = own / mem["all_gpu_left"]
    if "GPU" in device:
        mem["all_gpu_left"] -= own
    return ratio


def _boundary(ops: Sequence[Node], taken: set[int]) -> int:
    """Elements of the tensors that leave the taken part (what a cut transfers)."""
    total = 0
    for op in ops:
        if id(op) not in taken or isinstance(op, (Constant, Parameter)):
            continue
        users = [c for c in _consumers(op) if not isinstance(c, Result)]
        if any(id(c) not in taken for c in users):
            total += int(np.prod(list(op.get_output_shape(0)), dtype=np.int64))
    return total


def _consumers(op: Node) -> list[Node]:
    return [t.get_node() for out in op.outputs() for t in out.get_target_inputs()]


def _close(ops: Sequence[Node], taken: set[int]) -> set[int]:
    """Drop ops that read something not taken (graph inputs aside), then constants that no
    taken op reads: what ``get_supported_nodes`` does after a cut."""
    taken = set(taken)
    inside = {id(op) for op in ops}
    for op in ops:
        if isinstance(op, (Constant, Parameter)) or id(op) not in taken:
            continue
        for src in op.input_values():
            node = src.get_node()
            if isinstance(node, Parameter) or id(node) not in inside:
                continue
            if id(node) not in taken:
                taken.discard(id(op))
                break
    for op in ops:
        if isinstance(op, Constant) and id(op) in taken:
            if not any(id(c) in taken for c in _consumers(op)):
                taken.discard(id(op))
    return taken


def ratio_supported(ops: Sequence[Node], supports: Callable[[str], bool],
                    ratio: float) -> set[int]:
    """The ids of ``ops`` (a topologically ordered part of a model) a device with
    ``QUERY_MODEL_RATIO = ratio`` reports as supported (``ov::get_supported_nodes``)."""
    supported = {id(op) for op in ops if supports(op.get_type_name())}
    consts = [op for op in ops if isinstance(op, Constant)]
    total = sum(constant_bytes(c) for c in consts)
    if ratio >= 1.0 or total == 0 or not supported:
        return supported
    lo, hi = ratio * total * BAND[0], ratio * total * BAND[1]
    cuts: list[tuple[Node, bool]] = []  # (split constant, kept by the device)
    running, first, small = 0, True, False
    for c in consts:
        if id(c) not in supported:
            continue
        running += constant_bytes(c)
        small = small or running <= hi
        if first:
            if not small:
                return set()  # already the first constant is too much: the device takes nothing
            if running >= lo:
                cuts.append((c, running < hi))
                first = False
        elif lo <= running <= hi:
            cuts.append((c, running < hi))
        elif running > hi:
            break
    best: set[int] | None = None
    best_len = 0
    for split, keep in cuts:
        taken: set[int] = set()
        ready = started = False
        for op in ops:
            if id(op) not in supported:
                continue
            if op is split:
                ready = True
                if keep:
                    taken.add(id(op))
                    continue
            if ready and isinstance(op, Constant):
                started = True
                continue
            if ready and started:
                continue
            taken.add(id(op))
        taken = _close(ops, taken)
        size = _boundary(ops, taken)
        if best is None or size < best_len:
            best, best_len = taken, size
    return best if best is not None else set()


def pipeline_affinities(core, model: Model, devices: Sequence[tuple[str, Any]]
                        ) -> dict[Node, str] | None:
    """``{node: device}`` for every node of ``model`` placed by PIPELINE_PARALLEL, or None when
    the memory map cannot be built (HETERO then splits greedily, as the source does).

    ``devices`` are ``(name in the priority list, DeviceSpec)`` pairs in priority order."""
    mem = memory_map(core, [name for name, _spec in devices])
    if mem is None:
        return None
    ops = model.get_ordered_ops()
    aff: dict[Node, str] = {}
    for index, (name, spec) in enumerate(devices):
        left = [op for op in ops if op not in aff and not isinstance(op, (Parameter, Result))]
        if not left:
            break
        total = sum(constant_bytes(op) for op in left if isinstance(op, Constant))
        ratio = query_ratio(mem, name, total, index == len(devices) - 1)
        core.trace.event(core.clock.now, "pipeline_ratio", name, model.get_friendly_name(),
                         ratio=round(ratio, 4), weights_left=total)
        taken = ratio_supported(left, spec.supports, ratio)
        for op in left:
            if id(op) in taken:
                aff[op] = name
    for op in ops:  # graph inputs go with their first consumer, outputs with their producer
        if isinstance(op, Parameter):
            users = [aff[c] for c in _consumers(op) if c in aff]
            if users:
                aff[op] = users[0]
        elif isinstance(op, Result):
            producer = op.input_value(0).get_node()
            if producer in aff:
                aff[op] = aff[producer]
    return aff


def weights_by_device(affinity: Mapping[Node, str]) -> dict[str, int]:
    """Bytes of constants each device holds under ``affinity`` (what pipeline parallelism
    balances)."""
    out: dict[str, int] = {}
    for node, device in affinity.items():
        if isinstance(node, Constant):
            out[device] = out.get(device, 0) + constant_bytes(node)
    return out


def layered_model(layers: int = 40, width: int = 16384, *, seed: int = 0,
                  name: str = "layered-f16"):
    """A chain of ``layers`` MatMul + Relu blocks with ``width x width`` f16 weights (a Convert to
    f32 before each MatMul, as compressed OpenVINO IRs have), weights made lazily.

    The default holds 40 x 512 MiB = 21.5 GB of weights: an LLM-sized model for pipeline
    parallelism that ovlab times from its shapes without making the weights (ovlab only).
    """
    from .... import opset as ops

    x = ops.parameter([1, width], np.float32, name="hidden")
    y = x
    scale = 1.0 / np.sqrt(width)
    for i in range(layers):
        w = lazy_constant([width, width], np.float16, seed=seed + i, scale=scale,
                          name=f"layer{i}/weights")
        y = ops.matmul(y, ops.convert(w, np.float32, name=f"layer{i}/weights/convert"),
                       False, False, name=f"layer{i}/matmul")
        y = ops.relu(y, name=f"layer{i}/relu")
    return Model([ops.result(y, name="out")], [x], name)
