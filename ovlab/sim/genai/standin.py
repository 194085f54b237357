"""The seeded stand-in that writes the large models' text.

A 7B model's weights are never made, so its tokens come from a trigram chain (backing off to
bigrams) over ovlab's corpus (``corpus.py``) in the shared vocabulary: plausible words, natural
answer lengths (the chain reaches ``</s>`` as the corpus does), and the same tokens for the same
prompt, seed and position. Only the text is a stand-in: every step still runs through the scheduler, the KV-cache
accounting and the cost model at the real model's shape.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np

from . import corpus
from .tokenizer import _shared_bpe


@lru_cache(maxsize=1)
def trigram_table() -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """(a, b) -> (next tokens, their cumulative counts), from the same documents."""
    bpe = _shared_bpe()
    counts: dict[tuple[int, int], dict[int, int]] = {}
    for doc in corpus.documents(0, 2000):
        ids = bpe.encode(doc)
        for a, b, c in zip(ids, ids[1:], ids[2:], strict=False):
            row = counts.setdefault((a, b), {})
            row[c] = row.get(c, 0) + 1
    table = {}
    for key, row in counts.items():
        toks = np.array(sorted(row), np.int64)
        table[key] = (toks, np.cumsum([row[t] for t in toks], dtype=np.float64))
    return table


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
        self.prev = int(prompt_ids[-2]) if len(prompt_ids) > 1 else 2
        self.last = int(prompt_ids[-1]) if prompt_ids else 2

    def next_token(self, forbid: set[int] = frozenset()) -> int:
        tri = trigram_table().get((self.prev, self.last))
        cdf, _ = bigram_table()
        for _ in range(8):
            if tri is not None:
                toks, cum = tri
                tok = int(toks[min(int(np.searchsorted(cum, self.rng.random() * cum[-1],
                                                       side="right")), len(toks) - 1)])
            else:
                row = cdf[self.last]
                tok = min(int(np.searchsorted(row, self.rng.random() * row[-1], side="right")),
                          len(row) - 1)
            if tok not in forbid:
                break
            tri = None  # a forbidden pick: back off to the bigram row for the retries
        else:
            tok = 7  # a byte token, never special
        self.prev, self.last = self.last, tok
        return tok
