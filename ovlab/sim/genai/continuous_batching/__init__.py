"""GenAI's continuous-batching scheduler, ported from openvino.genai@da1db864 (2026.4 line).

Rooms named for the C++ sources they follow:
- ``sequence_group``: ``Sequence``, ``SequenceGroup`` (sequence_group.hpp/.cpp);
- ``block_manager``: ``CacheBlock``, ``BlockAllocator``, ``BlockManager`` with prefix caching
  (cache/block_manager.hpp);
- ``cache_manager``: the physical caches' sizes (cache/kv_cache_manager.hpp...);
- ``cache_orchestrator``: one front for the KV and linear-attention caches
  (cache/cache_orchestrator.hpp);
- ``scheduler``: ``Scheduler``, its ``Output`` and the per-step :class:`SchedulerStep` record
  (scheduler.hpp).

The pipeline (``ovlab.sim.genai``) adds requests as :class:`SequenceGroup` s, calls
``Scheduler.schedule`` each step, runs the model on the scheduled tokens, appends the sampled
token to each running sequence, calls ``finish_iteration()`` and frees finished sequences
(``Scheduler.free_sequence``).
"""

from .block_manager import BlockAllocator, BlockManager, CacheBlock, OverwritableBlocksHashStore
from .cache_manager import ICacheManager, KVCacheManager, LinearAttentionCacheManager
from .cache_orchestrator import CacheOrchestrator, CacheType
from .scheduler import Output, Scheduler, SchedulerStep
from .sequence_group import (
    GenerationStatus,
    SamplingParams,
    Sequence,
    SequenceGroup,
    SequenceGroupType,
    SequenceStatus,
)

__all__ = ["BlockAllocator", "BlockManager", "CacheBlock", "CacheOrchestrator", "CacheType",
           "GenerationStatus", "ICacheManager", "KVCacheManager", "LinearAttentionCacheManager",
           "Output", "OverwritableBlocksHashStore", "SamplingParams", "Scheduler", "SchedulerStep",
           "Sequence", "SequenceGroup", "SequenceGroupType", "SequenceStatus"]
