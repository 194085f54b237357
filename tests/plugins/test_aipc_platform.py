"""The AI PC (core-ultra-7-165h): its devices, the hybrid CPU, AUTO's candidates (claims N01-N03)."""

import statistics

import pytest

import ovlab
from ovlab.properties import hint
from ovlab.sim.hardware import preset


@pytest.fixture
def aipc():
    return ovlab.Core("core-ultra-7-165h", seed=0)


def test_n01_core_ultra_has_a_hybrid_cpu_an_arc_igpu_and_an_npu(aipc):
    assert aipc.available_devices == ["CPU", "GPU", "NPU"]
    assert aipc.get_property("GPU", "FULL_DEVICE_NAME") == "Intel(R) Arc(TM) Graphics (iGPU)"
    assert aipc.get_property("GPU", "DEVICE_TYPE") == ovlab.properties.device.Type.INTEGRATED
    assert aipc.get_property("NPU", "DEVICE_ARCHITECTURE") == "3720"
    assert "FP32" not in aipc.get_property("NPU", "OPTIMIZATION_CAPABILITIES")
    cpu = preset("core-ultra-7-165h").devices["CPU"]
    assert (cpu.p_cores, cpu.e_cores) == (6, 8) and cpu.hybrid
    # the GPU reports its memory (what PIPELINE_PARALLEL reads)
    assert aipc.get_property("GPU", "GPU_DEVICE_TOTAL_MEM_SIZE") == 16_000_000_000


def test_n01_npu_3720_supports_the_compilers_op_list_only(aipc, small_cnn):
    from ovlab.sim.hardware.devices import NPU_3720_OPS

    spec = preset("core-ultra-7-165h").devices["NPU"]
    assert spec.supported_ops == NPU_3720_OPS
    # the zoo's ops are on the list; an op outside it is refused and left out of query_model
    assert set(aipc.query_model(small_cnn, "NPU")) == {op.get_friendly_name()
                                                       for op in small_cnn.get_ops()}
    assert not spec.supports("NonMaxSuppression")


def test_n01_power_mode_is_a_platform_state():
    platform = preset("core-ultra-7-165h")
    assert platform.power_mode == "performance"
    platform.set_power_mode("low_power")
    assert platform.with_device("GPU.1", platform.devices["GPU.0"]).power_mode == "low_power"
    with pytest.raises(ValueError, match="power mode must be one of performance, low_power"):
        platform.set_power_mode("turbo")


def _cpu_run(core, model, config):
    compiled = core.compile_model(model, "CPU", config)
    request = compiled.create_infer_request()
    times = []
    for _ in range(6):
        request.start_async()
        request.wait()
        times.append(request.latency)
    return compiled, statistics.median(times[1:])


def test_n03_hybrid_cpu_latency_on_p_cores_throughput_on_all(aipc, googlenet):
    lat, lat_ms = _cpu_run(aipc, googlenet, {})
    tput, _ = _cpu_run(aipc, googlenet, {"PERFORMANCE_HINT": "THROUGHPUT"})
    ecore, ecore_ms = _cpu_run(aipc, googlenet, {"SCHEDULING_CORE_TYPE": "ECORE_ONLY"})
    pcore, _ = _cpu_run(aipc, googlenet, {"SCHEDULING_CORE_TYPE": hint.SchedulingCoreType.PCORE_ONLY,
                                          "PERFORMANCE_HINT": "THROUGHPUT"})
    assert lat.get_property("INFERENCE_NUM_THREADS") == 6
    assert tput.get_property("INFERENCE_NUM_THREADS") == 14
    assert ecore.get_property("INFERENCE_NUM_THREADS") == 8
    assert pcore.get_property("INFERENCE_NUM_THREADS") == 6
    # 8 E-cores at 0.41 of a P-core each do 0.55 of the 6 P-cores' work
    assert ecore_ms / lat_ms == pytest.approx(6 / (8 * 0.41), rel=0.2)


def test_n03_non_hybrid_cpus_are_unchanged(core, googlenet):
    lat, _ = _cpu_run(core, googlenet, {})
    ecore, _ = _cpu_run(core, googlenet, {"SCHEDULING_CORE_TYPE": "ECORE_ONLY"})
    assert lat.get_property("INFERENCE_NUM_THREADS") == ecore.get_property(
        "INFERENCE_NUM_THREADS")
    assert lat._backend._base == ecore._backend._base


@pytest.mark.parametrize("name, chosen", [("AUTO", "GPU.0"), ("AUTO:GPU,NPU,CPU", "GPU.0"),
                                          ("AUTO:NPU,GPU,CPU", "NPU"), ("AUTO:-GPU", "CPU")])
def test_n02_auto_leaves_the_npu_out_until_named(googlenet, name, chosen):
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    compiled = core.compile_model(googlenet, name)
    selected = [e.device for e in core.trace.events if e.kind == "select"][0]
    assert selected == chosen
    candidates = compiled.get_property("MULTI_DEVICE_PRIORITIES")
    assert ("NPU" in candidates) == ("NPU" in name)
