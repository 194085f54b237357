"""Write ovlab's tiny LLM as an OpenVINO IR that the real ``openvino_genai`` runs.

    python tools/export_tiny_llm_ir.py [out_dir]   (default: artifacts/tiny-llm-ir, git-ignored)

Built with the real ``openvino`` Python API from ``ovlab/sim/genai/data/tiny_llm.npz``, in the layout
``optimum-cli export openvino`` gives a stateful Llama: inputs ``input_ids``, ``attention_mask``,
``position_ids``, ``beam_idx``; per layer the past keys and values as ``ReadValue`` ->
``Gather(beam_idx)`` -> ``Concat`` -> ``ScaledDotProductAttention`` (with a mask input, which
GenAI's ``SDPAToPagedAttention`` pattern requires) and ``Assign``; output ``logits``. GenAI's
continuous-batching pipeline turns it into a paged-attention model, as it does an optimum export.
No tokenizer IR is written: the comparison feeds token ids (``ov.Tensor``) and reads token ids.
With ``detokenizer=True`` (``--detokenizer``) an ``openvino_detokenizer.xml`` is written too (built
with ``openvino_tokenizers``' pipeline steps: the course BPE's token bytes in a ``VocabDecoder``):
GenAI reads the vocabulary from it, which structured output needs (xgrammar masks the tokens).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ovlab.sim.genai.lora import node_name  # noqa: E402
from ovlab.sim.genai.tiny import load_weights  # noqa: E402

# the tiny model's weight keys as the Llama modules optimum names (LoRA adapters address these)
MODULES = {"wq": "self_attn.q_proj", "wk": "self_attn.k_proj", "wv": "self_attn.v_proj",
           "wo": "self_attn.o_proj", "w_gate": "mlp.gate_proj", "w_up": "mlp.up_proj",
           "w_down": "mlp.down_proj"}

DEFAULT_OUT = ROOT / "artifacts" / "tiny-llm-ir"


def write_detokenizer(out: Path) -> Path:
    """``openvino_detokenizer.xml``: the course BPE's tokens (raw bytes; the special ones
    skipped), as GenAI's ``read_vocab_from_detokenizer_model`` reads a vocabulary."""
    import openvino as ov
    from openvino_tokenizers.constants import UTF8ReplaceMode
    from openvino_tokenizers.tokenizer_pipeline import (
        FuseStep,
        TokenizerPipeline,
        UTF8ValidateStep,
        VocabDecoderStep,
    )

    from ovlab.sim.genai.bpe import SPECIALS
    from ovlab.sim.genai.tokenizer import _shared_bpe

    pipeline = TokenizerPipeline()
    pipeline.add_steps([VocabDecoderStep(vocab=list(_shared_bpe().pieces),
                                         skip_tokens=list(range(len(SPECIALS)))),
                        FuseStep(), UTF8ValidateStep(mode=UTF8ReplaceMode.REPLACE)])
    model = pipeline.get_detokenizer_ov_subgraph()
    ppp = ov.preprocess.PrePostProcessor(model)  # GenAI hands the detokenizer int64 token ids
    ppp.input().tensor().set_element_type(ov.Type.i64)
    path = out / "openvino_detokenizer.xml"
    ov.save_model(ppp.build(), path)
    return path


def export(out: Path = DEFAULT_OUT, detokenizer: bool = False) -> Path:
    import openvino as ov
    import openvino.opset13 as op
    from openvino import Type

    cfg, w = load_weights()
    heads, hd, d = cfg.heads, cfg.head_dim, cfg.hidden

    def const(a):
        return op.constant(np.asarray(a, np.float32))

    def ints(a):
        return op.constant(np.asarray(a, np.int64))

    params = {}
    for name, shape, t in [("input_ids", [-1, -1], Type.i64), ("attention_mask", [-1, -1], Type.i64),
                           ("position_ids", [-1, -1], Type.i64), ("beam_idx", [-1], Type.i32)]:
        params[name] = op.parameter(shape, t, name=name)
        params[name].output(0).set_names({name})
    emb = const(w["tok_emb"])
    x = op.gather(emb, params["input_ids"], ints(0))

    def rms(x, g):
        ms = op.reduce_mean(op.multiply(x, x), ints([-1]), True)
        return op.multiply(op.divide(x, op.sqrt(op.add(ms, const(1e-5)))), const(g))

    half = hd // 2
    inv = (cfg.rope_theta ** (-np.arange(half, dtype=np.float64) / half)).astype(np.float32)
    ang = op.multiply(op.unsqueeze(op.convert(params["position_ids"], Type.f32), ints([-1])), const(inv))
    cos, sin = (op.unsqueeze(f(ang), ints([1])) for f in (op.cos, op.sin))

    def rope(t):
        a, b = op.split(t, ints(-1), 2).outputs()
        return op.concat([op.subtract(op.multiply(a, cos), op.multiply(b, sin)),
                          op.add(op.multiply(a, sin), op.multiply(b, cos))], -1)

    def split_heads(t):
        return op.transpose(op.reshape(t, ints([0, 0, heads, hd]), True), ints([0, 2, 1, 3]))

    def linear(h, i: int, key: str):
        """``h @ W`` named as optimum names a linear layer's MatMul, so that GenAI's LoRA
        matching (a PEFT layer name contained in the MatMul's name) finds it."""
        mm = op.matmul(h, const(w[f"l{i}.{key}"]), False, False)
        mm.set_friendly_name(node_name(i, MODULES[key]))
        return mm

    batch = op.gather(op.shape_of(params["input_ids"]), ints([0]), ints(0))
    sinks = []
    for i in range(cfg.layers):
        h = rms(x, w[f"l{i}.ln1"])
        q = rope(split_heads(linear(h, i, "wq")))
        k = rope(split_heads(linear(h, i, "wk")))
        v = split_heads(linear(h, i, "wv"))
        cached = []
        for name, new in (("key", k), ("value", v)):
            info = ov.op.util.VariableInfo()
            info.data_shape = ov.PartialShape([-1, heads, -1, hd])
            info.data_type = Type.f32
            info.variable_id = f"past_key_values.{i}.{name}present.{i}.{name}"
            variable = ov.op.util.Variable(info)
            init = op.broadcast(const(0.0), op.concat([batch, ints([heads, 0, hd])], 0))
            past = op.gather(op.read_value(init, variable), params["beam_idx"], ints(0))
            cat = op.concat([past, new], 2)
            sinks.append(op.assign(cat, variable))
            cached.append(cat)
        o = op.scaled_dot_product_attention(q, cached[0], cached[1], const(np.zeros((1, 1, 1, 1))),
                                            causal=True)
        o = op.reshape(op.transpose(o, ints([0, 2, 1, 3])), ints([0, 0, d]), True)
        x = op.add(x, linear(o, i, "wo"))
        h = rms(x, w[f"l{i}.ln2"])
        gate = linear(h, i, "w_gate")
        up = linear(h, i, "w_up")
        x = op.add(x, linear(op.multiply(op.swish(gate), up), i, "w_down"))
    logits = op.matmul(rms(x, w["ln_f"]), emb, False, True)
    logits.output(0).set_names({"logits"})
    model = ov.Model([op.result(logits)], sinks, list(params.values()), "tiny-llm")
    out.mkdir(parents=True, exist_ok=True)
    ov.save_model(model, out / "openvino_model.xml", compress_to_fp16=False)
    special = {"eos_token_id": 2, "bos_token_id": 1, "pad_token_id": 0}
    (out / "config.json").write_text(json.dumps({
        "model_type": "llama", "vocab_size": cfg.vocab, "hidden_size": d,
        "num_attention_heads": heads, "num_key_value_heads": heads,
        "num_hidden_layers": cfg.layers, "max_position_embeddings": cfg.context, **special}))
    (out / "generation_config.json").write_text(json.dumps(special))
    if detokenizer:
        write_detokenizer(out)
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--detokenizer"]
    print(export(Path(args[0]) if args else DEFAULT_OUT, detokenizer="--detokenizer" in sys.argv))
