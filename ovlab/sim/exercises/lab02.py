"""Lab 02 · AUTO device selection: precision filters, model priority, compile failures."""

from __future__ import annotations

import ovlab as ov
import ovlab.properties as props
import ovlab.properties.hint as hints

from . import Exercise, LabExercises

MODEL = "squeezenet1.1"
SETTLE_S = 30  # longer than any compile on the workstation


def _int8_choice() -> str:
    core = ov.Core("workstation", seed=0)
    compiled = core.compile_model(core.read_model(f"{MODEL}:INT8"), "AUTO:GPU.0,NPU,CPU")
    core.clock.sleep(SETTLE_S)
    return compiled.get_property(props.execution_devices)[0]


def _low_high_medium() -> list[str]:
    core = ov.Core("workstation", seed=0)
    model = core.read_model(MODEL)
    P = hints.Priority
    compiled = [core.compile_model(model, "AUTO", {hints.model_priority: p})
                for p in (P.LOW, P.HIGH, P.MEDIUM)]
    core.clock.sleep(SETTLE_S)
    return [m.get_property(props.execution_devices)[0] for m in compiled]


def _both_gpus_fail() -> list[str]:
    core = ov.Core("workstation", seed=0)
    core.faults.fail_compile("GPU.1")
    core.faults.fail_compile("GPU.0")
    compiled = core.compile_model(core.read_model(MODEL), "AUTO")
    core.clock.sleep(SETTLE_S)
    return list(compiled.get_property(props.execution_devices))


EXERCISES = LabExercises("02-auto-device-selection", [
    Exercise(1, _int8_choice,
             explain="the iGPU has no INT8 and is filtered out; of the rest, your list puts the NPU "
                     "first, and naming it made it a candidate.",
             hint="which devices list INT8 in OPTIMIZATION_CAPABILITIES? Then follow your list's "
                  "order."),
    Exercise(2, _low_high_medium,
             explain="the LOW model takes the free dGPU; HIGH skips nothing (no higher priority "
                     "exists), so it shares the dGPU; MEDIUM skips the HIGH model's dGPU.",
             hint="a model skips only devices held by strictly higher priorities, and nothing is "
                  "evicted."),
    Exercise(3, _both_gpus_fail,
             explain="after both GPUs fail, the next candidate is the CPU with the helper's own "
                     "config: AUTO does not compile it again, the helper keeps serving, and it is "
                     "never released, so EXECUTION_DEVICES keeps the helper's name.",
             hint="look at the events: which device is selected after the second failure, and "
                  "is it compiled?"),
])
