"""The stateful LLM pipelines: the NPU's static-shape one, and the SDPA one on CPU / GPU.

What ``LLMPipeline(path, "NPU")`` does in GenAI (genai@da1db864 ``llm/pipeline.cpp``,
``llm/pipeline_stateful.cpp``, ``utils.cpp``, ``lm_encoding.cpp``), and ovlab with it:

- the exact string ``"NPU"`` selects the **stateful** pipeline (``is_npu_requested``); the model
  is compiled by NPUW with static shapes: ``MAX_PROMPT_LEN`` (default 1024) and
  ``MIN_RESPONSE_LEN`` (default 128) popped from the properties, the KV cache a fixed buffer of
  ``MAX_PROMPT_LEN + MIN_RESPONSE_LEN`` tokens kept in the model's state;
- **prefill** runs in chunks of ``NPUW_LLM_PREFILL_CHUNK_SIZE`` (1024) tokens under the default
  ``PREFILL_HINT`` ``DYNAMIC`` (since 2025.3), each chunk padded to its full size, or once over
  the whole ``MAX_PROMPT_LEN`` under ``STATIC``. So a prompt shorter than a chunk costs what a
  full chunk costs: "TTFT remains the same as if a full-length prompt was passed" (the NPU GenAI
  guide); beyond it TTFT climbs in steps of a chunk;
- **decode** runs the generate model over the whole static KV buffer each token, however short
  the text so far;
- a prompt (or, in a chat, the whole history: the NPU re-reads it every turn) longer than
  ``MAX_PROMPT_LEN`` fails with GenAI's assertion; generation ends when the KV buffer is full
  (``lm_encoding.cpp``: the sequence goes out of memory);
- **one request at a time**: no scheduler; a batch of prompts fails ("Currently only batch size
  equal to 1 ..."), only greedy and multinomial decoding, one return sequence. A
  ``scheduler_config`` is not taken out of the properties on this path, so it reaches the NPU
  plugin's compile, which refuses a key it does not know (``FilteredConfig``);
- **compile** takes seconds to minutes; with ``CACHE_DIR`` the compiled blob is written there and
  a second load imports it (the model cache of ``ovlab.sim.runtime.model_cache``: same header, same
  key scheme); ``EXPORT_BLOB`` / ``BLOB_PATH`` export and import a blob by hand (``utils.cpp``:
  ``export_npu_model`` / ``import_npu_model`` and their errors).

``ATTENTION_BACKEND="SDPA"`` on another device selects the same stateful pipeline without the
static shapes: the prompts of one ``generate()`` call run together and no request can join them
(no paged attention, no prefix caching).

**Timing.** The step cost is ``timing.LLMCost``, fitted on the 165H iGPU. The NPU's kernels reach
a smaller share of its peak and of the memory bandwidth than the iGPU's; both shares are taken
from one package where both devices were measured, the Core Ultra X7 368H: the NPU's Qwen3-8B
INT4 row of OVMS's long-context demo (TTFT 1 436 ms at 1k tokens, TPOT 52.19 ms, MAX_PROMPT_LEN
1K) against Intel's iGPU row for CodeLlama-7b INT4 (1st token 228.2 ms at 1024 tokens, 2nd
32.5 ms), each turned into FLOP/s and bytes/s by the zoo's formulas, the FLOP/s divided by each
device's published peak (NPU 50 TOPS, iGPU 120 TOPS). ``npu_factors()`` computes them. The
compile time per GB of weights is taken from openvino.genai #1084 (TinyLlama on a Core Ultra 5
125H NPU: load 3 325 ms).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..models import llm_zoo as zoo
from ..runtime import model_cache
from .engine import LOAD_DISK_GBS, Engine
from .scheduler_config import SchedulerConfig
from .timing import Chunk, LLMCost, features

DEFAULT_MAX_PROMPT_LEN = 1024
DEFAULT_MIN_RESPONSE_LEN = 128
DEFAULT_PREFILL_CHUNK_SIZE = 1024
PREFILL_HINTS = ("DYNAMIC", "STATIC")
GENERATE_HINTS = ("FAST_COMPILE", "BEST_PERF")

#: NPU keys GenAI and NPUW take on the LLM path (the rest of the NPU plugin's keys pass through)
NPU_KEYS = {"MAX_PROMPT_LEN", "MIN_RESPONSE_LEN", "NPUW_LLM_PREFILL_CHUNK_SIZE", "PREFILL_HINT",
            "GENERATE_HINT", "CACHE_DIR", "CACHE_MODE", "BLOB_PATH", "EXPORT_BLOB",
            "PERFORMANCE_HINT", "NPU_USE_NPUW", "NPUW_LLM", "WEIGHTS_PATH"}

# --- grounding (see the module docstring) --------------------------------------------------------
#: Core Ultra X7 368H: (model shape, weight format, prompt tokens, first-token ms, next-token ms)
NPU_368H_ROW = (zoo.LLMSpec("Qwen3-8B", 36, 4096, 32, 8, 12288, 151936, 40960, head_dim=128,
                            source="Qwen/Qwen3-8B"), "INT4-MIXED", 1024, 1436.0, 52.19)
IGPU_368H_ROW = (zoo.LLMSpec("CodeLlama-7b", 32, 4096, 32, 32, 11008, 32016, 16384,
                             gated_mlp=True, source="codellama/CodeLlama-7b-hf"),
                 "INT4-MIXED", 1024, 228.2, 32.5)
NPU_368H_TOPS, IGPU_368H_TOPS = 50.0, 120.0
#: openvino.genai #1084: TinyLlama-1.1B-Chat on a Core Ultra 5 125H NPU, "load time 3325 ms"
NPU_LOAD_1084_S = 3.325
NPU_LOAD_1084_MODEL = ("TinyLlama-1.1B-Chat-v1.0", "INT4-MIXED")


def npu_factors() -> tuple[float, float]:
    """(compute, memory): the NPU's share of its peak and of the DRAM bandwidth, relative to the
    iGPU's, as measured on the 368H (module docstring)."""
    def rates(row, npu: bool) -> tuple[float, float]:
        spec, precision, n, first_ms, next_ms = row
        f = features(spec, precision, [Chunk(n, 0)])
        flops = f[f"flops_{precision}"] + f["attention_flops"]
        past = n + DEFAULT_MIN_RESPONSE_LEN - 1 if npu else n
        nbytes = features(spec, precision, [Chunk(1, past)])["bytes"]
        return flops / (first_ms / 1e3), nbytes / (next_ms / 1e3)

    npu_flops, npu_bw = rates(NPU_368H_ROW, True)
    gpu_flops, gpu_bw = rates(IGPU_368H_ROW, False)
    return (npu_flops / NPU_368H_TOPS) / (gpu_flops / IGPU_368H_TOPS), npu_bw / gpu_bw


def npu_compile_seconds_per_gb() -> float:
    """Seconds an NPU LLM compile takes per GB of weights (openvino.genai #1084: its load time
    less reading the weights from disk, which ``load_seconds`` adds)."""
    name, precision = NPU_LOAD_1084_MODEL
    nbytes = zoo.weight_bytes(zoo.get(name), precision)
    return (NPU_LOAD_1084_S - nbytes / (LOAD_DISK_GBS * 1e9)) / (nbytes / 1e9)


def npu_cost(cost: LLMCost) -> LLMCost:
    compute, mem = npu_factors()
    return LLMCost({k: v * compute for k, v in cost.compute_efficiency.items()},
                   cost.attention_efficiency * compute, cost.memory_efficiency * mem,
                   cost.step_overhead_s)


# --- the NPU's properties ---------------------------------------------------------------------
def _int(props: dict, key: str, default: int) -> int:
    if key not in props:
        return default
    value = props.pop(key)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value))
        except ValueError:
            raise RuntimeError(f"Failed to extract {key}. Type mismatch: expected types: int or "
                               "int64_t") from None
    if value < 0:
        raise RuntimeError(f"{key} cannot be negative!")
    return value


@dataclass(frozen=True)
class NPUConfig:
    """What the NPU's LLM compile reads from the pipeline's properties."""

    max_prompt_len: int = DEFAULT_MAX_PROMPT_LEN
    min_response_len: int = DEFAULT_MIN_RESPONSE_LEN
    prefill_chunk_size: int = DEFAULT_PREFILL_CHUNK_SIZE
    prefill_hint: str = "DYNAMIC"
    generate_hint: str = "FAST_COMPILE"
    cache_dir: str = ""
    blob_path: str = ""
    export_blob: bool = False

    @property
    def kv_capacity(self) -> int:
        """Tokens the static KV buffer holds (``get_npu_kv_cache_capacity``)."""
        return self.max_prompt_len + self.min_response_len - 1

    @classmethod
    def from_properties(cls, props: dict[str, Any], core_cache_dir: str = "") -> NPUConfig:
        props = dict(props)
        for key in list(props):
            if key not in NPU_KEYS:
                raise RuntimeError(f"Exception from src/inference/src/cpp/core.cpp:\n"
                                   f"[ NOT_FOUND ] Option '{key}' is not supported for current "
                                   "configuration")
        blob_path = str(props.pop("BLOB_PATH", ""))
        export = bool(props.pop("EXPORT_BLOB", False))
        cfg = cls(max_prompt_len=_int(props, "MAX_PROMPT_LEN", DEFAULT_MAX_PROMPT_LEN),
                  min_response_len=_int(props, "MIN_RESPONSE_LEN", DEFAULT_MIN_RESPONSE_LEN),
                  prefill_chunk_size=_int(props, "NPUW_LLM_PREFILL_CHUNK_SIZE",
                                          DEFAULT_PREFILL_CHUNK_SIZE),
                  prefill_hint=str(props.pop("PREFILL_HINT", "DYNAMIC")).upper(),
                  generate_hint=str(props.pop("GENERATE_HINT", "FAST_COMPILE")).upper(),
                  cache_dir=str(props.pop("CACHE_DIR", core_cache_dir) or ""),
                  blob_path=blob_path, export_blob=export)
        if cfg.prefill_hint not in PREFILL_HINTS:
            raise RuntimeError(f"Unsupported value {cfg.prefill_hint} for NPUW_LLM_PREFILL_HINT; "
                               f"expected one of {', '.join(PREFILL_HINTS)}")
        if cfg.generate_hint not in GENERATE_HINTS:
            raise RuntimeError(f"Unsupported value {cfg.generate_hint} for "
                               f"NPUW_LLM_GENERATE_HINT; expected one of {', '.join(GENERATE_HINTS)}")
        if cfg.max_prompt_len == 0 or cfg.prefill_chunk_size == 0:
            raise RuntimeError("MAX_PROMPT_LEN and NPUW_LLM_PREFILL_CHUNK_SIZE must be positive")
        return cfg

    def key(self, llm, full_device_name: str) -> str:
        """The blob key: the model and every option that shapes the compiled blob."""
        seed = model_cache.hash_combine(0, f"{llm.spec.name}:{llm.precision}")
        for part in (self.max_prompt_len, self.min_response_len, self.prefill_chunk_size,
                     self.prefill_hint, self.generate_hint, full_device_name):
            seed = model_cache.hash_combine(seed, str(part))
        return str(seed)


def prefill_chunks(n_tokens: int, cfg: NPUConfig) -> list[Chunk]:
    """The model runs of an NPU prefill of ``n_tokens``: padded chunks (DYNAMIC) or one run of
    ``MAX_PROMPT_LEN`` (STATIC)."""
    if cfg.prefill_hint == "STATIC":
        return [Chunk(cfg.max_prompt_len, 0)]
    size = min(cfg.prefill_chunk_size, cfg.max_prompt_len)
    return [Chunk(size, i * size) for i in range(max(1, math.ceil(n_tokens / size)))]


# --- the engines --------------------------------------------------------------------------------
def stateful_scheduler_config(max_seqs: int) -> SchedulerConfig:
    """The stateful pipelines as the CB engine runs them: whole prompts at once (no split-fuse,
    no token budget), at most ``max_seqs`` sequences, no prefix caching."""
    cfg = SchedulerConfig()
    cfg.dynamic_split_fuse = False
    cfg.max_num_batched_tokens = 2**62
    cfg.max_num_seqs = max_seqs
    cfg.enable_prefix_caching = False
    return cfg


class SDPAEngine(Engine):
    """The stateful SDPA pipeline on CPU / GPU: the prompts of one call together, no joining."""

    kind = "stateful SDPA"

    def __init__(self, llm, core, device, tokenizer, properties: dict | None = None) -> None:
        super().__init__(llm, core, device, stateful_scheduler_config(256), tokenizer)


class NPUEngine(Engine):
    """The NPU's static-shape stateful pipeline: one sequence, padded prefill, static KV."""

    kind = "NPU stateful (static shapes)"
    one_at_a_time = True

    def __init__(self, llm, core, device, tokenizer, properties: dict | None = None) -> None:
        cache = str(core._core_props.get("CACHE_DIR", "") or "")
        self.npu = NPUConfig.from_properties(properties or {}, cache)
        super().__init__(llm, core, device, stateful_scheduler_config(1), tokenizer)
        self.cost = npu_cost(self.cost)
        self.loaded_from = "compile"
        self._blob_key = self.npu.key(llm, self.spec.full_name)
        if self.npu.blob_path and not self.npu.export_blob:
            self._import_blob()

    # --- memory: weights and the static KV buffer, held from the load ---------------------------
    def kv_bytes(self) -> float:
        return self.llm.spec.kv_bytes_per_token(self.kv_elem) * (self.npu.kv_capacity + 1)

    def static_bytes(self) -> float:
        return self.weight_bytes() + self.kv_bytes()

    def _available_memory(self, device: str, num_cache_tensors: int) -> int:
        return int(self.kv_bytes())

    # --- timing ------------------------------------------------------------------------------------
    def step_seconds(self, chunks: list[Chunk]) -> tuple[float, float]:
        runs: list[Chunk] = []
        for c in chunks:
            if c.tokens == 0:
                continue
            if c.past == 0 or c.tokens > 1:
                runs += prefill_chunks(c.tokens, self.npu)
            else:  # the generate model attends over the whole static KV buffer
                runs.append(Chunk(1, self.npu.kv_capacity))
        total = mem = 0.0
        for run in runs:
            s, m = super().step_seconds([run])
            total, mem = total + s, mem + m
        return total, mem

    # --- load: compile, cache, blobs ---------------------------------------------------------------
    def _import_blob(self) -> None:
        path = Path(self.npu.blob_path)
        if not path.exists():
            raise RuntimeError(f"Blob file is not found at: {self.npu.blob_path}")
        try:
            payload = json.loads(path.read_text().split("\n", 1)[1])
        except (OSError, ValueError, IndexError):
            raise RuntimeError(f"Blob file can't be opened: {self.npu.blob_path}") from None
        if payload.get("model") != f"{self.llm.spec.name}:{self.llm.precision}":
            raise RuntimeError(f"{self.npu.blob_path} holds {payload.get('model')}, not "
                               f"{self.llm.spec.name}:{self.llm.precision}")
        self.npu = replace(self.npu, max_prompt_len=int(payload["max_prompt_len"]),
                           min_response_len=int(payload["min_response_len"]))
        self.loaded_from = "blob"

    def _payload(self, seconds: float) -> dict:
        return {"device": self.device, "full_device_name": self.spec.full_name,
                "model": f"{self.llm.spec.name}:{self.llm.precision}",
                "max_prompt_len": self.npu.max_prompt_len,
                "min_response_len": self.npu.min_response_len,
                "compile_seconds": round(seconds, 6),
                "written_by": "ovlab (a simulated NPU: no binary inside)"}

    def load_seconds(self) -> float:
        """Import a blob (from BLOB_PATH or CACHE_DIR), or compile (and write the blob)."""
        read = self.weight_bytes() / (LOAD_DISK_GBS * 1e9)
        if self.loaded_from == "blob":
            return read + self.spec.cached_load_s
        cache_dir = self.npu.cache_dir
        if cache_dir:
            model_cache.prepare_dir(cache_dir, "core.compile_model")
            if model_cache.read_blob(cache_dir, self._blob_key) is not None:
                self.loaded_from = "cache"
                return read + self.spec.cached_load_s
        seconds = read + npu_compile_seconds_per_gb() * self.weight_bytes() / 1e9
        if cache_dir:
            model_cache.write_blob(cache_dir, self._blob_key, self._payload(seconds))
        if self.npu.export_blob:
            path = self.npu.blob_path or "openvino_model.blob"
            if not path.endswith(".blob"):
                raise RuntimeError(f"Please provide a full path to blob file in BLOB_PATH: {path}")
            try:
                Path(path).write_text(model_cache._header() + "\n" +
                                      json.dumps(self._payload(seconds), sort_keys=True) + "\n")
            except OSError:
                raise RuntimeError(f"Blob file can't be exported to: {path}") from None
        return seconds

    # --- requests: one at a time, within the static shapes ------------------------------------
    def check_prompt(self, n_tokens: int) -> None:
        if n_tokens > self.npu.max_prompt_len:
            raise RuntimeError(
                "Stateful LLM pipeline on NPU may only process prompts or hold chat history up to "
                f"{self.npu.max_prompt_len} tokens. {n_tokens} is passed.\n Set the "
                "\"MAX_PROMPT_LEN\" config option to increase the limit.")

    def add_request(self, request_id, input_ids, config):
        self.check_prompt(len(input_ids))
        if not (config.is_greedy_decoding() or config.is_multinomial()):
            raise RuntimeError("Currently only greedy and multinomial decoding are supported for "
                               "NPU device!")
        if config.num_return_sequences != 1:
            raise RuntimeError("Currently only \"num_return_sequences\" equal to 1 is supported "
                               "for NPU device!")
        config = config.copy()
        room = self.npu.kv_capacity + 1 - len(input_ids)  # lm_encoding.cpp: the buffer is full
        if config.get_max_new_tokens(len(input_ids)) > room:
            config.max_new_tokens = room
            config.max_length = 2**64 - 1
        return super().add_request(request_id, input_ids, config)



