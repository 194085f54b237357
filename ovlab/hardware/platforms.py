"""Platform presets: the machines the seed documents talk about, as virtual hardware.

Figures are public spec-sheet numbers (peak FLOP/s from cores x vector width x clock, memory
bandwidth of the memory type) and the seeds' observations, which calibrate the rest:
GoogLeNet-v1 takes ~15-30 ms on the laptop CPU while the GPU compiles and ~3-16 ms on its Iris Xe
iGPU; an iGPU compile of GoogLeNet takes several seconds (the seed's switch comes after ~7 s) and
about 10 s for big models. ``benchmarks/`` and ``tests/runtime/test_calibration.py`` check the
presets against those figures.

Presets: ``laptop`` (default; Core i7-1165G7 + Iris Xe), ``workstation`` (CPU, iGPU ``GPU.0``, dGPU
``GPU.1`` like Iris Xe MAX, ``NPU``), ``cpu`` (CPU only, like Binder or the measured 2-vCPU VM) and
``multi-gpu`` (a server CPU and three discrete GPUs). Make your own with :class:`Platform`, or
change one device with ``platform.with_device("GPU.0", spec.with_(compile_base_s=20))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .specs import DeviceSpec

# Ops an accelerator in these presets cannot run (the "difficult topology" story of HETERO).
NPU_UNSUPPORTED = frozenset({"LRN", "Sigmoid", "Clamp"})
KNOWN_OPS = frozenset({
    "Parameter", "Constant", "Result", "Convolution", "GroupConvolution", "Relu", "Clamp",
    "Sigmoid", "MaxPool", "AvgPool", "LRN", "Concat", "Add", "Multiply", "Subtract", "MatMul",
    "Reshape", "Transpose", "Softmax", "Convert", "FakeQuantize", "Squeeze", "Unsqueeze",
    "ReduceMean", "Divide", "Tanh", "Exp",
})


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


LAPTOP_CPU = _cpu(
    "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", gflops_f32=500.0, cores_streams=4, bw=68.0,
    mem=16.0, caps=("WINOGRAD", "FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    range_streams=(1, 8), range_req=(1, 1, 1))
IRIS_XE = _gpu(
    "Intel(R) Iris(R) Xe Graphics (iGPU)", device_type="integrated", gflops_f32=2100.0, bw=68.0,
    mem=12.7, link=30.0, caps=("FP32", "FP16", "BIN", "EXPORT_IMPORT"))
IRIS_XE_MAX = _gpu(
    "Intel(R) Iris(R) Xe MAX Graphics (dGPU)", device_type="discrete", gflops_f32=2500.0, bw=68.0,
    mem=4.0, link=7.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), compile_base=1.5,
    efficiency=0.4, jitter=0.15, host_load=0.5)
AI_BOOST_NPU = DeviceSpec(
    plugin="NPU", full_name="Intel(R) AI Boost", device_type="integrated",
    capabilities=("FP16", "INT8", "EXPORT_IMPORT"), peak_gflops={"f16": 5500.0, "i8": 11000.0},
    efficiency=0.5, mem_bw_gbs=60.0, mem_size_gb=8.0, link_gbs=20.0, link_latency_s=40e-6,
    per_op_s=10e-6, per_infer_s=400e-6, first_infer_factor=1.5, compile_base_s=3.0,
    compile_per_op_s=60e-3, compile_per_mb_s=30e-3, cached_load_s=0.5, streams_throughput=1,
    range_for_streams=(1, 1), range_for_async_infer_requests=(1, 4, 1), requests_per_stream=4,
    stream_scaling=1.0, jitter=0.05, inference_precision="f16", stream_share="dynamic",
    supported_ops=KNOWN_OPS - NPU_UNSUPPORTED, compile_host_load=0.3, architecture="3720")
SERVER_CPU = _cpu(
    "Intel(R) Xeon(R) Gold 6438Y+", gflops_f32=4000.0, cores_streams=16, bw=300.0, mem=256.0,
    caps=("WINOGRAD", "FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), range_streams=(1, 64),
    range_req=(1, 1, 1))
FLEX_170 = _gpu(
    "Intel(R) Data Center GPU Flex 170 (dGPU)", device_type="discrete", gflops_f32=16000.0,
    bw=576.0, mem=16.0, link=25.0, caps=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"),
    per_op=12e-6, compile_base=1.5, efficiency=0.25, jitter=0.1, host_load=0.4)
# The measured CPU-only machine of reference/openvino-measured.md (2 vCPU AMD EPYC with AVX-512).
VM_CPU = _cpu(
    "AMD EPYC", gflops_f32=190.0, cores_streams=2, bw=40.0, mem=24.0,
    caps=("BF16", "WINOGRAD", "FP32", "INT8", "BIN", "EXPORT_IMPORT"), range_streams=(1, 2),
    range_req=(1, 1, 1))


@dataclass
class Platform:
    """A machine: named devices (``"CPU"``, ``"GPU.0"``, ``"NPU"``...) with their specs."""

    name: str
    devices: dict[str, DeviceSpec]
    description: str = ""
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for key, spec in self.devices.items():
            plugin = key.split(".", 1)[0]
            if plugin != spec.plugin:
                raise ValueError(f"device {key!r} is driven by the {spec.plugin} plugin: "
                                 f"name it {spec.plugin} or {spec.plugin}.<id>")

    def with_device(self, name: str, spec: DeviceSpec) -> Platform:
        """A copy of this platform with ``name`` added or replaced by ``spec``."""
        devices = dict(self.devices)
        devices[name] = spec
        return Platform(f"{self.name}+{name}", devices, self.description, list(self.notes))

    def without(self, name: str) -> Platform:
        devices = {k: v for k, v in self.devices.items() if k != name}
        return Platform(f"{self.name}-{name}", devices, self.description, list(self.notes))

    def __repr__(self) -> str:
        return f"<Platform {self.name}: {', '.join(self.devices)}>"


def preset(name: str) -> Platform:
    """A fresh copy of a preset platform."""
    if name not in PRESETS:
        raise ValueError(f"unknown platform {name!r}; presets are {', '.join(PRESETS)}")
    return PRESETS[name]()


PRESETS = {
    "laptop": lambda: Platform(
        "laptop", {"CPU": LAPTOP_CPU, "GPU.0": IRIS_XE},
        "The seed's laptop: Core i7-1165G7 CPU and its Iris Xe iGPU."),
    "workstation": lambda: Platform(
        "workstation",
        {"CPU": LAPTOP_CPU, "GPU.0": IRIS_XE, "GPU.1": IRIS_XE_MAX, "NPU": AI_BOOST_NPU},
        "A teaching workstation: CPU, Iris Xe iGPU (GPU.0), Iris Xe MAX dGPU (GPU.1) and an NPU."),
    "cpu": lambda: Platform(
        "cpu", {"CPU": VM_CPU},
        "CPU only, like Binder or the 2-vCPU VM where the real runtime was measured."),
    "multi-gpu": lambda: Platform(
        "multi-gpu",
        {"CPU": SERVER_CPU, "GPU.0": FLEX_170, "GPU.1": FLEX_170, "GPU.2": FLEX_170},
        "A server: Xeon CPU and three Flex 170 discrete GPUs."),
}
