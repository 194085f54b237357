"""One front for every cache type of a model (KV cache; linear-attention state for hybrids).

Ported from openvino.genai@da1db864 ``src/cpp/src/continuous_batching/cache/cache_orchestrator.hpp``
and ``cache_type.hpp``. The scheduler asks the orchestrator, which asks each registered block
manager: capacity is the minimum over cache types, allocation happens in all of them.
``create()`` sizes the pools from ``SchedulerConfig`` (``num_kv_blocks``, or ``cache_size`` in GB
against the bytes per block, or 0/0 = dynamic growth) as GenAI does.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from ..scheduler_config import SIZE_MAX, SchedulerConfig
from .block_manager import BlockManager, PrefixRestorePlan
from .cache_manager import ICacheManager, KVCacheManager, LinearAttentionCacheManager
from .sequence_group import Sequence, SequenceGroup, _require

MAX_ADAPTIVE_CACHE_INTERVAL_MULTIPLIER = 256
DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER = 8


class CacheType(enum.IntEnum):
    KV_CACHE = 0  # full-attention KV cache (PagedAttention)
    LINEAR_ATTENTION_CACHE = 1  # fixed-size linear attention state (CausalConv1D, GatedDeltaNet)


CopyMap = dict[int, list[int]]


class CacheOrchestrator:
    """Routes the scheduler's cache questions to the block manager of each cache type."""

    def __init__(self) -> None:
        self._cache_managers: dict[CacheType, ICacheManager] = {}
        self._block_managers: dict[CacheType, BlockManager] = {}
        self._use_per_layer_kv_block_indices = False
        self._pending_zero_blocks: dict[CacheType, set[int]] = {}

    def _managers(self):
        return sorted(self._block_managers.items())  # std::map order: KV first

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def create(cls, config: SchedulerConfig, kv_manager: KVCacheManager | None = None,
               la_manager: LinearAttentionCacheManager | None = None,
               get_available_memory: Callable[[str, int], int] | None = None
               ) -> CacheOrchestrator:
        """``CacheOrchestrator::create``: normalise ``config`` (``num_kv_blocks`` and
        ``num_linear_attention_blocks`` are written back, as C++ does) and register the pools."""
        config.validate()
        orchestrator = cls()
        _require(la_manager is not None or config.num_linear_attention_blocks == 0,
                 "SchedulerConfig num_linear_attention_blocks can be set only for models with "
                 "linear attention cache inputs")
        num_cache_tensors = ((kv_manager.get_num_cache_tensors() if kv_manager else 0)
                             + (la_manager.get_num_cache_tensors() if la_manager else 0))
        device = (kv_manager.get_device() if kv_manager
                  else la_manager.get_device() if la_manager else "")
        total_available_memory = (SIZE_MAX if not device or get_available_memory is None
                                  else get_available_memory(device, num_cache_tensors))
        cache_interval = cls._get_linear_attention_cache_interval(kv_manager, la_manager, config)
        num_kv, num_la = cls._normalize_block_counts(kv_manager, la_manager, config,
                                                     cache_interval, total_available_memory)
        config.num_kv_blocks = num_kv
        config.num_linear_attention_blocks = num_la
        if kv_manager is not None:
            orchestrator._register_kv_cache(kv_manager, config)
        if la_manager is not None:
            orchestrator._register_linear_attention_cache(la_manager, config, cache_interval)
        _require(bool(orchestrator._cache_managers), "No supported cache types detected in the model")
        return orchestrator

    def register_cache_type(self, type: CacheType, cache_mgr: ICacheManager,
                            block_mgr: BlockManager, per_layer_control: bool = False) -> None:
        _require(cache_mgr is not None, "Cache manager must not be null")
        _require(block_mgr is not None, "Block manager must not be null")
        _require(type not in self._cache_managers, "Cache type is already registered")
        num_layers = block_mgr.get_num_layers()
        _require(num_layers > 0, "Cache type must register at least one block-table layer")
        _require(per_layer_control or num_layers == 1, "Cache types without per-layer block-table "
                 "control must register exactly one shared block-table layer")
        self._cache_managers[type] = cache_mgr
        self._block_managers[type] = block_mgr
        if type == CacheType.KV_CACHE:
            self._use_per_layer_kv_block_indices = per_layer_control

    # --- the physical caches ----------------------------------------------------------------
    def allocate_cache_if_needed(self) -> None:
        for type, block_mgr in self._managers():
            self._cache_managers[type].allocate_cache_if_needed(block_mgr.get_total_block_count())
        for type, indices in sorted(self._pending_zero_blocks.items()):
            self._cache_managers[type].zero_blocks(indices)
        self._pending_zero_blocks.clear()

    def copy_blocks(self, per_type_copy_map: dict[CacheType, CopyMap]) -> None:
        for type, copy_map in sorted(per_type_copy_map.items()):
            self._cache_managers[type].copy_blocks(copy_map)

    def clear(self) -> None:
        for cache_mgr in self._cache_managers.values():
            cache_mgr.clear()
        for block_mgr in self._block_managers.values():
            block_mgr.clear()

    # --- block tables -----------------------------------------------------------------------
    def get_kv_block_tables(self, seq_id: int):
        _require(CacheType.KV_CACHE in self._block_managers, "No KV cache registered")
        return self._block_managers[CacheType.KV_CACHE].get_block_tables(seq_id)

    def has_block_table(self, seq_id: int) -> bool:
        return any(bm.has_block_table(seq_id) for bm in self._block_managers.values())

    def allocate_tokens(self, sequence: Sequence, seq_group: SequenceGroup, num_tokens: int,
                        prompt_size: int = 0) -> None:
        for type, block_mgr in self._managers():
            block_mgr.allocate_tokens(sequence, seq_group, num_tokens, prompt_size)
            self._queue_linear_attention_initial_state_zero(type, block_mgr, seq_group)

    def available_token_slots(self, seq_group: SequenceGroup) -> int:
        return min((bm.available_token_slots(seq_group) for _, bm in self._managers()),
                   default=SIZE_MAX)

    def can_allocate_tokens(self, seq_group: SequenceGroup, num_tokens: int) -> bool:
        return all(bm.can_allocate_tokens(seq_group, num_tokens) for _, bm in self._managers())

    def append_slots(self, seq_group: SequenceGroup) -> dict[CacheType, CopyMap]:
        per_type = {}
        for type, block_mgr in self._managers():
            copy_map = block_mgr.append_slots(seq_group)
            self._queue_linear_attention_initial_state_zero(type, block_mgr, seq_group)
            if copy_map:
                per_type[type] = copy_map
        return per_type

    def can_append_slots(self, seq_group: SequenceGroup) -> bool:
        return all(bm.can_append_slots(seq_group) for _, bm in self._managers())

    def required_tokens_count(self, seq_group: SequenceGroup) -> int:
        return max((bm.required_tokens_count(seq_group) for _, bm in self._managers()), default=0)

    def num_free_blocks(self) -> int:
        return min((bm.num_free_blocks() for _, bm in self._managers()), default=SIZE_MAX)

    def free_sequence(self, seq_id: int) -> None:
        for _, block_mgr in self._managers():
            if block_mgr.has_block_table(seq_id):
                block_mgr.free_sequence(seq_id)

    def fork_sequence(self, parent_id: int, child_id: int) -> None:
        for _, block_mgr in self._managers():
            block_mgr.fork_sequence(parent_id, child_id)

    def restore_cached_blocks(self, sequence_group: SequenceGroup) -> None:
        """Prefix caching: restore the longest prefix cached in every cache type."""
        if not self._block_managers:
            return
        kv = self._block_managers.get(CacheType.KV_CACHE)
        la = self._block_managers.get(CacheType.LINEAR_ATTENTION_CACHE)
        if kv is not None and la is not None:
            kv_plan = kv.get_prefix_restore_plan(sequence_group)
            if kv_plan.empty():
                return
            la_plan = la.get_prefix_restore_plan(sequence_group, kv_plan.cache_token_position)
            if la_plan.empty():
                return
            kv_plan = kv.get_prefix_restore_plan(sequence_group, la_plan.cache_token_position)
            if kv_plan.empty():
                return
            common = min(kv_plan.cache_token_position, la_plan.cache_token_position)
            kv_plan = kv.get_prefix_restore_plan(sequence_group, common)
            la_plan = la.get_prefix_restore_plan(sequence_group, common)
            if kv_plan.empty() or la_plan.empty():
                return
            if (not kv.restore_cached_blocks(sequence_group, kv_plan)
                    or not la.restore_cached_blocks(sequence_group, la_plan)):
                return
            sequence_group.update_processed_tokens_num(min(kv_plan.processed_tokens,
                                                           la_plan.processed_tokens))
            return
        if len(self._block_managers) == 1:
            next(iter(self._block_managers.values())).restore_cached_blocks(sequence_group)
            return
        plans: dict[CacheType, PrefixRestorePlan] = {}
        common = sequence_group.get_prompt_len()
        while common > 0:
            plans.clear()
            next_common = SIZE_MAX
            for type, block_mgr in self._managers():
                plan = block_mgr.get_prefix_restore_plan(sequence_group, common)
                if plan.empty():
                    return
                next_common = min(next_common, plan.cache_token_position)
                plans[type] = plan
            if next_common == common:
                break
            common = next_common
        processed = SIZE_MAX
        for type, plan in sorted(plans.items()):
            if not self._block_managers[type].restore_cached_blocks(sequence_group, plan):
                return
            processed = min(processed, plan.processed_tokens)
        if processed != SIZE_MAX:
            sequence_group.update_processed_tokens_num(processed)

    def free_blocks_from_sequence(self, seq_id: int, per_layer_logical_block_indices,
                                  cache_type: CacheType) -> None:
        _require(cache_type in self._block_managers, "Cache type not registered")
        self._block_managers[cache_type].free_blocks_from_sequence(seq_id,
                                                                   per_layer_logical_block_indices)

    def free_empty_physical_blocks(self, seq_group: SequenceGroup) -> None:
        for _, block_mgr in self._managers():
            block_mgr.free_empty_physical_blocks(seq_group)

    def get_used_percentage(self) -> float:
        return max((bm.get_used_percentage() for _, bm in self._managers()), default=0.0)

    def get_block_size(self, type: CacheType) -> int:
        return self._block_managers[type].get_block_size()

    def get_num_kv_logical_blocks(self, seq_group: SequenceGroup) -> int:
        kv = self._block_managers.get(CacheType.KV_CACHE)
        return kv.get_num_logical_blocks(seq_group) if kv is not None else 0

    # --- dynamic growth ---------------------------------------------------------------------
    def get_bytes_per_token(self) -> int:
        total = 0
        for type, bm in self._managers():
            if bm.is_fixed_size_per_sequence():
                continue
            total += self._cache_managers[type].get_block_size_in_bytes() // bm.get_block_size()
        return total

    def memory_cost_for_additional_tokens(self, num_tokens: int) -> int:
        total = 0
        for type, bm in self._managers():
            if bm.is_fixed_size_per_sequence():
                continue
            blocks = -(-num_tokens // bm.get_block_size())
            total += blocks * self._cache_managers[type].get_block_size_in_bytes()
        return total

    def max_additional_tokens_for_memory(self, available_memory: int) -> int:
        if not self._block_managers or available_memory == 0:
            return 0
        bpt = self.get_bytes_per_token()
        if bpt == 0:
            return 0
        lo, hi = 0, available_memory // bpt
        while lo < hi:
            mid = lo + (hi - lo + 1) // 2
            if self.memory_cost_for_additional_tokens(mid) <= available_memory:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _free_for_target(self, victim: SequenceGroup, target: SequenceGroup, beam: bool) -> int:
        tokens_to_release = 0
        for _, bm in self._managers():
            if not bm.is_fixed_size_per_sequence():
                tokens_to_release = max(tokens_to_release, bm.required_tokens_count(target))
        if tokens_to_release == 0:
            return 0
        min_released = SIZE_MAX
        kv_released = 0
        has_kv = has_variable = False
        for type, bm in self._managers():
            if bm.is_fixed_size_per_sequence():
                continue
            has_variable = True
            released = (bm.free_partially_beam_search_group_by_tokens(victim, tokens_to_release)
                        if beam else bm.free_group_partially_by_tokens(victim, tokens_to_release))
            min_released = min(min_released, released)
            if type == CacheType.KV_CACHE:
                kv_released, has_kv = released, True
        if has_kv:
            return kv_released
        return min_released if has_variable else 0

    def free_group_partially_for_target(self, victim: SequenceGroup, target: SequenceGroup) -> int:
        """Partial preemption: free from ``victim`` the tokens ``target`` lacks; return the
        tokens released (of the KV cache when there is one)."""
        return self._free_for_target(victim, target, beam=False)

    def free_partially_beam_search_group_for_target(self, victim: SequenceGroup,
                                                    target: SequenceGroup) -> int:
        return self._free_for_target(victim, target, beam=True)

    def can_partially_preempt(self, victim: SequenceGroup, target: SequenceGroup) -> bool:
        for _, bm in self._managers():
            if bm.is_fixed_size_per_sequence():
                if not (bm.required_blocks_count(target) == 0
                        and bm.can_partially_preempt_victim(victim)):
                    return False
            elif not (bm.can_partially_preempt_victim(victim)
                      and bm.can_partially_preempt(victim, target)):
                return False
        return True

    def has_token_capacity(self) -> bool:
        return all(bm.has_token_capacity() for bm in self._block_managers.values())

    def grow_capacity_by_tokens(self, num_tokens: int) -> bool:
        grew = False
        for _, bm in self._managers():
            if not bm.is_fixed_size_per_sequence():
                bm.grow_capacity_by_tokens(num_tokens)
                grew = True
        return grew

    def ensure_sequence_token_capacity(self, sequence_token_targets: list[tuple[int, int]]) -> None:
        for _, bm in self._managers():
            if not bm.is_fixed_size_per_sequence():
                bm.ensure_sequence_token_capacity(sequence_token_targets)

    def grow_fixed_size_capacity(self, num_seqs: int) -> None:
        for _, bm in self._managers():
            if bm.is_fixed_size_per_sequence():
                additional = num_seqs * bm.get_fixed_blocks_per_sequence()
                bm.increase_block_count(bm.get_total_block_count() + additional)

    def ensure_sequence_capacity(self, seq_group: SequenceGroup) -> bool:
        grew = False
        for _, bm in self._managers():
            if not bm.is_fixed_size_per_sequence():
                continue
            required, free = bm.required_blocks_count(seq_group), bm.num_free_blocks()
            if required > free:
                bm.increase_block_count(bm.get_total_block_count() + required - free)
                grew = True
        return grew

    def get_total_cache_size_in_bytes(self) -> int:
        return sum(bm.get_total_block_count() * self._cache_managers[t].get_block_size_in_bytes()
                   for t, bm in self._managers())

    def get_device(self) -> str:
        _require(bool(self._cache_managers), "No cache types registered")
        return self._cache_managers[min(self._cache_managers)].get_device()

    def get_num_cache_tensors(self) -> int:
        return sum(cm.get_num_cache_tensors() for cm in self._cache_managers.values())

    def get_cache_manager(self, type: CacheType) -> ICacheManager:
        return self._cache_managers[type]

    def get_block_manager(self, type: CacheType) -> BlockManager:
        return self._block_managers[type]

    def has_kv_cache(self) -> bool:
        return CacheType.KV_CACHE in self._cache_managers

    def has_linear_attention_cache(self) -> bool:
        return CacheType.LINEAR_ATTENTION_CACHE in self._cache_managers

    # --- linear attention -------------------------------------------------------------------
    def get_linear_attention_block_table(self, seq_id: int):
        _require(self.has_linear_attention_cache(), "No linear attention cache registered")
        return self._block_managers[CacheType.LINEAR_ATTENTION_CACHE].get_block_tables(seq_id)[0]

    def reserve_linear_attention_temporary_blocks(self, seq_id: int, num_blocks: int) -> list[int]:
        _require(self.has_linear_attention_cache(), "No linear attention cache registered")
        _require(num_blocks > 0, "Cannot reserve zero linear attention checkpoint blocks")
        return self._block_managers[CacheType.LINEAR_ATTENTION_CACHE].reserve_temporary_blocks(
            seq_id, num_blocks)

    def promote_linear_attention_temporary_block(self, seq_id: int, checkpoint_slot: int) -> None:
        _require(self.has_linear_attention_cache(), "No linear attention cache registered")
        self._block_managers[CacheType.LINEAR_ATTENTION_CACHE].promote_temporary_block(
            seq_id, checkpoint_slot)

    def release_linear_attention_temporary_blocks(self, seq_id: int) -> None:
        if self.has_linear_attention_cache():
            self._block_managers[CacheType.LINEAR_ATTENTION_CACHE].release_temporary_blocks(seq_id)

    def get_linear_attention_block_table_logical_start(self, seq_id: int) -> int:
        _require(self.has_linear_attention_cache(), "No linear attention cache registered")
        return self._block_managers[CacheType.LINEAR_ATTENTION_CACHE].get_block_table_logical_start(
            seq_id)

    def get_num_kv_layers(self) -> int:
        kv = self._cache_managers.get(CacheType.KV_CACHE)
        return kv.get_num_layers() if kv is not None else 0

    def needs_per_layer_kv_block_indices(self) -> bool:
        return self._use_per_layer_kv_block_indices

    @staticmethod
    def adaptive_cache_interval_multiplier(la_block_bytes: int, kv_block_bytes: int) -> int:
        """About one KV block's bytes per linear-attention checkpoint (at least 8, at most 256)."""
        multiplier = DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER
        if kv_block_bytes > 0:
            multiplier = max(multiplier, -(-la_block_bytes // kv_block_bytes))
        return min(multiplier, MAX_ADAPTIVE_CACHE_INTERVAL_MULTIPLIER)

    # --- private ----------------------------------------------------------------------------
    @classmethod
    def _get_linear_attention_cache_interval(cls, kv_manager, la_manager,
                                             config: SchedulerConfig) -> int:
        if la_manager is None or not config.enable_prefix_caching:
            return 0
        _require(kv_manager is not None, "Prefix caching for hybrid (linear-attention) models "
                 "requires the model to expose KV cache inputs, but no KV cache manager is "
                 "registered")
        kv_block_size = kv_manager.get_block_size()
        if config.cache_interval_multiplier is not None:
            return config.get_cache_interval(kv_block_size)
        multiplier = cls.adaptive_cache_interval_multiplier(la_manager.get_block_size_in_bytes(),
                                                            kv_manager.get_block_size_in_bytes())
        return kv_block_size * multiplier

    @staticmethod
    def _normalize_block_counts(kv_manager, la_manager, config: SchedulerConfig,
                                cache_interval: int, total_available_memory: int
                                ) -> tuple[int, int]:
        kv_block_size = kv_manager.get_block_size() if kv_manager else 0
        kv_bytes = kv_manager.get_block_size_in_bytes() if kv_manager else 0
        la_bytes = la_manager.get_block_size_in_bytes() if la_manager else 0

        def bytes_for_token_target(token_target: int) -> int:
            total = 0
            if kv_manager:
                total += -(-token_target // kv_block_size) * kv_bytes
            if la_manager and config.enable_prefix_caching:
                total += -(-token_target // cache_interval) * la_bytes
            return total

        num_kv = config.num_kv_blocks
        num_la = config.num_linear_attention_blocks
        if (la_manager and not config.enable_prefix_caching and num_la == 0
                and (num_kv > 0 or config.cache_size > 0)):
            num_la = 1 if config.max_num_batched_tokens == SIZE_MAX else config.max_num_seqs
        if config.cache_size > 0 and num_kv == 0:
            budget = config.cache_size * 1024**3
            _require(budget <= total_available_memory,
                     "Requested cache size is larger than available memory size on the system.")
            if la_manager and not config.enable_prefix_caching:
                reserved = num_la * la_bytes
                _require(reserved <= budget, "Requested linear attention cache allocation exceeds "
                         "the configured cache size.")
                if kv_manager:
                    num_kv = (budget - reserved) // kv_bytes
            else:
                low = high = 0
                if kv_manager:
                    high = (budget // kv_bytes) * kv_block_size
                elif la_manager:
                    high = (budget // la_bytes) * cache_interval
                while low < high:
                    mid = low + (high - low + 1) // 2
                    if bytes_for_token_target(mid) <= budget:
                        low = mid
                    else:
                        high = mid - 1
                if kv_manager:
                    num_kv = -(-low // kv_block_size)
                if la_manager:
                    num_la = -(-low // cache_interval)
        elif num_kv > 0:
            if la_manager and config.enable_prefix_caching and num_la == 0:
                num_la = -(-(num_kv * kv_block_size) // cache_interval)
            total = (num_kv * kv_bytes if kv_manager else 0) + (num_la * la_bytes if la_manager else 0)
            _require(total <= total_available_memory,
                     "Requested cache blocks require more memory than available on the system.")
        return num_kv, num_la

    def _register_kv_cache(self, kv_manager: KVCacheManager, config: SchedulerConfig) -> None:
        per_layer_control = config.use_cache_eviction
        layers = kv_manager.get_num_layers() if per_layer_control else 1
        self.register_cache_type(CacheType.KV_CACHE, kv_manager,
                                 BlockManager(config.num_kv_blocks, config.enable_prefix_caching,
                                              kv_manager.get_block_size(), layers),
                                 per_layer_control)

    def _register_linear_attention_cache(self, la_manager: LinearAttentionCacheManager,
                                         config: SchedulerConfig, cache_interval: int) -> None:
        if config.enable_prefix_caching:
            _require(cache_interval > 0, "Internal error: linear attention cache interval must be "
                     "greater than 0 when prefix caching is enabled")
            bm = BlockManager(config.num_linear_attention_blocks, True, cache_interval, 1, 0, True)
        else:
            bm = BlockManager(config.num_linear_attention_blocks, False, 1, 1, 1)
        self.register_cache_type(CacheType.LINEAR_ATTENTION_CACHE, la_manager, bm)

    def _queue_linear_attention_initial_state_zero(self, type: CacheType, block_mgr: BlockManager,
                                                   seq_group: SequenceGroup) -> None:
        if type != CacheType.LINEAR_ATTENTION_CACHE or seq_group.get_num_processed_tokens() != 0:
            return
        pending = self._pending_zero_blocks.setdefault(type, set())
        for seq in seq_group.get_running_sequences():
            if not block_mgr.has_block_table(seq.get_id()):
                continue
            tables = block_mgr.get_block_tables(seq.get_id())
            if not tables or not tables[0]:
                continue
            pending.add(tables[0][0].get_index())
