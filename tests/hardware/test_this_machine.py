"""The ``this-machine`` platform (issue 21): cache key, reuse, refresh, the missing wheel.

The real measurement is replaced by a fake that answers at once with what the ``cpu`` preset's
own fit predicts (no wall time is measured here; ``benchmarks/bench_this_machine.py`` compares
the calibrated platform with the real wheel)."""

from __future__ import annotations

import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

import ovlab
from ovlab import cli
from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.calibration import fit, measure
from ovlab.sim.calibration import this_machine as tm
from ovlab.sim.hardware import host

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from fake_hosts import FAKE_HOSTS  # noqa: E402

XEON = host.parse_cpuinfo(FAKE_HOSTS["xeon-amx"])


@pytest.fixture
def fake_machine(monkeypatch, tmp_path):
    """A Xeon host, a stand-in wheel and a measurement that answers from a known spec at once;
    returns the list of measure() calls."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(host, "describe", lambda: XEON)
    wheel = types.SimpleNamespace(get_version=lambda: "2026.4.1-fake",
                                  Core=lambda: types.SimpleNamespace(available_devices=["CPU"]))
    monkeypatch.setattr(measure, "openvino_or_none", lambda: wheel)
    monkeypatch.setattr(tm, "openvino_version", lambda: "2026.4.1")
    monkeypatch.setattr(cal, "DEFAULT_MODELS", ("mlp", "small-cnn"))
    truth = host.host_spec(XEON)  # what the fake machine does (the fit starts elsewhere: cpu)
    monkeypatch.setattr(cal, "device_template", lambda core, device: host.host_spec(XEON))
    calls = []

    def fake_measure(items, *, device, repeat, echo):
        calls.append(list(items))
        out = []
        for _ in range(repeat):
            for model, precision in items:
                for mode in ("latency", "throughput"):
                    value = fit.predict(truth, model, precision, mode)
                    out.append(measure.Measurement(model, precision, device, mode, value, value,
                                                   [value], streams=truth.streams_throughput))
                echo(f"  {model}:{precision} on {device}: (fake)")
        return out

    monkeypatch.setattr(measure, "measure", fake_measure)
    return calls


def test_the_cache_key_names_the_cpu_its_size_and_the_wheel():
    assert tm.cache_key(XEON, "2026.4.1") == "intel-xeon-platinum-8480-8cpu-ov2026.4.1"
    epyc = host.parse_cpuinfo(FAKE_HOSTS["epyc-avx2"])
    assert tm.cache_key(epyc, "2026.4.1") == "amd-epyc-7b13-4cpu-ov2026.4.1"
    assert tm.cache_key(XEON, "2026.4.1") != tm.cache_key(replace(XEON, threads=4), "2026.4.1")
    assert tm.cache_key(XEON, "2026.4.1") != tm.cache_key(XEON, "2026.5.0")


def test_the_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert tm.cache_dir() == tmp_path / "ovlab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tm.cache_dir() == tmp_path / "home" / ".cache" / "ovlab"


def test_first_use_calibrates_with_a_progress_bar_then_the_cache_is_reused(fake_machine, capsys):
    core = ovlab.Core(platform="this-machine")
    printed = capsys.readouterr()
    assert len(fake_machine) == 1
    assert "measuring this machine's CPU (Intel(R) Xeon(R) Platinum 8480+, 8 logical CPUs)" \
        in printed.out and "about 60 s on a quiet machine" in printed.out
    assert "[" + "#" * 30 + "] 8/8" in printed.err  # 2 models x 2 precisions x 2 passes
    assert core.get_property("CPU", "FULL_DEVICE_NAME") == "Intel(R) Xeon(R) Platinum 8480+"
    assert tm.cache_path().exists() and tm.cache_path().parent == tm.cache_dir()
    fitted = core.platform.devices["CPU"]
    truth = host.host_spec(XEON)
    for model in ("mlp", "small-cnn"):  # the fit reproduces what the fake machine measured
        assert fit.predict(fitted, model, "FP32", "latency") == pytest.approx(
            fit.predict(truth, model, "FP32", "latency"), rel=0.1)
    again = ovlab.Core(platform="this-machine")
    assert len(fake_machine) == 1 and capsys.readouterr().out == ""  # from the cache, silently
    assert again.platform.devices["CPU"] == fitted


def test_refresh_measures_again(fake_machine, capsys):
    tm.this_machine()
    assert cli.main(["calibrate", "--refresh"]) == 0
    assert len(fake_machine) == 2
    assert f"Wrote {tm.cache_path()}" in capsys.readouterr().out


def test_without_the_wheel_it_says_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(measure, "openvino_or_none", lambda: None)
    with pytest.raises(cal.CalibrateError, match="not installed here: pip install openvino"):
        ovlab.Core(platform="this-machine")
    assert cli.main(["calibrate", "--refresh"]) == 1
    assert "pip install openvino" in capsys.readouterr().out
    assert not (tmp_path / "ovlab").exists()


def test_benchmark_takes_this_machine(fake_machine, capsys):
    from ovlab import benchmark

    assert benchmark.main(["-m", "mlp", "-d", "CPU", "-niter", "4", "--platform",
                           "this-machine"]) == 0
    assert len(fake_machine) == 1


def test_the_runner_takes_this_machine(fake_machine):
    from ovlab.sim import runner

    session = runner.install("this-machine")
    try:
        assert session.platform.devices["CPU"].full_name == XEON.model
    finally:
        runner.uninstall()
    assert len(fake_machine) == 1


def test_a_cached_platform_loads_where_the_wheel_cannot_be_imported(fake_machine, monkeypatch):
    """Under the runner ``import openvino`` is ovlab's: the cached file is enough."""
    tm.this_machine(echo=None)
    monkeypatch.setattr(measure, "openvino_or_none", lambda: None)
    assert ovlab.Core(platform="this-machine").get_property("CPU", "FULL_DEVICE_NAME") == XEON.model
    assert len(fake_machine) == 1


def test_a_cache_written_by_an_older_cost_model_is_fitted_again_without_measuring(
        fake_machine, capsys):
    import json

    tm.this_machine()
    path = tm.cache_path()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["provenance"]["fit_version"] == cal.FIT_VERSION
    assert not tm.stale(path)
    del data["provenance"]["fit_version"]  # as an ovlab of before 2026-11-27 wrote it
    path.write_text(json.dumps(data), encoding="utf-8")
    assert tm.stale(path)
    capsys.readouterr()
    platform = tm.this_machine()
    assert len(fake_machine) == 1  # nothing measured again
    assert "fitting the cached 'this-machine' platform again" in capsys.readouterr().out
    again = json.loads(path.read_text(encoding="utf-8"))["provenance"]
    assert again["fit_version"] == cal.FIT_VERSION and again["tool"] == "ovlab calibrate --refit"
    assert platform.devices["CPU"].full_name == XEON.model
    assert not tm.stale(path) and tm.this_machine().devices["CPU"] == platform.devices["CPU"]
