"""The real wheel's benchmark_app on virtual devices: ``python -m ovlab run benchmark_app ...``.

These run the copy of ``openvino/tools/benchmark`` shipped in the installed wheel, unchanged,
and check the structure of what it prints (it completes, reports a throughput, names the
devices), not its figures. Without the wheel they are skipped.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ovlab
from ovlab.sim.runner import wheel_tools

pytestmark = pytest.mark.skipif(wheel_tools.wheel_dir() is None,
                                reason="the openvino wheel (with openvino/tools) is not installed")
ROOT = Path(__file__).parents[2]


def benchmark_app(*args: str, entry: tuple[str, ...] = ("benchmark_app",),
                  cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "ovlab", "run", *entry, *args], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=600)


def report(out: str) -> dict[str, str]:
    """Step 11's lines of benchmark_app as {key: value}."""
    tail = out[out.index("[Step 11/11]"):]
    return dict(re.findall(r"\[ INFO \] +([A-Za-z ]+?):\s*(.+)", tail))


@pytest.mark.parametrize("args, devices", [
    (("-d", "CPU", "-t", "5"), ["CPU"]),
    (("-d", "GPU", "-hint", "throughput", "-niter", "64", "-nireq", "8"), ["GPU.0"]),
    (("-d", "AUTO", "-hint", "latency", "-niter", "20"), ["(CPU)"]),
    (("-d", "CPU", "-api", "sync", "-niter", "10"), ["CPU"]),
])
def test_the_real_benchmark_app_runs_on_virtual_devices(args, devices, tmp_path):
    run = benchmark_app("-m", "small-cnn", *args, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    steps = re.findall(r"^\[Step (\d+)/11\]", run.stdout, re.M)
    assert steps == [str(n) for n in range(1, 12)]
    assert "2026.4.1-ovlab" in run.stdout  # the served openvino, not the real runtime
    figures = report(run.stdout)
    assert eval(figures["Execution Devices"]) == devices  # noqa: S307 - a printed list
    assert float(figures["Throughput"].split()[0]) > 0
    count = int(figures["Count"].split()[0])
    if "-niter" in args:
        assert count >= int(args[args.index("-niter") + 1])
    if "-t" in args:  # simulated seconds: the run lasted them, whatever the wall time was
        assert float(figures["Duration"].split()[0]) >= 5000


def test_module_form_and_options_the_tool_checks(tmp_path):
    run = benchmark_app("-m", "small-cnn", "-d", "GPU", "-niter", "8", "-latency_percentile",
                        "90", entry=("-m", "openvino.tools.benchmark.main"), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "90 percentile:" in run.stdout
    bad = benchmark_app("-m", "small-cnn", "-nstreams", "2", cwd=tmp_path)
    assert bad.returncode == 1 and "-nstreams, -nthreads and -pin options" in bad.stdout


def test_the_tools_are_unloaded_with_the_runner():
    name = "openvino.tools.benchmark.parameters"
    # another test in this process may have imported the real wheel's module: uninstall must
    # put back exactly what was there before (that module, or nothing)
    before = sys.modules.get(name)
    ovlab.install()
    tool = importlib.import_module(name)
    assert tool is not before
    assert Path(tool.__file__).is_relative_to(wheel_tools.wheel_dir())
    assert importlib.import_module("openvino").Core.__module__ == "ovlab.sim.runner.served"
    ovlab.uninstall()
    assert sys.modules.get(name) is before
