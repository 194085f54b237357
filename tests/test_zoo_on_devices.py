"""Every zoo model runs on every device of every platform preset and gives the class the CPU
gives in f32 (issue 3). A device that lacks one of a model's ops (the workstation NPU has no LRN,
so GoogLeNet-v1 and AlexNet) refuses to compile it, as a real plugin does, and runs it through
``HETERO:<device>,CPU`` instead: the unsupported layers fall back to the CPU."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
from ovlab import zoo

# identical device specs (the three Flex GPUs, the laptop CPU reused by the workstation) are
# tested once
CASES = []
_kept: list = []  # the specs seen (by id() they differed between pytest-xdist workers: a freed
# spec's id() can be reused by the next one)
for _platform in ovlab.sim.hardware.PRESETS:  # the seed's machines and the fitted ones
    for _name, _spec in ovlab.preset(_platform).devices.items():
        if _spec not in _kept:  # by value: equal specs (the Flex GPUs) are tested once
            _kept.append(_spec)
            CASES.append((_platform, _name))


@pytest.fixture(scope="module")
def references():
    """Top-1 class of each zoo model on the CPU in f32, for one fixed input."""
    out = {}
    for name in zoo.names():
        model = zoo.load(name)
        x = {0: np.random.default_rng(7).standard_normal(
            list(model.inputs[0].get_shape())).astype(np.float32)}
        out[name] = (x, int(np.argmax(model._evaluate(x, "f32")[0])))
    return out


@pytest.mark.parametrize("platform, device", CASES)
def test_every_zoo_model_runs_on_the_device_with_the_cpu_class(platform, device, references):
    core = ovlab.Core(platform)
    for name in zoo.names():
        model = zoo.load(name)
        x, expected = references[name]
        supported = core.query_model(model, device)
        target = device if len(supported) == len(model.get_ops()) else f"HETERO:{device},CPU"
        compiled = core.compile_model(model, target, {"ALLOW_AUTO_BATCHING": False}
                                      if not target.startswith("HETERO") else None)
        got = int(np.argmax(compiled(x)[0]))
        assert got == expected, f"{name} on {device} ({target}) of {platform}"
        if target.startswith("HETERO"):
            assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") > 1
            with pytest.raises(RuntimeError, match="are not supported"):
                core.compile_model(model, device)
