"""Probe: which calls load plugins, seen through a later core-level set_property."""

import subprocess
import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops


def model():
    x = ops.parameter([1, 16], np.float32, name="x")
    return ov.Model(
        [ops.relu(ops.matmul(x, ops.constant(np.ones((16, 4), np.float32)), False, False))],
        [x],
        "mlp",
    )


def show(step, fn):
    try:
        r = fn()
        print(f"{step}: ok -> {r!r}", flush=True)
    except BaseException as e:
        print(
            f"{step}: RAISES {type(e).__name__}: {str(e).strip().splitlines()[-1]!r} [{str(e).splitlines()[0]}]",
            flush=True,
        )


SEQ = {
    "A": ["avail", "set_tput", "hint CPU", "hint AUTO", "compile CPU", "compile AUTO"],
    "B": ["compile CPU", "set_tput", "hint CPU", "hint AUTO", "compile AUTO"],
    "C": ["set_tput", "compile CPU", "hint CPU", "hint AUTO", "compile AUTO", "batch", "avail"],
    "D": ["name CPU", "set_streams", "compile CPU", "compile AUTO", "avail"],
    "E": ["set_streams", "avail", "compile AUTO"],
    "F": ["set_foo", "avail", "set_foo"],
}
core = ov.Core()


def comp(dev):
    cm = core.compile_model(model(), dev)
    out = {}
    for k in (
        "PERFORMANCE_HINT",
        "NUM_STREAMS",
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS",
        "EXECUTION_DEVICES",
    ):
        try:
            out[k] = cm.get_property(k)
        except Exception:
            pass
    return out


ACT = {
    "avail": lambda: core.available_devices,
    "set_tput": lambda: core.set_property({"PERFORMANCE_HINT": "THROUGHPUT"}),
    "set_streams": lambda: core.set_property({"NUM_STREAMS": 2}),
    "set_foo": lambda: core.set_property({"FOO": 1}),
    "hint CPU": lambda: core.get_property("CPU", "PERFORMANCE_HINT"),
    "hint AUTO": lambda: core.get_property("AUTO", "PERFORMANCE_HINT"),
    "name CPU": lambda: core.get_property("CPU", "FULL_DEVICE_NAME"),
    "compile CPU": lambda: comp("CPU"),
    "compile AUTO": lambda: comp("AUTO"),
    "batch": lambda: comp("BATCH:CPU(2)"),
}
arg = sys.argv[1] if len(sys.argv) > 1 else None
if arg is None:
    for k in SEQ:
        p = subprocess.run([sys.executable, __file__, k], capture_output=True, text=True)
        print(
            f"--- {k}: rc={p.returncode}\n   "
            + (p.stdout + p.stderr[-300:]).strip().replace("\n", "\n   ")
        )
else:
    for a in SEQ[arg]:
        show(a, ACT[a])
