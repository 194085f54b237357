"""Core-level ``set_property({...})`` reaches later compiles (issue 17.4).

The comparison with the real wheel is in ``tests/conformance/test_conformance_core_level_set_property.py``;
these check what only a virtual GPU can show: a core-level THROUGHPUT hint reaches a GPU compile,
and, because the BATCH plugin rejects the key and so cannot load, the Core leaves implicit batching
off (``CoreImpl::apply_auto_batching`` returns when ``get_plugin("BATCH")`` throws).
"""

from __future__ import annotations

import pytest

import ovlab


def _batched(core, compiled):
    queue = ovlab.AsyncInferQueue(compiled)  # OPTIMAL_NUMBER_OF_INFER_REQUESTS of them
    n = len(queue)
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    return any(r.batch_size and r.batch_size > 1 for r in core.trace)


def test_core_level_hint_reaches_gpu_and_auto_compiles(googlenet):
    core = ovlab.Core("laptop", seed=0)
    assert core.set_property({"PERFORMANCE_HINT": "THROUGHPUT"}) is None
    assert str(core.get_property("GPU", "PERFORMANCE_HINT")) == "PerformanceMode.THROUGHPUT"
    gpu = core.compile_model(googlenet, "GPU")
    assert gpu.get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert gpu.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") > 1
    assert not _batched(core, gpu)  # BATCH could not load: no implicit batching
    auto = core.compile_model(googlenet, "AUTO")
    assert str(auto.get_property("PERFORMANCE_HINT")) == "PerformanceMode.THROUGHPUT"


def test_the_same_hint_at_compile_time_batches(googlenet):
    core = ovlab.Core("laptop", seed=0)
    gpu = core.compile_model(googlenet, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    assert _batched(core, gpu)


def test_a_plugin_broken_by_a_core_level_key_stays_broken(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    core.set_property({"NUM_STREAMS": 2})  # AUTO, BATCH, HETERO, MULTI reject it
    for device in ("AUTO", "HETERO:GPU,CPU", "BATCH:GPU(2)", "MULTI:GPU,CPU"):
        with pytest.raises(RuntimeError, match="Failed to create plugin"):
            core.compile_model(small_cnn, device)
    cpu = core.compile_model(small_cnn, "CPU")
    assert cpu.get_property("NUM_STREAMS") == 2
    assert core.available_devices == ["CPU", "GPU"]


def test_cache_dir_alone_loads_and_breaks_nothing(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    core.set_property({"CACHE_DIR": "./cache"})
    assert core.get_property("CACHE_DIR") == "./cache"
    assert not core._loaded and not core._broken
    core.compile_model(small_cnn, "AUTO")
