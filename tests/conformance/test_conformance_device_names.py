"""Device-name handling and ``query_model``, openvino vs ovlab "host".

Names are case-sensitive and parsed like ``core_impl.cpp``: the same strings compile, and the
same strings fail with the same ``RuntimeError`` (first ``Exception from`` line of the API and
the meaningful last line).
"""

from __future__ import annotations

import pytest
from conformance_harness import assert_same_error, both, kind

COMPILES = ["AUTO", "AUTO:", "AUTO:CPU", "HETERO:CPU", "MULTI:CPU", "BATCH:CPU", "BATCH:CPU(4)"]
RAISES = ["AUTO:-CPU", "AUTO:FOO", "FOO", "", "cpu", "Auto", "CPU.0", "CPU.1", "MULTI", "BATCH",
          "HETERO", "HETERO:FOO,CPU", "BATCH:CPU(abc)", "BATCH:CPU()", "BATCH:CPU(0)",
          "BATCH:CPU(-1)"]


@pytest.mark.parametrize("device", COMPILES)
def test_device_name_compiles_on_cpu(rt, models, device):
    cm = rt.new_core().compile_model(models[rt.name]["conv"], device)
    assert type(cm) is rt.mod.CompiledModel
    devices = cm.get_property("EXECUTION_DEVICES")
    assert kind(devices) == "list[str]" and devices == ["CPU"]


@pytest.mark.parametrize("device", RAISES)
def test_device_name_error(models, device):
    real, lab = both(lambda rt: rt.new_core().compile_model(models[rt.name]["conv"], device))
    assert_same_error(real, lab)


@pytest.mark.parametrize("device", ["BATCH:CPU(abc)", "BATCH:CPU()", "BATCH:CPU(0)",
                                    "BATCH:CPU(-1)"])
def test_malformed_batch_size_error_is_the_wheels_word_for_word(models, device):
    """A batch size that is not a positive number: the same type and the same whole text."""
    real, lab = both(lambda rt: rt.new_core().compile_model(models[rt.name]["conv"], device))
    assert real.raised and lab.raised
    assert type(lab.exc) is type(real.exc)
    assert lab.message == real.message


@pytest.mark.parametrize("device, value", [
    ("CPU", "CPU"), ("HETERO:CPU", "CPU"), ("BATCH:CPU", "CPU"), ("AUTO:CPU", "AUTO"),
    ("MULTI:CPU", "MULTI"),
])
def test_query_model_is_a_dict_of_str(models, device, value):
    """``{op friendly name: device}`` over every op (Constants and the Result too); the meta
    devices AUTO and MULTI name themselves."""
    real, lab = both(lambda rt: rt.new_core().query_model(models[rt.name]["conv"], device))
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert type(lab.value) is dict
    assert all(type(k) is str and type(v) is str for k, v in lab.value.items())
    assert lab.value == real.value
    assert set(lab.value.values()) == {value}


def test_query_model_on_bare_hetero_is_empty(rt, models):
    assert rt.new_core().query_model(models[rt.name]["conv"], "HETERO") == {}


@pytest.mark.parametrize("device", ["AUTO", "FOO"])
def test_query_model_errors(models, device):
    real, lab = both(lambda rt: rt.new_core().query_model(models[rt.name]["conv"], device))
    assert_same_error(real, lab)


@pytest.mark.parametrize("device", ["FOO", "Auto", ""])
def test_unknown_device_in_get_property(device):
    real, lab = both(lambda rt: rt.new_core().get_property(device, "SUPPORTED_PROPERTIES"))
    assert_same_error(real, lab)


def _versions(rt, device):
    # read the Version objects while their Core lives: a real Version outliving its Core
    # crashes the process (the plugin library is unloaded under it)
    core = rt.new_core()
    return {name: v.description for name, v in core.get_versions(device).items()}, \
        {type(v.build_number) for v in core.get_versions(device).values()}


@pytest.mark.parametrize("device", ["CPU", "AUTO", "HETERO", "BATCH", "AUTO:CPU",
                                    "BATCH:CPU(4)", "FOO", "", "AUTO:FOO"])
def test_get_versions_is_a_dict_of_versions(device):
    """``{plugin name: Version}`` with the plugin's description; names no plugin is registered
    for are skipped without an error (``get_versions("FOO") == {}``)."""
    real, lab = both(lambda rt: _versions(rt, device))
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert lab.value[0] == real.value[0]
    assert lab.value[1] <= {str}
