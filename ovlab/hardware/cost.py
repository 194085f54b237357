"""The cost model: how long ops, inferences, compiles and transfers take on a device.

Each op is timed as a roofline, ``max(flops / (peak * efficiency), bytes / bandwidth)``, plus a
fixed dispatch cost. Batching helps for the reasons it helps on real hardware: the per-op and
per-inference costs are paid once per batch, and weights are read once per batch (the graph layer
counts them once), so a batch of N costs more than one inference and less than N. Streams split a
device: with S busy streams each inference takes ``S ** stream_scaling`` times as long, so total
throughput grows by ``S ** (1 - stream_scaling)`` (how idle streams are treated depends on the
device's ``stream_share``, see ``runtime/sharing.py``). Jitter is lognormal and seeded.
"""

from __future__ import annotations

import math
import random

from .specs import DeviceSpec

# f16 / int8 tensors move half / a quarter of the bytes the graph layer counts (it counts f32)
_BYTES_SCALE = {"f32": 1.0, "f16": 0.5, "i8": 0.25}


def compute_precision(spec: DeviceSpec, model_precision: str, inference_precision: str) -> str:
    """Which arithmetic the device uses: INT8 models use int8 where the device has INT8."""
    if model_precision == "INT8" and "INT8" in spec.capabilities and "i8" in spec.peak_gflops:
        return "i8"
    if inference_precision in ("f16", "bf16") and "f16" in spec.peak_gflops:
        return "f16"
    return "f32" if "f32" in spec.peak_gflops else next(iter(spec.peak_gflops))


def inference_time(spec: DeviceSpec, op_costs, precision: str) -> float:
    """Seconds for one (possibly batched) inference of ``op_costs`` on one whole stream."""
    peak = spec.peak_gflops[precision] * 1e9 * spec.efficiency
    bw = spec.mem_bw_gbs * 1e9
    scale = _BYTES_SCALE.get(precision, 1.0)
    total = spec.per_infer_s
    for op in op_costs:
        t_compute = op.flops / peak
        t_memory = (op.bytes_read + op.bytes_written) * scale / bw
        total += max(t_compute, t_memory) + spec.per_op_s
    return total


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


def optimal_batch_size(spec: DeviceSpec, op_costs) -> int:
    """OPTIMAL_BATCH_SIZE as the GPU plugin derives it: 16 x a power of two from how
    compute-bound the model is on this device, capped by MAX_BATCH_SIZE and 256."""
    if not spec.optimal_batch:
        return 1
    flops = sum(op.flops for op in op_costs)
    nbytes = sum(op.bytes_read + op.bytes_written for op in op_costs) * 0.5 or 1.0
    intensity = flops / nbytes
    balance = spec.peak_gflops.get("f16", max(spec.peak_gflops.values())) / spec.mem_bw_gbs
    tolerance = max(intensity / balance, 1e-3)
    batch = spec.optimal_batch * 2.0 ** round(math.log2(tolerance))
    cap = min(256, spec.max_batch or 256)
    return int(max(1, min(batch, cap)))


class Jitter:
    """Seeded multiplicative noise on inference times (lognormal, mean 1)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def factor(self, sigma: float) -> float:
        if sigma <= 0:
            return 1.0
        return self._rng.lognormvariate(-0.5 * sigma * sigma, sigma)

    def uniform(self) -> float:
        return self._rng.random()
