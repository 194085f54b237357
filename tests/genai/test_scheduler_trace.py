"""What each scheduler step leaves for ``core.trace``, and the dynamic growth of the KV cache."""

from __future__ import annotations

import pytest

from ovlab.sim.genai.continuous_batching import (
    BlockManager,
    CacheOrchestrator,
    CacheType,
    KVCacheManager,
    Scheduler,
    SequenceGroup,
    SequenceStatus,
)
from ovlab.sim.genai.continuous_batching.sequence_group import SamplingParams
from ovlab.sim.genai.scheduler_config import SchedulerConfig
from ovlab.sim.trace import SchedulerStepRecord, Trace


def _scheduler(num_kv_blocks=6, block_size=4, device="CPU", available_gpu_memory=None,
               **fields) -> tuple[Scheduler, CacheOrchestrator]:
    c = SchedulerConfig()
    c.num_kv_blocks = num_kv_blocks
    for k, v in fields.items():
        setattr(c, k, v)
    o = CacheOrchestrator()
    o.register_cache_type(CacheType.KV_CACHE, KVCacheManager(2, 2, 8, device=device,
                                                             block_size=block_size),
                          BlockManager(num_kv_blocks, c.enable_prefix_caching, block_size))
    return Scheduler(o, c, available_gpu_memory=available_gpu_memory), o


def _step(scheduler, requests, step, trace=None):
    out = scheduler.schedule(requests)
    record = out.step_record(step, time=0.5 * step, device="GPU.0", model="tiny")
    if trace is not None:
        trace.scheduler_step(record)
    for g in requests:
        if g.is_scheduled():
            if g.requires_sampling():
                for seq in g.get_running_sequences():
                    seq.append_token(1, -0.1)
            g.finish_iteration()
    return record


def test_step_records_phases_tokens_blocks_and_preemption():
    """general_test's scenario in vLLM mode, as the trace sees it."""
    scheduler, _ = _scheduler(max_num_batched_tokens=32, dynamic_split_fuse=False, max_num_seqs=5)
    requests = [SequenceGroup(i, list(range(8)), SamplingParams(max_new_tokens=30)) for i in range(3)]
    trace = Trace()
    r0 = _step(scheduler, requests, 0, trace)
    assert (r0.phase, r0.scheduled_request_ids, r0.num_scheduled_tokens) == ("prompt", [0, 1, 2], 24)
    assert (r0.num_prompt_tokens, r0.num_generate_tokens, r0.num_scheduled_sequences) == (24, 0, 3)
    assert (r0.kv_blocks_used, r0.kv_blocks_total, r0.cache_usage) == (6, 6, 100.0)
    assert r0.preempted_request_ids == [] and r0.num_waiting == 0
    r1 = _step(scheduler, requests, 1, trace)
    # the third request is preempted by recompute so that the first two can generate
    assert (r1.phase, r1.scheduled_request_ids, r1.num_scheduled_tokens) == ("generate", [0, 1], 2)
    assert r1.preempted_request_ids == [2] and r1.num_waiting == 1
    assert (r1.kv_blocks_used, r1.cache_usage) == (6, 100.0)
    assert r1.cache_size_in_bytes == 6 * (2 * 2 * 2 * 4 * 8)
    assert (r1.time, r1.device, r1.model, r1.step) == (0.5, "GPU.0", "tiny", 1)
    assert list(trace.scheduler_steps) == [r0, r1]
    frame = trace.scheduler_steps_frame()
    assert list(frame["phase"]) == ["prompt", "generate"]
    assert list(frame["num_scheduled_tokens"]) == [24, 2]
    assert isinstance(r1, SchedulerStepRecord) and r1.as_dict()["preempted_request_ids"] == [2]


def test_split_fuse_steps_mix_prompt_chunks_and_generated_tokens():
    scheduler, _ = _scheduler(num_kv_blocks=20, max_num_batched_tokens=8, dynamic_split_fuse=True)
    a = SequenceGroup(0, list(range(4)), SamplingParams(max_new_tokens=5))
    b = SequenceGroup(1, list(range(12)), SamplingParams(max_new_tokens=5))
    r0 = _step(scheduler, [a, b], 0)
    assert (r0.phase, r0.num_prompt_tokens, r0.num_generate_tokens) == ("prompt", 8, 0)
    r1 = _step(scheduler, [a, b], 1)
    # a generates one token, b's prompt gets the remaining 7 of the budget
    assert (r1.phase, r1.num_generate_tokens, r1.num_prompt_tokens) == ("mixed", 1, 7)
    assert r1.num_scheduled_tokens == 8


def test_idle_step_and_streamed_records(tmp_path):
    scheduler, _ = _scheduler()
    trace = Trace()
    stream = trace.stream_to(tmp_path / "steps.csv")
    record = _step(scheduler, [], 0, trace)
    assert record.phase == "idle" and record.scheduled_request_ids == []
    trace.stop_stream()
    assert stream.events_written == 1
    text = (tmp_path / "steps.events.csv").read_text()
    assert "scheduler_step" in text
    trace.clear()
    assert len(trace.scheduler_steps) == 0


def test_dynamic_cache_starts_at_twice_the_prompt_and_grows_by_256_tokens():
    """cache_size = num_kv_blocks = 0: prompt x 2 (capped at prompt + max_new_tokens), then
    256-token steps (scheduler.hpp ``_initialize_cache``, ``_try_increase_cache``)."""
    scheduler, o = _scheduler(num_kv_blocks=0, max_num_batched_tokens=64)
    bm = o.get_block_manager(CacheType.KV_CACHE)
    g = SequenceGroup(0, list(range(10)), SamplingParams(max_new_tokens=1000))
    scheduler.schedule([g])
    assert bm.get_total_block_count() == 5  # 20 tokens in 4-token blocks
    g.finish_iteration()
    g.get_running_sequences()[0].append_token(1, 0.0)
    for _ in range(10):  # fill the 20 reserved tokens
        scheduler.schedule([g])
        g.get_running_sequences()[0].append_token(1, 0.0)
        g.finish_iteration()
    assert bm.get_total_block_count() == 5
    for _ in range(1):  # the 21st token
        scheduler.schedule([g])
        g.get_running_sequences()[0].append_token(1, 0.0)
        g.finish_iteration()
    assert bm.get_total_block_count() == 5 + 64  # one growth: 256 tokens = 64 blocks
    cm = o.get_cache_manager(CacheType.KV_CACHE)
    assert cm.get_num_allocated_blocks() == 69 and cm.num_reallocations == 2
    assert cm.bytes_copied_on_growth == 5 * cm.get_block_size_in_bytes()
    scheduler.free_sequence(g[0].get_id())


def test_dynamic_growth_on_gpu_is_bounded_by_free_device_memory():
    """On a GPU the cache grows by 256 tokens if the device has the memory, else by what fits,
    else not at all: then the request is dropped out of memory."""
    block_bytes = 2 * 2 * 2 * 4 * 8
    free = {"bytes": 3 * block_bytes}
    scheduler, o = _scheduler(num_kv_blocks=0, device="GPU.0", max_num_batched_tokens=64,
                              available_gpu_memory=lambda device, tensors: free["bytes"])
    bm = o.get_block_manager(CacheType.KV_CACHE)
    g = SequenceGroup(0, list(range(8)), SamplingParams(max_new_tokens=100))
    scheduler.schedule([g])
    g.finish_iteration()
    assert bm.get_total_block_count() == 4
    for _ in range(9):
        g.get_running_sequences()[0].append_token(1, 0.0)
        scheduler.schedule([g])
        g.finish_iteration()
    assert bm.get_total_block_count() == 4 + 3  # grew by the 3 blocks that fit
    free["bytes"] = 0
    for _ in range(11):  # tokens 18 to 28 fit the 7 blocks
        g.get_running_sequences()[0].append_token(1, 0.0)
        out = scheduler.schedule([g])
        g.finish_iteration()
    g.get_running_sequences()[0].append_token(1, 0.0)
    out = scheduler.schedule([g])
    assert out.m_total_num_scheduled_tokens == 0  # no memory left to grow
    assert bm.get_total_block_count() == 7


def test_finished_sequences_return_their_blocks_and_prefix_blocks_stay_reusable():
    scheduler, o = _scheduler(num_kv_blocks=8, enable_prefix_caching=True, max_num_batched_tokens=64)
    bm = o.get_block_manager(CacheType.KV_CACHE)
    g = SequenceGroup(0, list(range(9)), SamplingParams(max_new_tokens=2))
    scheduler.schedule([g])
    g.finish_iteration()
    assert bm.num_free_blocks() == 8 - 3
    seq = g.get_running_sequences()[0]
    seq.set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(seq.get_id())
    assert bm.num_free_blocks() == 8  # free, or overwritable for a later prefix
    again = SequenceGroup(1, list(range(9)), SamplingParams(max_new_tokens=2))
    scheduler.restore_cached_blocks(again)
    assert again.get_num_processed_tokens() == 8  # all but the last prompt token
    out = scheduler.schedule([again])
    assert out.m_total_num_scheduled_tokens == 1


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(RuntimeError, match="Prompt length cannot be 0"):
        SequenceGroup(0, [], SamplingParams())
    scheduler, _ = _scheduler(max_num_batched_tokens=8, dynamic_split_fuse=False, max_num_seqs=4)
    with pytest.raises(RuntimeError, match=r"Sequence length \(9\) is longer than max number"):
        scheduler.schedule([SequenceGroup(0, list(range(9)), SamplingParams())])
    scheduler, _ = _scheduler(max_num_batched_tokens=4, dynamic_split_fuse=False, max_num_seqs=8)
    with pytest.raises(RuntimeError, match="must be greater or equal to max num sequences"):
        scheduler.schedule([SequenceGroup(0, [1], SamplingParams())])
