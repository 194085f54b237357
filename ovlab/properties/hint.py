"""``ovlab.properties.hint``: performance hints, model priority, batching switch, CPU hints."""

from ._base import (
    ANY,
    BOOL,
    FLOAT,
    UINT,
    OVEnum,
    Property,
    add_entries,
    element_type,
    enum_of,
    name_properties,
    set_of,
)


class PerformanceMode(OVEnum):
    LATENCY = 1
    THROUGHPUT = 2
    CUMULATIVE_THROUGHPUT = 3


class Priority(OVEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2
    DEFAULT = 1


class ExecutionMode(OVEnum):
    PERFORMANCE = 1
    ACCURACY = 2


class ModelDistributionPolicy(OVEnum):
    TENSOR_PARALLEL = 0
    PIPELINE_PARALLEL = 1


class SchedulingCoreType(OVEnum):
    """The CPU's SCHEDULING_CORE_TYPE (core.get_property('CPU', ...) answers this enum)."""

    ANY_CORE = 0
    PCORE_ONLY = 1
    ECORE_ONLY = 2


performance_mode = Property("PERFORMANCE_HINT", enum_of(PerformanceMode))
num_requests = Property("PERFORMANCE_HINT_NUM_REQUESTS", UINT)
model_priority = Property("MODEL_PRIORITY", enum_of(Priority))
allow_auto_batching = Property("ALLOW_AUTO_BATCHING", BOOL)
inference_precision = Property("INFERENCE_PRECISION_HINT", element_type())
execution_mode = Property("EXECUTION_MODE_HINT", enum_of(ExecutionMode))
model = Property("MODEL_PTR", ANY)
compiled_blob = Property("COMPILED_BLOB", ANY)
model_distribution_policy = Property("MODEL_DISTRIBUTION_POLICY", set_of(ModelDistributionPolicy))
scheduling_core_type = Property("SCHEDULING_CORE_TYPE", enum_of(SchedulingCoreType))
enable_cpu_pinning = Property("ENABLE_CPU_PINNING", BOOL)
enable_cpu_reservation = Property("ENABLE_CPU_RESERVATION", BOOL)
enable_hyper_threading = Property("ENABLE_HYPER_THREADING", BOOL)
dynamic_quantization_group_size = Property("DYNAMIC_QUANTIZATION_GROUP_SIZE", UINT)
kv_cache_precision = Property("KV_CACHE_PRECISION", element_type())
activations_scale_factor = Property("ACTIVATIONS_SCALE_FACTOR", FLOAT)


add_entries(PerformanceMode, Priority, ExecutionMode, ModelDistributionPolicy, SchedulingCoreType)

__all__ = [
    "PerformanceMode", "Priority", "ExecutionMode", "ModelDistributionPolicy",
    "SchedulingCoreType", "performance_mode", "num_requests", "model_priority",
    "allow_auto_batching", "inference_precision", "execution_mode", "model", "compiled_blob",
    "model_distribution_policy", "scheduling_core_type", "enable_cpu_pinning",
    "enable_cpu_reservation", "enable_hyper_threading", "dynamic_quantization_group_size",
    "kv_cache_precision", "activations_scale_factor",
]

name_properties(globals())
