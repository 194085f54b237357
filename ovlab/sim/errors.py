"""OpenVINO-style errors.

The real runtime raises a plain ``RuntimeError`` whose text is a chain of
``Exception from <src file>:<line>:`` lines, then the meaningful message, then one newline per
level of the chain (see ``reference/openvino-measured.md``). Plugins raise :class:`PluginError`
with the source lines they would have printed; the public API entry points add their own line
and turn it into the ``RuntimeError`` a learner sees, so tests can match the meaningful line.
"""

from __future__ import annotations

# The first line of the chain depends on the API that was called (measured).
API_SOURCES = {
    "compile_model": "src/inference/src/cpp/core.cpp:117",
    "compile_model_path": "src/inference/src/cpp/core.cpp:132",
    "core.get_property": "src/inference/src/cpp/core.cpp:268",
    "core.set_property": "src/inference/src/cpp/core.cpp:264",
    "core.set_property_core": "src/inference/src/cpp/core.cpp:260",  # set_property({...})
    "query_model": "src/inference/src/cpp/core.cpp:256",
    "get_versions": "src/inference/src/cpp/core.cpp:77",
    "compiled.get_property": "src/inference/src/cpp/compiled_model.cpp:140",
    "compiled.set_property": "src/inference/src/cpp/compiled_model.cpp:136",
    "infer": "src/inference/src/cpp/infer_request.cpp:117",
    "infer.set_tensor": "src/inference/src/cpp/infer_request.cpp:67",
    "infer.port": "src/inference/src/cpp/infer_request.cpp:189",
    "unload_plugin": "src/inference/src/cpp/core.cpp:290",
    "add_extension": "src/inference/src/cpp/core.cpp:189",
    "read_model": "src/inference/src/cpp/core.cpp:84",
    "read_model_bytes": "src/inference/src/cpp/core.cpp:105",
}

# Lines that sit between the API line and the plugin's own line.
PLUGIN_LINE = {
    "compile_model": "src/inference/src/dev/plugin.cpp:54",
    "query_model": "src/inference/src/dev/plugin.cpp:70",
    "core.get_property": "src/inference/src/dev/plugin.cpp:112",
    "core.set_property": "src/inference/src/dev/plugin.cpp:49",
    "core.set_property_core": "src/inference/src/dev/plugin.cpp:49",
}
CORE_IMPL = "src/inference/src/dev/core_impl.cpp:706"


class PluginError(Exception):
    """An error raised inside ovlab's plugins, carrying OpenVINO's source lines.

    ``sources`` are the ``file:line`` strings (or whole ``Check '...' failed at file:line``
    lines) that OpenVINO prints before the message, innermost last.
    """

    def __init__(self, message: str, *sources: str, through_plugin: bool = True):
        super().__init__(message)
        self.message = message
        self.sources = list(sources)
        self.through_plugin = through_plugin


def format_chain(sources: list[str], message: str) -> str:
    lines = []
    for src in sources:
        lines.append(f"{src}:" if src.startswith("Check ") else f"Exception from {src}:")
    return "\n".join(lines) + "\n" + message + "\n" * len(sources)


def ov_error(api: str, message: str, *sources: str) -> RuntimeError:
    """A ``RuntimeError`` as the real runtime formats it for the API ``api``."""
    return RuntimeError(format_chain([API_SOURCES[api], *sources], message))


def from_plugin(api: str, err: PluginError) -> RuntimeError:
    """Wrap a :class:`PluginError` raised under the public API ``api``."""
    sources = list(err.sources)
    if err.through_plugin and api in PLUGIN_LINE:
        sources.insert(0, PLUGIN_LINE[api])
    return ov_error(api, err.message, *sources)


def not_registered(api: str, name: str) -> RuntimeError:
    return ov_error(
        api, f'Device with "{name}" name is not registered in the OpenVINO Runtime', CORE_IMPL
    )
