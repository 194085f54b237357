"""Device specifications: what a virtual device is made of.

A :class:`DeviceSpec` holds the public figures of a piece of hardware (peak compute per precision,
memory bandwidth and size, the host link), the overheads a runtime adds (per op, per inference,
first inference), how long a compile takes, how many streams and requests the plugin would use
for each hint, and which ops it supports. The numbers of the presets come from vendors' public
spec sheets and from the seed documents (see ``platforms.py``); :mod:`ovlab.sim.hardware.cost` turns
them into times.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

ALL_OPS = None  # supported_ops=None means "every op ovlab knows"


@dataclass(frozen=True)
class DeviceSpec:
    """One virtual device. Times in seconds, rates in GFLOP/s and GB/s, sizes in GB."""

    plugin: str  # "CPU", "GPU" or "NPU": the OpenVINO plugin that drives it
    full_name: str
    device_type: str  # "integrated" | "discrete" (AUTO orders dGPU > iGPU)
    capabilities: tuple[str, ...]  # OPTIMIZATION_CAPABILITIES
    peak_gflops: dict[str, float]  # per compute precision: "f32", "f16", "i8"
    efficiency: float  # fraction of peak reached on large convolutions / matmuls
    mem_bw_gbs: float  # device memory bandwidth
    mem_size_gb: float  # memory the device can use (GPU_DEVICE_TOTAL_MEM_SIZE)
    link_gbs: float  # host <-> device link for tensors crossing devices (HETERO)
    link_latency_s: float  # fixed cost of one transfer (map / DMA set-up)
    per_op_s: float  # kernel launch / primitive dispatch cost per op
    per_infer_s: float  # request set-up and completion per inference
    first_infer_factor: float  # the first inference of a compiled model costs this many times more
    compile_base_s: float  # compile = base + per op + per MB of weights
    compile_per_op_s: float
    compile_per_mb_s: float
    cached_load_s: float  # loading a compiled blob from CACHE_DIR
    streams_throughput: int  # NUM_STREAMS under THROUGHPUT (LATENCY uses 1)
    range_for_streams: tuple[int, int]
    range_for_async_infer_requests: tuple[int, int, int]
    requests_per_stream: int  # OPTIMAL_NUMBER_OF_INFER_REQUESTS = streams x this (GPU: 2 under THROUGHPUT)
    stream_scaling: float  # S busy streams: each inference takes S**stream_scaling x as long
    jitter: float  # sigma of the lognormal noise on each inference time
    optimal_batch: int | None = None  # base OPTIMAL_BATCH_SIZE (GPUs); None: not reported
    max_batch: int | None = None
    inference_precision: str = "f32"  # default INFERENCE_PRECISION_HINT: CPU f32, GPU f16
    supported_ops: frozenset[str] | None = ALL_OPS
    compile_host_load: float = 0.0  # while this device compiles, CPU inferences slow by 1 + this
    # "fixed": a stream owns 1/S of the device (CPU streams are pinned to their cores), so a lone
    # inference is slow too; "dynamic": streams are queues onto the whole device (GPU, NPU), so a
    # lone inference runs at full speed and only busy streams share the device
    stream_share: str = "fixed"
    architecture: str = "intel64"
    # Hybrid CPUs (Core Ultra): performance and efficient cores, and one E-core's throughput
    # relative to one P-core. 0 P-cores means "not hybrid" (every core alike). The CPU plugin
    # runs LATENCY on the P-cores and THROUGHPUT on all of them; SCHEDULING_CORE_TYPE narrows it.
    p_cores: int = 0
    e_cores: int = 0
    e_core_perf: float = 1.0
    # --- the fitted cost model (issue 13); the defaults keep the seed's presets as they were ---
    # dense-conv efficiency per compute precision ("f32", "bf16", "f16", "i8"); missing: efficiency
    efficiency_by_precision: dict[str, float] = field(default_factory=dict)
    # other op kinds relative to dense convolutions: "depthwise", "matmul", "other" (see cost.py)
    kind_efficiency: dict[str, float] = field(default_factory=dict)
    mem_efficiency: float = 1.0  # fraction of mem_bw_gbs that memory-bound ops reach
    # fold post-ops (bias, activations, residual sums, FakeQuantize) into the conv / matmul before
    # them and skip ops that do no work, as OpenVINO's plugins do; False: the seed's cost model
    fuse_ops: bool = False
    # an asynchronous request completes this much after its device work ends (the runtime's
    # thread hand-off and callback); the stream is free meanwhile, sync infer() does not pay it
    async_overhead_s: float = 0.0
    # the last-level cache (MB): traffic that fits costs no memory time (cost.py); for GPUs also
    # the plugin's L3 estimate behind OPTIMAL_BATCH_SIZE. 0: no cache (the seed's formulas)
    cache_mb: float = 0.0
    # per-op dispatch by op kind, relative to per_op_s (fuse_ops devices): the measured CPU plugin
    # dispatches a small FullyConnected for a tenth of a convolution's cost (its 3-op MLP takes
    # 8 us, its 7-op CNN 33 us); missing kinds: 1
    per_op_kind: dict[str, float] = field(default_factory=dict)
    # extra dispatch of an op computed in int8 (fuse_ops devices): its input requantization
    per_op_i8_s: float = 0.0
    # the share of the per-op and per-inference dispatch an inference pays on one of several CPU
    # streams (fuse_ops devices): a stream of one thread runs each op without the fork / join of
    # a many-thread LATENCY stream (the measured BERT-tiny runs as fast on one thread per stream
    # as on both cores); 1: the same dispatch in every stream
    stream_dispatch: float = 1.0
    # --- memory-bound work (issue 22); the defaults keep every existing preset's timings ---
    # bandwidth of the last-level cache (GB/s): an op whose traffic fits in its share of
    # ``cache_mb`` moves it at this rate; 0: cache-resident traffic costs no time (issue 13's rule)
    llc_gbps: float = 0.0
    # the inferences running at once share the memory: each demands the DRAM bandwidth its
    # traffic needs (bytes / its time), and when the demands of a memory domain add up to more
    # than ``mem_bw_gbs * mem_efficiency`` they all slow down by the excess; the last-level cache
    # is split among a compiled model's streams. False: streams share only compute (as before)
    share_bandwidth: bool = False
    # a compiled model's S streams split the last-level cache (each has ``cache_mb / S``) without
    # the shared-bandwidth bookkeeping of ``share_bandwidth`` (issue 35's family devices: S
    # streams each run their own copy of the activations, so a layer whose traffic fits the cache
    # alone spills to DRAM under THROUGHPUT); False: the whole cache for each stream
    split_cache: bool = False
    # devices with the same non-empty domain draw from one DRAM (a package's CPU and iGPU, an
    # NPU on the same memory); "": the device has memory of its own
    memory_domain: str = ""
    # the share of the int8 peak a depthwise convolution can use: int8 peaks come from dot-product
    # instructions that sum 4 products along the input channels (AVX-512 VNNI / AVX-VNNI
    # ``vpdpbusd``, a GPU's DP4a or XMX, AMX tiles, an NPU's MAC array); a depthwise convolution
    # has one input channel per output, so its int8 arithmetic runs on 16-bit multiply-adds
    # (``vpmaddwd`` / ``vpdpwssd``: 2 products per 32-bit lane, the f16 rate of a GPU's vector
    # engines): half the int8 peak. 1: the int8 peak (the seed's presets and ``cpu``)
    depthwise_i8_rate: float = 1.0
    # the same for bf16 (issue 35): AMX computes bf16 in tiles, a depthwise convolution on the
    # AVX-512 vector units; 1: the bf16 peak
    depthwise_bf16_rate: float = 1.0
    # the share of the int8 rule's efficiency an int8 matrix product (MatMul / FullyConnected)
    # reaches (issue 35, fifth round; fitted for the family CPUs without AVX-512 and the family
    # GPUs: BERT INT8 was 1.2-1.7x too fast there held out while int8 convolutions were not);
    # 1: the rule's
    matmul_i8_rate: float = 1.0
    # vector FLOPs each output element of a convolution or matrix product costs after its
    # reduction (the accumulator's conversion, scale, bias, activation, requantization, store),
    # at the device's f32 vector rate whatever the op's precision: with few products per output
    # (MobileNet's 1x1 and depthwise convolutions) it is a large share of the time, with many
    # (ResNet-50's 3x3 convolutions) a small one, and int8 does not speed it up. 0: none (the
    # seed's presets)
    epilogue_flops: float = 0.0
    # a matrix engine's blocks per compute precision: (K block, N block) of a convolution's or
    # matrix product's reduction and output channels, padded up to whole blocks
    # (``cost.tile_utilisation``; AMX: int8 (64, 16), bf16 (32, 16)); empty: no padding (every
    # preset before issue 35's family devices)
    channel_blocks: dict[str, tuple[int, int]] = field(default_factory=dict)
    # extra dispatch per executed op when one stream spans the whole device (LATENCY, or one
    # stream set by hand): every op forks its work over the stream's many threads and joins them
    # at a barrier, whose cost grows with the threads (issue 35's family CPUs: ``per_op_sync_s``
    # x one socket's threads, ``family._per_op_wide``); 0: none (every preset before them)
    per_op_wide_s: float = 0.0
    # public figures that document the spec (cores, clocks, EUs, TOPS, TDP); not used in timing
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def with_(self, **changes) -> DeviceSpec:
        """A copy with some fields changed (to override a preset's device)."""
        return replace(self, **changes)

    def supports(self, op_type: str) -> bool:
        return self.supported_ops is None or op_type in self.supported_ops

    @property
    def gpu_total_mem_bytes(self) -> int:
        return int(self.mem_size_gb * 1e9)

    @property
    def hybrid(self) -> bool:
        return self.p_cores > 0 and self.e_cores > 0

    def cores_for(self, core_type: str, latency: bool) -> tuple[int, float]:
        """(threads, compute capacity in P-core units) the CPU plugin uses for a hint and a
        ``SCHEDULING_CORE_TYPE`` (``ANY_CORE``, ``PCORE_ONLY``, ``ECORE_ONLY``) on a hybrid CPU.

        ``ANY_CORE`` under LATENCY keeps to the P-cores (one stream where the fast cores are),
        under THROUGHPUT it uses every core; LP E-cores are never counted.
        """
        p, e = self.p_cores, self.e_cores
        if core_type == "ECORE_ONLY":
            return e, e * self.e_core_perf
        if core_type == "PCORE_ONLY" or latency:
            return p, float(p)
        return p + e, p + e * self.e_core_perf

    def latency_cores(self, int8: bool) -> tuple[int, float]:
        """(threads, capacity in P-core units) of the one LATENCY stream on a hybrid family CPU
        (issue 35), as OpenVINO's CPU plugin picks them (``get_model_prefer_threads``,
        ``cpu_streams_calculation.cpp``): the P-cores alone while they outnumber the E-cores
        divided by 4 for an int8 model (one with FakeQuantize; VNNI code runs ~4x faster on a
        P-core) or by 2 for a float one, except on Meteor Lake (its blocked LP E-cores: the
        ``blocked_cores`` figure), where one stream always takes the P- and E-cores. A stream
        over both kinds splits each op into equal shares (a static partition), so every share
        waits for the slowest: the E-cores' pace on all of them."""
        p, e = self.p_cores, self.e_cores
        if not self.extra.get("blocked_cores") and p > e // (4 if int8 else 2):
            return p, float(p)
        return p + e, (p + e) * min(1.0, self.e_core_perf)


# the cache bandwidth a core reaches (GB/s per core, the prior of ``llc_gbps``): an L3 slice moves
# ~32 bytes per cycle at ~3 GHz, about half of it sustained by a streaming kernel
LLC_GBPS_PER_CORE = 50.0


# int8 depthwise convolutions run on 16-bit multiply-adds: 2 products per 32-bit lane where the
# int8 dot products sum 4 (see ``DeviceSpec.depthwise_i8_rate``); from the instruction sets, not
# fitted
DEPTHWISE_I8_RATE = 0.5


def depthwise_i8_rate(spec: DeviceSpec) -> float:
    """``DEPTHWISE_I8_RATE`` where the int8 peak comes from 4-wide dot products (at least 4x the
    f32 vector peak: VNNI, DP4a, XMX, AMX; an NPU, which has no f32 peak, by its MAC array);
    1 where int8 already runs on 16-bit multiply-adds (AVX2 without VNNI: twice f32) or the
    device has no int8 peak."""
    peaks = spec.peak_gflops
    if "i8" not in peaks:
        return 1.0
    if "f32" in peaks and peaks["i8"] < 4 * peaks["f32"]:
        return 1.0
    return DEPTHWISE_I8_RATE


def with_memory_physics(spec: DeviceSpec, cores: int = 1, domain: str = "") -> DeviceSpec:
    """``spec`` with issue 22's memory-bound physics on: inferences share the DRAM bandwidth
    (of the memory ``domain``, e.g. ``"package"`` for a CPU and its iGPU), streams split the
    last-level cache, and cache-resident traffic moves at ``llc_gbps`` (its prior, where the
    spec has none: ``LLC_GBPS_PER_CORE`` per core, at least twice the DRAM's); a depthwise
    convolution computes int8 at :func:`depthwise_i8_rate` of the int8 peak."""
    llc = spec.llc_gbps or max(2 * spec.mem_bw_gbs, LLC_GBPS_PER_CORE * cores)
    return replace(spec, share_bandwidth=True, llc_gbps=llc, memory_domain=domain,
                   cache_mb=spec.cache_mb or 8.0, depthwise_i8_rate=depthwise_i8_rate(spec))
