"""The catalogue: every Intel machine of the published OpenVINO tables as a platform file built
from its datasheet (issue 35).

``<preset>.json`` beside this module holds a platform's datasheet figures, each with its source,
and the published platform it stands for (``catalogue.role``: ``fit`` for the eight platforms the
family cost model is fitted on, ``check`` for the others, whose rows were never read). The
devices are built by :mod:`ovlab.sim.hardware.family`. ``ov.Core("i7-12700h")``, ``--platform
i7-12700h`` and ``ov.preset`` load one by name; the five presets that existed before
(``i7-1185g7``, ``core-ultra-7-165h``, ``arc-a770m``, ``flex-170``, ``i9-13900k``) keep their
fitted devices under their names, and their family-model versions are ``family:<name>``.
Copy a file to describe a machine that is not here (``ovlab platforms --show NAME``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: catalogue entries whose names are the presets of issue 13 (``platforms.PUBLISHED``): those
#: presets keep their fitted devices, the family model's version is ``family:<name>``
OLD_PRESETS = ("i7-1185g7", "i9-13900k", "core-ultra-7-165h", "arc-a770m", "flex-170")


def names() -> list[str]:
    """The catalogue's platform names."""
    return sorted(p.stem for p in HERE.glob("*.json"))


@lru_cache(maxsize=64)
def _text(name: str) -> str:
    path = HERE / f"{name}.json"
    if not path.is_file():
        raise KeyError(f"{name!r} is not in the catalogue; it has {', '.join(names())}")
    return path.read_text(encoding="utf-8")


def read(name: str) -> dict:
    """The platform file of ``name`` as a dict (a fresh copy)."""
    return json.loads(_text(name))


def path(name: str) -> Path:
    _text(name)
    return HERE / f"{name}.json"


def platform(name: str):
    """The :class:`Platform` of catalogue entry ``name``, devices built by the family model."""
    from ..platform_file import from_dict

    return from_dict(read(name), f"catalogue/{name}.json")


def summary(name: str) -> dict:
    """One line of ``ovlab platforms``: name, role, published platform, devices (family and the
    main figures), the sources, and for a fit platform its in-sample and leave-one-out errors."""
    from .. import family

    data = read(name)
    devices = []
    sources: set[str] = set()
    for key, block in data["datasheet"].items():
        f = family.figures(block)
        for v in block.values():
            if isinstance(v, dict) and "source" in v:
                sources.add(v["source"])
        if key == "CPU":
            cores = (f"{f['p_cores']}P+{f['e_cores']}E" if f.get("e_cores")
                     else f"{f['cores']}C")
            sockets = f"{f['sockets']}x " if int(f.get("sockets", 1)) > 1 else ""
            devices.append(f"CPU {sockets}{cores} {f['family']}")
        elif key.startswith("GPU"):
            size = f"{f['xe_cores']} Xe" if "xe_cores" in f else f"{f['eus']} EU"
            kind = "dGPU" if f.get("discrete") else "iGPU"
            devices.append(f"{kind} {size} {f['family']}")
        else:
            devices.append(f"NPU {f['tops_int8']} TOPS")
    role = data.get("catalogue", {}).get("role", "")
    errors = family.in_sample_errors().get(name, {}) if role == "fit" else {}
    return {"name": name, "role": role,
            "published": data.get("catalogue", {}).get("published_platform", ""),
            "devices": devices, "sources": sorted(sources), "errors": errors}


def closest(figures: dict, top: int = 3) -> list[tuple[float, str]]:
    """The catalogue platforms nearest to a CPU described by ``figures`` (``family``, ``cores``,
    ``turbo_ghz``, ``tdp_w``, any subset): a different family counts as far as a factor of 4."""
    import math

    from .. import family

    out = []
    for name in names():
        f = family.figures(read(name)["datasheet"]["CPU"])
        d = 0.0 if figures.get("family") in (None, f["family"]) else math.log(4) ** 2
        mine = {"cores": f.get("cores"), "turbo_ghz": f.get("turbo_ghz") or f.get("p_turbo_ghz"),
                "tdp_w": f.get("tdp_w")}
        for key, value in mine.items():
            if key in figures and value:
                d += math.log(float(figures[key]) / float(value)) ** 2
        out.append((math.sqrt(d), name))
    return sorted(out)[:top]


def main(argv: list[str]) -> int:
    """``ovlab platforms``: list the catalogue; ``--show NAME`` prints a platform file to copy;
    ``--closest family=alder-raptor cores=14 turbo_ghz=4.7 tdp_w=45`` finds the nearest."""
    import argparse

    ap = argparse.ArgumentParser(prog="ovlab platforms", description=main.__doc__)
    ap.add_argument("--show", metavar="NAME", help="print NAME's platform file (to copy)")
    ap.add_argument("--closest", nargs="+", metavar="KEY=VALUE",
                    help="the catalogue's platforms nearest to these CPU figures")
    ap.add_argument("--sources", action="store_true", help="list each platform's sources")
    args = ap.parse_args(argv)
    if args.show:
        try:
            print(_text(args.show), end="")
        except KeyError as exc:
            print(f"[ ERROR ] {exc.args[0]}")
            return 1
        return 0
    if args.closest:
        figures = dict(item.split("=", 1) for item in args.closest)
        for distance, name in closest(figures):
            s = summary(name)
            print(f"{name:22s} {distance:5.2f}  {'; '.join(s['devices'])}")
        return 0
    print(f"{'name':26s} {'role':5s}  {'devices':52s} {'in-sample':>10s} {'LOPO':>8s}")
    for name in names():
        s = summary(name)
        ins = s["errors"].get("in_sample", {})
        lopo = s["errors"].get("lopo", {})
        ie = f"{ins['median_pct']:.1f} %" if ins.get("n") else ""
        le = f"{lopo['median_pct']:.1f} %" if lopo.get("n") else ""
        shown = f"family:{name}" if name in OLD_PRESETS else name
        print(f"{shown:26s} {s['role']:5s}  {'; '.join(s['devices']):52s} {ie:>10s} {le:>8s}")
        if args.sources:
            for src in s["sources"]:
                print(f"{'':30s}source: {src}")
    print("\nin-sample / LOPO: median error of the family model on the platform's published rows "
          "(fitted with / without them); check platforms are built from datasheets only. "
          "'ovlab platforms --show NAME' prints a file to copy and edit for your machine.")
    return 0
