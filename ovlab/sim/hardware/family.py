"""The family cost model (issue 35): a device from its datasheet and its family's fitted numbers.

A machine of Intel's published tables is described by datasheet figures only (a platform file's
``"datasheet"`` block, ``hardware/catalogue/*.json``): cores, P/E cores, base and turbo clocks,
sockets, ISA, cache, memory channels and speed; a GPU's EUs and clock; an NPU's TOPS. This module
turns them into :class:`DeviceSpec` s:

* **Peaks from the ISA and the family, not from the machine.** FLOP per cycle and core: 32 for
  two 256-bit FMA pipes (Skylake / Coffee / Comet Lake, Alder / Raptor / Meteor Lake P-cores) or
  one 512-bit FMA unit (Tiger Lake, Xeon Silver / Gold 5xxx), 64 for two 512-bit units (Xeon
  Platinum, Ice Lake-SP, Sapphire / Emerald Rapids), 16 for a Gracemont / Crestmont E-core, 8 for
  Tremont (SSE, no FMA). INT8: 4x f32 with VNNI (AVX-512 VNNI, AVX-VNNI), 2x without
  (``vpmaddubsw``); AMX: 2048 int8 and 1024 bf16 ops per cycle and core. GPU EUs: 16 f32 FLOP per
  cycle, f16 2x; int8 4x by DP4a (Xe), 2x without (Gen11); XMX (Xe-HPG): 128 f16 FLOP per EU and
  cycle, int8 2x. The clock is ``base + turbo_share x (turbo - base)`` (``turbo_share`` fitted
  once for all CPUs), times the sockets.
* **Efficiencies per family, fitted on the fit platforms** (``family_fit.json``, written by
  ``benchmarks/fit_families.py`` from Intel's rows of the eight fit platforms): the fraction of
  each ISA rule's peak a dense convolution reaches, a multiplier per efficiency group (the
  families of one group share it; a group without a fit platform has 1), the op-kind factors
  (depthwise, other), per-op and per-inference costs, stream scaling. Bandwidth is the
  datasheet's channels x transfer rate x 8 bytes.
* **Combined devices.** CPU+iGPU CUMULATIVE_THROUGHPUT runs both under the package's TDP: the
  CPU draws the TDP, the iGPU its EUs x clock x ``igpu_w_eu_ghz`` (fitted on the two CPU+iGPU
  fit platforms), each at TDP / (sum of the draws) of its speed when both are busy.
* **LATENCY on a hybrid CPU** takes the cores OpenVINO's CPU plugin picks
  (``DeviceSpec.latency_cores``): Meteor Lake's one stream spans the P- and E-cores.

The family model is deliberately simpler than the existing presets' (no memory-bandwidth
sharing, no automatic batching on GPUs: a GPU's THROUGHPUT streams stand for it, with a fitted
stream scaling), so that ``benchmarks/fit_families.py``'s fast predictor (``fit.predict``) and the
simulator agree exactly (``tests/hardware/test_family.py``).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from .specs import DEPTHWISE_I8_RATE, DeviceSpec

FIT_FILE = Path(__file__).with_name("family_fit.json")

#: CPU microarchitectures: FLOP per cycle and core (f32), the int8 rule and the efficiency group
CPU_FAMILIES: dict[str, dict[str, Any]] = {
    # AVX2, two 256-bit FMA pipes, no VNNI
    "skylake": {"f32": 32, "int8": "novnni", "group": "avx2",
                "doc": "Skylake / Kaby / Coffee / Comet Lake: AVX2, no VNNI"},
    # AVX-512 with VNNI; ``fma_units`` in the datasheet says 1 or 2
    "cascade-lake": {"f32": 32, "int8": "vnni", "group": "avx512-server",
                     "doc": "Cascade Lake Xeon: AVX-512 VNNI"},
    "ice-lake-sp": {"f32": 32, "int8": "vnni", "group": "avx512-server",
                    "doc": "Ice Lake-SP Xeon: AVX-512 VNNI"},
    "tiger-lake": {"f32": 32, "int8": "vnni", "group": "avx512-client",
                   "doc": "Ice Lake / Tiger Lake client: AVX-512 VNNI, one FMA unit"},
    "alder-raptor": {"f32": 32, "e_f32": 16, "int8": "vnni", "group": "hybrid",
                     "doc": "Alder / Raptor Lake: P-cores AVX2 + AVX-VNNI, Gracemont E-cores"},
    "meteor-lake": {"f32": 32, "e_f32": 16, "int8": "vnni", "group": "hybrid",
                    "blocked_cores": True,
                    "doc": "Meteor Lake: Redwood Cove P-cores, Crestmont E-cores (and two LP "
                           "E-cores OpenVINO leaves out), AVX-VNNI"},
    "sapphire-rapids": {"f32": 32, "int8": "amx", "group": "amx",
                        "doc": "Sapphire / Emerald Rapids: AVX-512 VNNI, AMX (int8, bf16)"},
    "gracemont": {"f32": 16, "int8": "vnni", "group": "atom",
                  "doc": "Gracemont E-cores only (Alder Lake-N): AVX2 + AVX-VNNI"},
    "tremont": {"f32": 8, "int8": "novnni", "group": "atom",
                "doc": "Tremont (Elkhart Lake): SSE4.2, no FMA, no VNNI"},
}
#: GPU families: int8 rule and efficiency group
GPU_FAMILIES: dict[str, dict[str, Any]] = {
    "gen11": {"int8": "none", "xmx": False, "group": "xe-lp",
              "doc": "Gen11 (Ice / Elkhart Lake): no DP4a, int8 at the f16 rate"},
    "xe-lp": {"int8": "dp4a", "xmx": False, "group": "xe-lp",
              "doc": "Xe-LP (Tiger / Alder / Raptor Lake iGPUs): DP4a"},
    "xe-lpg": {"int8": "dp4a", "xmx": False, "group": "xe-lpg",
               "doc": "Xe-LPG (Meteor Lake Arc iGPU): DP4a, no XMX"},
    "xe-hpg": {"int8": "xmx", "xmx": True, "group": "xe-hpg",
               "doc": "Xe-HPG (Arc A-series, Flex): XMX matrix engines"},
}
#: the families with AVX-512 (16 f32 lanes)
AVX512 = ("cascade-lake", "ice-lake-sp", "tiger-lake", "sapphire-rapids")
CPU_GROUPS = sorted({f["group"] for f in CPU_FAMILIES.values()})
GPU_GROUPS = sorted({f["group"] for f in GPU_FAMILIES.values()})


@lru_cache(maxsize=1)
def _stored() -> dict:
    return json.loads(FIT_FILE.read_text(encoding="utf-8"))


def fitted_params() -> dict:
    """The family model's numbers (``family_fit.json``'s ``"params"``)."""
    return _stored()["params"]


def in_sample_errors() -> dict:
    """The in-sample and leave-one-platform-out errors stored with the fit, by fit platform."""
    return _stored().get("platforms", {})


def _value(figure: Any) -> Any:
    """A datasheet figure: ``{"value": v, "source": ...}`` or the bare value."""
    return figure["value"] if isinstance(figure, dict) and "value" in figure else figure


def figures(block: dict) -> dict[str, Any]:
    """A datasheet block without its sources: name -> value."""
    return {k: _value(v) for k, v in block.items() if k not in ("sources", "notes")}


def _clock(d: dict, prefix: str, params: dict, share: str = "turbo_share") -> float:
    """The sustained clock: ``base + share x (turbo - base)``, with the THROUGHPUT share
    (every core busy) or the LATENCY share (``turbo_latency``: one stream, more headroom)."""
    base = float(d.get(f"{prefix}base_ghz") or d.get(f"{prefix}turbo_ghz"))
    turbo = float(d.get(f"{prefix}turbo_ghz") or base)
    return base + _turbo_share(d, params, share) * (turbo - base)


def _turbo_share(d: dict, params: dict, share: str) -> float:
    """How far above base the busy cores run: ``params.cpu[share]`` at 5 W of TDP per core,
    higher with more watts per core (``turbo_slope``: a 28 W laptop chip of 14 cores sustains
    less of its turbo than a 35 W desktop chip of 6)."""
    c = params["cpu"]
    s = min(max(c[share], 1e-6), 1 - 1e-6)
    cores = int(d.get("p_cores") or d.get("cores")) + int(d.get("e_cores") or 0)
    watts = float(d.get("tdp_w") or 5.0 * cores) / cores
    x = math.log(s / (1 - s)) + c.get("turbo_slope", 0.0) * math.log(watts / 5.0)
    return 1 / (1 + math.exp(-x))


def _prefix(d: dict) -> str:
    return "p_" if "p_base_ghz" in d or "p_turbo_ghz" in d else ""


def cpu_peaks(d: dict, params: dict) -> tuple[dict[str, float], float]:
    """(peak GFLOP/s per precision, E-core capacity relative to a P-core) of a CPU datasheet."""
    fam = CPU_FAMILIES[d["family"]]
    sockets = int(d.get("sockets", 1))
    per_core = fam["f32"] * (2 if int(d.get("fma_units", 1)) == 2 and fam["f32"] == 32 else 1)
    p = int(d.get("p_cores") or d["cores"])
    e = int(d.get("e_cores") or 0)
    clk_p = _clock(d, _prefix(d), params)
    p_flops = p * per_core * clk_p
    e_flops, e_perf = 0.0, 1.0
    if e:
        clk_e = _clock(d, "e_", params)
        e_flops = e * fam.get("e_f32", 16) * clk_e
        e_perf = fam.get("e_f32", 16) * clk_e / (per_core * clk_p)
    f32 = sockets * (p_flops + e_flops)
    peaks = {"f32": f32}
    if fam["int8"] == "vnni":
        peaks["i8"] = 4 * f32
    elif fam["int8"] == "novnni":
        peaks["i8"] = 2 * f32
    else:  # AMX tiles
        peaks["i8"] = sockets * p * 2048 * clk_p
        peaks["bf16"] = sockets * p * 1024 * clk_p
    return peaks, e_perf


def cpu_channel_blocks(family: str) -> dict[str, tuple[int, int]]:
    """(K block, N block) of a CPU's convolutions and matrix products per precision, from the
    ISA (``cost.tile_utilisation``): AMX's tiles are 16 rows x 64 bytes, so int8 reduces K in
    64s and bf16 in 32s into 16 columns; the vector units compute N in vector lanes (16 f32 in
    512 bits, 8 in 256, 4 in SSE) and a VNNI dot product sums K in 4s (int8 in one 32-bit
    lane); without VNNI (``vpmaddubsw``) in 2s."""
    fam = CPU_FAMILIES[family]
    lanes = 16 if family in AVX512 else (4 if family == "tremont" else 8)
    blocks = {"f32": (1, lanes)}
    if fam["int8"] == "amx":
        blocks.update({"i8": (64, 16), "bf16": (32, 16)})
    else:
        blocks["i8"] = (4 if fam["int8"] == "vnni" else 2, lanes)
    return blocks


def gpu_channel_blocks(family: str) -> dict[str, tuple[int, int]]:
    """(K block, N block) of a GPU's convolutions and matrix products (``cost.tile_utilisation``):
    Xe-HPG's XMX (DPAS) computes an 8-deep systolic product of 32-bit lanes, so K in 32s (int8)
    or 16s (f16), into 8 columns (execution size 8); the vector engines (DP4a) sum int8 K in
    4s into SIMD-16 output-feature blocks (clDNN's fsv16 layouts)."""
    if GPU_FAMILIES[family]["xmx"]:
        return {"f32": (1, 16), "f16": (16, 8), "i8": (32, 8)}
    return {"f32": (1, 16), "f16": (2, 16),
            "i8": (4 if GPU_FAMILIES[family]["int8"] == "dp4a" else 2, 16)}


#: CPU families without AVX-512 (256-bit vector registers at most): their int8 matrix products
#: run at the fitted ``cpu.matmul_i8`` share of the int8 rule (fifth round: held out, BERT INT8
#: was 1.32-1.86x too fast on the i7-8700T, i9-13900K and Core Ultra 7 165H, 0.92-1.17x on the
#: AVX-512 VNNI CPUs, while ResNet-50 INT8 throughput on the same AVX2 CPUs was within 0.96-1.05x)
AVX2_ONLY = tuple(f for f in CPU_FAMILIES if f not in AVX512)


def cpu_rule(family: str, precision: str) -> str:
    """The efficiency rule of a CPU computing ``precision``: f32, i8-vnni, i8-novnni, i8-amx,
    bf16-amx."""
    if precision == "f32":
        return "f32"
    return f"{precision}-{CPU_FAMILIES[family]['int8']}"


def gpu_rule(family: str, precision: str) -> str:
    fam = GPU_FAMILIES[family]
    if precision == "f32":
        return "f32"
    if precision == "f16":
        return "f16-xmx" if fam["xmx"] else "f16"
    return {"dp4a": "i8-dp4a", "xmx": "i8-xmx", "none": "i8-none"}[fam["int8"]]


def _eff(section: dict, rule: str, group: str) -> float:
    base = section["eff"].get(rule, section["eff"].get("prior", 0.5))
    return min(1.0, base * section["group_mult"].get(group, 1.0))


def _per_op_wide(c: dict, cores: int) -> float:
    """A LATENCY stream's fork / join per op over ``cores`` threads: ``per_op_sync_s`` x
    cores ^ ``sync_exp`` (1: the master wakes and waits for each thread in turn, as Intel's
    small-model latencies say: a Xeon 8480+'s 56 cores take 1.2-1.4x the 40 of a Xeon 8380 on
    yolo_v8n, MobileNets and yolo-v3-tiny INT8 whatever AMX's 4x peak); without ``sync_exp``
    (the second round's fit), a tree barrier: log2 of the cores."""
    if "sync_exp" in c:
        return c.get("per_op_sync_s", 0.0) * cores ** c["sync_exp"]
    return c.get("per_op_sync_s", 0.0) * math.log2(cores)


def cpu_spec(ds: dict, params: dict | None = None, name: str = "") -> DeviceSpec:
    """The CPU of a datasheet block (``figures`` of a platform file's ``datasheet.CPU``)."""
    params = params or fitted_params()
    c = params["cpu"]
    d = figures(ds)
    fam = CPU_FAMILIES[d["family"]]
    peaks, e_perf = cpu_peaks(d, params)
    sockets = int(d.get("sockets", 1))
    p = int(d.get("p_cores") or d["cores"])
    e = int(d.get("e_cores") or 0)
    cores = sockets * (p + e)
    eff = {prec: _eff(c, cpu_rule(d["family"], prec), fam["group"]) for prec in peaks}
    amx = fam["int8"] == "amx"
    dw_bf16 = 1.0
    # a depthwise convolution has one input channel per output: nothing along K for a dot
    # product instruction to sum (VNNI's 4, vpmaddubsw's 2, AMX's tiles), so its int8 runs on
    # 16-bit multiply-adds at half the int8 rule's rate (``specs.DEPTHWISE_I8_RATE``, the rule
    # of issue 22's memory physics; a fitted factor came out 0.44)
    dw_i8 = DEPTHWISE_I8_RATE
    if amx:
        # AMX tiles do not take a depthwise convolution (one input channel per output: nothing
        # to sum along K): it runs on the AVX-512 units, int8 at VNNI's rate (4x f32, then the
        # half above) and bf16 by AVX512_BF16 (2x f32), at those rules' efficiencies
        dw_i8 *= (4 * peaks["f32"] * _eff(c, "i8-vnni", fam["group"])
                  / (peaks["i8"] * eff["i8"]))
        dw_bf16 = 2 * peaks["f32"] * eff["f32"] / (peaks["bf16"] * eff["bf16"])
    if sockets > 1:  # the second socket's share of the work crosses the socket link
        eff = {prec: v * c["socket_eff"] for prec, v in eff.items()}
    bw = sockets * int(d["mem_channels"]) * float(d["mem_mts"]) * 8 / 1000
    # LATENCY: one stream on one socket (the CPU plugin keeps it on a NUMA node), at the
    # clock of a few busy cores
    latency_clock = (_clock(d, _prefix(d), params, "turbo_latency")
                     / _clock(d, _prefix(d), params)) / sockets
    caps = ("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT") + (("BF16",) if amx else ())
    threads = int(d.get("threads") or cores) * (sockets if "threads" in d else 1)
    return DeviceSpec(
        plugin="CPU", full_name=d.get("full_name") or name, device_type="integrated",
        capabilities=caps, peak_gflops=peaks, efficiency=eff["f32"], mem_bw_gbs=bw,
        mem_size_gb=float(d.get("mem_gb", 32)), link_gbs=bw, link_latency_s=2e-6,
        per_op_s=c["per_op_s"], per_infer_s=c["per_infer_s"], first_infer_factor=2.0,
        compile_base_s=0.08, compile_per_op_s=0.6e-3, compile_per_mb_s=1e-3, cached_load_s=0.03,
        streams_throughput=max(1, cores), range_for_streams=(1, max(1, threads)),
        range_for_async_infer_requests=(1, 1, 1), requests_per_stream=1,
        stream_scaling=c["stream_scaling"], jitter=0.03,
        inference_precision="bf16" if amx else "f32",
        p_cores=sockets * p if e else 0, e_cores=sockets * e, e_core_perf=e_perf,
        efficiency_by_precision=eff,
        kind_efficiency={"depthwise": c["depthwise"], "matmul": 1.0, "other": c["other"]},
        mem_efficiency=c["mem_efficiency"], fuse_ops=True, async_overhead_s=1e-5,
        cache_mb=sockets * float(d.get("l3_mb", 8)),
        depthwise_i8_rate=dw_i8, depthwise_bf16_rate=dw_bf16,
        matmul_i8_rate=(c.get("matmul_i8", 1.0) if d["family"] in AVX2_ONLY else 1.0),
        # S THROUGHPUT streams each hold their own activations: each has 1 / S of the
        # last-level cache, whose traffic moves at ``llc_gbps_core`` per core
        # (never slower than the DRAM behind it: a layer that fits moves at least as fast as
        # one that spills)
        split_cache=True, llc_gbps=max(c.get("llc_gbps_core", 0.0) * cores,
                                       bw * c["mem_efficiency"]),
        # a LATENCY stream runs one thread per physical core of one socket (a hybrid CPU's
        # P-cores): each op's fork / join over them costs ``per_op_sync_s`` per thread
        per_op_wide_s=_per_op_wide(c, p),
        channel_blocks=cpu_channel_blocks(d["family"]),
        extra={"family": d["family"], "cores": cores, "sockets": sockets,
               "isa": d.get("isa", fam["doc"]), "peak_of_all_cores": True,
               "latency_clock": latency_clock,
               "blocked_cores": bool(fam.get("blocked_cores", False))})


#: bytes per clock a GPU's last-level cache delivers per 16 EUs (one Gen9-Gen12 subslice's L3
#: data port; one Xe-HPG Xe-core's L2 port): Intel's Gen9 and Gen11 compute-architecture papers
#: give a subslice 64 B / clock of L3 reads
GPU_CACHE_BYTES_PER_CLOCK = 64.0


def gpu_eus(d: dict) -> int:
    """A GPU datasheet's EUs (``eus``, or 16 per Xe-core)."""
    return int(d.get("eus") or 16 * int(d["xe_cores"]))


def gpu_peaks(d: dict) -> dict[str, float]:
    fam = GPU_FAMILIES[d["family"]]
    eus = int(d.get("eus") or 16 * int(d["xe_cores"]))
    f32 = eus * 16 * float(d["gpu_max_ghz"]) * int(d.get("gpus", 1))
    if fam["xmx"]:
        f16 = eus * 128 * float(d["gpu_max_ghz"]) * int(d.get("gpus", 1))
        return {"f32": f32, "f16": f16, "i8": 2 * f16}
    return {"f32": f32, "f16": 2 * f32, "i8": (4 if fam["int8"] == "dp4a" else 2) * f32}


def gpu_spec(ds: dict, params: dict | None = None, shared_bw: float | None = None,
             name: str = "") -> DeviceSpec:
    """The GPU of a datasheet block; an iGPU's bandwidth is the package's (``shared_bw``)."""
    params = params or fitted_params()
    g = params["gpu"]
    d = figures(ds)
    fam = GPU_FAMILIES[d["family"]]
    peaks = gpu_peaks(d)
    eff = {prec: _eff(g, gpu_rule(d["family"], prec), fam["group"]) for prec in peaks}
    discrete = bool(d.get("discrete", False))
    bw = float(d.get("mem_bw_gbs") or shared_bw or 50.0)
    vector_share = 2 * peaks["f32"] / peaks["f16"]  # a depthwise conv cannot use XMX
    return DeviceSpec(
        plugin="GPU", full_name=d.get("full_name") or name,
        device_type="discrete" if discrete else "integrated",
        capabilities=("FP32", "FP16", "INT8", "BIN", "EXPORT_IMPORT"), peak_gflops=peaks,
        efficiency=eff["f16"], mem_bw_gbs=bw, mem_size_gb=float(d.get("mem_gb", 8)),
        link_gbs=25.0 if discrete else 30.0, link_latency_s=20e-6 if discrete else 30e-6,
        # a kernel launch takes GPU cycles (1 / clock), a discrete GPU's fewer of the host's
        per_op_s=g["per_op_s"] / float(d["gpu_max_ghz"]) * (g["discrete_op"] if discrete
                                                            else 1.0),
        per_infer_s=g["per_infer_s"], first_infer_factor=2.0,
        compile_base_s=1.5 if discrete else 1.2, compile_per_op_s=28e-3,
        compile_per_mb_s=40e-3, cached_load_s=0.35,
        streams_throughput=g["streams"], range_for_streams=(1, g["streams"]),
        range_for_async_infer_requests=(1, 2, 1), requests_per_stream=2,
        stream_scaling=g["stream_scaling"], jitter=0.05, optimal_batch=None, max_batch=256,
        inference_precision="f16", compile_host_load=0.4 if discrete else 0.7,
        # THROUGHPUT's streams each hold a share of the GPU (as CPU streams hold cores): one
        # stream's launch overhead overlaps the others' kernels, which is what automatic
        # batching buys on the real GPU (not modelled here: no OPTIMAL_BATCH_SIZE)
        architecture="GPU: vendor=0x8086 arch=v12.0.0", stream_share="fixed",
        efficiency_by_precision=eff,
        kind_efficiency={"depthwise": g["depthwise"] * vector_share, "matmul": 1.0,
                         "other": g["other"]},
        mem_efficiency=g["mem_efficiency"], fuse_ops=True, matmul_i8_rate=g.get("matmul_i8", 1.0),
        cache_mb=float(d.get("l3_mb", 4.0)), channel_blocks=gpu_channel_blocks(d["family"]),
        # THROUGHPUT's streams each keep an inference's activations in flight, and their
        # kernels take turns on the GPU: the last-level cache holds all of them, each stream
        # 1 / S of it, as a CPU's streams split its L3 (fourth round: LOPO iGPU 15.5 -> 11.5 %)
        split_cache=True,
        # the cache's traffic is not free: 64 bytes per clock per 16 EUs (a Gen9-Gen12
        # subslice's L3 data port, an Xe-HPG Xe-core's L2 port), the rule ``llc_gbps`` already
        # is for CPUs (fourth round)
        llc_gbps=GPU_CACHE_BYTES_PER_CLOCK * gpu_eus(d) / 16 * float(d["gpu_max_ghz"]),
        extra={"family": d["family"], "eus": int(d.get("eus") or 16 * int(d["xe_cores"]))})


def npu_spec(ds: dict, params: dict | None = None, shared_bw: float | None = None,
             name: str = "") -> DeviceSpec:
    """An NPU from its INT8 TOPS (f16: half), with the NPU 3720's fitted numbers."""
    from .devices.npus import NPU_3720

    params = params or fitted_params()
    n = params["npu"]
    d = figures(ds)
    tops = float(d["tops_int8"])
    return NPU_3720.with_(
        full_name=d.get("full_name") or NPU_3720.full_name,
        peak_gflops={"f16": tops * 500.0, "i8": tops * 1000.0},
        mem_bw_gbs=float(shared_bw or NPU_3720.mem_bw_gbs),
        efficiency_by_precision={"f16": n["eff_f16"], "i8": n["eff_i8"]},
        efficiency=n["eff_f16"], per_op_s=n["per_op_s"], per_infer_s=n["per_infer_s"],
        stream_scaling=n["stream_scaling"], share_bandwidth=False, memory_domain="",
        kind_efficiency={"depthwise": n["depthwise"], "matmul": 1.0, "other": n["other"]},
        extra={"tops_int8": tops})


def build_devices(datasheet: dict, params: dict | None = None) -> tuple[dict[str, DeviceSpec],
                                                                         Any]:
    """(devices, power budget) of a platform file's ``datasheet`` block: ``CPU``, ``GPU.N``,
    ``NPU`` keys, each a block of figures with a ``family`` (CPU, GPU) or ``tops_int8`` (NPU)."""
    from .power import PowerBudget

    params = params or fitted_params()
    devices: dict[str, DeviceSpec] = {}
    shared_bw = None
    cpu_block = datasheet.get("CPU")
    if cpu_block is not None:
        devices["CPU"] = cpu_spec(cpu_block, params)
        shared_bw = devices["CPU"].mem_bw_gbs
    for key, block in datasheet.items():
        if key.startswith("GPU"):
            devices[key] = gpu_spec(block, params, shared_bw)
        elif key == "NPU":
            devices[key] = npu_spec(block, params, shared_bw)
    budget = None
    igpus = [k for k, s in devices.items() if s.plugin == "GPU" and s.device_type == "integrated"]
    if cpu_block is not None and igpus:
        tdp = float(figures(cpu_block).get("tdp_w", 28))
        if "power" in params:
            # the CPU busy alone draws the package's TDP; the iGPU busy alone its EUs x clock
            # x ``igpu_w_eu_ghz`` (at most the TDP: alone, neither is capped); together they
            # share the TDP, each at TDP / (sum of draws) of its speed: a big, fast iGPU (the
            # 165H's 128 EUs at 2.3 GHz) takes more of the package than a small one
            g = figures(datasheet[igpus[0]])
            eu_ghz = (int(g.get("eus") or 16 * int(g["xe_cores"]))
                      * float(g["gpu_max_ghz"]))
            draw = min(tdp, params["power"]["igpu_w_eu_ghz"] * eu_ghz)
            budget = PowerBudget(tdp, {"CPU": tdp, igpus[0]: draw})
        else:  # the first rounds' fit: together at ``power_share`` of their separate speeds
            draws = {"CPU": tdp, igpus[0]: tdp}
            watts = max(0.5, min(1.0, params["power_share"])) * sum(draws.values())
            budget = PowerBudget(watts, draws)
    return devices, budget


def log_ratio(a: float, b: float) -> float:
    return math.log(a / b)
