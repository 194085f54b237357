"""``ovlab.InferRequest``: one request, run synchronously or asynchronously in simulated time.

Order on completion follows the runtime (``iasync_infer_request.cpp``): the request turns idle,
then the callback runs, then ``wait()`` is released, so ``wait()`` returns only after the callback
finished. Inputs given to ``infer``/``start_async`` are copied into new buffers (as with
``share_inputs=False``), so results computed lazily later still see the inputs of their own run.
"""

from __future__ import annotations

import operator
import sys
import warnings
from typing import Any

import numpy as np

from .. import errors as _errors
from ..errors import PluginError
from ..graph.types import shape_str
from ..overloads import MISSING, one_of
from .backend import Job, LazyEval, Outputs
from .clock import PENDING, Signal
from .tensor import OVDict, Tensor
from .variable_state import VariableState

try:
    import ctypes
except ImportError:  # pragma: no cover - a Python built without ctypes
    ctypes = None

_BUSY_SRC = "src/inference/src/dev/iasync_infer_request.cpp:199"


_INT32_MAX = 2**31 - 1


def _timeout_ms(request, timeout) -> int:
    """``wait_for``'s argument as pybind11 converts it to a C int, or its TypeError."""
    if isinstance(timeout, (int, np.integer)) or (
            not isinstance(timeout, (float, np.floating, str)) and hasattr(timeout, "__index__")):
        value = operator.index(timeout)
        if -_INT32_MAX - 1 <= value <= _INT32_MAX:
            return value
    raise TypeError(
        "wait_for(): incompatible function arguments. The following argument types are "
        "supported:\n    1. (self: openvino._pyopenvino.InferRequest, timeout: "
        "typing.SupportsInt | typing.SupportsIndex) -> bool\n\nInvoked with: "
        f"{request!r}, {timeout!r}")


def _libc_memcmp():
    """The C library's ``memcmp`` through ctypes, or None where there is none (then NumPy
    compares)."""
    if ctypes is None:  # pragma: no cover - a Python built without ctypes
        return None
    try:
        fn = ctypes.CDLL("msvcrt" if sys.platform == "win32" else None).memcmp
    except (OSError, AttributeError):  # pragma: no cover - no C library to load
        return None
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    return fn


_MEMCMP = _libc_memcmp()
# looked up once (_address runs once per request); without ctypes, calling None raises the
# TypeError that sends _address to __array_interface__
_addressof, _char_from_buffer = ((ctypes.addressof, ctypes.c_char.from_buffer)
                                 if ctypes is not None else (None, None))


def _address(arr: np.ndarray) -> int:
    """Where a C-contiguous array's bytes start: through the buffer protocol when it is
    writable (0.5 us), else its ``__array_interface__`` (1.6 us: it builds a dict)."""
    try:
        return _addressof(_char_from_buffer(arr))
    except (TypeError, ValueError, BufferError):
        return arr.__array_interface__["data"][0]


def _same_bytes(kept: np.ndarray, arr: np.ndarray, kept_at: int | None = None) -> bool:
    """Whether ``arr`` still holds what ``kept`` (a C-contiguous copy of it, whose bytes start
    at ``kept_at`` if given) holds, bit for bit.

    Bitwise is the right test for a cache of converted inputs: -0.0 written over 0.0 is a
    change, a NaN left alone is not. The seed scripts pass the same 150 kB image to each of
    2,000 requests, so this runs once per inference: C's ``memcmp`` takes 5 us of it where
    NumPy's compare-then-reduce (a bool array of every 64-bit word first) took 10."""
    if kept.shape != arr.shape or kept.dtype != arr.dtype:
        return False
    if not arr.flags.c_contiguous:
        return bool(np.array_equal(kept, arr, equal_nan=arr.dtype.kind in "fc"))
    if _MEMCMP is not None and arr.nbytes:
        return _MEMCMP(_address(arr), kept_at if kept_at is not None else _address(kept),
                       arr.nbytes) == 0
    a, b = kept.reshape(-1).view(np.uint8), arr.reshape(-1).view(np.uint8)
    if a.size % 8 == 0:
        a, b = a.view(np.uint64), b.view(np.uint64)
    return bool((a == b).all())


def _cached(hit: tuple | None, value: Any, arr: Any) -> np.ndarray | None:
    """The converted copy an input cache entry ``hit`` holds when ``value`` is the array it
    was made from and its bytes (``arr``: the array or its contiguous view) are unchanged:
    frozen, or compared."""
    if hit is not None and hit[0] is value and (hit[4] or _same_bytes(hit[1], arr, hit[3])):
        return hit[2]
    return None


def _frozen(arr: np.ndarray) -> bool:
    """Whether ``arr``'s bytes can never change: read-only over an immutable ``bytes`` object
    (``np.frombuffer(bytes(...))`` and its views). NumPy refuses to make such an array, or any
    view of it, writeable again, so a cached copy of it needs no compare."""
    if arr.flags.writeable:
        return False
    base = arr.base
    while isinstance(base, np.ndarray):
        base = base.base
    return type(base) is bytes


def _fmt_port_shape(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _fmt_tensor_shape(shape) -> str:
    # the runtime prints a tensor's shape as "(2.16)" (measured)
    return "(" + ".".join(str(d) for d in shape) + ")"


def _callback_failure(exc: BaseException) -> RuntimeError:
    """A callback's exception as ``wait()`` re-raises it: a RuntimeError carrying the Python
    error and where it was raised, innermost frame first (pybind's text, measured)."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename != __file__:  # the runtime's own frame calls it
            frames.append(f"  {tb.tb_frame.f_code.co_filename}({tb.tb_lineno}): "
                          f"{tb.tb_frame.f_code.co_name}")
        tb = tb.tb_next
    return RuntimeError("Exception from src/inference/src/cpp/infer_request.cpp:246:\n"
                        f"{type(exc).__name__}: {exc}\n\nAt:\n" + "\n".join(reversed(frames))
                        + "\n\n")


# where a failed inference surfaces (measured on 2026.4.1 with a Reshape that fails at run time):
# infer() names its own line; wait() and wait_for() add the binding's line and "Caught exception: "
_FAILURE_LINES = {
    "infer": ["src/inference/src/cpp/infer_request.cpp:224"],
    "wait": ["src/inference/src/cpp/infer_request.cpp:246",
             "src/bindings/python/src/pyopenvino/core/infer_request.hpp:55"],
    "wait_for": ["src/inference/src/cpp/infer_request.cpp:259",
                 "src/bindings/python/src/pyopenvino/core/infer_request.hpp:55"],
}


def _inference_failure(api: str, err: PluginError) -> RuntimeError:
    """A device's failure of an inference, as the call that meets it raises it."""
    if api == "infer":
        return RuntimeError(_errors.format_chain([*_FAILURE_LINES[api], *err.sources],
                                                 err.message))
    inner = _errors.format_chain(err.sources, err.message)
    return RuntimeError(_errors.format_chain(_FAILURE_LINES[api], "Caught exception: " + inner))


class InferRequest:
    """Like ``openvino.InferRequest``; time passes only on the Core's simulated clock.

    Requests come from ``CompiledModel.create_infer_request()``; ``InferRequest(other)`` is
    another handle on ``other``'s request, as in the wheel, where the copy shares the
    underlying request: its tensors, state, callback, userdata and timings are the same ones.
    """

    def __init__(self, other: InferRequest) -> None:
        if not isinstance(other, InferRequest):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. openvino.InferRequest("
                            f"other: openvino.InferRequest)\n\nInvoked with: {other!r}")
        self.__dict__ = other.__dict__  # one request, two handles

    @classmethod
    def _create(cls, compiled, index: int) -> InferRequest:
        """A new request of ``compiled`` (what ``create_infer_request`` returns)."""
        request = cls.__new__(cls)
        request._setup(compiled, index)
        return request

    def _setup(self, compiled, index: int) -> None:
        self._compiled = compiled
        self._backend = compiled._backend
        # the async hand-off of a hardware device's inferences (see _finish); meta devices: 0
        self._handoff = getattr(getattr(self._backend, "spec", None), "async_overhead_s", 0.0)
        self._core = compiled._core
        self._index = index
        self._ctx = self._backend.new_context()
        # the variables of a stateful model (ReadValue/Assign): this request's values
        self._read_values = compiled._read_value_ops()
        self._variables: dict[str, np.ndarray] | None = {} if self._read_values else None
        self._ports_in = list(compiled.inputs)
        self._ports_out = list(compiled.outputs)
        self._inputs: dict[int, np.ndarray] = {}
        # set_input_tensors(list): one tensor per batch item, gathered at each inference
        self._batched: dict[int, list[Tensor]] = {}
        self._outputs: Outputs | None = None
        self._error: BaseException | None = None
        self._profile: list = []
        self._busy = False
        self._done_event = None
        self._callback = None
        self._callback_userdata = None
        self._callback_error: BaseException | None = None
        self._silent = False  # sync infer() ignores the callback
        self._queue_hook = None  # (AsyncInferQueue, id) when owned by a queue
        self._t_start = 0.0
        self._t_end = 0.0
        self._userdata: Any = None
        self._user_outputs: dict[int, Tensor] = {}  # set_output_tensor(s): results land here
        # the request's own output tensors, as the runtime keeps them: each inference writes
        # into the same buffers, so a tensor taken once (get_output_tensor) shows later results
        self._out_bufs: dict[int, np.ndarray] = {}
        self._out_filled: object = None  # the Outputs last written into them
        self._out_handed = False  # an output tensor was handed out: fill them at each wait()

    def __repr__(self) -> str:
        return f"<InferRequest {self._index} of '{self._backend.name}'{' busy' if self._busy else ''}>"

    # --- inputs -----------------------------------------------------------------------------
    def _busy_error(self) -> RuntimeError:
        return _errors.ov_error("infer", "Infer Request is busy", _BUSY_SRC)

    def _input_index(self, key: Any) -> int:
        if type(key) is int and 0 <= key < len(self._ports_in):  # {0: x}, every request
            return key
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not 0 <= key < len(self._ports_in):
                raise RuntimeError(_errors.format_chain(  # no infer() line above it (measured)
                    ["src/inference/src/cpp/infer_request.cpp:198"],
                    f"vector::_M_range_check: __n (which is {key}) >= this->size() "
                    f"(which is {len(self._ports_in)})"))
            return int(key)
        if isinstance(key, str):
            for i, port in enumerate(self._ports_in):
                if key in port.get_names():
                    return i
            raise _errors.ov_error(
                "infer.port", f"Port for tensor name {key} was not found.",
                "Check '::getPort(port, name, {_impl->get_inputs(), _impl->get_outputs()})' "
                "failed at src/inference/src/cpp/infer_request.cpp:191")
        if not hasattr(key, "get_index"):  # the binding accepts ints, names and ports only
            raise TypeError(f"Incompatible key type for input: {key}")
        for i, port in enumerate(self._ports_in):
            if port is key or (port.get_index() == key.get_index()
                               and port.get_node() is key.get_node()):
                return i
        raise _errors.ov_error("infer.port", "Port for tensor was not found.",
                               "src/inference/src/cpp/infer_request.cpp:191")

    def _coerce(self, index: int, value: Any, copy_api: str | None = None,
                api_line: int = 104, share: bool = False) -> np.ndarray:
        if not share:
            # the same array as last time, unchanged (the seed scripts pass one dummy input
            # to every request): its converted copy, without checking it again
            hit = _cached(self._compiled._input_cache.get(index), value, value)
            if hit is not None:
                return hit
        port = self._ports_in[index]
        if share and isinstance(value, np.ndarray) and value.flags.writeable \
                and value.flags.c_contiguous and value.dtype == port.get_element_type().to_dtype() \
                and list(value.shape) == list(port.get_shape()):
            # share_inputs=True: the request's input tensor is the caller's array, as in the
            # wheel (a read-only, strided or converted array is copied there too)
            return value
        if isinstance(value, (list, tuple)):  # the binding makes a Tensor of numpy's dtype
            value = Tensor(np.array(value))
        arr = value.data if isinstance(value, Tensor) else np.asarray(value)
        if isinstance(value, Tensor) and value.element_type != port.get_element_type():
            raise RuntimeError(_errors.format_chain(  # a Tensor is never converted (measured)
                [f"src/inference/src/cpp/infer_request.cpp:{api_line}",
                 "src/inference/src/cpp/infer_request.cpp:67",
                 "src/plugins/intel_cpu/src/infer_request.cpp:377"],
                f"ParameterMismatch: Failed to set tensor for input with precision: "
                f"{value.element_type.get_type_name()}, since the model input tensor precision "
                f"is: {port.get_element_type().get_type_name()}\n"))
        shape = list(port.get_shape())
        if list(arr.shape) != shape and copy_api is not None:
            # a copying call (share_inputs=False) fails at infer time with another text (measured)
            raise RuntimeError(_errors.format_chain(
                [f"src/inference/src/cpp/infer_request.cpp:{224 if copy_api == 'infer' else 236}",
                 "Check 'is_dynamic || port.get_shape() == tensor->get_shape()' failed at "
                 "src/plugins/intel_cpu/src/infer_request.cpp:669"],
                f"The input tensor size is not equal to the model input type: got "
                f"{_fmt_port_shape(arr.shape)} expecting {_fmt_port_shape(shape)}."))
        if list(arr.shape) != shape:
            raise _errors.ov_error(
                "infer",
                f"Can't set the input tensor with index: {index}, because the model input "
                f"(shape={_fmt_port_shape(shape)}) and the tensor "
                f"(shape={_fmt_tensor_shape(arr.shape)}) are incompatible",
                "src/inference/src/cpp/infer_request.cpp:67",
                "Check 'shape.compatible(ov::PartialShape(tensor->get_shape()))' failed at "
                "src/plugins/intel_cpu/src/infer_request.cpp:385")
        if arr.dtype.kind not in "biuf":
            raise _errors.ov_error(
                "infer", f"Can't set the input tensor with index: {index}: element type "
                f"{arr.dtype} cannot be converted to {port.get_element_type()}",
                "src/inference/src/cpp/infer_request.cpp:67")
        # The same array passed again (the seed scripts pass one dummy input every time) reuses
        # its converted copy (see the top: share_inputs=False looks there first): converting
        # 150k uint8 values to float16 costs ~0.4 ms, comparing their bytes ~0.005 ms.
        # Converted copies are read-only, and copied before any in-place write.
        cache = self._compiled._input_cache
        hit = _cached(cache.get(index), value, arr) if share else None
        if hit is not None:
            return hit
        converted = np.array(arr, dtype=port.get_element_type().to_dtype(), copy=True)
        converted.flags.writeable = False
        if isinstance(value, np.ndarray):
            kept = arr.copy()  # C order
            # the last item: the array is frozen (its bytes cannot change), so the same
            # object passed again is the same input without comparing its bytes
            cache[index] = (value, kept, converted, _address(kept) if kept.nbytes else None,
                            _frozen(value))
        return converted

    def _set_inputs(self, inputs: Any, copy_api: str | None = None, share: bool = False) -> None:
        if inputs is None:
            return
        if type(inputs) is dict:  # the common case, without the checks of _input_items
            items = list(inputs.items())  # (OVDict's is an ABC's: ~1 us a request)
        else:
            items = self._input_items(inputs)
        for key, value in items:
            idx = self._input_index(key)
            self._inputs[idx] = self._coerce(idx, value, copy_api, share=share)
            self._batched.pop(idx, None)

    def _input_items(self, inputs: Any) -> list[tuple[Any, Any]]:
        """(key, value) pairs of what ``infer``/``start_async`` were given."""
        if isinstance(inputs, OVDict):  # another model's results: by position, as the wheel does
            inputs = dict(enumerate(inputs.values()))
        if not isinstance(inputs, (dict, list, tuple, np.ndarray, np.generic, Tensor, int, float,
                                   bool, str, bytes)) and not hasattr(inputs, "__array__"):
            raise TypeError(f"Incompatible inputs of type: {type(inputs)}")
        if isinstance(inputs, dict):
            items = list(inputs.items())
        elif isinstance(inputs, (list, tuple)) and (len(self._ports_in) != 1 or any(
                isinstance(v, (np.ndarray, Tensor)) or hasattr(v, "__array__")
                for v in inputs)):  # [x]: one per input (array-likes such as torch tensors too)
            items = list(enumerate(inputs))
        else:  # one value: the model's only input (the wheel's message otherwise)
            if len(self._ports_in) != 1:
                which, line = ("set", 117) if isinstance(inputs, Tensor) else ("get", 206)
                raise RuntimeError(
                    f"Exception from src/inference/src/cpp/infer_request.cpp:{line}:\nCheck "
                    f"'inputs.size() == 1' failed at src/inference/src/cpp/infer_request.cpp:"
                    f"{line + 2}:\n{which}_input_tensor() must be called on a function with "
                    "exactly one parameter.\n\n")
            items = [(0, inputs)]
        return items

    def _writable_input(self, idx: int) -> np.ndarray:
        """The request's own input buffer, safe to write in place (copy-on-write)."""
        buf = self._input_buffers()[idx]
        if not buf.flags.writeable:
            buf = self._inputs[idx] = buf.copy()
        return buf

    def _input_buffers(self) -> dict[int, np.ndarray]:
        for i, port in enumerate(self._ports_in):
            if i not in self._inputs:
                # a read-only view of one zero: a request that is never given an input costs no
                # memory (64 requests of a 224x224 image were 38 MB); _writable_input copies it
                # on the first write
                self._inputs[i] = np.broadcast_to(
                    np.zeros((), dtype=port.get_element_type().to_dtype()),
                    list(port.get_shape()))
        return dict(self._inputs)

    # --- running ------------------------------------------------------------------------------
    def start_async(self, inputs: Any = None, userdata: Any = None,
                    share_inputs: bool = False) -> None:
        """Start an inference and return at once (no simulated time passes)."""
        if self._busy:
            raise self._busy_error()
        if inputs is not None:
            self._set_inputs(inputs, None if share_inputs else "start_async")
        if userdata is not None:
            if self._callback is None and self._queue_hook is None:
                warnings.warn("There is no callback function!",  # the wheel's text (measured)
                              RuntimeWarning, stacklevel=2)
            self._userdata = userdata
        self._begin(silent=False)

    def _begin(self, silent: bool) -> None:
        core = self._core
        self._busy = True
        self._silent = silent
        self._error = None
        self._callback_error = None
        self._outputs = None
        env = core.clock.env
        done = self._done_event
        if done is not None and done.callbacks is None:
            # the last inference's, processed (so out of the heap): pending again, one object
            # less per inference
            done._value = PENDING
            done.callbacks = ()
        else:
            self._done_event = Signal(env)
        self._t_start = now = env._now
        seq = core._seq
        core._seq = seq + 1
        for idx, items in self._batched.items():  # the items' data as it is now
            dtype = self._ports_in[idx].get_element_type().to_dtype()
            self._inputs[idx] = np.concatenate([np.asarray(t.data, dtype=dtype) for t in items])
        if len(self._inputs) != len(self._ports_in):  # an input never given: zeros
            self._input_buffers()
        # no hand-off (infer(), meta devices): the job completes the request directly
        job = Job(seq, self._index, self._backend.name, dict(self._inputs), now,
                  self._complete if silent or not self._handoff > 0 else self._finish, self._ctx)
        job.variables = self._variables
        self._backend.submit(job)

    def _finish(self, outputs: Outputs | None, error: BaseException | None, profile: list,
                device: str) -> None:
        # an asynchronous request on a hardware device reaches the application through the
        # runtime's executor thread and callback: that hand-off (DeviceSpec.async_overhead_s)
        # delays its completion while the device is already free for the next inference;
        # infer() returns without it, and meta devices (AUTO, BATCH, HETERO) keep their own timing
        handoff = self._handoff if not self._silent else 0.0
        if handoff > 0:
            self._core.clock.call_at_delay(handoff, self._complete, outputs, error, profile)
            return
        self._complete(outputs, error, profile)

    def _complete(self, outputs: Outputs | None, error: BaseException | None,
                  profile: list, device: str = "") -> None:
        self._busy = False
        done_event = self._done_event  # the callback may start the next inference
        self._t_end = self._core.clock.env._now
        self._outputs = outputs
        self._error = error
        self._profile = profile
        if self._queue_hook is not None:
            queue, job_id = self._queue_hook
            queue._on_done(job_id, self, error)
        elif self._callback is not None and error is None and not self._silent:
            try:
                self._callback(self._userdata)  # start_async(..., userdata) replaces it
            except Exception as exc:  # noqa: BLE001 - surfaced by wait()
                self._callback_error = exc
        done_event.succeed()

    def wait(self) -> None:
        """Block (advance the clock) until the current inference and its callback are done."""
        self._wait_done()
        self._raise_errors("wait")
        if self._out_handed:  # output tensors held by the caller show this inference
            self._output_buffers()

    def _wait_done(self) -> None:
        if self._done_event is not None:
            self._core.clock.run_until(self._done_event, f"inference request {self._index}")

    def wait_for(self, timeout: int) -> bool:
        """Wait at most ``timeout`` ms of simulated time; True if the request is done.

        ``timeout`` is what the real binding takes (measured): an int that fits a C int (bools
        and NumPy integers too); a float, even ``1.5``, NaN or inf raises ``TypeError``.
        """
        timeout = _timeout_ms(self, timeout)
        if timeout < 0:
            raise RuntimeError(_errors.format_chain(  # wait_for's own API line (measured)
                ["src/inference/src/cpp/infer_request.cpp:259",
                 "Check 'timeout >= std::chrono::milliseconds{0}' failed at "
                 "src/inference/src/dev/iasync_infer_request.cpp:78"],
                "Timeout can't be less than 0 for InferRequest::wait()."))
        if self._done_event is None or self._done_event.processed:
            self._raise_errors("wait_for")
            return True
        # nothing is scheduled for the deadline: an early return leaves no timer behind
        if self._core.clock.run_for(self._done_event, timeout / 1000.0, "wait_for"):
            self._raise_errors("wait_for")
            return True
        return False

    def _raise_errors(self, api: str = "wait") -> None:
        if self._error is not None:
            err = self._error
            if isinstance(err, PluginError):
                raise _inference_failure(api, err)
            raise err
        if self._callback_error is not None:
            exc, self._callback_error = self._callback_error, None
            raise _callback_failure(exc) from exc

    def infer(self, inputs: Any = None, share_inputs: bool = False, share_outputs: bool = False,
              *, decode_strings: bool = True) -> OVDict:
        """Run one inference synchronously (the callback is not called) and return results."""
        if self._busy:
            raise self._busy_error()
        self._set_inputs(inputs, None if share_inputs else "infer", share=bool(share_inputs))
        self._begin(silent=True)
        self._wait_done()
        self._raise_errors("infer")
        # shared inputs too: _lazy_results copies them now, so the caller's later writes cannot
        # reach these results (CompiledModel.__call__ shares them by default, as the wheel's)
        if not (share_outputs or self._user_outputs or self._out_handed):
            lazy = self._lazy_results()
            if lazy is not None:
                return lazy
        results = self.results
        # share_outputs=True hands out views of the output tensors, else copies (the wheel's)
        return OVDict(results._ports, [v.view() if share_outputs else v.copy()
                                       for v in results._values])

    def set_callback(self, callback, userdata: Any = None) -> None:
        """``callback(userdata)`` runs when an asynchronous inference completes."""
        if not callable(callback):
            raise TypeError(
                "set_callback(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: openvino._pyopenvino.InferRequest, callback: "
                "collections.abc.Callable, userdata: object) -> None\n\n"
                f"Invoked with: {self!r}, {callback!r}, {userdata!r}")
        self._callback = callback
        self._callback_userdata = userdata
        self._userdata = userdata

    @property
    def userdata(self) -> Any:
        """The userdata of ``set_callback`` or of the last ``start_async`` (read-only, as in
        the wheel; a request of an AsyncInferQueue keeps None: the queue holds its own)."""
        return self._userdata

    def cancel(self) -> None:
        """Not simulated: ovlab requests always run to completion."""

    # --- results ---------------------------------------------------------------------------
    @property
    def results(self) -> OVDict:
        if self._busy:
            raise self._busy_error()
        # after a failed inference the real request hands back its output tensors (empty or
        # stale) without raising; the error belongs to infer() / wait() (measured)
        if self._error is not None:
            values = [np.zeros(list(p.get_shape()), dtype=p.get_element_type().to_dtype())
                      for p in self._ports_out]
        else:  # before any inference: the output tensors, zero-filled
            values = self._output_buffers()
        return OVDict(self._ports_out, values)

    def _lazy_results(self) -> OVDict | None:
        """infer()'s results with the numerics deferred to their first read, or None when they
        must be made now. A timing loop of sync inferences that never reads them (OpenVINO's
        sync_benchmark sample, ``benchmark_app -api sync``) then costs no NumPy work: a googlenet
        inference took 0.37 s of it. The inputs are copied now (a memcpy), so what the caller
        writes afterwards, into a tensor it kept or its own array, cannot reach these results."""
        outputs = self._outputs
        if not isinstance(outputs, LazyEval) or outputs.ready or self._error is not None:
            return None
        inputs = outputs.inputs() if callable(outputs.inputs) else outputs.inputs
        outputs.inputs = {k: np.array(v, copy=True) for k, v in inputs.items()}
        return OVDict._lazy(self._ports_out, outputs)

    def _output_buffers(self) -> list[np.ndarray]:
        """The last results, in the request's output tensors (written once per inference)."""
        outputs = self._outputs
        if outputs is not None and self._out_filled is not outputs and self._error is None:
            for i, value in enumerate(outputs.get()):
                user = self._user_outputs.get(i)
                if user is not None:
                    np.copyto(user.data, value, casting="unsafe")
                    self._out_bufs[i] = user.data
                    continue
                buf = self._out_bufs.get(i)
                if buf is None or buf.shape != value.shape or buf.dtype != value.dtype:
                    self._out_bufs[i] = np.array(value, copy=True)
                else:
                    np.copyto(buf, value)
            self._out_filled = outputs
        for i, p in enumerate(self._ports_out):
            if i not in self._out_bufs:
                self._out_bufs[i] = np.zeros(list(p.get_shape()),
                                             dtype=p.get_element_type().to_dtype())
        return [self._out_bufs[i] for i in range(len(self._ports_out))]

    @property
    def latency(self) -> float:
        """Milliseconds from the start of the last inference to its completion (simulated)."""
        return (self._t_end - self._t_start) * 1000.0

    def _tensor_for(self, key: Any) -> Tensor:
        if self._busy:
            raise self._busy_error()
        out = self._output_index(key)
        if out is not None:
            return self.get_output_tensor(out)
        idx = self._input_index(key)
        self._check_not_batched(idx, 189)
        self._flush_lazy()
        return Tensor(self._writable_input(idx), shared_memory=True)

    def _check_not_batched(self, idx: int, line: int) -> None:
        if idx in self._batched:
            raise RuntimeError(
                f"Exception from src/inference/src/cpp/infer_request.cpp:{line}:\nException from "
                "src/inference/src/cpp/infer_request.cpp:170:\nCheck "
                "'_impl->get_tensors(port).empty()' failed at "
                "src/inference/src/cpp/infer_request.cpp:171:\nget_tensor shall not be used "
                "together with batched set_tensors/set_input_tensors\n\n")

    def _flush_lazy(self) -> None:
        """Compute pending outputs before the input buffers may be written in place."""
        if self._outputs is not None and not self._outputs.ready and self._error is None:
            self._outputs.get()

    def get_tensor(self, name: Any = MISSING, port: Any = MISSING) -> Tensor:
        """The tensor of an input or output, by tensor ``name`` or by ``port`` (an index
        works too, positionally)."""
        return self._tensor_for(one_of("get_tensor", name=name, port=port))

    def set_tensor(self, name: Any = MISSING, tensor: Any = MISSING,
                   port: Any = MISSING) -> None:
        """Give an input or output, by tensor ``name`` or by ``port``, a ``tensor``."""
        key = one_of("set_tensor", name=name, port=port)
        if tensor is MISSING:
            raise TypeError("set_tensor(): incompatible function arguments: no tensor given")
        self._set_tensor(key, tensor)

    def _set_tensor(self, key: Any, tensor: Any) -> None:
        if self._busy:
            raise self._busy_error()
        out = self._output_index(key)
        if out is not None:
            self.set_output_tensor(out, tensor)
            return
        idx = self._input_index(key)
        self._flush_lazy()
        self._inputs[idx] = self._coerce(idx, tensor, api_line=75)
        self._batched.pop(idx, None)

    def get_input_tensor(self, index: int = 0) -> Tensor:
        if self._busy:
            raise self._busy_error()
        idx = self._input_index(index)
        self._check_not_batched(idx, 198)
        self._flush_lazy()
        return Tensor(self._writable_input(idx), shared_memory=True)

    def set_input_tensor(self, index: Any, tensor: Any = None) -> None:
        if tensor is None:
            index, tensor = 0, index
        self._set_tensor(int(index), tensor)

    def set_input_tensors(self, inputs: Any = MISSING, tensors: Any = MISSING, *,
                          idx: Any = MISSING) -> None:
        """The wheel's overloads: ``set_input_tensors(inputs)``, ``{key: tensor}`` for several
        inputs; ``set_input_tensors(tensors)``, a list of tensors that are each one item of
        the only input's batch; ``set_input_tensors(idx, tensors)``, the same for input
        ``idx``. The request reads the batch items' data at every inference."""
        if idx is not MISSING or (inputs is not MISSING and tensors is not MISSING):
            index = one_of("set_input_tensors", inputs=inputs, idx=idx)
            self._set_batched(self._input_index(int(index)), self._tensor_list(tensors))
            return
        value = one_of("set_input_tensors", inputs=inputs, tensors=tensors)
        if isinstance(value, (list, tuple)):
            self._set_batched(0 if len(self._ports_in) == 1 else None, list(value))
            return
        for key, item in value.items():
            self._set_tensor(int(key) if isinstance(key, (int, np.integer)) else key, item)

    @staticmethod
    def _tensor_list(tensors: Any) -> list:
        if tensors is MISSING or not isinstance(tensors, (list, tuple)):
            raise TypeError("incompatible function arguments: tensors must be a list of "
                            f"Tensor, got {type(tensors).__name__}")
        return list(tensors)

    def _set_batched(self, idx: int | None, tensors: list) -> None:
        where = ("Exception from src/inference/src/cpp/infer_request.cpp:138:\nException from "
                 "src/inference/src/cpp/infer_request.cpp:100:\n")
        if idx is None:
            raise RuntimeError(where + "set_input_tensors() must be called on a function with "
                               "exactly one parameter.\n\n\n")
        shape = list(self._ports_in[idx].get_shape())
        for t in tensors:
            if not isinstance(t, Tensor) or list(t.shape)[1:] != shape[1:] or t.shape[0] != 1:
                got = t.shape[0] if isinstance(t, Tensor) and len(t.shape) else t
                raise RuntimeError(
                    where + "Check 'item->get_shape()[batch_idx] == 1' failed at "
                    "src/inference/src/dev/isync_infer_request.cpp:47:\nset_input_tensors/"
                    f"set_tensors. Tensors shall represent one item in a batch, {got} provided"
                    "\n\n\n")
        if not shape or len(tensors) != shape[0]:
            raise RuntimeError(
                where + "Check 'batch.is_dynamic() || batch.get_length() == tensors_size' failed "
                "at src/inference/src/dev/isync_infer_request.cpp:61:\nset_input_tensors/"
                f"set_tensors error. Input shape {shape_str(shape)}batch "
                f"{shape[0] if shape else 0}doesn't match with total blobs count: {len(tensors)}"
                "\n\n\n")
        self._flush_lazy()
        self._batched[idx] = list(tensors)

    def _output_index(self, key: Any) -> int | None:
        """The output a name or port means, or None when it names no output."""
        if isinstance(key, str):
            return next((i for i, p in enumerate(self._ports_out) if key in p.get_names()), None)
        if hasattr(key, "get_index") and key in self._ports_out:
            return self._ports_out.index(key)
        return None

    def get_output_tensor(self, index: int = 0) -> Tensor:
        values = self.results  # the last results, written into the output tensors
        self._out_handed = True
        user = self._user_outputs.get(index)
        if user is None:
            return Tensor(values[index], shared_memory=True)
        return user

    def set_output_tensor(self, index: Any, tensor: Any = None) -> None:
        """Give an output a tensor of your own: results are written into it."""
        if tensor is None:
            index, tensor = 0, index
        if self._busy:
            raise self._busy_error()
        port = self._ports_out[int(index)]
        if list(tensor.shape) != list(port.get_shape()):
            raise _errors.ov_error(
                "infer.set_tensor", f"The output tensor shape {list(tensor.shape)} does not match "
                f"the model output shape {list(port.get_shape())}")
        self._user_outputs[int(index)] = tensor
        self._out_bufs.pop(int(index), None)
        self._out_filled = None

    def set_output_tensors(self, outputs: dict) -> None:
        """``{index: tensor}``: results are written into these tensors."""
        for key, value in outputs.items():
            self.set_output_tensor(int(key), value)

    def set_tensors(self, inputs: Any = MISSING, tensors: Any = MISSING, *,
                    tensor_name: Any = MISSING, port: Any = MISSING) -> None:
        """The wheel's overloads: ``set_tensors(inputs)``, input or output tensors by name,
        index or port (``{key: tensor}``); ``set_tensors(tensor_name, tensors)`` and
        ``set_tensors(port, tensors)``, a list of tensors that are each one item of that
        input's batch."""
        if tensors is not MISSING or tensor_name is not MISSING or port is not MISSING:
            key = one_of("set_tensors", inputs=inputs, tensor_name=tensor_name, port=port)
            self._set_batched(self._input_index(key), self._tensor_list(tensors))
            return
        for key, value in one_of("set_tensors", inputs=inputs).items():
            self._set_tensor(key, value)

    @property
    def input_tensors(self) -> list[Tensor]:
        return [self.get_input_tensor(i) for i in range(len(self._ports_in))]

    @property
    def output_tensors(self) -> list[Tensor]:
        return [self.get_output_tensor(i) for i in range(len(self._ports_out))]

    @property
    def model_inputs(self) -> list:
        return list(self._ports_in)

    @property
    def model_outputs(self) -> list:
        return list(self._ports_out)

    def get_compiled_model(self):
        return self._compiled

    def get_profiling_info(self) -> list:
        if self._busy:
            raise self._busy_error()
        return list(self._profile)

    @property
    def profiling_info(self) -> list:
        return self.get_profiling_info()

    def query_state(self) -> list[VariableState]:
        """One VariableState per variable of the model (none for a model without ReadValue)."""
        return [VariableState(self._variables, op) for op in self._read_values] \
            if self._variables is not None else []

    def reset_state(self) -> None:
        """Every variable back to its init value."""
        if self._variables is not None:
            self._variables.clear()
