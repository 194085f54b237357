"""Core-level ``core.set_property({...})``, openvino vs ovlab (issue 17.4).

OpenVINO hands every key but its own (CACHE_DIR, ENABLE_MMAP, FORCE_TBB_TERMINATE) to every
plugin: plugins not loaded yet take them when they load (and fail to load for good if they reject
one), loaded plugins are set at once and the first to reject raises. Each script below is a
sequence of calls; both runtimes must give the same outcome at every step: the same value (by
kind, and hints by value) or the same error (type, API line, meaningful line).
"""

from __future__ import annotations

import pytest
from conformance_harness import REAL, assert_same_error, attempt, build, kind

# steps whose value describes the machine (compared by kind only): any machine runs this test
MACHINE_STEPS = {"available", "CPU name"}


def _compile(core, rt, device):
    compiled = core.compile_model(build(rt, "mlp"), device)
    # THROUGHPUT's request count depends on the number of cores: its kind only
    return {"PERFORMANCE_HINT": str(compiled.get_property("PERFORMANCE_HINT")),
            "OPTIMAL_NUMBER_OF_INFER_REQUESTS": kind(
                compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))}


def _actions(core, rt):
    return {
        "available": lambda: core.available_devices,
        "set THROUGHPUT": lambda: core.set_property({"PERFORMANCE_HINT": "THROUGHPUT"}),
        "set hint enum": lambda: core.set_property(
            {rt.mod.properties.hint.performance_mode: rt.mod.properties.hint.PerformanceMode.THROUGHPUT}),
        "set FAST": lambda: core.set_property({"PERFORMANCE_HINT": "FAST"}),
        "set NUM_STREAMS": lambda: core.set_property({"NUM_STREAMS": 2}),
        "set FOO": lambda: core.set_property({"FOO": 1}),
        "set PERF_COUNT": lambda: core.set_property({"PERF_COUNT": True}),
        "set MODEL_PRIORITY": lambda: core.set_property({"MODEL_PRIORITY": "HIGH"}),
        "set DEVICE_PROPERTIES": lambda: core.set_property(
            {"DEVICE_PROPERTIES": {"CPU": {"NUM_STREAMS": 2}}}),
        "set ENABLE_MMAP NO": lambda: core.set_property({"ENABLE_MMAP": "NO"}),
        "set ENABLE_MMAP 0": lambda: core.set_property({"ENABLE_MMAP": 0}),
        "get ENABLE_MMAP": lambda: core.get_property("ENABLE_MMAP"),
        "get FORCE_TBB_TERMINATE": lambda: core.get_property("FORCE_TBB_TERMINATE"),
        "get PERFORMANCE_HINT": lambda: core.get_property("PERFORMANCE_HINT"),
        "CPU hint": lambda: core.get_property("CPU", "PERFORMANCE_HINT"),
        "CPU NUM_STREAMS": lambda: core.get_property("CPU", "NUM_STREAMS"),
        "CPU PERF_COUNT": lambda: core.get_property("CPU", "PERF_COUNT"),
        "AUTO hint": lambda: core.get_property("AUTO", "PERFORMANCE_HINT"),
        "AUTO PERF_COUNT": lambda: core.get_property("AUTO", "PERF_COUNT"),
        "BATCH hint": lambda: core.get_property("BATCH", "PERFORMANCE_HINT"),
        "HETERO hint": lambda: core.get_property("HETERO", "PERFORMANCE_HINT"),
        "CPU name": lambda: core.get_property("CPU", "FULL_DEVICE_NAME"),
        "compile CPU": lambda: _compile(core, rt, "CPU"),
        "compile AUTO": lambda: _compile(core, rt, "AUTO"),
        "compile HETERO": lambda: _compile(core, rt, "HETERO:CPU"),
        "compile BATCH": lambda: _compile(core, rt, "BATCH:CPU(2)"),
        # device level: set_property("CPU", {...})
        "CPU set FOO": lambda: core.set_property("CPU", {"FOO": 1}),
        "CPU set BAR": lambda: core.set_property("CPU", {"BAR": 1}),
        "CPU set NUM_STREAMS": lambda: core.set_property("CPU", {"NUM_STREAMS": 2}),
        "CPU set FAST": lambda: core.set_property("CPU", {"PERFORMANCE_HINT": "FAST"}),
        "AUTO set FOO": lambda: core.set_property("AUTO", {"FOO": 1}),
    }


SCRIPTS = {
    # a fresh Core: the call never fails; CPU and AUTO take the hint, BATCH and HETERO break
    "fresh THROUGHPUT": ["set THROUGHPUT", "CPU hint", "AUTO hint", "compile CPU",
                         "compile AUTO", "compile BATCH", "compile HETERO", "BATCH hint",
                         "available"],
    "fresh enum hint": ["set hint enum", "AUTO hint", "compile CPU", "compile AUTO"],
    # plugins loaded first: AUTO (first in name order) takes it, BATCH raises, CPU keeps LATENCY
    "loaded THROUGHPUT": ["available", "set THROUGHPUT", "CPU hint", "AUTO hint",
                          "compile CPU", "compile AUTO"],
    # compile_model on CPU loads BATCH too (implicit batching asks it)
    "after a CPU compile": ["compile CPU", "set THROUGHPUT", "CPU hint", "AUTO hint",
                            "compile AUTO"],
    "only CPU loaded": ["CPU name", "set NUM_STREAMS", "CPU NUM_STREAMS", "compile CPU",
                        "compile AUTO", "available"],
    "fresh NUM_STREAMS": ["set NUM_STREAMS", "available", "compile AUTO", "compile CPU"],
    "fresh FOO": ["set FOO", "available", "set FOO", "compile CPU", "compile AUTO"],
    "loaded FOO": ["available", "set FOO", "compile CPU"],
    "bad value": ["set FAST", "CPU hint", "compile CPU", "AUTO hint"],
    "loaded bad value": ["available", "set FAST", "CPU hint", "compile CPU"],
    "PERF_COUNT everywhere": ["set PERF_COUNT", "CPU PERF_COUNT", "AUTO PERF_COUNT",
                              "compile BATCH"],
    "MODEL_PRIORITY breaks CPU": ["set MODEL_PRIORITY", "compile AUTO", "compile CPU"],
    # device level on a plugin not created yet: the Core keeps the keys and the plugin takes
    # them when it is created, failing for good if it rejects one (measured on 2026.4.1)
    "device FOO before load": ["CPU set FOO", "CPU set BAR", "CPU name", "compile CPU",
                               "CPU set NUM_STREAMS", "available"],
    "device bad value before load": ["CPU set FAST", "CPU hint", "compile AUTO"],
    "device NUM_STREAMS before load": ["CPU set NUM_STREAMS", "CPU NUM_STREAMS", "compile CPU"],
    "device FOO after load": ["CPU name", "CPU set FOO", "CPU NUM_STREAMS", "compile CPU"],
    "AUTO FOO before load": ["AUTO set FOO", "AUTO hint", "compile AUTO", "compile CPU"],
    "core keys": ["get ENABLE_MMAP", "get FORCE_TBB_TERMINATE", "set ENABLE_MMAP NO",
                  "get ENABLE_MMAP", "set ENABLE_MMAP 0", "get PERFORMANCE_HINT",
                  "compile CPU", "set DEVICE_PROPERTIES"],
}


def _run(rt, steps):
    core = rt.new_core()
    actions = _actions(core, rt)
    return [attempt(actions[step]) for step in steps]


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_core_level_set_property_matches_openvino(name):
    from conformance_harness import LAB

    steps = SCRIPTS[name]
    real, lab = _run(REAL, steps), _run(LAB, steps)
    for step, r, o in zip(steps, real, lab, strict=True):
        if r.raised:
            assert_same_error(r, o)
            continue
        assert not o.raised, f"{step}: openvino returned {r.value!r}, ovlab raised {o.message!r}"
        assert kind(o.value) == kind(r.value), f"{step}: {r.value!r} vs {o.value!r}"
        if step in MACHINE_STEPS:
            continue  # the devices and the CPU's name differ by machine (that CPU is listed or
            # not is compared below)
        if isinstance(r.value, dict) or kind(r.value) in ("str", "bool", "int", "NoneType"):
            assert o.value == r.value, f"{step}: openvino {r.value!r}, ovlab {o.value!r}"
        else:
            assert str(o.value) == str(r.value), f"{step}: openvino {r.value!r}, ovlab {o.value!r}"
    listed = [(r.value, o.value) for step, r, o in zip(steps, real, lab, strict=True)
              if step == "available" and not r.raised]
    for real_devices, lab_devices in listed:
        assert ("CPU" in real_devices) == ("CPU" in lab_devices)
