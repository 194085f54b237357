"""Platform files (issue 13): every preset round-trips, bad and foreign files fail naming the field."""

from __future__ import annotations

import json

import pytest

import ovlab
from ovlab.sim.hardware import PRESETS
from ovlab.sim.hardware import platform_file as pf
from ovlab.tools.benchmark import BenchmarkError, run


def _timings(platform) -> list[float]:
    """A few simulated figures that depend on every device of ``platform``."""
    out = []
    for device in platform.devices:
        if device.startswith("NPU") and not platform.devices[device].supports("LRN"):
            model = "resnet-50:FP16"
        else:
            model = "googlenet-v1:FP16"
        for hint in ("latency", "throughput"):
            rep = run(["-m", model, "-d", device, "-hint", hint, "-niter", "40"],
                      core=ovlab.Core(platform, seed=3))
            out += [rep.latency_median_ms, rep.throughput_fps, rep.compile_ms]
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips_with_the_same_timings(name, tmp_path):
    platform = ovlab.preset(name)
    path = pf.save(platform, tmp_path / f"{name}.json")
    loaded = pf.load(path)
    assert loaded.devices == platform.devices
    assert loaded.power_budget == platform.power_budget
    assert (loaded.name, loaded.description, loaded.notes, loaded.power_mode) == (
        platform.name, platform.description, platform.notes, platform.power_mode)
    assert _timings(loaded) == _timings(platform)


def test_core_and_benchmark_load_a_platform_file(tmp_path):
    path = str(pf.save(ovlab.preset("i7-1185g7"), tmp_path / "mine.json"))
    core = ovlab.Core(path)
    assert core.platform.name == "i7-1185g7" and core.available_devices == ["CPU", "GPU"]
    assert ovlab.preset(path).devices == ovlab.preset("i7-1185g7").devices
    rep = run(["-m", "resnet-50:INT8", "-d", "CPU", "-hint", "latency", "-niter", "20",
               "--platform", path])
    same = run(["-m", "resnet-50:INT8", "-d", "CPU", "-hint", "latency", "-niter", "20",
                "--platform", "i7-1185g7"])
    assert rep.latency_median_ms == same.latency_median_ms


def _good() -> dict:
    return pf.to_dict(ovlab.preset("i7-1185g7"))


def _with(change) -> dict:
    data = _good()
    change(data)
    return data


BAD = [
    (lambda d: d["devices"]["CPU"]["peak_gflops"].update(bf16=-3),
     "field 'devices.CPU.peak_gflops.bf16': -3 is less than or equal to the minimum of 0"),
    (lambda d: d["devices"]["CPU"].update(stream_share="both"),
     "field 'devices.CPU.stream_share': 'both' is not one of ['fixed', 'dynamic']"),
    (lambda d: d["devices"]["CPU"].pop("jitter"),
     "field 'devices.CPU': 'jitter' is a required property"),
    (lambda d: d["devices"]["CPU"].update(turbo=True),
     "field 'devices.CPU': Additional properties are not allowed ('turbo' was unexpected)"),
    (lambda d: d["devices"]["GPU.0"].update(per_op_s="fast"),
     "field 'devices.GPU.0.per_op_s': 'fast' is not of type 'number'"),
    (lambda d: d["devices"]["GPU.0"].update(range_for_streams=[1]),
     "field 'devices.GPU.0.range_for_streams'"),
    (lambda d: d["devices"].update(TPU=d["devices"]["CPU"]),
     "field 'devices': 'TPU' does not match"),
    (lambda d: d["devices"].update({"GPU.1": d["devices"].pop("CPU")}),
     "field 'devices': device 'GPU.1' is driven by the CPU plugin"),
    (lambda d: d["power_budget"]["draws"].update(NPU=5.0),
     "field 'power_budget': power budget: the platform has no device 'NPU'"),
    (lambda d: d["power_budget"].update(watts=0),
     "field 'power_budget.watts': 0 is less than or equal to the minimum of 0"),
    (lambda d: d.update(version=7), "field 'version': this ovlab reads version 1"),
    (lambda d: d.pop("name"), "field '(top level)': 'name' is a required property"),
]


@pytest.mark.parametrize("change, message", BAD)
def test_bad_fields_are_named(change, message, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(change)))
    with pytest.raises(pf.PlatformFileError) as err:
        ovlab.Core(str(path))
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("<?xml version='1.0'?><net name='x' version='11'/>", "not an ovlab platform file: not JSON"),
    ('{"devices": {}}', "not an ovlab platform file: field 'format' must be 'ovlab-platform'"),
    ("[1, 2]", "not an ovlab platform file (a JSON list, expected an object)"),
])
def test_foreign_files_are_refused(text, message, tmp_path):
    path = tmp_path / "model.json"
    path.write_text(text)
    with pytest.raises(pf.PlatformFileError) as err:
        pf.load(path)
    assert message in str(err.value)


def test_missing_file_and_benchmark_report(tmp_path):
    missing = str(tmp_path / "nowhere.json")
    with pytest.raises(pf.PlatformFileError, match="not found"):
        ovlab.Core(missing)
    with pytest.raises(BenchmarkError, match="nowhere.json' not found"):
        run(["-m", "mlp", "--platform", missing])
    with pytest.raises(ValueError, match="or give a platform file"):
        ovlab.Core("mars")


def test_schema_follows_devicespec():
    import dataclasses

    from ovlab.sim.hardware.specs import DeviceSpec

    props = pf.SCHEMA["properties"]["devices"]["additionalProperties"]["properties"]
    assert set(props) == {f.name for f in dataclasses.fields(DeviceSpec)}
    assert all(rule for rule in props.values())  # every field has a type
