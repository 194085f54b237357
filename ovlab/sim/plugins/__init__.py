"""The plugins ovlab registers: CPU, GPU, NPU (hardware) and AUTO, MULTI, HETERO, BATCH.

OpenVINO's Core reads its plugin list (``plugins.xml``) and creates each plugin on first use;
ovlab's top level does the same with :data:`PLUGINS`, a map from device name to a factory
``factory(core, name)``, handed to :func:`ovlab.sim.runtime.core.register_plugins` when ``ovlab`` is
imported, so the runtime never imports the plugins it drives.
"""

from __future__ import annotations

from collections.abc import Callable


def _hardware(core, name):
    from .hardware import HardwarePlugin

    return HardwarePlugin(core, name)


def _auto(core, name):
    from .auto import AutoPlugin

    return AutoPlugin(core, name)


def _hetero(core, name):
    from .hetero import HeteroPlugin

    return HeteroPlugin(core, name)


def _batch(core, name):
    from .batch import BatchPlugin

    return BatchPlugin(core, name)


PLUGINS: dict[str, Callable] = {
    "CPU": _hardware, "GPU": _hardware, "NPU": _hardware,
    "AUTO": _auto, "MULTI": _auto, "HETERO": _hetero, "BATCH": _batch,
}
