"""Speculative decoding (issue 26, ovlab/sim/genai/speculative.py): GenAI's draft_model, the two
pipelines it selects, the candidates, the metrics, and the API against the real wheel."""

from __future__ import annotations

import inspect

import pytest

import ovlab
import ovlab.sim.genai as ov_genai
from ovlab.sim.genai import speculative

MAIN, DRAFT = "Qwen2.5-7B-Instruct-int4-ov", "Qwen2.5-0.5B-Instruct-int4-ov"
PROMPT = ["Tell me about dragons."]


def _pipe(device: str = "CPU", acceptance: float | None = None, main_device: str = "GPU"):
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    kw = {} if acceptance is None else {"ovlab_acceptance_rate": acceptance}
    return core, ov_genai.LLMPipeline(MAIN, main_device, core=core,
                                      draft_model=ov_genai.draft_model(DRAFT, device, **kw))


def test_draft_keyword_makes_a_speculative_llmpipeline():
    _, pipe = _pipe("CPU")
    assert isinstance(pipe, ov_genai.LLMPipeline)
    assert isinstance(pipe, speculative.SpeculativeLLMPipeline)
    assert not pipe.stateful and pipe.draft_device == "CPU"
    assert pipe.get_generation_config().num_assistant_tokens == 5  # CB default


def test_text_is_the_main_models_greedy_text():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    plain = ov_genai.LLMPipeline(MAIN, "GPU", core=core).generate(PROMPT, max_new_tokens=24)
    _, pipe = _pipe("CPU")
    res = pipe.generate(PROMPT, max_new_tokens=24)
    assert res.texts == plain.texts
    assert res.perf_metrics.get_num_generated_tokens() == plain.perf_metrics.get_num_generated_tokens()


def test_npu_draft_selects_the_stateful_pipeline_and_its_rules():
    _, pipe = _pipe("NPU")
    assert pipe.stateful
    cfg = ov_genai.GenerationConfig(max_new_tokens=8, assistant_confidence_threshold=0.4)
    with pytest.raises(RuntimeError, match="only supports num_assistant_tokens, not "
                                           "assistant_confidence_threshold"):
        pipe.generate(PROMPT, cfg)
    with pytest.raises(RuntimeError, match="Currently only greedy decoding is supported"):
        pipe.generate(PROMPT, max_new_tokens=8, do_sample=True)


def test_stateful_candidates_grow_by_two_after_a_full_match_up_to_twice_the_start():
    _, pipe = _pipe("NPU", acceptance=1.0)
    res = pipe.generate(PROMPT, max_new_tokens=20, ignore_eos=True, num_assistant_tokens=2)
    pm = res.perf_metrics
    # rounds of 2, 4, 4, 4 candidates, all accepted (3 + 5 + 5 + 5 tokens), then one token alone
    assert pm.get_num_draft_tokens() == 14 and pm.get_num_accepted_tokens() == 14
    assert pm.raw_metrics.m_batch_sizes == [1, 3, 5, 5, 5, 1]


def test_cb_keeps_k_fixed_and_a_useless_draft_is_a_net_loss():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    plain = ov_genai.LLMPipeline(MAIN, "GPU", core=core).generate(
        PROMPT, max_new_tokens=10, ignore_eos=True)
    _, pipe = _pipe("CPU", acceptance=0.0)
    pm = pipe.generate(PROMPT, max_new_tokens=10, ignore_eos=True, num_assistant_tokens=3).perf_metrics
    assert pm.get_num_draft_tokens() == 3 * 6 + 2 + 1  # capped by the tokens left
    assert pm.get_num_accepted_tokens() == 0 and pm.get_num_rejected_tokens() == 21
    assert pm.get_tpot().mean > 1.3 * plain.perf_metrics.get_tpot().mean


def test_confidence_threshold_mode_and_exclusive_parameters():
    _, pipe = _pipe("CPU")
    low = ov_genai.GenerationConfig(max_new_tokens=32, ignore_eos=True,
                                    assistant_confidence_threshold=0.05)
    high = ov_genai.GenerationConfig(max_new_tokens=32, ignore_eos=True,
                                     assistant_confidence_threshold=0.9)
    n_low = pipe.generate(PROMPT, low).perf_metrics.get_num_draft_tokens()
    n_high = pipe.generate(PROMPT, high).perf_metrics.get_num_draft_tokens()
    assert n_low > n_high > 0  # a stricter threshold stops the draft sooner
    both = ov_genai.GenerationConfig(max_new_tokens=8, num_assistant_tokens=3,
                                     assistant_confidence_threshold=0.5)
    with pytest.raises(RuntimeError, match="mutually exclusive"):
        pipe.generate(PROMPT, both)


def test_metrics_add_up():
    _, pipe = _pipe("GPU")
    pm = pipe.generate(PROMPT, max_new_tokens=32, ignore_eos=True).extended_perf_metrics
    assert isinstance(pm, ov_genai.SDPerModelsPerfMetrics)
    assert pm.get_num_generated_tokens() == 32
    assert sum(pm.main_model_metrics.raw_metrics.m_batch_sizes) == 32
    assert pm.get_num_accepted_tokens() + pm.get_num_rejected_tokens() == pm.get_num_draft_tokens()
    assert 0 < pm.get_draft_acceptance_rate() < 1
    assert pm.get_draft_processed_to_candidate_ratio() >= 1.0
    assert pm.get_ttft().mean > 0 and pm.get_tpot().mean > 0
    assert pm.draft_model_metrics.get_ttst().mean > 0


def test_npu_draft_prefill_is_padded_to_max_prompt_len():
    def draft_prefill_ms(prompt: str) -> float:
        core, pipe = _pipe("NPU")
        pipe.generate(prompt, max_new_tokens=2, apply_chat_template=False)
        first = next(r for r in core.trace.inferences if r.worker == "genai-draft")
        return (first.finished - first.started) * 1e3

    assert draft_prefill_ms("hi") == pytest.approx(draft_prefill_ms("word " * 300))


def test_chat_keeps_the_history():
    _, pipe = _pipe("CPU")
    pipe.start_chat()
    first = pipe.generate("Hello", max_new_tokens=4)
    pipe.generate("And then?", max_new_tokens=4)
    assert [m["role"] for m in pipe._chat] == ["user", "assistant", "user", "assistant"]
    assert pipe._chat[1]["content"] == first
    pipe.finish_chat()


def test_genais_refusals():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    with pytest.raises(RuntimeError, match="only supported for Gemma4 MTP model pairs"):
        ov_genai.LLMPipeline(MAIN, "GPU", core=core, ATTENTION_BACKEND="SDPA",
                             draft_model=ov_genai.draft_model(DRAFT, "CPU"))
    with pytest.raises(RuntimeError, match="Currently only batch size=1"):
        _pipe("CPU")[1].generate(["a", "b"], max_new_tokens=4)
    with pytest.raises(TypeError, match="draft_model"):
        ov_genai.LLMPipeline(MAIN, "GPU", core=core, draft_model="path")


def test_draft_without_device_runs_on_the_main_device_and_tiny_pair_agrees():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    pipe = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "GPU", core=core,
                                draft_model=ov_genai.draft_model("tiny-llm-fp16-ov"))
    assert pipe.draft_device == "GPU.0"
    pm = pipe.generate(["Once upon a time"], max_new_tokens=12, ignore_eos=True,
                       apply_chat_template=False).perf_metrics
    assert pm.get_draft_acceptance_rate() == 1.0


def test_genais_speculative_sample_runs_unchanged():
    """openvino.genai's samples/python/text_generation/speculative_decoding_lm.py, fetched into
    tests/genai/upstream_samples/ (git-ignored; skipped when absent)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    sample = Path(__file__).parent / "upstream_samples" / "speculative_decoding_lm.py"
    if not sample.exists():
        pytest.skip(f"{sample.name} not fetched")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
           "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-m", "ovlab", "run", "--platform", "core-ultra-7-165h",
                           str(sample), MAIN, DRAFT, "Why is the sky blue?"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "MAIN MODEL" in proc.stdout and "DRAFT MODEL" in proc.stdout
    assert "Num accepted token:" in proc.stdout
    assert proc.stderr.count("[ ovlab ]") == 2  # one line per model path read as a zoo name


real = pytest.importorskip("openvino_genai", reason="the real openvino-genai wheel is not installed")


def test_api_names_match_the_wheel():
    doc = real.draft_model.__doc__.splitlines()[0]
    assert doc.startswith("draft_model(models_path:") and "device: str = ''" in doc
    assert list(inspect.signature(ov_genai.draft_model).parameters) == ["models_path", "device", "kwargs"]
    mod = real.py_openvino_genai
    for name in ("ExtendedPerfMetrics", "SDPerfMetrics", "SDPerModelsPerfMetrics"):
        want = {n for n in dir(getattr(mod, name)) if not n.startswith("_")}
        have = {n for n in dir(getattr(ov_genai, name)()) if not n.startswith("_")}
        assert want <= have, f"{name} lacks {sorted(want - have)}"


def test_assistant_settings_without_a_draft_are_ignored_as_genai_does():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    pipe = ov_genai.LLMPipeline(MAIN, "GPU", core=core)
    kw = {"max_new_tokens": 6, "ignore_eos": True}
    assert pipe.generate(PROMPT, num_assistant_tokens=3, **kw).texts == pipe.generate(PROMPT, **kw).texts


@pytest.mark.parametrize("kwargs", [
    dict(max_new_tokens=5, num_assistant_tokens=3, assistant_confidence_threshold=0.4),
    dict(max_new_tokens=5, num_assistant_tokens=3, num_beams=2),
    dict(max_new_tokens=5, max_ngram_size=3)])
def test_assistant_validation_errors_like_the_wheel(kwargs):
    with pytest.raises(RuntimeError) as real_err:
        real.GenerationConfig(**kwargs).validate()
    with pytest.raises(RuntimeError) as ours:
        ov_genai.GenerationConfig(**kwargs).validate()
    assert str(ours.value) in str(real_err.value)
