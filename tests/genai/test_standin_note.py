"""A virtual LLM's first output in a notebook carries a one-line note: the model is ovlab's, the
text a stand-in, the timing the real shape's. The values the API returns do not change."""

from types import SimpleNamespace

import IPython
import IPython.display
import pytest

import ovlab
from ovlab.sim.genai import device_choice
from ovlab.sim.genai.pipeline import LLMPipeline

PHI = "phi-3-mini-4k-instruct-int4-ov"


@pytest.fixture
def shown(monkeypatch):
    """Pretend to be a notebook's kernel; collect what is displayed."""
    out = []
    kernel = SimpleNamespace(config={"IPKernelApp": {}})
    monkeypatch.setattr(IPython, "get_ipython", lambda: kernel)
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: out.append(obj))
    return out


def core():
    return ovlab.Core("core-ultra-7-165h", seed=0)


def test_the_first_generate_of_a_virtual_model_is_noted_once(shown):
    pipe = LLMPipeline(PHI, "GPU", core=core())
    text = pipe.generate("What does the KV cache do?", max_new_tokens=8)
    assert isinstance(text, str) and "ovlab" not in text  # the value is the text alone
    assert len(shown) == 1
    note = shown[0]["text/plain"]
    assert "\n" not in note and "stand-in" in note and "timing" in note and "phi-3-mini" in note
    assert "stand-in" in shown[0]["text/html"]
    pipe.generate("And the scheduler?", max_new_tokens=8)
    assert len(shown) == 1  # once per pipeline


def test_the_tiny_real_model_and_ovlabs_own_helpers_are_not_noted(shown):
    LLMPipeline("tiny-llm-fp16-ov", "GPU", core=core()).generate("Hello", max_new_tokens=4)
    device_choice.measure(PHI, "CPU", 32, new_tokens=4)
    device_choice.serve_users(PHI, "NPU", 2, 32, new_tokens=4)
    assert shown == []


def test_outside_a_notebook_nothing_is_displayed(monkeypatch):
    out = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: out.append(obj))
    LLMPipeline(PHI, "GPU", core=core()).generate("Hi", max_new_tokens=4)
    assert out == []
