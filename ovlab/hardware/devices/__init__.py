"""The device catalogue: every CPU, GPU and NPU a preset is built from, one module per kind."""

from .cpus import CORE_ULTRA_7_165H_CPU, LAPTOP_CPU, SERVER_CPU, VM_CPU
from .gpus import ARC_IGPU_165H, FLEX_170, IRIS_XE, IRIS_XE_MAX
from .npus import AI_BOOST_NPU, KNOWN_OPS, NPU_3720, NPU_3720_OPS, NPU_UNSUPPORTED

__all__ = ["AI_BOOST_NPU", "ARC_IGPU_165H", "CORE_ULTRA_7_165H_CPU", "NPU_3720", "NPU_3720_OPS", "FLEX_170", "IRIS_XE", "IRIS_XE_MAX", "KNOWN_OPS", "LAPTOP_CPU",
           "NPU_UNSUPPORTED", "SERVER_CPU", "VM_CPU"]
