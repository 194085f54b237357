"""``%load_ext ovlab`` in a kernel, ``ovlab.install()`` / ``uninstall()`` from Python."""

from __future__ import annotations

import sys
import time

import pytest

import ovlab


def test_load_ext_installs_with_defaults_and_unload_removes_everything(capsys):
    meta = list(sys.meta_path)
    ovlab.load_ipython_extension(None)  # what %load_ext ovlab calls
    assert capsys.readouterr().out == (
        "ovlab: 'import openvino' now runs on the virtual 'laptop' platform (seed 0) in "
        "simulated time; %unload_ext ovlab to stop\n")
    import openvino as ov

    assert ov.Core().available_devices == ["CPU", "GPU"]
    time.sleep(10)
    assert time.perf_counter() == pytest.approx(10.0)
    ovlab.unload_ipython_extension(None)
    assert capsys.readouterr().out == "ovlab: openvino and time are real again\n"
    assert sys.meta_path == meta and not ovlab.sim.runner.installed()


def test_load_ext_keeps_a_session_installed_with_other_arguments(capsys):
    ovlab.install(platform="cpu", seed=7)
    ovlab.load_ipython_extension(None)
    assert "'cpu' platform (seed 7)" in capsys.readouterr().out


def test_extension_loads_through_ipython():
    ipython = pytest.importorskip("IPython")
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    try:
        shell.run_line_magic("load_ext", "ovlab")
        assert ovlab.sim.runner.installed()
        shell.run_line_magic("unload_ext", "ovlab")
        assert not ovlab.sim.runner.installed()
    finally:
        ovlab.uninstall()
    assert ipython
