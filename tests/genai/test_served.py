"""``openvino_genai`` as the runner serves it: ovlab's GenAI on the session's Core and clock."""

from __future__ import annotations

import importlib
import sys
import time

import pytest

import ovlab


@pytest.fixture
def served():
    ovlab.install(platform="core-ultra-7-165h", seed=0)
    try:
        yield importlib.import_module("openvino_genai")
    finally:
        ovlab.uninstall()


def test_a_zoo_path_gets_one_line_on_stderr(served, capsys):
    served.LLMPipeline("models/QWEN-7B-CHAT-FP16-OV", "GPU")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "qwen-7b-chat" in err and "FP16" in err


def test_served_module_runs_on_the_session_clock(served):
    assert served.__name__ == "openvino_genai" and "ovlab" in served.__version__
    session = ovlab.sim.runner.current_session()
    t0, c0 = time.perf_counter(), session.clock.now
    pipe = served.LLMPipeline("tiny-llm-fp16-ov", "GPU")
    pipe.generate("What does the GPU do?", max_new_tokens=8)
    assert pipe.core.clock is session.clock
    elapsed = time.perf_counter() - t0  # the script's own timing reads the simulated clock
    assert elapsed == pytest.approx(session.clock.now - c0) and elapsed > 0.5  # load + generate
    assert pipe.core.platform.name == "core-ultra-7-165h"


def test_every_real_name_imports_and_unsimulated_ones_say_so(served):
    from ovlab.sim.runner import served_genai

    for name in served_genai.NAMES["top"]:
        getattr(served, name)
    with pytest.raises(NotImplementedError, match="VLMPipeline is not available on ovlab"):
        served.VLMPipeline("model", "GPU")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("openvino_genai.py_openvino_genai")


def test_uninstall_gives_back_the_real_module():
    ovlab.install()
    importlib.import_module("openvino_genai")
    ovlab.uninstall()
    assert "openvino_genai" not in sys.modules or \
        "ovlab" not in getattr(sys.modules["openvino_genai"], "__version__", "")
    # ovlab.sim.genai still works on its own default Core after the runner is gone
    import ovlab.sim.genai as g

    assert g.LLMPipeline("tiny-llm-fp16-ov", "CPU").core.platform.name == "core-ultra-7-165h"
