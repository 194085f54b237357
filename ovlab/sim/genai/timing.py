"""How long one continuous-batching step of an LLM takes on a virtual device.

A step runs the tokens the scheduler picked, from one or many sequences, through the model once
(GenAI's paged-attention model runner). Its time adds four parts:

- **matmuls**: 2 FLOPs per weight per token through the transformer blocks, and the output head
  for each sequence's last token, against the device's f16 matrix peak times a compute efficiency
  per weight format (INT4 and INT8 weights are decompressed to f16 in the kernels, at a cost);
- **attention**: ``4 x layers x heads x head_dim`` FLOPs per (query, key) pair, against the
  peak times its own efficiency (SDPA / paged-attention kernels reach less than a GEMM);
- **memory**: the weights a step reads once (``zoo.decode_bytes``) and the KV cache each
  sequence attends to, against the device's bandwidth times a memory efficiency;
- a fixed **per-step** overhead (scheduling, sampling, kernel launches, host sync).

A prefill of many tokens is dominated by the matmuls (compute-bound), a decode step of a few
sequences by the bytes (memory-bound): the roofline's two ends. The five efficiencies and the
overhead are fitted by weighted least squares on relative error to Intel's published Core Ultra 7
165H iGPU figures for four models (``llm-165h-igpu-fit.csv``; Intel's other LLM rows are kept
out of the fit as the check); ``fit()`` does it and ``tools/fit_llm.py`` writes the result
(``data/llm_fit.json``). On other devices the same efficiencies apply to their own peak and
bandwidth: a transfer, not a fit.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..models import llm_zoo as zoo

FIT_FILE = Path(__file__).with_name("data") / "llm_fit.json"
FORMATS = ("INT4-MIXED", "INT8-CW", "FP16")
# the features a step's time is linear in (the fit's columns), in order
TERMS = ("flops_INT4-MIXED", "flops_INT8-CW", "flops_FP16", "attention_flops", "bytes", "steps")


@dataclass(frozen=True)
class Chunk:
    """The tokens one sequence runs in a step: ``tokens`` new ones after ``past`` cached ones."""

    tokens: int
    past: int


def kv_bytes_per_element(plugin: str) -> float:
    """KV-cache precision: f16 on GPU, u8 on CPU (its default since 2025), as in OpenVINO."""
    return 1.0 if plugin == "CPU" else 2.0


def features(spec: zoo.LLMSpec, precision: str, chunks: list[Chunk], kv_elem: float = 2.0
             ) -> dict[str, float]:
    """The raw amounts of work of one step (FLOPs, bytes, 1 step)."""
    n_tokens = sum(c.tokens for c in chunks)
    n_logits = sum(1 for c in chunks if c.tokens)
    flops = 2.0 * spec.layer_params * n_tokens + 2.0 * spec.embedding_params * n_logits
    per_pair = 4.0 * spec.layers * spec.heads * spec.d_head
    attn = sum(per_pair * c.tokens * (c.past + (c.tokens + 1) / 2) for c in chunks)
    kv = sum(spec.kv_bytes_per_token(kv_elem) * (c.past + c.tokens) for c in chunks)
    out = {t: 0.0 for t in TERMS}
    out[f"flops_{precision}"] = flops
    out["attention_flops"] = attn
    out["bytes"] = zoo.decode_bytes(spec, precision) + kv
    out["steps"] = 1.0
    return out


@dataclass(frozen=True)
class LLMCost:
    """Fitted efficiencies; ``seconds()`` times a step on a device of given peak and bandwidth."""

    compute_efficiency: dict[str, float]
    attention_efficiency: float
    memory_efficiency: float
    step_overhead_s: float

    def seconds(self, spec: zoo.LLMSpec, precision: str, chunks: list[Chunk], peak_gflops: float,
                bandwidth_gbs: float, kv_elem: float = 2.0) -> float:
        if not any(c.tokens for c in chunks):
            return 0.0
        f = features(spec, precision, chunks, kv_elem)
        peak, bw = peak_gflops * 1e9, bandwidth_gbs * 1e9
        return (f[f"flops_{precision}"] / (peak * self.compute_efficiency[precision])
                + f["attention_flops"] / (peak * self.attention_efficiency)
                + f["bytes"] / (bw * self.memory_efficiency)
                + self.step_overhead_s)

    @classmethod
    def load(cls, path: Path = FIT_FILE) -> LLMCost:
        data = json.loads(Path(path).read_text())
        return cls(dict(data["compute_efficiency"]), data["attention_efficiency"],
                   data["memory_efficiency"], data["step_overhead_s"])


def device_peak_and_bandwidth(device_spec) -> tuple[float, float]:
    """(f16 matrix peak GFLOP/s, memory bandwidth GB/s) of a ``hardware.specs.DeviceSpec``."""
    peaks = device_spec.peak_gflops
    peak = next(peaks[k] for k in ("f16", "bf16", "f32") if k in peaks)  # an NPU has no f32
    return float(peak), float(device_spec.mem_bw_gbs)


# --- the fit -------------------------------------------------------------------------------------
def read_rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return [{**r, "input_tokens": int(r["input_tokens"]), "first_token_ms": float(r["first_token_ms"]),
                 "second_token_ms": float(r["second_token_ms"])} for r in csv.DictReader(f)]


def _row_points(row: dict) -> list[tuple[dict[str, float], float, str]]:
    """The two measurements of a table row as (features, seconds, which): the first token is
    the prefill of the whole prompt, the second a decode step after it (GPU: f16 KV cache)."""
    spec = zoo.get(row["model"])
    n = row["input_tokens"]
    first = features(spec, row["precision"], [Chunk(n, 0)])
    second = features(spec, row["precision"], [Chunk(1, n)])
    return [(first, row["first_token_ms"] / 1e3, "first"), (second, row["second_token_ms"] / 1e3, "second")]


def _nnls(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Least squares with non-negative coefficients (drop the most negative, refit)."""
    active = list(range(a.shape[1]))
    while True:
        x = np.zeros(a.shape[1])
        x[active] = np.linalg.lstsq(a[:, active], b, rcond=None)[0]
        if (x[active] >= 0).all():
            return x
        active.remove(active[int(np.argmin(x[active]))])


def fit(rows: list[dict], peak_gflops: float, bandwidth_gbs: float) -> tuple[LLMCost, dict]:
    """Fit the efficiencies and the overhead to table rows by least squares on relative error
    (each point divided by its measured time); the cost and its error figures."""
    points = [p for r in rows for p in _row_points(r)]
    a = np.array([[f[t] for t in TERMS] for f, _, _ in points])
    y = np.array([s for _, s, _ in points])
    coef = _nnls(a / y[:, None], np.ones(len(y)))
    peak, bw = peak_gflops * 1e9, bandwidth_gbs * 1e9

    def eff(c: float, scale: float) -> float:
        return float(1.0 / (c * scale)) if c > 0 else float("inf")

    cost = LLMCost({p: eff(coef[i], peak) for i, p in enumerate(FORMATS)}, eff(coef[3], peak),
                   eff(coef[4], bw), float(coef[5]))
    pred = a @ coef
    rel = np.abs(pred - y) / y
    kinds = np.array([k for _, _, k in points])
    errors = {"median": float(np.median(rel)), "worst": float(rel.max()), "points": len(y),
              "median_first": float(np.median(rel[kinds == "first"])),
              "median_second": float(np.median(rel[kinds == "second"]))}
    return cost, errors
