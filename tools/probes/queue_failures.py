"""Probe: AsyncInferQueue when inferences fail (runtime reshape error) and when callbacks raise."""

import subprocess
import sys
import time

import numpy as np
import openvino as ov
import openvino.opset13 as ops


def model():
    x = ops.parameter([-1], np.float32, name="x")
    s = ops.parameter([2], np.int64, name="s")
    r = ops.reshape(x, s, special_zero=False)
    return ov.Model([ops.relu(r)], [x, s], "reshape_net")


core = ov.Core()
cm = core.compile_model(model(), "CPU")
good = {0: np.ones(4, np.float32), 1: np.array([2, 2], np.int64)}
bad = {0: np.ones(4, np.float32), 1: np.array([5, 1], np.int64)}


def show(step, fn):
    try:
        r = fn()
        print(f"{step}: ok -> {r!r}", flush=True)
    except BaseException as e:
        print(f"{step}: RAISES {type(e).__name__}: {str(e)[:300]!r}", flush=True)


SCEN = {
    "sync_bad": lambda: [show("infer bad", lambda: cm.create_infer_request().infer(bad))],
}


def q_scen(jobs, order, after, cb_raises=False):
    q = ov.AsyncInferQueue(cm, jobs)
    calls = []

    def cb(req, ud):
        calls.append(ud)
        if cb_raises:
            raise ValueError(f"boom {ud}")

    q.set_callback(cb)
    for i, kind in enumerate(order):
        show(
            f"start_async({kind}{i})",
            lambda kind=kind, i=i: q.start_async(good if kind == "g" else bad, f"{kind}{i}"),
        )
        time.sleep(0.1)
    for a in after:
        show(
            a,
            {
                "wait_all": q.wait_all,
                "is_ready": q.is_ready,
                "idle": q.get_idle_request_id,
                "start": lambda: q.start_async(good, "late"),
            }[a],
        )
        print("   callbacks so far:", calls, flush=True)


arg = sys.argv[1] if len(sys.argv) > 1 else None
if arg is None:
    for name in [
        "sync_bad",
        "async_req",
        "two_bad_jobs2",
        "bad_good_bad_jobs3",
        "bad_then_good_jobs1",
        "bad_then_start",
        "bad_then_idle",
        "two_cb_raise",
        "cb_raise_and_bad",
    ]:
        p = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True)
        print(f"--- {name}: returncode {p.returncode}")
        print("   " + (p.stdout + p.stderr[-600:]).strip().replace("\n", "\n   "))
elif arg == "sync_bad":
    SCEN[arg]()
    req = cm.create_infer_request()
    req.start_async(bad)
    show("wait", req.wait)
    req = cm.create_infer_request()
    req.start_async(bad)
    time.sleep(0.1)
    show("wait_for(10)", lambda: req.wait_for(10))
elif arg == "two_bad_jobs2":
    q_scen(2, "bb", ["wait_all", "wait_all", "is_ready", "start", "wait_all"])
elif arg == "bad_good_bad_jobs3":
    q_scen(3, "bgb", ["wait_all", "wait_all", "idle", "start", "wait_all"])
elif arg == "bad_then_good_jobs1":
    q_scen(1, "bg", ["wait_all", "wait_all"])
elif arg == "two_cb_raise":
    q_scen(2, "gg", ["wait_all", "wait_all"], cb_raises=True)
if arg == "async_req":
    req = cm.create_infer_request()
    got = []
    req.set_callback(lambda ud: got.append(ud), "u")
    req.start_async(bad)
    time.sleep(0.1)
    show("req.wait", req.wait)
    print("   callback ran:", got)
    show("req.wait again", req.wait)
    show("req.wait_for(5)", lambda: req.wait_for(5))
    show("req.results", lambda: req.results)
elif arg == "cb_raise_and_bad":
    q_scen(2, "gb", ["wait_all", "wait_all"], cb_raises=True)
elif arg == "bad_then_start":
    q_scen(1, "b", ["start", "wait_all", "start", "wait_all"])
elif arg == "bad_then_idle":
    q_scen(2, "bb", ["idle", "idle", "is_ready", "wait_all"])
