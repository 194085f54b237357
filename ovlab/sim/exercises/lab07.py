"""Lab 07 · HETERO: submodels of a difficult topology, transfers to a dGPU, crossing tensors."""

from __future__ import annotations

import ovlab as ov
from ovlab.sim.labtools import hetero
from ovlab.sim.plugins.hetero import difficult_model

from . import Exercise, LabExercises


def _submodels_of_four_blocks() -> int:
    core = ov.Core("workstation", seed=0)
    compiled = core.compile_model(difficult_model(blocks=4), "HETERO:NPU,CPU")
    return int(compiled.get_property("HETERO_NUMBER_OF_SUBMODELS"))


def _transfers_to_dgpu() -> float:
    core = ov.Core("workstation", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), "HETERO:NPU,GPU.1")
    return round(hetero.transfer_ms(hetero.subgraph_records(compiled, 2)[-1]), 3)


def _crossings_with_pool1_on_cpu() -> int:
    core = ov.Core("workstation", seed=0)
    model = core.read_model("googlenet-v1")
    affinity = dict(core.query_model(model, "HETERO:NPU,CPU"))
    affinity["pool1/3x3_s2"] = "CPU"
    return len(hetero.crossing_tensors(model, affinity))


EXERCISES = LabExercises("07-hetero", [
    Exercise(1, _submodels_of_four_blocks,
             explain="the NPU trunk, then NPU and CPU parts alternating through the tail: the NPU "
                     "takes each 1x1 convolution, the CPU each Clamp or Sigmoid.",
             hint="count the subgraphs in the figure of section 11 for 8 blocks, then halve the "
                  "tail."),
    Exercise(2, _transfers_to_dgpu, tolerance=0.1, unit="ms",
             explain="each tensor now goes device -> host -> device on both sides: the CPU, being "
                     "the host, made its side free.",
             hint="records = hetero.subgraph_records(compiled, 2)[-1], then "
                  "hetero.transfer_ms(records); it reads the records of the Core you compiled on."),
    Exercise(3, _crossings_with_pool1_on_cpu,
             explain="the cut moves from after the MaxPool to before it; the count stays the "
                     "same, but the tensor that crosses is the MaxPool's input, four times larger.",
             hint="copy the query's dict, change one entry and call "
                  "hetero.crossing_tensors(googlenet, ...)."),
])
