"""OpenVINO 2026 behaviours of issue 14 against the real 2026.4.1 wheel (CPU): the resource-aware
AUTO properties (claims N04, N05) and CACHE_DIR as a directory (claims N14, N15, N16).

The real AUTO cannot read utilization on this machine (no IPF telemetry), so only what the wheel
validates and stores is compared here; the selection itself is tested in
``tests/plugins/test_auto_dynamic.py`` against the source's rules.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conformance_harness import LAB, REAL, assert_same_error, both, meaningful_line

THRESHOLD = "DEVICES_UTILIZATION_THRESHOLD"
CURVE = "PERF_CURVE_TABLE"
LOW_POWER = "LOW_POWER_DEVICE"


def tiny(rt, name="m"):
    """Every op named (the blob key hashes friendly names, not the generated unique names)."""
    import numpy as np

    x = rt.ops.parameter([1, 4], rt.Type.f32, name="x")
    w = rt.ops.constant(np.arange(16, dtype=np.float32).reshape(4, 4), name="w")
    y = rt.ops.relu(rt.ops.matmul(x, w, False, False, name="mm"), name="relu")
    return rt.Model([rt.ops.result(y, name="out")], [x], name)


# --- N04 / N05: the three properties ---------------------------------------------------------------
def test_n04_defaults_and_readback_match_the_wheel():
    def script(rt):
        core = rt.new_core()
        defaults = [core.get_property("AUTO", k) for k in (THRESHOLD, CURVE, LOW_POWER)]
        core.set_property("AUTO", {THRESHOLD: {"GPU": 55, "CPU": 78},
                                   CURVE: {"iGPU": {50: 2, 0: 1}, "CPU": {0: 3.5}},
                                   LOW_POWER: 5})
        stored = [core.get_property("AUTO", k) for k in (THRESHOLD, CURVE, LOW_POWER)]
        return defaults, stored

    real, lab = both(script)
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert repr(real.value) == repr(lab.value)  # values, types and key order


BAD = [
    (THRESHOLD, {"CPU": 78.5}), (THRESHOLD, {"CPU": 150}), (THRESHOLD, {"CPU": -1}),
    (THRESHOLD, {"CPU": True}), (THRESHOLD, {"CPU": "50"}), (THRESHOLD, {5: 50}),
    (THRESHOLD, "CPU:50"), (THRESHOLD, [1, 2]), (THRESHOLD, 5),
    (CURVE, {"CPU": {}}), (CURVE, {"FOO": {0: 1.0}}), (CURVE, {"GPU": {0: 1.0}}),
    (CURVE, {"CPU": {150: 1.0}}), (CURVE, {"CPU": {0: -1.0}}), (CURVE, {"CPU": {0: 1.5, 100: 2.25},
                                                                         "NPU": {}}),
    (CURVE, {"CPU": {50.5: 1.0}}), (CURVE, {"CPU": {"a": 1.0}}), (CURVE, {"CPU": {-5: 1.0}}),
    (CURVE, {"CPU": {0: "x"}}), (CURVE, {"CPU": [1, 2]}), (CURVE, {5: {0: 1.0}}), (CURVE, "abc"),
]


@pytest.mark.parametrize("key, value", BAD, ids=[f"{k}={v!r}" for k, v in BAD])
def test_n05_bad_values_give_the_wheels_errors(key, value):
    def compile_it(rt):
        return rt.new_core().compile_model(tiny(rt), "AUTO", {key: value})

    real, lab = both(compile_it)
    assert_same_error(real, lab)

    def set_it(rt):
        core = rt.new_core()
        core.get_property("AUTO", "FULL_DEVICE_NAME")  # the plugin exists before the set
        core.set_property("AUTO", {key: value})

    real, lab = both(set_it)
    assert_same_error(real, lab)
    assert str(real.exc) == str(lab.exc)  # the whole chain, line numbers included


@pytest.mark.parametrize("value", ["NPU", "FOO", "", 5, None, ["NPU"]])
def test_n05_low_power_device_accepts_any_value(value):
    def script(rt):
        return rt.new_core().compile_model(tiny(rt), "AUTO", {LOW_POWER: value}).get_property(
            "EXECUTION_DEVICES")

    real, lab = both(script)
    assert not real.raised and not lab.raised and real.value == lab.value == ["CPU"]


# --- N14-N16: CACHE_DIR ----------------------------------------------------------------------------
def test_n14_a_second_core_loads_the_blob_and_the_cpu_key_ignores_the_hint(tmp_path):
    def script(rt):
        cache = tmp_path / rt.name
        first = rt.new_core()
        first.set_property({"CACHE_DIR": str(cache)})
        a = first.compile_model(tiny(rt), "CPU").get_property("LOADED_FROM_CACHE")
        second = rt.new_core()
        second.set_property({"CACHE_DIR": str(cache)})
        b = second.compile_model(tiny(rt), "CPU").get_property("LOADED_FROM_CACHE")
        c = second.compile_model(tiny(rt), "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"}).get_property(
            "LOADED_FROM_CACHE")
        d = second.compile_model(tiny(rt, "other"), "CPU").get_property("LOADED_FROM_CACHE")
        e = second.compile_model(tiny(rt), "AUTO").get_property("LOADED_FROM_CACHE")
        blobs = sorted(p.suffix for p in cache.iterdir())
        header = sorted(cache.iterdir())[0].read_bytes().split(b"\n")[0]
        return [a, b, c, d, e], blobs, header.startswith(b'<?xml version="1.0"?><compiled_blob ')

    real, lab = both(script)
    assert not real.raised and not lab.raised, (real.message, lab.message)
    # the renamed model ("other") loads the same blob: the model's name is not in the key
    assert real.value == lab.value == ([False, True, True, True, True], [".blob"], True)


def test_n15_the_key_follows_weights_names_and_rt_info(tmp_path):
    def script(rt):
        import numpy as np

        core = rt.new_core()
        core.set_property({"CACHE_DIR": str(tmp_path / rt.name)})
        loaded = []
        base = tiny(rt)
        loaded.append(core.compile_model(base, "CPU").get_property("LOADED_FROM_CACHE"))
        heavier = tiny(rt)
        for op in heavier.get_ops():
            if op.get_friendly_name() == "relu":
                op.get_rt_info()["affinity"] = "CPU"
        loaded.append(core.compile_model(heavier, "CPU").get_property("LOADED_FROM_CACHE"))
        x = rt.ops.parameter([1, 4], rt.Type.f32, name="x")
        w = rt.ops.constant(np.arange(16, dtype=np.float32).reshape(4, 4) * 2, name="w")
        y = rt.ops.relu(rt.ops.matmul(x, w, False, False, name="mm"), name="relu")
        other_weights = rt.Model([rt.ops.result(y, name="out")], [x], "m")
        loaded.append(core.compile_model(other_weights, "CPU").get_property("LOADED_FROM_CACHE"))
        loaded.append(core.compile_model(tiny(rt), "CPU").get_property("LOADED_FROM_CACHE"))
        return loaded

    real, lab = both(script)
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert real.value == lab.value == [False, False, False, True]


@pytest.mark.parametrize("how", ["core", "config"])
def test_n16_a_path_that_cannot_be_created_fails(tmp_path, how):
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    target = str(blocker / "sub")

    def script(rt):
        core = rt.new_core()
        if how == "core":
            core.set_property({"CACHE_DIR": target})
        else:
            core.compile_model(tiny(rt), "CPU", {"CACHE_DIR": target})

    real, lab = both(script)
    assert_same_error(real, lab)
    assert str(real.exc) == str(lab.exc)
    assert meaningful_line(str(lab.exc)) == (
        f'Couldn\'t create directory ["{target}"], err=Not a directory)')


def test_n16_an_existing_file_is_accepted_and_nothing_is_cached(tmp_path):
    def script(rt):
        path = tmp_path / f"{rt.name}.file"
        path.write_text("x")
        core = rt.new_core()
        core.set_property({"CACHE_DIR": str(path)})
        flags = [core.compile_model(tiny(rt), "CPU").get_property("LOADED_FROM_CACHE")
                 for _ in range(2)]
        return flags, path.read_text()

    real, lab = both(script)
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert real.value == lab.value == ([False, False], "x")


def test_n16_missing_parents_are_created(tmp_path):
    def script(rt):
        path = tmp_path / rt.name / "a" / "b"
        core = rt.new_core()
        core.set_property({"CACHE_DIR": str(path)})
        core.compile_model(tiny(rt), "CPU")
        return sorted(p.suffix for p in path.iterdir())

    real, lab = both(script)
    assert real.value == lab.value == [".blob"]


def test_n16_a_broken_blob_is_compiled_again_and_rewritten(tmp_path):
    def script(rt):
        cache = tmp_path / rt.name
        core = rt.new_core()
        core.set_property({"CACHE_DIR": str(cache)})
        core.compile_model(tiny(rt), "CPU")
        for blob in cache.iterdir():
            blob.write_bytes(b"garbage")
        again = rt.new_core()
        again.set_property({"CACHE_DIR": str(cache)})
        flags = [again.compile_model(tiny(rt), "CPU").get_property("LOADED_FROM_CACHE")
                 for _ in range(2)]
        return flags, [b.read_bytes() != b"garbage" for b in cache.iterdir()]

    real, lab = both(script)
    assert real.value == lab.value == ([False, True], [True])


def test_n16_cwd_is_a_temporary_directory():
    """The conformance tests write caches under pytest's tmp_path only (conftest chdir)."""
    assert not Path(os.getcwd()).samefile(Path(__file__).resolve().parents[2])
    assert LAB.name == "ovlab" and REAL.name == "openvino"


def test_n14_hetero_caches_the_model_as_a_whole(tmp_path):
    def script(rt):
        cache = tmp_path / rt.name
        flags = []
        for _ in range(2):
            core = rt.new_core()
            core.set_property({"CACHE_DIR": str(cache)})
            flags.append(core.compile_model(tiny(rt), "HETERO:CPU").get_property(
                "LOADED_FROM_CACHE"))
        return flags, len(list(cache.iterdir()))

    real, lab = both(script)
    assert not real.raised and not lab.raised, (real.message, lab.message)
    assert real.value == lab.value == ([False, True], 1)  # one blob: HETERO's, not the CPU's
