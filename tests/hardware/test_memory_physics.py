"""Memory-bound work (issue 22): the cache rule, DRAM bandwidth shared by the inferences running
at once (within a device and across a package's memory domain); on for the fitted devices of
Intel's published platforms, off for the seed's presets and ``cpu``."""

from __future__ import annotations

import pytest

import ovlab
from ovlab import zoo
from ovlab.sim.calibration import fit
from ovlab.sim.calibration.validation import simulate_benchmark
from ovlab.sim.hardware import cost
from ovlab.sim.hardware.platforms import PRESETS, PUBLISHED, Platform, preset


def test_the_published_platforms_have_the_physics_and_the_others_do_not():
    for name in PRESETS:
        for device, spec in preset(name).devices.items():
            on = name in PUBLISHED and spec.fuse_ops
            assert spec.share_bandwidth == on and (spec.llc_gbps > 0) == on, (name, device)
            if on:  # a package's devices share its DRAM; a discrete GPU has its own
                assert spec.memory_domain == ("" if spec.device_type == "discrete"
                                              else "package"), (name, device)
            else:
                assert spec.memory_domain == "", (name, device)


def test_the_cache_rule():
    spec = preset("cpu").devices["CPU"].with_(cache_mb=1.0, mem_bw_gbs=10.0, mem_efficiency=0.5)
    assert cost.memory_seconds(spec, 0.5e6) == 0.0  # fits, no cache bandwidth given: free
    fast = spec.with_(llc_gbps=100.0)
    assert cost.memory_seconds(fast, 0.5e6) == pytest.approx(0.5e6 / 100e9)
    assert cost.memory_seconds(fast, 0.5e6, cache_share=0.25) == pytest.approx(0.5e6 / 5e9)
    assert cost.memory_seconds(fast, 2e6) == pytest.approx(2e6 / 5e9)  # DRAM at 50 %


def _memory_bound_cpu():
    return preset("cpu").devices["CPU"].with_(share_bandwidth=True, llc_gbps=300.0,
                                              cache_mb=1.0, mem_bw_gbs=10.0)


def test_streams_stop_adding_throughput_at_the_bandwidth():
    spec = _memory_bound_cpu().with_(stream_scaling=0.5)  # streams that would add throughput
    plat = Platform("membound", {"CPU": spec})
    fps = simulate_benchmark("mobilenet-v2", "FP32", "throughput", plat)
    model = zoo.load("mobilenet-v2")
    costs = model._cost(1)
    dram = cost.dram_bytes(spec, costs, "bf16", model, cache_share=0.5)
    bound = spec.mem_bw_gbs * 1e9 * spec.mem_efficiency / dram
    assert fps <= bound * 1.01
    assert fps == pytest.approx(fit.predict(spec, "mobilenet-v2", "FP32", "throughput"), rel=0.02)
    free = simulate_benchmark("mobilenet-v2", "FP32", "throughput",
                              Platform("free", {"CPU": spec.with_(share_bandwidth=False)}))
    assert free > 1.25 * fps  # without the shared bandwidth its streams would add more


def _cpu_time_beside_gpu(domain_cpu: str, domain_gpu: str) -> float:
    cpu = _memory_bound_cpu().with_(memory_domain=domain_cpu)
    gpu = preset("i7-1185g7").devices["GPU.0"].with_(share_bandwidth=True, mem_bw_gbs=10.0,
                                                     cache_mb=0.5, memory_domain=domain_gpu)
    core = ovlab.Core(platform=Platform("pkg", {"CPU": cpu, "GPU.0": gpu}), seed=0)
    model = zoo.load("mobilenet-v2")
    on_cpu = core.compile_model(model, "CPU", {"PERFORMANCE_HINT": "LATENCY"})
    on_gpu = core.compile_model(model, "GPU", {"PERFORMANCE_HINT": "LATENCY"})
    on_cpu.create_infer_request().infer()  # warm up both (first inferences cost more)
    on_gpu.create_infer_request().infer()
    gpu_requests = [on_gpu.create_infer_request() for _ in range(4)]
    for r in gpu_requests:
        r.start_async()
    cpu_request = on_cpu.create_infer_request()
    cpu_request.infer()
    for r in gpu_requests:
        r.wait()
    return cpu_request.latency


def test_a_package_s_cpu_and_igpu_share_one_dram():
    apart = _cpu_time_beside_gpu("", "")
    shared = _cpu_time_beside_gpu("package", "package")
    assert shared > 1.2 * apart


def test_a_memory_pool_slows_both_devices_by_the_total_demand():
    from ovlab.sim.runtime.clock import Clock
    from ovlab.sim.runtime.sharing import DeviceShare, MemoryPool

    clock = Clock()
    pool = MemoryPool()
    a, b = DeviceShare(clock), DeviceShare(clock)
    for share in (a, b):
        share.pool = pool
        pool.shares.append(share)
    done = {}
    # each alone would run at full speed (memory demand 0.8); together they demand 1.6
    a.start(1.0, 1.0, lambda: done.setdefault("a", clock.now), memory=0.8)
    b.start(2.0, 1.0, lambda: done.setdefault("b", clock.now), memory=0.8)
    clock.run_all()
    assert done["a"] == pytest.approx(1.6)  # 1 s of work at 1 / 1.6
    assert done["b"] == pytest.approx(2.6)  # 1 s left at t = 1.6, then alone at full speed


def test_an_int8_depthwise_convolution_runs_at_half_a_dot_product_int8_peak():
    """Int8 peaks from 4-wide dot products (VNNI, DP4a, XMX, an NPU's MAC array) do not serve a
    depthwise convolution, which has no input channels to sum: it computes on 16-bit
    multiply-adds, half that peak. A CPU whose int8 is already 16-bit (AVX2, no VNNI) keeps it."""
    from ovlab.sim.calibration.calibrate import cpu_peaks
    from ovlab.sim.hardware.specs import DEPTHWISE_I8_RATE, depthwise_i8_rate, with_memory_physics

    for name in PUBLISHED:
        for device, spec in preset(name).devices.items():
            if spec.fuse_ops and "i8" in spec.peak_gflops:
                assert spec.depthwise_i8_rate == DEPTHWISE_I8_RATE == 0.5, (name, device)
    spec = preset("i7-1185g7").devices["CPU"]
    for kind in ("conv", "matmul"):
        assert cost.efficiency(spec, kind, "i8") == pytest.approx(
            cost.efficiency(spec.with_(depthwise_i8_rate=1.0), kind, "i8"))
    assert cost.efficiency(spec, "depthwise", "i8") == pytest.approx(
        0.5 * cost.efficiency(spec.with_(depthwise_i8_rate=1.0), "depthwise", "i8"))
    assert cost.efficiency(spec, "depthwise", "f32") == pytest.approx(
        cost.efficiency(spec.with_(depthwise_i8_rate=1.0), "depthwise", "f32"))
    base = preset("cpu").devices["CPU"]
    assert base.depthwise_i8_rate == 1.0  # the measured `cpu` preset keeps its fit
    info = {"cores": 2, "clock_ghz": 3.0}
    avx2 = base.with_(peak_gflops=cpu_peaks({**info, "flags": {"avx2", "fma"}}))
    vnni = base.with_(peak_gflops=cpu_peaks({**info, "flags": {"avx2", "fma", "avx_vnni"}}))
    assert depthwise_i8_rate(avx2) == 1.0 and depthwise_i8_rate(vnni) == 0.5
    assert with_memory_physics(avx2, 2).depthwise_i8_rate == 1.0
    # an INT8 MobileNet-v2 (17 depthwise convolutions) takes longer; ResNet-50 (none) does not
    for model, longer in (("mobilenet-v2", True), ("resnet-50", False)):
        m = zoo.load(model, "INT8")
        costs = m._cost(1)
        t_half = cost.inference_time(spec, costs, "i8", m)
        t_full = cost.inference_time(spec.with_(depthwise_i8_rate=1.0), costs, "i8", m)
        assert (t_half > 1.05 * t_full) if longer else t_half == t_full
