"""``ovlab calibrate`` (issue 13): the real runtime measured into a platform file ovlab loads.

The measurement itself takes wall time on the real runtime (a few seconds with two tiny models);
the assertions are about structure and the fit's consistency, never about wall times."""

from __future__ import annotations

import json

import pytest

import ovlab
from ovlab import cli
from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.calibration import measure
from ovlab.sim.hardware import platform_file

needs_openvino = pytest.mark.skipif(measure.openvino_or_none() is None,
                                    reason="the real openvino is not installed")


@needs_openvino
# ovlab calibrate times the real CPU as benchmark_app does, in the host's default precision (the
# platform file records it); the test reads timings and a file, and compares no numbers
@pytest.mark.host_precision
def test_calibrate_writes_a_platform_file_that_loads(tmp_path, capsys):
    out = tmp_path / "my-machine.json"
    assert cli.main(["calibrate", "-o", str(out), "-m", "mlp,small-cnn", "-d", "CPU",
                     "--repeat", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Measuring CPU" in printed and f"Wrote {out}" in printed
    data = json.loads(out.read_text())
    assert data["format"] == "ovlab-platform" and data["name"] == "my-machine"
    prov = data["provenance"]
    assert prov["tool"] == "ovlab calibrate" and prov["models"] == ["mlp", "small-cnn"]
    assert len(prov["devices"]["CPU"]["measured"]) == 8  # 2 models x 2 precisions x 2 modes
    assert all(len(m["passes"]) == 1 for m in prov["devices"]["CPU"]["measured"])  # --repeat 1
    platform = platform_file.load(out)
    spec = platform.devices["CPU"]
    assert spec.fuse_ops and spec.full_name == str(
        measure.openvino_or_none().Core().get_property("CPU", "FULL_DEVICE_NAME"))
    # the schema's bound (a one-pass run on a busy machine may leave a precision unfitted: 0);
    # how well the fit reproduces the measurement depends on the machine's noise, so it is
    # printed, not asserted (tests/hardware/test_this_machine.py checks the fit on fake figures)
    assert all(0 <= e <= 0.95 for e in spec.efficiency_by_precision.values())
    assert set(prov["devices"]["CPU"]["fit_ratios"]) == {
        f"{m}:{p} {mode}" for m in ("mlp", "small-cnn") for p in ("FP32", "INT8")
        for mode in ("latency", "throughput")}
    core = ovlab.Core(str(out))
    assert core.available_devices == ["CPU"]
    compiled = core.compile_model(ovlab.zoo.load("small-cnn"), "CPU")
    compiled.create_infer_request().infer()


def test_calibrate_without_openvino_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(measure, "openvino_or_none", lambda: None)
    assert cli.main(["calibrate", "-o", str(tmp_path / "x.json")]) == 1
    assert "[ ERROR ] ovlab calibrate measures the real OpenVINO runtime, which is not " \
           "installed here: pip install openvino" in capsys.readouterr().out
    assert not (tmp_path / "x.json").exists()


@needs_openvino
@pytest.mark.parametrize("args, message", [
    (["-m", "mlp,vgg-16"], "unknown zoo model 'vgg-16'"),
    (["-d", "GPU.3"], "device 'GPU.3' is not available here"),
])
def test_calibrate_bad_options(args, message, tmp_path, capsys):
    assert cli.main(["calibrate", "-o", str(tmp_path / "x.json"), *args]) == 1
    assert message in capsys.readouterr().out


def test_cpu_peaks_from_the_instruction_set():
    info = {"cores": 4, "threads": 8, "clock_ghz": 3.0,
            "flags": {"avx2", "fma", "avx512f", "avx512_vnni"}}
    assert cal.cpu_peaks(info) == {"f32": 768.0, "i8": 3072.0}
    info["flags"] = {"avx2", "fma", "avx_vnni", "avx512_bf16", "avx512f"}
    assert cal.cpu_peaks(info)["bf16"] == 1536.0
    info["flags"] = {"sse4_2"}
    assert cal.cpu_peaks(info) == {"f32": 192.0, "i8": 384.0}
