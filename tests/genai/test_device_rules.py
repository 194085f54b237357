"""Which pipeline a device string selects and the rules each follows, as GenAI applies them
(genai@da1db864 llm/pipeline.cpp, llm/pipeline_stateful.cpp, utils.cpp, lm_encoding.cpp): the
NPU's static-shape stateful pipeline, the SDPA backend, AUTO, memory and shared bandwidth."""

from __future__ import annotations

import gc

import pytest

import ovlab
import ovlab.sim.genai as ov_genai
from ovlab.sim.genai import memory
from ovlab.sim.genai.npu_pipeline import DEFAULT_MAX_PROMPT_LEN, DEFAULT_MIN_RESPONSE_LEN

TINY = "tiny-llm-fp16-ov"
PHI = "phi-3-mini-4k-instruct-int4-ov"


def core():
    return ovlab.Core("core-ultra-7-165h", seed=0)


def ids(n: int):
    return ov_genai.Tokenizer(PHI).encode("hello " * n, max_length=n, truncation=True)


def run(pipe, n_prompt: int, new: int = 4):
    res = pipe.generate(ids(n_prompt), ov_genai.GenerationConfig(max_new_tokens=new,
                                                                 ignore_eos=True))
    return res, res.perf_metrics


def test_npu_selects_the_stateful_static_pipeline_with_genai_defaults():
    pipe = ov_genai.LLMPipeline(PHI, "NPU", core=core())
    eng = pipe._engine
    assert eng.kind.startswith("NPU stateful") and eng.one_at_a_time
    assert (eng.npu.max_prompt_len, eng.npu.min_response_len) == (1024, 128)
    assert (DEFAULT_MAX_PROMPT_LEN, DEFAULT_MIN_RESPONSE_LEN) == (1024, 128)
    cpu = ov_genai.LLMPipeline(PHI, "CPU", core=core())._engine
    assert cpu.kind == "continuous batching"
    cfg = cpu.scheduler.get_config()  # the latency-oriented config (utils.cpp)
    assert cfg.enable_prefix_caching and cfg.max_num_batched_tokens >= 2**63 - 1


def test_npu_ttft_is_flat_below_the_prefill_chunk_and_steps_above_it():
    pipe = ov_genai.LLMPipeline(PHI, "NPU", core=core())
    ttft = [run(pipe, n)[1].get_ttft().mean for n in (16, 256, 1000)]
    assert ttft[0] == pytest.approx(ttft[1]) == pytest.approx(ttft[2])
    gpu = ov_genai.LLMPipeline(PHI, "GPU", core=core())
    g16, g1000 = (run(gpu, n)[1].get_ttft().mean for n in (16, 1000))
    assert g1000 > 5 * g16  # the GPU's prefill grows with the prompt
    long = ov_genai.LLMPipeline(PHI, "NPU", core=core(), MAX_PROMPT_LEN=4096)
    one, two, four = (run(long, n)[1].get_ttft().mean for n in (800, 1600, 4000))
    assert one < two < four  # one padded chunk of 1024 per started 1024 tokens
    static = ov_genai.LLMPipeline(PHI, "NPU", core=core(), MAX_PROMPT_LEN=4096,
                                  PREFILL_HINT="STATIC")
    assert run(static, 100)[1].get_ttft().mean > 2 * one  # padded to MAX_PROMPT_LEN


def test_npu_decode_is_slower_than_gpu_and_flat_in_prompt_length():
    npu = ov_genai.LLMPipeline(PHI, "NPU", core=core())
    gpu = ov_genai.LLMPipeline(PHI, "GPU", core=core())
    t16, t900 = (run(npu, n, 8)[1].get_tpot().mean for n in (16, 900))
    assert t16 == pytest.approx(t900)  # the static KV buffer is read whole every token
    assert t16 > run(gpu, 16, 8)[1].get_tpot().mean


def test_npu_prompt_limit_batch_and_decoding_errors_are_genais():
    pipe = ov_genai.LLMPipeline(PHI, "NPU", core=core())
    with pytest.raises(RuntimeError, match=r"may only process prompts or hold chat history up "
                                           r"to 1024 tokens\. 1200 is passed\.\n Set the "
                                           r"\"MAX_PROMPT_LEN\""):
        run(pipe, 1200)
    with pytest.raises(RuntimeError, match="only batch size equal to 1 is supported for NPU"):
        pipe.generate(["one", "two"], max_new_tokens=2)
    with pytest.raises(RuntimeError, match="cannot be negative"):
        ov_genai.LLMPipeline(PHI, "NPU", core=core(), MIN_RESPONSE_LEN=-1)
    with pytest.raises(RuntimeError, match="Option 'scheduler_config' is not supported"):
        ov_genai.LLMPipeline(PHI, "NPU", core=core(), scheduler_config=ov_genai.SchedulerConfig())
    with pytest.raises(RuntimeError, match="static shapes"):
        ov_genai.ContinuousBatchingPipeline(PHI, ov_genai.SchedulerConfig(), "NPU", core=core())
    assert run(pipe, 16)[0].tokens  # still serves


def test_npu_generation_ends_when_the_static_kv_buffer_is_full():
    pipe = ov_genai.LLMPipeline(PHI, "NPU", core=core(), MAX_PROMPT_LEN=64, MIN_RESPONSE_LEN=16)
    res, _ = run(pipe, 40, new=2000)
    prompt = res.perf_metrics.get_num_input_tokens()
    assert prompt + len(res.tokens[0]) - 1 == 64 + 16 - 1


def test_npu_tiny_model_text_matches_cpu():
    """Static shapes change the time, not the numbers."""
    cfg = ov_genai.GenerationConfig(max_new_tokens=12)
    npu = ov_genai.LLMPipeline(TINY, "NPU", core=core()).generate("What does the NPU do?", cfg)
    cpu = ov_genai.LLMPipeline(TINY, "CPU", core=core()).generate("What does the NPU do?", cfg)
    assert npu == cpu


def test_npu_compile_takes_seconds_and_cache_dir_makes_the_second_load_fast(tmp_path):
    first = ov_genai.LLMPipeline(PHI, "NPU", core=core(), CACHE_DIR=str(tmp_path))
    second = ov_genai.LLMPipeline(PHI, "NPU", core=core(), CACHE_DIR=str(tmp_path))
    assert first._engine.loaded_from == "compile" and second._engine.loaded_from == "cache"
    assert first._load_time_ms > 5000 and second._load_time_ms < first._load_time_ms / 4
    assert len(list(tmp_path.glob("*.blob"))) == 1
    other = ov_genai.LLMPipeline(PHI, "NPU", core=core(), CACHE_DIR=str(tmp_path),
                                 MAX_PROMPT_LEN=2048)  # another static shape: another blob
    assert other._engine.loaded_from == "compile" and len(list(tmp_path.glob("*.blob"))) == 2


def test_npu_export_and_import_blob(tmp_path):
    blob = tmp_path / "phi.blob"
    ov_genai.LLMPipeline(PHI, "NPU", core=core(), EXPORT_BLOB=True, BLOB_PATH=str(blob),
                         MAX_PROMPT_LEN=512)
    pipe = ov_genai.LLMPipeline(PHI, "NPU", core=core(), BLOB_PATH=str(blob))
    assert pipe._engine.loaded_from == "blob" and pipe._engine.npu.max_prompt_len == 512
    with pytest.raises(RuntimeError, match="Blob file is not found at"):
        ov_genai.LLMPipeline(PHI, "NPU", core=core(), BLOB_PATH=str(tmp_path / "none.blob"))
    with pytest.raises(RuntimeError, match="Please provide a full path to blob file"):
        ov_genai.LLMPipeline(PHI, "NPU", core=core(), EXPORT_BLOB=True,
                             BLOB_PATH=str(tmp_path / "x.bin"))


def test_sdpa_backend_selects_the_stateful_pipeline_and_conflicts_with_pa_keys():
    pipe = ov_genai.LLMPipeline(TINY, "GPU", core=core(), ATTENTION_BACKEND="SDPA")
    assert pipe._engine.kind == "stateful SDPA"
    cfg = ov_genai.GenerationConfig(max_new_tokens=10)
    cb = ov_genai.LLMPipeline(TINY, "GPU", core=core())
    assert pipe.generate(["What is it?", "Tell me"], cfg).texts == \
        cb.generate(["What is it?", "Tell me"], cfg).texts
    assert not pipe._engine.scheduler.get_config().enable_prefix_caching
    with pytest.raises(RuntimeError, match="User properties are conflicting"):
        ov_genai.LLMPipeline(TINY, "GPU", core=core(), ATTENTION_BACKEND="SDPA",
                             scheduler_config=ov_genai.SchedulerConfig())
    with pytest.raises(RuntimeError, match="Attention backend must be either 'PA' or 'SDPA'"):
        ov_genai.LLMPipeline(TINY, "GPU", core=core(), ATTENTION_BACKEND="FLASH")


def test_auto_resolves_as_auto_does_for_a_dynamic_model():
    assert ov_genai.LLMPipeline(TINY, "AUTO", core=core()).device == "GPU"
    assert ov_genai.LLMPipeline(TINY, "AUTO:NPU,CPU", core=core()).device == "CPU"
    assert ov_genai.LLMPipeline(TINY, "AUTO:-GPU", core=core()).device == "CPU"
    assert ov_genai.LLMPipeline(TINY, "AUTO:CPU,GPU", core=core()).device == "CPU"
    with pytest.raises(RuntimeError, match="static shapes"):
        ov_genai.LLMPipeline(TINY, "AUTO:NPU", core=core())


def test_memory_model_and_kv_must_fit_and_the_package_shares_system_memory():
    c = core()  # 32 GB of system memory; the iGPU and NPU may each use 16 GB of it
    with pytest.raises(RuntimeError, match=r"\[GPU\] Exceeded max size of memory allocation"):
        ov_genai.LLMPipeline("gemma-7b-it-fp16-ov", "GPU", core=c)
    a = ov_genai.LLMPipeline("qwen-7b-chat-fp16-ov", "GPU", core=c)  # 15.4 GB on the iGPU
    b = ov_genai.LLMPipeline("qwen-7b-chat-fp16-ov", "CPU", core=c)  # and 15.4 on the CPU
    assert memory.held_bytes(c, "GPU.0") > 15e9 and memory.held_bytes(c, "CPU") > 15e9
    with pytest.raises(RuntimeError, match="bad_alloc"):  # the package's memory is used up
        ov_genai.LLMPipeline("qwen-7b-chat-fp16-ov", "NPU", core=c)
    del a
    gc.collect()  # the engine holds reference cycles (scheduler callbacks)
    ov_genai.LLMPipeline("qwen-7b-chat-fp16-ov", "GPU", core=c)  # a dropped pipeline frees it
    assert b
    with pytest.raises(RuntimeError, match="larger than available memory"):
        sched = ov_genai.SchedulerConfig()
        sched.cache_size = 20
        ov_genai.ContinuousBatchingPipeline(PHI, sched, "GPU", core=core())


def test_bandwidth_is_shared_by_the_package_but_a_lone_step_is_unchanged():
    from ovlab.sim.genai.timing import Chunk

    alone = run(ov_genai.LLMPipeline(PHI, "GPU", core=core()), 64, 16)[1].get_tpot().mean
    c = core()
    cpu = ov_genai.LLMPipeline(PHI, "CPU", core=c)
    gpu = ov_genai.LLMPipeline(PHI, "GPU", core=c)
    assert run(gpu, 64, 16)[1].get_tpot().mean == pytest.approx(alone)  # CPU idle: unchanged
    assert c._device_share("GPU.0").pool is c._device_share("CPU").pool is not None
    assert c._device_share("NPU").pool is c._device_share("CPU").pool
    # one decode step on each device at the same moment, with the demands the engine gives them
    ends = {}
    for name, pipe in (("CPU", cpu), ("GPU.0", gpu)):
        seconds, mem = pipe._engine.step_seconds([Chunk(1, 64)])
        assert 0.5 < mem / seconds <= 1.0  # decode is bound by memory
        ends[name] = (seconds, None)
        c._device_share(name).start(seconds, 1.0, lambda n=name: ends.__setitem__(
            n, (ends[n][0], c.clock.now)), memory=mem / seconds)
    t0 = c.clock.now
    c.clock.run_until(c.clock.env.timeout(10.0), "two steps")
    for seconds, end in ends.values():
        assert end - t0 > 1.3 * seconds  # each slowed by the other's memory traffic


def test_cache_dir_makes_a_second_continuous_batching_load_fast(tmp_path):
    first = ov_genai.LLMPipeline(PHI, "GPU", core=core(), CACHE_DIR=str(tmp_path))
    second = ov_genai.LLMPipeline(PHI, "GPU", core=core(), CACHE_DIR=str(tmp_path))
    assert (first._engine.loaded_from, second._engine.loaded_from) == ("compile", "cache")
    assert second._load_time_ms < first._load_time_ms
    c = core()
    c.set_property({"CACHE_DIR": str(tmp_path)})  # the Core's CACHE_DIR works too
    assert ov_genai.LLMPipeline(PHI, "GPU", core=c)._engine.loaded_from == "cache"
    assert ov_genai.LLMPipeline(PHI, "CPU", core=c)._engine.loaded_from == "compile"


def test_npu_chat_rereads_the_whole_history_and_refuses_it_past_max_prompt_len():
    """The NPU keeps no chat KV between turns (m_use_full_chat_history): each turn prefills the
    whole history, which must fit MAX_PROMPT_LEN."""
    pipe = ov_genai.LLMPipeline(TINY, "NPU", core=core(), MAX_PROMPT_LEN=64)
    pipe.start_chat()
    cfg = ov_genai.GenerationConfig(max_new_tokens=6)
    assert pipe.generate("What does the NPU do?", cfg)
    steps = [r.as_dict() for r in pipe.core.trace.scheduler_steps]
    first_prompt = steps[0]["num_prompt_tokens"]
    pipe.generate("And the GPU?", cfg)
    steps = [r.as_dict() for r in pipe.core.trace.scheduler_steps]
    prompts = [s["num_prompt_tokens"] for s in steps if s["num_prompt_tokens"]]
    assert prompts[-1] > first_prompt  # the second turn prefilled the first one again
    with pytest.raises(RuntimeError, match="hold chat history up to 64 tokens"):
        for _ in range(10):
            pipe.generate("Tell me more about the KV cache and the scheduler.", cfg)


def test_pipe_device_names_the_device_as_the_core_lists_it():
    """``pipe.device`` is ovlab's (the wheel's LLMPipeline has no such attribute: GenAI keeps
    its device to itself); it reads as ``core.available_devices`` lists the device: ``GPU`` on
    the 165H, whose one iGPU OpenVINO lists without an index, ``GPU.1`` beside a second GPU."""
    ai_pc = core()
    assert ai_pc.available_devices == ["CPU", "GPU", "NPU"]
    for device, listed in [("GPU", "GPU"), ("GPU.0", "GPU"), ("AUTO", "GPU"), ("CPU", "CPU"),
                           ("NPU", "NPU")]:
        pipe = ov_genai.LLMPipeline(TINY, device, core=ai_pc)
        assert pipe.device == listed and pipe.device in ai_pc.available_devices, device
    two = ovlab.Core("workstation", seed=0)
    assert "GPU.1" in two.available_devices
    assert ov_genai.LLMPipeline(TINY, "GPU.1", core=two).device == "GPU.1"
    assert ov_genai.LLMPipeline(TINY, "GPU", core=two).device == "GPU.0"
