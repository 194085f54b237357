"""Compiled-model properties on CPU, AUTO, MULTI:CPU, HETERO:CPU and BATCH:CPU(4).

The Python type of a value depends on who answers (reference section 5): the CPU compiled model
returns ``PERFORMANCE_HINT`` as the str ``'LATENCY'`` and ``PERF_COUNT`` as ``'NO'``, AUTO and
MULTI return enums and bools, BATCH answers its own keys and passes the rest to CPU. Each key is
read on both runtimes from the same model (the batchable conv net, so BATCH:CPU(4) really
batches) and compared: same kind of value, or the same OpenVINO error. Machine-independent
values are compared as well.
"""

from __future__ import annotations

import pytest
from conformance_harness import (
    LAB,
    REAL,
    assert_same_error,
    assert_same_outcome,
    attempt,
    both,
    kind,
    ovlab_own,
)

DEVICES = ["CPU", "AUTO", "MULTI:CPU", "HETERO:CPU", "BATCH:CPU(4)"]
# the keys of the measured table (reference section 5), read on every device
TABLE_KEYS = [
    "SUPPORTED_PROPERTIES", "EXECUTION_DEVICES", "PERFORMANCE_HINT",
    "OPTIMAL_NUMBER_OF_INFER_REQUESTS", "NUM_STREAMS", "PERF_COUNT",
    "PERFORMANCE_HINT_NUM_REQUESTS", "INFERENCE_NUM_THREADS", "NETWORK_NAME", "MODEL_NAME",
    "MODEL_PRIORITY", "ENABLE_STARTUP_FALLBACK", "ENABLE_RUNTIME_FALLBACK", "SCHEDULE_POLICY",
    "MULTI_DEVICE_PRIORITIES", "AUTO_BATCH_TIMEOUT", "LOADED_FROM_CACHE", "DEVICE_PROPERTIES",
    "HETERO_NUMBER_OF_SUBMODELS", "EXECUTION_MODE_HINT", "INFERENCE_PRECISION_HINT",
    "DEVICE_ID", "CACHE_DIR",
]
# values that do not depend on the machine (compared with str()); NUM_STREAMS, INFERENCE_NUM_THREADS
# and the THROUGHPUT request counts follow the core count
MACHINE_FREE = {
    "EXECUTION_DEVICES", "PERFORMANCE_HINT", "PERF_COUNT", "PERFORMANCE_HINT_NUM_REQUESTS",
    "NETWORK_NAME", "MODEL_PRIORITY", "SCHEDULE_POLICY", "MULTI_DEVICE_PRIORITIES",
    "AUTO_BATCH_TIMEOUT", "LOADED_FROM_CACHE", "HETERO_NUMBER_OF_SUBMODELS",
    "EXECUTION_MODE_HINT", "DEVICE_ID",
}
# the default hint is THROUGHPUT on MULTI only; its request count follows the core count
LATENCY_BY_DEFAULT = {"CPU", "AUTO", "HETERO:CPU", "BATCH:CPU(4)"}


@pytest.fixture(scope="module")
def compiled(models):
    """One compile per (runtime, device), shared by the read-only tests of this module."""
    cache: dict = {}

    def get(rt, device):
        if (rt.name, device) not in cache:
            core = rt.new_core()
            cache[(rt.name, device)] = attempt(
                lambda: core.compile_model(models[rt.name]["conv"], device))
        outcome = cache[(rt.name, device)]
        if outcome.raised:
            raise outcome.exc
        return outcome.value

    return get


@pytest.mark.parametrize("device", DEVICES)
def test_compiled_supported_properties_dict_subset(compiled, device):
    real = compiled(REAL, device).get_property("SUPPORTED_PROPERTIES")
    lab = compiled(LAB, device).get_property("SUPPORTED_PROPERTIES")
    assert type(lab) is dict and set(lab.values()) <= {"RO", "RW"}
    extra = sorted(k for k in lab if k not in real and not ovlab_own(k))
    assert not extra, f"ovlab's {device} compiled model lists {extra}; OpenVINO does not"
    modes = {k: (real[k], v) for k, v in lab.items() if k in real and real[k] != v}
    assert not modes, f"modes differ (openvino, ovlab): {modes}"


@pytest.mark.parametrize("key", TABLE_KEYS)
@pytest.mark.parametrize("device", DEVICES)
def test_compiled_property_type(compiled, device, key):
    """Same kind of value (str vs enum vs bool vs int vs list vs dict) or the same error."""
    real_cm, lab_cm = compiled(REAL, device), compiled(LAB, device)
    real = attempt(lambda: real_cm.get_property(key))
    lab = attempt(lambda: lab_cm.get_property(key))
    assert_same_outcome(real, lab, f"{device} get_property({key!r})")
    if real.raised:
        return
    # THROUGHPUT's request count follows the machine's cores: compared under LATENCY only
    if key in MACHINE_FREE or (key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS"
                               and device in LATENCY_BY_DEFAULT):
        assert str(lab.value) == str(real.value), (real.value, lab.value)


@pytest.mark.parametrize("device", DEVICES)
def test_compiled_properties_readable_through_property_objects(rt, compiled, device):
    """``props.execution_devices`` (uncalled) and ``props.execution_devices()`` are keys too."""
    props = rt.mod.properties
    cm = compiled(rt, device)
    assert cm.get_property(props.execution_devices) == ["CPU"]
    assert cm.get_property(props.execution_devices()) == ["CPU"]
    assert type(cm.get_property(props.optimal_number_of_infer_requests)) is int


@pytest.mark.parametrize("device", ["CPU", "AUTO"])
def test_compiled_set_property_is_refused(models, device):
    """CPU and AUTO refuse ``compiled.set_property`` with the same meaningful line."""
    real, lab = both(lambda rt: rt.new_core().compile_model(
        models[rt.name]["conv"], device).set_property({"PERFORMANCE_HINT": "THROUGHPUT"}))
    assert_same_error(real, lab)


def test_b07_batch_compiled_set_property_timeout_works(rt, models):
    """AUTO_BATCH_TIMEOUT is the one property a compiled BATCH model takes; it reads back the
    int given (the default is the int 1000)."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], "BATCH:CPU(4)")
    assert cm.get_property("AUTO_BATCH_TIMEOUT") == 1000
    assert cm.set_property({"AUTO_BATCH_TIMEOUT": 100}) is None
    value = cm.get_property("AUTO_BATCH_TIMEOUT")
    assert type(value) is int and value == 100


@pytest.mark.parametrize("which, batch, optimal", [("conv", 4, 4), ("conv_fixed", 1, 1),
                                                    ("mlp", 4, 4)])
def test_b01_batch_cpu4_batches_only_batchable_models(rt, models, which, batch, optimal):
    """BATCH:CPU(4) reshapes the runtime model to batch 4 (OPTIMAL = 4 x 1 under LATENCY);
    the probe's constant ``[1, 2048]`` reshape makes it fall back silently to batch 1."""
    cm = rt.new_core().compile_model(models[rt.name][which], "BATCH:CPU(4)")
    assert list(cm.inputs[0].get_shape())[0] == 1
    assert list(cm.get_runtime_model().inputs[0].get_shape())[0] == batch
    assert cm.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == optimal


def test_compile_without_device_is_auto(models):
    """``compile_model(model)`` compiles on AUTO: its SUPPORTED_PROPERTIES are AUTO's."""
    def script(rt):
        core = rt.new_core()
        default = core.compile_model(models[rt.name]["conv"]).get_property("SUPPORTED_PROPERTIES")
        auto = core.compile_model(models[rt.name]["conv"], "AUTO").get_property(
            "SUPPORTED_PROPERTIES")
        return default, auto

    real, lab = both(script)
    assert not lab.raised, lab.message
    assert lab.value[0] == lab.value[1]
    assert real.value[0] == real.value[1]
    assert set(lab.value[0]) <= set(real.value[0])
    assert "MODEL_PRIORITY" in lab.value[0]  # an AUTO key, not a CPU one


def test_compile_model_config_as_keywords_is_a_type_error(models):
    real, lab = both(lambda rt: rt.new_core().compile_model(
        models[rt.name]["conv"], "CPU", PERFORMANCE_HINT="THROUGHPUT"))
    assert type(real.exc) is TypeError and type(lab.exc) is TypeError
    assert str(lab.exc) == str(real.exc)


def test_compile_model_keyword_names_work(rt, models):
    cm = rt.new_core().compile_model(models[rt.name]["conv"], device_name="CPU",
                                     config={"PERFORMANCE_HINT": "THROUGHPUT"})
    assert cm.get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert kind(cm.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")) == "int"
