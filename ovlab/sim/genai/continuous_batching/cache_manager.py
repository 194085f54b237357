"""The physical caches, as far as the scheduler sees them: sizes, devices, allocated blocks.

Ported from openvino.genai@da1db864 ``src/cpp/src/continuous_batching/cache/i_cache_manager.hpp``,
``kv_cache_manager.hpp`` and ``linear_attention_cache_manager.hpp``. GenAI's managers own the
``key_cache.N`` / ``value_cache.N`` (and ``*_state_table.N``) tensors of the compiled model and
reallocate them (copying the old contents) when the block manager grows. Here the cache lives in
the simulated device memory: a manager keeps the same numbers (block size per device: 32 tokens
on CPU, 16 on GPU, 256 on GPU with XAttention; bytes per block; blocks allocated) and counts the
work GenAI would do (reallocations and bytes copied when growing, block copies for
copy-on-write), which the pipeline's timing model can charge for.
"""

from __future__ import annotations

CPU_BLOCK_SIZE = 32
GPU_BLOCK_SIZE = 16
GPU_BLOCK_SIZE_XATTN = 256


def default_kv_block_size(device: str, has_xattention: bool = False) -> int:
    """``KVCacheManager``: 32 tokens per block on CPU, 16 on GPU (256 with XAttention)."""
    if "GPU" in device:
        return GPU_BLOCK_SIZE_XATTN if has_xattention else GPU_BLOCK_SIZE
    return CPU_BLOCK_SIZE


class ICacheManager:
    """``ov::genai::ICacheManager``: what a cache type tells the orchestrator."""

    def __init__(self, device: str, num_layers: int, num_cache_tensors: int, block_size: int,
                 block_size_in_bytes: int) -> None:
        self._device = device
        self._num_layers = num_layers
        self._num_cache_tensors = num_cache_tensors
        self._block_size = block_size
        self._block_size_in_bytes = block_size_in_bytes
        self._num_allocated_blocks = 0
        self.num_reallocations = 0  # growths of the cache tensors
        self.bytes_copied_on_growth = 0  # old contents copied into the grown tensors
        self.num_block_copies = 0  # copy-on-write copies (beam search forks)
        self.num_zeroed_blocks = 0

    def allocate_cache_if_needed(self, num_blocks: int) -> None:
        """Grow the tensors to ``num_blocks`` blocks (never shrinks), copying what they held."""
        if self._num_allocated_blocks >= num_blocks:
            return
        if self._num_allocated_blocks:
            self.bytes_copied_on_growth += self._num_allocated_blocks * self._block_size_in_bytes
        self.num_reallocations += 1
        self._num_allocated_blocks = num_blocks

    def copy_blocks(self, block_copy_map: dict[int, list[int]]) -> None:
        self.num_block_copies += sum(len(dst) for dst in block_copy_map.values())

    def zero_blocks(self, block_indices: set[int]) -> None:
        self.num_zeroed_blocks += len(block_indices)

    def clear(self) -> None:
        self._num_allocated_blocks = 0

    def get_num_layers(self) -> int:
        return self._num_layers

    def get_num_cache_tensors(self) -> int:
        return self._num_cache_tensors

    def get_block_size(self) -> int:
        return self._block_size

    def get_device(self) -> str:
        return self._device

    def get_block_size_in_bytes(self) -> int:
        return self._block_size_in_bytes

    def get_num_allocated_blocks(self) -> int:
        return self._num_allocated_blocks

    def get_allocated_bytes(self) -> int:
        """Bytes of the cache tensors as allocated now (the sum of their byte sizes in GenAI)."""
        return self._num_allocated_blocks * self._block_size_in_bytes


class KVCacheManager(ICacheManager):
    """The paged KV cache of ``num_layers`` attention layers: per layer a key and a value tensor
    ``[num_blocks, num_kv_heads, block_size, head_size]`` of ``element_size``-byte elements
    (u8 on CPU by default, f16 on GPU)."""

    def __init__(self, num_layers: int, num_kv_heads: int, head_size: int, *,
                 device: str = "CPU", element_size: float = 1, block_size: int | None = None,
                 block_dim: int | None = None, has_xattention: bool = False) -> None:
        if block_size is None:
            block_size = default_kv_block_size(device, has_xattention)
        # bytes of dims 1..3 of each key and value input, as KVCacheManager sums them
        dim = block_size if block_dim is None else block_dim
        per_tensor = int(num_kv_heads * dim * head_size * element_size)
        super().__init__(device, num_layers, num_layers * 2, block_size,
                         2 * num_layers * per_tensor)


class LinearAttentionCacheManager(ICacheManager):
    """Recurrent-state tables of linear-attention layers (hybrid models): a block holds one
    sequence's whole state; ``state_table_bytes`` lists, per table prefix (conv, gated delta...),
    the bytes of one layer's state."""

    def __init__(self, num_layers: int, state_table_bytes: list[int], *, device: str = "CPU") -> None:
        super().__init__(device, num_layers, num_layers * len(state_table_bytes), 1,
                         num_layers * sum(state_table_bytes))
