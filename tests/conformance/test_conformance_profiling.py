"""Profiling rows (``get_profiling_info``), openvino vs ovlab "host".

Rows are per executed node: MatMul shows as FullyConnected, a Relu fused into its Convolution
and an in-place Reshape are NOT_RUN, times are ``datetime.timedelta``. Deliberate difference:
the real CPU inserts layout ``Reorder`` rows of its own (memory formats ovlab does not model),
so those rows are left out of the comparison.
"""

from __future__ import annotations

import datetime

import pytest
from conformance_harness import CONV_X, LAB, REAL


def _rows(rt, models, device, perf_count):
    core = rt.new_core()
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    if perf_count:
        config["PERF_COUNT"] = True
    req = core.compile_model(models[rt.name]["conv"], device, config).create_infer_request()
    req.infer({0: CONV_X})
    info = req.get_profiling_info()
    assert type(info) is list and [type(p).__name__ for p in info] == ["ProfilingInfo"] * len(info)
    assert all(type(p.real_time) is datetime.timedelta and type(p.cpu_time) is datetime.timedelta
               for p in info)
    return [(p.node_name, p.node_type, p.status.name) for p in info if p.node_type != "Reorder"]


@pytest.mark.parametrize("perf_count", [True, False])
def test_cpu_profiling_rows(models, perf_count):
    real = _rows(REAL, models, "CPU", perf_count)
    lab = _rows(LAB, models, "CPU", perf_count)
    assert lab == real
    if not perf_count:  # no error without PERF_COUNT: every row NOT_RUN
        assert {status for _, _, status in lab} == {"NOT_RUN"}


def test_hetero_profiling_names_are_prefixed(models):
    for rt in (REAL, LAB):
        names = [name for name, _, _ in _rows(rt, models, "HETERO:CPU", True)]
        assert names and all(name.startswith("subgraph0: ") for name in names), (rt, names)
