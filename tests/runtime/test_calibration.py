"""The presets against the seeds' figures (issue 2: ground the numbers).

Seeds: GoogLeNet-v1 runs at ~15-30 ms on the laptop CPU while the GPU compiles and ~3-16 ms on its
Iris Xe iGPU; an iGPU compile of GoogLeNet takes several seconds (the switch in the seed's latency
graph comes after ~230-250 requests 30 ms apart, i.e. ~7 s); big models take about 10 s.
"""

import numpy as np
import pytest

import ovlab
from ovlab import zoo


def _latencies(core, compiled, n=200):
    req = compiled.create_infer_request()
    out = []
    for _ in range(n):
        req.start_async()  # timing only: the outputs are never read, so never computed
        req.wait()
        out.append(req.latency)
    return np.array(out[1:])  # without the first (warm-up) inference


def test_googlenet_on_the_laptop_cpu_and_igpu():
    core = ovlab.Core("laptop")
    model = zoo.load("googlenet-v1", "FP16")
    cpu = _latencies(core, core.compile_model(model, "CPU"))
    gpu = _latencies(core, core.compile_model(model, "GPU", {"ALLOW_AUTO_BATCHING": False}))
    assert 8 <= np.median(cpu) <= 20  # alone; 15-30 ms while the GPU compiles (A16)
    assert 3 <= np.percentile(gpu, 5) and np.percentile(gpu, 95) <= 16
    assert np.median(gpu) < np.median(cpu)


def test_a16_cpu_slows_down_while_the_gpu_compiles():
    core = ovlab.Core("laptop")
    model = zoo.load("googlenet-v1", "FP16")
    cpu = core.compile_model(model, "CPU")
    alone = _latencies(core, cpu, 50)
    core._start_compile(model, "GPU.0", {"ALLOW_AUTO_BATCHING": False})  # in the background
    busy = _latencies(core, cpu, 50)
    assert 15 <= np.median(busy) <= 30
    assert np.median(busy) > 1.4 * np.median(alone)
    assert np.std(busy) > np.std(alone)


@pytest.mark.parametrize("name, low, high", [("googlenet-v1", 5.0, 9.0), ("resnet-50", 8.0, 13.0)])
def test_gpu_compile_times(name, low, high):
    core = ovlab.Core("laptop")
    core.compile_model(zoo.load(name, "FP16"), "GPU", {"ALLOW_AUTO_BATCHING": False})
    assert low <= core.clock.now <= high


def test_batching_costs_less_than_n_single_runs():
    from ovlab.sim.hardware import cost

    spec = ovlab.preset("laptop").devices["GPU.0"]
    model = zoo.load("googlenet-v1", "FP16")
    one = cost.inference_time(spec, model._cost(1), "f16")
    sixteen = cost.inference_time(spec, model._cost(16), "f16")
    assert one < sixteen < 16 * one
    assert cost.optimal_batch_size(spec, model._cost(1)) == 16
