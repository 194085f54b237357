"""Peak memory of each lab's kernel: every lab runs top to bottom in a fresh kernel, as a learner's
"Run All" does, and the kernel reports its own peak resident set size (``VmHWM`` of
``/proc/self/status``, the high-water mark of RSS; ``ru_maxrss`` where /proc is missing).

Why a kernel's peak: JupyterLab keeps one kernel per open notebook, and a Binder or JupyterHub
user has a fixed memory budget (often 2 GB on mybinder.org), so the sum of the labs a learner
keeps open is what can run out. The target is at most 230 MB per lab (250 MB was the limit;
230 leaves room for a machine whose libraries' builds take more).

    python benchmarks/bench_lab_memory.py              # every lab in labs/
    python benchmarks/bench_lab_memory.py 03 05        # labs whose name starts with 03 or 05
    python benchmarks/bench_lab_memory.py --json out.json
    python benchmarks/bench_lab_memory.py --record     # into benchmarks/results/labs.json,
                                                       # which the docs' tables come from

The baseline (a kernel that only imports what every lab imports) is printed first, so the cost
of a lab's own work can be read as the difference.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
LABS = ROOT / "labs"
LIMIT_MB = 230

PEAK_CELL = """
import os as _os, resource as _resource
def _ovlab_peak_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss / 1024
_ovlab_usage = _resource.getrusage(_resource.RUSAGE_SELF)
print("OVLAB_PEAK_MB", round(_ovlab_peak_mb(), 1), round(_ovlab_usage.ru_utime + _ovlab_usage.ru_stime, 2))
"""

BASELINE = """
import numpy, pandas, plotly.graph_objects, ipywidgets
import ovlab
"""


def peak_of(nb: nbformat.NotebookNode) -> tuple[float, float, float]:
    """Run ``nb`` in a fresh kernel from labs/; return (peak RSS in MB, wall seconds, the
    kernel's CPU seconds). CPU time does not grow when other processes share the cores, wall
    time does."""
    nb = nbformat.from_dict(nb)
    nb.cells.append(nbformat.v4.new_code_cell(PEAK_CELL))
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(LABS)}},
                            store_widget_state=False)
    t0 = time.monotonic()
    client.execute()
    seconds = time.monotonic() - t0
    for out in nb.cells[-1].outputs:
        text = out.get("text", "")
        if "OVLAB_PEAK_MB" in text:
            _, peak, cpu = text.split()
            return float(peak), seconds, float(cpu)
    raise RuntimeError("the kernel did not report its peak memory")


def machine() -> str:
    """The CPU and core count, as the docs quote where a figure was measured."""
    import platform

    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{name}, {os.cpu_count()} vCPUs"


def record(results: dict, path: Path = ROOT / "benchmarks" / "results" / "labs.json") -> None:
    """Merge the peaks into the labs' measurement file (labs not run keep their figures)."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    mem = data.setdefault("memory", {"labs": {}})
    mem["labs"].update({lab: round(r["peak_mb"], 1) for lab, r in results["labs"].items()})
    mem["baseline_mb"] = round(results["baseline"], 1)
    mem["date"] = time.strftime("%Y-%m-%d")
    mem["machine"] = machine()
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded in {path.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labs", nargs="*", help="lab number prefixes (default: every lab)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--record", action="store_true",
                        help="put the peaks in benchmarks/results/labs.json (then run "
                             "tools/lab_tables.py to update the docs)")
    args = parser.parse_args(argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    notebooks = sorted(LABS.glob("[0-9][0-9]-*.ipynb"))
    if args.labs:
        notebooks = [p for p in notebooks if any(p.name.startswith(a) for a in args.labs)]
    base = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(BASELINE)])
    base_mb, _, _ = peak_of(base)
    print(f"{'kernel with the imports only':40} {base_mb:7.1f} MB")
    results = {"baseline": base_mb, "labs": {}}
    over = []
    for path in notebooks:
        mb, seconds, cpu = peak_of(nbformat.read(path, as_version=4))
        results["labs"][path.stem] = {"peak_mb": mb, "wall_s": round(seconds, 1),
                                      "kernel_cpu_s": cpu}
        flag = "" if mb <= LIMIT_MB else f"  over {LIMIT_MB} MB"
        print(f"{path.stem:40} {mb:7.1f} MB  (wall {seconds:4.1f} s, kernel CPU {cpu:4.1f} s)"
              f"{flag}")
        if mb > LIMIT_MB:
            over.append(path.stem)
    if results["labs"]:
        total = sum(r["peak_mb"] for r in results["labs"].values())
        print(f"{'all labs open at once (sum of peaks)':40} {total:7.1f} MB")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if args.record:
        record(results)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
