# %% [markdown]
# # 03 · AUTO's first inference
#
# A GPU has to compile a model for its own kernels before the first inference, and that takes
# seconds. AUTO hides the wait: it starts inferring on the CPU at once and moves to the GPU when
# the GPU is ready. This lab watches that start-up on the laptop of the yas-sim article (Core
# i7-1165G7 CPU and Iris Xe iGPU) with GoogLeNet-v1 in FP16, as OpenVINO's
# [AUTO documentation page](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/auto-device-selection.html) describes it.
#
# **What you will see**
# - AUTO's `compile_model` returning as soon as a CPU copy is ready, while the iGPU compiles for
#   seconds in the background (claim A04), from the records of the run and from AUTO's own log
#   (`LOG_LEVEL`), as you would read it on real hardware.
# - `EXECUTION_DEVICES` over time: `['(CPU)']`, then `['GPU.0']` (claim A13), and the inferences
#   before, during and after the switch, as a Gantt chart and as latency over time.
# - The CPU slower and jittery while the GPU compiles: the "ramp" users report (claim A16).
# - `benchmark_app -d GPU` against `-d AUTO` (claim E04): compile time, first inference, throughput,
#   the 1000 ms first inference of the GPU under THROUGHPUT, and longer runs (claim A04).
# - When there is no CPU helper: `AUTO:GPU`, `ENABLE_STARTUP_FALLBACK` off, CUMULATIVE_THROUGHPUT,
#   and a cached GPU blob in `CACHE_DIR` (claims A05, B09).
#
# **Why it matters.** The first seconds of an AUTO application do not look like the rest: the
# first inferences run on another device, at another speed, with more jitter, and the device name
# you read changes under you. Knowing what happens tells you what to measure (and what not to
# trust) in that window, and when the helper is not there at all.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup

# %%
import shutil

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
import ovlab.properties.intel_auto as intel_auto  # on real hardware: openvino.properties.intel_auto
import ovlab.properties.log as log  # on real hardware: openvino.properties.log
from ovlab import benchmark, zoo  # ovlab only: benchmark_app clone and models built in Python
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

core = ov.Core("laptop", seed=0)  # on real hardware: ov.Core()
model = core.read_model("googlenet-v1:FP16")  # on real hardware: core.read_model("<...>/FP16/googlenet-v1.xml")
image = zoo.sample_input("googlenet-v1")  # a fixed input of the right shape
exercises = for_lab("03")
print(core)


def ms(seconds):
    """Simulated seconds as milliseconds, rounded to 0.1 ms for printing."""
    return round(seconds * 1000, 1)

# %% [markdown]
# ## 1. `compile_model` returns before the GPU is ready
#
# AUTO picks the iGPU (the best device of the laptop, lab 02) and compiles the model twice at the
# same time: on the iGPU, its choice, and on the CPU, with the LATENCY hint, as a helper.
# `compile_model` returns when the first of the two is ready.

# %%
t0 = core.clock.now
compiled = core.compile_model(model, "AUTO")
print(f"compile_model returned after {ms(core.clock.now - t0)} ms")
print("EXECUTION_DEVICES:", compiled.get_property(props.execution_devices))
print("PERFORMANCE_HINT: ", compiled.get_property(hints.performance_mode))
print("OPTIMAL_NUMBER_OF_INFER_REQUESTS:", compiled.get_property(props.optimal_number_of_infer_requests))

# %% [markdown]
# `(CPU)` in parentheses is the helper: a temporary CPU copy of the model. The records of the run
# (`core.trace.events_frame()`, ovlab only) show both compiles starting at t = 0 and how long each
# one takes (`seconds`); only the CPU one has ended so far.

# %%
events = core.trace.events_frame()  # ovlab only
events["time (ms)"] = ms(events["time"])
events["takes (s)"] = events["seconds"].round(2)
events[["time (ms)", "kind", "device", "reason", "takes (s)"]].astype(object).fillna("")

# %% [markdown]
# ### AUTO's own log
#
# On real hardware there are no such records, but AUTO can tell you the same story itself: with
# the `LOG_LEVEL` property at `INFO` (`log.level` in Python; `"LOG_INFO"` as a string) the AUTO
# plugin prints its decisions to the console. ovlab prints the same lines as OpenVINO 2026.4
# (format and messages measured on the real runtime), with one difference: the timestamp at the
# start of each line is the simulated time since the Core was created, where the real log prints
# the time of day. A fresh Core, the same compile with the log on, then 10 s of waiting (the
# lines appear as the clock passes the moments they describe):

# %%
log_core = ov.Core("laptop", seed=0)
logged = log_core.compile_model(model, "AUTO", {log.level: log.Level.INFO})
log_core.clock.sleep(10)  # on real hardware: time.sleep(10)

# %% [markdown]
# Read it from the top: the config each candidate gets (`plugin.cpp`), AUTO selecting `GPU.0`
# and loading the CPU "for accelerator" (the helper), the CPU's compile time, then, seconds
# later, the GPU's compile time, and `helper released!!` when the CPU copy is let go. These are
# the lines to look for when AUTO behaves unexpectedly on a real machine; `LOG_DEBUG` prints
# more (each request's device, for instance).

# %% [markdown]
# ## 2. Inferences through the switch, and `EXECUTION_DEVICES` over time
#
# Now the yas-sim scripts' workload: one request every 30 ms through an `AsyncInferQueue` (4 requests), for
# 12 s. Between two submissions the clock moves in 5 ms steps, and at each step we read
# `EXECUTION_DEVICES`, as an application polling it would.

# %%
queue = ov.AsyncInferQueue(compiled, 4)
samples = []
for _request in range(400):
    queue.start_async({0: image})
    for _ in range(6):
        core.clock.sleep(0.005)  # on real hardware: time.sleep(0.005)
        samples.append({"time (s)": round(core.clock.now, 3),
                        "EXECUTION_DEVICES": compiled.get_property(props.execution_devices)})
queue.wait_all()
samples = pd.DataFrame(samples)
changes = samples["EXECUTION_DEVICES"].astype(str) != samples["EXECUTION_DEVICES"].astype(str).shift()
samples[changes]

# %% [markdown]
# Two values only: `['(CPU)']` from the start, then the GPU's full name `['GPU.0']` (AUTO expands
# `GPU` to its id). The events say when and why:

# %%
events = core.trace.events_frame()
events["time (ms)"] = ms(events["time"])
switch = events.loc[events["kind"] == "switch", "time"].iloc[0]
released = events.loc[events["kind"] == "helper_released", "time"].iloc[0]
events[["time (ms)", "kind", "device", "reason"]].astype(object).fillna("")

# %% [markdown]
# The iGPU was ready at the `switch`; from that moment every *new* inference goes to it. But
# `EXECUTION_DEVICES` changed a little later, at `helper_released`: an inference was still running
# on the CPU at the switch, AUTO let it finish there (in-flight inferences are never moved), and
# released the CPU copy only then. In that window `EXECUTION_DEVICES` still says `(CPU)`. The
# inference records around the switch (times in ms):

# %%
trace = core.trace.to_frame()  # ovlab only: one row per inference
near = trace[(trace["finished"] > switch - 0.06) & (trace["started"] < switch + 0.06)]
shown = near[["seq", "device", "worker"]].copy()
for col in ["submitted", "started", "finished", "latency"]:
    shown[col] = ms(near[col])
print(f"switch at {ms(switch)} ms, helper released at {ms(released)} ms")
shown.set_index("seq")

# %% [markdown]
# The same moments as a Gantt chart: one row per worker (AUTO's `CPU_HELP` worker on the CPU, its
# `GPU.0:0` worker on the iGPU), one bar per inference, zoomed on 0.3 s around the switch.

# %%
fig = ov.viz.gantt_figure(core, since=switch - 0.15, title="Inferences around AUTO's switch")
fig.update_xaxes(range=[ms(switch - 0.15), ms(switch + 0.15)])
fig.add_shape(type="line", x0=ms(switch), x1=ms(switch), y0=0, y1=1, yref="paper",
              line=dict(color="black", dash="dash", width=1.5))
ov.viz.show(fig)

# %% [markdown]
# The dashed line is the switch. The CPU bar that crosses it is the in-flight inference; the next
# request, 30 ms later, runs on the iGPU and is much shorter (the first iGPU inference still pays
# its warm-up; the later ones are shorter still).

# %% [markdown]
# ## 3. The ramp: the CPU is slower while the GPU compiles (claim A16)
#
# The helper does not have the CPU to itself: the GPU plugin compiles its kernels on CPU threads.
# To see what that costs, run the same workload on a fresh laptop with the CPU alone (no GPU
# compiling) for as long as the helper served, and compare the service times (start to finish on
# the device, without queueing). The first inference of each is left out: it pays a warm-up
# (lab 00).

# %%
alone_core = ov.Core("laptop", seed=0)
alone = alone_core.compile_model(model, "CPU")
alone_queue = ov.AsyncInferQueue(alone, 4)
for _request in range(int(switch / 0.03)):
    alone_queue.start_async({0: image})
    alone_core.clock.sleep(0.03)
alone_queue.wait_all()
cpu_alone = alone_core.trace.to_frame()
print(len(cpu_alone), "inferences on the CPU alone, until t =", round(alone_core.clock.now, 2), "s")

# %%
def service_stats(frame):
    """Service time (device start to finish) statistics in ms, without the warm-up."""
    service = (frame["finished"] - frame["started"]).to_numpy()[1:] * 1000  # ms
    return {"inferences": len(service), "mean (ms)": service.mean(), "median (ms)": np.median(service),
            "std (ms)": service.std(), "p95 (ms)": np.percentile(service, 95), "max (ms)": service.max(),
            "std / mean": service.std() / service.mean()}


helper = trace[trace["worker"] == "CPU_HELP"]
pd.DataFrame({"CPU helper, GPU compiling": service_stats(helper),
              "CPU alone": service_stats(cpu_alone)}).T.round(2)

# %% [markdown]
# The helper's inferences take longer on average and vary more: that is the "ramp" users report.
# An openvino_notebooks issue ([#541, "Ramp up time with GPU + Auto plugin?"](https://github.com/openvinotoolkit/openvino_notebooks/issues/541)) charted unpredictable
# latency in the first seconds of AUTO with a GPU, and the maintainers answered that it is expected:
# "during the device switching, CPU is also doing compiling, besides doing inference". Latency over
# time, coloured by device, with the CPU-alone run in grey:

# %%
fig = go.Figure()
fig.add_trace(go.Scatter(x=cpu_alone["submitted"], y=cpu_alone["latency"] * 1000, mode="markers",
                         name="CPU alone (another run)", marker=dict(color="#bbbbbb", size=4)))
for worker, color in [("CPU_HELP", "#1f77b4"), ("GPU.0:0", "#2ca02c")]:
    part = trace[trace["worker"] == worker]
    fig.add_trace(go.Scatter(x=part["submitted"], y=part["latency"] * 1000, mode="markers",
                             name=f"AUTO on {part['device'].iloc[0]} ({worker})",
                             marker=dict(color=color, size=4)))
fig.add_trace(go.Scatter(x=[switch, switch], y=[0, trace["latency"].max() * 1000], mode="lines",
                         name=f"switch to GPU.0 (t = {switch:.2f} s)",
                         line=dict(color="black", dash="dash", width=1.5)))
fig.update_layout(title="AUTO on the laptop: latency of each request (one every 30 ms)",
                  xaxis_title="submitted at (simulated s)", yaxis_title="latency (ms)",
                  height=400, template="plotly_white")
ov.viz.show(fig)

# %% [markdown]
# Before the switch: the helper's latencies (blue) sit above the CPU alone (grey) and scatter
# widely, and when one inference takes longer than 30 ms the next request waits, which adds to its
# latency. After the switch: the iGPU, steady and low. The first point of each series is the
# warm-up of a freshly compiled model.

# %% [markdown]
# ## 4. `benchmark_app -d GPU` against `-d AUTO` (claim E04)
#
# The AUTO page shows AUTO's effect with two commands, `benchmark_app -m alexnet.xml -d GPU
# -niter 128` and the same with `-d AUTO`. ovlab's clone of `benchmark_app` runs them on the
# virtual laptop (with GoogLeNet-v1 in FP32, as the page's IR was FP32). The key lines of each
# report:

# %%
KEYS = ("Compile model took", "PERFORMANCE_HINT:", "OPTIMAL_NUMBER_OF_INFER_REQUESTS:",
        "Start inference", "First inference took", "Execution Devices", "Median", "Throughput")


def summary(report):
    """The figures of a report that matter here (the report itself holds a whole Core)."""
    return {"compile (ms)": round(report.compile_ms, 1),
            "first inference (ms)": round(report.first_inference_ms, 1),
            "first result at (s)": round((report.compile_ms + report.first_inference_ms) / 1000, 2),
            "throughput (FPS)": round(report.throughput_fps, 1),
            "ran on at the end": report.execution_devices}


reports = {}
for dev in ["GPU", "AUTO"]:
    report = benchmark.run(["-m", "googlenet-v1", "-d", dev, "-niter", "128"])
    reports[dev] = summary(report)
    print(f"$ benchmark_app -m googlenet-v1 -d {dev} -niter 128")
    seen = set()
    for line in report.lines:
        key = next((k for k in KEYS if k in line), None)
        if key and key not in seen:  # the first line of each kind (AUTO nests the CPU's)
            seen.add(key)
            print("   ", line)

# %% [markdown]
# Side by side, with the time at which the first result is back (compile + first inference), what
# the AUTO page calls the first-inference latency:

# %%
reports["GPU -hint latency"] = summary(benchmark.run(["-m", "googlenet-v1", "-d", "GPU", "-hint",
                                                      "latency", "-niter", "128"]))
pd.DataFrame(reports).transpose()

# %% [markdown]
# What to read here:
# - **AUTO's first result comes back in a fraction of a second**, the GPU's only after its whole
#   compile: the AUTO page's claim. AUTO's first inference ran on the CPU helper.
# - **The GPU's "First inference took" of about a second is an artefact.** `benchmark_app` uses the
#   THROUGHPUT hint unless told otherwise (the warning in its report), and THROUGHPUT on a GPU turns
#   on automatic batching (lab 05): the GPU becomes `BATCH:GPU` with batches of 16. The warm-up
#   inference is a single request, its batch never fills, and it runs alone only after
#   `AUTO_BATCH_TIMEOUT` (1000 ms by default). The
#   [automatic-batching documentation page](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/automatic-batching.html) warns that this number is
#   "NOT the actual latency of the batched execution". Batching also compiles the GPU model twice
#   (batched and not), so the compile takes about twice as long. With `-hint latency` (no
#   batching, synchronous API) both go away.
# - **Two defaults meet here.** AUTO compiled from your own code uses LATENCY (section 1), but
#   `benchmark_app` sets THROUGHPUT when you pass no `-hint` (its warning says so), and AUTO passes
#   that on to the GPU. The defaults have changed across OpenVINO versions and differ between
#   tools, so print the effective hint (`PERFORMANCE_HINT`) rather than assume it.
# - **AUTO's throughput is low over 128 iterations**: the whole run was over before the GPU
#   compile finished (a doubled compile here too: AUTO passes THROUGHPUT on to the GPU), so every
#   inference ran on the CPU helper, and the report ends with `Execution Devices:['(CPU)']`. AUTO
#   reported `OPTIMAL_NUMBER_OF_INFER_REQUESTS: 64`, the figure for the batched GPU, so
#   `benchmark_app` kept 64 requests in flight on a helper with one worker: hence a median
#   latency of more than a second.
#
# The AUTO page adds: "the longer the process runs, the closer the real-time performance will be to
# that of the best-suited device". The same pair of commands with more iterations:

# %%
rows = []
for niter in [128, 1000, 4000, 16000]:
    row = {"-niter": niter}
    for dev in ["GPU", "AUTO"]:
        r = benchmark.run(["-m", "googlenet-v1", "-d", dev, "-niter", str(niter)])
        row[f"{dev} FPS"] = r.throughput_fps
        row[f"{dev} done at (s)"] = (r.compile_ms + r.first_inference_ms + r.duration_ms) / 1000
        if dev == "AUTO":
            row["AUTO on helper"] = sum(1 for rec in r.core.trace if rec.worker == "CPU_HELP")
    rows.append(row)
runs = pd.DataFrame(rows).set_index("-niter")
runs["AUTO / GPU FPS"] = runs["AUTO FPS"] / runs["GPU FPS"]
runs.round(2)

# %%
fig = go.Figure()
for dev, color in [("GPU", "#2ca02c"), ("AUTO", "#1f77b4")]:
    fig.add_trace(go.Scatter(x=runs.index, y=runs[f"{dev} FPS"], mode="lines+markers",
                             name=f"-d {dev}", line=dict(color=color)))
fig.update_layout(title="benchmark_app throughput against run length (GoogLeNet-v1, laptop)",
                  xaxis_title="-niter (iterations, log scale)", yaxis_title="throughput (FPS)",
                  xaxis_type="log", xaxis_dtick=1, height=380,
                  template="plotly_white")
ov.viz.show(fig)

# %% [markdown]
# AUTO's throughput climbs towards the GPU's as the run grows, because the CPU-helper phase
# becomes a smaller part of it. `benchmark_app`'s throughput leaves the compile out, which flatters
# `-d GPU`; the "done at" columns put it back: AUTO returns its results earlier in every run here.

# %% [markdown]
# ## 5. When there is no CPU helper (claims A05, B09)
#
# The helper is skipped when the CPU cannot or should not help: the CPU is not a candidate
# (`AUTO:GPU`, `AUTO:-CPU`), `ENABLE_STARTUP_FALLBACK` is false, the hint is CUMULATIVE_THROUGHPUT
# (all devices at once, lab 06), or the GPU will load quickly from a cached blob.
#
# First the cache (claim B09). With `CACHE_DIR` set, a device that can export its compiled model
# (`EXPORT_IMPORT` in its capabilities) writes a blob at the end of the compile, and the next compile
# of the same model with the same settings loads it instead. The blobs are files in `./.ovlab-work/cache` (a hidden folder beside the notebook), as
# in OpenVINO (lab 09), which we empty first so that this notebook prints the same every time.

# %%
shutil.rmtree(".ovlab-work/cache", ignore_errors=True)  # start without cached blobs
cached_core = ov.Core("laptop", seed=0)
for attempt in [1, 2]:
    t0 = cached_core.clock.now
    gpu = cached_core.compile_model(model, "GPU", {props.cache_dir: "./.ovlab-work/cache"})
    print(f"GPU compile {attempt}: {cached_core.clock.now - t0:.2f} s, "
          f"LOADED_FROM_CACHE = {gpu.get_property(props.loaded_from_cache)}")

# %% [markdown]
# Before selecting the helper, AUTO checks whether such a blob exists for the device it chose. On
# this Core it does, so AUTO loads the iGPU directly. Each case below runs on a fresh Core (the
# cache case on one prepared as above); the columns say when `compile_model` returned, what
# `EXECUTION_DEVICES` read then, and which worker ran the first inference.

# %%
def prepare_cache(c):
    """Compile the GPU twice with CACHE_DIR, as above: the blob is in ./.ovlab-work/cache."""
    for _ in range(2):
        c.compile_model(model, "GPU", {props.cache_dir: "./.ovlab-work/cache"})


def startup(device_name, config, prepare=None):
    """Compile on a fresh laptop, run one inference; report how AUTO started."""
    c = ov.Core("laptop", seed=0)
    if prepare is not None:
        prepare(c)
    t0 = c.clock.now
    m = c.compile_model(model, device_name, config)
    returned, devices = c.clock.now - t0, m.get_property(props.execution_devices)
    request = m.create_infer_request()
    request.start_async({0: image})  # one inference (its outputs are not read)
    request.wait()
    first = c.trace.inferences[-1]
    return {"compile_model took (s)": round(returned, 2), "EXECUTION_DEVICES then": devices,
            "first inference on": f"{first.device} ({first.worker})"}

# %%
CTPUT = hints.PerformanceMode.CUMULATIVE_THROUGHPUT
cases = {
    "AUTO": startup("AUTO", {}),
    "AUTO:GPU": startup("AUTO:GPU", {}),
    "AUTO:-CPU": startup("AUTO:-CPU", {}),
    "AUTO, ENABLE_STARTUP_FALLBACK=False": startup("AUTO", {intel_auto.enable_startup_fallback: False}),
    "AUTO, CUMULATIVE_THROUGHPUT": startup("AUTO", {hints.performance_mode: CTPUT}),
    "AUTO, CACHE_DIR with the GPU blob": startup("AUTO", {props.cache_dir: "./.ovlab-work/cache"}, prepare_cache),
}
pd.DataFrame(cases).transpose()

# %% [markdown]
# What to read here:
# - **With the helper** (`AUTO`), `compile_model` takes a fraction of a second and the first
#   inference runs on `CPU_HELP`.
# - **Without the CPU** (`AUTO:GPU`, `AUTO:-CPU`) or with `ENABLE_STARTUP_FALLBACK` false, it waits
#   for the full iGPU compile and the first inference runs on the iGPU. With one
#   candidate AUTO is a pass-through: the request runs on the device's own stream (`GPU.0#0`).
# - **CUMULATIVE_THROUGHPUT** compiles every candidate before returning, the GPU first (twice, since
#   THROUGHPUT on a GPU turns on batching) and then the CPU, so it takes the longest. No helper: the
#   CPU is a full device here, first in the list (plain `AUTO` keeps `available_devices` order), so
#   the first inference runs on it.
# - **With the GPU blob in `CACHE_DIR`**, AUTO skips the helper: the iGPU loads the blob in a
#   fraction of a second and serves from the first inference. AUTO then loads only that device (no
#   runtime-fallback device either, openvino PR #29636), a pass-through like `AUTO:GPU`
#   (`GPU.0#0`). The helper itself never uses the cache (AUTO clears its `CACHE_DIR`).

# %% [markdown]
# ## Summary
# - AUTO's `compile_model` returns when the CPU helper is compiled (a fraction of a second) while
#   the chosen GPU compiles in the background (seconds); new inferences go to
#   the GPU the moment it is ready, in-flight CPU inferences finish on the CPU (A04).
# - `EXECUTION_DEVICES` reads `['(CPU)']` until the helper is released, a little after the switch,
#   then `['GPU.0']` (A13).
# - While the GPU compiles, the CPU also works for the GPU compiler, so the helper's latency is
#   higher and jittery: the ramp of the first seconds (A16).
# - `benchmark_app -d AUTO` has its first result back in a fraction of a second, `-d GPU` after the
#   whole compile; the GPU's 1000 ms "first inference" under THROUGHPUT is the batching timeout, not
#   a real latency. Over longer runs AUTO's throughput approaches the GPU's (E04, A04).
# - No helper with `AUTO:GPU` / `AUTO:-CPU`, `ENABLE_STARTUP_FALLBACK` false, CUMULATIVE_THROUGHPUT,
#   or a cached GPU blob in `CACHE_DIR`, which makes the second GPU compile fast (A05, B09).

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** On a fresh laptop Core, compile SqueezeNet 1.1 (`"squeezenet1.1"`, FP32) on `AUTO` and
# run no inference. At what time on the Core's clock (`core.clock.now`, in seconds since the Core
# was created) does `EXECUTION_DEVICES` first read `['GPU.0']`? Before you measure: will it be
# earlier or later than GoogLeNet's switch in section 2?

# %%
answer = None  # seconds on core.clock, e.g. 5.0
exercises.check(1, answer)

# %% [markdown]
# **2.** With `benchmark_app -m googlenet-v1 -d GPU -niter 128`, which one of these options makes
# the GPU's "First inference took" of about a second disappear: `"-hint latency"`, `"-nireq 16"`
# or `"-niter 1024"`?

# %%
answer = None  # one of "-hint latency", "-nireq 16", "-niter 1024"
exercises.check(2, answer)

# %% [markdown]
# **3.** On a fresh laptop Core, compile GoogLeNet-v1 FP16 on `AUTO` with `CACHE_DIR` set to a new,
# empty folder (e.g. `"cache-exercise"`), sleep 10 s, and compile it again the same way. How long
# does the second `compile_model` take, in seconds?

# %%
answer = None  # seconds, e.g. 1.25
exercises.check(3, answer)
