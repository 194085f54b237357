"""Where a failed inference surfaces, as the real 2026.4.1 wheel raises it (measured with a
Reshape that fails at run time on the CPU plugin): infer() names infer_request.cpp:224;
wait() :246 and wait_for() :259, each with the Python binding's line and "Caught exception: ";
the request's results stay readable."""

import numpy as np
import pytest

import ovlab


@pytest.fixture
def failing():
    core = ovlab.Core("laptop")
    compiled = core.compile_model(core.read_model("mlp"), "CPU")
    request = compiled.create_infer_request()
    x = np.zeros(list(compiled.inputs[0].get_shape()), np.float32)
    core.faults.fail_inference("CPU", nth=1, count=3)
    return request, x


def _lines(exc):
    return str(exc.value).splitlines()


def test_infer_names_its_own_line(failing):
    request, x = failing
    with pytest.raises(RuntimeError) as exc:
        request.infer({0: x})
    assert _lines(exc)[:2] == ["Exception from src/inference/src/cpp/infer_request.cpp:224:",
                               "Exception from src/plugins/intel_cpu/src/sync_infer_request.cpp:140:"]


@pytest.mark.parametrize("call, line", [("wait", 246), ("wait_for", 259)])
def test_wait_adds_the_binding_line(failing, call, line):
    request, x = failing
    request.start_async({0: x})
    with pytest.raises(RuntimeError) as exc:
        request.wait() if call == "wait" else request.wait_for(1000)
    assert _lines(exc)[:3] == [
        f"Exception from src/inference/src/cpp/infer_request.cpp:{line}:",
        "Exception from src/bindings/python/src/pyopenvino/core/infer_request.hpp:55:",
        "Caught exception: Exception from src/plugins/intel_cpu/src/sync_infer_request.cpp:140:"]
    with pytest.raises(RuntimeError):  # a second wait raises again, as the wheel's does
        request.wait()


def test_results_stay_readable_after_a_failure(failing):
    request, x = failing
    with pytest.raises(RuntimeError):
        request.infer({0: x})
    results = request.results  # the wheel hands back its output tensors without raising
    assert len(results) == 1


def test_the_labs_error_message_keeps_only_the_device_message(failing):
    from ovlab.sim.labtools import error_message

    request, x = failing
    request.start_async({0: x})
    assert error_message(request.wait) == "[CPU] inference failed on CPU (ovlab injected failure)"
