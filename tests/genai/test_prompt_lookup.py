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


def test_candidates_take_kv_slots_during_the_validation_step():
    """As in GenAI (continuous_batching_for_prompt_lookup.cpp), the candidates, padded with -1 to
    num_assistant_tokens, are appended to the sequence before the step: the scheduler runs
    1 + K tokens and holds KV blocks for them; rejected ones are removed after the step and
    their blocks freed at the next schedule (clean_empty_blocks)."""
    import math

    core = ovlab.Core("core-ultra-7-165h", seed=0)
    pl = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "GPU", core=core, prompt_lookup=True)
    tok = pl.get_tokenizer()
    ids = tok.encode(tok.apply_chat_template([{"role": "user", "content": PROMPT}], True))
    k = 7
    res = pl.generate(ids, max_new_tokens=60, num_assistant_tokens=k, max_ngram_size=3)
    n = len(ids.input_ids.data[0])
    steps = [r for r in core.trace.scheduler_steps if r.model == pl._engine.name]
    emitted_per_step = res.perf_metrics.raw_metrics.m_batch_sizes
    assert len(steps) == len(emitted_per_step) == pl._pl_last["passes"]
    bs = pl._engine.block_size
    emitted, crossings = 0, 0
    for i, (r, new) in enumerate(zip(steps, emitted_per_step, strict=True)):
        if i == 0:
            assert r.num_scheduled_tokens == n and r.kv_blocks_used == math.ceil(n / bs)
        else:  # the last token and K candidates, at positions n + emitted - 1 ...
            assert r.num_scheduled_tokens == 1 + k
            assert r.kv_blocks_used == math.ceil((n + emitted + k) / bs)
            crossings += math.ceil((n + emitted + k) / bs) > math.ceil((n + emitted) / bs)
        emitted += new
    assert crossings > 0  # some steps hold a block only for candidates
    from ovlab.sim.genai.continuous_batching import CacheType

    blocks = pl._engine.scheduler.cache_orchestrator.get_block_manager(CacheType.KV_CACHE)
    assert blocks.num_free_blocks() == blocks.get_total_block_count()  # all freed at the end
