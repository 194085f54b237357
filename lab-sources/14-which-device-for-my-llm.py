# %% [markdown]
# # 14 · Which device for my LLM
#
# "Why is the NPU slower than the CPU and the GPU?" is the question users ask most often about
# LLMs on Intel AI PCs (openvino.genai #1084, #1563, #1882, #3862; openvino #32306). The answer is
# quantitative, and this lab works it out on the virtual Core Ultra 7 165H: its CPU, its Arc iGPU
# and its NPU, with OpenVINO GenAI's own API.
#
# **What you will see**
# - One request of a zoo LLM on each device: load time, time to first token (TTFT), time per
#   output token (TPOT), tokens per second and memory.
# - Which pipeline each device string selects in GenAI: continuous batching on CPU and GPU, the
#   NPU's stateful pipeline with static shapes.
# - The NPU's TTFT, flat below `MAX_PROMPT_LEN`: every prompt is padded to a full prefill chunk.
# - Its compile, and the model cache that makes the second load fast.
# - Memory: the model and its KV cache must fit, and the iGPU and the NPU share the system memory.
# - How several users at once change the picture, and a recommendation with its reasons.
#
# The timings come from lab 13's cost model (fitted on Intel's 165H iGPU figures). The NPU's
# kernels reach a smaller share of its peak and of the memory bandwidth than the iGPU's; both
# shares are measured on a Core Ultra X7 368H, where both devices were measured (see
# `ovlab/sim/genai/npu_pipeline.py`). The large models' text is a seeded stand-in; their time follows
# their real shape. This lab shows no claims of its own; the claim ids of the other labs are
# explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup

# %%
import tempfile

import pandas as pd

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.sim.genai as ov_genai  # on real hardware: import openvino_genai as ov_genai
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.sim.genai import device_choice  # ovlab only: lab 14's experiment
from ovlab.sim.viz.llm_devices import devices_figure, ttft_curve_figure, users_figure  # ovlab only

exercises = for_lab("14")
MODEL = "phi-3-mini-4k-instruct-int4-ov"  # Phi-3-mini, 3.8B parameters, INT4 weights

# %% [markdown]
# ## 1. One request on each device
#
# `device_choice.measure` loads the model with `LLMPipeline(MODEL, device)` on a fresh virtual
# Core and runs one request: a 512-token prompt, 64 new tokens. The figures are what GenAI's
# `perf_metrics` report, in simulated time.

# %%
figures = device_choice.compare(MODEL, 512)
pd.DataFrame([f.row() for f in figures]).set_index("device")

# %%
ov.viz.show(devices_figure(figures, "Phi-3-mini INT4, a 512-token prompt, 64 new tokens"))

# %% [markdown]
# The iGPU wins on both counts here. The two phases of a request are bound by different things:
#
# - **Prefill** (the TTFT) computes with every weight for every prompt token, so it is bound by
#   compute. The iGPU has about 9.4 TFLOPS in f16, the NPU 5.7, the CPU about 1.2.
# - **Decode** (the TPOT) makes one token per step. It reads every weight (about 2 GB here) and
#   computes little, so it is bound by memory bandwidth. The three devices read the same
#   LPDDR5x, so they come close. The NPU is slowest: its generate model reads its whole static
#   KV buffer every token, and its kernels reach less of the bandwidth.

# %% [markdown]
# ## 2. What each device string selects
#
# GenAI picks the pipeline from the device string (`llm/pipeline.cpp`):
#
# | device | pipeline | requests |
# |---|---|---|
# | `"CPU"`, `"GPU"`, `"AUTO"` | continuous batching, paged KV cache, the latency-oriented scheduler config | many at once |
# | `"NPU"` | stateful, static shapes (`MAX_PROMPT_LEN`, `MIN_RESPONSE_LEN`), KV cache in the model state | one at a time |
# | any but NPU, with `ATTENTION_BACKEND="SDPA"` | stateful SDPA | the prompts of one call |

# %%
core = ov.Core(platform="core-ultra-7-165h", seed=0)  # ovlab only: platform= and seed=
for device in ("CPU", "GPU", "NPU", "AUTO", "AUTO:NPU,CPU"):
    pipe = ov_genai.LLMPipeline("tiny-llm-fp16-ov", device, core=core)
    print(f"{device:13} -> {pipe.device:6} {pipe._engine.kind}")
sdpa = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "GPU", core=core, ATTENTION_BACKEND="SDPA")
print(f"{'GPU + SDPA':13} -> {sdpa.device:6} {sdpa._engine.kind}")

# %% [markdown]
# AUTO never picks the NPU for an LLM. The continuous-batching model has dynamic shapes, and the
# NPU compiles only static ones. So AUTO takes the iGPU (its default order: dGPU, iGPU, other
# accelerators, CPU), and `AUTO:NPU,CPU` moves on to the CPU. The NPU runs an LLM only when you
# ask for it by its exact name.

# %% [markdown]
# ## 3. The NPU's flat TTFT
#
# The NPU compiles the model once for fixed shapes. The prompt runs in chunks of
# `NPUW_LLM_PREFILL_CHUNK_SIZE` (1,024) tokens, the last one padded, and the KV cache is a fixed
# buffer of `MAX_PROMPT_LEN + MIN_RESPONSE_LEN` tokens (1,024 + 128 by default). A 30-token
# question therefore costs a full 1,024-token prefill. The NPU guide says: "if the input prompt
# is shorter than MAX_PROMPT_LEN tokens, TTFT remains the same as if a full-length prompt was
# passed".

# %%
lengths = [32, 256, 512, 768, 1024, 1536, 2048, 3072]
short = [n for n in lengths if n <= 1024]
curves = {
    "CPU": device_choice.ttft_curve(MODEL, "CPU", lengths),
    "GPU": device_choice.ttft_curve(MODEL, "GPU", lengths),
    "NPU": device_choice.ttft_curve(MODEL, "NPU", short) + [None] * (len(lengths) - len(short)),
    "NPU (MAX_PROMPT_LEN=4096)": device_choice.ttft_curve(MODEL, "NPU", lengths,
                                                          MAX_PROMPT_LEN=4096),
}
pd.DataFrame(curves, index=pd.Index(lengths, name="prompt tokens")).round(0)

# %%
ov.viz.show(ttft_curve_figure(lengths, curves, max_prompt_len=1024))

# %% [markdown]
# Below 1,024 tokens the NPU's line is flat. Above it, with `MAX_PROMPT_LEN=4096`, the TTFT climbs
# one chunk at a time: the 1,500-token prompt of openvino #32306 runs two full chunks. The OVMS long-context demo measured the same shape on a 368H NPU: 1,514 ms
# at 500 tokens and 1,366 ms at 1k, then 2,662 ms at 2k and 6,505 ms at 4k. With the default
# `MAX_PROMPT_LEN`, a longer prompt is refused with GenAI's error:

# %%
npu = ov_genai.LLMPipeline(MODEL, "NPU", core=core)
try:
    npu.generate(device_choice.prompt_ids(MODEL, 1200), max_new_tokens=8)
except RuntimeError as err:
    print(err)

# %% [markdown]
# It serves one request at a time: a batch of prompts is refused too. A `scheduler_config` is
# refused as well: GenAI passes it on to the NPU plugin's compile, which does not know it.

# %%
for attempt in (lambda: npu.generate(["one question", "another"], max_new_tokens=8),
                lambda: ov_genai.LLMPipeline(MODEL, "NPU", core=core,
                                             scheduler_config=ov_genai.SchedulerConfig())):
    try:
        attempt()
    except RuntimeError as err:
        print(str(err).splitlines()[-1])

# %% [markdown]
# ## 4. The compile, and the model cache
#
# The NPU compiles an LLM for its static shapes, which takes seconds to minutes (#1084 measured
# 3.3 s for TinyLlama; it grows with the weights). With `CACHE_DIR`, the first load writes the
# compiled blob and the next load imports it. A new `MAX_PROMPT_LEN` is a new shape, so it
# compiles again.

# %%
cache = tempfile.TemporaryDirectory(prefix="ovlab-npu-cache-")  # removed with the kernel
cache_dir = cache.name
rows = []
for label, props in [("first load", {}), ("second load", {}),
                     ("MAX_PROMPT_LEN=2048", {"MAX_PROMPT_LEN": 2048})]:
    pipe = ov_genai.LLMPipeline(MODEL, "NPU", core=ov.Core("core-ultra-7-165h", seed=0),
                                CACHE_DIR=cache_dir, **props)
    rows.append({"load": label, "from": pipe._engine.loaded_from,
                 "load time s": round(pipe._load_time_ms / 1e3, 1)})
pd.DataFrame(rows).set_index("load")

# %% [markdown]
# ## 5. Memory: the model and its KV cache must fit
#
# A dGPU has memory of its own. The iGPU and the NPU of an AI PC have none: they use the system
# memory (32 GB on this preset), each up to the share its driver exposes (16 GB). So whatever one
# device holds, the others cannot use. Qwen-7B in FP16 takes 15.4 GB: it fits on the iGPU, and
# a second copy fits on the CPU. After that, even Phi-3-mini in INT4 (2.5 GB with the NPU's
# static KV buffer) finds the package's memory used up:

# %%
mem_core = ov.Core("core-ultra-7-165h", seed=0)
loaded = []
for model, device in [("qwen-7b-chat-fp16-ov", "GPU"), ("qwen-7b-chat-fp16-ov", "CPU"),
                      (MODEL, "NPU")]:
    try:
        loaded.append(ov_genai.LLMPipeline(model, device, core=mem_core))
        print(f"{model} on {device}: loaded")
    except RuntimeError as err:
        print(f"{model} on {device}: {str(err).splitlines()[-1]}")

# %% [markdown]
# A model larger than the iGPU's share fails with the GPU plugin's error, before any KV cache:

# %%
try:
    ov_genai.LLMPipeline("gemma-7b-it-fp16-ov", "GPU", core=ov.Core("core-ultra-7-165h", seed=0))
except RuntimeError as err:
    print(str(err).splitlines()[-1])

# %% [markdown]
# The same DRAM also means shared **bandwidth**. Decode is bound by it, so two LLMs decoding at
# once on the CPU and the iGPU slow each other down. A CNN beside one LLM hardly notices. Alone,
# each device runs at the speeds above.

# %% [markdown]
# ## 6. Several users at once
#
# Everything so far was one request. Now 1, 2, 4 or 8 users send a 256-token prompt at the same
# moment, and each gets 64 tokens back. On CPU and GPU, continuous batching prefills them
# together and decodes them in one step each time. The NPU's pipeline has no scheduler: it
# serves one user after another.

# %%
runs = [device_choice.serve_users(MODEL, device, users)
        for device in ("CPU", "GPU", "NPU") for users in (1, 2, 4, 8)]
pd.DataFrame([r.row() for r in runs]).set_index(["device", "users"])

# %%
ov.viz.show(users_figure(runs))

# %% [markdown]
# With continuous batching, the total rate grows with the number of users: the weights are read
# once per step, whoever is in it. The NPU's rate stays that of one user, and the last user in
# its queue waits for all the others.

# %% [markdown]
# ## 7. A recommendation, with its reasons

# %%
pick, reasons = device_choice.recommend(figures, users=1)
print("one user:", pick)
for reason in reasons:
    print(" -", reason)
print("four users:", device_choice.recommend(figures, users=4)[0])

# %% [markdown]
# On this AI PC the iGPU is the device for an interactive LLM, for one user or several. The NPU
# earns its place elsewhere. It leaves the CPU and the iGPU free for other work, at a lower
# power: background summaries, a single assistant with short answers while the iGPU renders,
# or a prompt that is always about the same length (its TTFT is paid anyway). Choose it
# knowing its costs: a padded prefill, a compile unless cached, and one request at a time.

# %% [markdown]
# ## 8. The dashboard
#
# Choose a zoo model, a prompt length and a number of users. That many users send a prompt of
# that length at the same moment, to each device (as in section 6: continuous batching on the
# CPU and the iGPU, one request after the other on the NPU). The bars are the users' mean TTFT
# and TPOT, waits included, and the tokens per second of all users together, from the first
# prompt to the last token (section 2's tokens/s is one request's decode rate, 1000 / TPOT).
# The line above the figure says which device to pick and why. A prompt over 1,024 tokens
# shows GenAI's error for the NPU. The static figure of the defaults:

# %%
dash = ov.widgets.LLMDeviceDashboard()  # ovlab only
ov.viz.show(dash.static_figure())

# %% tags=["nbval-ignore-output"]
display(dash)  # the widgets: they need a running kernel

# %% [markdown]
# Try: TinyLlama with a 32-token prompt (the NPU's TTFT against the CPU's, as in #1084); Qwen2.5-7B
# with 1, then 4 users (the iGPU's total rate grows, the NPU's users wait in line); a 1,536-token
# prompt (the NPU refuses it).

# %% [markdown]
# ## Exercises
#
# The first three come from users' threads.
#
# **1.** openvino.genai #1084 ("Ultra 5 125H NPU so slowly?") ran TinyLlama with a short prompt.
# On this AI PC, how many times the CPU's TTFT is the NPU's for TinyLlama INT4 with a 32-token
# prompt (`TinyLlama-1.1B-Chat-v1.0-int4-ov`)? One decimal. Expect far less than the thread's 69x
# (4,742 ms against 69 ms): it ran in October 2024, a TinyLlama export of that month on an
# OpenVINO nightly and that year's Linux NPU driver, while ovlab's NPU follows 2026 measurements
# (a Core Ultra X7 368H), and the NPU's LLM pipeline and driver have sped up a lot in between.

# %%
answer = None  # e.g. 2.5
exercises.check(1, answer)

# %% [markdown]
# **2.** openvino.genai #3862 ("npu is slower than cpu and gpu") ran a 0.6B model in FP16. Order
# the three devices by tokens per second for `Qwen2.5-0.5B-Instruct-fp16-ov` with a 128-token
# prompt, fastest first.

# %%
answer = None  # a list, e.g. ["CPU", "NPU", "GPU"]
exercises.check(2, answer)

# %% [markdown]
# **3.** openvino discussion #36484 (Crow #183) ran a draft model on the NPU to speed up an LLM
# on the GPU, and generation got slower. In speculative decoding a small draft model proposes a
# few tokens one by one, and the main model checks them all in one pass; each accepted token saves
# a main-model pass. Qwen2.5-7B INT4 runs on the iGPU, and a Qwen2.5-0.5B INT4 draft proposes 3
# tokens (`LLMPipeline(main, "GPU", draft_model=ov_genai.draft_model(draft, device))`,
# `num_assistant_tokens=3`; a 128-token prompt, 64 new tokens). Order the draft's places by TPOT,
# lowest first: "CPU", "GPU", "NPU", and "none" for no draft.

# %%
answer = None  # a list, e.g. ["none", "CPU", "GPU", "NPU"]
exercises.check(3, answer)

# %% [markdown]
# **4.** Four users send a 256-token prompt to Phi-3-mini at once (section 6). By what factor is
# the iGPU's total rate (tokens per second, all users) higher than the NPU's? One decimal.

# %%
answer = None  # e.g. 2.0
exercises.check(4, answer)
