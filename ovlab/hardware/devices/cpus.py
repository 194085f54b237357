"""CPUs: the host processors of the presets, as :class:`~ovlab.hardware.specs.DeviceSpec`.

Peak FLOP/s is cores x vector width x FMA x clock from the vendor's spec sheet; the per-op and
per-inference costs and the efficiency are fitted (see ``ovlab/hardware/platforms.py`` for what
each preset is calibrated against).
"""

from __future__ import annotations

from ..specs import DeviceSpec


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
# The measured CPU-only machine of reference/openvino-measured.md (2 vCPU AMD EPYC with AVX-512).
VM_CPU = _cpu(
    "AMD EPYC", gflops_f32=190.0, cores_streams=2, bw=40.0, mem=24.0,
    caps=("BF16", "WINOGRAD", "FP32", "INT8", "BIN", "EXPORT_IMPORT"), range_streams=(1, 2),
    range_req=(1, 1, 1))
# Core Ultra 7 165H (Meteor Lake-H, 2023): 6 P-cores (12 threads) + 8 E-cores + 2 LP E-cores,
# AVX2 + AVX-VNNI, no AVX-512; LPDDR5x-7467 (~120 GB/s). Peak f32 ~ 6 P x 32 flop/cycle x ~4 GHz
# + 8 E x 16 x ~3.3 GHz. A first estimate from public figures, to be fitted on Intel's published
# benchmark rows (reference/calibration/).
CORE_ULTRA_7_165H_CPU = _cpu(
    "Intel(R) Core(TM) Ultra 7 165H", gflops_f32=1200.0, cores_streams=4, bw=120.0, mem=32.0,
    caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), range_streams=(1, 22),
    range_req=(1, 1, 1), p_cores=6, e_cores=8, e_core_perf=0.41)
# e_core_perf: a Crestmont E-core (16 f32 flop/cycle at ~3.3 GHz) against a Redwood Cove P-core
# (32 flop/cycle at ~4 GHz), the same figures as the peak above: 52.8 / 128 = 0.41.
