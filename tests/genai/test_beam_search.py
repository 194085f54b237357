"""Beam search in continuous batching (issue 37, item 3): GenAI's GroupBeamSearcher on the real
tiny model, through the paged KV cache with forks copied on write, against a NumPy reference
that recomputes every beam from scratch (no paging, no forks)."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab.sim.genai as ov_genai
from ovlab.sim.genai.beam_search import log_softmax
from ovlab.sim.genai.tiny import TinyLLM

TINY = "tiny-llm-fp16-ov"


def reference(prompt: list[int], k: int, max_new: int, eos: int, length_penalty: float = 1.0):
    """Beam search as GenAI's sampler does it for one group (2k candidates per beam, a stop
    token among the best k finishes a hypothesis, HEURISTIC stop), over full recomputes."""
    model = TinyLLM()

    def logits(tokens):
        cache = model.new_cache(len(tokens) + 1)
        return model.forward_chunk(cache, [0], tokens, 0)

    beams = [(0.0, [])] + [(-np.inf, [])] * (k - 1)
    hyps: list[tuple[float, list[int], float]] = []
    for _ in range(max_new):
        cands = []
        for score, toks in beams:
            lp = log_softmax(logits(prompt + toks))
            for t in np.argsort(-lp, kind="stable")[:2 * k]:
                cands.append((score + float(lp[t]), toks + [int(t)]))
        cands.sort(key=lambda c: -c[0])
        new = []
        for i, (score, toks) in enumerate(cands):
            if toks[-1] == eos:
                if i < k:
                    hyps.append((score / len(toks) ** length_penalty, toks, score))
                    hyps = sorted(hyps, key=lambda h: -h[0])[:k]
                continue
            new.append((score, toks))
            if len(new) == k:
                break
        best_parent = beams[0]
        if len(hyps) >= k and len(best_parent[1]) > 0 and \
                hyps[-1][0] >= best_parent[0] / len(best_parent[1]) ** length_penalty:
            return sorted(hyps, key=lambda h: -h[0])
        beams = new
    for score, toks in beams:
        hyps.append((score / len(toks) ** length_penalty, toks, score))
        hyps = sorted(hyps, key=lambda h: -h[0])[:k]
    return sorted(hyps, key=lambda h: -h[0])


@pytest.mark.parametrize("num_beams,max_new", [(2, 12), (4, 16), (3, 40)])
def test_beams_match_the_numpy_reference(num_beams, max_new):
    pipe = ov_genai.LLMPipeline(TINY, "CPU")
    tok = pipe.get_tokenizer()
    prompt = tok.encode(tok.apply_chat_template(
        [{"role": "user", "content": "What does the KV cache do?"}], True)).input_ids.data[0].tolist()
    cfg = ov_genai.GenerationConfig(max_new_tokens=max_new, num_beams=num_beams,
                                    num_return_sequences=num_beams)
    res = pipe.generate(ov_genai.TokenizedInputs(np.array([prompt]), np.ones((1, len(prompt)))), cfg)
    ref = reference(prompt, num_beams, max_new, tok.get_eos_token_id())
    assert [list(t) for t in res.tokens] == [h[1] for h in ref]
    np.testing.assert_allclose(res.scores, [h[0] for h in ref], rtol=1e-4, atol=1e-4)


def test_beams_fork_and_free_kv_blocks_and_num_return_sequences():
    pipe = ov_genai.LLMPipeline(TINY, "CPU")
    cfg = ov_genai.GenerationConfig(max_new_tokens=24, num_beams=4, num_beam_groups=2,
                                    diversity_penalty=1.0, num_return_sequences=3)
    res = pipe.generate(["What is the NPU?"], cfg)
    assert len(res.texts) == 3 and res.scores == sorted(res.scores, reverse=True)
    eng = pipe._engine
    assert eng.scheduler.cache_orchestrator is not None
    assert not eng.has_non_finished_requests()
    one = pipe.generate(["What is the NPU?"], ov_genai.GenerationConfig(max_new_tokens=24,
                                                                         num_beams=4))
    assert len(one.texts) == 1


def test_stop_criteria_and_length_penalty_are_read():
    pipe = ov_genai.LLMPipeline(TINY, "CPU")
    outs = {}
    for crit in (ov_genai.StopCriteria.EARLY, ov_genai.StopCriteria.HEURISTIC,
                 ov_genai.StopCriteria.NEVER):
        cfg = ov_genai.GenerationConfig(max_new_tokens=40, num_beams=3, stop_criteria=crit,
                                        length_penalty=0.5, num_return_sequences=3)
        outs[crit] = pipe.generate(["Tell me about prefix caching."], cfg)
    assert all(len(r.texts) == 3 for r in outs.values())


def test_seeded_beams_on_a_virtual_model_fork_kv_blocks():
    import ovlab

    core = ovlab.Core("core-ultra-7-165h", seed=0)
    pipe = ov_genai.LLMPipeline("TinyLlama-1.1B-Chat-v1.0-int4-ov", "GPU", core=core)
    cfg = ov_genai.GenerationConfig(max_new_tokens=24, num_beams=4, num_return_sequences=4)
    a = pipe.generate(["What does the GPU do?"], cfg)
    b = pipe.generate(["What does the GPU do?"], cfg)
    assert a.texts == b.texts and len(set(a.texts)) == 4  # seeded, and four different beams
    steps = core.trace.scheduler_steps
    assert max(s.num_scheduled_sequences for s in steps) == 4  # the beams run side by side
    assert max(s.kv_blocks_used for s in steps) >= 4  # each beam holds its own last block
    greedy = pipe.generate(["What does the GPU do?"], ov_genai.GenerationConfig(max_new_tokens=24))
    assert greedy.perf_metrics.get_num_generated_tokens() == 24


def test_beam_search_on_the_npu_says_what_is_missing():
    import ovlab

    pipe = ov_genai.LLMPipeline("TinyLlama-1.1B-Chat-v1.0-int4-ov", "NPU",
                                core=ovlab.Core("core-ultra-7-165h", seed=0))
    with pytest.raises((NotImplementedError, RuntimeError), match="greedy and multinomial"):
        pipe.generate("Hi", ov_genai.GenerationConfig(max_new_tokens=8, num_beams=2))
