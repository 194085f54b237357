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


def _chunks_1500() -> int:
    """openvino #32306 and the NPU guide: a 1,500-token prompt with MAX_PROMPT_LEN=4096."""
    from ..genai.npu_pipeline import NPUConfig, prefill_chunks

    return len(prefill_chunks(1500, NPUConfig(max_prompt_len=4096)))


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
    Exercise(3, _chunks_1500,
             explain="with PREFILL_HINT DYNAMIC the NPU runs the prompt in chunks of "
                     "NPUW_LLM_PREFILL_CHUNK_SIZE (1,024) tokens, the last one padded: 1,500 "
                     "tokens take two full chunks.",
             hint="ceil(1500 / 1024)."),
    Exercise(4, _users_ratio, tolerance=0.2,
             explain="continuous batching decodes the four requests in one step each time (the "
                     "weights are read once per step), while the NPU's pipeline serves them one "
                     "after the other.",
             hint="device_choice.serve_users(model, 'GPU', 4).tokens_per_s / "
                  "serve_users(model, 'NPU', 4).tokens_per_s"),
])
