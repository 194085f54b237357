"""The LLM zoo's shapes and the step cost fitted on Intel's 165H iGPU rows."""

from __future__ import annotations

import json

import pytest

from ovlab.sim.genai import timing
from ovlab.sim.hardware.devices.gpus import ARC_IGPU_165H
from ovlab.sim.models import llm_zoo as zoo

FIT_CSV = timing.FIT_FILE.with_name("llm-165h-igpu-fit.csv")
# parameter counts published on the models' cards (billions)
PUBLISHED = {"TinyLlama-1.1B-Chat-v1.0": 1.10, "Llama-3.2-1B-Instruct": 1.24,
             "Llama-3.2-3B-Instruct": 3.21, "Qwen2.5-0.5B-Instruct": 0.49,
             "Qwen2.5-7B-Instruct": 7.61, "phi-3-mini-4k-instruct": 3.82, "gemma-2b-it": 2.51,
             "gemma-7b-it": 8.54, "phi-2": 2.78, "mistral-7b-v0.1": 7.24, "qwen-7b-chat": 7.72,
             "chatglm3-6b": 6.24, "gpt-j-6b": 6.05, "falcon-7b-instruct": 7.22,
             "baichuan2-7b-chat": 7.51, "dolly-v2-3b": 2.78, "stablelm-3b-4e1t": 2.80}
ISSUE_NAMES = ["TinyLlama-1.1B-Chat-v1.0-int4-ov", "phi-3-mini-4k-instruct-int8-ov",
               "qwen-7b-chat-fp16-ov", "dolly-v2-3b-int4-ov", "gemma-2b-it-int8-ov",
               "gemma-7b-it-int4-ov", "phi-2-fp16-ov", "stablelm-3b-4e1t-int4-ov",
               "stable-zephyr-3b-dpo-int8-ov", "gpt-j-6b-int4-ov", "chatglm3-6b-int8-ov",
               "falcon-7b-instruct-int4-ov", "mistral-7b-v0.1-fp16-ov", "zephyr-7b-beta-int4-ov",
               "baichuan2-7b-chat-int4-ov", "Llama-3.2-1B-Instruct-int4-ov",
               "llama-3.2-3b-instruct-int8-ov", "QWEN2.5-0.5B-instruct-fp16-ov",
               "qwen2.5-7b-instruct-int4-ov"]


@pytest.mark.parametrize("name", ISSUE_NAMES)
def test_issue_names_parse(name):
    spec, precision = zoo.parse_dir_name(name)
    assert precision in timing.FORMATS
    assert zoo.parse_dir_name(name.upper())[0] is spec


@pytest.mark.parametrize("name,billions", sorted(PUBLISHED.items()))
def test_shapes_give_the_published_parameter_counts(name, billions):
    assert zoo.get(name).params / 1e9 == pytest.approx(billions, rel=0.02)


def test_not_a_zoo_name():
    assert zoo.parse_dir_name("resnet-50-int8-ov") is None
    assert zoo.parse_dir_name("gemma-2b-it") is None  # no weight format
    with pytest.raises(KeyError, match="LLM zoo"):
        zoo.get("gpt-5")


def test_weight_formats_order_the_bytes():
    s = zoo.get("mistral-7b-v0.1")
    b = [zoo.weight_bytes(s, p) for p in ("INT4-MIXED", "INT8-CW", "FP16")]
    assert b[0] < b[1] < b[2] and b[2] == pytest.approx(2 * s.params, rel=1e-9)


def test_fit_reproduces_the_shipped_file_and_meets_the_target():
    rows = timing.read_rows(FIT_CSV)
    assert {r["model"] for r in rows} == {"gemma-2b-it", "phi-3-mini-4k-instruct", "chatglm3-6b",
                                          "mistral-7b-v0.1"}
    peak, bw = timing.device_peak_and_bandwidth(ARC_IGPU_165H)
    cost, err = timing.fit(rows, peak, bw)
    shipped = json.loads(timing.FIT_FILE.read_text())
    assert cost.step_overhead_s == pytest.approx(shipped["step_overhead_s"])
    assert cost.memory_efficiency == pytest.approx(shipped["memory_efficiency"])
    assert err["median"] < 0.15  # the issue's target on the fit rows
    assert err == pytest.approx(shipped["fit_error"])
    assert all(0 < e <= 1 for e in cost.compute_efficiency.values())
    assert 0 < cost.memory_efficiency <= 1


def test_prefill_is_compute_bound_and_decode_memory_bound():
    cost = timing.LLMCost.load()
    spec = zoo.get("phi-3-mini-4k-instruct")
    peak, bw = timing.device_peak_and_bandwidth(ARC_IGPU_165H)
    prefill = timing.features(spec, "INT4-MIXED", [timing.Chunk(1024, 0)])
    decode = timing.features(spec, "INT4-MIXED", [timing.Chunk(1, 1024)])

    def parts(f):
        return (f["flops_INT4-MIXED"] / (peak * 1e9 * cost.compute_efficiency["INT4-MIXED"]),
                f["bytes"] / (bw * 1e9 * cost.memory_efficiency))

    compute, memory = parts(prefill)
    assert compute > 5 * memory
    compute, memory = parts(decode)
    assert memory > 5 * compute
    # batching decode steps: 8 sequences cost far less than 8 single steps
    one = cost.seconds(spec, "INT4-MIXED", [timing.Chunk(1, 512)], peak, bw)
    eight = cost.seconds(spec, "INT4-MIXED", [timing.Chunk(1, 512)] * 8, peak, bw)
    assert eight < 2 * one
