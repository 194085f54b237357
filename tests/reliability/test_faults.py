"""Issue 17.5: injected faults fire, and bad names or counts are refused clearly."""

from __future__ import annotations

import pytest

import ovlab


def test_gpu_alias_fires_on_the_laptop(small_cnn):
    """The laptop lists ``GPU`` (its only GPU is GPU.0): a fault on "GPU" must fire."""
    core = ovlab.Core("laptop", seed=0)
    core.faults.fail_compile("GPU")
    with pytest.raises(RuntimeError, match=r"compile failed on GPU.0"):
        core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
    compiled = core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
    core.faults.fail_inference("GPU", nth=2)
    request = compiled.create_infer_request()
    request.infer()
    with pytest.raises(RuntimeError, match="inference failed on GPU.0"):
        request.infer()
    request.infer()


def test_gpu_means_gpu0_on_the_workstation(small_cnn):
    core = ovlab.Core("workstation", seed=0)
    core.faults.fail_inference("GPU", nth=1)
    first = core.compile_model(small_cnn, "GPU.1", {"ALLOW_AUTO_BATCHING": False})
    first.create_infer_request().infer()  # GPU.1 is not GPU
    second = core.compile_model(small_cnn, "GPU.0", {"ALLOW_AUTO_BATCHING": False})
    with pytest.raises(RuntimeError, match="inference failed on GPU.0"):
        second.create_infer_request().infer()


@pytest.mark.parametrize("name", ["FOO", "GPU.7", "NPU", "AUTO", "HETERO:GPU,CPU", "gpu", ""])
def test_unknown_devices_are_refused(name):
    core = ovlab.Core("laptop", seed=0)
    with pytest.raises(ValueError, match="laptop"):
        core.faults.fail_compile(name)
    with pytest.raises(ValueError, match="laptop"):
        core.faults.fail_inference(name)


@pytest.mark.parametrize("times", [0, -1, 1.5, "2", True])
def test_bad_compile_counts_are_refused(small_cnn, times):
    core = ovlab.Core("laptop", seed=0)
    with pytest.raises((ValueError, TypeError), match="times"):
        core.faults.fail_compile("GPU", times=times)
    core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})  # nothing armed


@pytest.mark.parametrize("kwargs", [{"nth": 0}, {"nth": -2}, {"count": 0}, {"count": -1},
                                    {"nth": 1.5}, {"count": "3"}])
def test_bad_inference_counts_are_refused(kwargs):
    core = ovlab.Core("laptop", seed=0)
    with pytest.raises((ValueError, TypeError), match="nth|count"):
        core.faults.fail_inference("CPU", **kwargs)


def test_times_none_fails_every_compile(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    core.faults.fail_compile("GPU", times=None)
    for _ in range(3):
        with pytest.raises(RuntimeError, match="compile failed"):
            core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
    core.faults.clear()
    core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
