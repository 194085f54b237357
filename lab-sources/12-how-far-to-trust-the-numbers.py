# %% [markdown]
# # 12 · How far to trust the numbers
#
# Every time in these labs is simulated: a cost model turns a model's layers into milliseconds on
# a virtual device. A simulator that is off by 5x teaches wrong intuitions, so this lab puts
# ovlab's figures next to real ones and states the error, as the best simulators of the field do
# (Vidur, MLSys'24, reports under 9 % against real runs).
#
# **What you will see**
# - The `cpu` preset beside the real OpenVINO CPU plugin on the one machine it copies: every zoo
#   model, FP32 and INT8, latency and throughput, and the ratio.
# - Your machine, live: the real runtime beside `this-machine`, the platform ovlab measures on the
#   computer you run this notebook on.
# - Why a measurement on a shared machine needs care: the same model, timed while other
#   programs ran and while they did not.
# - What a device fitted on *one* model predicts for the others: the error to expect from the
#   presets of Intel's published platforms, which were fitted on ResNet-50 alone.
# - Leave one model out: each model's in-sample ratio beside its held-out one, the error for each
#   kind of device, and how to run the published check on rows nothing was fitted on.
# - Those presets against Intel's ResNet-50 rows, and the shared power budget of CPU + iGPU.
# - What the cost model includes, what it leaves out, and how to make a preset of your own machine.
#
# Sections 1-7 read the measurements the benchmarks stored (`benchmarks/results/`), so they print
# the same numbers on every run; section 8 times the real runtime on your machine, live. This lab shows
# no claims of its own; the claim ids of the other labs are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## Setup

# %%
import json
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go

import ovlab as ov  # on real hardware: import openvino as ov
from ovlab.sim.calibration.validation import latest_results  # ovlab only
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.tools.benchmark import run as benchmark_app  # ovlab only: benchmark_app, simulated

exercises = for_lab("12")

fidelity = json.loads(latest_results("fidelity").read_text())
published = json.loads(latest_results("presets").read_text())
machine = fidelity["machine"]
print(f"measured {fidelity['date']} on {machine['cpu']} ({machine['cpus']} vCPUs), "
      f"OpenVINO {machine['openvino']}")

# %% [markdown]
# ## 1. The `cpu` preset beside the real runtime
#
# The `cpu` preset is a **named snapshot**: the fitted copy of one virtual machine on one day, the
# 2-vCPU AMD EPYC (AVX-512 with BF16) under KVM where this project was built, measured on
# 2026-11-24 with OpenVINO 2026.4.1 (the line above). It is not "your machine", and not even "that
# machine type": a cloud VM's name and flags do not fix its speed. On 2026-12-07 a VM that
# reported the same CPU name, the same flags and the same default precision ran the real plugin
# **twice as slowly** (the cell below). `ov.Core("this-machine")` measures the CPU you run on
# (section 8): that is the way to get your CPU.

# %%
drift = json.loads(Path("../benchmarks/results/cpu-preset-drift-2026-12-07.json").read_text())
for day in drift["days"]:
    print(f"{day['date']}  {day['cpu']}: googlenet-v1 FP32 latency {day['real_latency_ms']} ms"
          f"  ({day['role']})")
later = drift["on_2026_12_07"]
print(f"on 2026-12-07 the `cpu` preset read {later['cpu_preset_latency_ratio'][0]}-"
      f"{later['cpu_preset_latency_ratio'][1]} of the real latency and "
      f"{later['cpu_preset_throughput_ratio'][0]}-{later['cpu_preset_throughput_ratio'][1]}x its "
      f"throughput; `this-machine` read {later['this_machine_latency_ratio']['googlenet-v1']} and "
      f"{later['this_machine_latency_ratio']['resnet-50']} (every held-out model within "
      f"{later['this_machine_held_out_range'][0]}-{later['this_machine_held_out_range'][1]})")

# %% [markdown]
# So the table below says how well the cost model copies the machine it was fitted on, on the
# day it was fitted; it does not promise those milliseconds on a machine with the same name.
#
# `benchmarks/bench_fidelity.py` ran, in one process, the real `openvino` CPU plugin and ovlab's
# `cpu` preset on the same graphs (the zoo's layers and weights, built once with each runtime's
# opset). Latency is the LATENCY hint with one synchronous request (the median); throughput is
# the THROUGHPUT hint with `OPTIMAL_NUMBER_OF_INFER_REQUESTS` asynchronous requests at batch 1.
# On that AVX512_BF16 CPU the real plugin computes FP32 models in bf16, and so does the preset.
# The "ovlab" column is the `cpu` preset's figure stored with the measurements (the test
# `tests/runtime/test_calibration_cpu.py` simulates every row again, so it stays current; the
# notebook reads it, because building all nine models twice would take a gigabyte).

# %%
rows = []
for r in fidelity["rows"]:
    unit = "ms" if r["mode"] == "latency" else "FPS"
    rows.append({"model": f"{r['model']}:{r['precision']}", "mode": r["mode"],
                 "measured": f"{r['measured_quiet']:.4g} {unit}", "ovlab": f"{r['ovlab']:.4g} {unit}",
                 "ratio": r["ovlab"] / r["measured_quiet"]})
table = pd.DataFrame(rows)
inside = table["ratio"].between(0.8, 1.25)
table["ratio"] = table["ratio"].round(2)
print(f"{inside.sum()} of {len(table)} ratios within 0.8-1.25; median |error| "
      f"{(table['ratio'] - 1).abs().median():.0%}, worst ratio "
      f"{max(table['ratio'].max(), 1 / table['ratio'].min()):.2f}x")
table.set_index(["model", "mode"])

# %% [markdown]
# The ratios as a picture: one bar per model, precision and mode; the band is 0.8-1.25.

# %%
fig = go.Figure()
for mode, colour in [("latency", "#1f77b4"), ("throughput", "#ff7f0e")]:
    part = table[table["mode"] == mode]
    fig.add_bar(x=part["model"], y=part["ratio"], name=mode, marker_color=colour)
for level in (0.8, 1.0, 1.25):
    fig.add_scatter(x=list(table["model"].unique()), y=[level] * table["model"].nunique(),
                    mode="lines", line={"color": "grey", "dash": "dot" if level != 1 else "solid"},
                    name=f"ratio {level}", showlegend=level == 0.8)
fig.update_layout(title="ovlab's cpu preset / the real OpenVINO CPU plugin",
                  yaxis_title="ratio (simulated / measured)", xaxis_title="model:precision",
                  barmode="group", height=380)
ov.viz.show(fig)

# %% [markdown]
# ## 2. Measuring on a shared machine
#
# The machine these figures come from has two vCPUs, often shared with other jobs. A second busy
# program does not make OpenVINO a little slower: its two threads wait for each other at every
# layer, so one inference can take twice as long or more. The bench therefore split each
# measurement into short windows and read, for each window, how many cores *other* programs kept
# busy (from `/proc/stat`). The "measured" figure above is the median of the quiet windows
# (others below 0.15 cores). Here are all the windows of ResNet-50 FP32:

# %%
m = next(x for x in fidelity["measurements"]
         if (x["model"], x["precision"], x["mode"]) == ("resnet-50", "FP32", "latency"))
windows = pd.DataFrame({"others' cores": m["others"], "median latency (ms)": m["windows"]})
print(f"quiet figure {m['quiet']:.2f} ms; benchmark_app over every window would say "
      f"{m['typical']:.2f} ms; load average during the run {m['load'][0]:.1f}-{m['load'][1]:.1f}")
windows.sort_values("others' cores").round(2).reset_index(drop=True).T

# %% [markdown]
# ## 3. One model fitted, the others predicted
#
# The presets of Intel's platforms could only be fitted on the ResNet-50 rows Intel published.
# How well does a device fitted on one model predict the others? The real CPU can answer: the
# bench fitted a copy of the `cpu` preset's efficiencies and stream scaling on ResNet-50 alone
# and predicted every other model with the cost model's physics.

# %%
held = pd.DataFrame(fidelity["holdout"]["rows"])
held["model"] = held["model"] + ":" + held["precision"]
summary = fidelity["holdout"]["summary"]
print(f"fitted on ResNet-50 only: median |error| {summary['median_abs_error']:.0%}, worst "
      f"{summary['worst_ratio']:.2f}x over {summary['n']} predictions")
held.pivot(index="model", columns="mode", values="ratio").round(2)

# %% [markdown]
# ## 4. Leave one model out: in-sample beside held out
#
# A fit always matches the figures it was fitted on better than the ones it was not: the
# *in-sample* ratio flatters. The honest figure is the *held-out* one: fit on every model but
# one, predict that one, and repeat for each model. `ovlab calibrate` does this for every
# model it measures and keeps both tables in the platform file it writes. Here is the calibration
# stored from this project's machine (a 2-vCPU AMD EPYC under KVM, shared with other jobs), with
# the default set: `mlp` (the floor: two tiny matrix products, so its latency is the runtime's
# fixed cost per inference and its throughput the hand-off of each asynchronous request),
# `small-cnn`, `squeezenet1.1`, `mobilenet-v2` and `mobilenet-v1` (the depthwise networks: two,
# so that either one held out is predicted from the other), `googlenet-v1` and `resnet-50`, in
# three passes, each window waiting for a moment when other programs left the cores alone
# (`--repeat 3 --quiet-wait 900`; it took 4 minutes on a quiet moment of the shared machine).
# The fit includes the two dispatch terms only `mlp`'s throughput shows (a one-thread stream's
# dispatch, an int8 op's extra cost) and a convolution's epilogue: the work each output element
# costs after its products are summed (conversion, bias, activation, store), which weighs on
# MobileNet's small layers and not on ResNet-50's large ones, and which int8 does not speed up.
# The CPU's peak starts from the clock `/proc/cpuinfo` reports (this VM says 2.45 GHz, its base)
# and the fit raises it where the cores run faster: it finds about 3.1 GHz, the boost clock. The column `passes` is how far the three passes of one figure differed
# (largest over smallest): the machine's own noise, against which a held-out ratio must be read.

# %%
calibrated = json.loads(latest_results("calibrate").read_text())
run = calibrated["provenance"]
cpu_run = run["devices"]["CPU"]
loads = [x for m in cpu_run["measured"] for x in m["load"]]
cpu_spec = calibrated["devices"]["CPU"]
files = ", ".join(Path(f).name for f in run.get("files", []))
print(f"{run['tool']} on {run['date']}: {cpu_spec['full_name']} ({cpu_spec['extra']['cores']} "
      f"vCPUs), load average {min(loads):.1f}-{max(loads):.1f}"
      + (f"; measured in {files}" if files else ""))
measured = {f"{m['model']}:{m['precision']} {m['mode']}": m for m in cpu_run["measured"]}


def passes(m):
    """The largest over the smallest of a figure's passes: the machine's own noise."""
    p = m.get("passes") or [m["quiet"]]
    return max(p) / min(p)


loo = pd.DataFrame([{"figure": k, "measured": f"{measured[k]['quiet']:.4g} "
                                              + ("ms" if k.endswith("latency") else "FPS"),
                     "in-sample": cpu_run["fit_ratios"][k],
                     "held out": cpu_run["held_out_ratios"].get(k),
                     "passes": round(passes(measured[k]), 2)} for k in cpu_run["fit_ratios"]])
for column in ("in-sample", "held out"):
    inside = loo[column].between(0.8, 1.25).sum()
    worst = max(loo[column].max(), 1 / loo[column].min())
    print(f"{column:>9}: {inside} of {len(loo)} within 0.8-1.25, median |error| "
          f"{(loo[column] - 1).abs().median():.0%}, worst {worst:.2f}x")
loo[["in-sample", "held out"]] = loo[["in-sample", "held out"]].round(2)
loo.set_index("figure")

# %% [markdown]
# The same on the machine the `cpu` preset copies (measured 2026-11-24): the "in-sample" column
# is section 1's ratio (the preset was fitted on those very measurements), the held-out one
# comes from `bench_fidelity.py --leave-one-out`, the preset fitted again without the model.

# %%
inside_rows = {(r["model"], r["precision"], r["mode"]): r["ovlab"] / r["measured_quiet"]
               for r in fidelity["rows"]}
side = pd.DataFrame([{"model": f"{r['model']}:{r['precision']}", "mode": r["mode"],
                      "in-sample": inside_rows[(r["model"], r["precision"], r["mode"])],
                      "held out": r["ratio"]} for r in fidelity["leave_one_out"]["rows"]])
print("cpu preset, in-sample: median |error| "
      f"{(side['in-sample'] - 1).abs().median():.0%}; held out: median |error| "
      f"{(side['held out'] - 1).abs().median():.0%}, worst "
      f"{max(side['held out'].max(), 1 / side['held out'].min()):.2f}x")
side.pivot(index="model", columns="mode", values=["in-sample", "held out"]).round(2)

# %% [markdown]
# **The error for each kind of device.** This machine has only a CPU, so leave-one-model-out
# speaks for CPUs only. For the iGPUs, dGPUs and NPU of Intel's platforms, the presets were
# fitted on the published ResNet-50 rows, one parameter per row: the error on those rows is
# in-sample, and is printed here by kind of device as a floor, not as a prediction.

# %%
kinds = pd.DataFrame(published["rows"])
kinds["ratio"] = kinds["ovlab"] / kinds["published"]
by_kind = kinds.groupby("device", sort=False)["ratio"].agg(
    rows="size", median_error=lambda r: (r - 1).abs().median(),
    worst=lambda r: max(r.max(), 1 / r.min()))
by_kind.loc["CPU, held out (this machine)"] = [
    len(loo), (loo["held out"] - 1).abs().median(), max(loo["held out"].max(), 1 / loo["held out"].min())]
by_kind["median_error"] = by_kind["median_error"].map(lambda e: f"{e:.1%}")
by_kind["worst"] = by_kind["worst"].map(lambda w: f"{w:.2f}x")
by_kind

# %% [markdown]
# **The published check.** The other rows of Intel's tables were never read for fitting: they are
# the test. Of the zoo's models, Intel's OpenVINO 2024.3 table also has MobileNet-v2 and
# YOLO-v3-tiny on the same five platforms: 54 figures. The table is not stored in this
# repository (it is Intel's); `bench_fidelity.py --check` reads it in Intel's own format
# (`OV-2024.3-benchmark-data.csv` from the openvino repository's docs), simulates every row with
# the benchmark_app command Intel ran, on its preset, and keeps the fitted ResNet-50 rows apart.
# It was first run on 2026-11-27 with the presets as they were: held out, median error 19.7 %,
# worst 3.04x. Its misses pointed at one fact the cost model lacked: int8 peaks come from
# dot-product instructions (VNNI, DP4a, XMX, an NPU's MAC array) that sum four products along the
# input channels, and a depthwise convolution has none to sum, so it computes on 16-bit
# multiply-adds at half that peak. That rule came from the instruction sets, with nothing fitted
# on these rows (ResNet-50 has no depthwise layer, so the fit did not move), and the check was run
# a second time; here is what it stored, in-sample beside held out, by kind of device:

# %%
check = json.loads(latest_results("published-check").read_text())
check_rows = pd.DataFrame(check["rows"])
check_rows["ratio"] = 1 + check_rows["error"]
check_kinds = pd.DataFrame({
    part: {kind: f"{100 * s['median_abs_error']:.1f} %, {s['worst_ratio']:.2f}x ({s['n']})"
           for kind, s in [*check["presets"][part]["by_kind"].items(),
                           ("all", check["presets"][part]["summary"])]}
    for part in ("in_sample", "held_out")}).rename(columns={
        "in_sample": "in-sample (ResNet-50, fitted)", "held_out": "held out (other models)"})
print(f"published check of {check['date']}: median |error|, worst ratio (figures); goal for "
      "the held-out rows: 15 %, 1.5x")
check_kinds

# %% [markdown]
# Held out, the CPUs are closest; the misses are small models on wide devices. Each row's ratio
# (ovlab / Intel), the farthest first:

# %%
far = check_rows[~check_rows["fitted"]].copy()
far["model"] = far["model"] + ":" + far["precision"]
far["off"] = far["ratio"].map(lambda r: max(r, 1 / r))
far.sort_values("off", ascending=False)[["preset", "device", "model", "mode", "ratio"]].round(
    2).head(8).set_index(["preset", "device", "model", "mode"])

# %% [markdown]
# ovlab is still too *fast* on these rows: MobileNet-v2 on every GPU (throughput up to 2.9x,
# latency down to 0.59x of Intel's; on the CPUs the depthwise rule brought it within 1.32x),
# YOLO-v3-tiny on the NPU (2.4x) and in a flex-170 INT8 latency (0.53x). On the GPUs Intel's
# MobileNet-v2 runs barely faster in INT8 than in FP16 (1.1-1.35x), where ResNet-50 gains 1.5-1.6x. What a depthwise or small int8
# layer costs on a wide device (its kernel's efficiency, its fixed cost per op) is something
# ResNet-50's dense, compute-bound rows cannot show; the presets carry priors for it, and these
# rows say the priors are too optimistic. The fix must come from physics or measurements, not
# from these rows: tuning on them would turn the test into more fitting.

# %% [markdown]
# ## 5. Intel's published platforms
#
# `i7-1185g7`, `core-ultra-7-165h`, `arc-a770m`, `flex-170` and `i9-13900k` are built from public
# figures (cores, clocks, EUs and XMX engines, TOPS, memory bandwidth, TDP) and fitted on the
# ResNet-50 rows of Intel's OpenVINO 2024.3 performance data: one parameter per row (an
# efficiency per precision, a per-op cost or a stream scaling), so the device rows match by
# construction. The CPU+iGPU rows (`-d AUTO:GPU,CPU -hint cumulative_throughput`) are the test of
# the shared power budget: both devices draw from one package limit, so together they reach about
# 70-80 % of the sum of their separate figures, not the sum.

# %%
pub = pd.DataFrame(published["rows"])
pub["ovlab"] = pub["ovlab"].map(lambda v: f"{v:.4g}")
pub["published"] = pub["published"].map(lambda v: f"{v:g}")
pub["error"] = (100 * pub["error"]).round(1).astype(str) + " %"
pub["model"] = pub["model"] + ":" + pub["precision"]
pub[["preset", "device", "model", "mode", "published", "ovlab", "error"]].set_index(
    ["preset", "device", "model", "mode"])

# %% [markdown]
# Each row is one command, and the same command on another zoo model is a prediction. Here
# GoogLeNet-v1 INT8 on the i7-1185G7's CPU, its iGPU and both at once, in shorter runs than the
# stored 60 s and with `-b 1` (automatic batching off: its batches of 32 images would take more
# memory than this notebook should):

# %%
args = ["-m", "googlenet-v1:INT8", "-b", "1", "-t", "20", "--platform", "i7-1185g7"]
rep = benchmark_app([*args, "-d", "AUTO:GPU,CPU", "-hint", "cumulative_throughput"])
cpu = benchmark_app([*args, "-d", "CPU", "-hint", "throughput"])
gpu = benchmark_app([*args, "-d", "GPU", "-hint", "throughput"])
budget = ov.preset("i7-1185g7").power_budget
print(f"CPU {cpu.throughput_fps:.0f} FPS + GPU {gpu.throughput_fps:.0f} FPS = "
      f"{cpu.throughput_fps + gpu.throughput_fps:.0f}; both at once {rep.throughput_fps:.0f} FPS "
      f"({rep.throughput_fps / (cpu.throughput_fps + gpu.throughput_fps):.0%} of the sum)")
print(f"power budget {budget.watts:.1f} W for draws {budget.draws}: both busy run at "
      f"{budget.factor(budget.draws):.0%} speed")

# %% [markdown]
# ### Every machine of Intel's tables, from its datasheet
#
# `ovlab platforms` lists a catalogue of 30 machines: the eight *fit* platforms above and 22
# *check* platforms whose published rows were never read, each built from its datasheet (cores,
# clocks, ISA, cache, memory channels and speed, EUs) by a **family** cost model: peaks from the
# ISA (VNNI, AMX, DP4a, XMX), efficiencies fitted per CPU or GPU family on the fit platforms
# (`docs/platforms.md`). To estimate the error on machines never fitted, each fit platform was
# predicted from the other seven (leave-one-platform-out, LOPO), beside the error on the rows
# the model was fitted on (in-sample). The NPU has a single fit platform: its LOPO row is the
# priors alone, with no other NPU to learn from.

# %%
families = json.loads(latest_results("families").read_text())
ins = pd.DataFrame(families["by_family"]["in_sample"]).T
lopo = pd.DataFrame(families["by_family"]["lopo"]).T
errors = pd.DataFrame({"figures": ins["n"].astype(int), "in-sample median %": ins["median_pct"],
                       "in-sample in 0.67-1.5x": ins["within_067_15"],
                       "LOPO median %": lopo["median_pct"],
                       "LOPO in 0.67-1.5x": lopo["within_067_15"],
                       "LOPO worst ratio": lopo["worst"]})
errors

# %% [markdown]
# The goal was a LOPO median error of at most 15 % with 90 % of figures within 0.67-1.5x, on
# the figures LOPO can judge (the NPU's aside). By device, from the same stored report (each
# row's LOPO ratio, ovlab / published in FPS):

# %%
by_device = {}
for row in families["per_row"]:
    device = row["row"].split()[1]
    if device != "NPU":
        for key in (device, "all but the NPU"):
            by_device.setdefault(key, []).append(row["lopo_ratio"])
pd.DataFrame.from_dict(
    {key: {"figures": len(ratios),
           "LOPO median %": round(100 * (pd.Series(ratios) - 1).abs().median(), 1),
           "LOPO in 0.67-1.5x": round(pd.Series(ratios).between(0.67, 1.5).mean(), 3)}
     for key, ratios in sorted(by_device.items())}, orient="index")

# %% [markdown]
# Both are met on the figures LOPO can judge: a median of 14.4 % (15.05 % before two int8
# matrix-product factors, `docs/platforms.md`'s fifth round) and 91 % within 0.67-1.5x. With the
# NPU's figures the share is 89 %: the NPU's LOPO row is its priors alone. The discrete GPUs are
# the weakest held out: the two fit platforms of Xe-HPG each predicted from the other.

# %% [markdown]
# Pick a machine (`ovlab platforms --closest family=alder-raptor cores=14 tdp_w=45` finds the
# nearest to yours) and time a model of Intel's tables on it:

# %%
for device, hint in (("CPU", "latency"), ("GPU", "throughput")):
    rep = benchmark_app(["-m", "yolo_v8n:INT8", "-d", device, "-hint", hint, "-niter", "60",
                         "--platform", "i7-12700h"])
    print(f"i7-12700h {device} {hint}: {rep.latency_median_ms:.2f} ms, "
          f"{rep.throughput_fps:.0f} FPS")

# %% [markdown]
# A machine that is not there is a copy of the nearest file with your part's figures (from its
# ARK page), loaded like any platform file:

# %%
import tempfile  # noqa: E402

from ovlab.sim.hardware import catalogue  # noqa: E402  (ovlab only)

mine = catalogue.read("i7-12700h")
mine["name"] = "i5-12500h"
cpu_sheet = mine["datasheet"]["CPU"]
cpu_sheet["p_cores"]["value"], cpu_sheet["e_cores"]["value"] = 4, 8
cpu_sheet["p_turbo_ghz"]["value"], cpu_sheet["e_turbo_ghz"]["value"] = 4.5, 3.3
scratch = tempfile.TemporaryDirectory(prefix="ovlab-lab12-")  # removed with the kernel
path = Path(scratch.name) / "i5-12500h.json"
path.write_text(json.dumps(mine))
rep = benchmark_app(["-m", "yolo_v8n:INT8", "-d", "CPU", "-hint", "latency", "-niter", "60",
                     "--platform", str(path)])
print(f"i5-12500h (described, not fitted) CPU latency: {rep.latency_median_ms:.2f} ms")

# %% [markdown]
# ## 6. What the cost model includes, and what it leaves out
#
# **Included** (`ovlab/sim/hardware/cost.py`, `runtime/sharing.py`, `hardware/power.py`):
# - A roofline per op: `max(FLOPs / (peak x efficiency), bytes / (bandwidth x efficiency))`, with
#   a peak per precision (f32, bf16, f16, int8) and an efficiency per op kind (dense convolution,
#   depthwise convolution, matrix product, everything else); traffic that fits in the last-level
#   cache costs no memory time, an embedding lookup moves only the rows it picks.
# - Fusion as the plugins do it: bias, activations and residual sums after a convolution or a
#   matrix product, and FakeQuantize after any op, cost nothing; views and constant folding are
#   not executed. An INT8 model runs its convolutions and matrix products in int8, the rest in
#   the float precision.
# - Per-op and per-inference overheads, the first inference's extra cost, and the hand-off of an
#   asynchronous request (which is why a tiny model's throughput is set by the host, not the chip).
# - Streams (each takes its share of the device; S streams gain S^(1 - stream scaling)), automatic
#   batching with the GPU plugin's own optimal-batch heuristic, processor sharing between
#   everything running on one device, a package power budget shared by CPU and iGPU, and the host
#   load of a GPU compile.
#
# **Left out** (each is a reason for the errors above):
# - The cache hierarchy beyond one rule (fits in the last-level cache or not): a layer that fits
#   in L2 runs closer to the peak than one that does not.
# - Threads per op: the real plugin runs a tiny op on one thread and splits a big one; the model
#   has one dispatch cost per op kind (a FullyConnected's is a twentieth of a convolution's, an
#   int8 op pays its requantization), and a stream of one thread pays about half of it (no
#   fork / join), fitted to the toy models and BERT-tiny rather than derived from thread counts.
# - Idle cores: on a quiet machine the second core sleeps, and a tiny model that splits its layers
#   may wait for it to wake at each one (`small-cnn` INT8 measured 0.027 or 0.048 ms by window).
# - Kernel choice per layer shape (Winograd, 1x1 fast paths, tile sizes), memory layout
#   conversions (the real plugin's `Reorder` nodes).
# - Frequency changes other than the shared power budget (turbo on one core, thermal limits),
#   and other programs on the machine (section 2).
# - Only benchmark_app's figures were fitted; the original presets (`laptop`, `workstation`,
#   `multi-gpu`) keep their calibration on the AUTO page and the yas-sim article (lab 01's appendix compares `laptop` with
#   `i7-1185g7`).
#
# **Rules of thumb.** On the measured CPU the networks (GoogLeNet, AlexNet, SqueezeNet,
# ResNet-50, MobileNet-v2, YOLO-v3-tiny) and the models of tiny ops (the two toys, BERT-tiny)
# all land within 25 % of the quiet measurement here; a single window can differ by more.
# Fitted on one model, a device predicted the others within the hold-out figures of section 3.
# Trust ratios between models and devices more than absolute milliseconds, and trends (batching
# helps, streams help throughput, CPU+iGPU is less than the sum) most.

# %% [markdown]
# ## 7. Your own machine as a preset
#
# With the real `openvino` installed, `ovlab calibrate -o my-machine.json` (or
# `python -m ovlab calibrate`) measures your CPU, and any GPU or NPU the runtime lists, on zoo
# models with benchmark_app's method, fits a device to them and writes a platform file. Then
# `ov.Core(platform="my-machine.json")` and `ovlab benchmark --platform my-machine.json` use it.
# A platform file is JSON checked against a schema; here is a preset written out and read back:

# %%
import tempfile  # noqa: E402

from ovlab.sim.hardware import platform_file  # noqa: E402  (ovlab only)

path = Path(scratch.name) / "i9.json"
platform_file.save(ov.preset("i9-13900k"), path)
core = ov.Core(str(path))
print(core, "| CPU peak GFLOP/s:", core.platform.devices["CPU"].peak_gflops)
bad = json.loads(path.read_text())
bad["devices"]["CPU"]["per_op_s"] = "fast"
path.write_text(json.dumps(bad))
try:
    ov.Core(str(path))
except ValueError as err:
    print("refused:", str(err).replace(str(path), "i9.json"))

# %% [markdown]
# ## 8. Your machine, live
#
# `ov.Core(platform="this-machine")` is your CPU as a platform: on first use ovlab measures it
# with the real `openvino` (as `ovlab calibrate` does, about a minute on a
# quiet machine, once) and caches the
# platform file (`~/.cache/ovlab`; `ovlab calibrate --refresh` measures again). The cell below
# times GoogLeNet-v1 FP32 latency on the real runtime and on `this-machine`, in one run, once you
# set `measure = True`: it is off so that Run All stays quick (the measurement takes 5-10 s, and
# the first one a minute more to calibrate). Its figures are your machine's, so they differ from
# run to run; on CI, or without the real `openvino`, it says so and skips the measurement.
#
# The line also gives the `cpu` preset's figure. That preset is a snapshot of one VM on one day,
# the 2-vCPU AMD EPYC (AVX-512 with BF16) measured on 2026-11-24, where the real plugin runs FP32
# models in bf16. On any other CPU, or on the same VM type another day (2x slower on 2026-12-07,
# section 1), its ratio says how far yours is from that snapshot, not how good the model is. On a 2-vCPU EPYC with AVX2 only (no BF16), two runs of this cell on
# 2026-11-27 read 0.13 and 0.22 for the preset and 0.75 and 1.35 for `this-machine`. The real
# latency moved between 34.5 ms (the machine busy) and 19.3 ms (quiet), while `this-machine`
# keeps what it measured when it was calibrated: `ovlab calibrate --refresh` on a quiet
# machine measures it again.

# %%
import importlib.util  # noqa: E402
import os  # noqa: E402

from ovlab.sim.calibration.this_machine import live_comparison  # noqa: E402  (ovlab only)

measure = False  # True: time your CPU on the real openvino (5-10 s; the first time, +1 min)

if not measure:
    print("Not measured: set measure = True and run this cell again.")
elif importlib.util.find_spec("openvino") is None:
    print("The real openvino is not installed here: pip install openvino, then run this cell again.")
elif os.environ.get("CI"):
    print("On CI: the live comparison is skipped (it calibrates your CPU on first use).")
else:
    # measured in a child process, so the real runtime does not stay in this kernel's memory
    print(live_comparison("googlenet-v1", "FP32"))

# %% [markdown]
# ## Summary
# - The `cpu` preset reproduces the real OpenVINO CPU plugin on the VM it copies, on the day it
#   was fitted (a 2-vCPU AMD EPYC, 2026-11-24), within 25 % for every zoo model, FP32 and INT8,
#   latency and throughput (median error about 4 %). It is a dated snapshot: the same VM type ran
#   2x slower on 2026-12-07. On your machine, `this-machine` is the copy to use.
# - Measurements on a shared machine need quiet windows; benchmark_app over a busy minute reports
#   the neighbours as much as the model.
# - The presets of Intel's platforms match the rows they were fitted on; other models are
#   predictions, with roughly the error of section 3.
# - In-sample ratios flatter: leave one model out (section 4) gives the honest error, and the
#   published check (`bench_fidelity.py --check`) the error on rows nothing was fitted on.
# - The cost model is a roofline with fusion, op kinds, a cache rule, overheads, streams,
#   batching, sharing and a power budget; it leaves out threads per op, idle cores, kernel choice
#   and frequency changes.

# %% [markdown]
# ## Exercises
#
# **1.** Which model, precision and mode of section 1 has the ratio farthest from 1 (in either
# direction)? Answer with the `(model, mode)` pair of the table, e.g. `("mlp:FP32", "latency")`.

# %%
answer = None  # e.g. ("mlp:FP32", "latency")
exercises.check(1, answer)

# %% [markdown]
# **2.** What does ovlab predict for GoogLeNet-v1 INT8 latency on the i9-13900K
# (`-m googlenet-v1:INT8 -d CPU -hint latency --platform i9-13900k`)? Give the median latency in
# ms, rounded to two decimals. (For ResNet-50 Intel published 2.15 ms, and the preset was fitted
# on it.)

# %%
answer = None  # ms, e.g. 3.14
exercises.check(2, answer)

# %% [markdown]
# **3.** On the `core-ultra-7-165h` preset, at what fraction of its full speed does each of the CPU
# and the iGPU run while both are busy? Round to two decimals.

# %%
answer = None  # e.g. 0.5
exercises.check(3, answer)
