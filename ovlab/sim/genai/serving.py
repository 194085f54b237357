"""Serving a seeded stream of chat requests with an LLM: lab 13's experiment.

``chat_stream(seed, n, rate)`` makes the requests: arrival times of a Poisson process at
``rate`` requests per second, each a chat with a shared system prompt (what prefix caching can
reuse) and a question, and an answer length drawn from the seed (``ignore_eos``, so every mode
generates the same tokens and only the scheduling differs). ``serve(stream, ...)`` feeds them
to a ``ContinuousBatchingPipeline`` as they arrive, stepping it while work remains and sleeping
the clock to the next arrival when idle, exactly as a server loop around GenAI's
``add_request`` / ``step`` does. The result holds each request's TTFT and TPOT and each step's
record from ``core.trace``.

The five ways of lab 13 are scheduler settings of the same engine: one at a time
(``max_num_seqs=1`` in vLLM mode: one sequence in flight, as the NPU's stateful pipeline serves), vLLM mode
(whole prompts first), split-fuse (decode first, prompt chunks fill the token budget), and
split-fuse with prefix caching; BATCH is refused by OpenVINO (``pipeline.BATCH_ERROR``).
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field

import numpy as np

from ..models.llm_zoo import get as zoo_get
from .config import GenerationConfig
from .corpus import DEVICES, FEATURES, QUESTIONS
from .pipeline import ContinuousBatchingPipeline
from .scheduler_config import SchedulerConfig
from .timing import Chunk, LLMCost, device_peak_and_bandwidth, kv_bytes_per_element

MODEL = "phi-3-mini-4k-instruct-int4-ov"
SYSTEM = ("You are the assistant of the ovlab course on OpenVINO. Answer in short sentences about "
          "devices, batching and the KV cache. ") * 2


@dataclass(frozen=True)
class ChatRequest:
    id: int
    arrival: float  # seconds after the stream starts
    messages: tuple  # the chat, as ChatHistory messages
    new_tokens: int


def chat_stream(seed: int = 0, n: int = 24, rate: float = 4.0, mean_new_tokens: int = 48
                ) -> list[ChatRequest]:
    """``n`` chat requests arriving at ``rate`` per second (Poisson), seeded."""
    if n < 1 or rate <= 0:
        raise ValueError(f"a stream needs n >= 1 and rate > 0, got n={n}, rate={rate}")
    rng = np.random.default_rng(seed)
    topics = list(DEVICES) + list(FEATURES)
    t, out = 0.0, []
    for i in range(n):
        t += float(rng.exponential(1.0 / rate))
        q = QUESTIONS[int(rng.integers(len(QUESTIONS)))].format(x=topics[int(rng.integers(len(topics)))])
        new = int(np.clip(rng.gamma(4.0, mean_new_tokens / 4.0), 8, 4 * mean_new_tokens))
        out.append(ChatRequest(i, round(t, 6), ({"role": "system", "content": SYSTEM},
                                                {"role": "user", "content": q}), new))
    return out


@dataclass
class ServeRun:
    """What one serving run did: per request and per step (from ``core.trace``)."""

    label: str
    arrival: list[float]
    ttft_ms: list[float]
    tpot_ms: list[float]
    finish: list[float]
    steps: list[dict] = field(default_factory=list)  # scheduler step records, time, duration_s
    prompt_tokens: list[int] = field(default_factory=list)

    @property
    def preemptions(self) -> int:
        return sum(len(s["preempted_request_ids"]) for s in self.steps)

    @property
    def makespan(self) -> float:
        return max(self.finish) if self.finish else 0.0

    def summary(self) -> dict:
        return {"mode": self.label, "mean TTFT ms": round(float(np.mean(self.ttft_ms)), 1),
                "p95 TTFT ms": round(float(np.percentile(self.ttft_ms, 95)), 1),
                "mean TPOT ms": round(float(np.mean(self.tpot_ms)), 1),
                "steps": len(self.steps), "preemptions": self.preemptions,
                "peak KV %": round(max((s["cache_usage"] for s in self.steps), default=0.0), 1),
                "all done s": round(self.makespan, 2)}


def scheduler_config(max_num_batched_tokens: int = 256, max_num_seqs: int = 256,
                     cache_size: float = 0.0, dynamic_split_fuse: bool = True,
                     enable_prefix_caching: bool = False) -> SchedulerConfig:
    cfg = SchedulerConfig()
    cfg.max_num_batched_tokens = int(max_num_batched_tokens)
    cfg.max_num_seqs = int(max_num_seqs)
    cfg.cache_size = int(cache_size)  # whole GB, as GenAI's size_t field
    cfg.dynamic_split_fuse = bool(dynamic_split_fuse)
    cfg.enable_prefix_caching = bool(enable_prefix_caching)
    return cfg


MODES = {
    # max_num_seqs is read only by vLLM mode's prompt phase (scheduler.hpp), so one sequence in
    # flight needs split-fuse off
    "one at a time": dict(max_num_seqs=1, dynamic_split_fuse=False),
    "vLLM mode": dict(dynamic_split_fuse=False),
    "split-fuse": dict(),
    "split-fuse + prefix caching": dict(enable_prefix_caching=True),
}


def serve(stream: list[ChatRequest], label: str = "", model: str = MODEL, device: str = "GPU",
          platform: str = "core-ultra-7-165h", seed: int = 0, **knobs) -> ServeRun:
    """Serve ``stream`` with a ContinuousBatchingPipeline set by ``knobs`` (``scheduler_config``
    arguments); arrival times are relative to the pipeline's load."""
    from ..runtime.core import Core

    core = Core(platform, seed=seed)
    with contextlib.redirect_stderr(io.StringIO()):  # the zoo note, once per run, is noise here
        pipe = ContinuousBatchingPipeline(model, scheduler_config(**knobs), device, core=core)
    clock, tok = core.clock, pipe.get_tokenizer()
    t0 = clock.now
    handles, pending = {}, list(stream)
    prompt_tokens = []
    while pending or pipe.has_non_finished_requests():
        while pending and pending[0].arrival <= clock.now - t0 + 1e-12:
            r = pending.pop(0)
            ids = tok.encode(tok.apply_chat_template(list(r.messages), True)).input_ids
            prompt_tokens.append(int(ids.get_shape()[1]))
            cfg = GenerationConfig(max_new_tokens=r.new_tokens, ignore_eos=True)
            handles[r.id] = (r, pipe.add_request(r.id, ids, cfg))
        if pipe.has_non_finished_requests():
            pipe.step()
        elif pending:
            clock.sleep(t0 + pending[0].arrival - clock.now)
    arrival, ttft, tpot, finish = [], [], [], []
    for r, h in handles.values():
        times = h.get_perf_metrics().raw_metrics.m_new_token_times
        arrival.append(r.arrival)
        ttft.append((times[0] - t0 - r.arrival) * 1e3)
        tpot.append((times[-1] - times[0]) / max(1, len(times) - 1) * 1e3)
        finish.append(times[-1] - t0)
    durations = {r.batch_id: r.finished - r.started for r in core.trace.inferences
                 if r.worker == "genai"}
    steps = [{**rec.as_dict(), "time": rec.time - t0, "duration_s": durations.get(rec.step, 0.0)}
             for rec in core.trace.scheduler_steps]
    return ServeRun(label or model, arrival, ttft, tpot, finish, steps, prompt_tokens)


def analytic_step_ms(n_sequences: int, context: int, model: str = MODEL, device: str = "GPU.0",
                     platform: str = "core-ultra-7-165h") -> float:
    """The cost model alone: one decode step of ``n_sequences`` at ``context`` tokens each."""
    from ..hardware.platforms import preset
    from .models import resolve

    spec_dev = preset(platform).devices[device]
    llm = resolve(model, quiet=True)
    peak, bw = device_peak_and_bandwidth(spec_dev)
    return LLMCost.load().seconds(zoo_get(llm.spec.name), llm.precision,
                                  [Chunk(1, context)] * n_sequences, peak, bw,
                                  kv_bytes_per_element(spec_dev.plugin)) * 1e3


def analytic_prefill_ms(tokens: int, model: str = MODEL, device: str = "GPU.0",
                        platform: str = "core-ultra-7-165h") -> float:
    """The cost model alone: a lone prefill of ``tokens`` (the TTFT of an idle server)."""
    from ..hardware.platforms import preset
    from .models import resolve

    spec_dev = preset(platform).devices[device]
    llm = resolve(model, quiet=True)
    peak, bw = device_peak_and_bandwidth(spec_dev)
    return LLMCost.load().seconds(zoo_get(llm.spec.name), llm.precision, [Chunk(tokens, 0)],
                                  peak, bw, kv_bytes_per_element(spec_dev.plugin)) * 1e3
