"""Core-level properties: ``core.get_property('CPU', key)`` and friends, openvino vs ovlab.

ovlab runs on its "host" platform (this machine's CPU as OpenVINO names it), and the guard runs
this test with the host described as another vendor's CPU, so hardware values
(FULL_DEVICE_NAME, OPTIMIZATION_CAPABILITIES, RANGE_FOR_STREAMS...) are compared by type; values
that do not depend on the hardware are compared too.

The real CPU's default INFERENCE_PRECISION_HINT is bf16 on an AVX512_BF16 or AMX machine, and so
is the host platform's there (timed in bf16; its NumPy kernels still compute in f32); the value
depends on the machine, so only the type is compared.
"""

from __future__ import annotations

import pytest
from conformance_harness import (
    LAB,
    REAL,
    assert_same_error,
    attempt,
    both,
    kind,
    ovlab_own,
)

META_DEVICES = ["AUTO", "MULTI", "HETERO", "BATCH"]
# values that do not depend on the machine, compared with str(); the rest by type only
MACHINE_FREE = {
    "AVAILABLE_DEVICES", "DEVICE_ID", "EXECUTION_DEVICES", "EXECUTION_MODE_HINT",
    "INFERENCE_NUM_THREADS", "LOG_LEVEL", "NUM_STREAMS", "OPTIMAL_NUMBER_OF_INFER_REQUESTS",
    "PERFORMANCE_HINT", "PERFORMANCE_HINT_NUM_REQUESTS", "PERF_COUNT", "ENABLE_CPU_PINNING",
    "CPU_DENORMALS_OPTIMIZATION", "MODEL_DISTRIBUTION_POLICY", "SCHEDULING_CORE_TYPE",
}


def test_available_devices_is_a_list_of_str(rt):
    devices = rt.new_core().available_devices
    assert type(devices) is list and "CPU" in devices
    assert all(type(d) is str for d in devices)


@pytest.mark.parametrize("device", ["CPU", *META_DEVICES])
def test_supported_properties_is_a_dict_of_modes_and_a_subset(device):
    """SUPPORTED_PROPERTIES is a dict name -> 'RO'/'RW'/'WO' (not a list); every key ovlab
    lists exists in OpenVINO with the same mode (unless ovlab documents it as its own)."""
    real = REAL.new_core().get_property(device, "SUPPORTED_PROPERTIES")
    lab = attempt(lambda: LAB.new_core().get_property(device, "SUPPORTED_PROPERTIES"))
    assert not lab.raised, lab.message
    assert type(real) is dict and type(lab.value) is dict
    assert set(lab.value.values()) <= {"RO", "RW", "WO"}
    extra = {k for k in lab.value if k not in real and not ovlab_own(k)}
    assert not extra, f"ovlab lists {sorted(extra)} that OpenVINO's {device} does not"
    modes = {k: (real[k], v) for k, v in lab.value.items() if k in real and real[k] != v}
    assert not modes, f"modes differ (openvino, ovlab): {modes}"


def test_core_cpu_property_types_match_for_shared_keys():
    """Every key both runtimes list for CPU reads back with the same Python type (enum vs str
    vs bool vs int vs list vs tuple vs dict), and machine-independent ones with the same
    value."""
    rc, lc = REAL.new_core(), LAB.new_core()
    real_keys = rc.get_property("CPU", "SUPPORTED_PROPERTIES")
    lab_keys = lc.get_property("CPU", "SUPPORTED_PROPERTIES")
    shared = sorted(k for k in set(real_keys) & set(lab_keys) if real_keys[k] != "WO")
    shared.append("OPTIMAL_NUMBER_OF_INFER_REQUESTS")  # readable on both though not listed
    assert len(shared) > 15
    problems = []
    for key in shared:
        real = attempt(lambda k=key: rc.get_property("CPU", k))
        lab = attempt(lambda k=key: lc.get_property("CPU", k))
        if real.summary() != lab.summary():
            problems.append(f"{key}: openvino {real.summary()} {real.value!r} | "
                            f"ovlab {lab.summary()} {lab.value!r}")
        elif key in MACHINE_FREE and not real.raised and str(real.value) != str(lab.value):
            problems.append(f"{key}: openvino {real.value!r} | ovlab {lab.value!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key, expected", [
    ("RANGE_FOR_ASYNC_INFER_REQUESTS", "tuple[int]"),
    ("RANGE_FOR_STREAMS", "tuple[int]"),
    ("OPTIMIZATION_CAPABILITIES", "list[str]"),
    ("EXECUTION_DEVICES", "list[str]"),
    ("PERFORMANCE_HINT", "PerformanceMode"),
    ("PERF_COUNT", "bool"),
    ("FULL_DEVICE_NAME", "str"),
    ("SUPPORTED_PROPERTIES", "dict"),
])
def test_core_cpu_property_kind_as_measured(rt, key, expected):
    """The measured types (reference section 3): tuples, lists, an enum at core level."""
    assert kind(rt.new_core().get_property("CPU", key)) == expected


@pytest.mark.parametrize("device", META_DEVICES)
def test_meta_device_full_name_is_its_own_name(rt, device):
    value = rt.new_core().get_property(device, "FULL_DEVICE_NAME")
    assert type(value) is str and value == device


@pytest.mark.parametrize("device, key", [
    ("AUTO", "PERFORMANCE_HINT"), ("AUTO", "MODEL_PRIORITY"), ("AUTO", "ENABLE_STARTUP_FALLBACK"),
    ("AUTO", "ENABLE_RUNTIME_FALLBACK"), ("AUTO", "SCHEDULE_POLICY"),
    ("AUTO", "MULTI_DEVICE_PRIORITIES"), ("AUTO", "PERF_COUNT"), ("BATCH", "AUTO_BATCH_TIMEOUT"),
    ("BATCH", "MULTI_DEVICE_PRIORITIES"),
])
def test_meta_device_core_property_types(device, key):
    """AUTO answers enums and bools at core level; BATCH's timeout is an int 1000 and its
    unset device list raises ``The Value is not set for MULTI_DEVICE_PRIORITIES``."""
    real = attempt(lambda: REAL.new_core().get_property(device, key))
    lab = attempt(lambda: LAB.new_core().get_property(device, key))
    if real.raised:
        assert_same_error(real, lab)
        return
    assert not lab.raised, lab.message
    assert kind(lab.value) == kind(real.value)
    assert str(lab.value) == str(real.value)


@pytest.mark.parametrize("device, key", [
    ("CPU", "NOT_A_PROPERTY"),
    ("CPU", "ENABLE_PROFILING"),  # the C++ name; the string key is PERF_COUNT
    ("FOO", "FULL_DEVICE_NAME"),
])
def test_core_get_property_errors(device, key):
    real = attempt(lambda: REAL.new_core().get_property(device, key))
    lab = attempt(lambda: LAB.new_core().get_property(device, key))
    assert_same_error(real, lab)


@pytest.mark.parametrize("device, props", [
    ("CPU", {"PERFORMANCE_HINT": "FAST"}),
    ("CPU", {"FOO_KEY": "1"}),
    ("CPU", {"OPTIMAL_NUMBER_OF_INFER_REQUESTS": "3"}),  # read-only: same error as unknown
    ("FOO", {"PERFORMANCE_HINT": "THROUGHPUT"}),
    ("AUTO", {"FOO_KEY": "1"}),  # set_property rejects what compile_model accepts
])
def test_core_set_property_errors(device, props):
    """On a Core whose plugin is loaded, as in the probe. (A fresh real Core defers
    ``set_property`` until the plugin loads: the call returns None and the plugin then fails
    to load for good; ovlab raises at once. See the report.)"""

    def script(rt):
        core = rt.new_core()
        if device != "FOO":
            core.get_property(device, "SUPPORTED_PROPERTIES")  # loads the plugin
        return core.set_property(device, props)

    real, lab = both(script)
    assert_same_error(real, lab)


def test_core_set_property_hint_reads_back_as_enum_and_reaches_compile(rt, models):
    """After ``set_property('CPU', THROUGHPUT)`` the core answers the enum and a later CPU
    compile reads the str ``'THROUGHPUT'``."""
    core = rt.new_core()
    assert core.set_property("CPU", {"PERFORMANCE_HINT": "THROUGHPUT"}) is None
    value = core.get_property("CPU", "PERFORMANCE_HINT")
    assert kind(value) == "PerformanceMode" and str(value) == "PerformanceMode.THROUGHPUT"
    compiled = core.compile_model(models[rt.name]["conv"], "CPU")
    assert compiled.get_property("PERFORMANCE_HINT") == "THROUGHPUT"


def test_core_set_property_keeps_the_type_given(rt):
    """A value set at core level reads back in the Python type it was given (measured: AUTO's
    ENABLE_STARTUP_FALLBACK 'NO' stays 'NO', BATCH's timeout '100' stays '100')."""
    core = rt.new_core()
    core.set_property("AUTO", {"ENABLE_STARTUP_FALLBACK": "NO"})
    core.set_property("BATCH", {"AUTO_BATCH_TIMEOUT": "100"})
    assert core.get_property("AUTO", "ENABLE_STARTUP_FALLBACK") == "NO"
    assert core.get_property("BATCH", "AUTO_BATCH_TIMEOUT") == "100"


@pytest.mark.parametrize("args", [("FOO_KEY",), ("SUPPORTED_PROPERTIES",),
                                  ("", "SUPPORTED_PROPERTIES")])
def test_core_level_get_property_errors(args):
    """``get_property(key)`` (and an empty device name) asks the Core itself."""
    real, lab = both(lambda rt: rt.new_core().get_property(*args))
    assert_same_error(real, lab)


@pytest.mark.parametrize("args", [("CACHE_DIR",), ("", "CACHE_DIR")])
def test_core_level_cache_dir_is_an_empty_str(rt, args):
    assert rt.new_core().get_property(*args) == ""
