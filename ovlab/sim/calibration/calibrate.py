"""``ovlab calibrate``: your machine as a platform file, measured with the real OpenVINO runtime.

Where the real ``openvino`` is installed, :func:`calibrate` measures every device it lists (the
CPU, and any GPU or NPU) on a few zoo models with benchmark_app's method
(``ovlab.sim.calibration.measure``), fits a device spec to the measurements
(``ovlab.sim.calibration.fit.fit_measured``: the same fit as the ``cpu`` preset's) and writes a platform
file that ``ov.Core(platform="my-machine.json")`` and ``ovlab benchmark --platform
my-machine.json`` load.

What comes from where:

* From the runtime: the device's name, type, capabilities, stream range, the streams and
  requests its THROUGHPUT hint picks, its default inference precision, a GPU's memory size.
* From the machine: CPU cores, clock and instruction set (``/proc/cpuinfo``) give the peak
  FLOP/s per precision (cores x FLOP/cycle x clock); memory size from ``/proc/meminfo``.
* Fitted: per-inference and per-op costs, dense-conv efficiency per precision, op-kind factors,
  memory efficiency, stream scaling, the async hand-off. Priors (where no measurement speaks)
  are those of the ``cpu`` preset, or of a fitted Intel GPU / NPU for those devices.

Honest figures (issue 22): every model measured is held out once, the device fitted again without
it and its figures predicted (:func:`fit_with_holdout`); the held-out ratio is printed beside the
in-sample one and both are kept in the file's provenance. The default set includes
``mobilenet-v2``, a depthwise network, and ``mlp``, a network with almost no work whose figures
are the runtime's fixed costs per inference and per asynchronous request; and the devices are written with the memory physics on
(``share_bandwidth``, ``llc_gbps`` fitted, the CPU, an iGPU and an NPU in one memory domain).
:func:`calibrate_from` (``ovlab calibrate --from``) fits the same way to figures measured on
another machine (``calibration/figures.py``), its CPU described by cores, flags and clock.

GPUs and NPUs are fitted on latency only (their THROUGHPUT runs go through automatic batching,
which the fast fit does not model; the stream parameters stay the template's). The GPU and NPU
paths could not be run on the machine this was written on (it has no GPU or NPU).
"""

from __future__ import annotations

import datetime
import json
import os
import platform as pyplatform
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..hardware import host
from ..hardware.platform_file import save
from ..hardware.platforms import Platform, preset
from ..hardware.specs import LLC_GBPS_PER_CORE, DeviceSpec, with_memory_physics  # noqa: F401
from . import fit, measure

# mlp: the floor, two matrix products of ~1 kFLOP, so that its figures are the runtime's fixed
# costs: its latency is the sync call per inference (per_infer_s plus two dispatches), its
# THROUGHPUT the async hand-off per request (async_overhead_s: completion, callback, the
# application's next start_async), which no other model of the set can show (2 % of squeezenet's
# time per request): without it, small-cnn held out was predicted with the prior's hand-off
# (another machine's 53 us, against 177 us measured here) and its THROUGHPUT came out 1.5-1.9x
# mobilenet-v2 and mobilenet-v1: the depthwise networks, whose memory-bound work the others do not
# show; two, so that either one held out is predicted from the other (with one, a held-out
# mobilenet-v2 rested on the prior of the depthwise efficiency: 1.30x on 2026-11-27)
DEFAULT_MODELS = ("mlp", "small-cnn", "squeezenet1.1", "mobilenet-v2", "mobilenet-v1",
                  "googlenet-v1", "resnet-50")
PRECISIONS = ("FP32", "INT8")
# per_op_i8_s and stream_dispatch as the cpu preset's own fit (benchmarks/bench_fidelity.py):
# a one-thread THROUGHPUT stream dispatches an op without the fork/join of a LATENCY stream's
# threads (stream_dispatch x per_op_s), which sets a tiny model's THROUGHPUT; kept at the cpu
# preset's 0.48 (another machine's), mlp's FP32 THROUGHPUT came out 0.69-0.70x held out
# (issue 22, 2026-11-27)
CPU_PARAMS = ("per_infer_s", "per_op_s", "eff.{float}", "eff.i8", "kind.depthwise", "kind.matmul",
              "kind.other", "mem_efficiency", "llc_gbps", "stream_scaling", "async_overhead_s",
              "per_op_i8_s", "stream_dispatch", "epilogue_flops")
ACCEL_PARAMS = ("per_infer_s", "per_op_s", "eff.{float}", "eff.i8", "kind.depthwise",
                "mem_efficiency")


class CalibrateError(RuntimeError):
    """Calibration cannot run (no openvino, no device, bad option)."""


def cpu_info() -> dict:
    """Cores, threads, clock (GHz), ISA flags (:mod:`ovlab.sim.hardware.host`) and last-level cache
    (MB, from sysfs where it is readable) of this machine's CPU."""
    cpu = host.describe()
    info = {"model": cpu.model, "cores": cpu.cores, "threads": cpu.threads,
            "clock_ghz": cpu.clock_ghz, "flags": set(cpu.flags)}
    llc = last_level_cache_mb()
    if llc:
        info["llc_mb"] = llc
    return info


def last_level_cache_mb(root: str = "/sys/devices/system/cpu/cpu0/cache") -> float | None:
    """The size of the highest cache level of CPU 0 in MB (Linux sysfs), or None."""
    best: tuple[int, float] | None = None
    for index in Path(root).glob("index*"):
        try:
            level = int((index / "level").read_text().strip())
            text = (index / "size").read_text().strip().upper()
        except (OSError, ValueError):
            continue
        scale = {"K": 1 / 1024, "M": 1.0, "G": 1024.0}.get(text[-1:], None)
        try:
            size = float(text[:-1]) * scale if scale else float(text) / 2**20
        except ValueError:
            continue
        if best is None or level > best[0]:
            best = (level, size)
    return best[1] if best else None


def cpu_peaks(info: dict) -> dict[str, float]:
    """Peak GFLOP/s per precision from cores x FLOP/cycle x clock: AVX-512 (two 512-bit FMA
    pipes assumed) 64 f32 FLOP/cycle, AVX2+FMA 32, else 16; bf16 (AVX512_BF16 / AMX) twice f32;
    int8 with VNNI four times f32, else twice."""
    flags = info["flags"]
    per_cycle = 64 if "avx512f" in flags else 32 if {"avx2", "fma"} <= flags else 16
    f32 = info["cores"] * per_cycle * info["clock_ghz"]
    vnni = bool({"avx512_vnni", "avx_vnni", "amx_int8"} & flags)
    peaks = {"f32": f32, "i8": f32 * (4 if vnni else 2)}
    if {"avx512_bf16", "amx_bf16"} & flags:
        peaks["bf16"] = 2 * f32
    # AMX tiles (Sapphire Rapids and later): 1024 bf16 and 2048 int8 operations per cycle and
    # core (Intel's optimization manual), which the CPU plugin's oneDNN kernels use
    if "amx_bf16" in flags:
        peaks["bf16"] = info["cores"] * 1024 * info["clock_ghz"]
    if "amx_int8" in flags:
        peaks["i8"] = info["cores"] * 2048 * info["clock_ghz"]
    return peaks


def _memory_gb() -> float:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1e6
    except OSError:
        pass
    return 16.0


def _precision_name(value) -> str:
    text = str(value).lower()
    return {"bfloat16": "bf16", "float16": "f16", "float32": "f32"}.get(
        text.replace("<type: '", "").rstrip("'>"), text if text in ("bf16", "f16", "f32")
        else "f32")


def device_template(core, device: str) -> DeviceSpec:
    """A spec with what the real runtime and the machine say about ``device``; the rest
    (to be fitted) from the closest preset device."""
    kind = device.split(".", 1)[0]
    name = str(core.get_property(device, "FULL_DEVICE_NAME"))
    caps = tuple(str(c) for c in core.get_property(device, "OPTIMIZATION_CAPABILITIES"))
    precision = _precision_name(core.get_property(device, "INFERENCE_PRECISION_HINT"))
    lo, hi = (int(x) for x in core.get_property(device, "RANGE_FOR_STREAMS"))
    if kind == "CPU":
        base = preset("cpu").devices["CPU"]
        info = cpu_info()
        peaks = cpu_peaks(info)
        if precision == "bf16" and "bf16" not in peaks:
            precision = "f32"
        mem = _memory_gb()
        spec = replace(base, full_name=name, capabilities=caps, peak_gflops=peaks,
                       inference_precision=precision, range_for_streams=(lo, hi),
                       streams_throughput=hi, mem_size_gb=mem,
                       cache_mb=info.get("llc_mb") or base.cache_mb,
                       extra={"cores": info["cores"], "threads": info["threads"],
                              "clock_ghz": round(info["clock_ghz"], 3)})
        spec = with_memory_physics(spec, info["cores"], "package")
    elif kind == "GPU":
        base = preset("i7-1185g7").devices["GPU.0"]
        dtype = str(core.get_property(device, "DEVICE_TYPE")).lower()
        mem = base.mem_size_gb
        try:
            mem = int(core.get_property(device, "GPU_DEVICE_TOTAL_MEM_SIZE")) / 1e9
        except Exception:  # noqa: BLE001 - an older plugin without the property
            pass
        discrete = "discrete" in dtype
        spec = replace(base, full_name=name, capabilities=caps, mem_size_gb=mem,
                       device_type="discrete" if discrete else "integrated",
                       inference_precision=precision if precision != "bf16" else "f16",
                       range_for_streams=(lo, hi))
        spec = with_memory_physics(spec, 1, "" if discrete else "package")
    elif kind == "NPU":
        base = preset("core-ultra-7-165h").devices["NPU"]
        spec = with_memory_physics(replace(base, full_name=name, capabilities=caps), 1,
                                   "package")
    else:
        raise CalibrateError(f"ovlab calibrate cannot model device {device!r} (plugin {kind})")
    return spec


# the dispatch terms only a network with almost no work shows: fitted when the floor is measured
FLOOR_PARAMS = ("per_op_i8_s", "stream_dispatch")
FLOOR_MODEL = "mlp"


def _params(spec: DeviceSpec, targets: Sequence[fit.Target] = ()) -> list[str]:
    names = CPU_PARAMS if spec.plugin == "CPU" else ACCEL_PARAMS
    floating = spec.inference_precision if spec.inference_precision in spec.peak_gflops \
        else "f16" if "f16" in spec.peak_gflops else "f32"
    # the cache bandwidth is fitted where the template has one (the memory physics are on); 0
    # means "cache traffic is free", which a log-space fit cannot move from
    names = [p for p in names if p != "llc_gbps" or spec.llc_gbps > 0]
    # without the floor's THROUGHPUT the dispatch terms are not identifiable (networks of a few
    # ms hide them): they stay at the template's values
    if not any(t.model == FLOOR_MODEL and t.mode == "throughput" for t in targets):
        names = [p for p in names if p not in FLOOR_PARAMS]
    return [p.format(float=floating) for p in names]


# the cost model and fit a platform file was written with, stored in its provenance: 2 since
# 2026-11-27 (the int8 depthwise rate, the per-output epilogue, efficiencies above 1 folded into
# the peak, mobilenet-v1 in the default set); 1 for files without it. The cached 'this-machine'
# file of an older version is refitted from its own measurements on first use
# (this_machine.this_machine). Bump it when a change moves what a fit gives.
FIT_VERSION = 2

# the peaks come from the clock /proc/cpuinfo reports, which on a server or a VM is the base
# clock (2.45 GHz on this project's EPYC), not the boost the cores run at: the fit may take an
# efficiency above 1, and _valid folds the excess into the peak. With the bound at 1 it stopped
# there and every FP32 network came out 1.13-1.27x too slow even in-sample (2026-11-27)
FIT_BOUNDS = {"eff.": (1e-3, 3.0)}


def _valid(spec: DeviceSpec) -> DeviceSpec:
    """Keep fitted efficiencies <= 0.95 of a peak (the schema's bound) by raising the peak: an
    efficiency above 1 means the clock guess was low, not that the chip beat its peak."""
    peaks = dict(spec.peak_gflops)
    # a precision this CPU has no peak for (the cpu preset's bf16 on an AVX2-only CPU) is not
    # computed natively: its efficiency from the template means nothing here
    effs = {p: e for p, e in spec.efficiency_by_precision.items() if p in peaks}
    for prec, eff in effs.items():
        if eff > 0.95 and prec in peaks:
            peaks[prec] *= eff / 0.95
            effs[prec] = 0.95
    return replace(spec, peak_gflops=peaks, efficiency_by_precision=effs,
                   efficiency=effs.get(spec.inference_precision, spec.efficiency),
                   mem_efficiency=min(spec.mem_efficiency, 1.0),
                   stream_scaling=min(max(spec.stream_scaling, 0.0), 2.0))


# the least a fixed cost starts from: the fit moves parameters in log space, where a cost of
# ~0 (the cpu preset's per_infer_s, 26 ns) has no gradient and never moves, so the fixed cost
# of an inference went into per_op_s instead; a sync infer() through the Python binding costs
# ~10 us on this project's machine (a one-op model), so 5 us is a prior the fit can leave
OVERHEAD_PRIORS_S = {"per_infer_s": 5e-6, "async_overhead_s": 5e-6}


# where the fit starts the two dispatch terms when it fits them: int8's extra cost per op from
# 0.1 us at least (0 cannot move in log space), a stream's dispatch factor off its bound of 1
DISPATCH_START = {"per_op_i8_s": 1e-7, "stream_dispatch": 0.7}
# where the fit starts a convolution's per-output epilogue (``DeviceSpec.epilogue_flops``) when
# the template has none: about 4 vector instructions of 2 FLOPs each (convert, scale and bias,
# activation, store), which a log-space fit can move
EPILOGUE_START_FLOPS = 8.0


def startable(spec: DeviceSpec, params: Sequence[str] = ()) -> DeviceSpec:
    """``spec`` with its fixed costs at least :data:`OVERHEAD_PRIORS_S`, so that a fit can move
    them; of ``params`` (the parameters to fit), ``per_op_i8_s`` at least and ``stream_dispatch``
    at most :data:`DISPATCH_START`."""
    spec = replace(spec, **{k: max(getattr(spec, k), v) for k, v in OVERHEAD_PRIORS_S.items()})
    if "per_op_i8_s" in params:
        spec = replace(spec, per_op_i8_s=max(spec.per_op_i8_s, DISPATCH_START["per_op_i8_s"]))
    if "stream_dispatch" in params:
        spec = replace(spec, stream_dispatch=min(spec.stream_dispatch,
                                                 DISPATCH_START["stream_dispatch"]))
    if "epilogue_flops" in params and spec.epilogue_flops <= 0:
        spec = replace(spec, epilogue_flops=EPILOGUE_START_FLOPS)
    return spec


def _label(t: fit.Target) -> str:
    return f"{t.model}:{t.precision} {t.mode}"


def fit_with_holdout(template: DeviceSpec, targets: Sequence[fit.Target], params: Sequence[str],
                     say: Callable[[str], None],
                     spread: dict[str, float] | None = None) -> tuple[DeviceSpec, dict]:
    """Fit ``template`` on every target, and once per model on every other model (leave one
    model out); print each figure's in-sample ratio (the fit on everything) beside its held-out
    ratio (the fit that never saw the model), and return the full fit with both tables.
    ``spread``: each figure's pass-to-pass spread (largest / smallest pass, ``"model:precision
    mode"`` keys), printed beside the ratios: the machine's noise floor for that figure.

    The held-out ratio is the honest one: it is what the platform file predicts for a model it
    was not fitted on. With one model there is nothing to hold out. The fixed costs start from
    at least their priors (:func:`startable`)."""
    template = startable(template, params)
    spec = _valid(fit.fit_measured(template, targets, params, bounds=FIT_BOUNDS))
    models = sorted({t.model for t in targets})
    held: dict[str, float] = {}
    if len(models) > 1:
        for model in models:
            rest = [t for t in targets if t.model != model]
            if not rest:
                continue
            other = _valid(fit.fit_measured(template, rest, params, bounds=FIT_BOUNDS))
            for t in targets:
                if t.model == model:
                    held[_label(t)] = fit.predict(other, t.model, t.precision, t.mode) / t.value
    inside = {_label(t): fit.predict(spec, t.model, t.precision, t.mode) / t.value
              for t in targets}
    noise = f" {'passes':>7}" if spread else ""
    say(f"  {'figure':<34} {'given':>13} {'fitted':>13} {'ratio':>6} {'held out':>9}{noise}")
    for t in targets:
        label = _label(t)
        unit = "ms" if t.mode == "latency" else "FPS"
        ratio = inside[label]
        out = f"{held[label]:9.2f}" if label in held else f"{'-':>9}"
        given, fitted = f"{t.value:.4g} {unit}", f"{ratio * t.value:.4g} {unit}"
        noise = f" {spread.get(label, 1.0):6.2f}x" if spread else ""
        say(f"  {label:<34} {given:>13} {fitted:>13} {ratio:6.2f} {out}{noise}")
    errs_in = [abs(r - 1) for r in inside.values()]
    line = f"  in-sample: median |error| {100 * _median(errs_in):.1f}%, worst " \
           f"{max(max(r, 1 / r) for r in inside.values()):.2f}x"
    if held:
        line += (f"; held out (each model fitted without it): median |error| "
                 f"{100 * _median([abs(r - 1) for r in held.values()]):.1f}%, worst "
                 f"{max(max(r, 1 / r) for r in held.values()):.2f}x")
    say(line)
    if spread:
        values = sorted(spread.values())
        say(f"  the passes' own figures differ by a median of {100 * (_median(values) - 1):.1f}%, "
            f"at most {values[-1]:.2f}x (column 'passes': the machine's noise, per figure)")
    report = {"fit_ratios": {k: round(v, 3) for k, v in inside.items()},
              "held_out_ratios": {k: round(v, 3) for k, v in held.items()},
              "fitted_params": {p: float(f"{fit.get_param(spec, p):.4g}") for p in params}}
    return spec, report


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return (ordered[n // 2] + ordered[(n - 1) // 2]) / 2 if n else float("nan")


def calibrate(output: str | os.PathLike = "my-machine.json", *, name: str | None = None,
              models: Sequence[str] = DEFAULT_MODELS, devices: Sequence[str] | None = None,
              repeat: int = 2, echo: Callable[[str], None] | None = print,
              progress: Callable[[int, int, str], None] | None = None,
              quiet_wait_s: float = 0.0) -> Platform:
    """Measure, fit, write ``output``; return the platform. ``progress(done, total, what)``
    follows the measurements (one step per model and precision in each pass);
    ``quiet_wait_s``: on a shared machine, each window may wait for a quiet moment, up to that
    many seconds in all (``measure.QuietWaiter``)."""
    ov = measure.openvino_or_none()
    if ov is None:
        raise CalibrateError("ovlab calibrate measures the real OpenVINO runtime, which is not "
                             "installed here: pip install openvino")
    from ..models import zoo

    unknown = [m for m in models if m not in zoo.names()]
    if unknown:
        raise CalibrateError(f"unknown zoo model {unknown[0]!r}; zoo models: "
                             f"{', '.join(zoo.names())}")
    core = ov.Core()
    available = list(core.available_devices)
    chosen = list(devices) if devices else available
    missing = [d for d in chosen if d not in available]
    if missing:
        raise CalibrateError(f"device {missing[0]!r} is not available here; the real runtime "
                             f"lists {', '.join(available) or 'none'}")
    say = echo or (lambda _text: None)
    specs: dict[str, DeviceSpec] = {}
    provenance: dict = {"fit_version": FIT_VERSION, "tool": "ovlab calibrate", "date": datetime.date.today().isoformat(),
                        "openvino": ov.get_version(), "machine": pyplatform.platform(),
                        "models": list(models), "devices": {}}
    for device in chosen:
        template = device_template(core, device)
        say(f"Measuring {device} ({template.full_name}) on {', '.join(models)}, FP32 and INT8")
        items = [(m, p) for m in models for p in PRECISIONS]
        done = [0]

        def step(text: str, total: int = len(items) * max(1, repeat), done: list = done) -> None:
            say(text)
            if progress is not None:
                done[0] += 1
                progress(done[0], total, text.strip().split(" on ")[0])

        wait = {"quiet_budget_s": quiet_wait_s} if quiet_wait_s > 0 else {}
        ms = measure.measure(items, device=device, repeat=repeat, echo=step, **wait)
        modes = ("latency", "throughput") if template.plugin == "CPU" else ("latency",)
        targets = [fit.Target(m.model, m.precision, m.mode, m.quiet) for m in ms
                   if m.mode in modes]
        streams = max((m.streams for m in ms if m.mode == "throughput"), default=1)
        template = replace(template, streams_throughput=max(1, streams))
        spread = {f"{m.model}:{m.precision} {m.mode}": m.pass_spread for m in ms
                  if m.mode in modes and len(m.passes) > 1}
        spec, report = fit_with_holdout(template, targets, _params(template, targets), say,
                                        spread)
        key = device
        specs[key] = spec
        provenance["devices"][key] = {"measured": [m.to_dict() for m in ms], **report}
    label = name or Path(output).stem
    platform = Platform(label, specs, f"Calibrated with ovlab calibrate on "
                                      f"{pyplatform.node() or 'this machine'} "
                                      f"({provenance['date']}, OpenVINO {provenance['openvino']})",
                        [f"measured: {', '.join(models)} (FP32, INT8)"])
    return _written(platform, output, provenance, say)


def _written(platform: Platform, output: str | Path, provenance: dict,
             say: Callable[[str], None]) -> Platform:
    """Save the platform file and say how to use it."""
    path = save(platform, output, provenance)
    say(f"Wrote {path}: use it with ov.Core(platform={str(path)!r}) or "
        f"ovlab benchmark --platform {path}")
    return platform


# --- calibration from figures measured elsewhere (ovlab calibrate --from) -------------------------
def cpu_from_flags(cores: int, flags: str | Sequence[str], ghz: float | None = None, *,
                   llc_mb: float | None = None, dram_gbps: float | None = None,
                   name: str = "CPU described by ovlab calibrate --from") -> DeviceSpec:
    """The CPU of another machine as a template to fit: peaks from its cores, its
    ``/proc/cpuinfo`` flags (AVX-512, AVX2+FMA, VNNI, AVX512_BF16, AMX) and clock; THROUGHPUT
    with one stream per core (the CPU plugin's choice for the zoo's small networks); the rest
    (overheads, op-kind factors) from the ``cpu`` preset as priors. ``llc_mb`` defaults to
    2 MB per core, ``dram_gbps`` to 5 GB/s per core (at least two channels' 40 GB/s); the fit
    moves ``mem_efficiency`` and ``llc_gbps`` against them."""
    if cores < 1:
        raise CalibrateError(f"--cpu-cores must be at least 1, got {cores}")
    flag_set = set(flags.split() if isinstance(flags, str) else flags)
    flag_set = {f.strip().lower() for f in flag_set if f.strip()}
    if not flag_set:
        raise CalibrateError("--cpu-flags is empty: give the 'flags' line of the machine's "
                             "/proc/cpuinfo (or at least e.g. \"avx2 fma avx_vnni\")")
    clock = ghz if ghz is not None else 3.0
    if not clock > 0:
        raise CalibrateError(f"--cpu-ghz must be positive, got {ghz}")
    info = {"cores": cores, "threads": cores, "clock_ghz": clock, "flags": flag_set}
    peaks = cpu_peaks(info)
    base = preset("cpu").devices["CPU"]
    bw = dram_gbps if dram_gbps else max(40.0, 5.0 * cores)
    caps = ("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT")
    if "bf16" in peaks:
        caps = ("BF16", *caps)
    spec = replace(base, full_name=name, capabilities=caps, peak_gflops=peaks,
                   inference_precision="bf16" if "bf16" in peaks else "f32",
                   range_for_streams=(1, cores), streams_throughput=cores, mem_bw_gbs=bw,
                   link_gbs=bw, cache_mb=llc_mb if llc_mb else max(8.0, 2.0 * cores),
                   extra={"cores": cores, "clock_ghz": clock,
                          "isa": " ".join(sorted(flag_set & _ISA_FLAGS))})
    return with_memory_physics(spec, cores, "package")


_ISA_FLAGS = {"avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_bf16",
              "amx_int8", "amx_tile"}


def calibrate_from(files: Sequence[str | os.PathLike], output: str | os.PathLike, *,
                   cpu_cores: int | None = None, cpu_flags: str | None = None,
                   cpu_ghz: float | None = None, llc_mb: float | None = None,
                   dram_gbps: float | None = None, name: str | None = None,
                   echo: Callable[[str], None] | None = print) -> Platform:
    """Fit a platform to figures measured elsewhere (``ovlab calibrate --from``; the file
    formats are in :mod:`ovlab.sim.calibration.figures`), write ``output``, return it.

    Each device in the figures is fitted on its own figures, with the same fit and the same
    hold-out report as ``ovlab calibrate``. The CPU is described by ``cpu_cores``,
    ``cpu_flags`` (and ``cpu_ghz``); a GPU or NPU starts from a fitted Intel device (the Iris Xe
    of the i7-1185G7, the NPU 3720) whose peaks the fitted efficiencies scale, and is fitted on
    its latency figures (its THROUGHPUT runs go through automatic batching, which the fast fit
    does not model) or, when only throughput is given, on those."""
    from .figures import read_figures

    say = echo or (lambda _text: None)
    figures = read_figures(files)
    seen: dict[tuple, str] = {}
    for f in figures:
        key = (f.device, f.model, f.precision, f.mode)
        if key in seen:
            raise CalibrateError(f"{f.source}: {f.label} is given twice (also at {seen[key]})")
        seen[key] = f.source
    devices = sorted({f.device for f in figures}, key=("CPU", "GPU", "NPU").index)
    if "CPU" in devices and (cpu_cores is None or cpu_flags is None):
        raise CalibrateError("the figures include CPU rows: describe that CPU with --cpu-cores N "
                             "and --cpu-flags \"...\" (its /proc/cpuinfo flags), and optionally "
                             "--cpu-ghz F")
    specs: dict[str, DeviceSpec] = {}
    provenance: dict = {"fit_version": FIT_VERSION, "tool": "ovlab calibrate --from", "date":
                        datetime.date.today().isoformat(), "files": [str(f) for f in files],
                        "devices": {}}
    if cpu_cores is not None and cpu_flags is not None:
        specs["CPU"] = cpu_from_flags(cpu_cores, cpu_flags, cpu_ghz, llc_mb=llc_mb,
                                      dram_gbps=dram_gbps)
        provenance["cpu"] = {"cores": cpu_cores, "flags": cpu_flags, "ghz": cpu_ghz}
    for device in devices:
        rows = [f for f in figures if f.device == device]
        key = "CPU" if device == "CPU" else f"{device}.0" if device == "GPU" else device
        if device == "CPU":
            template = specs["CPU"]
        elif device == "GPU":
            template = with_memory_physics(preset("i7-1185g7").devices["GPU.0"], 1, "package")
        else:
            template = with_memory_physics(preset("core-ultra-7-165h").devices["NPU"], 1,
                                           "package")
        if device != "CPU":
            latency = [f for f in rows if f.mode == "latency"]
            rows = latency or rows
        targets = [fit.Target(f.model, f.precision, f.mode, f.value) for f in rows]
        say(f"Fitting {key} ({template.full_name}) on {len(targets)} figures of "
            f"{len({f.model for f in rows})} models")
        spec, report = fit_with_holdout(template, targets, _params(template, targets), say)
        specs[key] = spec
        provenance["devices"][key] = {"figures": [f"{f.label}={f.value} ({f.source})"
                                                  for f in rows], **report}
    label = name or Path(output).stem
    platform = Platform(label, specs, f"Fitted with ovlab calibrate --from on figures measured "
                                      f"elsewhere ({provenance['date']})",
                        [f"figures: {', '.join(str(f) for f in files)}"])
    return _written(platform, output, provenance, say)


# --- fitting again from stored measurements (ovlab calibrate --refit) ------------------------------
def _refit_template(stored: DeviceSpec) -> DeviceSpec:
    """The template ``calibrate`` would have built for a device it wrote as ``stored``: what the
    runtime and the machine said (name, capabilities, peaks, streams, precision, memory, cache)
    kept, the fitted parameters back at the priors of the closest preset device."""
    if stored.plugin == "CPU":
        base = preset("cpu").devices["CPU"]
        cores = int(stored.extra.get("cores") or 1)
    elif stored.plugin == "GPU":
        base, cores = preset("i7-1185g7").devices["GPU.0"], 1
    else:
        base, cores = preset("core-ultra-7-165h").devices["NPU"], 1
    spec = replace(base, full_name=stored.full_name, capabilities=stored.capabilities,
                   device_type=stored.device_type, peak_gflops=dict(stored.peak_gflops),
                   inference_precision=stored.inference_precision,
                   range_for_streams=stored.range_for_streams,
                   streams_throughput=stored.streams_throughput, mem_size_gb=stored.mem_size_gb,
                   cache_mb=stored.cache_mb, extra=dict(stored.extra), llc_gbps=0.0)
    return with_memory_physics(spec, cores, stored.memory_domain)


def calibrate_refit(files: Sequence[str | os.PathLike], output: str | os.PathLike, *,
                    name: str | None = None,
                    echo: Callable[[str], None] | None = print) -> Platform:
    """Fit again, without measuring, from the measurements stored in platform files that
    ``ovlab calibrate`` wrote (``ovlab calibrate --refit``): after a change to the cost model, or
    to join runs (a later file's figure replaces an earlier one's for the same model, precision
    and mode, so a model measured again, or added, joins the set). Writes ``output`` with the
    same hold-out report."""
    from ..hardware.platform_file import load as load_platform

    say = echo or (lambda _text: None)
    stored: dict[str, DeviceSpec] = {}
    measured: dict[str, dict[tuple, measure.Measurement]] = {}
    sources: dict[str, list[str]] = {}
    runs_made: list[dict] = []
    for file in files:
        data = json.loads(Path(file).read_text(encoding="utf-8"))
        made = data.get("provenance") or {}
        runs_made.append({"file": str(file), **{k: made[k] for k in ("tool", "date", "openvino",
                                                                     "machine") if k in made}})
        runs = (data.get("provenance") or {}).get("devices") or {}
        if not any("measured" in run for run in runs.values()):
            raise CalibrateError(f"{file}: holds no measurements (only a platform file written "
                                 "by ovlab calibrate on a real machine does)")
        platform = load_platform(file)
        for device, run in runs.items():
            if "measured" not in run:
                continue
            stored.setdefault(device, platform.devices[device])
            got = measured.setdefault(device, {})
            for m in run["measured"]:
                item = measure.Measurement.from_dict(m)
                got[(item.model, item.precision, item.mode)] = item
            sources.setdefault(device, []).append(
                f"{file} ({data['provenance'].get('date', '?')})")
    specs: dict[str, DeviceSpec] = {}
    provenance: dict = {"fit_version": FIT_VERSION, "tool": "ovlab calibrate --refit", "date":
                        datetime.date.today().isoformat(), "files": [str(f) for f in files],
                        "runs": runs_made, "devices": {}}
    for device, got in measured.items():
        template = _refit_template(stored[device])
        modes = ("latency", "throughput") if template.plugin == "CPU" else ("latency",)
        ms = list(got.values())
        targets = [fit.Target(m.model, m.precision, m.mode, m.quiet) for m in ms
                   if m.mode in modes]
        say(f"Fitting {device} ({template.full_name}) again on {len(targets)} stored figures of "
            f"{len({t.model for t in targets})} models from {', '.join(sources[device])}")
        spread = {f"{m.model}:{m.precision} {m.mode}": m.pass_spread for m in ms
                  if m.mode in modes and len(m.passes) > 1}
        spec, report = fit_with_holdout(template, targets, _params(template, targets), say,
                                        spread)
        specs[device] = spec
        provenance["devices"][device] = {"measured": [m.to_dict() for m in ms],
                                         "sources": sources[device], **report}
    label = name or Path(output).stem
    platform = Platform(label, specs, f"Fitted with ovlab calibrate --refit on stored "
                                      f"measurements ({provenance['date']})",
                        [f"measured: {'; '.join(s for v in sources.values() for s in v)}"])
    return _written(platform, output, provenance, say)
