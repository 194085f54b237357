"""The property-based tests with a nightly-sized budget.

``make test`` runs every hypothesis test with a bounded budget (``budget(n)`` examples,
``tests/pbt_budget.py``); this runs the same tests under the ``nightly`` profile (50 x as many
examples) and prints, per test, how many examples passed and how long it took.

Run: ``python benchmarks/bench_properties.py`` (add ``--profile ovlab`` for the make-test size,
or pytest ``-k`` words after ``--``). It runs pytest in a subprocess, one BLAS thread, no xdist.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    "tests/reliability/test_random_workloads.py",
    "tests/plugins/test_auto_invariants.py",
    "tests/plugins/test_batch_invariants.py",
    "tests/plugins/test_hetero_split.py",
    "tests/runtime/test_time_and_requests.py",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="nightly", help="hypothesis profile (nightly, ovlab)")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               f"--hypothesis-profile={args.profile}", "--hypothesis-show-statistics",
               "-m", "not browser and not binder", *TESTS, *args.pytest_args]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out = done.stdout + done.stderr
    print(f"property-based tests, hypothesis profile {args.profile!r}: {wall:.0f} s wall")
    test = None
    total = 0
    for line in out.splitlines():
        name = re.match(r"^(tests/\S+::\S+):", line.strip())
        if name:
            test = name.group(1)
        counts = re.search(r"(\d+) passing, (\d+) failing", line)
        if counts and test:
            total += int(counts.group(1))
            print(f"  {test}: {counts.group(1)} passing, {counts.group(2)} failing examples")
    print(f"  {total} examples in all; pytest: {out.strip().splitlines()[-1]}")
    if done.returncode:
        print(out[-4000:])
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
