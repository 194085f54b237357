"""Family a: device strings and properties through ``compile_model``, ``query_model``,
``set_property`` and ``get_property``, openvino vs ovlab ``host``.

Names are generated over the CPU (the one device the real wheel has here) and unknown names:
prefixes AUTO/MULTI/HETERO/BATCH or none, lists of tokens with priorities, indexes, brackets,
batch sizes and ``-`` exclusions, and malformed text. GPU and NPU are left out: the real wheel
here lacks their plugins' libraries, so its messages about them are not OpenVINO's on a
machine that has them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset13 as ov_ops  # noqa: E402
from diff_harness import attempt, compare, run  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as lab_ops  # noqa: E402

_W = np.random.default_rng(36).standard_normal((8, 4)).astype(np.float32)


def _mlp(mod, ops):
    x = ops.parameter([1, 8], mod.Type.f32, name="x")
    mm = ops.matmul(x, ops.constant(_W, name="w"), False, False, name="mm")
    res = ops.result(ops.relu(mm, name="relu"), name="y")
    return mod.Model([res], [x], "mlp")


REAL_MODEL = _mlp(ov, ov_ops)
LAB_MODEL = _mlp(ovlab, lab_ops)
_CORES: dict[str, object] = {}


def _cores():
    if not _CORES:
        _CORES["real"], _CORES["lab"] = real_core(), lab_core("host")
    return _CORES["real"], _CORES["lab"]


# --- generated device names -----------------------------------------------------------------
NAMES = st.sampled_from(["CPU", "CPU", "CPU", "CPU.0", "CPU.1", "CPU.x", "FOO", "FOO.1", "cpu",
                         "", "CPU:CPU", "AUTO", "MULTI", "HETERO", "BATCH", "CPU(4)"])
PRIO = st.sampled_from(["", "", "", "(4)", "(1)", "(0)", "(-1)", "(x)", "()", "(", ")", "(2", "((1))"])


@st.composite
def token(draw):
    minus = draw(st.sampled_from(["", "", "", "-"]))
    return minus + draw(NAMES) + draw(PRIO)


@st.composite
def device_string(draw):
    kind = draw(st.sampled_from(["plain", "meta", "meta", "meta", "raw"]))
    if kind == "plain":
        return draw(token())
    if kind == "raw":
        return draw(st.text(alphabet="CPUAOTMLHERBX:,().-04 ", max_size=12))
    prefix = draw(st.sampled_from(["AUTO", "MULTI", "HETERO", "BATCH"]))
    tokens = draw(st.lists(token(), min_size=0, max_size=3))
    sep = draw(st.sampled_from([",", ",", ",", ":", ", ", ";"]))
    tail = draw(st.sampled_from(["", "", "", ",", ")", "("]))
    return f"{prefix}:{sep.join(tokens)}{tail}"


def _devices_of(compiled) -> object:
    return compiled.get_property("EXECUTION_DEVICES")


def _compile_case(device):
    real_c, lab_c = _cores()
    real = attempt(lambda: _devices_of(real_c.compile_model(REAL_MODEL, device)))
    lab = attempt(lambda: _devices_of(lab_c.compile_model(LAB_MODEL, device)))
    compare("device/compile_model", f"compile_model({device!r})", real, lab,
            lambda a, b: list(a) == list(b))


def test_compile_model_device_strings(request):
    """``compile_model(model, device)``: the same names compile (on the same execution devices)
    and the same names fail with the same error."""
    run(request, "device/compile_model", 120, _compile_case, device=device_string())
