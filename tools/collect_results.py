"""Gather the learners' exercise outcomes into one table (for an instructor).

Each learner's checks write ``~/.ovlab/results/<lab>.json`` (or ``$OVLAB_RESULTS_DIR``; see
``ovlab/sim/labtools/results.py``). On a JupyterHub with one home per user, point this script at all
of them:

    python tools/collect_results.py /home/*/.ovlab/results
    python tools/collect_results.py /srv/class/results --csv results.csv --lab 05

It prints one row per learner and one column per exercise (``✓`` right, ``~`` close, ``✗``
wrong, ``?`` revealed before a right answer, empty when not tried) with each learner's count of
right answers, and with ``--csv`` writes every recorded check (verdict, attempts, last answer,
first time right) for a spreadsheet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing ovlab


def main(argv: list[str]) -> int:
    from ovlab.sim.labtools import results

    parser = argparse.ArgumentParser(description="Gather ovlab exercise outcomes.")
    parser.add_argument("paths", nargs="+", help="results directories or files")
    parser.add_argument("--lab", help="only labs whose name starts with this (e.g. 05)")
    parser.add_argument("--csv", help="also write every recorded check to this CSV file")
    args = parser.parse_args(argv)

    frame = results.collect(Path(p) for p in args.paths)
    if args.lab:
        frame = frame[frame["lab"].str.startswith(args.lab)]
    if frame.empty:
        print("no results found under", ", ".join(args.paths))
        return 1
    print(f"{frame['learner'].nunique()} learner(s), {frame['lab'].nunique()} lab(s), "
          f"{len(frame)} exercise record(s)")
    print(results.summary(frame).to_string())
    if args.csv:
        frame.drop(columns=["file"]).to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
