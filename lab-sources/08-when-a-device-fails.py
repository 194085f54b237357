# %% [markdown]
# # 08 · When a device fails
#
# Devices fail: a GPU driver resets, a kernel hits a bug, a device runs out of memory. AUTO has
# two safety nets. At start-up, a device that fails to **compile** is replaced by the next one
# (claim A03). At run time, with `ENABLE_RUNTIME_FALLBACK` (on by default), an **inference** that
# fails is run again on another device, compiled on the spot (claim A14). ovlab can make a device
# fail on demand (`core.faults`), so we can watch both.
#
# **What you will see**
# - A compile failure at start-up: the CPU helper hides it, and AUTO moves on to the next device
#   (A03, a reminder of lab 02).
# - A runtime failure under LATENCY: the failed inference is re-run on the CPU, which AUTO
#   compiles at that moment; every request gets exactly one callback; the records show the failed
#   attempt and the re-run; `EXECUTION_DEVICES` changes; the failed device leaves the candidates
#   (A14).
# - The same under THROUGHPUT, with several inferences failing while the fallback compiles.
# - With `ENABLE_RUNTIME_FALLBACK` off, or with a single candidate, the error reaches your code:
#   the `AsyncInferQueue` raises it, and the other requests still complete (A14).
#
# **Why it matters.** Runtime fallback is not load balancing: it is a one-way move off a device
# that failed, and it costs a compile in the middle of your workload. Knowing what it does tells
# you when to keep it on and what your application still has to handle.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup
#
# `core.faults` exists only in ovlab: `fail_compile(device)` makes the next compile on that device
# fail, `fail_inference(device, nth=n, count=k)` makes the n-th to (n+k-1)-th inferences that start
# on that device from now on fail. On real hardware failures come on their own.
#
# `paced_workload` is the loop of the yas-sim scripts (labs 04 and 05): `n` requests, one every `interval_ms`, through an
# `AsyncInferQueue`, with a callback that records which request (its userdata) finished when.

# %%
import pandas as pd
import plotly.graph_objects as go

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
import ovlab.properties.intel_auto as intel_auto  # on real hardware: openvino.properties.intel_auto
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

NO_BATCH = {hints.allow_auto_batching: False}  # automatic batching is lab 05
googlenet = ov.Core("laptop").read_model("googlenet-v1")  # on real hardware: a real IR
exercises = for_lab("08")


def paced_workload(machine, compiled, n, interval_ms):
    """n requests every interval_ms through an AsyncInferQueue: one row per callback."""
    queue = ov.AsyncInferQueue(compiled)  # OPTIMAL_NUMBER_OF_INFER_REQUESTS jobs
    rows = []
    queue.set_callback(lambda request, userdata: rows.append(
        {"userdata": userdata[0], "submitted": userdata[1], "callback": machine.clock.now}))
    for i in range(n):
        queue.start_async(userdata=(i, machine.clock.now))  # on real hardware: perf_counter()
        machine.clock.sleep(interval_ms / 1000)  # on real hardware: time.sleep
    queue.wait_all()
    return pd.DataFrame(rows)

# %% [markdown]
# `message` keeps only the message of an error (lab 01), and `ov.viz.fallback_figure` (ovlab only)
# draws what ran where in a time window, one row per worker request, with failed inferences in
# red and compiles as grey bars.

# %%
message = ov.labtools.error_message  # the error's message without the chain of source lines


# %% [markdown]
# ## 1. A compile failure at start-up (claim A03)
#
# On the laptop, AUTO selects the GPU and compiles it while the CPU helper serves the first
# inferences (lab 03). We make that GPU compile fail. AUTO tries the next device in its list,
# the CPU; the CPU helper already is a CPU compile with the same settings, so AUTO does not
# compile it again: the helper simply keeps serving, and `EXECUTION_DEVICES` stays `(CPU)`.

# %%
laptop = ov.Core("laptop", seed=0)
laptop.faults.fail_compile("GPU.0")  # ovlab only: the next compile on GPU.0 fails
compiled = laptop.compile_model(googlenet, "AUTO")
print(f"compile_model returned at {laptop.clock.now:.2f} s")
laptop.clock.sleep(10)  # long after the GPU compile would have finished
print("EXECUTION_DEVICES 10 s later:", compiled.get_property(props.execution_devices))
events = laptop.trace.events_frame()
events.assign(time_s=events["time"].round(3))[["time_s", "kind", "device", "reason"]]

# %% [markdown]
# On the workstation AUTO selects the dGPU (`GPU.1`). When that compile fails, the next device in
# AUTO's order is the iGPU, which compiles now (a second GPU compile of several seconds), while
# the CPU helper goes on serving. Nothing reached the application: a compile failure happens
# before any inference is sent to that device.

# %%
ws = ov.Core("workstation", seed=0)
ws.faults.fail_compile("GPU.1")  # ovlab only
ws_compiled = ws.compile_model(googlenet, "AUTO")
ws.clock.sleep(12)
print("EXECUTION_DEVICES:", ws_compiled.get_property(props.execution_devices))
ev = ws.trace.events_frame()
ev = ev[ev["kind"].isin(["select", "compile_start", "compile_end", "compile_failed", "switch"])]
ev.assign(time_s=ev["time"].round(3))[["time_s", "kind", "device", "reason"]]

# %% [markdown]
# With a single candidate there is nothing to move on to, and `compile_model` itself fails.
# AUTO's message lists every device it tried, each with that device's own error:

# %%
single = ov.Core("laptop", seed=0)
single.faults.fail_compile("GPU.0")  # ovlab only
print(message(lambda: single.compile_model(googlenet, "AUTO:GPU")))

# %% [markdown]
# ## 2. A runtime failure under LATENCY (claim A14)
#
# Now the GPU compiles fine, but its 20th inference fails. We run the yas-sim scripts' workload on
# AUTO with its default LATENCY hint: 400 requests, one every 30 ms, for 12 s. The first seconds
# run on the CPU helper while the GPU compiles, then the GPU takes over, and its 20th inference
# fails.

# %%
core = ov.Core("laptop", seed=0)
core.faults.fail_inference("GPU.0", nth=20)  # ovlab only: the 20th inference on GPU.0 fails
compiled = core.compile_model(googlenet, "AUTO")  # LATENCY
calls = paced_workload(core, compiled, 400, 30)
counts = calls["userdata"].value_counts()
print(f"{len(calls)} callbacks for {calls['userdata'].nunique()} distinct userdata; "
      f"missing: {sorted(set(range(400)) - set(counts.index))}; "
      f"called twice: {sorted(counts[counts > 1].index)}")
print("EXECUTION_DEVICES after the run:", compiled.get_property(props.execution_devices))

# %% [markdown]
# Nothing was lost: 400 requests, 400 callbacks, each userdata once, and no error reached the
# application. The device records tell what happened underneath: one inference record per
# execution on a device, with a `status`.

# %%
records = core.trace.to_frame()
records.groupby(["device", "status"]).size().rename("executions").to_frame()

# %% [markdown]
# 401 executions for 400 requests: one of them ran twice. The records number user inferences in
# submission order (`seq`, equal to the userdata here). The failed one, with its re-run:

# %%
failed_seq = int(records.loc[records["status"] == "failed", "seq"].iloc[0])
cols = ["seq", "device", "worker", "status", "submitted", "started", "finished"]
attempts = records.loc[records["seq"] == failed_seq, cols].copy()
for c in ["submitted", "started", "finished"]:
    attempts[c] = (attempts[c] * 1000).round(1)  # ms
print(f"request {failed_seq}, times in ms:")
print(attempts.to_string(index=False))

# %% [markdown]
# The re-run started long after the failed attempt ended (compare its `started` with the failed
# row's `finished`). The events show why: AUTO removed `GPU.0`
# from its candidates, selected the next device (the CPU; the helper had been released when the
# GPU took over), **compiled it on the spot**, and only then re-ran the request. Every later
# request went to the CPU.

# %%
t_fail = core.trace.events_frame().query("kind == 'inference_failed'")["time"].iloc[0]
ev = core.trace.events_frame()
ev = ev[ev["time"] >= t_fail]
ev.assign(time_s=ev["time"].round(4))[["time_s", "kind", "device", "reason", "failed", "to"]]

# %% [markdown]
# The latency of every request (submit to callback, as the yas-sim scripts measure it), coloured by
# where it finally ran. Look for the step down when the GPU takes over after its compile, the
# spike of the failed request (failed attempt + CPU compile + re-run) and of the next one (the
# LATENCY queue has a single job, so its `start_async` waited for the re-run), and the step back
# up to CPU latencies. The log scale keeps the fast GPU requests and the slow re-run on one plot.

# %%
final = records[records["status"] == "ok"].set_index("seq")
calls["latency_ms"] = (calls["callback"] - calls["submitted"]) * 1000
where = final.loc[calls["userdata"]]  # the successful execution of each request
calls["ran on"] = where["device"].where(where["worker"] != "CPU_HELP", "CPU helper").to_numpy()
fig = go.Figure()
for label, color in [("CPU helper", "#17becf"), ("GPU.0", "#2ca02c"), ("CPU", "#1f77b4")]:
    part = calls[calls["ran on"] == label]
    name = "CPU (after the fallback)" if label == "CPU" else label
    fig.add_trace(go.Scatter(x=part["userdata"], y=part["latency_ms"], mode="markers",
                             name=name, marker=dict(color=color, size=5)))
fig.add_shape(type="line", x0=failed_seq, x1=failed_seq, y0=0, y1=1, yref="paper",
              line=dict(color="#d62728", dash="dash"))
fig.add_annotation(x=failed_seq, y=1, yref="paper", text=f"GPU.0 fails (request {failed_seq})",
                   showarrow=False, yanchor="bottom", font=dict(color="#d62728"))
fig.update_layout(title="AUTO (LATENCY), 400 requests every 30 ms: a GPU inference fails",
                  xaxis_title="request (userdata)", yaxis_title="submit -> callback latency (ms)",
                  yaxis_type="log", yaxis_dtick=1, legend_title="ran on",
                  template="plotly_white", height=420)
ov.viz.show(fig)

# %% [markdown]
# Zoomed in on the fallback: the failed attempt on the GPU's worker (red), the CPU compile (grey),
# then the re-run and the following requests on the CPU.

# %%
ov.viz.show(ov.viz.fallback_figure(core, t_fail - 0.08, t_fail + 0.35,
                                   "AUTO (LATENCY): runtime fallback from GPU.0 to CPU"))

# %% [markdown]
# ## 3. The failed device leaves the candidates
#
# After the fallback AUTO's candidate list is just the CPU: the GPU never comes back to this
# compiled model. So a failure on the CPU now has nowhere to go, and reaches the caller (the cells
# below fail on purpose; `%xmode Minimal` keeps the traceback to the message).

# %%
# %xmode Minimal

# %% tags=["raises-exception"]
core.faults.fail_inference("CPU", nth=1)  # ovlab only: the next CPU inference fails
request = compiled.create_infer_request()
request.start_async()
request.wait()

# %% [markdown]
# The request stays usable, and the next inference runs on the CPU again:

# %%
request.start_async()
request.wait()
print("ran on:", core.trace.inferences[-1].device, "| EXECUTION_DEVICES:",
      compiled.get_property(props.execution_devices))

# %% [markdown]
# ## 4. Under THROUGHPUT: several failures while the fallback compiles
#
# With THROUGHPUT the GPU runs 4 worker requests on 2 streams, so several inferences are in
# flight when it fails. We skip the start-up (it is lab 03), then send 200 requests, one every
# 4 ms, and make the GPU's 20th, 21st and 22nd inferences fail. (`ALLOW_AUTO_BATCHING: False`:
# THROUGHPUT on a GPU would otherwise batch, lab 05.)

# %%
tput = ov.Core("laptop", seed=0)
compiled_tp = tput.compile_model(googlenet, "AUTO",
                                 {hints.performance_mode: hints.PerformanceMode.THROUGHPUT,
                                  **NO_BATCH})
tput.clock.sleep(10)  # past the GPU compile and the helper's release
print("before:", compiled_tp.get_property(props.execution_devices), "| requests:",
      compiled_tp.get_property(props.optimal_number_of_infer_requests))
tput.faults.fail_inference("GPU.0", nth=20, count=3)  # ovlab only
t_start = tput.clock.now
calls_tp = paced_workload(tput, compiled_tp, 200, 4)
print(f"after: {compiled_tp.get_property(props.execution_devices)} | {len(calls_tp)} callbacks, "
      f"{calls_tp['userdata'].nunique()} distinct userdata")

# %% [markdown]
# The first failure removed the GPU and started the CPU compile. The other two failed while the
# CPU was compiling; AUTO found the GPU already gone, reused the fallback already chosen, and
# re-ran them on the CPU when it was ready: **one** compile for three failures.

# %%
rec_tp = tput.trace.to_frame()
failed = rec_tp.loc[rec_tp["status"] == "failed", "seq"]
attempts = rec_tp.loc[rec_tp["seq"].isin(failed), cols].sort_values(["seq", "started"])
for c in ["submitted", "started", "finished"]:
    attempts[c] = (attempts[c] * 1000).round(1)
print(attempts.to_string(index=False))
ev = tput.trace.events_frame()
ev = ev[ev["time"] >= t_start]
print("compiles during the workload:", ev.loc[ev["kind"] == "compile_start", "device"].tolist())

# %%
t_fail_tp = ev.query("kind == 'inference_failed'")["time"].iloc[0]
ov.viz.show(ov.viz.fallback_figure(tput, t_fail_tp - 0.03, t_fail_tp + 0.3,
                                   "AUTO (THROUGHPUT): three GPU.0 failures, one CPU compile"))

# %% [markdown]
# ## 5. Runtime fallback off: the error reaches your code
#
# With `ENABLE_RUNTIME_FALLBACK: False` AUTO does not re-run anything: the failed inference's
# error goes to the application. With an `AsyncInferQueue` that error has no callback to go to;
# the queue raises it from its **next** call (`start_async` or `wait_all`).

# %%
off = ov.Core("laptop", seed=0)
compiled_off = off.compile_model(googlenet, "AUTO", {intel_auto.enable_runtime_fallback: False})
off.clock.sleep(10)  # the GPU is serving
off.faults.fail_inference("GPU.0", nth=5)  # ovlab only: the 5th inference from now fails
queue = ov.AsyncInferQueue(compiled_off)
done = []
queue.set_callback(lambda request, userdata: done.append(userdata))

# %% tags=["raises-exception"]
for i in range(20):
    queue.start_async(userdata=i)
    off.clock.sleep(0.03)
queue.wait_all()

# %% [markdown]
# The loop stopped at the `start_async` after the failure, so that request was never started.
# The queue is still usable in ovlab: we carry on from there, and everything except the failed
# request completes.

# %%
print(f"stopped at i = {i}; callbacks so far: {done}")
for j in range(i, 20):
    queue.start_async(userdata=j)
    off.clock.sleep(0.03)
queue.wait_all()
print(f"{len(done)} callbacks; no callback for: {sorted(set(range(20)) - set(done))}")
print("EXECUTION_DEVICES:", compiled_off.get_property(props.execution_devices))

# %% [markdown]
# The GPU stays in use: with the fallback off, a failure does not move AUTO anywhere. The
# application must notice the error, decide what the failed request means (retry it, drop the
# frame), and go on.
#
# About the real runtime: ovlab raises a queue's error once and keeps the queue usable. The real
# queue does not. On OpenVINO 2026.4.1 an exception raised *inside a callback* was measured to
# come out of the next `start_async`/`wait_all`, and the call after that aborted the process. A
# failed *inference* (a Reshape that fails at run time on the CPU) came out of `wait_all` and
# then out of every later `wait_all`, and out of `start_async` whenever the queue picked the failed
# request (`async_infer_queue.cpp:158`). So handle the first error and do not rely on the queue
# afterwards: make a new one.
#
# A single candidate behaves the same even with the fallback on: there is no other device.

# %%
alone = ov.Core("laptop", seed=0)
compiled_alone = alone.compile_model(googlenet, "AUTO:GPU")  # fallback on, one candidate
alone.faults.fail_inference("GPU.0", nth=1)  # ovlab only
lone = compiled_alone.create_infer_request()


def one_inference():
    lone.start_async()
    lone.wait()


print(message(one_inference))

# %% [markdown]
# ## Summary
# - A **compile** failure at start-up is absorbed: AUTO tries the next device while the CPU helper
#   serves; the application sees nothing unless no device is left (claim A03).
# - A **runtime** failure with `ENABLE_RUNTIME_FALLBACK` on (the default): the failed inference is
#   re-run on the next device, which AUTO compiles at that moment; the request gets one callback,
#   just late; the records show the failed attempt and the re-run (claim A14).
# - The failed device leaves the candidates for good; `EXECUTION_DEVICES` names the new device.
#   Inferences failing while the fallback compiles reuse it.
# - With the fallback off, or with a single candidate, the error reaches the caller: an
#   `AsyncInferQueue` raises it from its next call, and the other requests still complete.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** On the `workstation`, compile GoogLeNet-v1 on plain `AUTO` (LATENCY) and wait 10 s, so
# the dGPU `GPU.1` serves. Make its next inference fail and run one inference. On which device
# does the re-run happen?

# %%
answer = None  # a device name, e.g. "CPU"
exercises.check(1, answer)

# %% [markdown]
# **2.** On the laptop with plain `AUTO` (LATENCY), once the GPU serves, call
# `core.faults.fail_inference("GPU.0", nth=5, count=3)` and run 20 requests, one every 30 ms. How
# many inference records have `status == "failed"`?

# %%
answer = None  # an int
exercises.check(2, answer)

# %% [markdown]
# **3.** In section 2, how many milliseconds passed between the end of the failed attempt and the
# start of its re-run? Read it from the table of the two attempts. Which event explains it?

# %%
answer = None  # ms, e.g. 50
exercises.check(3, answer)
