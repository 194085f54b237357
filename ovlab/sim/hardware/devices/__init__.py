"""The device catalogue: every CPU, GPU and NPU a preset is built from, one module per kind."""

from .cpus import (
    CORE_ULTRA_7_165H_CPU,
    I7_1185G7_CPU,
    I7_12700H_CPU,
    I9_13900K_CPU,
    LAPTOP_CPU,
    SERVER_CPU,
    VM_CPU,
)
from .gpus import (
    ARC_A770M,
    ARC_IGPU_165H,
    FLEX_170,
    FLEX_170_FITTED,
    IRIS_XE,
    IRIS_XE_1185G7,
    IRIS_XE_MAX,
)
from .npus import AI_BOOST_NPU, KNOWN_OPS, NPU_3720, NPU_3720_OPS, NPU_UNSUPPORTED

__all__ = ["AI_BOOST_NPU", "ARC_A770M", "ARC_IGPU_165H", "CORE_ULTRA_7_165H_CPU", "FLEX_170",
           "FLEX_170_FITTED", "I7_1185G7_CPU", "I7_12700H_CPU", "I9_13900K_CPU", "IRIS_XE",
           "IRIS_XE_1185G7", "IRIS_XE_MAX", "KNOWN_OPS", "LAPTOP_CPU", "NPU_3720", "NPU_3720_OPS",
           "NPU_UNSUPPORTED", "SERVER_CPU", "VM_CPU"]
