"""``ovlab.properties.hint``: performance hints, model priority, batching switch."""

from ._base import OVEnum, Property


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


performance_mode = Property("PERFORMANCE_HINT")
num_requests = Property("PERFORMANCE_HINT_NUM_REQUESTS")
model_priority = Property("MODEL_PRIORITY")
allow_auto_batching = Property("ALLOW_AUTO_BATCHING")
inference_precision = Property("INFERENCE_PRECISION_HINT")
execution_mode = Property("EXECUTION_MODE_HINT")
model = Property("MODEL_PTR")
model_distribution_policy = Property("MODEL_DISTRIBUTION_POLICY")

__all__ = [
    "PerformanceMode", "Priority", "ExecutionMode", "ModelDistributionPolicy",
    "performance_mode", "num_requests", "model_priority", "allow_auto_batching",
    "inference_precision", "execution_mode", "model", "model_distribution_policy",
]
