# %% [markdown]
# # 09 · An AI PC in 2026
#
# OpenVINO's AUTO, HETERO and automatic-batching pages and the yas-sim article that labs 01-08
# follow describe OpenVINO as it was in 2022-2023, on a laptop with a CPU and an iGPU. A learner in
# 2026 owns a Core Ultra laptop: a hybrid CPU (performance and efficient cores), an Arc iGPU and an
# NPU, and meets behaviours those documents never mention. Some of them can hardly be
# seen on real hardware at all. This lab runs them on a virtual **Core Ultra 7 165H**.
#
# **What you will see**
# - The machine: P- and E-cores and what the CPU plugin does with them, the Arc iGPU, the NPU 3720
#   (claims N01, N03), and AUTO's choices with and without the NPU named (N02).
# - **Resource-aware AUTO** (2026): `DEVICES_UTILIZATION_THRESHOLD`, `PERF_CURVE_TABLE` and
#   `LOW_POWER_DEVICE` make AUTO pick a device for *every* inference from the devices' current
#   utilization and the platform's power mode. Another application loads the iGPU and AUTO moves
#   away; a dashboard puts the load, the thresholds and the power mode on widgets (N04-N13).
# - The **model cache** is a directory of blob files: a second Core finds them, and AUTO then skips
#   its CPU helper and loads only the device it chose (N14-N17).
# - **NPU batching** (2025.3+): a batched model runs as concurrent batch-1 inferences; automatic
#   batching (BATCH) never applies to the NPU (N23, N24).
# - **Pipeline-parallel HETERO** over two GPUs: a 21 GB model split by the GPUs' memory, and a
#   model that fits the first GPU put there whole, without a warning (openvino issue #38250)
#   (N18-N22).
#
# **Why it matters.** On real hardware resource-aware AUTO needs the Intel Platform Framework's
# telemetry (builds with `OV_AUTO_ENABLE_IPF`; the Linux wheel logs "utilization query
# failed/unavailable" and never moves), pipeline parallelism needs two GPUs and a model larger
# than one of them, and the cache's effect on AUTO is hidden in a log line. Here every one of them
# runs on a laptop, on a seeded simulated clock, from records you can read.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md) (the N ids come from `docs/claims-2026.md`).

# %% [markdown]
# ## Setup

# %%
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.device as device  # on real hardware: openvino.properties.device
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
import ovlab.properties.intel_auto as intel_auto  # on real hardware: openvino.properties.intel_auto
from ovlab import zoo  # ovlab only: models built in Python and their sample inputs
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.sim.labtools import error_message  # ovlab only: short errors
from ovlab.sim.plugins.hetero.pipeline import layered_model  # ovlab only: a model with lazy weights
from ovlab.sim.workloads import (
    BackgroundLoad,  # ovlab only: another application on the same machine
)

core = ov.Core("core-ultra-7-165h", seed=0)  # on real hardware: ov.Core()
model = core.read_model("googlenet-v1:FP16")  # on real hardware: core.read_model("<...>.xml")
image = zoo.sample_input("googlenet-v1")
exercises = for_lab("09")
print(core)

# %% [markdown]
# ## 1. The machine
#
# Three devices. The NPU has no FP32: an FP32 model is run in FP16 there, as on the iGPU.
#
# This preset is a copy of Intel's published 165H, not of the computer you are on. A preset is a
# snapshot of one machine as it was measured: even two cloud VMs with the same CPU name and flags
# ran the real CPU plugin 2x apart (lab 12). For your own CPU, `ov.Core("this-machine")` measures
# it with the real `openvino` (lab 12, section 8).

# %%
pd.DataFrame([{"device": d, "FULL_DEVICE_NAME": core.get_property(d, device.full_name),
               "DEVICE_TYPE": core.get_property(d, device.type).name,
               "OPTIMIZATION_CAPABILITIES": ", ".join(core.get_property(d, device.capabilities))}
              for d in core.available_devices]).set_index("device")

# %% [markdown]
# **A hybrid CPU.** The 165H has 6 P-cores and 8 E-cores (plus 2 low-power E-cores the CPU plugin
# leaves alone). Under LATENCY the CPU plugin runs one stream on the P-cores only; under
# THROUGHPUT it spreads its streams over every core; `SCHEDULING_CORE_TYPE` narrows the set
# (claim N03). An E-core does about 0.4 of a P-core's work, so the same inference on the E-cores
# takes twice as long:

# %%
rows = []
for label, config in [("LATENCY", {}), ("THROUGHPUT", {hints.performance_mode: "THROUGHPUT"}),
                      ("LATENCY, ECORE_ONLY", {"SCHEDULING_CORE_TYPE": "ECORE_ONLY"})]:
    cpu = core.compile_model(model, "CPU", config)
    request = cpu.create_infer_request()
    latencies = []
    for _ in range(6):  # the first inference pays the warm-up: keep the last five
        request.start_async({0: image})
        request.wait()
        latencies.append(request.latency)
    rows.append({"CPU compiled with": label, "NUM_STREAMS": cpu.get_property(props.num_streams),
                 "INFERENCE_NUM_THREADS": cpu.get_property(props.inference_num_threads),
                 "one inference (ms)": round(float(np.median(latencies[1:])), 1)})
pd.DataFrame(rows).set_index("CPU compiled with")

# %% [markdown]
# (THROUGHPUT's single inference is slow because each of its 4 streams owns a quarter of the
# cores; it pays off with 4 requests in flight, lab 04.)
#
# **AUTO and the NPU.** Plain `AUTO` never considers the NPU: it is on AUTO's block list and must be
# named (`get_device_list` in the AUTO source; claim N02). Named first, it is chosen; named after
# the GPU, the GPU wins. The table shows the candidates (`MULTI_DEVICE_PRIORITIES`) and the device
# AUTO selected, each on a fresh Core.

# %%
rows = []
for name in ["AUTO", "AUTO:GPU,NPU,CPU", "AUTO:NPU,GPU,CPU", "AUTO:-GPU"]:
    machine = ov.Core("core-ultra-7-165h", seed=0)
    compiled = machine.compile_model(model, name)
    selected = [e.device for e in machine.trace.events if e.kind == "select"][0]  # ovlab only
    rows.append({"device name": name,
                 "candidates": compiled.get_property(device.priorities),
                 "AUTO selected": selected,
                 "EXECUTION_DEVICES now": compiled.get_property(props.execution_devices)})
pd.DataFrame(rows).set_index("device name")

# %% [markdown]
# `(CPU)` is the CPU helper that serves while the chosen accelerator compiles (lab 03).
#
# ## 2. Resource-aware AUTO: the three properties
#
# OpenVINO 2026 adds three AUTO properties (`ov::intel_auto`, openvino PRs #36745, #37196,
# #37384). The 2026.4.1 wheel lists them in AUTO's `SUPPORTED_PROPERTIES`, with these defaults:

# %%
for key in [intel_auto.devices_utilization_threshold, intel_auto.perf_curve_table,
            intel_auto.low_power_device]:
    print(f"{key:30} {core.get_property('AUTO', key)!r}")

# %% [markdown]
# - `DEVICES_UTILIZATION_THRESHOLD`: `{device: percent}`; a device busier than its threshold is
#   skipped. Keys may name `GPU.0`, `GPU`, `iGPU`/`dGPU`, `CPU` or `NPU`.
# - `PERF_CURVE_TABLE`: `{"CPU"|"iGPU"|"dGPU"|"NPU": {utilization %: score}}`; candidates are
#   ranked by their curve's score at their current utilization, lowest first.
# - `LOW_POWER_DEVICE`: the device to use while the platform is in low-power mode (EPO gears 4-7
#   of Intel's Dynamic Tuning Technology); it takes precedence over the thresholds.
#
# Bad values give the runtime's errors (measured with the 2026.4.1 wheel, claim N05). Some come
# from the Python binding, before OpenVINO's core sees the value:

# %%
bad_values = [(intel_auto.devices_utilization_threshold, {"GPU": 55.5}),
              (intel_auto.devices_utilization_threshold, {"GPU": 150}),
              (intel_auto.devices_utilization_threshold, "GPU:55"),
              (intel_auto.perf_curve_table, {"GPU": {0: 1.0}}),
              (intel_auto.perf_curve_table, {"NPU": {}}),
              (intel_auto.perf_curve_table, {"CPU": {0: -1.0}})]
for key, value in bad_values:
    message = error_message(lambda key=key, value=value: core.compile_model(model, "AUTO",
                                                                             {key: value}))
    print(f"{key}={value!r}\n    -> {message}")

# %% [markdown]
# ## 3. A device chosen for every inference
#
# Set any of the three and AUTO changes its whole schedule (the unit test
# `AutoDynamicDeviceSelectionTest` spells it out; claim N06):
# - the device is selected again for **every** inference, from the devices' utilization now;
# - inferences of one compiled model run **one at a time**, each device gets **one** worker;
# - a device is compiled the first time it is chosen, and only once (N07); there is no CPU helper.
#
# `OPTIMAL_NUMBER_OF_INFER_REQUESTS` is therefore 1. A GPU threshold of 60 %:

# %%
aware = core.compile_model(model, "AUTO:GPU,NPU,CPU",
                           {intel_auto.devices_utilization_threshold: {"GPU": 60}})
print("EXECUTION_DEVICES:", aware.get_property(props.execution_devices))
print("OPTIMAL_NUMBER_OF_INFER_REQUESTS:",
      aware.get_property(props.optimal_number_of_infer_requests))

# %% [markdown]
# Now another program starts using the iGPU: `BackgroundLoad` (ovlab only) runs GoogLeNet on the
# GPU, keeping it 80 % busy, from 1 s to 25 s of our run. Our application submits one inference
# every 33 ms (a 30 fps camera) through a queue of one request, for 28 s. ovlab reads each device's
# utilization over the last second (`core.utilization(device)`, its stand-in for the platform
# telemetry). The NPU has not been compiled yet: the first time AUTO picks it, that inference
# waits for the NPU's compile, and so does our application.

# %%
other_app = BackgroundLoad(core, "GPU", 0.8, model)  # compiles its own copy: takes a moment
start = core.clock.now
other_app.run(start=start + 1.0, stop=start + 25.0)
queue = ov.AsyncInferQueue(aware, 1)
while core.clock.now < start + 28.0:
    queue.start_async({0: image})  # waits while the one request is busy
    core.clock.sleep(0.033)  # on real hardware: time.sleep(0.033)
queue.wait_all()
ours = core.trace.to_frame()
ours = ours[(ours["submitted"] >= start) & ours["worker"].str.endswith(":0")]  # AUTO's workers
phase = pd.cut(ours["submitted"] - start, [0, 1, 25, 28], right=False,
               labels=["0-1 s: GPU idle", "1-25 s: GPU 80 % busy", "25-28 s: GPU idle"])
ours.assign(phase=phase).groupby(["phase", "device"], observed=True).size().unstack(fill_value=0)

# %% [markdown]
# Before the load, the iGPU, as classic AUTO would choose. A few hundred milliseconds after the
# other program starts, the iGPU's reading (over the last second) passes 60 % and AUTO moves to
# the NPU, which compiles once; after the load, the iGPU's reading falls below 60 % and AUTO goes
# back, without compiling anything again (claims N07, N08, N09). The switches are events, with the
# utilization AUTO read:

# %%
switches = core.trace.events_frame()
switches = switches[(switches["kind"] == "switch") & (switches["time"] >= start)]
for _, e in switches.iterrows():
    print(f"t = {e['time'] - start:5.2f} s -> {e['device']:5} ({e['reason']}), "
          f"utilization read: {e['utilization']}")
compiles = core.trace.events_frame()
compiles = compiles[(compiles["kind"] == "compile_start") & (compiles["time"] >= start)]
print("compiles during the run:", compiles["device"].tolist())

# %% [markdown]
# And the NPU's compile, which the first NPU inference waited for (on a real 165H the NPU compiles
# ResNet-50 in about 2.3 s, openvino_notebooks' hello-npu; the model cache of section 5 makes a
# second time fast):

# %%
npu = ours[ours["device"] == "NPU"]
print(f"first NPU inference: latency {npu['latency'].iloc[0]:.1f} s; "
      f"the next ones: median {npu['latency'].iloc[1:].median() * 1000:.1f} ms")

# %% [markdown]
# ## 4. The dashboard
#
# The same story with knobs. The scenario (`ovlab.sim.widgets.resource_aware.run_scenario`) compiles
# the model on every device into a cache beforehand, so a first switch costs a cached load, not a
# compile; the other program loads the iGPU from 2 s to 6 s of an 8 s run. Lines are the devices'
# utilization; the marks in the lanes above are the inferences, one per device that ran it; the
# dashed line is the GPU threshold. The default settings, as a static figure:

# %%
dash = ov.widgets.ResourceAwareDashboard()  # ovlab only
print(dash.result.counts())
ov.viz.show(dash.static_figure())

# %% tags=["nbval-ignore-output"]
display(dash)  # the widgets: they need a running kernel

# %% [markdown]
# What to try:
# - Raise the GPU threshold above the load (80 %): AUTO never leaves the GPU.
# - Lower the NPU threshold to 10 %: with the iGPU busy the NPU is now "busy" too, from our own
#   inferences, and AUTO alternates between the NPU and the CPU: every move lowers the reading
#   of the device it left. Per-inference selection reacts to its own load.
# - Switch the power mode to `low_power`: every inference goes to `LOW_POWER_DEVICE`, whatever the
#   utilization (claim N11).
#
# **PERF_CURVE_TABLE** instead of thresholds (claim N10): each candidate gets a score from its
# curve at its current utilization, lowest first. With the iGPU's curve rising from 1 (idle) to 5
# (busy) and the CPU's from 3 to 6, the iGPU wins while it is under 50 % busy and the CPU idle
# (scores under 3), the CPU beyond. Here on `AUTO:GPU,CPU`, with the other program keeping the iGPU
# 80 % busy from 1 s to 2.5 s:

# %%
curves = {"iGPU": {0: 1.0, 100: 5.0}, "CPU": {0: 3.0, 100: 6.0}}
machine = ov.Core("core-ultra-7-165h", seed=0)
scored = machine.compile_model(model, "AUTO:GPU,CPU", {intel_auto.perf_curve_table: curves})
load = BackgroundLoad(machine, "GPU", 0.8, model)
t0 = machine.clock.now
load.run(start=t0 + 1.0, stop=t0 + 2.5)
queue = ov.AsyncInferQueue(scored, 1)
while machine.clock.now < t0 + 3.5:
    queue.start_async({0: image})
    machine.clock.sleep(0.033)
queue.wait_all()
events = machine.trace.events_frame()
for _, e in events[(events["kind"] == "switch") & (events["time"] >= t0)].iterrows():
    print(f"t = {e['time'] - t0:5.2f} s -> {e['device']:5} ({e['reason']}), "
          f"utilization read: {e['utilization']}")

# %% [markdown]
# AUTO moves back to the iGPU about when the load ends (2.5 s). Once our own inferences make the
# CPU about 40 % busy, the CPU's score (3 + 3 x 0.40 = 4.2) reaches the iGPU's (1 + 4 x 0.80 =
# 4.2): so close to a tie, the moment depends on the utilizations AUTO happens to read, and with
# other timings it goes back and forth until the load ends and the iGPU wins clearly. The scores
# weigh every candidate's utilization, including what AUTO itself puts there.
#
# **Not every model.** A stateful model (one with `ReadValue`/`Assign`), a list with one device,
# and the CUMULATIVE_THROUGHPUT hint keep AUTO's classic schedule (claim N13). And a device that
# fails to compile when it is chosen makes AUTO choose again among the others (claim N12, lab 08's
# fallbacks, per inference).
#
# ## 5. The model cache and AUTO's first inference
#
# `CACHE_DIR` is a directory. OpenVINO writes one `<key>.blob` file per compiled model and loads
# it when a later compile computes the same key, in this program or another one; the key hashes
# the model (names, weights, rt_info) and the device's caching properties (for the CPU only its
# name, so a THROUGHPUT compile reuses a LATENCY blob; for the GPU the hint too). We start from an
# empty directory so that this notebook prints the same every time:

# %%
cache_dir = Path(".ovlab-work/cache-lab09")  # a hidden folder beside the notebook
shutil.rmtree(cache_dir, ignore_errors=True)  # a fresh cache for this lab


def first_inference(label):
    """A fresh Core (another program), AUTO with CACHE_DIR, one inference, and what it did."""
    machine = ov.Core("core-ultra-7-165h", seed=0)
    t0 = machine.clock.now
    compiled = machine.compile_model(model, "AUTO", {props.cache_dir: str(cache_dir)})
    returned = machine.clock.now - t0
    request = compiled.create_infer_request()
    request.start_async({0: image})
    request.wait()
    record = machine.trace.inferences[-1]
    row = {"run": label, "compile_model returned (ms)": round(returned * 1000, 1),
           "EXECUTION_DEVICES": compiled.get_property(props.execution_devices),
           "first inference on": record.worker, "its latency (ms)": round(record.latency * 1000, 1),
           "LOADED_FROM_CACHE": compiled.get_property(props.loaded_from_cache)}
    machine.clock.sleep(10.0)  # let the GPU compile finish (and write its blob)
    return row


rows = [first_inference("first program"), first_inference("second program")]
pd.DataFrame(rows).set_index("run")

# %% [markdown]
# The first program compiles the iGPU for seconds and the CPU helper serves the first inference
# (`CPU_HELP`). The iGPU's blob is then on disk, and the second program's AUTO finds it before
# choosing a helper: no helper, no runtime-fallback device, only the iGPU is loaded (openvino PRs
# #24618, #29636; claim N17). The helper itself never caches (its `CACHE_DIR` is cleared): the
# directory holds the iGPU's blob only.

# %%
for blob in sorted(cache_dir.iterdir()):
    header = blob.read_text().splitlines()[0]
    print(f"{blob.suffix} file, {blob.stat().st_size} bytes; header: {header[:60]}...")

# %% [markdown]
# ## 6. NPU batching
#
# Since 2025.3 the NPU plugin accepts a batched model by compiling it at batch 1 and running one
# command list per sample, all at once, in one infer request (`batching-on-npu-plugin.rst`;
# claim N23). SqueezeNet 1.1 with a batch of 4: the results are those of a batched run on the CPU;
# the time is about that of the samples run one by one, because nothing is shared between them:

# %%
single = zoo.load("squeezenet1.1", "FP16")  # a small model: the outputs are computed below
batched = zoo.load("squeezenet1.1", "FP16")
batched.reshape([4, *single.inputs[0].get_shape()[1:]])
images = np.concatenate([zoo.sample_input("squeezenet1.1", seed=s) for s in range(4)])
rows = []
for name, m, x in [("NPU", single, images[:1]), ("NPU", batched, images),
                   ("CPU", batched, images)]:
    compiled = core.compile_model(m, name)
    request = compiled.create_infer_request()
    for _ in range(2):  # the first inference pays the warm-up: time the second
        request.start_async({0: x})
        request.wait()
    rows.append({"device": name, "batch": x.shape[0], "latency (ms)": round(request.latency, 2),
                 "outputs": request.get_output_tensor(0).data.copy()})
table = pd.DataFrame(rows).set_index(["device", "batch"])
npu_out, cpu_out = table["outputs"].iloc[1], table["outputs"].iloc[2]
print(f"batch of 4: NPU and CPU outputs within 1e-3 (the NPU computes in FP16): "
      f"{np.allclose(npu_out, cpu_out, atol=1e-3)}; top-1 {npu_out.argmax(axis=1).tolist()} "
      f"on both: {(npu_out.argmax(axis=1) == cpu_out.argmax(axis=1)).all()}")
table.drop(columns="outputs")

# %% [markdown]
# Automatic batching never applies to the NPU (claim N24): the NPU reports no
# `OPTIMAL_BATCH_SIZE`, so a THROUGHPUT compile stays a plain NPU model, where the same call on the
# iGPU becomes `BATCH:GPU` and a batched runtime model:

# %%
for name in ["NPU", "GPU"]:
    compiled = core.compile_model(model, name, {hints.performance_mode: "THROUGHPUT"})
    runtime_batch = compiled.get_runtime_model().inputs[0].get_shape()[0]
    print(f"{name}: EXECUTION_DEVICES {compiled.get_property(props.execution_devices)}, "
          f"batch of the runtime model: {runtime_batch}")

# %% [markdown]
# ## 7. Pipeline-parallel HETERO over two GPUs
#
# `HETERO` with `MODEL_DISTRIBUTION_POLICY: PIPELINE_PARALLEL` (a preview since 2024.3) splits a
# model that does not fit one device by the devices' memory, following the HETERO source
# (`plugin.cpp`, 2026.4): it estimates the memory a model needs as 1.2 x its weights, gives each
# GPU the fraction it can hold and the last device the rest, and cuts where the fewest values
# cross (claim N18). The `multi-gpu` preset has three 16 GB Flex 170 cards.
#
# `layered_model()` (ovlab only) is a chain of 40 layers with 512 MiB of FP16 weights each,
# 21.5 GB in all, like an LLM's. ovlab times it from its shapes and makes its weights only when an
# output is read, so it fits on this machine (claim N22).

# %%
server = ov.Core("multi-gpu", seed=0)
big, small = layered_model(), layered_model(layers=16)
PIPELINE = {hints.model_distribution_policy: {hints.ModelDistributionPolicy.PIPELINE_PARALLEL}}
memory_gb = server.get_property("GPU.0", "GPU_DEVICE_TOTAL_MEM_SIZE") / 1e9
rows = []
for m, config, label in [(big, {}, "no policy"), (big, PIPELINE, "PIPELINE_PARALLEL"),
                         (small, PIPELINE, "PIPELINE_PARALLEL")]:
    compiled = server.compile_model(m, "HETERO:GPU.0,GPU.1", config)
    split = [e for e in server.trace.events if e.kind == "hetero_split"][-1]  # ovlab only
    weights = split.detail["weights"]
    layers = sum(1 for op in m.get_ordered_ops() if op.get_type_name() == "MatMul")
    rows.append({"model": f"{layers} layers",
                 "policy": label, "EXECUTION_DEVICES": compiled.get_property(props.execution_devices),
                 "GPU.0 weights (GB)": round(weights.get("GPU.0", 0) / 1e9, 1),
                 "GPU.1 weights (GB)": round(weights.get("GPU.1", 0) / 1e9, 1)})
print(f"each GPU: {memory_gb:.0f} GB")
pd.DataFrame(rows)

# %% [markdown]
# - Without the policy, HETERO's greedy split gives every op to the first device that supports it:
#   21.5 GB on a 16 GB GPU.
# - With it, GPU.0 may take 16 / (1.2 x 21.5) = 62 % of the weights: 24 layers (12.9 GB), the rest
#   goes to GPU.1.
# - The 16-layer model (8.6 GB) needs 1.2 x 8.6 = 10.3 GB, which GPU.0 has: it goes there
#   **whole**, GPU.1 gets nothing, and nothing says so (exercise 4 finds the largest such model). That is openvino issue #38250 (2x Arc Pro
#   B70, 2026.4.0): the `>= 1.2 * total_ops_size` check in `plugin.cpp` (claim N19). The CPU is a
#   catch-all the same way: any CPU in the list takes all that is left (N20).
#
# One request runs its parts one after the other; with several requests in flight, request B's
# first part runs on GPU.0 while request A's second part runs on GPU.1: that overlap is the
# "pipeline".

# %%
split_model = server.compile_model(big, "HETERO:GPU.0,GPU.1", PIPELINE)
for jobs in [1, 2, 4]:
    queue = ov.AsyncInferQueue(split_model, jobs)
    t0 = server.clock.now
    for _ in range(40):
        queue.start_async()  # the outputs are never read: no weights are made
    queue.wait_all()
    print(f"{jobs} request(s) in flight: {40 / (server.clock.now - t0):5.1f} inferences/s")

# %% [markdown]
# The results are real. A small version of the model (4 layers of 256 x 256) split the same way,
# against the CPU alone (the weights are made now, when the outputs are read):

# %%
tiny = layered_model(layers=4, width=256, name="tiny")
x = np.random.default_rng(0).standard_normal((1, 256)).astype(np.float32)
two_gpus = server.compile_model(tiny, "HETERO:GPU.0,GPU.1", PIPELINE)
print("EXECUTION_DEVICES:", two_gpus.get_property(props.execution_devices))
close = np.allclose(two_gpus({0: x})[0], server.compile_model(tiny, "CPU")({0: x})[0], atol=1e-2)
print(f"same as the CPU within 1e-2 (the GPUs compute in FP16): {close}")

# %% [markdown]
# (The tiny model fits GPU.0, so it too goes there whole: issue #38250 again.)
#
# ## Summary
# - The Core Ultra's CPU runs LATENCY on its P-cores and THROUGHPUT on all cores; plain AUTO
#   leaves the NPU out until you name it.
# - Any of `DEVICES_UTILIZATION_THRESHOLD`, `PERF_CURVE_TABLE`, `LOW_POWER_DEVICE` switches AUTO to
#   a device per inference, one inference at a time, one worker per device, each device compiled
#   once when first chosen. A busy device is left for the next one, and AUTO's own inferences
#   count in the utilization it reads. In low-power mode `LOW_POWER_DEVICE` wins.
# - `CACHE_DIR` holds real blob files that other programs find; with a blob for the chosen device
#   AUTO skips the CPU helper and loads only that device.
# - The NPU batches by running samples concurrently at batch 1; BATCH never applies to it.
# - `PIPELINE_PARALLEL` splits a model over GPUs by memory, and silently does not split a model
#   that fits the first GPU.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** In the dashboard's scenario, with the other program keeping the iGPU 90 % busy, a GPU
# threshold of 60 % and an NPU threshold of 95 %, on which device do most inferences run?

# %%
answer = None  # a device name: "GPU.0", "NPU" or "CPU"
exercises.check(1, answer)

# %% [markdown]
# **2.** Same scenario, but in `low_power` mode with `LOW_POWER_DEVICE` set to `"CPU"`. How many
# inferences run on the iGPU?

# %%
answer = None  # an int
exercises.check(2, answer)

# %% [markdown]
# **3.** Into a fresh cache directory, compile GoogLeNet-v1 on the CPU with LATENCY, then again
# with THROUGHPUT (two compiles, same Core). How many `.blob` files does the directory hold then?

# %%
answer = None  # an int
exercises.check(3, answer)

# %% [markdown]
# **4.** With `PIPELINE_PARALLEL` on `HETERO:GPU.0,GPU.1`, what is the largest number of layers of
# `layered_model(layers=n)` that still goes to GPU.0 whole (512 MiB per layer, 16 GB per GPU)?

# %%
answer = None  # an int
exercises.check(4, answer)
