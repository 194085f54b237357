"""Simulated time, infer requests, AsyncInferQueue, records, caching, faults (issue 2)."""

import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pbt_budget import budget

import ovlab
from ovlab.sim.runtime.clock import Deadlock


def _inputs(model, seed=0):
    rng = np.random.default_rng(seed)
    return {i: rng.standard_normal(list(p.get_shape())).astype(np.float32)
            for i, p in enumerate(model.inputs)}


# --- the clock ------------------------------------------------------------------------------
def test_clock_starts_at_zero_and_sleeps(core):
    assert core.clock.now == 0.0
    core.clock.sleep(1.5)
    assert core.clock.now == pytest.approx(1.5)
    with pytest.raises(ValueError):
        core.clock.sleep(-1)


def test_no_wall_time_passes_by_default(core, small_cnn):
    t0 = time.monotonic()
    core.clock.sleep(3600)
    assert time.monotonic() - t0 < 1.0
    assert core.clock.now == pytest.approx(3600)


def test_realtime_paces_simulated_time():
    core = ovlab.Core(realtime=20.0)  # 20 simulated seconds per wall second
    t0 = time.monotonic()
    core.clock.sleep(1.0)
    assert time.monotonic() - t0 >= 0.045  # 1 s / 20 = 50 ms of wall time


def test_compile_advances_the_clock(core, small_cnn):
    core.compile_model(small_cnn, "CPU")
    t_cpu = core.clock.now
    assert 0 < t_cpu < 1.0
    core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
    assert core.clock.now - t_cpu > 1.0  # GPU kernels take seconds to compile
    kinds = [e.kind for e in core.trace.events]
    assert kinds.count("compile_start") == 2 and kinds.count("compile_end") == 2


def test_b09_cache_dir_makes_the_second_gpu_compile_fast(core, small_cnn):
    cfg = {"CACHE_DIR": "./cache", "ALLOW_AUTO_BATCHING": False}
    first = core.compile_model(small_cnn, "GPU", cfg)
    t1 = core.clock.now
    second = core.compile_model(small_cnn, "GPU", cfg)
    t2 = core.clock.now - t1
    assert first.get_property("LOADED_FROM_CACHE") is False
    assert second.get_property("LOADED_FROM_CACHE") is True
    assert t2 < t1 / 3
    assert core.trace.events[-2].kind == "cache_load"


# --- InferRequest ---------------------------------------------------------------------------------
def test_infer_returns_the_models_outputs(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    x = _inputs(small_cnn)
    result = compiled.create_infer_request().infer(x)
    expected = small_cnn._evaluate(x, "f32")
    np.testing.assert_allclose(result[0], expected[0], rtol=1e-6)
    np.testing.assert_allclose(compiled(x)[compiled.output(0)], expected[0], rtol=1e-6)


def test_gpu_computes_in_f16(core, small_cnn):
    compiled = core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})
    x = _inputs(small_cnn)
    out = compiled(x)[0]
    np.testing.assert_allclose(out, small_cnn._evaluate(x, "f16")[0], rtol=1e-6)
    assert np.argmax(out) == np.argmax(small_cnn._evaluate(x, "f32")[0])


def test_start_async_returns_at_once_and_wait_advances(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    req = compiled.create_infer_request()
    t0 = core.clock.now
    req.start_async(_inputs(small_cnn))
    assert core.clock.now == t0
    req.wait()
    assert core.clock.now > t0
    assert req.latency == pytest.approx((core.clock.now - t0) * 1000)


def test_callback_gets_userdata_before_wait_returns(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    req = compiled.create_infer_request()
    seen = []
    req.set_callback(lambda ud: seen.append((ud, core.clock.now)), "hello")
    req.start_async()
    req.wait()
    assert seen == [("hello", core.clock.now)]
    req.infer()  # sync infer ignores the callback
    assert len(seen) == 1


def test_busy_request_raises(core, small_cnn):
    req = core.compile_model(small_cnn, "CPU").create_infer_request()
    req.start_async()
    with pytest.raises(RuntimeError, match="Infer Request is busy"):
        req.start_async()
    with pytest.raises(RuntimeError, match="Infer Request is busy"):
        req.get_output_tensor()
    req.wait()
    assert req.get_output_tensor().data.shape == tuple(small_cnn.outputs[0].get_shape())


def test_wait_for(core, small_cnn):
    req = core.compile_model(small_cnn, "CPU").create_infer_request()
    with pytest.raises(RuntimeError, match="Timeout can't be less than 0"):
        req.wait_for(-1)
    req.start_async()
    assert req.wait_for(0) is False
    assert req.wait_for(10_000) is True


def test_userdata_without_callback_warns(core, small_cnn):
    req = core.compile_model(small_cnn, "CPU").create_infer_request()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        req.start_async(userdata=1)
    assert "There is no callback function!" in str(caught[0].message)  # the wheel's text
    req.wait()


def test_wrong_input_shape_and_name(core, mlp):
    compiled = core.compile_model(mlp, "CPU")
    with pytest.raises(RuntimeError, match=r"the model input \(shape=\[1,16\]\) and the tensor "
                                           r"\(shape=\(2\.16\)\) are incompatible"):
        compiled(np.zeros((2, 16), np.float32))
    with pytest.raises(RuntimeError, match="Port for tensor name nope was not found."):
        compiled({"nope": np.zeros((1, 16), np.float32)})
    with pytest.raises(RuntimeError, match=r"__n \(which is 5\) >= this->size\(\) \(which is 1\)"):
        compiled({5: np.zeros((1, 16), np.float32)})


def test_inputs_are_cast_like_openvino(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    shape = list(small_cnn.inputs[0].get_shape())
    out = compiled(np.zeros(shape, np.uint8))[0]  # the seed scripts pass uint8 zeros
    assert out.shape == tuple(small_cnn.outputs[0].get_shape())


def test_lazy_outputs_see_the_inputs_of_their_own_run(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    req = compiled.create_infer_request()
    a, b = _inputs(small_cnn, 1)[0], _inputs(small_cnn, 2)[0]
    req.start_async({0: a})
    req.wait()
    a[...] = 0  # mutating the caller's array after the run must not matter
    np.testing.assert_allclose(req.results[0], small_cnn._evaluate({0: _inputs(small_cnn, 1)[0]}, "f32")[0],
                               rtol=1e-6)
    req.infer({0: b})
    np.testing.assert_allclose(req.results[0], small_cnn._evaluate({0: b}, "f32")[0], rtol=1e-6)


def test_streams_run_in_parallel_and_extra_requests_queue(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    core.trace.clear()
    reqs = [compiled.create_infer_request() for _ in range(6)]
    for r in reqs:
        r.start_async()
    for r in reqs:
        r.wait()
    recs = sorted(core.trace, key=lambda r: r.seq)
    assert [r.queue_wait for r in recs[:4]] == [0.0] * 4  # 4 streams
    assert all(r.queue_wait > 0 for r in recs[4:])


# --- AsyncInferQueue ---------------------------------------------------------------------------
def test_queue_defaults_to_the_optimal_number(core, small_cnn):
    lat = ovlab.AsyncInferQueue(core.compile_model(small_cnn, "CPU"))
    tput = ovlab.AsyncInferQueue(core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"}))
    assert len(lat) == 1 and len(tput) == 4
    assert repr(tput) == "<AsyncInferQueue: 4 jobs>"


def test_queue_callbacks_ids_and_blocking(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled, 4)
    done = []
    queue.set_callback(lambda req, ud: done.append(ud))
    t0 = core.clock.now
    for i in range(4):
        queue.start_async(userdata=i)
    assert core.clock.now == t0 and not queue.is_ready()
    queue.start_async(userdata=4)  # blocks until one of the four finished
    assert core.clock.now > t0
    queue.wait_all()
    assert sorted(done) == [0, 1, 2, 3, 4]
    assert queue.is_ready() and len(queue.userdata) == 4
    assert isinstance(queue[0], ovlab.InferRequest)


def test_queue_reuses_ids_in_completion_order(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled, 4)
    finished = []
    queue.set_callback(lambda req, ud: finished.append(queue._requests.index(req)))
    for i in range(4):
        queue.start_async(userdata=i)
    used = []
    for i in range(4):
        used.append(queue.get_idle_request_id())
        queue.start_async(userdata=10 + i)
    queue.wait_all()
    assert used == finished[:4]


def test_queue_callback_exception_is_raised_once_and_queue_stays_usable(core, small_cnn):
    queue = ovlab.AsyncInferQueue(core.compile_model(small_cnn, "CPU"), 2)

    def boom(req, ud):
        if ud == 0:
            raise ValueError("boom from callback 0")

    queue.set_callback(boom)
    queue.start_async(userdata=0)
    with pytest.raises(ValueError, match="boom from callback 0"):
        queue.wait_all()
    queue.start_async(userdata=1)
    queue.wait_all()


def test_blocking_inside_a_callback_is_an_error_not_a_hang(core, small_cnn):
    req = core.compile_model(small_cnn, "CPU").create_infer_request()
    req.set_callback(lambda ud: core.clock.sleep(1))
    req.start_async()
    with pytest.raises(RuntimeError, match="inside a completion callback"):
        req.wait()


def test_waiting_for_the_impossible_is_a_clear_error(core):
    with pytest.raises(Deadlock, match="nothing else is scheduled"):
        core.clock.run_until(core.clock.event(), "a request nobody started")


# --- records ----------------------------------------------------------------------------------
def test_every_inference_leaves_a_record(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    core.trace.clear()
    queue = ovlab.AsyncInferQueue(compiled, 2)
    for _ in range(5):
        queue.start_async()
    queue.wait_all()
    assert len(core.trace) == 5
    r = core.trace.inferences[0]
    assert r.device == "CPU" and r.started >= r.submitted and r.finished > r.started
    frame = core.trace.to_frame()
    for col in ("request_id", "device", "submitted", "started", "finished", "queue_wait",
                "batch_id", "batch_size", "subgraph"):
        assert col in frame.columns
    assert (frame["queue_wait"] >= 0).all()


def test_same_seed_same_timeline(small_cnn):
    def run(seed):
        core = ovlab.Core(seed=seed)
        q = ovlab.AsyncInferQueue(core.compile_model(small_cnn, "CPU"), 2)
        for _ in range(20):
            q.start_async()
            core.clock.sleep(0.001)
        q.wait_all()
        return [(r.started, r.finished) for r in core.trace]

    assert run(0) == run(0)
    assert run(0) != run(1)


# --- faults and profiling ----------------------------------------------------------------------
def test_injected_inference_failure_reaches_the_caller(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    core.faults.fail_inference("CPU", nth=2)
    req = compiled.create_infer_request()
    req.infer()
    with pytest.raises(RuntimeError, match="inference failed on CPU"):
        req.infer()
    req.infer()  # only the 2nd failed


def test_injected_compile_failure(core, small_cnn):
    core.faults.fail_compile("GPU.0")
    with pytest.raises(RuntimeError, match=r"\[GPU\] compile failed on GPU.0"):
        core.compile_model(small_cnn, "GPU")
    core.compile_model(small_cnn, "GPU", {"ALLOW_AUTO_BATCHING": False})  # once only


def test_profiling_rows(core, small_cnn):
    import datetime

    off = core.compile_model(small_cnn, "CPU").create_infer_request()
    off.infer()
    assert all(r.status.name == "NOT_RUN" and r.real_time == datetime.timedelta(0)
               for r in off.get_profiling_info())
    on = core.compile_model(small_cnn, "CPU", {"PERF_COUNT": True}).create_infer_request()
    on.infer()
    rows = on.get_profiling_info()
    executed = [r for r in rows if r.status.name == "EXECUTED"]
    assert executed and all(isinstance(r.real_time, datetime.timedelta) for r in rows)
    assert sum(r.real_time.total_seconds() for r in rows) == pytest.approx(
        on.latency / 1000, rel=0.05)


@settings(max_examples=budget(25), deadline=None)
@given(gaps=st.lists(st.floats(0, 0.05), min_size=1, max_size=30), jobs=st.integers(1, 6),
       tput=st.booleans())
def test_every_started_request_completes_exactly_once(gaps, jobs, tput):
    from ovlab import zoo

    core = ovlab.Core(seed=3)
    model = zoo.load("mlp")
    cfg = {"PERFORMANCE_HINT": "THROUGHPUT"} if tput else {}
    queue = ovlab.AsyncInferQueue(core.compile_model(model, "CPU", cfg), jobs)
    seen = []
    queue.set_callback(lambda req, ud: seen.append(ud))
    for i, gap in enumerate(gaps):
        queue.start_async(userdata=i)
        core.clock.sleep(gap)
    queue.wait_all()
    assert sorted(seen) == list(range(len(gaps)))
    for rec in core.trace:
        assert rec.started >= rec.submitted


def test_reused_input_array_is_reconverted_after_an_in_place_change(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    req = compiled.create_infer_request()
    x = _inputs(small_cnn, 3)[0]
    first = req.infer({0: x})[0].copy()
    x *= -1.0  # same object, new content
    second = req.infer({0: x})[0]
    np.testing.assert_allclose(second, small_cnn._evaluate({0: x}, "f32")[0], rtol=1e-6)
    assert not np.allclose(first, second)
    # writing through the request's tensor never touches the shared converted copy
    req.get_input_tensor().data[...] = 0
    np.testing.assert_allclose(req.infer({0: x})[0], second, rtol=1e-6)


def test_compiled_models_on_one_device_share_it(small_cnn):
    core = ovlab.Core(seed=5)
    a = core.compile_model(small_cnn, "CPU")
    b = core.compile_model(small_cnn, "CPU")
    ra, rb = a.create_infer_request(), b.create_infer_request()
    ra.infer()
    rb.infer()  # warm both (first-inference penalty)
    ra.start_async()
    alone = ra.wait() or ra.latency
    ra.start_async()
    rb.start_async()
    ra.wait()
    rb.wait()
    # two LATENCY models each want the whole CPU: both run at about half speed
    assert ra.latency > 1.6 * alone and rb.latency > 1.6 * alone
    shared = core._device_share("CPU")
    assert not shared.running and shared.demand == 0


def test_throughput_streams_fill_the_device_without_slowing_each_other(small_cnn):
    core = ovlab.Core(seed=5)
    compiled = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    reqs = [compiled.create_infer_request() for _ in range(4)]
    for r in reqs:
        r.start_async()
    peak = core._device_share("CPU").demand
    for r in reqs:
        r.wait()
    assert peak == pytest.approx(1.0)  # 4 streams x 1/4 of the device


def test_gpu_streams_share_the_whole_gpu_cpu_streams_own_their_cores(small_cnn):
    def lone_latency(device, hint):
        core = ovlab.Core(seed=9)
        cfg = {"PERFORMANCE_HINT": hint, "ALLOW_AUTO_BATCHING": False}
        req = core.compile_model(small_cnn, device, cfg).create_infer_request()
        req.infer()  # warm-up
        times = []
        for _ in range(30):
            req.start_async()
            req.wait()
            times.append(req.latency)
        return np.median(times)

    # a lone inference on a 2-stream GPU model runs at whole-GPU speed ...
    assert lone_latency("GPU", "THROUGHPUT") == pytest.approx(lone_latency("GPU", "LATENCY"),
                                                              rel=0.25)
    # ... while a lone inference on a 4-stream CPU model gets one stream's cores
    assert lone_latency("CPU", "THROUGHPUT") > 2 * lone_latency("CPU", "LATENCY")
