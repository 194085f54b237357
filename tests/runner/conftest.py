"""Fixtures of the runner tests: every test leaves the interpreter as it found it."""

import sys
import time

import pytest


@pytest.fixture(autouse=True)
def no_leak():
    """Uninstall after each test and check nothing of the runner is left behind."""
    meta_path, real_sleep = list(sys.meta_path), time.sleep
    yield
    import ovlab

    ovlab.uninstall()
    assert sys.meta_path == meta_path
    assert time.sleep is real_sleep
    modules = list(sys.modules.items())  # a snapshot: other threads may be importing
    assert not any(n == "openvino" or n.startswith("openvino.") for n, m in modules
                   if getattr(m, "__loader__", None).__class__.__name__
                   in ("OpenVINOFinder", "WheelSourceLoader"))
