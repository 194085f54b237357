"""Prompt-lookup decoding (issue 37, item 4): GenAI's candidate search and acceptance rule, the
candidates checked in one step of the main model."""

from __future__ import annotations

import pytest

import ovlab
import ovlab.sim.genai as ov_genai
from ovlab.sim.genai.prompt_lookup import generate_candidates

PROMPT = "The KV cache is split into blocks. What does the KV cache do?"


def test_candidates_follow_the_longest_earlier_ngram():
    ids = [1, 2, 3, 4, 5, 9, 2, 3]
    assert generate_candidates(ids, 3, 2) == [4, 5, 9]  # "2 3" seen at 1, followed by 4 5 9
    assert generate_candidates(ids, 5, 2) == [4, 5, 9, 2, 3]
    assert generate_candidates([7, 8, 9], 3, 2) == []
    assert generate_candidates(ids, 0, 2) == []
    assert generate_candidates([5, 5], 2, 4) == [5]  # max_ngram_size capped at half the input


def _pair(model):
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    return (ov_genai.LLMPipeline(model, "GPU", core=core),
            ov_genai.LLMPipeline(model, "GPU", core=core, prompt_lookup=True))


def test_same_text_as_greedy_and_fewer_main_model_passes():
    base, pl = _pair("tiny-llm-fp16-ov")
    cfg = ov_genai.GenerationConfig(max_new_tokens=60)
    a = base.generate([PROMPT], cfg)
    cfg.num_assistant_tokens, cfg.max_ngram_size = 5, 3
    b = pl.generate([PROMPT], cfg)
    assert a.texts == b.texts
    n = b.perf_metrics.get_num_generated_tokens()
    assert pl._pl_last["passes"] < n and pl._pl_last["accepted"] > 0
    assert b.perf_metrics.get_tpot().mean < 0.5 * a.perf_metrics.get_tpot().mean


def test_prompt_lookup_needs_its_config_and_runs_on_a_virtual_model():
    _, pl = _pair("TinyLlama-1.1B-Chat-v1.0-int4-ov")
    with pytest.raises(RuntimeError, match="max_ngram_size"):
        pl.generate("Hi", max_new_tokens=8)
    out = pl.generate("Hi", max_new_tokens=16, num_assistant_tokens=4, max_ngram_size=2)
    assert isinstance(out, str) and out
