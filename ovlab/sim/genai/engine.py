"""The continuous-batching engine: GenAI's ``ContinuousBatchingImpl`` on a virtual device.

One ``step()`` does what ``pipeline_impl.cpp`` does: pull the requests added since the last
step, ask the scheduler (``continuous_batching.Scheduler``, ported from GenAI) what to run, run
it, sample one token for every sequence whose prompt is done, finish the iteration, free the
requests that ended. "Run it" means two things here:

- **time**: the step's cost (``timing.LLMCost``) at the model's real shape runs as one job on
  the device, sharing it with whatever else the Core runs there; the Core's clock moves to its
  end, and each generated token is stamped with that time (TTFT, TPOT);
- **numbers**: the tiny real model computes the logits of the scheduled chunks through its
  paged KV cache, addressed by the block tables the scheduler's block manager gave out; larger
  models draw their tokens from the seeded stand-in.

Every step leaves the scheduler's step record in ``core.trace`` (``core.trace.scheduler_steps``,
``scheduler_steps_frame()``), and the model run of a step an inference record
(``core.trace.inferences``: worker ``"genai"``, ``batch_id`` the step number, ``batch_size`` the
sequences it ran), so the device's timeline shows the LLM beside anything else on it.
"""

from __future__ import annotations

import warnings
import zlib
from collections import deque
from functools import cache
from typing import Any

import numpy as np

from ..hardware.specs import DeviceSpec
from ..trace.records import InferenceRecord
from .config import GenerationConfig, GenerationFinishReason, StreamingStatus
from .continuous_batching import (
    CacheOrchestrator,
    KVCacheManager,
    Scheduler,
    SequenceGroup,
    SequenceStatus,
)
from .models import LoadedLLM
from .results import (
    GenerationOutput,
    GenerationStatus,
    PerfMetrics,
    PipelineMetrics,
)
from .scheduler_config import SchedulerConfig
from .standin import StandIn
from .timing import Chunk, LLMCost, device_peak_and_bandwidth, features, kv_bytes_per_element

#: host work the runtime does around the model, in simulated seconds (priors, not fitted):
#: tokenizing / detokenizing a text, and the bytes per second a model loads from disk.
TOKENIZE_BASE_S, TOKENIZE_PER_TOKEN_S = 50e-6, 2e-6
LOAD_DISK_GBS = 2.0
AVG_CACHE_WINDOW = 1000  # inferences over which avg_cache_usage is averaged (GenAI)


@cache
def _common_words(vocab) -> list[int]:
    """Token ids of a few common English words in ``vocab`` (a stand-in beam's alternatives)."""
    words = (" the", " a", " and", " it", " so", " also", " then", " this", " that", " very")
    if vocab is None or vocab.name == "ovlab-course-bpe":
        from .tokenizer import _shared_bpe

        encode = _shared_bpe().encode
    else:
        encode = vocab.encode
    ids = []
    for w in words:
        enc = encode(w) if not getattr(vocab, "prepends_space", False) else encode(w.strip())
        if len(enc) == 1 and enc[0] not in ids:
            ids.append(enc[0])
    return ids


class _Request:
    """What the engine keeps beside a SequenceGroup: config, sampling state, outputs."""

    def __init__(self, group: SequenceGroup, config: GenerationConfig, standin: StandIn | None,
                 submitted: float) -> None:
        self.group = group
        self.config = config
        self.standin = standin
        self.rng = np.random.default_rng(int(config.rng_seed) & 0xFFFFFFFFFFFFFFFF)  # per request, as the sampler seeds it
        self.submitted = submitted
        self.outputs: deque[dict[int, GenerationOutput]] = deque()
        self.perf = PerfMetrics()
        self.perf.num_input_tokens = group.get_prompt_len()
        self.status = GenerationStatus.RUNNING
        self.finish_reason = GenerationFinishReason.NONE
        self.streamer = None
        self.stop_text: str | None = None
        self.cumulative_log_prob = 0.0
        self.beams = None  # beam_search.GroupBeamSearcher, made at the first sampling
        self.constraint = None  # constrained.Constraint: the grammar of structured output
        self.chooser = None  # constrained.StandInChooser: a virtual model's text under it
        self.beam_standins: dict[int, StandIn] | None = None  # a virtual model's beams

    def final_sequences(self) -> list[tuple[object, float]]:
        """(sequence, score) of the result, best first: the beams' top num_return_sequences, or
        the one sequence with its cumulative log-probability."""
        if self.beams is not None:
            return self.beams.results()
        return [(self.group.get_sequences()[0], self.cumulative_log_prob)]


class Engine:
    """Requests, scheduler, model and clock of one continuous-batching pipeline."""

    kind = "continuous batching"
    one_at_a_time = False  # the NPU's pipeline takes one prompt per generate()

    def __init__(self, llm: LoadedLLM, core, device: str, scheduler_config: SchedulerConfig,
                 tokenizer, model_name: str | None = None) -> None:
        self.llm, self.core, self.device = llm, core, device
        self.spec: DeviceSpec = core.platform.devices[device]
        self.tokenizer = tokenizer
        self.name = model_name or f"{llm.spec.name}-{llm.precision}"
        self.cost = LLMCost.load()
        self.peak, self.bandwidth = device_peak_and_bandwidth(self.spec)
        self.kv_elem = kv_bytes_per_element(self.spec.plugin)
        s = llm.spec
        kv_manager = KVCacheManager(s.layers, s.kv_heads, s.d_head, device=device,
                                    element_size=self.kv_elem)
        config = scheduler_config.copy() if hasattr(scheduler_config, "copy") else scheduler_config
        orchestrator = CacheOrchestrator.create(config, kv_manager,
                                                get_available_memory=self._available_memory)
        self.scheduler = Scheduler(orchestrator, config,
                                   available_gpu_memory=self._available_memory)
        self.block_size = kv_manager.get_block_size()
        self.model = None
        if llm.real:
            from .tiny import TinyLLM

            self.model = TinyLLM()
            self.kv = self.model.new_cache(self.block_size)
        self.requests: list[SequenceGroup] = []
        self.awaiting: list[SequenceGroup] = []
        self.state: dict[int, _Request] = {}
        self.metrics = PipelineMetrics()
        self._cache_window: deque[float] = deque(maxlen=AVG_CACHE_WINDOW)
        self.step_count = 0

    # --- device memory --------------------------------------------------------------------------
    def weight_bytes(self) -> float:
        from ..models import llm_zoo as zoo

        return zoo.weight_bytes(self.llm.spec, self.llm.precision)

    def _available_memory(self, device: str, num_cache_tensors: int) -> int:
        """Bytes the KV cache may take: what is free on the device once the weights (and any
        other pipeline of the package) are held there (``memory.free_bytes``)."""
        from . import memory

        if memory.held_bytes(self.core, self.device) <= 0:  # not loaded through a pipeline
            return max(0, int(self.spec.mem_size_gb * 1e9 - self.weight_bytes()))
        return int(memory.free_bytes(self.core, self.device))

    cache_dir = ""  # CACHE_DIR of the pipeline's properties or of the Core
    lora = None  # lora.AdapterController of a pipeline built with adapters=
    loaded_from = "compile"

    def load_seconds(self) -> float:
        """Reading the weights from disk and compiling: the pipeline's load time. With a
        ``cache_dir`` the compiled paged-attention model is written there as a blob
        (``runtime.model_cache``'s header and key scheme), and a later load imports it."""
        read = self.weight_bytes() / (LOAD_DISK_GBS * 1e9)
        if not self.cache_dir or "EXPORT_IMPORT" not in self.spec.capabilities:
            return read + self.spec.compile_base_s
        from ..runtime import model_cache

        key = str(model_cache.hash_combine(
            model_cache.hash_combine(0, f"{self.llm.spec.name}:{self.llm.precision}:PA"),
            self.spec.full_name))
        model_cache.prepare_dir(self.cache_dir, "core.compile_model")
        if model_cache.read_blob(self.cache_dir, key) is not None:
            self.loaded_from = "cache"
            return read + self.spec.cached_load_s
        model_cache.write_blob(self.cache_dir, key, {
            "device": self.device, "full_device_name": self.spec.full_name,
            "model": f"{self.llm.spec.name}:{self.llm.precision}", "attention": "paged",
            "written_by": "ovlab (a simulated device: no binary inside)"})
        return read + self.spec.compile_base_s

    # --- host work ------------------------------------------------------------------------------
    def host_work(self, n_tokens: int) -> float:
        """Tokenizing or detokenizing ``n_tokens`` on the host: advance the clock; the µs."""
        seconds = TOKENIZE_BASE_S + TOKENIZE_PER_TOKEN_S * n_tokens
        self.core.clock.sleep(seconds)
        return seconds * 1e6

    # --- requests ---------------------------------------------------------------------------------
    def add_request(self, request_id: int, input_ids: list[int], config: GenerationConfig) -> _Request:
        if config.adapters is not None:  # applied per generate (lora.set_adapters), not per request
            config = config.copy()
            config.adapters = None
        feature = config.unsupported_feature()
        if feature and feature.startswith(("beam search", "several return")) \
                and config.is_beam_search() and not self.one_at_a_time:
            feature = None  # beam search runs in continuous batching (beam_search.py)
        if feature:
            raise NotImplementedError(f"{feature} is not simulated by ovlab's GenAI (greedy and "
                                      "multinomial sampling are)")
        config = config.copy()
        if config.eos_token_id == -1:
            config.set_eos_token_id(self.tokenizer.get_eos_token_id())
        else:
            config.stop_token_ids.add(config.eos_token_id)  # as the pipeline's config has it
        if config.max_new_tokens == 2**64 - 1 and config.max_length == 2**64 - 1:
            config.max_length = max(self.llm.spec.context, len(input_ids) + 1)
        config.validate()
        if not input_ids:
            raise RuntimeError("Prompt length cannot be 0")
        if len(input_ids) >= self.llm.spec.context and self.model is None:
            # GenAI does not check a prompt against the model's context (no such check in
            # continuous_batching/ or llm/ at da1db864): the model runs past the positions it
            # was trained on, and its text degrades. ovlab runs it too, and says so.
            warnings.warn(f"the prompt has {len(input_ids)} tokens, more than the context of "
                          f"{self.llm.spec.name} ({self.llm.spec.context}): GenAI runs it "
                          "anyway, and a real model's answer degrades past its context",
                          RuntimeWarning, stacklevel=3)
        if self.model is not None:  # the real model's positions are limited by its context
            if len(input_ids) >= self.llm.spec.context:
                raise RuntimeError(f"the prompt has {len(input_ids)} tokens, more than the "
                                   f"{self.llm.spec.context} positions of ovlab's tiny model")
            limit = self.llm.spec.context - len(input_ids)
            if config.get_max_new_tokens(len(input_ids)) > limit:
                config.max_new_tokens = limit
        group = SequenceGroup(request_id, np.asarray(input_ids, np.int64), config)
        if self.scheduler.get_config().enable_prefix_caching:
            self.scheduler.restore_cached_blocks(group)
        standin = None if self.model is not None else StandIn(input_ids, config.rng_seed,
                                                              config.temperature,
                                                              getattr(self.tokenizer, "_vocab", None))
        req = _Request(group, config, standin, self.core.clock.now)
        if config.structured_output_config is not None:
            self._constrain(req, input_ids)
        self.state[id(group)] = req
        self.awaiting.append(group)
        return req

    def _vocab(self):
        from .constrained import vocabulary_of

        return vocabulary_of(self.tokenizer)

    def _constrain(self, req: _Request, input_ids: list[int]) -> None:
        """Structured output: compile the request's grammar (its host time is GenAI's
        grammar_compile_times, and it delays the request) and keep its matcher."""
        from . import constrained

        cfg = req.config
        if cfg.is_beam_search() or cfg.num_return_sequences > 1:
            raise NotImplementedError("structured output with beam search or several return "
                                      "sequences is not simulated by ovlab's GenAI (greedy and "
                                      "multinomial sampling are)")
        cfg.structured_output_config.validate()
        vocab = self._vocab()
        req.constraint = constrained.Constraint(cfg.structured_output_config, vocab,
                                                set(cfg.stop_token_ids) | {cfg.eos_token_id})
        seconds = constrained.compile_seconds(req.constraint.size)
        self.core.clock.sleep(seconds)
        req.perf.raw_metrics.grammar_compile_times.append(seconds * 1e6)
        if req.standin is not None:
            req.chooser = constrained.StandInChooser(
                req.constraint, list(input_ids),
                [int(cfg.rng_seed) & 0xFFFFFFFF, zlib.crc32(np.asarray(input_ids, np.int64).tobytes()),
                 0x5EED],
                constrained.top_triggers(cfg.structured_output_config))

    def has_non_finished_requests(self) -> bool:
        return bool(self.awaiting or self.requests)

    # --- one step ---------------------------------------------------------------------------------
    def step(self) -> None:
        self.requests.extend(self.awaiting)
        self.awaiting.clear()
        self._free_non_running()  # handles stopped or cancelled since the last step
        if not self.requests:
            return
        out = self.scheduler.schedule(self.requests)
        m = self.metrics
        m.requests = len(self.requests)
        m.scheduled_requests = len(out.m_scheduled_sequence_groups_ids)
        m.cache_usage = out.m_cache_usage
        m.max_cache_usage = max(m.max_cache_usage, out.m_cache_usage)
        m.cache_size_in_bytes = m.kv_cache_size_in_bytes = int(out.m_cache_size_in_bytes)
        self._cache_window.append(out.m_cache_usage)
        m.avg_cache_usage = sum(self._cache_window) / len(self._cache_window)
        self.step_count += 1
        self.core.trace.scheduler_step(out.step_record(self.step_count, self.core.clock.now,
                                                       self.device, self.name))

        if out.m_total_num_scheduled_tokens == 0:
            # out of memory: every request that is not waiting ends (pipeline_impl.cpp)
            for group in self.requests:
                if not group.is_waiting() and self.state[id(group)].status == GenerationStatus.RUNNING:
                    group.set_out_of_memory()
                    self._finish(self.state[id(group)], GenerationStatus.IGNORED)
            self._free_non_running()
            return

        if self.model is not None:  # copy-on-write of forked beams' shared blocks
            for copy_map in getattr(out, "m_block_copy_map", {}).values():
                for src, dsts in copy_map.items():
                    self.kv.copy_blocks(src, dsts)
        scheduled = [self.requests[i] for i in out.m_scheduled_sequence_groups_ids]
        chunks = [Chunk(g.get_num_scheduled_tokens(), g.get_num_processed_tokens())
                  for g in scheduled for _ in g.get_running_sequences()]
        seconds, memory_seconds = self.step_seconds(chunks)
        start = self.core.clock.now
        self._run_on_device(seconds, memory_seconds)
        now = self.core.clock.now
        m.inference_duration = (now - start) * 1e6
        self.core.trace.add(InferenceRecord(
            self.core._next_seq(), 0, self.name, self.device, start, start, now, worker="genai",
            batch_id=self.step_count, batch_size=len(chunks)))

        masks = sum(len(g.get_running_sequences()) for g in scheduled if g.requires_sampling()
                    and self.state[id(g)].constraint is not None)
        if masks:  # the host computes each constrained sequence's token mask (sampler.cpp)
            from .constrained import mask_seconds

            self.core.clock.sleep(masks * mask_seconds(self._vocab_size()))
            now = self.core.clock.now
        for group in scheduled:
            req = self.state[id(group)]
            sampling = group.requires_sampling()
            if req.config.is_beam_search():
                self._beam_step(req, group, sampling, now)
                group.finish_iteration()
                continue
            for seq in group.get_running_sequences():
                logits = self._forward(group, seq) if self.model is not None else None
                if sampling:
                    self._sample(req, group, seq, logits, now)
            group.finish_iteration()
        self._free_non_running()

    def _vocab_size(self) -> int:
        from .constrained import lltokenizer

        return lltokenizer(self._vocab()).vocab_size

    def step_seconds(self, chunks: list[Chunk]) -> tuple[float, float]:
        """(time of a step running ``chunks``, the part of it spent moving memory)."""
        spec, precision = self.llm.spec, self.llm.precision
        seconds = self.cost.seconds(spec, precision, chunks, self.peak, self.bandwidth,
                                    self.kv_elem)
        if seconds <= 0:
            return 0.0, 0.0
        memory = features(spec, precision, chunks, self.kv_elem)["bytes"] / (
            self.bandwidth * 1e9 * self.cost.memory_efficiency)
        if self.lora is not None:  # LoRA's low-rank matmuls (lora.py)
            extra, extra_memory = self.lora.step_extra(sum(c.tokens for c in chunks), self.peak,
                                                       self.bandwidth)
            seconds, memory = seconds + extra, memory + extra_memory
        return seconds, memory

    def _run_on_device(self, seconds: float, memory_seconds: float = 0.0) -> None:
        """The step as one job on the device, shared with the Core's other work there; it keeps
        ``memory_seconds / seconds`` of the package's DRAM busy (``memory.py``)."""
        clock = self.core.clock
        done = clock.event()
        demand = min(1.0, memory_seconds / seconds) if seconds > 0 else 0.0
        self.core._device_share(self.device).start(seconds, 1.0, lambda: done.succeed(),
                                                   memory=demand)
        clock.run_until(done, f"an LLM step on {self.device}")

    def _forward(self, group: SequenceGroup, seq) -> np.ndarray:
        tokens = group.get_prompt_ids() + seq.get_generated_ids()
        past = group.get_num_processed_tokens()
        n = group.get_num_scheduled_tokens()
        table = [b.get_index() for b in self.scheduler.get_kv_block_tables(seq.get_id())[0]]
        return self.model.forward_chunk(self.kv, table, tokens[past:past + n], past)

    # --- sampling and stop conditions (sampler.cpp, for greedy and multinomial) -------------------
    def _sample(self, req: _Request, group: SequenceGroup, seq, logits, now: float) -> None:
        cfg = req.config
        generated = list(seq.get_generated_ids())
        eos = cfg.eos_token_id
        # EOS sits in stop_token_ids (set_eos_token_id); ignore_eos still lets it pass
        stop_ids = set(cfg.stop_token_ids) - ({eos} if cfg.ignore_eos else set())
        forbid = set()
        if len(generated) < cfg.min_new_tokens:
            forbid = {eos} | stop_ids
        # ignore_eos does not mask EOS (GenAI samples it and goes on); min_new_tokens does
        allowed = req.constraint.allowed() if req.constraint is not None else None
        if logits is None:
            token, logprob = req.standin.next_token(forbid | ({eos} if cfg.ignore_eos else set())), 0.0
            if allowed is not None:
                for t in forbid:
                    if t < len(allowed):
                        allowed[t] = False
                token = req.chooser.choose(token, allowed)
        else:
            if allowed is not None:
                from .constrained import mask_logits

                logits = mask_logits(logits, allowed)
            token, logprob = self._pick(req, logits, generated, forbid)
        if req.constraint is not None:
            req.constraint.accept(token)
        seq.append_token(token, logprob)
        req.cumulative_log_prob += logprob
        n_generated = len(generated) + 1
        reason = GenerationFinishReason.NONE
        if (token == eos and not cfg.ignore_eos) or token in stop_ids:
            reason = GenerationFinishReason.STOP
        elif cfg.stop_strings and self._hits_stop_string(req, seq):
            reason = GenerationFinishReason.STOP
        elif n_generated >= group.get_max_new_tokens():
            reason = GenerationFinishReason.LENGTH
        req.perf.raw_metrics.m_new_token_times.append(now)
        req.perf.raw_metrics.m_batch_sizes.append(1)
        out = GenerationOutput([token], [logprob], req.cumulative_log_prob, reason)
        req.outputs.append({seq.get_grouped_id(): out})
        if req.streamer is not None and group.get_generation_status() == 0:
            status = req.streamer.write(token)
            if status == StreamingStatus.STOP:
                reason = reason or GenerationFinishReason.STOP
                self._finish(req, GenerationStatus.STOP, seq)
                return
            if status == StreamingStatus.CANCEL:
                self._finish(req, GenerationStatus.CANCEL, seq)
                return
            if status == StreamingStatus.TOOL_CALL_STOP:  # a parser saw a whole tool call
                req.finish_reason = GenerationFinishReason.TOOL_CALL
                self._finish(req, GenerationStatus.STOP, seq)
                return
        if reason != GenerationFinishReason.NONE:
            seq.set_status(SequenceStatus.FINISHED)
            seq.set_finish_reason(reason)
            req.finish_reason = reason
            if group.has_finished():
                self._finish(req, GenerationStatus.FINISHED)

    def _beam_step(self, req: _Request, group: SequenceGroup, sampling: bool, now: float) -> None:
        """Beam search (``beam_search.py``): logits of every running beam, then GenAI's
        GroupBeamSearcher; forks share KV blocks (copied on write), drops free them."""
        from .beam_search import GroupBeamSearcher

        if self.model is not None:
            rows = [self._forward(group, seq) for seq in group.get_running_sequences()]
        if not sampling:
            return
        if self.model is None:
            rows = [self._standin_row(req, seq) for seq in group.get_running_sequences()]
        cfg = req.config
        if req.beams is None:
            req.beams = GroupBeamSearcher(group, cfg, set(cfg.stop_token_ids) | {cfg.eos_token_id})
        forked, dropped = req.beams.select_next_tokens(np.stack(rows), group.get_prompt_ids())
        for parent, children in forked.items():
            for child in children:
                self.scheduler.fork_sequence(parent, child)
                if self.model is None:  # the child's stand-in goes on from its parent's
                    grouped = group.get_sequence_by_id(child).get_grouped_id()
                    req.beam_standins[child] = req.beam_standins[parent].fork(
                        [int(cfg.rng_seed) & 0xFFFFFFFF, grouped, len(req.beam_standins)])
        running = group.get_running_sequences()
        if running and running[0].get_generated_len() >= group.get_max_new_tokens():
            dropped += req.beams.finalize()
        for seq_id in dropped:
            if self.scheduler.has_block_table(seq_id):
                self.scheduler.free_sequence(seq_id)
        req.perf.raw_metrics.m_new_token_times.append(now)
        req.perf.raw_metrics.m_batch_sizes.append(1)
        if not group.get_running_sequences():
            final = req.beams.results()
            req.cumulative_log_prob = final[0][1] if final else 0.0
            req.finish_reason = final[0][0].get_finish_reason() if final else \
                GenerationFinishReason.LENGTH
            req.outputs.append({s.get_grouped_id(): GenerationOutput(
                list(s.get_generated_ids()), list(s.get_generated_log_probs()), score,
                s.get_finish_reason()) for s, score in final})
            self._finish(req, GenerationStatus.FINISHED)

    def _standin_row(self, req: _Request, seq) -> np.ndarray:
        """Seeded beams of a virtual model: the beam's stand-in proposes its next token (60 %),
        and a few common words share the rest, so beams fork at plausible words."""
        if req.beam_standins is None:
            req.beam_standins = {seq.get_id(): req.standin}
        st = req.beam_standins[seq.get_id()]
        vocab = getattr(self.tokenizer, "_vocab", None)
        size = vocab.tok.get_vocab_size(with_added_tokens=True) \
            if vocab is not None and vocab.name != "ovlab-course-bpe" else 512
        alternates = _common_words(vocab)
        row = np.full(size, -30.0, np.float32)
        row[alternates] = np.log(0.4 / len(alternates))
        row[st.next_token()] = np.log(0.6)
        return row

    def _pick(self, req: _Request, logits: np.ndarray, generated: list[int],
              forbid: set[int]) -> tuple[int, float]:
        cfg = req.config
        x = logits.astype(np.float64).copy()
        if generated and (cfg.repetition_penalty != 1.0 or cfg.presence_penalty or cfg.frequency_penalty):
            ids, counts = np.unique(np.asarray(generated), return_counts=True)
            seen = x[ids]
            x[ids] = np.where(seen > 0, seen / cfg.repetition_penalty, seen * cfg.repetition_penalty)
            x[ids] -= cfg.presence_penalty + cfg.frequency_penalty * counts
        if forbid:
            x[list(forbid)] = -np.inf
        if not cfg.do_sample:
            token = int(np.argmax(x))
            logp = x - x.max()
            return token, float(logp[token] - np.log(np.exp(logp).sum()))
        x = x / cfg.temperature
        order = np.argsort(-x, kind="stable")
        if cfg.top_k < len(order):
            order = order[:max(1, int(cfg.top_k))]
        p = np.exp(x[order] - x[order].max())
        p /= p.sum()
        if cfg.top_p < 1.0:
            keep = int(np.searchsorted(np.cumsum(p), cfg.top_p) + 1)
            order, p = order[:keep], p[:keep] / p[:keep].sum()
        if cfg.min_p > 0:
            mask = p >= cfg.min_p * p.max()
            order, p = order[mask], p[mask] / p[mask].sum()
        i = int(req.rng.choice(len(order), p=p))
        return int(order[i]), float(np.log(p[i]))

    def _hits_stop_string(self, req: _Request, seq) -> bool:
        text = self.tokenizer.decode(seq.get_generated_ids())
        for s in req.config.stop_strings:
            if s and s in text:
                req.stop_text = s
                return True
        return False

    # --- ending requests ----------------------------------------------------------------------------
    def _finish(self, req: _Request, status: GenerationStatus, seq=None) -> None:
        req.status = status
        group = req.group
        if status in (GenerationStatus.STOP, GenerationStatus.CANCEL):
            group.set_generation_status(int(status))
        for s in group.get_sequences():
            if not s.has_finished() and status != GenerationStatus.IGNORED:
                s.set_status(SequenceStatus.FINISHED)
        if req.streamer is not None:
            req.streamer.end()
            req.streamer = None

    def _free_non_running(self) -> None:
        kept = []
        for group in self.requests:
            if group.has_finished() or group.handle_stopped() or group.handle_cancelled() \
                    or group.out_of_memory():
                req = self.state[id(group)]
                if req.status == GenerationStatus.RUNNING:
                    self._finish(req, GenerationStatus.FINISHED)
                for seq in group.get_sequences():
                    if self.scheduler.has_block_table(seq.get_id()):
                        self.scheduler.free_sequence(seq.get_id())
                req.done = True
            else:
                kept.append(group)
        self.requests = kept

    def request_state(self, group: SequenceGroup) -> _Request:
        return self.state[id(group)]

    def forget(self, req: _Request) -> None:
        self.state.pop(id(req.group), None)

    def describe(self) -> dict[str, Any]:
        return {"model": self.llm.spec.name, "precision": self.llm.precision,
                "device": self.device, "block_size": self.block_size,
                "scheduler": self.scheduler.get_config().to_string()}
