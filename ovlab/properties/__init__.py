"""``ovlab.properties``: the properties of ``openvino.properties``, with their keys and types.

``import ovlab.properties as props`` then ``props.hint.performance_mode`` is the key
``"PERFORMANCE_HINT"``; ``props.hint.performance_mode(PerformanceMode.LATENCY)`` is the pair
``("PERFORMANCE_HINT", OVAny(...))``. Every module, key, enum and value type of OpenVINO
2026.4's ``openvino.properties`` is here (``tests/conformance/test_conformance_api_surface.py``
compares them with the wheel), whether or not a virtual device acts on it: a device that does
not support a key rejects it as the real one does.
"""

from . import device, hint, intel_auto, intel_cpu, intel_gpu, intel_npu, log, streams
from ._base import (
    BOOL,
    INT,
    STR,
    UINT,
    OVAny,
    OVEnum,
    Property,
    _UnsimulatedProperty,
    add_entries,
    element_type,
    enum_of,
    name_properties,
)


class CacheMode(OVEnum):
    OPTIMIZE_SIZE = 0
    OPTIMIZE_SPEED = 1


class CompatibilityCheck(OVEnum):
    NOT_APPLICABLE = 0
    SUPPORTED = 1
    UNSUPPORTED = 2


class WorkloadType(OVEnum):
    DEFAULT = 0
    EFFICIENT = 1


supported_properties = Property("SUPPORTED_PROPERTIES", read_only=True)
available_devices = Property("AVAILABLE_DEVICES", read_only=True)
optimal_number_of_infer_requests = Property("OPTIMAL_NUMBER_OF_INFER_REQUESTS", read_only=True)
range_for_async_infer_requests = Property("RANGE_FOR_ASYNC_INFER_REQUESTS", read_only=True)
range_for_streams = Property("RANGE_FOR_STREAMS", read_only=True)
optimal_batch_size = Property("OPTIMAL_BATCH_SIZE", read_only=True)
max_batch_size = Property("MAX_BATCH_SIZE", read_only=True)
execution_devices = Property("EXECUTION_DEVICES", read_only=True)
model_name = Property("NETWORK_NAME", read_only=True)
loaded_from_cache = Property("LOADED_FROM_CACHE", read_only=True)
compatibility_check = Property("COMPATIBILITY_CHECK", read_only=True)
runtime_requirements = Property("RUNTIME_REQUIREMENTS", read_only=True)
cache_dir = Property("CACHE_DIR", STR)
cache_mode = Property("CACHE_MODE", enum_of(CacheMode))
cache_encryption_callbacks = _UnsimulatedProperty("CACHE_ENCRYPTION_CALLBACKS")
enable_profiling = Property("PERF_COUNT", BOOL)
auto_batch_timeout = Property("AUTO_BATCH_TIMEOUT", UINT)
num_streams = Property("NUM_STREAMS", streams.num._conv)
inference_num_threads = Property("INFERENCE_NUM_THREADS", INT)
compilation_num_threads = Property("COMPILATION_NUM_THREADS", INT)
force_tbb_terminate = Property("FORCE_TBB_TERMINATE", BOOL)
enable_mmap = Property("ENABLE_MMAP", BOOL)
enable_weightless = Property("ENABLE_WEIGHTLESS", BOOL)
weights_path = Property("WEIGHTS_PATH", STR)
key_cache_group_size = Property("KEY_CACHE_GROUP_SIZE", UINT)
value_cache_group_size = Property("VALUE_CACHE_GROUP_SIZE", UINT)
key_cache_precision = Property("KEY_CACHE_PRECISION", element_type())
value_cache_precision = Property("VALUE_CACHE_PRECISION", element_type())
workload_type = Property("WORKLOAD_TYPE", enum_of(WorkloadType))
affinity = Property("AFFINITY")  # gone from OpenVINO 2026; kept for older scripts

add_entries(CacheMode, CompatibilityCheck, WorkloadType)

__all__ = [
    "device", "hint", "intel_auto", "intel_cpu", "intel_gpu", "intel_npu", "log", "streams",
    "Property", "OVAny", "OVEnum", "CacheMode", "CompatibilityCheck", "WorkloadType",
    "supported_properties", "available_devices", "optimal_number_of_infer_requests",
    "range_for_async_infer_requests", "range_for_streams", "optimal_batch_size", "max_batch_size",
    "execution_devices", "model_name", "loaded_from_cache", "compatibility_check",
    "runtime_requirements", "cache_dir", "cache_mode", "cache_encryption_callbacks",
    "enable_profiling", "auto_batch_timeout", "num_streams", "inference_num_threads",
    "compilation_num_threads", "force_tbb_terminate", "enable_mmap", "enable_weightless",
    "weights_path", "key_cache_group_size", "value_cache_group_size", "key_cache_precision",
    "value_cache_precision", "workload_type", "affinity",
]

name_properties(globals())
