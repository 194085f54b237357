"""Mutated IR files: whatever is changed, ``read_model`` returns a Model or raises a clean
``RuntimeError`` (never another exception, a hang or a partial model)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ovlab
from ovlab import zoo
from ovlab.sim.graph.model import Model


@pytest.fixture(scope="module")
def base_irs(tmp_path_factory):
    """Two IRs written by ovlab: small-cnn compressed to f16 (Const + Convert pattern) and the
    INT8 mlp (FakeQuantize), as (xml text, bin bytes)."""
    d = tmp_path_factory.mktemp("fuzz")
    out = []
    for name, precision in (("small-cnn", "FP32"), ("mlp", "INT8")):
        path = d / f"{name}.xml"
        ovlab.save_model(zoo.load(name, precision), path)
        out.append((path.read_text(), path.with_suffix(".bin").read_bytes()))
    return out


_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
_ELEMENT = re.compile(r"<(layer|edge|port|data|dim|input|output|rt_info|attribute)\b[^>]*?/?>")
_VALUES = st.one_of(st.sampled_from(["", "-1", "0", "1", "2", "99999999999", "1.5", "nan", "a",
                                      "true", "f16", "i64", "u4", "opset1", "opset8", "?",
                                      "1,2", "1, 2, 3", "-5, 1", "ReLU", "Result", "Const"]),
                    st.text(max_size=6))


KINDS = ("attr", "delete", "duplicate", "truncate_xml", "digit", "truncate_bin", "swap")
# One mutation: its kind, two positions in [0, 1) and a value (drawn small; applied below).
MUTATION = st.tuples(st.sampled_from(KINDS), st.floats(0, 1, exclude_max=True),
                     st.floats(0, 1, exclude_max=True), _VALUES)


def pick(items: list, at: float):
    return items[int(at * len(items))] if items else None


def mutate(xml: str, data: bytes, mutation: tuple) -> tuple[str, bytes]:
    kind, at, at2, value = mutation
    if kind == "attr":
        m = pick(list(_ATTR.finditer(xml)), at)
        if m:
            value = value.replace('"', "").replace("<", "").replace("&", "")
            xml = xml[:m.start(2)] + value + xml[m.end(2):]
    elif kind in ("delete", "duplicate"):
        m = pick(list(_ELEMENT.finditer(xml)), at)
        if m and (m.group(0).endswith("/>") or kind == "duplicate"):
            piece = m.group(0)
            xml = xml[:m.start()] + (piece * 2 if kind == "duplicate" else "") + xml[m.end():]
    elif kind == "truncate_xml":
        xml = xml[:int(at * len(xml))]
    elif kind == "digit":
        i = pick([m.start() for m in re.finditer(r"\d", xml)], at)
        if i is not None:
            xml = xml[:i] + str(int(at2 * 10)) + xml[i + 1:]
    elif kind == "truncate_bin":
        data = data[:int(at * len(data))]
    else:  # swap the targets of two edges
        edges = list(re.finditer(r'to-layer="(\d+)" to-port="(\d+)"', xml))
        a, b = pick(edges, at), pick(edges, at2)
        if a and b and a.start() != b.start():
            first, second = sorted((a, b), key=lambda m: m.start())
            xml = (xml[:first.start()] + second.group(0) + xml[first.end():second.start()]
                   + first.group(0) + xml[second.end():])
    return xml, data


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 1), mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_mutated_ir_gives_a_model_or_a_clean_error(base_irs, tmp_path, which, mutations):
    xml, weights = base_irs[which]
    for m in mutations:
        xml, weights = mutate(xml, weights, m)
    path = tmp_path / "m.xml"
    path.write_text(xml)
    path.with_suffix(".bin").write_bytes(weights)
    try:
        model = ovlab.Core("cpu").read_model(str(path))
    except RuntimeError as e:
        text = str(e)
        assert text.startswith("Exception from src/inference/src/cpp/core.cpp:84:\n"), text
        assert text.strip(), "empty message"
        return
    assert isinstance(model, Model)
    assert model.outputs and all(len(o.get_shape()) >= 0 for o in model.outputs)
    if len(model.inputs) == 1:  # a model that was built can also be run (or says why not)
        shape = list(model.inputs[0].get_shape())
        if int(np.prod(shape)) <= 1 << 20:
            try:
                model._evaluate([np.zeros(shape, model.inputs[0].get_element_type().to_dtype())])
            except (ValueError, RuntimeError, TypeError):
                pass
