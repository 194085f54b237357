"""The seeded stand-in that writes the large models' text.

A 7B model's weights are never made, so its tokens come from a trigram chain (backing off to
bigrams) over ovlab's corpus (``corpus.py``) in the shared vocabulary, and the same tokens for
the same prompt, seed and position. Only the text is a stand-in: every step still runs through
the scheduler, the KV-cache accounting and the cost model at the real model's shape.

A chat model answers whatever it is asked, so the stand-in writes an *answer*: the chain starts
where an assistant's turn starts in the corpus (not where the prompt ends: a prompt ending in
"?" would otherwise end the text at once, as a question mark ends a corpus document), and the
answer's length is drawn, seeded by the prompt and ``rng_seed``, from a log-normal distribution
of chat models' answer lengths (:data:`ANSWER_MEDIAN`, :data:`ANSWER_SIGMA`). EOS is held back
until that length, and then given at the next sentence end; ``max_new_tokens``, stop strings and
stop tokens end an answer earlier, as in GenAI.
"""

from __future__ import annotations

import zlib
from collections import deque
from functools import lru_cache

import numpy as np

from . import corpus
from .tokenizer import _shared_bpe

#: answer lengths of chat models, in tokens: log-normal with this median and sigma (of the log).
#: LMSYS-Chat-1M (Zheng et al. 2023, 1M real conversations over 25 chat models) reports 214.5
#: response tokens on average; a median of 170 with sigma 0.7 has a mean of 217, its 5th
#: percentile is 54 tokens and its 95th 535.
ANSWER_MEDIAN, ANSWER_SIGMA = 170.0, 0.7
ANSWER_MIN, ANSWER_MAX = 12, 4096
#: past its drawn length an answer ends at the next sentence end, at most this many tokens later
SENTENCE_GRACE = 48
EOS, ANSWER_START, SPACE = 2, (4, 16), 38  # "</s>"; "<|assistant|>" "\n"; " " (shared vocabulary)


def answer_length(rng: np.random.Generator) -> int:
    """One answer's length in tokens, from the log-normal of chat answers."""
    n = float(np.exp(np.log(ANSWER_MEDIAN) + ANSWER_SIGMA * rng.standard_normal()))
    return int(min(ANSWER_MAX, max(ANSWER_MIN, round(n))))


@lru_cache(maxsize=1)
def sentence_ends() -> frozenset[int]:
    """Tokens whose text ends a sentence ('.', '?', '!' at their end)."""
    return frozenset(i for i, piece in enumerate(_shared_bpe().pieces)
                     if piece.rstrip().endswith((b".", b"?", b"!")) and i > 8)


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
    """Next tokens of one sequence: seeded by the generation seed and the prompt.

    With a family ``vocab`` (a large model's real vocabulary, ``tokenizer.FAMILIES``) the chain
    writes its text a sentence at a time in the course vocabulary, and each sentence is
    re-tokenized in the family's: the tokens and their count are the family's, and the drawn
    length counts them."""

    def __init__(self, prompt_ids: list[int], rng_seed: int, temperature: float = 1.0,
                 vocab=None) -> None:
        key = zlib.crc32(np.asarray(prompt_ids, np.int64).tobytes())
        self.rng = np.random.default_rng([int(rng_seed) & 0xFFFFFFFF, key])
        self.target = answer_length(self.rng)
        self.prev, self.last = ANSWER_START
        self.count = 0
        self.vocab = vocab if vocab is not None and vocab.name != "ovlab-course-bpe" else None
        self.eos = EOS if self.vocab is None else self.vocab.specials[1]
        self.pending: deque[int] = deque()

    def fork(self, seed: list[int]) -> StandIn:
        """A copy that goes on from here with its own random stream (a forked beam); the
        vocabulary is shared."""
        other = object.__new__(StandIn)
        other.__dict__.update(self.__dict__)
        other.pending = deque(self.pending)
        other.rng = np.random.default_rng(seed)
        return other

    def next_token(self, forbid: set[int] = frozenset()) -> int:
        """The answer's next token; EOS only once the drawn length is reached."""
        if self.vocab is not None:
            return self._family_token(forbid)
        self.count += 1
        if self.count > self.target and EOS not in forbid and (
                self.last in sentence_ends() or self.count > self.target + SENTENCE_GRACE):
            self.prev, self.last = self.last, EOS
            return EOS
        tok = self._chain(forbid | {EOS})
        if tok in (0, 1, 3, 4, 5):  # a special token mid-answer: start a new sentence
            tok = self._chain(forbid | {EOS, 0, 1, 3, 4, 5})
        return tok

    def _family_token(self, forbid: set[int] | frozenset[int]) -> int:
        self.count += 1
        while True:
            if not self.pending:
                if self.count > self.target and self.eos not in forbid:
                    return self.eos  # the drawn length is reached, at a sentence end
                self._next_sentence()
            tok = self.pending.popleft()
            if tok not in forbid:
                return tok

    def _next_sentence(self) -> None:
        """One more sentence of the chain, in the family's tokens."""
        course = []
        for _ in range(SENTENCE_GRACE):
            tok = self._chain({EOS, 0, 1, 3, 4, 5})
            course.append(tok)
            if tok in sentence_ends():
                break
        text = _shared_bpe().decode(course, True)
        if self.vocab.prepends_space and text.startswith(" "):
            text = text[1:]  # the vocabulary puts the space back (SentencePiece's dummy prefix)
        self.pending.extend(self.vocab.encode(text) or [self.vocab.encode(" ")[0]])

    def _chain(self, forbid: set[int] | frozenset[int]) -> int:
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
            tok = SPACE  # nothing allowed follows here (a '?' whose only successor is EOS)
        self.prev, self.last = self.last, tok
        return tok
