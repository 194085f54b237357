"""The one conformance test *about* the host's default precision: it compiles on the real CPU
plugin unpinned (``host_precision``), so its tolerance is that precision's, on any host.

On an AVX2-only host both runtimes compute the conv net in f32; on an AVX512_BF16 or AMX host the
real plugin computes it in bf16, and so must ovlab's ``host`` CPU, which reads the same ISA flags.
The tolerance follows what the real plugin reports, so the test is the same test everywhere.
"""

import os

import numpy as np
import pytest
from conformance_harness import CONV_X, LAB, REAL, build
from real_wheel import (
    lab_core,
    precision_name,
    precision_tolerance,
    real_core,
    real_default_precision,
)


@pytest.mark.host_precision
def test_the_host_default_precision_and_its_numbers_match_the_real_plugin():
    default = real_default_precision()
    print(f"real CPU plugin default precision here: {default}")
    real = real_core(pinned=False).compile_model(build(REAL, "conv"), "CPU")
    lab = lab_core("host", pinned=False).compile_model(build(LAB, "conv"), "CPU")
    if not os.environ.get("OVLAB_FAKE_HOST"):  # a described host has another CPU's default
        assert precision_name(lab.get_property("INFERENCE_PRECISION_HINT")) == default
    want = real(CONV_X)[0]
    got = lab(CONV_X)[0]
    tol = precision_tolerance(default)
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=tol["rtol"], atol=tol["atol"] * scale)
    assert (got.argmax(axis=1) == want.argmax(axis=1)).all()
