# %% [markdown]
# # 13 · Batching for LLMs
#
# Lab 05 batched a CNN: automatic batching (BATCH) collects N whole requests of a static model and
# runs them as one inference. An LLM is served differently. OpenVINO GenAI's `LLMPipeline` on a
# CPU or GPU runs a **continuous-batching** scheduler over a **paged KV cache**: every step packs
# tokens from many requests (the prompt of a new one, the next token of the others) into one
# inference, and the KV cache, not a batch size, is what limits how many requests run at once.
#
# **What you will see**
# - An LLM on the virtual AI PC (Core Ultra 7 165H, its Arc iGPU): GenAI's own API, real text from
#   ovlab's tiny model, and the time to first token (TTFT) and per output token (TPOT) of a 3.8B
#   model, from a cost model fitted on Intel's published 165H figures.
# - Why prefill is bound by compute and decode by memory bandwidth.
# - One seeded stream of chat requests served five ways: one at a time; by BATCH (refused, and
#   why); continuous batching in vLLM mode; with split-fuse; with prefix caching.
# - KV-cache pressure and preemption by recompute, the analytic model beside the simulation, and
#   a dashboard with the scheduler's knobs.
#
# The scheduler is GenAI's (`scheduler.hpp`, ported); the 3.8B model's weights are never made, so
# its text comes from a seeded stand-in while its timing follows its real shape. This lab shows no
# claims of its own; the claim ids of the other labs are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup

# %%
import numpy as np
import pandas as pd

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.sim.genai as ov_genai  # on real hardware: import openvino_genai as ov_genai
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.sim.genai import serving  # ovlab only: lab 13's experiment
from ovlab.sim.viz.llm import modes_figure, serving_figure  # ovlab only

exercises = for_lab("13")

# %% [markdown]
# ## 1. An LLM on the AI PC
#
# A model folder named like an optimum-intel export of a known LLM loads that model (the folder
# need not exist; under `python -m ovlab run` a line on stderr says so). `tiny-llm` is ovlab's one LLM with real weights: a
# 2-layer transformer in NumPy, trained on a small corpus about this course, so its answer is
# computed, token by token, through the paged KV cache.

# %%
core = ov.Core(platform="core-ultra-7-165h", seed=0)  # ovlab only: platform= and seed=
tiny = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "GPU", core=core)
print(tiny.generate("What does the KV cache do?", max_new_tokens=40))

# %% [markdown]
# A model this small (two layers) repeats itself under greedy decoding, as small LLMs do: the
# same sentence comes back once its tokens are the likeliest again.
#
# **Which tokenizer counts the tokens.** The tiny model speaks ovlab's course BPE of 512 tokens (it
# was trained on it), so its token counts are 3-4 times a real model's. Every other model counts
# tokens with a real tokenizer of its family (Llama 2's SentencePiece for Phi-3 and TinyLlama,
# Qwen2's for Qwen and, within 3 %, Llama 3; GPT-NeoX's, GPT-2's, Falcon's): prompt lengths,
# TTFTs and the NPU's `MAX_PROMPT_LEN` follow real counts. `docs/genai-tokenizers.md` lists them.

# %%
for name in ("tiny-llm-fp16-ov", "phi-3-mini-4k-instruct-int4-ov", "Qwen2.5-7B-Instruct-int4-ov"):
    tok = ov_genai.Tokenizer(name)
    n = tok.encode("Please summarise this report. " * 300).input_ids.shape[1]
    print(f"{name:32s} {tok.vocabulary_name:17s} {n:5d} tokens")  # vocabulary_name: ovlab only

# %% [markdown]
# Now Phi-3-mini (3.8B parameters, INT4 weights) on the iGPU. `perf_metrics` holds what
# GenAI's `benchmark_genai` sample prints: the load time, TTFT and TPOT, in simulated
# milliseconds. Its weights are not made, so its text is a stand-in (the note under the output
# says so); its timing follows the real model's shape.

# %%
phi = ov_genai.LLMPipeline("phi-3-mini-4k-instruct-int4-ov", "GPU", core=core)
config = ov_genai.GenerationConfig(max_new_tokens=32, ignore_eos=True, apply_chat_template=False)
prompt = " ".join(["the sky is blue"] * 256)  # 1,024 tokens
result = phi.generate([prompt], config)
pm = result.perf_metrics
print(f"prompt {pm.get_num_input_tokens()} tokens, {pm.get_num_generated_tokens()} generated")
print(f"load {pm.get_load_time():.0f} ms, TTFT {pm.get_ttft().mean:.0f} ms, "
      f"TPOT {pm.get_tpot().mean:.1f} ms, {pm.get_throughput().mean:.1f} tokens/s")

# %% [markdown]
# Intel's table for the 165H iGPU gives 1,366 ms and 35.9 ms for this model and prompt length
# (the fit's own rows; `benchmarks/bench_llm.py` prints all 66 points: median error 6.6 %).
#
# Why are the two phases so different? The **prefill** runs all 1,024 prompt tokens through every
# weight at once: about 2 FLOPs per weight per token, so it is bound by the GPU's compute. A
# **decode** step makes one token: it still reads every weight (2 GB) and the KV cache, but
# computes little, so it is bound by memory bandwidth. The cost model, term by term:

# %%
from ovlab.sim.genai import timing  # ovlab only
from ovlab.sim.hardware.devices.gpus import ARC_IGPU_165H
from ovlab.sim.models import llm_zoo as zoo  # ovlab only: the LLMs' published shapes

cost = timing.LLMCost.load()
peak, bw = timing.device_peak_and_bandwidth(ARC_IGPU_165H)
spec = zoo.get("phi-3-mini-4k-instruct")
rows = []
for phase, chunks in [("prefill 1,024 tokens", [timing.Chunk(1024, 0)]),
                      ("decode 1 token", [timing.Chunk(1, 1024)]),
                      ("decode 8 sequences", [timing.Chunk(1, 1024)] * 8)]:
    f = timing.features(spec, "INT4-MIXED", chunks)
    rows.append({"step": phase,
                 "matmul ms": f["flops_INT4-MIXED"] / (peak * 1e9 * cost.compute_efficiency["INT4-MIXED"]) * 1e3,
                 "attention ms": f["attention_flops"] / (peak * 1e9 * cost.attention_efficiency) * 1e3,
                 "memory ms": f["bytes"] / (bw * 1e9 * cost.memory_efficiency) * 1e3,
                 "total ms": cost.seconds(spec, "INT4-MIXED", chunks, peak, bw) * 1e3})
pd.DataFrame(rows).set_index("step").round(1)

# %% [markdown]
# The last row is the whole point of batching an LLM: eight sequences decode in one step for
# about twice the price of one, because the weights are read once per step (only the KV cache
# and the small compute grow with the batch).

# %% [markdown]
# ## 2. The request stream
#
# Twenty-four chat requests arrive at 4 per second on average (a seeded Poisson process). Each
# starts with the same system prompt (130 tokens) and asks a short question; the number of
# tokens each answer gets is drawn from the seed too (`ignore_eos`, so every way of serving
# generates exactly the same tokens and only the scheduling differs).

# %%
stream = serving.chat_stream(seed=0, n=24, rate=4.0)
pd.DataFrame([{"request": r.id, "arrives s": r.arrival, "question": r.messages[1]["content"],
               "new tokens": r.new_tokens} for r in stream[:6]])

# %% [markdown]
# ## 3. One at a time
#
# The simplest server finishes a request before it starts the next one. It is what an NPU serves
# today (GenAI's stateful NPU pipeline has no scheduler). Here it is the continuous-batching
# engine with `max_num_seqs=1` in vLLM mode: one sequence in flight.

# %%
runs = {}
runs["one at a time"] = serving.serve(stream, "one at a time", **serving.MODES["one at a time"])
pd.DataFrame([runs["one at a time"].summary()])

# %% [markdown]
# Each request's TPOT is the lone decode step (~33 ms), but requests queue: the later ones wait
# many seconds for their first token.

# %%
ov.viz.show(serving_figure(runs["one at a time"]))

# %% [markdown]
# ## 4. Automatic batching (BATCH) cannot batch an LLM
#
# BATCH would collect N requests and run them as one inference of a model reshaped to batch N. It
# needs a model with static shapes and no state. An LLM has neither: its inputs grow with the
# prompt (dynamic shapes) and it carries its KV cache between calls (state). OpenVINO's
# auto-batching plugin refuses it when the model is compiled:

# %%
try:
    ov_genai.LLMPipeline("phi-3-mini-4k-instruct-int4-ov", "BATCH:GPU(4)", core=core)
except RuntimeError as err:
    print(err)

# %% [markdown]
# Even if it accepted the model, BATCH's unit is a whole request: a batch would run until its
# longest answer ends, and a request that arrives meanwhile would wait for the next batch (or
# the timeout). Continuous batching works per step instead.

# %% [markdown]
# ## 5. Continuous batching, vLLM mode
#
# With `dynamic_split_fuse=False` the scheduler works like vLLM's first version: a step runs
# either **whole prompts** of waiting requests (as many as fit `max_num_batched_tokens` and
# `max_num_seqs`), or one decode token for every running sequence.

# %%
runs["vLLM mode"] = serving.serve(stream, "vLLM mode", **serving.MODES["vLLM mode"])
pd.DataFrame([r.summary() for r in runs.values()])

# %% [markdown]
# TTFT drops from seconds to a few hundred milliseconds; TPOT rises, because a decode step now
# carries many sequences and prompt steps interrupt the decodes. In this mode a prompt must fit the
# token budget, and GenAI asserts it:

# %%
try:
    serving.serve(stream, "vLLM, budget 128", dynamic_split_fuse=False, max_num_batched_tokens=128,
                  max_num_seqs=64)
except RuntimeError as err:
    print(err)

# %% [markdown]
# ## 6. Split-fuse
#
# GenAI's default (`dynamic_split_fuse=True`, from DeepSpeed-FastGen) schedules the decode tokens
# of every running sequence **first**, then fills the rest of the token budget with **chunks** of
# waiting prompts, splitting a long prompt across steps. Steps mix prompt and decode tokens, and
# their size stays near the budget.

# %%
runs["split-fuse"] = serving.serve(stream, "split-fuse", **serving.MODES["split-fuse"])
ov.viz.show(serving_figure(runs["split-fuse"]))

# %% [markdown]
# ## 7. Prefix caching
#
# Every request repeats the same system prompt. With `enable_prefix_caching=True` the block
# manager keeps the KV blocks of finished sequences, keyed by a hash of their tokens; a new prompt
# that starts with the same tokens reuses them and prefills only the rest. `LLMPipeline` turns it
# on by default on CPU and GPU ("for better TTFT in chat scenarios").

# %%
runs["split-fuse + prefix caching"] = serving.serve(stream, "split-fuse + prefix caching",
                                                    **serving.MODES["split-fuse + prefix caching"])
print("prompt tokens prefilled per step, first 12 steps:",
      [s["num_prompt_tokens"] for s in runs["split-fuse + prefix caching"].steps[:12]])

# %% [markdown]
# ## 8. The four ways side by side

# %%
table = pd.DataFrame([r.summary() for r in runs.values()]).set_index("mode")
table

# %%
ov.viz.show(modes_figure(list(runs.values())))

# %% [markdown]
# ## 9. When the KV cache runs out
#
# Phi-3-mini keeps 32 layers x 32 KV heads x 96 values x 2 (K and V) x 2 bytes = 393 KB per token
# in the cache: 1 GB holds about 2,700 tokens. At 8 requests per second, with a 1 GB cache, the
# running sequences need more: the scheduler **preempts** the lowest-priority (newest) request,
# frees its blocks, and recomputes its tokens later.

# %%
busy = serving.chat_stream(seed=0, n=24, rate=8.0)
tight = serving.serve(busy, "split-fuse, 1 GB cache", cache_size=1)
roomy = serving.serve(busy, "split-fuse, dynamic cache")
pd.DataFrame([roomy.summary(), tight.summary()])

# %%
ov.viz.show(serving_figure(tight))

# %% [markdown]
# ## 10. The analytic model beside the simulation
#
# The cost model alone says what one step costs; the simulation adds who is in the step. For
# decode-only steps, the step time against the number of sequences decoded: the dashed line is the
# analytic cost at the stream's typical context (~180 tokens), the dots are the simulated steps of
# the vLLM-mode run (their contexts vary, so they scatter around it).

# %%
import plotly.graph_objects as go

vllm_steps = [s for s in runs["vLLM mode"].steps if s["phase"] == "generate"]
n_seqs = np.arange(1, 25)
fig = go.Figure()
fig.add_scatter(x=[s["num_generate_tokens"] for s in vllm_steps],
                y=[s["duration_s"] * 1e3 for s in vllm_steps], mode="markers",
                name="simulated decode steps", marker=dict(color="#ff7f0e", size=6))
fig.add_scatter(x=n_seqs, y=[serving.analytic_step_ms(int(n), 180) for n in n_seqs], mode="lines",
                name="cost model (context 180)", line=dict(color="black", dash="dash"))
fig.update_layout(title="Decode step time against sequences per step", height=380,
                  xaxis_title="sequences in the step", yaxis_title="step ms")
ov.viz.show(fig)

# %% [markdown]
# One sequence per step costs ~33 ms; 8 sequences ~48 ms, 24 about 82 ms. That is why
# continuous batching multiplies throughput: tokens per second grow almost with the batch while
# the step time barely moves, until the KV cache (or the token budget) is full.

# %% [markdown]
# ## 11. The dashboard
#
# The knobs of GenAI's `SchedulerConfig` and the arrival rate; every change serves the same
# seeded stream again. Panels: TTFT and TPOT per request (dashed: a lone request, from the cost
# model), KV-cache occupancy per step with preemptions (red crosses), and the prompt and generated
# tokens of each step. `max_num_seqs` is greyed out under split-fuse: GenAI's split-fuse
# scheduler does not read it. The static figure of the defaults:

# %%
dash = ov.widgets.LLMServingDashboard()  # ovlab only
ov.viz.show(dash.static_figure())

# %% tags=["nbval-ignore-output"]
display(dash)  # the widgets: they need a running kernel

# %% [markdown]
# Try: raise the arrival rate to 12 with a 1 GB cache (preemptions); turn split-fuse off, set
# max_num_seqs to 16, then the budget to 128 (GenAI's assert: a prompt longer than the budget;
# with 256 sequences GenAI first asserts that the budget holds one token per sequence); turn
# prefix caching on (TTFT falls).

# %% [markdown]
# ## Exercises
#
# **1.** In vLLM mode, what is the smallest `max_num_batched_tokens` of the dashboard's list
# (32, 64, 128, 256, 512, 1024, 4096) that can serve the default stream?

# %%
answer = None  # tokens, e.g. 64
exercises.check(1, answer)

# %% [markdown]
# **2.** By the cost model, how many times the cost of a one-sequence decode step is a step that
# decodes 8 sequences, each at a context of 200 tokens? Two decimals.

# %%
answer = None  # e.g. 8.0
exercises.check(2, answer)

# %% [markdown]
# **3.** Serve the default stream at 8 requests per second with split-fuse and a 1 GB cache
# (`serving.chat_stream(0, 24, 8.0)`, `cache_size=1`). How many preemptions happen?

# %%
answer = None  # e.g. 3
exercises.check(3, answer)

# %% [markdown]
# **4.** On the default stream (4 requests per second), by what factor does prefix caching cut
# the mean TTFT of split-fuse? One decimal.

# %%
answer = None  # e.g. 1.5
exercises.check(4, answer)

# %% [markdown]
# **5.** Beam search keeps `num_beams` sequences per request, and GenAI's block manager lets a
# forked beam share its parent's KV blocks until it writes to one (copy on write). Generate 64
# tokens of `"What does the GPU do?"` with phi-3-mini on the GPU, greedy and with `num_beams=4`
# (`ignore_eos=True`), each on a new Core. By what factor is the peak of `kv_blocks_used` in
# `core.trace.scheduler_steps` larger with 4 beams? One decimal.

# %%
answer = None  # e.g. 4.0
exercises.check(5, answer)
