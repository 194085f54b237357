"""GenAI's continuous-batching scheduler: what runs in the next step, and in which KV blocks.

Ported from openvino.genai@da1db864 (2026-08-21, the 2026.4 line)
``src/cpp/src/continuous_batching/scheduler.hpp`` (``class Scheduler``), with
``sparse_attention.cpp`` (``TriShapeSparseAttentionTokenSkipper``) and the SnapKV score window
of ``cache_eviction.cpp`` for the per-sequence attention metadata. Method names are the C++ ones.

``schedule(sequence_groups)`` runs once per pipeline ``step()``:
- with ``dynamic_split_fuse`` (the default) the generate phase first (each running group gets
  what is left of ``max_num_batched_tokens`` divided by its running sequences, normally one
  token), then prompt chunks, greedily in arrival order, until the budget is used;
- without it ("vLLM" mode) whole prompts first, within ``max_num_seqs`` and the token budget,
  and the generate phase only when no prompt was scheduled (``is_prompt``);
- when a running group lacks a KV slot, the lowest-priority group holding KV (the last one in
  the list) is preempted by recompute: partly (its last blocks) or wholly, and set waiting;
- with ``cache_size == 0`` and ``num_kv_blocks == 0`` the cache starts at prompt x 2 (capped at
  prompt + max_new_tokens) per sequence and grows 256 tokens at a time, or at once for a new
  prompt (``_reserve_dynamic_capacity_for_active_sequences``).

Every ``Output`` also carries what a trace needs (prompt / generate tokens, preempted groups),
and :meth:`Output.step_record` turns it into the ``SchedulerStepRecord`` a pipeline keeps with
``core.trace.scheduler_step(record)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...trace.records import SchedulerStepRecord
from ..scheduler_config import AggregationMode, SchedulerConfig, SparseAttentionMode
from .cache_orchestrator import CacheOrchestrator, CacheType, CopyMap
from .sequence_group import SequenceGroup, _require, is_beam_search, is_multinomial

SIZE_MAX = 2**64 - 1
INT32_MAX = 2**31 - 1

#: the record a pipeline ``step()`` leaves in ``core.trace`` (``Trace.scheduler_step``)
SchedulerStep = SchedulerStepRecord


@dataclass
class KVPagedAttentionGlobalData:
    """``Scheduler::KVPagedAttentionGlobalData``: per-pipeline attention settings."""

    apply_sparse_attention_mask: bool = False
    xattention_block_size: int = 0
    xattention_stride: int = 0
    adaptive_rkv_start_size: int = 0

    @classmethod
    def from_config(cls, config: SchedulerConfig) -> KVPagedAttentionGlobalData:
        sa = config.sparse_attention_config
        return cls(config.use_sparse_attention and sa.mode == SparseAttentionMode.TRISHAPE,
                   sa.xattention_block_size, sa.xattention_stride,
                   config.cache_eviction_config.get_start_size())


@dataclass
class KVPagedAttentionData:
    block_tables: list = field(default_factory=list)
    score_aggregation_window: int = 0
    has_score_aggregation_window: bool = False
    sparse_attention_skipped_logical_blocks: set[int] = field(default_factory=set)
    xattention_threshold: float = 0.0
    adaptive_rkv_evictable_size: int = 0
    has_adaptive_rkv_evictable_size: bool = False
    adaptive_rkv_diversity_block_sets: list[list[int]] = field(default_factory=list)


@dataclass
class LinearAttentionPagingData:
    block_indices: list[int] = field(default_factory=list)
    past_length: int = 0
    cache_interval: int = 0


class Output:
    """``Scheduler::Output``: the groups to run (indices into the list given to
    ``schedule``), their block tables and the step's totals. C++ member names are kept
    (``m_scheduled_sequence_groups_ids``...)."""

    def __init__(self) -> None:
        self.m_scheduled_sequence_groups_ids: list[int] = []
        self.m_kv_paged_attention_data: dict[int, KVPagedAttentionData] = {}
        self.m_linear_attention_paging_data: dict[int, LinearAttentionPagingData] = {}
        self.m_kv_paged_attention_global_data: KVPagedAttentionGlobalData | None = None
        self.m_total_num_scheduled_tokens = 0
        self.is_prompt = False
        self.m_cache_usage = 0.0
        self.m_cache_size_in_bytes = 0
        # ovlab: what the step record needs (not in C++)
        self.scheduled_request_ids: list[int] = []
        self.preempted_request_ids: list[int] = []
        self.num_prompt_tokens = 0
        self.num_generate_tokens = 0
        self.num_scheduled_sequences = 0
        self.kv_blocks_used = 0
        self.kv_blocks_total = 0
        self.num_waiting = 0
        self.m_block_copy_map: dict = {}

    def __repr__(self) -> str:
        return (f"<Scheduler.Output groups={self.m_scheduled_sequence_groups_ids} "
                f"tokens={self.m_total_num_scheduled_tokens} is_prompt={self.is_prompt} "
                f"cache_usage={self.m_cache_usage:.1f}%>")

    # --- Python spellings -------------------------------------------------------------------
    @property
    def scheduled_sequence_groups_ids(self) -> list[int]:
        return self.m_scheduled_sequence_groups_ids

    @property
    def total_num_scheduled_tokens(self) -> int:
        return self.m_total_num_scheduled_tokens

    @property
    def cache_usage(self) -> float:
        return self.m_cache_usage

    @property
    def cache_size_in_bytes(self) -> int:
        return self.m_cache_size_in_bytes

    # --- setters and getters (scheduler.hpp) ------------------------------------------------
    def _kv(self, seq_id: int) -> KVPagedAttentionData:
        return self.m_kv_paged_attention_data.setdefault(seq_id, KVPagedAttentionData())

    def set_kv_block_tables(self, seq_id: int, block_tables) -> None:
        self._kv(seq_id).block_tables = [list(t) for t in block_tables]

    def set_score_aggregation_window(self, seq_id: int, window: int) -> None:
        d = self._kv(seq_id)
        d.score_aggregation_window = window
        d.has_score_aggregation_window = True

    def set_kv_paged_attention_global_data(self, global_data: KVPagedAttentionGlobalData) -> None:
        self.m_kv_paged_attention_global_data = global_data

    def set_sparse_attention_skipped_logical_blocks(self, seq_id: int, blocks: set[int]) -> None:
        self._kv(seq_id).sparse_attention_skipped_logical_blocks = set(blocks)

    def set_xattention_threshold(self, seq_id: int, threshold: float) -> None:
        self._kv(seq_id).xattention_threshold = threshold

    def set_adaptive_rkv_evictable_size(self, seq_id: int, evictable_size: int) -> None:
        d = self._kv(seq_id)
        d.adaptive_rkv_evictable_size = evictable_size
        d.has_adaptive_rkv_evictable_size = evictable_size > 0

    def set_linear_attention_paging_data(self, seq_id: int, data: LinearAttentionPagingData) -> None:
        self.m_linear_attention_paging_data[seq_id] = data

    def get_kv_block_tables(self, seq_id: int):
        return self.get_kv_paged_attention_data(seq_id).block_tables

    def get_kv_paged_attention_data(self, seq_id: int) -> KVPagedAttentionData:
        _require(seq_id in self.m_kv_paged_attention_data,
                 f"KV paged attention data was not scheduled for sequence {seq_id}")
        return self.m_kv_paged_attention_data[seq_id]

    def get_kv_paged_attention_global_data(self) -> KVPagedAttentionGlobalData:
        return (self.m_kv_paged_attention_global_data
                if self.m_kv_paged_attention_global_data is not None
                else KVPagedAttentionGlobalData())

    def has_score_aggregation_window(self, seq_id: int) -> bool:
        d = self.m_kv_paged_attention_data.get(seq_id)
        return d is not None and d.has_score_aggregation_window

    def get_score_aggregation_window(self, seq_id: int) -> int:
        d = self.get_kv_paged_attention_data(seq_id)
        _require(d.has_score_aggregation_window,
                 f"Score aggregation window was not scheduled for sequence {seq_id}")
        return d.score_aggregation_window

    def get_sparse_attention_skipped_logical_blocks(self, seq_id: int) -> set[int]:
        return self.get_kv_paged_attention_data(seq_id).sparse_attention_skipped_logical_blocks

    def get_xattention_threshold(self, seq_id: int) -> float:
        d = self.m_kv_paged_attention_data.get(seq_id)
        return 0.0 if d is None else d.xattention_threshold

    def get_adaptive_rkv_evictable_size(self, seq_id: int) -> int:
        d = self.m_kv_paged_attention_data.get(seq_id)
        return 0 if d is None else d.adaptive_rkv_evictable_size

    def has_adaptive_rkv_evictable_size(self, seq_id: int) -> bool:
        d = self.m_kv_paged_attention_data.get(seq_id)
        return d is not None and d.has_adaptive_rkv_evictable_size

    def get_adaptive_rkv_diversity_block_sets(self, seq_id: int) -> list[list[int]]:
        return self.get_kv_paged_attention_data(seq_id).adaptive_rkv_diversity_block_sets

    def has_linear_attention_paging_data(self, seq_id: int | None = None) -> bool:
        if seq_id is None:
            return bool(self.m_linear_attention_paging_data)
        return seq_id in self.m_linear_attention_paging_data

    def get_linear_attention_paging_data(self, seq_id: int) -> LinearAttentionPagingData:
        _require(seq_id in self.m_linear_attention_paging_data,
                 f"Linear attention paging data was not scheduled for sequence {seq_id}")
        return self.m_linear_attention_paging_data[seq_id]

    # --- the trace record -------------------------------------------------------------------
    def step_record(self, step: int, time: float = 0.0, device: str = "",
                    model: str = "") -> SchedulerStepRecord:
        """This step as the record for ``core.trace.scheduler_step`` (``step`` is the
        pipeline's step number, ``time`` the simulated time it was scheduled at)."""
        if not self.m_scheduled_sequence_groups_ids:
            phase = "idle"
        elif self.is_prompt or (self.num_prompt_tokens and not self.num_generate_tokens):
            phase = "prompt"
        elif self.num_prompt_tokens:
            phase = "mixed"
        else:
            phase = "generate"
        return SchedulerStepRecord(time, device, model, step, phase,
                                   list(self.scheduled_request_ids), self.num_scheduled_sequences,
                                   self.m_total_num_scheduled_tokens, self.num_prompt_tokens,
                                   self.num_generate_tokens, self.kv_blocks_used,
                                   self.kv_blocks_total, self.m_cache_usage,
                                   self.m_cache_size_in_bytes, list(self.preempted_request_ids),
                                   self.num_waiting)


def snapkv_num_token_scores_to_aggregate(snapkv_window_size: int, prompt_len: int,
                                         num_scheduled_tokens: int, num_processed_tokens: int) -> int:
    """``SnapKVScoreAggregationCalculator::get_num_token_scores_to_aggregate``
    (cache_eviction.cpp): scores of the last ``snapkv_window_size`` prompt tokens only."""
    if snapkv_window_size == 0:
        return num_scheduled_tokens
    first = 0 if snapkv_window_size > prompt_len else prompt_len - snapkv_window_size
    after = num_processed_tokens + num_scheduled_tokens
    if after > first:
        return num_scheduled_tokens if num_processed_tokens > first else after - first
    return 0


def trishape_skipped_blocks(block_size: int, num_last_dense_tokens_in_prefill: int,
                            num_retained_start_tokens_in_cache: int,
                            num_retained_recent_tokens_in_cache: int,
                            sequence_group: SequenceGroup) -> set[int]:
    """``TriShapeSparseAttentionTokenSkipper::get_skipped_blocks`` (sparse_attention.cpp)."""
    _require(not num_retained_start_tokens_in_cache % block_size, "num_last_dense_tokens_in_prefill "
             f"in tokens must be a multiple of block size {block_size}")
    _require(not num_retained_recent_tokens_in_cache % block_size, "num_retained_dense_tokens_in_"
             f"prefill in tokens must be a multiple of block size {block_size}")
    skipped: set[int] = set()
    after = sequence_group.get_num_processed_tokens() + sequence_group.get_num_scheduled_tokens()
    prompt_len = sequence_group.get_prompt_len()
    _require(prompt_len >= after)
    if prompt_len - after >= num_last_dense_tokens_in_prefill:
        full_blocks = sequence_group.get_num_cached_tokens() // block_size
        start_blocks = num_retained_start_tokens_in_cache // block_size
        retained = start_blocks + num_retained_recent_tokens_in_cache // block_size
        if full_blocks > retained:  # A-shape phase
            skipped.update(i + start_blocks for i in range(full_blocks - retained))
    return skipped


class Scheduler:
    """``ov::genai::Scheduler``.

    ``available_gpu_memory(device, num_cache_tensors)`` answers how many bytes a GPU has left
    for cache growth (``utils::get_available_gpu_memory``); without it a GPU grows as a CPU does.
    """

    def __init__(self, cache_orchestrator: CacheOrchestrator, config: SchedulerConfig | None = None,
                 can_use_partial_preemption: bool = True, snapkv_window_size: int = 1,
                 available_gpu_memory: Callable[[str, int], int] | None = None) -> None:
        self._can_use_partial_preemption = can_use_partial_preemption
        self._config = config.copy() if config is not None else SchedulerConfig()
        self._kv_paged_attention_global_data = KVPagedAttentionGlobalData.from_config(self._config)
        self._cache_orchestrator: CacheOrchestrator | None = cache_orchestrator
        self._dynamic_memory_allocation = False
        self._linear_attention_checkpoint_counts: dict[int, int] = {}
        self._kv_blocks_initial_multiplier = 2
        self._cache_growth_num_tokens = 256  # tokens by which the KV cache grows
        self._snapkv_window_size = snapkv_window_size
        self._expected_num_scheduled_tokens: dict[int, int] = {}
        self._available_gpu_memory = available_gpu_memory
        self._preempted: list[int] = []

    def release(self) -> None:
        self._cache_orchestrator = None

    @property
    def cache_orchestrator(self) -> CacheOrchestrator:
        return self._cache_orchestrator

    def schedule(self, sequence_groups: list[SequenceGroup]) -> Output:
        """Decide the next step for ``sequence_groups`` (in priority order, oldest first)."""
        out = Output()
        out.set_kv_paged_attention_global_data(self._kv_paged_attention_global_data)
        typed_block_copy_map: dict[CacheType, CopyMap] = {}
        self._preempted = []
        co = self._cache_orchestrator

        # free some blocks taken by non-confirmed candidates in SD / prompt look-up
        self.clean_empty_blocks(sequence_groups)

        if not co.has_token_capacity():
            self._initialize_cache(sequence_groups)
        elif self._dynamic_memory_allocation:
            # a newly-arrived prompt gets its capacity (on top of running sequences) reserved
            # in one reallocation rather than growing in small chunks across the prefill
            self._reserve_dynamic_capacity_for_active_sequences(sequence_groups)

        if self._config.dynamic_split_fuse:
            # deepspeed-mii case: generation phase is always scheduled first
            self._schedule_generate_phase_dynamic_split_fuse(sequence_groups, out,
                                                             typed_block_copy_map)
            # some tokens from generation prompt are also scheduled
            self._schedule_prompt_phase_dynamic_split_fuse(sequence_groups, out)
        else:
            # vLLM case: schedule prompt phase using whole prompt's input_ids
            self._schedule_prompt_phase_vllm(sequence_groups, out)
            if not out.is_prompt:
                self._schedule_generate_phase_dynamic_split_fuse(sequence_groups, out,
                                                                 typed_block_copy_map)

        co.allocate_cache_if_needed()
        self._clear_waiting_sequences(sequence_groups)
        out.m_cache_usage = co.get_used_percentage()
        out.m_cache_size_in_bytes = co.get_total_cache_size_in_bytes()
        co.copy_blocks(typed_block_copy_map)
        out.m_block_copy_map = typed_block_copy_map  # the engine copies a real model's blocks
        self._summarise(sequence_groups, out)
        return out

    def _summarise(self, sequence_groups: list[SequenceGroup], out: Output) -> None:
        out.preempted_request_ids = list(self._preempted)
        out.scheduled_request_ids = [sequence_groups[i].get_request_id()
                                     for i in out.m_scheduled_sequence_groups_ids]
        out.num_waiting = sum(1 for g in sequence_groups if not g.has_finished()
                              and not g.is_scheduled())
        co = self._cache_orchestrator
        if co.has_kv_cache():
            bm = co.get_block_manager(CacheType.KV_CACHE)
            out.kv_blocks_total = bm.get_total_block_count()
            out.kv_blocks_used = out.kv_blocks_total - bm.num_free_blocks()

    # --- public helpers (scheduler.hpp) -----------------------------------------------------
    def clean_empty_blocks(self, seq_groups: list[SequenceGroup]) -> None:
        for g in seq_groups:
            self._cache_orchestrator.free_empty_physical_blocks(g)

    def get_kv_block_tables(self, seq) -> list:
        seq_id = seq if isinstance(seq, int) else seq.get_id()
        return self._cache_orchestrator.get_kv_block_tables(seq_id)

    def get_block_size(self, type: CacheType = CacheType.KV_CACHE) -> int:
        return self._cache_orchestrator.get_block_size(type)

    def get_num_kv_logical_blocks(self, seq_group: SequenceGroup) -> int:
        return self._cache_orchestrator.get_num_kv_logical_blocks(seq_group)

    def has_block_table(self, seq_id: int) -> bool:
        return self._cache_orchestrator.has_block_table(seq_id)

    def free_sequence(self, seq_id: int) -> None:
        self._linear_attention_checkpoint_counts.pop(seq_id, None)
        self._cache_orchestrator.free_sequence(seq_id)

    def fork_sequence(self, parent_id: int, child_id: int) -> None:
        self._cache_orchestrator.fork_sequence(parent_id, child_id)

    def restore_cached_blocks(self, sequence_group: SequenceGroup) -> None:
        self._cache_orchestrator.restore_cached_blocks(sequence_group)

    def get_config(self) -> SchedulerConfig:
        return self._config

    def has_linear_attention_cache(self) -> bool:
        return self._cache_orchestrator.has_linear_attention_cache()

    def reserve_linear_attention_checkpoints_for_next_schedule(self, seq_id: int,
                                                               checkpoint_count: int) -> None:
        _require(checkpoint_count > 0, "Linear attention checkpoint count must be greater than zero")
        if self._cache_orchestrator.has_linear_attention_cache():
            self._linear_attention_checkpoint_counts[seq_id] = checkpoint_count

    def promote_linear_attention_checkpoint(self, seq_id: int, checkpoint_slot: int) -> None:
        self._linear_attention_checkpoint_counts.pop(seq_id, None)
        if self._cache_orchestrator.has_linear_attention_cache():
            self._cache_orchestrator.promote_linear_attention_temporary_block(seq_id, checkpoint_slot)

    def release_linear_attention_checkpoints(self, seq_id: int) -> None:
        self._linear_attention_checkpoint_counts.pop(seq_id, None)
        self._cache_orchestrator.release_linear_attention_temporary_blocks(seq_id)

    def free_blocks_from_sequence(self, seq_id: int, per_layer_logical_block_indices_to_free,
                                  cache_type: CacheType = CacheType.KV_CACHE) -> None:
        self._cache_orchestrator.free_blocks_from_sequence(seq_id, per_layer_logical_block_indices_to_free,
                                                           cache_type)

    def clear_cache(self) -> None:
        _require(not self._config.enable_prefix_caching,
                 "Cache should not be cleared if prefix caching is enabled.")
        self._cache_orchestrator.clear()

    def set_expected_num_scheduled_tokens(self, request_id: int, num_tokens: int) -> None:
        self._expected_num_scheduled_tokens[request_id] = num_tokens

    def get_expected_num_scheduled_tokens(self, request_id: int) -> int:
        return self._expected_num_scheduled_tokens.get(request_id, 0)

    def clear_expected_num_scheduled_tokens(self, request_id: int) -> None:
        self._expected_num_scheduled_tokens.pop(request_id, None)

    # --- preemption -------------------------------------------------------------------------
    @staticmethod
    def _num_running_sequence_groups(sequence_groups: list[SequenceGroup]) -> int:
        return sum(1 for g in sequence_groups if g.can_generate_tokens())

    def _preempt_by_recompute(self, victim: SequenceGroup, target: SequenceGroup) -> bool:
        """Free the victim's KV (its last blocks, or all) and set it waiting; its tokens will be
        recomputed. Returns whether blocks were freed."""
        co = self._cache_orchestrator
        processed_tokens = victim.get_num_processed_tokens()
        prev_blocks_count = co.num_free_blocks()
        was_evicted_from = victim.get_num_evicted_tokens() != 0
        self._preempted.append(victim.get_request_id())

        if (not co.can_partially_preempt(victim, target) or not self._can_use_partial_preemption
                or was_evicted_from):
            for seq in victim.get_not_finished_sequences():
                self.free_sequence(seq.get_id())
            victim.preempt_tokens(processed_tokens)
            if was_evicted_from:
                victim.reset_eviction_token_count()
            victim.set_waiting()
            return co.num_free_blocks() > prev_blocks_count

        if is_beam_search(victim.get_sampling_parameters()):
            preempted_tokens = co.free_partially_beam_search_group_for_target(victim, target)
        else:
            preempted_tokens = co.free_group_partially_for_target(victim, target)
        preempted_tokens = min(preempted_tokens, processed_tokens)

        # preemption that reaches into the prompt in vLLM mode preempts the whole prompt
        if (not self._config.dynamic_split_fuse
                and processed_tokens - preempted_tokens < victim.get_prompt_len()):
            preempted_tokens = processed_tokens
            for seq in victim.get_not_finished_sequences():
                if co.has_block_table(seq.get_id()):
                    self.free_sequence(seq.get_id())
        victim.preempt_tokens(preempted_tokens)
        victim.set_waiting()
        return co.num_free_blocks() > prev_blocks_count

    @staticmethod
    def _get_low_priority_sequence_group_id(sequence_groups: list[SequenceGroup]) -> int:
        for group_idx in range(len(sequence_groups) - 1, -1, -1):
            if sequence_groups[group_idx].get_num_processed_tokens() > 0:
                # it holds KV blocks which can be freed
                return group_idx
        return SIZE_MAX

    def _apply_preemption(self, sequence_group_id: int, sequence_groups: list[SequenceGroup]) -> None:
        group = sequence_groups[sequence_group_id]
        while not self._cache_orchestrator.can_append_slots(group):
            evicted = self._get_low_priority_sequence_group_id(sequence_groups)
            if evicted <= sequence_group_id:
                # the group would have to evict itself to run
                break
            if evicted == SIZE_MAX:
                # no group holds KV (a group fully preempted earlier is generating again with
                # nothing processed): GenAI indexes sequence_groups[SIZE_MAX] here, out of range
                # (undefined behaviour); the port stops looking for a victim instead
                break
            if not self._preempt_by_recompute(sequence_groups[evicted], group):
                break

    # --- the two phases ---------------------------------------------------------------------
    def _schedule_prompt_phase_dynamic_split_fuse(self, sequence_groups: list[SequenceGroup],
                                                  out: Output) -> None:
        """Prompt chunks into what is left of the token budget, greedily by priority."""
        co = self._cache_orchestrator
        for group_id, group in enumerate(sequence_groups):
            if (group.can_generate_tokens() or group.is_waiting() or group.handle_stopped()
                    or group.handle_cancelled()):
                continue
            num_running_seqs = group.num_running_seqs()
            _require(num_running_seqs == 1)  # prompt phases have a single running sequence
            sequence = group[0]
            seq_id = sequence.get_id()
            num_tokens_in_megabatch = self._config.max_num_batched_tokens - out.m_total_num_scheduled_tokens
            num_available_tokens = group.get_num_available_tokens_for_batching()
            num_scheduled_tokens = min(num_tokens_in_megabatch, num_available_tokens)

            expected = self._expected_num_scheduled_tokens.get(group.get_request_id())
            if expected is not None and 0 < expected < num_scheduled_tokens:
                num_scheduled_tokens = expected

            # apply KV cache limitations
            while co.available_token_slots(group) < num_scheduled_tokens:
                if not self._try_increase_cache(group):
                    break
            num_scheduled_tokens = min(num_scheduled_tokens, co.available_token_slots(group))

            if num_scheduled_tokens > 0:
                co.allocate_tokens(sequence, group, num_scheduled_tokens, group.get_prompt_len())
                group.schedule_tokens(num_scheduled_tokens)
                out.m_scheduled_sequence_groups_ids.append(group_id)
                self._set_kv_paged_attention_data(out, group, seq_id)
                out.m_total_num_scheduled_tokens += num_scheduled_tokens * num_running_seqs
                out.num_prompt_tokens += num_scheduled_tokens * num_running_seqs
                out.num_scheduled_sequences += num_running_seqs
                if co.has_linear_attention_cache():
                    self._set_linear_attention_paging_data(
                        out, group, seq_id, co.get_linear_attention_block_table(seq_id),
                        co.get_linear_attention_block_table_logical_start(seq_id))

            if out.m_total_num_scheduled_tokens == self._config.max_num_batched_tokens:
                break

    def _schedule_generate_phase_dynamic_split_fuse(self, sequence_groups: list[SequenceGroup],
                                                    out: Output,
                                                    typed_block_copy_map: dict[CacheType, CopyMap]
                                                    ) -> None:
        """A token (or the evicted rest) per running sequence; preempt lower priority groups
        when the KV cache is short."""
        co = self._cache_orchestrator
        for group_id, group in enumerate(sequence_groups):
            # preempted groups have low priority: they come after running ones
            if not (group.can_generate_tokens() and not group.is_waiting()
                    and not group.handle_stopped() and not group.handle_cancelled()):
                continue
            _require(not group.has_finished())
            num_running_seqs = group.num_running_seqs()
            _require(num_running_seqs > 0)
            num_tokens_in_megabatch = self._config.max_num_batched_tokens - out.m_total_num_scheduled_tokens
            available_tokens_per_seq_in_megabatch = num_tokens_in_megabatch // num_running_seqs
            if not available_tokens_per_seq_in_megabatch:
                continue  # not even a token per sequence of this group

            # more than 1 token if some tokens of this group were evicted before
            num_available_tokens_per_seq = group.get_num_available_tokens_for_batching()
            num_scheduled_tokens_per_seq = min(available_tokens_per_seq_in_megabatch,
                                               num_available_tokens_per_seq)
            group.schedule_tokens(num_scheduled_tokens_per_seq)

            while not co.can_append_slots(group):
                if not self._try_increase_cache(group):
                    break
            self._apply_preemption(group_id, sequence_groups)

            # if we can't preempt any more sequences, clear scheduled tokens and move on
            if not co.can_append_slots(group):
                group.clear_scheduled_tokens()
                continue

            per_type_copy_map = co.append_slots(group)
            out.m_scheduled_sequence_groups_ids.append(group_id)
            out.m_total_num_scheduled_tokens += num_scheduled_tokens_per_seq * num_running_seqs
            out.num_scheduled_sequences += num_running_seqs
            # tokens of a prompt that was partly preempted count as prompt (recompute)
            prompt_left = max(group.get_prompt_len() - group.get_num_processed_tokens(), 0)
            prompt_part = min(prompt_left, num_scheduled_tokens_per_seq)
            out.num_prompt_tokens += prompt_part * num_running_seqs
            out.num_generate_tokens += (num_scheduled_tokens_per_seq - prompt_part) * num_running_seqs
            for seq in group.get_running_sequences():
                self._set_kv_paged_attention_data(out, group, seq.get_id())
            for type, copy_map in per_type_copy_map.items():
                acc = typed_block_copy_map.setdefault(type, {})
                for src, dsts in copy_map.items():
                    acc.setdefault(src, []).extend(dsts)
            if co.has_linear_attention_cache():
                for seq in group.get_running_sequences():
                    sid = seq.get_id()
                    self._set_linear_attention_paging_data(
                        out, group, sid, co.get_linear_attention_block_table(sid),
                        co.get_linear_attention_block_table_logical_start(sid))

            if out.m_total_num_scheduled_tokens == self._config.max_num_batched_tokens:
                break

    def _schedule_prompt_phase_vllm(self, sequence_groups: list[SequenceGroup], out: Output) -> None:
        """Whole prompts, within ``max_num_seqs`` and ``max_num_batched_tokens``."""
        config = self._config
        co = self._cache_orchestrator
        _require(not config.dynamic_split_fuse, "Internal error: we are in vLLM scheduling")
        _require(config.max_num_seqs <= config.max_num_batched_tokens,
                 f"Max num batched tokens ({config.max_num_batched_tokens}) must be greater or "
                 f"equal to max num sequences ({config.max_num_seqs})")
        _require(not out.m_scheduled_sequence_groups_ids,
                 "Internal error: in vLLM scheduling, prompt phase is always first one")
        # TODO in GenAI too: beam width does not count towards running sequences
        num_running_sequence_groups = self._num_running_sequence_groups(sequence_groups)

        for group_id, group in enumerate(sequence_groups):
            recompute_evicted = (group.get_num_processed_tokens() == 0
                                 and not self._can_use_partial_preemption)
            if not ((not group.can_generate_tokens() or recompute_evicted)
                    and not group.is_waiting() and not group.handle_stopped()
                    and not group.handle_cancelled()):
                continue
            num_running_seqs = group.num_running_seqs()
            _require(num_running_seqs == 1)
            # the sequence must be scheduled in one shot and has no context yet
            if not config.enable_prefix_caching:
                _require(group.get_context_len() == 0)
            available_in_megabatch = config.max_num_batched_tokens - out.m_total_num_scheduled_tokens
            sequence_len = group.get_num_available_tokens_for_batching()
            _require(config.max_num_batched_tokens >= sequence_len,
                     f"Sequence length ({sequence_len}) is longer than max number of tokens in "
                     f"batch ({config.max_num_batched_tokens})")
            if num_running_sequence_groups >= config.max_num_seqs:
                break
            if available_in_megabatch < sequence_len:
                break
            while not co.can_allocate_tokens(group, sequence_len):
                if not self._try_increase_cache(group):
                    break
            if not co.can_allocate_tokens(group, sequence_len):
                break

            group.schedule_tokens(sequence_len)
            co.append_slots(group)
            out.m_scheduled_sequence_groups_ids.append(group_id)
            seq_id = group.get_running_sequences()[0].get_id()
            self._set_kv_paged_attention_data(out, group, seq_id)
            out.m_total_num_scheduled_tokens += sequence_len
            out.num_prompt_tokens += sequence_len
            out.num_scheduled_sequences += 1
            if co.has_linear_attention_cache():
                self._set_linear_attention_paging_data(
                    out, group, seq_id, co.get_linear_attention_block_table(seq_id),
                    co.get_linear_attention_block_table_logical_start(seq_id))
            out.is_prompt = True
            num_running_sequence_groups += 1

    def _clear_waiting_sequences(self, sequence_groups: list[SequenceGroup]) -> None:
        for g in sequence_groups:
            g.clear_waiting_sequences()

    # --- dynamic KV-cache allocation --------------------------------------------------------
    def _build_sequence_token_targets(self, sequence_groups: list[SequenceGroup]
                                      ) -> tuple[list[tuple[int, int]], int]:
        """(tokens per sequence, sequences) per group, sized to prompt x 2 capped at prompt +
        max_new_tokens; and the total of concurrent sequences."""
        targets = []
        total = 0
        for g in sequence_groups:
            seq_length = g.get_prompt_len() * self._kv_blocks_initial_multiplier
            params = g.get_sampling_parameters()
            seq_length = min(seq_length, g.get_prompt_len() + g.get_max_new_tokens())
            concurrent = 1
            if is_beam_search(params):
                concurrent = params.num_beams
            elif is_multinomial(params):
                concurrent = params.num_return_sequences
            total += concurrent
            targets.append((seq_length, concurrent))
        return targets, total

    def _initialize_cache(self, sequence_groups: list[SequenceGroup]) -> None:
        targets, total_concurrent = self._build_sequence_token_targets(sequence_groups)
        self._cache_orchestrator.ensure_sequence_token_capacity(targets)
        # fixed-size-per-sequence pools (linear attention) grow by the arriving sequences
        self._cache_orchestrator.grow_fixed_size_capacity(total_concurrent)
        self._dynamic_memory_allocation = True

    def _reserve_dynamic_capacity_for_active_sequences(self, sequence_groups: list[SequenceGroup]) -> None:
        """Grow once to the footprint of all active sequences when a new prompt arrives (every
        growth reallocates and copies the whole cache)."""
        def is_active(g: SequenceGroup) -> bool:
            return not (g.is_waiting() or g.has_finished() or g.handle_stopped()
                        or g.handle_cancelled())

        if not any(is_active(g) and not g.can_generate_tokens() for g in sequence_groups):
            return
        active = [g for g in sequence_groups if is_active(g)]
        if not active:
            return
        targets, _ = self._build_sequence_token_targets(active)
        self._cache_orchestrator.ensure_sequence_token_capacity(targets)

    def _try_increase_cache(self, sequence_group: SequenceGroup | None = None) -> bool:
        if not self._dynamic_memory_allocation:
            return False
        co = self._cache_orchestrator
        grew = False
        if sequence_group is not None:
            grew = co.ensure_sequence_capacity(sequence_group)
        growth_tokens = self._cache_growth_num_tokens
        if growth_tokens == 0:
            return grew
        device = co.get_device()
        if "GPU" not in device or self._available_gpu_memory is None:
            return co.grow_capacity_by_tokens(growth_tokens) or grew
        available = self._available_gpu_memory(device, co.get_num_cache_tensors())
        if co.memory_cost_for_additional_tokens(growth_tokens) <= available:
            return co.grow_capacity_by_tokens(growth_tokens) or grew
        possible = co.max_additional_tokens_for_memory(available)
        if possible > 0:
            return co.grow_capacity_by_tokens(possible) or grew
        return grew

    # --- per-sequence attention metadata ----------------------------------------------------
    def _set_linear_attention_paging_data(self, out: Output, group: SequenceGroup, seq_id: int,
                                          la_blocks: list, block_table_logical_start: int) -> None:
        _require(bool(la_blocks), f"Linear attention block table empty for sequence {seq_id}")
        co = self._cache_orchestrator
        data = LinearAttentionPagingData()
        processed = group.get_num_processed_tokens()
        scheduled = group.get_num_scheduled_tokens()
        data.past_length = self._checked_size_to_int32(processed, "past length", seq_id)
        checkpoints = self._linear_attention_checkpoint_counts.get(seq_id)
        if checkpoints is not None:
            _require(not self._config.enable_prefix_caching, "Linear attention checkpoint paging "
                     "currently supports fixed one-block state only")
            _require(scheduled <= checkpoints, "Linear attention checkpoint count must cover "
                     f"scheduled tokens for sequence {seq_id}: checkpoints {checkpoints}, "
                     f"scheduled tokens {scheduled}")
            if scheduled == 0:
                del self._linear_attention_checkpoint_counts[seq_id]
                co.release_linear_attention_temporary_blocks(seq_id)
            else:
                committed = self._checked_block_index_to_int32(la_blocks[0].get_index(), seq_id)
                temporary = co.reserve_linear_attention_temporary_blocks(seq_id, scheduled)
                data.block_indices = [committed] + [self._checked_block_index_to_int32(i, seq_id)
                                                    for i in temporary]
                data.cache_interval = 1
                out.m_linear_attention_paging_data[seq_id] = data
                del self._linear_attention_checkpoint_counts[seq_id]
                return

        if not self._config.enable_prefix_caching:
            index = self._checked_block_index_to_int32(la_blocks[0].get_index(), seq_id)
            data.block_indices = [index, index]
            data.cache_interval = 0
            out.set_linear_attention_paging_data(seq_id, data)
            return

        _require(scheduled > 0, f"Linear attention paging requires scheduled tokens for sequence {seq_id}")
        cache_interval = co.get_block_size(CacheType.LINEAR_ATTENTION_CACHE)
        _require(cache_interval > 0, "Internal error: linear attention cache interval must be "
                 "greater than 0 when prefix caching is enabled")
        data.cache_interval = self._checked_size_to_int32(cache_interval, "cache interval", seq_id)
        read_pos = 0 if processed == 0 else (processed - 1) // cache_interval
        write_begin = processed // cache_interval
        write_count = (processed % cache_interval + scheduled + cache_interval - 1) // cache_interval
        write_end = write_begin + write_count
        _require(read_pos >= block_table_logical_start, "Linear attention read block precedes "
                 f"restored block table for sequence {seq_id}: read position {read_pos}, table "
                 f"starts at {block_table_logical_start}")
        _require(write_begin >= block_table_logical_start, "Linear attention write blocks precede "
                 f"restored block table for sequence {seq_id}: write position {write_begin}, "
                 f"table starts at {block_table_logical_start}")
        read_table_pos = read_pos - block_table_logical_start
        write_table_begin = write_begin - block_table_logical_start
        write_table_end = write_end - block_table_logical_start
        _require(write_table_end <= len(la_blocks), "Linear attention block table has insufficient "
                 f"blocks for sequence {seq_id}: expected at least {write_table_end} blocks from "
                 f"logical start {block_table_logical_start}, got {len(la_blocks)}")
        data.block_indices = [self._checked_block_index_to_int32(la_blocks[read_table_pos].get_index(), seq_id)]
        data.block_indices += [self._checked_block_index_to_int32(la_blocks[p].get_index(), seq_id)
                               for p in range(write_table_begin, write_table_end)]
        out.set_linear_attention_paging_data(seq_id, data)

    def _set_kv_paged_attention_data(self, out: Output, group: SequenceGroup, seq_id: int) -> None:
        co = self._cache_orchestrator
        if not co.has_kv_cache():
            return
        out.set_kv_block_tables(seq_id, co.get_kv_block_tables(seq_id))
        out.set_score_aggregation_window(seq_id, self._schedule_scores_to_aggregate(group))
        after = group.get_num_processed_tokens() + group.get_num_scheduled_tokens()
        if (self._kv_paged_attention_global_data.apply_sparse_attention_mask
                and after <= group.get_prompt_len()):
            sa = self._config.sparse_attention_config
            out.set_sparse_attention_skipped_logical_blocks(seq_id, trishape_skipped_blocks(
                self.get_block_size(CacheType.KV_CACHE), sa.num_last_dense_tokens_in_prefill,
                sa.num_retained_start_tokens_in_cache, sa.num_retained_recent_tokens_in_cache, group))
        out.set_xattention_threshold(seq_id, self._schedule_xattention_threshold(group))
        out.set_adaptive_rkv_evictable_size(seq_id, self._schedule_adaptive_rkv_evictable_size(group))

    @staticmethod
    def _checked_size_to_int32(value: int, name: str, seq_id: int) -> int:
        _require(value <= INT32_MAX, f"Linear attention paging {name} for sequence {seq_id} "
                 f"exceeds int32_t maximum: {value}")
        return value

    @staticmethod
    def _checked_block_index_to_int32(block_index: int, seq_id: int) -> int:
        _require(block_index >= 0, f"Linear attention paging block index for sequence {seq_id} "
                 f"must be non-negative: {block_index}")
        _require(block_index <= INT32_MAX, f"Linear attention paging block index for sequence "
                 f"{seq_id} exceeds int32_t maximum: {block_index}")
        return block_index

    def _schedule_scores_to_aggregate(self, group: SequenceGroup) -> int:
        return snapkv_num_token_scores_to_aggregate(self._snapkv_window_size, group.get_prompt_len(),
                                                    group.get_num_scheduled_tokens(),
                                                    group.get_num_processed_tokens())

    def _schedule_xattention_threshold(self, group: SequenceGroup) -> float:
        sa = self._config.sparse_attention_config
        if not (self._config.use_sparse_attention and sa.mode == SparseAttentionMode.XATTENTION):
            return 0.0
        if group.can_generate_tokens() and group.get_num_scheduled_tokens() == 1:
            return 0.0  # generation phase, excluding last prompt chunk
        prompt_len = group.get_prompt_len()
        after = group.get_num_processed_tokens() + group.get_num_scheduled_tokens()
        if after < prompt_len and prompt_len - after < sa.num_last_dense_tokens_in_prefill:
            return 0.0  # dense attention chunk
        return sa.xattention_threshold

    def _schedule_adaptive_rkv_evictable_size(self, group: SequenceGroup) -> int:
        ce = self._config.cache_eviction_config
        if not (self._config.use_cache_eviction
                and ce.aggregation_mode == AggregationMode.ADAPTIVE_RKV):
            return 0
        if not group.can_generate_tokens():
            return 0  # won't evict during prefill
        if group.get_num_processed_tokens() < ce.get_max_cache_size():
            return 0
        kv_block_size = self.get_block_size(CacheType.KV_CACHE)
        if group.get_num_cached_tokens() % kv_block_size != 0:
            return 0  # eviction happens with block granularity
        non_evictable = ce.get_max_cache_size() - ce.get_evictable_size()
        logical = self.get_num_kv_logical_blocks(group) * kv_block_size
        _require(logical >= non_evictable)
        return logical - non_evictable
