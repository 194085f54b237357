"""Family c: ``Dimension``, ``PartialShape``, ``Layout``, ``Type`` and ``Tensor`` constructors
and operators, ``openvino`` vs ovlab (the classes ``import ovlab as ov`` serves).

Each case builds the same objects on both sides and compares what a learner sees: the outcome
(value or error line) of the constructor, then ``str()`` and the answers of the queries and
operators."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

from diff_harness import attempt, compare, run  # noqa: E402

import ovlab  # noqa: E402

INTS = st.sampled_from([-1, 0, 1, 2, 3, 5])
DIM_ARGS = st.one_of(st.tuples(INTS), st.tuples(INTS, INTS), st.just(()),
                     st.tuples(st.sampled_from(["?", "1..3", "-1", "4", "..5", "2..", "x", "", "3.."])))


def _dim_view(d) -> dict:
    out = {"str": str(d)}
    for q in ("is_static", "is_dynamic", "get_min_length", "get_max_length"):
        out[q] = attempt(getattr(d, q)).value if hasattr(d, q) else "missing"
    return out


def _dim_case(a, b):
    def script(mod):
        da, db = mod.Dimension(*a), mod.Dimension(*b)
        view = {"a": _dim_view(da), "b": _dim_view(db), "eq": da == db}
        for op in ("compatible", "relaxes", "refines"):
            view[op] = attempt(lambda op=op: getattr(da, op)(db)).cls()
            r = attempt(lambda op=op: getattr(da, op)(db))
            view[op + "_v"] = r.value
        view["&"] = attempt(lambda: str(da & db)).value
        view["get_length"] = attempt(da.get_length).cls()
        return view

    compare("types/Dimension", f"Dimension{a} vs Dimension{b}", attempt(lambda: script(ov)),
            attempt(lambda: script(ovlab)), lambda x, y: x == y)


def test_dimension(request):
    run(request, "types/Dimension", 120, _dim_case, a=DIM_ARGS, b=DIM_ARGS)


SHAPE_ITEMS = st.one_of(INTS, st.sampled_from(["?", "1..3", "-1", "..4", "2.."]))
SHAPE_ARGS = st.one_of(
    st.lists(INTS, max_size=4),
    st.lists(SHAPE_ITEMS, max_size=4),
    st.sampled_from(["[1,3,224,224]", "[?,3,-1,5]", "[1..3, 4]", "[]", "...", "[...]", "1,2",
                     "[1,2", "[a]", "[1,?,..5,3..]", "", "[ 2 , 3 ]"]))


def _shape_view(s) -> dict:
    out = {"str": str(s)}
    for q in ("is_static", "is_dynamic", "rank", "all_non_negative"):
        r = attempt(lambda q=q: getattr(s, q))
        v = r.value
        out[q] = (v() if callable(v) else str(v)) if not r.raised else r.cls()
    out["to_shape"] = attempt(lambda: str(s.to_shape())).cls()
    out["min"] = attempt(lambda: str(s.get_min_shape())).value
    out["max"] = attempt(lambda: str(s.get_max_shape())).value
    out["len"] = attempt(lambda: len(s)).value
    out["[0]"] = attempt(lambda: str(s[0])).value
    out["[-1]"] = attempt(lambda: str(s[-1])).value
    return out


def _shape_case(a, b):
    def make(mod, x):
        if isinstance(x, list) and any(isinstance(v, str) for v in x):
            return mod.PartialShape([mod.Dimension(v) if isinstance(v, str) else v for v in x])
        return mod.PartialShape(x)

    def script(mod):
        sa, sb = make(mod, a), make(mod, b)
        view = {"a": _shape_view(sa), "b": _shape_view(sb), "eq": sa == sb}
        for op in ("compatible", "relaxes", "refines", "same_scheme"):
            r = attempt(lambda op=op: getattr(sa, op)(sb))
            view[op] = r.value if not r.raised else r.cls()
        return view

    real, lab = attempt(lambda: script(ov)), attempt(lambda: script(ovlab))
    compare("types/PartialShape", f"PartialShape({a!r}) vs PartialShape({b!r})", real, lab,
            lambda x, y: x == y)


def test_partial_shape(request):
    run(request, "types/PartialShape", 120, _shape_case, a=SHAPE_ARGS, b=SHAPE_ARGS)


LAYOUTS = st.sampled_from(["NCHW", "NHWC", "NC", "C", "N...C", "...", "NC?", "??", "[N,C,H,W]",
                           "[n, c]", "NCHWN", "ncHW", "", "N..C", "[N,,C]", "N.C", "...C...",
                           "[batch, seq]", "?...", "1CHW", "[N,?]"])


def _layout_case(text):
    def script(mod):
        lay = mod.Layout(text)
        out = {"str": lay.to_string(), "empty": lay.empty}
        for name in ("N", "C", "H", "W", "batch"):
            out["has_" + name] = attempt(lambda name=name: lay.has_name(name)).value
            out["idx_" + name] = attempt(lambda name=name: lay.get_index_by_name(name)).cls()
        out["eq_NCHW"] = lay == mod.Layout("NCHW")
        return out

    compare("types/Layout", f"Layout({text!r})", attempt(lambda: script(ov)),
            attempt(lambda: script(ovlab)), lambda x, y: x == y)


def test_layout(request):
    run(request, "types/Layout", 40, _layout_case, text=LAYOUTS)


TYPE_NAMES = sorted(n for n in dir(ov.Type) if not n.startswith("_") and
                    isinstance(getattr(ov.Type, n), ov.Type))
TYPE_ARGS = st.one_of(st.sampled_from(TYPE_NAMES).map(lambda n: ("attr", n)),
                      st.sampled_from([np.float32, np.float16, np.int8, np.uint8, np.int64,
                                       np.bool_, np.float64, np.int32, np.uint16, np.complex64,
                                       float, int, bool, str]).map(lambda t: ("dtype", t)),
                      st.sampled_from(["f32", "i8", "u1", "boolean", "undefined", "dynamic",
                                       "float32", "x"]).map(lambda s: ("str", s)))


def _type_case(arg):
    how, value = arg

    def script(mod):
        t = getattr(mod.Type, value) if how == "attr" else mod.Type(value)
        out = {"str": str(t), "name": t.get_type_name(), "size": t.size, "bitwidth": t.bitwidth,
               "real": t.is_real(), "signed": t.is_signed(), "integral": t.is_integral(),
               "static": t.is_static(), "dynamic": t.is_dynamic(),
               "integral_number": t.is_integral_number(),
               "dtype": attempt(lambda: np.dtype(t.to_dtype()).str).value,
               "eq_f32": t == mod.Type.f32, "compatible_dyn": t.compatible(mod.Type.dynamic)}
        return out

    compare("types/Type", f"Type {how} {value!r}", attempt(lambda: script(ov)),
            attempt(lambda: script(ovlab)), lambda x, y: x == y)


def test_type(request):
    run(request, "types/Type", 60, _type_case, arg=TYPE_ARGS)


TENSOR_DTYPES = st.sampled_from([np.float32, np.float16, np.int8, np.uint8, np.int64, np.bool_,
                                 np.float64, np.int32])
TENSOR_SHAPES = st.lists(st.integers(0, 3), max_size=3)


def _tensor_case(dtype, shape, how):
    arr = (np.arange(int(np.prod(shape)) if shape else 1) % 3).astype(dtype).reshape(shape)

    def script(mod):
        if how == "array":
            t = mod.Tensor(arr)
        elif how == "shared":
            t = mod.Tensor(arr, shared_memory=True)
        elif how == "type_shape":
            t = mod.Tensor(mod.Type(dtype), shape)
        else:
            t = mod.Tensor(mod.Type(dtype), mod.Shape(shape))
        out = {"shape": list(t.shape), "type": str(t.element_type), "size": t.size,
               "byte_size": t.byte_size, "data_dtype": str(t.data.dtype),
               "data_shape": list(t.data.shape), "str_shape": str(t.get_shape())}
        if how in ("array", "shared"):
            out["data"] = t.data.tolist()
        out["reshape"] = attempt(lambda: t.set_shape([1] + list(shape)) or list(t.shape)).value
        return out

    compare("types/Tensor", f"Tensor {how} {np.dtype(dtype).name} {shape}",
            attempt(lambda: script(ov)), attempt(lambda: script(ovlab)), lambda x, y: x == y)


def test_tensor(request):
    run(request, "types/Tensor", 60, _tensor_case, dtype=TENSOR_DTYPES, shape=TENSOR_SHAPES,
        how=st.sampled_from(["array", "shared", "type_shape", "type_Shape"]))
