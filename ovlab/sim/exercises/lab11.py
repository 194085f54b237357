"""Lab 11 · Run OpenVINO code unchanged: the workstation's devices, the script's simulated time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from . import Exercise, LabExercises

SCRIPT = Path(__file__).resolve().parents[3] / "labs" / "scripts" / "auto_latency.py"


def _workstation_devices() -> list[str]:
    import ovlab

    return list(ovlab.Core("workstation").available_devices)


def _script_seconds() -> float:
    """Run the lab's script with the runner, as the lab does, and read what it printed."""
    if not SCRIPT.exists():
        raise FileNotFoundError(f"lab 11's script is not at {SCRIPT} (a checkout of the "
                                "repository is needed to compute this answer)")
    run = subprocess.run([sys.executable, "-m", "ovlab", "run", SCRIPT.name],
                         capture_output=True, text=True, cwd=SCRIPT.parent, check=True)
    return float(run.stdout.split(" results in ")[1].split(" s")[0])


EXERCISES = LabExercises("11-run-openvino-code", [
    Exercise(1, _workstation_devices,
             explain="the workstation preset has a CPU, two GPUs and an NPU.",
             hint="run ov.Core().available_devices after ovlab.install(platform='workstation')."),
    Exercise(2, _script_seconds, tolerance=0.01, unit="s",
             explain="300 submissions every 30 ms is 9 s, plus the last results and the 0.5 s the "
                     "script sleeps at the end.",
             hint="look for the line '300 results in ... s'."),
])
