"""GPUs: integrated and discrete Intel GPUs of the presets.

Peak FLOP/s from EUs / Xe cores x clock, memory bandwidth of the memory type; compile times and
the optimal batch are calibrated against the seed documents (``platforms.py``).
"""

from __future__ import annotations

from ..specs import DeviceSpec


def _gpu(full_name, *, device_type, gflops_f32, bw, mem, link, caps, per_op=20e-6,
         compile_base=1.2, efficiency=0.35, jitter=0.3, host_load=0.7, **kw) -> DeviceSpec:
    peaks = {"f32": gflops_f32, "f16": 2 * gflops_f32}
    if "INT8" in caps:
        peaks["i8"] = 4 * gflops_f32
    return DeviceSpec(
        plugin="GPU", full_name=full_name, device_type=device_type, capabilities=caps,
        peak_gflops=peaks, efficiency=efficiency, mem_bw_gbs=bw, mem_size_gb=mem,
        link_gbs=link, link_latency_s=30e-6 if device_type == "integrated" else 20e-6,
        per_op_s=per_op, per_infer_s=300e-6, first_infer_factor=2.0,
        compile_base_s=compile_base, compile_per_op_s=28e-3, compile_per_mb_s=40e-3,
        cached_load_s=0.35, streams_throughput=2, range_for_streams=(1, 2),
        range_for_async_infer_requests=(1, 2, 1), requests_per_stream=2, stream_scaling=0.9,
        jitter=jitter, optimal_batch=16, max_batch=256, inference_precision="f16",
        compile_host_load=host_load, architecture="GPU: vendor=0x8086 arch=v12.0.0",
        stream_share="dynamic", **kw)


IRIS_XE = _gpu(
    "Intel(R) Iris(R) Xe Graphics (iGPU)", device_type="integrated", gflops_f32=2100.0, bw=68.0,
    mem=12.7, link=30.0, caps=("FP32", "FP16", "BIN", "EXPORT_IMPORT"))
IRIS_XE_MAX = _gpu(
    "Intel(R) Iris(R) Xe MAX Graphics (dGPU)", device_type="discrete", gflops_f32=2500.0, bw=68.0,
    mem=4.0, link=7.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), compile_base=1.5,
    efficiency=0.4, jitter=0.15, host_load=0.5)
FLEX_170 = _gpu(
    "Intel(R) Data Center GPU Flex 170 (dGPU)", device_type="discrete", gflops_f32=16000.0,
    bw=576.0, mem=16.0, link=25.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    per_op=12e-6, compile_base=1.5, efficiency=0.25, jitter=0.1, host_load=0.4)
# The Arc iGPU of the Core Ultra 7 165H: 8 Xe-cores (128 EUs) at up to 2.3 GHz, no XMX; it shares
# the LPDDR5x memory with the CPU and NPU. Peak f32 = 128 EU x 8 lanes x 2 x 2.3 GHz; INT8 by DP4a.
ARC_IGPU_165H = _gpu(
    "Intel(R) Arc(TM) Graphics (iGPU)", device_type="integrated", gflops_f32=4700.0, bw=120.0,
    mem=16.0, link=60.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"))
