"""CACHE_DIR as a directory of blob files, and AUTO with a cache (claims N14-N17).

What the real CPU does is compared with the 2026.4.1 wheel in
``tests/conformance/test_conformance_aipc_2026.py``; here are the devices the wheel cannot show
(GPU, NPU) and AUTO's use of the cache (openvino PRs #24618, #24726, #29636).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import ovlab
from ovlab.sim.runtime import model_cache


def blobs(path) -> list[Path]:
    return sorted(Path(path).glob("*.blob"))


def compile_twice(platform, model, device, config):
    """Two Cores (two programs) compiling the same model: (first, second) LOADED_FROM_CACHE."""
    flags = []
    for _ in range(2):
        core = ovlab.Core(platform, seed=0)
        compiled = core.compile_model(model, device, config)
        core.clock.sleep(20)  # anything compiling in the background finishes (and writes)
        flags.append(compiled.get_property("LOADED_FROM_CACHE"))
    return flags


def test_n14_blobs_are_files_another_core_finds(googlenet):
    assert compile_twice("laptop", googlenet, "GPU", {"CACHE_DIR": "cache"}) == [False, True]
    (blob,) = blobs("cache")
    header, body = blob.read_text().split("\n", 1)
    assert header.startswith('<?xml version="1.0"?><compiled_blob ie_version="')
    payload = json.loads(body)
    assert payload["device"] == "GPU.0" and payload["key"] == blob.stem and blob.stem.isdigit()
    assert blob.stat().st_size < 1000  # small: no compiled binary inside


def test_n14_another_process_finds_the_blob(small_cnn):
    script = ("import ovlab; from ovlab import zoo\n"
              "c = ovlab.Core('laptop'); m = zoo.load('small-cnn')\n"
              "print(c.compile_model(m, 'GPU', {'CACHE_DIR': 'cache'})"
              ".get_property('LOADED_FROM_CACHE'))")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["False", "True"]
    # and this process, with a model built the same way, finds it too
    core = ovlab.Core("laptop")
    assert core.compile_model(small_cnn, "GPU", {"CACHE_DIR": "cache"}).get_property(
        "LOADED_FROM_CACHE") is True


def test_n14_the_cached_load_is_fast(googlenet):
    times = []
    for _ in range(2):
        core = ovlab.Core("laptop", seed=0)
        core.compile_model(googlenet, "GPU", {"CACHE_DIR": "cache"})
        times.append(core.clock.now)
    assert times[0] > 5 and times[1] == pytest.approx(0.35)


def test_n15_gpu_keys_follow_the_hint_cpu_keys_do_not(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    for device in ("CPU", "GPU"):
        for hint in ("LATENCY", "THROUGHPUT"):
            core.compile_model(small_cnn, device, {"CACHE_DIR": device, "PERFORMANCE_HINT": hint,
                                                   "ALLOW_AUTO_BATCHING": False})
    assert len(blobs("CPU")) == 1 and len(blobs("GPU")) == 2


def test_n15_keys_depend_on_device_names_not_ids(small_cnn):
    """Identical GPUs share a key (architecture and name); another GPU model does not."""
    core = ovlab.Core("multi-gpu", seed=0)
    core.compile_model(small_cnn, "GPU.0", {"CACHE_DIR": "cache"})
    second = core.compile_model(small_cnn, "GPU.1", {"CACHE_DIR": "cache"})
    assert second.get_property("LOADED_FROM_CACHE") is True
    workstation = ovlab.Core("workstation", seed=0)
    workstation.compile_model(small_cnn, "GPU.0", {"CACHE_DIR": "cache"})
    dgpu = workstation.compile_model(small_cnn, "GPU.1", {"CACHE_DIR": "cache"})
    assert dgpu.get_property("LOADED_FROM_CACHE") is False
    assert len(blobs("cache")) == 3


def test_n15_hash_combine_is_boosts():
    seed = model_cache.hash_combine(0, 5)
    assert seed == (0 ^ (5 + 0x9E3779B9)) & ((1 << 64) - 1)
    assert model_cache.hash_combine(seed, "x") != model_cache.hash_combine(seed, "y")


def test_n16_an_outdated_blob_is_compiled_again(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    core.compile_model(small_cnn, "GPU", {"CACHE_DIR": "cache"})
    (blob,) = blobs("cache")
    blob.write_text(blob.read_text().replace('ie_version="2026.4.1-ovlab"', 'ie_version="2025.0"'))
    again = core.compile_model(small_cnn, "GPU", {"CACHE_DIR": "cache"})
    assert again.get_property("LOADED_FROM_CACHE") is False
    assert 'ie_version="2026.4.1-ovlab"' in blob.read_text()  # rewritten


def test_n16_device_level_cache_dir(small_cnn):
    core = ovlab.Core("laptop", seed=0)
    core.set_property("CPU", {"CACHE_DIR": "cpu-cache"})  # any device takes it (measured)
    core.compile_model(small_cnn, "CPU")
    assert len(blobs("cpu-cache")) == 1 and core.get_property("CACHE_DIR") == ""


# --- N17: AUTO and the cache --------------------------------------------------------------------
def _auto_start(model, config):
    core = ovlab.Core("laptop", seed=0)
    compiled = core.compile_model(model, "AUTO", config)
    returned = core.clock.now
    request = compiled.create_infer_request()
    request.start_async()
    request.wait()
    first = core.trace.inferences[-1]
    core.clock.sleep(20)
    return returned, first.worker, compiled


def test_n17_with_a_blob_auto_skips_the_helper_and_loads_only_that_device(googlenet):
    config = {"CACHE_DIR": "cache"}
    returned, worker, compiled = _auto_start(googlenet, config)
    assert returned < 0.5 and worker == "CPU_HELP"
    assert len(blobs("cache")) == 1  # the GPU's: the helper never caches
    returned, worker, compiled = _auto_start(googlenet, config)
    schedule = compiled._backend.schedule
    assert returned == pytest.approx(0.35) and worker == "GPU.0#0"
    assert not schedule.helper.enabled and schedule.passthrough  # only the GPU is loaded
    assert not schedule.runtime_fallback
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    assert compiled.get_property("LOADED_FROM_CACHE") is True


def test_n17_a_cached_batched_gpu_model_also_skips_the_helper(googlenet):
    """AUTO + THROUGHPUT makes the GPU a BATCH:GPU model whose batch-1 compile carries the same
    key AUTO computes; the batched (batch-8/16) model has a key of its own."""
    config = {"CACHE_DIR": "cache", "PERFORMANCE_HINT": "THROUGHPUT"}
    returned, worker, compiled = _auto_start(googlenet, config)
    assert worker == "CPU_HELP"
    assert len(blobs("cache")) == 2  # the batch-1 and the batched GPU models
    returned, worker, compiled = _auto_start(googlenet, config)
    assert worker.startswith("GPU.0") and not compiled._backend.schedule.helper.enabled
    assert compiled.get_property("LOADED_FROM_CACHE") is True


def test_n17_same_core_second_auto_compile_uses_the_batched_blob(googlenet):
    core = ovlab.Core("laptop", seed=0)
    config = {"CACHE_DIR": "cache", "PERFORMANCE_HINT": "THROUGHPUT"}
    core.compile_model(googlenet, "AUTO", config)
    core.clock.sleep(20)
    second = core.compile_model(googlenet, "AUTO", config)
    assert not second._backend.schedule.helper.enabled


def test_n17_helper_compiles_without_cache_even_when_the_gpu_misses(googlenet):
    core = ovlab.Core("laptop", seed=0)
    core.set_property({"CACHE_DIR": "cache"})
    compiled = core.compile_model(googlenet, "AUTO")
    helper = compiled._backend.schedule.helper
    assert helper.enabled and helper.device.config["CACHE_DIR"] == ""
    core.clock.sleep(20)
    assert [p.name for p in blobs("cache")] and all(
        json.loads(p.read_text().split("\n", 1)[1])["device"] == "GPU.0" for p in blobs("cache"))
