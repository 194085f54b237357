"""Bad input at the Core, openvino vs ovlab: malformed device strings, unknown keys and values of
the wrong type through ``compile_model``, ``query_model``, ``get_property`` and ``set_property``.

Every call is made on a fresh Core of each runtime (the real one from ``tests/real_wheel.py``)
and must end the same way: the same value, or the same exception type with the same meaningful
(last) line. GPU and NPU names are left out: the real wheel here lacks their plugins' libraries,
so its messages about them are not OpenVINO's on a machine that has them. Two calls crash the
real wheel and are never made: ``query_model`` on a device list that excludes a meta device
(``"AUTO:-MULTI"``, SIGSEGV) and a HETERO ``MODEL_DISTRIBUTION_POLICY`` text other than
PIPELINE_PARALLEL read back from a fresh Core (SIGSEGV; docs/differential-tests.md).
"""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset13 as ov_ops  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as lab_ops  # noqa: E402

DEVICES = ["AUTO:CPU)", "AUTO:(CPU", "AUTO:(CPU)", "MULTI:", "MULTI:CPU(", "MULTI:,CPU",
           "HETERO:CPU,,FOO", "HETERO:", "HETERO:,CPU", "BATCH:CPU(0)", "BATCH:CPU(-2)",
           "BATCH:(CPU)", "BATCH:CPU(2)(3)", "BATCH:", "CPU.99", "CPU.-1", "CPU.", "CPU:",
           ":CPU", "AUTO::CPU", "AUTO:CPU,", "AUTO:-CPU,-FOO", "-", "(", "CPU)", " CPU"]
PROPERTIES = [("FOO_KEY", 1), ("PERF_COUNT", "maybe"), ("PERF_COUNT", 2), ("NUM_STREAMS", "many"),
              ("NUM_STREAMS", -3), ("INFERENCE_NUM_THREADS", -1), ("PERFORMANCE_HINT", 5),
              ("PERFORMANCE_HINT", "FAST"), ("INFERENCE_PRECISION_HINT", "f64"),
              ("EXECUTION_MODE_HINT", "QUICK"), ("LOG_LEVEL", "LOUD"), ("ENABLE_MMAP", "maybe"),
              ("MODEL_PRIORITY", "URGENT"), ("CACHE_DIR", 5)]
_W = np.random.default_rng(36).standard_normal((8, 4)).astype(np.float32)


def _model(mod, ops):
    x = ops.parameter([1, 8], mod.Type.f32, name="x")
    mm = ops.matmul(x, ops.constant(_W, name="w"), False, False, name="mm")
    return mod.Model([ops.result(ops.relu(mm, name="relu"), name="y")], [x], "mlp")


MODELS = {"real": _model(ov, ov_ops), "lab": _model(ovlab, lab_ops)}


def _outcome(fn) -> tuple:
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
        lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
        return ("raises", type(exc).__name__, lines[-1] if lines else "")
    return ("returns", value)


def _both(call) -> tuple[tuple, tuple]:
    return (_outcome(lambda: call(real_core(), MODELS["real"])),
            _outcome(lambda: call(lab_core("host"), MODELS["lab"])))


def _devices(compiled) -> list[str]:
    return list(compiled.get_property("EXECUTION_DEVICES"))


@pytest.mark.parametrize("device", DEVICES)
def test_malformed_device_strings_fail_as_openvino(device):
    calls = {
        "compile_model": lambda core, m: _devices(core.compile_model(m, device)),
        "query_model": lambda core, m: sorted(set(core.query_model(m, device).values())),
        "get_property": lambda core, m: type(core.get_property(device, "PERF_COUNT")).__name__,
        "set_property": lambda core, m: core.set_property(device, {"PERF_COUNT": True}),
    }
    for name, call in calls.items():
        real, lab = _both(call)
        assert lab == real, f"{name}({device!r})"


@pytest.mark.parametrize("key, value", PROPERTIES)
@pytest.mark.parametrize("device", ["CPU", "AUTO", "HETERO:CPU", "BATCH:CPU"])
def test_bad_keys_and_values_fail_as_openvino(device, key, value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # CACHE_DIR=5 makes a folder "5" where the process runs
    def compile_with(core, m):
        return _devices(core.compile_model(m, device, {key: value}))

    def set_then_get(core, m):
        target = device.split(":", 1)[0]
        core.set_property(target, {key: value})
        return str(core.get_property(target, key))

    for name, call in (("compile_model", compile_with), ("set_property", set_then_get)):
        real, lab = _both(call)
        assert lab == real, f"{name}({device!r}, {{{key!r}: {value!r}}})"
