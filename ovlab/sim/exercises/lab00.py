"""Lab 00 · Start here: the clock around a GPU compile, and the warm-up of a first inference."""

from __future__ import annotations

import ovlab as ov
from ovlab import zoo

from . import Exercise, LabExercises


def _gpu_compile_clock() -> float:
    core = ov.Core("laptop", seed=0)
    core.compile_model(core.read_model("googlenet-v1"), "GPU")
    return round(core.clock.now, 2)


def _slower_of_two() -> str:
    core = ov.Core("laptop", seed=0)
    request = core.compile_model(core.read_model("googlenet-v1"), "CPU").create_infer_request()
    image = zoo.sample_input("googlenet-v1")
    request.infer({0: image})
    request.infer({0: image})
    first, second = core.trace.to_frame()["latency"].tolist()
    return "first" if first > second else "second"


EXERCISES = LabExercises("00-start-here", [
    Exercise(1, _gpu_compile_clock, tolerance=0.1, unit="s",
             explain="a GPU compile takes seconds, not milliseconds: kernels are built for this "
                     "model. Lab 03 shows how AUTO hides that wait.",
             hint="create ov.Core('laptop', seed=0), compile for 'GPU', then print "
                  "core.clock.now."),
    Exercise(2, _slower_of_two,
             explain="the first inference of a compiled model pays a warm-up (memory allocation, "
                     "first touch of the weights); later ones run at the steady speed.",
             hint="compare the 'latency' column of the two rows of core.trace.to_frame()."),
])
