"""The host CPU time of structured output's token mask, measured with llguidance on this machine.

GenAI computes a grammar's token mask on the host between two model steps (xgrammar's
``FillNextTokenBitmask``), so every constrained token pays it. ovlab models that time
(``ovlab/sim/genai/constrained.py``: ``mask_seconds``, ``compile_seconds``) from this
measurement: for each vocabulary (the tiny model's 512 tokens, Llama 2's 32k, Qwen2's 151k ids),
a JSON-schema answer is walked token by token and each step's ``compute_bitmask`` is timed; the
grammar's compilation (matcher creation) is timed too. Median of several runs, one thread.

Run: ``python benchmarks/bench_grammar_mask.py`` (prints a table and the fitted constants).
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SCHEMA = {"type": "object", "properties": {
    "name": {"type": "string", "pattern": "^[A-Z][a-z]{1,20}$"},
    "age": {"type": "integer", "minimum": 0, "maximum": 128},
    "city": {"enum": ["Dublin", "Dubai", "Munich"]},
    "note": {"type": "string"}}, "required": ["name", "age", "city", "note"]}
ANSWER = '{"name": "Anna", "age": 31, "city": "Dublin", "note": "the NPU runs the model well"}'


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def measure(vocab_name: str, runs: int = 5) -> dict:
    import llguidance

    from ovlab.sim.genai import constrained
    from ovlab.sim.genai.grammar import llguidance_grammar
    from ovlab.sim.genai.structured import StructuredOutputConfig
    from ovlab.sim.genai.tokenizer import vocabulary

    vocab = vocabulary(vocab_name)
    tok = constrained.lltokenizer(vocab)
    grammar = llguidance_grammar(StructuredOutputConfig(json_schema=json.dumps(SCHEMA)))
    ids = tok.greedy_tokenize(ANSWER)  # the bytes of the answer (no SentencePiece prefix)
    masks, compiles = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        m = llguidance.LLMatcher(tok, grammar, log_level=0)
        compiles.append(time.perf_counter() - t0)
        per = []
        for t in ids:
            t0 = time.perf_counter()
            m.compute_bitmask()
            per.append(time.perf_counter() - t0)
            assert m.consume_token(t), m.get_error()
        masks.append(float(np.mean(per)))
    return {"vocab": vocab_name, "size": tok.vocab_size, "tokens": len(ids),
            "mask_us": statistics.median(masks) * 1e6,
            "compile_ms": statistics.median(compiles) * 1e3}


def main() -> None:
    rows = [measure(v) for v in ("ovlab-course-bpe", "llama-spm", "qwen2")]
    print(f"llguidance token masks on {cpu_name()} (JSON schema, one thread)")
    print(f"{'vocabulary':18s} {'ids':>7s} {'tokens':>6s} {'mask µs/token':>14s} {'compile ms':>11s}")
    for r in rows:
        print(f"{r['vocab']:18s} {r['size']:7d} {r['tokens']:6d} {r['mask_us']:14.1f} "
              f"{r['compile_ms']:11.2f}")
    sizes = np.array([r["size"] for r in rows], float)
    for key, scale in (("mask_us", 1e-6), ("compile_ms", 1e-3)):
        slope, base = np.polyfit(sizes, [r[key] * scale for r in rows], 1)
        print(f"{key}: base {base:.3g} s + {slope:.3g} s per vocabulary id")


if __name__ == "__main__":
    main()
