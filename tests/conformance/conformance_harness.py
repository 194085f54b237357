"""Conformance helpers: the same small scripts against the real ``openvino`` and ovlab "host".

Each test runs one script on both runtimes and compares what the API returns: Python types of
property values, error texts (the exception type, the first ``Exception from src/...`` line of the
API that was called, and the meaningful last line), request and queue behaviour, and numerics.
ovlab runs on its ``host`` platform: this machine's CPU as OpenVINO names it (timed as the
``cpu`` preset). The tests run on any machine, and once more with the host described as another
vendor's CPU (``fake_hosts.py``, ``tests/test_any_machine.py``), so *values* that describe the
hardware (device name, capabilities, stream range, cores, default precision, timing) are compared
by type only; what a learner's code depends on (names, types, errors, counts) must match.

The models are built by one function that takes the opset module and the ``Model``/``Type``
classes, so the graph given to both runtimes is identical (same ops, names and weights).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset13 as ov_ops  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as ovlab_ops  # noqa: E402


# --- the two runtimes ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Runtime:
    """What a script needs from one runtime: its module, opset and a fresh Core."""

    name: str
    mod: Any
    ops: Any
    new_core: Callable[[], Any]

    @property
    def Model(self):  # noqa: N802 - mirrors ov.Model
        return self.mod.Model

    @property
    def Type(self):  # noqa: N802 - mirrors ov.Type
        return self.mod.Type

    @property
    def AsyncInferQueue(self):  # noqa: N802 - mirrors ov.AsyncInferQueue
        return self.mod.AsyncInferQueue

    @property
    def InferRequest(self):  # noqa: N802 - mirrors ov.InferRequest
        return self.mod.InferRequest

    def __repr__(self) -> str:
        return self.name


# Both Cores pin the CPU's precision to f32 (tests/real_wheel.py): the real plugin's default is
# the host's (bf16 on AVX512_BF16 / AMX machines), and a comparison must not depend on the host.
REAL = Runtime("openvino", ov, ov_ops, real_core)
# seed fixed so every ovlab run of a test is the same timeline
LAB = Runtime("ovlab", ovlab, ovlab_ops, lambda: lab_core("host", seed=0))
RUNTIMES = [REAL, LAB]

# Property keys ovlab may list although OpenVINO does not: by convention they start with
# "OVLAB_" (or "_OVLAB_" for the internal keys its meta plugins pass down). None exist yet.
OVLAB_OWN_PREFIXES = ("OVLAB_", "_OVLAB_")


def ovlab_own(key: str) -> bool:
    return str(key).startswith(OVLAB_OWN_PREFIXES)


# --- models built the same way on both runtimes ----------------------------------------------------
_W = np.random.default_rng(20260401)
CONV_W = (_W.standard_normal((8, 3, 3, 3)) * 0.1).astype(np.float32)
FC_W = (_W.standard_normal((8 * 16 * 16, 10)) * 0.01).astype(np.float32)
MLP_W1 = _W.standard_normal((16, 32)).astype(np.float32)
MLP_B1 = _W.standard_normal((1, 32)).astype(np.float32)
MLP_W2 = _W.standard_normal((32, 4)).astype(np.float32)


def conv_net(ops, Model, Type, batchable: bool = True, name: str = "tiny_convnet"):  # noqa: N803
    """The probe's ``conv_net``: Parameter[1,3,32,32] -> Convolution -> Relu -> MaxPool ->
    Reshape -> MatMul -> Softmax -> Result "output".

    ``batchable=True`` flattens with ``[0, -1]`` and ``special_zero`` (BATCH:CPU(4) really
    batches it); ``False`` uses the constant ``[1, 2048]`` of the probe (BATCH falls back).
    """
    x = ops.parameter([1, 3, 32, 32], Type.f32, name="input")
    w = ops.constant(CONV_W, name="conv_w")
    conv = ops.convolution(x, w, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                           dilations=[1, 1], name="conv1")
    relu = ops.relu(conv, name="relu1")
    pool = ops.max_pool(relu, strides=[2, 2], dilations=[1, 1], pads_begin=[0, 0],
                        pads_end=[0, 0], kernel_shape=[2, 2], name="pool1")
    target = [0, -1] if batchable else [1, 8 * 16 * 16]
    shape = ops.constant(np.array(target, dtype=np.int64), name="flat_shape")
    flat = ops.reshape(pool.output(0), shape, special_zero=batchable, name="flatten")
    fc_w = ops.constant(FC_W, name="fc_w")
    mm = ops.matmul(flat, fc_w, transpose_a=False, transpose_b=False, name="fc")
    sm = ops.softmax(mm, axis=1, name="prob")
    res = ops.result(sm, name="output")
    return Model([res], [x], name)


def mlp(ops, Model, Type, name: str = "tiny_mlp"):  # noqa: N803
    """The probe's ``mlp``: Parameter[1,16] -> MatMul -> Add -> Relu -> MatMul -> Softmax."""
    x = ops.parameter([1, 16], Type.f32, name="x")
    w1 = ops.constant(MLP_W1, name="w1")
    b1 = ops.constant(MLP_B1, name="b1")
    h = ops.relu(ops.add(ops.matmul(x, w1, False, False, name="mm1"), b1, name="add1"),
                 name="relu")
    w2 = ops.constant(MLP_W2, name="w2")
    out = ops.matmul(h, w2, False, False, name="mm2")
    sm = ops.softmax(out, axis=1, name="softmax")
    res = ops.result(sm, name="probs")
    return Model([res], [x], name)


def build(rt: Runtime, which: str = "conv", **kw):
    """``conv_net`` or ``mlp`` for runtime ``rt``."""
    fn = conv_net if which == "conv" else mlp
    return fn(rt.ops, rt.Model, rt.Type, **kw)


CONV_X = np.random.default_rng(1).standard_normal((1, 3, 32, 32)).astype(np.float32)
MLP_X = np.random.default_rng(2).standard_normal((1, 16)).astype(np.float32)


# --- comparing outcomes --------------------------------------------------------------------------
def meaningful_line(message: str) -> str:
    """The last non-empty line of an OpenVINO error (what a learner reads)."""
    lines = [ln for ln in str(message).splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def api_line(message: str) -> str:
    """The first line: ``Exception from src/...:<line>:`` of the API that was called."""
    return str(message).splitlines()[0] if str(message) else ""


def kind(value: Any) -> str:
    """A runtime-neutral name for a value's Python type.

    Builtins by their exact type (a ``str`` subclass or an enum is not a ``str``); enums by
    their class name (``PerformanceMode``, ``Priority``...) since both runtimes spell them
    alike; element types as ``Type``; lists and tuples with the kinds of their items.
    """
    if type(value) in (bool, int, float, str):
        return type(value).__name__
    if isinstance(value, (list, tuple)):
        inner = sorted({kind(v) for v in value})
        return f"{type(value).__name__}[{','.join(inner)}]"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


@dataclass
class Outcome:
    """What a call did: returned a value, or raised."""

    value: Any = None
    exc: BaseException | None = None

    @property
    def raised(self) -> bool:
        return self.exc is not None

    @property
    def exc_type(self) -> type | None:
        return type(self.exc) if self.exc is not None else None

    @property
    def message(self) -> str:
        return str(self.exc) if self.exc is not None else ""

    def summary(self) -> tuple:
        """(``"raises"``, type name, meaningful line) or (``"returns"``, kind)."""
        if self.raised:
            return ("raises", type(self.exc).__name__, meaningful_line(self.message))
        return ("returns", kind(self.value))


def attempt(fn: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=fn())
    except Exception as exc:  # noqa: BLE001 - the outcome is what we compare
        return Outcome(exc=exc)


def assert_same_error(real: Outcome, lab: Outcome, *, first_line: bool = True) -> None:
    """Both raised exactly ``RuntimeError`` with the same meaningful line (and API line)."""
    assert real.raised, f"openvino did not raise (returned {real.value!r})"
    assert lab.raised, f"ovlab did not raise (returned {lab.value!r}); openvino: {real.message!r}"
    assert type(real.exc) is RuntimeError, f"openvino raised {type(real.exc)}"
    assert type(lab.exc) is RuntimeError, (
        f"ovlab raised {type(lab.exc).__name__}: {lab.message!r} (openvino: RuntimeError)")
    assert meaningful_line(lab.message) == meaningful_line(real.message), (
        f"\n openvino: {real.message!r}\n ovlab:    {lab.message!r}")
    if first_line:
        assert api_line(lab.message) == api_line(real.message), (
            f"\n openvino: {real.message!r}\n ovlab:    {lab.message!r}")


def assert_same_outcome(real: Outcome, lab: Outcome, what: str = "") -> None:
    """Both returned values of the same kind, or both raised the same OpenVINO error."""
    if real.raised and type(real.exc) is RuntimeError:
        assert_same_error(real, lab)
        return
    assert real.summary() == lab.summary(), (
        f"{what}\n openvino: {real.summary()} {real.value!r}{real.message!r}"
        f"\n ovlab:    {lab.summary()} {lab.value!r}{lab.message!r}")


def both(script: Callable[[Runtime], Any]) -> tuple[Outcome, Outcome]:
    """Run ``script(rt)`` on openvino then ovlab; return both outcomes."""
    return attempt(lambda: script(REAL)), attempt(lambda: script(LAB))
