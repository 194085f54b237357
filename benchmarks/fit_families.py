"""Fit the family cost model on the eight fit platforms, and estimate its error leave-one-out.

Run: ``python benchmarks/fit_families.py`` fits the family numbers (``hardware/family.py``) on
every unflagged row of ``benchmarks/data/published-fit-platforms.csv`` (Intel's OV-2023.2 and
OV-2024.3 rows of the eight fit platforms) whose model the zoo has, then fits once more without
each fit platform and predicts it (leave-one-platform-out), and prints both by device family.
``--write`` stores the numbers in ``ovlab/sim/hardware/family_fit.json`` (what the catalogue's
platforms are built with) with each fit platform's in-sample and leave-one-out errors;
``--save`` stores the report in ``benchmarks/results/families-<date>.json``.

No row of any other platform is read: the check platforms of ``hardware/catalogue/`` are built
from datasheet figures and these numbers only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

from ovlab.sim.calibration import families as fam
from ovlab.sim.hardware import family

RESULTS = Path(__file__).resolve().parent / "results"


def by_group(rows, errs, key) -> dict[str, dict]:
    groups: dict[str, list[float]] = defaultdict(list)
    for row, e in zip(rows, errs, strict=True):
        groups[key(row)].append(e)
        groups["all"].append(e)
    return {k: fam.summary(v) for k, v in sorted(groups.items())}


def print_table(title: str, ins: dict, lopo: dict) -> None:
    print(f"\n{title}")
    print(f"{'group':28s} {'n':>4s}  {'in-sample med':>13s} {'0.67-1.5x':>9s} {'worst':>6s}"
          f"   {'LOPO med':>8s} {'0.67-1.5x':>9s} {'worst':>6s}")
    for k in ins:
        a, b = ins[k], lopo.get(k, {"n": 0})
        lo = (f"{b['median_pct']:7.1f}% {b['within_067_15']:9.2f} {b['worst']:6.2f}"
              if b.get("n") else f"{'-':>8s} {'-':>9s} {'-':>6s}")
        print(f"{k:28s} {a['n']:4d}  {a['median_pct']:12.1f}% {a['within_067_15']:9.2f} "
              f"{a['worst']:6.2f}   {lo}")


def _md_row(group: str, a: dict, b: dict) -> str:
    lo = (f"{b['median_pct']:.1f} % | {100 * b['within_067_15']:.0f} % | {b['worst']:.2f}"
          if b.get("n") else "- | - | -")
    return (f"| {group} | {a['n']} | {a['median_pct']:.1f} % | {100 * a['within_067_15']:.0f} % "
            f"| {a['worst']:.2f} | {lo} |")


def write_docs(report: dict, path: Path) -> None:
    """Write the tables of ``docs/platforms.md`` between its markers from a saved report."""
    from ovlab.sim.hardware import catalogue

    head = ("| group | figures | in-sample median error | in 0.67-1.5x | worst | LOPO median "
            "error | in 0.67-1.5x | worst |\n|---|---|---|---|---|---|---|---|")
    fams = [head] + [_md_row(k, v, report["by_family"]["lopo"].get(k, {}))
                     for k, v in report["by_family"]["in_sample"].items()]
    plats = [head] + [_md_row(k, v, report["by_platform"]["lopo"].get(k, {}))
                      for k, v in report["by_platform"]["in_sample"].items()]
    cat = ["| preset | role | published platform | devices |", "|---|---|---|---|"]
    for name in catalogue.names():
        s = catalogue.summary(name)
        cat.append(f"| `{name}` | {s['role']} | {s['published']} | {'; '.join(s['devices'])} |")
    text = path.read_text(encoding="utf-8")
    for marker, table in (("FAMILIES", fams), ("PLATFORMS", plats), ("CATALOGUE", cat)):
        start, end = f"<!-- {marker} -->", f"<!-- /{marker} -->"
        before, _, rest = text.partition(start)
        _, _, after = rest.partition(end)
        text = f"{before}{start}\n" + "\n".join(table) + f"\n{end}{after}"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", metavar="REPORT",
                    help="only write docs/platforms.md's tables from a saved report")
    ap.add_argument("--write", action="store_true", help="store the fit in family_fit.json")
    ap.add_argument("--save", action="store_true", help="store the report in results/")
    ap.add_argument("--max-nfev", type=int, default=300)
    args = ap.parse_args(argv)
    docs = Path(__file__).resolve().parents[1] / "docs" / "platforms.md"
    if args.docs:
        write_docs(json.loads(Path(args.docs).read_text(encoding="utf-8")), docs)
        print(f"wrote the tables of {docs}")
        return 0

    rows = fam.read_rows()
    t0 = time.time()
    params = fam.fit(rows, max_nfev=args.max_nfev)
    ins = fam.errors(rows, params)
    print(f"fitted on {len(rows)} rows of {len(fam.FIT_PLATFORMS)} platforms in "
          f"{time.time() - t0:.0f} s")
    lopo_by_platform = fam.leave_one_platform_out(rows, params, max_nfev=args.max_nfev)
    lopo_rows, lopo_errs = [], []
    for preset, errs in lopo_by_platform.items():
        lopo_rows += [r for r in rows if r.preset == preset]
        lopo_errs += errs
    print(f"leave-one-platform-out done in {time.time() - t0:.0f} s")
    ins_fam = by_group(rows, ins, fam.device_family)
    lopo_fam = by_group(lopo_rows, lopo_errs, fam.device_family)
    ins_plat = by_group(rows, ins, lambda r: f"{r.preset} {r.device}")
    lopo_plat = by_group(lopo_rows, lopo_errs, lambda r: f"{r.preset} {r.device}")
    print_table("by device family", ins_fam, lopo_fam)
    print_table("by fit platform and device", ins_plat, lopo_plat)
    per_row = [{"row": r.label, "source": r.source, "published": r.value,
                "in_sample_ratio": round(math.exp(e), 3)}
               for r, e in zip(rows, ins, strict=True)]
    lopo_of = {(r.label, r.source): e for r, e in zip(lopo_rows, lopo_errs, strict=True)}
    for item, r in zip(per_row, rows, strict=True):
        e = lopo_of.get((r.label, r.source))
        item["lopo_ratio"] = None if e is None else round(math.exp(e), 3)
    report = {"date": datetime.date.today().isoformat(), "rows": len(rows),
              "models": sorted(fam.MODELS), "by_family": {"in_sample": ins_fam,
                                                          "lopo": lopo_fam},
              "by_platform": {"in_sample": ins_plat, "lopo": lopo_plat}, "per_row": per_row}
    if args.save:
        RESULTS.mkdir(exist_ok=True)
        out = RESULTS / f"families-{report['date']}.json"
        out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"report in {out}")
    if args.write:
        platforms = {}
        for preset in fam.FIT_PLATFORMS:
            sel = [i for i, r in enumerate(rows) if r.preset == preset]
            platforms[preset] = {
                "in_sample": fam.summary([ins[i] for i in sel]),
                "lopo": fam.summary(lopo_by_platform.get(preset, []))}
        stored = {"note": "written by benchmarks/fit_families.py --write; do not edit",
                  "date": report["date"], "rows": len(rows), "models": sorted(fam.MODELS),
                  "params": params, "platforms": platforms}
        family.FIT_FILE.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {family.FIT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
