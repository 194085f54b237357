"""``python -m ovlab check``: the pre-class check an instructor runs on their own machine.

It asks what a class needs, and nothing about the host: no CPU name, core count or speed is
compared with anything (``make test`` holds conformance checks against the real runtime that
belong to the developers, not to a class). Each step prints ``ok`` or ``FAIL`` with the reason:

1. Python and the packages the labs import (JupyterLab and the widget front ends included);
2. a simulated AUTO run (the CPU helper, the switch to the GPU, batches of 16): the simulator
   gives the same timeline on any machine, so this checks the installation, not the host;
3. the digits classifier on the CPU, the GPU and the NPU, with its accuracy;
4. a dashboard built as lab 04 builds it, with its analytic model;
5. where the learners' results go and under which name;
6. with ``--labs``, every lab notebook run top to bottom in a fresh kernel (no output compared:
   the stored outputs are the authors' check, ``make test``), with its wall time.

Exit code 0 when every step passed.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

PACKAGES = ["numpy", "pandas", "simpy", "plotly", "ipywidgets", "anywidget", "jupyterlab",
            "ipykernel", "nbclient"]


def _packages() -> str:
    missing, versions = [], []
    for name in PACKAGES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            missing.append(name)
            continue
        versions.append(f"{name} {getattr(mod, '__version__', '?')}")
    if missing:
        raise RuntimeError(f"missing: {', '.join(missing)} (pip install -r requirements.txt)")
    return f"Python {sys.version.split()[0]}; " + ", ".join(versions)


def _auto_run() -> str:
    import ovlab as ov
    from ovlab import experiments, zoo

    core = ov.Core("laptop", seed=0)
    result = experiments.latency_graph(core, zoo.load("googlenet-v1", "FP16"), "AUTO",
                                       {"PERFORMANCE_HINT": "THROUGHPUT"}, niter=600,
                                       verbose=False)
    frame = result.requests
    switch = next((e for e in result.events if e.kind == "switch"), None)
    if switch is None or not switch.device.startswith("GPU"):
        raise RuntimeError("AUTO never switched to the GPU")
    helper = int(frame["worker"].astype(str).str.startswith("CPU_HELP").sum())
    batched = int((frame["batch_size"].fillna(1) > 1).sum())
    if not helper or not batched:
        raise RuntimeError(f"expected CPU-helper and batched requests, got {helper} and "
                           f"{batched}")
    return (f"600 requests: {helper} on the CPU helper, switch to {switch.device} at "
            f"{switch.time - result.t_start:.2f} s, {batched} in batches")


def _digits() -> str:
    import ovlab as ov
    from ovlab.sim.models import digits

    core = ov.Core("workstation", seed=0)
    x = digits.data().inputs()
    parts = []
    for device in ("CPU", "GPU.0", "NPU"):
        compiled = core.compile_model(digits.model("FP32"), device)
        acc = digits.accuracy(compiled({0: x})[compiled.output(0)])
        if acc < 0.95:
            raise RuntimeError(f"{device}: accuracy {acc:.1%}, expected above 95 %")
        parts.append(f"{device} {acc:.1%}")
    return "digits accuracy " + ", ".join(parts)


def _dashboard() -> str:
    import ovlab as ov

    dash = ov.widgets.LatencyDashboard(niter=400)
    if dash.analytic is None:
        raise RuntimeError("the dashboard has no analytic model")
    return dash.describe().split(";")[0]


def _results() -> str:
    from .labtools import results

    folder = results.results_dir()
    who, source = results.learner_and_source()  # no note printed: this line says it
    where = "off" if folder is None else str(folder)
    note = (" (the login name: on a shared machine ask learners to run "
            "ovlab.labtools.set_learner('name') before their first answer)"
            if source == "login" else "")
    return f"results go to {where}, recorded as {who!r}{note}"


def _labs(labs_dir: Path) -> Callable[[], str]:
    def run() -> str:
        import nbformat
        from nbclient import NotebookClient

        notebooks = sorted(labs_dir.glob("[0-9][0-9]-*.ipynb"))
        if not notebooks:
            raise RuntimeError(f"no lab notebooks in {labs_dir}")
        times, failed = [], []
        for path in notebooks:
            nb = nbformat.read(path, as_version=4)
            t0 = time.monotonic()
            try:
                # the kernel's own stderr (ipykernel's "running over TCP without encryption"
                # warning, once per kernel) would interleave with this command's lines; a
                # failing cell still reaches us as the exception below
                NotebookClient(nb, timeout=600, kernel_name="python3",
                               resources={"metadata": {"path": str(labs_dir)}}).execute(
                    stderr=subprocess.DEVNULL)
            except Exception as err:  # noqa: BLE001 - report every lab, then fail
                failed.append(f"{path.stem}: {type(err).__name__}: {str(err).splitlines()[0]}")
                continue
            times.append(f"{path.stem[:2]} {time.monotonic() - t0:.0f} s")
        if failed:
            raise RuntimeError("; ".join(failed))
        return f"{len(notebooks)} labs ran (wall time here: {', '.join(times)})"
    return run


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="ovlab check", description=__doc__.splitlines()[0])
    parser.add_argument("--labs", nargs="?", const="labs", default=None, metavar="DIR",
                        help="also run every lab notebook in DIR (default: labs)")
    args = parser.parse_args(argv)
    steps: list[tuple[str, Callable[[], str]]] = [
        ("packages", _packages), ("simulated AUTO run", _auto_run),
        ("digits classifier", _digits), ("dashboard", _dashboard), ("results", _results)]
    if args.labs is not None:
        steps.append(("lab notebooks", _labs(Path(args.labs))))
    failures = 0
    for name, step in steps:
        try:
            detail = step()
        except Exception as err:  # noqa: BLE001 - a check reports, it does not crash
            failures += 1
            print(f"FAIL {name}: {type(err).__name__}: {err}")
        else:
            print(f"ok   {name}: {detail}")
    print("ready for class" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0
