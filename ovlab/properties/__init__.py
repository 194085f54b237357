"""``ovlab.properties``: the property keys of ``openvino.properties``, as strings.

``import ovlab.properties as props`` then ``props.hint.performance_mode`` is the key
``"PERFORMANCE_HINT"``; config dicts accept these objects and plain strings alike.
"""

from . import device, hint, intel_auto, log, streams
from ._base import OVEnum, Property

supported_properties = Property("SUPPORTED_PROPERTIES")
available_devices = Property("AVAILABLE_DEVICES")
optimal_number_of_infer_requests = Property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")
range_for_async_infer_requests = Property("RANGE_FOR_ASYNC_INFER_REQUESTS")
range_for_streams = Property("RANGE_FOR_STREAMS")
optimal_batch_size = Property("OPTIMAL_BATCH_SIZE")
max_batch_size = Property("MAX_BATCH_SIZE")
execution_devices = Property("EXECUTION_DEVICES")
model_name = Property("NETWORK_NAME")
loaded_from_cache = Property("LOADED_FROM_CACHE")
cache_dir = Property("CACHE_DIR")
enable_profiling = Property("PERF_COUNT")
auto_batch_timeout = Property("AUTO_BATCH_TIMEOUT")
num_streams = Property("NUM_STREAMS")
inference_num_threads = Property("INFERENCE_NUM_THREADS")
affinity = Property("AFFINITY")

__all__ = [
    "device", "hint", "intel_auto", "log", "streams", "Property", "OVEnum",
    "supported_properties", "available_devices", "optimal_number_of_infer_requests",
    "range_for_async_infer_requests", "range_for_streams", "optimal_batch_size", "max_batch_size",
    "execution_devices", "model_name", "loaded_from_cache", "cache_dir", "enable_profiling",
    "auto_batch_timeout", "num_streams", "inference_num_threads", "affinity",
]
