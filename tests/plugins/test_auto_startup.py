"""AUTO's start-up: the CPU helper, the hand-over to the device, compile fallback, hints, logs."""

import re
import statistics

import pytest

import ovlab
from ovlab.properties import hint


def events(core, kind):
    return [e for e in core.trace.events if e.kind == kind]


def run_stream(core, compiled, n, gap, jobs=4):
    """``n`` inferences submitted every ``gap`` seconds through an AsyncInferQueue."""
    queue = ovlab.AsyncInferQueue(compiled, jobs)
    for _ in range(n):
        queue.start_async()
        core.clock.sleep(gap)
    queue.wait_all()


# --- A04: the CPU helper hides the GPU compile ----------------------------------------------
def test_a04_cpu_helper_hides_gpu_compile(googlenet):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO")
    returned = core.clock.now
    gpu_compile = [e for e in events(core, "compile_start") if e.device == "GPU.0"][0]
    assert returned < 0.5 < gpu_compile.detail["seconds"]  # CPU ready long before the GPU
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    run_stream(core, compiled, 400, 0.03)
    switch = events(core, "switch")[0]
    assert switch.device == "GPU.0" and switch.time == pytest.approx(gpu_compile.detail["seconds"])
    helper = [r for r in core.trace if r.worker == "CPU_HELP"]
    gpu = [r for r in core.trace if r.device == "GPU.0"]
    assert helper and gpu and len(helper) + len(gpu) == 400
    assert all(r.device == "CPU" for r in helper)
    # the seed's switch: around iteration 230-250 of a 30 ms stream (a ~7 s iGPU compile)
    first_gpu = min(r.seq for r in gpu)
    assert 200 <= first_gpu <= 280
    # every new inference after the switch goes to the GPU
    assert all(r.started <= switch.time for r in helper)
    assert all(r.submitted >= switch.time for r in gpu if r.seq > max(h.seq for h in helper))
    # latency steps down at the switch: ~15-30 ms on the CPU, ~3-16 ms on the iGPU
    cpu_ms = statistics.median(r.latency for r in helper[20:]) * 1000
    gpu_ms = statistics.median(r.latency for r in gpu[10:]) * 1000
    assert 10 < cpu_ms < 40 and 2 < gpu_ms < 16 and gpu_ms < cpu_ms


def test_a04_queued_inferences_move_on_the_next_completion(googlenet):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO")
    requests = [compiled.create_infer_request() for _ in range(3)]
    gpu_ready = [e for e in events(core, "compile_start") if e.device == "GPU.0"][0].detail["seconds"]
    core.clock.sleep(gpu_ready - core.clock.now - 0.001)  # just before the GPU is ready
    for r in requests:  # one runs on the single CPU_HELP worker, two wait
        r.start_async()
    for r in requests:
        r.wait()
    recs = sorted(core.trace, key=lambda r: r.seq)
    switch = events(core, "switch")[0].time
    assert recs[0].worker == "CPU_HELP" and recs[0].started < switch
    # the waiting ones were not moved when the GPU became ready, but when the CPU one completed
    assert [r.device for r in recs[1:]] == ["GPU.0", "GPU.0"]
    assert recs[1].started == pytest.approx(recs[0].finished)
    assert recs[1].started > switch


def test_a04_longer_runs_approach_the_device_throughput(googlenet):
    def total_time(device, n):
        core = ovlab.Core("laptop")
        compiled = core.compile_model(googlenet, device)
        queue = ovlab.AsyncInferQueue(compiled, 2)
        for _ in range(n):
            queue.start_async()
        queue.wait_all()
        return core.clock.now

    short = total_time("AUTO", 300) / total_time("GPU", 300)
    long = total_time("AUTO", 1500) / total_time("GPU", 1500)
    assert short < 1.0  # AUTO does useful work while the GPU compiles
    assert abs(long - 1.0) < abs(short - 1.0)  # the longer the run, the closer to the GPU alone


def test_e04_first_inference_gpu_vs_auto(googlenet):
    """``benchmark_app -d GPU`` vs ``-d AUTO -niter 128``: compile + first inference."""
    def first_inference_latency(device):
        core = ovlab.Core("laptop")
        compiled = core.compile_model(googlenet, device)
        request = compiled.create_infer_request()
        request.start_async()
        request.wait()
        first = core.clock.now
        run_stream(core, compiled, 128, 0.0, jobs=int(compiled.get_property(
            "OPTIMAL_NUMBER_OF_INFER_REQUESTS")))
        return first, 128 / (core.clock.now - first)

    gpu_first, gpu_fps = first_inference_latency("GPU")
    auto_first, auto_fps = first_inference_latency("AUTO")
    assert gpu_first > 5.0  # the iGPU compile
    assert auto_first < 0.5 and auto_first * 10 < gpu_first
    assert gpu_fps > 0 and auto_fps > 0


# --- A16: the CPU is busy while the GPU compiles -------------------------------------------------
def test_a16_cpu_is_slower_and_jittery_while_the_gpu_compiles(googlenet):
    core = ovlab.Core("laptop", seed=3)
    compiled = core.compile_model(googlenet, "AUTO:GPU,CPU")
    run_stream(core, compiled, 150, 0.03, jobs=1)  # all within the ~7.9 s GPU compile
    helper = [r.service for r in core.trace if r.worker == "CPU_HELP"][5:]
    plain = ovlab.Core("laptop", seed=3)
    cpu = plain.compile_model(googlenet, "CPU")
    run_stream(plain, cpu, 150, 0.03, jobs=1)
    alone = [r.service for r in plain.trace][5:]
    assert len(helper) == len(alone) == 145
    assert statistics.mean(helper) > 1.4 * statistics.mean(alone)
    assert statistics.stdev(helper) / statistics.mean(helper) > \
        1.3 * statistics.stdev(alone) / statistics.mean(alone)


# --- A13: EXECUTION_DEVICES over time --------------------------------------------------------------
def test_a13_execution_devices_cpu_then_gpu(googlenet):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO")
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    request = compiled.create_infer_request()
    state = {"running": True}

    def again(_):
        if state["running"]:
            request.start_async()

    request.set_callback(again)
    request.start_async()  # back-to-back inferences: one is always in flight
    seen_handover = False
    while not events(core, "helper_released"):
        core.clock.sleep(0.001)
        if events(core, "switch") and not events(core, "helper_released"):
            # switched but the in-flight CPU inference is not done: still "(CPU)"
            assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
            seen_handover = True
    state["running"] = False
    request.wait()
    assert seen_handover
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    switch, released = events(core, "switch")[0], events(core, "helper_released")[0]
    assert released.time > switch.time
    last_cpu = max(r.finished for r in core.trace if r.worker == "CPU_HELP")
    assert released.time == pytest.approx(last_cpu)
    assert all(r.device == "GPU.0" for r in core.trace if r.started > switch.time)


# --- A05: when there is no helper ---------------------------------------------------------------
@pytest.mark.parametrize("device, config", [
    ("AUTO:GPU", {}),
    ("AUTO:-CPU", {}),
    ("AUTO", {"ENABLE_STARTUP_FALLBACK": False}),
    ("AUTO:GPU,CPU", {"ENABLE_STARTUP_FALLBACK": "NO"}),
])
def test_a05_no_helper_without_cpu_or_startup_fallback(device, config, small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, device, config)
    gpu_compile = [e for e in events(core, "compile_end") if e.device == "GPU.0"]
    assert gpu_compile and core.clock.now == pytest.approx(gpu_compile[0].time)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    compiled.create_infer_request().infer()
    assert not [e for e in events(core, "compile_start") if e.device == "CPU"]
    assert [r.device for r in core.trace] == ["GPU.0"]


def test_a05_no_helper_when_the_blob_is_cached(small_cnn, tmp_path):
    core = ovlab.Core("laptop")
    cfg = {"CACHE_DIR": str(tmp_path)}
    first = core.compile_model(small_cnn, "AUTO", cfg)
    assert first.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    core.clock.sleep(30)  # the GPU finishes and writes its blob
    start = core.clock.now
    second = core.compile_model(small_cnn, "AUTO", cfg)
    assert second.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    assert second.get_property("LOADED_FROM_CACHE") is True
    assert core.clock.now - start < 1.0  # the cached load is quick
    # the helper of the first compile did not use the cache: its CACHE_DIR was cleared
    assert [e for e in events(core, "compile_end") if e.device == "CPU"][0].detail["cached"] is False


def test_a05_no_helper_with_cumulative_throughput(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", {
        "PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT", "ALLOW_AUTO_BATCHING": False})
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "CPU"]
    requests = [compiled.create_infer_request() for _ in range(4)]
    for r in requests:
        r.start_async()
    for r in requests:
        r.wait()
    assert "CPU_HELP" not in {r.worker for r in core.trace}


def test_a05_one_candidate_is_a_pass_through(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU")
    requests = [compiled.create_infer_request() for _ in range(3)]
    for r in requests:
        r.start_async()
    for r in requests:
        r.wait()
    # the device's own streams run the requests (no AUTO worker labels)
    assert {r.worker for r in core.trace} == {"GPU.0#0"}


# --- A03: compile failure falls back to the next device -------------------------------------------
def test_a03_compile_failure_tries_the_next_device(small_cnn):
    core = ovlab.Core("workstation")
    core.faults.fail_compile("GPU.1")
    compiled = core.compile_model(small_cnn, "AUTO")
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    core.clock.sleep(30)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    selects = [(e.device, e.detail["reason"]) for e in events(core, "select")]
    assert selects == [("GPU.1", "initial"), ("GPU.0", "compile_failed")]
    assert [e.device for e in events(core, "compile_failed")] == ["GPU.1"]


def test_a03_compile_failure_without_helper(small_cnn):
    core = ovlab.Core("workstation")
    core.faults.fail_compile("GPU.1")
    compiled = core.compile_model(small_cnn, "AUTO:GPU.1,GPU.0")
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]


def test_a03_failed_device_next_is_the_helper_cpu(small_cnn):
    # the next choice is the CPU with the helper's config: it is not compiled again, the helper
    # keeps serving and EXECUTION_DEVICES stays "(CPU)"
    core = ovlab.Core("laptop")
    core.faults.fail_compile("GPU.0")
    compiled = core.compile_model(small_cnn, "AUTO")
    core.clock.sleep(30)
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    assert len([e for e in events(core, "compile_start") if e.device == "CPU"]) == 1
    compiled.create_infer_request().infer()
    assert core.trace.inferences[-1].worker == "CPU_HELP"


def test_a03_all_devices_fail(small_cnn):
    core = ovlab.Core("laptop")
    core.faults.fail_compile("GPU.0", times=None)
    core.faults.fail_compile("CPU", times=None)
    with pytest.raises(RuntimeError) as info:
        core.compile_model(small_cnn, "AUTO")
    text = str(info.value)
    assert "[AUTO] compile model failed, GPU.0:" in text
    assert re.search(r"failed on GPU\.0 \(ovlab injected failure\)\n\n; CPU:", text)
    assert text.endswith("; \n\n\n")


# --- A09: hints -----------------------------------------------------------------------------------
def test_a09_auto_default_hint_is_latency(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO")
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.LATENCY
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    core.clock.sleep(30)
    gpu = compiled._backend.schedule.actual.backend
    assert gpu.get_property("PERFORMANCE_HINT") == "LATENCY" and gpu.get_property("NUM_STREAMS") == 1
    # a hint set on the CPU plugin does not change AUTO's default
    core.set_property("CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    assert core.compile_model(small_cnn, "AUTO:CPU").get_property(
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1


def test_a09_throughput_helps_only_asynchronous_pipelines(googlenet):
    def measure(mode):
        core = ovlab.Core("laptop")
        compiled = core.compile_model(googlenet, "AUTO:CPU", {"PERFORMANCE_HINT": mode})
        request = compiled.create_infer_request()
        request.start_async()
        request.wait()
        t0 = core.clock.now
        for _ in range(50):  # a synchronous loop (start + wait, outputs left uncomputed)
            request.start_async()
            request.wait()
        sync_fps = 50 / (core.clock.now - t0)
        jobs = compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")
        t0 = core.clock.now
        run_stream(core, compiled, 400, 0.0, jobs=jobs)
        return jobs, sync_fps, 400 / (core.clock.now - t0)

    lat_jobs, lat_sync, lat_async = measure("LATENCY")
    tput_jobs, tput_sync, tput_async = measure("THROUGHPUT")
    assert (lat_jobs, tput_jobs) == (1, 4)
    assert tput_sync < lat_sync  # one request at a time: THROUGHPUT only makes each slower
    assert tput_async > 1.15 * lat_async  # enough requests in flight: THROUGHPUT wins


def test_a09_throughput_is_forwarded_and_optimal_requests_deduced(googlenet):
    """Before the GPU is ready, AUTO deduces the count from the GPU's THROUGHPUT config:
    optimal batch (16 for GoogLeNet on the iGPU) x RANGE_FOR_STREAMS[1] (2) x 2 = 64."""
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"})
    batch = core.get_property("GPU.0", "OPTIMAL_BATCH_SIZE", {"MODEL_PTR": googlenet})
    upper = core.get_property("GPU.0", "RANGE_FOR_STREAMS")[1]
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == batch * upper * 2 == 64
    # the user's hint is forwarded as given
    assert compiled._backend.schedule.actual.device.config["PERFORMANCE_HINT"] == "THROUGHPUT"
    capped = core.compile_model(googlenet, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                    "PERFORMANCE_HINT_NUM_REQUESTS": 4})
    assert capped.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 4
    no_batch = core.compile_model(googlenet, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                      "ALLOW_AUTO_BATCHING": False})
    assert no_batch.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 2 * upper
    core.clock.sleep(30)
    gpu = no_batch._backend.schedule.actual.backend
    assert no_batch.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == gpu.optimal_requests() == 4


def test_a09_cumulative_hint_becomes_throughput_on_devices(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", {
        "PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT", "ALLOW_AUTO_BATCHING": False})
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.CUMULATIVE_THROUGHPUT
    for backend in compiled._backend.schedule.compiled():
        assert backend.get_property("PERFORMANCE_HINT") == "THROUGHPUT"


# --- the log ---------------------------------------------------------------------------------------
def test_auto_log_uses_the_simulated_clock(googlenet, capsys):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO", {"LOG_LEVEL": "LOG_INFO"})
    run_stream(core, compiled, 300, 0.03, jobs=2)
    lines = capsys.readouterr().out.splitlines()
    assert "[00:00:00.0000]I[auto_schedule.cpp:163][AUTO] select device:GPU.0" in lines
    took = [ln for ln in lines if "Compile model took" in ln]
    assert [re.search(r"Device: \[(.*?)\]", ln).group(1) for ln in took] == ["CPU", "GPU.0"]
    gpu_ms = float(re.search(r"took ([0-9.]+) ms", took[1]).group(1))
    switch = events(core, "switch")[0].time
    assert gpu_ms == pytest.approx(switch * 1000, abs=0.01)
    finished = [ln for ln in lines if "device:GPU.0 compiling model finished" in ln][0]
    assert finished.startswith(f"[00:00:0{switch:.4f}]I[auto_schedule.cpp:118][AUTO]")
    assert any(ln.endswith("helper released!!") for ln in lines)
    assert all(re.match(r"\[\d\d:\d\d:\d\d\.\d{4}\][IDWE]\[[a-z_]+\.cpp:\d+\]\[AUTO\] ", ln)
               for ln in lines)


def test_auto_log_off_by_default_and_debug_adds_lines(small_cnn, capsys):
    core = ovlab.Core("laptop")
    core.compile_model(small_cnn, "AUTO")
    assert capsys.readouterr().out == ""
    core.compile_model(small_cnn, "AUTO", {"LOG_LEVEL": "LOG_DEBUG"})
    out = capsys.readouterr().out
    assert "D[plugin.cpp:289][AUTO] deviceNameWithID:GPU.0" in out
    from ovlab.properties import log

    core.compile_model(small_cnn, "MULTI:GPU,CPU", {log.level: log.Level.INFO})
    assert "[MULTI]" in capsys.readouterr().out
