"""The paged KV cache's bookkeeping: blocks, their allocator and the per-sequence block tables.

Ported from openvino.genai@da1db864 ``src/cpp/src/continuous_batching/cache/block_manager.hpp``:
``CacheBlock``, ``OverwritableBlocksHashStore`` (the evictor of prefix caching: freed blocks
keep their contents under their prefix hash and are either restored by a later prompt with the
same prefix or overwritten, least recently used first), ``BlockAllocator`` and ``BlockManager``
(block tables, copy-on-write for forked beams, partial freeing for preemption, prefix restore,
fixed-size-per-sequence pools for linear-attention state).

A block holds ``block_size`` tokens of one layer-set; ``num_layers`` > 1 only with per-layer
block tables (cache eviction). Block contents live in the cache manager; here blocks are
indices with reference counts. Timestamps for LRU are a logical clock (C++: steady_clock), so
runs are deterministic.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field

from .sequence_group import Sequence, SequenceGroup, _require

INT_MAX = 2**31 - 1
_clock = itertools.count(1)  # steady_clock::now(): only the order matters


class CacheBlock:
    """One physical cache block: an index, a reference count and the prefix hash of its
    contents (``class CacheBlock``)."""

    __slots__ = ("_ref_count", "_index", "_hash", "_timestamp")

    def __init__(self, index: int) -> None:
        self._ref_count = 0
        self._index = index
        self._hash = 0
        self._timestamp = next(_clock)

    def __repr__(self) -> str:
        return f"<CacheBlock {self._index} refs={self._ref_count}>"

    def get_index(self) -> int:
        return self._index

    def is_free(self) -> bool:
        return self._ref_count == 0

    def increment(self) -> None:
        self._ref_count += 1

    def release(self) -> None:
        _require(self._ref_count > 0)
        self._ref_count -= 1

    def copy_on_write(self) -> bool:
        return self._ref_count > 1

    def get_references_count(self) -> int:
        return self._ref_count

    def get_hash(self) -> int:
        return self._hash

    def set_hash(self, hash: int) -> None:
        self._hash = hash

    def set_timestamp(self, timestamp: int) -> None:
        self._timestamp = timestamp

    def get_timestamp(self) -> int:
        return self._timestamp


BlocksPerLayer = list  # list[CacheBlock], one per block-table layer


class OverwritableBlocksHashStore:
    """Freed blocks whose contents may be reused by prefix (``OverwritableBlocksHashStore``)."""

    def __init__(self, num_layers: int = 1) -> None:
        _require(num_layers != 0, "num_layers must be non-zero")
        self._blocks: dict[int, list[CacheBlock]] = {}
        self._num_layers = num_layers

    def add(self, blocks_for_all_layers: list[CacheBlock]) -> None:
        _require(len(blocks_for_all_layers) == self._num_layers)
        _require(all(b.is_free() for b in blocks_for_all_layers))
        h = blocks_for_all_layers[0].get_hash()
        for b in blocks_for_all_layers:
            if b.get_hash() != h:
                raise RuntimeError("internal error - block hashes for all layers must be equal")
        _require(h not in self._blocks)
        self._blocks[h] = list(blocks_for_all_layers)

    def get_block_to_restore(self, hash: int) -> list[CacheBlock]:
        blocks = self._blocks.pop(hash, None)
        if blocks is None:
            return []
        for b in blocks:
            b.set_timestamp(next(_clock))
            b.increment()
        return blocks

    def get_lru_block_to_overwrite(self) -> list[CacheBlock]:
        if not self._blocks:
            return []
        # std::map iterates by hash and min_element keeps the first of equal timestamps: the
        # smallest (timestamp, hash)
        h = min(self._blocks, key=lambda k: (self._blocks[k][0].get_timestamp(), k))
        blocks = self._blocks.pop(h)
        ts = next(_clock)
        for b in blocks:
            b.set_timestamp(ts)
            b.increment()
        return blocks

    def num_blocks(self) -> int:
        return len(self._blocks)

    def has_block(self, hash: int) -> bool:
        return hash in self._blocks

    def clean_store(self, hashes_to_discard: set[int]) -> list[list[CacheBlock]]:
        out = []
        for h in sorted(hashes_to_discard):
            blocks = self._blocks.pop(h, None)
            if blocks is not None:
                out.append(blocks)
        return out

    def clear(self) -> None:
        self._blocks.clear()


@dataclass
class CacheBlockAllocationResult:
    blocks: list[CacheBlock] = field(default_factory=list)
    erased_hash: int | None = None


class BlockAllocator:
    """A layered pool of free blocks (``class BlockAllocator``)."""

    def __init__(self, num_blocks: int, enable_prefix_caching: bool, num_layers: int = 1) -> None:
        _require(num_layers != 0, "num_layers must be non-zero")
        _require(num_blocks <= INT_MAX, f"num_blocks {num_blocks} exceeds the maximum allowed "
                 f"block index ({INT_MAX})")
        self._total_num_blocks = num_blocks
        self._num_layers = num_layers
        self._enable_prefix_caching = enable_prefix_caching
        self._overwriteable_blocks = OverwritableBlocksHashStore(num_layers)
        self._free_blocks: list[deque[CacheBlock]] = [
            deque(CacheBlock(i) for i in range(num_blocks)) for _ in range(num_layers)]
        self._free_blocks_num = [num_blocks] * num_layers

    def leaked_blocks(self) -> int:
        """Blocks neither free nor overwritable (the destructor's sanity check)."""
        return max(self._total_num_blocks - (f + self.num_overwriteable_blocks())
                   for f in self._free_blocks_num)

    def increase_block_count(self, new_block_count: int) -> None:
        _require(new_block_count <= INT_MAX, f"new_block_count {new_block_count} exceeds the "
                 f"maximum allowed block index ({INT_MAX})")
        _require(new_block_count > self._total_num_blocks,
                 "New blocks number should be more than previous blocks number.")
        added = new_block_count - self._total_num_blocks
        for i in range(len(self._free_blocks_num)):
            self._free_blocks_num[i] += added
        for per_layer in self._free_blocks:
            per_layer.extend(CacheBlock(b) for b in range(self._total_num_blocks, new_block_count))
        self._total_num_blocks = new_block_count

    def num_free_blocks(self, layer_idx: int) -> int:
        return self._free_blocks_num[layer_idx] + self.num_overwriteable_blocks()

    def num_overwriteable_blocks(self) -> int:
        return self._overwriteable_blocks.num_blocks()

    def can_allocate_blocks(self, num_blocks: int, layer_idx: int | None = None) -> bool:
        if layer_idx is None:
            return all(self.can_allocate_blocks(num_blocks, i) for i in range(self._num_layers))
        return num_blocks <= self.num_free_blocks(layer_idx)

    def free_block(self, block: CacheBlock, layer_idx: int) -> None:
        """``free(CacheBlock::Ptr&, size_t layer_idx)`` (no prefix caching)."""
        _require(not self._enable_prefix_caching)
        _require(layer_idx < self._num_layers)
        block.release()
        if block.is_free():
            self._free_blocks[layer_idx].append(block)
            self._free_blocks_num[layer_idx] += 1

    def allocate_uncached_block(self) -> list[CacheBlock]:
        """One block per layer outside prefix-cache bookkeeping (linear-attention checkpoints)."""
        _require(self.can_allocate_blocks(1))
        out = []
        for layer_idx in range(self._num_layers):
            _require(self._free_blocks_num[layer_idx] > 0,
                     "Uncached checkpoint allocation requires a free physical block")
            block = self._free_blocks[layer_idx].popleft()
            block.increment()
            out.append(block)
            self._free_blocks_num[layer_idx] -= 1
        return out

    def free_uncached(self, blocks_for_all_layers: list[CacheBlock]) -> None:
        _require(len(blocks_for_all_layers) == self._num_layers)
        for layer_idx, block in enumerate(blocks_for_all_layers):
            block.release()
            if block.is_free():
                self._free_blocks[layer_idx].append(block)
                self._free_blocks_num[layer_idx] += 1

    def free(self, blocks_for_all_layers: list[CacheBlock],
             cached_blocks: dict[int, list[CacheBlock]]) -> None:
        """Release one block per layer; a block nobody holds goes back to the free pool or, with
        prefix caching, to the overwritable store under its hash."""
        _require(len(blocks_for_all_layers) == self._num_layers)
        for block in blocks_for_all_layers:
            block.release()
        is_any_free = any(b.is_free() for b in blocks_for_all_layers)
        if is_any_free and self._num_layers > 1:
            _require(all(b.is_free() for b in blocks_for_all_layers),
                     "blocks across layers must be freed simultaneously")
        if not is_any_free:
            return
        if self._enable_prefix_caching:
            hashes = {b.get_hash() for b in blocks_for_all_layers}
            if len(hashes) == 1:
                # guard against hash collision
                colliding = self._overwriteable_blocks.clean_store(hashes)
                if colliding:
                    _require(len(colliding) == 1)
                    col = colliding[0]
                    if all(col[i].get_index() == blocks_for_all_layers[i].get_index()
                           for i in range(len(col))):
                        raise RuntimeError("internal error - double free when prefix caching")
                    for layer_idx, block in enumerate(col):
                        self._free_blocks[layer_idx].append(block)
                        self._free_blocks_num[layer_idx] += 1
                    cached = cached_blocks.get(col[0].get_hash())
                    if cached is not None:
                        _require(len(cached) > 0, "cached_blocks entry must not be empty")
                        if col[0].get_index() == cached[0].get_index():
                            cached_blocks[col[0].get_hash()] = list(blocks_for_all_layers)
                self._overwriteable_blocks.add(blocks_for_all_layers)
            else:
                # blocks from different time steps: not eligible for caching
                for layer_idx, block in enumerate(blocks_for_all_layers):
                    self._free_blocks[layer_idx].append(block)
                    self._free_blocks_num[layer_idx] += 1
        else:
            for layer_idx, block in enumerate(blocks_for_all_layers):
                self._free_blocks[layer_idx].append(block)
                self._free_blocks_num[layer_idx] += 1

    def allocate_block(self, layer_idx: int | None = None) -> CacheBlock | list[CacheBlock]:
        """A fresh block for one layer, or one per layer (no prefix caching)."""
        if layer_idx is None:
            return [self.allocate_block(i) for i in range(self._num_layers)]
        _require(layer_idx < len(self._free_blocks))
        _require(not self._enable_prefix_caching)
        _require(self.can_allocate_blocks(1, layer_idx), "BlockAllocator::allocate_block: no "
                 "free KV cache block (OPENVINO_ASSERT(can_allocate_blocks(1, layer_idx)) in GenAI)")
        block = self._free_blocks[layer_idx].popleft()
        block.increment()
        self._free_blocks_num[layer_idx] -= 1
        return block

    def allocate_cached_block(self, hash: int, cached_blocks: dict[int, list[CacheBlock]]
                              ) -> CacheBlockAllocationResult:
        """``allocate_block(hash, cached_blocks)``: a fresh block if any, else the LRU
        overwritable one (its old hash is forgotten); registered under ``hash``."""
        _require(self._enable_prefix_caching)
        _require(self.can_allocate_blocks(1), "BlockAllocator::allocate_block: no free KV cache "
                 "block (OPENVINO_ASSERT(can_allocate_blocks(1)) in GenAI)")
        result = CacheBlockAllocationResult()
        if self._free_blocks_num[0] > 0:
            for i in range(self._num_layers):
                block = self._free_blocks[i].popleft()
                block.increment()
                block.set_hash(hash)
                result.blocks.append(block)
                self._free_blocks_num[i] -= 1
            cached_blocks[hash] = list(result.blocks)
            return result
        if self._overwriteable_blocks.num_blocks() > 0:
            result.blocks = self._overwriteable_blocks.get_lru_block_to_overwrite()
            previous_hash = result.blocks[0].get_hash()
            if cached_blocks.pop(previous_hash, None) is not None:
                result.erased_hash = previous_hash
            for block in result.blocks:
                block.set_hash(hash)
            cached_blocks[hash] = list(result.blocks)
        return result

    def get_cached_block(self, hash: int, cached_blocks: dict[int, list[CacheBlock]]
                         ) -> list[CacheBlock]:
        blocks = self._overwriteable_blocks.get_block_to_restore(hash)
        if blocks:
            return blocks
        blocks = cached_blocks.get(hash)
        if blocks is not None:
            for b in blocks:
                b.increment()
            return list(blocks)
        return []

    def has_cached_block(self, hash: int, cached_blocks: dict[int, list[CacheBlock]]) -> bool:
        return self._overwriteable_blocks.has_block(hash) or hash in cached_blocks

    def get_used_percentage(self) -> float:
        total = self._num_layers * self._total_num_blocks
        free = sum(self.num_free_blocks(i) for i in range(self._num_layers))
        # float division as C++ (0/0 gives NaN there too; guarded for an empty dynamic pool)
        return float((total - free) / total * 100) if total else 0.0

    def get_total_block_count(self) -> int:
        return self._total_num_blocks

    def clear(self) -> None:
        self._total_num_blocks = 0
        self._free_blocks_num = [0] * self._num_layers
        for per_layer in self._free_blocks:
            per_layer.clear()
        self._overwriteable_blocks.clear()


@dataclass
class PrefixRestorePlan:
    """``BlockManager::PrefixRestorePlan``: which cached blocks a prompt can take over."""

    block_content_lengths: list[int] = field(default_factory=list)
    cache_token_position: int = 0
    processed_tokens: int = 0
    logical_block_start: int = 0

    def empty(self) -> bool:
        return not self.block_content_lengths


class BlockManager:
    """Block tables of sequences over a :class:`BlockAllocator` (``class BlockManager``).

    Each sequence (not group) has a table per block-table layer listing its physical blocks in
    logical order; forked sequences share blocks by reference count.
    """

    def __init__(self, num_blocks: int, enable_prefix_caching: bool, block_size: int,
                 num_layers: int = 1, fixed_blocks_per_sequence: int = 0,
                 restore_latest_prefix_block_only: bool = False) -> None:
        self._allocator = BlockAllocator(num_blocks, enable_prefix_caching, num_layers)
        self._enable_prefix_caching = enable_prefix_caching
        self._block_size = block_size
        self._num_layers = num_layers
        self._fixed_blocks_per_sequence = fixed_blocks_per_sequence
        self._restore_latest_prefix_block_only = restore_latest_prefix_block_only
        _require(num_layers != 0, "num_layers must be non-zero")
        _require(not restore_latest_prefix_block_only or enable_prefix_caching,
                 "Latest prefix block restore requires prefix caching to be enabled")
        self._prefix_hash_to_cached_blocks: dict[int, list[CacheBlock]] = {}
        self._cached_content_length_ref_counts: dict[int, int] = {}
        self._cached_hash_to_content_length: dict[int, int] = {}
        self._block_table: dict[int, list[list[CacheBlock]]] = {}
        self._temporary_block_table: dict[int, list[list[CacheBlock]]] = {}
        self._block_table_logical_start: dict[int, int] = {}

    def leaked_tables(self) -> list[int]:
        """Sequences still holding block tables (the destructor's sanity check)."""
        return sorted(self._block_table)

    def get_allocator(self) -> BlockAllocator:
        return self._allocator

    # --- block tables -----------------------------------------------------------------------
    def get_block_tables(self, seq_id: int) -> list[list[CacheBlock]]:
        if seq_id not in self._block_table:
            raise KeyError(f"no block table for sequence {seq_id}")  # std::map::at
        return self._block_table[seq_id]

    def get_block_table_logical_start(self, seq_id: int) -> int:
        return self._block_table_logical_start.get(seq_id, 0)

    def get_num_layers(self) -> int:
        return self._num_layers

    def get_block_table(self, seq_id: int, layer_idx: int) -> list[CacheBlock]:
        _require(seq_id in self._block_table)
        return self._block_table[seq_id][layer_idx]

    def get_block_size(self) -> int:
        return self._block_size

    def has_block_table(self, seq_id: int) -> bool:
        return seq_id in self._block_table

    def num_free_blocks(self) -> int:
        return self._allocator.num_free_blocks(0)  # all layers hold the same number of blocks

    def get_used_percentage(self) -> float:
        return self._allocator.get_used_percentage()

    def increase_block_count(self, num_blocks: int) -> None:
        self._allocator.increase_block_count(num_blocks)

    def get_total_block_count(self) -> int:
        return self._allocator.get_total_block_count()

    # --- partial freeing (preemption) -------------------------------------------------------
    def free_group_partially(self, sequence_group: SequenceGroup, num_required_blocks: int) -> int:
        """Free the same number of last blocks from each sequence, enough for
        ``num_required_blocks`` in total; return the tokens freed."""
        seqs = sequence_group.get_not_finished_sequences()
        blocks_num = -(-num_required_blocks // len(seqs))
        for seq in seqs:
            _require(seq.get_id() in self._block_table, "Invalid sequence group.")
            self.free_sequence_partially(seq.get_id(), blocks_num)
        return self._blocks_released_to_tokens(sequence_group, blocks_num)

    def free_group_partially_by_tokens(self, sequence_group: SequenceGroup, num_tokens: int) -> int:
        return self.free_group_partially(sequence_group, -(-num_tokens // self._block_size))

    def free_last_block_from_each_sequence(self, sequence_group: SequenceGroup) -> int:
        released = 0
        for seq in sequence_group.get_not_finished_sequences():
            _require(seq.get_id() in self._block_table, "Invalid sequence group.")
            if self.free_last_block(seq.get_id()):
                released += 1
        return released

    def free_last_block(self, seq_id: int) -> bool:
        table = self._block_table.setdefault(seq_id, [])
        _require(len(table[0]) >= 1)
        blocks_to_free = [table[i][-1] for i in range(self._num_layers)]
        self._free_cached_blocks(blocks_to_free)
        for i in range(self._num_layers):
            table[i].pop()
        if len(table[0]) == 0:
            self._block_table_logical_start.pop(seq_id, None)
            del self._block_table[seq_id]
        return blocks_to_free[0].is_free()

    def free_partially_beam_search_group(self, sequence_group: SequenceGroup,
                                         num_required_blocks: int) -> int:
        physical_released = 0
        logical_released = 0
        while num_required_blocks > physical_released:
            released_count = self.free_last_block_from_each_sequence(sequence_group)
            logical_released += 1
            if sequence_group.get_context_len() - logical_released * self._block_size <= 0:
                break
            physical_released += released_count
        return self._blocks_released_to_tokens(sequence_group, logical_released)

    def free_partially_beam_search_group_by_tokens(self, sequence_group: SequenceGroup,
                                                   num_tokens: int) -> int:
        return self.free_partially_beam_search_group(sequence_group,
                                                     -(-num_tokens // self._block_size))

    def get_number_of_blocks_occupied_by_sequence(self, sequence_group: SequenceGroup) -> int:
        indices = set()
        for seq in sequence_group.get_not_finished_sequences():
            table = self._block_table.get(seq.get_id())
            if table is None:
                continue
            indices.update(b.get_index() for b in table[0])
        return len(indices)

    def get_num_logical_blocks(self, seq_group: SequenceGroup) -> int:
        if self._fixed_blocks_per_sequence > 0:
            return self._fixed_blocks_per_sequence
        return -(-(seq_group.get_context_len() - seq_group.get_num_evicted_tokens())
                 // self._block_size)

    def can_partially_preempt(self, victim: SequenceGroup, target: SequenceGroup) -> bool:
        needed = self.required_blocks_count(target)
        if needed == 0:
            return True
        return self.get_number_of_blocks_occupied_by_sequence(victim) > needed

    def can_partially_preempt_victim(self, victim: SequenceGroup) -> bool:
        if not self._fixed_blocks_per_sequence:
            return True
        return not any(s.get_id() in self._block_table for s in victim.get_not_finished_sequences())

    # --- capacity (dynamic allocation) ------------------------------------------------------
    def has_token_capacity(self) -> bool:
        return self.get_total_block_count() > 0

    def is_fixed_size_per_sequence(self) -> bool:
        return self._fixed_blocks_per_sequence > 0

    def get_fixed_blocks_per_sequence(self) -> int:
        return self._fixed_blocks_per_sequence

    def grow_capacity_by_tokens(self, num_tokens: int) -> None:
        additional = -(-num_tokens // self._block_size)
        self.increase_block_count(self.get_total_block_count() + additional)

    def ensure_sequence_token_capacity(self, sequence_token_targets: list[tuple[int, int]]) -> None:
        required = 0
        for tokens_per_sequence, num_sequences in sequence_token_targets:
            if tokens_per_sequence == 0 or num_sequences == 0:
                continue
            required += -(-tokens_per_sequence // self._block_size) * num_sequences
        if required > self.get_total_block_count():
            self.increase_block_count(required)

    # --- temporary (linear-attention checkpoint) blocks -------------------------------------
    def reserve_temporary_blocks(self, seq_id: int, num_blocks: int) -> list[int]:
        _require(seq_id in self._block_table,
                 f"Cannot reserve temporary cache blocks for unknown sequence {seq_id}")
        _require(self._num_layers == 1,
                 "Temporary cache checkpoint reservation expects a shared one-layer block table")
        _require(not self._temporary_block_table.get(seq_id),
                 f"Temporary cache blocks are already reserved for sequence {seq_id}")
        _require(self._can_allocate_blocks(num_blocks), f"Not enough cache blocks to reserve "
                 f"{num_blocks} temporary checkpoints for sequence {seq_id}")
        temporary = self._temporary_block_table.setdefault(seq_id, [])
        indices = []
        for _ in range(num_blocks):
            blocks = self._allocator.allocate_uncached_block()
            _require(bool(blocks), "Temporary cache block allocation returned no blocks")
            indices.append(blocks[0].get_index())
            temporary.append(blocks)
        return indices

    def release_temporary_blocks(self, seq_id: int) -> None:
        temporary = self._temporary_block_table.pop(seq_id, None)
        if temporary is None:
            return
        for blocks in temporary:
            self._allocator.free_uncached(blocks)

    def promote_temporary_block(self, seq_id: int, checkpoint_slot: int) -> None:
        _require(checkpoint_slot > 0, "Checkpoint slot is one-based and must be greater than zero")
        temporary = self._temporary_block_table.get(seq_id)
        _require(temporary is not None, f"No temporary cache blocks reserved for sequence {seq_id}")
        _require(checkpoint_slot <= len(temporary), f"Checkpoint slot {checkpoint_slot} is out of "
                 f"range for sequence {seq_id}, reserved checkpoints: {len(temporary)}")
        table = self._block_table.get(seq_id)
        _require(table is not None,
                 f"Cannot promote temporary cache block for unknown sequence {seq_id}")
        _require(len(table) == self._num_layers,
                 "Temporary cache promotion expects one block table per layer")
        for layer in table:
            _require(len(layer) == 1,
                     "Temporary cache promotion supports fixed one-block sequence state only")
        selected_index = checkpoint_slot - 1
        selected = temporary[selected_index]
        previous = []
        for layer_idx in range(self._num_layers):
            previous.append(table[layer_idx][0])
            table[layer_idx][0] = selected[layer_idx]
        self._allocator.free_uncached(previous)
        for idx, blocks in enumerate(temporary):
            if idx != selected_index:
                self._allocator.free_uncached(blocks)
        del self._temporary_block_table[seq_id]

    # --- token-level capacity ---------------------------------------------------------------
    def _fixed_required_additional_blocks(self, seq_group: SequenceGroup) -> int:
        required = 0
        for seq in seq_group.get_running_sequences():
            table = self._block_table.get(seq.get_id())
            current = len(table[0]) if table is not None else 0
            if current < self._fixed_blocks_per_sequence:
                required += self._fixed_blocks_per_sequence - current
        return required

    def available_token_slots(self, seq_group: SequenceGroup) -> int:
        """Tokens this group can add: the free slots of its last block plus free blocks."""
        if self._fixed_blocks_per_sequence > 0:
            required = self._fixed_required_additional_blocks(seq_group)
            if required == 0:
                return SIZE_MAX
            return SIZE_MAX if self._can_allocate_blocks(required) else 0
        return self._get_num_unused_tokens(seq_group) + self.num_free_blocks() * self._block_size

    def can_allocate_tokens(self, seq_group: SequenceGroup, num_tokens: int) -> bool:
        if self._fixed_blocks_per_sequence > 0:
            return self._can_allocate_blocks(self._fixed_required_additional_blocks(seq_group))
        unused = self._get_num_unused_tokens(seq_group)
        needing_new = num_tokens - unused if num_tokens > unused else 0
        return self._can_allocate_blocks(-(-needing_new // self._block_size))

    def allocate_tokens(self, sequence: Sequence, seq_group: SequenceGroup, num_tokens: int,
                        prompt_size: int = 0) -> None:
        if self._fixed_blocks_per_sequence > 0:
            table = self._block_table.get(sequence.get_id())
            current = len(table[0]) if table is not None else 0
            needed = max(self._fixed_blocks_per_sequence - current, 0)
            if needed > 0:
                self._allocate(sequence, needed, prompt_size)
            return
        unused = self._get_num_unused_tokens(seq_group)
        needing_new = num_tokens - unused if num_tokens > unused else 0
        num_blocks = -(-needing_new // self._block_size)
        if num_blocks > 0:
            self._allocate(sequence, num_blocks, prompt_size)

    # --- forking and freeing ----------------------------------------------------------------
    def fork_sequence(self, parent_id: int, child_id: int) -> None:
        """A child shares all of its parent's blocks (beam search)."""
        _require(child_id not in self._block_table)
        parent = self._block_table.setdefault(parent_id, [[] for _ in range(self._num_layers)])
        self._block_table[child_id] = [[] for _ in range(self._num_layers)]
        self._block_table_logical_start[child_id] = self.get_block_table_logical_start(parent_id)
        for layer_idx in range(self._num_layers):
            for block in parent[layer_idx]:
                block.increment()
                self._block_table[child_id][layer_idx].append(block)

    def free_sequence(self, seq_id: int) -> None:
        """Free all blocks of a sequence."""
        self.release_temporary_blocks(seq_id)
        _require(seq_id in self._block_table,
                 f"sequence with id {seq_id} not found in BlockManager, but requested to free")
        table = self._block_table[seq_id]
        for i in range(len(table[0])):
            self._free_cached_blocks([table[layer][i] for layer in range(len(table))])
        del self._block_table[seq_id]
        self._block_table_logical_start.pop(seq_id, None)

    def free_sequence_partially(self, seq_id: int, block_num: int) -> None:
        """Free ``block_num`` blocks from the end of a sequence (all of it: forget it)."""
        table = self._block_table.setdefault(seq_id, [])
        for layer in table:
            _require(len(layer) >= block_num)
        for idx in range(block_num):
            self._free_cached_blocks([layer[len(layer) - idx - 1] for layer in table])
        for layer in table:
            del layer[len(layer) - block_num:]
        if any(not layer for layer in table):
            _require(all(not layer for layer in table),
                     "block tables across layers should only be empty all at once")
            del self._block_table[seq_id]
            self._block_table_logical_start.pop(seq_id, None)

    def free_blocks_from_sequence(self, seq_id: int,
                                  logical_block_index_sets_to_free: list[set[int]]) -> None:
        """Free given logical blocks per layer (cache eviction)."""
        to_free = [sorted(s) for s in logical_block_index_sets_to_free]
        _require(self._num_layers == len(to_free))
        for per_layer in to_free:
            _require(len(per_layer) == len(to_free[0]),
                     "must free the same amount of blocks per each layer at once")
        if not to_free[0]:
            return
        table = self._block_table[seq_id]
        for block_idx in range(len(to_free[0])):
            blocks = []
            for layer_idx in range(self._num_layers):
                logical = to_free[layer_idx][block_idx]
                _require(logical < len(table[layer_idx]), f"cannot free logical block {logical} "
                         f"from sequence {seq_id} since it only has {len(table[layer_idx])} "
                         "logical blocks")
                blocks.append(table[layer_idx][logical])
            self._free_cached_blocks(blocks)
        for layer_idx in range(self._num_layers):
            drop = logical_block_index_sets_to_free[layer_idx]
            _require(len(drop) <= len(table[layer_idx]), "too many blocks to free")
            table[layer_idx] = [b for i, b in enumerate(table[layer_idx]) if i not in drop]

    # --- slots for the next step ------------------------------------------------------------
    def can_append_slots(self, seq_group: SequenceGroup) -> bool:
        return self.required_blocks_count(seq_group) <= self._allocator.num_free_blocks(0)

    def required_blocks_count(self, seq_group: SequenceGroup) -> int:
        """Blocks the group's running sequences need beyond those they hold (copy-on-write
        of a shared last block counted once per extra reference)."""
        blocks_count = 0
        last_block_ids: set[int] = set()
        for seq in seq_group.get_running_sequences():
            seq_id = seq.get_id()
            if seq_id not in self._block_table:
                blocks_count += self.get_num_logical_blocks(seq_group)
                continue
            table = self._block_table[seq_id][0]
            num_physical = len(table)
            num_required = self._get_num_required_stored_blocks(seq_group, seq_id)
            _require(num_physical > 0)
            if num_physical > num_required:
                continue
            last_block_id = table[-1].get_index()
            if last_block_id in last_block_ids:
                continue
            last_block_ids.add(last_block_id)
            needed_per_sequence = num_required - num_physical
            last_block = table[-1]
            if last_block.copy_on_write():
                refs = last_block.get_references_count()
                if needed_per_sequence == 0:
                    blocks_count += refs - 1  # last block partly filled: copied n - 1 times
                else:
                    blocks_count += needed_per_sequence * refs
            else:
                blocks_count += needed_per_sequence
        return blocks_count

    def required_tokens_count(self, seq_group: SequenceGroup) -> int:
        return self.required_blocks_count(seq_group) * self._block_size

    def free_empty_physical_blocks(self, seq_group: SequenceGroup) -> None:
        """Free blocks beyond what the group's context needs (unconfirmed draft tokens)."""
        num_logical = 0 if seq_group.get_context_len() == 0 else self.get_num_logical_blocks(seq_group)
        for seq in seq_group.get_running_sequences():
            seq_id = seq.get_id()
            table = self._block_table.get(seq_id)
            if table is None or not table or not table[0]:
                if num_logical == 0 and table is not None:
                    self._block_table_logical_start.pop(seq_id, None)
                    del self._block_table[seq_id]
                continue
            num_physical = len(table[0])
            num_required = self._get_num_required_stored_blocks(seq_group, seq_id)
            if num_physical > num_required:
                self.free_sequence_partially(seq_id, num_physical - num_required)

    def append_slots(self, seq_group: SequenceGroup) -> dict[int, list[int]]:
        """Allocate what the group's running sequences need for their scheduled tokens; return
        the copy-on-write map {source block: [new blocks]} the cache manager must copy."""
        copy_blocks_map: dict[int, list[int]] = {}
        for sequence in seq_group.get_running_sequences():
            seq_id = sequence.get_id()
            num_physical = 0
            num_required = self.get_num_logical_blocks(seq_group)
            if seq_id in self._block_table:
                num_physical = len(self._block_table[seq_id][0])
                num_required = self._get_num_required_stored_blocks(seq_group, seq_id)
            if num_required > num_physical:
                _require(self._can_allocate_blocks(num_required - num_physical))
                self._allocate(sequence, num_required - num_physical, seq_group.get_prompt_len())
                continue
            _require(num_required == num_physical, "A number of physical and logic blocks must "
                     "be the same in this code path")
            table = self._block_table[seq_id]
            last_blocks = [layer[-1] for layer in table]
            if last_blocks[0].copy_on_write():
                if self._enable_prefix_caching:
                    content_length = seq_group.get_context_len()
                    h = sequence.get_hash(content_length, self._block_size)
                    new_blocks = self._allocate_cached_block(h, content_length)
                else:
                    new_blocks = [self._allocator.allocate_block(i) for i in range(len(table))]
                for i in range(len(table)):
                    table[i][num_physical - 1] = new_blocks[i]
                    copy_blocks_map.setdefault(last_blocks[i].get_index(), []).append(
                        new_blocks[i].get_index())
                self._free_cached_blocks(last_blocks)
            elif self._enable_prefix_caching:
                # we are the only users of this block: update its hash
                prev_hash = last_blocks[0].get_hash()
                content_length = seq_group.get_context_len()
                h = sequence.get_hash(content_length, self._block_size)
                for block in last_blocks:
                    block.set_hash(h)
                self._prefix_hash_to_cached_blocks.pop(prev_hash, None)
                self._prefix_hash_to_cached_blocks[h] = last_blocks
                self._unregister_cached_hash(prev_hash)
                self._register_cached_content_length(h, content_length)
        return copy_blocks_map

    # --- prefix caching: restore ------------------------------------------------------------
    def restore_cached_blocks(self, group: SequenceGroup,
                              plan: PrefixRestorePlan | None = None) -> bool:
        """Give a new prompt the cached blocks of its longest known prefix; its processed
        tokens jump past them (all but the last prompt token, which must be recomputed)."""
        if not self._enable_prefix_caching:
            return False
        if plan is None:
            plan = self._get_prefix_restore_plan_unlocked(group, group.get_prompt_len())
        return self._restore_cached_blocks_unlocked(group, plan)

    def get_prefix_restore_plan(self, group: SequenceGroup,
                                max_cache_token_position: int | None = None) -> PrefixRestorePlan:
        if max_cache_token_position is None:
            max_cache_token_position = group.get_prompt_len()
        if not self._enable_prefix_caching or max_cache_token_position == 0:
            return PrefixRestorePlan()
        return self._get_prefix_restore_plan_unlocked(group, max_cache_token_position)

    def clear(self) -> None:
        _require(not self._enable_prefix_caching)  # KV cache is kept under prefix caching
        _require(not self._block_table)  # cleared when generation is finished
        self._temporary_block_table.clear()
        self._allocator.clear()
        self._prefix_hash_to_cached_blocks.clear()
        self._cached_content_length_ref_counts.clear()
        self._cached_hash_to_content_length.clear()

    def _get_prefix_restore_plan_unlocked(self, group: SequenceGroup,
                                          max_cache_token_position: int) -> PrefixRestorePlan:
        if not self._enable_prefix_caching or max_cache_token_position == 0:
            return PrefixRestorePlan()
        prompt_len = group.get_prompt_len()
        capped = min(prompt_len, max_cache_token_position)
        seqs = group.get_not_finished_sequences()
        _require(len(seqs) == 1)
        if self._restore_latest_prefix_block_only:
            return self._get_latest_prefix_restore_plan(seqs[0], capped, prompt_len)
        return self._get_full_prefix_restore_plan(seqs[0], capped, prompt_len)

    def _restore_cached_blocks_unlocked(self, group: SequenceGroup, plan: PrefixRestorePlan) -> bool:
        if plan.empty():
            return False
        seqs = group.get_not_finished_sequences()
        _require(len(seqs) == 1)
        sequence = seqs[0]
        seq_id = sequence.get_id()
        for content_len in plan.block_content_lengths:
            if not self._allocator.has_cached_block(sequence.get_hash(content_len, self._block_size),
                                                    self._prefix_hash_to_cached_blocks):
                return False
        table = self._block_table.setdefault(seq_id, [[] for _ in range(self._num_layers)])
        for content_len in plan.block_content_lengths:
            blocks = self._allocator.get_cached_block(
                sequence.get_hash(content_len, self._block_size), self._prefix_hash_to_cached_blocks)
            _require(bool(blocks), "Prefix restore plan became unavailable for token position ",
                     content_len)
            ts = next(_clock)
            for layer_idx in range(len(table)):
                blocks[layer_idx].set_timestamp(ts)
                table[layer_idx].append(blocks[layer_idx])
        if self._restore_latest_prefix_block_only:
            self._block_table_logical_start[seq_id] = plan.logical_block_start
        else:
            self._block_table_logical_start.pop(seq_id, None)
        group.update_processed_tokens_num(plan.processed_tokens)
        return True

    def _get_full_prefix_restore_plan(self, sequence: Sequence, capped_token_position: int,
                                      prompt_len: int) -> PrefixRestorePlan:
        plan = PrefixRestorePlan()
        content_len = 0
        while content_len < capped_token_position:
            prev = content_len
            content_len = min(content_len + self._block_size, capped_token_position)
            full_block_hash = sequence.get_hash(content_len, self._block_size)
            if self._allocator.has_cached_block(full_block_hash, self._prefix_hash_to_cached_blocks):
                plan.block_content_lengths.append(content_len)
                plan.cache_token_position = content_len
                plan.processed_tokens = self._get_processed_tokens_after_restore(content_len,
                                                                                 prompt_len)
            else:
                # a partly filled block with the same prefix
                for i in range(1, self._block_size):
                    if prev + i >= content_len:
                        break
                    partial = prev + i
                    h = sequence.get_hash(partial, self._block_size)
                    if self._allocator.has_cached_block(h, self._prefix_hash_to_cached_blocks):
                        plan.block_content_lengths.append(partial)
                        plan.cache_token_position = partial
                        plan.processed_tokens = self._get_processed_tokens_after_restore(
                            partial, prompt_len)
                        break
                break
        return plan

    def _get_latest_prefix_restore_plan(self, sequence: Sequence, capped_token_position: int,
                                        prompt_len: int) -> PrefixRestorePlan:
        plan = PrefixRestorePlan()
        latest_content_len = 0
        interval_end = capped_token_position
        while interval_end > 0:
            content_len = self._find_latest_cached_content_len(sequence, interval_end)
            if content_len is None:
                if not plan.empty():
                    break
                interval_end = self._get_interval_start(interval_end)
                continue
            if latest_content_len == 0:
                latest_content_len = content_len
            plan.block_content_lengths.append(content_len)
            if content_len % self._block_size != 0:
                break
            interval_end = self._get_interval_start(content_len)
        if plan.empty():
            return plan
        plan.block_content_lengths.reverse()
        plan.cache_token_position = latest_content_len
        plan.processed_tokens = self._get_processed_tokens_after_restore(latest_content_len,
                                                                         prompt_len)
        plan.logical_block_start = (plan.block_content_lengths[0] - 1) // self._block_size
        return plan

    def _find_latest_cached_content_len(self, sequence: Sequence, interval_end: int) -> int | None:
        interval_start = self._get_interval_start(interval_end)
        lengths = sorted(self._cached_content_length_ref_counts)
        pos = bisect_right(lengths, interval_end)
        while pos > 0:
            pos -= 1
            candidate = lengths[pos]
            if candidate <= interval_start:
                break
            if not self._allocator.has_cached_block(sequence.get_hash(candidate, self._block_size),
                                                    self._prefix_hash_to_cached_blocks):
                continue
            return candidate
        return None

    def _register_cached_content_length(self, hash: int, content_length: int) -> None:
        old = self._cached_hash_to_content_length.get(hash)
        if old is not None:
            self._unregister_cached_content_length(old)
        self._cached_hash_to_content_length[hash] = content_length
        self._cached_content_length_ref_counts[content_length] = (
            self._cached_content_length_ref_counts.get(content_length, 0) + 1)

    def _unregister_cached_hash(self, hash: int) -> None:
        length = self._cached_hash_to_content_length.pop(hash, None)
        if length is not None:
            self._unregister_cached_content_length(length)

    def _unregister_cached_content_length(self, content_length: int) -> None:
        count = self._cached_content_length_ref_counts.get(content_length)
        _require(count is not None, f"Cached content length {content_length} is not registered")
        _require(count > 0, f"Cached content length {content_length} has zero reference count")
        if count == 1:
            del self._cached_content_length_ref_counts[content_length]
        else:
            self._cached_content_length_ref_counts[content_length] = count - 1

    def _get_interval_start(self, interval_end: int) -> int:
        return ((interval_end - 1) // self._block_size) * self._block_size

    @staticmethod
    def _get_processed_tokens_after_restore(content_len: int, prompt_len: int) -> int:
        # the last prompt token is always recomputed, to get its logits
        return content_len - 1 if content_len == prompt_len else content_len

    def _get_num_required_stored_blocks(self, seq_group: SequenceGroup, seq_id: int) -> int:
        num_logical = self.get_num_logical_blocks(seq_group)
        start = self.get_block_table_logical_start(seq_id)
        return num_logical - start if num_logical > start else 0

    def _get_num_unused_tokens(self, seq_group: SequenceGroup) -> int:
        occupied = seq_group.get_context_len() - seq_group.get_num_evicted_tokens()
        return (self._block_size - occupied % self._block_size) % self._block_size

    def _blocks_released_to_tokens(self, seq_group: SequenceGroup, blocks_released: int) -> int:
        if blocks_released == 0:
            return 0
        in_last = seq_group.get_num_processed_tokens() % self._block_size or self._block_size
        return in_last + (blocks_released - 1) * self._block_size

    def _can_allocate_blocks(self, num_blocks: int) -> bool:
        return all(self._allocator.can_allocate_blocks(num_blocks, i)
                   for i in range(self._num_layers))

    def _free_cached_blocks(self, blocks_for_all_layers: list[CacheBlock]) -> None:
        self._allocator.free(blocks_for_all_layers, self._prefix_hash_to_cached_blocks)

    def _allocate_cached_block(self, hash: int, content_length: int) -> list[CacheBlock]:
        result = self._allocator.allocate_cached_block(hash, self._prefix_hash_to_cached_blocks)
        if result.erased_hash is not None:
            self._unregister_cached_hash(result.erased_hash)
        self._register_cached_content_length(hash, content_length)
        return result.blocks

    def _allocate(self, sequence: Sequence, num_blocks: int, prompt_size: int = 0) -> None:
        _require(num_blocks > 0 and self._can_allocate_blocks(num_blocks))
        seq_id = sequence.get_id()
        tables = self._block_table.setdefault(seq_id, [[] for _ in range(self._num_layers)])
        table = tables[0]
        content_length = sequence.get_generated_len() + prompt_size
        logical_start = self.get_block_table_logical_start(seq_id)
        num_hashed_tokens = (logical_start + len(table)) * self._block_size
        if not self._enable_prefix_caching:
            for layer_idx in range(len(tables)):
                for _ in range(num_blocks):
                    tables[layer_idx].append(self._allocator.allocate_block(layer_idx))
            return
        if table:
            # the last block is full now: rehash it with its complete content
            h = sequence.get_hash((logical_start + len(table)) * self._block_size, self._block_size)
            prev_hash = table[-1].get_hash()
            if prev_hash != h:
                full_length = (logical_start + len(table)) * self._block_size
                last_blocks = []
                for layer_idx in range(self._num_layers):
                    block = tables[layer_idx][-1]
                    block.set_hash(h)
                    self._prefix_hash_to_cached_blocks.pop(prev_hash, None)
                    last_blocks.append(block)
                self._prefix_hash_to_cached_blocks[h] = last_blocks
                self._unregister_cached_hash(prev_hash)
                self._register_cached_content_length(h, full_length)
        for _ in range(num_blocks):
            num_hashed_tokens = min(num_hashed_tokens + self._block_size, content_length)
            h = sequence.get_hash(num_hashed_tokens, self._block_size)
            blocks = self._allocate_cached_block(h, num_hashed_tokens)
            for layer_idx in range(len(blocks)):
                tables[layer_idx].append(blocks[layer_idx])


SIZE_MAX = 2**64 - 1
