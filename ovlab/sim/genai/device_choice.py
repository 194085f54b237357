"""Which device for my LLM: lab 14's experiment on the AI PC's CPU, iGPU and NPU.

``measure(model, device, prompt_tokens)`` loads a pipeline as GenAI would for that device string
(continuous batching on CPU / GPU with the latency-oriented config, the NPU's static-shape
stateful pipeline on ``"NPU"``) on a fresh Core and runs one request: load time, TTFT, TPOT,
throughput and the memory the pipeline holds (weights, plus the KV cache: the NPU's static
buffer, the paged cache's blocks on CPU / GPU). ``serve_users(model, device, users, ...)`` gives
``users`` requests at the same moment: the NPU serves them one after the other (no scheduler),
CPU and GPU batch them continuously. ``recommend`` turns the figures into a choice with its
reasons. Everything is simulated time on a seeded Core: the same call prints the same numbers.
"""

from __future__ import annotations

import contextlib
import functools
import io
from dataclasses import dataclass

import numpy as np

from .config import GenerationConfig
from .pipeline import ContinuousBatchingPipeline, LLMPipeline
from .scheduler_config import get_latency_oriented_scheduler_config
from .tokenizer import Tokenizer

PLATFORM = "core-ultra-7-165h"
DEVICES = ("CPU", "GPU", "NPU")
MODELS = ("TinyLlama-1.1B-Chat-v1.0-int4-ov", "Llama-3.2-3B-Instruct-int4-ov",
          "phi-3-mini-4k-instruct-int4-ov", "Qwen2.5-7B-Instruct-int4-ov")
TEXT = ("The NPU, the iGPU and the CPU of an AI PC share one memory. A decode step reads every "
        "weight once; a prefill computes with every weight for every prompt token. ")


def prompt_ids(model: str, n_tokens: int, variant: int = 0) -> np.ndarray:
    """A prompt of exactly ``n_tokens`` tokens (the course text, repeated), shape (1, n);
    ``variant`` starts it elsewhere in the text, so that prompts of several users share no
    prefix."""
    if n_tokens < 1:
        raise ValueError(f"a prompt needs at least one token, got {n_tokens}")
    base = _text_ids(model)
    return np.resize(np.roll(base, -7 * variant), n_tokens).astype(np.int64)[None]


@functools.lru_cache(maxsize=8)
def _text_ids(model: str) -> np.ndarray:
    return Tokenizer(model).encode(TEXT).input_ids.data[0].copy()


def _pipeline(model: str, device: str, platform: str, seed: int, **props):
    from ..runtime.core import Core

    core = Core(platform, seed=seed)
    with contextlib.redirect_stderr(io.StringIO()):
        pipe = LLMPipeline(model, device, core=core, **props)
    pipe._standin_noted = True  # its tables and figures say what they are (no stand-in note)
    return pipe


@dataclass(frozen=True)
class DeviceFigures:
    """One request on one device."""

    device: str
    pipeline: str
    prompt_tokens: int
    load_s: float
    ttft_ms: float
    tpot_ms: float
    tokens_per_s: float
    memory_gb: float

    def row(self) -> dict:
        return {"device": self.device, "pipeline": self.pipeline,
                "load s": round(self.load_s, 1), "TTFT ms": round(self.ttft_ms, 1),
                "TPOT ms": round(self.tpot_ms, 1), "tokens/s": round(self.tokens_per_s, 1),
                "memory GB": round(self.memory_gb, 2)}


def measure(model: str, device: str, prompt_tokens: int, new_tokens: int = 64,
            platform: str = PLATFORM, seed: int = 0, **props) -> DeviceFigures:
    """Load ``model`` on ``device`` and run one request of ``prompt_tokens``."""
    pipe = _pipeline(model, device, platform, seed, **props)
    cfg = GenerationConfig(max_new_tokens=new_tokens, ignore_eos=True)
    res = pipe.generate(prompt_ids(model, prompt_tokens), cfg)
    pm = res.perf_metrics
    eng = pipe._engine
    kv = eng.kv_bytes() if hasattr(eng, "kv_bytes") else eng.metrics.max_cache_usage / 100 * \
        eng.metrics.cache_size_in_bytes
    return DeviceFigures(device, eng.kind, prompt_tokens, pm.get_load_time() / 1e3,
                         pm.get_ttft().mean, pm.get_tpot().mean, pm.get_throughput().mean,
                         (eng.weight_bytes() + kv) / 1e9)


def compare(model: str, prompt_tokens: int, devices=DEVICES, **kw) -> list[DeviceFigures]:
    return [measure(model, d, prompt_tokens, **kw) for d in devices]


def ttft_curve(model: str, device: str, lengths, platform: str = PLATFORM, **props
               ) -> list[float]:
    """TTFT (ms) at each prompt length, each on a freshly loaded pipeline (so that no prompt
    finds the previous one in the prefix cache)."""
    cfg = GenerationConfig(max_new_tokens=1, ignore_eos=True)
    return [_pipeline(model, device, platform, 0, **props).generate(
        prompt_ids(model, int(n)), cfg).perf_metrics.get_ttft().mean for n in lengths]


@dataclass(frozen=True)
class UsersRun:
    """``users`` requests given at once: what each saw, and the device's total rate."""

    device: str
    users: int
    ttft_ms: list[float]
    finish_s: list[float]
    new_tokens: int
    pipeline: str = ""
    load_s: float = 0.0
    memory_gb: float = 0.0

    @property
    def mean_ttft_ms(self) -> float:
        return float(np.mean(self.ttft_ms))

    @property
    def all_done_s(self) -> float:
        return float(max(self.finish_s))

    @property
    def tokens_per_s(self) -> float:
        return self.users * self.new_tokens / self.all_done_s

    @property
    def mean_tpot_ms(self) -> float:
        """The mean gap between a user's tokens after the first (their TPOT), over the users."""
        steps = max(1, self.new_tokens - 1)
        return float(np.mean([(f * 1e3 - t) / steps
                              for t, f in zip(self.ttft_ms, self.finish_s, strict=True)]))

    def figures(self, prompt_tokens: int) -> DeviceFigures:
        """The run as the dashboard's bars: mean TTFT and TPOT of the users (queueing
        included), the tokens per second of all users together, the memory held."""
        return DeviceFigures(self.device, self.pipeline, prompt_tokens, self.load_s,
                             self.mean_ttft_ms, self.mean_tpot_ms, self.tokens_per_s,
                             self.memory_gb)

    def row(self) -> dict:
        return {"device": self.device, "users": self.users,
                "mean TTFT ms": round(self.mean_ttft_ms, 0),
                "worst TTFT ms": round(max(self.ttft_ms), 0),
                "all done s": round(self.all_done_s, 2),
                "tokens/s (all users)": round(self.tokens_per_s, 1)}


def serve_users(model: str, device: str, users: int, prompt_tokens: int = 256,
                new_tokens: int = 64, platform: str = PLATFORM, seed: int = 0) -> UsersRun:
    """``users`` requests at once. On the NPU one ``generate()`` after the other (its pipeline
    takes one prompt at a time); on CPU / GPU all of them added to a continuous-batching
    pipeline with the latency-oriented config, stepped until done."""
    from ..runtime.core import Core

    if users < 1:
        raise ValueError(f"users must be at least 1, got {users}")
    prompts = [prompt_ids(model, prompt_tokens, i) for i in range(users)]
    cfg = GenerationConfig(max_new_tokens=new_tokens, ignore_eos=True)
    core = Core(platform, seed=seed)
    ttft, finish = [], []
    with contextlib.redirect_stderr(io.StringIO()):
        if device.upper().startswith("NPU"):
            pipe = LLMPipeline(model, device, core=core)
            pipe._standin_noted = True  # a figure's run: no stand-in note
            t0 = core.clock.now
            for ids in prompts:
                times = pipe.generate(ids, cfg).perf_metrics.raw_metrics.m_new_token_times
                ttft.append((times[0] - t0) * 1e3)
                finish.append(times[-1] - t0)
        else:
            pipe = ContinuousBatchingPipeline(model, get_latency_oriented_scheduler_config(),
                                              device, core=core)
            t0 = core.clock.now
            handles = [pipe.add_request(i, ids, cfg) for i, ids in enumerate(prompts)]
            while pipe.has_non_finished_requests():
                pipe.step()
            for h in handles:
                times = h.get_perf_metrics().raw_metrics.m_new_token_times
                ttft.append((times[0] - t0) * 1e3)
                finish.append(times[-1] - t0)
    eng = pipe._engine
    kv = eng.kv_bytes() if hasattr(eng, "kv_bytes") else eng.metrics.max_cache_usage / 100 * \
        eng.metrics.cache_size_in_bytes
    return UsersRun(device, users, ttft, finish, new_tokens, eng.kind, pipe._load_time_ms / 1e3,
                    (eng.weight_bytes() + kv) / 1e9)


def recommend(figures: list[DeviceFigures], users: int = 1) -> tuple[str, list[str]]:
    """The device to pick for ``users`` at once, and why (TTFT first for one user, the total
    rate for several; the NPU kept for a single user when it frees the others)."""
    if not figures:
        return "none", ["no device can run this prompt"]
    by = {f.device: f for f in figures}
    reasons = []
    fastest_ttft = min(figures, key=lambda f: f.ttft_ms)
    fastest_tpot = min(figures, key=lambda f: f.tpot_ms)
    reasons.append(f"lowest TTFT: {fastest_ttft.device} ({fastest_ttft.ttft_ms:.0f} ms): the "
                   "prefill is bound by compute, and the iGPU has the most")
    reasons.append(f"lowest TPOT: {fastest_tpot.device} ({fastest_tpot.tpot_ms:.1f} ms): decode "
                   "is bound by memory bandwidth, which the three devices share")
    if "NPU" in by:
        npu = by["NPU"]
        reasons.append(f"NPU: TTFT {npu.ttft_ms:.0f} ms whatever the prompt below MAX_PROMPT_LEN "
                       f"(padded prefill), a {npu.load_s:.0f} s compile unless cached, one "
                       "request at a time; it leaves the CPU and iGPU free")
    if users > 1:
        reasons.append(f"{users} users at once: continuous batching on CPU or GPU serves them "
                       "together; the NPU queues them")
        pick = "GPU" if "GPU" in by else fastest_tpot.device
    else:
        pick = min(figures, key=lambda f: f.ttft_ms + 64 * f.tpot_ms).device
    return pick, reasons
