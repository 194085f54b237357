"""HETERO pipeline parallelism for an LLM: ``LLMPipeline(path, "HETERO:GPU.0,GPU.1",
MODEL_DISTRIBUTION_POLICY="PIPELINE_PARALLEL")``, the model's layers split over GPUs by memory.

Why it exists: a model too big for one card is split into stages, one per GPU; every token runs
through the stages in turn, with the hidden state crossing between cards through host memory.
This is the 2025-26 use of HETERO (openvino #38250, PR #34702, model_server #4452, OpenArc #104),
and its placement rule is silent: learners think both cards work when one holds everything.

What it follows:

- **Placement** is HETERO's (``src/plugins/hetero/src/plugin.cpp``, ``query_model_update`` and
  ``update_config``), reused from :mod:`ovlab.sim.plugins.hetero.pipeline`: each device in turn gets
  a ratio of the constants still unplaced; a device with ``memory >= 1.2 x total`` takes all of
  it (**openvino #38250: a model that fits GPU.0 goes there whole and GPU.1 holds 0.00 GB, with
  no warning**); the GPU plugin's ``get_supported_nodes`` then cuts the op list at the constant,
  within 0.95-1.05 x the ratio, whose cut moves the fewest elements. HETERO counts a constant as
  ``element_type.size() x elements``: a u4 weight counts **one byte per element**, so an INT4
  model "weighs" about twice its real size in this rule (the real bytes are what the cards hold).
- **The LLM's constants**, in the IR's topological order: the embedding, then per layer the
  attention norm, q, k, v, o, the MLP norm and the MLP matrices, then the final norm and (when
  not tied) the output head; each matrix with its scales and zero points as one unit (the cut
  lands between matrices). What a cut after each constant moves per token (the residual stream,
  the normalised input, the projections already made) is read from the layer's data flow; the
  cheapest cuts are after ``o_proj`` and after ``down_proj`` (the hidden state alone).
- **Continuous batching** on the result (genai ``continuous_batching/pipeline_impl.cpp``
  ``initialize_pipeline``): ``EXECUTION_DEVICES`` must be one device or GPUs only, else
  ``Continuous batching: execution device is expected to be single CPU / single GPU / multi
  GPUs``; the KV-cache memory probe reads ``execution_devices[0]`` only.
- **Time**: a step runs stage after stage; each stage's time is the fitted step cost
  (:mod:`.timing`) for its share of the blocks (and the head on the last stage), on its own device,
  plus its own per-step overhead; between stages the hidden states of the step's tokens go
  device -> host -> device (``hardware.cost.transfer_time``). Continuous batching runs one
  inference per step and waits for it, so the stages of two steps never overlap: at any
  concurrency each card idles while the other works (more requests fill a step, not the bubble).

Without ``MODEL_DISTRIBUTION_POLICY`` HETERO splits greedily by op support: GPU.0 supports every
op of an LLM and takes it all, which GenAI accepts (one execution device). A device list with a
CPU and a GPU that both get a stage fails CB's device check; ``LLMPipeline`` without an explicit
``scheduler_config`` would then fall back to the stateful SDPA pipeline, which ovlab does not
simulate for HETERO (it says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..hardware import cost as hw_cost
from ..models import llm_zoo as zoo
from ..plugins.hetero.pipeline import BAND, memory_map, query_ratio
from ..trace.records import InferenceRecord
from .engine import Engine
from .timing import Chunk, LLMCost, device_peak_and_bandwidth, kv_bytes_per_element

CB_DEVICE_ERROR = ("Check 'all_gpu_device || execution_devices.size() == 1' failed at "
                   "src/cpp/src/continuous_batching/pipeline_impl.cpp:188:\n"
                   "Continuous batching: execution device is expected to be single CPU / single "
                   "GPU / multi GPUs")
ACTIVATION_BYTES = 2  # hidden states cross devices in f16 (the GPU's inference precision)


@dataclass(frozen=True)
class Weight:
    """One constant of the LLM's IR, as HETERO's memory rule sees it."""

    name: str
    layer: int  # -1: embedding, layers: final norm and head
    kind: str  # "embedding", "norm", "q", "k", "v", "o", "gate", "up", "down", "head"
    counted: float  # element_type.size() x elements (u4 counts 1 byte per element)
    real: float  # bytes on the device
    params: int  # weights in the matrix (the matmul FLOPs per token are 2 x params)
    cut_elements: int  # elements per token a cut right after this constant moves


def _matrix_bytes(elements: int, rows: int, fmt: str) -> tuple[float, float]:
    """(counted, real) bytes of one weight matrix with its scales and zero points."""
    if fmt == "INT4-MIXED":  # u4 weights, f16 scale and u4 zero point per group of 128
        groups = elements / 128
        return elements * 1.0 + groups * 2 + groups * 1, elements * 0.5 + groups * 2.5
    if fmt == "INT8-CW":  # u8 weights, f16 scale and u8 zero point per output row
        return elements + rows * 3.0, elements + rows * 3.0
    return elements * 2.0, elements * 2.0  # FP16


def llm_weights(spec: zoo.LLMSpec, precision: str) -> list[Weight]:
    """The model's constants in topological order (embedding, blocks, final norm, head)."""
    h, d, inter = spec.hidden, spec.d_head, spec.intermediate
    q_out, kv_out = spec.heads * d, spec.kv_heads * d
    emb_fmt = "INT8-CW" if precision == "INT4-MIXED" else precision
    out: list[Weight] = []

    def add(name: str, layer: int, kind: str, rows: int, cols: int, fmt: str, cut: int) -> None:
        counted, real = _matrix_bytes(rows * cols, rows, fmt)
        out.append(Weight(name, layer, kind, counted, real, rows * cols, cut))

    def norm(name: str, layer: int, cut: int) -> None:
        out.append(Weight(name, layer, "norm", 4.0 * h, 4.0 * h, 0, cut))

    add("model.embed_tokens", -1, "embedding", spec.vocab, h, emb_fmt, h)
    for i in range(spec.layers):
        p = f"model.layers.{i}"
        norm(f"{p}.input_layernorm", i, 2 * h)  # residual + normalised input
        add(f"{p}.self_attn.q_proj", i, "q", q_out, h, precision, 2 * h + q_out)
        add(f"{p}.self_attn.k_proj", i, "k", kv_out, h, precision, 2 * h + q_out + kv_out)
        add(f"{p}.self_attn.v_proj", i, "v", kv_out, h, precision, h + q_out + 2 * kv_out)
        add(f"{p}.self_attn.o_proj", i, "o", h, q_out, precision, h)  # o + residual add
        norm(f"{p}.post_attention_layernorm", i, 2 * h)
        if spec.gated_mlp:
            add(f"{p}.mlp.gate_proj", i, "gate", inter, h, precision, 2 * h + inter)
            add(f"{p}.mlp.up_proj", i, "up", inter, h, precision, h + inter)  # act(gate) * up
        else:
            add(f"{p}.mlp.fc1", i, "up", inter, h, precision, h + inter)
        add(f"{p}.mlp.down_proj", i, "down", h, inter, precision, h)  # down + residual add
    norm("model.norm", spec.layers, h)
    if not spec.tied_embeddings:
        add("lm_head", spec.layers, "head", spec.vocab, h, emb_fmt, spec.vocab)
    return out


def ratio_cut(weights: list[Weight], ratio: float) -> int:
    """How many of ``weights`` (a remainder, in order) a device with ``QUERY_MODEL_RATIO =
    ratio`` takes: the GPU plugin's cut, as :func:`ovlab.sim.plugins.hetero.pipeline.ratio_supported`
    makes it on a graph (band 0.95-1.05 x ratio x total, fewest elements across the cut, the
    first such cut on a tie; nothing if the first constant is already past the band)."""
    total = sum(w.counted for w in weights)
    if ratio >= 1.0 or total == 0:
        return len(weights)
    lo, hi = ratio * total * BAND[0], ratio * total * BAND[1]
    running, best, best_cut = 0.0, None, 0
    for i, w in enumerate(weights):
        running += w.counted
        if i == 0 and running > hi:
            return 0
        if running > hi:
            break
        if running >= lo and (best is None or w.cut_elements < best):
            best, best_cut = w.cut_elements, i + 1
    return best_cut


@dataclass
class Stage:
    """The part of the model one device runs."""

    device: str
    weights: list[Weight] = field(default_factory=list)
    ratio: float = 1.0

    @property
    def real_bytes(self) -> float:
        return sum(w.real for w in self.weights)

    @property
    def counted_bytes(self) -> float:
        return sum(w.counted for w in self.weights)

    @property
    def layers(self) -> list[int]:
        """Layers whose attention (and KV cache) this stage runs: the one holding v_proj."""
        return [w.layer for w in self.weights if w.kind == "v"]

    def describe(self) -> str:
        if not self.weights:
            return f"{self.device}: nothing"
        first, last = self.weights[0], self.weights[-1]
        return f"{self.device}: {first.name} .. {last.name}"


def split(core, spec: zoo.LLMSpec, precision: str, devices: list[str], policy: bool) -> list[Stage]:
    """The stages HETERO makes of the LLM on ``devices`` (priority order)."""
    weights = llm_weights(spec, precision)
    stages = [Stage(d) for d in devices]
    mem = memory_map(core, devices) if policy else None
    if mem is None:  # greedy by op support: the first device supports every op of an LLM
        stages[0].weights = weights
        return stages
    left = weights
    for i, stage in enumerate(stages):
        if not left:
            stage.ratio = 0.0
            continue
        total = sum(w.counted for w in left)
        stage.ratio = query_ratio(mem, stage.device, int(total), i == len(stages) - 1)
        n = ratio_cut(left, stage.ratio)
        stage.weights, left = left[:n], left[n:]
        core.trace.event(core.clock.now, "pipeline_ratio", stage.device, spec.name,
                         ratio=round(stage.ratio, 4), weights_left=int(total))
    return stages


def stage_seconds(cost: LLMCost, spec: zoo.LLMSpec, precision: str, stage: Stage,
                  chunks: list[Chunk], peak_gflops: float, bandwidth_gbs: float, kv_elem: float,
                  first: bool, last: bool) -> float:
    """One step of ``chunks`` through one stage (the fitted step cost, restricted to it)."""
    if not stage.weights or not any(c.tokens for c in chunks):
        return 0.0
    n_tokens = sum(c.tokens for c in chunks)
    n_logits = sum(1 for c in chunks if c.tokens)
    block = [w for w in stage.weights if w.kind not in ("embedding", "head", "norm")]
    flops = 2.0 * sum(w.params for w in block) * n_tokens
    head_bytes = 0.0
    if last:  # the output head: its own matrix, or the tied embedding's copy
        flops += 2.0 * spec.embedding_params * n_logits
        head_bytes = spec.embedding_params * zoo.weight_bits(spec, precision)[1] / 8
    layers = len(stage.layers)
    per_pair = 4.0 * layers * spec.heads * spec.d_head
    attn = sum(per_pair * c.tokens * (c.past + (c.tokens + 1) / 2) for c in chunks)
    kv_per_token = spec.kv_bytes_per_token(kv_elem) * layers / spec.layers
    data = sum(w.real for w in block) + head_bytes + kv_per_token * sum(c.past + c.tokens
                                                                        for c in chunks)
    peak, bw = peak_gflops * 1e9, bandwidth_gbs * 1e9
    return (flops / (peak * cost.compute_efficiency[precision])
            + attn / (peak * cost.attention_efficiency)
            + data / (bw * cost.memory_efficiency) + cost.step_overhead_s)


class HeteroEngine(Engine):
    """The continuous-batching engine of an LLM split over devices by HETERO."""

    def __init__(self, llm, core, device_name: str, stages: list[Stage], scheduler_config,
                 tokenizer) -> None:
        self.stages = [s for s in stages if s.weights]
        self.all_stages = stages
        super().__init__(llm, core, self.stages[0].device, scheduler_config, tokenizer)
        self.device = device_name
        # the step that step_seconds timed, for _run_on_device: (its chunks, each stage's time)
        self._step: tuple[list[Chunk], list[float]] = ([], [])
        platform = core.platform.devices
        self.stage_specs = [platform[s.device] for s in self.stages]
        self.host = next((spec for name, spec in platform.items() if name == "CPU"), None)
        self.kv_elem = kv_bytes_per_element(self.stage_specs[0].plugin)

    # --- memory -------------------------------------------------------------------------------
    def weight_bytes(self) -> float:
        return sum(s.real_bytes for s in self.stages)

    def _available_memory(self, device: str, num_cache_tensors: int) -> int:
        """GenAI probes ``execution_devices[0]`` only: the first stage's free memory."""
        spec = self.core.platform.devices[self.stages[0].device]
        return max(0, int(spec.mem_size_gb * 1e9 - self.stages[0].real_bytes))

    def load_seconds(self) -> float:
        """Reading the weights, then HETERO compiling each submodel in turn."""
        from .engine import LOAD_DISK_GBS

        return (self.weight_bytes() / (LOAD_DISK_GBS * 1e9)
                + sum(spec.compile_base_s for spec in self.stage_specs))

    # --- time ----------------------------------------------------------------------------------
    def stage_times(self, chunks: list[Chunk]) -> list[float]:
        out = []
        for i, (stage, spec) in enumerate(zip(self.stages, self.stage_specs, strict=True)):
            peak, bw = device_peak_and_bandwidth(spec)
            out.append(stage_seconds(self.cost, self.llm.spec, self.llm.precision, stage, chunks,
                                     peak, bw, self.kv_elem, i == 0, i == len(self.stages) - 1))
        return out

    def transfer_seconds(self, i: int, n_tokens: int) -> float:
        """Hidden states of the step's tokens from stage ``i`` to stage ``i + 1`` via the host."""
        cut = self.stages[i].weights[-1].cut_elements
        nbytes = n_tokens * cut * ACTIVATION_BYTES
        src, dst = self.stage_specs[i], self.stage_specs[i + 1]
        if self.host is None:
            return hw_cost.transfer_time(src, dst, nbytes)
        return hw_cost.transfer_time(src, self.host, nbytes) + hw_cost.transfer_time(
            self.host, dst, nbytes)

    def step_seconds(self, chunks: list[Chunk]) -> tuple[float, float]:
        """The stages' total; no share of a package's memory is claimed: the stages sit on
        discrete cards, each with its own memory (``memory.py`` shares one package's DRAM)."""
        times = self.stage_times(chunks)
        self._step = (list(chunks), times)
        return sum(times), 0.0

    def _run_on_device(self, seconds: float, memory_seconds: float = 0.0) -> None:
        """The step through the stages in order: each a job on its device, a transfer between."""
        chunks, times = self._step
        n_tokens = sum(c.tokens for c in chunks)
        clock = self.core.clock
        for i, (stage, t) in enumerate(zip(self.stages, times, strict=True)):
            start = clock.now
            done = clock.event()
            self.core._device_share(stage.device).start(t, 1.0, lambda d=done: d.succeed())
            clock.run_until(done, f"an LLM stage on {stage.device}")
            self.core.trace.add(InferenceRecord(
                self.core._next_seq(), 0, self.name, stage.device, start, start, clock.now,
                worker="genai", batch_id=self.step_count, batch_size=len(chunks), subgraph=i))
            if i + 1 < len(self.stages):
                move = self.transfer_seconds(i, n_tokens)
                self.core.trace.event(clock.now, "hetero_transfer", stage.device, self.name,
                                      to=self.stages[i + 1].device, seconds=move,
                                      step=self.step_count)
                clock.sleep(move)

    def execution_devices(self) -> list[str]:
        return [s.device for s in self.stages]

    def weights_by_device(self) -> dict[str, float]:
        """Bytes each listed device holds (0 for a device that got nothing: #38250)."""
        return {s.device: s.real_bytes for s in self.all_stages}

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["stages"] = [s.describe() for s in self.all_stages]
        return out


# --- the device string and the pipeline ------------------------------------------------------------
def parse(core, device: str, properties: dict) -> tuple[list[str], bool]:
    """The devices of ``HETERO:...`` (or ``MULTI_DEVICE_PRIORITIES``) and whether
    PIPELINE_PARALLEL is asked for; HETERO's errors for a bad policy or device."""
    from ..errors import PluginError
    from ..plugins.hetero.plugin import _policy

    _, _, listed = str(device).partition(":")
    prio = properties.pop("MULTI_DEVICE_PRIORITIES", None) or properties.pop("DEVICE_PRIORITIES", None)
    names = [n.strip() for n in (listed or prio or "").split(",") if n.strip()]
    if not names:
        raise RuntimeError("HETERO: no devices to split the model over; name them as "
                           "'HETERO:GPU.0,GPU.1' or with MULTI_DEVICE_PRIORITIES")
    resolved = []
    for n in names:
        upper = n.upper()
        upper = "GPU.0" if upper == "GPU" else upper
        if upper not in core.platform.devices:
            raise RuntimeError(f"Device with \"{n}\" name is not registered in the OpenVINO "
                               f"Runtime (this platform has {', '.join(core.platform.devices)})")
        resolved.append(upper)
    policy = properties.pop("MODEL_DISTRIBUTION_POLICY", None)
    if policy is None:
        return resolved, False
    try:
        chosen = _policy(policy)
    except PluginError as err:
        raise RuntimeError(f"Exception from src/plugins/hetero/src/config.cpp:27:\n"
                           f"{err.message}") from None
    return resolved, bool(chosen)


def setup(pipe, models_path: Any, device: str, scheduler_config, core, tokenizer,
          properties: dict, explicit: bool, quiet: bool = True) -> None:
    """A pipeline's set-up on a HETERO device (``core`` given): split, check as GenAI does,
    load."""
    from .config import GenerationConfig
    from .models import resolve
    from .tokenizer import Tokenizer

    pipe.core = core
    devices, policy = parse(pipe.core, device, properties)
    llm = resolve(models_path, quiet=quiet)
    stages = split(pipe.core, llm.spec, llm.precision, devices, policy)
    used = [s.device for s in stages if s.weights]
    if any(d.startswith("NPU") for d in used):
        raise NotImplementedError(
            f"LLMPipeline on {device!r} puts a stage on the NPU, which has no paged attention: "
            "GenAI would fall back to the stateful SDPA pipeline, which ovlab does not simulate "
            "over HETERO; list GPUs only")
    if not (all(d.startswith("GPU") for d in used) or len(used) == 1):
        if explicit:
            raise RuntimeError(CB_DEVICE_ERROR)
        raise NotImplementedError(
            f"LLMPipeline on {device!r} puts stages on {', '.join(used)}: GenAI's continuous "
            "batching refuses that mix (" + CB_DEVICE_ERROR.splitlines()[-1] + ") and LLMPipeline "
            "then falls back to the stateful SDPA pipeline, which ovlab does not simulate over "
            "HETERO; list GPUs only")
    for s in stages:
        mem = pipe.core.platform.devices[s.device].mem_size_gb * 1e9
        if s.real_bytes > mem:
            raise RuntimeError(f"{llm.spec.name} {llm.precision}: the part HETERO put on "
                               f"{s.device} needs {s.real_bytes / 1e9:.1f} GB for its weights but "
                               f"{s.device} has {mem / 1e9:.1f} GB")
    pipe._device = f"HETERO:{','.join(devices)}"
    pipe._tokenizer = tokenizer if tokenizer is not None else Tokenizer(models_path)
    start = pipe.core.clock.now
    pipe._engine = HeteroEngine(llm, pipe.core, pipe._device, stages, scheduler_config,
                                pipe._tokenizer)
    pipe.core.clock.sleep(pipe._engine.load_seconds())
    pipe.core.trace.event(start, "genai_load", pipe._device, pipe._engine.name,
                          seconds=pipe.core.clock.now - start,
                          weight_bytes=pipe._engine.weight_bytes(),
                          stages=[s.describe() for s in stages])
    pipe._load_time_ms = (pipe.core.clock.now - start) * 1e3
    pipe._generation_config = GenerationConfig()
    pipe._generation_config.set_eos_token_id(pipe._tokenizer.get_eos_token_id())
    pipe._chat = None
    pipe._next_id = 0


__all__ = ["CB_DEVICE_ERROR", "HeteroEngine", "Stage", "Weight", "llm_weights", "ratio_cut",
           "split", "stage_seconds"]
