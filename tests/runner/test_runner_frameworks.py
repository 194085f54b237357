"""A PyTorch forward pass under the runner takes simulated time: its FLOPs over the virtual
CPU's f32 peak times PYTORCH_EFFICIENCY (``ovlab/sim/runner/frameworks.py``)."""

from __future__ import annotations

import time

import pytest

import ovlab
from ovlab.sim.runner import frameworks

torch = pytest.importorskip("torch")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch.jit.trace is deprecated
def test_a_forward_pass_takes_its_flops_on_the_virtual_cpu_and_uninstall_restores_torch():
    original = torch.nn.Module.__call__
    net = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))
    x = torch.rand(4, 64)
    session = ovlab.install(platform="laptop", seed=0)
    try:
        with torch.no_grad():
            t0 = time.perf_counter()
            net(x)  # nested Linear calls are counted once, by the top-level call
            spent = time.perf_counter() - t0
        flops = 2 * 4 * (64 * 32 + 32 * 8)
        peak = session.platform.devices["CPU"].peak_gflops["f32"] * 1e9
        assert spent == pytest.approx(flops / (peak * frameworks.PYTORCH_EFFICIENCY))
        with torch.no_grad():
            t0 = time.perf_counter()
            torch.jit.trace(net, x, check_trace=False)  # tracing a model is not running it
            assert time.perf_counter() == t0
    finally:
        ovlab.uninstall()
    assert torch.nn.Module.__call__ is original
