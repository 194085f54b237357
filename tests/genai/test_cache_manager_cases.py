"""GenAI's C++ cache manager tests, re-derived for ovlab's port.

Each test is one ``TEST`` of openvino.genai@da1db864 ``tests/cpp/cache_manager.cpp``
(``TestCacheManager.<name>`` becomes ``test_<name>``). GenAI's KV cache manager allocates real
tensors; ovlab's keeps their sizes (``get_allocated_bytes`` is the sum of the key and value
tensors' byte sizes), for the same dummy model: 12 layers, K and V ``[?, 12, 64, 64]`` u8.
"""

from __future__ import annotations

from ovlab.sim.genai.continuous_batching import BlockManager, KVCacheManager
from ovlab.sim.genai.scheduler_config import SchedulerConfig


def _dummy_kv_manager(num_layers: int = 12) -> KVCacheManager:
    return KVCacheManager(num_layers, 12, 64, device="CPU", element_size=1, block_dim=64)


def get_num_kv_blocks(cache_size: int, block_size_bytes: int) -> int:
    return cache_size * 1024**3 // block_size_bytes


def test_cache_size_param():
    """TestCacheManager.test_cache_size_param"""
    c = SchedulerConfig()
    c.max_num_batched_tokens, c.num_kv_blocks, c.cache_size, c.max_num_seqs = 32, 0, 2, 2
    cache_manager = _dummy_kv_manager()
    assert cache_manager.get_num_layers() == 12
    num_kv_blocks = get_num_kv_blocks(c.cache_size, cache_manager.get_block_size_in_bytes())
    bm = BlockManager(num_kv_blocks, False, cache_manager.get_block_size(),
                      cache_manager.get_num_layers())
    cache_manager.allocate_cache_if_needed(bm.get_total_block_count())
    total = c.cache_size * 1024**3
    block_bytes = cache_manager.get_block_size_in_bytes()
    assert cache_manager.get_allocated_bytes() == total // block_bytes * block_bytes


def test_kv_blocks_param():
    """TestCacheManager.test_kv_blocks_param"""
    c = SchedulerConfig()
    c.max_num_batched_tokens, c.num_kv_blocks, c.cache_size, c.max_num_seqs = 32, 150, 0, 2
    bm = BlockManager(c.num_kv_blocks, False, 32, 12)
    assert bm.get_total_block_count() == c.num_kv_blocks


def test_dynamic_cache_increase():
    """TestCacheManager.test_dynamic_cache_increase"""
    c = SchedulerConfig()
    c.max_num_batched_tokens, c.num_kv_blocks, c.cache_size, c.max_num_seqs = 32, 0, 0, 2
    cache_manager = _dummy_kv_manager()
    block_bytes = cache_manager.get_block_size_in_bytes()
    bm = BlockManager(get_num_kv_blocks(c.cache_size, block_bytes), False,
                      cache_manager.get_block_size(), cache_manager.get_num_layers())
    assert cache_manager.get_num_layers() == 12
    bm.increase_block_count(100)
    assert bm.get_total_block_count() == 100
    cache_manager.allocate_cache_if_needed(bm.get_total_block_count())
    assert cache_manager.get_allocated_bytes() == 100 * block_bytes
    bm.increase_block_count(200)
    assert bm.get_total_block_count() == 200
    cache_manager.allocate_cache_if_needed(bm.get_total_block_count())
    assert cache_manager.get_allocated_bytes() == 200 * block_bytes
    # no growth when no new blocks were added
    cache_manager.allocate_cache_if_needed(bm.get_total_block_count())
    assert cache_manager.get_allocated_bytes() == 200 * block_bytes
