"""GPUs: integrated and discrete Intel GPUs of the presets.

Peak FLOP/s from EUs / Xe cores x clock, memory bandwidth of the memory type; compile times and
the optimal batch are calibrated against the seed documents (``platforms.py``).

``_fitted_gpu`` (issue 13) builds the GPUs of Intel's published benchmark platforms, timed as the
GPU plugin runs a graph (``fuse_ops``): XMX matrix engines (Arc A-series, Flex) give the f16 and
int8 peaks of convolutions and matrix products, the vector engines everything else (a depthwise
convolution cannot use XMX: its kind factor is the vector/XMX ratio). ``cache_mb`` is the L3 the
GPU plugin assumes for OPTIMAL_BATCH_SIZE (its per-generation table: 3.75 MB for Tiger Lake's
Xe-LP; DG2 parts (A770M, Flex 170) are not in the table and get its 1.5 MB default). Efficiencies and per-op /
per-inference costs are fitted on Intel's ResNet-50 rows (``fitted.py``,
``benchmarks/fit_presets.py``); the rest is public figures.
"""

from __future__ import annotations

from ..specs import DeviceSpec
from .fitted import FITTED


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


def _fitted_gpu(key: str, full_name: str, *, device_type: str, gflops_f32: float,
                xmx_f16: float | None, bw: float, mem: float, link: float, extra: dict,
                compile_base: float = 1.2, host_load: float = 0.7, **kw) -> DeviceSpec:
    """A GPU timed like the real GPU plugin; ``FITTED[key]`` holds its fitted numbers.
    ``xmx_f16``: the XMX engines' f16 peak (int8: twice that); None: vector engines only
    (f16 2x f32, int8 by DP4a 4x f32)."""
    fitted = FITTED[key]
    if xmx_f16:
        peaks = {"f32": gflops_f32, "f16": xmx_f16, "i8": 2 * xmx_f16}
        vector_share = 2 * gflops_f32 / xmx_f16  # what a depthwise conv can use of the f16 peak
    else:
        peaks = {"f32": gflops_f32, "f16": 2 * gflops_f32, "i8": 4 * gflops_f32}
        vector_share = 1.0
    base = _gpu(full_name, device_type=device_type, gflops_f32=gflops_f32, bw=bw, mem=mem,
                link=link, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
                per_op=fitted["per_op_s"], compile_base=compile_base,
                efficiency=fitted["efficiency_by_precision"]["f16"], jitter=0.05,
                host_load=host_load, **kw)
    kinds = {"depthwise": GPU_DEPTHWISE * vector_share, "matmul": 1.0, "other": GPU_OTHER}
    return base.with_(
        peak_gflops=peaks, per_infer_s=fitted["per_infer_s"],
        efficiency_by_precision=dict(fitted["efficiency_by_precision"]), kind_efficiency=kinds,
        mem_efficiency=GPU_MEM_EFFICIENCY, fuse_ops=True,
        extra=extra)  # no async hand-off: measured only on the CPU runtime (cost.py)


# Op-kind factors and memory efficiency of the fitted GPUs: what a GPU reaches on a depthwise
# convolution (a vector-engine kernel that is mostly memory-bound) and on element-wise ops,
# relative to a dense convolution, and the fraction of its memory bandwidth kernels stream at.
# Priors from the GPU plugin's kernel classes; no published row can fit them apart.
GPU_DEPTHWISE = 0.3
GPU_OTHER = 0.05
GPU_MEM_EFFICIENCY = 0.7

# The Arc iGPU of the Core Ultra 7 165H: 8 Xe-cores (128 EUs) at up to 2.3 GHz, no XMX; it shares
# the LPDDR5x memory with the CPU and NPU. Peak f32 = 128 EU x 8 lanes x 2 x 2.3 GHz; INT8 by DP4a.
ARC_IGPU_165H = _fitted_gpu(
    "core-ultra-7-165h/GPU.0", "Intel(R) Arc(TM) Graphics (iGPU)", device_type="integrated",
    gflops_f32=4700.0, xmx_f16=None, bw=120.0, mem=16.0, link=60.0, cache_mb=4.0,
    extra={"xe_cores": 8, "eus": 128, "clock_ghz": 2.3, "memory": "shared LPDDR5x-7467"})
# The Iris Xe of the Core i7-1185G7 (Xe-LP, 2020): 96 EUs at up to 1.35 GHz (2.07 TFLOPS f32,
# 4.1 f16, 8.3 TOPS int8 by DP4a), shares the CPU's LPDDR4x-4266 (68 GB/s).
IRIS_XE_1185G7 = _fitted_gpu(
    "i7-1185g7/GPU.0", "Intel(R) Iris(R) Xe Graphics (iGPU)", device_type="integrated",
    gflops_f32=96 * 16 * 1.35, xmx_f16=None, bw=68.0, mem=12.7, link=30.0, cache_mb=3.75,
    extra={"eus": 96, "clock_ghz": 1.35, "memory": "shared LPDDR4x-4266"})
# Arc A770M (Alchemist ACM-G10, 2022): 32 Xe-cores (512 EUs, 512 XMX engines) at 1.65 GHz:
# 13.5 TFLOPS f32 on the vector engines, 108 TFLOPS f16 / 216 TOPS int8 on XMX; 16 GB GDDR6 at
# 512 GB/s over PCIe 4.0 x16; 120-150 W.
ARC_A770M = _fitted_gpu(
    "arc-a770m/GPU.0", "Intel(R) Arc(TM) A770M Graphics (dGPU)", device_type="discrete",
    gflops_f32=512 * 16 * 1.65, xmx_f16=512 * 128 * 1.65, bw=512.0, mem=16.0, link=25.0,
    cache_mb=1.5,
    compile_base=1.5, host_load=0.4,
    extra={"xe_cores": 32, "eus": 512, "clock_ghz": 1.65, "tdp_w": 150, "memory": "16 GB GDDR6"})
# Data Center GPU Flex 170 (ACM-G10, 2022): 32 Xe-cores at up to 2.05 GHz: 16.8 TFLOPS f32,
# 134 TFLOPS f16 / 268 TOPS int8 on XMX; 16 GB GDDR6 at 576 GB/s; PCIe 4.0 x16; 150 W.
FLEX_170_FITTED = _fitted_gpu(
    "flex-170/GPU.0", "Intel(R) Data Center GPU Flex 170 (dGPU)", device_type="discrete",
    gflops_f32=512 * 16 * 2.05, xmx_f16=512 * 128 * 2.05, bw=576.0, mem=16.0, link=25.0,
    cache_mb=1.5,
    compile_base=1.5, host_load=0.4,
    extra={"xe_cores": 32, "eus": 512, "clock_ghz": 2.05, "tdp_w": 150, "memory": "16 GB GDDR6"})
