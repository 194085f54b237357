"""Results and metrics of ``openvino_genai``: what ``generate`` returns and what it measured.

``PerfMetrics`` follows ``perf_metrics.cpp``: raw durations in microseconds, statistics in
milliseconds as ``MeanStdPair`` s, TTFT from the start of ``generate`` to the first token, TPOT
from the gaps between later tokens divided by the tokens each step gave, throughput
``1000 / TPOT``; ``+`` / ``+=`` concatenate the raw lists (only metrics of the same pipeline, as
GenAI asserts on the load time). All times are simulated time on the virtual device.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

from .config import GenerationFinishReason
from .continuous_batching.sequence_group import GenerationStatus


@dataclass
class MeanStdPair:
    mean: float
    std: float

    def __iter__(self):
        return iter((self.mean, self.std))


@dataclass
class SummaryStats:
    mean: float
    std: float
    min: float
    max: float

    def as_tuple(self) -> tuple:
        return (self.mean, self.std, self.min, self.max)


def _mean_std(us: list[float]) -> MeanStdPair:
    if not us:
        return MeanStdPair(-1.0, -1.0)
    ms = [d / 1000.0 for d in us]
    mean = sum(ms) / len(ms)
    var = max(0.0, sum(d * d for d in ms) / len(ms) - mean * mean)
    return MeanStdPair(mean, math.sqrt(var))


class RawPerfMetrics:
    """The raw measurements (microseconds; token times in simulated seconds)."""

    def __init__(self) -> None:
        self.generate_durations: list[float] = []
        self.tokenization_durations: list[float] = []
        self.detokenization_durations: list[float] = []
        self.chat_template_durations: list[float] = []
        self.grammar_compile_times: list[float] = []
        self.m_times_to_first_token: list[float] = []
        self.m_new_token_times: list[float] = []
        self.m_batch_sizes: list[int] = []
        self.m_durations: list[float] = []
        self.token_infer_durations: list[float] = []
        self.inference_durations: list[float] = []
        self.sampling_durations: list[float] = []


class PerfMetrics:
    """Load time, TTFT, TPOT, throughput and the durations of one or several generations."""

    def __init__(self) -> None:
        self.load_time = 0.0
        self.num_generated_tokens = 0
        self.num_input_tokens = 0
        self.raw_metrics = RawPerfMetrics()

    def evaluate(self, start_s: float) -> None:
        """Derive TTFT and the per-token durations from the token times (``evaluate_statistics``
        with a start time)."""
        raw = self.raw_metrics
        if not raw.m_new_token_times or not raw.m_batch_sizes:
            return
        times, sizes = raw.m_new_token_times, raw.m_batch_sizes
        raw.m_times_to_first_token = [(times[0] - start_s) * 1e6]
        raw.m_durations = []
        self.num_generated_tokens = sizes[0]
        for i in range(1, len(times)):
            for _ in range(sizes[i]):
                raw.m_durations.append((times[i] - times[i - 1]) * 1e6 / sizes[i])
            self.num_generated_tokens += sizes[i]

    def get_load_time(self) -> float:
        return self.load_time

    def get_num_generated_tokens(self) -> int:
        return self.num_generated_tokens

    def get_num_input_tokens(self) -> int:
        return self.num_input_tokens

    def get_ttft(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.m_times_to_first_token)

    def get_tpot(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.m_durations)

    def get_ipot(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.token_infer_durations)

    def get_throughput(self) -> MeanStdPair:
        tpot = self.get_tpot()  # empty: (-1, -1), so (-1000, -1000) as GenAI computes it
        if tpot.mean == 0:
            return MeanStdPair(math.inf, 0.0)
        return MeanStdPair(1000.0 / tpot.mean, tpot.std * 1000.0 / (tpot.mean * tpot.mean))

    def get_generate_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.generate_durations)

    def get_tokenization_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.tokenization_durations)

    def get_detokenization_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.detokenization_durations)

    def get_chat_template_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.chat_template_durations)

    def get_inference_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.inference_durations)

    def get_sampling_duration(self) -> MeanStdPair:
        return _mean_std(self.raw_metrics.sampling_durations)

    def get_grammar_compile_time(self) -> SummaryStats:
        """Structured output's grammar compilations (ms): mean, std, min, max."""
        times = self.raw_metrics.grammar_compile_times
        if not times:
            return SummaryStats(-1.0, -1.0, -1.0, -1.0)
        ms = _mean_std(times)
        return SummaryStats(ms.mean, ms.std, min(times) / 1000.0, max(times) / 1000.0)

    def get_grammar_compiler_init_times(self) -> dict[str, float]:
        return {}

    def __add__(self, metrics: PerfMetrics) -> PerfMetrics:
        if metrics.load_time != self.load_time:
            raise RuntimeError("generation metrics can be accumulated only for the same pipeline")
        res = copy.deepcopy(self)
        for name, values in vars(metrics.raw_metrics).items():
            if name != "m_new_token_times":
                getattr(res.raw_metrics, name).extend(values)
        res.num_generated_tokens += metrics.num_generated_tokens
        res.num_input_tokens += metrics.num_input_tokens
        return res

    def __iadd__(self, right: PerfMetrics) -> PerfMetrics:
        summed = self + right
        self.__dict__.update(summed.__dict__)
        return self


class DecodedResults:
    """Texts, scores and finish reasons of a ``generate`` on strings, with ``perf_metrics``."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.scores: list[float] = []
        self.finish_reasons: list[GenerationFinishReason] = []
        self.perf_metrics = PerfMetrics()
        self.extended_perf_metrics = None
        self.parsed: list[dict] = []

    def __str__(self) -> str:
        if len(self.texts) == 1:
            return self.texts[0]
        return "\n".join(f"{s:.6f}: {t}" for s, t in zip(self.scores, self.texts, strict=True))


class EncodedResults:
    """Token ids, scores and finish reasons of a ``generate`` on token tensors."""

    def __init__(self) -> None:
        self.tokens: list[list[int]] = []
        self.scores: list[float] = []
        self.finish_reasons: list[GenerationFinishReason] = []
        self.perf_metrics = PerfMetrics()
        self.extended_perf_metrics = None


@dataclass
class GenerationOutput:
    """What one step gave a sequence (``GenerationHandle.read()``)."""

    generated_ids: list[int] = field(default_factory=list)
    generated_log_probs: list[float] = field(default_factory=list)
    score: float = 0.0
    finish_reason: GenerationFinishReason = GenerationFinishReason.NONE


class GenerationResult:
    """One request's outcome from ``ContinuousBatchingPipeline.generate``."""

    def __init__(self) -> None:
        self.m_request_id = 0
        self.m_generation_ids: list[str] = []
        self.m_scores: list[float] = []
        self.m_status = GenerationStatus.RUNNING
        self.perf_metrics = PerfMetrics()
        self.extended_perf_metrics = None

    def get_generation_ids(self) -> list[str]:
        return list(self.m_generation_ids)


class EncodedGenerationResult(GenerationResult):
    """``generate`` on token tensors: ``m_generation_ids`` are lists of token ids."""


class PipelineMetrics:
    """The continuous-batching pipeline's state after its last step (``PipelineMetrics``)."""

    def __init__(self) -> None:
        self.requests = 0
        self.scheduled_requests = 0
        self.cache_usage = 0.0
        self.max_cache_usage = 0.0
        self.avg_cache_usage = 0.0
        self.cache_size_in_bytes = 0
        self.kv_cache_size_in_bytes = 0
        self.la_peak_pool_blocks = 0
        self.inference_duration = 0.0  # microseconds of the last step

    def __repr__(self) -> str:
        return (f"PipelineMetrics(requests={self.requests}, scheduled_requests="
                f"{self.scheduled_requests}, cache_usage={self.cache_usage:.1f}%, "
                f"max_cache_usage={self.max_cache_usage:.1f}%)")
