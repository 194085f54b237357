"""Per-module counts of two runs of GenAI's test modules, for the README table.

    python -m pytest -q -rA > real.txt                       # the real openvino_genai wheel
    python -m ovlab run -m pytest -q -rA > ovlab.txt         # under the runner
    python count.py real.txt ovlab.txt

Reads pytest's ``-rA`` summary lines (PASSED/FAILED/ERROR per test) and prints a Markdown
table: passed on each runtime, and how many of the tests that pass on the wheel pass on ovlab.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS) upstream/([^:]+)::(\S+)")


def read(path: str) -> dict[str, dict[str, str]]:
    """Per module: each test's outcome."""
    outcomes: dict[str, dict[str, str]] = defaultdict(dict)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if m := LINE.match(line):
                outcomes[m.group(2)][m.group(3)] = m.group(1)
    return outcomes


def table(real: dict[str, dict[str, str]], lab: dict[str, dict[str, str]]) -> list[str]:
    rows = ["| module | real wheel: passed | ovlab: passed | of the wheel's passes, ovlab passes |",
            "|---|---|---|---|"]
    totals = [0, 0, 0]
    for module in sorted(set(real) | set(lab)):
        real_pass = {t for t, o in real.get(module, {}).items() if o == "PASSED"}
        lab_pass = {t for t, o in lab.get(module, {}).items() if o == "PASSED"}
        row = [len(real_pass), len(lab_pass), len(real_pass & lab_pass)]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        rows.append(f"| `{module}` | {row[0]} | {row[1]} | {row[2]} |")
    share = f" ({100 * totals[2] / totals[0]:.0f} %)" if totals[0] else ""
    rows.append(f"| **all** | {totals[0]} | {totals[1]} | {totals[2]}{share} |")
    return rows


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python count.py real.txt ovlab.txt")
    print("\n".join(table(read(sys.argv[1]), read(sys.argv[2]))))
