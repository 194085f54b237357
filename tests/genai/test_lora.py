"""LoRA adapters (issue 37 item 6): GenAI's Adapter / AdapterConfig, the shipped adapter on the
tiny model (its habit shows at alpha 1, alpha 0 is the base model), modes, and the cost of the
low-rank matmuls on a virtual model's TPOT."""

from __future__ import annotations

import numpy as np
import pytest
from safetensors.numpy import save_file

import ovlab
import ovlab.sim.genai as ov_genai
from ovlab.sim.genai import lora
from ovlab.sim.genai.tiny import DATA, TinyLLM
from ovlab.sim.models import llm_zoo

SHIPPED = DATA / "tiny_lora_lab.safetensors"
PHRASE = "Try it in the lab."
PROMPTS = ["What does the NPU do?", "Tell me about the KV cache.", "How does split fuse work?",
           "What is prefix caching?"]
Mode = ov_genai.AdapterConfig.Mode


@pytest.fixture(scope="module")
def adapter():
    return ov_genai.Adapter(str(SHIPPED))


def _pipe(adapter, mode=Mode.MODE_AUTO, model="tiny-llm-fp16-ov", device="CPU"):
    return ov_genai.LLMPipeline(model, device, adapters=ov_genai.AdapterConfig(adapter, mode),
                                core=ovlab.Core("core-ultra-7-165h", seed=0))


# --- reading adapters ------------------------------------------------------------------------------
def test_adapter_reads_peft_names_of_the_shipped_file(adapter):
    layers = adapter._tensors
    assert len(layers) == 14  # q, k, v, o, gate, up, down of both blocks
    w = layers["base_model.model.model.layers.0.self_attn.q_proj"]
    assert w.A.shape == (8, 64) and w.B.shape == (64, 8)
    assert layers["base_model.model.model.layers.1.mlp.down_proj"].A.shape == (8, 192)


def test_adapter_errors_are_genais(tmp_path):
    with pytest.raises(RuntimeError, match="LoRA adapter path does not exist: .*nope.safetensors"):
        ov_genai.Adapter(str(tmp_path / "nope.safetensors"))
    (tmp_path / "a.bin").write_bytes(b"junk")
    with pytest.raises(RuntimeError, match="Expected .safetensors file, got: .*a.bin"):
        ov_genai.Adapter(str(tmp_path / "a.bin"))
    (tmp_path / "junk.safetensors").write_bytes(b"junk")
    with pytest.raises(RuntimeError, match="Cannot parse safetensor as a Safetensors file format"):
        ov_genai.Adapter(str(tmp_path / "junk.safetensors"))
    save_file({"x.lora_A.weight": np.zeros((2, 2), np.float32)}, str(tmp_path / "a.safetensors"))
    with pytest.raises(RuntimeError, match="Either A, B or both matrices are missing in LoRA "
                                           "tensors for layer: x"):
        ov_genai.Adapter(str(tmp_path / "a.safetensors"))


def test_a_file_without_lora_tensors_loads_and_changes_nothing(tmp_path, capsys):
    """GenAI ignores tensors that match none of its LoRA patterns (no error): the adapter is
    empty, and the text is the base model's."""
    save_file({"foo.weight": np.ones((2, 2), np.float32)}, str(tmp_path / "none.safetensors"))
    empty = ov_genai.Adapter(str(tmp_path / "none.safetensors"))
    assert empty and empty._tensors == {}
    base = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "CPU").generate(PROMPTS[0], max_new_tokens=20)
    assert _pipe(empty).generate(PROMPTS[0], max_new_tokens=20) == base


def test_config_api_follows_the_wheel(adapter):
    other = ov_genai.Adapter(str(SHIPPED))
    cfg = ov_genai.AdapterConfig([(adapter, 0.5), other])
    assert cfg.get_adapters() == [adapter, other] and cfg.get_alpha(adapter) == 0.5
    cfg.set_alpha(other, 0.25).remove(adapter)
    assert cfg.get_adapters_and_alphas() == [(other, 0.25)]
    with pytest.raises(RuntimeError, match="alpha can be retrieved for previously registered"):
        cfg.get_alpha(adapter)
    gc = ov_genai.GenerationConfig()
    gc.adapters = cfg
    assert gc.copy().adapters.get_adapters()[0] is other  # adapters keep their identity


# --- the tiny model ------------------------------------------------------------------------------
def test_the_trained_habit_shows_at_alpha_1_and_not_without(adapter):
    pipe = _pipe(adapter)
    with_lora = [pipe.generate(p, max_new_tokens=60) for p in PROMPTS]
    without = [pipe.generate(p, max_new_tokens=60, adapters=ov_genai.AdapterConfig())
               for p in PROMPTS]
    assert all(PHRASE in t for t in with_lora), with_lora
    assert not any(PHRASE in t for t in without), without


def test_alpha_0_gives_the_base_text_and_alpha_switches_per_call(adapter):
    base_pipe = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "CPU")
    pipe = _pipe(adapter)
    for p in PROMPTS[:2]:
        base = base_pipe.generate(p, max_new_tokens=40)
        assert pipe.generate(p, max_new_tokens=40,
                             adapters=ov_genai.AdapterConfig(adapter, 0.0)) == base
        assert pipe.generate(p, max_new_tokens=40) != base  # back to the constructor's alpha 1


def test_the_phrase_gets_likelier_with_the_adapter(adapter):
    """Log-likelihood of the phrase after an answer, base model against adapted (alpha 1)."""
    tok = ov_genai.Tokenizer("tiny-llm-fp16-ov")
    prompt = tok.apply_chat_template([{"role": "user", "content": "What is the GPU?"}], True)
    head = tok.encode(prompt + "The GPU runs large batches fast.").input_ids.data[0].tolist()
    tail = tok.encode(prompt + "The GPU runs large batches fast. " + PHRASE).input_ids.data[0].tolist()
    assert tail[:len(head)] == head

    def loglik(model: TinyLLM) -> float:
        total = 0.0
        for n in range(len(head), len(tail)):
            cache = model.new_cache(16)
            logits = model.forward_chunk(cache, list(range(32)), tail[:n], 0).astype(np.float64)
            total += logits[tail[n]] - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
        return total

    base, adapted = TinyLLM(), TinyLLM()
    eng = type("E", (), {"model": adapted, "llm": type("L", (), {"spec": llm_zoo.get(
        "tiny-llm"), "precision": "FP16"})(), "cost": None})()
    lora.AdapterController(eng, ov_genai.AdapterConfig(adapter))
    assert loglik(adapted) > loglik(base) + 3.0  # e^3: 20x likelier at least


def test_fuse_mode_gives_the_dynamic_modes_text(adapter):
    dynamic = _pipe(adapter).generate(PROMPTS[1], max_new_tokens=60)
    fused = _pipe(adapter, Mode.MODE_FUSE).generate(PROMPTS[1], max_new_tokens=60)
    assert PHRASE in fused and fused == dynamic


def test_static_modes_refuse_a_change_and_the_mode_is_fixed(adapter):
    pipe = _pipe(adapter, Mode.MODE_STATIC)
    with pytest.raises(RuntimeError, match="Cannot change adapters and/or the alphas"):
        pipe.generate(PROMPTS[0], max_new_tokens=4, adapters=ov_genai.AdapterConfig(adapter, 0.5))
    assert pipe.generate(PROMPTS[0], max_new_tokens=4,
                         adapters=ov_genai.AdapterConfig(adapter, 1.0))  # unchanged: fine
    with pytest.raises(RuntimeError, match="AdapterConfig::mode cannot be changed"):
        _pipe(adapter).generate(PROMPTS[0], max_new_tokens=4,
                                adapters=ov_genai.AdapterConfig(adapter, Mode.MODE_DYNAMIC))


def test_a_pipeline_without_adapters_ignores_them_as_genai_does(adapter):
    pipe = ov_genai.LLMPipeline("tiny-llm-fp16-ov", "CPU")
    base = pipe.generate(PROMPTS[0], max_new_tokens=30)
    assert pipe.generate(PROMPTS[0], max_new_tokens=30,
                         adapters=ov_genai.AdapterConfig(adapter)) == base


# --- cost on a virtual model ------------------------------------------------------------------------
def _all_layers_adapter(path, layers: int, rank: int):
    """A rank-``rank`` adapter on every q, k, v, o, gate, up, down of ``layers`` blocks (f16);
    a virtual model computes no numbers, so its A and B are small placeholders of that rank."""
    t = {}
    for i in range(layers):
        for module in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                       "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"):
            name = f"base_model.model.model.layers.{i}.{module}"
            t[name + ".lora_A.weight"] = np.zeros((rank, 1), np.float16)
            t[name + ".lora_B.weight"] = np.zeros((1, rank), np.float16)
    save_file(t, str(path))
    return ov_genai.Adapter(str(path))


MODEL = "Llama-3.2-3B-Instruct-fp16-ov"


def _tpot(adapters=None, device="GPU", model=MODEL) -> tuple[float, float, object]:
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    kw = {} if adapters is None else {"adapters": adapters}
    pipe = ov_genai.LLMPipeline(model, device, core=core, **kw)
    res = pipe.generate(["What is the NPU?"], max_new_tokens=32, ignore_eos=True)
    return res.perf_metrics.get_tpot().mean, res.perf_metrics.get_load_time(), pipe


def test_dynamic_lora_adds_its_flops_and_bytes_to_tpot(tmp_path):
    spec = llm_zoo.get(MODEL.removesuffix("-fp16-ov"))
    rank = 64
    adapter = _all_layers_adapter(tmp_path / "r64.safetensors", spec.layers, rank)
    base, _, _ = _tpot()
    dyn, _, pipe = _tpot(ov_genai.AdapterConfig(adapter))
    ctl = pipe._engine.lora
    per = sum(rank * (n.d_in + n.d_out) for n in lora.model_nodes(spec))
    assert ctl.flops_per_token == 2 * per and ctl.bytes_per_step == 2 * per
    # a decode step runs 1 token: its extra time is the low-rank matmuls' FLOPs and bytes
    expect, _ = ctl.step_extra(1, pipe._engine.peak, pipe._engine.bandwidth)
    assert dyn > base
    assert dyn - base == pytest.approx(expect * 1e3, rel=0.05)
    # rank 64 on every matmul of a 3B model: a few % more bytes a step than the f16 weights
    assert 1.005 < dyn / base < 1.05


def test_fuse_mode_costs_nothing_per_token_but_a_fuse_step_at_load(tmp_path):
    spec = llm_zoo.get(MODEL.removesuffix("-fp16-ov"))
    adapter = _all_layers_adapter(tmp_path / "r64.safetensors", spec.layers, 64)
    base, base_load, _ = _tpot()
    fused, fused_load, _ = _tpot(ov_genai.AdapterConfig(adapter, Mode.MODE_FUSE))
    assert fused == pytest.approx(base, rel=1e-9)
    assert fused_load > base_load


def test_fuse_mode_refuses_compressed_weights(tmp_path):
    adapter = _all_layers_adapter(tmp_path / "r8.safetensors", 2, 8)
    with pytest.raises(RuntimeError, match="Use f32/f16/bf16 weights only if MODE_FUSE is used"):
        _tpot(ov_genai.AdapterConfig(adapter, Mode.MODE_FUSE), model="Llama-3.2-3B-Instruct-int4-ov")


def test_no_adapter_in_a_dynamic_mode_costs_nothing_but_static_rank_keeps_its_rank(tmp_path):
    adapter = _all_layers_adapter(tmp_path / "r8.safetensors", 28, 8)
    _, _, dyn = _tpot(ov_genai.AdapterConfig(adapter, Mode.MODE_DYNAMIC), device="CPU")
    dyn._engine.lora.apply(ov_genai.AdapterConfig())
    assert dyn._engine.lora.flops_per_token == 0
    _, _, fixed = _tpot(ov_genai.AdapterConfig(adapter, Mode.MODE_STATIC_RANK), device="CPU")
    before = fixed._engine.lora.flops_per_token
    fixed._engine.lora.apply(ov_genai.AdapterConfig())
    assert fixed._engine.lora.flops_per_token == before > 0


def test_errors_read_as_the_real_wheels(tmp_path):
    """The same inputs to the real openvino_genai.Adapter: ours raise the same type, with the
    real message's check and text (the real one adds its build path)."""
    real = pytest.importorskip("openvino_genai", reason="the real openvino-genai wheel is not installed")
    (tmp_path / "a.bin").write_bytes(b"junk")
    (tmp_path / "junk.safetensors").write_bytes(b"junk")
    save_file({"x.lora_A.weight": np.zeros((2, 2), np.float32)}, str(tmp_path / "a.safetensors"))
    for name in ("nope.safetensors", "a.bin", "junk.safetensors", "a.safetensors"):
        path = str(tmp_path / name)
        with pytest.raises(RuntimeError) as theirs:
            real.Adapter(path)
        with pytest.raises(RuntimeError) as ours:
            ov_genai.Adapter(path)
        real_check, real_text = str(theirs.value).split("\n")[0], str(theirs.value).split("\n")[1]
        our_check, our_text = str(ours.value).split("\n")[0], str(ours.value).split("\n")[1]
        assert real_check.split(" failed at ")[0] == our_check.split(" failed at ")[0]
        assert real_check.endswith(our_check.split(" failed at ")[1])  # src/cpp/src/lora/...:line
        assert our_text.startswith(real_text)


def test_adapters_where_ovlab_does_not_run_them_raise_clearly(adapter):
    with pytest.raises(NotImplementedError, match="LoRA adapters on the NPU"):
        ov_genai.LLMPipeline("tiny-llm-fp16-ov", "NPU", adapters=ov_genai.AdapterConfig(adapter))
    with pytest.raises(NotImplementedError, match="split over devices"):
        ov_genai.LLMPipeline("tiny-llm-fp16-ov", "HETERO:GPU.0,GPU.1",
                             adapters=ov_genai.AdapterConfig(adapter),
                             MODEL_DISTRIBUTION_POLICY="PIPELINE_PARALLEL",
                             core=ovlab.Core("multi-gpu", seed=0))
    with pytest.raises(NotImplementedError, match="with a draft model"):
        ov_genai.LLMPipeline("tiny-llm-fp16-ov", "CPU", adapters=ov_genai.AdapterConfig(adapter),
                             draft_model=ov_genai.draft_model("tiny-llm-fp16-ov", "CPU"))


def test_continuous_batching_pipeline_takes_adapters_in_its_properties(adapter):
    """ContinuousBatchingPipeline(path, scheduler_config, device, {"adapters": ...}); every
    request of one generate must carry the same adapters (GenAI's check)."""
    pipe = ov_genai.ContinuousBatchingPipeline("tiny-llm-fp16-ov", ov_genai.SchedulerConfig(), "CPU",
                                               {"adapters": ov_genai.AdapterConfig(adapter)})
    cfg = pipe.get_config()
    cfg.max_new_tokens = 60
    res = pipe.generate(PROMPTS[:2], [cfg, cfg])
    assert all(PHRASE in r.m_generation_ids[0] for r in res)
    off = cfg.copy()
    off.adapters = ov_genai.AdapterConfig()
    assert not any(PHRASE in r.m_generation_ids[0] for r in pipe.generate(PROMPTS[:2], [off, off]))
    with pytest.raises(RuntimeError, match="LoRA adapters value must be the same for all requests"):
        pipe.generate(PROMPTS[:2], [cfg, off])


def test_adapter_from_a_tensor_of_the_files_bytes(adapter):
    """Adapter(safetensor: ov.Tensor): the file read into memory first (GenAI's third overload)."""
    raw = np.frombuffer(SHIPPED.read_bytes(), np.uint8)
    from_tensor = ov_genai.Adapter(ovlab.Tensor(raw.copy()))
    assert sorted(from_tensor._tensors) == sorted(adapter._tensors)
    with pytest.raises(RuntimeError, match="Cannot parse safetensor"):
        ov_genai.Adapter(ovlab.Tensor(np.zeros(8, np.uint8)))
