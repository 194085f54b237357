# %% [markdown]
# # 07 · HETERO
#
# The workstation's NPU is fast at convolutions but has no `LRN` layer, and GoogLeNet-v1 has two.
# AUTO can only choose a device that runs the *whole* model; HETERO instead splits one model over
# several devices: every op gets a device (its *affinity*), the model is cut where affinities
# change, each piece is compiled on its device, and one inference runs the pieces one after
# another, moving tensors between them.
#
# **What you will see**
# - The three equivalent ways to name HETERO's devices, and a list of three devices (claim H01).
# - `core.query_model`: which op goes where, greedy, first device wins, and blind to affinities you
#   set (claims H02, H06).
# - Automatic mode compiled: `HETERO_NUMBER_OF_SUBMODELS`, `EXECUTION_DEVICES`, the subgraphs
#   drawn, the tensors that cross devices and what they cost per inference (claim H07).
# - Manual mode and its all-or-nothing rule, and manual + automatic combined, with a bug of the
#   seed's Python snippet fixed (claims H03, H04, H05).
# - Per-device settings with `DEVICE_PROPERTIES`, the `.dot` files of `OPENVINO_HETERO_VISUALIZE`,
#   and performance counters per subgraph in the seed's layout (claims H08, H10, H11).
# - A "difficult topology" that HETERO makes slower, and the manual fix; results equal to one
#   device; the error when no device runs an op (claims H09, H12, H13).
#
# **Why it matters.** HETERO is how a model runs on an accelerator that lacks a few of its ops
# (the NPU here, a VPU in the seed's days), with the CPU as fallback. It is also easy to use
# badly: a split that sends tensors back and forth can be slower than the CPU alone. Knowing how
# the split is made, and how to read it, is what lets you fix it.

# %% [markdown]
# ## Setup
#
# The `workstation` platform: a CPU, an iGPU (`GPU.0`), a dGPU (`GPU.1`) and an NPU that runs
# everything in GoogLeNet-v1 except `LRN`. Two helpers come from ovlab itself (they are not part
# of OpenVINO): the seed's "difficult topology" and a printer of performance counters in the
# seed's layout.

# %%
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.device as device  # on real hardware: openvino.properties.device
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
from ovlab import zoo  # ovlab only: the zoo's fixed sample inputs
from ovlab.labtools import check  # ovlab only: exercise checks
from ovlab.plugins.hetero import difficult_model, format_counters  # ovlab only: lab helpers

core = ov.Core("workstation", seed=0)  # on real hardware: ov.Core()
googlenet = core.read_model("googlenet-v1")  # on real hardware: core.read_model("googlenet-v1.xml")
image = zoo.sample_input("googlenet-v1")  # a fixed 1x3x224x224 float32 input
print(core)

# %% [markdown]
# ## 1. What HETERO is for
#
# The HETERO document (seed 002) gives it two purposes:
# 1. *"Utilize the power of accelerators to process the heaviest parts of the model and to
#    execute unsupported operations on fallback devices, like the CPU."*
# 2. *"Utilize all available hardware more efficiently during one inference."*
#
# The first is the everyday case, and this lab's example: the NPU does GoogLeNet's convolutions,
# the CPU its two `LRN` layers. On its own the NPU cannot take the model at all:

# %%
on_npu = core.query_model(googlenet, "NPU")
missing = [f"{op.get_friendly_name()} ({op.get_type_name()})" for op in googlenet.get_ordered_ops()
           if op.get_friendly_name() not in on_npu]
print("ops the NPU cannot run:", missing)

# %% [markdown]
# The second purpose needs care: one HETERO inference runs its pieces strictly one after another,
# so within one inference only one device works at a time (section 5 shows the timeline).
#
# Two steps make up HETERO (the seed's words): **(1)** give every op an affinity, automatically
# (`query_model`, sections 3-4) or by hand (sections 6-7); **(2)** cut the model into subgraphs,
# compile each on its device and run them, joined by intermediate tensors (sections 4-5).

# %% [markdown]
# ## 2. Naming the devices (claim H01)
#
# HETERO takes a priority list of devices, highest first, in any of three equivalent forms: in the
# device name (`HETERO:GPU,CPU`), as the `MULTI_DEVICE_PRIORITIES` key of the config, or through
# the property object `device.priorities`. In Python, `device.priorities("GPU", "CPU")` builds the
# `(key, value)` pair `("MULTI_DEVICE_PRIORITIES", "GPU,CPU,")`, with a trailing comma that the
# real runtime accepts and reports back as given. On the laptop:

# %%
laptop = ov.Core("laptop", seed=0)
ways = [('"HETERO:GPU,CPU"', "HETERO:GPU,CPU", None),
        ('"HETERO" + MULTI_DEVICE_PRIORITIES', "HETERO", {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"}),
        ('"HETERO" + device.priorities(...)', "HETERO", dict([device.priorities("GPU", "CPU")])),
        ('"HETERO:CPU,GPU" (order swapped)', "HETERO:CPU,GPU", None)]
rows = []
for label, name, config in ways:
    compiled = laptop.compile_model(googlenet, name, config)
    rows.append({"how": label, "EXECUTION_DEVICES": compiled.get_property(props.execution_devices),
                 "HETERO_NUMBER_OF_SUBMODELS": compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"),
                 "MULTI_DEVICE_PRIORITIES": compiled.get_property(device.priorities)})
pd.DataFrame(rows).set_index("how")

# %% [markdown]
# The three forms compile the same way. The laptop's iGPU runs every op of GoogLeNet, so the
# whole model goes to the first device of the list: HETERO gives one submodel, and with the order
# swapped, the CPU takes everything. **The list order is the priority**, not a load balance.
#
# A list may hold more than two devices (the seed's `-d HETERO:MYRIAD,GPU,CPU`). On the
# workstation, `HETERO:NPU,GPU,CPU` gives the NPU all it can run, the GPU what the NPU left (the
# two `LRN`s), and the CPU what both left: nothing here. `EXECUTION_DEVICES` lists the devices
# that actually got a submodel, spelled as in the list (`GPU`, not `GPU.0`).

# %%
rows = []
for name in ["HETERO:NPU,GPU,CPU", "HETERO:NPU,CPU", "HETERO:NPU,GPU.1"]:
    t0 = core.clock.now
    compiled = core.compile_model(googlenet, name)
    rows.append({"device": name, "EXECUTION_DEVICES": compiled.get_property(props.execution_devices),
                 "HETERO_NUMBER_OF_SUBMODELS": compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"),
                 "compile (s)": round(core.clock.now - t0, 1)})
pd.DataFrame(rows).set_index("device")

# %% [markdown]
# Each split gives five submodels, whichever device takes the `LRN`s: the NPU part is cut twice.
# The compile time is the sum of the five compiles, which HETERO runs one after another (table in
# section 4).

# %% [markdown]
# ## 3. Where each op goes: `query_model` (claims H02, H06)
#
# HETERO's automatic mode calls `core.query_model` internally, and you can call it too. On a
# HETERO device it returns a `dict` from each op's friendly name to the device it would get. The
# rule is *greedy*: the first device of the list takes every op it supports, the next device
# takes what is left and it supports, and so on. Constants (weights, and the `axes` input of each
# `LRN`) go with the op that reads them. Counts per op type and device for `HETERO:NPU,CPU`:

# %%
query = core.query_model(googlenet, "HETERO:NPU,CPU")
placed = pd.DataFrame([{"op type": op.get_type_name(), "device": query[op.get_friendly_name()]}
                       for op in googlenet.get_ordered_ops()])
counts = pd.crosstab(placed["op type"], placed["device"], margins=True, margins_name="total")
counts[["NPU", "CPU", "total"]]

# %%
print("ops on the CPU:", sorted(name for name, dev in query.items() if dev == "CPU"))
swapped = core.query_model(googlenet, "HETERO:CPU,NPU")
print("with HETERO:CPU,NPU:", pd.Series(swapped).value_counts().to_dict())

# %% [markdown]
# The first device wins: the NPU keeps every op it can run, even the tiny `MaxPool` right before
# `pool1/norm1`, whatever that costs in transfers later (section 11 shows when that hurts). The
# seed warns about exactly this: the automatic mode *"does not take into account device
# peculiarities"*.
#
# `query_model` asks the devices what they *can* run; it never reads affinities you set
# (claim H06, the seed's note). Here every op of a copy is pinned to the CPU, and the query does
# not change:

# %%
pinned = googlenet.clone()
for op in pinned.get_ops():
    op.get_rt_info()["affinity"] = "CPU"
print("same answer with every affinity set to CPU:",
      core.query_model(pinned, "HETERO:NPU,CPU") == query)

# %% [markdown]
# ## 4. Automatic mode compiled: submodels and subgraphs (claim H07)
#
# With no affinity set on any op, `compile_model` on `HETERO:NPU,CPU` uses the query's answer.
# Connected ops with the same device form one subgraph; every subgraph becomes a submodel named
# `<model>_<index>`, compiled on its device.

# %%
t0 = core.clock.now
auto = core.compile_model(googlenet, "HETERO:NPU,CPU")
print(f"HETERO_NUMBER_OF_SUBMODELS: {auto.get_property('HETERO_NUMBER_OF_SUBMODELS')}")
print(f"EXECUTION_DEVICES: {auto.get_property(props.execution_devices)}")
print(f"compile took {core.clock.now - t0:.1f} s (simulated)")

# %% [markdown]
# The records show the five compiles, one after another (`compile_start` events of `core.trace`):

# %%
events = core.trace.events_frame()
starts = events[(events["kind"] == "compile_start") & (events["time"] >= t0)]
compiles = starts[["model", "device", "seconds"]].rename(columns={"seconds": "compile (s)"})
compiles.round(2).reset_index(drop=True)

# %% [markdown]
# `ov.viz.graph_figure` (ovlab only; OpenVINO writes `.dot` files instead, section 9) draws the
# compiled model: one box per op, laid out by topological depth, hover for names. Coloured by
# device first: the two `LRN` boxes (CPU) sit near the start, after `pool1` and after `conv2`.

# %%
fig = ov.viz.graph_figure(auto, color_by="device",
                          title="GoogLeNet-v1 on HETERO:NPU,CPU: ops by device")
fig.update_layout(width=1100)
ov.viz.show(fig)

# %% [markdown]
# Coloured by subgraph: NPU (`conv1`, `pool1`) → CPU (`pool1/norm1`) → NPU (`conv2`) → CPU
# (`conv2/norm2`) → NPU (everything from `pool2` on). One device, three NPU subgraphs: HETERO never merges two subgraphs
# of the same device when another device's subgraph lies between them.

# %%
fig = ov.viz.graph_figure(auto, color_by="subgraph",
                          title="GoogLeNet-v1 on HETERO:NPU,CPU: ops by subgraph")
fig.update_layout(width=1100)
ov.viz.show(fig)

# %% [markdown]
# ## 5. The tensors between subgraphs, and what they cost
#
# Where a producer and a consumer sit on different devices, HETERO allocates an intermediate
# tensor: the producer's subgraph writes it, the consumer's reads it. We can find these tensors
# from the query alone: every edge whose two ends have different devices. (Weights are never
# transferred: a Constant goes with its reader. The model's input is fed straight to the
# subgraph that reads it.)

# %%
def crossing_tensors(model, affinity):
    """One row per output port read on another device than the one that produces it."""
    rows = []
    for op in model.get_ordered_ops():
        if op.get_type_name() in ("Constant", "Parameter"):
            continue
        for port in op.outputs():
            readers = {affinity[t.get_node().get_friendly_name()]
                       for t in port.get_target_inputs()}
            src = affinity[op.get_friendly_name()]
            for dst in sorted(readers - {src}):
                rows.append({"tensor": op.get_friendly_name(), "from": src, "to": dst,
                             "shape": str(port.get_shape()), "element type":
                             port.get_element_type().get_type_name(),
                             "bytes": int(np.prod(list(port.get_shape()))) *
                             port.get_element_type().get_size()})
    return pd.DataFrame(rows)


crossing = crossing_tensors(googlenet, query)
crossing.set_index("tensor")

# %% [markdown]
# Four tensors cross, about 0.8 to 2.4 MB each. To see what they cost, we run one inference and
# read its records: HETERO leaves one record per subgraph (`subgraph` column of `core.trace`).
# Between two subgraphs the clock runs while the tensor moves. A helper runs inferences without
# reading the results (ovlab computes outputs only when you read them, so timing-only runs are
# quick):

# %%
def run(compiled, n=1):
    """Run n inferences one after another; return the device records of each, per subgraph."""
    request = compiled.create_infer_request()
    x = np.zeros(list(compiled.inputs[0].shape), np.float32)
    out = []
    for _ in range(n):
        request.start_async({0: x})
        request.wait()
        seq = core.trace.inferences[-1].seq
        out.append(sorted((r for r in core.trace.inferences if r.seq == seq),
                          key=lambda r: r.subgraph or 0))
    return out


def latency_ms(compiled, n=6):
    """Mean simulated latency (ms) of n sequential inferences, the first (warm-up) excluded."""
    return 1e3 * float(np.mean([recs[-1].finished - recs[0].submitted
                                for recs in run(compiled, n)[1:]]))


records = run(auto, n=2)[-1]  # the second inference: the first one is slower (warm-up)
t_sub = records[0].submitted
steps = pd.DataFrame([{"subgraph": r.subgraph, "device": r.device,
                       "wait before start (µs)": round((r.started - prev) * 1e6),
                       "run (µs)": round((r.finished - r.started) * 1e6)}
                      for r, prev in zip(records, [t_sub] + [p.finished for p in records][:-1],
                                         strict=True)])
steps.set_index("subgraph")

# %% [markdown]
# The waits before subgraphs 1 to 4 are the transfers. ovlab moves each tensor through a host
# buffer: device → host when its producer ends, host → device before a consumer starts; the CPU
# *is* the host, so its side is free. Each NPU hop costs the NPU link's latency plus bytes over
# its bandwidth (the platform's numbers, ovlab only):

# %%
npu = core.platform.devices["NPU"]  # ovlab only: the NPU's spec
crossing["one hop (µs)"] = [round((npu.link_latency_s + b / (npu.link_gbs * 1e9)) * 1e6)
                            for b in crossing["bytes"]]
transfer_us = steps["wait before start (µs)"].iloc[1:].sum()
latency_us = round((records[-1].finished - t_sub) * 1e6)
print(crossing[["tensor", "from", "to", "bytes", "one hop (µs)"]].to_string(index=False))
print(f"transfers per inference: {transfer_us} µs of {latency_us} µs "
      f"({100 * transfer_us / latency_us:.0f} %)")

# %% [markdown]
# Each row is one hop, and the waits in the records match them. About 8 % of GoogLeNet's
# latency goes into moving tensors here: not much, because only four tensors cross.
#
# The same inference as a timeline: one bar per subgraph, on its device. The gaps are the
# transfers; at any moment only one device works. That is why the seed's second purpose ("all
# available hardware ... during one inference") needs several requests in flight: a HETERO request
# runs its subgraphs strictly in order, but different requests overlap across devices (the CPU
# runs one request's `LRN` while the NPU runs another's convolutions).

# %%
fig = go.Figure()
for r in records:
    fig.add_trace(go.Bar(y=[r.device], x=[(r.finished - r.started) * 1e3],
                         base=[(r.started - t_sub) * 1e3], orientation="h",
                         name=f"subgraph {r.subgraph}"))
fig.update_layout(title="One GoogLeNet inference on HETERO:NPU,CPU: subgraphs in order",
                  barmode="overlay", xaxis_title="simulated time since submit (ms)",
                  yaxis_title="device", legend_title="subgraph", width=800, height=280)
ov.viz.show(fig)

# %% [markdown]
# ## 6. Manual mode (claims H03, H05)
#
# In manual mode you write an affinity on **every** op with `op.get_rt_info()["affinity"]`.
# HETERO then follows the affinities and ignores the priority list. Two models, both compiled on
# `HETERO:NPU,CPU`: one with every op on the CPU, one with every op on the dGPU `GPU.1`, a
# device not even in the list:

# %%
def pin_all(device_name):
    """A fresh GoogLeNet with the same affinity on every op."""
    model = core.read_model("googlenet-v1")
    for op in model.get_ops():
        op.get_rt_info()["affinity"] = device_name
    return model


manual = core.compile_model(pin_all("CPU"), "HETERO:NPU,CPU")
print("all CPU  :", manual.get_property(props.execution_devices),
      manual.get_property("HETERO_NUMBER_OF_SUBMODELS"), "submodel")
on_dgpu = core.compile_model(pin_all("GPU.1"), "HETERO:NPU,CPU")
print("all GPU.1:", on_dgpu.get_property(props.execution_devices),
      on_dgpu.get_property("HETERO_NUMBER_OF_SUBMODELS"), "submodel")

# %% [markdown]
# In ovlab, reading an affinity back gives the string. In OpenVINO the rt_info value is an
# `OVAny`: read it with `op.get_rt_info()["affinity"].astype(str)`.
#
# Manual mode is **all or nothing**: as soon as one op has an affinity, automatic mode is off,
# and an op without one is an error that names it (claim H05). Here every op gets the NPU except
# the `LRN`s, which we "forget". The cells below fail on purpose (tagged `raises-exception`);
# `%xmode Minimal` keeps the traceback to the message.

# %%
# %xmode Minimal

# %% tags=["raises-exception"]
forgot = core.read_model("googlenet-v1")
for op in forgot.get_ops():
    if op.get_type_name() != "LRN":
        op.get_rt_info()["affinity"] = "NPU"
core.compile_model(forgot, "HETERO:NPU,CPU")

# %% [markdown]
# The message says *"eg"*: it names only the first op without an affinity.

# %% [markdown]
# ## 7. Manual and automatic combined (claim H04)
#
# The usual way: ask `query_model` for the automatic answer, change a few entries, write them all
# as affinities, compile. The seed's goal is *"minimizing the number of total subgraphs to
# optimize memory transfers"*. Here we move GoogLeNet's stem (everything up to `pool2/3x3_s2`,
# both `LRN`s included) to the CPU, which leaves one cut instead of four.
#
# **A bug in the seed's Python snippet.** The document's loop reads the queried affinity and then
# writes `"CPU"` anyway:
#
# ```python
# for node in model.get_ops():
#     affinity = supported_ops[node.get_friendly_name()]
#     node.get_rt_info()["affinity"] = "CPU"      # the seed: every op ends up on the CPU
# ```
#
# The C++ version next to it writes `affinity`, which is what was meant. The corrected loop:

# %%
combined_model = core.read_model("googlenet-v1")
supported_ops = core.query_model(combined_model, "HETERO:NPU,CPU")
names = [op.get_friendly_name() for op in combined_model.get_ordered_ops()]
for name in names[:names.index("pool2/3x3_s2") + 1]:  # the stem
    supported_ops[name] = "CPU"
for node in combined_model.get_ops():
    affinity = supported_ops[node.get_friendly_name()]
    node.get_rt_info()["affinity"] = affinity  # the fix: the seed writes "CPU" here
combined = core.compile_model(combined_model, "HETERO:NPU,CPU")
print("EXECUTION_DEVICES:", combined.get_property(props.execution_devices),
      "| submodels:", combined.get_property("HETERO_NUMBER_OF_SUBMODELS"))

# %% [markdown]
# What the seed's loop does instead: the same query and override, then `"CPU"` on every op, so
# the override is lost and the whole model runs on the CPU:

# %%
seed_model = core.read_model("googlenet-v1")
seed_ops = core.query_model(seed_model, "HETERO:NPU,CPU")
seed_ops["pool1/norm1"] = "CPU"
for node in seed_model.get_ops():
    affinity = seed_ops[node.get_friendly_name()]
    node.get_rt_info()["affinity"] = "CPU"  # the seed's line, kept on purpose
seed_compiled = core.compile_model(seed_model, "HETERO:NPU,CPU")
print("seed's loop -> EXECUTION_DEVICES:", seed_compiled.get_property(props.execution_devices),
      "| submodels:", seed_compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"))

# %% [markdown]
# Did fewer cuts pay off? Time per inference (simulated, the mean of 5 after a warm-up):

# %%
timings = pd.DataFrame([
    {"setup": "CPU alone (manual, all CPU)", "submodels": 1, "ms per inference": latency_ms(manual)},
    {"setup": "automatic HETERO:NPU,CPU", "submodels": 5, "ms per inference": latency_ms(auto)},
    {"setup": "combined: stem on CPU", "submodels": 2, "ms per inference": latency_ms(combined)},
]).set_index("setup")
timings.round(1)

# %% [markdown]
# Fewer transfers, but the stem's convolutions (`conv1`, `conv2`) now run on the slower CPU: on GoogLeNet
# the automatic split wins. Moving ops to cut transfers pays off only when the transfers cost
# more than what the moved ops lose; section 11 shows a model where it does.

# %% [markdown]
# ## 8. Per-device settings: `DEVICE_PROPERTIES` (claim H08)
#
# A config given to HETERO reaches every device that knows the key. For settings meant for one
# device, use `device.properties` (`DEVICE_PROPERTIES`): a dict from device to its own config.
# The seed's example, with the NPU in the GPU's role: profiling only on the accelerator, f32
# inference precision only on the CPU.

# %%
config = {device.priorities: "NPU,CPU",
          device.properties: {"NPU": {props.enable_profiling: True},
                              "CPU": {hints.inference_precision: ov.Type.f32}}}
per_device = core.compile_model(googlenet, "HETERO", config)
settings = per_device.get_property(device.properties)
pd.DataFrame({dev: {key: str(values[key]) for key in ["PERF_COUNT", "INFERENCE_PRECISION_HINT",
                                                       "NETWORK_NAME"]}
              for dev, values in settings.items()})

# %% [markdown]
# Each device reports its own settings (`NETWORK_NAME` is its first submodel). The NPU keeps its
# default, f16; the workstation's CPU already defaults to f32 (a CPU with bf16 or
# AMX-FP16 units would not). Profiling is on only where it was asked for: the CPU subgraphs'
# rows come back, but `NOT_RUN` with zero time.

# %%
request = per_device.create_infer_request()
request.infer({0: image})
rows = request.get_profiling_info()
executed = pd.DataFrame([{"subgraph": r.node_name.split(":")[0], "status": r.status.name}
                         for r in rows])
pd.crosstab(executed["subgraph"], executed["status"])

# %% [markdown]
# The seed's Python example does the same with `core.set_property` on each device
# (`core.set_property("NPU", {"PERF_COUNT": "YES"})`, and so on). That works too, but it changes
# the Core for every later compile on that device, not just this HETERO model.

# %% [markdown]
# ## 9. `OPENVINO_HETERO_VISUALIZE`: the `.dot` files (claim H10)
#
# With this environment variable set (any value, even `0`: only its presence counts), HETERO
# writes two GraphViz files into the *current working directory* at each compile:
# `hetero_affinity_<model>.dot` (each op with its device) and `hetero_subgraphs_<model>.dot`
# (each op with its subgraph and device). We compile in a temporary directory and go back, then
# remove the variable so later compiles write nothing.

# %%
home, workdir = os.getcwd(), tempfile.mkdtemp()
os.environ["OPENVINO_HETERO_VISUALIZE"] = "1"
os.chdir(workdir)
try:
    core.compile_model(googlenet, "HETERO:NPU,CPU")
finally:
    os.chdir(home)
    del os.environ["OPENVINO_HETERO_VISUALIZE"]
dot_files = {path.name: path.read_text() for path in sorted(Path(workdir).iterdir())}
shutil.rmtree(workdir)
print(list(dot_files))

# %%
for name, text in dot_files.items():
    lines = text.splitlines()
    print(f"--- {name}: {len(lines)} lines; boxes per device: "
          f"NPU {text.count('device=NPU')}, CPU {text.count('device=CPU')}")
    print("\n".join(lines[:4]))

# %% [markdown]
# Each op box's label holds the friendly name, the unique name, `opset::Type` and `device=`; the
# subgraphs file adds `subgraph=<id>`. To view them: `sudo apt-get install xdot` and
# `xdot hetero_subgraphs_googlenet-v1.dot`, or `dot -Tsvg`. (The real runtime rewrites the files
# at every step of automatic mode and numbers subgraphs with internal ids; ovlab writes the final
# split once.)

# %% [markdown]
# ## 10. Performance counters per subgraph (claim H11)
#
# With profiling on every device, `get_profiling_info()` returns each submodel's rows, prefixed
# `subgraph<i>: `, and ovlab adds each subgraph's input and output transfer as rows of their own,
# like the seed's HDDL example (*"input transfer to DDR"*, *"output transfer from DDR"*).
# `format_counters` prints them in the layout of the samples' `-pc` option. GoogLeNet has over
# 200 rows; we print the transfers and the `LRN`s, and the total:

# %%
profiled = core.compile_model(googlenet, "HETERO:NPU,CPU", {props.enable_profiling: True})
request = profiled.create_infer_request()
for _ in range(2):  # the second inference is a warm one
    request.start_async({0: image})
    request.wait()
counters = format_counters(request.get_profiling_info()).splitlines()
print("\n".join(line for line in counters
                if "EXECUTED" in line and ("transfer" in line or "LRN" in line)))
print(counters[-1])

# %% [markdown]
# Summed per subgraph (its transfers included), the counters account for the whole inference:
# their total is the latency in the records, up to the rounding of each row to whole µs.

# %%
profile = pd.DataFrame([{"subgraph": int(r.node_name.split(":")[0][len("subgraph"):]),
                         "real time (µs)": r.real_time.total_seconds() * 1e6}
                        for r in request.get_profiling_info()])
seq = core.trace.inferences[-1].seq
recs = sorted((r for r in core.trace.inferences if r.seq == seq), key=lambda r: r.subgraph)
per_subgraph = profile.groupby("subgraph")["real time (µs)"].sum().round().astype(int).to_frame()
per_subgraph.insert(0, "device", [r.device for r in recs])
print(per_subgraph.T.to_string())
print(f"counters: {per_subgraph['real time (µs)'].sum()} µs | records: latency "
      f"{round((recs[-1].finished - recs[0].submitted) * 1e6)} µs")

# %% [markdown]
# ## 11. A difficult topology, and its fix (claim H09)
#
# The seed: *"models having activation operations that are not supported on the primary device
# are split by Hetero into multiple sets of subgraphs which leads to suboptimal execution"*, and
# the fix: *"define the heaviest part manually and set the affinity to avoid sending data back
# and forth"*. `difficult_model()` (ovlab only) builds one: a heavy trunk of 3×3 convolutions the
# NPU runs well, then eight light 1×1 convolutions, each followed by a `Clamp` or a `Sigmoid`,
# which the NPU lacks. Automatic mode alternates NPU and CPU through the tail:

# %%
difficult = difficult_model()
hard_auto = core.compile_model(difficult, "HETERO:NPU,CPU")
n_parts = hard_auto.get_property("HETERO_NUMBER_OF_SUBMODELS")
fig = ov.viz.graph_figure(hard_auto, color_by="device", title=f"difficult-topology on "
                          f"HETERO:NPU,CPU (automatic): ops by device, {n_parts} submodels")
ov.viz.show(fig)

# %% [markdown]
# The fix, in combined mode: keep the query's answer for the trunk and put the whole tail (`tail*`,
# the final `gap` and the result) on the CPU. Then we time the three setups.

# %%
fixed_model = difficult_model()
fixed_ops = core.query_model(fixed_model, "HETERO:NPU,CPU")
for name in fixed_ops:
    if name.startswith(("tail", "gap", "features")):
        fixed_ops[name] = "CPU"
for node in fixed_model.get_ops():
    node.get_rt_info()["affinity"] = fixed_ops[node.get_friendly_name()]
hard_fixed = core.compile_model(fixed_model, "HETERO:NPU,CPU")

setups = {"CPU alone": core.compile_model(difficult, "CPU"),
          "HETERO automatic": hard_auto, "HETERO manual (tail on CPU)": hard_fixed}
hard = pd.DataFrame([{"setup": label, "submodels": (compiled.get_property(
                          "HETERO_NUMBER_OF_SUBMODELS") if label != "CPU alone" else 1),
                      "ms per inference": latency_ms(compiled)}
                     for label, compiled in setups.items()]).set_index("setup")
hard.round(2)

# %%
bars = [f"{label}: {n} submodel{'s' if n > 1 else ''}"
        for label, n in zip(hard.index, hard["submodels"], strict=True)]
fig = go.Figure(go.Bar(x=bars, y=hard["ms per inference"], showlegend=False,
                       marker_color=["#7f7f7f", "#d62728", "#2ca02c"]))
for bar, ms in zip(bars, hard["ms per inference"], strict=True):
    fig.add_annotation(x=bar, y=ms, text=f"{ms:.2f} ms", showarrow=False, yshift=12)
fig.update_layout(title="difficult-topology on the workstation: time per inference",
                  xaxis_title="setup", yaxis_title="simulated time per inference (ms)",
                  yaxis_range=[0, 1.25 * hard["ms per inference"].max()], width=820, height=420)
ov.viz.show(fig)

# %% [markdown]
# Automatic HETERO is *slower than the CPU alone*: each of the tail's blocks costs two transfers
# and a submodel start on the NPU, more than the light ops save. Two submodels, one transfer: the
# manual split keeps the NPU's speed on the trunk and beats both.

# %% [markdown]
# ## 12. Same results as one device (claim H12)
#
# HETERO only moves where ops run; the numbers are those of the devices. The CPU computes in f32,
# the NPU in f16, so a split through the NPU differs from the CPU in the last digits, while all
# affinities on the CPU gives the CPU's result exactly. Reading the outputs computes them (a few
# seconds of real NumPy work):

# %%
reference = core.compile_model(googlenet, "CPU")({0: image})[0]
rows = []
for label, compiled in [("CPU alone", None), ("HETERO:NPU,CPU automatic", auto),
                        ("HETERO manual, all CPU", manual)]:
    out = reference if compiled is None else compiled({0: image})[0]
    rel = np.abs(out - reference).max() / np.abs(reference).max()
    rows.append({"compiled": label, "top-1 class": int(out.argmax()),
                 "max relative difference to CPU": f"{rel:.0e}",
                 "identical to CPU": bool(np.array_equal(out, reference))})
pd.DataFrame(rows).set_index("compiled")

# %% [markdown]
# ## 13. When no device runs an op (claim H13)
#
# `query_model` on `HETERO:NPU` alone raises nothing: the `LRN`s are simply absent from the
# answer. Compiling is another matter.

# %%
only_npu = core.query_model(googlenet, "HETERO:NPU")
print(f"{len(only_npu)} of {len(googlenet.get_ops())} ops placed; absent:",
      sorted(set(op.get_friendly_name() for op in googlenet.get_ops()) - set(only_npu)))

# %% tags=["raises-exception"]
core.compile_model(googlenet, "HETERO:NPU")

# %% [markdown]
# *"Default fallback policy"* is the automatic mode; the fix is a fallback device in the list
# (`HETERO:NPU,CPU`), not a custom layer.

# %% [markdown]
# ## Summary
# - HETERO runs one model on several devices: an accelerator for what it supports, a fallback
#   (usually the CPU) for the rest. `HETERO:NPU,CPU`, `MULTI_DEVICE_PRIORITIES` and
#   `device.priorities` name the same list, highest priority first (H01).
# - Automatic mode is `query_model`, greedy: the first device takes everything it can (H02);
#   `query_model` ignores affinities you set (H06).
# - Connected ops of one device form a subgraph; a device may get several; each subgraph is
#   compiled on its device (compile times add up) and they run in order, joined by
#   intermediate tensors whose transfers cost time on every inference (H07). Within one
#   inference one device works at a time; only requests in flight overlap across devices.
# - Manual mode: an affinity on every op, or an error naming one that lacks it (H03, H05);
#   combined: query, override, write *all* (with the queried value, not the seed's `"CPU"`),
#   compile (H04).
# - `DEVICE_PROPERTIES` gives each device its own settings (H08); `OPENVINO_HETERO_VISUALIZE`
#   writes two `.dot` files into the working directory (H10); profiling rows come per subgraph,
#   with transfers (H11).
# - A split into many subgraphs can be slower than one device; pin the heavy part by hand (H09).
#   Results equal one device's within its precision (H12). An op no listed device runs is a
#   compile error (H13).

# %% [markdown]
# ## Exercises
#
# **1.** Build `difficult_model(blocks=4)` (four tail blocks instead of eight) and compile it on
# `HETERO:NPU,CPU` in automatic mode. How many submodels does it get?

# %%
answer = None  # an int

# %%
_c = ov.Core("workstation", seed=0)
_m = _c.compile_model(difficult_model(blocks=4), "HETERO:NPU,CPU")
_ = check(answer, _m.get_property("HETERO_NUMBER_OF_SUBMODELS"),
          explain="the NPU trunk, then NPU and CPU parts alternating through the tail: the NPU "
                  "takes each 1x1 convolution, the CPU each Clamp or Sigmoid.",
          hint="count the subgraphs in the figure of section 11 for 8 blocks, then halve the tail.")

# %% [markdown]
# **2.** Compile GoogLeNet-v1 on `HETERO:NPU,GPU.1` (the dGPU as fallback instead of the CPU).
# How many milliseconds does one warm inference spend in transfers (the waits between
# subgraphs in the records)? Round to 0.1 ms. Before measuring: why should it be more than
# with the CPU?

# %%
answer = None  # milliseconds, e.g. 0.3

# %%
_c = ov.Core("workstation", seed=0)
_m = _c.compile_model(core.read_model("googlenet-v1"), "HETERO:NPU,GPU.1")
_r = _m.create_infer_request()
for _ in range(2):
    _r.start_async({0: image})
    _r.wait()
_recs = sorted((r for r in _c.trace.inferences if r.seq == _c.trace.inferences[-1].seq),
               key=lambda r: r.subgraph)
_waits = [b.started - a.finished for a, b in zip(_recs, _recs[1:], strict=False)]
_ = check(answer, round(sum(_waits) * 1e3, 1),
          explain="each tensor now goes device -> host -> device on both sides: the CPU, being "
                  "the host, made its side free.",
          hint="compile it on core, take run(compiled, 2)[-1] (section 5) and add up the waits "
               "between subgraphs.")

# %% [markdown]
# **3.** In combined mode, take GoogLeNet's automatic answer for `HETERO:NPU,CPU` and move only
# `pool1/3x3_s2` (the `MaxPool` just before `pool1/norm1`) to the CPU. How many tensors now cross
# devices per inference? Use `crossing_tensors` from section 5 on your affinities.

# %%
answer = None  # an int

# %%
_aff = dict(query)
_aff["pool1/3x3_s2"] = "CPU"
_ = check(answer, len(crossing_tensors(googlenet, _aff)),
          explain="the cut moves from after the MaxPool to before it; the count stays the same, "
                  "but the tensor that crosses is the MaxPool's input, four times larger.",
          hint="copy the query's dict, change one entry and call crossing_tensors(googlenet, ...).")
