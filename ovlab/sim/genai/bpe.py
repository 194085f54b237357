"""A byte-level BPE tokenizer (GPT-2 style, in plain Python): training and encoding.

Every string encodes (unknown text falls back to its UTF-8 bytes), and decoding is exact. The
tiny real LLM and the seeded stand-in of the large ones share this vocabulary
(``data/tiny_tokenizer.json``, trained by ``tools/train_tiny_llm.py``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

SPECIALS = ("<pad>", "<s>", "</s>", "<|user|>", "<|assistant|>", "<|system|>")
_WORDS = re.compile(r" ?[A-Za-z0-9]+| ?[^\sA-Za-z0-9]+|\s+")


def _split_specials(text: str, specials: dict[str, int]) -> list[str | int]:
    pattern = "(" + "|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)) + ")"
    parts: list[str | int] = []
    for piece in re.split(pattern, text):
        if piece in specials:
            parts.append(specials[piece])
        elif piece:
            parts.append(piece)
    return parts


class BPE:
    """Byte-level BPE: ids ``0..len(SPECIALS)-1`` are special tokens, then the 256 bytes, then
    the merges in the order they were learnt."""

    def __init__(self, merges: list[tuple[int, int]]) -> None:
        self.specials = {s: i for i, s in enumerate(SPECIALS)}
        self.offset = len(SPECIALS)
        self.merges = [tuple(m) for m in merges]
        self.ranks = {m: i for i, m in enumerate(self.merges)}
        self.pieces: list[bytes] = [s.encode() for s in SPECIALS] + [bytes([b]) for b in range(256)]
        for a, b in self.merges:
            self.pieces.append(self.pieces[a] + self.pieces[b])
        self._encode_word = lru_cache(maxsize=65536)(self._encode_word_uncached)

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)

    def _encode_word_uncached(self, word: str) -> tuple[int, ...]:
        ids = [b + self.offset for b in word.encode("utf-8")]
        while len(ids) > 1:
            best = min(((self.ranks.get((a, b), 1 << 30), i) for i, (a, b) in
                        enumerate(zip(ids, ids[1:], strict=False))), default=(1 << 30, -1))
            if best[0] == 1 << 30:
                break
            i = best[1]
            ids[i:i + 2] = [self.offset + 256 + best[0]]
        return tuple(ids)

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        for part in _split_specials(text, self.specials):
            if isinstance(part, int):
                out.append(part)
            else:
                for word in _WORDS.findall(part):
                    out.extend(self._encode_word(word))
        return out

    def decode(self, ids, skip_special_tokens: bool = True) -> str:
        data = b"".join(self.pieces[i] for i in ids
                        if 0 <= i < len(self.pieces) and not (skip_special_tokens and i < self.offset))
        return data.decode("utf-8", errors="replace")

    def to_json(self, path: Path) -> None:
        path.write_text(json.dumps({"specials": list(SPECIALS), "merges": self.merges}))

    @classmethod
    def from_json(cls, path: Path) -> BPE:
        data = json.loads(Path(path).read_text())
        if tuple(data["specials"]) != SPECIALS:
            raise ValueError(f"{path}: special tokens {data['specials']} are not {list(SPECIALS)}")
        return cls([tuple(m) for m in data["merges"]])


def train(texts: list[str], vocab_size: int) -> BPE:
    """Learn ``vocab_size - 262`` merges from ``texts`` (ties broken by the smaller pair, so the
    result does not depend on dict order)."""
    offset = len(SPECIALS)
    words: Counter[tuple[int, ...]] = Counter()
    for text in texts:
        for part in _split_specials(text, {s: i for i, s in enumerate(SPECIALS)}):
            if isinstance(part, str):
                for w in _WORDS.findall(part):
                    words[tuple(b + offset for b in w.encode("utf-8"))] += 1
    merges: list[tuple[int, int]] = []
    vocab = dict(words)
    while offset + 256 + len(merges) < vocab_size:
        pairs: Counter[tuple[int, int]] = Counter()
        for w, n in vocab.items():
            for p in zip(w, w[1:], strict=False):
                pairs[p] += n
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))[0]
        new_id = offset + 256 + len(merges)
        merges.append(best)
        merged = {}
        for w, n in vocab.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(new_id)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            merged[tuple(out)] = merged.get(tuple(out), 0) + n
        vocab = merged
    return BPE(merges)
