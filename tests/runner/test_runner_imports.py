"""The import hook: what ``import openvino`` gives while ovlab is installed, and that
``uninstall()`` leaves nothing behind."""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import ovlab
from ovlab.sim.runner import served


def _openvino_modules() -> dict:
    return {n: m for n, m in sys.modules.items() if n == "openvino" or n.startswith("openvino.")}


def test_install_serves_openvino_and_uninstall_restores_everything():
    before_modules = _openvino_modules()
    before_meta = list(sys.meta_path)
    before_time = {n: getattr(time, n) for n in ("time", "perf_counter", "monotonic", "sleep",
                                                 "time_ns", "perf_counter_ns", "monotonic_ns")}
    session = ovlab.install(platform="workstation", seed=5)
    import openvino as ov
    import openvino.properties.hint as hints

    assert ov.Core.__module__ == "ovlab.sim.runner.served"
    core = ov.Core()
    assert core.available_devices == ["CPU", "GPU.0", "GPU.1", "NPU"]
    assert core.clock is session.clock and core.seed == 5
    assert hints.PerformanceMode is ovlab.properties.hint.PerformanceMode
    assert time.sleep is not before_time["sleep"]
    ovlab.uninstall()
    assert sys.meta_path == before_meta
    assert _openvino_modules() == before_modules  # the real ones (if any) are back, the same objects
    assert {n: getattr(time, n) for n in before_time} == before_time
    assert ovlab.properties.hint.__name__ == "ovlab.properties.hint"  # ovlab's modules untouched
    with pytest.raises(RuntimeError, match="uninstalled"):
        ov.Core()


def test_real_openvino_imported_before_install_is_shadowed_then_restored():
    real = pytest.importorskip("openvino")
    assert real.Core.__module__ != "ovlab.sim.runner.served"
    ovlab.install()
    served_ov = importlib.import_module("openvino")
    assert served_ov is not real and served_ov.Core.__module__ == "ovlab.sim.runner.served"
    ovlab.uninstall()
    assert importlib.import_module("openvino") is real


def test_openvino_runtime_is_absent_as_in_2026():
    ovlab.install()
    with pytest.raises(ModuleNotFoundError, match=r"^No module named 'openvino.runtime' \(.*2026"):
        importlib.import_module("openvino.runtime")
    with pytest.raises(ModuleNotFoundError, match="No module named 'openvino.tools.nothing'"):
        importlib.import_module("openvino.tools.nothing")  # the wheel's tools: see wheel_tools


def test_every_real_opset_module_is_served_with_its_names():
    names = json.loads((Path(served.__file__).with_name("openvino_names.json")).read_text())
    ovlab.install()
    for short, ops in names["opsets"].items():
        mod = importlib.import_module(f"openvino.{short}")
        assert sorted(dir(mod)) == sorted(ops)
    import openvino.opset8 as ops8

    assert ops8.relu is ovlab.opset.relu  # ops ovlab has are ovlab's builders
    missing = next(n for n in names["opsets"]["opset8"] if n not in ovlab.opset.__all__)
    fn = getattr(ops8, missing)  # importing a missing op works...
    with pytest.raises(NotImplementedError, match=f"openvino.opset8.{missing}: ovlab has no "
                                                  f"'{missing}' op"):
        fn()  # ...using it says which op and opset
    with pytest.raises(AttributeError):
        ops8.not_an_op  # noqa: B018 - names the real opset lacks do not exist


def test_top_level_forwards_new_ovlab_names_and_stands_in_for_unsimulated_ones(monkeypatch):
    ovlab.install()
    import openvino as ov

    monkeypatch.setattr(ovlab, "save_model", lambda *a: "saved", raising=False)
    assert ov.save_model() == "saved"  # a name ovlab gains shows up at once
    from openvino import RemoteTensor  # importing an unsimulated class works

    with pytest.raises(NotImplementedError, match="remote tensors"):
        RemoteTensor()
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        ov.NoSuchThing  # noqa: B018


def test_served_core_shares_the_session_clock_and_compile_model_uses_it():
    session = ovlab.install(platform="cpu")
    import openvino as ov

    a, b = ov.Core(), ov.Core()
    assert a.clock is b.clock is session.clock
    compiled = ov.compile_model(ovlab.zoo.load("small-cnn"), "CPU")
    t0 = time.perf_counter()
    compiled.create_infer_request().infer(np.zeros(compiled.input().get_shape(), np.float32))
    assert time.perf_counter() - t0 > 0
    with pytest.raises(NotImplementedError, match="plugin configuration files"):
        ov.Core("plugins.xml")


def test_install_twice_starts_a_fresh_session():
    first = ovlab.install()
    time.sleep(3)
    second = ovlab.install(platform="cpu")
    assert second is not first and second.clock.now == 0.0
    assert ovlab.sim.runner.current_session() is second


@pytest.mark.parametrize(("kwargs", "error"), [({"platform": "nosuch"}, ValueError),
                                               ({"seed": "1"}, TypeError),
                                               ({"realtime": -1.0}, ValueError)])
def test_install_rejects_bad_arguments_and_installs_nothing(kwargs, error):
    meta = list(sys.meta_path)
    with pytest.raises(error):
        ovlab.install(**kwargs)
    assert sys.meta_path == meta and not ovlab.sim.runner.installed()


def test_every_top_level_name_of_the_wheel_is_served():
    ovlab.install()
    import openvino as ov

    for name in served.NAMES["top"]:
        assert getattr(ov, name) is not None, name  # real, or a stand-in that raises when used
    for name in ("Layout", "Dimension", "OVAny", "ConstOutput", "Output", "Node", "Input",
                 "layout_helpers", "get_batch", "set_batch", "Extension", "Tensor", "Type"):
        assert getattr(ov, name) is getattr(ovlab, name), name  # ovlab's own, not a stand-in
    assert ov.Type.u32.get_type_name() == "u32"


def test_star_import_gives_the_openvino_names():
    ovlab.install()
    namespace: dict = {}
    exec("from openvino import *", namespace)  # noqa: S102 - what a script may write
    assert namespace["Core"].__module__ == "ovlab.sim.runner.served"
    assert namespace["Layout"] is ovlab.Layout and "compile_model" in namespace
