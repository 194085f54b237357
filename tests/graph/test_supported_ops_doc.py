"""``docs/supported-ops.md`` is generated from the op registry by ``tools/gen_supported_ops.py``;
this fails when someone adds or changes an op without regenerating it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("gen_supported_ops",
                                                  ROOT / "tools" / "gen_supported_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_supported_ops_doc_is_current():
    pytest.importorskip("openvino")  # the list of missing builders comes from the real wheel
    tool = _tool()
    assert (ROOT / "docs" / "supported-ops.md").read_text() == tool.render(), (
        "docs/supported-ops.md is stale: run python tools/gen_supported_ops.py")


def test_every_op_type_has_a_builder_in_the_doc():
    tool = _tool()
    by_type = tool.builder_types()
    from ovlab.sim.graph.ops import REGISTRY
    assert set(by_type) == set(REGISTRY)
    assert by_type["Ceiling"] == ["ceil", "ceiling"] and by_type["CumSum"] == ["cum_sum", "cumsum"]
