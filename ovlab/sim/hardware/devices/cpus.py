"""CPUs: the host processors of the presets, as :class:`~ovlab.sim.hardware.specs.DeviceSpec`.

Peak FLOP/s is cores x vector width x FMA x clock from the vendor's spec sheet; the per-op and
per-inference costs and the efficiency are fitted (see ``ovlab/sim/hardware/platforms.py`` for what
each preset is calibrated against).

Two generations live here. The seed's CPUs (``_cpu``: ``LAPTOP_CPU``, ``SERVER_CPU``) keep the
single-efficiency cost model the seed's experiments were calibrated with. The fitted CPUs
(``_fitted_cpu``, issue 13) are timed as the real CPU plugin runs a graph (``fuse_ops``: post-ops
fused, per-op-kind and per-precision efficiency, async hand-off); their fitted numbers are in
``fitted.py``, written by ``benchmarks/fit_presets.py``:

* ``VM_CPU`` (preset ``cpu``): the 2-vCPU machine of this project, fitted on the real OpenVINO
  runtime measured beside it (every zoo model, FP32 and INT8, latency and throughput;
  ``benchmarks/bench_fidelity.py`` checks it in one run).
* the CPUs of Intel's published platforms: efficiencies and stream scaling fitted on Intel's
  ResNet-50 rows only; op-kind factors, memory efficiency and the per-op and per-inference costs
  are ``VM_CPU``'s (what the measured CPU taught), so other models are predicted. ``cache_mb`` is
  each CPU's last-level cache (traffic that fits costs no memory time).
"""

from __future__ import annotations

from ..specs import DeviceSpec
from .fitted import FITTED


def _cpu(full_name, *, gflops_f32, cores_streams, bw, mem, caps, range_streams, range_req,
         int8_factor=4.0, **kw) -> DeviceSpec:
    return DeviceSpec(
        plugin="CPU", full_name=full_name, device_type="integrated", capabilities=caps,
        peak_gflops={"f32": gflops_f32, "i8": gflops_f32 * int8_factor}, efficiency=0.55,
        mem_bw_gbs=bw, mem_size_gb=mem, link_gbs=bw, link_latency_s=2e-6,
        per_op_s=6e-6, per_infer_s=80e-6, first_infer_factor=3.0,
        compile_base_s=0.08, compile_per_op_s=0.6e-3, compile_per_mb_s=1e-3, cached_load_s=0.03,
        streams_throughput=cores_streams, range_for_streams=range_streams,
        range_for_async_infer_requests=range_req, requests_per_stream=1, stream_scaling=0.8,
        jitter=0.15, inference_precision="f32", **kw)


LAPTOP_CPU = _cpu(
    "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", gflops_f32=500.0, cores_streams=4, bw=68.0,
    mem=16.0, caps=("WINOGRAD", "FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    range_streams=(1, 8), range_req=(1, 1, 1))
SERVER_CPU = _cpu(
    "Intel(R) Xeon(R) Gold 6438Y+", gflops_f32=4000.0, cores_streams=16, bw=300.0, mem=256.0,
    caps=("WINOGRAD", "FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), range_streams=(1, 64),
    range_req=(1, 1, 1))


def _fitted_cpu(key: str, full_name: str, *, gflops_f32: float, i8_per_f32: float, bw: float,
                mem: float, caps: tuple[str, ...], streams: int, range_streams: tuple[int, int],
                extra: dict, bf16: bool = False, **kw) -> DeviceSpec:
    """A CPU timed like the real CPU plugin; ``FITTED[key]`` holds its fitted numbers."""
    # the measured CPU's fitted numbers are the defaults of every other fitted CPU
    fitted = {**FITTED["cpu/CPU"], **FITTED[key]}
    peaks = {"f32": gflops_f32, "i8": gflops_f32 * i8_per_f32}
    if bf16:
        peaks["bf16"] = gflops_f32 * 2
    return DeviceSpec(
        plugin="CPU", full_name=full_name, device_type="integrated", capabilities=caps,
        peak_gflops=peaks, efficiency=fitted["efficiency_by_precision"]["f32"
                                                                        if not bf16 else "bf16"],
        mem_bw_gbs=bw, mem_size_gb=mem, link_gbs=bw, link_latency_s=2e-6,
        per_op_s=fitted["per_op_s"], per_infer_s=fitted["per_infer_s"],
        first_infer_factor=2.0,
        compile_base_s=0.08, compile_per_op_s=0.6e-3, compile_per_mb_s=1e-3, cached_load_s=0.03,
        streams_throughput=streams, range_for_streams=range_streams,
        range_for_async_infer_requests=(1, 1, 1), requests_per_stream=1,
        stream_scaling=fitted["stream_scaling"], jitter=0.03,
        inference_precision="bf16" if bf16 else "f32",
        efficiency_by_precision=dict(fitted["efficiency_by_precision"]),
        kind_efficiency=dict(fitted["kind_efficiency"]),
        mem_efficiency=fitted["mem_efficiency"],
        fuse_ops=True, async_overhead_s=fitted["async_overhead_s"],
        per_op_kind=dict(fitted.get("per_op_kind", {})),
        per_op_i8_s=fitted.get("per_op_i8_s", 0.0),
        stream_dispatch=fitted.get("stream_dispatch", 1.0),
        extra=extra, **kw)


# The measured CPU-only machine of reference/openvino-measured.md: 2 vCPUs of an AMD EPYC (Zen 5,
# family 26) under KVM, AVX-512 with AVX512_BF16 and VNNI, so the real CPU plugin runs FP32 models
# in bf16 by default. Peak per core and cycle: f32 64 (two 512-bit FMA pipes), bf16 128, int8 256;
# at an assumed 3.7 GHz sustained boost (the VM reports only its 2.6 GHz TSC).
VM_CPU = _fitted_cpu(
    "cpu/CPU", "AMD EPYC", gflops_f32=2 * 64 * 3.7, i8_per_f32=4.0, bw=80.0, mem=24.0,
    caps=("BF16", "WINOGRAD", "FP32", "INT8", "BIN", "EXPORT_IMPORT"), streams=2,
    range_streams=(1, 2), bf16=True, cache_mb=32.0,
    extra={"cores": 2, "clock_ghz": 3.7, "isa": "AVX-512, AVX512_BF16, VNNI", "l3_mb": 32})
# Core i7-1185G7 (Tiger Lake-UP3, 2020): 4 cores / 8 threads, 3.0 GHz base at 28 W, 4.3 GHz
# all-core turbo (4.8 single), one 512-bit FMA unit per core (32 f32 FLOP/cycle), AVX-512 VNNI
# (int8 4x), no BF16; LPDDR4x-4266 (68 GB/s), 12 MB L3, TDP 12-28 W. (At the 3.0 GHz base the
# published INT8 latency would need 100 % of the peak: the benchmark ran at turbo clocks.)
I7_1185G7_CPU = _fitted_cpu(
    "i7-1185g7/CPU", "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz", gflops_f32=4 * 32 * 4.3,
    i8_per_f32=4.0, bw=68.0, mem=16.0, caps=("WINOGRAD", "FP32", "FP16", "INT8", "BIN",
                                            "EXPORT_IMPORT"),
    streams=4, range_streams=(1, 8), cache_mb=12.0,
    extra={"cores": 4, "threads": 8, "clock_ghz": 4.3, "base_ghz": 3.0, "tdp_w": 28,
           "isa": "AVX-512, VNNI", "memory": "LPDDR4x-4266"})
# Core Ultra 7 165H (Meteor Lake-H, 2023): 6 P-cores (12 threads) + 8 E-cores + 2 LP E-cores,
# AVX2 + AVX-VNNI, no AVX-512; LPDDR5x-7467 (~120 GB/s). Peak f32 ~ 6 P x 32 flop/cycle x ~4 GHz
# + 8 E x 16 x ~3.3 GHz; INT8 by AVX-VNNI (4x). TDP 28 W base, 115 W turbo. THROUGHPUT: 4 streams
# (the hello-npu notebook's transcript on a Core Ultra). e_core_perf: a Crestmont E-core (16 f32
# flop/cycle at ~3.3 GHz) against a Redwood Cove P-core (32 flop/cycle at ~4 GHz), the same
# figures as the peak: 52.8 / 128 = 0.41.
CORE_ULTRA_7_165H_CPU = _fitted_cpu(
    "core-ultra-7-165h/CPU", "Intel(R) Core(TM) Ultra 7 165H", gflops_f32=1200.0,
    i8_per_f32=4.0, bw=120.0, mem=32.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    streams=4, range_streams=(1, 22), p_cores=6, e_cores=8, e_core_perf=0.41, cache_mb=24.0,
    extra={"lp_e_cores": 2, "threads": 22, "clock_ghz": 3.8, "tdp_w": 28,
           "isa": "AVX2, AVX-VNNI", "memory": "LPDDR5x-7467"})
# Core i9-13900K (Raptor Lake-S, 2022): 8 P-cores (2x 256-bit FMA: 32 f32 FLOP/cycle, ~5.5 GHz
# all-core) + 16 E-cores (16 FLOP/cycle, ~4.3 GHz); AVX2 + AVX-VNNI; DDR5-5600 dual channel
# (89.6 GB/s), 36 MB L3; 125 W base, 253 W turbo.
I9_13900K_CPU = _fitted_cpu(
    "i9-13900k/CPU", "13th Gen Intel(R) Core(TM) i9-13900K", gflops_f32=8 * 32 * 5.5 + 16 * 16 * 4.3,
    i8_per_f32=4.0, bw=89.6, mem=64.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    streams=12, range_streams=(1, 32), cache_mb=36.0,
    extra={"cores": 24, "p_cores": 8, "e_cores": 16, "threads": 32, "clock_ghz": 5.5,
           "tdp_w": 125, "isa": "AVX2, AVX-VNNI", "memory": "DDR5-5600"})
# Core i7-12700H (Alder Lake-H), the kind of host an Arc A770M laptop has: 6 P + 8 E cores,
# AVX2 + AVX-VNNI, DDR5-4800 (76.8 GB/s), 45 W. Not fitted (no published CPU row for this
# host); it borrows the 165H's fitted numbers, scaled by its own peak.
I7_12700H_CPU = _fitted_cpu(
    "core-ultra-7-165h/CPU", "12th Gen Intel(R) Core(TM) i7-12700H",
    gflops_f32=6 * 32 * 4.0 + 8 * 16 * 3.0, i8_per_f32=4.0, bw=76.8, mem=32.0,
    caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), streams=4, range_streams=(1, 20),
    cache_mb=24.0,
    extra={"cores": 14, "p_cores": 6, "e_cores": 8, "threads": 20, "clock_ghz": 4.0,
           "tdp_w": 45, "isa": "AVX2, AVX-VNNI", "memory": "DDR5-4800"})
