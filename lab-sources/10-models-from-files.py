# %% [markdown]
# # 10 · Models from files
#
# Every OpenVINO program starts with `core.read_model("model.xml")`: an **IR** (intermediate
# representation) is two files, an `.xml` with the graph and a `.bin` with the weights. ovlab
# reads and writes the same files, so a model built in a lab opens in the real runtime, and your
# own model opens here, to see how it would split across a virtual NPU and CPU.
#
# **What you will see**
# - `ov.save_model` writes a lab model as IR; by default the weights are compressed to FP16, as
#   OpenVINO does (an f16 `Const` and a `Convert` marked `decompression` per weight).
# - The XML itself: layers, ports, edges, and the few names that differ from Python's.
# - `core.read_model` reads it back (the weights memory-mapped), with the same outputs.
# - Bring your own model: `core.read_model("my_model.xml")`, then `query_model` on the
#   workstation's NPU and HETERO on it.
# - What a damaged file gives: OpenVINO's own error.
#
# **Why it matters.** The files are the interface between tools: a converter or a training
# framework writes them, the runtime reads them. Knowing what is inside (and that FP16 weights
# are the default) explains file sizes, accuracy and which device can run what.
#
# The claim ids of the other labs are explained in [CLAIMS.md](CLAIMS.md); this lab is about the
# files themselves, written as OpenVINO's
# [`save_model`](https://docs.openvino.ai/2024/api/ie_python_api/_autosummary/openvino.save_model.html)
# writes them.

# %% [markdown]
# ## Setup
#
# A `workstation` Core (its NPU lacks `LRN`, `Sigmoid` and `Clamp`), GoogLeNet-v1 from the zoo,
# and a scratch folder for the files.

# %%
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import ovlab as ov  # on real hardware: import openvino as ov
import ovlab.opset13 as ops  # on real hardware: import openvino.opset13 as ops
from ovlab import zoo  # ovlab only: the zoo's fixed sample inputs
from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks
from ovlab.sim.labtools import error_message  # ovlab only: short errors

core = ov.Core("workstation", seed=0)  # on real hardware: ov.Core()
googlenet = core.read_model("googlenet-v1")  # a zoo model by name (ovlab only)
image = zoo.sample_input("googlenet-v1")  # a fixed 1x3x224x224 float32 input
scratch = tempfile.TemporaryDirectory(prefix="ovlab-lab10-")  # removed with the kernel
folder = Path(scratch.name)  # scratch space; the paths below are inside it
exercises = for_lab("10")


def size(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:.1f} MB" if path.stat().st_size > 1e5 else \
        f"{path.stat().st_size / 1e3:.1f} kB"

# %% [markdown]
# ## 1. Save a model as IR
#
# `ov.save_model(model, "name.xml")` writes `name.xml` and `name.bin` beside it. The default
# `compress_to_fp16=True` stores every floating-point weight as f16, which halves the `.bin`;
# `compress_to_fp16=False` keeps f32. `ov.serialize` writes the model exactly as it is.

# %%
ov.save_model(googlenet, folder / "googlenet-v1.xml")  # FP16 weights (the default)
ov.save_model(googlenet, folder / "googlenet-v1-f32.xml", compress_to_fp16=False)
for name in ("googlenet-v1", "googlenet-v1-f32"):
    print(f"{name}: .xml {size(folder / f'{name}.xml')}, .bin {size(folder / f'{name}.bin')}")

# %% [markdown]
# ## 2. Look at the XML
#
# The root is `<net name=... version="11">` with `<layers>`, `<edges>` and `<rt_info>`. Each
# layer has an id, a friendly name, a type and the opset that defines it; `<data>` holds its
# attributes as text. The first layers: the input, then the first weight, stored as f16 (`Const`,
# `element_type="f16"`, an `offset` and `size` into the `.bin`) and converted back to f32 by a
# `Convert` carrying the `decompression` runtime attribute.

# %%
xml = (folder / "googlenet-v1.xml").read_text()
layers = xml.split("<layers>")[1].split("<layer ")
for layer in layers[1:4]:
    head = layer.split(">")[0]
    data = layer.split("<data ")[1].split("/>")[0] if "<data " in layer else ""
    rt = " + rt_info decompression" if 'name="decompression"' in layer else ""
    print(f"<layer {head}>\n    <data {data}/>{rt}")

# %% [markdown]
# Type names in IR are OpenVINO's C++ names, and four are spelled differently from
# `get_type_name()`: `ReLU` (`Relu`), `SoftMax` (`Softmax`), `Const` (`Constant`) and `PReLU`
# (`PRelu`). The layers of the file by type:

# %%
types = pd.Series([layer.split('type="')[1].split('"')[0] for layer in layers[1:]])
types.value_counts().rename_axis("IR type").rename("layers").to_frame().T

# %% [markdown]
# An edge joins an output port of one layer to an input port of another. Ports are numbered per
# layer, inputs first: a `Convolution` has inputs 0 (data) and 1 (weights) and output 2.

# %%
print("\n".join(line.strip() for line in xml.split("<edges>")[1].strip().splitlines()[:4]))

# %% [markdown]
# ## 3. Read it back
#
# `core.read_model` builds the model from the file. The weights are not copied: each constant is
# a NumPy view into the `.bin`, which is memory-mapped (a 100 MB IR opens in milliseconds,
# `benchmarks/bench_ir.py`). The FP16 file gives the same class with outputs within f16 rounding
# of the weights; the f32 file gives exactly the original outputs.

# %%
reference = core.compile_model(googlenet, "CPU")(image)[0]
for name in ("googlenet-v1", "googlenet-v1-f32"):
    model = core.read_model(folder / f"{name}.xml")
    out = core.compile_model(model, "CPU")(image)[0]
    print(f"{name}: {len(model.get_ops())} ops, top-1 class {out.argmax()} "
          f"(original {reference.argmax()}), largest difference "
          f"{'0' if np.array_equal(out, reference) else 'below 1e-3' if np.abs(out - reference).max() < 1e-3 else 'large'}")

# %% [markdown]
# The real runtime reads these files too: `openvino.Core().read_model(".../googlenet-v1.xml")`
# gives the same outputs (ovlab's test suite checks every zoo model that way, and that ovlab
# writes the very IR OpenVINO writes for the same network).

# %% [markdown]
# ## 4. Bring your own model
#
# Your model file would come from OpenVINO's converter (`ovc model.onnx`) or from `save_model`
# in a script. Here a small network plays that part: built with the `opset13` API, saved as
# `my_model.xml`. It uses a `Sigmoid` gate and a `Clamp`, two ops the workstation's NPU lacks.

# %%
rng = np.random.default_rng(0)
x = ops.parameter([1, 3, 64, 64], np.float32, name="image")
w = ops.constant(rng.standard_normal((16, 3, 3, 3)).astype(np.float32) * 0.2, name="conv_w")
conv = ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], name="conv")
gate = ops.multiply(conv, ops.sigmoid(conv, name="gate"), name="gated")  # a SiLU-like block
clamped = ops.clamp(gate, 0.0, 6.0, name="clamp")
pool = ops.avg_pool(clamped, [2, 2], [0, 0], [0, 0], [2, 2], True, name="pool")
flat = ops.reshape(pool, np.array([0, -1], np.int64), True, name="flatten")
fc_w = ops.constant(rng.standard_normal((16 * 32 * 32, 10)).astype(np.float32) * 0.01,
                    name="fc_w")
logits = ops.matmul(flat, fc_w, False, False, name="fc")
ov.save_model(ov.Model([ops.result(ops.softmax(logits, 1, name="prob"), name="scores")], [x],
                       "my_model"), folder / "my_model.xml")

# %% [markdown]
# From here on it is what you would do with your own file: read it, ask the NPU which ops it
# runs, and compile it on `HETERO:NPU,CPU` so the CPU takes the rest. (The table leaves out the
# weights and their decompression `Convert`s: they go with the op that reads them.)

# %%
my_model = core.read_model(folder / "my_model.xml")  # on real hardware: your own path
on_npu = core.query_model(my_model, "NPU")
ops_table = pd.DataFrame([{"op": op.get_friendly_name(), "type": op.get_type_name(),
                           "NPU": op.get_friendly_name() in on_npu}
                          for op in my_model.get_ordered_ops()
                          if op.get_type_name() not in ("Parameter", "Constant", "Convert",
                                                        "Result")])
ops_table.set_index("op")

# %%
hetero = core.compile_model(my_model, "HETERO:NPU,CPU")
print("HETERO_NUMBER_OF_SUBMODELS:", hetero.get_property("HETERO_NUMBER_OF_SUBMODELS"))
sample = rng.standard_normal((1, 3, 64, 64)).astype(np.float32)
on_cpu = core.compile_model(my_model, "CPU")(sample)[0]
split = hetero(sample)[0]
print("top-1 on CPU:", on_cpu.argmax(), "| on HETERO:NPU,CPU:", split.argmax(),
      "| same within f16:", bool(np.abs(split - on_cpu).max() < 1e-2))

# %% [markdown]
# The NPU takes the convolution, the multiply and everything after the `Clamp`; the CPU takes
# `gate` (Sigmoid) and `clamp`; HETERO makes one submodel per stretch of one device (lab 07 shows
# what the transfers between them cost). The NPU computes in f16, so the outputs agree within
# f16 rounding.
#
# ONNX files read the same way (`core.read_model("model.onnx")`) when the `onnx` package is
# installed (`pip install onnx`); ovlab converts the ONNX ops that map onto its opset and names
# any other.

# %% [markdown]
# ## 5. When a file is damaged
#
# A bad file gives the error OpenVINO gives for it, never a half-built model. Here the `.bin` is
# cut short, so the last weights are missing:

# %%
broken = folder / "broken.xml"
broken.write_text((folder / "my_model.xml").read_text())
broken.with_suffix(".bin").write_bytes((folder / "my_model.bin").read_bytes()[:1000])
print(error_message(lambda: core.read_model(broken)))

# %% [markdown]
# ## Summary
# - An IR is an `.xml` graph plus a `.bin` of weights; `save_model` writes one (FP16 weights by
#   default: f16 `Const` + `Convert` with `decompression`), `serialize` writes the model as is.
# - Layers carry a type, an opset version and their attributes as text; edges join ports,
#   inputs numbered before outputs; `ReLU`, `SoftMax`, `Const`, `PReLU` are the IR spellings.
# - `read_model` memory-maps the weights and rebuilds the graph; the real runtime reads ovlab's
#   files and ovlab reads the real runtime's.
# - With your own file: `query_model(model, "NPU")` shows what the NPU runs, and
#   `HETERO:NPU,CPU` runs the rest on the CPU.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** How many `Convert` layers marked `decompression` does `googlenet-v1.xml` (saved with the
# default `compress_to_fp16=True`) hold? Count them in the model you read back
# (`op.get_rt_info()` has the key `"decompression_0"`).

# %%
answer = None  # an int
exercises.check(1, answer)

# %% [markdown]
# **2.** Save `my_model` again with `compress_to_fp16=False`. How many bytes larger is its `.bin`
# than the compressed one?

# %%
answer = None  # an int (bytes)
exercises.check(2, answer)
