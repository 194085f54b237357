"""The ``this-machine`` platform: the CPU ovlab runs on, measured with the real OpenVINO runtime.

``ov.Core(platform="this-machine")``, ``python -m ovlab run --platform this-machine`` and
``ovlab benchmark --platform this-machine`` load it. The first use calibrates the CPU as
``ovlab calibrate`` does (the same measurement and fit, the default models, about half a
minute on a quiet machine) and caches the platform file in the user's cache directory
(``$XDG_CACHE_HOME/ovlab`` or ``~/.cache/ovlab``), keyed by the CPU's model, its logical CPUs
and the OpenVINO version, so a new machine, a new VM size or a new wheel measures again; every
later use loads the file. ``ovlab calibrate --refresh`` measures again.

The ``cpu`` preset is the same kind of copy of one machine (the 2-vCPU AMD EPYC this project was
fitted on, 2026-11-24); ``this-machine`` is the copy of yours.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ..hardware import host
from ..hardware.machine import Platform
from ..hardware.platform_file import load
from . import calibrate as cal
from . import measure

NAME = "this-machine"
REPEAT = 2  # passes over the models, as ``ovlab calibrate``'s default


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/ovlab``, else ``~/.cache/ovlab``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ovlab"


def openvino_version() -> str | None:
    """The installed real wheel's version (its package metadata: nothing is imported), or
    None without it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("openvino")
    except PackageNotFoundError:
        return None


def cache_key(cpu: host.HostCPU, openvino: str) -> str:
    """``<cpu model>-<logical CPUs>cpu-ov<version>``, as a file name."""
    model = re.sub(r"[^a-z0-9]+", "-", re.sub(r"\((r|tm)\)", "", cpu.model.lower())).strip("-")
    return f"{model}-{cpu.threads}cpu-ov{openvino}"


def cache_path(cpu: host.HostCPU | None = None, openvino: str | None = None) -> Path:
    """Where this machine's platform file is (or will be) cached."""
    openvino = openvino or openvino_version() or "none"
    return cache_dir() / f"{NAME}-{cache_key(cpu or host.describe(), openvino)}.json"


def stale(path: Path) -> bool:
    """Whether the platform file at ``path`` was fitted by an older cost model than this
    ovlab's (``calibrate.FIT_VERSION``) and holds the measurements to fit it again."""
    import json

    try:
        made = json.loads(path.read_text(encoding="utf-8")).get("provenance") or {}
    except (OSError, ValueError):
        return False
    measured = any("measured" in run for run in (made.get("devices") or {}).values())
    return measured and int(made.get("fit_version", 1)) < cal.FIT_VERSION


def _missing_wheel() -> cal.CalibrateError:
    return cal.CalibrateError(
        "the 'this-machine' platform is measured with the real OpenVINO runtime, which is not "
        "installed here: pip install openvino (or use a preset: ov.Core(platform='cpu')); "
        "under 'python -m ovlab run' or %load_ext ovlab, use it once outside first")


def progress_bar(stream=None, width: int = 30) -> Callable[[int, int, str], None]:
    """A one-line text progress bar (rewritten in place with ``\\r``) on ``stream`` (stderr)."""
    def show(done: int, total: int, what: str) -> None:
        out = stream or sys.stderr
        filled = int(width * done / max(total, 1))
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what:<28}")
        if done >= total:
            out.write("\n")
        out.flush()
    return show


def this_machine(refresh: bool = False, echo: Callable[[str], None] | None = print,
                 progress: Callable[[int, int, str], None] | None = None) -> Platform:
    """The calibrated platform of this machine's CPU: from the cache, else measured now (or
    measured again with ``refresh``)."""
    openvino = openvino_version()
    if openvino is None:
        raise _missing_wheel()
    cpu = host.describe()
    path = cache_path(cpu, openvino)
    if path.exists() and not refresh:
        if stale(path):  # written by an older cost model: fit again on its own measurements
            if echo:
                echo(f"ovlab: fitting the cached '{NAME}' platform again with this version's "
                     f"cost model, on the measurements it holds ({path})")
            return cal.calibrate_refit([path], path, name=NAME, echo=None)
        return load(path)
    if measure.openvino_or_none() is None:
        raise _missing_wheel()
    say = echo or (lambda _text: None)
    models = cal.DEFAULT_MODELS
    say(f"ovlab: measuring this machine's CPU ({cpu.model}, {cpu.threads} logical CPUs) with "
        f"the real OpenVINO {openvino} to fit the '{NAME}' platform: {len(models)} models, "
        f"FP32 and INT8, latency and throughput, about {estimate_s(cpu)} s on a quiet machine, "
        f"once (cached in "
        f"{path}; ovlab calibrate --refresh measures again)")
    path.parent.mkdir(parents=True, exist_ok=True)
    return cal.calibrate(path, name=NAME, models=models, devices=["CPU"], repeat=REPEAT,
                         echo=None, progress=progress or progress_bar())


def live_comparison(model: str = "googlenet-v1", precision: str = "FP32") -> str:
    """One line: ``model``'s latency on the real runtime beside ``this-machine``'s and the
    ``cpu`` preset's, measured now.

    It runs in a child process: the real ``openvino`` (and a first calibration) would otherwise
    stay in the caller's memory for the rest of the session; in a lab kernel that was 375 MB
    instead of 241 MB (lab 12, measured 2026-11-27). The child's progress (stderr) is passed on
    as it comes, so a first calibration shows its bar.
    """
    code = ("from ovlab.sim.calibration.this_machine import _live_line; "
            f"print(_live_line({model!r}, {precision!r}))")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, bufsize=1)
    err: list[str] = []
    for chunk in iter(lambda: child.stderr.read(64), ""):
        err.append(chunk)
        sys.stderr.write(chunk)
        sys.stderr.flush()
    out = child.stdout.read()
    if child.wait() != 0:
        tail = "".join(err).strip().splitlines()[-1:] or ["(no message)"]
        raise RuntimeError(f"the live comparison failed in its child process: {tail[0]}")
    return out.strip().splitlines()[-1]


def _live_line(model: str, precision: str) -> str:
    from .validation import simulate_benchmark

    mine = this_machine(echo=lambda text: print(text, file=sys.stderr))
    real_ms = next(m.quiet for m in measure.measure([(model, precision)], repeat=1)
                   if m.mode == "latency")
    sim_ms = simulate_benchmark(model, precision, "latency", platform=mine)
    cpu_ms = simulate_benchmark(model, precision, "latency", platform="cpu")
    return (f"{mine.devices['CPU'].full_name}: {model} {precision} latency, real {real_ms:.1f} ms, "
            f"this-machine {sim_ms:.1f} ms (ratio {sim_ms / real_ms:.2f}), "
            f"cpu preset {cpu_ms:.1f} ms (ratio {cpu_ms / real_ms:.2f})")


def estimate_s(cpu: host.HostCPU) -> int:
    """About how long the calibration takes on a quiet machine. Its windows have a fixed length
    (two of 0.2 s per model, precision, mode and pass, after a compile), so more cores hardly
    shorten it, while other programs' load lengthens it (the quiet-window rule measures again).
    Measured: 27 s for the five-model set on a 2-vCPU Xeon (issue 21); 71 s for today's six
    models (``mlp`` added) on this project's 2-vCPU AMD EPYC, with other programs busy for
    part of it (issue 22, 2026-11-27 08:13 UTC); 62 s for seven (``mobilenet-v1`` added) at a
    quiet moment of the same machine (09:47 UTC): about a minute."""
    return 60
