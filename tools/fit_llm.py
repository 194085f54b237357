"""Fit the LLM step cost (``ovlab/sim/genai/timing.py``) to Intel's 165H iGPU rows and write it.

    python tools/fit_llm.py [path/to/llm-165h-igpu-fit.csv]

Reads ONLY the fit rows (four models of Intel's Core Ultra 7 165H LLM table); writes
``ovlab/sim/genai/data/llm_fit.json`` with the efficiencies, the per-step overhead and the fit error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ovlab.sim.genai import timing  # noqa: E402
from ovlab.sim.hardware.devices.gpus import ARC_IGPU_165H  # noqa: E402

DEFAULT_CSV = timing.FIT_FILE.with_name("llm-165h-igpu-fit.csv")  # a copy of the shared fit rows


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CSV
    rows = timing.read_rows(path)
    peak, bw = timing.device_peak_and_bandwidth(ARC_IGPU_165H)
    cost, err = timing.fit(rows, peak, bw)
    out = {"device": ARC_IGPU_165H.full_name, "peak_f16_gflops": peak, "bandwidth_gbs": bw,
           "source": "Intel OpenVINO LLM benchmark table, Core Ultra 7 165H iGPU: "
                     + ", ".join(sorted({r["model"] for r in rows})) + f" ({len(rows)} rows)",
           "compute_efficiency": cost.compute_efficiency,
           "attention_efficiency": cost.attention_efficiency,
           "memory_efficiency": cost.memory_efficiency, "step_overhead_s": cost.step_overhead_s,
           "fit_error": err}
    timing.FIT_FILE.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
