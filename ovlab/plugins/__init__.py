"""The plugins a Core registers: CPU, GPU, NPU (hardware) and AUTO, MULTI, HETERO, BATCH."""

from __future__ import annotations


def make_plugins(core) -> dict:
    from .auto import AutoPlugin
    from .batch import BatchPlugin
    from .hardware import HardwarePlugin
    from .hetero import HeteroPlugin

    plugins = {name: HardwarePlugin(core, name) for name in ("CPU", "GPU", "NPU")}
    plugins["AUTO"] = AutoPlugin(core, "AUTO")
    plugins["MULTI"] = AutoPlugin(core, "MULTI")
    plugins["HETERO"] = HeteroPlugin(core, "HETERO")
    plugins["BATCH"] = BatchPlugin(core, "BATCH")
    return plugins
