"""ovlab's LLM zoo: real architectures by shape, in OpenVINO's three weight formats.

Each entry is the published ``config.json`` of the model on Hugging Face, reduced to what
timing and memory need: layers, hidden size, attention heads, KV heads (GQA / MQA), head size,
the MLP's intermediate size and whether it is gated (SwiGLU / GeGLU: three matrices, else two),
vocabulary, context length and whether the output head shares the embedding. Weights are never
made for these models: their text comes from the seeded stand-in (``standin.py``) and their
time from the cost model (``timing.py``). ``tiny-llm`` is the one model with real weights.

A model directory name as optimum-intel / Hugging Face ``OpenVINO/`` publish them selects a
model and a weight format: ``TinyLlama-1.1B-Chat-v1.0-int4-ov``,
``phi-3-mini-4k-instruct-int8-ov``, ``qwen-7b-chat-fp16-ov`` (case-insensitive).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# OpenVINO weight formats as Intel's LLM benchmark tables name them, and the folder suffix.
PRECISIONS = {"int4": "INT4-MIXED", "int8": "INT8-CW", "fp16": "FP16"}


@dataclass(frozen=True)
class LLMSpec:
    """The shape of a decoder-only LLM (from its published config.json)."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int
    context: int
    head_dim: int = 0  # 0: hidden // heads
    gated_mlp: bool = True
    tied_embeddings: bool = False
    source: str = ""  # the Hugging Face repository the shape is read from
    aliases: tuple[str, ...] = ()

    @property
    def d_head(self) -> int:
        return self.head_dim or self.hidden // self.heads

    @property
    def attention_params(self) -> int:
        q = self.hidden * self.heads * self.d_head
        return 2 * q + 2 * self.hidden * self.kv_heads * self.d_head  # q, o and k, v

    @property
    def mlp_params(self) -> int:
        return (3 if self.gated_mlp else 2) * self.hidden * self.intermediate

    @property
    def layer_params(self) -> int:
        """Parameters of the transformer blocks (the matmuls every token runs through)."""
        return self.layers * (self.attention_params + self.mlp_params)

    @property
    def embedding_params(self) -> int:
        return self.vocab * self.hidden

    @property
    def params(self) -> int:
        head = 0 if self.tied_embeddings else self.embedding_params
        return self.layer_params + self.embedding_params + head

    def kv_bytes_per_token(self, kv_bytes: float = 2.0) -> float:
        """KV-cache bytes one token holds: K and V of every layer."""
        return 2 * self.layers * self.kv_heads * self.d_head * kv_bytes


def _m(name, layers, hidden, heads, kv, inter, vocab, ctx, source, **kw) -> LLMSpec:
    return LLMSpec(name, layers, hidden, heads, kv, inter, vocab, ctx, source=source, **kw)


MODELS: dict[str, LLMSpec] = {m.name: m for m in [
    _m("tiny-llm", 2, 64, 4, 4, 192, 512, 256, "ovlab (tools/train_tiny_llm.py)",
       tied_embeddings=True),
    _m("TinyLlama-1.1B-Chat-v1.0", 22, 2048, 32, 4, 5632, 32000, 2048,
       "TinyLlama/TinyLlama-1.1B-Chat-v1.0", aliases=("tiny-llama-1.1b-chat",)),
    _m("Llama-3.2-1B-Instruct", 16, 2048, 32, 8, 8192, 128256, 131072,
       "meta-llama/Llama-3.2-1B-Instruct", tied_embeddings=True,
       aliases=("llama-3.2-1b", "llama-3.2-1b-instruct")),
    _m("Llama-3.2-3B-Instruct", 28, 3072, 24, 8, 8192, 128256, 131072,
       "meta-llama/Llama-3.2-3B-Instruct", tied_embeddings=True,
       aliases=("llama-3.2-3b", "llama-3.2-3b-instruct")),
    _m("Qwen2.5-0.5B-Instruct", 24, 896, 14, 2, 4864, 151936, 32768,
       "Qwen/Qwen2.5-0.5B-Instruct", tied_embeddings=True, aliases=("qwen2.5-0.5b",)),
    _m("Qwen2.5-7B-Instruct", 28, 3584, 28, 4, 18944, 152064, 32768,
       "Qwen/Qwen2.5-7B-Instruct", aliases=("qwen2.5-7b",)),
    # the Qwen2.5-32B shape; OVMS's two-GPU HETERO demo runs it (issue 26)
    _m("DeepSeek-R1-Distill-Qwen-32B", 64, 5120, 40, 8, 27648, 152064, 131072,
       "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", aliases=("qwen2.5-32b",)),
    _m("phi-3-mini-4k-instruct", 32, 3072, 32, 32, 8192, 32064, 4096,
       "microsoft/Phi-3-mini-4k-instruct", aliases=("phi-3-mini",)),
    # Intel's Core Ultra 7 165H LLM table, decoder-only models
    _m("dolly-v2-3b", 32, 2560, 32, 32, 10240, 50280, 2048, "databricks/dolly-v2-3b",
       gated_mlp=False),
    _m("gemma-2b-it", 18, 2048, 8, 1, 16384, 256000, 8192, "google/gemma-2b-it",
       head_dim=256, tied_embeddings=True),
    _m("gemma-7b-it", 28, 3072, 16, 16, 24576, 256000, 8192, "google/gemma-7b-it",
       head_dim=256, tied_embeddings=True),
    _m("phi-2", 32, 2560, 32, 32, 10240, 51200, 2048, "microsoft/phi-2", gated_mlp=False),
    _m("stablelm-3b-4e1t", 32, 2560, 32, 32, 6912, 50304, 4096, "stabilityai/stablelm-3b-4e1t"),
    _m("stable-zephyr-3b-dpo", 32, 2560, 32, 32, 6912, 50304, 4096,
       "stabilityai/stablelm-zephyr-3b", aliases=("stablelm-zephyr-3b",)),
    _m("gpt-j-6b", 28, 4096, 16, 16, 16384, 50400, 2048, "EleutherAI/gpt-j-6b",
       gated_mlp=False),
    _m("chatglm3-6b", 28, 4096, 32, 2, 13696, 65024, 8192, "THUDM/chatglm3-6b"),
    _m("falcon-7b-instruct", 32, 4544, 71, 1, 18176, 65024, 2048, "tiiuae/falcon-7b-instruct",
       gated_mlp=False),
    _m("mistral-7b-v0.1", 32, 4096, 32, 8, 14336, 32000, 32768, "mistralai/Mistral-7B-v0.1"),
    _m("zephyr-7b-beta", 32, 4096, 32, 8, 14336, 32000, 32768, "HuggingFaceH4/zephyr-7b-beta"),
    _m("baichuan2-7b-chat", 32, 4096, 32, 32, 11008, 125696, 4096,
       "baichuan-inc/Baichuan2-7B-Chat"),
    # Qwen-7B's config says intermediate_size 22016; its MLP halves it (w1, w2: 11008 each)
    _m("qwen-7b-chat", 32, 4096, 32, 32, 11008, 151936, 8192, "Qwen/Qwen-7B-Chat"),
]}
_BY_LOWER = {alias.lower(): m for m in MODELS.values() for alias in (m.name, *m.aliases)}
_SUFFIX = re.compile(r"^(?P<model>.+?)[-_](?P<precision>int4|int8|fp16)(?:[-_]ov)?$", re.I)


def names() -> list[str]:
    return list(MODELS)


def get(name: str) -> LLMSpec:
    try:
        return _BY_LOWER[name.lower()]
    except KeyError:
        raise KeyError(f"no LLM named {name!r} in ovlab's LLM zoo; it has: "
                       f"{', '.join(MODELS)}") from None


def parse_dir_name(dirname: str) -> tuple[LLMSpec, str] | None:
    """``(spec, precision)`` for a folder name such as ``phi-3-mini-4k-instruct-int8-ov``
    (precision as Intel's tables write it: ``INT4-MIXED``, ``INT8-CW``, ``FP16``), else None."""
    m = _SUFFIX.match(dirname.strip())
    if m is None:
        return None
    spec = _BY_LOWER.get(m.group("model").lower())
    if spec is None:
        return None
    return spec, PRECISIONS[m.group("precision").lower()]


def weight_bits(spec: LLMSpec, precision: str) -> tuple[float, float]:
    """Bits per weight of (transformer blocks, embedding / output head) in a weight format.

    optimum-intel's defaults: INT4-MIXED compresses the blocks to 4 bits, asymmetric, in
    groups of 128 (one f16 scale and a 4-bit zero point per group: 4.16 bits) and keeps the
    embedding and the output head in INT8 per channel; INT8-CW is 8 bits with a scale per output
    channel; FP16 is 16 bits.
    """
    return {"INT4-MIXED": (4 + 20 / 128, 8.0), "INT8-CW": (8.0, 8.0),
            "FP16": (16.0, 16.0)}[precision]


def weight_bytes(spec: LLMSpec, precision: str) -> float:
    """Bytes of the weights on the device (embedding and untied head included)."""
    block_bits, emb_bits = weight_bits(spec, precision)
    heads = 1 if spec.tied_embeddings else 2
    return (spec.layer_params * block_bits + heads * spec.embedding_params * emb_bits) / 8


def decode_bytes(spec: LLMSpec, precision: str) -> float:
    """Weight bytes one decode step reads: every block, the output head, not the embedding
    table (a lookup reads one row)."""
    block_bits, emb_bits = weight_bits(spec, precision)
    return (spec.layer_params * block_bits + spec.embedding_params * emb_bits) / 8
