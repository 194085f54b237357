"""The tiny real LLM: a decoder-only transformer in NumPy with a paged KV cache.

Llama's architecture at toy size (RMSNorm, rotary positions, multi-head attention, SwiGLU,
tied embeddings): 2 layers, hidden 64, 4 heads, trained by ``tools/train_tiny_llm.py`` on the
seeded corpus (``corpus.py``); the weights ship in ``data/tiny_llm.npz`` (float16). Its KV
cache is paged as GenAI's is: keys and values live in physical blocks of ``block_size`` tokens,
and each sequence reads and writes them through the block table the scheduler's block manager
gave it, so a prefix-cache hit really reuses the blocks another request computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data")
WEIGHTS = DATA / "tiny_llm.npz"


@dataclass(frozen=True)
class TinyConfig:
    vocab: int = 512
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    ffn: int = 192
    context: int = 256
    rope_theta: float = 10000.0

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


def rope_tables(cfg: TinyConfig, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cos, sin of shape (len(positions), head_dim // 2) (the half-split rotary layout)."""
    half = cfg.head_dim // 2
    inv = cfg.rope_theta ** (-np.arange(half, dtype=np.float64) / half)
    ang = np.asarray(positions, dtype=np.float64)[:, None] * inv[None, :]
    return np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)


def apply_rope(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Rotate (T, H, D) by position: pairs (x[:D/2], x[D/2:])."""
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    c, s = cos[:, None, :], sin[:, None, :]
    return np.concatenate([a * c - b * s, a * s + b * c], axis=-1)


def rms_norm(x: np.ndarray, w: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def load_weights(path: Path = WEIGHTS) -> tuple[TinyConfig, dict[str, np.ndarray]]:
    with np.load(path) as data:
        weights = {k: data[k].astype(np.float32) for k in data.files if k != "config"}
        cfg = TinyConfig(*[int(v) if i < 6 else float(v) for i, v in enumerate(data["config"])])
    return cfg, weights


class PagedKV:
    """Keys and values of every layer in physical blocks: (blocks, block_size, heads, head_dim).

    It grows as the block manager hands out higher block indices (GenAI's cache grows too)."""

    def __init__(self, cfg: TinyConfig, block_size: int) -> None:
        self.cfg, self.block_size = cfg, block_size
        shape = (0, block_size, cfg.heads, cfg.head_dim)
        self.k = [np.zeros(shape, np.float32) for _ in range(cfg.layers)]
        self.v = [np.zeros(shape, np.float32) for _ in range(cfg.layers)]

    def _ensure(self, n_blocks: int) -> None:
        have = self.k[0].shape[0]
        if n_blocks <= have:
            return
        new = max(n_blocks, 2 * have)
        for store in (self.k, self.v):
            for i, arr in enumerate(store):
                grown = np.zeros((new,) + arr.shape[1:], np.float32)
                grown[:have] = arr
                store[i] = grown

    def copy_blocks(self, src: int, dsts: list[int]) -> None:
        """Copy-on-write: block ``src``'s keys and values into each of ``dsts``."""
        self._ensure(max([src, *dsts]) + 1)
        for store in (self.k, self.v):
            for arr in store:
                arr[list(dsts)] = arr[src]

    def slots(self, block_table: list[int], positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(positions) and positions[-1] // self.block_size >= len(block_table):
            raise RuntimeError(f"KV cache: position {int(positions[-1])} needs block "
                               f"{int(positions[-1]) // self.block_size} but the sequence holds "
                               f"{len(block_table)} blocks")
        table = np.asarray(block_table, dtype=np.int64)
        self._ensure(int(table.max()) + 1 if len(table) else 0)
        return table[positions // self.block_size], positions % self.block_size


class TinyLLM:
    """Forward passes of the tiny model over ragged chunks of many sequences."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        self.cfg, self.w = load_weights(path)
        # LoRA (``lora.py``): weight key -> (A^T (d_in, r), alpha B^T (r, d_out)); the low-rank
        # path runs beside the weight's matmul, as GenAI's dynamic LoRA does
        self.lora: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def _mm(self, h: np.ndarray, key: str) -> np.ndarray:
        """``h @ W``, plus ``(h @ A^T) @ (alpha B^T)`` where an adapter adapts ``W``."""
        y = h @ self.w[key]
        low = self.lora.get(key)
        if low is not None:
            y = y + (h @ low[0]) @ low[1]
        return y

    def new_cache(self, block_size: int) -> PagedKV:
        return PagedKV(self.cfg, block_size)

    def forward_chunk(self, cache: PagedKV, block_table: list[int], tokens: list[int],
                      start: int) -> np.ndarray:
        """Run ``tokens`` at positions ``start..``, writing their keys and values into the
        sequence's blocks and attending to every earlier position there; the logits of the
        last token (float32, ``(vocab,)``)."""
        cfg, w = self.cfg, self.w
        n = len(tokens)
        pos = np.arange(start, start + n)
        cos, sin = rope_tables(cfg, pos)
        blk, off = cache.slots(block_table, pos)
        all_pos = np.arange(start + n)
        all_blk, all_off = cache.slots(block_table, all_pos)
        x = w["tok_emb"][np.asarray(tokens)]
        scale = 1.0 / np.sqrt(cfg.head_dim)
        mask = all_pos[None, :] > pos[:, None]
        for i in range(cfg.layers):
            h = rms_norm(x, w[f"l{i}.ln1"])
            q = apply_rope(self._mm(h, f"l{i}.wq").reshape(n, cfg.heads, cfg.head_dim), cos, sin)
            k = apply_rope(self._mm(h, f"l{i}.wk").reshape(n, cfg.heads, cfg.head_dim), cos, sin)
            v = self._mm(h, f"l{i}.wv").reshape(n, cfg.heads, cfg.head_dim)
            cache.k[i][blk, off] = k
            cache.v[i][blk, off] = v
            keys = cache.k[i][all_blk, all_off]  # (S, H, D)
            vals = cache.v[i][all_blk, all_off]
            att = np.einsum("thd,shd->hts", q, keys) * scale
            att = np.where(mask[None], -1e30, att)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            o = np.einsum("hts,shd->thd", att, vals).reshape(n, cfg.hidden)
            x = x + self._mm(o, f"l{i}.wo")
            h = rms_norm(x, w[f"l{i}.ln2"])
            g = self._mm(h, f"l{i}.w_gate")
            x = x + self._mm((g / (1.0 + np.exp(-g))) * self._mm(h, f"l{i}.w_up"), f"l{i}.w_down")
        last = rms_norm(x[-1:], w["ln_f"])
        return (last @ w["tok_emb"].T)[0]
