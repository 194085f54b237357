"""GenAI's C++ scheduler tests, re-derived for ovlab's port of the scheduler.

Each test is one ``TEST`` / ``TEST_P`` of openvino.genai@da1db864 ``tests/cpp/scheduler.cpp``
(``TestScheduler.<name>`` becomes ``test_<name>``), with the same scenario and the same
assertions: scheduled group ids, block tables and block indices, scheduled token counts, cache
usage, preemption results. The C++ file itself is not in this repository.

The C++ fixtures build a dummy compiled model to size the cache managers (``helper.cpp``:
``key_cache.N`` / ``value_cache.N`` of shape ``[?, 12, 64, 64]``, linear-attention
``conv_state_table.N`` / ``gated_delta_state_table.N`` of ``[?, 64, 64]``, in the CPU's KV cache
precision, u8); the helpers below build the same managers from those shapes.
"""

from __future__ import annotations

import pytest

from ovlab.genai.continuous_batching import (
    BlockManager,
    CacheOrchestrator,
    CacheType,
    KVCacheManager,
    LinearAttentionCacheManager,
    Output,
    Scheduler,
    SequenceGroup,
    SequenceStatus,
)
from ovlab.genai.continuous_batching.scheduler import KVPagedAttentionGlobalData
from ovlab.genai.continuous_batching.sequence_group import (
    get_beam_search_config,
    get_greedy_config,
)
from ovlab.genai.scheduler_config import (
    DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER,
    SchedulerConfig,
)

TEST_BLOCK_SIZE = 4
TEST_NUM_DECODER_LAYERS = 12
TEST_DEFAULT_CACHE_INTERVAL = TEST_BLOCK_SIZE * DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER
TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER = 16
TEST_CUSTOM_CACHE_INTERVAL = TEST_BLOCK_SIZE * TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER
U8 = 1  # CPU kv_cache_precision


# --- the C++ fixtures ---------------------------------------------------------------------
def dummy_kv_manager(num_layers: int = TEST_NUM_DECODER_LAYERS) -> KVCacheManager:
    """``KVCacheManager`` of ``get_dummy_model``: K and V ``[?, 12, 64, 64]`` u8 per layer."""
    return KVCacheManager(num_layers, 12, 64, device="CPU", element_size=U8, block_dim=64)


def dummy_la_manager(num_layers: int = 1) -> LinearAttentionCacheManager:
    """``LinearAttentionCacheManager`` of ``get_dummy_hybrid_model``: conv and gated-delta state
    tables ``[?, 64, 64]`` u8 per layer."""
    return LinearAttentionCacheManager(num_layers, [64 * 64 * U8, 64 * 64 * U8], device="CPU")


def config(**fields) -> SchedulerConfig:
    c = SchedulerConfig()
    for k, v in fields.items():
        setattr(c, k, v)
    return c


def get_test_cache_interval(scheduler_config: SchedulerConfig, kv_block_size: int = TEST_BLOCK_SIZE) -> int:
    return scheduler_config.get_cache_interval(kv_block_size)


def init_cache_orchestrator(scheduler_config: SchedulerConfig, block_size: int = TEST_BLOCK_SIZE,
                            num_layers: int = 1) -> CacheOrchestrator:
    o = CacheOrchestrator()
    o.register_cache_type(CacheType.KV_CACHE, dummy_kv_manager(),
                          BlockManager(scheduler_config.num_kv_blocks,
                                       scheduler_config.enable_prefix_caching, block_size, num_layers))
    return o


def init_hybrid_cache_orchestrator(scheduler_config: SchedulerConfig,
                                   kv_block_size: int = TEST_BLOCK_SIZE, kv_num_layers: int = 1,
                                   la_num_layers: int = 1) -> CacheOrchestrator:
    kv_bm = BlockManager(scheduler_config.num_kv_blocks, scheduler_config.enable_prefix_caching,
                         kv_block_size, kv_num_layers)
    if scheduler_config.enable_prefix_caching:
        la_bm = BlockManager(scheduler_config.num_linear_attention_blocks, True,
                             get_test_cache_interval(scheduler_config, kv_block_size), 1, 0, True)
    else:
        num_la = (scheduler_config.num_linear_attention_blocks
                  if scheduler_config.num_linear_attention_blocks > 0
                  else (scheduler_config.max_num_seqs if scheduler_config.num_kv_blocks > 0 else 0))
        la_bm = BlockManager(num_la, False, 1, 1, 1)
    o = CacheOrchestrator()
    o.register_cache_type(CacheType.KV_CACHE, dummy_kv_manager(kv_num_layers), kv_bm)
    o.register_cache_type(CacheType.LINEAR_ATTENTION_CACHE, dummy_la_manager(la_num_layers), la_bm)
    return o


def init_linear_attention_cache_orchestrator(scheduler_config: SchedulerConfig,
                                             la_num_layers: int = 1) -> CacheOrchestrator:
    o = CacheOrchestrator()
    o.register_cache_type(CacheType.LINEAR_ATTENTION_CACHE, dummy_la_manager(la_num_layers),
                          BlockManager(scheduler_config.num_linear_attention_blocks, False, 1, 1, 1))
    return o


def create_hybrid_create_context(kv_num_layers: int = 1, la_num_layers: int = 1) -> dict:
    kv, la = dummy_kv_manager(kv_num_layers), dummy_la_manager(la_num_layers)
    return {"kv_block_size": kv.get_block_size(),
            "kv_block_size_in_bytes": kv.get_block_size_in_bytes(),
            "la_block_size_in_bytes": la.get_block_size_in_bytes(),
            "managers": lambda: (dummy_kv_manager(kv_num_layers), dummy_la_manager(la_num_layers))}


def clear_finished_sequences(requests: list[SequenceGroup]) -> None:
    requests[:] = [r for r in requests if not r.has_finished()]


def group(request_id: int, tokens, sampling=None) -> SequenceGroup:
    return SequenceGroup(request_id, list(tokens), sampling or get_greedy_config())


def free_all(scheduler: Scheduler, requests, only_with_table: bool = False) -> None:
    for req in requests:
        for seq in req.get_sequences():
            if not only_with_table or scheduler.has_block_table(seq.get_id()):
                scheduler.free_sequence(seq.get_id())


def table(out: Output, seq_id: int) -> list:
    """Layer 0 of a sequence's block table in a scheduler output."""
    return out.get_kv_block_tables(seq_id)[0]


# --- the cases ----------------------------------------------------------------------------
def test_adaptive_rkv_zero_size_is_not_marked_available():
    """TestScheduler.adaptive_rkv_zero_size_is_not_marked_available"""
    output = Output()
    seq_id = 42
    assert not output.has_adaptive_rkv_evictable_size(seq_id)
    assert output.get_adaptive_rkv_evictable_size(seq_id) == 0
    output.set_adaptive_rkv_evictable_size(seq_id, 0)
    assert not output.has_adaptive_rkv_evictable_size(seq_id)
    assert output.get_adaptive_rkv_evictable_size(seq_id) == 0
    output.set_adaptive_rkv_evictable_size(seq_id, 3)
    assert output.has_adaptive_rkv_evictable_size(seq_id)
    assert output.get_adaptive_rkv_evictable_size(seq_id) == 3
    output.set_adaptive_rkv_evictable_size(seq_id, 0)
    assert not output.has_adaptive_rkv_evictable_size(seq_id)
    assert output.get_adaptive_rkv_evictable_size(seq_id) == 0


def test_output_keeps_shared_kv_global_data_alive():
    """TestScheduler.output_keeps_shared_kv_global_data_alive"""
    output = Output()
    global_data = KVPagedAttentionGlobalData(xattention_block_size=17, xattention_stride=5,
                                             adaptive_rkv_start_size=3)
    output.set_kv_paged_attention_global_data(global_data)
    del global_data
    data = output.get_kv_paged_attention_global_data()
    assert data.xattention_block_size == 17
    assert data.xattention_stride == 5
    assert data.adaptive_rkv_start_size == 3


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_general_test(dynamic_split_fuse):
    """TestScheduler.general_test (its two configs as parameters)"""
    scheduler_config = config(max_num_batched_tokens=32, num_kv_blocks=6,
                              dynamic_split_fuse=dynamic_split_fuse, max_num_seqs=5)
    tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    sg1, sg2, sg3 = group(0, tokens), group(1, tokens), group(1, tokens)
    idx0, idx1, idx2 = sg1[0].get_id(), sg2[0].get_id(), sg3[0].get_id()
    requests = [sg1, sg2, sg3]

    # schedule 3 sequence groups that use 6 kv blocks
    scheduler = Scheduler(init_cache_orchestrator(scheduler_config), scheduler_config)
    out1 = scheduler.schedule(requests)
    assert out1.m_scheduled_sequence_groups_ids == [0, 1, 2]
    assert len(table(out1, idx0)) == 2
    assert len(table(out1, idx1)) == 2
    assert len(table(out1, idx2)) == 2
    # tokens.size() * 3 tokens scheduled on prompt phase
    assert out1.m_total_num_scheduled_tokens == len(tokens) * 3
    assert out1.is_prompt == (not scheduler_config.dynamic_split_fuse)
    for seq in requests:
        seq.finish_iteration()

    # all kv blocks are taken: sequence_group3 should be evicted
    out3 = scheduler.schedule(requests)
    for seq in requests:
        running = seq.get_running_sequences()
        running[0].append_token(16, 0.9)
        seq.finish_iteration()
    assert out3.m_scheduled_sequence_groups_ids == [0, 1]
    assert len(table(out3, idx0)) == 3
    assert len(table(out3, idx1)) == 3
    # 2 tokens on generate phase for "0" and "1"; "2" preempted
    assert out3.m_total_num_scheduled_tokens == 2
    assert not out3.is_prompt
    assert not scheduler.has_block_table(idx2)

    # finish first sequence
    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx0)
    clear_finished_sequences(requests)
    # KV blocks 0,1,5 are free now

    out4 = scheduler.schedule(requests)
    # sequence_group3 is fully scheduled
    assert len(table(out4, idx2)) == 2
    assert not table(out4, idx2)[0].is_free()
    assert table(out4, idx2)[0].get_index() == 0
    assert not table(out4, idx2)[1].is_free()
    assert table(out4, idx2)[1].get_index() == 1
    # requests[1] fully scheduled plus 1 slot for requests[0] for generate phase
    assert out4.m_total_num_scheduled_tokens == requests[1].get_context_len() + 1
    assert out4.is_prompt is False
    free_all(scheduler, requests)
