"""Lab 14 · Which device for my LLM: the users' threads about the NPU, answered by simulation."""

from __future__ import annotations

from . import Exercise, LabExercises


def _tinyllama_ttft_ratio() -> float:
    """openvino.genai #1084: TinyLlama's first token on the NPU against the CPU."""
    from ..genai import device_choice as dc

    model = "TinyLlama-1.1B-Chat-v1.0-int4-ov"
    return round(dc.measure(model, "NPU", 32).ttft_ms / dc.measure(model, "CPU", 32).ttft_ms, 1)


def _qwen_order() -> list[str]:
    """openvino.genai #3862: a 0.5B model in FP16, devices from the fastest decode."""
    from ..genai import device_choice as dc

    figures = dc.compare("Qwen2.5-0.5B-Instruct-fp16-ov", 128)
    return [f.device for f in sorted(figures, key=lambda f: -f.tokens_per_s)]


DRAFT_MAIN, DRAFT = "Qwen2.5-7B-Instruct-int4-ov", "Qwen2.5-0.5B-Instruct-int4-ov"


def draft_tpot(device: str | None, candidates: int = 3) -> float:
    """TPOT (ms) of Qwen2.5-7B INT4 on the iGPU with a Qwen2.5-0.5B INT4 draft on ``device``
    proposing ``candidates`` tokens (None: no draft); a 128-token prompt, 64 new tokens."""
    from ..genai import device_choice as dc
    from ..genai import draft_model
    from ..genai.pipeline import LLMPipeline
    from ..runtime.core import Core

    core = Core("core-ultra-7-165h", seed=0)
    extra = {} if device is None else {"draft_model": draft_model(DRAFT, device)}
    pipe = LLMPipeline(DRAFT_MAIN, "GPU", core=core, **extra)
    config = {"max_new_tokens": 64, "ignore_eos": True}
    if device is not None:
        config["num_assistant_tokens"] = candidates
    return pipe.generate(dc.prompt_ids(DRAFT_MAIN, 128), **config).perf_metrics.get_tpot().mean


def _draft_order() -> list[str]:
    """openvino discussion #36484 (Crow #183): where a draft model helps the iGPU's TPOT."""
    tpots = {name: draft_tpot(None if name == "none" else name)
             for name in ("none", "CPU", "GPU", "NPU")}
    return sorted(tpots, key=tpots.get)


def _users_ratio() -> float:
    from ..genai import device_choice as dc

    model = "phi-3-mini-4k-instruct-int4-ov"
    gpu = dc.serve_users(model, "GPU", 4)
    npu = dc.serve_users(model, "NPU", 4)
    return round(gpu.tokens_per_s / npu.tokens_per_s, 1)


EXERCISES = LabExercises("14-which-device-for-my-llm", [
    Exercise(1, _tinyllama_ttft_ratio, tolerance=0.1,
             explain="the NPU pads the 32-token prompt to a full 1,024-token prefill chunk, and "
                     "its kernels reach a smaller share of a smaller peak: its TTFT is many times "
                     "the CPU's for a short prompt (#1084 measured 4,742 ms against 69 ms).",
             hint="device_choice.measure(model, 'NPU', 32).ttft_ms / measure(model, 'CPU', "
                  "32).ttft_ms, one decimal."),
    Exercise(2, _qwen_order,
             explain="decode reads every weight per token: all three devices read the same DRAM, "
                     "so they are close; the NPU's generate model reads its whole static KV "
                     "buffer and reaches less of the bandwidth (#3862: GPU 9.7, CPU 6.1, NPU 4.7 "
                     "tokens/s).",
             hint="sort device_choice.compare('Qwen2.5-0.5B-Instruct-fp16-ov', 128) by "
                  "tokens_per_s, fastest first: a list such as ['CPU', 'NPU', 'GPU']."),
    Exercise(3, _draft_order,
             explain="each round the draft makes 3 tokens one by one and the main model checks "
                     "them in one pass; with about half of them accepted, a round yields about 2 "
                     "tokens for one main pass. A 0.5B draft is cheap on the iGPU and the CPU, so "
                     "TPOT drops a little; on the NPU each draft token is a static-shape step "
                     "that reads the whole KV buffer, and the draft costs more than the main "
                     "passes it saves (#36484: 34.3 ms a draft token on the NPU against 9.4 ms on "
                     "the CPU; the NPU draft made generation 26-45 % slower than the GPU alone).",
             hint="for each draft device, LLMPipeline(main, 'GPU', draft_model=ov_genai."
                  "draft_model(draft, device)).generate(..., num_assistant_tokens=3) and read "
                  "perf_metrics.get_tpot().mean; ovlab.sim.exercises.lab14.draft_tpot(device) "
                  "does it (None: no draft). Sort, lowest first."),
    Exercise(4, _users_ratio, tolerance=0.2,
             explain="continuous batching decodes the four requests in one step each time (the "
                     "weights are read once per step), while the NPU's pipeline serves them one "
                     "after the other.",
             hint="device_choice.serve_users(model, 'GPU', 4).tokens_per_s / "
                  "serve_users(model, 'NPU', 4).tokens_per_s"),
])
