"""LoRA adapters on a pipeline: GenAI's ``AdapterController`` (``lora/adapter.cpp``) on ovlab.

``LLMPipeline(path, device, adapters=AdapterConfig(...))`` builds a controller for the pipeline's
engine; each ``generate(..., adapters=...)`` applies its config before the steps run, as
``ContinuousBatchingImpl::set_adapters`` does. What GenAI does, and ovlab with it:

- **matching**: each of the model's MatMuls has a friendly name (an optimum export's
  ``__module.model.layers.0.self_attn.q_proj/aten::linear/MatMul``); an adapter's layer applies to
  the first MatMul whose name contains the layer name, once the config's tensor-name prefix
  (``base_model.model.``, which continuous batching sets: PEFT's) is stripped. Tensors that match
  no MatMul are reported on stderr, as GenAI's ``[ WARNING ] There unused LoRA tensors``.
- **numbers** (the tiny model): ``y = x W + alpha (x A^T) B^T`` per adapted MatMul, in its NumPy
  forward pass; alpha is the config's (the file's alpha is ignored, as in GenAI); several
  adapters add up.
- **modes**: AUTO, DYNAMIC and STATIC_RANK keep A, B and alpha as state that each ``generate`` may
  change (only MatMuls adapted at construction carry it); STATIC bakes them in as constants and
  FUSE adds ``alpha B A`` into the weights at compile time, so neither may change afterwards
  (GenAI's error). FUSE needs f32 / f16 / bf16 weights: a compressed (INT4 / INT8) model fails.
- **time** (every model): the low-rank matmuls cost ``2 r (d_in + d_out)`` FLOPs per token and read
  ``r (d_in + d_out)`` elements per step for each adapted MatMul, every step, in the state modes
  (with a dynamic rank, the active adapters' ranks; with STATIC_RANK / STATIC the ranks fixed at
  construction); FUSE costs nothing per token but its fuse step at load time (on the CPU, as
  GenAI's ``LoRAFuseTransform`` compiles its fusers there).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from .adapters import Adapter, AdapterConfig, LoRAWeight

PREFIX = "base_model.model."  # continuous_batching/pipeline_impl.cpp sets it on the config
_SRC = "src/cpp/src/lora/adapter.cpp"
Mode = AdapterConfig.Mode
_STATE_MODES = (Mode.MODE_AUTO, Mode.MODE_DYNAMIC, Mode.MODE_STATIC_RANK)
# the MatMuls of a Llama-style block: (optimum's module name, tiny model's weight key)
_ATTN = (("self_attn.q_proj", "wq"), ("self_attn.k_proj", "wk"), ("self_attn.v_proj", "wv"),
         ("self_attn.o_proj", "wo"))
_MLP = (("mlp.gate_proj", "w_gate"), ("mlp.up_proj", "w_up"), ("mlp.down_proj", "w_down"))


def node_name(layer: int, module: str) -> str:
    """The friendly name optimum's export gives a linear layer's MatMul."""
    return f"__module.model.layers.{layer}.{module}/aten::linear/MatMul"


@dataclass(frozen=True)
class Node:
    """A MatMul of the model: its name, the tiny model's weight key, and its shape."""

    name: str
    key: str
    d_in: int
    d_out: int


def model_nodes(spec: Any) -> list[Node]:
    """Every linear MatMul of a zoo model (``llm_zoo.LLMSpec``), by its optimum name."""
    q, kv = spec.heads * spec.d_head, spec.kv_heads * spec.d_head
    dims = {"wq": (spec.hidden, q), "wk": (spec.hidden, kv), "wv": (spec.hidden, kv),
            "wo": (q, spec.hidden), "w_gate": (spec.hidden, spec.intermediate),
            "w_up": (spec.hidden, spec.intermediate), "w_down": (spec.intermediate, spec.hidden)}
    mlp = _MLP if spec.gated_mlp else _MLP[1:]
    return [Node(node_name(i, module), key, *dims[key])
            for i in range(spec.layers) for module, key in (*_ATTN, *mlp)]


def _match(adapter: Adapter, nodes: list[Node], prefix: str) -> dict[str, LoRAWeight]:
    """Node name -> the adapter's weight for it (``LoRAWeightGetterDefault``: the first layer
    name, in sorted order, contained in the node's name or in it with dots as underscores)."""
    layers = sorted((name[len(prefix):], w) for name, w in adapter._tensors.items()
                    if name.startswith(prefix))
    out = {}
    for node in nodes:
        variants = (node.name, node.name.replace(".", "_"))
        for layer, w in layers:
            if any(layer in v for v in variants):
                out[node.name] = w
                break
    return out


def _warn_unused(adapter: Adapter, used: dict[str, LoRAWeight], prefix: str) -> None:
    taken = {id(w) for w in used.values()}
    unused = [name for name, w in adapter._tensors.items()
              if name.startswith(prefix) and id(w) not in taken]
    if unused:
        print("[ WARNING ] There unused LoRA tensors. The result of generation can be not "
              "accurate. Check if a given adapter file is compatible with the base model.",
              file=sys.stderr)
        for name in unused:
            print(f"    Unused LoRA tensor: {name}", file=sys.stderr)


class AdapterController:
    """The adapters of one engine: what its model computes with, and what they cost."""

    def __init__(self, engine: Any, config: AdapterConfig) -> None:
        if not isinstance(config, AdapterConfig):
            raise TypeError(f"adapters must be an openvino_genai.AdapterConfig, not "
                            f"{type(config).__name__}")
        self.engine = engine
        self.mode = Mode(config.mode)
        self.nodes = {n.name: n for n in model_nodes(engine.llm.spec)}
        self.current = AdapterConfig(config.get_adapters_and_alphas(), self.mode)
        matched = {id(a): _match(a, list(self.nodes.values()), PREFIX)
                   for a in config.get_adapters()}
        for a in config.get_adapters():
            _warn_unused(a, matched[id(a)], PREFIX)
        # the MatMuls that carry LoRA (state or constants): those an adapter matched at build time
        self.adapted = sorted({n for m in matched.values() for n in m})
        self.fixed_rank = {n: sum(m[n].rank for m in matched.values() if n in m)
                           for n in self.adapted}
        self.flops_per_token = 0.0
        self.bytes_per_step = 0.0
        self.fuse_seconds = 0.0
        if engine.model is not None:
            self._check_shapes(config)
        if self.mode == Mode.MODE_FUSE:
            self._fuse()
        else:
            self._apply_state()

    # --- the generate-time switch -----------------------------------------------------------------
    def apply(self, config: AdapterConfig | None) -> None:
        """``AdapterController::apply``: a new config for the next generate (None: keep)."""
        if config is None:
            return
        if not isinstance(config, AdapterConfig):
            raise TypeError(f"adapters must be an openvino_genai.AdapterConfig, not "
                            f"{type(config).__name__}")
        changed_adapters = [id(a) for a in config.get_adapters()] != \
            [id(a) for a in self.current.get_adapters()]
        changed_alpha = changed_adapters or any(
            config.get_alpha(a) != self.current.get_alpha(a) for a in config.get_adapters())
        if config.mode != self.mode and config.mode != Mode.MODE_AUTO:
            raise RuntimeError(f"Check '!diff.mode || config->get_mode() == AdapterConfig::MODE_AUTO' "
                               f"failed at {_SRC}:1437:\nAdapterConfig::mode cannot be changed "
                               "and should be configured once for a model at the initialization")
        if self.mode not in _STATE_MODES and (changed_adapters or changed_alpha):
            raise RuntimeError(f"Check 'config->get_mode() == AdapterConfig::MODE_AUTO || ...' "
                               f"failed at {_SRC}:1440:\nCannot change adapters and/or the alphas "
                               "when not one of the dynamic modes are used.")
        if not (changed_adapters or changed_alpha):
            return
        if self.engine.model is not None:
            self._check_shapes(config)
        self.current = AdapterConfig(config.get_adapters_and_alphas(), self.mode)
        self._apply_state()

    # --- numbers and cost ---------------------------------------------------------------------------
    def _active(self) -> dict[str, list[tuple[LoRAWeight, float]]]:
        """Adapted MatMul -> [(weight, alpha)] of the current config, on the MatMuls that carry
        LoRA (a new adapter in a dynamic mode reaches only those)."""
        out: dict[str, list[tuple[LoRAWeight, float]]] = {n: [] for n in self.adapted}
        for adapter, alpha in self.current.get_adapters_and_alphas():
            for name, w in _match(adapter, [self.nodes[n] for n in self.adapted], PREFIX).items():
                out[name].append((w, alpha))
        return out

    def _check_shapes(self, config: AdapterConfig) -> None:
        nodes = [self.nodes[n] for n in self.adapted] or list(self.nodes.values())
        for adapter in config.get_adapters():
            for name, w in _match(adapter, nodes, PREFIX).items():
                node = self.nodes[name]
                if w.A.shape[1] != node.d_in or w.B.shape[0] != node.d_out:
                    raise RuntimeError(f"LoRA adapter {adapter._path!r} does not fit {name}: A "
                                       f"{tuple(w.A.shape)}, B {tuple(w.B.shape)} for a "
                                       f"{node.d_in} x {node.d_out} weight")

    def _apply_state(self) -> None:
        active = self._active()
        ranks = {n: sum(w.rank for w, _ in ws) for n, ws in active.items()}
        if self.mode != Mode.MODE_AUTO and self.mode != Mode.MODE_DYNAMIC:
            ranks = dict(self.fixed_rank)  # static rank / constants: the shapes built at load
        self._set_cost(active, ranks)
        model = self.engine.model
        if model is None:
            return
        lora = {}
        for name, ws in active.items():
            ws = [(w, a) for w, a in ws if a != 0.0]
            if ws:  # concatenated along the rank, alpha folded into B (GenAI's fine-grained alpha)
                at = np.concatenate([w.A.T for w, _ in ws], axis=1)
                bt = np.concatenate([a * w.B.T for w, a in ws], axis=0)
                lora[tiny_key(name)] = (at, bt)
        model.lora = lora

    def _set_cost(self, active: dict[str, Any], ranks: dict[str, int]) -> None:
        elem = max((w.itemsize for ws in active.values() for w, _ in ws), default=2)
        per = sum(r * (self.nodes[n].d_in + self.nodes[n].d_out) for n, r in ranks.items())
        self.flops_per_token = 2.0 * per
        self.bytes_per_step = float(per * elem)

    def _fuse(self) -> None:
        """MODE_FUSE: ``W += alpha B A`` once (on the CPU), no per-token cost after it."""
        eng = self.engine
        if eng.llm.precision not in ("FP16", "FP32", "BF16"):
            raise RuntimeError(f"Check 'std::dynamic_pointer_cast<v0::Constant>(node)' failed at "
                               f"{_SRC}:726:\nLoRA adapter application: not supported "
                               "decompression pattern at the weight input (presumably low-bit "
                               "compression). Use f32/f16/bf16 weights only if MODE_FUSE is used.")
        flops = nbytes = 0.0
        for name, ws in self._active().items():
            node = self.nodes[name]
            for w, alpha in ws:
                flops += 2.0 * w.rank * node.d_in * node.d_out
                if eng.model is not None:
                    key = tiny_key(name)
                    eng.model.w[key] = eng.model.w[key] + alpha * (w.B @ w.A).T
            if ws:  # the weight read and written back
                nbytes += 2.0 * node.d_in * node.d_out * 2
        cpu = next(s for s in eng.core.platform.devices.values() if s.plugin == "CPU")
        from .timing import device_peak_and_bandwidth

        peak, bw = device_peak_and_bandwidth(cpu)
        c = eng.cost
        self.fuse_seconds = (flops / (peak * 1e9 * c.compute_efficiency["FP16"])
                             + nbytes / (bw * 1e9 * c.memory_efficiency)) if flops else 0.0
        if eng.model is not None:
            eng.model.lora = {}

    def step_extra(self, n_tokens: int, peak_gflops: float, bandwidth_gbs: float
                   ) -> tuple[float, float]:
        """(seconds, of which memory seconds) the low-rank matmuls add to a step of
        ``n_tokens`` tokens: f16 matmuls at the fitted compute efficiency, their A and B read
        once per step at the fitted memory efficiency."""
        if not self.flops_per_token or n_tokens <= 0:
            return 0.0, 0.0
        c = self.engine.cost
        mem = self.bytes_per_step / (bandwidth_gbs * 1e9 * c.memory_efficiency)
        return (self.flops_per_token * n_tokens / (peak_gflops * 1e9 * c.compute_efficiency["FP16"])
                + mem, mem)

    def describe(self) -> dict[str, Any]:
        return {"mode": self.mode.name, "adapted_matmuls": len(self.adapted),
                "lora_flops_per_token": self.flops_per_token,
                "lora_bytes_per_step": self.bytes_per_step, "fuse_seconds": self.fuse_seconds}


def tiny_key(name: str) -> str:
    """The tiny model's weight key of a MatMul name: ``l{layer}.{wq|...|w_down}``."""
    layer = int(name.split("layers.")[1].split(".")[0])
    module = name.split(f"layers.{layer}.")[1].split("/")[0]
    return f"l{layer}." + dict(_ATTN + _MLP)[module]



def attach(pipe: Any, config: Any) -> None:
    """``adapters=`` of a pipeline's constructor: the controller on its engine, the fuse step's
    time on the clock and in the load time, the config in the pipeline's GenerationConfig."""
    if config is None:
        return
    eng = pipe._engine
    if getattr(eng, "one_at_a_time", False):
        raise NotImplementedError("LoRA adapters on the NPU's stateful pipeline are not "
                                  "simulated by ovlab (CPU and GPU, continuous batching, are)")
    eng.lora = AdapterController(eng, config)
    if eng.lora.fuse_seconds:
        eng.core.clock.sleep(eng.lora.fuse_seconds)
        pipe._load_time_ms += eng.lora.fuse_seconds * 1e3
    pipe._generation_config.adapters = config


def set_adapters(engine: Any, configs: list[Any]) -> None:
    """Before a generate's steps: every request must carry the same adapters (GenAI's check),
    and those are applied; a pipeline built without adapters ignores them, as GenAI's does."""
    adapters = [getattr(c, "adapters", None) for c in configs]
    for prev, cur in zip(adapters, adapters[1:], strict=False):
        if not (prev is cur or (prev is not None and prev == cur)):
            raise RuntimeError("Check 'sampling_params[i - 1].adapters == sampling_params[i]."
                               "adapters' failed at src/cpp/src/continuous_batching/"
                               "pipeline_impl.cpp:572:\nLoRA adapters value must be the same "
                               "for all requests")
    ctl = getattr(engine, "lora", None)
    if ctl is not None and adapters:
        ctl.apply(adapters[0])


__all__ = ["AdapterController", "attach", "model_nodes", "node_name", "set_adapters"]
