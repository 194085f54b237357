"""``python -m ovlab run``: scripts and modules run as with ``python``, with ovlab serving
``openvino`` and simulating time; exit statuses as ``python`` gives them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "OPENBLAS_NUM_THREADS": "1", **env}
    environ["PYTHONPATH"] = str(ROOT)  # the worktree's ovlab, whatever the cwd
    return subprocess.run([sys.executable, "-m", "ovlab", "run", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=environ)


def script(tmp_path: Path, body: str, name: str = "script.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def test_script_runs_on_the_virtual_laptop_in_simulated_time(tmp_path):
    path = script(tmp_path, """
        import sys, time
        import numpy as np
        import openvino as ov
        core = ov.Core()
        print(core.available_devices)
        model = core.read_model("googlenet-v1")
        t0 = time.perf_counter()
        compiled = core.compile_model(model, "GPU")
        print(f"compile {time.perf_counter() - t0:.2f} s")
        time.sleep(2.5)
        print(f"after sleep {time.perf_counter() - t0:.2f} s")
        print(sys.argv[1:], __name__)
    """)
    out = run([str(path), "a", "--b"], tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "['CPU', 'GPU']"
    compile_s = float(lines[1].split()[1])
    assert 5 < compile_s < 10  # the iGPU's ~7 s compile, in simulated time
    assert float(lines[2].split()[2]) == pytest.approx(compile_s + 2.5, abs=0.011)
    assert lines[3] == "['a', '--b'] __main__"


def test_same_seed_same_output_and_platform_option(tmp_path):
    path = script(tmp_path, """
        import time
        import openvino as ov
        core = ov.Core()
        print(core.available_devices)
        compiled = core.compile_model(core.read_model("small-cnn"), "CPU")
        request = compiled.create_infer_request()
        t0 = time.perf_counter()
        for _ in range(5):
            request.infer()
        print(repr(time.perf_counter() - t0), repr(time.time()))
    """)
    first = run(["--platform", "workstation", "--seed", "3", str(path)], tmp_path)
    second = run(["--platform=workstation", "--seed=3", str(path)], tmp_path)
    other = run(["--platform", "workstation", "--seed", "4", str(path)], tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert first.stdout.splitlines()[0] == "['CPU', 'GPU.0', 'GPU.1', 'NPU']"
    assert other.stdout != first.stdout  # the jitter follows the seed


def test_module_mode_runs_a_module_with_its_arguments(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    script(pkg, """
        import sys
        import openvino
        print("module", __name__, sys.argv[1:], type(openvino.Core()).__module__)
    """, "__main__.py")
    out = run(["-m", "mypkg", "x", "y"], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "module __main__ ['x', 'y'] ovlab.sim.runner.served"


def test_script_error_gives_traceback_and_status_1_without_runner_frames(tmp_path):
    path = script(tmp_path, """
        def boom():
            raise ValueError("bad value")
        boom()
    """)
    out = run([str(path)], tmp_path)
    assert out.returncode == 1
    assert out.stderr.startswith("Traceback (most recent call last):")
    assert "ValueError: bad value" in out.stderr
    assert "runpy" not in out.stderr and "runner/cli.py" not in out.stderr
    assert f'File "{path}", line 4' in out.stderr


@pytest.mark.parametrize(("code", "status", "stderr"), [
    ("import sys; sys.exit(3)", 3, ""),
    ("import sys; sys.exit()", 0, ""),
    ("import sys; sys.exit('stopped')", 1, "stopped"),
])
def test_sys_exit_status_as_python(tmp_path, code, status, stderr):
    out = run([str(script(tmp_path, code))], tmp_path)
    assert out.returncode == status
    assert out.stderr.strip() == stderr


@pytest.mark.parametrize("args", [["missing.py"], ["-m", "no_such_module_here"], [],
                                  ["--seed", "x", "a.py"], ["--platform", "nosuch", "a.py"],
                                  ["--frobnicate", "a.py"]])
def test_bad_command_lines_exit_2_with_usage(tmp_path, args):
    (tmp_path / "a.py").write_text("print('ran')\n")
    out = run(args, tmp_path)
    assert out.returncode == 2
    assert "usage: python -m ovlab run" in out.stderr
    assert "ran" not in out.stdout


def test_zoo_stem_fallback_loads_the_zoo_model_and_says_so(tmp_path):
    path = script(tmp_path, """
        import openvino as ov
        model = ov.Core().read_model("./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml")
        print(model.get_friendly_name(), model.input().get_element_type())
    """)
    out = run([str(path)], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "googlenet-v1 <Type: 'float16'>"
    assert out.stderr.strip() == (
        "[ ovlab ] ./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml does not exist: loading "
        "ovlab's zoo model 'googlenet-v1' (FP16, real topology, random weights) instead")


def test_real_openvino_is_shadowed_only_inside_the_runner(tmp_path):
    probe = script(tmp_path, """
        import openvino
        print(openvino.Core.__module__)
    """)
    inside = run([str(probe)], tmp_path)
    outside = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
    assert inside.stdout.strip() == "ovlab.sim.runner.served"
    if outside.returncode == 0:  # the real wheel is installed in the test venv
        assert outside.stdout.strip() != "ovlab.sim.runner.served"


def test_help_and_top_level_usage(tmp_path):
    out = run(["--help"], tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("usage: python -m ovlab run")
    top = subprocess.run([sys.executable, "-m", "ovlab", "--help"], capture_output=True,
                         text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "run " in top.stdout and top.returncode == 0


def test_realtime_option_paces_the_session_clock(tmp_path):
    path = script(tmp_path, """
        import openvino as ov
        print(ov.Core().clock.realtime)
    """)
    out = run(["--realtime", "50", str(path)], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "50.0"
    assert run(["--realtime", "0", str(path)], tmp_path).returncode == 2
