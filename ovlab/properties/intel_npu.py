"""``ovlab.properties.intel_npu``: the NPU plugin's own properties."""

from ._base import BOOL, INT, STR, OVEnum, Property, add_entries, enum_of, name_properties


class CompilerType(OVEnum):
    PLUGIN = 0
    DRIVER = 1
    PREFER_PLUGIN = 2


device_alloc_mem_size = Property("NPU_DEVICE_ALLOC_MEM_SIZE", read_only=True)
device_total_mem_size = Property("NPU_DEVICE_TOTAL_MEM_SIZE", read_only=True)
driver_version = Property("NPU_DRIVER_VERSION", read_only=True)
compiler_version = Property("NPU_COMPILER_VERSION", read_only=True)
max_tiles = Property("NPU_MAX_TILES", read_only=True)
compilation_mode_params = Property("NPU_COMPILATION_MODE_PARAMS", STR)
compiler_type = Property("NPU_COMPILER_TYPE", enum_of(CompilerType))
turbo = Property("NPU_TURBO", BOOL)
tiles = Property("NPU_TILES", INT)
bypass_umd_caching = Property("NPU_BYPASS_UMD_CACHING", BOOL)
defer_weights_load = Property("NPU_DEFER_WEIGHTS_LOAD", BOOL)
compiler_dynamic_quantization = Property("NPU_COMPILER_DYNAMIC_QUANTIZATION", BOOL)
disable_idle_memory_prunning = Property("NPU_DISABLE_IDLE_MEMORY_PRUNING", BOOL)
enable_strides_for = Property("NPU_ENABLE_STRIDES_FOR", STR)
platform = Property("NPU_PLATFORM", STR)
qdq_optimization = Property("NPU_QDQ_OPTIMIZATION", BOOL)
qdq_optimization_aggressive = Property("NPU_QDQ_OPTIMIZATION_AGGRESSIVE", BOOL)
run_inferences_sequentially = Property("NPU_RUN_INFERENCES_SEQUENTIALLY", BOOL)

add_entries(CompilerType)

name_properties(globals())
