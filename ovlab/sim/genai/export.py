"""``ovlab genai export NAME DIR``: a model folder on disk for a virtual LLM.

Scripts that read a model folder's files themselves (GenAI's ``encrypted_model_causal_lm.py``
opens ``openvino_model.xml`` and its ``.bin``, and the tokenizer IRs) need the files. ovlab
writes the folder ``optimum-cli export openvino`` would, with the real model's ``config.json``
and ``generation_config.json`` (its shape, context and special tokens), and small IR files that
carry a marker instead of weights: the large models' weights are never made. ``ovlab_model.json``
and the marker in the IRs' ``<net name="ovlab:NAME:PRECISION">`` tell ovlab which virtual model a
folder, or an IR read into a string, is. The folder's name need not be a zoo name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..models import llm_zoo as zoo
from .markers import _SUFFIX, MARKER, marker_in_ir, marker_of, zoo_path  # noqa: F401


def _ir(name: str, precision: str, what: str) -> str:
    return (f'<?xml version="1.0"?>\n<net name="ovlab:{name}:{precision}" version="11">\n'
            f"\t<!-- ovlab: a virtual LLM's {what}; its weights are not materialized. "
            "ovlab reads this marker (python -m ovlab run). -->\n"
            "\t<layers/>\n\t<edges/>\n</net>\n")


def export(name: str, out_dir: Any, weight_format: str | None = None) -> Path:
    """Write the folder; ``name`` is a zoo model, with or without a weight suffix."""
    found = zoo.parse_dir_name(name)
    if found is None:
        spec = zoo.get(name)
        precision = {"int4": "INT4-MIXED", "int8": "INT8-CW", "fp16": "FP16"}[
            (weight_format or "int4").lower()]
    else:
        spec, precision = found
    from .tokenizer import Tokenizer

    tok = Tokenizer(f"{spec.name}-{_SUFFIX[precision]}-ov")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(json.dumps({"model": spec.name, "precision": precision,
                                          "vocabulary": tok.vocabulary_name}, indent=1) + "\n")
    for stem, what in (("openvino_model", "model"), ("openvino_tokenizer", "tokenizer"),
                       ("openvino_detokenizer", "detokenizer")):
        (out / f"{stem}.xml").write_text(_ir(spec.name, precision, what))
        (out / f"{stem}.bin").write_bytes(b"ovlab")
    (out / "config.json").write_text(json.dumps({
        "_name_or_path": spec.name, "hidden_size": spec.hidden, "num_hidden_layers": spec.layers,
        "num_attention_heads": spec.heads, "num_key_value_heads": spec.kv_heads,
        "intermediate_size": spec.intermediate, "vocab_size": spec.vocab,
        "max_position_embeddings": spec.context, "torch_dtype": "float16"}, indent=1) + "\n")
    (out / "generation_config.json").write_text(json.dumps({
        "bos_token_id": tok.get_bos_token_id(), "eos_token_id": tok.get_eos_token_id(),
        "pad_token_id": tok.get_pad_token_id()}, indent=1) + "\n")
    return out


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="ovlab genai export", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="a model of ovlab's LLM zoo, e.g. TinyLlama-1.1B-Chat-v1.0 "
                                     "or TinyLlama-1.1B-Chat-v1.0-int4-ov")
    parser.add_argument("dir", help="the folder to write")
    parser.add_argument("--weight-format", default=None, choices=["int4", "int8", "fp16"],
                        help="when NAME has no weight suffix (default int4)")
    args = parser.parse_args(argv)
    try:
        out = export(args.name, args.dir, args.weight_format)
    except (KeyError, ValueError) as err:
        print(f"[ ERROR ] {err}; zoo: {', '.join(zoo.names())}")
        return 1
    print(f"[ ovlab ] wrote {out} (a virtual LLM's folder: config, tokenizer IRs, marker)")
    return 0
