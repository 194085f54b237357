"""Speculative decoding: ``LLMPipeline(main, device, draft_model=draft_model(path, device))``.

Why it exists: decode is bound by memory bandwidth, so a small *draft* model proposes K tokens
one by one and the big *main* model checks all of them in one pass (K + 1 tokens for about the
bytes of one). Each accepted candidate saves a main-model pass; each draft token costs a draft
pass. Whether that pays depends on three numbers, and the NPU draft of nibor1896/Crow #183
(openvino discussion #36484) shows it need not: there the draft took 34.3 ms a token on the NPU
against 9.4 ms on the CPU, and the NPU draft made generation 26-45 % *slower* than the GPU alone.

What it follows (genai@da1db864, ``llm/pipeline.cpp`` and ``speculative_decoding/``):

- **Which pipeline**: a draft on ``"NPU"`` (the exact string) makes ``is_npu_requested`` true and
  selects the *stateful* FastDraft pipeline (``stateful/fast_draft_strategy.cpp``): batch 1,
  greedy only, ``num_assistant_tokens`` only (``assistant_confidence_threshold`` is refused),
  default 5 candidates, and the number of candidates adapts: +2 after a fully accepted round (at
  most twice the start), -1 otherwise (at least 1). Any other draft device selects continuous
  batching with speculative decoding (``explicitly_requires_paged_attention``): a fixed
  ``num_assistant_tokens`` (default 5), or, with ``assistant_confidence_threshold``, candidates
  until the draft's confidence in its token falls below the threshold (``sampler.cpp``
  ``register_new_token`` pauses the draft). ``ATTENTION_BACKEND="SDPA"`` with a non-NPU draft is
  refused (only Gemma4 MTP pairs may). ``draft_model(path)`` with no device uses the main one.
- **One iteration**: the draft runs K decode steps on its device; the main model runs the last
  token and the K candidates in one pass on its device; the leading candidates equal to the main
  model's own greedy tokens are accepted, plus the main model's next token. The text is the main
  model's greedy text, unchanged (the reference run below produces it).
- **Acceptance**: whether a candidate equals the main model's token. The zoo's large models have
  no weights, so each candidate gets a seeded confidence ``c = u ** ((1 - a) / a)`` (mean ``a``)
  and is right with probability ``c`` (a calibrated draft): the acceptance rate is ``a`` and the
  confidence threshold sees the right candidates more confident than the wrong ones. ``a`` is
  ``DEFAULT_ACCEPTANCE`` = 0.48, solved from Crow #183's CPU draft (3 candidates, 1.35 x); the
  ovlab-only ``draft_model(..., ovlab_acceptance_rate=a)`` sets another. A tiny-llm draft for a
  tiny-llm main model is the same real model, so it agrees on every token (a = 1).
- **Time**: every pass is the fitted step cost (:mod:`.timing`) on its device, as one job there
  (so a draft on the iGPU shares it with the main model's other work). A draft on the NPU is
  timed as the NPU's LLM pipeline times a step (``npu_pipeline.npu_cost``: the NPU's share of
  its peak and of the bandwidth, transferred from the 368H), its prefill padded to
  ``MAX_PROMPT_LEN`` (1024) and each decode step attending the whole static KV cache
  (``MAX_PROMPT_LEN + MIN_RESPONSE_LEN``); ``benchmarks/bench_llm_checks.py`` compares it with
  the thread's measured latencies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor
from ..trace.records import InferenceRecord
from .config import GenerationConfig, StreamingStatus, make_streamer
from .models import LoadedLLM, resolve
from .npu_pipeline import npu_cost
from .pipeline import LLMPipeline, _default_core, _ids, register_speculative, resolve_device
from .results import DecodedResults, EncodedResults
from .sd_metrics import SDPerModelsPerfMetrics
from .timing import Chunk, LLMCost, kv_bytes_per_element
from .tokenizer import TokenizedInputs, Tokenizer

DEFAULT_NUM_ASSISTANT_TOKENS = 5  # stateful_pipeline_base.hpp, continuous_batching/pipeline_impl.hpp
#: per-candidate acceptance: 1 + a + a^2 + a^3 = 1.82 tokens per round reproduces Crow #183's
#: CPU draft (3 candidates at 9.4 ms, main 82 ms a token: 16.5 tok/s against 12.2)
DEFAULT_ACCEPTANCE = 0.48
NPU_MAX_PROMPT_LEN, NPU_MIN_RESPONSE_LEN = 1024, 128  # the NPU pipeline's defaults (GenAI NPU guide)
LOAD_DISK_GBS = 2.0

SDPA_ERROR = ("Speculative decoding with the SDPA attention backend on non-NPU devices is only "
              "supported for Gemma4 MTP model pairs. For other model pairs use the Paged Attention "
              "backend (ATTENTION_BACKEND=\"PA\") or run on NPU.")
STATEFUL_THRESHOLD_ERROR = (
    "Stateful (non-Continuous Batching) Speculative Decoding pipeline only supports "
    "num_assistant_tokens, not assistant_confidence_threshold. Set assistant_confidence_threshold "
    "to 0.f or remove its specification.")
EXCLUSIVE_ERROR = ("Parameters `assistant_confidence_threshold` and `num_assistant_tokens` are "
                   "mutually exclusive in `GenerationConfig`")


@dataclass
class DraftModel:
    """What ``draft_model()`` returns (GenAI's ``ModelDesc`` inside an ``OVAny``)."""

    models_path: str
    device: str
    properties: dict = field(default_factory=dict)
    llm: LoadedLLM | None = None
    acceptance: float | None = None


def draft_model(models_path: Any, device: str = "", **kwargs: Any) -> DraftModel:
    """``openvino_genai.draft_model(models_path, device='', **kwargs)``: a draft model to pass as
    ``LLMPipeline(..., draft_model=...)``. ``ovlab_acceptance_rate`` (ovlab only) sets the share
    of its candidates the main model accepts."""
    acceptance = kwargs.pop("ovlab_acceptance_rate", None)
    if acceptance is not None and not 0.0 <= float(acceptance) <= 1.0:
        raise ValueError(f"ovlab_acceptance_rate must be within [0, 1], not {acceptance}")
    from .pipeline import _quiet

    llm = resolve(models_path, quiet=_quiet())
    return DraftModel(str(models_path), str(device), dict(kwargs), llm,
                      None if acceptance is None else float(acceptance))


def draw_candidate(rng: np.random.Generator, acceptance: float) -> tuple[float, bool]:
    """One draft candidate: its seeded confidence ``c = u ** ((1 - a) / a)`` (mean ``a``) and
    whether it equals the main model's token (with probability ``c``: a calibrated draft)."""
    u, v = rng.random(), rng.random()
    a = acceptance
    conf = 1.0 if a >= 1.0 else (0.0 if a <= 0.0 else u ** ((1 - a) / a))
    return conf, bool(v < conf)


def next_candidates(current: int, accepted: int, start: int) -> int:
    """The stateful pipeline's ``update_candidate_strategy``: +2 after a full match (at most twice
    the start), else -1 (at least 1)."""
    return min(current + 2, 2 * start) if accepted == current else max(current - 1, 1)


class SpeculativeLLMPipeline(LLMPipeline):
    """An ``LLMPipeline`` made with ``draft_model=``: speculative decoding, batch 1."""

    def __init__(self, models_path: Any, *args: Any, config: dict | None = None, core: Any = None,
                 **kwargs: Any) -> None:
        args = list(args)
        tokenizer = args.pop(0) if args and isinstance(args[0], Tokenizer) else None
        device = args.pop(0) if args else kwargs.pop("device", "CPU")
        if args:
            config = args.pop(0)
        properties = {**(config or {}), **kwargs}
        draft = properties.pop("draft_model")
        if properties.get("adapters") is not None:
            raise NotImplementedError("LoRA adapters with a draft model (speculative decoding) "
                                      "are not simulated by ovlab (LLMPipeline without a draft "
                                      "model runs them)")
        if not isinstance(draft, DraftModel):
            raise TypeError("draft_model must come from openvino_genai.draft_model(path, device), "
                            f"not {type(draft).__name__}")
        backend = str(properties.pop("ATTENTION_BACKEND", "PA")).upper()
        properties.pop("scheduler_config", None)
        main_name, draft_name = str(device).strip(), (draft.device.strip() or str(device).strip())
        self.stateful = draft_name == "NPU"  # utils.cpp is_npu_requested: the exact string
        if main_name.upper().startswith("NPU"):
            raise NotImplementedError("speculative decoding with the main model on the NPU is not "
                                      "simulated by ovlab (the draft may run there)")
        if not self.stateful and backend == "SDPA":
            raise RuntimeError(SDPA_ERROR)
        self.core = core if core is not None else _default_core()
        self._device = resolve_device(self.core, main_name)
        if self.stateful:
            if "NPU" not in self.core.platform.devices:
                raise RuntimeError("Device with \"NPU\" name is not registered in the OpenVINO "
                                   f"Runtime (this platform has {', '.join(self.core.platform.devices)})")
            self.draft_device = "NPU"
        else:
            self.draft_device = resolve_device(self.core, draft_name)
        self.llm = resolve(models_path, quiet=True)
        self.draft = draft.llm
        real_pair = self.llm.real and self.draft.real
        self.acceptance = 1.0 if real_pair else (
            draft.acceptance if draft.acceptance is not None else DEFAULT_ACCEPTANCE)
        self._tokenizer = tokenizer if tokenizer is not None else Tokenizer(models_path)
        self.cost = LLMCost.load()
        for llm, dev in ((self.llm, self._device), (self.draft, self.draft_device)):
            need = _weights(llm)
            have = self.core.platform.devices[dev].mem_size_gb * 1e9
            if need > have:
                raise RuntimeError(f"{llm.spec.name} {llm.precision} needs {need / 1e9:.1f} GB for "
                                   f"its weights but {dev} has {have / 1e9:.1f} GB")
        start = self.core.clock.now
        for llm, dev in ((self.llm, self._device), (self.draft, self.draft_device)):
            spec = self.core.platform.devices[dev]
            self.core.clock.sleep(_weights(llm) / (LOAD_DISK_GBS * 1e9) + spec.compile_base_s)
        self.core.trace.event(start, "genai_load", self._device, self.llm.spec.name,
                              seconds=self.core.clock.now - start, draft=self.draft.spec.name,
                              draft_device=self.draft_device, stateful=self.stateful)
        self._load_time_ms = (self.core.clock.now - start) * 1e3
        # the main model's own greedy run gives the text (speculative decoding does not change it)
        from ..runtime.core import Core

        self._reference = LLMPipeline(models_path, "CPU", core=Core(self.core.platform,
                                                                    seed=self.core.seed))
        self._generation_config = GenerationConfig()
        self._generation_config.set_eos_token_id(self._tokenizer.get_eos_token_id())
        if not self.stateful:
            self._generation_config.num_assistant_tokens = DEFAULT_NUM_ASSISTANT_TOKENS
        self._chat = None
        self._next_id = 0
        self._rounds = 0

    # --- configuration ----------------------------------------------------------------------------
    def _check(self, cfg: GenerationConfig) -> int:
        """GenAI's checks of a speculative generation; the starting number of candidates (0:
        confidence-threshold mode)."""
        if cfg.is_assisting_generation():
            if cfg.is_beam_search() or cfg.num_return_sequences != 1:
                raise RuntimeError("Beam search and parallel sampling are not compatible with "
                                   "assistant generation")
            if cfg.assistant_confidence_threshold and cfg.num_assistant_tokens:
                raise RuntimeError(EXCLUSIVE_ERROR)
        if self.stateful:
            if cfg.assistant_confidence_threshold != 0.0:
                raise RuntimeError(STATEFUL_THRESHOLD_ERROR)
            if not cfg.is_greedy_decoding():
                raise RuntimeError("Currently only greedy decoding is supported")
            return int(cfg.num_assistant_tokens or DEFAULT_NUM_ASSISTANT_TOKENS)
        if cfg.assistant_confidence_threshold > 0:
            return 0
        return int(cfg.num_assistant_tokens or DEFAULT_NUM_ASSISTANT_TOKENS)

    # --- time ---------------------------------------------------------------------------------------
    def _pass_seconds(self, llm: LoadedLLM, device: str, chunks: list[Chunk]) -> float:
        spec = self.core.platform.devices[device]
        peaks = spec.peak_gflops  # the NPU lists no f32 peak
        peak = peaks.get("f16") or peaks.get("bf16") or peaks["f32"]
        bw = spec.mem_bw_gbs
        # the NPU runs at its own share of peak and bandwidth, as its LLM pipeline does
        cost = npu_cost(self.cost) if device.split(".")[0] == "NPU" else self.cost
        return cost.seconds(llm.spec, llm.precision, chunks, peak, bw,
                            kv_bytes_per_element(spec.plugin))

    def _draft_prefill(self, n: int) -> list[Chunk]:
        if not self.stateful:
            return [Chunk(n, 0)]
        padded = NPU_MAX_PROMPT_LEN * max(1, math.ceil(n / NPU_MAX_PROMPT_LEN))
        return [Chunk(padded, 0)]

    def _draft_decode(self, tokens: int, past: int) -> list[Chunk]:
        if self.stateful:  # a static KV cache: every step attends all of it
            return [Chunk(tokens, NPU_MAX_PROMPT_LEN + NPU_MIN_RESPONSE_LEN - tokens)]
        return [Chunk(tokens, past)]

    def _run(self, device: str, seconds: float, model: str, worker: str, batch: int) -> float:
        """One pass as a job on ``device``; its duration (simulated s)."""
        clock = self.core.clock
        start = clock.now
        done = clock.event()
        self.core._device_share(device).start(seconds, 1.0, lambda: done.succeed())
        clock.run_until(done, f"a speculative-decoding pass on {device}")
        self._rounds += 1
        self.core.trace.add(InferenceRecord(self.core._next_seq(), 0, model, device, start, start,
                                            clock.now, worker=worker, batch_id=self._rounds,
                                            batch_size=batch))
        return clock.now - start

    # --- generate ---------------------------------------------------------------------------------
    def generate(self, inputs: Any, generation_config: Any = None, streamer: Any = None,
                 **kwargs: Any):
        clock = self.core.clock
        start = clock.now
        cfg = self._config(generation_config, kwargs)
        k0 = self._check(cfg)
        encoded = isinstance(inputs, (Tensor, TokenizedInputs, np.ndarray))
        if encoded:
            rows = _ids(inputs.input_ids if isinstance(inputs, TokenizedInputs) else inputs)
        else:
            texts = [inputs] if isinstance(inputs, str) else list(inputs)
            if not all(isinstance(t, str) for t in texts):
                raise TypeError("generate() takes a str, a list of str, a Tensor or "
                                f"TokenizedInputs, not {type(inputs).__name__}")
            if self._chat is not None and isinstance(inputs, str):
                self._chat.append({"role": "user", "content": inputs})
                texts = [self._tokenizer.apply_chat_template(self._chat, True)]
            elif cfg.apply_chat_template:
                texts = [self._tokenizer.apply_chat_template([{"role": "user", "content": t}],
                                                             True) for t in texts]
            rows = [self._tokenizer.encode(t).input_ids.data[0].tolist() for t in texts]
        if len(rows) != 1:
            raise RuntimeError("Currently only batch size=1 is supported")
        ids = rows[0]
        tok_us = self._engine_free_host_work(len(ids)) if not encoded else 0.0

        plain = cfg.copy()
        plain.num_assistant_tokens, plain.assistant_confidence_threshold = None, 0.0
        ref = self._reference
        reqs = ref._run([ids], [plain], None, ref.core.clock.now)
        tokens = list(reqs[0].group.get_sequences()[0].get_generated_ids())
        text = ref._texts(reqs[0])

        pm = self._simulate(len(ids), tokens, k0, cfg, start, make_streamer(streamer, self._tokenizer))
        pm.num_input_tokens = len(ids)
        pm.load_time = self._load_time_ms
        if encoded:
            res = EncodedResults()
            res.tokens = [tokens[:pm.num_generated_tokens]]
            res.scores = [reqs[0].cumulative_log_prob]
        else:
            res = DecodedResults()
            res.texts = [text if pm.num_generated_tokens == len(tokens)
                         else self._tokenizer.decode(tokens[:pm.num_generated_tokens])]
            res.scores = [reqs[0].cumulative_log_prob]
            pm.raw_metrics.tokenization_durations = [tok_us]
            pm.raw_metrics.detokenization_durations = [self._engine_free_host_work(len(tokens))]
        res.finish_reasons = [reqs[0].finish_reason]
        pm.raw_metrics.generate_durations = [(clock.now - start) * 1e6]
        res.perf_metrics = pm
        res.extended_perf_metrics = pm
        if isinstance(inputs, str):
            if self._chat is not None:
                self._chat.append({"role": "assistant", "content": res.texts[0]})
            return res.texts[0]
        return res

    __call__ = generate

    def _engine_free_host_work(self, n_tokens: int) -> float:
        from .engine import TOKENIZE_BASE_S, TOKENIZE_PER_TOKEN_S

        seconds = TOKENIZE_BASE_S + TOKENIZE_PER_TOKEN_S * n_tokens
        self.core.clock.sleep(seconds)
        return seconds * 1e6

    def _simulate(self, n_prompt: int, tokens: list[int], k0: int, cfg: GenerationConfig,
                  start: float, streamer) -> SDPerModelsPerfMetrics:
        """Time the draft / validate rounds that produce ``tokens``; their metrics."""
        pm = SDPerModelsPerfMetrics()
        main_raw, draft_raw = pm.main_model_metrics.raw_metrics, pm.draft_model_metrics.raw_metrics
        rng = np.random.default_rng([int(self.core.seed), int(cfg.rng_seed) & 0xFFFFFFFF, 0x5D])
        main_name, draft_name = self.llm.spec.name, self.draft.spec.name
        a = self.acceptance
        clock = self.core.clock

        def draw() -> tuple[float, bool]:
            return draw_candidate(rng, a)

        def emit(times_tokens: list[int], iteration_start: float, main_s: float) -> bool:
            pm.raw_metrics.m_new_token_times.append(clock.now)
            pm.raw_metrics.m_batch_sizes.append(len(times_tokens))
            pm.raw_metrics.m_durations.append((clock.now - iteration_start) * 1e6)
            main_raw.m_durations.append(main_s * 1e6)
            main_raw.m_batch_sizes.append(len(times_tokens))
            if streamer is not None:
                for t in times_tokens:
                    if streamer.write(t) != StreamingStatus.RUNNING:
                        return False
            return True

        # prefill: the draft, then the main model (its first token)
        it0 = clock.now
        d = self._run(self.draft_device, self._pass_seconds(self.draft, self.draft_device,
                                                            self._draft_prefill(n_prompt)),
                      draft_name, "genai-draft", 1)
        draft_raw.m_durations.append(d * 1e6)
        draft_raw.m_batch_sizes.append(1)
        m = self._run(self._device, self._pass_seconds(self.llm, self._device, [Chunk(n_prompt, 0)]),
                      main_name, "genai", 1)
        going = bool(tokens) and emit(tokens[:1], it0, m)
        emitted = 1 if tokens else 0
        past = n_prompt
        cand, prefix = k0, False
        while going and emitted < len(tokens):
            it0 = clock.now
            room = len(tokens) - emitted - 1
            if k0 == 0:  # confidence-threshold mode: draft until it is unsure
                plan = []
                while len(plan) < room:
                    conf, right = draw()
                    plan.append(right)
                    if conf < cfg.assistant_confidence_threshold:
                        break
            else:
                plan = [draw()[1] for _ in range(min(cand, room))]
            k = len(plan)
            if k == 0:  # no room for candidates: the main model decodes on its own
                m = self._run(self._device, self._pass_seconds(self.llm, self._device,
                                                              [Chunk(1, past)]), main_name, "genai", 1)
                past += 1
                going = emit(tokens[emitted:emitted + 1], it0, m)
                emitted += 1
                continue
            for j in range(k):
                n = 2 if (j == 0 and prefix) else 1  # the accepted last candidate goes in first
                d = self._run(self.draft_device,
                              self._pass_seconds(self.draft, self.draft_device,
                                                 self._draft_decode(n, past + j)),
                              draft_name, "genai-draft", 1)
                draft_raw.m_durations.append(d * 1e6)
                draft_raw.m_batch_sizes.append(1)
                pm.num_draft_processed_tokens += n
            accepted = next((i for i, ok in enumerate(plan) if not ok), k)
            m = self._run(self._device, self._pass_seconds(self.llm, self._device,
                                                          [Chunk(k + 1, past)]), main_name, "genai",
                          k + 1)
            pm.num_draft_tokens += k
            pm.num_accepted_tokens += accepted
            new = tokens[emitted:emitted + accepted + 1]
            past += len(new)
            going = emit(new, it0, m)
            emitted += len(new)
            prefix = accepted == k
            if self.stateful:
                cand = next_candidates(cand, accepted, k0)
        if streamer is not None:
            streamer.end()
        pm.evaluate(start)
        pm.main_model_metrics.evaluate_sd()
        pm.draft_model_metrics.evaluate_sd()
        return pm


register_speculative(SpeculativeLLMPipeline)


def _weights(llm: LoadedLLM) -> float:
    from ..models import llm_zoo as zoo

    return zoo.weight_bytes(llm.spec, llm.precision)


__all__ = ["DEFAULT_ACCEPTANCE", "DEFAULT_NUM_ASSISTANT_TOKENS", "DraftModel",
           "SpeculativeLLMPipeline", "draw_candidate", "draft_model", "next_candidates"]
