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

from ovlab.sim.genai.continuous_batching import (
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
from ovlab.sim.genai.continuous_batching.scheduler import KVPagedAttentionGlobalData
from ovlab.sim.genai.continuous_batching.sequence_group import (
    get_beam_search_config,
    get_greedy_config,
)
from ovlab.sim.genai.scheduler_config import (
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


def _la_table(orchestrator, seq_id):
    return orchestrator.get_linear_attention_block_table(seq_id)


def test_hybrid_output_fills_linear_attention_block_table_in_prompt_and_generate():
    """TestScheduler.hybrid_output_fills_linear_attention_block_table_in_prompt_and_generate"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=8, num_linear_attention_blocks=8,
               dynamic_split_fuse=True, max_num_seqs=8)
    tokens = [0, 1, 2, 3]
    g1, g2 = group(0, tokens), group(1, tokens)
    s1, s2 = g1.get_running_sequences()[0].get_id(), g2.get_running_sequences()[0].get_id()
    requests = [g1, g2]
    o = init_hybrid_cache_orchestrator(c, TEST_BLOCK_SIZE, kv_num_layers=1, la_num_layers=3)
    scheduler = Scheduler(o, c)
    prompt_out = scheduler.schedule(requests)
    assert o.get_cache_manager(CacheType.LINEAR_ATTENTION_CACHE).get_num_layers() == 3
    assert o.get_cache_manager(CacheType.LINEAR_ATTENTION_CACHE).get_num_cache_tensors() == 6
    assert len(prompt_out.get_kv_block_tables(s1)) == 1
    assert len(prompt_out.get_kv_block_tables(s2)) == 1
    assert len(table(prompt_out, s1)) == 1
    assert len(table(prompt_out, s2)) == 1
    for sid in (s1, s2):
        assert prompt_out.has_linear_attention_paging_data(sid)
        pd = prompt_out.get_linear_attention_paging_data(sid)
        assert len(pd.block_indices) == 2
        assert pd.block_indices[0] == pd.block_indices[1]
        assert len(_la_table(o, sid)) == 1
    for req in requests:
        req.get_running_sequences()[0].append_token(42, 0.9)
        req.finish_iteration()
    gen_out = scheduler.schedule(requests)
    for sid in (s1, s2):
        assert gen_out.has_linear_attention_paging_data(sid)
        pd = gen_out.get_linear_attention_paging_data(sid)
        assert len(pd.block_indices) == 2
        assert pd.block_indices[0] == pd.block_indices[1]
        assert len(_la_table(o, sid)) == 1
    free_all(scheduler, requests)


def test_hybrid_non_prefix_linear_attention_returns_aliased_read_write_blocks():
    """TestScheduler.hybrid_non_prefix_linear_attention_returns_aliased_read_write_blocks"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=8, num_linear_attention_blocks=8,
               enable_prefix_caching=False, dynamic_split_fuse=False, max_num_seqs=8)
    g = group(0, [0, 1, 2, 3])
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    out = scheduler.schedule([g])
    assert out.has_linear_attention_paging_data(seq_id)
    pd = out.get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.cache_interval == 0
    assert pd.past_length == 0
    assert len(_la_table(o, seq_id)) == 1
    free_all(scheduler, [g])


def test_hybrid_non_prefix_linear_attention_uses_full_preemption_for_fixed_size_victim_state():
    """TestScheduler.hybrid_non_prefix_linear_attention_uses_full_preemption_for_fixed_size_victim_state"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=4, num_linear_attention_blocks=2,
               enable_prefix_caching=False, dynamic_split_fuse=False, max_num_seqs=8)
    g1, g2 = group(0, [0, 1, 2, 3]), group(1, [0, 1, 2, 3])
    s1, s2 = g1.get_running_sequences()[0].get_id(), g2.get_running_sequences()[0].get_id()
    requests = [g1, g2]
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    prompt_out = scheduler.schedule(requests)
    assert len(prompt_out.m_scheduled_sequence_groups_ids) == 2
    assert len(_la_table(o, s1)) == 1
    assert len(_la_table(o, s2)) == 1
    for req in requests:
        req.finish_iteration()
    for _ in range(TEST_BLOCK_SIZE):
        scheduler.schedule(requests)
        for req in requests:
            req.get_running_sequences()[0].append_token(42, 0.9)
            req.finish_iteration()
    gen_out = scheduler.schedule(requests)
    assert gen_out.m_scheduled_sequence_groups_ids == [0]
    assert not scheduler.has_block_table(s2)
    assert g2.get_num_processed_tokens() == 0
    scheduler.free_sequence(s1)


def test_hybrid_admission_when_la_pool_is_bottleneck():
    """TestScheduler.hybrid_admission_when_la_pool_is_bottleneck"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=8, num_linear_attention_blocks=1,
               dynamic_split_fuse=False, max_num_seqs=8)
    g1, g2 = group(0, [0, 1, 2, 3]), group(1, [0, 1, 2, 3])
    s1, s2 = g1.get_running_sequences()[0].get_id(), g2.get_running_sequences()[0].get_id()
    requests = [g1, g2]
    scheduler = Scheduler(init_hybrid_cache_orchestrator(c), c)
    out = scheduler.schedule(requests)
    assert len(out.m_scheduled_sequence_groups_ids) == 1
    assert out.has_linear_attention_paging_data(s1) or out.has_linear_attention_paging_data(s2)
    free_all(scheduler, requests)


def test_hybrid_initialize_cache_grows_fixed_size_by_total_concurrent_sequences():
    """TestScheduler.hybrid_initialize_cache_grows_fixed_size_by_total_concurrent_sequences"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               num_linear_attention_blocks=0, dynamic_split_fuse=True, max_num_seqs=8)
    requests = [group(0, [0, 1, 2, 3]), group(1, [0, 1, 2, 3])]
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 0
    scheduler.schedule(requests)
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 2
    free_all(scheduler, requests)


def test_initialize_cache_uses_sequence_aware_block_rounding():
    """TestScheduler.initialize_cache_uses_sequence_aware_block_rounding"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               dynamic_split_fuse=False, max_num_seqs=8)
    requests = [group(request_id, [request_id]) for request_id in range(4)]
    o = init_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    scheduler.schedule(requests)
    assert o.get_block_manager(CacheType.KV_CACHE).get_total_block_count() == len(requests)
    free_all(scheduler, requests)


def test_dynamic_alloc_reserves_full_capacity_for_later_larger_prompt():
    """TestScheduler.dynamic_alloc_reserves_full_capacity_for_later_larger_prompt"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               dynamic_split_fuse=True, max_num_seqs=8)
    o = init_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    small = group(0, [0, 1, 2, 3])
    scheduler.schedule([small])
    free_all(scheduler, [small])
    large_prompt_len = 600
    large = group(1, range(large_prompt_len))
    scheduler.schedule([large])
    blocks = o.get_block_manager(CacheType.KV_CACHE).get_total_block_count()
    assert blocks >= -(-large_prompt_len // TEST_BLOCK_SIZE)
    free_all(scheduler, [large])


def test_dynamic_alloc_reserves_capacity_for_new_prompt_on_top_of_running_sequence():
    """TestScheduler.dynamic_alloc_reserves_capacity_for_new_prompt_on_top_of_running_sequence"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               dynamic_split_fuse=True, max_num_seqs=8)
    o = init_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    small_tokens = [0, 1, 2, 3]
    small = group(0, small_tokens)
    scheduler.schedule([small])
    small.get_running_sequences()[0].append_token(42, 0.9)
    small.finish_iteration()
    assert small.can_generate_tokens()
    large_prompt_len = 600
    large = group(1, range(large_prompt_len))
    both = [small, large]
    scheduler.schedule(both)
    max_new = get_greedy_config().max_new_tokens

    def target_blocks(prompt_len):
        return -(-min(prompt_len * 2, prompt_len + max_new) // TEST_BLOCK_SIZE)

    blocks = o.get_block_manager(CacheType.KV_CACHE).get_total_block_count()
    assert blocks >= target_blocks(len(small_tokens)) + target_blocks(large_prompt_len)
    free_all(scheduler, both)


def test_linear_attention_only_initializes_fixed_size_capacity():
    """TestScheduler.linear_attention_only_initializes_fixed_size_capacity"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               num_linear_attention_blocks=0, dynamic_split_fuse=True, max_num_seqs=8)
    g = group(0, [0, 1, 2, 3])
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_linear_attention_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    assert not o.has_token_capacity()
    out = scheduler.schedule([g])
    assert len(out.m_scheduled_sequence_groups_ids) == 1
    assert out.has_linear_attention_paging_data(seq_id)
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 1
    scheduler.free_sequence(seq_id)


def test_hybrid_runtime_arrival_beyond_initial_fixed_capacity_schedules_after_growth():
    """TestScheduler.hybrid_runtime_arrival_beyond_initial_fixed_capacity_schedules_after_growth"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=0, cache_size=0,
               num_linear_attention_blocks=0, dynamic_split_fuse=True, max_num_seqs=8)
    g1 = group(0, [0, 1, 2, 3])
    s1 = g1.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    requests = [g1]
    scheduler.schedule(requests)
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 1
    g1.get_running_sequences()[0].append_token(42, 0.9)
    g1.finish_iteration()
    g2 = group(1, [0, 1, 2, 3])
    s2 = g2.get_running_sequences()[0].get_id()
    requests.append(g2)
    out = scheduler.schedule(requests)
    assert out.has_linear_attention_paging_data(s1)
    assert out.has_linear_attention_paging_data(s2)
    free_all(scheduler, requests, only_with_table=True)


def test_hybrid_prefix_caching_prefill_requires_read_and_interval_write_blocks():
    """TestScheduler.hybrid_prefix_caching_prefill_requires_read_and_interval_write_blocks"""
    c = config(max_num_batched_tokens=512, num_kv_blocks=128, num_linear_attention_blocks=32,
               enable_prefix_caching=True, dynamic_split_fuse=False, max_num_seqs=8)
    # prompt 260 => write blocks ceil(260 / 32) = 9, plus one read block => 10
    g = group(0, range(260))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    out = scheduler.schedule([g])
    assert out.has_linear_attention_paging_data(seq_id)
    pd = out.get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 10
    assert pd.past_length == 0
    assert pd.cache_interval == TEST_DEFAULT_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert len(set(pd.block_indices)) == 9
    assert len(_la_table(o, seq_id)) == 9
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_prefill_uses_scheduler_config_cache_interval_multiplier():
    """TestScheduler.hybrid_prefix_caching_prefill_uses_scheduler_config_cache_interval_multiplier"""
    c = config(max_num_batched_tokens=128, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=False, max_num_seqs=4)
    g = group(0, range(96))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    out = scheduler.schedule([g])
    pd = out.get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 3
    assert pd.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.block_indices[1] != pd.block_indices[2]
    assert o.get_block_size(CacheType.LINEAR_ATTENTION_CACHE) == TEST_CUSTOM_CACHE_INTERVAL
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_reuses_active_complete_linear_attention_checkpoint():
    """TestScheduler.hybrid_prefix_caching_reuses_active_complete_linear_attention_checkpoint"""
    c = config(max_num_batched_tokens=16, num_kv_blocks=16, num_linear_attention_blocks=16,
               cache_interval_multiplier=1, enable_prefix_caching=True, dynamic_split_fuse=False,
               max_num_seqs=4)
    producer_tokens = [0, 1, 2, 3]
    producer = group(0, producer_tokens)
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    scheduler.schedule([producer])
    producer.finish_iteration()
    assert len(_la_table(o, producer_seq_id)) == 1
    shared = _la_table(o, producer_seq_id)[0].get_index()

    consumer = group(1, [0, 1, 2, 3, 4])
    consumer_seq_id = consumer.get_running_sequences()[0].get_id()
    scheduler.restore_cached_blocks(consumer)
    assert len(_la_table(o, consumer_seq_id)) == 1
    assert _la_table(o, consumer_seq_id)[0].get_index() == shared
    assert consumer.get_num_processed_tokens() == len(producer_tokens)

    out = scheduler.schedule([consumer])
    assert out.m_total_num_scheduled_tokens == 1
    pd = out.get_linear_attention_paging_data(consumer_seq_id)
    assert len(pd.block_indices) == 2
    assert pd.past_length == len(producer_tokens)
    assert pd.cache_interval == TEST_BLOCK_SIZE
    assert pd.block_indices[0] == shared
    assert pd.block_indices[1] != shared
    assert len(_la_table(o, consumer_seq_id)) == 2
    assert _la_table(o, consumer_seq_id)[0].get_index() == shared
    assert _la_table(o, consumer_seq_id)[1].get_index() != shared
    assert _la_table(o, producer_seq_id)[0].get_index() == shared
    scheduler.free_sequence(producer_seq_id)
    scheduler.free_sequence(consumer_seq_id)


def test_hybrid_prefix_caching_reuses_active_incomplete_linear_attention_checkpoint_with_cow():
    """TestScheduler.hybrid_prefix_caching_reuses_active_incomplete_linear_attention_checkpoint_with_cow"""
    c = config(max_num_batched_tokens=16, num_kv_blocks=16, num_linear_attention_blocks=16,
               cache_interval_multiplier=1, enable_prefix_caching=True, dynamic_split_fuse=False,
               max_num_seqs=4)
    tokens = [0, 1, 2, 3, 4, 5]
    producer = group(0, tokens)
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    scheduler.schedule([producer])
    producer.finish_iteration()
    assert len(_la_table(o, producer_seq_id)) == 2
    complete = _la_table(o, producer_seq_id)[0].get_index()
    incomplete = _la_table(o, producer_seq_id)[1].get_index()

    consumer = group(1, tokens)
    consumer_seq_id = consumer.get_running_sequences()[0].get_id()
    scheduler.restore_cached_blocks(consumer)
    assert len(_la_table(o, consumer_seq_id)) == 1
    assert _la_table(o, consumer_seq_id)[0].get_index() == incomplete
    assert o.get_linear_attention_block_table_logical_start(consumer_seq_id) == 1
    assert consumer.get_num_processed_tokens() == len(tokens) - 1

    out = scheduler.schedule([consumer])
    assert out.m_total_num_scheduled_tokens == 1
    pd = out.get_linear_attention_paging_data(consumer_seq_id)
    assert len(pd.block_indices) == 2
    assert pd.past_length == len(tokens) - 1
    assert pd.cache_interval == TEST_BLOCK_SIZE
    assert pd.block_indices[0] != incomplete
    assert pd.block_indices[0] == pd.block_indices[1]
    assert len(_la_table(o, consumer_seq_id)) == 1
    assert _la_table(o, consumer_seq_id)[0].get_index() != incomplete
    assert o.get_linear_attention_block_table_logical_start(consumer_seq_id) == 1
    assert _la_table(o, producer_seq_id)[0].get_index() == complete
    assert _la_table(o, producer_seq_id)[1].get_index() == incomplete
    scheduler.free_sequence(producer_seq_id)
    scheduler.free_sequence(consumer_seq_id)


def test_hybrid_prefix_caching_restore_uses_minimum_common_prefix_across_cache_types():
    """TestScheduler.hybrid_prefix_caching_restore_uses_minimum_common_prefix_across_cache_types"""
    c = config(max_num_batched_tokens=8, num_kv_blocks=4, num_linear_attention_blocks=2,
               cache_interval_multiplier=1, enable_prefix_caching=True, dynamic_split_fuse=False,
               max_num_seqs=4)
    first_tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    first = group(0, first_tokens)
    first_seq_id = first.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    scheduler.schedule([first])
    first.finish_iteration()
    scheduler.free_sequence(first_seq_id)

    pressure = group(1, [10, 11, 12, 13, 14, 15, 16, 17])
    pressure_seq_id = pressure.get_running_sequences()[0].get_id()
    scheduler.schedule([pressure])
    pressure.finish_iteration()

    restored = group(2, first_tokens)
    restored_seq_id = restored.get_running_sequences()[0].get_id()
    scheduler.restore_cached_blocks(restored)
    assert restored.get_num_processed_tokens() == 0
    assert not scheduler.has_block_table(restored_seq_id)
    scheduler.free_sequence(pressure_seq_id)


def test_hybrid_prefix_caching_prefill_exactly_interval_uses_single_write_block():
    """TestScheduler.hybrid_prefix_caching_prefill_exactly_interval_uses_single_write_block"""
    c = config(max_num_batched_tokens=64, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=False, max_num_seqs=4)
    g = group(0, range(64))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.past_length == 0
    assert pd.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert len(_la_table(o, seq_id)) == 1
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_prefill_interval_plus_one_uses_next_write_block():
    """TestScheduler.hybrid_prefix_caching_prefill_interval_plus_one_uses_next_write_block"""
    c = config(max_num_batched_tokens=128, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=False, max_num_seqs=4)
    g = group(0, range(65))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 3
    assert pd.past_length == 0
    assert pd.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.block_indices[1] != pd.block_indices[2]
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_chunked_prefill_crossing_interval_adds_write_block():
    """TestScheduler.hybrid_prefix_caching_chunked_prefill_crossing_interval_adds_write_block"""
    c = config(max_num_batched_tokens=48, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    g = group(0, range(96))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    first = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(first.block_indices) == 2
    assert first.past_length == 0
    assert first.block_indices[0] == first.block_indices[1]
    g.finish_iteration()
    second = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(second.block_indices) == 3
    assert second.past_length == 48
    assert second.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert second.block_indices[0] == second.block_indices[1]
    assert second.block_indices[1] != second.block_indices[2]
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_generation_multiple_tokens_crossing_interval_adds_write_block():
    """TestScheduler.hybrid_prefix_caching_generation_multiple_tokens_crossing_interval_adds_write_block"""
    c = config(max_num_batched_tokens=8, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    tokens = [0, 1, 2, 3]
    g = group(0, tokens)
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    scheduler.schedule([g])
    g.finish_iteration()
    running = g.get_running_sequences()[0]
    for token in range(len(tokens), 62):
        running.append_token(token, 0.9)
    g.update_processed_tokens_num(62)
    g.set_num_validated_tokens(2)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 3
    assert g.get_num_scheduled_tokens() == 3
    assert pd.past_length == 62
    assert pd.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.block_indices[1] != pd.block_indices[2]
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_cache_interval_multiplier_one_allocates_block_per_kv_block():
    """TestScheduler.hybrid_prefix_caching_cache_interval_multiplier_one_allocates_block_per_kv_block"""
    c = config(max_num_batched_tokens=8, num_kv_blocks=64, num_linear_attention_blocks=16,
               cache_interval_multiplier=1, enable_prefix_caching=True, dynamic_split_fuse=False,
               max_num_seqs=4)
    g = group(0, [0, 1, 2])
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.cache_interval == TEST_BLOCK_SIZE
    assert pd.block_indices[0] == pd.block_indices[1]
    assert len(set(pd.block_indices)) == 1
    assert len(_la_table(o, seq_id)) == 1
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_dynamic_allocation_honors_custom_cache_interval_multiplier():
    """TestScheduler.hybrid_prefix_caching_dynamic_allocation_honors_custom_cache_interval_multiplier"""
    c = config(max_num_batched_tokens=128, num_kv_blocks=0, cache_size=0,
               num_linear_attention_blocks=0,
               cache_interval_multiplier=TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    g = group(0, range(96))
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 3
    assert pd.cache_interval == TEST_CUSTOM_CACHE_INTERVAL
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.block_indices[1] != pd.block_indices[2]
    assert o.get_block_size(CacheType.LINEAR_ATTENTION_CACHE) == TEST_CUSTOM_CACHE_INTERVAL
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_scheduler_config_zero_cache_interval_multiplier_requires_disabled_prefix_caching():
    """TestScheduler.scheduler_config_zero_cache_interval_multiplier_requires_disabled_prefix_caching"""
    c = config(enable_prefix_caching=True)
    assert c.cache_interval_multiplier is None
    c.validate()
    assert get_test_cache_interval(c) == TEST_DEFAULT_CACHE_INTERVAL
    c.cache_interval_multiplier = 0
    with pytest.raises(RuntimeError):
        c.validate()
    c.enable_prefix_caching = False
    c.validate()
    assert c.cache_interval_multiplier == 0


def _unlimited_memory(device: str, num_cache_tensors: int) -> int:
    return 2**64 - 1


def test_scheduler_config_custom_cache_interval_multiplier_is_ignored_for_kv_only_model():
    """TestScheduler.scheduler_config_custom_cache_interval_multiplier_is_ignored_for_kv_only_model"""
    for multiplier in (None, DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER,
                       TEST_CUSTOM_CACHE_INTERVAL_MULTIPLIER):
        c = config(num_kv_blocks=64, cache_interval_multiplier=multiplier)
        CacheOrchestrator.create(c, dummy_kv_manager(), None, _unlimited_memory)  # no throw


def test_hybrid_create_explicit_kv_blocks_derives_single_fixed_linear_attention_block_for_client_scenario():
    """TestScheduler.hybrid_create_explicit_kv_blocks_derives_single_fixed_linear_attention_block_for_client_scenario"""
    ctx = create_hybrid_create_context()
    c = config(num_kv_blocks=64, max_num_seqs=7, max_num_batched_tokens=2**64 - 1,
               enable_prefix_caching=False, cache_interval_multiplier=0)
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    assert c.num_kv_blocks == 64
    assert c.num_linear_attention_blocks == 1
    assert o.get_block_manager(CacheType.KV_CACHE).get_total_block_count() == 64
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 1


def test_hybrid_create_explicit_kv_blocks_derives_fixed_linear_attention_capacity_from_max_num_seqs_for_bounded_batching():
    """TestScheduler.hybrid_create_explicit_kv_blocks_derives_fixed_linear_attention_capacity_from_max_num_seqs_for_bounded_batching"""
    ctx = create_hybrid_create_context()
    c = config(num_kv_blocks=64, max_num_seqs=7, max_num_batched_tokens=32,
               enable_prefix_caching=False, cache_interval_multiplier=0)
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    assert c.num_kv_blocks == 64
    assert c.num_linear_attention_blocks == c.max_num_seqs
    assert o.get_block_manager(CacheType.KV_CACHE).get_total_block_count() == 64
    assert (o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count()
            == c.max_num_seqs)


def test_hybrid_create_explicit_kv_blocks_derives_paged_linear_attention_capacity_from_token_target():
    """TestScheduler.hybrid_create_explicit_kv_blocks_derives_paged_linear_attention_capacity_from_token_target"""
    ctx = create_hybrid_create_context()
    c = config(num_kv_blocks=10, enable_prefix_caching=True, cache_interval_multiplier=1)
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    expected_token_capacity = c.num_kv_blocks * ctx["kv_block_size"]
    cache_interval = c.get_cache_interval(ctx["kv_block_size"])
    expected_la_blocks = -(-expected_token_capacity // cache_interval)
    assert c.num_kv_blocks == 10
    assert c.num_linear_attention_blocks == expected_la_blocks
    assert (o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count()
            == expected_la_blocks)


def test_hybrid_create_cache_size_budget_reserves_fixed_linear_attention_bytes_before_kv_blocks():
    """TestScheduler.hybrid_create_cache_size_budget_reserves_fixed_linear_attention_bytes_before_kv_blocks"""
    ctx = create_hybrid_create_context()
    c = config(cache_size=1, max_num_seqs=5, max_num_batched_tokens=32,
               enable_prefix_caching=False, cache_interval_multiplier=0)
    budget = c.cache_size * 1024**3
    reserved_la = c.max_num_seqs * ctx["la_block_size_in_bytes"]
    assert reserved_la < budget
    expected_kv_blocks = (budget - reserved_la) // ctx["kv_block_size_in_bytes"]
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    assert c.num_linear_attention_blocks == c.max_num_seqs
    assert c.num_kv_blocks == expected_kv_blocks
    assert o.get_total_cache_size_in_bytes() == (
        expected_kv_blocks * ctx["kv_block_size_in_bytes"]
        + c.num_linear_attention_blocks * ctx["la_block_size_in_bytes"])
    assert o.get_total_cache_size_in_bytes() <= budget


def test_hybrid_create_cache_size_budget_derives_paged_linear_attention_capacity_from_shared_token_target():
    """TestScheduler.hybrid_create_cache_size_budget_derives_paged_linear_attention_capacity_from_shared_token_target"""
    ctx = create_hybrid_create_context()
    c = config(cache_size=1, enable_prefix_caching=True, cache_interval_multiplier=1)
    budget = c.cache_size * 1024**3
    kv_bs, kv_bytes, la_bytes = ctx["kv_block_size"], ctx["kv_block_size_in_bytes"], ctx["la_block_size_in_bytes"]
    cache_interval = c.get_cache_interval(kv_bs)

    def bytes_for_token_target(t):
        return -(-t // kv_bs) * kv_bytes + -(-t // cache_interval) * la_bytes

    low, high = 0, (budget // kv_bytes) * kv_bs
    while low < high:
        mid = low + (high - low + 1) // 2
        if bytes_for_token_target(mid) <= budget:
            low = mid
        else:
            high = mid - 1
    expected_kv_blocks = -(-low // kv_bs)
    expected_la_blocks = -(-low // cache_interval)
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    assert c.num_kv_blocks == expected_kv_blocks
    assert c.num_linear_attention_blocks == expected_la_blocks
    assert o.get_total_cache_size_in_bytes() == bytes_for_token_target(low)
    assert o.get_total_cache_size_in_bytes() <= budget
    assert bytes_for_token_target(low + 1) > budget


def test_hybrid_create_zero_budget_keeps_all_cache_pools_dynamic():
    """TestScheduler.hybrid_create_zero_budget_keeps_all_cache_pools_dynamic"""
    ctx = create_hybrid_create_context()
    c = config(enable_prefix_caching=False, cache_interval_multiplier=0)
    o = CacheOrchestrator.create(c, *ctx["managers"](), _unlimited_memory)
    assert c.num_kv_blocks == 0
    assert c.num_linear_attention_blocks == 0
    assert o.get_block_manager(CacheType.KV_CACHE).get_total_block_count() == 0
    assert o.get_block_manager(CacheType.LINEAR_ATTENTION_CACHE).get_total_block_count() == 0


def test_scheduler_config_explicit_linear_attention_blocks_require_linear_attention_model():
    """TestScheduler.scheduler_config_explicit_linear_attention_blocks_require_linear_attention_model"""
    c = config(num_kv_blocks=64, num_linear_attention_blocks=4, cache_interval_multiplier=0)
    with pytest.raises(RuntimeError):
        CacheOrchestrator.create(c, dummy_kv_manager(), None, _unlimited_memory)


def _prime_generation(scheduler, g, tokens, up_to):
    scheduler.schedule([g])
    g.finish_iteration()
    running = g.get_running_sequences()[0]
    for token in range(len(tokens), up_to):
        running.append_token(token, 0.9)


def test_hybrid_prefix_caching_generation_finishing_interval_reuses_same_write_block():
    """TestScheduler.hybrid_prefix_caching_generation_finishing_interval_reuses_same_write_block"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=64, num_linear_attention_blocks=16,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    tokens = [0, 1, 2, 3]
    g = group(0, tokens)
    seq_id = g.get_running_sequences()[0].get_id()
    scheduler = Scheduler(init_hybrid_cache_orchestrator(c), c)
    _prime_generation(scheduler, g, tokens, TEST_DEFAULT_CACHE_INTERVAL - 1)
    # processed=31, scheduled=1 stores the 32-token checkpoint in the current block
    g.update_processed_tokens_num(TEST_DEFAULT_CACHE_INTERVAL - 1)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.cache_interval == TEST_DEFAULT_CACHE_INTERVAL
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_generation_after_completed_interval_switches_write_block():
    """TestScheduler.hybrid_prefix_caching_generation_after_completed_interval_switches_write_block"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=64, num_linear_attention_blocks=16,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    tokens = [0, 1, 2, 3]
    g = group(0, tokens)
    seq_id = g.get_running_sequences()[0].get_id()
    o = init_hybrid_cache_orchestrator(c)
    scheduler = Scheduler(o, c)
    _prime_generation(scheduler, g, tokens, TEST_DEFAULT_CACHE_INTERVAL)
    g.update_processed_tokens_num(TEST_DEFAULT_CACHE_INTERVAL)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.block_indices[0] != pd.block_indices[1]
    assert len(_la_table(o, seq_id)) == 2
    free_all(scheduler, [g])


def test_hybrid_prefix_caching_generation_inside_interval_reuses_same_write_block():
    """TestScheduler.hybrid_prefix_caching_generation_inside_interval_reuses_same_write_block"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=64, num_linear_attention_blocks=16,
               enable_prefix_caching=True, dynamic_split_fuse=True, max_num_seqs=4)
    tokens = [0, 1, 2, 3]
    g = group(0, tokens)
    seq_id = g.get_running_sequences()[0].get_id()
    scheduler = Scheduler(init_hybrid_cache_orchestrator(c), c)
    _prime_generation(scheduler, g, tokens, TEST_DEFAULT_CACHE_INTERVAL - 1)
    # processed=30, scheduled=1 does not cross cache_interval=32 boundary
    g.update_processed_tokens_num(TEST_DEFAULT_CACHE_INTERVAL - 2)
    pd = scheduler.schedule([g]).get_linear_attention_paging_data(seq_id)
    assert len(pd.block_indices) == 2
    assert pd.block_indices[0] == pd.block_indices[1]
    assert pd.cache_interval == TEST_DEFAULT_CACHE_INTERVAL
    free_all(scheduler, [g])


def get_scheduler_config(max_num_batched_tokens, num_kv_blocks, dynamic_split_fuse, max_num_seqs,
                         cache_eviction_config=None) -> SchedulerConfig:
    c = config(max_num_batched_tokens=max_num_batched_tokens, num_kv_blocks=num_kv_blocks,
               dynamic_split_fuse=dynamic_split_fuse, max_num_seqs=max_num_seqs,
               use_cache_eviction=False)
    if cache_eviction_config is not None:
        c.cache_eviction_config = cache_eviction_config
    return c


def _long_eviction_config():
    from ovlab.sim.genai.scheduler_config import AggregationMode, CacheEvictionConfig

    return CacheEvictionConfig(32, 32, 128, AggregationMode.NORM_SUM)


APPEND_SLOTS_TEST_CASES = [(32, 5, False, 5), (32, 5, True, 5)]


def _indices(blocks) -> list[int]:
    return [b.get_index() for b in blocks]


@pytest.mark.parametrize("params", APPEND_SLOTS_TEST_CASES, ids=["vllm", "split_fuse"])
def test_append_slots_considers_all_sequences(params):
    """AppendSlotsSchedulerTest.test_append_slots_considers_all_sequences (VariousSchedulerConfigs)"""
    c = get_scheduler_config(*params)
    tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    g1, g2 = group(0, tokens), group(1, tokens)
    idx0, idx1 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    out1 = scheduler.schedule(requests)
    assert out1.m_scheduled_sequence_groups_ids == [0, 1]
    assert len(table(out1, idx0)) == 2
    assert len(table(out1, idx1)) == 2
    assert all(not b.is_free() for b in table(out1, idx0) + table(out1, idx1))
    assert _indices(table(out1, idx0)) == [0, 1]
    assert _indices(table(out1, idx1)) == [2, 3]
    assert out1.m_total_num_scheduled_tokens == len(tokens) * 2
    assert out1.is_prompt == (not c.dynamic_split_fuse)
    for g in requests:
        g.finish_iteration()
    # 4/5 KV blocks used; both sequences need a new block, there is room for one
    out2 = scheduler.schedule(requests)
    assert len(table(out2, idx0)) == 3
    assert all(not b.is_free() for b in table(out2, idx0))
    assert _indices(table(out2, idx0)) == [0, 1, 4]
    assert out2.m_total_num_scheduled_tokens == 1
    assert not out2.is_prompt
    free_all(scheduler, requests)


PARTIAL_PREEMPTION_TEST_CASES = [
    ((32, 6, False, 5), False), ((32, 6, True, 5), False),
    # cache eviction's max_cache_size above the sequence lengths must not change preemption
    ((32, 6, False, 5), True), ((32, 6, True, 5), True),
]


@pytest.mark.parametrize("params,long_eviction", PARTIAL_PREEMPTION_TEST_CASES,
                         ids=["vllm", "split_fuse", "vllm_eviction_config",
                              "split_fuse_eviction_config"])
def test_partial_preemption(params, long_eviction):
    """PartialPreemptionSchedulerTest.test_partial_preemption (VariousSchedulerConfigs)"""
    c = get_scheduler_config(*params, _long_eviction_config() if long_eviction else None)
    g1 = group(0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    g2 = group(1, [0, 1, 2, 3, 4, 5, 6, 7])
    idx0, idx1 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    # 2 groups that use 5 kv blocks
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    scheduler.schedule(requests)
    for g in requests:
        g.finish_iteration()
    # generate: all 6 kv blocks used
    scheduler.schedule(requests)
    for g in requests:
        g.get_running_sequences()[0].append_token(16, 0.9)
        g.finish_iteration()
    # sequence_group2 should be partially preempted
    out2 = scheduler.schedule(requests)
    assert out2.m_scheduled_sequence_groups_ids == [0]
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2, 5]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [3, 4]
    assert out2.m_total_num_scheduled_tokens == 1
    assert _indices(table(out2, idx0)) == [0, 1, 2, 5]

    # finish first sequence
    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx0)
    clear_finished_sequences(requests)
    # KV blocks 0,1,2,5 are free now; sequence_group2 should be scheduled
    out3 = scheduler.schedule(requests)
    assert out3.m_total_num_scheduled_tokens == 1  # the last token is recomputed
    assert _indices(table(out3, idx1)) == [3, 4, 0]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [3, 4, 0]
    assert not scheduler.has_block_table(idx0)
    free_all(scheduler, requests)


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_partial_preemption_beam_search(dynamic_split_fuse):
    """TestScheduler.test_partial_preemption_beam_search (its two configs as parameters)"""
    c = config(num_kv_blocks=10, dynamic_split_fuse=dynamic_split_fuse)
    tokens = [0, 1, 2, 3]
    token = 4
    g = group(0, tokens, get_beam_search_config())
    requests = [g]
    g.get_running_sequences()[0].get_sequence_group_ptr()  # no throw
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    scheduler.schedule(requests)
    for seq in g.get_not_finished_sequences():
        seq.append_token(token, 0.7)
    g.finish_iteration()

    # make 2 forked sequences
    to_fork = g.get_running_sequences()[0]
    for _ in range(2):
        forked = g.fork_sequence(to_fork)
        scheduler.fork_sequence(to_fork.get_id(), forked.get_id())
    num_scheduled_tokens = 4

    def generate(n):
        nonlocal token
        for _ in range(n):
            scheduler.schedule(requests)
            for seq in g.get_not_finished_sequences():
                token += 3
                seq.append_token(token, 0.5)
            g.finish_iteration()

    generate(num_scheduled_tokens)  # 4 blocks: 1 shared, 3 not shared
    for _ in range(2):
        forked = g.fork_sequence(to_fork)
        scheduler.fork_sequence(to_fork.get_id(), forked.get_id())
    generate(num_scheduled_tokens)  # 9 blocks

    # a greedy group needing 1 block, first in the list: higher priority
    greedy = group(0, tokens)
    new_requests = [greedy, g]
    # its prompt takes the last blocks
    scheduler.schedule(new_requests)
    greedy.get_sequences()[0].append_token(token, 0.8)
    greedy.finish_iteration()
    assert g.get_num_processed_tokens() == 12
    assert g.get_context_len() == 12

    # beam search group partially preempted, 5 blocks released
    scheduler.schedule(new_requests)
    greedy.get_sequences()[0].append_token(token, 0.5)
    greedy.finish_iteration()
    assert g.get_num_processed_tokens() == 8
    for seq in g.get_sequences():
        assert len(scheduler.get_kv_block_tables(seq)[0]) == 2

    # 20 more tokens for the greedy group: another partial preemption
    for _ in range(20):
        scheduler.schedule(new_requests)
        greedy.get_sequences()[0].append_token(token, 0.5)
        greedy.finish_iteration()
    assert g.get_num_processed_tokens() == 4
    for seq in g.get_sequences():
        assert len(scheduler.get_kv_block_tables(seq)[0]) == 1
    free_all(scheduler, new_requests)


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_partially_preempted_prompt(dynamic_split_fuse):
    """TestScheduler.test_partially_preempted_prompt (its two configs as parameters)"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=6, dynamic_split_fuse=dynamic_split_fuse,
               max_num_seqs=5)
    tokens = list(range(12))
    g1, g2 = group(0, tokens), group(1, tokens)
    idx0, idx1 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    # 2 groups use all 2*3 kv blocks
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    scheduler.schedule(requests)
    for g in requests:
        g.finish_iteration()
    # sequence_group2 should be (fully in vLLM mode) preempted
    out2 = scheduler.schedule(requests)
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2, 5]
    assert _indices(table(out2, idx0)) == [0, 1, 2, 5]
    assert out2.m_scheduled_sequence_groups_ids == [0]
    assert out2.m_total_num_scheduled_tokens == 1
    if c.dynamic_split_fuse:
        # preempted partially: part of the prompt is left
        assert scheduler.has_block_table(idx1)
        assert len(scheduler.get_kv_block_tables(g2[0])[0]) == 2
    else:
        assert not scheduler.has_block_table(idx1)
    for g in requests:
        g.finish_iteration()

    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx0)
    clear_finished_sequences(requests)
    # KV blocks 0,1,2,5 are free now
    out3 = scheduler.schedule(requests)
    # the rest of the prompt (split-fuse) or the whole prompt (vLLM)
    assert out3.m_total_num_scheduled_tokens == (4 if c.dynamic_split_fuse else 12)
    assert _indices(table(out3, idx1)) == [3, 4, 0]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [3, 4, 0]
    assert not scheduler.has_block_table(idx0)
    free_all(scheduler, requests)


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_prefix_caching_test(dynamic_split_fuse):
    """TestScheduler.prefix_caching_test (its two configs as parameters)"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=100, dynamic_split_fuse=dynamic_split_fuse,
               max_num_seqs=5, enable_prefix_caching=True)
    prompt_tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    history: list[int] = []
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    for chat_iteration in range(10):
        g = group(0, history + prompt_tokens)
        scheduler.restore_cached_blocks(g)
        requests = [g]
        out1 = scheduler.schedule(requests)
        # the history is restored from cache; its last generated token and the new prompt run
        expected = len(prompt_tokens) if chat_iteration == 0 else len(prompt_tokens) + 1
        assert out1.m_total_num_scheduled_tokens == expected
        g.get_running_sequences()[0].append_token(23, 0.7)
        g.finish_iteration()
        for _ in range(10):
            out2 = scheduler.schedule(requests)
            assert out2.m_total_num_scheduled_tokens == 1
            g.get_running_sequences()[0].append_token(16, 0.9)
            g.finish_iteration()
        sequence = g.get_running_sequences()[0]
        sequence.set_status(SequenceStatus.FINISHED)
        scheduler.free_sequence(sequence.get_id())
        history += prompt_tokens + sequence.get_generated_ids()


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_prefix_caching_test_two_identical_sequences(dynamic_split_fuse):
    """TestScheduler.prefix_caching_test_two_identical_sequences (its two configs as parameters)"""
    c = config(num_kv_blocks=100, dynamic_split_fuse=dynamic_split_fuse, enable_prefix_caching=True)
    prompt_tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    history: list[int] = []
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    for chat_iteration in range(10):
        tokens = history + prompt_tokens
        requests = [group(0, tokens), group(0, tokens)]
        for request in requests:
            scheduler.restore_cached_blocks(request)
        out1 = scheduler.schedule(requests)
        expected = (len(prompt_tokens) if chat_iteration == 0 else len(prompt_tokens) + 1) * 2
        assert out1.m_total_num_scheduled_tokens == expected
        for g in requests:
            g.get_running_sequences()[0].append_token(23, 0.7)
            g.finish_iteration()
        for _ in range(10):
            out2 = scheduler.schedule(requests)
            assert out2.m_total_num_scheduled_tokens == 2
            for g in requests:
                g.get_running_sequences()[0].append_token(16, 0.9)
                g.finish_iteration()
        for g in requests:
            sequence = g.get_running_sequences()[0]
            sequence.set_status(SequenceStatus.FINISHED)
            scheduler.free_sequence(sequence.get_id())
        history += prompt_tokens + requests[0].get_sequences()[0].get_generated_ids()


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_prefix_caching_with_max_new_tokens_equal_1(dynamic_split_fuse):
    """TestScheduler.prefix_caching_with_max_new_tokens_equal_1 (its two configs as parameters)"""
    c = config(num_kv_blocks=10, dynamic_split_fuse=dynamic_split_fuse, enable_prefix_caching=True)
    prompt_tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    scheduler = Scheduler(init_cache_orchestrator(c, 32), c)
    for chat_iteration in range(2):
        requests = [group(0, prompt_tokens)]
        for request in requests:
            scheduler.restore_cached_blocks(request)
        out1 = scheduler.schedule(requests)
        # the whole prompt is cached the second time: only its last token is recomputed
        assert out1.m_total_num_scheduled_tokens == (len(prompt_tokens) if chat_iteration == 0 else 1)
        for g in requests:
            g.get_running_sequences()[0].append_token(23, 0.7)
            g.finish_iteration()
        # max_new_tokens == 1: no generate phase
        for g in requests:
            sequence = g.get_running_sequences()[0]
            sequence.set_status(SequenceStatus.FINISHED)
            scheduler.free_sequence(sequence.get_id())


def test_partially_preempted_prompt_not_allowed():
    """TestScheduler.test_partially_preempted_prompt_not_allowed"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=6, dynamic_split_fuse=False, max_num_seqs=5)
    tokens = list(range(12))
    g1, g2 = group(0, tokens), group(1, tokens)
    idx0, idx1 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    scheduler = Scheduler(init_cache_orchestrator(c), c, can_use_partial_preemption=False)
    scheduler.schedule(requests)
    for g in requests:
        g.finish_iteration()
    # sequence_group2 should be fully preempted
    out2 = scheduler.schedule(requests)
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2, 3]
    assert _indices(table(out2, idx0)) == [0, 1, 2, 3]
    assert out2.m_scheduled_sequence_groups_ids == [0]
    assert out2.m_total_num_scheduled_tokens == 1
    assert not scheduler.has_block_table(idx1)
    for g in requests:
        g.finish_iteration()
    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx0)
    clear_finished_sequences(requests)
    out3 = scheduler.schedule(requests)
    assert out3.m_total_num_scheduled_tokens == 12  # the prompt, fully
    assert _indices(table(out3, idx1)) == [4, 5, 0]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [4, 5, 0]
    assert not scheduler.has_block_table(idx0)
    free_all(scheduler, requests)


def test_partially_preempted_prompt_not_allowed2():
    """TestScheduler.test_partially_preempted_prompt_not_allowed2"""
    c = config(max_num_batched_tokens=32, num_kv_blocks=6, dynamic_split_fuse=False, max_num_seqs=5)
    tokens = list(range(10))
    g1, g2 = group(0, tokens), group(1, tokens)
    idx0, idx1 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    scheduler = Scheduler(init_cache_orchestrator(c), c, can_use_partial_preemption=False)
    for _ in range(4):  # prompt, two tokens, then sequence_group2 is fully preempted
        scheduler.schedule(requests)
        for g in requests:
            g.finish_iteration()
    out2 = scheduler.schedule(requests)
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2, 3]
    assert _indices(table(out2, idx0)) == [0, 1, 2, 3]
    assert out2.m_scheduled_sequence_groups_ids == [0]
    assert out2.m_total_num_scheduled_tokens == 1
    assert not scheduler.has_block_table(idx1)
    for g in requests:
        g.finish_iteration()
    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx0)
    clear_finished_sequences(requests)
    out3 = scheduler.schedule(requests)
    # the prompt and the tokens it had generated (10 + 2), recomputed at once
    assert out3.m_total_num_scheduled_tokens == 12
    assert _indices(table(out3, idx1)) == [4, 5, 0]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [4, 5, 0]
    assert not scheduler.has_block_table(idx0)
    free_all(scheduler, requests)


def _schedule_one_mock_generation_token_for_each_sequence_group(scheduler, requests) -> Output:
    out = scheduler.schedule(requests)
    for req in requests:
        req.get_running_sequences()[0].append_token(16, 0.9)
        req.finish_iteration()
    return out


def test_FullyPreemptsCacheEvictedSequences():
    """TestScheduler.FullyPreemptsCacheEvictedSequences"""
    from ovlab.sim.genai.scheduler_config import AggregationMode, CacheEvictionConfig

    c = config(max_num_batched_tokens=32, num_kv_blocks=6, dynamic_split_fuse=False, max_num_seqs=5,
               use_cache_eviction=True,
               cache_eviction_config=CacheEvictionConfig(2, 2, 6, AggregationMode.NORM_SUM))
    g1 = group(0, [0, 1])  # 1 full block
    g2 = group(1, list(range(10)))  # 5 full blocks, more than the eviction arena (3 blocks)
    idx1, idx2 = g1[0].get_id(), g2[0].get_id()
    requests = [g1, g2]
    scheduler = Scheduler(init_cache_orchestrator(c, 2), c)
    # prompt phase: 1 block for seq 1, 5 blocks for seq 2
    scheduler.schedule(requests)
    for g in requests:
        g.finish_iteration()
    # evict 2 blocks from seq 2 at once to satisfy the eviction arena size
    scheduler.free_blocks_from_sequence(idx2, [{0, 1}], CacheType.KV_CACHE)
    g2.register_token_eviction(2 * 2)
    # 4 blocks are taken; 4 more tokens in group 1 fill the other 2 (no preemption yet)
    for _ in range(4):
        _schedule_one_mock_generation_token_for_each_sequence_group(scheduler, [requests[0]])
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2]
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [3, 4, 5]
    # the next token of group 1 preempts group 2, whose evicted tokens force a full preemption
    _schedule_one_mock_generation_token_for_each_sequence_group(scheduler, requests)
    assert _indices(scheduler.get_kv_block_tables(g1[0])[0]) == [0, 1, 2, 3]
    assert not scheduler.has_block_table(idx2)
    requests[0].get_running_sequences()[0].set_status(SequenceStatus.FINISHED)
    scheduler.free_sequence(idx1)
    clear_finished_sequences(requests)
    scheduler.schedule(requests)
    assert not scheduler.has_block_table(idx1)
    assert scheduler.has_block_table(idx2)
    # the old block count from before the first eviction is restored
    assert _indices(scheduler.get_kv_block_tables(g2[0])[0]) == [4, 5, 0, 1, 2]
    free_all(scheduler, requests)


@pytest.mark.parametrize("dynamic_split_fuse", [False, True])
def test_prefix_caching_embeddings_test(dynamic_split_fuse):
    """TestScheduler.prefix_caching_embeddings_test (its two configs as parameters)"""
    import numpy as np

    c = config(max_num_batched_tokens=32, num_kv_blocks=100, dynamic_split_fuse=dynamic_split_fuse,
               max_num_seqs=5, enable_prefix_caching=True)
    hidden_size = 300
    j = np.arange(hidden_size, dtype=np.float32)
    prompt_embeddings = [np.float32(i * hidden_size) + j + j * np.float32(0.05) for i in range(8)]
    history: list = []
    scheduler = Scheduler(init_cache_orchestrator(c), c)
    for chat_iteration in range(10):
        embeddings = np.stack(history + prompt_embeddings)[None]
        g = SequenceGroup(0, embeddings, get_greedy_config())
        scheduler.restore_cached_blocks(g)
        requests = [g]
        out1 = scheduler.schedule(requests)
        expected = len(prompt_embeddings) if chat_iteration == 0 else len(prompt_embeddings) + 1
        assert out1.m_total_num_scheduled_tokens == expected
        embed = np.float32(chat_iteration) + j * np.float32(hidden_size) + j * np.float32(0.05)
        seq = g.get_running_sequences()[0]
        seq.append_token(chat_iteration, 0.7)
        seq.append_generated_ids_embeds(embed[None, None])
        g.finish_iteration()
        for _ in range(10):
            out2 = scheduler.schedule(requests)
            assert out2.m_total_num_scheduled_tokens == 1
            seq = g.get_running_sequences()[0]
            seq.append_token(16 + chat_iteration, 0.9)
            seq.append_generated_ids_embeds(embed[None, None])
            g.finish_iteration()
        sequence = g.get_running_sequences()[0]
        sequence.set_status(SequenceStatus.FINISHED)
        scheduler.free_sequence(sequence.get_id())
        history += prompt_embeddings + [np.asarray(e, dtype=np.float32)
                                        for e in sequence.get_generated_ids_embeds()]


def _expected_tokens_case(request_id: int):
    c = config(max_num_batched_tokens=8, num_kv_blocks=10, dynamic_split_fuse=True, max_num_seqs=5)
    g = group(request_id, list(range(12)))
    return Scheduler(init_cache_orchestrator(c), c), g


def test_expected_num_scheduled_tokens_overrides_default_schedule():
    """TestScheduler.expected_num_scheduled_tokens_overrides_default_schedule"""
    scheduler, g = _expected_tokens_case(42)
    scheduler.set_expected_num_scheduled_tokens(42, 5)
    assert scheduler.get_expected_num_scheduled_tokens(42) == 5
    out = scheduler.schedule([g])
    assert out.m_total_num_scheduled_tokens == 5
    assert out.m_scheduled_sequence_groups_ids
    free_all(scheduler, [g])
    g.finish_iteration()


def test_expected_num_scheduled_tokens_does_not_override_if_greater_than_available():
    """TestScheduler.expected_num_scheduled_tokens_does_not_override_if_greater_than_available"""
    scheduler, g = _expected_tokens_case(43)
    scheduler.set_expected_num_scheduled_tokens(43, 13)  # above the 12 available: ignored
    out = scheduler.schedule([g])
    assert out.m_total_num_scheduled_tokens == 8  # min(max_num_batched_tokens, available)
    assert out.m_scheduled_sequence_groups_ids
    free_all(scheduler, [g])
    g.finish_iteration()


def test_clear_expected_num_scheduled_tokens_restores_default_schedule():
    """TestScheduler.clear_expected_num_scheduled_tokens_restores_default_schedule"""
    scheduler, g = _expected_tokens_case(44)
    scheduler.set_expected_num_scheduled_tokens(44, 5)
    out1 = scheduler.schedule([g])
    assert out1.m_total_num_scheduled_tokens == 5
    g.finish_iteration()
    scheduler.clear_expected_num_scheduled_tokens(44)
    assert scheduler.get_expected_num_scheduled_tokens(44) == 0
    out2 = scheduler.schedule([g])
    assert out2.m_total_num_scheduled_tokens == 7  # the 7 prompt tokens left
    assert out2.m_scheduled_sequence_groups_ids
    free_all(scheduler, [g])
    g.finish_iteration()


# The 50 TEST / TEST_P names of scheduler.cpp at da1db864, in file order: each has a test here.
CPP_CASES = [
    "adaptive_rkv_zero_size_is_not_marked_available",
    "output_keeps_shared_kv_global_data_alive",
    "general_test",
    "hybrid_output_fills_linear_attention_block_table_in_prompt_and_generate",
    "hybrid_non_prefix_linear_attention_returns_aliased_read_write_blocks",
    "hybrid_non_prefix_linear_attention_uses_full_preemption_for_fixed_size_victim_state",
    "hybrid_admission_when_la_pool_is_bottleneck",
    "hybrid_initialize_cache_grows_fixed_size_by_total_concurrent_sequences",
    "initialize_cache_uses_sequence_aware_block_rounding",
    "dynamic_alloc_reserves_full_capacity_for_later_larger_prompt",
    "dynamic_alloc_reserves_capacity_for_new_prompt_on_top_of_running_sequence",
    "linear_attention_only_initializes_fixed_size_capacity",
    "hybrid_runtime_arrival_beyond_initial_fixed_capacity_schedules_after_growth",
    "hybrid_prefix_caching_prefill_requires_read_and_interval_write_blocks",
    "hybrid_prefix_caching_prefill_uses_scheduler_config_cache_interval_multiplier",
    "hybrid_prefix_caching_reuses_active_complete_linear_attention_checkpoint",
    "hybrid_prefix_caching_reuses_active_incomplete_linear_attention_checkpoint_with_cow",
    "hybrid_prefix_caching_restore_uses_minimum_common_prefix_across_cache_types",
    "hybrid_prefix_caching_prefill_exactly_interval_uses_single_write_block",
    "hybrid_prefix_caching_prefill_interval_plus_one_uses_next_write_block",
    "hybrid_prefix_caching_chunked_prefill_crossing_interval_adds_write_block",
    "hybrid_prefix_caching_generation_multiple_tokens_crossing_interval_adds_write_block",
    "hybrid_prefix_caching_cache_interval_multiplier_one_allocates_block_per_kv_block",
    "hybrid_prefix_caching_dynamic_allocation_honors_custom_cache_interval_multiplier",
    "scheduler_config_zero_cache_interval_multiplier_requires_disabled_prefix_caching",
    "scheduler_config_custom_cache_interval_multiplier_is_ignored_for_kv_only_model",
    "hybrid_create_explicit_kv_blocks_derives_single_fixed_linear_attention_block_for_client_scenario",
    "hybrid_create_explicit_kv_blocks_derives_fixed_linear_attention_capacity_from_max_num_seqs_for_bounded_batching",
    "hybrid_create_explicit_kv_blocks_derives_paged_linear_attention_capacity_from_token_target",
    "hybrid_create_cache_size_budget_reserves_fixed_linear_attention_bytes_before_kv_blocks",
    "hybrid_create_cache_size_budget_derives_paged_linear_attention_capacity_from_shared_token_target",
    "hybrid_create_zero_budget_keeps_all_cache_pools_dynamic",
    "scheduler_config_explicit_linear_attention_blocks_require_linear_attention_model",
    "hybrid_prefix_caching_generation_finishing_interval_reuses_same_write_block",
    "hybrid_prefix_caching_generation_after_completed_interval_switches_write_block",
    "hybrid_prefix_caching_generation_inside_interval_reuses_same_write_block",
    "test_append_slots_considers_all_sequences",
    "test_partial_preemption",
    "test_partial_preemption_beam_search",
    "test_partially_preempted_prompt",
    "prefix_caching_test",
    "prefix_caching_test_two_identical_sequences",
    "prefix_caching_with_max_new_tokens_equal_1",
    "test_partially_preempted_prompt_not_allowed",
    "test_partially_preempted_prompt_not_allowed2",
    "FullyPreemptsCacheEvictedSequences",
    "prefix_caching_embeddings_test",
    "expected_num_scheduled_tokens_overrides_default_schedule",
    "expected_num_scheduled_tokens_does_not_override_if_greater_than_available",
    "clear_expected_num_scheduled_tokens_restores_default_schedule",
]


def test_every_cpp_case_is_ported():
    """One test function per C++ case (``test_<name>``; names already starting with ``test_``
    keep theirs)."""
    assert len(CPP_CASES) == len(set(CPP_CASES)) == 50
    for name in CPP_CASES:
        func = name if name.startswith("test_") else f"test_{name}"
        assert callable(globals().get(func)), name
