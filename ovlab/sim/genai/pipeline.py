"""``LLMPipeline`` and ``ContinuousBatchingPipeline``: GenAI's text generation on ovlab.

Which engine a device string selects follows ``llm/pipeline.cpp``: on CPU and GPU (and AUTO,
which resolves to one of them) ``LLMPipeline`` runs the continuous-batching engine with the
latency-oriented scheduler config (token budget unlimited, prefix caching on) unless a
``scheduler_config`` is given; ``"NPU"`` runs the stateful static-shape pipeline and
``ATTENTION_BACKEND="SDPA"`` the stateful one elsewhere (``npu_pipeline``); ``"HETERO:GPU.0,GPU.1"``
with ``MODEL_DISTRIBUTION_POLICY=PIPELINE_PARALLEL`` splits the LLM over the GPUs (``hetero``), and
a ``draft_model=`` makes the speculative pipeline (``speculative``). ``BATCH:`` fails as OpenVINO's automatic batching does on an LLM: the
model is dynamic (and stateful), which ``auto_batch/src/plugin.cpp`` refuses.

Pipelines run on an ``ovlab.Core`` (its platform, seed and clock): ``core=`` picks one (ovlab's
addition to the API); under ``python -m ovlab run`` the runner's session Core is used; otherwise
a new Core on the ``core-ultra-7-165h`` AI PC.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor
from .chat import ChatHistory
from .config import GenerationConfig, GenerationFinishReason, make_streamer
from .engine import Engine, _Request
from .models import resolve
from .results import (
    DecodedResults,
    EncodedGenerationResult,
    EncodedResults,
    GenerationOutput,
    GenerationResult,
    GenerationStatus,
    PerfMetrics,
    PipelineMetrics,
)
from .scheduler_config import SchedulerConfig, get_latency_oriented_scheduler_config
from .tokenizer import TokenizedInputs, Tokenizer

DEFAULT_PLATFORM = "core-ultra-7-165h"
#: the error of OpenVINO's auto-batching plugin for a model with dynamic inputs
#: (src/plugins/auto_batch/src/plugin.cpp); every LLM served by GenAI has them
BATCH_ERROR = ("Exception from src/inference/src/cpp/core.cpp:\n"
               "Exception from src/plugins/auto_batch/src/plugin.cpp:\n"
               "Auto-batching does not support dynamic networks!")

_core_factory = None
_note_paths = None
_speculative_class = None  # .speculative registers its pipeline (it imports this module)


def register_speculative(cls: type) -> None:
    """Which class ``LLMPipeline(..., draft_model=...)`` makes (``speculative.py`` calls it)."""
    global _speculative_class
    _speculative_class = cls


def set_core_factory(factory, note_paths=None) -> None:
    """Where pipelines get their Core when none is given (the runner sets its session's); the
    factory may answer None for the default. ``note_paths()`` says whether a model path that
    names a zoo LLM gets its line on stderr (under the runner, as for CNNs; not in the labs)."""
    global _core_factory, _note_paths
    _core_factory, _note_paths = factory, note_paths


STANDIN_NOTE = ("ovlab: {model} is a virtual model: the text is a stand-in (seeded, from "
                "ovlab's corpus), the timing follows the real model's shape on the simulated "
                "{device}.")


def _note_standin(pipe: Any) -> None:
    """In a notebook, one line under the first output of a pipeline whose text is a stand-in
    (every zoo LLM but the tiny real one): the values returned are unchanged."""
    if getattr(pipe, "_standin_noted", False):  # noted already, or a helper's pipeline
        return
    eng = pipe._engine
    if getattr(eng, "model", None) is not None:  # the tiny model computes its own text
        return
    pipe._standin_noted = True
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the lab's requirements
        return
    shell = get_ipython()
    if shell is None or "IPKernelApp" not in shell.config:  # a script, a terminal IPython
        return
    import html

    from IPython.display import display

    line = STANDIN_NOTE.format(model=eng.name, device=listed_name(eng.core, eng.device))
    display({"text/plain": line,
             "text/html": f"<div class='ovlab-standin-note' style='color:#666;font-size:12px'>"
                          f"&#9432; {html.escape(line)}</div>"}, raw=True)


def _default_core():
    core = _core_factory() if _core_factory is not None else None
    if core is not None:
        return core
    from ..runtime.core import Core

    return Core(DEFAULT_PLATFORM, seed=0)


def _quiet() -> bool:
    """Whether a zoo model path loads without its line on stderr (see set_core_factory)."""
    return not (_note_paths is not None and _note_paths())


def resolve_device(core, device: str) -> str:
    """The concrete device an LLM pipeline runs on, or the error GenAI / OpenVINO gives."""
    name = str(device).strip()
    upper = name.upper()
    if upper.startswith("BATCH"):
        raise RuntimeError(BATCH_ERROR)
    if upper.startswith(("HETERO", "MULTI")):  # LLMPipeline on HETERO: see .hetero
        raise NotImplementedError(f"{name!r} with this pipeline: ovlab splits an LLM over "
                                  "devices only as LLMPipeline(path, 'HETERO:GPU.0,GPU.1', "
                                  "MODEL_DISTRIBUTION_POLICY='PIPELINE_PARALLEL')")
    devices = list(core.platform.devices)
    if upper.startswith("AUTO"):
        return resolve_auto(core, name)
    if upper in ("GPU", "NPU"):
        upper = next((d for d in devices if d.split(".")[0] == upper), upper)
    if upper in devices:
        return upper
    raise RuntimeError(f"Device with \"{name}\" name is not registered in the OpenVINO Runtime "
                       f"(this platform has {', '.join(devices)})")


def listed_name(core, device: str) -> str:
    """``device`` (a platform's name, ``GPU.0``) as ``core.available_devices`` lists it:
    OpenVINO names a device by its index only when its plugin has more than one (``GPU`` on a
    laptop with one iGPU, ``GPU.0`` and ``GPU.1`` beside a dGPU). Composite names
    (``HETERO:GPU.0,GPU.1``) stay as they are."""
    if ":" in device or "." not in device:
        return device
    listed = core.available_devices
    if device in listed:
        return device
    base = device.split(".")[0]
    return base if base in listed else device


def resolve_auto(core, name: str) -> str:
    """The device AUTO compiles GenAI's paged-attention model on (``auto/src/plugin.cpp``):
    the candidates (``AUTO:GPU,CPU`` in that order; plain ``AUTO``: every device, dGPU before
    iGPU before other accelerators before the CPU, ``get_valid_device``), less the NPU, which
    cannot compile a model with dynamic shapes (AUTO moves on to the next candidate)."""
    platform = core.platform
    devices = list(platform.devices)
    _, _, listed = name.partition(":")
    if listed.strip():
        wanted = []
        for item in (x.strip().upper() for x in listed.split(",") if x.strip()):
            if item.startswith("-"):
                continue
            matches = [d for d in devices if d == item or d.split(".")[0] == item]
            if not matches:
                raise RuntimeError(f"Device with \"{item}\" name is not registered in the "
                                   f"OpenVINO Runtime (this platform has {', '.join(devices)})")
            wanted += [d for d in matches if d not in wanted]
        excluded = {x.strip().upper()[1:] for x in listed.split(",") if x.strip().startswith("-")}
        if not wanted:
            wanted = [d for d in devices if d not in excluded and d.split(".")[0] not in excluded]
            wanted = _auto_order(platform, wanted)
    else:
        wanted = _auto_order(platform, devices)
    for device in wanted:
        if platform.devices[device].plugin != "NPU":
            return device
    raise RuntimeError("Exception from src/inference/src/cpp/core.cpp:\n[AUTO] compile model "
                       f"failed, {', '.join(wanted)}: the LLM's paged-attention model has dynamic "
                       "shapes and the NPU supports only models with static shapes")


def _auto_order(platform, devices: list[str]) -> list[str]:
    """AUTO's default priority: dGPU, iGPU, other accelerators, CPU."""
    def rank(d: str) -> int:
        spec = platform.devices[d]
        if spec.plugin == "GPU":
            return 0 if spec.device_type == "discrete" else 1
        return 3 if spec.plugin == "CPU" else 2
    return sorted(devices, key=rank)


def _scheduler_config(properties: dict, explicit: bool) -> SchedulerConfig:
    cfg = properties.pop("scheduler_config", None)
    if cfg is None:
        return get_latency_oriented_scheduler_config() if not explicit else SchedulerConfig()
    if not isinstance(cfg, SchedulerConfig):
        raise TypeError(f"scheduler_config must be an openvino_genai.SchedulerConfig, not "
                        f"{type(cfg).__name__}")
    return cfg


def _select_engine(device: str, properties: dict) -> tuple[Any, SchedulerConfig | None]:
    """Which pipeline ``LLMPipeline(path, device, **properties)`` builds (``llm/pipeline.cpp``):
    (a stateful engine class, None) or (None, the CB scheduler config). Takes the keys it reads
    out of ``properties``."""
    from .npu_pipeline import NPUEngine, SDPAEngine

    backend = properties.pop("ATTENTION_BACKEND", None)
    if backend is not None and str(backend) not in ("PA", "SDPA"):
        raise RuntimeError(f"Attention backend must be either 'PA' or 'SDPA', got '{backend}'")
    requires_pa = "scheduler_config" in properties or backend == "PA"
    if requires_pa and backend == "SDPA":
        raise RuntimeError("User properties are conflicting: some of them requires "
                           "PagedAttention backend, while 'ATTENTION_BACKEND' is set to 'SDPA'")
    # only the exact string "NPU" asks for the NPU pipeline (utils.cpp is_npu_requested); "NPU.0"
    # gets there too: its paged-attention compile fails and GenAI falls back to the stateful one
    if device.upper() == "NPU" or device.upper().startswith("NPU."):
        return NPUEngine, None
    if backend == "SDPA":
        return SDPAEngine, None
    return None, _scheduler_config(properties, "scheduler_config" in properties)


def _ids(tensor: Any) -> list[list[int]]:
    arr = np.asarray(tensor.data if isinstance(tensor, Tensor) else tensor)
    if arr.ndim == 1:
        arr = arr[None]
    return [[int(t) for t in row] for row in arr]


class GenerationHandle:
    """A request added to a ContinuousBatchingPipeline: its status and its tokens as they come."""

    def __init__(self, engine: Engine, req: _Request) -> None:
        self._engine, self._req = engine, req

    def get_status(self) -> GenerationStatus:
        return GenerationStatus(self._req.status)

    def can_read(self) -> bool:
        return bool(self._req.outputs)

    def read(self) -> dict[int, GenerationOutput]:
        """The tokens of the steps since the last read, merged per sequence."""
        merged: dict[int, GenerationOutput] = {}
        while self._req.outputs:
            for seq_id, out in self._req.outputs.popleft().items():
                have = merged.setdefault(seq_id, GenerationOutput())
                have.generated_ids += out.generated_ids
                have.generated_log_probs += out.generated_log_probs
                have.score, have.finish_reason = out.score, out.finish_reason
        return merged

    def read_all(self) -> list[GenerationOutput]:
        out = GenerationOutput()
        for seq in self._req.group.get_sequences():
            out.generated_ids = list(seq.get_generated_ids())
            out.generated_log_probs = list(seq.get_generated_log_probs())
            out.score = self._req.cumulative_log_prob
            out.finish_reason = self._req.finish_reason
        self._req.outputs.clear()
        return [out]

    def stop(self, finish_reason: GenerationFinishReason = GenerationFinishReason.STOP) -> None:
        """End the generation and keep what was generated (GenerationStatus.STOP)."""
        self._req.group.set_generation_status(GenerationStatus.STOP)
        self._req.status = GenerationStatus.STOP
        self._req.finish_reason = GenerationFinishReason(finish_reason)

    def cancel(self) -> None:
        """End the generation and drop it (GenerationStatus.CANCEL)."""
        self._req.group.set_generation_status(GenerationStatus.CANCEL)
        self._req.status = GenerationStatus.CANCEL

    def get_perf_metrics(self) -> PerfMetrics:
        return self._req.perf


class _Base:
    """What both pipelines share: the model, the engine, the tokenizer, chat state."""

    _engine: Engine
    _device: str = ""

    @property
    def device(self) -> str:
        """The device this pipeline runs on, named as the Core lists it (ovlab only: the wheel's
        pipelines keep their device to themselves). A platform with one GPU lists ``GPU``,
        as OpenVINO's ``available_devices`` does, though the GPU plugin's device is ``GPU.0``."""
        return listed_name(self.core, self._device)

    @device.setter
    def device(self, name: str) -> None:
        self._device = name

    def _setup(self, models_path: Any, device: str, scheduler_config: SchedulerConfig | None,
               core: Any, tokenizer: Tokenizer | None, engine_cls: Any = None,
               properties: dict | None = None) -> None:
        """Load: the engine (CB by default; ``engine_cls`` a stateful one), the memory it holds
        (weights, and the NPU's static KV buffer) reserved on the device (``memory.py``), the
        load time on the clock."""
        from . import memory

        self.core = core if core is not None else _default_core()
        self._device = resolve_device(self.core, device)
        llm = resolve(models_path, quiet=not (_note_paths is not None and _note_paths()))
        self._tokenizer = tokenizer if tokenizer is not None else Tokenizer(models_path)
        start = self.core.clock.now
        if engine_cls is None:
            self._engine = Engine(llm, self.core, self._device, scheduler_config, self._tokenizer)
        else:
            self._engine = engine_cls(llm, self.core, self._device, self._tokenizer, properties)
        # CACHE_DIR: the CB and SDPA engines' (the NPU engine reads its own from its config)
        self._engine.cache_dir = str((properties or {}).get("CACHE_DIR") or
                                     self.core._core_props.get("CACHE_DIR", "") or "")
        weights = self._engine.weight_bytes()
        held = getattr(self._engine, "static_bytes", self._engine.weight_bytes)()
        memory.reserve(self.core, self._device, held)
        # a pipeline that is dropped frees its memory, as the real one does
        self._free = weakref.finalize(self, memory.release, self.core, self._device, held)
        memory.attach_package_pool(self.core, self._device)
        try:
            self.core.clock.sleep(self._engine.load_seconds())
        except RuntimeError:
            self._free()
            raise
        self.core.trace.event(start, "genai_load", self._device, self._engine.name,
                              seconds=self.core.clock.now - start, weight_bytes=weights,
                              pipeline=self._engine.kind)
        self._load_time_ms = (self.core.clock.now - start) * 1e3
        self._generation_config = GenerationConfig()
        self._generation_config.set_eos_token_id(self._tokenizer.get_eos_token_id())
        self._chat: ChatHistory | None = None
        self._next_id = 0

    def get_tokenizer(self) -> Tokenizer:
        return self._tokenizer

    def start_chat(self, system_message: str = "") -> None:
        self._chat = ChatHistory()
        if system_message:
            self._chat.append({"role": "system", "content": system_message})

    def finish_chat(self) -> None:
        self._chat = None

    def _config(self, generation_config: Any, kwargs: dict) -> GenerationConfig:
        if isinstance(generation_config, dict):
            kwargs = {**generation_config, **kwargs}
            generation_config = None
        cfg = (generation_config or self._generation_config).copy()
        if not isinstance(cfg, GenerationConfig):
            raise TypeError("generation_config must be an openvino_genai.GenerationConfig or a dict")
        unknown = sorted(k for k in kwargs if not hasattr(cfg, k))
        if unknown:  # GenerationConfig ignores unknown names; generate(**kwargs) does not
            raise ValueError(f"GenerationConfig has no field '{unknown[0]}' (fields: "
                             f"{', '.join(sorted(vars(cfg)))})")
        cfg.update_generation_config(**kwargs)
        if cfg.eos_token_id == -1:
            cfg.set_eos_token_id(self._tokenizer.get_eos_token_id())
        return cfg

    def _run(self, prompts: list[list[int]], configs: list[GenerationConfig], streamer: Any,
             start: float) -> list[_Request]:
        """Add every prompt, step until all are done; the requests."""
        eng = self._engine
        if eng.has_non_finished_requests():
            raise RuntimeError("Generate cannot be called while ContinuousBatchingPipeline is "
                               "already in running state. Use ContinuousBatchingPipeline::add_request")
        if eng.one_at_a_time and len(prompts) > 1:
            raise RuntimeError("Currently only batch size equal to 1 is supported for NPU device!")
        from . import lora

        lora.set_adapters(eng, configs)
        reqs = []
        for ids, cfg in zip(prompts, configs, strict=True):
            reqs.append(eng.add_request(self._next_id, ids, cfg))
            self._next_id += 1
        if streamer is not None:
            if len(reqs) != 1:
                raise RuntimeError("Currently streaming is possible only with batch size=1 and "
                                   "only for greedy or multinomial decoding")
            reqs[0].streamer = make_streamer(streamer, self._tokenizer)
        while eng.has_non_finished_requests():
            eng.step()
        for req in reqs:
            req.perf.load_time = self._load_time_ms
            req.perf.evaluate(start)
            eng.forget(req)
        _note_standin(self)
        return reqs

    def _texts(self, req: _Request, seq: Any = None) -> str:
        ids = (seq or req.group.get_sequences()[0]).get_generated_ids()
        text = self._tokenizer.decode(ids)
        if req.stop_text and not req.config.include_stop_str_in_output:
            text = text[:text.find(req.stop_text)] if req.stop_text in text else text
        return text


class LLMPipeline(_Base):
    """``openvino_genai.LLMPipeline(models_path, device, **properties)``.

    ``scheduler_config=`` picks the continuous-batching scheduler's settings; without it,
    GenAI's latency-oriented ones. ``core=`` (ovlab) picks the Core it runs on.
    ``draft_model=openvino_genai.draft_model(path, device)`` makes a speculative-decoding
    pipeline (:class:`.speculative.SpeculativeLLMPipeline`)."""

    def __new__(cls, *args: Any, **kwargs: Any):
        dicts = [kwargs, kwargs.get("config") or {}, *(a for a in args if isinstance(a, dict))]
        if cls is LLMPipeline and any("draft_model" in d for d in dicts):
            if _speculative_class is None:
                raise RuntimeError("draft_model: ovlab.sim.genai.speculative is not loaded")
            return super().__new__(_speculative_class)
        return super().__new__(cls)

    def __init__(self, models_path: Any, *args: Any, config: dict | None = None, core: Any = None,
                 **kwargs: Any) -> None:
        tokenizer = None
        args = list(args)
        if isinstance(models_path, str) and models_path.lstrip().startswith("<") and args \
                and not isinstance(args[0], (str, Tokenizer)):
            args.pop(0)  # (model_str, weights_tensor, tokenizer, device): an IR in memory
        if args and isinstance(args[0], Tokenizer):
            tokenizer = args.pop(0)
        device = args.pop(0) if args else kwargs.pop("device", "CPU")
        if args:
            config = args.pop(0)
        properties = {**(config or {}), **kwargs}
        if str(device).strip().upper().startswith("HETERO"):
            from . import hetero

            if properties.get("adapters") is not None:
                raise NotImplementedError("LoRA adapters on an LLM split over devices (HETERO) "
                                          "are not simulated by ovlab (CPU and GPU are)")
            if str(properties.pop("ATTENTION_BACKEND", "PA")).upper() == "SDPA":
                raise NotImplementedError("ATTENTION_BACKEND='SDPA' over HETERO: the stateful "
                                          "SDPA pipeline split over devices is not simulated by "
                                          "ovlab (PIPELINE_PARALLEL with paged attention is)")
            explicit = "scheduler_config" in properties
            sched = _scheduler_config(properties, explicit)
            core = core if core is not None else _default_core()
            hetero.setup(self, models_path, device, sched, core, tokenizer, properties, explicit,
                         _quiet())
            return
        self._prompt_lookup = bool(properties.pop("prompt_lookup", False))
        self._models_path = models_path
        adapters = properties.pop("adapters", None)
        engine_cls, sched = _select_engine(str(device).strip(), properties)
        self._setup(models_path, device, sched, core, tokenizer, engine_cls, properties)
        if adapters is not None:
            from . import lora

            lora.attach(self, adapters)
        if self._prompt_lookup and self._engine.one_at_a_time:
            raise RuntimeError("prompt_lookup: ovlab runs prompt-lookup decoding in continuous "
                               "batching (CPU, GPU), as GenAI's PromptLookupImpl does")

    def get_generation_config(self) -> GenerationConfig:
        return self._generation_config.copy()

    def set_generation_config(self, config: GenerationConfig) -> None:
        self._generation_config = config.copy()

    def generate(self, inputs: Any, generation_config: Any = None, streamer: Any = None,
                 **kwargs: Any):
        """Text in, text out (str for a str, ``DecodedResults`` for a list or a ChatHistory);
        token tensors in, ``EncodedResults`` out."""
        clock = self._engine.core.clock
        start = clock.now
        cfg = self._config(generation_config, kwargs)
        raw_tok = []
        if isinstance(inputs, (Tensor, TokenizedInputs, np.ndarray)):
            ids = _ids(inputs.input_ids if isinstance(inputs, TokenizedInputs) else inputs)
            if getattr(self, "_prompt_lookup", False):
                from . import lora

                lora.set_adapters(self._engine, [cfg])
                from . import prompt_lookup

                return prompt_lookup.generate(self, ids, cfg, streamer, encoded=True)
            reqs = self._run(ids, [cfg] * len(ids), streamer, start)
            res = EncodedResults()
            finals = [(r, s, score) for r in reqs for s, score in r.final_sequences()]
            res.tokens = [list(s.get_generated_ids()) for _, s, _ in finals]
            res.scores = [score for _, _, score in finals]
            res.finish_reasons = [s.get_finish_reason() if r.beams is not None else r.finish_reason
                                  for r, s, _ in finals]
            res.perf_metrics = self._merge(reqs, start, [], [])
            return res
        if isinstance(inputs, ChatHistory):
            texts = [self._tokenizer.apply_chat_template(inputs, True)]
        elif isinstance(inputs, str):
            if self._chat is not None:
                self._chat.append({"role": "user", "content": inputs})
                texts = [self._tokenizer.apply_chat_template(self._chat, True)]
            elif cfg.apply_chat_template:
                texts = [self._tokenizer.apply_chat_template([{"role": "user", "content": inputs}],
                                                             True)]
            else:
                texts = [inputs]
        elif isinstance(inputs, (list, tuple)) and all(isinstance(s, str) for s in inputs):
            texts = [self._tokenizer.apply_chat_template([{"role": "user", "content": s}], True)
                     if cfg.apply_chat_template else s for s in inputs]
        else:
            raise TypeError("generate() takes a str, a list of str, a ChatHistory, a Tensor or "
                            f"TokenizedInputs, not {type(inputs).__name__}")
        ids = []
        for t in texts:
            ids.append(self._tokenizer.encode(t).input_ids.data[0].tolist())
            raw_tok.append(self._engine.host_work(len(ids[-1])))
        if getattr(self, "_prompt_lookup", False):
            from . import lora, prompt_lookup

            lora.set_adapters(self._engine, [cfg])
            res = prompt_lookup.generate(self, ids, cfg, streamer, encoded=False)
            return res.texts[0] if isinstance(inputs, str) else res
        reqs = self._run(ids, [cfg] * len(ids), streamer, start)
        res = DecodedResults()
        raw_detok = []
        for r in reqs:
            for seq, score in r.final_sequences():  # beam search: num_return_sequences of them
                res.texts.append(self._texts(r, seq))
                res.scores.append(score)
                res.finish_reasons.append(seq.get_finish_reason() if r.beams is not None
                                          else r.finish_reason)
            raw_detok.append(self._engine.host_work(len(r.group.get_sequences()[0].get_generated_ids())))
        res.perf_metrics = self._merge(reqs, start, raw_tok, raw_detok)
        from .parsers import TextParserStreamer

        if isinstance(streamer, TextParserStreamer):  # run_generate_with_parsers
            res.parsed = [streamer.get_parsed_message()]
        if isinstance(inputs, str) and self._chat is not None:
            self._chat.append({"role": "assistant", "content": res.texts[0]})
        if isinstance(inputs, str) and cfg.num_return_sequences == 1:
            return res.texts[0]
        return res

    __call__ = generate

    def _merge(self, reqs: list[_Request], start: float, tok: list[float],
               detok: list[float]) -> PerfMetrics:
        """One PerfMetrics for the whole generate call (the CB adapter's view: token times of
        all requests, batch sizes per step)."""
        pm = PerfMetrics()
        pm.load_time = self._load_time_ms
        pm.num_input_tokens = sum(r.perf.num_input_tokens for r in reqs)
        times: dict[float, int] = {}
        for r in reqs:
            for t in r.perf.raw_metrics.m_new_token_times:
                times[t] = times.get(t, 0) + 1
        ordered = sorted(times)
        pm.raw_metrics.m_new_token_times = ordered
        pm.raw_metrics.m_batch_sizes = [times[t] for t in ordered]
        pm.evaluate(start)
        pm.raw_metrics.tokenization_durations = list(tok)
        pm.raw_metrics.detokenization_durations = list(detok)
        pm.raw_metrics.generate_durations = [(self._engine.core.clock.now - start) * 1e6]
        pm.raw_metrics.grammar_compile_times = [t for r in reqs
                                                for t in r.perf.raw_metrics.grammar_compile_times]
        return pm


class ContinuousBatchingPipeline(_Base):
    """``openvino_genai.ContinuousBatchingPipeline(models_path, scheduler_config, device,
    properties={}, tokenizer_properties={}, vision_encoder_properties={})`` or
    ``(models_path, tokenizer, scheduler_config, device, **kwargs)``."""

    def __init__(self, models_path: Any, *args: Any, core: Any = None, **kwargs: Any) -> None:
        args = list(args)
        tokenizer = args.pop(0) if args and isinstance(args[0], Tokenizer) else kwargs.pop("tokenizer", None)
        sched = args.pop(0) if args else kwargs.pop("scheduler_config", None)
        device = args.pop(0) if args else kwargs.pop("device", "CPU")
        if not isinstance(sched, SchedulerConfig):
            raise TypeError("ContinuousBatchingPipeline needs a SchedulerConfig as "
                            f"scheduler_config, not {type(sched).__name__}")
        if str(device).strip().upper().startswith("HETERO"):
            from . import hetero

            props = args.pop(0) if args and isinstance(args[0], dict) else kwargs.pop("properties", {})
            core = core if core is not None else _default_core()
            hetero.setup(self, models_path, device, sched, core, tokenizer,
                         {**(props or {}), **kwargs}, True, _quiet())
            return
        if str(device).strip().upper().split(".")[0] == "NPU":
            raise RuntimeError("ContinuousBatchingPipeline on NPU: its paged-attention model has "
                               "dynamic shapes and the NPU compiles only models with static "
                               "shapes; LLMPipeline(models_path, \"NPU\") runs the NPU's "
                               "stateful pipeline")
        self._setup(models_path, device, sched, core, tokenizer)
        props = args[0] if args and isinstance(args[0], dict) else kwargs.get("properties") or {}
        adapters = props.get("adapters", kwargs.get("adapters"))
        if adapters is not None:  # properties={"adapters": AdapterConfig(...)}, as GenAI reads them
            from . import lora

            lora.attach(self, adapters)

    def get_config(self) -> GenerationConfig:
        return self._generation_config.copy()

    def get_metrics(self) -> PipelineMetrics:
        return self._engine.metrics

    def add_request(self, request_id: int, prompt: Any, generation_config: GenerationConfig
                    ) -> GenerationHandle:
        if isinstance(prompt, str):
            ids = self._tokenizer.encode(prompt).input_ids.data[0].tolist()
        else:
            ids = _ids(prompt)[0]
        cfg = self._config(generation_config, {})
        req = self._engine.add_request(int(request_id), ids, cfg)
        return GenerationHandle(self._engine, req)

    def step(self) -> None:
        self._engine.step()

    def has_non_finished_requests(self) -> bool:
        return self._engine.has_non_finished_requests()

    def generate(self, prompts: Any, generation_config: Any = None, streamer: Any = None):
        start = self._engine.core.clock.now
        if isinstance(prompts, (str, Tensor)):
            prompts = [prompts]
        prompts = list(prompts)
        configs = generation_config if isinstance(generation_config, (list, tuple)) else \
            [generation_config] * len(prompts)
        if len(configs) != len(prompts):
            raise RuntimeError("the number of prompts and generation configs differ")
        configs = [self._config(c, {}) for c in configs]
        encoded = all(isinstance(p, Tensor) for p in prompts)
        ids = []
        for p, cfg in zip(prompts, configs, strict=True):
            if isinstance(p, Tensor):
                ids.append(_ids(p)[0])
                continue
            if isinstance(p, (ChatHistory, list)):
                text = self._tokenizer.apply_chat_template(p, True)
            elif cfg.apply_chat_template and self._tokenizer.chat_template:
                text = self._tokenizer.apply_chat_template([{"role": "user", "content": p}], True)
            else:
                text = p
            ids.append(self._tokenizer.encode(text).input_ids.data[0].tolist())
        reqs = self._run(ids, configs, streamer, start)
        results = []
        for r in reqs:
            res = EncodedGenerationResult() if encoded else GenerationResult()
            res.m_request_id = r.group.get_request_id()
            final = r.final_sequences()  # beam search: num_return_sequences, best first
            res.m_generation_ids = [list(seq.get_generated_ids()) if encoded
                                    else self._texts(r, seq) for seq, _ in final]
            res.m_scores = [score for _, score in final]
            res.m_status = GenerationStatus(r.status)
            res.perf_metrics = r.perf
            results.append(res)
        return results


__all__ = ["BATCH_ERROR", "ContinuousBatchingPipeline", "GenerationFinishReason",
           "GenerationHandle", "LLMPipeline", "set_core_factory"]
