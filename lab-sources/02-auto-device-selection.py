# %% [markdown]
# # 02 · AUTO device selection
#
# `compile_model(model, "AUTO")` hands the choice of device to OpenVINO. This lab opens that choice
# up: which devices AUTO considers, in which order, how the model's precision filters them, how
# you narrow or reorder the list, what happens when a compile fails, and how several models share
# the devices through `MODEL_PRIORITY`.
#
# **What you will see**
# - The selection logic and priority table of OpenVINO's AUTO documentation page, applied by AUTO
#   on the workstation (CPU, iGPU `GPU.0`, dGPU `GPU.1`, NPU): plain `AUTO` picks the dGPU
#   (claim A01).
# - The precision check with the FP32, FP16 and INT8 variants of one model: INT8 skips the iGPU,
#   FP32 may go to an FP16-only device (claim A02).
# - The equivalent ways to give the candidates, `GPU` as an alias of `GPU.0`, an explicit order,
#   `AUTO:-CPU`, and the NPU only when named (claims A06, A07, A08).
# - A compile failure on the chosen device, and AUTO moving on to the next one (claim A03), and the
#   errors you get for impossible lists.
# - Model priority: the AUTO page's two examples, one of which is misprinted on the page
#   (claim A12).
#
# Claim ids are explained in [CLAIMS.md](CLAIMS.md).
#
# **Why it matters.** "AUTO picks the best device" hides several rules that decide where your model
# actually runs, and a surprise in any of them (an INT8 model silently skipping a GPU, `AUTO:GPU,CPU`
# picking the iGPU on a machine with a dGPU, a low-priority model taking the dGPU) costs
# performance without any error. Every rule below is read from the AUTO plugin's source and shown
# with the public API.

# %% [markdown]
# ## Setup
#
# The workstation preset has one device of each kind. The model is SqueezeNet 1.1, a small
# ImageNet classifier: every device of the workstation, the NPU included, can run all its layers
# (GoogLeNet's `LRN` layers would rule the NPU out, lab 01).

# %%
import pandas as pd

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.properties as props  # on real hardware: import openvino.properties as props
import ovlab.properties.device as device  # on real hardware: openvino.properties.device
import ovlab.properties.hint as hints  # on real hardware: openvino.properties.hint
import ovlab.properties.intel_auto as intel_auto  # on real hardware: openvino.properties.intel_auto
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

core = ov.Core("workstation", seed=0)  # on real hardware: ov.Core()
model = core.read_model("squeezenet1.1")  # on real hardware: core.read_model("squeezenet1.1.xml")
exercises = for_lab("02")
print(core)
pd.set_option("display.max_colwidth", 60)

# %% [markdown]
# ## 1. The selection logic, and plain `AUTO` on the workstation
#
# OpenVINO's [AUTO documentation page](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/auto-device-selection.html) gives four steps: (1) check which devices are available, (2) check
# the model's precision, (3) select the highest-priority device that supports it, using this table,
# (4) if the model is FP32 and no device supports FP32, offload it to a device that supports FP16.
#
# | priority | device | supported model precisions |
# |---|---|---|
# | 1 | dGPU (e.g. Intel Iris Xe MAX) | FP32, FP16, INT8, BIN |
# | 2 | iGPU (e.g. Intel UHD Graphics 620) | FP32, FP16, BIN |
# | 3 | Intel CPU (e.g. Core i7-1165G7) | FP32, FP16, INT8, BIN |
# | 4 | Intel NPU (e.g. Core Ultra) | left out of the default list: name it to use it |
#
# The AUTO source does the same with the devices' own properties (lab 01 rebuilt the table from
# them): GPUs are sorted by `DEVICE_TYPE` (discrete before integrated), the CPU comes last, and the
# NPU is on a block list that applies only when you name no device.
#
# Compile on plain `AUTO` and look at the two properties that tell you what AUTO did:
# `MULTI_DEVICE_PRIORITIES` (`device.priorities`) is the candidate list in AUTO's order, and
# `EXECUTION_DEVICES` is where inferences run *now*.

# %%
compiled = core.compile_model(model, "AUTO")
print(f"compile_model returned at t = {core.clock.now:.2f} s")
print("candidates, in AUTO's order:", compiled.get_property(device.priorities))
print("EXECUTION_DEVICES now:      ", compiled.get_property(props.execution_devices))
core.clock.sleep(30)  # on real hardware: time.sleep(30), long enough for any compile
print(f"EXECUTION_DEVICES at t = {core.clock.now:.0f} s:", compiled.get_property(props.execution_devices))

# %% [markdown]
# No NPU among the candidates, the dGPU first, and the dGPU is the choice. Right after the compile
# `EXECUTION_DEVICES` reads `['(CPU)']`: `compile_model` returned as soon as a CPU copy was ready,
# and the CPU serves until the dGPU has compiled (lab 03 is about that start-up). To see AUTO's
# choice you either wait, as here, or turn the CPU help off with `ENABLE_STARTUP_FALLBACK: False`,
# which makes `compile_model` wait for the chosen device:

# %%
c = ov.Core("workstation", seed=0)
compiled = c.compile_model(model, "AUTO", {intel_auto.enable_startup_fallback: False})
print(f"compile_model returned at t = {c.clock.now:.2f} s on",
      compiled.get_property(props.execution_devices))

# %% [markdown]
# ovlab also records what happened (`core.trace`, ovlab only): a `select` event with the
# candidates AUTO started from, the compiles, and the `switch` to the chosen device.

# %%
events = core.trace.events_frame()  # ovlab only
events["time (s)"] = events["time"].round(3)
events[["time (s)", "kind", "device", "reason", "candidates"]].astype(object).fillna("")

# %% [markdown]
# The same events as a timeline, one bar per compile (red when it failed) and AUTO's switch as a
# dashed line (`ov.viz.compile_figure`, ovlab only; section 5 uses it again; the table behind it
# is `ov.viz.compile_windows(core)`):

# %%
ov.viz.show(ov.viz.compile_figure(core, "Plain AUTO on the workstation: who compiles when"))

# %% [markdown]
# The CPU compiles in a fraction of a second, the dGPU takes seconds; AUTO switches when the dGPU
# is ready. Only two devices compile: AUTO compiles the chosen one and the CPU helper, not every
# candidate.

# %% [markdown]
# ## 2. The model's precision (claim A02)
#
# AUTO labels the model with one precision (`get_model_precision` in the AUTO source): `INT8` if it
# has any `FakeQuantize` op, otherwise the element type of the first convolution's weights (`f32`
# gives `FP32`, `f16` gives `FP16`). The same rule with the public API, on the zoo's three variants
# of SqueezeNet:

# %%
def auto_precision(model):
    """The precision label AUTO gives a model (plugin.cpp, get_model_precision)."""
    ops = model.get_ordered_ops()
    if any(op.get_type_name() == "FakeQuantize" for op in ops):
        return "INT8"
    for op in ops:
        if op.get_type_name() in ("Convolution", "GroupConvolution", "ConvolutionBackpropData",
                                  "GroupConvolutionBackpropData"):
            return {"f32": "FP32", "f16": "FP16"}.get(op.input(1).get_element_type().get_type_name(),
                                                      "FP32")
    return "FP32"


variants = {p: core.read_model(f"squeezenet1.1:{p}") for p in ["FP32", "FP16", "INT8"]}
for p, variant in variants.items():
    print(f"squeezenet1.1:{p} -> AUTO labels it {auto_precision(variant)}")

# %% [markdown]
# A device stays a candidate if its `OPTIMIZATION_CAPABILITIES` contain that label, or if the label
# is FP32 and the device lists FP16 (the page's step 4). The workstation's devices:

# %%
caps = {name: core.get_property(name, device.capabilities) for name in core.available_devices}
for name, values in caps.items():
    print(f"{name:6} {values}")

# %% [markdown]
# The iGPU has no `INT8`, and the NPU has no `FP32`. Now compile each variant with four device
# lists, each on a fresh workstation, and wait until every compile is over. Each cell of the table
# reads "device it runs on (AUTO's ordered candidates)".

# %%
SETTLE_S = 30  # longer than any compile on the workstation


def choice(c, compiled):
    """Wait past every background compile; return 'device (ordered candidates)'."""
    c.clock.sleep(SETTLE_S)  # on real hardware: time.sleep(...)
    return (f"{compiled.get_property(props.execution_devices)[0]} "
            f"({compiled.get_property(device.priorities)})")

# %%
lists = ["AUTO", "AUTO:GPU.0,CPU", "AUTO:NPU,CPU", "AUTO:GPU.0"]
rows = {}
for p, variant in variants.items():
    row = {}
    for name in lists:
        c = ov.Core("workstation", seed=0)
        row[name] = choice(c, c.compile_model(variant, name))
    rows[f"squeezenet1.1:{p}"] = row
pd.DataFrame(rows).transpose()

# %% [markdown]
# What to read here:
# - **INT8 skips the iGPU.** With plain `AUTO` the INT8 model's candidates are `GPU.1,CPU`: `GPU.0`
#   was filtered out (the dGPU lists INT8, so the choice is still the dGPU). With `AUTO:GPU.0,CPU`
#   the INT8 model lands on the CPU although you put the iGPU first.
# - **FP32 goes to an FP16-only device.** The NPU lists FP16 and INT8 but not FP32, and still takes
#   the FP32 model (the NPU computes in f16).
# - **The filter needs a choice.** With a single candidate (`AUTO:GPU.0`) nothing is filtered: the
#   INT8 model goes to the iGPU anyway, although the iGPU does not list INT8.

# %% [markdown]
# ## 3. Ways to give the candidates, and `GPU` = `GPU.0` (claim A06)
#
# The AUTO page lists equivalent ways to tell AUTO which devices it may use: a list after the colon, the
# `device.priorities` property in the compile config (`MULTI_DEVICE_PRIORITIES`), or the same
# property set once on the AUTO plugin with `core.set_property`. `compile_model(model)` with no
# device is `AUTO`. Each row below is a fresh workstation.

# %%
def auto_run(device_name=None, config=None, plugin_config=None):
    """Compile SqueezeNet on a fresh workstation as asked; return AUTO's choice."""
    c = ov.Core("workstation", seed=0)
    if plugin_config is not None:
        c.set_property("AUTO", plugin_config)  # for every later AUTO compile on this Core
    if device_name is None:
        return choice(c, c.compile_model(model))
    return choice(c, c.compile_model(model, device_name, config))

# %%
forms = {
    'compile_model(model)': auto_run(),
    'compile_model(model, "AUTO")': auto_run("AUTO"),
    'compile_model(model, "AUTO:GPU,CPU")': auto_run("AUTO:GPU,CPU"),
    '"AUTO", {device.priorities: "GPU,CPU"}': auto_run("AUTO", {device.priorities: "GPU,CPU"}),
    '"AUTO", dict([device.priorities("GPU", "CPU")])':
        auto_run("AUTO", dict([device.priorities("GPU", "CPU")])),
    'set_property("AUTO", {device.priorities: "GPU,CPU"}), "AUTO"':
        auto_run("AUTO", plugin_config={device.priorities: "GPU,CPU"}),
    'compile_model(model, "AUTO:GPU.0,CPU")': auto_run("AUTO:GPU.0,CPU"),
}
pd.DataFrame({"runs on (candidates)": forms})

# %% [markdown]
# The three `GPU,CPU` forms give the same result; `device.priorities("GPU", "CPU")` even leaves a
# trailing comma (`"GPU,CPU,"`) that AUTO ignores. Two things surprise:
# - **`AUTO:GPU,CPU` picks the iGPU here.** Inside AUTO's list, `GPU` expands to *every* GPU in id
#   order (`GPU.0,GPU.1`), and an explicit list is a priority order: the first device that can run
#   the model wins, so `GPU.0` (the iGPU) beats `GPU.1` (the dGPU). The default order (dGPU first)
#   applies only when you give no list. To prefer the dGPU, name it: `AUTO:GPU.1,CPU`.
# - **`GPU` is an alias of `GPU.0`** when it names one device: `AUTO:GPU.0,CPU` also runs on the
#   iGPU, and so does a direct compile on `GPU`:

# %%
for name in ["GPU", "GPU.0", "GPU.1"]:
    print(f"compile_model(model, {name!r:7}) -> EXECUTION_DEVICES =",
          core.compile_model(model, name).get_property(props.execution_devices))

# %% [markdown]
# ## 4. Order, exclusion and the NPU (claims A01, A07, A08)
#
# An explicit list is respected even when it puts a slow device first; a `-` removes a device
# (and `-GPU` removes every GPU) while keeping the default order for the rest; the NPU is a
# candidate only when you name it.

# %%
cases = ["AUTO", "AUTO:CPU,GPU.1", "AUTO:GPU.0,GPU.1,CPU", "AUTO:-CPU", "AUTO:-GPU", "AUTO:-GPU.1",
         "AUTO:NPU,CPU", "AUTO:NPU,GPU.1,CPU", "AUTO:GPU.1,NPU"]
rows = []
for name in cases:
    c = ov.Core("workstation", seed=0)
    compiled = c.compile_model(model, name)
    returned = c.clock.now
    rows.append({"device string": name, "compile_model returned (s)": round(returned, 2),
                 "EXECUTION_DEVICES right after": compiled.get_property(props.execution_devices),
                 "runs on (candidates)": choice(c, compiled)})
pd.DataFrame(rows).set_index("device string")

# %% [markdown]
# What to read here:
# - `AUTO:CPU,GPU.1` runs on the CPU and `AUTO:GPU.0,GPU.1,CPU` on the iGPU: your order wins over
#   the dGPU > iGPU > CPU default. When the choice is the CPU itself there is nothing to hide:
#   `EXECUTION_DEVICES` says `CPU` (no parentheses) from the start.
# - `AUTO:-CPU` keeps the default order for the GPUs and still leaves the NPU out (the block list
#   applies when you name no device, only exclusions). Without the CPU there is no CPU helper:
#   `compile_model` waits for the whole dGPU compile (the second column) and `EXECUTION_DEVICES`
#   names it at once (lab 03, claim A05). The same holds for `AUTO:GPU.1,NPU`.
# - `AUTO:-GPU` removes both GPUs; `AUTO:-GPU.1` only the dGPU, so the iGPU is chosen.
# - `AUTO:NPU,CPU` makes the NPU a candidate, first in your list, so it is chosen. In the AUTO source
#   the NPU falls in the "others" bucket, which ranks above the CPU; the page's table puts it last.
#   With an explicit list the order is yours anyway.

# %% [markdown]
# ## 5. When the chosen device fails to compile (claim A03)
#
# "If loading the model on the first device fails, AUTO tries the next device in line until one
# succeeds" (the AUTO page). ovlab can make a device fail on demand (`core.faults`, ovlab only; on real
# hardware this is a driver or kernel-compilation error). The dGPU fails its next compile:

# %%
c = ov.Core("workstation", seed=0)
c.faults.fail_compile("GPU.1")  # ovlab only: the next compile on GPU.1 fails
compiled = c.compile_model(model, "AUTO")
print(f"compile_model returned at t = {c.clock.now:.2f} s:",
      compiled.get_property(props.execution_devices))
c.clock.sleep(SETTLE_S)
print(f"at t = {c.clock.now:.0f} s:", compiled.get_property(props.execution_devices))
ev = c.trace.events_frame()
ev["time (s)"] = ev["time"].round(3)
ev[["time (s)", "kind", "device", "reason", "failed"]].astype(object).fillna("")

# %%
ov.viz.show(ov.viz.compile_figure(c, "The dGPU fails, AUTO compiles the iGPU (CPU serving meanwhile)"))

# %% [markdown]
# AUTO selected the dGPU, the compile failed part way, AUTO selected the next device of its
# list (the iGPU, `reason = compile_failed`) and compiled it, while the CPU helper served the whole
# time. Your application saw no error, only a later switch, to the iGPU. If the next device is the
# CPU itself, AUTO does not compile it again: the helper simply keeps serving (exercise 3).

# %% [markdown]
# ## 6. Errors
#
# When no device is left, AUTO raises. Read past the chain of `Exception from ...` lines to the
# message; the texts are the real runtime's, measured on OpenVINO 2026.4.1.

# %%
# %xmode Minimal

# %% [markdown]
# No device left: the `cpu` preset has only a CPU, and `AUTO:-CPU` removes it.

# %% tags=["raises-exception"]
ov.Core("cpu").compile_model(model, "AUTO:-CPU")

# %% [markdown]
# A device no plugin knows is dropped silently; when nothing is left, the error says so:

# %% tags=["raises-exception"]
core.compile_model(model, "AUTO:FOO")

# %% [markdown]
# A virtual device cannot be a candidate of AUTO (the runtime's own grammar, copied):

# %% tags=["raises-exception"]
core.compile_model(model, "AUTO:MULTI,CPU")

# %% [markdown]
# ## 7. Model priority (claim A12)
#
# When several models are compiled on AUTO, `MODEL_PRIORITY` (`hints.model_priority`: HIGH, MEDIUM,
# LOW) keeps the better devices for the more important ones. The rule in the AUTO source
# (`select_device`): each compiled model registers the device it took under its priority; a new
# model skips the devices held by models of *strictly higher* priority and takes the first device
# of its ordered list that is left (the last one, the CPU, if none is). Nothing is ever evicted, so
# the order of compilation matters. The docs add that the property "is not fully supported yet".
#
# **Example 1 of the AUTO page:** HIGH, MEDIUM, LOW, "assuming all devices support all models", gives
# GPU.1, GPU.0, CPU.

# %%
def runs_on(*models):
    """Where each compiled model runs once every compile is over."""
    core.clock.sleep(SETTLE_S)
    return [m.get_property(props.execution_devices)[0] for m in models]


core = ov.Core("workstation", seed=0)
compiled_model0 = core.compile_model(model, "AUTO", {hints.model_priority: hints.Priority.HIGH})
compiled_model1 = core.compile_model(model, "AUTO", {hints.model_priority: hints.Priority.MEDIUM})
compiled_model2 = core.compile_model(model, "AUTO", {hints.model_priority: hints.Priority.LOW})
example1 = runs_on(compiled_model0, compiled_model1, compiled_model2)
print("example 1, HIGH, MEDIUM, LOW ->", example1)

# %% [markdown]
# **Example 2 of the AUTO page** has two versions. Its C++ snippet compiles LOW, MEDIUM, LOW and says
# GPU.1, GPU.1, GPU.0. Its Python snippet compiles HIGH, MEDIUM, LOW (the same as example 1) and
# claims the same GPU.1, GPU.1, GPU.0, which no version of the algorithm can give: a MEDIUM model
# never takes a device a HIGH model holds. We run both, each on a fresh Core, and compare with what
# the page says:

# %%
def example(priorities):
    c = ov.Core("workstation", seed=0)
    models = [c.compile_model(model, "AUTO", {hints.model_priority: p}) for p in priorities]
    c.clock.sleep(SETTLE_S)
    return [m.get_property(props.execution_devices)[0] for m in models]


P = hints.Priority
page_says = ["GPU.1", "GPU.1", "GPU.0"]
pd.DataFrame([
    {"snippet": "C++: LOW, MEDIUM, LOW", "the page says": page_says,
     "runtime gives": example([P.LOW, P.MEDIUM, P.LOW])},
    {"snippet": "Python: HIGH, MEDIUM, LOW", "the page says": page_says,
     "runtime gives": example([P.HIGH, P.MEDIUM, P.LOW])},
]).set_index("snippet")

# %% [markdown]
# The C++ snippet is the right one: the first LOW model takes the dGPU (nobody holds anything);
# the MEDIUM model skips only devices of HIGH models, so it takes the dGPU too; the second LOW
# model skips the MEDIUM model's dGPU and takes the iGPU. The Python snippet's comment was copied
# from the C++ one without its priorities; ovlab follows the runtime.
#
# **One registry per process, and deleting a model releases its device.** OpenVINO keeps this
# registry in a static member of the AUTO plugin: it is shared by every `Core` of the process, so
# running example 2 in the same script after example 1 starts from example 1's devices. ovlab keeps
# one registry per `Core`, so that lab exercises do not disturb each other; to see the
# process-wide behaviour, use one Core. Example 2 (C++) on the Core that still holds example 1's
# models:

# %%
compiled_model3 = core.compile_model(model, "AUTO", {hints.model_priority: P.LOW})
compiled_model4 = core.compile_model(model, "AUTO", {hints.model_priority: P.MEDIUM})
compiled_model5 = core.compile_model(model, "AUTO", {hints.model_priority: P.LOW})
print("example 1's models alive ->", runs_on(compiled_model3, compiled_model4, compiled_model5))

# %% [markdown]
# Now the LOW models skip the dGPU (held by HIGH) and the iGPU (held by MEDIUM) and run on the CPU.
# Deleting a compiled model (`del`, as on real hardware) removes its registration. Delete all six
# and compile example 2 again:

# %%
del compiled_model0, compiled_model1, compiled_model2
del compiled_model3, compiled_model4, compiled_model5
compiled_model3 = core.compile_model(model, "AUTO", {hints.model_priority: P.LOW})
compiled_model4 = core.compile_model(model, "AUTO", {hints.model_priority: P.MEDIUM})
compiled_model5 = core.compile_model(model, "AUTO", {hints.model_priority: P.LOW})
print("after del ->", runs_on(compiled_model3, compiled_model4, compiled_model5))

# %% [markdown]
# The page's result, now that the devices are free again. In a real application, keep the
# important model compiled first (or keep the others alive for less time): priorities only protect
# devices that are held at the moment a model is compiled.

# %% [markdown]
# ## Summary
# - Plain `AUTO` considers every available device except the NPU (and non-Intel GPUs) and orders
#   them dGPU > iGPU > others > CPU; the first one that supports the model's precision is chosen
#   (A01). `MULTI_DEVICE_PRIORITIES` shows the ordered candidates, `EXECUTION_DEVICES` where
#   inferences run now (`(CPU)` while the CPU helps).
# - The precision label is INT8 with any `FakeQuantize`, else the first convolution's weight type.
#   Devices without that capability are dropped (INT8 skips the iGPU), FP32 may go to an FP16
#   device, and nothing is filtered when there is a single candidate (A02).
# - `AUTO:GPU,CPU`, `device.priorities` at compile time and `core.set_property("AUTO", ...)` are
#   equivalent (A06). An explicit list is a priority order, and `GPU` in it means all GPUs in id
#   order; `GPU` alone is `GPU.0`. `-DEV` removes a device (A07); the NPU is used only when named
#   (A08).
# - A failed compile moves AUTO to the next candidate, while the CPU helper serves (A03).
# - `MODEL_PRIORITY` makes a model skip devices held by strictly higher-priority models, depends on
#   the order of compilation, never evicts, and is freed when a compiled model is deleted (A12). The
#   AUTO page's Python example 2 is misprinted; its C++ version matches the runtime.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** On the workstation, an INT8 SqueezeNet (`"squeezenet1.1:INT8"`) is compiled with
# `AUTO:GPU.0,NPU,CPU`. On which device does it end up running?

# %%
answer = None  # a device name, e.g. "CPU"
exercises.check(1, answer)

# %% [markdown]
# **2.** On a fresh workstation Core, three models are compiled on `AUTO` in this order: LOW, then
# HIGH, then MEDIUM. Where does each run? Give a list of three device names.

# %%
answer = None  # e.g. ["GPU.1", "GPU.0", "CPU"]
exercises.check(2, answer)

# %% [markdown]
# **3.** On the workstation both GPUs fail their next compile
# (`fail_compile("GPU.1")` and `fail_compile("GPU.0")`). What does `EXECUTION_DEVICES` of a plain
# `AUTO` model read once everything has settled?

# %%
answer = None  # a list, e.g. ["GPU.0"]
exercises.check(3, answer)
