# %% [markdown]
# # 07 · HETERO
#
# The workstation's NPU is fast at convolutions but has no `LRN` layer, and GoogLeNet-v1 has two.
# AUTO can only choose a device that runs the *whole* model; HETERO instead splits one model over
# several devices: every op gets a device (its *affinity*), the model is cut where affinities
# change, each piece is compiled on its device, and one inference runs the pieces one after
# another, moving tensors between them, as OpenVINO's
# [HETERO documentation page](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/hetero-execution.html) ("the HETERO page" below).
#
# **What you will see**
# - How HETERO's device list and `core.query_model` decide where each op goes (claims H01, H02,
#   H06), and the compiled split: submodels, subgraphs, the tensors that cross devices and what
#   they cost per inference (H07).
# - Manual and combined affinities, with a bug of the HETERO page's Python snippet fixed (H03-H05);
#   per-device settings, `.dot` files and per-subgraph counters (H08, H10, H11).
# - A "difficult topology" that HETERO makes slower, and the manual fix; results equal to one
#   device; the error when no device runs an op (H09, H12, H13).
#
# **Why it matters.** HETERO runs a model on an accelerator that lacks a few of its ops, with the
# CPU as fallback; a split that sends tensors back and forth can be slower than the CPU alone.
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup
#
# The `workstation` platform: a CPU, an iGPU (`GPU.0`), a dGPU (`GPU.1`) and an NPU that runs all
# of GoogLeNet-v1 but `LRN`. Helpers marked "ovlab only" are not part of OpenVINO.

# %%
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from IPython.display import display

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.device as device  # on real hardware: openvino.properties.device
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
from ovlab import zoo  # ovlab only: the zoo's fixed sample inputs
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.sim.labtools import hetero  # ovlab only: this lab's tables and runs
from ovlab.sim.plugins.hetero import difficult_model, format_counters  # ovlab only: lab helpers

core = ov.Core("workstation", seed=0)  # on real hardware: ov.Core()
googlenet = core.read_model("googlenet-v1")  # on real hardware: core.read_model("googlenet-v1.xml")
image = zoo.sample_input("googlenet-v1")  # a fixed 1x3x224x224 float32 input
exercises = for_lab("07")
print(core)

# %% [markdown]
# ## 1. What HETERO is for
#
# The HETERO page gives it two purposes: *"Utilize the power of accelerators to process the
# heaviest parts of the model and to execute unsupported operations on fallback devices, like the
# CPU"*, and *"Utilize all available hardware more efficiently during one inference"*. The first is
# this lab's example: the NPU does GoogLeNet's convolutions, the CPU its two `LRN` layers. On its
# own the NPU cannot take the model at all:

# %%
on_npu = core.query_model(googlenet, "NPU")
missing = [f"{op.get_friendly_name()} ({op.get_type_name()})" for op in googlenet.get_ordered_ops()
           if op.get_friendly_name() not in on_npu]
print("ops the NPU cannot run:", missing)

# %% [markdown]
# The second purpose needs care: one inference runs its pieces strictly one after another
# (section 5). HETERO works in two steps: **(1)** give every op an affinity, automatically
# (`query_model`) or by hand; **(2)** cut the model into subgraphs, compile each on its device and
# run them, joined by intermediate tensors.
#
# ## 2. Naming the devices (claim H01)
#
# HETERO takes a priority list of devices, highest first, in three equivalent forms: in the device
# name (`HETERO:GPU,CPU`), as the `MULTI_DEVICE_PRIORITIES` key, or through `device.priorities`
# (whose `("MULTI_DEVICE_PRIORITIES", "GPU,CPU,")` pair has a trailing comma the real runtime
# accepts). On the laptop first, then lists of three devices on the workstation (the page's
# example is `-d HETERO:MYRIAD,GPU,CPU`):

# %%
laptop = ov.Core("laptop", seed=0)
ways = [('"HETERO:GPU,CPU"', laptop, "HETERO:GPU,CPU", None),
        ('"HETERO" + MULTI_DEVICE_PRIORITIES', laptop, "HETERO",
         {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"}),
        ('"HETERO" + device.priorities(...)', laptop, "HETERO",
         dict([device.priorities("GPU", "CPU")])),
        ('"HETERO:CPU,GPU" (order swapped)', laptop, "HETERO:CPU,GPU", None),
        ("HETERO:NPU,GPU,CPU (workstation)", core, "HETERO:NPU,GPU,CPU", None),
        ("HETERO:NPU,CPU (workstation)", core, "HETERO:NPU,CPU", None),
        ("HETERO:NPU,GPU.1 (workstation)", core, "HETERO:NPU,GPU.1", None)]
rows = []
for label, machine, name, config in ways:
    t0 = machine.clock.now
    compiled = machine.compile_model(googlenet, name, config)
    rows.append({"how": label, "EXECUTION_DEVICES": compiled.get_property(props.execution_devices),
                 "HETERO_NUMBER_OF_SUBMODELS": compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"),
                 "MULTI_DEVICE_PRIORITIES": compiled.get_property(device.priorities),
                 "compile (s)": round(machine.clock.now - t0, 1)})
pd.DataFrame(rows).set_index("how")

# %% [markdown]
# The laptop's iGPU runs every op of GoogLeNet, so the whole model goes to the first device of the
# list: one submodel, and with the order swapped the CPU takes everything. **The list order is the
# priority**, not a load balance. On the workstation the NPU takes all it can and the next device
# the two `LRN`s; `EXECUTION_DEVICES` lists the devices that got a submodel, spelled as in the list.
# Each split gives five submodels (the NPU part is cut twice), compiled one after another.

# %% [markdown]
# ## 3. Where each op goes: `query_model` (claims H02, H06)
#
# HETERO's automatic mode calls `core.query_model`, and you can call it too: on a HETERO device it
# returns a `dict` from each op's friendly name to its device. The rule is *greedy*: the first
# device takes every op it supports, the next device what is left, and so on; constants go with the
# op that reads them. Counts per op type and device for `HETERO:NPU,CPU`:

# %%
query = core.query_model(googlenet, "HETERO:NPU,CPU")
placed = pd.DataFrame([{"op type": op.get_type_name(), "device": query[op.get_friendly_name()]}
                       for op in googlenet.get_ordered_ops()])
print("ops on the CPU:", sorted(name for name, dev in query.items() if dev == "CPU"))
print("with HETERO:CPU,NPU:",
      pd.Series(core.query_model(googlenet, "HETERO:CPU,NPU")).value_counts().to_dict())
pd.crosstab(placed["op type"], placed["device"], margins=True, margins_name="total")[
    ["NPU", "CPU", "total"]]

# %% [markdown]
# The first device wins: the NPU keeps every op it can run, even the tiny `MaxPool` right before
# `pool1/norm1`, whatever that costs in transfers (section 11 shows when that hurts); the page warns
# that automatic mode *"does not take into account device peculiarities"*. And `query_model` asks
# what the devices *can* run; it never reads affinities you set (H06). Every op of a copy pinned to
# the CPU, and the query does not change:

# %%
pinned = googlenet.clone()
for op in pinned.get_ops():
    op.get_rt_info()["affinity"] = "CPU"
print("same answer with every affinity set to CPU:",
      core.query_model(pinned, "HETERO:NPU,CPU") == query)

# %% [markdown]
# ## 4. Automatic mode compiled: submodels and subgraphs (claim H07)
#
# With no affinity set, `compile_model` on `HETERO:NPU,CPU` uses the query's answer. Connected ops
# with the same device form one subgraph; each becomes a submodel `<model>_<index>` compiled on its
# device. The compiles, from the records (`compile_start` events of `core.trace`):

# %%
t0 = core.clock.now
auto = core.compile_model(googlenet, "HETERO:NPU,CPU")
print(f"HETERO_NUMBER_OF_SUBMODELS: {auto.get_property('HETERO_NUMBER_OF_SUBMODELS')}, "
      f"EXECUTION_DEVICES: {auto.get_property(props.execution_devices)}, "
      f"compile took {core.clock.now - t0:.1f} s (simulated)")
events = core.trace.events_frame()
starts = events[(events["kind"] == "compile_start") & (events["time"] >= t0)]
starts[["model", "device", "seconds"]].rename(columns={"seconds": "compile (s)"}).round(2)

# %% [markdown]
# `ov.viz.graph_figure` (ovlab only; OpenVINO writes `.dot` files instead, section 9) draws the
# compiled model: one box per op, laid out by topological depth, coloured by subgraph, whose
# legend names each subgraph's device; hover for names. NPU (`conv1`, `pool1`) → CPU
# (`pool1/norm1`) → NPU (`conv2`) → CPU (`conv2/norm2`) → NPU (the rest): the two CPU boxes are
# drawn larger. HETERO never merges two subgraphs of one device when another device's lies between.

# %%
ov.viz.show(ov.viz.graph_figure(auto, color_by="subgraph",
                                title="GoogLeNet-v1 on HETERO:NPU,CPU: ops by subgraph"))

# %% [markdown]
# ## 5. The tensors between subgraphs, and what they cost
#
# Where a producer and a consumer sit on different devices, HETERO allocates an intermediate
# tensor. `hetero.crossing_tensors` (ovlab only) finds them from the affinities alone, and prices
# one hop of each over the NPU's link: latency + bytes / bandwidth (the platform's numbers). ovlab
# moves each tensor through a host buffer, device → host → device; the CPU *is* the host, so its
# side is free.

# %%
npu = core.platform.devices["NPU"]  # ovlab only: the NPU's spec
crossing = hetero.crossing_tensors(googlenet, query, link=npu)
crossing.set_index("tensor")

# %% [markdown]
# One inference's records, one per subgraph (`hetero.subgraph_records`; the second inference, as
# the first pays a warm-up): the waits before subgraphs 1 to 4 are the transfers, and they match the
# hops above. As a timeline: the gaps are the transfers, and at any moment only one device works.

# %%
records = hetero.subgraph_records(auto, n=2)[-1]
latency_us = round((records[-1].finished - records[0].submitted) * 1e6)
transfer_us = round(hetero.transfer_ms(records) * 1e3)
print(f"transfers per inference: {transfer_us} µs of {latency_us} µs "
      f"({100 * transfer_us / latency_us:.0f} %)")
display(hetero.steps_table(records))
ov.viz.show(ov.viz.subgraph_timeline_figure(
    records, "One GoogLeNet inference on HETERO:NPU,CPU: subgraphs in order"))

# %% [markdown]
# Only four tensors cross, so transfers are a small share of the latency. The page's second
# purpose needs several requests in flight: different requests overlap across devices.
#
# ## 6. Manual mode (claims H03, H05)
#
# In manual mode you write an affinity on **every** op with `op.get_rt_info()["affinity"]`; HETERO
# then follows them and ignores the priority list. Every op on the CPU, then every op on the dGPU
# `GPU.1`, a device not even in the list:

# %%
def pin_all(device_name):
    """A fresh GoogLeNet with the same affinity on every op."""
    model = core.read_model("googlenet-v1")
    for op in model.get_ops():
        op.get_rt_info()["affinity"] = device_name
    return model


manual = core.compile_model(pin_all("CPU"), "HETERO:NPU,CPU")
on_dgpu = core.compile_model(pin_all("GPU.1"), "HETERO:NPU,CPU")
for label, compiled in [("all CPU", manual), ("all GPU.1", on_dgpu)]:
    print(f"{label:9}: {compiled.get_property(props.execution_devices)}, "
          f"{compiled.get_property('HETERO_NUMBER_OF_SUBMODELS')} submodel")

# %% [markdown]
# (In OpenVINO the rt_info value is an `OVAny`: read it back with `.astype(str)`.) Manual mode is
# **all or nothing**: once one op has an affinity, automatic mode is off, and an op without one is
# an error that names it (H05). Every op on the NPU except the `LRN`s, which we "forget" (the cell
# fails on purpose; the message says *"eg"* and names only the first such op):

# %% tags=["raises-exception"]
# %xmode Minimal
forgot = core.read_model("googlenet-v1")
for op in forgot.get_ops():
    if op.get_type_name() != "LRN":
        op.get_rt_info()["affinity"] = "NPU"
core.compile_model(forgot, "HETERO:NPU,CPU")

# %% [markdown]
# ## 7. Manual and automatic combined (claim H04)
#
# The usual way: ask `query_model` for the automatic answer, change a few entries, write them all
# as affinities, compile. The page's goal is *"minimizing the number of total subgraphs to optimize
# memory transfers"*. Here GoogLeNet's stem (up to `pool2/3x3_s2`, both `LRN`s included) moves to
# the CPU, which leaves one cut instead of four.
#
# **A bug in the HETERO page's Python snippet.** Its loop reads the queried affinity and then
# writes `"CPU"` anyway:
#
# ```python
# for node in model.get_ops():
#     affinity = supported_ops[node.get_friendly_name()]
#     node.get_rt_info()["affinity"] = "CPU"      # the page: every op ends up on the CPU
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
    node.get_rt_info()["affinity"] = affinity  # the fix: the page writes "CPU" here
combined = core.compile_model(combined_model, "HETERO:NPU,CPU")
print("EXECUTION_DEVICES:", combined.get_property(props.execution_devices),
      "| submodels:", combined.get_property("HETERO_NUMBER_OF_SUBMODELS"))

# %% [markdown]
# What the page's loop does instead: the same query and override, then `"CPU"` on every op, so the
# override is lost and the whole model runs on the CPU:

# %%
page_model = core.read_model("googlenet-v1")
page_ops = core.query_model(page_model, "HETERO:NPU,CPU")
page_ops["pool1/norm1"] = "CPU"
for node in page_model.get_ops():
    affinity = page_ops[node.get_friendly_name()]
    node.get_rt_info()["affinity"] = "CPU"  # the page's line, kept on purpose
page_compiled = core.compile_model(page_model, "HETERO:NPU,CPU")
print("the page's loop -> EXECUTION_DEVICES:", page_compiled.get_property(props.execution_devices),
      "| submodels:", page_compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"))

# %% [markdown]
# Did fewer cuts pay off? Time per inference (simulated, the mean of 5 after a warm-up,
# `hetero.mean_latency_ms`):

# %%
pd.DataFrame([
    {"setup": "CPU alone (manual, all CPU)", "submodels": 1,
     "ms per inference": hetero.mean_latency_ms(manual)},
    {"setup": "automatic HETERO:NPU,CPU", "submodels": 5,
     "ms per inference": hetero.mean_latency_ms(auto)},
    {"setup": "combined: stem on CPU", "submodels": 2,
     "ms per inference": hetero.mean_latency_ms(combined)},
]).set_index("setup").round(1)

# %% [markdown]
# Fewer transfers, but the stem's convolutions now run on the slower CPU: on GoogLeNet the
# automatic split wins. Moving ops to cut transfers pays off only when the transfers cost more than
# what the moved ops lose; section 11 shows a model where they do.
#
# ## 8. Per-device settings: `DEVICE_PROPERTIES` (claim H08)
#
# A config given to HETERO reaches every device that knows the key. For one device's settings, use
# `device.properties` (`DEVICE_PROPERTIES`): the page's example, with the NPU in the GPU's role,
# puts profiling only on the accelerator and f32 inference precision only on the CPU. Each device
# reports its own settings, and the profiling rows of one inference show which subgraphs were
# profiled (the CPU's come back `NOT_RUN`):

# %%
config = {device.priorities: "NPU,CPU",
          device.properties: {"NPU": {props.enable_profiling: True},
                              "CPU": {hints.inference_precision: ov.Type.f32}}}
per_device = core.compile_model(googlenet, "HETERO", config)
settings = per_device.get_property(device.properties)
display(pd.DataFrame({dev: {key: str(values[key]) for key in ["PERF_COUNT", "INFERENCE_PRECISION_HINT",
                                                              "NETWORK_NAME"]}
                      for dev, values in settings.items()}))
request = per_device.create_infer_request()
request.start_async({0: image})  # outputs are not read: profiling needs no numerics
request.wait()
executed = pd.DataFrame([{"subgraph": r.node_name.split(":")[0], "status": r.status.name}
                         for r in request.get_profiling_info()])
pd.crosstab(executed["subgraph"], executed["status"])

# %% [markdown]
# The NPU keeps its default, f16; the workstation's CPU already defaults to f32. (The page's Python
# example uses `core.set_property` per device instead, which changes every later compile.)
#
# ## 9. `OPENVINO_HETERO_VISUALIZE`: the `.dot` files (claim H10)
#
# With this environment variable set (any value: only its presence counts), HETERO writes two
# GraphViz files into the *current working directory* at each compile: `hetero_affinity_<model>.dot`
# (each op with its device) and `hetero_subgraphs_<model>.dot` (with its subgraph too). We compile
# in a temporary directory, then remove the variable:

# %%
scratch = tempfile.TemporaryDirectory(prefix="ovlab-lab07-")  # removed with the kernel
home, workdir = os.getcwd(), scratch.name
os.environ["OPENVINO_HETERO_VISUALIZE"] = "1"
os.chdir(workdir)
try:
    core.compile_model(googlenet, "HETERO:NPU,CPU")
finally:
    os.chdir(home)
    del os.environ["OPENVINO_HETERO_VISUALIZE"]
dot_files = {path.name: path.read_text() for path in sorted(Path(workdir).iterdir())}
shutil.rmtree(workdir)
for name, text in dot_files.items():
    lines = text.splitlines()
    print(f"--- {name}: {len(lines)} lines; boxes per device: "
          f"NPU {text.count('device=NPU')}, CPU {text.count('device=CPU')}")
    print("\n".join(lines[:4]))

# %% [markdown]
# View them with `xdot` or `dot -Tsvg` (GraphViz). The real runtime rewrites the files at every
# step of automatic mode; ovlab writes the final split once.
#
# ## 10. Performance counters per subgraph (claim H11)
#
# With profiling on every device, `get_profiling_info()` returns each submodel's rows, prefixed
# `subgraph<i>: `, and ovlab adds each subgraph's input and output transfer as rows of their own,
# like the page's HDDL example (*"input transfer to DDR"*). `format_counters` prints them in the
# layout of the samples' `-pc` option; below, the transfers and `LRN`s of a warm inference, the
# total, and the rows summed per subgraph beside the records' latency:

# %%
profiled = core.compile_model(googlenet, "HETERO:NPU,CPU", {props.enable_profiling: True})
request = profiled.create_infer_request()
for _ in range(2):  # the second inference is a warm one
    request.start_async({0: image})
    request.wait()
recs = sorted((r for r in core.trace.inferences if r.seq == core.trace.inferences[-1].seq),
              key=lambda r: r.subgraph)
counters = format_counters(request.get_profiling_info()).splitlines()
print("\n".join(line for line in counters
                if "EXECUTED" in line and ("transfer" in line or "LRN" in line)))
print(counters[-1])
per_subgraph = hetero.counters_per_subgraph(request, recs)
print(per_subgraph.T.to_string())
print(f"counters: {per_subgraph['real time (µs)'].sum()} µs | records: latency "
      f"{round((recs[-1].finished - recs[0].submitted) * 1e6)} µs")

# %% [markdown]
# ## 11. A difficult topology, and its fix (claim H09)
#
# The page: *"models having activation operations that are not supported on the primary device are
# split by Hetero into multiple sets of subgraphs which leads to suboptimal execution"*; the fix:
# *"define the heaviest part manually and set the affinity to avoid sending data back and forth"*.
# `difficult_model()` (ovlab only) builds one: a heavy trunk of 3×3 convolutions the NPU runs well,
# then eight light 1×1 convolutions, each followed by a `Clamp` or a `Sigmoid`, which the NPU lacks.
# Automatic mode alternates NPU and CPU through the tail:

# %%
difficult = difficult_model()
hard_auto = core.compile_model(difficult, "HETERO:NPU,CPU")
n_parts = hard_auto.get_property("HETERO_NUMBER_OF_SUBMODELS")
ov.viz.show(ov.viz.graph_figure(hard_auto, color_by="device", title=f"difficult-topology on "
                                f"HETERO:NPU,CPU (automatic): ops by device, {n_parts} submodels"))

# %% [markdown]
# The fix, in combined mode: keep the query's answer for the trunk and put the whole tail (`tail*`,
# the final `gap` and the result) on the CPU. Then the three setups, timed:

# %%
fixed_model = difficult_model()
fixed_ops = core.query_model(fixed_model, "HETERO:NPU,CPU")
for name in fixed_ops:
    if name.startswith(("tail", "gap", "features")):
        fixed_ops[name] = "CPU"
for node in fixed_model.get_ops():
    node.get_rt_info()["affinity"] = fixed_ops[node.get_friendly_name()]
setups = {"CPU alone": core.compile_model(difficult, "CPU"), "HETERO automatic": hard_auto,
          "HETERO manual (tail on CPU)": core.compile_model(fixed_model, "HETERO:NPU,CPU")}
hard = pd.DataFrame([{"setup": label, "submodels": (compiled.get_property(
                          "HETERO_NUMBER_OF_SUBMODELS") if label != "CPU alone" else 1),
                      "ms per inference": hetero.mean_latency_ms(compiled)}
                     for label, compiled in setups.items()]).set_index("setup")
bars = [f"{label}: {n} submodel{'s' if n > 1 else ''}"
        for label, n in zip(hard.index, hard["submodels"], strict=True)]
fig = go.Figure(go.Bar(x=bars, y=hard["ms per inference"], showlegend=False,
                       marker_color=["#7f7f7f", "#d62728", "#2ca02c"]))
for bar, ms in zip(bars, hard["ms per inference"], strict=True):
    fig.add_annotation(x=bar, y=ms, text=f"{ms:.2f} ms", showarrow=False, yshift=12)
fig.update_layout(title="difficult-topology on the workstation: time per inference",
                  xaxis_title="setup", yaxis_title="simulated time per inference (ms)",
                  yaxis_range=[0, 1.25 * hard["ms per inference"].max()], height=420)
ov.viz.show(fig)

# %% [markdown]
# Automatic HETERO is *slower than the CPU alone*: each tail block costs two transfers and a
# submodel start on the NPU, more than the light ops save. The manual split keeps the NPU's speed
# on the trunk with a single transfer, and beats both.

# %% [markdown]
# ## 12. Same results as one device (claim H12)
#
# HETERO only moves where ops run; the numbers are those of the devices. The CPU computes in f32,
# the NPU in f16, so a split through the NPU differs from the CPU in the last digits, however many
# times the data crosses. The three setups of section 11 on one input (the automatic split hands
# the tensor between NPU and CPU at every tail block); reading the outputs computes them with
# NumPy:

# %%
x = np.random.default_rng(0).standard_normal(list(difficult.inputs[0].shape)).astype(np.float32)
reference = setups["CPU alone"]({0: x})[0]
rows = []
for label, compiled in setups.items():
    out = compiled({0: x})[0]
    rel = np.abs(out - reference).max() / np.abs(reference).max()
    rows.append({"compiled": label, "top-1 index": int(out.argmax()),
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
# - HETERO runs one model on several devices, in the priority order of its list (H01). Automatic
#   mode is `query_model`, greedy, blind to affinities you set (H02, H06).
# - Connected ops of one device form a subgraph, compiled on its device; subgraphs run in order,
#   joined by tensors whose transfers cost time on every inference (H07).
# - Manual mode needs an affinity on every op (H03, H05); combined mode writes the query's answer
#   with a few changes (H04). `DEVICE_PROPERTIES`, `.dot` files and per-subgraph counters (H08,
#   H10, H11).
# - Many subgraphs can be slower than one device: pin the heavy part by hand (H09). Results equal
#   one device's within its precision (H12); an op no listed device runs is a compile error
#   (H13).

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** Build `difficult_model(blocks=4)` (four tail blocks instead of eight) and compile it on
# `HETERO:NPU,CPU` in automatic mode. How many submodels does it get?

# %%
answer = None  # an int
exercises.check(1, answer)

# %% [markdown]
# **2.** Compile GoogLeNet-v1 on `HETERO:NPU,GPU.1` (the dGPU as fallback instead of the CPU), on
# any workstation Core. How many milliseconds does one warm inference spend in transfers (the waits
# between subgraphs)? `hetero.subgraph_records(compiled, 2)[-1]` gives the records of a warm
# inference and `hetero.transfer_ms(records)` adds up the waits. Before measuring: why should it be
# more than with the CPU?

# %%
answer = None  # milliseconds, e.g. 0.3
exercises.check(2, answer)

# %% [markdown]
# **3.** In combined mode, take GoogLeNet's automatic answer for `HETERO:NPU,CPU` (`query`) and
# move only `pool1/3x3_s2` (the `MaxPool` just before `pool1/norm1`) to the CPU. How many tensors
# now cross devices per inference? Use `hetero.crossing_tensors` on your affinities.

# %%
answer = None  # an int
exercises.check(3, answer)
