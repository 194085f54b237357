"""Lab 13 · Batching for LLMs: the token budget, batched decode, KV-cache pressure, prefix reuse,
beam search's KV cost."""

from __future__ import annotations

from . import Exercise, LabExercises

BUDGETS = (32, 64, 128, 256, 512, 1024, 4096)


def _smallest_vllm_budget() -> int:
    """The smallest budget of the dashboard's list that vLLM mode accepts for the default stream:
    every whole prompt must fit in one step."""
    from ..genai import serving

    longest = max(serving.serve(serving.chat_stream(0, 24, 4.0), "x", max_num_seqs=1,
                                dynamic_split_fuse=False, max_num_batched_tokens=4096).prompt_tokens)
    return min(b for b in BUDGETS if b >= longest)


def _batched_decode_ratio() -> float:
    from ..genai import serving

    return round(serving.analytic_step_ms(8, 200) / serving.analytic_step_ms(1, 200), 2)


def _preemptions_1gb() -> int:
    from ..genai import serving

    return serving.serve(serving.chat_stream(0, 24, 8.0), "x", cache_size=1).preemptions


def _prefix_ttft_gain() -> float:
    import numpy as np

    from ..genai import serving

    stream = serving.chat_stream(0, 24, 4.0)
    plain = serving.serve(stream, "x")
    cached = serving.serve(stream, "x", enable_prefix_caching=True)
    return round(float(np.mean(plain.ttft_ms) / np.mean(cached.ttft_ms)), 1)


def _beam_kv_ratio() -> float:
    import ovlab

    from .. import genai as ov_genai

    peaks = []
    for beams in (1, 4):
        core = ovlab.Core("core-ultra-7-165h", seed=0)
        pipe = ov_genai.LLMPipeline("phi-3-mini-4k-instruct-int4-ov", "GPU", core=core)
        pipe.generate(["What does the GPU do?"], ov_genai.GenerationConfig(
            max_new_tokens=64, num_beams=beams, ignore_eos=True))
        peaks.append(max(s.kv_blocks_used for s in core.trace.scheduler_steps))
    return round(peaks[1] / peaks[0], 1)


EXERCISES = LabExercises("13-batching-for-llms", [
    Exercise(1, _smallest_vllm_budget,
             explain="vLLM mode schedules whole prompts: GenAI asserts that a prompt fits the token "
                     "budget, so the budget must be at least the longest prompt.",
             hint="section 5: max(runs['vLLM mode'].prompt_tokens), then the first value of the "
                  "list at or above it."),
    Exercise(2, _batched_decode_ratio, tolerance=0.02,
             explain="a decode step reads every weight once whatever the batch; 8 sequences add "
                     "only their KV cache and 8x the (small) compute, so the step costs far less "
                     "than 8 steps.",
             hint="ov_genai.serving.analytic_step_ms(8, 200) / analytic_step_ms(1, 200)"),
    Exercise(3, _preemptions_1gb,
             explain="at 8 requests/s more sequences are in flight than 1 GB of KV cache holds "
                     "(~2,700 tokens of phi-3-mini in f16): the scheduler preempts the newest and "
                     "recomputes them later.",
             hint="serving.serve(serving.chat_stream(0, 24, 8.0), cache_size=1).preemptions"),
    Exercise(4, _prefix_ttft_gain, tolerance=0.1,
             explain="every request starts with the same system prompt: with prefix caching its "
                     "blocks are computed once and only the question is prefilled.",
             hint="mean TTFT of split-fuse / mean TTFT of split-fuse + prefix caching, one decimal."),
    Exercise(5, _beam_kv_ratio, tolerance=0.1,
             explain="beams fork: a child shares its parent's KV blocks and copies only the last "
                     "one when it writes there (copy on write), so 4 beams hold the prompt's "
                     "blocks once and a tail each, not 4 times the cache.",
             hint="max(s.kv_blocks_used for s in core.trace.scheduler_steps), with a new Core "
                  "for each run; 4 beams / greedy, one decimal."),
])
