"""``ovlab calibrate``: your machine as a platform file, measured with the real OpenVINO runtime.

Where the real ``openvino`` is installed, :func:`calibrate` measures every device it lists (the
CPU, and any GPU or NPU) on a few zoo models with benchmark_app's method
(``ovlab.calibration.measure``), fits a device spec to the measurements
(``ovlab.calibration.fit.fit_measured``: the same fit as the ``cpu`` preset's) and writes a platform
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

GPUs and NPUs are fitted on latency only (their THROUGHPUT runs go through automatic batching,
which the fast fit does not model; the stream parameters stay the template's). The GPU and NPU
paths could not be run on the machine this was written on (it has no GPU or NPU).
"""

from __future__ import annotations

import datetime
import os
import platform as pyplatform
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..hardware import host
from ..hardware.platform_file import save
from ..hardware.platforms import Platform, preset
from ..hardware.specs import DeviceSpec
from . import fit, measure

DEFAULT_MODELS = ("small-cnn", "squeezenet1.1", "googlenet-v1", "resnet-50")
PRECISIONS = ("FP32", "INT8")
CPU_PARAMS = ("per_infer_s", "per_op_s", "eff.{float}", "eff.i8", "kind.depthwise", "kind.matmul",
              "kind.other", "mem_efficiency", "stream_scaling", "async_overhead_s")
ACCEL_PARAMS = ("per_infer_s", "per_op_s", "eff.{float}", "eff.i8")


class CalibrateError(RuntimeError):
    """Calibration cannot run (no openvino, no device, bad option)."""


def cpu_info() -> dict:
    """Cores, threads, clock (GHz) and ISA flags of this machine's CPU (:mod:`ovlab.hardware.host`)."""
    cpu = host.describe()
    return {"model": cpu.model, "cores": cpu.cores, "threads": cpu.threads,
            "clock_ghz": cpu.clock_ghz, "flags": set(cpu.flags)}


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
                       extra={"cores": info["cores"], "threads": info["threads"],
                              "clock_ghz": round(info["clock_ghz"], 3)})
    elif kind == "GPU":
        base = preset("i7-1185g7").devices["GPU.0"]
        dtype = str(core.get_property(device, "DEVICE_TYPE")).lower()
        mem = base.mem_size_gb
        try:
            mem = int(core.get_property(device, "GPU_DEVICE_TOTAL_MEM_SIZE")) / 1e9
        except Exception:  # noqa: BLE001 - an older plugin without the property
            pass
        spec = replace(base, full_name=name, capabilities=caps, mem_size_gb=mem,
                       device_type="discrete" if "discrete" in dtype else "integrated",
                       inference_precision=precision if precision != "bf16" else "f16",
                       range_for_streams=(lo, hi))
    elif kind == "NPU":
        base = preset("core-ultra-7-165h").devices["NPU"]
        spec = replace(base, full_name=name, capabilities=caps)
    else:
        raise CalibrateError(f"ovlab calibrate cannot model device {device!r} (plugin {kind})")
    return spec


def _params(spec: DeviceSpec) -> list[str]:
    names = CPU_PARAMS if spec.plugin == "CPU" else ACCEL_PARAMS
    floating = spec.inference_precision if spec.inference_precision in spec.peak_gflops \
        else "f16" if "f16" in spec.peak_gflops else "f32"
    return [p.format(float=floating) for p in names]


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


def calibrate(output: str | os.PathLike = "my-machine.json", *, name: str | None = None,
              models: Sequence[str] = DEFAULT_MODELS, devices: Sequence[str] | None = None,
              repeat: int = 2, echo: Callable[[str], None] | None = print,
              progress: Callable[[int, int, str], None] | None = None) -> Platform:
    """Measure, fit, write ``output``; return the platform. ``progress(done, total, what)``
    follows the measurements (one step per model and precision in each pass)."""
    ov = measure.openvino_or_none()
    if ov is None:
        raise CalibrateError("ovlab calibrate measures the real OpenVINO runtime, which is not "
                             "installed here: pip install openvino")
    from .. import zoo

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
    provenance: dict = {"tool": "ovlab calibrate", "date": datetime.date.today().isoformat(),
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

        ms = measure.measure(items, device=device, repeat=repeat, echo=step)
        modes = ("latency", "throughput") if template.plugin == "CPU" else ("latency",)
        targets = [fit.Target(m.model, m.precision, m.mode, m.quiet) for m in ms
                   if m.mode in modes]
        streams = max((m.streams for m in ms if m.mode == "throughput"), default=1)
        template = replace(template, streams_throughput=max(1, streams))
        spec = _valid(fit.fit_measured(template, targets, _params(template)))
        key = device
        specs[key] = spec
        checks = [(m, fit.predict(spec, m.model, m.precision, m.mode)) for m in ms
                  if m.mode in modes]
        provenance["devices"][key] = {
            "measured": [m.to_dict() for m in ms],
            "fit_ratios": {f"{m.model}:{m.precision} {m.mode}": round(sim / m.quiet, 3)
                           for m, sim in checks}}
        for m, sim in checks:
            say(f"  {m.model}:{m.precision} {m.mode}: measured {m.quiet:.4g}, fitted "
                f"{sim:.4g} ({sim / m.quiet:.2f})")
    label = name or Path(output).stem
    platform = Platform(label, specs, f"Calibrated with ovlab calibrate on "
                                      f"{pyplatform.node() or 'this machine'} "
                                      f"({provenance['date']}, OpenVINO {provenance['openvino']})",
                        [f"measured: {', '.join(models)} (FP32, INT8)"])
    path = save(platform, output, provenance)
    say(f"Wrote {path}: use it with ov.Core(platform={str(path)!r}) or "
        f"ovlab benchmark --platform {path}")
    return platform
