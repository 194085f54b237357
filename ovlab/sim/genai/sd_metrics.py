"""Speculative decoding's metrics: ``ExtendedPerfMetrics``, ``SDPerfMetrics`` and
``SDPerModelsPerfMetrics`` (``DecodedResults.extended_perf_metrics``).

They follow genai ``src/cpp/src/speculative_decoding/perf_metrics.cpp`` and the 2026.4.1 wheel's
docstrings: a generate call records one entry per *iteration* (draft candidates, then one
validating pass of the main model) with the number of tokens it produced; the first entry is the
first token (TTFT), the second the second token (TTST), the rest the "latency" per inference; TPOT
divides each later duration by its tokens. The top-level metrics are the plain ``PerfMetrics``
of the token times; ``main_model_metrics`` and ``draft_model_metrics`` hold each model's own
inferences. The counters (draft tokens offered, accepted, rejected, processed) are what the
wheel reports; their getters' names are read from it.
"""

from __future__ import annotations

from .results import MeanStdPair, PerfMetrics, _mean_std


class ExtendedPerfMetrics(PerfMetrics):
    """Metrics of a pipeline with its own extras (the base of ``SDPerfMetrics``)."""


class SDPerfMetrics(ExtendedPerfMetrics):
    """One model's metrics in a speculative pipeline: TTFT, TTST and the latency from the third
    inference on, from ``raw_metrics.m_durations`` and ``m_batch_sizes`` (µs, tokens)."""

    def _split(self) -> tuple[list[float], list[float], list[float], list[float]]:
        d, b = self.raw_metrics.m_durations, self.raw_metrics.m_batch_sizes
        tpot = [d[i] / b[i] for i in range(2, len(d)) if i < len(b) and b[i] > 0]
        return d[:1], d[1:2], d[2:], tpot

    def evaluate_sd(self) -> None:
        """``SDPerfMetrics::evaluate_statistics``: count the tokens, set TTFT from the first
        inference."""
        raw = self.raw_metrics
        self.num_generated_tokens = sum(raw.m_batch_sizes)
        raw.m_times_to_first_token = list(raw.m_durations[:1])
        if not raw.generate_durations and raw.m_durations:  # one total per generate call
            raw.generate_durations = [sum(raw.m_durations)]

    def get_ttft(self) -> MeanStdPair:
        return _mean_std(self._split()[0])

    def get_ttst(self) -> MeanStdPair:
        return _mean_std(self._split()[1])

    def get_latency(self) -> MeanStdPair:
        return _mean_std(self._split()[2])

    def get_tpot(self) -> MeanStdPair:
        return _mean_std(self._split()[3])


class SDPerModelsPerfMetrics(SDPerfMetrics):
    """The whole speculative generate call, with ``main_model_metrics`` and
    ``draft_model_metrics`` and the draft's counters."""

    def __init__(self) -> None:
        super().__init__()
        self.main_model_metrics = SDPerfMetrics()
        self.draft_model_metrics = SDPerfMetrics()
        self.num_accepted_tokens = 0
        self.num_draft_tokens = 0
        self.num_draft_processed_tokens = 0

    # the top level is plain PerfMetrics over the token times (SDPerModelsPerfMetrics calls
    # PerfMetrics::evaluate_statistics), TTST and latency from its iteration durations
    get_ttft = PerfMetrics.get_ttft
    get_tpot = PerfMetrics.get_tpot

    def get_num_accepted_tokens(self) -> int:
        return self.num_accepted_tokens

    def get_num_draft_tokens(self) -> int:
        return self.num_draft_tokens

    def get_num_draft_processed_tokens(self) -> int:
        return self.num_draft_processed_tokens

    def get_num_rejected_tokens(self) -> int:
        return self.num_draft_tokens - self.num_accepted_tokens

    def get_draft_acceptance_rate(self) -> float:
        return self.num_accepted_tokens / self.num_draft_tokens if self.num_draft_tokens else 0.0

    def get_draft_processed_to_candidate_ratio(self) -> float:
        return (self.num_draft_processed_tokens / self.num_draft_tokens
                if self.num_draft_tokens else 0.0)

    def get_draft_to_main_inference_duration_ratio(self) -> float:
        main = sum(self.main_model_metrics.raw_metrics.m_durations)
        draft = sum(self.draft_model_metrics.raw_metrics.m_durations)
        return draft / main if main else 0.0


__all__ = ["ExtendedPerfMetrics", "SDPerModelsPerfMetrics", "SDPerfMetrics"]
