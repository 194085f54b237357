"""``openvino_genai.SchedulerConfig`` and the configs it holds, as GenAI 2026.4 defines them.

Ported from openvino.genai@da1db864 (the 2026.4 line; the installed ``openvino-genai`` 2026.4.1.0
wheel has the same fields): ``src/cpp/include/openvino/genai/scheduler_config.hpp``,
``cache_eviction.hpp`` and ``sparse_attention.hpp``. Field names, defaults, ``to_string()`` and the
asserts are GenAI's; ``tests/genai/test_scheduler_config.py`` compares them with the wheel.

The continuous-batching scheduler (``ovlab.sim.genai.continuous_batching``) reads these fields; the
cache-eviction and sparse-attention configs are kept for API fidelity (the scheduler ported here
reads only what its own decisions need from them).

``get_latency_oriented_scheduler_config()`` is what ``LLMPipeline`` uses on CPU/GPU when no
``scheduler_config`` is passed (``src/cpp/src/utils.cpp``): the token budget unlimited ("don't
limit total batch size") and prefix caching on ("for better TTFT in chat scenarios").
"""

from __future__ import annotations

import enum
import operator

#: ``SIZE_MAX`` on a 64-bit build: the "unlimited" ``max_num_batched_tokens`` of LLMPipeline.
SIZE_MAX = 2**64 - 1

#: ``DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER`` (scheduler_config.hpp).
DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER = 8


def _require(condition: bool, *message: object) -> None:
    """``OPENVINO_ASSERT``: GenAI's Python binding surfaces it as a RuntimeError."""
    if not condition:
        raise RuntimeError("".join(str(m) for m in message))


def _bool(v: bool) -> str:
    return "true" if v else "false"


def _incompatible(what: str, arg: str, value) -> TypeError:
    """pybind11's TypeError for a property setter given the wrong type (``what`` is
    ``Class.field``; the last line names the object and the value, as the wheel's does)."""
    cls = what.split(".", 1)[0]
    return TypeError(
        "(): incompatible function arguments. The following argument types are supported:\n"
        f"    1. (self: openvino_genai.py_openvino_genai.{cls}, arg0: {arg}) -> None\n\n"
        f"Invoked with: <openvino_genai.py_openvino_genai.{cls} object at 0x0>, {value!r}")


def _size_t(what: str, value) -> int:
    """A C++ ``size_t`` from Python as pybind11 converts it: an int (bools and NumPy ints too) in
    [0, 2**64 - 1]; anything else is a TypeError."""
    try:
        v = operator.index(value)
    except TypeError:
        raise _incompatible(what, "typing.SupportsInt", value) from None
    if not 0 <= v <= SIZE_MAX:
        raise _incompatible(what, "typing.SupportsInt", value)
    return v


class AggregationMode(enum.IntEnum):
    """How token importance scores are aggregated for cache eviction (cache_eviction.hpp)."""

    SUM = 0
    NORM_SUM = 1
    ADAPTIVE_RKV = 2


class KVCrushAnchorPointMode(enum.IntEnum):
    """KVCrush anchor point (cache_eviction.hpp)."""

    RANDOM = 0
    ZEROS = 1
    ONES = 2
    MEAN = 3
    ALTERNATING = 4


class SparseAttentionMode(enum.IntEnum):
    """Sparse prefill attention algorithm (sparse_attention.hpp)."""

    TRISHAPE = 0
    XATTENTION = 1


class KVCrushConfig:
    """``ov::genai::KVCrushConfig``: budget in blocks, anchor point mode, seed."""

    def __init__(self, budget: int = 0,
                 anchor_point_mode: KVCrushAnchorPointMode = KVCrushAnchorPointMode.RANDOM,
                 rng_seed: int = 0) -> None:
        self.budget = int(budget)
        self.anchor_point_mode = KVCrushAnchorPointMode(anchor_point_mode)
        self.rng_seed = int(rng_seed)

    def get_budget(self) -> int:
        return self.budget

    def to_string(self) -> str:
        return ("KVCrushConfig { \n"
                f"  budget: {self.budget}\n"
                f"  rng_seed: {self.rng_seed}\n"
                f"  anchor_point_mode: {self.anchor_point_mode.name}\n"
                " }")


class AdaptiveRKVConfig:
    """``ov::genai::AdaptiveRKVConfig``."""

    def __init__(self, attention_mass: float = 0.9, window_size: int = 8) -> None:
        self.attention_mass = float(attention_mass)
        self.window_size = int(window_size)


class CacheEvictionConfig:
    """``ov::genai::CacheEvictionConfig``: the start / evictable / recent areas of a sequence's KV
    cache (defaults 32 / 512 / 128 tokens, max 672) and how token scores are aggregated."""

    def __init__(self, start_size: int | None = None, recent_size: int | None = None,
                 max_cache_size: int | None = None,
                 aggregation_mode: AggregationMode = AggregationMode.NORM_SUM,
                 apply_rotation: bool = False, snapkv_window_size: int = 8,
                 kvcrush_config: KVCrushConfig | None = None,
                 adaptive_rkv_config: AdaptiveRKVConfig | None = None) -> None:
        self.aggregation_mode = AggregationMode(aggregation_mode)
        self.apply_rotation = bool(apply_rotation)
        self.snapkv_window_size = int(snapkv_window_size)
        self.kvcrush_config = kvcrush_config if kvcrush_config is not None else KVCrushConfig()
        self.adaptive_rkv_config = (adaptive_rkv_config if adaptive_rkv_config is not None
                                    else AdaptiveRKVConfig())
        if start_size is None and recent_size is None and max_cache_size is None:
            # CacheEvictionConfig() = default: the member initialisers
            self._start_size, self._recent_size, self._max_cache_size = 32, 128, 672
            self._evictable_size = 512
            return
        _require(bool(start_size), "CacheEvictionConfig.start_size must be non-zero")
        _require(bool(recent_size), "CacheEvictionConfig.recent_size must be non-zero")
        _require(bool(max_cache_size), "CacheEvictionConfig.max_cache_size must be non-zero")
        _require(max_cache_size > start_size + recent_size,
                 "CacheEvictionConfig.max_cache_size must be larger than "
                 "CacheEvictionConfig.start_size + CacheEvictionConfig.recent_size")
        self._start_size, self._recent_size = int(start_size), int(recent_size)
        self._max_cache_size = int(max_cache_size)
        self._evictable_size = self._max_cache_size - self._start_size - self._recent_size

    def get_start_size(self) -> int:
        return self._start_size

    def get_recent_size(self) -> int:
        return self._recent_size

    def get_max_cache_size(self) -> int:
        return self._max_cache_size

    def get_evictable_size(self) -> int:
        return self._evictable_size

    def to_string(self) -> str:
        mode = (f"  aggregation_mode: {self.aggregation_mode.name}\n"
                if self.aggregation_mode != AggregationMode.ADAPTIVE_RKV else "")
        return ("CacheEvictionConfig { \n"
                f"  start_size: {self._start_size}\n"
                f"  recent_size: {self._recent_size}\n"
                f"  max_cache_size: {self._max_cache_size}\n"
                f"  evictable_size: {self._evictable_size}\n"
                f"{mode}"
                f"  apply_rotation: {_bool(self.apply_rotation)}\n"
                f"  snapkv_window_size: {self.snapkv_window_size}\n"
                f"{self.kvcrush_config.to_string()}\n"
                " }")


class SparseAttentionConfig:
    """``ov::genai::SparseAttentionConfig`` (TRISHAPE or XATTENTION prefill sparsity)."""

    def __init__(self, mode: SparseAttentionMode = SparseAttentionMode.TRISHAPE,
                 num_last_dense_tokens_in_prefill: int = 100,
                 num_retained_start_tokens_in_cache: int = 128,
                 num_retained_recent_tokens_in_cache: int = 1920,
                 xattention_threshold: float = 0.8, xattention_block_size: int = 64,
                 xattention_stride: int = 8) -> None:
        self.mode = SparseAttentionMode(mode)
        self.num_last_dense_tokens_in_prefill = int(num_last_dense_tokens_in_prefill)
        self.num_retained_start_tokens_in_cache = int(num_retained_start_tokens_in_cache)
        self.num_retained_recent_tokens_in_cache = int(num_retained_recent_tokens_in_cache)
        self.xattention_threshold = float(xattention_threshold)
        self.xattention_block_size = int(xattention_block_size)
        self.xattention_stride = int(xattention_stride)

    def to_string(self) -> str:
        return ("SparseAttentionConfig { \n"
                f"  sparseAttentionMode: {self.mode.name}\n"
                f"  num_last_dense_tokens_in_prefill: {self.num_last_dense_tokens_in_prefill}\n"
                f"  num_retained_start_tokens_in_cache: {self.num_retained_start_tokens_in_cache}\n"
                f"  num_retained_recent_tokens_in_cache: {self.num_retained_recent_tokens_in_cache}\n"
                f"  xattention_threshold: {self.xattention_threshold}\n"
                f"  xattention_block_size: {self.xattention_block_size}\n"
                f"  xattention_stride: {self.xattention_stride}\n"
                " }")


class SchedulerConfig:
    """``ov::genai::SchedulerConfig``: the continuous-batching scheduler's knobs.

    - ``max_num_batched_tokens`` (256): the token budget of one step (the prefill chunk under
      split-fuse); LLMPipeline makes it unlimited.
    - ``num_kv_blocks`` / ``cache_size`` (0 / 0 GB): the KV cache; both 0 turns on dynamic growth.
    - ``dynamic_split_fuse`` (True): generate first, then prompt chunks; False is "vLLM" mode.
    - ``max_num_seqs`` (256): sequences per step in vLLM mode.
    - ``enable_prefix_caching`` (False; LLMPipeline: True): keep and reuse KV blocks by hash.
    """

    def __init__(self) -> None:
        self.max_num_batched_tokens: int = 256
        self.num_kv_blocks: int = 0
        self.cache_size: int = 0
        self.num_linear_attention_blocks: int = 0
        self.cache_interval_multiplier: int | None = None
        self.dynamic_split_fuse: bool = True
        self.use_cache_eviction: bool = False
        self.cache_eviction_config: CacheEvictionConfig = CacheEvictionConfig()
        self.max_num_seqs: int = 256
        self.enable_prefix_caching: bool = False
        self.use_sparse_attention: bool = False
        self.sparse_attention_config: SparseAttentionConfig = SparseAttentionConfig()

    _SIZE_T_FIELDS = frozenset({"max_num_batched_tokens", "num_kv_blocks", "cache_size",
                                "num_linear_attention_blocks", "max_num_seqs"})
    _BOOL_FIELDS = frozenset({"dynamic_split_fuse", "use_cache_eviction", "enable_prefix_caching",
                              "use_sparse_attention"})

    def __setattr__(self, name: str, value) -> None:
        """Fields take what the wheel's pybind11 setters take, and raise TypeError otherwise:
        size_t fields an int in [0, 2**64 - 1], bool fields anything with a truth value but a
        string, the nested configs their own class; no new attributes."""
        if name in self._SIZE_T_FIELDS or name == "cache_interval_multiplier":
            if value is None and name == "cache_interval_multiplier":
                pass
            else:
                value = _size_t(f"SchedulerConfig.{name}", value)
        elif name in self._BOOL_FIELDS:
            if value is not None and isinstance(value, (str, bytes)) or not (
                    value is None or hasattr(value, "__bool__")):
                raise _incompatible(f"SchedulerConfig.{name}", "bool", value)
            value = bool(value)
        elif name == "cache_eviction_config":
            if not isinstance(value, CacheEvictionConfig):
                raise TypeError(f"SchedulerConfig.{name} takes a CacheEvictionConfig, got {value!r}")
        elif name == "sparse_attention_config":
            if not isinstance(value, SparseAttentionConfig):
                raise TypeError(f"SchedulerConfig.{name} takes a SparseAttentionConfig, got {value!r}")
        else:
            raise AttributeError(f"'SchedulerConfig' object has no attribute '{name}'")
        object.__setattr__(self, name, value)

    def get_cache_interval(self, kv_block_size: int) -> int:
        """KV block size x ``cache_interval_multiplier`` (default 8): the linear-attention
        checkpoint interval of hybrid models under prefix caching."""
        multiplier = (self.cache_interval_multiplier if self.cache_interval_multiplier is not None
                      else DEFAULT_LINEAR_ATTENTION_CACHE_INTERVAL_MULTIPLIER)
        _require(multiplier == 0 or kv_block_size <= SIZE_MAX // multiplier,
                 "SchedulerConfig cache_interval_multiplier is too large for KV cache block size. "
                 f"cache_interval_multiplier: {multiplier}, KV cache block size: {kv_block_size}")
        return kv_block_size * multiplier

    def validate(self) -> None:
        _require(not self.enable_prefix_caching or self.cache_interval_multiplier is None
                 or self.cache_interval_multiplier > 0,
                 "SchedulerConfig cache_interval_multiplier must be greater than 0 when prefix "
                 "caching is enabled")

    def copy(self) -> SchedulerConfig:
        """A copy (C++ passes SchedulerConfig by value; the nested configs are shared here as
        they are only read)."""
        c = SchedulerConfig()
        c.__dict__.update(self.__dict__)
        return c

    def to_string(self) -> str:
        lines = ["SchedulerConfig { ",
                 f"  max_num_batched_tokens: {self.max_num_batched_tokens}",
                 f"  num_kv_blocks: {self.num_kv_blocks}",
                 f"  cache_size: {self.cache_size}",
                 f"  num_linear_attention_blocks: {self.num_linear_attention_blocks}",
                 ("  cache_interval_multiplier: unset" if self.cache_interval_multiplier is None
                  else f"  cache_interval_multiplier: {self.cache_interval_multiplier}"),
                 f"  dynamic_split_fuse: {_bool(self.dynamic_split_fuse)}",
                 f"  use_cache_eviction: {_bool(self.use_cache_eviction)}"]
        if self.use_cache_eviction:
            lines.append(self.cache_eviction_config.to_string())
        lines += [f"  max_num_seqs: {self.max_num_seqs}",
                  f"  enable_prefix_caching: {_bool(self.enable_prefix_caching)}",
                  f"  use_sparse_attention: {_bool(self.use_sparse_attention)}"]
        if self.use_sparse_attention:
            lines.append(self.sparse_attention_config.to_string())
        return "\n".join(lines) + "\n }"


def get_latency_oriented_scheduler_config() -> SchedulerConfig:
    """The config ``LLMPipeline`` builds on CPU/GPU when the user passes none
    (``utils::get_latency_oriented_scheduler_config``, utils.cpp): the defaults, with
    ``max_num_batched_tokens`` unlimited and ``enable_prefix_caching`` on."""
    config = SchedulerConfig()
    config.max_num_batched_tokens = SIZE_MAX  # don't limit total batch size
    config.enable_prefix_caching = True  # for better TTFT in chat scenarios
    return config
