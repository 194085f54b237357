# %% [markdown]
# # 04 · The latency graph
#
# The yas-sim latency-graph script (`auto-test-latency-graph.py` in
# [yas-sim/openvino-auto-feature-visualization](https://github.com/yas-sim/openvino-auto-feature-visualization),
# the experiment of the yas-sim article on AUTO and automatic batching) submits 2,000 inferences of GoogLeNet-v1, one every 30 ms, to `AUTO` on a laptop with a CPU and
# an integrated GPU, and plots the latency of each. One line on one plot, and it shows most of
# what AUTO does: the CPU answers while the GPU compiles, the GPU takes over, and with the
# THROUGHPUT hint automatic batching changes the picture completely.
#
# **What you will see**
# - The script's loop written with ovlab's API, and `ovlab.sim.experiments.latency_graph`, which runs
#   the same loop and prints the script's console lines, including `Number of infer requests: 16`
#   for a queue that really has `OPTIMAL_NUMBER_OF_INFER_REQUESTS` jobs (claim E03).
# - LATENCY: a noisy CPU band with spikes while the GPU compiles (the CPU is compiling too,
#   claim A16), a step down when the GPU is ready, and a lower GPU band (claim E01; the article's
#   screenshot shows about 15-30 ms, then 3-16 ms), with percentiles before and after the switch.
# - THROUGHPUT: a later switch (the GPU compiles twice, at batch 1 and batch 16), then a latency
#   that oscillates and spikes because the GPU batches requests and waits up to 1000 ms for a batch
#   (claims E01, A11; batching itself is lab 05).
# - A dashboard with the script's hard-coded knobs as widgets: points coloured by device and
#   batch status, the spread as a band and histograms, the analytic model beside the
#   simulation, the previous run as a ghost, compare mode and live replays; and the whole run as
#   a timeline file for Perfetto.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).
#
# **Why it matters.** AUTO's latency is not one number: it depends on which device runs the
# request, on what else the machine is doing, and on the hint. A service that measures only the
# average, or only the first seconds, draws the wrong conclusion.

# %% [markdown]
# ## Setup
#
# The `laptop` platform is the article's machine: a Core i7-1165G7 CPU with its Iris Xe iGPU.
# The script used the FP16 GoogLeNet-v1 IR from Open Model Zoo (`googlenet-v1-tf`); ovlab's zoo has the
# same topology with random weights, read as `"googlenet-v1:FP16"`.

# %%
import numpy as np
import pandas as pd
from IPython.display import display

import ovlab as ov  # on real hardware: import openvino as ov
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

MODEL = "googlenet-v1:FP16"  # on real hardware: "public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml"
core = ov.Core("laptop", seed=0)  # on real hardware: ov.Core()
model = core.read_model(MODEL)
exercises = for_lab("04")
print(core)
print("model:", model.get_friendly_name(), model.input().get_shape(), "->",
      model.output().get_shape())

# %% [markdown]
# ## 1. The script's loop
#
# The script does four things: compile for `AUTO` with a hint (LATENCY here; the script as
# committed uses THROUGHPUT, which section 3 runs), make an `AsyncInferQueue`
# **with no size**, set a callback that computes each latency from a `(n, submit time)` userdata
# tuple, and submit a zero image every 30 ms. The cell below is that loop with ovlab's API (it
# follows `auto-test-latency-graph.py` but is written anew). Two differences from real hardware:
# time is `core.clock.now` instead of `time.time()`, and the pause is `core.clock.sleep(0.030)`
# instead of `cv2.waitKey(30)`.
#
# Note where the submit time is read: in the `start_async` call, *before* `start_async` has found
# an idle request. When every request is busy, `start_async` waits, and that wait counts in the
# latency, as in the script.

# %%
compiled = core.compile_model(model, "AUTO", {"PERFORMANCE_HINT": "LATENCY"})
latencies = []  # seconds, in completion order


def on_result(request, userdata):
    n, submitted = userdata
    latencies.append(core.clock.now - submitted)  # on real hardware: time.time() - submitted


queue = ov.AsyncInferQueue(compiled)  # no size: OPTIMAL_NUMBER_OF_INFER_REQUESTS jobs
queue.set_callback(on_result)
image = np.zeros(list(model.input().get_shape()), dtype=np.uint8)
for n in range(2000):
    queue.start_async({0: image}, (n, core.clock.now))
    core.clock.sleep(0.030)  # on real hardware: cv2.waitKey(30) or time.sleep(0.030)
queue.wait_all()
print(f"{len(latencies)} latencies, median {np.median(latencies) * 1000:.1f} ms, "
      f"queue of {len(queue)} job(s), clock at {core.clock.now:.1f} s")

# %% [markdown]
# 2,000 inferences and about 60 simulated seconds took well under a second of wall time: nothing
# waits for real, and no output tensor was read, so no NumPy numerics ran.
#
# `ov.experiments.latency_graph` runs exactly this loop and also prints the script's console
# lines and collects, for every request, where it ran (from `core.trace`). On a fresh Core with
# the same seed it gives the same latencies to the last bit:

# %%
core = ov.Core("laptop", seed=0)
latency_run = ov.experiments.latency_graph(core, core.read_model(MODEL), "AUTO",
                                           {"PERFORMANCE_HINT": "LATENCY"})
print("same latencies as the loop above:", np.array_equal(latency_run.latencies, latencies))

# %% [markdown]
# ### The request count the script prints is not the one it uses (claim E03)
#
# The script prints `Number of infer requests: 16`: it picks 16 from a list of choices, prints
# it, and then builds the queue as `AsyncInferQueue(compiled_model)`, without the 16 (the sized
# call is commented out). With no size, OpenVINO creates `OPTIMAL_NUMBER_OF_INFER_REQUESTS`
# requests, which under LATENCY is **1**. So the script really runs with one request: every
# `start_async` that finds it busy waits for it.

# %%
print("printed by the script:           ", latency_run.lines[-1])
print("OPTIMAL_NUMBER_OF_INFER_REQUESTS:", latency_run.optimal_requests)
print("jobs in the AsyncInferQueue:     ", latency_run.queue_size)

# %% [markdown]
# ## 2. LATENCY: the switch from CPU to GPU (claim E01)
#
# What to look for in the plot (same title and axes as the script's matplotlib figure; x is the
# completion order, "30ms/inf" is the submit interval):
# - **Until the switch**: the CPU runs the requests (AUTO's `CPU_HELP` worker) while the GPU
#   compiles GoogLeNet. A noisy band with frequent spikes: the CPU is also busy compiling the
#   GPU's kernels, so inferences are slower and jittery (claim A16; OpenVINO maintainers
#   confirmed this in [openvino_notebooks issue #541](https://github.com/openvinotoolkit/openvino_notebooks/issues/541)).
# - **The switch** (red dashed line, labelled with its time): the GPU compile ends and AUTO moves
#   new requests to `GPU.0`.
# - **From there to 2,000**: a lower, steady band on the iGPU.

# %%
ov.viz.show(ov.viz.latency_figure(latency_run))

# %% [markdown]
# Compare with the script's ["Latency Mode" screenshot](https://github.com/yas-sim/openvino-auto-feature-visualization/blob/1a35a1a73393745c46ee3fceb00e73879b3379d1/resources/auto-plugin-latency-mode.png):
# y axis up to 0.055 s, spikes in the first ~50 iterations, a 0.015-0.03 s band, a step down at
# iteration ~230-250 to a 0.003-0.016 s band.
# The numbers, computed from the result (`latency_run.requests` has one row per request with its
# device and worker):

# %%
def band(frame, label):
    ms = frame["latency"] * 1000
    return {"phase": label, "requests": len(frame), "p5 (ms)": ms.quantile(0.05),
            "median (ms)": ms.median(), "p95 (ms)": ms.quantile(0.95), "max (ms)": ms.max()}


done = latency_run.requests.sort_values("result").reset_index(drop=True)  # completion order
k = latency_run.switch_index
print(f"switch: {latency_run.switch_time:.2f} s after the first submit, at iteration {k} "
      f"(the switch time / 30 ms would give {latency_run.switch_time / 0.030:.0f})")
pd.DataFrame([band(done.iloc[:k], f"before (iterations 0-{k - 1})"),
              band(done.iloc[:50], "  the first 50 of them"),
              band(done.iloc[k:], f"after (iterations {k}-1999)")]).round(1)

# %%
print("requests per device and worker:")
print(done.groupby(["device", "worker"]).size().to_string())

# %% [markdown]
# The switch comes at an earlier iteration than the switch time divided by 30 ms (both printed
# above): the queue has one request, and while a slow CPU inference holds it, `start_async` waits, so some iterations take
# longer than 30 ms. The iteration axis is not a time axis.
#
# The early spikes are spread over the whole CPU phase here, while the screenshot has its
# tallest ones in the first ~50 iterations: ovlab slows the CPU by a constant factor for as long
# as the GPU compiles, plus seeded jitter, and does not model how the real compile load varies
# over those seconds.

# %% [markdown]
# ## 3. THROUGHPUT: a later switch, then batching
#
# The script as committed uses `PERFORMANCE_HINT: THROUGHPUT`. Two things change:
# - AUTO passes THROUGHPUT on to the GPU, and THROUGHPUT on a GPU turns on **automatic batching**
#   (claim A11): the GPU compiles the model twice, at batch 1 and at batch 16, so the switch comes
#   about twice as late.
# - `OPTIMAL_NUMBER_OF_INFER_REQUESTS` becomes 64 (16 per batch x 4), so the script's queue has
#   64 jobs while it still prints 16.

# %%
core = ov.Core("laptop", seed=0)
tput_run = ov.experiments.latency_graph(core, core.read_model(MODEL), "AUTO",
                                        {"PERFORMANCE_HINT": "THROUGHPUT"})
print("jobs in the AsyncInferQueue:", tput_run.queue_size)
print(f"switch: {tput_run.switch_time:.2f} s after the first submit, at iteration "
      f"{tput_run.switch_index}")

# %% [markdown]
# The compiles, from `core.trace.events_frame()` (times count from the Core's creation; the first
# request was submitted when AUTO's `compile_model` returned): the CPU is ready in a
# fraction of a second (AUTO's helper), the GPU compiles twice in a row, and AUTO switches when
# the second compile ends.

# %%
events = core.trace.events_frame()  # ovlab only
for ev in events[events["kind"].isin(["compile_start", "switch"])].itertuples():
    took = f"takes {ev.seconds:.2f} s" if ev.kind == "compile_start" else ""
    print(f"{ev.time:6.2f} s  {ev.kind:14} {ev.device:6} {took}")

# %% [markdown]
# The second GPU compile is the batched model. Compiling for the GPU with THROUGHPUT directly
# shows it: the model the user sees still takes one image, the model the GPU runs takes 16
# (`get_runtime_model()`), and the compile takes twice as long as a LATENCY one.

# %%
gpu_core = ov.Core("laptop", seed=0)
for hint in ["LATENCY", "THROUGHPUT"]:
    t0 = gpu_core.clock.now
    gpu_model = gpu_core.compile_model(gpu_core.read_model(MODEL), "GPU",
                                       {"PERFORMANCE_HINT": hint})
    print(f"GPU {hint:10}: compile {gpu_core.clock.now - t0:5.2f} s, inputs "
          f"{gpu_model.inputs[0].get_shape()}, runtime model inputs "
          f"{gpu_model.get_runtime_model().inputs[0].get_shape()}")

# %% [markdown]
# What to look for in the plot: the same CPU band as before, the later switch printed above, and
# then latencies that oscillate up to about half a second, with tall spikes near the 1000 ms
# batch timeout.

# %%
ov.viz.show(ov.viz.latency_figure(tput_run, "Inference Latency (THROUGHPUT)"))

# %% [markdown]
# Why it oscillates. AUTO keeps 64 *worker* requests on the batched GPU model, and batching binds
# them in fours of 16: worker requests 0-15 form batch worker 0, 16-31 worker 1, and so on. A
# batch runs only when all 16 requests of one worker have arrived, or when that worker's timer
# (`AUTO_BATCH_TIMEOUT`, 1000 ms) fires.
# - AUTO gives each request the lowest-numbered idle worker request, so worker 0 fills first: 16
#   arrivals at 30 ms take ~480 ms, so its first request waits ~0.5 s and its last one almost
#   nothing. That is the saw-tooth between ~0.05 and ~0.55 s.
# - While worker 0's batch runs on the GPU, its 16 requests are busy, so the next arrivals go to
#   worker 1. Worker 1 never gets 16: its timer fires first, and the few requests it holds then run
#   **alone, at batch 1** (status `timeout-alone`), after waiting up to 1000 ms. Those are the
#   spikes.
#
# The result frame says which request ran how (`batch_size` and `status` columns):

# %%
gpu = tput_run.requests[tput_run.requests["device"] == "GPU.0"]
batched = gpu[gpu["batch_size"] == 16]
alone = gpu[gpu["status"] == "timeout-alone"]
timeouts = events[events["kind"] == "batch_timeout"]
print(f"on the GPU: {len(gpu)} requests")
print(f"  in batches of 16:        {len(batched)} requests in {batched['batch_id'].nunique()} "
      f"batches, latency median {batched['latency'].median() * 1000:.0f} ms, "
      f"max {batched['latency'].max() * 1000:.0f} ms")
print(f"  alone after a timeout:   {len(alone)} requests in {len(timeouts)} timer expiries, "
      f"latency median {alone['latency'].median() * 1000:.0f} ms, "
      f"max {alone['latency'].max() * 1000:.0f} ms")
per_worker = timeouts["worker"].astype(int).value_counts().sort_index()
print("  timer expiries per batch worker:", {int(w): int(n) for w, n in per_worker.items()})

# %% [markdown]
# The timer that keeps firing belongs to the overflow worker (worker 1). The requests still
# queued when the loop stops cannot fill a batch either, so they too wait for a tick (the last
# points of the plot).

# %% [markdown]
# **Compared with the script's ["Throughput Mode" screenshot](https://github.com/yas-sim/openvino-auto-feature-visualization/blob/1a35a1a73393745c46ee3fceb00e73879b3379d1/resources/auto-plugin-throughput-mode.png).**
# The shape is the same (a flat CPU phase, then a dense oscillation with tall spikes), and so is
# the cause the article gives (batching turns on after the switch, and latency grows and
# jitters). The numbers differ:
# - the screenshot switches at iteration ~670 and shows a ramp to 0.1-0.4 s from ~450; ovlab
#   switches earlier (two GPU compiles, printed above) with no ramp before it;
# - the screenshot's band is about 0.05-0.35 s with spikes of 0.75-1.95 s; ovlab's spikes stay
#   near one timeout, because a request can wait at most one timeout plus its own run.
#
# The article does not say what batch size its GPU chose or what else the laptop ran; ovlab's
# iGPU picks 16. Spikes near 2 s would need a request to wait almost two timer periods, while in
# OpenVINO's batching code a lone request waits at most one period plus the runs queued ahead of
# it (lab 05). Treat the screenshot's exact values as one machine's run.

# %% [markdown]
# ## 4. The dashboard
#
# The repository's README says "all configuration and setting parameters are hard coded in the source
# code": to try another hint or device you edit a list index and re-run. The dashboard makes
# each knob a widget (device string, hint, `ALLOW_AUTO_BATCHING`, `AUTO_BATCH_TIMEOUT`,
# `PERFORMANCE_HINT_NUM_REQUESTS`, interval, niter) and re-runs the experiment on a fresh Core
# with the same seed whenever one changes. Its default settings are the script as committed
# (AUTO, THROUGHPUT, 2,000 requests every 30 ms). What its figure shows, all of it read from
# `core.trace`:
# - **Where and how each request ran**, as the colour of its point: teal on AUTO's CPU helper,
#   green on the GPU at batch 1, purple in a batch of 16, orange alone after the batch timer
#   expired (the legend counts them). A large run is drawn with fewer markers, but every
#   stretch keeps its highest and lowest point, so no spike disappears.
# - **Jitter as a shape**: the grey band is the p5-p95 of the last 50 requests, the dark line
#   their median; on the right, a latency histogram per colour on the same axis. The batched
#   requests and the lone ones form two humps.
# - **Marks**: the GPU's compiles (shaded), the switch (red dashed line), the batch timer's
#   ticks that sent requests alone (orange marks on the x axis).
# - **The analytic model** (black and teal lines): the helper's latency (the CPU slowed by the
#   GPU compile), a full batch from t(16) up to 15 x 30 ms + t(16), a lone request up to the
#   timeout + t(1). The summary line under the figure gives simulated versus analytic numbers,
#   including the switch time and the throughput from Little's law.
#
# Here is that figure as a static image, for pages read without a kernel:

# %%
dash = ov.widgets.LatencyDashboard()  # ovlab only
ov.viz.show(dash.static_figure())

# %% tags=["nbval-ignore-output"]
display(dash)  # the widgets: they need a running kernel

# %% [markdown]
# **Using it.**
# - After each change the previous run stays behind the new one as a faint grey **ghost**, and
#   the y axis keeps room for it, so a change's size shows. Tick **lock y axis** to keep the
#   current range for the next runs.
# - Knobs that do nothing under the current settings are **greyed out**, with the reason under
#   them: under LATENCY nothing is batched, so `ALLOW_AUTO_BATCHING` and `AUTO_BATCH_TIMEOUT`
#   have no effect, and the request count only matters to THROUGHPUT.
# - **x**: the script's iteration axis, or the time of each result in seconds (the compiles and the
#   switch then sit at their real times).
# - **compare with A**: turn it on and the run on screen becomes A; the next runs are drawn over
#   it (overlay) or beside it (side by side; in a narrow window B goes below A by itself), and the
#   summary states the change in median, p99 and throughput.
# - **live**: the run is replayed at wall-clock pace, `x` times faster (the slider). The figure
#   starts clean and grows with the run: the helper's points while a progress band shows the GPU
#   compile, the switch line when the switch happens, the summary of the requests done so far.
#   Changing a knob stops the replay and starts the new run. (The simulation itself never waits:
#   the dashboard simulates the run first and then replays its records, so pacing changes only
#   what you see, never what happens.)
#
# What to try:
# - `ALLOW_AUTO_BATCHING` NO with THROUGHPUT: the switch comes as early as under LATENCY and the
#   spikes are gone (exercise 3).
# - `AUTO_BATCH_TIMEOUT` 100: no request waits much more than 100 ms; with 0 nothing waits and
#   every request runs alone at batch 1 (the GPU compile still takes twice as long).
# - `HINT_NUM_REQUESTS` 4: batches of 4, which fill in 4 x 30 ms, so latency stays low.
# - The interval: at 10 ms the batches fill three times as fast; at 300 ms they never fill.
# - The device: `GPU` alone waits for the compile before the first inference; `CPU` never
#   switches; `AUTO:GPU` has no CPU helper.

# %% [markdown]
# The same comparison without widgets: the script as committed (A) next to the same run with
# `AUTO_BATCH_TIMEOUT` 100 (B), on one latency axis. With the shorter timeout no batch of 16 can
# fill (15 arrivals take 450 ms), so every request runs alone after a tick: the median falls by
# two thirds and the tail by far more, at the same throughput.

# %%
short_core = ov.Core("laptop", seed=0)
short_run = ov.experiments.latency_graph(short_core, short_core.read_model(MODEL), "AUTO",
                                         {"PERFORMANCE_HINT": "THROUGHPUT",
                                          "AUTO_BATCH_TIMEOUT": "100"}, verbose=False)
print(ov.viz.compare_text(tput_run, short_run))
ov.viz.show(ov.viz.compare_figure(tput_run, short_run))

# %% [markdown]
# ## 5. The whole run in a timeline viewer
#
# `core.trace.to_chrome_trace(path)` (ovlab only) writes the run as a Chrome trace file: a
# process per device, a track per stream and per AUTO and BATCH worker, each compile and each
# batch a slice, each request a bar from submit to result, the switch and the timer's ticks as
# instants. The cell below writes it to `.ovlab-work/`, a hidden folder beside the notebook, so
# that your file browser stays clean. To open it, write it where you can see it
# (`core.trace.to_chrome_trace("04-auto-throughput.trace.json")`), download the file (right-click
# it in JupyterLab's file browser) and drop it on https://ui.perfetto.dev, or load it in Chrome
# at `chrome://tracing`; zoom from the 15 s of GPU compiles down to the 50 ms of one batch.

# %%
trace_json = core.trace.to_chrome_trace(".ovlab-work/04-auto-throughput.trace.json")  # ovlab only
trace_events = trace_json["traceEvents"]
print(f"wrote .ovlab-work/04-auto-throughput.trace.json with {len(trace_events)} events")
names = {e["pid"]: e["args"]["name"] for e in trace_events if e["name"] == "process_name"}
for pid, device in names.items():
    tracks = [e["args"]["name"] for e in trace_events
              if e["name"] == "thread_name" and e["pid"] == pid]
    workers = [t for t in tracks if t.startswith("AUTO worker")]
    rest = [t for t in tracks if not t.startswith("AUTO worker")]
    print(f"  {device}: {', '.join(sorted(rest))}"
          + (f", and {len(workers)} AUTO worker tracks" if workers else ""))

# %% [markdown]
# ## Summary
# - The script's latency graph is `AsyncInferQueue(compiled)` + a callback that subtracts the
#   submit time from the completion time; its printed "16" requests are not what it runs: the
#   queue has `OPTIMAL_NUMBER_OF_INFER_REQUESTS` jobs (1 under LATENCY, 64 under THROUGHPUT).
# - LATENCY on AUTO: a slow, jittery CPU phase (the CPU is also compiling), then a step down when
#   the GPU is ready (the article's screenshot: about 15-30 ms before, 3-16 ms after).
# - THROUGHPUT on AUTO: the GPU compiles twice (batch 1 and batch 16), so the switch comes about
#   twice as late; after it, batching makes latency oscillate with the fill time of a batch
#   (16 x 30 ms) and spike to about the 1000 ms timeout when a request waits for the batch timer
#   and then runs alone.
# - The x axis counts completions, not seconds: when the queue is full, `start_async` waits.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** Run the LATENCY experiment again with `interval=15` (ms). At which iteration does AUTO
# switch to the GPU? Predict it first from the switch time of section 2 divided by 15 ms, then
# read `result.switch_index` of
# `ov.experiments.latency_graph(core, model, "AUTO", {"PERFORMANCE_HINT": "LATENCY"}, interval=15)`.

# %%
answer = None  # an int
exercises.check(1, answer)

# %% [markdown]
# **2.** In the THROUGHPUT run of section 3 (`tput_run`), how many requests ran alone after their
# batch worker's timer expired?

# %%
answer = None  # an int
exercises.check(2, answer)

# %% [markdown]
# **3.** Run the THROUGHPUT experiment with `"ALLOW_AUTO_BATCHING": "NO"` added to the config. At
# which iteration does AUTO switch to the GPU now?

# %%
answer = None  # an int
exercises.check(3, answer)
