"""Per-file counts of one suite run, for the README table.

    python -m pytest -q -rA > real.txt                                  # the real wheel
    python -m ovlab run --platform cpu -m pytest -q -rA > ovlab.txt     # under the runner
    python count.py real.txt ovlab.txt

Reads pytest's ``-rA`` summary lines (PASSED/FAILED/XFAIL/XPASS/ERROR per test, SKIPPED per
location with a count) and prints a Markdown table: passed on each runtime, and how many of
the tests that pass on the wheel pass on ovlab (a parametrized case whose id differs between
the runtimes, as enum parameters' ids do, is matched within its function).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(PASSED|FAILED|XFAIL|XPASS|ERROR) upstream/tests/(test_runtime/|test_graph/|test_transformations/)"
                  r"([^:]+)::(\S+)")
SKIP = re.compile(r"^SKIPPED \[(\d+)\] upstream/tests/(test_runtime/|test_graph/|test_transformations/)([^:]+):")
MODULE_ERROR = re.compile(r"^ERROR upstream/tests/(test_runtime/|test_graph/|test_transformations/)([^:\s]+\.py)\b(?!::)")
ERRORS: set[tuple[str, str]] = set()  # (run file, module) pairs that could not be collected


def _file(folder: str, name: str) -> str:
    """test_runtime files by their name, the other folders' as <folder>/<name>."""
    return name if folder == "test_runtime/" else folder + name


def read(path: str) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """Per module: each test's outcome, and the skip count (a module that cannot be collected
    counts as one skip when the harness turned its error into a skip, else as ``ERRORS``)."""
    outcomes: dict[str, dict[str, str]] = defaultdict(dict)
    skipped: dict[str, int] = defaultdict(int)
    for line in open(path, encoding="utf-8"):
        if m := LINE.match(line):
            outcomes[_file(m.group(2), m.group(3))][m.group(4)] = m.group(1)
        elif m := SKIP.match(line):
            skipped[_file(m.group(2), m.group(3))] += int(m.group(1))
        elif m := MODULE_ERROR.match(line):
            module = _file(m.group(1), m.group(2))
            ERRORS.add((path, module))
            outcomes[module]  # noqa: B018 - the module gets its row
    return outcomes, skipped


def _cell(n: int, run: str, module: str) -> str:
    return f"{n} (not collected)" if (run, module) in ERRORS else str(n)


def _by_function(real_only: set[str], lab_only: set[str]) -> int:
    """Passes of the same parametrized function under other ids: pytest names a parameter
    that is a Python enum by its value (ovlab's ColorFormat.RGB) and a pybind enum by the
    argument's name and index (the wheel's color_format10), so the same case has two ids;
    such passes are matched per function, as many as both runtimes have."""
    def per_function(ids: set[str]) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for t in ids:
            counts[t.split("[", 1)[0]] += 1
        return counts

    real, lab = per_function(real_only), per_function(lab_only)
    return sum(min(n, lab.get(f, 0)) for f, n in real.items())


def main(real_path: str, lab_path: str) -> None:
    real, real_skip = read(real_path)
    lab, lab_skip = read(lab_path)
    rows = ["| file | real wheel: passed | ovlab: passed | of the wheel's passes, ovlab passes | "
            "ovlab xfailed (listed) | skipped (both) |", "|---|---|---|---|---|---|"]
    totals = [0, 0, 0, 0]
    for name in sorted(set(real) | set(lab) | set(real_skip) | set(lab_skip)):
        r_pass = {t for t, o in real.get(name, {}).items() if o == "PASSED"}
        l_pass = {t for t, o in lab.get(name, {}).items() if o in ("PASSED", "XPASS")}
        l_xfail = sum(1 for o in lab.get(name, {}).values() if o == "XFAIL")
        both = len(r_pass & l_pass) + _by_function(r_pass - l_pass, l_pass - r_pass)
        rows.append(f"| `{name}` | {_cell(len(r_pass), real_path, name)} | "
                    f"{_cell(len(l_pass), lab_path, name)} "
                    f"| {both} | {l_xfail} | {real_skip.get(name, 0)} / {lab_skip.get(name, 0)} |")
        for i, v in enumerate((len(r_pass), len(l_pass), both, l_xfail)):
            totals[i] += v
    share = 100.0 * totals[2] / totals[0] if totals[0] else 0.0
    rows.append(f"| **all** | **{totals[0]}** | **{totals[1]}** | **{totals[2]} ({share:.1f} %)** "
                f"| {totals[3]} | {sum(real_skip.values())} / {sum(lab_skip.values())} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main(*sys.argv[1:3])
