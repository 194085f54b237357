"""Lab 08 · When a device fails: where the re-run goes, how many failures, what the wait is."""

from __future__ import annotations

import ovlab as ov

from . import Exercise, LabExercises


def _paced(core, compiled, n: int, interval_ms: float) -> None:
    """n requests every interval_ms through an AsyncInferQueue (the lab's paced_workload)."""
    queue = ov.AsyncInferQueue(compiled)
    for i in range(n):
        queue.start_async(userdata=i)
        core.clock.sleep(interval_ms / 1000)
    queue.wait_all()


def _rerun_device() -> str:
    core = ov.Core("workstation", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), "AUTO")
    core.clock.sleep(10)
    core.faults.fail_inference("GPU.1", nth=1)
    request = compiled.create_infer_request()
    request.start_async()
    request.wait()
    return core.trace.inferences[-1].device


def _failed_records() -> int:
    core = ov.Core("laptop", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), "AUTO")
    core.clock.sleep(10)
    core.faults.fail_inference("GPU.0", nth=5, count=3)
    _paced(core, compiled, 20, 30)
    return int((core.trace.to_frame()["status"] == "failed").sum())


def _rerun_wait_ms() -> float:
    core = ov.Core("laptop", seed=0)
    core.faults.fail_inference("GPU.0", nth=20)
    _paced(core, core.compile_model(core.read_model("googlenet-v1"), "AUTO"), 400, 30)
    records = core.trace.to_frame()
    seq = records.loc[records["status"] == "failed", "seq"].iloc[0]
    failed, rerun = records[records["seq"] == seq].sort_values("started").itertuples()
    return round((rerun.started - failed.finished) * 1000, 1)


EXERCISES = LabExercises("08-when-a-device-fails", [
    Exercise(1, _rerun_device,
             explain="the fallback takes the next device in AUTO's order (dGPU > iGPU > CPU); it "
                     "compiles the iGPU first, which takes seconds, so that request waits long.",
             hint="which device would plain AUTO choose on the workstation if GPU.1 did not "
                  "exist?"),
    Exercise(2, _failed_records,
             explain="after the first failure the GPU left the candidates: the next inferences "
                     "ran on the CPU, so the GPU never got to fail again.",
             hint="under LATENCY only one inference is in flight; where do the ones after the "
                  "first failure run?"),
    Exercise(3, _rerun_wait_ms, tolerance=2, unit="ms",
             explain="that is the CPU compile (compile_start to compile_end of the CPU in the "
                     "events): the fallback device is compiled only when the failure happens.",
             hint="subtract the failed record's 'finished' from the re-run's 'started' (both in "
                  "ms in the table of section 2)."),
])
