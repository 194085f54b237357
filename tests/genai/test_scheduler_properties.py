"""Invariants of the ported continuous-batching scheduler, on random request streams.

A small driver plays GenAI's ``ContinuousBatchingImpl::step()`` around the scheduler
(pipeline_impl.cpp: pull awaiting requests, restore cached prefixes, schedule, mark everything
out of memory when nothing could be scheduled, sample one token per running sequence of the
groups that need sampling, ``finish_iteration``, free finished requests) with a stand-in
sampler (sampler.cpp ``_try_finish_generation``: finish at ``max_new_tokens``). After every
step it checks:

- every block in a block table is held (reference count = occurrences in the tables), no block
  is both held and free, and held + free + overwritable = total: no block is double-allocated
  or lost;
- the step respects ``max_num_batched_tokens``, and its total is the sum of what the scheduled
  groups were given; in vLLM mode no more than ``max_num_seqs`` groups run;
- every scheduled sequence has KV slots for its context;
and at the end that every request finished (none lost or dropped out of memory when the cache
holds the longest request) and every block came back.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pbt_budget import budget

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


def _make(cfg: dict) -> tuple[Scheduler, BlockManager]:
    c = SchedulerConfig()
    c.max_num_batched_tokens = cfg["max_num_batched_tokens"]
    c.num_kv_blocks = cfg["num_kv_blocks"]
    c.dynamic_split_fuse = cfg["dynamic_split_fuse"]
    c.max_num_seqs = cfg["max_num_seqs"]
    c.enable_prefix_caching = cfg["enable_prefix_caching"]
    bm = BlockManager(c.num_kv_blocks, c.enable_prefix_caching, cfg["block_size"])
    o = CacheOrchestrator()
    o.register_cache_type(CacheType.KV_CACHE, KVCacheManager(2, 2, 8), bm)
    return Scheduler(o, c, can_use_partial_preemption=cfg["partial"]), bm


def _check_blocks(bm: BlockManager, requests: list[SequenceGroup]) -> None:
    held: dict[int, int] = {}
    objects = {}
    for seq_id in bm.leaked_tables():
        for block in bm.get_block_tables(seq_id)[0]:
            held[block.get_index()] = held.get(block.get_index(), 0) + 1
            objects[block.get_index()] = block
    for index, count in held.items():
        assert objects[index].get_references_count() == count, f"block {index} refcount"
    allocator = bm.get_allocator()
    free = {b.get_index() for b in allocator._free_blocks[0]}
    assert not free & set(held), "a block is both held and free"
    assert len(free) == allocator._free_blocks_num[0]
    overwritable = {bs[0].get_index() for bs in allocator._overwriteable_blocks._blocks.values()}
    assert not overwritable & set(held) and not overwritable & free
    assert len(held) + len(free) + len(overwritable) == bm.get_total_block_count()
    # only sequences of live requests hold blocks
    live = {s.get_id() for g in requests for s in g.get_sequences()}
    assert set(bm.leaked_tables()) <= live


def _run(cfg: dict, arrivals: list[tuple[int, int, int, int]], max_steps: int):
    """Drive the scheduler; return (finished request ids, out-of-memory ids, steps)."""
    scheduler, bm = _make(cfg)
    c = scheduler.get_config()
    pending = sorted(arrivals)  # (arrival step, prompt len, max new tokens, prompt seed)
    requests: list[SequenceGroup] = []
    finished, oom = [], []
    step = 0
    next_id = 0
    while (pending or requests) and step < max_steps:
        while pending and pending[0][0] <= step:
            _, prompt_len, max_new, seed = pending.pop(0)
            g = SequenceGroup(next_id, [(seed * 7 + i) % 11 for i in range(prompt_len)],
                              SamplingParams(max_new_tokens=max_new))
            next_id += 1
            if c.enable_prefix_caching:
                scheduler.restore_cached_blocks(g)
            requests.append(g)
        if not requests:
            step += 1
            continue
        out = scheduler.schedule(requests)
        # --- what one step may do
        assert out.m_total_num_scheduled_tokens <= c.max_num_batched_tokens
        scheduled = [requests[i] for i in out.m_scheduled_sequence_groups_ids]
        assert len(set(out.m_scheduled_sequence_groups_ids)) == len(scheduled)
        assert out.m_total_num_scheduled_tokens == sum(
            g.get_num_scheduled_tokens() * g.num_running_seqs() for g in scheduled)
        assert all(not g.is_scheduled() for g in requests if g not in scheduled)
        if not c.dynamic_split_fuse:
            running = [g for g in requests if not g.has_finished() and g.can_generate_tokens()]
            assert len(running) <= c.max_num_seqs
        for g in scheduled:
            for seq in g.get_running_sequences():
                blocks = bm.get_block_tables(seq.get_id())[0]
                assert len(blocks) * cfg["block_size"] >= g.get_context_len()
        _check_blocks(bm, requests)
        if out.m_total_num_scheduled_tokens == 0:
            # pipeline_impl.cpp: nothing fits, everything not waiting is out of memory
            for g in requests:
                if not g.is_waiting():
                    g.set_out_of_memory()
        else:
            for g in scheduled:
                if g.requires_sampling():
                    for seq in g.get_running_sequences():
                        seq.append_token(5, -0.1)
                        if g.get_max_new_tokens() <= seq.get_generated_len():
                            seq.set_status(SequenceStatus.FINISHED)
                            scheduler.free_sequence(seq.get_id())
                g.finish_iteration()
        # _free_non_running_requests
        for g in list(requests):
            if g.has_finished():
                for seq in g.get_sequences():
                    if scheduler.has_block_table(seq.get_id()):
                        scheduler.free_sequence(seq.get_id())
                (oom if g.out_of_memory() else finished).append(g.get_request_id())
                requests.remove(g)
        _check_blocks(bm, requests)
        step += 1
    return finished, oom, step, bm, requests


configs = st.fixed_dictionaries({
    "block_size": st.sampled_from([1, 2, 4, 8]),
    "max_num_batched_tokens": st.integers(8, 64),
    "max_num_seqs": st.integers(1, 8),
    "dynamic_split_fuse": st.booleans(),
    "enable_prefix_caching": st.booleans(),
    "partial": st.booleans(),
    "extra_blocks": st.integers(0, 24),
})
streams = st.lists(st.tuples(st.integers(0, 12), st.integers(1, 16), st.integers(1, 8),
                             st.integers(0, 2)), min_size=1, max_size=6)


def _vllm_limits(cfg: dict, arrivals) -> dict:
    if not cfg["dynamic_split_fuse"]:
        # vLLM mode asserts a prompt fits the token budget, and max_num_seqs <= the budget
        cfg["max_num_batched_tokens"] = max(cfg["max_num_batched_tokens"],
                                            max(p + n for _, p, n, _ in arrivals))
        cfg["max_num_seqs"] = min(cfg["max_num_seqs"], cfg["max_num_batched_tokens"])
    return cfg


def _max_steps(arrivals) -> int:
    return 40 + sum((p + n) * (len(arrivals) + 1) for _, p, n, _ in arrivals)


def _all_finished(cfg, arrivals) -> None:
    finished, oom, steps, bm, left = _run(cfg, arrivals, _max_steps(arrivals))
    assert not left, f"requests still running after {steps} steps"
    assert not oom, "a request was dropped out of memory although the cache holds it"
    assert sorted(finished) == list(range(len(arrivals)))
    assert bm.leaked_tables() == []
    assert bm.num_free_blocks() == bm.get_total_block_count()  # free or overwritable


@settings(max_examples=budget(50))
@given(cfg=configs, arrivals=streams)
def test_every_request_finishes_when_the_cache_holds_them_all(cfg, arrivals):
    """A cache that holds every request at once never drops one. (One that holds only the
    longest request alone does not suffice in GenAI: see the two tests at the end.)"""
    bs = cfg["block_size"]
    total = sum(-(-(p + n) // bs) for _, p, n, _ in arrivals)
    _all_finished(_vllm_limits(dict(cfg, num_kv_blocks=total + cfg["extra_blocks"]), arrivals),
                  arrivals)


@settings(max_examples=budget(50))
@given(cfg=configs, arrivals=streams)
def test_every_request_finishes_with_dynamic_cache_growth(cfg, arrivals):
    """``num_kv_blocks = cache_size = 0`` (GenAI's default): the cache grows as needed."""
    _all_finished(_vllm_limits(dict(cfg, num_kv_blocks=0), arrivals), arrivals)


@settings(max_examples=budget(40))
@given(cfg=configs, arrivals=streams, num_kv_blocks=st.integers(1, 12))
def test_small_caches_never_corrupt_blocks(cfg, arrivals, num_kv_blocks):
    """With a cache too small for some requests, requests may be dropped out of memory as
    GenAI drops them, but blocks stay consistent and every request ends, one way or the other."""
    cfg = _vllm_limits(dict(cfg, num_kv_blocks=num_kv_blocks), arrivals)
    try:
        finished, oom, steps, bm, left = _run(cfg, arrivals, _max_steps(arrivals))
    except RuntimeError as e:
        # GenAI's own assert (test_vllm_prefix_caching_copy_on_write_asserts_on_a_full_cache)
        assert "no free KV cache block" in str(e)
        assert cfg["enable_prefix_caching"] and not cfg["dynamic_split_fuse"]
        return
    assert not left
    assert sorted(finished + oom) == list(range(len(arrivals)))
    assert bm.leaked_tables() == []
    assert bm.num_free_blocks() == bm.get_total_block_count()


def test_prefix_caching_shared_victim_drops_running_requests():
    """A GenAI behaviour the properties found, kept as the port reproduces it.

    With prefix caching, a new request restores a block it shares with a running request. When
    the cache is full, the running request picks the newcomer (last in the list, holding KV) as
    its victim; preempting it frees no block (the shared one is still held), so
    ``_preempt_by_recompute`` returns false and ``_apply_preemption`` stops without trying the
    next victim. Nothing is scheduled, and ``ContinuousBatchingImpl::step()`` marks every request
    that is not waiting out of memory: all three are dropped although each fits the cache alone.
    """
    cfg = {"block_size": 1, "max_num_batched_tokens": 8, "max_num_seqs": 2,
           "dynamic_split_fuse": False, "enable_prefix_caching": True, "partial": False,
           "num_kv_blocks": 4}
    arrivals = [(0, 1, 3, 0), (0, 1, 3, 0), (2, 2, 1, 0)]
    finished, oom, _, bm, left = _run(cfg, arrivals, 100)
    assert oom == [0, 1, 2] and finished == [] and not left
    assert bm.leaked_tables() == []
    # without prefix caching the same stream finishes
    finished, oom, _, _, _ = _run(dict(cfg, enable_prefix_caching=False), arrivals, 100)
    assert sorted(finished) == [0, 1, 2] and oom == []


def test_running_group_cannot_preempt_a_higher_priority_prompt():
    """Another GenAI behaviour the properties found (split-fuse, no prefix caching).

    A 9-block cache (1 token per block). A (1 + 3 tokens) and B (8 + 1) arrive, C (1 + 3) a step
    later. Step 2: A needs a block and preempts B wholly (recompute); C gets B's blocks. After A
    finishes, B refills 7 of its 8 prompt tokens, and the cache is full. Step 4: C (running, after
    B in the list) needs a block, but a group may only preempt groups after it; B's prompt phase
    never preempts. Nothing is scheduled and both are dropped out of memory, although each fits.
    """
    cfg = {"block_size": 1, "max_num_batched_tokens": 8, "max_num_seqs": 1,
           "dynamic_split_fuse": True, "enable_prefix_caching": False, "partial": False,
           "num_kv_blocks": 9}
    arrivals = [(0, 1, 3, 0), (0, 8, 1, 0), (1, 1, 3, 0)]
    finished, oom, steps, bm, left = _run(cfg, arrivals, 100)
    assert finished == [0] and sorted(oom) == [1, 2] and steps == 5 and not left
    assert bm.leaked_tables() == []


def test_vllm_prefix_caching_copy_on_write_asserts_on_a_full_cache():
    """A third GenAI behaviour the properties found (vLLM mode, prefix caching).

    A one-block cache (2 tokens per block). A request restores a partly filled block that a
    running request still holds. ``can_allocate_tokens`` counts the free slot in that block and
    needs no new block, but ``append_slots`` must copy the shared block on write, and
    ``BlockAllocator::allocate_block`` asserts: ``step()`` throws (GenAI raises the same
    ``OPENVINO_ASSERT``)."""
    import pytest

    cfg = {"block_size": 2, "max_num_batched_tokens": 8, "max_num_seqs": 2,
           "dynamic_split_fuse": False, "enable_prefix_caching": True, "partial": False,
           "num_kv_blocks": 1}
    arrivals = [(0, 1, 1, 0), (0, 1, 1, 0), (0, 1, 2, 0), (3, 2, 1, 0)]
    with pytest.raises(RuntimeError, match="no free KV cache block"):
        _run(cfg, arrivals, 100)


def test_no_victim_at_all_stops_preemption_instead_of_indexing_past_the_list(monkeypatch):
    """A fourth case the properties found: a group that was fully preempted comes back in the
    generate phase with nothing processed and needs blocks, and no group holds any KV.
    ``_get_low_priority_sequence_group_id`` returns SIZE_MAX and GenAI then reads
    ``sequence_groups[SIZE_MAX]`` (out of range, undefined behaviour); the port stops looking
    for a victim for that group, and the stream still finishes."""
    found = []
    original = Scheduler._get_low_priority_sequence_group_id

    def spy(groups):
        found.append(original(groups))
        return found[-1]

    monkeypatch.setattr(Scheduler, "_get_low_priority_sequence_group_id", staticmethod(spy))
    cfg = {"block_size": 2, "max_num_batched_tokens": 8, "max_num_seqs": 1,
           "dynamic_split_fuse": True, "enable_prefix_caching": False, "partial": False,
           "num_kv_blocks": 4}
    arrivals = [(0, 1, 4, 0), (0, 4, 3, 0), (1, 3, 2, 0)]
    finished, oom, _, bm, left = _run(cfg, arrivals, 100)
    assert 2**64 - 1 in found
    assert not left and sorted(finished) == [0, 1, 2] and not oom
    assert bm.leaked_tables() == []
