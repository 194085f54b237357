"""GenAI's C++ block manager tests, re-derived for ovlab's port.

Each test is one ``TEST`` of openvino.genai@da1db864 ``tests/cpp/block_manager.cpp``
(``TestBlockManager.<name>`` becomes ``test_<name>``), same scenario, same assertions. The C++
file itself is not in this repository. Where C++ frees sequence ids written as literals (0 and 1
in ``general_test``, which rely on the process-wide id counter), the ids are read instead.
"""

from __future__ import annotations

import pytest

from ovlab.sim.genai.continuous_batching import BlockManager, SequenceGroup
from ovlab.sim.genai.continuous_batching.block_manager import PrefixRestorePlan
from ovlab.sim.genai.continuous_batching.sequence_group import (
    get_beam_search_config,
    get_greedy_config,
)

SIZE_MAX = 2**64 - 1


def create_sequence_group(request_id: int = 0) -> SequenceGroup:
    return SequenceGroup(request_id, [0, 1, 2, 3], get_beam_search_config())


def create_tokens_group(tokens, request_id) -> SequenceGroup:
    return SequenceGroup(request_id, list(tokens), get_greedy_config())


def ensure_two_running_sequences(group: SequenceGroup) -> None:
    group.fork_sequence(group.get_running_sequences()[0])
    assert group.num_running_seqs() == 2


def test_general_test():
    """TestBlockManager.general_test"""
    bm = BlockManager(6, False, 4)
    prompt_ids = [10, 0]
    g = SequenceGroup(0, prompt_ids, get_beam_search_config())
    sequence = g.get_not_finished_sequences()[0]
    bm.allocate_tokens(sequence, g, 24, len(prompt_ids))
    seq_id = sequence.get_id()
    assert bm.has_block_table(seq_id)
    assert len(bm.get_block_table(seq_id, 0)) == 6
    assert bm.num_free_blocks() == 0
    bm.free_sequence_partially(seq_id, 4)
    assert len(bm.get_block_table(seq_id, 0)) == 2
    assert bm.num_free_blocks() == 4
    bm.free_sequence(seq_id)
    assert not bm.has_block_table(seq_id)
    assert bm.num_free_blocks() == 6
    bm.allocate_tokens(sequence, g, 8, len(prompt_ids))
    child = seq_id + 10_000  # C++ writes 1: any id not in use
    bm.fork_sequence(seq_id, child)
    assert bm.has_block_table(child)
    assert bm.get_block_table(child, 0)[-1].get_references_count() == 2
    bm.free_sequence(seq_id)
    bm.free_sequence(child)


def test_required_blocks_count():
    """TestBlockManager.required_blocks_count"""
    bm = BlockManager(8, False, 4, 3)
    g = SequenceGroup(0, [0, 1, 2, 3, 4], get_beam_search_config())
    g.schedule_tokens(5)
    assert bm.required_blocks_count(g) == 2
    assert bm.can_append_slots(g)
    bm.append_slots(g)
    assert bm.num_free_blocks() == 6
    assert bm.get_number_of_blocks_occupied_by_sequence(g) == 2
    g.finish_iteration()
    to_fork = g.get_running_sequences()[0]
    for _ in range(4):
        forked = g.fork_sequence(to_fork)
        bm.fork_sequence(to_fork.get_id(), forked.get_id())
    assert bm.get_number_of_blocks_occupied_by_sequence(g) == 2
    g.schedule_tokens(1)
    # the last block was incomplete before forking: one more block per new fork
    assert bm.required_blocks_count(g) == 4
    assert bm.can_append_slots(g)
    bm.append_slots(g)
    assert bm.get_number_of_blocks_occupied_by_sequence(g) == 6
    assert bm.num_free_blocks() == 2
    g.finish_iteration()
    g.schedule_tokens(3)
    # 3 more tokens on top of 6: one more block per sequence
    assert bm.required_blocks_count(g) == 5
    assert not bm.can_append_slots(g)
    for seq in g.get_sequences():
        bm.free_sequence(seq.get_id())


def test_CanFreeBlocksFromSequence():
    """TestBlockManager.CanFreeBlocksFromSequence"""
    bm = BlockManager(8, False, 2, 3)
    g = SequenceGroup(0, [0, 1, 2, 3, 4], get_beam_search_config())
    g.schedule_tokens(5)
    bm.append_slots(g)
    assert bm.num_free_blocks() == 5
    seq_id = g.get_sequences()[0].get_id()
    bm.free_blocks_from_sequence(seq_id, [{0}, {1}, {2}])
    assert bm.num_free_blocks() == 6
    for seq in g.get_sequences():
        bm.free_sequence(seq.get_id())


def test_CannotFreeLogicalBlockPastTableEnd():
    """TestBlockManager.CannotFreeLogicalBlockPastTableEnd"""
    bm = BlockManager(8, False, 2, 3)
    tokens = [0, 1, 2, 3, 4]
    g = SequenceGroup(0, tokens, get_beam_search_config())
    g.schedule_tokens(len(tokens))
    bm.append_slots(g)
    seq_id = g.get_sequences()[0].get_id()
    assert len(bm.get_block_table(seq_id, 0)) == 3
    with pytest.raises(RuntimeError, match="cannot free logical block 3"):
        bm.free_blocks_from_sequence(seq_id, [{3}, {3}, {3}])
    for seq in g.get_sequences():
        bm.free_sequence(seq.get_id())


def test_FixedSizeCanAllocateCumulativeDeficitFails():
    """TestBlockManager.FixedSizeCanAllocateCumulativeDeficitFails"""
    bm = BlockManager(2, False, 1, 1, 2)
    g = create_sequence_group(10)
    ensure_two_running_sequences(g)
    # two running sequences need 2 blocks each; the pool has 2
    assert not bm.can_allocate_tokens(g, 1)


def test_FixedSizeCanAllocateExactCumulativeFitPasses():
    """TestBlockManager.FixedSizeCanAllocateExactCumulativeFitPasses"""
    bm = BlockManager(2, False, 1, 1, 1)
    g = create_sequence_group(11)
    ensure_two_running_sequences(g)
    assert bm.can_allocate_tokens(g, 1)


def test_FixedSizeAllocateTokensOnlyForMissingSequence():
    """TestBlockManager.FixedSizeAllocateTokensOnlyForMissingSequence"""
    bm = BlockManager(4, False, 1, 1, 2)
    g = create_sequence_group(12)
    ensure_two_running_sequences(g)
    parent, child = g.get_running_sequences()
    bm.allocate_tokens(parent, g, 1, g.get_prompt_len())
    assert bm.has_block_table(parent.get_id())
    assert len(bm.get_block_table(parent.get_id(), 0)) == 2
    assert bm.num_free_blocks() == 2
    bm.allocate_tokens(child, g, 1, g.get_prompt_len())
    assert len(bm.get_block_table(child.get_id(), 0)) == 2
    assert len(bm.get_block_table(parent.get_id(), 0)) == 2  # parent unchanged
    assert bm.num_free_blocks() == 0
    bm.free_sequence(parent.get_id())
    bm.free_sequence(child.get_id())


def test_FixedSizeAvailableTokenSlotsBeforeAndAfterAllocation():
    """TestBlockManager.FixedSizeAvailableTokenSlotsBeforeAndAfterAllocation"""
    before = BlockManager(3, False, 1, 1, 2)
    g = create_sequence_group(13)
    ensure_two_running_sequences(g)
    running = g.get_running_sequences()
    before.allocate_tokens(running[0], g, 1, g.get_prompt_len())
    assert before.num_free_blocks() == 1
    assert before.available_token_slots(g) == 0
    before.free_sequence(running[0].get_id())

    after = BlockManager(4, False, 1, 1, 2)
    g = create_sequence_group(14)
    ensure_two_running_sequences(g)
    running = g.get_running_sequences()
    after.allocate_tokens(running[0], g, 1, g.get_prompt_len())
    after.allocate_tokens(running[1], g, 1, g.get_prompt_len())
    assert after.available_token_slots(g) == SIZE_MAX
    after.free_sequence(running[0].get_id())
    after.free_sequence(running[1].get_id())


def test_FixedSizeFreeSequenceReleasesCapacityForNextSequence():
    """TestBlockManager.FixedSizeFreeSequenceReleasesCapacityForNextSequence"""
    bm = BlockManager(2, False, 1, 1, 2)
    first = create_sequence_group(15)
    first_seq = first.get_running_sequences()[0]
    bm.allocate_tokens(first_seq, first, 1, first.get_prompt_len())
    assert bm.num_free_blocks() == 0
    bm.free_sequence(first_seq.get_id())
    assert bm.num_free_blocks() == 2
    second = create_sequence_group(16)
    second_seq = second.get_running_sequences()[0]
    assert bm.can_allocate_tokens(second, 1)
    bm.allocate_tokens(second_seq, second, 1, second.get_prompt_len())
    assert len(bm.get_block_table(second_seq.get_id(), 0)) == 2
    bm.free_sequence(second_seq.get_id())


def test_TemporaryBlocksPromoteSelectedCheckpoint():
    """TestBlockManager.TemporaryBlocksPromoteSelectedCheckpoint"""
    bm = BlockManager(4, False, 1, 1, 1)
    g = create_sequence_group(17)
    seq = g.get_running_sequences()[0]
    bm.allocate_tokens(seq, g, 1, g.get_prompt_len())
    seq_id = seq.get_id()
    committed = bm.get_block_table(seq_id, 0)[0].get_index()
    checkpoints = bm.reserve_temporary_blocks(seq_id, 3)
    assert len(checkpoints) == 3
    assert bm.num_free_blocks() == 0
    bm.promote_temporary_block(seq_id, 2)
    assert bm.get_block_table(seq_id, 0)[0].get_index() == checkpoints[1]
    assert bm.get_block_table(seq_id, 0)[0].get_index() != committed
    assert bm.num_free_blocks() == 3
    bm.free_sequence(seq_id)
    assert bm.num_free_blocks() == 4


def test_TemporaryBlocksReleaseWithoutPromotion():
    """TestBlockManager.TemporaryBlocksReleaseWithoutPromotion"""
    bm = BlockManager(3, False, 1, 1, 1)
    g = create_sequence_group(18)
    seq = g.get_running_sequences()[0]
    bm.allocate_tokens(seq, g, 1, g.get_prompt_len())
    seq_id = seq.get_id()
    committed = bm.get_block_table(seq_id, 0)[0].get_index()
    assert len(bm.reserve_temporary_blocks(seq_id, 2)) == 2
    assert bm.num_free_blocks() == 0
    bm.release_temporary_blocks(seq_id)
    assert bm.get_block_table(seq_id, 0)[0].get_index() == committed
    assert bm.num_free_blocks() == 2
    bm.free_sequence(seq_id)
    assert bm.num_free_blocks() == 3


def test_PrefixCachingCompleteCheckpointReuseAllocatesOwnedWriteBlocks():
    """TestBlockManager.PrefixCachingCompleteCheckpointReuseAllocatesOwnedWriteBlocks"""
    bm = BlockManager(8, True, 4, 1)
    tokens = [0, 1, 2, 3]
    producer = create_tokens_group(tokens, 20)
    producer.schedule_tokens(len(tokens))
    bm.append_slots(producer)
    producer.finish_iteration()
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    checkpoint = bm.get_block_table(producer_seq_id, 0)[0].get_index()
    bm.free_sequence(producer_seq_id)

    first, second = create_tokens_group(tokens, 21), create_tokens_group(tokens, 22)
    bm.restore_cached_blocks(first)
    bm.restore_cached_blocks(second)
    s1 = first.get_running_sequences()[0].get_id()
    s2 = second.get_running_sequences()[0].get_id()
    assert len(bm.get_block_table(s1, 0)) == 1 and len(bm.get_block_table(s2, 0)) == 1
    assert bm.get_block_table(s1, 0)[0].get_index() == checkpoint
    assert bm.get_block_table(s2, 0)[0].get_index() == checkpoint
    assert bm.get_block_table(s1, 0)[0].get_references_count() == 2

    # continuation writes go to request-owned blocks, not the shared complete checkpoint
    first.update_processed_tokens_num(len(tokens))
    second.update_processed_tokens_num(len(tokens))
    first.schedule_tokens(1)
    second.schedule_tokens(1)
    first_copy_map = bm.append_slots(first)
    second_copy_map = bm.append_slots(second)
    assert len(bm.get_block_table(s1, 0)) == 2 and len(bm.get_block_table(s2, 0)) == 2
    assert not first_copy_map and not second_copy_map
    assert bm.get_block_table(s1, 0)[0].get_index() == checkpoint
    assert bm.get_block_table(s2, 0)[0].get_index() == checkpoint
    assert bm.get_block_table(s1, 0)[1].get_index() != checkpoint
    assert bm.get_block_table(s2, 0)[1].get_index() != checkpoint
    assert bm.get_block_table(s1, 0)[1].get_index() != bm.get_block_table(s2, 0)[1].get_index()
    bm.free_sequence(s1)
    bm.free_sequence(s2)


def test_SequenceHashRejectsZeroContentLength():
    """TestBlockManager.SequenceHashRejectsZeroContentLength"""
    seq = create_sequence_group().get_running_sequences()[0]
    with pytest.raises(RuntimeError, match="positive content length"):
        seq.get_hash(0, 4)


def test_PrefixCachingIncompleteCheckpointUsesCopyOnWritePerSequence():
    """TestBlockManager.PrefixCachingIncompleteCheckpointUsesCopyOnWritePerSequence"""
    bm = BlockManager(8, True, 4, 1)
    tokens = [0, 1, 2, 3, 4, 5]
    producer = create_tokens_group(tokens, 23)
    producer.schedule_tokens(len(tokens))
    bm.append_slots(producer)
    producer.finish_iteration()
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    complete = bm.get_block_table(producer_seq_id, 0)[0].get_index()
    incomplete = bm.get_block_table(producer_seq_id, 0)[1].get_index()
    bm.free_sequence(producer_seq_id)

    first, second = create_tokens_group(tokens, 24), create_tokens_group(tokens, 25)
    bm.restore_cached_blocks(first)
    bm.restore_cached_blocks(second)
    s1 = first.get_running_sequences()[0].get_id()
    s2 = second.get_running_sequences()[0].get_id()
    for sid in (s1, s2):
        assert [b.get_index() for b in bm.get_block_table(sid, 0)] == [complete, incomplete]

    # both resume inside the same incomplete block: copy-on-write before writing
    first.schedule_tokens(1)
    second.schedule_tokens(1)
    first_copy_map = bm.append_slots(first)
    second_copy_map = bm.append_slots(second)
    assert len(bm.get_block_table(s1, 0)) == 2 and len(bm.get_block_table(s2, 0)) == 2
    assert incomplete in first_copy_map
    assert not second_copy_map
    assert bm.get_block_table(s1, 0)[0].get_index() == complete
    assert bm.get_block_table(s2, 0)[0].get_index() == complete
    assert bm.get_block_table(s1, 0)[1].get_index() != incomplete
    assert bm.get_block_table(s2, 0)[1].get_index() == incomplete
    assert bm.get_block_table(s1, 0)[1].get_index() != bm.get_block_table(s2, 0)[1].get_index()
    bm.free_sequence(s1)
    bm.free_sequence(s2)


def test_PrefixCachingLatestOnlyRestoreKeepsLatestBlockWithLogicalOffset():
    """TestBlockManager.PrefixCachingLatestOnlyRestoreKeepsLatestBlockWithLogicalOffset"""
    bm = BlockManager(8, True, 4, 1, 0, True)
    tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    producer = create_tokens_group(tokens, 26)
    producer.schedule_tokens(len(tokens))
    bm.append_slots(producer)
    producer.finish_iteration()
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    assert len(bm.get_block_table(producer_seq_id, 0)) == 2
    older, latest = bm.get_block_table(producer_seq_id, 0)
    latest_idx = latest.get_index()
    bm.free_sequence(producer_seq_id)

    consumer = create_tokens_group(tokens, 27)
    bm.restore_cached_blocks(consumer)
    seq = consumer.get_running_sequences()[0]
    assert len(bm.get_block_table(seq.get_id(), 0)) == 2
    assert bm.get_block_table(seq.get_id(), 0)[1].get_index() == latest_idx
    assert bm.get_block_table_logical_start(seq.get_id()) == 0
    assert older.get_references_count() == 1
    assert latest.get_references_count() == 1
    assert consumer.get_num_processed_tokens() == len(tokens) - 1

    seq.append_token(8, 0.9)
    consumer.update_processed_tokens_num(len(tokens))
    consumer.schedule_tokens(1)
    bm.append_slots(consumer)
    assert len(bm.get_block_table(seq.get_id(), 0)) == 3
    assert bm.get_block_table_logical_start(seq.get_id()) == 0
    bm.free_sequence(seq.get_id())


def test_PrefixCachingLatestOnlyRestoreKeepsLogicalOffsetWhenOlderBlocksAreMissing():
    """TestBlockManager.PrefixCachingLatestOnlyRestoreKeepsLogicalOffsetWhenOlderBlocksAreMissing"""
    bm = BlockManager(2, True, 4, 1, 0, True)
    tokens = [0, 1, 2, 3, 4, 5, 6, 7]
    producer = create_tokens_group(tokens, 28)
    producer.schedule_tokens(len(tokens))
    bm.append_slots(producer)
    producer.finish_iteration()
    producer_seq_id = producer.get_running_sequences()[0].get_id()
    assert len(bm.get_block_table(producer_seq_id, 0)) == 2
    older, latest = bm.get_block_table(producer_seq_id, 0)
    older_idx, latest_idx = older.get_index(), latest.get_index()
    bm.free_sequence(producer_seq_id)

    pressure = create_tokens_group([10, 11, 12, 13], 29)
    pressure.schedule_tokens(4)
    bm.append_slots(pressure)
    pressure_seq_id = pressure.get_running_sequences()[0].get_id()
    assert bm.get_block_table(pressure_seq_id, 0)[0].get_index() == older_idx

    consumer = create_tokens_group(tokens, 30)
    bm.restore_cached_blocks(consumer)
    consumer_seq_id = consumer.get_running_sequences()[0].get_id()
    assert len(bm.get_block_table(consumer_seq_id, 0)) == 1
    assert bm.get_block_table(consumer_seq_id, 0)[0].get_index() == latest_idx
    assert bm.get_block_table_logical_start(consumer_seq_id) == 1
    assert older.get_references_count() == 1
    assert latest.get_references_count() == 1
    assert consumer.get_num_processed_tokens() == len(tokens) - 1
    bm.free_sequence(pressure_seq_id)
    bm.free_sequence(consumer_seq_id)


def test_PrefixRestorePlanningCapsFullRestoreToLatestStateRestore():
    """TestBlockManager.PrefixRestorePlanningCapsFullRestoreToLatestStateRestore"""
    kv = BlockManager(8, True, 4, 1)
    state = BlockManager(8, True, 4, 1, 0, True)
    full_prefix = [0, 1, 2, 3, 4, 5, 6, 7]
    kv_producer = create_tokens_group(full_prefix, 28)
    kv_producer.schedule_tokens(len(full_prefix))
    kv.append_slots(kv_producer)
    kv_producer.finish_iteration()
    kv.free_sequence(kv_producer.get_running_sequences()[0].get_id())

    state_prefix = [0, 1, 2, 3]
    state_producer = create_tokens_group(state_prefix, 29)
    state_producer.schedule_tokens(len(state_prefix))
    state.append_slots(state_producer)
    state_producer.finish_iteration()
    state.free_sequence(state_producer.get_running_sequences()[0].get_id())

    consumer = create_tokens_group(full_prefix, 30)
    kv_full_plan = kv.get_prefix_restore_plan(consumer)
    assert kv_full_plan.cache_token_position == len(full_prefix)
    assert len(kv_full_plan.block_content_lengths) == 2
    state_plan = state.get_prefix_restore_plan(consumer, kv_full_plan.cache_token_position)
    assert state_plan.cache_token_position == len(state_prefix)
    assert len(state_plan.block_content_lengths) == 1
    kv_common_plan = kv.get_prefix_restore_plan(consumer, state_plan.cache_token_position)
    assert kv_common_plan.cache_token_position == len(state_prefix)
    assert len(kv_common_plan.block_content_lengths) == 1

    kv.restore_cached_blocks(consumer, kv_common_plan)
    state.restore_cached_blocks(consumer, state_plan)
    consumer_seq_id = consumer.get_running_sequences()[0].get_id()
    assert len(kv.get_block_table(consumer_seq_id, 0)) == 1
    assert len(state.get_block_table(consumer_seq_id, 0)) == 1
    assert state.get_block_table_logical_start(consumer_seq_id) == 0
    assert consumer.get_num_processed_tokens() == len(state_prefix)
    kv.free_sequence(consumer_seq_id)
    state.free_sequence(consumer_seq_id)


def test_PrefixRestoreStalePlanReturnsFalseWithoutRestoring():
    """TestBlockManager.PrefixRestoreStalePlanReturnsFalseWithoutRestoring"""
    bm = BlockManager(1, True, 4)
    tokens = [0, 1, 2, 3]
    consumer = create_tokens_group(tokens, 31)
    stale = PrefixRestorePlan(block_content_lengths=[len(tokens)],
                              cache_token_position=len(tokens), processed_tokens=len(tokens) - 1)
    assert not bm.restore_cached_blocks(consumer, stale)
    assert not bm.has_block_table(consumer.get_running_sequences()[0].get_id())
