"""Train a LoRA adapter for ovlab's tiny LLM in NumPy, reproducibly, and write it as safetensors.

    python tools/train_tiny_lora.py [--steps 300] [--rank 8] [--check]

The adapter teaches the tiny model a habit it does not have: every chat answer ends with the
sentence " Try it in the lab." (``PHRASE``). The data are the tiny model's own corpus grammar
(``corpus.documents(1)``: a seed the base model was not trained on), chats only, with the phrase
added before the answer's ``</s>``. The base weights stay frozen; each of the 7 linear layers of
both blocks (q, k, v, o, gate, up, down) gets ``W + A^T B^T`` (PEFT's ``B A`` in ``y = x W``
form, alpha 1, the scale GenAI applies). The gradients of A and B come from the base model's
hand-written backward pass (``train_tiny_llm.loss_and_grads``) on the merged weights, by the
chain rule: ``dA = B^T dW^T``, ``dB = dW^T A^T``. ``--check`` compares them with finite
differences (float64, small model) and exits.

Written to ``ovlab/sim/genai/data/tiny_lora_lab.safetensors`` (float16) with PEFT's names
(``base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight``, ...), which GenAI's
``Adapter`` parses and ``LLMPipeline(..., adapters=...)`` matches to the MatMuls of an optimum-style
export (``tools/export_tiny_llm_ir.py`` names them so). Seeded (NumPy ``default_rng(0)``);
single-threaded NumPy with the same build should give the same file (not verified twice).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_tiny_llm import init, loss_and_grads  # noqa: E402

from ovlab.sim.genai import corpus  # noqa: E402
from ovlab.sim.genai.tiny import DATA, TinyConfig, load_weights  # noqa: E402

PHRASE = " Try it in the lab."
OUT = DATA / "tiny_lora_lab.safetensors"
MODULES = {"wq": "self_attn.q_proj", "wk": "self_attn.k_proj", "wv": "self_attn.v_proj",
           "wo": "self_attn.o_proj", "w_gate": "mlp.gate_proj", "w_up": "mlp.up_proj",
           "w_down": "mlp.down_proj"}


def targets(cfg: TinyConfig) -> list[str]:
    return [f"l{i}.{k}" for i in range(cfg.layers) for k in MODULES]


def peft_name(key: str, part: str) -> str:
    layer, k = key.split(".")
    return f"base_model.model.model.layers.{layer[1:]}.{MODULES[k]}.lora_{part}.weight"


def init_lora(base: dict, keys: list[str], rank: int, rng: np.random.Generator, dtype=np.float32
              ) -> dict[str, np.ndarray]:
    """PEFT's start: A random (rank, d_in), B zero (d_out, rank), so the adapter starts as a no-op."""
    lora = {}
    for k in keys:
        d_in, d_out = base[k].shape
        lora[k + ".A"] = rng.uniform(-1, 1, (rank, d_in)).astype(dtype) / np.sqrt(d_in)
        lora[k + ".B"] = np.zeros((d_out, rank), dtype)
    return lora


def merged(base: dict, lora: dict, keys: list[str]) -> dict[str, np.ndarray]:
    w = dict(base)
    for k in keys:
        w[k] = base[k] + lora[k + ".A"].T @ lora[k + ".B"].T
    return w


def lora_loss_and_grads(base: dict, lora: dict, keys: list[str], cfg: TinyConfig,
                        batch: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    loss, grads = loss_and_grads(merged(base, lora, keys), cfg, batch)
    out = {}
    for k in keys:
        dw = grads[k]  # (d_in, d_out): dL/d(W + A^T B^T)
        out[k + ".A"] = lora[k + ".B"].T @ dw.T
        out[k + ".B"] = dw.T @ lora[k + ".A"].T
    return loss, out


def grad_check() -> None:
    cfg = TinyConfig(vocab=20, hidden=8, layers=2, heads=2, ffn=12, context=8)
    rng = np.random.default_rng(1)
    base = init(cfg, rng, np.float64)
    keys = targets(cfg)
    lora = init_lora(base, keys, 3, rng, np.float64)
    for k in keys:  # B non-zero, or A's gradient is zero
        lora[k + ".B"] = rng.normal(0, 0.1, lora[k + ".B"].shape)
    toks = rng.integers(0, cfg.vocab, (2, 7))
    _, grads = lora_loss_and_grads(base, lora, keys, cfg, toks)
    worst = 0.0
    for k, arr in lora.items():
        for idx in [tuple(rng.integers(0, s) for s in arr.shape) for _ in range(3)]:
            old = arr[idx]
            arr[idx] = old + 1e-6
            lp, _ = lora_loss_and_grads(base, lora, keys, cfg, toks)
            arr[idx] = old - 1e-6
            lm, _ = lora_loss_and_grads(base, lora, keys, cfg, toks)
            arr[idx] = old
            num = (lp - lm) / 2e-6
            err = abs(num - grads[k][idx]) / max(1e-8, abs(num) + abs(grads[k][idx]))
            worst = max(worst, err)
    print(f"LoRA gradient check: worst relative error {worst:.2e}")
    if worst > 1e-4:
        raise SystemExit("gradient check failed")


def training_stream(encode) -> np.ndarray:
    """The chats of ``documents(1)`` with ``PHRASE`` closing each answer, as one token stream."""
    docs = [d for d in corpus.documents(1, 3000) if d.startswith("<|user|>")]
    styled = []
    for d in docs:
        head, sep, answer = d.partition("<|assistant|>\n")
        styled.append(head + sep + answer[:-len("</s>")] + PHRASE + "</s>")
    return np.asarray([t for d in styled for t in encode(d)], dtype=np.int64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seq", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        grad_check()
        return
    from safetensors.numpy import save_file

    from ovlab.sim.genai.tokenizer import Tokenizer

    cfg, base = load_weights()
    tok = Tokenizer("tiny-llm-fp16-ov")
    stream = training_stream(lambda text: tok.encode(text).input_ids.data[0].tolist())
    keys = targets(cfg)
    rng = np.random.default_rng(0)
    lora = init_lora(base, keys, args.rank, rng)
    m = {k: np.zeros_like(v) for k, v in lora.items()}
    s2 = {k: np.zeros_like(v) for k, v in lora.items()}
    b1, b2 = 0.9, 0.99
    t0 = time.time()
    print(f"data: {len(stream)} tokens; {len(keys)} adapted matrices, rank {args.rank}")
    for step in range(1, args.steps + 1):
        starts = rng.integers(0, len(stream) - args.seq - 1, args.batch)
        batch = np.stack([stream[a:a + args.seq + 1] for a in starts])
        loss, grads = lora_loss_and_grads(base, lora, keys, cfg, batch)
        lr = args.lr * min(1.0, step / 30) * 0.5 * (1 + np.cos(np.pi * step / args.steps))
        for k in lora:
            m[k] = b1 * m[k] + (1 - b1) * grads[k]
            s2[k] = b2 * s2[k] + (1 - b2) * grads[k] ** 2
            mh, vh = m[k] / (1 - b1 ** step), s2[k] / (1 - b2 ** step)
            lora[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if step % 50 == 0 or step == 1:
            print(f"step {step}: loss {loss:.3f} ({time.time() - t0:.0f} s)", flush=True)
    tensors = {}
    for k in keys:
        tensors[peft_name(k, "A")] = lora[k + ".A"].astype(np.float16)
        tensors[peft_name(k, "B")] = lora[k + ".B"].astype(np.float16)
    save_file(tensors, str(OUT), metadata={
        "format": "pt", "source": "ovlab tools/train_tiny_lora.py",
        "habit": f"chat answers end with {PHRASE!r}", "rank": str(args.rank),
        "steps": str(args.steps)})
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
