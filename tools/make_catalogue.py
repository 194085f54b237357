"""Write ``ovlab/sim/hardware/catalogue/<preset>.json``: the platforms of Intel's published tables
as platform files built from datasheet figures (issue 35).

Every figure is written as ``{"value": v, "source": "<page>"}`` with the page it comes from. The
figures were written from the author's knowledge of Intel's public spec pages (ark.intel.com
product pages, Intel's product briefs), not downloaded in this session: the ``url`` of each
source is the ARK search for the part, where the product page is one click away. Figures the
author was unsure of say so in ``notes``. No figure comes from the published benchmark rows.

Run ``python tools/make_catalogue.py`` after editing the tables below; the files are the
package's, and users copy one to describe their own machine.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "ovlab" / "sim" / "hardware" / "catalogue"


def ark(part: str) -> dict:
    q = part.replace(" ", "+")
    return {"page": f"Intel ARK: {part} product specifications",
            "url": f"https://ark.intel.com/content/www/us/en/ark/search.html?_charset_=UTF-8&q={q}"}


CONFIG = {"page": "Intel, OpenVINO benchmark results: system configuration of the published "
                  "platforms (dual-socket Xeon servers)",
          "url": "https://docs.openvino.ai/2024/about-openvino/performance-benchmarks.html"}
ISA_NOTE = ("FLOP per cycle from the microarchitecture (Intel 64 and IA-32 Architectures "
            "Optimization Reference Manual), not from this part's page")
OPT = {"page": "Intel 64 and IA-32 Architectures Optimization Reference Manual",
       "url": "https://www.intel.com/content/www/us/en/developer/articles/technical/"
              "intel-sdm.html"}


def fig(value, src):
    return {"value": value, "source": src["page"], "url": src["url"]}


def cpu(part, family, *, cores=None, threads, base=None, turbo=None, p=None, e=None,
        p_base=None, p_turbo=None, e_base=None, e_turbo=None, l3, mem, channels, mts, tdp,
        isa, fma_units=None, sockets=1, mem_gb=32, full_name=None, notes=()):
    src = ark(part)
    d = {"family": fig(family, OPT), "full_name": full_name or f"Intel(R) {part}",
         "threads": fig(threads, src), "l3_mb": fig(l3, src), "memory": fig(mem, src),
         "mem_channels": fig(channels, src), "mem_mts": fig(mts, src), "tdp_w": fig(tdp, src),
         "isa": fig(isa, src), "mem_gb": mem_gb}
    if cores is not None:
        d["cores"] = fig(cores, src)
    if base is not None:
        d["base_ghz"] = fig(base, src)
    if turbo is not None:
        d["turbo_ghz"] = fig(turbo, src)
    if p is not None:
        d.update(cores=fig(p + e, src), p_cores=fig(p, src), e_cores=fig(e, src),
                 p_base_ghz=fig(p_base, src), p_turbo_ghz=fig(p_turbo, src),
                 e_base_ghz=fig(e_base, src), e_turbo_ghz=fig(e_turbo, src))
    if fma_units is not None:
        d["fma_units"] = fig(fma_units, src)
    if sockets != 1:
        d["sockets"] = fig(sockets, CONFIG)
    if notes:
        d["notes"] = list(notes)
    return d


def igpu(part, family, name, *, eus, ghz, notes=()):
    src = ark(part)
    d = {"family": fig(family, OPT), "full_name": f"Intel(R) {name} (iGPU)",
         "eus": fig(eus, src), "gpu_max_ghz": fig(ghz, src)}
    if notes:
        d["notes"] = list(notes)
    return d


def dgpu(part, family, *, xe_cores, ghz, mem_gb, bw, gpus=1, notes=()):
    src = {"page": f"Intel: {part} product brief / ARK",
           "url": ark(part)["url"]}
    d = {"family": fig(family, OPT), "full_name": f"Intel(R) {part} (dGPU)", "discrete": True,
         "xe_cores": fig(xe_cores, src), "gpu_max_ghz": fig(ghz, src),
         "mem_gb": fig(mem_gb, src), "mem_bw_gbs": fig(bw, src), "l3_mb": 1.5}
    if gpus != 1:
        d["gpus"] = fig(gpus, src)
    if notes:
        d["notes"] = list(notes)
    return d


# a Xeon host for the dGPU platforms (its CPU is not a published row of theirs)
HOST_8380 = None  # filled below

PLATFORMS: dict[str, dict] = {}


def add(name, published, description, datasheet, *, fit=False, notes=()):
    PLATFORMS[name] = {"published_platform": published, "description": description,
                       "datasheet": datasheet, "fit": fit, "notes": list(notes)}


# ---- fit platforms --------------------------------------------------------------------------
XEON_8380 = cpu("Xeon Platinum 8380", "ice-lake-sp", cores=40, threads=80, base=2.3, turbo=3.4,
                l3=60, mem="DDR4-3200", channels=8, mts=3200, tdp=270,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI", fma_units=2, sockets=2, mem_gb=512)
add("xeon-platinum-8380", "Intel® Xeon® Platinum 8380",
    "Dual Xeon Platinum 8380 (Ice Lake-SP) server, CPU only.", {"CPU": XEON_8380}, fit=True)
add("xeon-platinum-8480", "Intel® Xeon® Platinum 8480+",
    "Dual Xeon Platinum 8480+ (Sapphire Rapids, AMX) server, CPU only.",
    {"CPU": cpu("Xeon Platinum 8480+", "sapphire-rapids", cores=56, threads=112, base=2.0,
                turbo=3.8, l3=105, mem="DDR5-4800", channels=8, mts=4800, tdp=350,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI, AMX (INT8, BF16)", fma_units=2,
                sockets=2, mem_gb=512)}, fit=True)
add("i7-8700t", "Intel® Core™ i7-8700T", "Core i7-8700T (Coffee Lake-S, 35 W) desktop, CPU only.",
    {"CPU": cpu("Core i7-8700T", "skylake", cores=6, threads=12, base=2.4, turbo=4.0, l3=12,
                mem="DDR4-2666", channels=2, mts=2666, tdp=35, isa="AVX2 (no VNNI)")}, fit=True)
add("i7-1185g7", "Intel® Core™ i7-1185G7",
    "Core i7-1185G7 (Tiger Lake-UP3) and its Iris Xe iGPU.",
    {"CPU": cpu("Core i7-1185G7", "tiger-lake", cores=4, threads=8, base=3.0, turbo=4.8, l3=12,
                mem="LPDDR4x-4266", channels=2, mts=4266, tdp=28,
                isa="AVX-512 (1 FMA unit), AVX-512 VNNI"),
     "GPU.0": igpu("Core i7-1185G7", "xe-lp", "Iris(R) Xe Graphics", eus=96, ghz=1.35)},
    fit=True)
add("core-ultra-7-165h", "Intel® Core™ Ultra 7 processor 165H",
    "Core Ultra 7 165H (Meteor Lake-H): CPU, Arc iGPU (8 Xe-cores) and NPU.",
    {"CPU": cpu("Core Ultra 7 165H", "meteor-lake", threads=22, p=6, e=8, p_base=1.4,
                p_turbo=5.0, e_base=0.9, e_turbo=3.8, l3=24, mem="LPDDR5x-7467", channels=2,
                mts=7467, tdp=28, isa="AVX2, AVX-VNNI",
                notes=["2 low-power E-cores in the SoC tile are not counted (the CPU plugin "
                       "does not schedule inference on them)"]),
     "GPU.0": igpu("Core Ultra 7 165H", "xe-lpg", "Arc(TM) Graphics", eus=128, ghz=2.3),
     "NPU": {"full_name": "Intel(R) AI Boost",
             "tops_int8": fig(11, ark("Core Ultra 7 165H"))}}, fit=True)
add("i9-13900k", "Intel® Core™ i9-13900K", "Core i9-13900K (Raptor Lake-S) desktop, CPU only.",
    {"CPU": cpu("Core i9-13900K", "alder-raptor", threads=32, p=8, e=16, p_base=3.0, p_turbo=5.4,
                e_base=2.2, e_turbo=4.3, l3=36, mem="DDR5-5600", channels=2, mts=5600, tdp=125,
                isa="AVX2, AVX-VNNI",
                notes=["P-core max turbo 5.4 GHz by Turbo Boost 3.0 (5.8 GHz with Thermal "
                       "Velocity Boost on one or two cores)"])}, fit=True)
add("arc-a770m", "Intel® Arc™ A770M",
    "A laptop with an Arc A770M dGPU (the published rows are the dGPU's).",
    {"CPU": cpu("Core i7-12700H", "alder-raptor", threads=20, p=6, e=8, p_base=2.3, p_turbo=4.7,
                e_base=1.7, e_turbo=3.5, l3=24, mem="DDR5-4800", channels=2, mts=4800, tdp=45,
                isa="AVX2, AVX-VNNI", notes=["the host CPU is assumed (an Alder Lake-H laptop)"]),
     "GPU.0": dgpu("Arc A770M Graphics", "xe-hpg", xe_cores=32, ghz=1.65, mem_gb=16, bw=512)},
    fit=True)
add("flex-170", "Intel® Data Center GPU Flex 170",
    "A Xeon server with one Data Center GPU Flex 170 (the published rows are the GPU's).",
    {"CPU": XEON_8380,
     "GPU.0": dgpu("Data Center GPU Flex 170", "xe-hpg", xe_cores=32, ghz=2.05, mem_gb=16,
                   bw=576)},
    fit=True, notes=["the host CPU is assumed (a dual Xeon Platinum 8380)"])

# ---- check platforms: datasheet figures only ------------------------------------------------
add("i7-12700h", "Intel® Core™ i7-12700H",
    "Core i7-12700H (Alder Lake-H) laptop: CPU and Iris Xe iGPU (96 EUs).",
    {"CPU": cpu("Core i7-12700H", "alder-raptor", threads=20, p=6, e=8, p_base=2.3, p_turbo=4.7,
                e_base=1.7, e_turbo=3.5, l3=24, mem="DDR5-4800", channels=2, mts=4800, tdp=45,
                isa="AVX2, AVX-VNNI"),
     "GPU.0": igpu("Core i7-12700H", "xe-lp", "Iris(R) Xe Graphics", eus=96, ghz=1.4)})
add("i7-1360p", "Intel® Core™ i7-1360P",
    "Core i7-1360P (Raptor Lake-P) laptop: CPU and Iris Xe iGPU (96 EUs).",
    {"CPU": cpu("Core i7-1360P", "alder-raptor", threads=16, p=4, e=8, p_base=2.2, p_turbo=5.0,
                e_base=1.6, e_turbo=3.7, l3=18, mem="LPDDR5-6000", channels=2, mts=6000, tdp=28,
                isa="AVX2, AVX-VNNI"),
     "GPU.0": igpu("Core i7-1360P", "xe-lp", "Iris(R) Xe Graphics", eus=96, ghz=1.5)})
add("i7-1185gre", "Intel® Core™ i7-1185GRE",
    "Core i7-1185GRE (Tiger Lake-UP3, embedded) and its Iris Xe iGPU.",
    {"CPU": cpu("Core i7-1185GRE", "tiger-lake", cores=4, threads=8, base=2.8, turbo=4.4, l3=12,
                mem="LPDDR4x-4267", channels=2, mts=4267, tdp=28,
                isa="AVX-512 (1 FMA unit), AVX-512 VNNI"),
     "GPU.0": igpu("Core i7-1185GRE", "xe-lp", "Iris(R) Xe Graphics", eus=96, ghz=1.35)})
add("i5-13600k", "Intel® Core™ i5-13600K", "Core i5-13600K (Raptor Lake-S) desktop, CPU only.",
    {"CPU": cpu("Core i5-13600K", "alder-raptor", threads=20, p=6, e=8, p_base=3.5, p_turbo=5.1,
                e_base=2.6, e_turbo=3.9, l3=24, mem="DDR5-5600", channels=2, mts=5600, tdp=125,
                isa="AVX2, AVX-VNNI")})
add("i9-12900te", "Intel® Core™ i9-12900TE",
    "Core i9-12900TE (Alder Lake-S, 35 W embedded), CPU only.",
    {"CPU": cpu("Core i9-12900TE", "alder-raptor", threads=24, p=8, e=8, p_base=1.1, p_turbo=4.8,
                e_base=0.8, e_turbo=3.6, l3=30, mem="DDR5-4800", channels=2, mts=4800, tdp=35,
                isa="AVX2, AVX-VNNI",
                notes=["E-core base and turbo clocks written from memory and not verified"])})
add("i9-10900te", "Intel® Core™ i9-10900TE",
    "Core i9-10900TE (Comet Lake-S, 35 W embedded), CPU only.",
    {"CPU": cpu("Core i9-10900TE", "skylake", cores=10, threads=20, base=1.8, turbo=4.6, l3=20,
                mem="DDR4-2933", channels=2, mts=2933, tdp=35, isa="AVX2 (no VNNI)")})
add("i5-10500te", "Intel® Core™ i5-10500TE",
    "Core i5-10500TE (Comet Lake-S, 35 W embedded), CPU only.",
    {"CPU": cpu("Core i5-10500TE", "skylake", cores=6, threads=12, base=2.3, turbo=3.7, l3=12,
                mem="DDR4-2666", channels=2, mts=2666, tdp=35, isa="AVX2 (no VNNI)")})
add("i5-8500", "Intel® Core™ i5-8500", "Core i5-8500 (Coffee Lake-S) desktop, CPU only.",
    {"CPU": cpu("Core i5-8500", "skylake", cores=6, threads=6, base=3.0, turbo=4.1, l3=9,
                mem="DDR4-2666", channels=2, mts=2666, tdp=65, isa="AVX2 (no VNNI)")})
add("i3-8100", "Intel® Core™ i3-8100", "Core i3-8100 (Coffee Lake-S) desktop, CPU only.",
    {"CPU": cpu("Core i3-8100", "skylake", cores=4, threads=4, base=3.6, turbo=3.6, l3=6,
                mem="DDR4-2400", channels=2, mts=2400, tdp=65, isa="AVX2 (no VNNI)",
                notes=["no Turbo Boost: 3.6 GHz"])})
add("celeron-6305e", "Intel® Celeron® 6305E",
    "Celeron 6305E (Tiger Lake-UP3, embedded, 2 cores) and its UHD Graphics (48 EUs).",
    {"CPU": cpu("Celeron 6305E", "tiger-lake", cores=2, threads=2, base=1.8, turbo=1.8, l3=4,
                mem="DDR4-3200", channels=2, mts=3200, tdp=15,
                isa="AVX-512 (1 FMA unit), AVX-512 VNNI",
                notes=["no Turbo Boost: 1.8 GHz", "the AVX-512 / VNNI support of this Celeron "
                       "was written from memory and not verified (ARK's instruction-set field)",
                       "iGPU clock written from memory and not verified"]),
     "GPU.0": igpu("Celeron 6305E", "xe-lp", "UHD Graphics", eus=48, ghz=1.25)})
add("atom-x6425e", "Intel Atom® x6425E",
    "Atom x6425E (Elkhart Lake, Tremont cores) and its Gen11 UHD Graphics (32 EUs).",
    {"CPU": cpu("Atom x6425E", "tremont", cores=4, threads=4, base=2.0, turbo=3.0, l3=1.5,
                mem="LPDDR4x-3733", channels=2, mts=3733, tdp=12, isa="SSE4.2 (no AVX)",
                notes=["l3_mb is the 1.5 MB L2 the four Tremont cores share (no L3)"]),
     "GPU.0": igpu("Atom x6425E", "gen11", "UHD Graphics", eus=32, ghz=0.75)})
add("n200", "Intel® Processor N200",
    "Processor N200 (Alder Lake-N, 4 Gracemont E-cores) and its UHD Graphics (32 EUs).",
    {"CPU": cpu("Processor N200", "gracemont", cores=4, threads=4, base=1.0, turbo=3.7, l3=6,
                mem="DDR5-4800", channels=1, mts=4800, tdp=6, isa="AVX2, AVX-VNNI"),
     "GPU.0": igpu("Processor N200", "xe-lp", "UHD Graphics", eus=32, ghz=0.75)})
add("xeon-e-2124g", "Intel® Xeon® E-2124G", "Xeon E-2124G (Coffee Lake-E) server, CPU only.",
    {"CPU": cpu("Xeon E-2124G", "skylake", cores=4, threads=4, base=3.4, turbo=4.5, l3=8,
                mem="DDR4-2666", channels=2, mts=2666, tdp=71, isa="AVX2 (no VNNI)")})
add("xeon-w-1290p", "Intel® Xeon® W-1290P", "Xeon W-1290P (Comet Lake-W) workstation, CPU only.",
    {"CPU": cpu("Xeon W-1290P", "skylake", cores=10, threads=20, base=3.7, turbo=5.3, l3=20,
                mem="DDR4-2933", channels=2, mts=2933, tdp=125, isa="AVX2 (no VNNI)")})
add("xeon-gold-5218t", "Intel® Xeon® Gold 5218T",
    "Dual Xeon Gold 5218T (Cascade Lake) server, CPU only.",
    {"CPU": cpu("Xeon Gold 5218T", "cascade-lake", cores=16, threads=32, base=2.1, turbo=3.8,
                l3=22, mem="DDR4-2666", channels=6, mts=2666, tdp=105,
                isa="AVX-512 (1 FMA unit), AVX-512 VNNI", fma_units=1, sockets=2, mem_gb=192)})
add("xeon-silver-4216r", "Intel® Xeon® Silver 4216R",
    "Dual Xeon Silver 4216 class (Cascade Lake) server, CPU only.",
    {"CPU": cpu("Xeon Silver 4216", "cascade-lake", cores=16, threads=32, base=2.1, turbo=3.2,
                l3=22, mem="DDR4-2400", channels=6, mts=2400, tdp=100,
                isa="AVX-512 (1 FMA unit), AVX-512 VNNI", fma_units=1, sockets=2, mem_gb=192,
                notes=["the author knows ARK's Silver 4216 (these figures), not a '4216R': "
                       "check the part's ARK page"])})
add("xeon-silver-4316", "Intel® Xeon® Silver 4316",
    "Dual Xeon Silver 4316 (Ice Lake-SP) server, CPU only.",
    {"CPU": cpu("Xeon Silver 4316", "ice-lake-sp", cores=20, threads=40, base=2.3, turbo=3.4,
                l3=30, mem="DDR4-2666", channels=8, mts=2666, tdp=150,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI", fma_units=2, sockets=2, mem_gb=256)})
add("xeon-platinum-8270", "Intel® Xeon® Platinum 8270",
    "Dual Xeon Platinum 8270 (Cascade Lake) server, CPU only.",
    {"CPU": cpu("Xeon Platinum 8270", "cascade-lake", cores=26, threads=52, base=2.7, turbo=4.0,
                l3=35.75, mem="DDR4-2933", channels=6, mts=2933, tdp=205,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI", fma_units=2, sockets=2,
                mem_gb=384)})
add("xeon-platinum-8280", "Intel® Xeon® Platinum 8280",
    "Dual Xeon Platinum 8280 (Cascade Lake) server, CPU only.",
    {"CPU": cpu("Xeon Platinum 8280", "cascade-lake", cores=28, threads=56, base=2.7, turbo=4.0,
                l3=38.5, mem="DDR4-2933", channels=6, mts=2933, tdp=205,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI", fma_units=2, sockets=2,
                mem_gb=384)})
add("xeon-platinum-8490h", "Intel® Xeon® Platinum 8490H",
    "Dual Xeon Platinum 8490H (Sapphire Rapids, AMX) server, CPU only.",
    {"CPU": cpu("Xeon Platinum 8490H", "sapphire-rapids", cores=60, threads=120, base=1.9,
                turbo=3.5, l3=112.5, mem="DDR5-4800", channels=8, mts=4800, tdp=350,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI, AMX (INT8, BF16)", fma_units=2,
                sockets=2, mem_gb=512)})
add("xeon-platinum-8580", "Intel® Xeon® Platinum 8580",
    "Dual Xeon Platinum 8580 (Emerald Rapids, AMX) server, CPU only.",
    {"CPU": cpu("Xeon Platinum 8580", "sapphire-rapids", cores=60, threads=120, base=2.0,
                turbo=4.0, l3=300, mem="DDR5-5600", channels=8, mts=5600, tdp=350,
                isa="AVX-512 (2 FMA units), AVX-512 VNNI, AMX (INT8, BF16)", fma_units=2,
                sockets=2, mem_gb=512,
                notes=["Emerald Rapids: timed with the Sapphire Rapids family"])})
add("flex-140", "Intel® Data Center GPU Flex 140",
    "A Xeon server with one Data Center GPU Flex 140 (two ACM-G11 GPUs on one card).",
    {"CPU": XEON_8380,
     "GPU.0": dgpu("Data Center GPU Flex 140", "xe-hpg", xe_cores=16, ghz=1.95, mem_gb=12,
                   bw=336, notes=[
                       "two GPUs of 8 Xe-cores each on one card; one ovlab GPU stands for the "
                       "card (16 Xe-cores, 12 GB, the two GPUs' bandwidth summed)",
                       "memory bandwidth written from memory and not verified"])},
    notes=["the host CPU is assumed (a dual Xeon Platinum 8380)"])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, p in PLATFORMS.items():
        data = {"format": "ovlab-platform", "version": 1, "name": name,
                "description": p["description"], "notes": p["notes"],
                "catalogue": {"published_platform": p["published_platform"],
                              "role": "fit" if p["fit"] else "check",
                              "sources_note": "figures from the author's knowledge of Intel's "
                                              "public spec pages (ARK), not downloaded; the "
                                              "url is ARK's search for the part"},
                "datasheet": p["datasheet"]}
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
    print(f"{len(PLATFORMS)} platform files in {OUT}")


if __name__ == "__main__":
    main()
