"""The cost model: how long ops, inferences, compiles and transfers take on a device.

Each op is timed as a roofline, ``max(flops / (peak * efficiency), bytes / bandwidth)``, plus a
fixed dispatch cost. Batching helps for the reasons it helps on real hardware: the per-op and
per-inference costs are paid once per batch, and weights are read once per batch (the graph layer
counts them once), so a batch of N costs more than one inference and less than N. Streams split a
device: with S busy streams each inference takes ``S ** stream_scaling`` times as long, so total
throughput grows by ``S ** (1 - stream_scaling)`` (how idle streams are treated depends on the
device's ``stream_share``, see ``runtime/sharing.py``). Jitter is lognormal and seeded.

The fitted devices (``fuse_ops=True``, issue 13) refine this the way OpenVINO's plugins execute a
graph, so that a device fitted on one model predicts others:

* **Op kinds.** A dense convolution, a depthwise convolution, a matrix product and everything
  else (pooling, concatenation, normalisation, element-wise ops) reach different fractions of
  the peak: ``efficiency_by_precision`` (dense convolutions) times ``kind_efficiency[kind]``.
  Memory-bound ops reach ``mem_efficiency`` of the bandwidth.
* **Fusion.** Bias additions, activations, residual sums and FakeQuantize that follow a
  convolution or a matrix product run inside its kernel (the CPU plugin reports them
  ``NOT_RUN``/``undef``; the GPU plugin fuses the same post-ops): they cost nothing. Ops that do
  no work (views, constant folding) cost nothing either, not even a dispatch.
* **Precision.** ``bf16`` (the CPU's default on AVX512_BF16 / AMX machines) and ``f16`` move half
  the bytes of f32, ``i8`` a quarter, and each has its own peak. In an INT8 model only the
  convolutions and matrix products run in int8; the other ops stay in the float precision.

Memory-bound work (issue 22; on for the published platforms' devices, ``platforms.memory_physics``,
and for every device ``ovlab calibrate`` writes; off for the seed's presets and ``cpu``):

* **The cache rule.** An op whose traffic fits in the last-level cache (``cache_mb``) moves it at
  the cache's bandwidth ``llc_gbps`` (free when 0); the rest moves at ``mem_bw_gbs *
  mem_efficiency``. On a ``share_bandwidth`` device a compiled model's S streams split the cache
  (each has ``cache_mb / S``), so a model that lives in cache alone spills to DRAM under
  THROUGHPUT.
* **Shared bandwidth.** Each running inference demands ``dram_bytes / its time`` of the
  bandwidth (:func:`memory_demand`); ``runtime/sharing.py`` adds the demands of every device of a
  ``memory_domain`` (a package's CPU and iGPU) and slows them all when the sum passes 1, as it
  does for compute. A memory-bound model's streams then stop adding throughput at the bandwidth.

The seed's presets (``fuse_ops=False``) keep the single-efficiency model they were calibrated with.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

from .specs import DeviceSpec

# f16 / bf16 / int8 tensors move half / half / a quarter of the bytes the graph layer counts (f32)
_BYTES_SCALE = {"f32": 1.0, "f16": 0.5, "bf16": 0.5, "i8": 0.25}
KINDS = ("conv", "depthwise", "matmul", "other")
# ops a convolution or matrix product takes in as post-ops (oneDNN / clDNN fusions)
FUSABLE = frozenset({
    "Add", "Multiply", "Subtract", "Relu", "Clamp", "Sigmoid", "Tanh", "Elu", "Gelu", "Swish",
    "HSwish", "HSigmoid", "Mish", "PRelu", "FakeQuantize", "Exp", "SoftPlus", "Abs", "Sqrt",
})
_PRODUCERS = frozenset({"Convolution", "GroupConvolution", "MatMul"})


def compute_precision(spec: DeviceSpec, model_precision: str, inference_precision: str) -> str:
    """Which arithmetic the device uses: INT8 models use int8 where the device has INT8; a
    bf16 or f16 hint uses that precision where the device has a peak for it."""
    if model_precision == "INT8" and "INT8" in spec.capabilities and "i8" in spec.peak_gflops:
        return "i8"
    if inference_precision in ("f16", "bf16"):
        if inference_precision in spec.peak_gflops:
            return inference_precision
        if "f16" in spec.peak_gflops:
            return "f16"
    return "f32" if "f32" in spec.peak_gflops else next(iter(spec.peak_gflops))


def efficiency(spec: DeviceSpec, kind: str, precision: str) -> float:
    """Fraction of ``peak_gflops[precision]`` an op of ``kind`` reaches on ``spec``."""
    base = spec.efficiency_by_precision.get(precision, spec.efficiency)
    if kind == "depthwise" and precision == "i8":
        base *= spec.depthwise_i8_rate  # no input channels to sum: 16-bit multiply-adds
    elif kind == "depthwise" and precision == "bf16":
        base *= spec.depthwise_bf16_rate  # AMX tiles do not take a depthwise convolution
    elif kind == "matmul" and precision == "i8":
        base *= spec.matmul_i8_rate  # a fitted share (family devices; 1 elsewhere)
    return base * spec.kind_efficiency.get(kind, 1.0)


def op_kind(type_name: str, node=None) -> str:
    """``conv``, ``depthwise``, ``matmul`` or ``other`` (see the module docstring)."""
    if type_name == "Convolution":
        return "conv"
    if type_name == "GroupConvolution":
        if node is not None:
            shape = node.get_input_shape(1)  # [G, O/G, I/G, kh, kw]
            if len(shape) >= 3 and shape[1] == 1 and shape[2] == 1:
                return "depthwise"
        return "conv"
    if type_name == "MatMul":
        return "matmul"
    return "other"


def graph_facts(model, n_costs: int) -> tuple[list[str], list[bool]] | None:
    """(kind, fused) for each compute op of ``model``, aligned with ``model._cost()``.

    An op is fused when it is one of ``FUSABLE`` and its data input (the first input that is
    not a constant) comes from a convolution, a matrix product or an op already fused into one,
    and a FakeQuantize is fused into the op that computes its input (or the input's conversion).
    None when the model's ops do not line up with ``n_costs`` cost rows.
    """
    ops = [op for op in model.get_ordered_ops()
           if op.get_type_name() not in ("Parameter", "Constant", "Result")]
    if len(ops) != n_costs:
        return None
    constant: set[int] = set()
    into_kernel: set[int] = set()  # ops whose output is a conv/matmul kernel's output
    kinds: list[str] = []
    fused: list[bool] = []
    for op in model.get_ordered_ops():
        t = op.get_type_name()
        if t == "Constant":
            constant.add(id(op))
            continue
        if t in ("Parameter", "Result"):
            continue
        producers = [op.input_value(i).get_node() for i in range(op.get_input_size())]
        data = [p for p in producers if id(p) not in constant]
        if not data and producers:
            constant.add(id(op))  # folded when compiled
        # FakeQuantize on an activation becomes the output quantization of whatever computed it
        # (a post-op or a fused snippet); on a model input it becomes part of the input's
        # conversion (the 2026.4.1 CPU plugin's counters show it as a Subgraph that is NOT_RUN)
        is_fused = bool(data) and ((t in FUSABLE and id(data[0]) in into_kernel)
                                   or t == "FakeQuantize")
        if t in _PRODUCERS or is_fused:
            into_kernel.add(id(op))
        kinds.append(op_kind(t, op))
        fused.append(is_fused)
    return kinds, fused


# an input of fewer channels than this (an image's 3) folds the kernel window into the
# reduction: oneDNN's first-layer kernels reduce over channels x window, not channels per tap
_FOLD_WINDOW_BELOW = 16


def gemm_dims(model, n_costs: int) -> list[tuple[int, int]] | None:
    """(K, N) of each compute op of ``model`` seen as a matrix product, aligned with
    ``model._cost()``: a convolution reduces over its input channels per kernel tap (K; the
    whole window for an input of fewer than 16 channels) into its output channels (N), per
    group; a matrix product over its inner dimension into its columns. (0, 0) for other ops;
    None when the ops do not line up with ``n_costs`` cost rows (as ``graph_facts``)."""
    ops = [op for op in model.get_ordered_ops()
           if op.get_type_name() not in ("Parameter", "Constant", "Result")]
    if len(ops) != n_costs:
        return None
    dims: list[tuple[int, int]] = []
    for op in ops:
        t = op.get_type_name()
        try:
            if t in ("Convolution", "GroupConvolution"):
                w = [int(v) for v in op.get_input_shape(1)]
                if t == "GroupConvolution":
                    w = w[1:]  # [O/G, I/G, kh, kw]
                k = w[1] if w[1] >= _FOLD_WINDOW_BELOW else w[1] * math.prod(w[2:])
                dims.append((k, w[0]))
            elif t == "MatMul":
                a = [int(v) for v in op.get_input_shape(0)]
                b = [int(v) for v in op.get_input_shape(1)]
                attrs = op.get_attributes()
                k = a[-2] if attrs.get("transpose_a") and len(a) > 1 else a[-1]
                n = (b[-2] if attrs.get("transpose_b") else b[-1]) if len(b) > 1 else 1
                dims.append((k, n))
            else:
                dims.append((0, 0))
        except (IndexError, TypeError, ValueError):  # a dynamic shape: no padding known
            dims.append((0, 0))
    return dims


def tile_utilisation(spec: DeviceSpec, precision: str, k, n):
    """The share of a matrix engine's work that is real for a product of reduction K into N
    columns: the engine computes in blocks (``spec.channel_blocks[precision]`` = (K block, N
    block); AMX: tiles of 16 rows x 64 bytes, so int8 K in 64s, bf16 in 32s, N in 16s), and a
    K or N that is not a multiple of its block pads the last block with zeros. 1 where the
    device has no blocks for the precision or the op is no product (K or N of 0). Works on
    numbers and NumPy arrays."""
    kb, nb = spec.channel_blocks.get(precision, (1, 1))
    if kb <= 1 and nb <= 1:
        return 1.0 if not hasattr(k, "shape") else k * 0 + 1.0
    import numpy as np

    k = np.asarray(k, float)
    n = np.asarray(n, float)
    kk = np.where(k > 0, k / (np.ceil(np.maximum(k, 1) / kb) * kb), 1.0)
    nn = np.where(n > 0, n / (np.ceil(np.maximum(n, 1) / nb) * nb), 1.0)
    u = kk * nn
    return float(u) if u.ndim == 0 else u


# ops that read only the rows they pick from a table (an embedding lookup reads a few rows of a
# large matrix); the graph layer counts every input whole, a plugin moves only what it picks
_GATHERS = frozenset({"Gather", "GatherND", "GatherElements"})


def moved_bytes(op) -> float:
    """Bytes an executed op moves (f32-counted): every input and output, but a gather moves
    about what it writes (the picked rows, then the output)."""
    if op.type_name in _GATHERS:
        return 2.0 * op.bytes_written
    return op.bytes_read + op.bytes_written


def cache_fits(spec: DeviceSpec, nbytes: float, cache_share: float = 1.0) -> bool:
    """Whether an op's ``nbytes`` of traffic fit in its share of the last-level cache
    (``cache_share``: the fraction of ``cache_mb`` one stream has; 1 unless the device shares
    its bandwidth, where a compiled model's streams split the cache)."""
    return spec.cache_mb > 0 and nbytes <= spec.cache_mb * 1e6 * cache_share


def memory_seconds(spec: DeviceSpec, nbytes: float, cache_share: float = 1.0) -> float:
    """Time to move ``nbytes`` (at the op's precision): from memory at ``mem_efficiency`` of the
    bandwidth, unless they fit in the device's last-level cache (``cache_mb``): then at the
    cache's bandwidth ``llc_gbps``, or for free when it is not given (on-chip bandwidth is many
    times the memory's)."""
    if cache_fits(spec, nbytes, cache_share):
        return nbytes / (spec.llc_gbps * 1e9) if spec.llc_gbps > 0 else 0.0
    return nbytes / (spec.mem_bw_gbs * 1e9 * spec.mem_efficiency)


def vector_gflops(spec: DeviceSpec) -> float:
    """The device's f32 vector peak (an NPU, which has none: half its f16 peak), the rate of
    the element-wise epilogue of a convolution or matrix product (``epilogue_seconds``)."""
    return spec.peak_gflops.get("f32") or 0.5 * max(spec.peak_gflops.values())


_PRODUCER_KINDS = frozenset({"conv", "depthwise", "matmul"})


def output_elements(op, kind: str) -> float:
    """The output elements of a convolution or matrix product (``bytes_written`` counts 4
    bytes each), which pay the epilogue; 0 for any other op."""
    return op.bytes_written / 4 if kind in _PRODUCER_KINDS else 0.0


def epilogue_seconds(spec: DeviceSpec, op, kind: str) -> float:
    """The per-output work of a convolution or matrix product after its reduction:
    ``epilogue_flops`` per output element at the vector rate, whatever the op's precision
    (``DeviceSpec.epilogue_flops``)."""
    if spec.epilogue_flops <= 0:
        return 0.0
    return output_elements(op, kind) * spec.epilogue_flops / (vector_gflops(spec) * 1e9)


def _op_seconds(spec: DeviceSpec, op, kind: str, precision: str, scale: float,
                cache_share: float = 1.0, utilisation: float = 1.0) -> float:
    peak = spec.peak_gflops[precision] * 1e9
    t_compute = op.flops / (peak * efficiency(spec, kind, precision) * utilisation) \
        + epilogue_seconds(spec, op, kind)
    return max(t_compute, memory_seconds(spec, moved_bytes(op) * scale, cache_share))


def inference_time(spec: DeviceSpec, op_costs: Sequence, precision: str, model=None) -> float:
    """Seconds for one (possibly batched) inference of ``op_costs`` on one whole stream.

    ``model`` (the graph the costs come from) lets a ``fuse_ops`` device fuse post-ops and tell
    depthwise from dense convolutions; without it every op is timed on its own.
    """
    overhead, work = inference_parts(spec, op_costs, precision, model)
    return overhead + work


def inference_parts(spec: DeviceSpec, op_costs: Sequence, precision: str,
                    model=None, cache_share: float = 1.0) -> tuple[float, float]:
    """One inference as (overhead, work) seconds: the per-inference and per-op dispatch costs,
    which one thread pays in turn, and the ops' compute / memory time, which a stream's threads
    share. A fitted CPU stretches only the work when its cores are split into streams: a model
    of many tiny ops (a small transformer) gains almost nothing from a LATENCY stream's extra
    threads and so gains the most from THROUGHPUT's streams, as measured on the real CPU plugin.
    """
    scale = _BYTES_SCALE.get(precision, 1.0)
    overhead, work = spec.per_infer_s, 0.0
    if not spec.fuse_ops:
        peak = spec.peak_gflops[precision] * 1e9 * spec.efficiency
        bw = spec.mem_bw_gbs * 1e9
        total = overhead
        for op in op_costs:  # (the seed's exact arithmetic: stored lab outputs depend on it)
            t_compute = op.flops / peak
            t_memory = (op.bytes_read + op.bytes_written) * scale / bw
            total += max(t_compute, t_memory) + spec.per_op_s
        return total, 0.0
    facts = graph_facts(model, len(op_costs)) if model is not None else None
    floating = float_precision(spec, precision)
    # a matrix engine's padding of small channel counts (``channel_blocks``: issue 35's CPUs)
    dims = gemm_dims(model, len(op_costs)) if spec.channel_blocks and model is not None \
        else None
    for i, op, kind in executed_rows(op_costs, facts):
        prec = precision if kind != "other" else floating
        util = 1.0
        if dims is not None and kind in ("conv", "matmul"):
            util = tile_utilisation(spec, prec, *dims[i])
        work += _op_seconds(spec, op, kind, prec, _BYTES_SCALE.get(prec, 1.0), cache_share,
                            util)
        overhead += op_dispatch(spec, kind, prec)
    return overhead, work


def dram_bytes(spec: DeviceSpec, op_costs: Sequence, precision: str, model=None,
               cache_share: float = 1.0) -> float:
    """Bytes one inference moves to and from DRAM on a ``fuse_ops`` device: the traffic of every
    executed op that does not fit in its share of the last-level cache (the memory demand a
    ``share_bandwidth`` device's inference puts on its memory domain; 0 on the seed's devices)."""
    if not spec.fuse_ops:
        return 0.0
    facts = graph_facts(model, len(op_costs)) if model is not None else None
    floating = float_precision(spec, precision)
    total = 0.0
    for op, kind in executed_ops(op_costs, facts):
        prec = precision if kind != "other" else floating
        nbytes = moved_bytes(op) * _BYTES_SCALE.get(prec, 1.0)
        if not cache_fits(spec, nbytes, cache_share):
            total += nbytes
    return total


def memory_demand(spec: DeviceSpec, nbytes: float, seconds: float) -> float:
    """The share of its memory an inference moving ``nbytes`` of DRAM traffic in ``seconds``
    keeps busy: (nbytes / seconds) over the bandwidth the device reaches (``mem_bw_gbs *
    mem_efficiency``). A memory domain whose running inferences demand more than 1 in total
    slows them all by the total (``runtime/sharing.py``)."""
    if nbytes <= 0 or seconds <= 0:
        return 0.0
    return nbytes / seconds / (spec.mem_bw_gbs * 1e9 * spec.mem_efficiency)


def executed_ops(op_costs: Sequence, facts) -> Iterator[tuple[Any, str]]:
    """(cost row, op kind) of every op a ``fuse_ops`` device executes: not a post-op fused into
    the kernel before it (``facts`` from :func:`graph_facts`), not a view or a folded constant.
    ``fit.py``'s vectorised copy of the cost model reads the same ops."""
    for _i, op, kind in executed_rows(op_costs, facts):
        yield op, kind


def executed_count(op_costs: Sequence, model=None) -> int:
    """How many ops a ``fuse_ops`` device executes (:func:`executed_ops`) of ``op_costs``."""
    facts = graph_facts(model, len(op_costs)) if model is not None else None
    return sum(1 for _ in executed_rows(op_costs, facts))


def executed_rows(op_costs: Sequence, facts) -> Iterator[tuple[int, Any, str]]:
    """:func:`executed_ops` with each op's index in ``op_costs`` (to look up its
    :func:`gemm_dims`)."""
    for i, op in enumerate(op_costs):
        if facts is not None and facts[1][i]:
            continue  # a post-op inside the kernel before it
        if op.flops == 0 and op.bytes_read == 0 and op.bytes_written == 0:
            continue  # a view or a folded constant: not executed
        yield i, op, (facts[0][i] if facts is not None else op_kind(op.type_name))


def op_dispatch(spec: DeviceSpec, kind: str, precision: str) -> float:
    """The dispatch cost of one executed op of a ``fuse_ops`` device: ``per_op_s`` scaled by its
    kind, plus ``per_op_i8_s`` when it computes in int8."""
    return spec.per_op_s * spec.per_op_kind.get(kind, 1.0) + (
        spec.per_op_i8_s if precision == "i8" else 0.0)


def stream_times(spec: DeviceSpec, overhead: float, work: float, streams: int) -> float:
    """One inference on one of ``streams`` streams, from :func:`inference_parts`: streams stretch
    the work (``stream_factor``) and, on a fitted CPU split into several streams, scale the
    dispatch overhead by ``stream_dispatch``."""
    if streams > 1 and spec.fuse_ops:
        overhead *= spec.stream_dispatch
    return overhead + work * stream_factor(spec, streams)


def float_precision(spec: DeviceSpec, precision: str) -> str:
    """The precision of the ops an INT8 model does not quantize. OpenVINO's low-precision
    transformations run convolutions and matrix products in int8 and leave pooling,
    normalisation, concatenation and the like in the device's float inference precision."""
    if precision != "i8":
        return precision
    return compute_precision(spec, "FP32", spec.inference_precision)


def compile_time(spec: DeviceSpec, n_ops: int, weight_bytes: float) -> float:
    """Seconds to compile a model of ``n_ops`` compute ops and ``weight_bytes`` of constants."""
    return spec.compile_base_s + spec.compile_per_op_s * n_ops + spec.compile_per_mb_s * weight_bytes / 1e6


def transfer_time(src: DeviceSpec, dst: DeviceSpec, nbytes: float) -> float:
    """Seconds to move a tensor from ``src`` to ``dst`` (HETERO's intermediate tensors)."""
    if src is dst:
        return 0.0
    link = min(src.link_gbs, dst.link_gbs) * 1e9
    return max(src.link_latency_s, dst.link_latency_s) + nbytes / link


def stream_factor(spec: DeviceSpec, streams: int) -> float:
    return float(streams) ** spec.stream_scaling if streams > 1 else 1.0


def optimal_batch_size(spec: DeviceSpec, op_costs, model=None) -> int:
    """OPTIMAL_BATCH_SIZE as the GPU plugin derives it: 16 x a power of two from how
    compute-bound the model is on this device, capped by MAX_BATCH_SIZE and 256.

    With ``spec.cache_mb`` and the model, the plugin's own heuristic
    (``mem_bandwidth_pressure_tolerance``): the worst ratio, over 1x1 convolutions and matrix
    products, of the cache to the data the op moves (f16, or int8 for quantized weights), rounded
    down to a power of two. Otherwise the seed's estimate from arithmetic intensity."""
    if not spec.optimal_batch:
        return 1
    if spec.cache_mb > 0 and model is not None:
        tolerance = _cache_tolerance(model, spec.cache_mb * 1024 * 1024)
        if tolerance is None:
            return 1
        batch = max(1.0, spec.optimal_batch * 2.0 ** math.floor(math.log2(tolerance)))
        return int(min(batch, 256, spec.max_batch or 256))
    flops = sum(op.flops for op in op_costs)
    nbytes = sum(op.bytes_read + op.bytes_written for op in op_costs) * 0.5 or 1.0
    intensity = flops / nbytes
    balance = spec.peak_gflops.get("f16", max(spec.peak_gflops.values())) / spec.mem_bw_gbs
    tolerance = max(intensity / balance, 1e-3)
    batch = spec.optimal_batch * 2.0 ** round(math.log2(tolerance))
    cap = min(256, spec.max_batch or 256)
    return int(max(1, min(batch, cap)))


def _cache_tolerance(model, cache_bytes: float) -> float | None:
    """``ov::mem_bandwidth_pressure_tolerance``: min of cache / data moved over the 1x1 (not
    >= 3x3) convolutions and the MatMuls; None when the model has none (UNKNOWN)."""
    import numpy as np

    quantized = any(op.get_type_name() == "FakeQuantize" for op in model.get_ordered_ops())
    size = 1 if quantized else 2  # after the GPU plugin's transformations: i8 or f16
    worst = None
    for op in model.get_ordered_ops():
        t = op.get_type_name()
        if t not in ("Convolution", "MatMul"):
            continue
        w = op.get_input_shape(1)
        if t == "Convolution" and len(w) >= 4 and w[2] >= 3 and w[3] >= 3:
            continue  # compute-bound
        moved = int(np.prod(op.get_input_shape(0))) + int(np.prod(op.get_output_shape(0)))
        if t == "MatMul" and op.input_value(1).get_node().get_type_name() not in (
                "Constant", "FakeQuantize", "Convert"):
            moved += int(np.prod(w))
        factor = cache_bytes / (moved * size)
        worst = factor if worst is None else min(worst, factor)
    return worst


class Jitter:
    """Seeded multiplicative noise on inference times (lognormal, mean 1)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def factor(self, sigma: float) -> float:
        if sigma <= 0:
            return 1.0
        # lognormvariate(mu, sigma) is exp(normalvariate(mu, sigma)): the same draw, one call
        # less per inference
        return math.exp(self._rng.normalvariate(-0.5 * sigma * sigma, sigma))

    def uniform(self) -> float:
        return self._rng.random()
