"""The stored real CPU plugin outputs of ``tests/data/bf16-host`` rebuilt with ovlab.

The cases are built by the very builders of ``make_refs.py`` (the regeneration script), with
``openvino``/``openvino.opset13``/``openvino.opset11`` standing for ovlab's modules, so the graph
ovlab runs is the one the real plugin ran; :func:`check_nodes` compares it with the manifest's node
list. Used by ``tests/graph/test_bf16_cpu.py`` and ``benchmarks/bench_bf16.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from functools import cache
from pathlib import Path

import numpy as np

import ovlab
import ovlab.opset13
from ovlab import opset

DATA = Path(__file__).resolve().parents[1] / "data" / "bf16-host"
BF16_ULP = 2.0 ** -8  # spacing of bf16 values in [1, 2): one rounding is at most half of this


@cache
def manifest() -> dict:
    return json.loads((DATA / "manifest.json").read_text())


def cases(group: str | None = None) -> list[dict]:
    return [c for c in manifest()["cases"] if c["group"] != "zoo"
            and (group is None or c["group"] == group)]


@cache
def builders() -> dict[str, tuple]:
    """case id -> (label, group, seed, build function) from make_refs.py, run on ovlab."""
    ov = types.ModuleType("openvino")  # ovlab's Model/Type/Core, its opsets as submodules
    ov.Model, ov.Type, ov.Core = ovlab.Model, ovlab.Type, ovlab.Core  # type: ignore[attr-defined]
    ov.opset13 = ovlab.opset13  # type: ignore[attr-defined]
    ov.opset11 = types.ModuleType("openvino.opset11")  # type: ignore[attr-defined]
    ov.opset11.interpolate = opset.interpolate  # Interpolate-11
    fake = {"openvino": ov, "openvino.opset13": ov.opset13, "openvino.opset11": ov.opset11}
    saved = {k: sys.modules.get(k) for k in fake}
    try:
        sys.modules.update(fake)  # type: ignore[arg-type]
        spec = importlib.util.spec_from_file_location("_bf16_make_refs", DATA / "make_refs.py")
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return {cid: (op, group, seed, fn, mod) for cid, op, group, seed, fn in mod.CASES}


def build(case: dict) -> tuple[ovlab.Model, dict[str, np.ndarray], dict]:
    """The case's model, its inputs by name (the stored arrays) and the stored npz."""
    op, group, seed, fn, mod = builders()[case["id"]]
    b = mod.Builder(seed)
    outs = fn(b)
    outs = [o.output(0) if hasattr(o, "output") and not hasattr(o, "get_node") else o
            for o in outs]
    model = ovlab.Model(outs, b.params, case["id"])
    data = dict(np.load(DATA / case["npz"]))
    for k, v in b.consts.items():  # same seed, same draws: the stored weights
        np.testing.assert_array_equal(v, data[f"const_{k}"])
    inputs = {k[3:]: v for k, v in data.items() if k.startswith("in_")}
    return model, inputs, data


def check_nodes(model: ovlab.Model, case: dict) -> None:
    """The rebuilt graph has the manifest's ops (type, version, output shapes) in order."""
    got = [(n.get_type_name(), [list(o.get_shape()) for o in n.outputs()])
           for n in model.get_ordered_ops()
           if n.get_type_name() not in ("Parameter", "Result", "Constant")]
    want = [(n["type"], n["output_shapes"]) for n in case["nodes"]]
    assert sorted(map(str, got)) == sorted(map(str, want)), (got, want)


def run(model: ovlab.Model, inputs: dict[str, np.ndarray], hint: str) -> list[np.ndarray]:
    """``model`` on the ``cpu`` preset's CPU (AVX512_BF16) with ``INFERENCE_PRECISION_HINT``."""
    core = ovlab.Core("cpu")
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": hint})
    res = compiled.create_infer_request().infer(inputs)
    return [np.array(res[o]) for o in compiled.outputs]


def normalized_error(got: np.ndarray, ref: np.ndarray) -> float:
    """max |got - ref| / max |ref| (0 for equal bool outputs, 1 for any bool mismatch)."""
    if ref.dtype == np.bool_:
        return float(np.any(got != ref))
    scale = float(np.max(np.abs(ref))) or 1.0
    return float(np.max(np.abs(got.astype(np.float64) - ref))) / scale


def exact_fraction(got: np.ndarray, ref: np.ndarray) -> float:
    return float(np.mean(got == ref))


def ulp_error(got: np.ndarray, ref: np.ndarray, floor: float) -> float:
    """max over elements of |got - ref| in bf16 ulps of max(|ref|, floor)."""
    if ref.dtype == np.bool_:
        return float(np.any(got != ref)) * 1e9
    mag = np.maximum(np.abs(ref.astype(np.float64)), floor)
    ulp = 2.0 ** (np.floor(np.log2(mag)) - 7)
    return float(np.max(np.abs(got.astype(np.float64) - ref) / ulp))
