"""The hardware plugins (CPU, GPU, NPU) and the compiled model that runs on one device.

A compiled model on a device has S streams (1 under LATENCY, the device's throughput count under
THROUGHPUT, or NUM_STREAMS); inferences beyond the streams queue FIFO. Each inference takes the
cost model's time for the model on this device, stretched by the number of streams, by
contention (a CPU slows down while another device compiles on its host threads: claim A16), by
seeded jitter, and by the first-inference penalty. Compiling advances the clock by the compile
time, or by the cached-load time when ``CACHE_DIR`` holds a blob of the same model (claim B09):
a real file in a real directory (``runtime/model_cache.py``), so another Core finds it.
"""

from __future__ import annotations

import heapq
from collections import deque
from math import exp as _exp
from typing import Any

import numpy as np

from ...properties import device as device_props
from ...properties import hint, log
from ..errors import PluginError
from ..graph import state_ops
from ..hardware import cost
from ..hardware.specs import DeviceSpec
from ..runtime import config as cfgmod
from ..runtime import model_cache
from ..runtime.backend import Backend, Computed, Job, LazyEval, ProfilingInfo
from ..runtime.plugin import Plugin
from ..trace import InferenceRecord
from . import npu_batching

# Properties each plugin answers at core level (get_property(device, key)), RO or RW.
_COMMON_RO = ["SUPPORTED_PROPERTIES", "AVAILABLE_DEVICES", "RANGE_FOR_ASYNC_INFER_REQUESTS",
              "RANGE_FOR_STREAMS", "EXECUTION_DEVICES", "FULL_DEVICE_NAME",
              "OPTIMIZATION_CAPABILITIES", "DEVICE_TYPE", "DEVICE_ARCHITECTURE"]
_COMMON_RW = ["NUM_STREAMS", "PERF_COUNT", "INFERENCE_PRECISION_HINT", "PERFORMANCE_HINT",
              "EXECUTION_MODE_HINT", "PERFORMANCE_HINT_NUM_REQUESTS", "DEVICE_ID", "LOG_LEVEL"]
PLUGIN_KEYS = {
    "CPU": (_COMMON_RO, _COMMON_RW[:1] + ["INFERENCE_NUM_THREADS"] + _COMMON_RW[1:]
            + ["ENABLE_CPU_PINNING", "ENABLE_HYPER_THREADING", "SCHEDULING_CORE_TYPE",
               "MODEL_DISTRIBUTION_POLICY", "CPU_DENORMALS_OPTIMIZATION",
               "CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE"]),
    "GPU": (_COMMON_RO + ["OPTIMAL_BATCH_SIZE", "MAX_BATCH_SIZE", "GPU_DEVICE_TOTAL_MEM_SIZE"],
            _COMMON_RW + ["MODEL_PRIORITY", "GPU_HOST_TASK_PRIORITY", "COMPILATION_NUM_THREADS",
                          "CACHE_DIR"]),
    "NPU": (_COMMON_RO, _COMMON_RW + ["MODEL_PRIORITY", "CACHE_DIR"]),
}
# Keys a plugin accepts without listing them in SUPPORTED_PROPERTIES (private options).
_HIDDEN_KEYS = {"NPU": ("NPU_BATCH_MODE",)}
# Keys every device accepts at compile time (the Core handles or ignores them).
_CORE_KEYS = {"CACHE_DIR", "ALLOW_AUTO_BATCHING", "AUTO_BATCH_TIMEOUT", "MODEL_PTR",
              "ENABLE_MMAP"}
# The real CPU compiled model answers these but leaves them out of its SUPPORTED_PROPERTIES.
_CPU_UNLISTED = ("LOADED_FROM_CACHE", "DEVICE_ID")
# Internal keys ovlab's own meta plugins pass down (never shown to users).
INTERNAL_PREFIX = "_OVLAB_"

_CONFIG_SRC = {"CPU": "src/plugins/intel_cpu/src/config.cpp",
               "GPU": "src/plugins/intel_gpu/src/runtime/execution_config.cpp",
               "NPU": "src/plugins/intel_npu/src/al/src/config/config.cpp"}
_COMPILED_SRC = {"CPU": "src/plugins/intel_cpu/src/compiled_model.cpp:420",
                 "GPU": "src/plugins/intel_gpu/src/plugin/compiled_model.cpp:292",
                 "NPU": "src/plugins/intel_npu/src/plugin/src/compiled_model.cpp:105"}
_DESCRIPTION = {"CPU": "openvino_intel_cpu_plugin", "GPU": "Intel GPU plugin",
                "NPU": "NPU Runtime"}
_EXEC_TYPE = {"CPU": "jit_avx512_f32", "GPU": "ocl", "NPU": "npu"}


def _type_object(name: str):
    from ..graph import Type

    return getattr(Type, name)


def _check_results_are_sinks(model, plugin: str) -> None:
    """A Result that feeds another op (an IR can say so) reads fine but does not compile: the
    CPU plugin's graph check, measured with the 2026.4.1 wheel."""
    for result in model.get_results():
        if any(out.get_target_inputs() for out in result.outputs()):
            raise PluginError(
                f"Result node with name '{result.get_friendly_name()}' has incorrect number of "
                "output edges.",
                "Check 'getChildEdges().empty()' failed at "
                f"src/plugins/intel_{plugin.lower()}/src/nodes/input.cpp:677")


def _check_cpu_kernels(model) -> None:
    """What the real CPU plugin refuses when it creates its nodes (2026.4.1): an op it has no
    kernel for (GroupedMatMul-17, which ovlab can run elsewhere), and DetectionOutput's
    MXNet-style labels with a background label other than 0."""
    for op in model.get_ordered_ops():
        kind, name = op.get_type_name(), op.get_friendly_name()
        if kind == "GroupedMatMul":
            ins = ", ".join(f"{s.get_node()._op.version}::{s.get_node().get_type_name()} "
                            f"{s.get_node().get_friendly_name()}"
                            f"[{s.get_index()}]:{s.get_element_type().get_type_name()}"
                            f"{s.get_partial_shape()}" for s in op.input_values())
            out = f"{op.get_output_element_type(0).get_type_name()}{op.get_output_partial_shape(0)}"
            raise PluginError(
                f"Unsupported operation of type: GroupedMatMul name: {name}\nDetails:\n"
                "Exception from src/plugins/intel_cpu/src/nodes/reference.cpp:36:\n"
                "Not Implemented:\nCannot fallback on ngraph reference implementation. "
                f"Ngraph::Node::evaluate() is not implemented for op: opset17::GroupedMatMul "
                f"{name} ({ins}) -> ({out})\n",
                "Check 'newNode' failed at src/plugins/intel_cpu/src/node.cpp:1626")
        if kind == "DetectionOutput":
            a = op._attrs
            if a["decrease_label_id"] and a["background_label_id"] != 0:
                raise PluginError(
                    f"DetectionOutput node with name '{name}' cannot use decrease_label_id and "
                    "background_label_id parameter simultaneously.\n",
                    "Check '!decreaseClassId || backgroundClassId == 0' failed at "
                    "src/plugins/intel_cpu/src/nodes/detection_output.cpp:129")


def _any_text(value: Any) -> str:
    """A value as ``ov::Any`` prints it in the plugins' messages: YES/NO for a bool, "" for
    None, ``%g`` for a float, an enum by its name."""
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return " ".join(_any_text(v) for v in value)
    name = getattr(value, "name", None)
    return name if isinstance(name, str) and not isinstance(value, str) else str(value)


_NOT_MINE = object()
#: what the CPU plugin reads from "" (the C++ type's zero value; measured on 2026.4.1)
_CPU_EMPTY = {"PERF_COUNT": False, "PERFORMANCE_HINT_NUM_REQUESTS": 0, "INFERENCE_NUM_THREADS": 0,
              "ENABLE_CPU_PINNING": False, "ENABLE_HYPER_THREADING": False,
              "CPU_DENORMALS_OPTIMIZATION": False, "CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE": 0.0,
              # an enum's zero: ov::log::Level{} is ERR (NO is -1), ExecutionMode{} has no name
              # (pybind prints it "???"), element::Type{} is dynamic, streams::Num{} is AUTO
              "LOG_LEVEL": log.Level.ERR, "EXECUTION_MODE_HINT": hint.ExecutionMode(0),
              "INFERENCE_PRECISION_HINT": "dynamic", "NUM_STREAMS": -1}
#: the CPU plugin's boolean keys: (config.cpp line, a space before "for"?, a final ".")
_CPU_BOOL_KEYS = {"ENABLE_CPU_PINNING": (122, "", "."), "ENABLE_HYPER_THREADING": (176, "", "."),
                  "PERF_COUNT": (219, " ", ""), "CPU_DENORMALS_OPTIMIZATION": (293, " ", "")}
#: the CPU plugin's enum-valued keys: (enum, message, config.cpp line), measured on 2026.4.1
_CPU_ENUM_KEYS: dict[str, tuple[Any, str, int]] = {
    "SCHEDULING_CORE_TYPE": (hint.SchedulingCoreType, "Wrong value {}for property key "
                             "SCHEDULING_CORE_TYPE. Expected only ov::hint::SchedulingCoreType::"
                             "ANY_CORE/PCORE_ONLY/ECORE_ONLY", 146),
    "EXECUTION_MODE_HINT": (hint.ExecutionMode, "Wrong value {}for property key "
                            "EXECUTION_MODE_HINT. Supported values: ov::hint::ExecutionMode::"
                            "PERFORMANCE/ACCURACY", 322),
    "LOG_LEVEL": (None, "Wrong value {} for property key LOG_LEVEL. Expected only "
                  "ov::log::Level::NO/ERR/WARNING/INFO/DEBUG/TRACE.", 98),
}


class HardwarePlugin(Plugin):
    """CPU, GPU or NPU: the devices of this family that the platform has."""

    def __init__(self, core, name: str) -> None:
        super().__init__(core, name)
        self.description = _DESCRIPTION[name]
        self.devices: dict[str, tuple[str, DeviceSpec]] = {}  # id -> (device name, spec)
        for dev_name, spec in core.platform.devices.items():
            if spec.plugin == name:
                dev_id = dev_name.split(".", 1)[1] if "." in dev_name else ""
                if name == "GPU" and dev_id == "":
                    dev_id = "0"
                self.devices[dev_id] = (dev_name if "." in dev_name or name != "GPU"
                                        else f"GPU.{dev_id}", spec)

    # --- devices -------------------------------------------------------------------------
    def device_ids(self) -> list[str]:
        return sorted(self.devices)

    def device_names(self) -> list[str]:
        """Names as available_devices spells them: ``GPU.0, GPU.1`` or bare ``GPU`` if alone."""
        ids = self.device_ids()
        if len(ids) > 1:
            return [f"{self.name}.{i}" for i in ids]
        return [self.name] if ids else []

    def resolve(self, device_id: str | None) -> tuple[str, DeviceSpec]:
        """(canonical device name, spec) for ``GPU`` / ``GPU.1`` / ``CPU``; OpenVINO's errors."""
        if not self.devices:
            raise self._no_device_error("PERFORMANCE_HINT")
        if self.name == "CPU":
            if device_id:
                raise PluginError(
                    "CPU plugin supports only '' as device id",
                    f"Check 'device_id.empty()' failed at {_CONFIG_SRC['CPU']}:247")
            return self.devices[""]
        if device_id in (None, ""):
            device_id = self.device_ids()[0]
        if device_id not in self.devices:
            raise PluginError(
                f"[{self.name}] Device with id {device_id} is not found. Available ids: "
                f"{', '.join(self.device_ids())}",
                f"Check 'm_device_map.count(device_id)' failed at "
                f"src/plugins/intel_{self.name.lower()}/src/plugin/plugin.cpp:312")
        return self.devices[device_id]

    def _no_device_error(self, what: str) -> PluginError:
        return PluginError(
            f"[{self.name}] Can't get {what} property as no supported devices found or an error "
            f"happened during devices query.\n[{self.name}] Please check OpenVINO documentation "
            f"for {self.name} drivers setup guide.\n",
            f"Check '!m_device_map.empty()' failed at "
            f"src/plugins/intel_{self.name.lower()}/src/plugin/plugin.cpp:559")

    # --- config ----------------------------------------------------------------------------
    def supported(self) -> dict[str, str]:
        ro, rw = PLUGIN_KEYS[self.name]
        out = {k: "RO" for k in ro}
        out.update({k: "RW" for k in rw})
        return out

    def _bad_value(self, key: str, value: Any, expected: str, line: int) -> PluginError:
        return PluginError(f"Wrong value {_any_text(value)}for property key {key}. Expected only "
                           f"{expected}.",
                           f"{_CONFIG_SRC[self.name]}:{line}")

    def validate(self, config: dict[str, Any], *, for_compile: bool) -> dict[str, Any]:
        """Check keys and values like the plugin's config parser; return the parsed values."""
        rw = set(PLUGIN_KEYS[self.name][1])
        parsed: dict[str, Any] = {}
        for key, value in config.items():
            if key.startswith(INTERNAL_PREFIX) or (for_compile and key in _CORE_KEYS):
                parsed[key] = value
                continue
            if key not in rw and key not in _HIDDEN_KEYS.get(self.name, ()):
                raise PluginError(f"NotFound: Unsupported property {key} by {self.name} plugin.",
                                  f"{_CONFIG_SRC[self.name]}:505")
            parsed[key] = self._parse_value(key, value)
        return parsed

    def _parse_cpu_value(self, key: str, value: Any) -> Any:
        """The CPU plugin's own reading of a value that is not what it expects (measured on
        2026.4.1): ``_NOT_MINE`` where the common rules below apply."""
        src = _CONFIG_SRC[self.name]
        text = _any_text(value)
        if value == "" and key in _CPU_EMPTY:
            return _CPU_EMPTY[key]  # "" reads as the type's zero value (ov::Any of "")
        if key == "MODEL_DISTRIBUTION_POLICY":
            items = value if isinstance(value, (set, list, tuple)) else [value]
            names = {getattr(v, "name", v) for v in items}
            if isinstance(value, str) and value == "" or names <= {"TENSOR_PARALLEL"}:
                return {hint.ModelDistributionPolicy.TENSOR_PARALLEL} if names else set()
            raise PluginError(f"Wrong value {text}for property key {key}. CPU plugin only "
                              "support {ov::hint::ModelDistributionPolicy::TENSOR_PARALLEL}",
                              f"{src}:154")
        if key in _CPU_BOOL_KEYS:
            line, space, dot = _CPU_BOOL_KEYS[key]
            if isinstance(value, bool):
                return value
            if isinstance(value, str):
                try:
                    return cfgmod.to_bool(value)
                except PluginError:
                    pass
            raise PluginError(f"Wrong value {text}{space}for property key {key}. Expected only "
                              f"true/false{dot}", f"{src}:{line}")
        if key in ("INFERENCE_NUM_THREADS", "PERFORMANCE_HINT_NUM_REQUESTS"):
            if value is None:
                return 0
            n = int(value) if isinstance(value, float) else \
                None if isinstance(value, bool) else cfgmod.to_int(value)
            if key == "INFERENCE_NUM_THREADS":
                exe = "src/inference/src/dev/threading/istreams_executor.cpp"
                if n is None:
                    raise PluginError(f"Wrong value for property key {key}. Expected only non "
                                      "negative integer numbers.", f"{exe}:54")
                if n < 0:
                    raise PluginError(f"Wrong value for property key {key}. Expected only non "
                                      f"negative integer numbers. Got: {n}", f"{exe}:58")
                return n
            if n is None or n < 0:
                raise PluginError(f"Wrong value {text}for property key {key}. Expected only "
                                  ">= 0.", f"{src}:111")
            return n
        if key == "DEVICE_ID":
            if _any_text(value) != "":
                self.resolve(_any_text(value))  # the CPU has no ids: its error
            return ""
        if key == "NUM_STREAMS" and value == "NUMA":
            return -2  # streams::NUMA, as the number reads
        if key == "NUM_STREAMS" and isinstance(value, (bool, float)):
            if isinstance(value, bool):
                raise PluginError(f"Could not read number of streams from str: {text}; stoi",
                                  "src/inference/include/openvino/runtime/properties.hpp:1379")
            return self._parse_value_common(key, int(value))
        return _NOT_MINE

    def _parse_value(self, key: str, value: Any) -> Any:
        if self.name == "CPU":
            parsed = self._parse_cpu_value(key, value)
            if parsed is not _NOT_MINE:
                return parsed
        return self._parse_value_common(key, value)

    def _parse_value_common(self, key: str, value: Any) -> Any:
        if key == "NPU_BATCH_MODE":
            return npu_batching.parse_mode(value)
        if key == "PERFORMANCE_HINT":
            if value == "":
                raise PluginError("Unsupported performance mode hint",
                                  "src/inference/include/openvino/runtime/properties.hpp:352")
            mode = cfgmod.performance_mode(value)
            if mode is None:
                raise self._bad_value(key, value,
                                      "ov::hint::PerformanceMode::LATENCY/THROUGHPUT/"
                                      "CUMULATIVE_THROUGHPUT", 88)
            return mode
        if key in ("PERFORMANCE_HINT_NUM_REQUESTS", "INFERENCE_NUM_THREADS",
                   "COMPILATION_NUM_THREADS"):
            n = cfgmod.to_uint(value)
            if n is None:
                raise self._bad_value(key, value, ">= 0", 111)
            return n
        if key == "NUM_STREAMS":
            if str(value) in ("AUTO", "Num.AUTO") or getattr(value, "name", "") == "AUTO":
                return -1
            try:
                n = int(value.value if hasattr(value, "value") else value)
            except (TypeError, ValueError):
                raise PluginError(f"Could not read number of streams from str: {value}; stoi",
                                  "src/inference/include/openvino/runtime/properties.hpp:1379"
                                  ) from None
            if n < -2:  # -1 is streams::AUTO, -2 streams::NUMA (measured)
                raise PluginError(
                    f"Wrong value for property key NUM_STREAMS. Expected non negative numbers "
                    f"(#streams) or ov::streams::NUMA|ov::streams::AUTO, Got: {n}",
                    "src/inference/src/dev/threading/istreams_executor.cpp:43")
            return n
        if key in ("PERF_COUNT", "ENABLE_CPU_PINNING", "ENABLE_HYPER_THREADING",
                   "CPU_DENORMALS_OPTIMIZATION"):
            return cfgmod.to_bool(value)
        if key == "CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE":
            try:
                rate = float(value)
            except (TypeError, ValueError):
                raise PluginError(f"Wrong value for property key {key}. Expected only float "
                                  "numbers", "src/plugins/intel_cpu/src/config.cpp:187") from None
            if not 0.0 <= rate <= 1.0:
                raise PluginError(f"Wrong value for property key {key}. Sparse rate must be in "
                                  "range [0.0f,1.0f]", "Check 'val_f >= 0.F && val_f <= 1.F' "
                                  "failed at src/plugins/intel_cpu/src/config.cpp:191")
            return rate
        if key == "INFERENCE_PRECISION_HINT":
            name = value.get_type_name() if hasattr(value, "get_type_name") else str(value)
            if name not in ("f32", "f16", "bf16"):
                if self.name == "CPU":
                    raise PluginError(f"Wrong value {_any_text(value)} for property key {key}. "
                                      "Supported values: bf16, f16, f32, undefined",
                                      f"{_CONFIG_SRC[self.name]}:266")
                raise self._bad_value(key, value, "f32, f16 or bf16", 142)
            return name
        if self.name == "CPU" and key == "SCHEDULING_CORE_TYPE" and value == "":
            return hint.SchedulingCoreType.ANY_CORE  # "" is the default (measured)
        if self.name == "CPU" and key in _CPU_ENUM_KEYS:
            enum_cls, text, line = _CPU_ENUM_KEYS[key]
            parsed = cfgmod.log_level(value) if key == "LOG_LEVEL" else \
                cfgmod.enum_value(enum_cls, value)
            if parsed is None:
                raise PluginError(text.format(_any_text(value)), f"{_CONFIG_SRC[self.name]}:{line}")
            return value
        if key == "MODEL_PRIORITY":
            prio = cfgmod.priority(value)
            if prio is None:
                raise PluginError(f"Unsupported model priority: {value}",
                                  "src/inference/include/openvino/runtime/properties.hpp:640")
            return prio
        return value

    def set_property(self, props: dict[str, Any]) -> None:
        parsed = self.validate(props, for_compile=False)
        if self.name == "CPU" and parsed.get("NUM_STREAMS") == -1:
            # streams::AUTO switches the CPU's hint to THROUGHPUT (config.cpp's
            # changedHintPerfMode; measured: get_property reads THROUGHPUT back)
            parsed["PERFORMANCE_HINT"] = hint.PerformanceMode.THROUGHPUT
        self.config.update(parsed)

    def _execution_mode(self) -> Any:
        """EXECUTION_MODE_HINT as set (an enum, whatever form it was given in)."""
        value = self.config.get("EXECUTION_MODE_HINT", hint.ExecutionMode.PERFORMANCE)
        return value if isinstance(value, hint.ExecutionMode) else \
            cfgmod.enum_value(hint.ExecutionMode, value) or hint.ExecutionMode.PERFORMANCE

    def get_property(self, key: str, options: dict | None = None) -> Any:
        if key in ("SUPPORTED_PROPERTIES", "AVAILABLE_DEVICES"):
            return self.supported() if key == "SUPPORTED_PROPERTIES" else list(
                self.device_ids() if self.name != "CPU" else [""])
        if not self.devices:
            raise self._no_device_error(key)
        dev_id = str(self.config.get("DEVICE_ID", "")) or None
        dev_name, spec = self.resolve(dev_id if self.name != "CPU" else None)
        mode = self.config.get("PERFORMANCE_HINT", hint.PerformanceMode.LATENCY)
        streams = self.config.get("NUM_STREAMS", 1 if mode == hint.PerformanceMode.LATENCY
                                  else spec.streams_throughput)
        values = {
            "RANGE_FOR_ASYNC_INFER_REQUESTS": tuple(spec.range_for_async_infer_requests),
            "RANGE_FOR_STREAMS": tuple(spec.range_for_streams),
            "EXECUTION_DEVICES": [dev_name],
            "FULL_DEVICE_NAME": spec.full_name,
            "OPTIMIZATION_CAPABILITIES": list(spec.capabilities),
            "DEVICE_TYPE": (device_props.Type.DISCRETE if spec.device_type == "discrete"
                            else device_props.Type.INTEGRATED),
            "DEVICE_ARCHITECTURE": spec.architecture,
            # streams::AUTO and NUMA are worked out at compile time: until then the plugin
            # answers 1 (measured on 2026.4.1)
            "NUM_STREAMS": int(streams) if int(streams) >= 0 else 1,
            "INFERENCE_NUM_THREADS": int(self.config.get("INFERENCE_NUM_THREADS", 0)),
            "PERF_COUNT": bool(self.config.get("PERF_COUNT", False)),
            "INFERENCE_PRECISION_HINT": _type_object(
                self.config.get("INFERENCE_PRECISION_HINT", spec.inference_precision)),
            "PERFORMANCE_HINT": mode,
            "EXECUTION_MODE_HINT": self._execution_mode(),
            "PERFORMANCE_HINT_NUM_REQUESTS": int(self.config.get("PERFORMANCE_HINT_NUM_REQUESTS", 0)),
            "DEVICE_ID": dev_name.split(".", 1)[1] if "." in dev_name else "",
            # the CPU plugin answers these as enums / bools / a set (measured, conformance tests)
            "LOG_LEVEL": cfgmod.log_level(self.config.get("LOG_LEVEL", "LOG_NONE")),
            "ENABLE_CPU_PINNING": bool(self.config.get("ENABLE_CPU_PINNING", True)),
            "ENABLE_HYPER_THREADING": bool(self.config.get("ENABLE_HYPER_THREADING", True)),
            "CPU_DENORMALS_OPTIMIZATION": bool(self.config.get("CPU_DENORMALS_OPTIMIZATION", False)),
            "CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE": float(
                self.config.get("CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE", 1.0)),
            "SCHEDULING_CORE_TYPE": cfgmod.enum_value(
                hint.SchedulingCoreType, self.config.get("SCHEDULING_CORE_TYPE", "ANY_CORE")),
            "MODEL_DISTRIBUTION_POLICY": set(filter(None, [cfgmod.enum_value(
                hint.ModelDistributionPolicy, self.config.get("MODEL_DISTRIBUTION_POLICY"))])),
            "OPTIMAL_NUMBER_OF_INFER_REQUESTS": 1,
            "MODEL_PRIORITY": self.config.get("MODEL_PRIORITY", hint.Priority.MEDIUM),
            "CACHE_DIR": self.config.get("CACHE_DIR", ""),
        }
        if self.name == "GPU":
            model = (options or {}).get("MODEL_PTR")
            values["OPTIMAL_BATCH_SIZE"] = (cost.optimal_batch_size(spec, model._cost(1), model)
                                            if model is not None else 1)
            values["MAX_BATCH_SIZE"] = int(spec.max_batch or 1)
            values["GPU_DEVICE_TOTAL_MEM_SIZE"] = spec.gpu_total_mem_bytes
            # the GPU plugin's defaults: MEDIUM host-task priority, and one compile thread per
            # logical processor of the host (the CPU's RANGE_FOR_STREAMS upper bound)
            values["GPU_HOST_TASK_PRIORITY"] = cfgmod.enum_value(
                hint.Priority, self.config.get("GPU_HOST_TASK_PRIORITY", "MEDIUM"))
            values["COMPILATION_NUM_THREADS"] = int(self.config.get(
                "COMPILATION_NUM_THREADS", self._host_threads()))
        if key in values and (key in self.supported() or key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS"):
            return values[key]
        raise PluginError(f"Cannot get unsupported property: {key}",
                          f"src/plugins/intel_{self.name.lower()}/src/plugin.cpp:718")

    def _host_threads(self) -> int:
        """Logical processors of the platform's CPU (what ``hardware_concurrency`` reports)."""
        cpus = [spec for spec in self.core.platform.devices.values() if spec.plugin == "CPU"]
        return max(1, int(cpus[0].range_for_streams[1])) if cpus else 1

    # --- compiling -------------------------------------------------------------------------
    def start_compile(self, model, priorities: str | None, device_id: str | None,
                      config: dict[str, Any], *, from_path: bool = False):
        """Begin compiling; return a clock event whose value is the Backend or a PluginError.

        Config errors raise at once. The compile takes simulated time; meanwhile the device's
        ``compile_host_load`` slows inferences on the CPU (GPU kernels compile on host threads).
        """
        core = self.core
        dev_name, spec = self.resolve(device_id)
        merged = dict(self.config)
        merged.update(self.validate(config, for_compile=True))
        unsupported = [op for op in model.get_ordered_ops() if not spec.supports(op.get_type_name())]
        if unsupported:
            op = unsupported[0]
            raise PluginError(
                f"[{spec.plugin}] Cannot compile the model on {dev_name}: {len(unsupported)} "
                f"operation(s) are not supported, e.g. {op.get_friendly_name()} of type "
                f"{op.get_type_name()}. Run them on another device with HETERO.",
                f"src/plugins/intel_{spec.plugin.lower()}/src/plugin/plugin.cpp:236")
        _check_results_are_sinks(model, spec.plugin)
        if spec.plugin == "CPU":
            _check_cpu_kernels(model)
        # the NPU compiles a batched model at batch 1 and runs its items at once (2025.3+)
        item_model = (npu_batching.debatch(model, merged.get("NPU_BATCH_MODE", "AUTO"))
                      if spec.plugin == "NPU" else None)
        if item_model is not None:
            core.trace.event(core.clock.now, "npu_plugin_batching", dev_name, model_name(model),
                             batch_size=model._batch_size())
        stats = model_stats(item_model if item_model is not None else model)
        cache_dir, cache_key = self._cache_key(model, spec, merged)
        cached = cache_key is not None and model_cache.read_blob(cache_dir, cache_key) is not None
        # a submodel of a HETERO model that HETERO found in its own cache loads, not compiles
        cached = cached or bool(merged.get(INTERNAL_PREFIX + "FROM_CACHE", False))
        duration = spec.cached_load_s if cached else cost.compile_time(
            spec, stats["ops"], stats["weight_bytes"])
        duration *= float(merged.get(INTERNAL_PREFIX + "COMPILE_SCALE", 1.0))
        fail = core.faults.take_compile_failure(dev_name)
        load = 0.0 if (cached or spec.plugin == "CPU") else spec.compile_host_load
        core._host_load += load
        now = core.clock.now
        core.trace.event(now, "cache_load" if cached else "compile_start", dev_name, model_name(model),
                         seconds=duration)
        done = core.clock.event()

        def finish() -> None:
            core._host_load -= load
            t = core.clock.now
            if fail:
                core.trace.event(t, "compile_failed", dev_name, model_name(model))
                done.succeed(PluginError(
                    f"[{spec.plugin}] compile failed on {dev_name} (ovlab injected failure)",
                    f"src/plugins/intel_{spec.plugin.lower()}/src/plugin/plugin.cpp:190"))
                return
            if cache_key is not None and not cached:
                model_cache.write_blob(cache_dir, cache_key, {
                    "device": dev_name, "full_device_name": spec.full_name,
                    "network_name": model_name(model), "compile_seconds": round(duration, 6),
                    "ops": stats["ops"], "weight_bytes": stats["weight_bytes"],
                    "written_by": "ovlab (a simulated device: no binary inside)"})
            core.trace.event(t, "compile_end", dev_name, model_name(model), cached=cached)
            done.succeed(HardwareBackend(self, model, dev_name, spec, merged,
                                         loaded_from_cache=cached, item_model=item_model))

        core.clock.call_at_delay(duration * (0.3 if fail else 1.0), finish)
        return done

    def caching_properties(self, spec: DeviceSpec, merged: dict[str, Any]) -> dict[str, Any]:
        """The compile options a blob key is computed from (``CoreImpl::create_compile_config``
        with the plugin's ``caching_properties``): see :mod:`ovlab.sim.runtime.model_cache`."""
        if spec.plugin == "CPU":
            return {"FULL_DEVICE_NAME": spec.full_name}
        mode = merged.get("PERFORMANCE_HINT", self.config.get("PERFORMANCE_HINT",
                                                              hint.PerformanceMode.LATENCY))
        if mode != "":
            mode = cfgmod.performance_mode(mode) or mode
        return {"DEVICE_ARCHITECTURE": spec.architecture, "FULL_DEVICE_NAME": spec.full_name,
                "INFERENCE_PRECISION_HINT": merged.get("INFERENCE_PRECISION_HINT",
                                                       spec.inference_precision),
                "EXECUTION_MODE_HINT": merged.get("EXECUTION_MODE_HINT", "PERFORMANCE"),
                "PERFORMANCE_HINT": mode}

    def _cache_key(self, model, spec: DeviceSpec, merged: dict[str, Any]
                   ) -> tuple[str, str | None]:
        """(CACHE_DIR, blob key) of a compile with ``merged`` config; key None without a cache.

        An explicit ``CACHE_DIR`` in the config (even ``""``: HETERO's submodels, AUTO's helper)
        wins over the device's and the Core's."""
        cache_dir = str(merged["CACHE_DIR"]) if "CACHE_DIR" in merged else str(
            self.core._core_props.get("CACHE_DIR", ""))
        if not cache_dir or "EXPORT_IMPORT" not in spec.capabilities:
            return cache_dir, None
        return cache_dir, model_cache.compute_hash(model, self.caching_properties(spec, merged))

    def has_cached_blob(self, model, device_id: str | None, config: dict[str, Any]) -> bool:
        """Would a compile of ``model`` here load from CACHE_DIR? AUTO asks with the config it
        would compile the device with (``ModelCache::compute_hash`` on that config, openvino PR
        #29636); BATCH's batch-1 compile of the same model writes the same key, so a cached
        batched GPU model counts too."""
        _dev_name, spec = self.resolve(device_id)
        merged = dict(self.config)
        merged.update(self.validate(config, for_compile=True))
        cache_dir, key = self._cache_key(model, spec, merged)
        return key is not None and model_cache.read_blob(cache_dir, key) is not None

    def query_model(self, model, priorities, device_id, config) -> dict[str, str]:
        _dev_name, spec = self.resolve(device_id)
        return {op.get_friendly_name(): self.name for op in model.get_ops()
                if spec.supports(op.get_type_name())}


def model_name(model) -> str:
    return model.get_friendly_name()


def model_stats(model) -> dict[str, Any]:
    """Op count, weight bytes and a structural fingerprint (the CACHE_DIR key) of a model."""
    cached = getattr(model, "_ovlab_stats", None)
    if cached is not None:
        return cached
    ops = model.get_ordered_ops()
    weight_bytes = 0
    for op in ops:
        if op.get_type_name() == "Constant":
            shape = op.get_output_shape(0)
            dtype = op.get_output_element_type(0).to_dtype()
            weight_bytes += int(np.prod(list(shape), dtype=np.int64)) * np.dtype(dtype).itemsize
    n_compute = sum(1 for op in ops if op.get_type_name() not in ("Parameter", "Constant", "Result"))
    shapes = tuple(tuple(p.get_shape()) for p in model.inputs)
    stats = {
        "ops": n_compute,
        "weight_bytes": weight_bytes,
        "batch": shapes[0][0] if shapes and shapes[0] else 1,
        "fingerprint": (model.get_friendly_name(), len(ops), shapes, weight_bytes),
    }
    try:
        model._ovlab_stats = stats
    except AttributeError:
        pass
    return stats


def cpu_cores(spec: DeviceSpec, config: dict[str, Any], mode,
              int8: bool = False) -> tuple[int, float]:
    """(INFERENCE_NUM_THREADS, speed relative to the plugin's default) of a compiled model.

    On a hybrid CPU the plugin keeps LATENCY on the P-cores and spreads THROUGHPUT over every
    core; ``SCHEDULING_CORE_TYPE`` (``PCORE_ONLY`` / ``ECORE_ONLY``) narrows the set. The presets
    are calibrated with the default core set, so only a narrower or slower set changes the time:
    ``ECORE_ONLY`` under LATENCY runs at the E-cores' capacity over the P-cores' (0.55 on the Core
    Ultra 7 165H). Devices that are not hybrid CPUs use every core at full speed. A family CPU
    (issue 35) under LATENCY and ``ANY_CORE`` takes the cores the real plugin picks for an
    ``int8`` (FakeQuantize) or float model (``DeviceSpec.latency_cores``).
    """
    latency = mode == hint.PerformanceMode.LATENCY
    # the family model's CPUs (hardware/family.py, issue 35) have one peak for every core at the
    # all-core clock: LATENCY runs on one socket at a higher clock (``latency_clock``), on a
    # hybrid CPU on the P-cores' share of the peak
    family = spec.extra.get("peak_of_all_cores", False) if spec.plugin == "CPU" else False
    clock = spec.extra.get("latency_clock", 1.0) if family and latency else 1.0
    if spec.plugin != "CPU" or not spec.hybrid:
        return spec.streams_throughput, clock
    wanted = cfgmod.enum_value(hint.SchedulingCoreType,
                               config.get("SCHEDULING_CORE_TYPE", "ANY_CORE"))
    name = wanted.name if wanted is not None else "ANY_CORE"
    threads, capacity = spec.cores_for(name, latency)
    if family and latency and name == "ANY_CORE":
        # the CPU plugin's own choice of cores for one stream (``DeviceSpec.latency_cores``)
        threads, capacity = spec.latency_cores(int8)
    _default_threads, default_capacity = spec.cores_for("ANY_CORE", latency and not family)
    return threads, capacity / default_capacity * clock


def numeric_precision(spec: DeviceSpec, hint: str) -> str:
    """The ``evaluate`` precision of a compiled model: ``f16`` storage for an f16 hint (GPUs,
    NPUs), the CPU plugin's bf16 rules (``graph/bf16.py``) for a bf16 hint on a CPU that computes
    bf16 (AVX512_BF16 or AMX; the real plugin falls back to f32 elsewhere), else f32."""
    if hint == "f16":
        return "f16"
    if hint == "bf16" and spec.plugin == "CPU" and (
            "BF16" in spec.capabilities or spec.inference_precision == "bf16"):
        return "bf16"
    return "f32"


def _follows_conv(op) -> bool:
    """Relu right after a Convolution (or its bias Add): the CPU plugin fuses it into the conv
    and reports it NOT_RUN with exec type ``undef`` (measured)."""
    producer = op.input_value(0).get_node()
    if producer.get_type_name() == "Add":
        producer = producer.input_value(0).get_node()
    return producer.get_type_name() in ("Convolution", "GroupConvolution")


class HardwareBackend(Backend):
    """A model compiled on one device: streams, a FIFO queue, timed inferences, records."""

    def __init__(self, plugin: HardwarePlugin, model, device: str, spec: DeviceSpec,
                 config: dict[str, Any], loaded_from_cache: bool = False,
                 item_model=None) -> None:
        super().__init__(plugin.core, model, model_name(model))
        # NPU plugin batching: the device runs ``item_model`` (batch 1) once per sample
        self.run_model = item_model if item_model is not None else model
        self.items = model._batch_size() if item_model is not None else 1
        self.plugin_name = plugin.name
        self.device = device
        self.spec = spec
        self.config = config
        self.loaded_from_cache = loaded_from_cache
        self.mode = (hint.PerformanceMode.THROUGHPUT if config.get("NUM_STREAMS") == -1  # AUTO
                     else config.get("PERFORMANCE_HINT", hint.PerformanceMode.LATENCY))
        self.mode_was_set = "PERFORMANCE_HINT" in config
        self.num_requests = int(config.get("PERFORMANCE_HINT_NUM_REQUESTS", 0))
        streams = config.get("NUM_STREAMS")
        if streams is None or streams == -1:
            streams = 1 if (self.mode == hint.PerformanceMode.LATENCY and streams is None) \
                else spec.streams_throughput
        # the CPU clamps NUM_STREAMS to its range (measured: 4 -> 2 on 2 cores); the GPU plugin
        # keeps a value the user set (intel_gpu execution_config.cpp)
        streams = max(1, int(streams))
        if spec.plugin == "CPU" or "NUM_STREAMS" not in config:
            streams = min(streams, spec.range_for_streams[1])
        if self.num_requests:
            streams = min(streams, self.num_requests)
        self.streams = streams
        per_stream = 1 if self.mode == hint.PerformanceMode.LATENCY else spec.requests_per_stream
        optimal = streams * per_stream
        if self.num_requests:
            optimal = min(optimal, self.num_requests)
        self.optimal = max(1, optimal)
        self.precision_hint = config.get("INFERENCE_PRECISION_HINT", spec.inference_precision)
        if self.precision_hint == "dynamic":  # "" given: no hint, the device's own precision
            self.precision_hint = spec.inference_precision
        self.numeric_precision = numeric_precision(spec, self.precision_hint)
        from ..graph import model_precision

        self.model_precision = model_precision(self.run_model)
        self.compute_precision = cost.compute_precision(spec, self.model_precision,
                                                        self.precision_hint)
        self.perf_count = bool(config.get("PERF_COUNT", False))
        self.threads, core_speed = cpu_cores(spec, config, self.mode,
                                             self.model_precision == "INT8")
        self._op_costs = self.run_model._cost(self.run_model._batch_size())
        # a share_bandwidth (or split_cache) device's streams split its last-level cache
        cache_share = 1.0 / streams if spec.share_bandwidth or spec.split_cache else 1.0
        overhead, work = cost.inference_parts(spec, self._op_costs, self.compute_precision,
                                              self.run_model, cache_share)
        # DRAM bytes of one inference: its demand on the memory domain (runtime/sharing.py)
        self._dram = cost.dram_bytes(spec, self._op_costs, self.compute_precision,
                                     self.run_model, cache_share) if spec.share_bandwidth else 0.0
        if spec.per_op_wide_s > 0 and streams == 1:
            # one stream over every thread: each op's fork / join (DeviceSpec.per_op_wide_s)
            overhead += spec.per_op_wide_s * cost.executed_count(self._op_costs, self.run_model)
        self._base = (overhead + work) / core_speed
        # a fitted CPU's streams split its cores: the work is stretched, the dispatch overhead
        # scaled by stream_dispatch (cost.stream_times); other devices stretch the whole time
        self._overhead = overhead / core_speed if spec.fuse_ops else 0.0
        if spec.stream_share == "dynamic":
            # whole-device speed alone; S busy streams together demand S**scaling of the device,
            # so processor sharing stretches each to S**scaling x, as a fixed share would
            self._stream_factor = 1.0
            self._demand = cost.stream_factor(spec, streams) / streams
        else:
            self._stream_factor = cost.stream_factor(spec, streams)
            self._demand = 1.0 / streams
        self._dispatch_factor = spec.stream_dispatch if streams > 1 and spec.fuse_ops else 1.0
        # one inference on one stream before contention, jitter and warm-up: the same sum of
        # the same constants every time, so worked out once
        self._stream_s = self._overhead * self._dispatch_factor \
            + (self._base - self._overhead) * self._stream_factor
        self._is_cpu = spec.plugin == "CPU"
        self._share = None  # the device's processor-sharing queue, looked up on first use
        self._plain = False  # one item, no memory pool: the fast path of _start (set with _share)
        self._sigma = spec.jitter
        self._idle_rows = self._profile(0.0)  # without PERF_COUNT every run reports these
        self._free = list(range(streams))
        self._stream_labels = [f"{device}#{i}" for i in range(streams)]
        self._queue: deque[Job] = deque()
        self._first = True

    # --- execution ---------------------------------------------------------------------
    def submit(self, job: Job) -> None:
        if self._free:
            self._start(job, heapq.heappop(self._free))
        else:
            self._queue.append(job)

    def service_time(self) -> float:
        """Seconds for the next inference on one stream (contention, jitter, warm-up)."""
        core = self.core
        t = self._stream_s
        sigma = self.spec.jitter
        if self._is_cpu and core._host_load > 0:
            t *= 1.0 + core._host_load
            sigma += 0.25
        t *= core.jitter.factor(sigma)
        if self._first:
            t *= self.spec.first_infer_factor
            self._first = False
        return t

    def _start(self, job: Job, stream: int) -> None:
        core = self.core
        now = core.clock.env._now
        faults = core.faults
        share = self._share
        if share is not None and self._plain and not faults._infer:
            # a plain inference (one item, no memory pool, no failure to inject): service_time()
            # and the jitter's draw inlined, the device's share started directly; the same
            # arithmetic in the same order, the same draws
            t = self._stream_s
            sigma = self._sigma
            if self._is_cpu and core._host_load > 0:
                t *= 1.0 + core._host_load
                sigma += 0.25
            if not sigma <= 0:  # Jitter.factor() is 1.0 then
                t *= _exp(core.jitter._rng.normalvariate(-0.5 * sigma * sigma, sigma))
            if self._first:
                t *= self.spec.first_infer_factor
                self._first = False
            share.run(t, self._demand, self._finish_plain, (job, stream, now))
            return
        fail = bool(faults._infer) and faults.take_inference_failure(self.device)
        nominal = self.service_time()
        if fail:
            nominal *= 0.5
        # the device is shared with every other inference running on it (processor sharing)
        if share is None:
            share = self._share = core._device_share(self.device)
            # what the fast path above needs, known once the device's share is
            self._plain = self.items == 1 and not self._dram and share.pool is None
        memory = cost.memory_demand(self.spec, self._dram, nominal) if self._dram else 0.0
        if self.items == 1:
            share.start(nominal, self._demand, self._finish, job, stream, now, fail,
                        memory=memory)
            return
        # NPU plugin batching: one command list per sample, all submitted at once
        job.tags["batch_size"] = self.items
        left = [self.items]

        def item_done() -> None:
            left[0] -= 1
            if left[0] == 0:
                self._finish(job, stream, now, fail)

        share.start(nominal, self._demand, item_done, memory=memory)
        for _ in range(self.items - 1):
            t = self.service_time() * (0.5 if fail else 1.0)
            share.start(t, self._demand, item_done,
                        memory=cost.memory_demand(self.spec, self._dram, t) if self._dram else 0.0)

    def _finish_plain(self, job: Job, stream: int, started: float) -> None:
        """:meth:`_finish` of a plain inference that succeeded, inlined for the common case."""
        if job.tags or job.members is not None or job.variables is not None:
            self._finish(job, stream, started, False)
            return
        core = self.core
        now = core.clock.env._now
        core.trace.add(InferenceRecord(job.seq, job.request_id, job.model_name, self.device,
                                       job.submitted, started, now, self._stream_labels[stream],
                                       None, None, None, "ok"))
        if self._queue:
            self._start(self._queue.popleft(), stream)
        else:
            heapq.heappush(self._free, stream)
        outputs = LazyEval(self.run_model, job.inputs, self.numeric_precision)
        profile = self._profile(now - started) if self.perf_count else self._idle_rows
        if job._finished:  # Job.done(), inlined
            raise AssertionError(f"ovlab internal error: inference {job.seq} finished twice")
        job._finished = True
        job._on_done(outputs, None, profile or [], self.device)

    def _finish(self, job: Job, stream: int, started: float, fail: bool) -> None:
        core = self.core
        now = core.clock.env._now
        duration = now - started
        tags = job.tags
        # one label string per stream, shared by its records (a new one each time cost ~50 bytes
        # per record in core.trace)
        if not tags and job.members is None:  # a plain inference: the fields in their order
            core.trace.add(InferenceRecord(job.seq, job.request_id, job.model_name, self.device,
                                           job.submitted, started, now,
                                           self._stream_labels[stream], None, None, None,
                                           "failed" if fail else "ok"))
        else:
            # a batch's members (BATCH: ~3 a batch under lab 04's load): the job's tags read
            # once, the record's fields by position in their order
            worker = tags.get("worker") or self._stream_labels[stream]
            batch_id, batch_size = tags.get("batch_id"), tags.get("batch_size")
            subgraph, job_status = tags.get("subgraph"), tags.get("status", "ok")
            device, add = self.device, core.trace.add
            for m in job.members or [job]:
                status = "failed" if fail else m.tags.get("status", job_status)
                add(InferenceRecord(m.seq, m.request_id, m.model_name, device, m.submitted,
                                    started, now, worker, batch_id, batch_size, subgraph, status))
        # free the stream before completing, so a completion callback can start the next job
        if self._queue:
            self._start(self._queue.popleft(), stream)
        else:
            heapq.heappush(self._free, stream)
        if fail:
            core.trace.event(now, "inference_failed", self.device, self.name, seq=job.seq)
            job.done(error=PluginError(
                f"[{self.spec.plugin}] inference failed on {self.device} (ovlab injected failure)",
                f"src/plugins/intel_{self.spec.plugin.lower()}/src/sync_infer_request.cpp:140"),
                device=self.device)
            return
        if job.variables is not None and self.items == 1:
            # a stateful model runs now, in request order, with the request's variables bound
            # (a later infer must read what this one assigned)
            inputs = job.inputs() if callable(job.inputs) else job.inputs
            with state_ops.bound(job.variables):
                outputs = Computed(self.run_model._evaluate(inputs, self.numeric_precision))
        elif self.items == 1:
            outputs = LazyEval(self.run_model, job.inputs, self.numeric_precision)
        else:
            outputs = npu_batching.Concatenated(
                [LazyEval(self.run_model, npu_batching.item_inputs(job.inputs, k),
                          self.numeric_precision) for k in range(self.items)])
        job.done(outputs, profile=self._profile(duration) if self.perf_count else self._idle_rows,
                 device=self.device)

    def _profile(self, duration: float) -> list[ProfilingInfo]:
        """Per-op rows like the CPU plugin reports (fused Relu NOT_RUN, MatMul as FullyConnected)."""
        rows = []
        weights = [max(c.flops, 1.0) for c in self._op_costs]
        total = sum(weights) or 1.0
        by_name = {c.name: (c, w) for c, w in zip(self._op_costs, weights, strict=True)}
        for op in self.model.get_ordered_ops():
            t = op.get_type_name()
            name = op.get_friendly_name()
            # the CPU runs a static Reshape in place: NOT_RUN, like Parameter/Result (measured)
            if t in ("Parameter", "Constant", "Result") or (t == "Reshape"
                                                            and self.spec.plugin == "CPU"):
                if t != "Constant":
                    rows.append(ProfilingInfo._row(name, t, "unknown_f32", 0, 0,
                                                   ProfilingInfo.Status.NOT_RUN))
                continue
            fused = self.spec.plugin == "CPU" and t == "Relu" and _follows_conv(op)
            shown = "FullyConnected" if (t == "MatMul" and self.spec.plugin == "CPU") else t
            if fused or not self.perf_count:
                rows.append(ProfilingInfo._row(name, shown, "undef" if fused else _EXEC_TYPE[self.spec.plugin],
                                               0, 0, ProfilingInfo.Status.NOT_RUN))
                continue
            entry = by_name.get(op.get_name()) or by_name.get(name)
            share = (entry[1] / total) if entry else 0.0
            real = duration * share
            cpu = real if self.spec.plugin == "CPU" else 0.0
            rows.append(ProfilingInfo._row(name, shown, _EXEC_TYPE[self.spec.plugin], real, cpu,
                                           ProfilingInfo.Status.EXECUTED))
        return rows

    # --- properties -------------------------------------------------------------------------
    _COMPILED_KEYS = ["NETWORK_NAME", "OPTIMAL_NUMBER_OF_INFER_REQUESTS", "NUM_STREAMS",
                      "PERF_COUNT", "INFERENCE_PRECISION_HINT", "PERFORMANCE_HINT",
                      "EXECUTION_MODE_HINT", "PERFORMANCE_HINT_NUM_REQUESTS", "EXECUTION_DEVICES",
                      "SUPPORTED_PROPERTIES", "LOADED_FROM_CACHE"]

    def supported_properties(self) -> dict[str, str]:
        keys = list(self._COMPILED_KEYS)
        if self.spec.plugin == "CPU":
            keys.insert(3, "INFERENCE_NUM_THREADS")
            keys = [k for k in keys if k not in _CPU_UNLISTED]  # readable, not listed (measured)
        if self.spec.plugin == "GPU":
            keys += ["MODEL_PRIORITY", "OPTIMAL_BATCH_SIZE", "MAX_BATCH_SIZE"]
        return {k: "RO" for k in keys}

    def get_property(self, key: str) -> Any:
        values = {
            "NETWORK_NAME": self.name,
            "OPTIMAL_NUMBER_OF_INFER_REQUESTS": self.optimal,
            "NUM_STREAMS": self.streams,
            "INFERENCE_NUM_THREADS": int(self.config.get("INFERENCE_NUM_THREADS", 0))
            or self.threads,
            # the CPU plugin answers these as strings (measured), AUTO answers enums/bools
            "PERF_COUNT": cfgmod.yes_no(self.perf_count),
            "INFERENCE_PRECISION_HINT": _type_object(self.precision_hint),
            "PERFORMANCE_HINT": self.mode.name,
            "EXECUTION_MODE_HINT": hint.ExecutionMode.PERFORMANCE,  # an enum, unlike the hint
            "PERFORMANCE_HINT_NUM_REQUESTS": str(self.num_requests),
            "EXECUTION_DEVICES": [self.device],
            "SUPPORTED_PROPERTIES": self.supported_properties(),
            "LOADED_FROM_CACHE": self.loaded_from_cache,
            "DEVICE_ID": self.device.split(".", 1)[1] if "." in self.device else "",
            "MODEL_PRIORITY": self.config.get("MODEL_PRIORITY", hint.Priority.MEDIUM),
            "OPTIMAL_BATCH_SIZE": None,  # computed when asked (a walk over the graph)
            "MAX_BATCH_SIZE": int(self.spec.max_batch or 1),
        }
        if key in values and (key in self.supported_properties() or key in _CPU_UNLISTED):
            if key == "OPTIMAL_BATCH_SIZE":
                return self._optimal_batch_size()
            return values[key]
        raise PluginError(f"Unsupported property: {key}", _COMPILED_SRC[self.spec.plugin])

    def _optimal_batch_size(self) -> int:
        """OPTIMAL_BATCH_SIZE of this compiled model: fixed once compiled, so worked out once
        (lab 09's dashboard reads the compiled model's properties thousands of times)."""
        if getattr(self, "_optimal_batch", None) is None:
            self._optimal_batch = cost.optimal_batch_size(self.spec, self._op_costs, self.model)
        return self._optimal_batch

    def set_property(self, props: dict[str, Any]) -> None:
        raise PluginError(
            "Not Implemented:\nIt's not possible to set property of an already compiled model. "
            "Set property to Core::compile_model during compilation",
            f"src/plugins/intel_{self.spec.plugin.lower()}/src/compiled_model.h:60")
