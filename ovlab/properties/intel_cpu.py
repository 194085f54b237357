"""``ovlab.properties.intel_cpu``: the CPU plugin's own properties."""

from ._base import BOOL, FLOAT32, OVEnum, Property, add_entries, enum_of, name_properties


class TbbPartitioner(OVEnum):
    STATIC = 1
    AUTO = 2


denormals_optimization = Property("CPU_DENORMALS_OPTIMIZATION", BOOL)
sparse_weights_decompression_rate = Property("CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE", FLOAT32)
tbb_partitioner = Property("TBB_PARTITIONER", enum_of(TbbPartitioner))

add_entries(TbbPartitioner)

name_properties(globals())
