"""``ovlab.CompiledModel``: the public face of a plugin's compiled model (a Backend)."""

from __future__ import annotations

from typing import Any

from .. import errors as _errors
from ..errors import PluginError
from ..graph.node import ConstOutput
from ..overloads import MISSING, one_of
from . import config as cfgmod
from .backend import Backend


class _Shared:
    """What every handle on one compiled model shares: the count of requests made and of
    live handles, and whether the device's resources were released."""

    __slots__ = ("handles", "released", "requests_made")

    def __init__(self) -> None:
        self.handles = 1
        self.released = False
        self.requests_made = 0


class CompiledModel:
    """Like ``openvino.CompiledModel``: ports, properties, infer requests, ``__call__``.

    Compiled models come from ``Core.compile_model``; ``CompiledModel(other)`` is another
    handle on ``other``'s compiled model, as in the wheel (the copy shares the device's compiled
    model and is released with the last handle; only the request that ``__call__`` and
    ``query_state`` use is its own, as the wheel's Python wrapper keeps it).
    """

    def __init__(self, other: CompiledModel, weights: bytes | None = None) -> None:
        if not isinstance(other, CompiledModel):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. openvino.CompiledModel("
                            f"other: openvino.CompiledModel)\n\nInvoked with: {other!r}")
        self.__dict__.update(other.__dict__)
        self._shared.handles += 1
        self._infer_request = None
        self._weights = weights

    @classmethod
    def _create(cls, core, backend: Backend, model) -> CompiledModel:
        """The compiled model a Core hands out (the first handle on ``backend``)."""
        compiled = cls.__new__(cls)
        compiled._core = core
        compiled._backend = backend
        compiled._model = model
        compiled._shared = _Shared()
        compiled._infer_request = None
        compiled._weights = None
        # input index -> (caller's array, its snapshot, converted, where the snapshot's bytes
        # start), shared by the handles
        compiled._input_cache = {}
        return compiled

    def __repr__(self) -> str:
        return (f"<CompiledModel: '{self._backend.name}' on "
                f"{self._safe(lambda: self._backend.execution_devices())}>")

    @staticmethod
    def _safe(fn):
        try:
            return fn()
        except Exception:  # noqa: BLE001 - repr must never fail
            return "?"

    # --- ports --------------------------------------------------------------------------
    @property
    def inputs(self) -> list:
        return [ConstOutput(p.get_node(), p.get_index()) for p in self._model.inputs]

    @property
    def outputs(self) -> list:
        return [ConstOutput(p.get_node(), p.get_index()) for p in self._model.outputs]

    def input(self, index: Any = 0, tensor_name: str | None = None):
        """The input by index or tensor name (``input(index=0)``, ``input(tensor_name="x")``)."""
        key = index if tensor_name is None else tensor_name
        return self._port("input", self.inputs, key, 73, 84)

    def output(self, index: Any = 0, tensor_name: str | None = None):
        """The output by index or tensor name."""
        key = index if tensor_name is None else tensor_name
        return self._port("output", self.outputs, key, 107, 117)

    def _port(self, kind: str, ports: list, key: Any, index_line: int, name_line: int):
        """A port by index or tensor name, with the errors of ``compiled_model.cpp`` (measured
        by the conformance tests: a RuntimeError, not an IndexError)."""
        src = "src/inference/src/cpp/compiled_model.cpp"
        if isinstance(key, int) and not 0 <= key < len(ports):
            raise RuntimeError(_errors.format_chain(
                [f"{src}:{index_line}",
                 f"Check 'i < _impl->{kind}s().size()' failed at {src}:{index_line + 1}"],
                f"Cannot get {kind} for index: {key} {kind}s size is {len(ports)}"))
        if isinstance(key, str) and not any(key in p.get_names() for p in ports):
            raise RuntimeError(_errors.format_chain(
                [f"{src}:{name_line}", f"{src}:{name_line + 6}"],
                f"{kind.capitalize()} for tensor name '{key}' is not found."))
        port = self._model.input(key) if kind == "input" else self._model.output(key)
        return ConstOutput(port.get_node(), port.get_index())

    def get_runtime_model(self):
        """The model as the device runs it (BATCH: reshaped to the batch size)."""
        return self._backend.runtime_model()

    # --- properties ---------------------------------------------------------------------------
    def get_property(self, property: Any) -> Any:
        try:
            return self._backend.get_property(str(property))
        except PluginError as err:
            raise _errors.from_plugin("compiled.get_property", err) from None

    def set_property(self, properties: Any = MISSING, property: Any = MISSING) -> None:
        """``set_property({key: value})`` or ``set_property(property=(key, value))``."""
        properties = one_of("set_property", properties=properties, property=property)
        if isinstance(properties, tuple):
            properties = dict([properties])
        try:
            self._backend.set_property(cfgmod.normalize(properties))
        except PluginError as err:
            raise _errors.from_plugin("compiled.set_property", err) from None

    # --- requests -------------------------------------------------------------------------------
    def _read_value_ops(self) -> list:
        """The model's ReadValue ops (a stateful model's variables), found once per compiled
        model rather than once per request: AUTO's THROUGHPUT queue makes 64 of them."""
        ops = getattr(self, "_read_values", None)
        if ops is None:
            ops = self._read_values = [op for op in self._model.get_ordered_ops()
                                       if op.get_type_name() == "ReadValue"]
        return ops

    def create_infer_request(self):
        from .infer_request import InferRequest

        request = InferRequest._create(self, self._shared.requests_made)
        self._shared.requests_made += 1
        return request

    def __call__(self, inputs: Any = None, share_inputs: bool = True,
                 share_outputs: bool = False, *, decode_strings: bool = True):
        if self._infer_request is None:
            self._infer_request = self.create_infer_request()
        return self._infer_request.infer(inputs, share_inputs=share_inputs,
                                          share_outputs=share_outputs)

    def infer_new_request(self, inputs: Any = None):
        return self.create_infer_request().infer(inputs)

    # --- export and memory ------------------------------------------------------------------
    def export_model(self, model_stream: Any = None):
        """A blob of this compiled model (a ``BytesIO``, as OpenVINO returns), or written into
        ``model_stream``; ``Core.import_model`` reads it (see ``runtime/blobs.py``)."""
        from . import blobs

        config = {}
        try:
            config = {"PERFORMANCE_HINT": str(self._backend.get_property("PERFORMANCE_HINT").name)}
        except Exception:  # noqa: BLE001 - a device without the hint exports without it
            pass
        blob = blobs.export(self._model, self._backend.name, config)
        if model_stream is None:
            return blob
        model_stream.write(blob.getvalue())
        return None

    def query_state(self) -> list:
        """The variables of the request ``compiled_model(...)`` infers on."""
        if self._infer_request is None:
            self._infer_request = self.create_infer_request()
        return self._infer_request.query_state()

    def reset_state(self) -> None:
        if self._infer_request is not None:
            self._infer_request.reset_state()

    def release_memory(self) -> None:
        """Drop memory kept between inferences (here: the converted-input cache)."""
        self._input_cache.clear()

    # --- life ---------------------------------------------------------------------------------
    def release(self) -> None:
        """Free the compiled model now, for every handle on it (AUTO drops its
        model-priority registration)."""
        if not self._shared.released:
            self._shared.released = True
            self._backend.release()

    def __del__(self) -> None:
        try:
            shared = self._shared
            shared.handles -= 1
            if shared.handles <= 0:  # the last handle: the wheel frees the model then
                self.release()
        except Exception:  # noqa: BLE001 - never raise from a finalizer
            pass

