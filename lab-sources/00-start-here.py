# %% [markdown]
# # 00 · Start here
#
# **ovlab** is a teaching lab for OpenVINO's device plugins. It speaks the same Python API as
# `openvino` (`Core`, `compile_model`, `InferRequest`, `AsyncInferQueue`, `openvino.properties`),
# but the devices are *virtual*: a CPU, integrated and discrete GPUs and an NPU modelled on real
# hardware, running on a *simulated clock*, while the model numerics are computed for real with
# NumPy.
#
# **What you will see**
# - What ovlab simulates and what it takes from the real OpenVINO runtime, and what to change to
#   run the same code on real hardware.
# - The virtual clock: `core.clock.now`, `core.clock.sleep`, calls that block and advance it,
#   and `realtime=` pacing.
# - The records every run leaves (`core.trace`, `to_frame()`), which the later labs plot.
# - A first inference: GoogLeNet-v1 on the laptop CPU, with the clock before and after.
# - Real weights on real images: a handwritten-digit classifier on the CPU, the GPU and the NPU,
#   in FP32, f16 and int8, with its accuracy and what each precision changes.
# - The table of contents of the labs, and the tracks through them.
#
# **Why it matters.** AUTO device selection, automatic batching and HETERO are hard to learn on a
# real machine: you need an iGPU, a dGPU or an NPU, a 10-second GPU compile hides what happens,
# and every run is different. Here a 2,000-request experiment takes a second of wall time and
# gives the same timeline every run, so you can look at each inference.
#
# **Who it is for.** Learners who know a little Python and want to understand how OpenVINO picks
# and drives devices, and instructors who want a class to run the same experiments on Binder or
# JupyterHub without special hardware.
#
# **The sources.** The labs reproduce what these documents describe, and cite them by name:
# - OpenVINO's documentation pages on
#   [Automatic Device Selection (AUTO)](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/auto-device-selection.html),
#   [Heterogeneous Execution (HETERO)](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/hetero-execution.html),
#   [Automatic Batching](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/automatic-batching.html)
#   and [performance hints](https://docs.openvino.ai/2025/openvino-workflow/running-inference/optimize-inference/high-level-performance-hints.html);
# - **the yas-sim article** on AUTO and automatic batching in OpenVINO 2022.1 (in Chinese,
#   "OpenVINO™ 2022.1中AUTO插件和自动批处理的最佳实践", in English "Best practices for the AUTO
#   plugin and automatic batching in OpenVINO™ 2022.1") and its two scripts, `auto-test.py` and
#   `auto-test-latency-graph.py`, in the repository
#   [yas-sim/openvino-auto-feature-visualization](https://github.com/yas-sim/openvino-auto-feature-visualization).
#
# Each behaviour the labs show has an id (A for AUTO, B for batching, E for the yas-sim
# experiments, H for HETERO); [CLAIMS.md](CLAIMS.md) says what each id means, which lab shows it
# and which test checks it. Where a document and the real runtime disagree, the labs follow the
# runtime and say so.

# %% [markdown]
# ## How ovlab maps to OpenVINO
#
# | | OpenVINO | ovlab |
# |---|---|---|
# | import | `import openvino as ov` | `import ovlab as ov` |
# | Core | `ov.Core()` finds the devices of your machine | `ov.Core("laptop", seed=0)` builds a virtual machine (`laptop`, `workstation`, `cpu`, `multi-gpu`, or your own `ov.Platform`) |
# | models | `core.read_model("googlenet-v1.xml")` (an IR from Open Model Zoo or `ovc`) | `core.read_model("googlenet-v1")` (a zoo model built in Python: real layers, random fixed weights) |
# | time | wall clock (`time.perf_counter()`) | `core.clock.now`, simulated seconds |
# | what happened | your own timestamps, `benchmark_app` | `core.trace`: one record per inference, plus compile and switch events |
#
# **Simulated:** the devices (their speed, streams, memory), the clock, and therefore every
# compile time and inference time. They come from a cost model calibrated on public specs and on
# the figures of the yas-sim article (GoogLeNet-v1 at about 15–30 ms on a Core i7-1165G7 CPU,
# 3–16 ms on its Iris Xe iGPU, several seconds to compile for the GPU).
#
# **Real:** the API (names, arguments, return types), the property names, their Python value
# types and the error messages (measured on OpenVINO 2026.4.1), the scheduling algorithms of AUTO,
# BATCH and HETERO as read from the OpenVINO source, and the numerics: every output tensor is
# computed with NumPy in the device's precision (f32 on CPU, f16 on GPU).
#
# **To run the same code on real hardware:** replace `import ovlab as ov` with
# `import openvino as ov`; create `ov.Core()` with no arguments; read a real IR with
# `core.read_model(path)`; time with `time.perf_counter()` instead of `core.clock.now`; and drop
# what only a simulator can have (`core.trace`, `core.faults`, platform presets). The labs mark
# such lines with `# on real hardware: ...` or `# ovlab only` comments.

# %% [markdown]
# ## Setup
#
# A `Core` on the `laptop` platform (the Core i7-1165G7 with its Iris Xe iGPU of the yas-sim
# article). `seed=0` is a random seed: it fixes the noise of the simulated inference times, so
# every run of this notebook prints the same numbers. (It has nothing to do with the documents
# above.)

# %%
import numpy as np

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
from ovlab import zoo  # ovlab only: models built in Python
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

exercises = for_lab("00")

core = ov.Core("laptop", seed=0)  # on real hardware: ov.Core()
print(core)
print("OpenVINO version emulated:", ov.get_version())
print("available devices:", core.available_devices)

# %% [markdown]
# ## The virtual clock
#
# `core.clock.now` is the simulated time in seconds since the Core was created. Nothing in ovlab
# sleeps for real: `core.clock.sleep(s)` moves the clock forward and runs everything that was due
# meanwhile.

# %%
print(f"clock at start:        {core.clock.now:.3f} s")
core.clock.sleep(0.5)  # on real hardware: time.sleep(0.5)
print(f"after sleep(0.5):      {core.clock.now:.3f} s")

# %% [markdown]
# Calls that *wait* in OpenVINO advance the clock by as long as the wait would take:
# `compile_model`, `infer`, `wait`, and `AsyncInferQueue.start_async` when every request is busy.
# Calls that return at once in OpenVINO (`start_async` on an idle request) do not move it. Watch the
# clock around a compile and an asynchronous inference of GoogLeNet-v1 on the CPU:

# %%
model = core.read_model("googlenet-v1")  # on real hardware: core.read_model("googlenet-v1.xml")
image = zoo.sample_input("googlenet-v1")  # a fixed, zero-mean input of the right shape

t0 = core.clock.now
compiled = core.compile_model(model, "CPU")
print(f"compile_model took     {(core.clock.now - t0) * 1000:7.1f} ms (simulated)")

request = compiled.create_infer_request()
t0 = core.clock.now
request.start_async({0: image})
print(f"start_async returned   {(core.clock.now - t0) * 1000:7.1f} ms later")
request.wait()
print(f"wait returned          {(core.clock.now - t0) * 1000:7.1f} ms later")
print(f"request.latency        {request.latency:7.1f} ms")

# %% [markdown]
# **Pacing.** By default simulated time costs no wall time. `ov.Core(..., realtime=f)` (or
# `core.clock.realtime = f`) makes simulated time run `f` times as fast as the wall clock, so a live
# plot grows while you watch (`f=1` is real speed). Pacing changes *when* you see things, never
# *what* happens: the paced Core below gives exactly the same latency as an unpaced one.

# %%
def first_latency_ms(realtime):
    c = ov.Core("laptop", seed=0, realtime=realtime)
    r = c.compile_model(c.read_model("googlenet-v1"), "CPU").create_infer_request()
    r.infer({0: image})
    return round(r.latency, 3)


print("unpaced latency:          ", first_latency_ms(None), "ms")
print("paced (20x wall) latency: ", first_latency_ms(20), "ms")

# %% [markdown]
# ## A first inference, and its record
#
# A fresh Core, so the clock starts at 0. We compile GoogLeNet-v1 for the CPU, run one synchronous
# inference and look at the clock before and after. The output is a real NumPy tensor: the
# weights are random (so the "class" means nothing), but it is the same on every run.

# %%
core = ov.Core("laptop", seed=0)
compiled = core.compile_model(core.read_model("googlenet-v1"), "CPU")
print(f"after compile:   clock = {core.clock.now * 1000:6.1f} ms, on",
      compiled.get_property(props.execution_devices))

result = compiled(image)  # one synchronous inference on a cached request
print(f"after inference: clock = {core.clock.now * 1000:6.1f} ms")

probs = result[compiled.output(0)]
print("output:", compiled.output(0).get_any_name(), probs.shape, probs.dtype)
print("top-1 class:", int(np.argmax(probs)), "| probabilities sum to", round(float(probs.sum()), 3))

# %% [markdown]
# Everything that ran left a record. `core.trace.to_frame()` has one row per inference:
# when it was submitted, started and finished (simulated seconds), on which device and worker
# (stream), and, in later labs, its batch and HETERO subgraph. `core.trace.events_frame()` lists
# the rest: compiles here, device switches and batch time-outs later. On real hardware there is no
# such record: you take your own timestamps.

# %%
trace = core.trace.to_frame()  # ovlab only
cols = ["seq", "request_id", "device", "worker", "submitted", "started", "finished", "latency"]
shown = trace[cols].copy()
for c in ["submitted", "started", "finished", "latency"]:
    shown[c] = (shown[c] * 1000).round(1)  # ms
print("times in ms:")
print(shown.to_string(index=False))

# %%
events = core.trace.events_frame()  # ovlab only
events["time_ms"] = (events["time"] * 1000).round(1)
print(events[["time_ms", "kind", "device", "model"]].to_string(index=False))

# %% [markdown]
# Notice: the inference was submitted the moment the compile ended (compare `submitted` with the
# `compile_end` event), so the clock after the inference is compile time + latency. This first
# inference is also slower than later ones on the same compiled model: it pays a warm-up cost, as
# on real hardware (exercise 2 measures it). Lab 03 builds on both facts.

# %% [markdown]
# ## Real weights on a real image
#
# GoogLeNet above has random weights: its output is a real tensor, but the "class" means nothing.
# This one has learned something. `ovlab.sim.models.digits` is a small classifier (64 pixels -> 32 ReLUs ->
# 10 digits) trained with scikit-learn on its handwritten digits (8x8 pixels, grey levels 0-16,
# from the UCI "Optical Recognition of Handwritten Digits" set) by `tools/train_digits.py`. The
# package ships its weights and the 540 test images it never saw, and builds it as an OpenVINO
# graph with `ovlab.opset13` (`MatMul`, `Add`, `Relu`, `Softmax`). Here is one test image:

# %%
from ovlab.sim.models import digits  # ovlab only: the trained weights and the held-out test images

data = digits.data()
print(f"{len(data.labels)} test images, {data.images.shape[1]} pixels each; trained with "
      f"scikit-learn {data.sklearn_version}")
shades = " .:-=+*#%@"  # grey level 0-16 as a character
for row in data.images[0].reshape(8, 8):
    print("".join(shades[v * (len(shades) - 1) // 16] * 2 for v in row))
print("label:", data.labels[0])

# %% [markdown]
# Each device computes in its own precision: the CPU in f32, the GPU and the NPU in f16. The
# INT8 model is what a post-training quantizer (NNCF) writes: `FakeQuantize` on each `MatMul`'s
# inputs and weights, 256 levels; a device with `INT8` in its `OPTIMIZATION_CAPABILITIES` runs
# those layers in int8, another one rounds to the same 256 levels in its own precision. We run all 540 images in one batch on the workstation's CPU,
# iGPU and NPU, and compare every output with the CPU's FP32 one.

# %%
machine = ov.Core("workstation", seed=0)  # on real hardware: ov.Core()
pixels = data.inputs()  # float32 [540, 64]
reference = None
print(f"{'model':5} {'device':6} {'computes in':20} {'accuracy':>8} {'max |p - p_fp32|':>17}"
      f" {'answers changed':>15}")
for precision in ["FP32", "INT8"]:
    model = digits.model(precision)
    for device in ["CPU", "GPU.0", "NPU"]:
        compiled = machine.compile_model(model, device)
        probs = compiled({0: pixels})[compiled.output(0)]
        if reference is None:
            reference = probs
        native = machine.platform.devices[device].inference_precision  # ovlab only
        int8 = "INT8" in machine.get_property(device, "OPTIMIZATION_CAPABILITIES")
        computes = native if precision == "FP32" else ("int8" if int8 else f"{native}, 256 levels")
        changed = int((probs.argmax(1) != reference.argmax(1)).sum())
        print(f"{precision:5} {device:6} {computes:20} {digits.accuracy(probs):8.2%} "
              f"{np.abs(probs - reference).max():17.4f} {changed:15d}")

# %% [markdown]
# The accuracy is real: 522 of the 540 images are read right on every device. f16 moves the
# probabilities by less than 0.01; int8 by about 0.1, which is what quantization costs, yet on
# these images no answer changes. Precision is a knob with a price you can measure; lab 02 shows
# how AUTO takes it into account when it picks a device.

# %% [markdown]
# ## The labs
#
# | lab | what it shows |
# |---|---|
# | [00 · Start here](00-start-here.ipynb) | this page: ovlab, the clock, the records, a real classifier on every device |
# | [01 · Devices and properties](01-devices-and-properties.ipynb) | `available_devices`, capabilities, `SUPPORTED_PROPERTIES`, property objects and value types, hints and request counts, compile times, custom platforms, common errors |
# | [02 · AUTO device selection](02-auto-device-selection.ipynb) | how AUTO picks a device: priorities, precisions, exclusions, model priority |
# | [03 · AUTO's first inference](03-auto-first-inference.ipynb) | the CPU helps while the GPU compiles, then hands over |
# | [04 · The latency graph](04-latency-graph.ipynb) | the yas-sim latency graph: 2,000 requests every 30 ms on AUTO |
# | [05 · Automatic batching](05-automatic-batching.ipynb) | the yas-sim timelines: submit to result, batch size and timeout |
# | [06 · CUMULATIVE_THROUGHPUT and MULTI](06-cumulative-throughput-and-multi.ipynb) | several devices at once, DEVICE_PRIORITY and ROUND_ROBIN |
# | [07 · HETERO](07-hetero.ipynb) | splitting one model across devices: affinities, subgraphs, transfers |
# | [08 · When a device fails](08-when-a-device-fails.ipynb) | compile and inference failures, AUTO's fallbacks |
# | [09 · An AI PC in 2026](09-ai-pc-2026.ipynb) | a Core Ultra with an NPU: resource-aware AUTO, the model cache, NPU batching, HETERO over two GPUs |
# | [10 · Models from files](10-models-from-files.ipynb) | OpenVINO IR in and out, and your own model on the NPU with HETERO |
# | [11 · Run OpenVINO code](11-run-openvino-code.ipynb) | an unmodified OpenVINO script on the virtual devices (`python -m ovlab run`, `%load_ext ovlab`) |
# | [12 · How far to trust the numbers](12-how-far-to-trust-the-numbers.ipynb) | the simulator beside the real OpenVINO CPU plugin: what is measured, fitted and predicted |
# | [13 · Batching for LLMs](13-batching-for-llms.ipynb) | OpenVINO GenAI: an LLM's prefill and decode, and one chat stream served one at a time, by BATCH (refused) and by continuous batching, with split-fuse and prefix caching |
# | [14 · Which device for my LLM](14-which-device-for-my-llm.ipynb) | one LLM on the AI PC's CPU, iGPU and NPU: TTFT, TPOT, memory, the NPU's padded prefill and compile, several users at once, and which device to pick |
#
# (One row per lab, in order: a new lab adds its row as `| [NN · Title](NN-file.ipynb) | what it
# shows |`.)
#
# Each lab opens with what you will see and the claims it shows, and closes with exercises that
# the notebook checks for you: replace `None` with your answer and run the cell. Numbers are
# accepted within the tolerance the check states, and after a try `reveal=True` shows the answer.
# [CLAIMS.md](CLAIMS.md) explains every claim id.

# %% [markdown]
# ## Tracks
#
# <!-- labs:tracks -->
# All fifteen labs take about 7.2 hours (435 minutes of class time; each lab's is in `docs/instructors.md`). The tracks through them:
#
# | track | labs, in order | minutes |
# |---|---|---|
# | 15 minutes: see AUTO switch and batch | [00](00-start-here.ipynb) down to its digits classifier (5 min), [04](04-latency-graph.ipynb)'s dashboard, section 4 (10 min) | 15 |
# | 3 hours: a class on AUTO and batching | [00](00-start-here.ipynb), [02](02-auto-device-selection.ipynb), [03](03-auto-first-inference.ipynb), [04](04-latency-graph.ipynb), a 10-minute break, [05](05-automatic-batching.ipynb), [08](08-when-a-device-fails.ipynb) | 180 |
# | 90 minutes: LLMs on an AI PC | [00](00-start-here.ipynb) up to its first inference and its record (20 min), [13](13-batching-for-llms.ipynb), a 5-minute break, [14](14-which-device-for-my-llm.ipynb) | 90 |
# | a second day: everything else | [01](01-devices-and-properties.ipynb), [06](06-cumulative-throughput-and-multi.ipynb), [07](07-hetero.ipynb), [09](09-ai-pc-2026.ipynb), [10](10-models-from-files.ipynb), [11](11-run-openvino-code.ipynb), [12](12-how-far-to-trust-the-numbers.ipynb), [13](13-batching-for-llms.ipynb), [14](14-which-device-for-my-llm.ipynb) | 265 |
# <!-- /labs:tracks -->
#
# **15 minutes: see AUTO switch and batch.** This lab down to *Real weights on a real image*:
# you can tell what is simulated from what is real, and read the clock. Then
# [lab 04](04-latency-graph.ipynb)'s dashboard (section 4; run the cells above it first): you
# can point at the moment AUTO hands over from the CPU helper to the GPU, see requests run in
# batches of 16 and alone after the batch timer, and say what `AUTO_BATCH_TIMEOUT` changes.
#
# The instructors' guide (`docs/instructors.md`) gives every track step by step, with what a
# learner can do after each lab.

# %% [markdown]
# ## Summary
# - `import ovlab as ov` gives OpenVINO's Python API on virtual devices; the platform is chosen
#   when the `Core` is made.
# - Time is simulated: `core.clock.now` moves only when OpenVINO would wait (compile, `infer`,
#   `wait`, a full queue) or when you `sleep`. The same `seed=` gives the same numbers every run.
# - Numbers are real: outputs are NumPy tensors in the device's precision.
# - Every inference leaves a record in `core.trace`; `to_frame()` turns the records into a table.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check says whether it is right, within
# the tolerance it states. After a try, `exercises.check(1, answer, reveal=True)` shows the answer.
#
# Your answers are recorded for your instructor under your name. On JupyterHub that is your hub
# user; elsewhere, set it once, before your first answer, in a cell of your own:
# `ov.labtools.set_learner("your name")` (every lab then uses it).
#
# **1.** On a fresh laptop Core, compile GoogLeNet-v1 for the `GPU` instead of the CPU. What does
# `core.clock.now` read afterwards, in seconds?

# %%
answer = None  # seconds, e.g. 0.2
exercises.check(1, answer)

# %% [markdown]
# **2.** Run two inferences, one after the other, on the same CPU compiled model. Which one has the
# higher latency: `"first"` or `"second"`? (Read it from `core.trace.to_frame()`.)

# %%
answer = None  # "first" or "second"
exercises.check(2, answer)
