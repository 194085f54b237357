# %% [markdown]
# # 11 · Run OpenVINO code on ovlab, unchanged
#
# The other labs use `import ovlab as ov`. This one runs code written for **OpenVINO itself**
# (`import openvino as ov`, `ov.Core()`, `time.perf_counter()`, `time.sleep()`), without
# editing it, on the virtual laptop.
#
# **What you will see**
# - An OpenVINO 2026 script in the style of the yas-sim scripts (labs 04 and 05), run with
#   `python -m ovlab run script.py`: the same printout it would give on a laptop with an Iris Xe,
#   in a fraction of a second.
# - The same script inside this notebook after `%load_ext ovlab`.
# - What the runner changes (the devices, the clock behind `time.*`, a missing model file) and
#   what it does not (the code, the API, the numerics).
#
# **Why it matters.** Code goes both ways: examples from OpenVINO's documentation and notebooks
# run here as they are, and what you try here runs on real hardware as it is.
#
# The claim ids of the other labs are explained in [CLAIMS.md](CLAIMS.md).

# %% [markdown]
# ## The script
#
# `scripts/auto_latency.py` compiles GoogLeNet-v1 on AUTO, submits 300 requests every 30 ms
# from the main thread while a *display thread* redraws every 1/30 s, and prints the latencies.
# It reads the model from `./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml`, an Open Model Zoo
# path that does not exist here. Its main loop:

# %%
from pathlib import Path

from ovlab.sim.exercises import for_lab  # ovlab only: the exercises' checks

exercises = for_lab("11")
source = Path("scripts/auto_latency.py").read_text()
loop = source[source.index("start_time = time.time()"):source.index("latency_ms =")]
print(loop)

# %% [markdown]
# ## With the runner
#
# `python -m ovlab run [--platform P] [--seed N] script.py [args]` runs a script the way
# `python script.py` does (its arguments, `__name__ == "__main__"`, its exit status), but
# `import openvino` gets ovlab, `ov.Core()` is the `laptop` platform and `time.time`,
# `time.perf_counter` and `time.sleep` follow the simulated clock. `-m module` works too:
# `python -m ovlab run -m pytest tests/` runs a test suite on the virtual devices. The line
# that starts with `[ ovlab ]` comes from stderr: the model file is missing, but its name is a
# zoo model, so the runner loads ovlab's GoogLeNet-v1 (real layers, random weights) instead.

# %%
import subprocess
import sys

run = subprocess.run([sys.executable, "-m", "ovlab", "run", "scripts/auto_latency.py"],
                     capture_output=True, text=True)
print(run.stderr.strip())
print(run.stdout.strip())
print("exit status:", run.returncode)

# %% [markdown]
# Read it as you would on the laptop: `compile_model(AUTO)` returns after a fraction of a
# second because the CPU serves the first requests while the GPU compiles (lab 03), the first 50
# latencies are the CPU's, the last 50 the iGPU's, several times lower, and at the end the GPU
# runs everything. 300 requests every 30 ms take 9 s of simulated time, which is what
# `time.time()` in the script measured; on this machine it took well under a second of wall time.
#
# **The display thread.** The script's main thread paces with `time.sleep(0.030)`: that moves
# the simulated clock. The display thread sleeps `1/30 s` in a loop: a sleep in *another* thread
# is a wake-up on the simulated clock, `1/30 s` ahead. Whenever the main thread moves the clock
# (its sleeps, `wait_all()`, a full queue), it stops at each wake-up on the way, lets the display
# thread run until it sleeps again, and goes on. So the display thread wakes every `1/30 s` of
# *simulated* time and draws each result at the first frame after it arrived, as it would on the
# laptop; it only reads, so the main thread's timeline is the same with or without it, and the
# run prints the same text every time. When the main thread waits for the display thread
# instead (`thread.join()`), the display thread's sleep passes as wall time would, so neither
# waits for the other for ever.

# %% [markdown]
# ## In this notebook: `%load_ext ovlab`
#
# The extension does the same for the kernel: after it, `import openvino` gives ovlab (a real
# `openvino` installed beside it is set aside until `%unload_ext ovlab`) and `time.*` is
# simulated. `ovlab.install(platform=..., seed=...)` does it with another platform or seed.

# %%
# %load_ext ovlab

# %%
import time

import openvino as ov

core = ov.Core()
print("devices:", core.available_devices)
t0 = time.perf_counter()
time.sleep(2.5)  # moves the simulated clock, returns at once
print(f"time.sleep(2.5) took {time.perf_counter() - t0:.3f} s of simulated time")

# %% [markdown]
# `%run` executes the unchanged script in the kernel. Same seed, same platform, same printout as
# with the runner. (The note about the model file goes to stderr; the cell sends stderr to
# stdout so the two stay in order.)

# %%
import contextlib

with contextlib.redirect_stderr(sys.stdout):
    get_ipython().run_line_magic("run", "scripts/auto_latency.py")  # %run scripts/auto_latency.py

# %% [markdown]
# ## What changes and what does not
#
# | | on real hardware | under `python -m ovlab run` / `%load_ext ovlab` |
# |---|---|---|
# | your code | `import openvino as ov` ... | the same file, unedited |
# | `ov.Core()` | the devices of your machine | the `laptop` preset (`--platform` / `install(platform=)`) |
# | `time.time()`, `perf_counter()`, `monotonic()` | wall clock | the simulated clock (`time.time()` starts at 2026-01-01 00:00 UTC) |
# | `time.sleep(s)` in the main thread | waits `s` | advances the simulated clock by `s` |
# | `time.sleep(s)` in another thread | waits `s` | a wake-up `s` ahead on the simulated clock: the main thread's waits stop there and let the thread run |
# | a missing `.../googlenet-v1-tf.xml` | error | the zoo model of that name, with a note on stderr |
# | `openvino.runtime` | removed in 2026 | absent too |
# | numerics | the device's kernels | NumPy in the device's precision |
# | what a simulator cannot do (remote tensors, custom-op extensions, cache encryption) | works | a clear `NotImplementedError` naming the feature, when used |
#
# OpenVINO's own Python API tests run the same way (`make openvino-suite`, see the README).

# %% [markdown]
# ## Summary
# - `python -m ovlab run script.py` and `%load_ext ovlab` run OpenVINO code unchanged on
#   virtual devices; `ovlab.uninstall()` / `%unload_ext ovlab` give the real `openvino` and
#   the real clock back.
# - Time measured with `time.*` is simulated time, so the figures a script prints are the
#   virtual hardware's, and the same on every run.
# - A helper thread that sleeps wakes at the simulated times it would on hardware, between
#   the main thread's steps, and never changes the main thread's timeline.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell; after a try, `reveal=True` in the check shows
# the answer.
#
# **1.** `ovlab.install(platform="workstation")` replaces the session. Which devices does
# `ov.Core().available_devices` list then? Set `answer` to that list.

# %%
answer = None  # e.g. ["CPU", "GPU"]
exercises.check(1, answer)

# %% [markdown]
# **2.** In the runner's printout above, how many seconds of simulated time did the 300
# requests take? Set `answer` to the number the script printed (a float).

# %%
answer = None  # seconds, e.g. 1.5
exercises.check(2, answer)

# %% [markdown]
# ## Back to the real clock

# %%
# %unload_ext ovlab

# %%
print("time.sleep is the real one again:", time.sleep.__module__ == "time")
