"""``ovlab genai export NAME DIR`` (issue 37, item 7): a virtual LLM's folder that scripts which
read the files can open; a marker, not weights, says which model it is."""

from __future__ import annotations

import json

import numpy as np

import ovlab.sim.genai as ov_genai
from ovlab.cli import main as cli_main
from ovlab.sim.runtime.tensor import Tensor


def test_export_writes_the_folder_and_pipelines_open_it(tmp_path, capsys):
    out = tmp_path / "my-llm"
    assert cli_main(["genai", "export", "Qwen2.5-0.5B-Instruct", str(out),
                     "--weight-format", "int8"]) == 0
    names = {p.name for p in out.iterdir()}
    assert {"openvino_model.xml", "openvino_model.bin", "openvino_tokenizer.xml",
            "openvino_detokenizer.xml", "config.json", "generation_config.json",
            "ovlab_model.json"} <= names
    config = json.loads((out / "config.json").read_text())
    assert config["max_position_embeddings"] == 32768
    gen = json.loads((out / "generation_config.json").read_text())
    pipe = ov_genai.LLMPipeline(str(out), "CPU")
    assert pipe._engine.llm.spec.name == "Qwen2.5-0.5B-Instruct"
    assert pipe._engine.llm.precision == "INT8-CW"
    assert pipe.get_tokenizer().get_eos_token_id() == gen["eos_token_id"]
    assert pipe.generate("Hi", max_new_tokens=8)


def test_an_ir_read_into_memory_opens_as_encrypted_model_causal_lm_does(tmp_path):
    out = tmp_path / "tl"
    ov_genai_export = __import__("ovlab.sim.genai.export", fromlist=["export"])
    ov_genai_export.export("TinyLlama-1.1B-Chat-v1.0-int4-ov", out)
    model = (out / "openvino_model.xml").read_text()
    weights = Tensor(np.frombuffer((out / "openvino_model.bin").read_bytes(), np.uint8))
    tok = ov_genai.Tokenizer((out / "openvino_tokenizer.xml").read_text(), weights,
                             (out / "openvino_detokenizer.xml").read_text(), weights)
    assert tok.vocabulary_name == "llama-spm"
    pipe = ov_genai.LLMPipeline(model, weights, tok, "CPU")
    assert pipe._engine.llm.spec.name == "TinyLlama-1.1B-Chat-v1.0"
    assert pipe.generate("Why is the sky blue?", max_new_tokens=12)
