"""Fixtures of the conformance tests (openvino vs ovlab "host"); helpers live in
``conformance_harness.py``.

Where ``openvino`` cannot be imported the folder is skipped: every test module imports
``conformance_harness``, whose ``pytest.importorskip("openvino")`` skips that module. The skip is
not raised here at import time on purpose: pytest cannot skip an *initial* conftest (one whose
folder is named on the command line, ``pytest tests/conformance``) and would abort instead.
"""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _fake_host():
    """``OVLAB_FAKE_HOST``: describe the host as another CPU (``fake_hosts.py``), for the
    any-machine guard; the ``host`` platform the tests run on then differs from the real one."""
    name = os.environ.get("OVLAB_FAKE_HOST")
    if not name:
        yield None
        return
    from fake_hosts import FAKE_HOSTS

    from ovlab.sim.hardware import host

    saved = host.describe
    fake = host.parse_cpuinfo(FAKE_HOSTS[name])
    host.describe = lambda: fake
    yield fake
    host.describe = saved


def _harness():
    pytest.importorskip("openvino", reason="the real openvino runtime is not installed")
    import conformance_harness

    return conformance_harness


@pytest.fixture(params=["openvino", "ovlab"])
def rt(request):
    """Parametrizes a test over both runtimes (for checks that read the same on each)."""
    harness = _harness()
    return harness.REAL if request.param == "openvino" else harness.LAB


@pytest.fixture(scope="module")
def models():
    """The batchable conv net, the probe's constant-reshape conv net and the MLP, per runtime."""
    harness = _harness()
    return {rt.name: {"conv": harness.build(rt, "conv"),
                      "conv_fixed": harness.build(rt, "conv", batchable=False),
                      "mlp": harness.build(rt, "mlp")} for rt in harness.RUNTIMES}
