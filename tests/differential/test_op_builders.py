"""Family d: op builders, ``openvino.opset15`` vs ovlab's current opset, on generated element
types, shapes (static and dynamic) and broadcast specs.

Starts with the binary elementwise, comparison, logical and bitwise ops (opset15's bitwise
shifts included): the output element type and shape, or the error's line; then, where the op
evaluates on the CPU, the values (a compiled model on each side, the real CPU pinned to f32)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset15 as ov_ops  # noqa: E402
from diff_harness import attempt, compare, run  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as _lab_opset  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402


class _LabOpset15:
    """ovlab's builders as the runner serves ``openvino.opset15``: ``ovlab.opset`` (opset13's
    names) with opset15's versions and additions (``opset_versions.BUILDERS``)."""

    def __getattr__(self, name):
        return opset_versions.builder("opset15", name) or getattr(_lab_opset, name)


lab_ops = _LabOpset15()

BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power",
          "squared_difference", "floor_mod", "mod", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
TYPES = ["f32", "f16", "i32", "i64", "u8", "i8", "boolean", "u16"]
BROADCAST = ["NUMPY", "NUMPY", "NUMPY", "PDPD", "PDPD", "NONE", "numpy", "pdpd", "none",
             "BIDIRECTIONAL", "bogus"]
DIMS = st.sampled_from([1, 1, 2, 3, 4, -1])


@st.composite
def shapes(draw):
    """Two shapes that often broadcast (NumPy or PDPD) and sometimes do not."""
    a = draw(st.lists(DIMS, max_size=4))
    how = draw(st.sampled_from(["same", "suffix", "ones", "random", "pdpd_mid"]))
    if how == "same":
        b = list(a)
    elif how == "suffix":
        b = a[draw(st.integers(0, len(a))):]
    elif how == "ones":
        b = [1 if draw(st.booleans()) else d for d in a]
    elif how == "pdpd_mid" and len(a) >= 2:
        k = draw(st.integers(0, len(a) - 1))
        b = a[k:k + draw(st.integers(1, len(a) - k))]
    else:
        b = draw(st.lists(DIMS, max_size=4))
    if draw(st.booleans()):
        a, b = b, a
    return a, b


def _build(mod, ops, op, ta, tb, sa, sb, bc):
    pa = ops.parameter(sa, getattr(mod.Type, ta), name="a")
    pb = ops.parameter(sb, getattr(mod.Type, tb), name="b")
    node = getattr(ops, op)(pa, pb, auto_broadcast=bc)
    return node, pa, pb


def _view(node) -> tuple:
    return (node.get_type_name(), node.get_output_element_type(0).get_type_name(),
            str(node.get_output_partial_shape(0)))


def _builder_case(op, types, pair, bc):
    ta, tb = types
    sa, sb = pair
    case = f"{op}({ta}{sa}, {tb}{sb}, auto_broadcast={bc!r})"
    real = attempt(lambda: _view(_build(ov, ov_ops, op, ta, tb, sa, sb, bc)[0]))
    lab = attempt(lambda: _view(_build(ovlab, lab_ops, op, ta, tb, sa, sb, bc)[0]))
    compare("ops/binary_builders", case, real, lab, lambda a, b: a == b)


TYPE_PAIRS = st.one_of(st.sampled_from(TYPES).map(lambda t: (t, t)),
                       st.sampled_from(TYPES).map(lambda t: (t, t)),
                       st.tuples(st.sampled_from(TYPES), st.sampled_from(TYPES)))


def test_binary_builders(request):
    """Output type and shape, or the error, for every binary op on generated types, shapes
    and broadcast specs."""
    run(request, "ops/binary_builders", 300, _builder_case, op=st.sampled_from(BINARY),
        types=TYPE_PAIRS, pair=shapes(), bc=st.sampled_from(BROADCAST))


# --- values on the CPU --------------------------------------------------------------------------
_CORES: dict[str, object] = {}


def _cores():
    if not _CORES:
        _CORES["real"], _CORES["lab"] = real_core(), lab_core("host")
    return _CORES["real"], _CORES["lab"]


def _data(t: str, shape, seed: int, positive: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if t == "boolean":
        return rng.integers(0, 2, size=shape).astype(bool)
    dtype = ov.Type(getattr(ov.Type, t)).to_dtype() if False else np.dtype(
        {"f32": np.float32, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "i8": np.int8}[t])
    lo = 1 if positive else (-5 if dtype.kind != "u" else 0)
    if dtype.kind == "f":
        x = rng.uniform(lo, 5, size=shape)
        return np.round(x, 2).astype(dtype)  # no ties at .5 after float32 rounding
    return rng.integers(lo, 6, size=shape).astype(dtype)


def _run(mod, ops, core, op, t, sa, sb, bc, xa, xb):
    node, pa, pb = _build(mod, ops, op, t, t, sa, sb, bc)
    model = mod.Model([ops.result(node, name="y")], [pa, pb], "binary")
    out = core.compile_model(model, "CPU")({"a": xa, "b": xb})
    return np.asarray(out[0])


def _value_case(op, t, pair, bc, seed):
    sa, sb = [[abs(d) for d in s] for s in pair]  # static shapes only
    positive = op in ("divide", "floor_mod", "mod", "power", "bitwise_left_shift",
                      "bitwise_right_shift")
    xa, xb = _data(t, sa, seed, False), _data(t, sb, seed + 1, positive)
    if op.startswith("bitwise_") and "shift" in op:
        xb = (xb % 4).astype(xb.dtype)
    real_c, lab_c = _cores()
    real = attempt(lambda: _run(ov, ov_ops, real_c, op, t, sa, sb, bc, xa, xb))
    lab = attempt(lambda: _run(ovlab, lab_ops, lab_c, op, t, sa, sb, bc, xa, xb))

    def same(a, b):
        return a.shape == b.shape and a.dtype == b.dtype and np.allclose(
            a.astype(np.float64), b.astype(np.float64), rtol=1e-5, atol=1e-5, equal_nan=True)

    compare("ops/binary_values", f"{op}({t}{sa}, {t}{sb}, {bc}) seed {seed}", real, lab, same)


def test_binary_values(request):
    """The values where both compile: the same outputs (f32 pinned on the real CPU)."""
    run(request, "ops/binary_values", 40, _value_case, op=st.sampled_from(BINARY),
        t=st.sampled_from(["f32", "i32", "i64", "u8", "boolean", "i8"]), pair=shapes(),
        bc=st.sampled_from(["NUMPY", "PDPD", "NONE"]), seed=st.integers(0, 3))


# --- index ops: the element types of indices and axes --------------------------------------------
INDEX_TYPES = ["i8", "u8", "i16", "u16", "i32", "i64", "u64", "f32", "boolean"]
INDEX_OPS = ["gather", "gather_nd", "gather_elements", "scatter_update",
             "scatter_elements_update", "scatter_nd_update"]


def _build_index(mod, ops, op, it, at, axis):
    """``op`` on an f32 data Parameter [4,3] with indices of type ``it`` (a Parameter) and, where
    the op has one, an axis Constant of type ``at``."""
    t = mod.Type
    data = ops.parameter([4, 3], t.f32, name="data")
    axis_c = ops.constant(np.array(axis, dtype=getattr(t, at).to_dtype()))
    upd = ops.parameter([2, 3], t.f32, name="updates")
    if op == "gather":
        return ops.gather(data, ops.parameter([2], getattr(t, it), name="i"), axis_c)
    if op == "gather_nd":
        return ops.gather_nd(data, ops.parameter([2, 1], getattr(t, it), name="i"))
    if op == "gather_elements":
        return ops.gather_elements(data, ops.parameter([2, 3], getattr(t, it), name="i"), axis)
    if op == "scatter_update":
        return ops.scatter_update(data, ops.parameter([2], getattr(t, it), name="i"),
                                  ops.parameter([2, 3] if axis == 0 else [4, 2], t.f32), axis_c)
    if op == "scatter_elements_update":
        return ops.scatter_elements_update(data, ops.parameter([2, 3], getattr(t, it), name="i"),
                                           upd, axis_c)
    return ops.scatter_nd_update(data, ops.parameter([2, 1], getattr(t, it), name="i"), upd)


def _index_case(op, it, at, axis):
    case = f"{op}(f32[4,3], indices {it}, axis {at} {axis})"
    real = attempt(lambda: _view(_build_index(ov, ov_ops, op, it, at, axis)))
    lab = attempt(lambda: _view(_build_index(ovlab, lab_ops, op, it, at, axis)))
    compare("ops/index_builders", case, real, lab, lambda a, b: a == b)


def test_index_builders(request):
    """Gather/Scatter builders on every index and axis element type: which ones OpenVINO takes
    (any integer type for Gather, GatherND, ScatterUpdate, ScatterElementsUpdate; i32/i64 for
    GatherElements and ScatterNDUpdate), the output, or the error's line."""
    run(request, "ops/index_builders", 60, _index_case, op=st.sampled_from(INDEX_OPS),
        it=st.sampled_from(INDEX_TYPES), at=st.sampled_from(INDEX_TYPES[:7]),
        axis=st.sampled_from([0, 1]))


# --- Broadcast: constant, constant-computed and Parameter target shapes --------------------------
def _build_broadcast(mod, ops, shape, target, how, mode):
    t = mod.Type
    data = ops.parameter(shape, t.f32, name="data")
    if how == "constant":
        tgt = ops.constant(np.array(target, np.int64))
    elif how == "shape_of":
        tgt = ops.shape_of(ops.parameter(target, t.f32, name="like"))
    else:  # a Parameter: the target is known only at run time
        tgt = ops.parameter([len(target)], t.i64, name="target")
    return ops.broadcast(data, tgt, broadcast_spec=mode)


def _broadcast_case(pair, how, mode):
    shape, target = pair
    shape = [abs(d) for d in shape]
    target = [abs(d) for d in target]
    case = f"broadcast(f32{shape}, target={'Parameter' if how == 'parameter' else how}" \
           f"{target}, {mode})"
    real = attempt(lambda: _view(_build_broadcast(ov, ov_ops, shape, target, how, mode)))
    lab = attempt(lambda: _view(_build_broadcast(ovlab, lab_ops, shape, target, how, mode)))
    compare("ops/broadcast_builders", case, real, lab, lambda a, b: a == b)


def test_broadcast_builders(request):
    """Broadcast to a target given as a Constant, as ShapeOf of another input (folded: static),
    or as a Parameter (dynamic: a known difference, ovlab's models are static)."""
    run(request, "ops/broadcast_builders", 60, _broadcast_case, pair=shapes(),
        how=st.sampled_from(["constant", "constant", "shape_of", "parameter"]),
        mode=st.sampled_from(["NUMPY", "BIDIRECTIONAL", "numpy", "bidirectional"]))


# --- StridedSlice: masks as lists, tuples and arrays ---------------------------------------------
def _as(kind, mask):
    if kind == "list":
        return list(mask)
    if kind == "tuple":
        return tuple(mask)
    return np.array(mask, dtype=np.int32 if kind == "int32" else np.int64)


def _build_slice(mod, ops, begin, end, masks, kind):
    data = ops.parameter([2, 3, 4], mod.Type.f32, name="data")
    return ops.strided_slice(data, np.array(begin, np.int64), np.array(end, np.int64),
                             np.ones(len(begin), np.int64), *(_as(kind, m) for m in masks))


MASK = st.lists(st.integers(0, 1), min_size=3, max_size=3)


def _slice_case(begin, end, masks, kind):
    # begin and end as tuples: a list with -1 would read as a dynamic shape to the list of
    # known differences
    case = f"strided_slice(f32[2,3,4], {tuple(begin)}, {tuple(end)}, masks {masks} as {kind})"
    real = attempt(lambda: _view(_build_slice(ov, ov_ops, begin, end, masks, kind)))
    lab = attempt(lambda: _view(_build_slice(ovlab, lab_ops, begin, end, masks, kind)))
    compare("ops/strided_slice_builders", case, real, lab, lambda a, b: a == b)


def test_strided_slice_builders(request):
    """The five masks given as lists, tuples or int32/int64 arrays (OpenVINO's own tests pass
    arrays): the same output shape, or the same error."""
    run(request, "ops/strided_slice_builders", 60, _slice_case,
        begin=st.lists(st.integers(-2, 2), min_size=1, max_size=3),
        end=st.lists(st.integers(-3, 3), min_size=1, max_size=3),
        masks=st.lists(MASK, min_size=5, max_size=5),
        kind=st.sampled_from(["list", "tuple", "int32", "int64"]))
