"""The one place a test gets a real ``openvino`` Core: with the CPU's precision pinned to f32.

Why: the real CPU plugin chooses its default ``INFERENCE_PRECISION_HINT`` from the host it runs
on: f32 on an AVX2-only CPU, bf16 on one with AVX512_BF16 or AMX. A test that compares ovlab's
numbers with the real wheel without pinning it passes on one machine and fails on the next
(interpolations read -1.3333334 here and -1.3359375 on a bf16 host). Describing the host as
another CPU cannot catch that: the real wheel always runs on the real host. So every comparison
takes its Cores from here, where both sides compute in f32, and the suite is host-free by
construction:

- :func:`real_core` is the real ``openvino.Core`` with ``{"INFERENCE_PRECISION_HINT": "f32"}``
  set on ``CPU``;
- :func:`lab_core` is ovlab's Core on a platform (``host`` by default), pinned the same way;
- :func:`install_guard` (an autouse fixture in ``tests/conftest.py``) makes a test fail when it
  compiles on the real wheel (successfully) through a Core that is not pinned and with no precision in the
  compile's own config, unless the test is marked ``host_precision`` (a test *about* the host's
  default precision, which then compares with that precision's tolerance:
  :func:`precision_tolerance`);
- ``tests/test_pinned_precision.py`` reads the test code and fails on a real ``Core`` made
  anywhere but here.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

import pytest

#: what every comparison with the real CPU plugin pins
PIN = {"INFERENCE_PRECISION_HINT": "f32"}
_KEY = "INFERENCE_PRECISION_HINT"
_MARK = "_ovlab_cpu_precision_pinned"


def real_core(pinned: bool = True) -> Any:
    """A fresh real ``openvino.Core``; the CPU's precision pinned to f32 unless ``pinned=False``
    (only for tests marked ``host_precision``)."""
    import openvino

    core = openvino.Core()
    if pinned:
        core.set_property("CPU", dict(PIN))
    return core


def lab_core(platform: str = "host", seed: int = 0, pinned: bool = True) -> Any:
    """ovlab's Core on ``platform``, its CPU pinned to f32 as :func:`real_core` pins the real
    one (ovlab's virtual CPU computes bf16 by default where its platform's CPU has
    AVX512_BF16 or AMX, as the real plugin does)."""
    import ovlab

    core = ovlab.Core(platform, seed=seed)
    if pinned:
        core.set_property("CPU", dict(PIN))
    return core


def precision_name(value: Any) -> str:
    """'f32', 'bf16' or 'f16' from an ``INFERENCE_PRECISION_HINT`` value of either runtime
    (``<Type: 'bfloat16'>``, a ``Type``, or a string)."""
    text = str(value)
    for name, short in (("bfloat16", "bf16"), ("bf16", "bf16"), ("float16", "f16"),
                        ("f16", "f16")):
        if name in text:
            return short
    return "f32"


def real_default_precision() -> str:
    """The real CPU plugin's default precision on this host: 'f32' or 'bf16' (or 'f16')."""
    return precision_name(real_core(pinned=False).get_property("CPU", _KEY))


def precision_tolerance(precision: str) -> dict[str, float]:
    """``numpy.testing.assert_allclose`` tolerances for outputs computed in ``precision``:
    bf16 keeps 8 mantissa bits (one rounding is up to 2**-8 relative), f16 11, f32 24 (a
    few ulps of reordered sums). ``atol`` is relative to the output's scale, so callers
    multiply it by ``max |reference|``."""
    return {"bf16": {"rtol": 2 ** -6, "atol": 2 ** -6},
            "f16": {"rtol": 2 ** -9, "atol": 2 ** -9}}.get(precision, {"rtol": 1e-5, "atol": 1e-6})


def host_summary() -> str:
    """One line on the host: CPU name, the ISA flags that change what the real plugin does,
    and the real CPU plugin's default precision (printed first by ``make test``)."""
    from ovlab.sim.hardware import host

    info = host.describe()
    flags = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16",
                         "avx512_fp16", "amx_bf16", "amx_int8") if f in info.flags]
    try:
        default = real_default_precision()
    except ImportError:
        default = "(real wheel not installed)"
    isa = " ".join(flags) or "none of note"
    return (f"host: {info.model} | {info.threads} logical CPUs | ISA: {isa}"
            f" | real CPU plugin default precision: {default}")


def _pinned_config(config: Any) -> bool:
    return isinstance(config, dict) and any(str(k) == _KEY for k in config)


def _sets_cpu_precision(args: tuple, kwargs: dict) -> bool:
    """Whether a ``Core.set_property`` call pins the CPU's precision (``set_property("CPU",
    {...})`` or the global ``set_property({...})``)."""
    if len(args) == 2 and isinstance(args[1], dict):
        return "CPU" in str(args[0]) and _pinned_config(args[1])
    if len(args) == 1 and isinstance(args[0], dict):
        return _pinned_config(args[0])
    if len(args) == 2 and str(args[0]) == _KEY:  # set_property("INFERENCE_PRECISION_HINT", v)
        return True
    return False


def check_compile(core: Any, config: Any) -> None:
    """Fail the test (``pytest.fail``, which no ``except Exception`` swallows) unless ``core``
    was pinned or ``config`` pins."""
    if getattr(core, _MARK, False) or _pinned_config(config):
        return
    pytest.fail(
        "this test compiled on the real CPU plugin with the host's default precision (bf16 on "
        "an AVX512_BF16 or AMX host, f32 elsewhere): take the Core from real_wheel.real_core() "
        "or put INFERENCE_PRECISION_HINT in the compile's config; a test about the host's "
        "default precision is marked @pytest.mark.host_precision")


def install_guard(monkeypatch: pytest.MonkeyPatch) -> bool:
    """Wrap the real wheel's ``Core.set_property`` and ``Core.compile_model`` for one test, if
    the real wheel has been imported (collection imports it for the tests that use it)."""
    ov = sys.modules.get("openvino")
    core_cls = getattr(ov, "Core", None)
    if core_cls is None or not getattr(core_cls, "__module__", "").startswith("openvino."):
        return False  # no real wheel here (or the runner's served module)
    set_property = core_cls.set_property
    compile_model = core_cls.compile_model

    @functools.wraps(set_property)
    def pinning_set_property(self, *args, **kwargs):
        result = set_property(self, *args, **kwargs)
        if _sets_cpu_precision(args, kwargs):
            setattr(self, _MARK, True)
        return result

    @functools.wraps(compile_model)
    def guarded_compile_model(self, *args, **kwargs):
        config = kwargs.get("config", args[2] if len(args) > 2 else None)
        if config is None and len(args) == 2 and isinstance(args[1], dict):
            config = args[1]  # compile_model(model, config)
        compiled = compile_model(self, *args, **kwargs)  # an error is the wheel's, whatever
        check_compile(self, config)  # the precision; a compile that succeeds must be pinned
        return compiled

    monkeypatch.setattr(core_cls, "set_property", pinning_set_property)
    monkeypatch.setattr(core_cls, "compile_model", guarded_compile_model)
    return True


class LabOpset:
    """ovlab's builders as the runner serves ``openvino.opsetN`` (``opset`` "opset15"...): the
    version's own builder where one differs, otherwise ``ovlab.opset``'s."""

    def __init__(self, opset: str) -> None:
        self._opset = opset

    def __getattr__(self, name: str) -> Any:
        import ovlab
        from ovlab.sim.graph import opset_versions

        return opset_versions.builder(self._opset, name) or getattr(ovlab.opset, name)


def run_both(build: Any, inputs: list, lab_ops: Any, real_ops: Any) -> list[tuple]:
    """Build ``build(ops, params)`` over Parameters shaped as ``inputs`` with ovlab's builders
    and the wheel's, compile each on its CPU (pinned to f32), infer ``inputs``; for ovlab, then
    the wheel: (each output's element type name, each one's partial shape as text, each one's
    value)."""
    import openvino as ov

    import ovlab

    outs = []
    for ops, core, model_cls in ((lab_ops, lab_core, ovlab.Model),
                                 (real_ops, real_core, ov.Model)):
        params = [ops.parameter(list(x.shape), x.dtype, name=f"in{i}")
                  for i, x in enumerate(inputs)]
        node = build(ops, params)
        compiled = core().compile_model(model_cls(node.outputs(), params), "CPU")
        res = compiled.create_infer_request().infer(dict(enumerate(inputs)))
        outs.append(([o.get_element_type().get_type_name() for o in node.outputs()],
                     [str(o.get_partial_shape()) for o in node.outputs()],
                     [res[o] for o in compiled.outputs]))
    return outs


if __name__ == "__main__":  # `make test` prints this line first
    print(host_summary())
