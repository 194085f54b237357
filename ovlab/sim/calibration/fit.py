"""Fitting a device's cost-model parameters to measured or published figures.

Two fitters, one for each kind of evidence:

* :func:`fit_measured` (``ovlab calibrate``, the ``cpu`` preset): many measurements of one device
  (every zoo model, FP32 and INT8, latency and throughput). A damped Gauss-Newton fit in log space
  of a few parameters (per-inference and per-op costs, dense-conv efficiency per precision, op-kind
  factors, memory efficiency, stream scaling, the async hand-off) minimises the squared log ratio
  of simulated to measured figures, with a weak pull towards prior values so that a parameter the
  measurements cannot see (a depthwise factor when no model has depthwise convolutions) stays
  at its prior instead of wandering off. The simulated figures come from :func:`predict`, the
  cost model's own arithmetic, so the fit is fast; the benchmark then checks the result with the
  full simulator.
* :func:`fit_rows` (the presets of Intel's published platforms): a handful of published rows per
  device (ResNet-50 throughput per precision, one latency). Each parameter is paired with the
  row it explains best and found by bisection of the full simulation (``ovlab.tools.benchmark``), so
  automatic batching, streams and the platform's power budget are all part of the fit.

Only parameters are fitted; the structure (roofline per op, fusion, kinds, streams) is the cost
model's (``cost.py``), so a device fitted on one model *predicts* the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ..hardware import cost
from ..hardware.specs import DeviceSpec

# --- the parameters a fit may move --------------------------------------------------------------
# name -> (read from a spec, write into a spec); names: per_infer_s, per_op_s, eff.<precision>,
# kind.<kind>, mem_efficiency, stream_scaling, async_overhead_s


def get_param(spec: DeviceSpec, name: str) -> float:
    if name.startswith("eff."):
        return spec.efficiency_by_precision.get(name[4:], spec.efficiency)
    if name.startswith("kind."):
        return spec.kind_efficiency.get(name[5:], 1.0)
    if name.startswith("per_op."):
        return spec.per_op_kind.get(name[7:], 1.0)
    return float(getattr(spec, name))


def set_param(spec: DeviceSpec, name: str, value: float) -> DeviceSpec:
    if name.startswith("eff."):
        return replace(spec, efficiency_by_precision={**spec.efficiency_by_precision,
                                                      name[4:]: value})
    if name.startswith("kind."):
        return replace(spec, kind_efficiency={**spec.kind_efficiency, name[5:]: value})
    if name.startswith("per_op."):
        return replace(spec, per_op_kind={**spec.per_op_kind, name[7:]: value})
    return replace(spec, **{name: value})


def with_params(spec: DeviceSpec, values: dict[str, float]) -> DeviceSpec:
    for name, value in values.items():
        spec = set_param(spec, name, value)
    return spec


# --- the cost model's arithmetic, vectorised per model ------------------------------------------
@dataclass(frozen=True)
class _Work:
    """The executed ops of one model at one precision: kinds, FLOPs and (f32-counted) bytes."""

    model_precision: str
    kinds: tuple[str, ...]
    flops: np.ndarray
    nbytes: np.ndarray
    outputs: np.ndarray  # output elements of each convolution / matrix product, 0 for the rest


@lru_cache(maxsize=64)
def _work(name: str, precision: str) -> _Work:
    from ..graph import model_precision
    from ..models import zoo

    model = zoo.load(name, precision)
    costs = model._cost(model._batch_size())
    facts = cost.graph_facts(model, len(costs))
    kinds, flops, nbytes, outputs = [], [], [], []
    for op, kind in cost.executed_ops(costs, facts):
        kinds.append(kind)
        flops.append(op.flops)
        nbytes.append(cost.moved_bytes(op))
        outputs.append(cost.output_elements(op, kind))
    return _Work(model_precision(model), tuple(kinds), np.array(flops, float),
                 np.array(nbytes, float), np.array(outputs, float))


def latency_s(spec: DeviceSpec, name: str, precision: str) -> float:
    """One inference of zoo model ``name`` on one whole stream of a ``fuse_ops`` device, as
    ``cost.inference_time`` computes it (without jitter)."""
    return sum(latency_parts(spec, name, precision))


def latency_parts(spec: DeviceSpec, name: str, precision: str,
                  cache_share: float = 1.0) -> tuple[float, float]:
    """``latency_s`` as ``cost.inference_parts`` splits it: (dispatch overhead, work)."""
    overhead, work, _dram = _parts(spec, name, precision, cache_share)
    return overhead, work


def _parts(spec: DeviceSpec, name: str, precision: str,
           cache_share: float = 1.0) -> tuple[float, float, float]:
    """(dispatch overhead, work, DRAM bytes) of one inference, as ``cost.inference_parts`` and
    ``cost.dram_bytes`` compute them."""
    w = _work(name, precision)
    prec = cost.compute_precision(spec, w.model_precision, spec.inference_precision)
    floating = cost.float_precision(spec, prec)
    precs = [prec if k != "other" else floating for k in w.kinds]
    peak = np.array([spec.peak_gflops[p] * 1e9 for p in precs])
    eff = np.array([cost.efficiency(spec, k, p) for k, p in zip(w.kinds, precs, strict=True)])
    scale = np.array([cost._BYTES_SCALE.get(p, 1.0) for p in precs])
    t_compute = w.flops / (peak * eff) \
        + w.outputs * spec.epilogue_flops / (cost.vector_gflops(spec) * 1e9)
    moved = w.nbytes * scale
    t_memory = moved / (spec.mem_bw_gbs * 1e9 * spec.mem_efficiency)
    dram = moved
    if spec.cache_mb > 0:
        fits = moved <= spec.cache_mb * 1e6 * cache_share
        in_cache = moved / (spec.llc_gbps * 1e9) if spec.llc_gbps > 0 else 0.0
        t_memory = np.where(fits, in_cache, t_memory)
        dram = np.where(fits, 0.0, moved)
    dispatch = sum(cost.op_dispatch(spec, k, p) for k, p in zip(w.kinds, precs, strict=True))
    return (spec.per_infer_s + dispatch, float(np.maximum(t_compute, t_memory).sum()),
            float(dram.sum()))


def throughput_streams(spec: DeviceSpec) -> int:
    return max(1, min(spec.streams_throughput, spec.range_for_streams[1]))


def predict(spec: DeviceSpec, name: str, precision: str, mode: str) -> float:
    """benchmark_app's figure on a device without automatic batching: latency in ms (LATENCY,
    one sync request) or FPS (THROUGHPUT: S streams, S x requests_per_stream requests).

    On a ``share_bandwidth`` device the S streams split the last-level cache, and when their
    DRAM traffic together needs more than the bandwidth, each inference slows by the excess
    (``runtime/sharing.py``'s rule for S identical busy streams)."""
    if mode == "latency":
        overhead, work = latency_parts(spec, name, precision)
        return (overhead + work) * 1e3
    s = throughput_streams(spec)
    share = 1.0 / s if spec.share_bandwidth else 1.0
    overhead, work, dram = _parts(spec, name, precision, share)
    # as the simulator's service time: streams stretch the work, not the dispatch overhead
    service = cost.stream_times(spec, overhead, work, s)
    if spec.share_bandwidth and spec.fuse_ops:
        service *= max(1.0, s * cost.memory_demand(spec, dram, service))
    return s / (service + spec.async_overhead_s)


# --- fitting to many measurements -----------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """A figure to match: ``value`` in ms (latency) or FPS (throughput)."""

    model: str
    precision: str
    mode: str
    value: float
    weight: float = 1.0


def _log_residuals(spec: DeviceSpec, targets: Sequence[Target]) -> np.ndarray:
    return np.array([t.weight * math.log(predict(spec, t.model, t.precision, t.mode) / t.value)
                     for t in targets])


# physical bounds: an efficiency is at most the peak, an op kind at most as efficient as a dense
# convolution, memory at most its bandwidth; overheads are small and never negative
BOUNDS = {"llc_gbps": (10.0, 1e4), "mem_bw_gbs": (1.0, 5e3), "eff.": (1e-3, 1.0), "kind.": (1e-3, 1.0), "mem_efficiency": (0.05, 1.0),
          "stream_scaling": (0.3, 1.3), "per_op_s": (0.0, 1e-3), "per_infer_s": (0.0, 1e-2),
          "per_op.": (1e-2, 3.0), "per_op_i8_s": (1e-9, 1e-4),
          "stream_dispatch": (0.05, 1.0), "epilogue_flops": (0.1, 500.0),
          "async_overhead_s": (0.0, 1e-3)}


def _bounds(name: str, bounds: dict[str, tuple[float, float]] | None = None
            ) -> tuple[float, float]:
    for key, bound in {**BOUNDS, **(bounds or {})}.items():
        if name == key or (key.endswith(".") and name.startswith(key)):
            return bound
    return (0.0, float("inf"))


def fit_measured(spec: DeviceSpec, targets: Sequence[Target], params: Sequence[str], *,
                 prior_weight: float = 0.05, iterations: int = 60,
                 bounds: dict[str, tuple[float, float]] | None = None) -> DeviceSpec:
    """Move ``params`` of ``spec`` (its current values are the priors) so that :func:`predict`
    matches ``targets`` in the least-squares sense of log ratios (Levenberg-Marquardt), within
    :data:`BOUNDS` (``bounds`` replaces some of them)."""
    prior = np.log([max(get_param(spec, p), 1e-12) for p in params])
    lo = np.log([max(_bounds(p, bounds)[0], 1e-12) for p in params])
    hi = np.log([_bounds(p, bounds)[1] for p in params])
    theta = np.clip(prior.copy(), lo, hi)

    def spec_at(th: np.ndarray) -> DeviceSpec:
        return with_params(spec, {p: float(math.exp(v)) for p, v in zip(params, th, strict=True)})

    def residuals(th: np.ndarray) -> np.ndarray:
        return np.concatenate([_log_residuals(spec_at(th), targets), prior_weight * (th - prior)])

    damping = 1e-2
    r = residuals(theta)
    for _ in range(iterations):
        jac = np.empty((len(r), len(theta)))
        for j in range(len(theta)):
            step = np.zeros_like(theta)
            step[j] = 1e-4
            jac[:, j] = (residuals(theta + step) - r) / 1e-4
        lhs = jac.T @ jac + damping * np.eye(len(theta))
        delta = np.linalg.solve(lhs, -jac.T @ r)
        delta = np.clip(delta, -1.0, 1.0)  # at most e x per step
        step = np.clip(theta + delta, lo, hi) - theta
        trial = residuals(theta + step)
        if trial @ trial < r @ r:
            theta, r = theta + step, trial
            delta = step
            damping = max(damping / 3, 1e-6)
            if np.abs(delta).max() < 1e-5:
                break
        else:
            damping *= 4
            if damping > 1e6:
                break
    return spec_at(theta)


# --- fitting to a few published rows, through the full simulation ---------------------------------
def bisect_param(make: Callable[[float], float], target: float, lo: float, hi: float, *,
                 increasing: bool, start: float | None = None, tolerance: float = 1.001) -> float:
    """The parameter value in [lo, hi] (log-bisection) where ``make(value)`` equals ``target``;
    ``increasing``: whether ``make`` grows with the parameter. With ``start``, the search begins
    in [start / 4, start * 4] and widens to [lo, hi] only if the answer lies outside."""
    def search(a: float, b: float) -> float:
        while b / a > tolerance:
            mid = math.sqrt(a * b)
            if (make(mid) < target) == increasing:
                a = mid
            else:
                b = mid
        return math.sqrt(a * b)

    if start is not None and lo < start < hi:
        a, b = max(lo, start / 4), min(hi, start * 4)
        found = search(a, b)
        if (found > a * tolerance or a == lo) and (found < b / tolerance or b == hi):
            return found
    return search(lo, hi)


def fit_rows(build: Callable[[dict[str, float]], object], steps: Sequence[tuple[str, float, float,
             Callable[[object], float], float, bool]], values: dict[str, float] | None = None,
             rounds: int = 2) -> dict[str, float]:
    """Fit parameters one after the other, each on its own row, by bisection.

    ``build(values)`` makes whatever ``measure`` needs (a platform) from the current parameter
    values; each step is ``(param, lo, hi, measure, target, increasing)``. The steps are
    repeated ``rounds`` times, since a later parameter can move an earlier row a little.
    """
    values = dict(values or {})
    for _ in range(rounds):
        for name, lo, hi, measure_fn, target, increasing in steps:
            def make(v: float, name=name, measure_fn=measure_fn) -> float:
                return measure_fn(build({**values, name: v}))

            values[name] = bisect_param(make, target, lo, hi, increasing=increasing,
                                        start=values.get(name))
    return values
