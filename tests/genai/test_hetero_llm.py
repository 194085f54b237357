"""HETERO PIPELINE_PARALLEL for an LLM on the multi-gpu preset (issue 26, ovlab/sim/genai/hetero.py)."""

from __future__ import annotations

import warnings

import pytest

import ovlab
import ovlab.sim.genai as ov_genai
from ovlab.sim.genai import hetero
from ovlab.sim.models import llm_zoo as zoo

PP = {"MODEL_DISTRIBUTION_POLICY": "PIPELINE_PARALLEL"}
BIG = "DeepSeek-R1-Distill-Qwen-32B-int4-ov"  # 17.8 GB: more than one 16 GB Flex 170


def _pipe(model: str, device: str = "HETERO:GPU.0,GPU.1", **props):
    core = ovlab.Core("multi-gpu", seed=0)
    return core, ov_genai.LLMPipeline(model, device, core=core, **props)


def test_model_that_fits_gpu0_goes_there_whole_silently_issue_38250():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        core, pipe = _pipe("mistral-7b-v0.1-int4-ov", **PP)
    held = pipe._engine.weights_by_device()
    assert held["GPU.1"] == 0.0 and held["GPU.0"] > 3e9
    assert pipe._engine.execution_devices() == ["GPU.0"]
    ratios = [e for e in core.trace.events if e.kind == "pipeline_ratio"]
    assert [(e.device, e.detail["ratio"]) for e in ratios] == [("GPU.0", 1.0)]


def test_model_too_big_for_one_gpu_is_split_by_memory_at_a_layer_boundary():
    core, pipe = _pipe(BIG, **PP)
    eng = pipe._engine
    assert eng.execution_devices() == ["GPU.0", "GPU.1"]
    first, second = eng.all_stages
    counted = first.counted_bytes + second.counted_bytes
    mem = core.platform.devices["GPU.0"].mem_size_gb * 1e9
    # u4 counted as a byte: 1.2 x 33.5 GB is more than both cards hold, so each GPU gets its
    # share of the GPUs' memory (update_config's last branch)
    assert 1.2 * counted > 2 * mem
    assert first.ratio == pytest.approx(mem / (2 * mem))
    assert first.counted_bytes == pytest.approx(first.ratio * counted, rel=0.05)  # the 0.95-1.05 band
    assert first.weights[-1].kind in ("o", "down")  # the cheapest cut: the hidden state alone
    assert second.ratio == 1.0  # the last device takes the rest
    assert sum(eng.weights_by_device().values()) == pytest.approx(
        sum(w.real for w in hetero.llm_weights(zoo.get("qwen2.5-32b"), "INT4-MIXED")))


def test_int4_weights_count_one_byte_per_element_in_the_rule():
    weights = hetero.llm_weights(zoo.get("mistral-7b-v0.1"), "INT4-MIXED")
    q = next(w for w in weights if w.kind == "q")
    assert q.counted == pytest.approx(2 * q.real, rel=0.05)
    fp16 = next(w for w in hetero.llm_weights(zoo.get("mistral-7b-v0.1"), "FP16") if w.kind == "q")
    assert fp16.counted == fp16.real


def test_each_token_runs_the_stages_in_sequence_with_a_transfer_between():
    core, pipe = _pipe(BIG, **PP)
    pipe.generate(["Why is the sky blue?"], max_new_tokens=3, ignore_eos=True)
    stages = [r for r in core.trace.inferences if r.worker == "genai" and r.subgraph is not None]
    assert [r.subgraph for r in stages] == [0, 1] * 3
    transfers = [e for e in core.trace.events if e.kind == "hetero_transfer"]
    assert len(transfers) == 3
    for a, b, t in zip(stages[::2], stages[1::2], transfers, strict=True):
        assert (a.device, b.device) == ("GPU.0", "GPU.1")
        assert b.started == pytest.approx(a.finished + t.detail["seconds"])
    whole = [r for r in core.trace.inferences if r.device.startswith("HETERO")]
    assert all(r.finished == pytest.approx(s.finished) for r, s in zip(whole, stages[1::2], strict=True))


def test_split_text_equals_single_gpu_text():
    _, split = _pipe("mistral-7b-v0.1-int4-ov", **PP)
    _, single = _pipe("mistral-7b-v0.1-int4-ov", "GPU.0")
    kw = {"max_new_tokens": 8, "ignore_eos": True}
    assert split.generate("Hello", **kw) == single.generate("Hello", **kw)


def test_other_policies_get_heteros_error():
    with pytest.raises(RuntimeError, match="Wrong value TENSOR_PARALLEL for property key "
                                           "MODEL_DISTRIBUTION_POLICY. HETERO plugin only support"):
        _pipe("mistral-7b-v0.1-int4-ov", MODEL_DISTRIBUTION_POLICY="TENSOR_PARALLEL")


def test_without_the_policy_hetero_is_greedy_and_gpu0_takes_all():
    _, pipe = _pipe("mistral-7b-v0.1-int4-ov")
    assert pipe._engine.execution_devices() == ["GPU.0"]
    with pytest.raises(RuntimeError, match="needs 17.8 GB for its weights but GPU.0 has 16.0 GB"):
        _pipe(BIG)


def test_gpu_and_cpu_stages_fail_continuous_batchings_device_check():
    with pytest.raises(RuntimeError, match="single CPU / single GPU / multi GPUs"):
        _pipe(BIG, "HETERO:GPU.0,CPU", scheduler_config=ov_genai.SchedulerConfig(), **PP)
    with pytest.raises(NotImplementedError, match="SDPA"):
        _pipe(BIG, "HETERO:GPU.0,CPU", **PP)


def test_unknown_device_in_the_list():
    with pytest.raises(RuntimeError, match='Device with "GPU.7" name is not registered'):
        _pipe("mistral-7b-v0.1-int4-ov", "HETERO:GPU.0,GPU.7", **PP)


def test_continuous_batching_pipeline_takes_hetero_with_properties():
    core = ovlab.Core("multi-gpu", seed=0)
    pipe = ov_genai.ContinuousBatchingPipeline(BIG, ov_genai.SchedulerConfig(), "HETERO:GPU.0,GPU.1",
                                               dict(PP), core=core)
    assert pipe._engine.execution_devices() == ["GPU.0", "GPU.1"]
    res = pipe.generate(["hi"], [ov_genai.GenerationConfig(max_new_tokens=2, ignore_eos=True)])
    assert res[0].perf_metrics.get_num_generated_tokens() == 2


def test_npu_in_the_list_is_refused_clearly():
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    with pytest.raises(NotImplementedError, match="no paged attention"):
        ov_genai.LLMPipeline("mistral-7b-v0.1-int4-ov", "HETERO:NPU,GPU.0", core=core, **PP)


def test_stages_of_consecutive_steps_never_overlap_the_bubble():
    core, pipe = _pipe(BIG, **PP)
    pipe.generate(["one", "two", "three"], max_new_tokens=3, ignore_eos=True)
    stages = [r for r in core.trace.inferences if r.subgraph is not None]
    for before, after in zip(stages, stages[1:], strict=False):
        assert after.started >= before.finished - 1e-12
    busy = {d: sum(r.finished - r.started for r in stages if r.device == d) for d in ("GPU.0", "GPU.1")}
    span = stages[-1].finished - stages[0].started
    assert all(b < 0.75 * span for b in busy.values())  # each card idles while the other works
