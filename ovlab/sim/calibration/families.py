"""Fit the family cost model (``hardware/family.py``) on the fit platforms' published rows.

Each published row (a model and precision on a platform's CPU, iGPU, dGPU, NPU or CPU+iGPU, in
throughput or latency) is predicted from the platform's datasheet and the family numbers by
:func:`predict`, a vectorised copy of the simulator's service time for the family devices (the
same arithmetic as ``fit.predict``; ``tests/hardware/test_family.py`` checks both against the
simulator). :func:`fit` finds the family numbers that minimise the squared log errors, with a
ridge toward the priors (a group multiplier toward 1, an ISA rule's efficiency toward the f32 /
f16 efficiency) so that a family or rule no fit row covers falls back to the others;
:func:`leave_one_platform_out` fits without each platform in turn and predicts it.
"""

from __future__ import annotations

import csv
import math
import statistics
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..hardware import cost, family
from ..hardware.specs import DeviceSpec

ROOT = Path(__file__).resolve().parents[3]
FIT_CSV = ROOT / "benchmarks" / "data" / "published-fit-platforms.csv"
#: the tables' model names -> the zoo's
MODELS = {"resnet-50": "resnet-50", "mobilenet-v2": "mobilenet-v2",
          "yolo_v3_tiny": "yolo-v3-tiny", "bert-base-cased": "bert-base-cased",
          "bert-large-uncased-whole-word-masking-squad-0001":
              "bert-large-uncased-whole-word-masking-squad-0001",
          "efficientdet-d0": "efficientdet-d0", "ssd-resnet34-1200": "ssd-resnet34-1200",
          "ssd_mobilenet_v1_coco": "ssd_mobilenet_v1_coco",
          "unet-camvid-onnx-0001": "unet-camvid-onnx-0001", "yolo_v8n": "yolo_v8n",
          "yolo_v3": "yolo_v3"}
#: table models whose published FLOPs the zoo's architecture does not reproduce (within 1.5x:
#: ``table_zoo.PUBLISHED``): not fitted, and not in the errors
NOT_FITTED = ("deeplabv3", "mask_rcnn_resnet50_atrous_coco")
FIT_PLATFORMS = ("i7-1185g7", "core-ultra-7-165h", "arc-a770m", "flex-170", "i9-13900k",
                 "xeon-platinum-8480", "xeon-platinum-8380", "i7-8700t")


@dataclass(frozen=True)
class Row:
    source: str
    model: str  # the zoo's name
    preset: str
    device: str  # CPU, iGPU, dGPU, NPU, CPU+iGPU
    precision: str  # FP32, FP16, INT8, BF16
    mode: str  # throughput | latency
    value: float
    flags: str = ""

    @property
    def label(self) -> str:
        return f"{self.preset} {self.device} {self.model}:{self.precision} {self.mode}"


def read_rows(path: str | Path = FIT_CSV, *, keep_flagged: bool = False) -> list[Row]:
    """The fit CSV's rows of zoo models; flagged rows (doubtful by the CSV's own flags) are left
    out unless ``keep_flagged``. A latency flagged ``latency_*`` drops only the latency."""
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for line in csv.DictReader(f):
            model = MODELS.get(line["model"])
            if model is None or model in NOT_FITTED:
                continue
            flags = line.get("flags", "")
            for mode, column in (("throughput", "throughput_fps"), ("latency", "latency_ms")):
                if not line.get(column):
                    continue
                doubtful = bool(flags) and (mode == "latency" or not flags.startswith("latency"))
                if doubtful and not keep_flagged:
                    continue
                rows.append(Row(line["source"], model, line["preset"], line["device"],
                                line["precision"], mode, float(line[column]), flags))
    return rows


# --- the simulator's arithmetic, vectorised ------------------------------------------------------
@dataclass(frozen=True)
class _Ops:
    model_precision: str
    by_kind: tuple  # (kind, FLOPs, bytes, number of ops, K, N) per op kind present


@lru_cache(maxsize=64)
def _ops(name: str, precision: str) -> _Ops:
    """The executed ops of zoo model ``name`` by kind: (kind, FLOPs, bytes, count, K, N), with
    each op's matrix-product dimensions (``cost.gemm_dims``) for a matrix engine's padding."""
    from ..graph import model_precision
    from ..models import zoo

    model = zoo.load(name, precision)
    costs = model._cost(model._batch_size())
    facts = cost.graph_facts(model, len(costs))
    dims = cost.gemm_dims(model, len(costs)) or [(0, 0)] * len(costs)
    rows = [(kind, op.flops, cost.moved_bytes(op), *dims[i])
            for i, op, kind in cost.executed_rows(costs, facts)]
    kinds = np.array([r[0] for r in rows])
    table = np.array([r[1:] for r in rows], float)
    parts = []
    for kind in cost.KINDS:
        mask = kinds == kind
        if mask.any():
            t = table[mask]
            parts.append((kind, t[:, 0], t[:, 1], int(mask.sum()), t[:, 2], t[:, 3]))
    return _Ops(model_precision(model), tuple(parts))


def device_seconds(spec: DeviceSpec, name: str, precision: str,
                   cache_share: float = 1.0) -> tuple[float, float]:
    """(dispatch overhead, work) of one inference, as ``cost.inference_parts`` computes them for
    a ``fuse_ops`` device without memory sharing or an epilogue (the family devices), with
    ``cache_share`` of the last-level cache (``1 / streams`` on a ``split_cache`` device)."""
    w = _ops(name, precision)
    prec = cost.compute_precision(spec, w.model_precision, spec.inference_precision)
    floating = cost.float_precision(spec, prec)
    overhead = spec.per_infer_s
    work = 0.0
    for kind, flops, nbytes, n, k_dim, n_dim in w.by_kind:
        p = prec if kind != "other" else floating
        peak = spec.peak_gflops[p] * 1e9 * cost.efficiency(spec, kind, p)
        if spec.channel_blocks and kind in ("conv", "matmul"):
            peak = peak * cost.tile_utilisation(spec, p, k_dim, n_dim)
        moved = nbytes * cost._BYTES_SCALE.get(p, 1.0)
        t_mem = moved / (spec.mem_bw_gbs * 1e9 * spec.mem_efficiency)
        if spec.cache_mb > 0:
            fits = moved <= spec.cache_mb * 1e6 * cache_share
            in_cache = moved / (spec.llc_gbps * 1e9) if spec.llc_gbps > 0 else 0.0
            t_mem = np.where(fits, in_cache, t_mem)
        work += float(np.maximum(flops / peak, t_mem).sum())
        overhead += n * cost.op_dispatch(spec, kind, p)
    return overhead, work


def device_figure(spec: DeviceSpec, name: str, precision: str, mode: str) -> float:
    """benchmark_app's figure on one family device: ms (latency) or FPS (throughput)."""
    if mode == "latency":
        overhead, work = device_seconds(spec, name, precision)
        if spec.per_op_wide_s > 0:  # one stream over every thread: each op's fork / join
            overhead += spec.per_op_wide_s * sum(p[3] for p in _ops(name, precision).by_kind)
        speed = 1.0
        if spec.plugin == "CPU" and spec.extra.get("peak_of_all_cores"):
            # as plugins/hardware.cpu_cores: one socket at the latency clock, the P-cores' share
            speed = spec.extra.get("latency_clock", 1.0)
            if spec.hybrid:
                int8 = _ops(name, precision).model_precision == "INT8"
                speed *= (spec.latency_cores(int8)[1]
                          / spec.cores_for("ANY_CORE", False)[1])
        return (overhead + work) / speed * 1e3
    s = max(1, min(spec.streams_throughput, spec.range_for_streams[1]))
    overhead, work = device_seconds(spec, name, precision,
                                    1.0 / s if spec.split_cache or spec.share_bandwidth else 1.0)
    service = cost.stream_times(spec, overhead, work, s)
    return s / (service + spec.async_overhead_s)


def row_spec(spec: DeviceSpec, precision: str) -> tuple[DeviceSpec, str]:
    """(the spec as the row ran it, the zoo precision): FP32 rows in f32 (``-infer_precision
    f32``), BF16 rows the FP32 model in bf16, FP16 rows on a CPU as FP32."""
    if precision == "BF16":
        return spec.with_(inference_precision="bf16"), "FP32"
    if precision == "FP32":
        return spec.with_(inference_precision="f32"), "FP32"
    if precision == "FP16" and spec.plugin == "CPU":
        return spec.with_(inference_precision="f32"), "FP32"
    return spec, precision


@lru_cache(maxsize=16)
def datasheet(preset: str) -> dict:
    """The ``datasheet`` block of a catalogue platform."""
    from ..hardware import catalogue

    return catalogue.read(preset.removeprefix("family:"))["datasheet"]


def devices_for(preset: str, params: dict):
    return family.build_devices(datasheet(preset), params)


def predict(row: Row, params: dict, devices=None) -> float:
    """The family model's figure for ``row``."""
    devices, budget = devices if devices is not None else devices_for(row.preset, params)
    if row.device == "CPU":
        spec = devices["CPU"]
    elif row.device in ("iGPU", "dGPU"):
        spec = devices["GPU.0"]
    elif row.device == "NPU":
        spec = devices["NPU"]
    else:  # CPU+iGPU: both devices' throughputs under the package budget
        cpu, p_cpu = row_spec(devices["CPU"], row.precision)
        gpu, p_gpu = row_spec(devices["GPU.0"], row.precision)
        total = (device_figure(cpu, row.model, p_cpu, "throughput")
                 + device_figure(gpu, row.model, p_gpu, "throughput"))
        if budget is not None:
            total *= budget.factor(list(budget.draws))
        return total
    spec, precision = row_spec(spec, row.precision)
    return device_figure(spec, row.model, precision, row.mode)


def error(predicted: float, row: Row) -> float:
    """log(ovlab / published), in the direction of FPS (a latency's ratio is inverted)."""
    r = math.log(predicted / row.value)
    return -r if row.mode == "latency" else r


# --- the parameters ------------------------------------------------------------------------------
CPU_RULES = ("i8-vnni", "i8-novnni", "i8-amx", "bf16-amx")
GPU_RULES = ("f32", "i8-dp4a", "i8-none", "f16-xmx", "i8-xmx")
# (path, prior, ridge weight, transform): log-space parameters unless "lin" / "logit"
SPACE: list[tuple[tuple[str, ...], float, float, str]] = [
    (("cpu", "eff", "f32"), 0.5, 0.0, "logit"),
    # an ISA rule's efficiency relative to f32's, prior 1; AMX's prior 0.35: public claims of
    # 3-4x VNNI's int8 throughput per core at 8x its peak (no AMX row is needed to set it)
    *[(("cpu", "eff", r), math.log(0.35) if "amx" in r else 0.0, 1.0, "rel")
      for r in CPU_RULES],
    *[(("cpu", "group_mult", g), 1.0, 2.0, "log") for g in family.CPU_GROUPS],
    (("cpu", "depthwise"), 0.14, 0.3, "log"),
    (("cpu", "other"), 0.05, 0.3, "log"),
    (("cpu", "matmul_i8"), 1.0, 0.3, "log"),
    (("cpu", "per_op_s"), 7e-6, 0.3, "log"),
    (("cpu", "per_infer_s"), 2e-5, 0.1, "log"),
    (("cpu", "stream_scaling"), 0.9, 0.3, "lin"),
    (("cpu", "turbo_share"), 0.5, 0.5, "logit"),
    (("cpu", "turbo_latency"), 0.8, 0.5, "logit"),
    (("cpu", "turbo_slope"), 1.0, 0.3, "lin"),
    (("cpu", "socket_eff"), 0.7, 0.3, "logit"),
    (("cpu", "mem_efficiency"), 0.7, 0.5, "logit"),
    # the last-level cache's bandwidth per core (GB/s; prior ``specs.LLC_GBPS_PER_CORE``)
    (("cpu", "llc_gbps_core"), 50.0, 0.5, "log"),
    # a LATENCY stream's fork / join per op and thread
    # (times the stream's threads: ``family._per_op_wide``, ``sync_exp`` 1; fitted as a trial
    # it came out 0.97)
    (("cpu", "per_op_sync_s"), 2e-7, 0.3, "log"),
    (("gpu", "eff", "f16"), 0.3, 0.0, "logit"),
    *[(("gpu", "eff", r), 0.0, 1.0, "rel") for r in GPU_RULES],
    *[(("gpu", "group_mult", g), 1.0, 2.0, "log") for g in family.GPU_GROUPS],
    (("gpu", "discrete_op"), 0.5, 0.3, "log"),
    (("gpu", "depthwise"), 0.3, 0.3, "log"),
    (("gpu", "other"), 0.05, 0.3, "log"),
    (("gpu", "matmul_i8"), 1.0, 0.3, "log"),
    (("gpu", "per_op_s"), 1e-5, 0.3, "log"),
    (("gpu", "per_infer_s"), 1e-4, 0.3, "log"),
    (("gpu", "stream_scaling"), 0.9, 0.3, "lin"),
    (("gpu", "mem_efficiency"), 0.7, 0.5, "logit"),
    (("npu", "eff_f16"), 0.5, 0.0, "logit"),
    (("npu", "eff_i8"), 0.5, 0.0, "logit"),
    (("npu", "depthwise"), 0.3, 0.3, "log"),
    (("npu", "other"), 0.1, 0.3, "log"),
    (("npu", "per_op_s"), 1e-6, 0.3, "log"),
    (("npu", "per_infer_s"), 3e-4, 0.3, "log"),
    (("npu", "stream_scaling"), 0.73, 0.3, "lin"),
    # the iGPU's draw when busy alone, W per EU x GHz (the package's TDP is the CPU's):
    # 0.1 makes the i7-1185G7's 96 EUs at 1.35 GHz draw 13 W of its 28
    (("power", "igpu_w_eu_ghz"), 0.1, 0.3, "log"),
]
# an ISA rule's efficiency relative to this one (its prior: the same fraction of its own peak)
_REL_BASE = {"cpu": "f32", "gpu": "f16"}


def base_params() -> dict:
    return {"cpu": {"eff": {}, "group_mult": {}, "sync_exp": 1.0}, "gpu": {"eff": {}, "group_mult": {},
                                                          "streams": 4},
            "npu": {}, "power": {}}


def _get(p: dict, path):
    for k in path[:-1]:
        p = p[k]
    return p[path[-1]]


def _set(p: dict, path, value) -> None:
    for k in path[:-1]:
        p = p.setdefault(k, {})
    p[path[-1]] = value


def _forward(path, transform, x: float, params: dict) -> float:
    if transform == "log":
        return math.exp(x)
    if transform == "lin":
        return x
    if transform == "logit":
        return 1 / (1 + math.exp(-x))
    # rel: relative (log) to the base rule's efficiency of the same section
    base = _get(params, (path[0], "eff", _REL_BASE[path[0]]))
    return min(1.0, base * math.exp(x))


def _inverse(transform, prior: float) -> float:
    if transform == "log":
        return math.log(prior)
    if transform == "logit":
        return math.log(prior / (1 - prior))
    return prior  # lin, rel (a log offset)


def unpack(x: np.ndarray) -> dict:
    params = base_params()
    for (path, _prior, _w, transform), xi in zip(SPACE, x, strict=True):
        _set(params, path, _forward(path, transform, float(xi), params))
    return params


def x0(params: dict | None = None) -> np.ndarray:
    if params is None:
        return np.array([_inverse(t, prior) for _path, prior, _w, t in SPACE])
    out = []
    for path, _prior, _w, transform in SPACE:
        value = _get(params, path)
        if transform == "rel":
            base = _get(params, (path[0], "eff", _REL_BASE[path[0]]))
            value = math.log(value / base)
        else:
            value = _inverse(transform, value)
        out.append(value)
    return np.array(out)


#: int8 rules whose efficiency relative to f32 is drawn toward another rule's (a hierarchical
#: prior): int8 without VNNI runs the same dot products in three instructions instead of one,
#: so its share of its own peak is expected near VNNI's, not at f32's, when no row of its own
#: family says otherwise (the AVX2 family has a single fit platform)
_REL_PRIOR_OF = {("cpu", "eff", "i8-novnni"): ("cpu", "eff", "i8-vnni")}


def _prior_x(i: int, x: np.ndarray) -> float:
    """The ridge's target of parameter ``i`` (its prior, or the current value of the rule it is
    drawn toward)."""
    path, prior, _w, transform = SPACE[i]
    other = _REL_PRIOR_OF.get(path)
    if other is not None:
        return float(x[next(j for j, s in enumerate(SPACE) if s[0] == other)])
    return _inverse(transform, prior)


def _residuals(xs: np.ndarray, idx: list[int], x: np.ndarray, rows: list[Row]) -> np.ndarray:
    x = x.copy()
    x[idx] = xs
    params = unpack(x)
    cache: dict[str, tuple] = {}
    res = []
    for row in rows:
        if row.preset not in cache:
            cache[row.preset] = devices_for(row.preset, params)
        res.append(error(predict(row, params, cache[row.preset]), row))
    prior = [SPACE[i][2] * (x[i] - _prior_x(i, x)) for i in idx if SPACE[i][2] > 0]
    return np.array(res + prior)


#: the fit's sections: which rows each part of the numbers is fitted on, in this order (the
#: CPU+iGPU rows fit only the power share, with the CPU and GPU numbers fitted before)
SECTIONS = (("cpu", ("CPU",)), ("gpu", ("iGPU", "dGPU")), ("npu", ("NPU",)),
            ("power", ("CPU+iGPU",)))


def fit(rows: list[Row], start: dict | None = None, max_nfev: int = 400) -> dict:
    """The family numbers fitted on ``rows`` (scipy's least squares on log errors), one section
    at a time: CPU numbers on the CPU rows, GPU numbers on the iGPU and dGPU rows, the NPU's on
    the NPU rows, then the power share on the CPU+iGPU rows."""
    from scipy.optimize import least_squares

    x = x0(start)
    for section, devices in SECTIONS:
        idx = [i for i, (path, *_r) in enumerate(SPACE) if path[0] == section]
        sel = [r for r in rows if r.device in devices]
        if not sel or not idx:
            continue
        # soft L1: a few published figures are far off their neighbours (the OV-2023.2
        # latencies of the Xeon 8380's large models are 6x its OV-2024.3 ones) and must not
        # pull the family's numbers
        result = least_squares(_residuals, x[idx], args=(idx, x, sel), method="trf",
                               max_nfev=max_nfev, x_scale=1.0, loss="soft_l1", f_scale=0.3)
        x[idx] = result.x
    return unpack(x)


def errors(rows: list[Row], params: dict) -> list[float]:
    cache: dict[str, tuple] = {}
    out = []
    for row in rows:
        if row.preset not in cache:
            cache[row.preset] = devices_for(row.preset, params)
        out.append(error(predict(row, params, cache[row.preset]), row))
    return out


def leave_one_platform_out(rows: list[Row], start: dict | None = None,
                           max_nfev: int = 400) -> dict[str, list[float]]:  # noqa: ARG001
    """For each fit platform: its rows' log errors predicted by a fit on the other platforms."""
    out = {}
    for preset in FIT_PLATFORMS:
        train = [r for r in rows if r.preset != preset]
        test = [r for r in rows if r.preset == preset]
        if not test:
            continue
        # from the priors, not from the fit on every platform (``start`` is not used): nothing
        # of the held-out platform's rows may reach its prediction (a section without rows
        # keeps its priors: the NPU, whose only platform is the Core Ultra 7 165H)
        params = fit(train, None, max_nfev)
        out[preset] = errors(test, params)
    return out


def summary(errs: list[float]) -> dict[str, float]:
    """median |error| (%, of the ratio), worst ratio, share within 0.67-1.5x."""
    if not errs:
        return {"n": 0}
    ratios = [math.exp(e) for e in errs]
    rel = [abs(r - 1) * 100 for r in ratios]
    return {"n": len(errs), "median_pct": round(statistics.median(rel), 1),
            "within_067_15": round(sum(0.67 <= r <= 1.5 for r in ratios) / len(ratios), 3),
            "worst": round(max(ratios, key=lambda r: max(r, 1 / r)), 3)}


def device_family(row: Row) -> str:
    """The device family a row's figure belongs to (the report's grouping)."""
    ds = datasheet(row.preset)
    if row.device == "CPU+iGPU":
        return "CPU+iGPU"
    if row.device == "NPU":
        return "NPU"
    block = ds["CPU"] if row.device == "CPU" else ds["GPU.0"]
    return ("CPU " if row.device == "CPU" else "GPU ") + family.figures(block)["family"]
