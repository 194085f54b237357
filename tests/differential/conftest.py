"""The differential tests (``diff_harness.py``): skipped where the real wheels are missing;
one line per family at the end of the run with the number of generated cases it compared."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter):
    totals: dict[str, list[int]] = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for key, value in getattr(rep, "user_properties", ()) or ():
                if key == "compared" and getattr(rep, "when", "call") == "call":
                    family, n, explained = value
                    t = totals.setdefault(family, [0, 0])
                    t[0] += n
                    t[1] += explained
    if not totals:
        return
    terminalreporter.write_sep("-", "differential tests: generated cases compared")
    for family in sorted(totals):
        n, explained = totals[family]
        terminalreporter.write_line(f"{family:<28} {n:>6} compared, {explained:>4} differed "
                                    "as listed in known_differences.py")
