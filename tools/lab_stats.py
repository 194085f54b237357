"""How long each lab is: code cells, words of prose, exercises, and the time a class needs.

    python tools/lab_stats.py            # a table of every lab
    python tools/lab_stats.py --markdown # the same as a Markdown table
    python tools/lab_stats.py --write    # into benchmarks/results/labs.json, which the docs'
                                         # tables are rendered from (tools/lab_tables.py)

Reading time is the prose (markdown words) at 200 words a minute, the pace the newcomer review
used; a class also runs the cells, reads the tables and figures, and tries each exercise, so the
class time adds 4 minutes per exercise and 5 for running and looking, rounded up to 5 minutes.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS_PER_MINUTE = 200
MINUTES_PER_EXERCISE = 4
MINUTES_TO_RUN_AND_LOOK = 5


@dataclass
class LabStats:
    lab: str
    code_cells: int
    words: int
    exercises: int

    @property
    def reading_min(self) -> float:
        return self.words / WORDS_PER_MINUTE

    @property
    def class_min(self) -> int:
        total = (self.reading_min + MINUTES_PER_EXERCISE * self.exercises
                 + MINUTES_TO_RUN_AND_LOOK)
        return int(5 * math.ceil(total / 5))


def stats(src: Path) -> LabStats:
    import jupytext

    cells = jupytext.read(src).cells
    prose = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    prose = re.sub(r"\]\([^)]*\)", "]", prose)  # a link's address is not read
    exercises = len(set(re.findall(r"^\*\*(\d+)\.\*\*", prose, re.M)))
    return LabStats(src.stem, sum(c.cell_type == "code" for c in cells),
                    len(re.findall(r"\S+", prose)), exercises)


def all_stats(root: Path = ROOT) -> list[LabStats]:
    return [stats(src) for src in sorted((root / "lab-sources").glob("[0-9][0-9]-*.py"))]


DATA = ROOT / "benchmarks" / "results" / "labs.json"


def as_json(rows: list[LabStats]) -> dict:
    return {r.lab: {"code_cells": r.code_cells, "words": r.words,
                    "reading_min": round(r.reading_min, 1), "exercises": r.exercises,
                    "class_min": r.class_min} for r in rows}


def write(rows: list[LabStats], path: Path = DATA) -> None:
    """Put the stats in the labs' measurement file, beside the memory figures."""
    import json

    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data["stats"] = as_json(rows)
    data.setdefault("memory", {"labs": {}, "baseline_mb": 0.0, "date": "", "machine": ""})
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    rows = all_stats()
    if "--write" in argv:
        write(rows)
        print(f"wrote {DATA.relative_to(ROOT)} ({len(rows)} labs)")
        return 0
    if "--markdown" in argv:
        print("| lab | code cells | words | reading (min) | exercises | class time (min) |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r.lab} | {r.code_cells} | {r.words} | {r.reading_min:.0f} | "
                  f"{r.exercises} | {r.class_min} |")
        return 0
    print(f"{'lab':40} {'cells':>5} {'words':>6} {'read':>5} {'ex':>3} {'class':>6}")
    for r in rows:
        print(f"{r.lab:40} {r.code_cells:5d} {r.words:6d} {r.reading_min:5.1f} {r.exercises:3d} "
              f"{r.class_min:6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
