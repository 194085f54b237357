"""ovlab's bf16 CPU against the stored real CPU plugin outputs, per op group.

Prints, for every op label of ``tests/data/bf16-host`` (96 single ops, 2 chains, 13 probes), the
max normalized error (max |ovlab - real| / max |real|) and the fraction of bit-exact elements,
with the bf16 hint against the real default (bf16) outputs and with the f32 hint against the real
f32 outputs, plus the real bf16-vs-f32 distance for scale, and the time of the bf16 runs.

    .venv/bin/python benchmarks/bench_bf16.py
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "graph"))
import bf16_refs as R  # noqa: E402


def main() -> None:
    rows: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0.0, 0, 0, 0.0, 0, 0.0, 0.0])
    for case in R.cases():
        model, inputs, data = R.build(case)
        t = time.perf_counter()
        bf16 = R.run(model, inputs, "bf16")
        t = time.perf_counter() - t
        f32 = R.run(model, inputs, "f32")
        r = rows[(case["group"], case["op"])]
        r[0] += 1
        r[7] += t
        for i, (a, b) in enumerate(zip(bf16, f32, strict=True)):
            rd, rf = data[f"out_default_{i}"], data[f"out_f32_{i}"]
            r[1] = max(r[1], R.normalized_error(a, rd))
            r[2] += int(np.count_nonzero(a == rd))
            r[3] += a.size
            r[4] = max(r[4], R.normalized_error(b, rf))
            r[5] += int(np.count_nonzero(b == rf))
            r[6] = max(r[6], R.normalized_error(rd, rf))
    print(f"{'group':7s} {'op':32s} {'n':>2s} | {'bf16 max norm':>13s} {'exact':>6s} | "
          f"{'f32 max norm':>12s} {'exact':>6s} | {'real bf16~f32':>13s} | {'bf16 s':>6s}")
    for (group, op), (n, eb, xb, tot, ef, xf, spread, t) in rows.items():
        print(f"{group:7s} {op:32s} {n:2d} | {eb:13.2e} {xb / tot:6.3f} | {ef:12.2e} "
              f"{xf / tot:6.3f} | {spread:13.2e} | {t:6.3f}")


if __name__ == "__main__":
    main()
