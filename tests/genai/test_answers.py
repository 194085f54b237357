"""The stand-in answers like a chat model (issue 37, item 1): whatever the prompt, an answer of a
plausible length, drawn from a seeded log-normal of chat answers, ending at EOS, at
``max_new_tokens`` or at a stop string; and benchmark_genai's TPOT is positive on every device."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab.sim.genai as ov_genai
from ovlab.sim.genai import standin

PROMPTS = ["What is OpenVINO?", "hello", "Why is the sky blue?", "Write a haiku about GPUs.",
           "def fibonacci(n):", "Summarise this report.", "?", "Tell me a joke!",
           "Translate 'good morning' into French.", "What does the NPU do?", "Explain the KV cache?",
           "List three uses of an iGPU:"]


@pytest.fixture(scope="module")
def pipe():
    return ov_genai.LLMPipeline("TinyLlama-1.1B-Chat-v1.0-int4-ov", "CPU")


def test_every_prompt_gets_an_answer_that_ends_at_eos(pipe):
    lengths = []
    for prompt in PROMPTS:
        res = pipe.generate([prompt], max_new_tokens=4096)
        n = res.perf_metrics.get_num_generated_tokens()
        lengths.append(n)
        assert n >= 8, (prompt, res.texts[0])
        text = res.texts[0]
        assert text.strip() and "\x01" not in text
        assert text.rstrip().endswith((".", "?", "!")) or n > 0.5 * 4096, text[-80:]
    assert len(set(lengths)) > len(PROMPTS) // 2  # drawn, not one fixed length


def test_max_new_tokens_and_stop_strings_end_an_answer_earlier(pipe):
    res = pipe.generate(["What is OpenVINO?"], max_new_tokens=5)
    assert res.perf_metrics.get_num_generated_tokens() == 5
    full = pipe.generate("Why is the sky blue?", max_new_tokens=4096)
    word = full.split()[3]
    cut = pipe.generate("Why is the sky blue?", max_new_tokens=4096, stop_strings={word})
    assert len(cut) < len(full) and word not in cut


def test_answer_lengths_follow_the_chat_distribution():
    rng = np.random.default_rng(0)
    n = np.array([standin.answer_length(rng) for _ in range(4000)])
    assert n.min() >= standin.ANSWER_MIN >= 8
    assert 150 < np.median(n) < 190 and 190 < n.mean() < 245  # LMSYS-Chat-1M: 214.5 on average


def test_the_same_prompt_and_seed_give_the_same_answer(pipe):
    a = pipe.generate("What is OpenVINO?", max_new_tokens=300)
    b = pipe.generate("What is OpenVINO?", max_new_tokens=300)
    assert a == b


@pytest.mark.parametrize("device", ["CPU", "GPU", "NPU"])
def test_a_question_gives_a_positive_tpot_on_every_device(device):
    import ovlab

    p = ov_genai.LLMPipeline("TinyLlama-1.1B-Chat-v1.0-int4-ov", device,
                             core=ovlab.Core("core-ultra-7-165h", seed=0))
    res = p.generate(["What is OpenVINO?"], max_new_tokens=32)
    assert res.perf_metrics.get_num_generated_tokens() == 32
    assert res.perf_metrics.get_tpot().mean > 0


def test_a_prompt_past_the_context_runs_with_a_warning(pipe):
    long = "Please summarise this report. " * 700
    with pytest.warns(RuntimeWarning, match="more than the context"):
        res = ov_genai.LLMPipeline("gpt-j-6b-int4-ov", "CPU").generate(long, max_new_tokens=4)
    assert res
