"""Simulated ``time.*`` under the runner, including helper threads that sleep."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import ovlab
from ovlab.sim.runner.session import EPOCH_ORIGIN


def test_sleep_advances_the_clock_and_reads_return_it():
    session = ovlab.install()
    t0, p0 = time.time(), time.perf_counter()
    assert t0 == EPOCH_ORIGIN and p0 == 0.0 == time.monotonic()
    time.sleep(1.25)
    assert session.clock.now == pytest.approx(1.25)
    assert time.time() == pytest.approx(EPOCH_ORIGIN + 1.25)
    assert time.perf_counter() == time.monotonic() == pytest.approx(1.25)
    assert time.perf_counter_ns() == time.monotonic_ns() == 1_250_000_000
    assert time.time_ns() == int(EPOCH_ORIGIN) * 10**9 + 1_250_000_000


def test_sleep_validates_like_time_sleep():
    ovlab.install()
    with pytest.raises(ValueError, match="sleep length must be non-negative"):
        time.sleep(-1)
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        time.sleep("1")
    time.sleep(np.int64(1))  # numpy integers are accepted, as by time.sleep


def test_real_time_packages_keep_the_wall_clock():
    ovlab.install()
    time.sleep(100)
    namespace = {"__name__": "asyncio.fake_loop", "time": time}
    exec("def now():\n    return time.monotonic()", namespace)  # noqa: S102 - a fake module
    assert abs(namespace["now"]() - time.get_clock_info("monotonic").resolution) > 1  # wall time
    assert time.monotonic() == pytest.approx(100.0)


def _seed_loop(display: bool) -> tuple[list[float], float]:
    """The seed's auto-test loop: submit every 30 ms, callback stamps time.time(); optionally a
    display thread that wakes every 1/30 s while the main thread submits."""
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model("small-cnn"), "CPU",
                                  {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ov.AsyncInferQueue(compiled, 4)
    latencies, lock, stop, frames = [], threading.Lock(), threading.Event(), []

    def callback(request, submit_time):
        with lock:
            latencies.append(time.time() - submit_time)

    def display():
        while not stop.is_set():
            frames.append(time.time())
            time.sleep(1 / 30)

    queue.set_callback(callback)
    thread = threading.Thread(target=display)
    if display:
        thread.start()
    start = time.time()
    for _ in range(40):
        queue.start_async({0: np.zeros(compiled.input().get_shape(), np.float32)}, time.time())
        time.sleep(0.030)
    queue.wait_all()
    time.sleep(3)
    stop.set()
    if display:
        thread.join(timeout=30)
        assert not thread.is_alive()
        assert frames  # the display thread ran
        assert all(start - 1 <= f <= time.time() for f in frames)  # it read simulated time
    return latencies, time.time() - start


def test_a_display_thread_neither_deadlocks_nor_changes_the_main_timeline():
    ovlab.install(seed=1)
    alone, span_alone = _seed_loop(display=False)
    ovlab.install(seed=1)
    with_display, span_with = _seed_loop(display=True)
    assert len(alone) == 40
    assert with_display == alone  # the very same latencies, in the same order
    assert span_with == span_alone == pytest.approx(40 * 0.030 + 3, abs=0.05)


def test_a_helper_thread_sleep_passes_while_the_main_thread_joins_it():
    session = ovlab.install()
    woke = []
    thread = threading.Thread(target=lambda: (time.sleep(0.3), woke.append(session.clock.now)))
    start = time.perf_counter()
    thread.start()
    thread.join(timeout=30)  # the main thread waits for the helper: its sleep takes its time
    assert not thread.is_alive()
    assert woke == [pytest.approx(start + 0.3)]


def test_sleep_inside_a_completion_callback_takes_no_simulated_time():
    ovlab.install()
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model("small-cnn"), "CPU")
    request = compiled.create_infer_request()
    done = []
    request.set_callback(lambda _: (time.sleep(0.5), done.append(time.perf_counter())))
    request.start_async()
    request.wait()
    assert done and request.latency < 100  # ms: the callback's sleep did not block the request


def test_datetime_now_follows_the_clock_and_stays_a_datetime():
    import datetime

    real_class = datetime.datetime
    ovlab.install()
    start = datetime.datetime.utcnow()
    assert start == real_class(2026, 1, 1)  # EPOCH_ORIGIN, in UTC
    time.sleep(90)
    assert (datetime.datetime.utcnow() - start).total_seconds() == pytest.approx(90)
    assert (datetime.datetime.now() - datetime.datetime.today()).total_seconds() == 0
    later = start + datetime.timedelta(days=1)  # arithmetic gives the real class back
    assert isinstance(later, datetime.datetime) and isinstance(start, real_class)
    ovlab.uninstall()
    assert datetime.datetime is real_class
