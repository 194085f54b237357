"""LLMs on ovlab (issue 25): the 165H fit's error, and what a simulated LLM costs in wall time.

1. The step cost (``ovlab/sim/genai/timing.py``) refitted on Intel's Core Ultra 7 165H iGPU rows
   (``ovlab/sim/genai/data/llm-165h-igpu-fit.csv``: gemma-2b-it, phi-3-mini-4k-instruct,
   chatglm3-6b, mistral-7b-v0.1; 33 rows, first and second token = 66 points): every point's
   prediction against Intel's figure, the median and worst relative error (the issue's target:
   median within 15 %). Intel's other LLM rows are not read here: they are the check.
2. Simulator speed: 64 chat requests through continuous batching with a 7B model (stand-in
   text: scheduler, KV accounting and cost model per step) and with the tiny real model (NumPy
   forward passes through the paged KV cache), as generated tokens per wall-clock second.

Run: ``python benchmarks/bench_llm.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ovlab  # noqa: E402
import ovlab.sim.genai as ov_genai  # noqa: E402
from ovlab.sim.genai import timing  # noqa: E402
from ovlab.sim.hardware.devices.gpus import ARC_IGPU_165H  # noqa: E402
from ovlab.sim.models import llm_zoo as zoo  # noqa: E402

FIT_CSV = timing.FIT_FILE.with_name("llm-165h-igpu-fit.csv")


def fit_report() -> dict:
    rows = timing.read_rows(FIT_CSV)
    peak, bw = timing.device_peak_and_bandwidth(ARC_IGPU_165H)
    cost, err = timing.fit(rows, peak, bw)
    print("== 1. Step cost fitted on Intel's 165H iGPU rows ==")
    print(f"device: {ARC_IGPU_165H.full_name}, f16 peak {peak:.0f} GFLOP/s, {bw:.0f} GB/s")
    print("compute efficiency: " + ", ".join(f"{k} {v:.3f}" for k, v in cost.compute_efficiency.items())
          + f"; attention {cost.attention_efficiency:.3f}; memory {cost.memory_efficiency:.3f}; "
          f"per step {cost.step_overhead_s * 1e3:.2f} ms")
    print(f"{'model':24s} {'format':10s} {'in':>5s} {'1st ms':>8s} {'ovlab':>8s} {'err':>6s} "
          f"{'2nd ms':>7s} {'ovlab':>7s} {'err':>6s}")
    for r in rows:
        spec = zoo.get(r["model"])
        first = cost.seconds(spec, r["precision"], [timing.Chunk(r["input_tokens"], 0)], peak, bw) * 1e3
        second = cost.seconds(spec, r["precision"], [timing.Chunk(1, r["input_tokens"])], peak, bw) * 1e3
        e1 = first / r["first_token_ms"] - 1
        e2 = second / r["second_token_ms"] - 1
        print(f"{r['model']:24s} {r['precision']:10s} {r['input_tokens']:5d} {r['first_token_ms']:8.1f} "
              f"{first:8.1f} {e1:+6.1%} {r['second_token_ms']:7.1f} {second:7.1f} {e2:+6.1%}")
    print(f"fit error over {err['points']} points: median {err['median']:.1%}, worst "
          f"{err['worst']:.1%} (first token: median {err['median_first']:.1%}; second token: "
          f"median {err['median_second']:.1%}); target: median < 15 %")
    return err


def speed(model: str, n: int = 64, new_tokens: int = 32) -> tuple[float, float, int]:
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    sched = ov_genai.SchedulerConfig()
    sched.max_num_batched_tokens = 256
    pipe = ov_genai.ContinuousBatchingPipeline(model, sched, "GPU", core=core)
    prompts = [f"Question {i}: what does the GPU do for request {i}?" for i in range(n)]
    cfg = ov_genai.GenerationConfig(max_new_tokens=new_tokens, ignore_eos=True)
    sim0 = core.clock.now
    t0 = time.perf_counter()
    results = pipe.generate(prompts, [cfg] * n)
    wall = time.perf_counter() - t0
    tokens = sum(r.perf_metrics.get_num_generated_tokens() for r in results)
    return tokens / wall, core.clock.now - sim0, tokens


def main() -> None:
    err = fit_report()
    print("\n== 2. Simulator speed (64 requests x 32 new tokens, continuous batching) ==")
    for model in ("mistral-7b-v0.1-int4-ov", "tiny-llm-fp16-ov"):
        rate, simulated, tokens = speed(model)
        print(f"{model:26s} {tokens} tokens in {simulated:6.2f} s simulated; "
              f"{rate:8.0f} tokens per wall second")
    if err["median"] >= 0.15:
        raise SystemExit("the fit misses the 15 % median target")


if __name__ == "__main__":
    main()
