# %% [markdown]
# # 06 · CUMULATIVE_THROUGHPUT and MULTI
#
# With the LATENCY and THROUGHPUT hints AUTO picks **one** device. With the
# **CUMULATIVE_THROUGHPUT** hint (CTPUT for short, as OpenVINO's tools write it) it compiles the model on **every** candidate and spreads
# the inferences over all of them; `MULTI:<devices>` does the same with a list you give. This lab
# runs both on a server with three GPUs and on the laptop.
#
# **What you will see**
# - `AUTO` + CTPUT compiles every candidate before `compile_model` returns (no CPU helper),
#   `EXECUTION_DEVICES` lists them all and `OPTIMAL_NUMBER_OF_INFER_REQUESTS` is their sum; plain
#   `AUTO` puts the CPU *first*, even with three GPUs (claim A10, and where the docs and the
#   code disagree).
# - `MULTI:GPU.0,GPU.1,GPU.2` behaves the same and reports `THROUGHPUT` (A10).
# - The two schedule policies, `DEVICE_PRIORITY` (fill the first device first) and `ROUND_ROBIN`
#   (rotate), and where each request ran (A10).
# - Throughput against the number of requests in flight, one GPU against all devices, and why a
#   synchronous loop gets nothing from these hints (A09).
# - Per-device settings through `DEVICE_PROPERTIES` and how they change each device's workers
#   (A15).
# - MULTI is deprecated: every `MULTI` call below sits beside its `AUTO` + CUMULATIVE_THROUGHPUT
#   twin, and the two do the same (claim N25).
#
# **Why it matters.** CTPUT and MULTI are how you use every accelerator of a machine from one
# compiled model. They only pay off if the application keeps enough requests in flight, and the
# order of the device list decides who does the work at light load.
#
# **MULTI is deprecated.** Since 2024 the Multi-Device page of the OpenVINO docs opens with a
# warning box: *"The Multi-device execution mode described has been deprecated and this article
# will be removed in the future. You can use the CUMULATIVE_THROUGHPUT option ... instead"*, and
# the 2025 Supported Devices page no longer lists MULTI among the modes. The plugin is still
# registered in the 2026.4.1 wheel (`FULL_DEVICE_NAME` reads `'MULTI'`), and in the code MULTI is
# AUTO's cumulative scheduler: `MULTI:<list>` is `AUTO:<list>` with the CUMULATIVE_THROUGHPUT
# hint. New code should write the AUTO form; this lab shows both, side by side.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup
#
# The `multi-gpu` preset is a server: a Xeon CPU and three discrete Flex 170 GPUs. We switch off
# automatic batching (`ALLOW_AUTO_BATCHING: False`) in most cells: CTPUT, like THROUGHPUT, would
# otherwise wrap every GPU in the BATCH device (claim A11, lab 05), which hides the scheduling we
# want to look at. Section 1 shows once what batching changes.

# %%
import pandas as pd
import plotly.graph_objects as go

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.device as device  # on real hardware: openvino.properties.device
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
import ovlab.properties.intel_auto as intel_auto  # on real hardware: openvino.properties.intel_auto
import ovlab.properties.streams as streams  # on real hardware: openvino.properties.streams
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

NO_BATCH = {hints.allow_auto_batching: False}  # automatic batching is lab 05
CTPUT = {hints.performance_mode: hints.PerformanceMode.CUMULATIVE_THROUGHPUT, **NO_BATCH}

core = ov.Core("multi-gpu", seed=0)  # on real hardware: ov.Core()
googlenet = core.read_model("googlenet-v1")  # on real hardware: core.read_model("googlenet-v1.xml")
exercises = for_lab("06")
print(core)

# %% [markdown]
# ## 1. AUTO + CUMULATIVE_THROUGHPUT compiles everything first
#
# Watch the compile events. The AUTO source (`cumulative_schedule.cpp`) compiles every non-CPU
# device in parallel, waits for them, then compiles the CPU, and `compile_model` returns only when
# all are done. There is no CPU helper in this mode (claim A05): the first inference waits for the
# slowest GPU compile.

# %%
compiled = core.compile_model(googlenet, "AUTO", CTPUT)
print(f"compile_model returned at {core.clock.now:.2f} s (simulated)")
events = core.trace.events_frame()
compiles = events[events["kind"].isin(["compile_start", "compile_end"])]
compiles.assign(time_s=compiles["time"].round(3))[["time_s", "kind", "device"]]

# %% [markdown]
# For comparison, plain AUTO with its default LATENCY hint on the same machine returns as soon as
# the CPU helper is compiled, and serves the first inferences from it (lab 03):

# %%
other = ov.Core("multi-gpu", seed=0)
auto_latency = other.compile_model(googlenet, "AUTO")
print(f"AUTO (LATENCY) returned at {other.clock.now:.2f} s, "
      f"EXECUTION_DEVICES = {auto_latency.get_property(props.execution_devices)}")

# %% [markdown]
# What the CTPUT compiled model reports. `OPTIMAL_NUMBER_OF_INFER_REQUESTS` is the **sum** of the
# devices' own numbers, which `DEVICE_PROPERTIES` lets us read one by one. Every device was
# compiled with THROUGHPUT (AUTO rewrites CTPUT to THROUGHPUT for the hardware).

# %%
for key in [props.execution_devices, device.priorities, hints.performance_mode,
            intel_auto.schedule_policy, props.optimal_number_of_infer_requests]:
    print(f"{key:34} {compiled.get_property(key)!r}")

# %%
per_device = compiled.get_property(device.properties)
pd.DataFrame([{"device": name, "PERFORMANCE_HINT": p["PERFORMANCE_HINT"],
               "NUM_STREAMS": p["NUM_STREAMS"],
               "OPTIMAL_NUMBER_OF_INFER_REQUESTS": p["OPTIMAL_NUMBER_OF_INFER_REQUESTS"]}
              for name, p in per_device.items()]).set_index("device")

# %% [markdown]
# **The CPU comes first.** With no device list, CTPUT keeps the order of `available_devices`,
# which is alphabetical: `CPU, GPU.0, GPU.1, GPU.2`. The [AUTO documentation page](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/auto-device-selection.html) says that
# "if the system has more than two GPU devices, AUTO will remove CPU from the device candidate
# list"; the current AUTO source (`plugin.cpp`) has no such rule, and ovlab follows the code: the
# CPU stays, in first place. Name the devices (`AUTO:GPU.0,GPU.1,GPU.2`) to leave it out or to
# change the order.
#
# Every device does get work once enough requests are in flight. An `AsyncInferQueue` built
# without a size takes `OPTIMAL_NUMBER_OF_INFER_REQUESTS` jobs; we push 4 rounds through it:

# %%
queue = ov.AsyncInferQueue(compiled)  # 28 jobs
core.trace.clear()  # ovlab only: keep the records of this run
for _ in range(4 * len(queue)):
    queue.start_async()
queue.wait_all()
print(f"{len(queue)} jobs; inferences per device:",
      core.trace.to_frame()["device"].value_counts().sort_index().to_dict())

# %% [markdown]
# **With automatic batching left on** (the default), CTPUT behaves like THROUGHPUT on each GPU:
# each one becomes `BATCH:GPU.i`, compiles twice (a batched and a batch-1 model), and asks for
# 16 times as many requests (claim A11; lab 05 explains the numbers).

# %%
batched_core = ov.Core("multi-gpu", seed=0)
batched = batched_core.compile_model(
    googlenet, "AUTO", {hints.performance_mode: hints.PerformanceMode.CUMULATIVE_THROUGHPUT})
per_device = batched.get_property(device.properties)
print(f"returned at {batched_core.clock.now:.2f} s; OPTIMAL_NUMBER_OF_INFER_REQUESTS = "
      f"{batched.get_property(props.optimal_number_of_infer_requests)}")
print({name: p["OPTIMAL_NUMBER_OF_INFER_REQUESTS"] for name, p in per_device.items()})

# %% [markdown]
# ## 2. Device lists, and MULTI (deprecated)
#
# The same mode with an explicit list, and `MULTI`, which always runs this way. Differences to
# look for:
# - `MULTI` needs a list and reports `PERFORMANCE_HINT` = `THROUGHPUT`, whatever hint you pass
#   (its log says `User set perf_hint:LATENCY, but MULTI supports THROUGHPUT only`).
# - An explicit list keeps your order. On the laptop, `MULTI:GPU,CPU` is the classic "GPU first,
#   CPU when the GPU is busy", while plain `AUTO` + CTPUT starts with the CPU.
#
# Each `MULTI` row is followed by its AUTO twin (`"= MULTI"` in the last column). MULTI passes a
# hint you give it on to the devices; AUTO + CTPUT always gives them THROUGHPUT, so the twin of
# `MULTI` + LATENCY hands the GPUs LATENCY through `device.properties` (section 6).

# %%
laptop = ov.Core("laptop", seed=0)
GPU_LATENCY = {device.properties: {"GPU": {hints.performance_mode: "LATENCY"}}}
cases = [(core, "AUTO:GPU.0,GPU.1,GPU.2", CTPUT, "CUMULATIVE_THROUGHPUT", ""),
         (core, "MULTI:GPU.0,GPU.1,GPU.2", NO_BATCH, "-", ""),
         (core, "AUTO:GPU.0,GPU.1,GPU.2", CTPUT, "CUMULATIVE_THROUGHPUT", "= MULTI"),
         (core, "MULTI:GPU.0,GPU.1,GPU.2", {**NO_BATCH, hints.performance_mode: "LATENCY"},
          "LATENCY", ""),
         (core, "AUTO:GPU.0,GPU.1,GPU.2", {**CTPUT, **GPU_LATENCY},
          "CUMULATIVE_THROUGHPUT + GPU LATENCY", "= MULTI"),
         (laptop, "AUTO", CTPUT, "CUMULATIVE_THROUGHPUT", ""),
         (laptop, "MULTI:GPU,CPU", NO_BATCH, "-", ""),
         (laptop, "AUTO:GPU,CPU", CTPUT, "CUMULATIVE_THROUGHPUT", "= MULTI")]
rows = []
for machine, name, config, given, twin in cases:
    m = machine.compile_model(googlenet, name, config)
    rows.append({"platform": machine.platform.name, "device": name, "hint given": given,
                 "PERFORMANCE_HINT": m.get_property(hints.performance_mode).name,
                 "EXECUTION_DEVICES": m.get_property(props.execution_devices),
                 "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
                     m.get_property(props.optimal_number_of_infer_requests), "twin": twin})
pd.DataFrame(rows)

# %% [markdown]
# `MULTI` with LATENCY reports THROUGHPUT but asks for fewer requests: the LATENCY hint reached the
# GPUs (1 stream, 1 request each). `MULTI` is, in the words of the benchmark tool's docs, "a
# legacy tool and currently is just a mapping of the AUTO plugin"; AUTO + CTPUT is the current
# way, and each twin asks for the same devices and requests. Only `PERFORMANCE_HINT` tells them
# apart: THROUGHPUT for MULTI, CUMULATIVE_THROUGHPUT for AUTO.

# %% [markdown]
# ## 3. DEVICE_PRIORITY and ROUND_ROBIN
#
# Each device has its own pool of worker requests (its `OPTIMAL_NUMBER_OF_INFER_REQUESTS`: 4 per
# Flex GPU here). For each inference the scheduler looks for an idle worker:
# - **DEVICE_PRIORITY** (the default): the first device in list order that has an idle worker. The
#   first device is filled before the next one is used.
# - **ROUND_ROBIN**: a cursor moves to the next device at every attempt, so consecutive inferences
#   go to different devices.
#
# A moderate load shows the difference: 60 requests, one every 2 ms (500 per second: more than one
# GPU can take, less than three; section 4 measures each), on `MULTI:GPU.0,GPU.1,GPU.2`.

# %%
def paced_run(policy, n=60, interval_ms=2.0, name="MULTI:GPU.0,GPU.1,GPU.2", config=NO_BATCH):
    """A fresh multi-gpu Core; n requests every interval_ms through an AsyncInferQueue."""
    machine = ov.Core("multi-gpu", seed=0)
    multi = machine.compile_model(googlenet, name, {**config, intel_auto.schedule_policy: policy})
    queue = ov.AsyncInferQueue(multi)  # 12 jobs
    for i in range(n):
        queue.start_async(userdata=i)
        machine.clock.sleep(interval_ms / 1000)  # on real hardware: time.sleep
    queue.wait_all()
    return machine


runs = {policy: paced_run(policy) for policy in ["DEVICE_PRIORITY", "ROUND_ROBIN"]}
# MULTI is deprecated: the same runs with AUTO + CUMULATIVE_THROUGHPUT
auto_runs = {policy: paced_run(policy, name="AUTO:GPU.0,GPU.1,GPU.2", config=CTPUT)
             for policy in runs}

# %%
rows = []
for label, by_policy in [("MULTI:GPU.0,GPU.1,GPU.2", runs),
                         ("AUTO:GPU.0,GPU.1,GPU.2 + CTPUT", auto_runs)]:
    for policy, machine in by_policy.items():
        frame = machine.trace.to_frame()
        counts = frame["device"].value_counts()
        rows.append({"compiled on": label, "SCHEDULE_POLICY": policy,
                     **{dev: int(counts.get(dev, 0)) for dev in ["GPU.0", "GPU.1", "GPU.2"]},
                     "mean latency (ms)": round(frame["latency"].mean() * 1000, 1),
                     "max latency (ms)": round(frame["latency"].max() * 1000, 1)})
pd.DataFrame(rows).set_index(["SCHEDULE_POLICY", "compiled on"]).sort_index()

# %% [markdown]
# Each policy gives the same placement and latencies on MULTI and on its AUTO twin. DEVICE_PRIORITY
# keeps GPU.0 busy with all four of its workers and spills to GPU.1 only when
# GPU.0 has none idle; GPU.2 never runs. ROUND_ROBIN gives each GPU a third. Each GPU runs 2
# streams, so GPU.0's third and fourth worker wait behind the first two: DEVICE_PRIORITY pays that
# in latency, and leaves GPU.2 free for something else (another model, or idle and cool).
#
# The Gantt charts show each worker request (`GPU.0:3` is worker 3 of GPU.0) and the time its
# inference ran on the device. The clock starts when the GPU compiles ended.

# %%
for policy, machine in runs.items():
    ov.viz.show(ov.viz.gantt_figure(machine, title=f"MULTI:GPU.0,GPU.1,GPU.2, {policy}: "
                                                   "60 requests every 2 ms"))

# %% [markdown]
# ## 4. Throughput and the number of requests in flight
#
# All devices at once only help if the application keeps enough requests in flight. Here an
# `AsyncInferQueue` of `n` jobs is kept full for 0.5 s of simulated time (every `start_async`
# waits for a free job), and we count the inferences that finished in that time. Three compiled
# models:
# - `GPU.0` alone, with THROUGHPUT (4 requests);
# - `MULTI:GPU.0,GPU.1,GPU.2,CPU`: every device, GPUs first (4 + 4 + 4 + 16 = 28 requests), and
#   its AUTO twin `AUTO:GPU.0,GPU.1,GPU.2,CPU` + CTPUT (dashed: the same curve);
# - plain `AUTO` + CTPUT: the same devices, CPU first.

# %%
def throughput(machine, compiled_model, n, seconds=0.5):
    """Inferences per simulated second with n requests kept in flight on machine's clock."""
    clock = machine.clock  # on real hardware: time.perf_counter()
    machine.trace.clear()  # ovlab only: forget earlier records (they would fill the memory)
    queue = ov.AsyncInferQueue(compiled_model, n)
    finished = []
    queue.set_callback(lambda request, userdata: finished.append(clock.now))
    end = clock.now + seconds
    while clock.now < end:
        queue.start_async()  # blocks (advances the clock) while all n jobs are busy
    queue.wait_all()
    return sum(1 for t in finished if t <= end) / seconds


# %%
models = {"GPU.0 alone (THROUGHPUT)": core.compile_model(
              googlenet, "GPU.0", {hints.performance_mode: "THROUGHPUT", **NO_BATCH}),
          "MULTI:GPU.0,GPU.1,GPU.2,CPU": core.compile_model(
              googlenet, "MULTI:GPU.0,GPU.1,GPU.2,CPU", NO_BATCH),
          "AUTO:GPU.0,GPU.1,GPU.2,CPU + CTPUT": core.compile_model(  # MULTI's twin
              googlenet, "AUTO:GPU.0,GPU.1,GPU.2,CPU", CTPUT),
          "AUTO + CTPUT (CPU first)": compiled}
in_flight = [1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48]
curves = pd.DataFrame({label: [throughput(core, m, n) for n in in_flight]
                       for label, m in models.items()}, index=pd.Index(in_flight, name="n"))
curves.round(0).astype(int).transpose()

# %%
fig = go.Figure()
for label in curves.columns:
    dash = "dash" if label.startswith("AUTO:GPU.0") else None  # MULTI's twin: drawn on top of it
    fig.add_trace(go.Scatter(x=curves.index, y=curves[label], mode="lines+markers", name=label,
                             line=dict(dash=dash)))
fig.update_layout(title="GoogLeNet-v1 on multi-gpu: throughput vs requests in flight",
                  xaxis_title="requests in flight (AsyncInferQueue jobs)",
                  yaxis_title="throughput (inferences / simulated s)", legend_title="compiled on",
                  template="plotly_white", height=440)
ov.viz.show(fig)

# %% [markdown]
# What to read here:
# - One GPU is nearly saturated by one request in flight and fully by 2 (its 2 streams keep it
#   busy between inferences); more requests only queue.
# - `MULTI` with the GPUs first grows by one GPU's worth for every 4 more requests, and saturates
#   near the sum of all devices once its 28 workers are busy. Its AUTO twin gives the same
#   numbers.
# - Plain `AUTO` + CTPUT is *slow* at light load: DEVICE_PRIORITY sends everything to the CPU
#   first, which THROUGHPUT split into 16 streams, each with 1/16 of the cores. The GPUs only get
#   work beyond 16 requests in flight. Same devices, same total: the order decides the light-load
#   behaviour.

# %% [markdown]
# ## 5. A synchronous loop gets nothing from these hints
#
# The AUTO documentation page says that the THROUGHPUT and CUMULATIVE_THROUGHPUT hints only
# improve the performance of asynchronous inference pipelines (claim A09). A loop of `infer()`
# calls keeps **one** request in flight, so the scheduler always picks the first device with an
# idle worker, and that device runs with its THROUGHPUT streams, each slower than a LATENCY
# compile. On the laptop (the loop calls
# `start_async()` then `wait()`, which is what `infer()` does; `infer()` would also compute the
# outputs with NumPy, which costs wall time and changes nothing here):

# %%
def sync_fps(compiled_model, n=50):
    """One request, each inference waited for before the next: what infer() does."""
    request = compiled_model.create_infer_request()
    t0 = laptop.clock.now
    for _ in range(n):
        request.start_async()  # start_async + wait = infer(), without reading the outputs
        request.wait()
    return n / (laptop.clock.now - t0)


def async_fps(compiled_model, n=200):
    queue = ov.AsyncInferQueue(compiled_model)  # OPTIMAL_NUMBER_OF_INFER_REQUESTS jobs
    t0 = laptop.clock.now
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    return n / (laptop.clock.now - t0)

# %%
rows = []
for name, config in [("GPU", {}), ("MULTI:GPU,CPU", NO_BATCH), ("AUTO:GPU,CPU", CTPUT),
                     ("AUTO", CTPUT)]:
    m = laptop.compile_model(googlenet, name, config)
    laptop.trace.clear()
    sync = sync_fps(m)
    sync_devices = sorted(laptop.trace.to_frame()["device"].unique())
    hint = str(m.get_property(hints.performance_mode)).split(".")[-1]  # GPU: str, AUTO: enum
    rows.append({"device": name, "hint": hint,
                 "sync loop (inf/s)": round(sync), "sync ran on": sync_devices,
                 "AsyncInferQueue (inf/s)": round(async_fps(m))})
pd.DataFrame(rows).set_index("device")

# %% [markdown]
# The synchronous loop on `MULTI:GPU,CPU`, and on its twin `AUTO:GPU,CPU` + CTPUT, runs every
# inference on the GPU, one at a time: no faster than the GPU alone, and the CPU never works. On plain `AUTO` + CTPUT it is much slower: each
# inference goes to the CPU (first in the list), on one of its 4 THROUGHPUT streams. With an
# `AsyncInferQueue` of the optimal size both devices work and the throughput adds up. (In ovlab's
# cost model a CPU stream owns its share of the cores even when the others are idle, while GPU
# streams are queues onto the whole GPU: one inference alone runs at full speed, and busy streams
# share the execution units.)

# %% [markdown]
# ## 6. Per-device configuration: DEVICE_PROPERTIES
#
# AUTO and MULTI pass each device its own settings with `device.properties` (claim A15). The AUTO
# documentation's example gives the GPU THROUGHPUT with 4 streams and the CPU LATENCY with
# profiling (`enable_profiling`, i.e. `PERF_COUNT`). In CTPUT each device's settings decide its
# number of worker requests. On the laptop:

# %%
gpu_config = {hints.performance_mode: hints.PerformanceMode.THROUGHPUT, streams.num: 4}
cpu_config = {hints.performance_mode: hints.PerformanceMode.LATENCY, props.enable_profiling: True}
variants = {"default": {},
            "DEVICE_PROPERTIES": {device.properties: {"GPU": gpu_config, "CPU": cpu_config}}}
rows = []
for label, extra in variants.items():
    m = laptop.compile_model(googlenet, "AUTO:GPU,CPU", {**CTPUT, **extra})
    for name, p in m.get_property(device.properties).items():
        rows.append({"config": label, "device": name, "PERFORMANCE_HINT": p["PERFORMANCE_HINT"],
                     "NUM_STREAMS": p["NUM_STREAMS"], "PERF_COUNT": p["PERF_COUNT"],
                     "workers (OPTIMAL_NUMBER_OF_INFER_REQUESTS)":
                         p["OPTIMAL_NUMBER_OF_INFER_REQUESTS"],
                     "model total": m.get_property(props.optimal_number_of_infer_requests)})
pd.DataFrame(rows).set_index(["config", "device"])

# %% [markdown]
# The CPU went from THROUGHPUT with 4 streams and 4 workers to LATENCY with 1 stream and 1 worker,
# with profiling on, and the GPU from 2 streams (THROUGHPUT's own choice) to the 4 streams asked
# for, so 8 workers: the model now asks for 9 requests instead of 8. (A `NUM_STREAMS` you set is
# kept by the GPU plugin, which applies the hint's stream count only when you did not set one; the
# CPU plugin clamps it to its `RANGE_FOR_STREAMS`.) Each device gets only its own settings.
#
# Profiling is now on for the CPU only. Nine requests at once fill the GPU's 8 workers and send
# the ninth to the CPU; only that one has executed profiling rows:

# %%
m = laptop.compile_model(googlenet, "AUTO:GPU,CPU", {**CTPUT, **variants["DEVICE_PROPERTIES"]})
requests = [m.create_infer_request() for _ in range(9)]
laptop.trace.clear()
for r in requests:
    r.start_async()
for r in requests:
    r.wait()
ran_on = {rec.request_id: rec.device for rec in laptop.trace}
for i, r in enumerate(requests):
    executed = sum(1 for row in r.get_profiling_info() if row.status == row.Status.EXECUTED)
    print(f"request {i}: ran on {ran_on[i]:5}, {executed:3} executed profiling rows")

# %% [markdown]
# ## Summary
# - CUMULATIVE_THROUGHPUT makes AUTO compile the model on every candidate before `compile_model`
#   returns (no CPU helper) and run inferences on all of them; `EXECUTION_DEVICES` lists them all
#   and `OPTIMAL_NUMBER_OF_INFER_REQUESTS` is the sum of the devices' numbers.
# - Plain `AUTO` + CTPUT keeps the `available_devices` order, so the CPU comes first; the
#   documented "CPU is removed with more than two GPUs" is not in the code.
# - `MULTI:<list>` is the same scheduler; it reports THROUGHPUT. It is deprecated: write
#   `AUTO:<list>` with CUMULATIVE_THROUGHPUT (and `device.properties` for a hint of your own).
# - DEVICE_PRIORITY fills the first device's workers before using the next; ROUND_ROBIN rotates.
# - The devices only add up with enough requests in flight: use an `AsyncInferQueue` sized by
#   `OPTIMAL_NUMBER_OF_INFER_REQUESTS`. A synchronous loop gains nothing, and can lose.
# - `device.properties` configures each device separately, and so sets each device's workers.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** On the `workstation` (CPU, iGPU `GPU.0`, dGPU `GPU.1`, NPU), compile GoogLeNet-v1 on plain
# `AUTO` with CUMULATIVE_THROUGHPUT. What does `EXECUTION_DEVICES` list?

# %%
answer = None  # a list of device names, e.g. ["GPU.1", "CPU"]
exercises.check(1, answer)

# %% [markdown]
# **2.** On `multi-gpu`, compile `MULTI:GPU.0,GPU.1,GPU.2` (no batching, default policy) and start
# 10 inferences at the same moment, each on its own `InferRequest`. How many of them run on GPU.1?

# %%
answer = None  # an int
exercises.check(2, answer)

# %% [markdown]
# **3.** On `multi-gpu` with `MULTI:GPU.0,GPU.1,GPU.2,CPU`, what is the smallest number of requests
# in flight at once for which the CPU runs at least one of them?

# %%
answer = None  # an int
exercises.check(3, answer)
