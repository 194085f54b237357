"""Train ovlab's tiny real LLM (``ovlab/sim/genai/tiny.py``) in NumPy, reproducibly.

    python tools/train_tiny_llm.py [--steps 1500] [--check]

1. makes the seeded corpus (``ovlab.sim.genai.corpus.documents(0)``: our own grammar, no
   third-party text) and trains the byte-level BPE tokenizer on it (vocabulary 512);
2. trains the 2-layer, hidden-64 transformer (hand-written forward and backward passes, Adam,
   seed 0) on random 128-token windows;
3. writes ``ovlab/sim/genai/data/tiny_tokenizer.json`` and ``tiny_llm.npz`` (float16).

``--check`` compares the backward pass with finite differences on a small model and exits
(worst relative error 1.4e-5 in float64). Everything is seeded; single-threaded NumPy
(OPENBLAS_NUM_THREADS=1) with the same NumPy build should give the same weights (not verified by
a second full run). The shipped weights: 1,500 steps, final loss 0.39, 31 min on this project's
2-vCPU machine under load (2026-11-27).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ovlab.sim.genai import bpe, corpus  # noqa: E402
from ovlab.sim.genai.tiny import DATA, TinyConfig, rope_tables  # noqa: E402

EPS = 1e-5


def init(cfg: TinyConfig, rng: np.random.Generator, dtype=np.float32) -> dict[str, np.ndarray]:
    d, f = cfg.hidden, cfg.ffn
    w = {"tok_emb": rng.normal(0, 0.02, (cfg.vocab, d)), "ln_f": np.ones(d)}
    for i in range(cfg.layers):
        w[f"l{i}.ln1"], w[f"l{i}.ln2"] = np.ones(d), np.ones(d)
        for n in ("wq", "wk", "wv"):
            w[f"l{i}.{n}"] = rng.normal(0, d ** -0.5, (d, d))
        w[f"l{i}.wo"] = rng.normal(0, (2 * cfg.layers * d) ** -0.5, (d, d))
        w[f"l{i}.w_gate"] = rng.normal(0, d ** -0.5, (d, f))
        w[f"l{i}.w_up"] = rng.normal(0, d ** -0.5, (d, f))
        w[f"l{i}.w_down"] = rng.normal(0, (2 * cfg.layers * f) ** -0.5, (f, d))
    return {k: v.astype(dtype) for k, v in w.items()}


def _norm_f(x, g):
    r = 1.0 / np.sqrt((x * x).mean(-1, keepdims=True) + EPS)
    xn = x * r
    return xn * g, (xn, r)


def _norm_b(dy, g, cache):
    xn, r = cache
    dg = (dy * xn).reshape(-1, xn.shape[-1]).sum(0)
    dxn = dy * g
    return r * (dxn - xn * (dxn * xn).mean(-1, keepdims=True)), dg


def _rope_f(x, c, s):
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    return np.concatenate([a * c - b * s, a * s + b * c], -1)


def _rope_b(dy, c, s):
    h = dy.shape[-1] // 2
    da, db = dy[..., :h], dy[..., h:]
    return np.concatenate([da * c + db * s, -da * s + db * c], -1)


def loss_and_grads(w, cfg: TinyConfig, tokens: np.ndarray):
    """Mean next-token cross-entropy over a (B, T+1) batch and its gradients."""
    x_ids, y_ids = tokens[:, :-1], tokens[:, 1:]
    B, T = x_ids.shape
    H, D, d = cfg.heads, cfg.head_dim, cfg.hidden
    cos, sin = rope_tables(cfg, np.arange(T))
    c, s = cos[None, :, None, :].astype(w["ln_f"].dtype), sin[None, :, None, :].astype(w["ln_f"].dtype)
    mask = np.triu(np.ones((T, T), bool), 1)
    x = w["tok_emb"][x_ids]
    caches = []
    for i in range(cfg.layers):
        h1, n1 = _norm_f(x, w[f"l{i}.ln1"])
        q = _rope_f((h1 @ w[f"l{i}.wq"]).reshape(B, T, H, D), c, s).transpose(0, 2, 1, 3)
        k = _rope_f((h1 @ w[f"l{i}.wk"]).reshape(B, T, H, D), c, s).transpose(0, 2, 1, 3)
        v = (h1 @ w[f"l{i}.wv"]).reshape(B, T, H, D).transpose(0, 2, 1, 3)
        att = (q @ k.transpose(0, 1, 3, 2)) / np.sqrt(D)
        att = np.where(mask, -1e30, att)
        p = np.exp(att - att.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o = (p @ v).transpose(0, 2, 1, 3).reshape(B, T, d)
        x2 = x + o @ w[f"l{i}.wo"]
        h2, n2 = _norm_f(x2, w[f"l{i}.ln2"])
        g = h2 @ w[f"l{i}.w_gate"]
        u = h2 @ w[f"l{i}.w_up"]
        sg = 1.0 / (1.0 + np.exp(-g))
        a = g * sg * u
        x3 = x2 + a @ w[f"l{i}.w_down"]
        caches.append((x, h1, n1, q, k, v, p, o, x2, h2, n2, g, u, sg, a))
        x = x3
    hf, nf = _norm_f(x, w["ln_f"])
    logits = hf @ w["tok_emb"].T
    logits -= logits.max(-1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(-1, keepdims=True)
    n = B * T
    picked = np.take_along_axis(prob, y_ids[..., None], -1)[..., 0]
    loss = float(-np.log(picked + 1e-30).mean())
    dlog = prob
    np.put_along_axis(dlog, y_ids[..., None], np.take_along_axis(dlog, y_ids[..., None], -1) - 1, -1)
    dlog /= n
    grads = {k: np.zeros_like(v) for k, v in w.items()}
    grads["tok_emb"] += dlog.reshape(n, -1).T @ hf.reshape(n, d)
    dx, grads["ln_f"] = _norm_b(dlog @ w["tok_emb"], w["ln_f"], nf)
    for i in reversed(range(cfg.layers)):
        (x0, h1, n1, q, k, v, p, o, x2, h2, n2, g, u, sg, a) = caches[i]
        grads[f"l{i}.w_down"] = a.reshape(n, -1).T @ dx.reshape(n, d)
        da = dx @ w[f"l{i}.w_down"].T
        dg = da * u * sg * (1 + g * (1 - sg))
        du = da * g * sg
        grads[f"l{i}.w_gate"] = h2.reshape(n, d).T @ dg.reshape(n, -1)
        grads[f"l{i}.w_up"] = h2.reshape(n, d).T @ du.reshape(n, -1)
        dh2 = dg @ w[f"l{i}.w_gate"].T + du @ w[f"l{i}.w_up"].T
        dn, grads[f"l{i}.ln2"] = _norm_b(dh2, w[f"l{i}.ln2"], n2)
        dx2 = dx + dn
        grads[f"l{i}.wo"] = o.reshape(n, d).T @ dx2.reshape(n, d)
        do = (dx2 @ w[f"l{i}.wo"].T).reshape(B, T, H, D).transpose(0, 2, 1, 3)
        dp = do @ v.transpose(0, 1, 3, 2)
        dv = p.transpose(0, 1, 3, 2) @ do
        ds = p * (dp - (dp * p).sum(-1, keepdims=True)) / np.sqrt(D)
        dq = ds @ k
        dk = ds.transpose(0, 1, 3, 2) @ q
        dq = _rope_b(dq.transpose(0, 2, 1, 3), c, s).reshape(B, T, d)
        dk = _rope_b(dk.transpose(0, 2, 1, 3), c, s).reshape(B, T, d)
        dv = dv.transpose(0, 2, 1, 3).reshape(B, T, d)
        h1f = h1.reshape(n, d)
        grads[f"l{i}.wq"] = h1f.T @ dq.reshape(n, d)
        grads[f"l{i}.wk"] = h1f.T @ dk.reshape(n, d)
        grads[f"l{i}.wv"] = h1f.T @ dv.reshape(n, d)
        dh1 = dq @ w[f"l{i}.wq"].T + dk @ w[f"l{i}.wk"].T + dv @ w[f"l{i}.wv"].T
        dn, grads[f"l{i}.ln1"] = _norm_b(dh1, w[f"l{i}.ln1"], n1)
        dx = dx2 + dn
    np.add.at(grads["tok_emb"], x_ids, dx)
    return loss, grads


def grad_check() -> None:
    cfg = TinyConfig(vocab=20, hidden=8, layers=2, heads=2, ffn=12, context=8)
    rng = np.random.default_rng(1)
    w = init(cfg, rng, np.float64)
    for k in w:
        if "ln" in k:
            w[k] = w[k] + rng.normal(0, 0.1, w[k].shape)
    toks = rng.integers(0, cfg.vocab, (2, 7))
    _, grads = loss_and_grads(w, cfg, toks)
    worst = 0.0
    for k, arr in w.items():
        for idx in [tuple(rng.integers(0, s) for s in arr.shape) for _ in range(4)]:
            old = arr[idx]
            arr[idx] = old + 1e-6
            lp, _ = loss_and_grads(w, cfg, toks)
            arr[idx] = old - 1e-6
            lm, _ = loss_and_grads(w, cfg, toks)
            arr[idx] = old
            num = (lp - lm) / 2e-6
            err = abs(num - grads[k][idx]) / max(1e-8, abs(num) + abs(grads[k][idx]))
            worst = max(worst, err)
    print(f"gradient check: worst relative error {worst:.2e}")
    if worst > 1e-4:
        raise SystemExit("gradient check failed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        grad_check()
        return
    cfg = TinyConfig()
    docs = corpus.documents(0)
    tok = bpe.train(docs, cfg.vocab)
    tok.to_json(DATA / "tiny_tokenizer.json")
    stream = np.asarray([t for doc in docs for t in tok.encode(doc)], dtype=np.int64)
    print(f"corpus: {len(docs)} documents, {len(stream)} tokens, vocabulary {tok.vocab_size}")
    rng = np.random.default_rng(0)
    w = init(cfg, rng)
    m = {k: np.zeros_like(v) for k, v in w.items()}
    s2 = {k: np.zeros_like(v) for k, v in w.items()}
    b1, b2 = 0.9, 0.99
    t0 = time.time()
    for step in range(1, args.steps + 1):
        starts = rng.integers(0, len(stream) - args.seq - 1, args.batch)
        batch = np.stack([stream[a:a + args.seq + 1] for a in starts])
        loss, grads = loss_and_grads(w, cfg, batch)
        lr = args.lr * min(1.0, step / 100) * 0.5 * (1 + np.cos(np.pi * step / args.steps))
        for k in w:
            m[k] = b1 * m[k] + (1 - b1) * grads[k]
            s2[k] = b2 * s2[k] + (1 - b2) * grads[k] ** 2
            mh, vh = m[k] / (1 - b1 ** step), s2[k] / (1 - b2 ** step)
            w[k] -= (lr * (mh / (np.sqrt(vh) + 1e-8) + (0.01 * w[k] if w[k].ndim == 2 else 0))).astype(np.float32)
        if step % 100 == 0 or step == 1:
            print(f"step {step}: loss {loss:.3f} ({time.time() - t0:.0f} s)", flush=True)
    fields = [cfg.vocab, cfg.hidden, cfg.layers, cfg.heads, cfg.ffn, cfg.context, cfg.rope_theta]
    np.savez_compressed(DATA / "tiny_llm.npz", config=np.asarray(fields, np.float64),
                        **{k: v.astype(np.float16) for k, v in w.items()})
    print(f"wrote {DATA / 'tiny_llm.npz'} ({(DATA / 'tiny_llm.npz').stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
