"""The seeded stand-in that writes the large models' text.

A 7B model's weights are never made, so its tokens come from a bigram chain over ovlab's corpus
(``corpus.py``) in the shared vocabulary: plausible words, natural answer lengths (the chain
reaches ``</s>`` as the corpus does), and the same tokens for the same prompt, seed and
position. Only the text is a stand-in: every step still runs through the scheduler, the KV-cache
accounting and the cost model at the real model's shape.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np

from . import corpus
from .tokenizer import _shared_bpe


@lru_cache(maxsize=1)
def bigram_table() -> tuple[np.ndarray, np.ndarray]:
    """(cumulative next-token probabilities per token, fallback unigram cdf)."""
    bpe = _shared_bpe()
    v = bpe.vocab_size
    counts = np.zeros((v, v), np.float64)
    for doc in corpus.documents(0, 2000):
        ids = bpe.encode(doc)
        np.add.at(counts, (ids[:-1], ids[1:]), 1.0)
    unigram = counts.sum(0) + 1e-9
    rows = counts.sum(1, keepdims=True)
    probs = np.where(rows > 0, counts / np.maximum(rows, 1e-12), unigram / unigram.sum())
    return np.cumsum(probs, 1), np.cumsum(unigram / unigram.sum())


class StandIn:
    """Next tokens of one sequence: seeded by the generation seed and the prompt."""

    def __init__(self, prompt_ids: list[int], rng_seed: int, temperature: float = 1.0) -> None:
        key = zlib.crc32(np.asarray(prompt_ids, np.int64).tobytes())
        self.rng = np.random.default_rng([int(rng_seed) & 0xFFFFFFFF, key])
        self.last = int(prompt_ids[-1]) if prompt_ids else 2

    def next_token(self, forbid: set[int] = frozenset()) -> int:
        cdf, _ = bigram_table()
        row = cdf[self.last]
        for _ in range(8):
            tok = int(np.searchsorted(row, self.rng.random() * row[-1], side="right"))
            tok = min(tok, len(row) - 1)
            if tok not in forbid:
                break
        else:
            tok = 7  # a byte token, never special
        self.last = tok
        return tok
