"""Helper threads on the simulated clock (``ovlab/sim/runner/threads.py``): a display thread that
sleeps in a loop sees what it would see on real hardware, deterministically, and never hangs."""

from __future__ import annotations

import runpy
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

import ovlab

SEED_SCRIPT = Path(__file__).parents[1] / "third_party" / "yas-sim" / "auto-test.py"
FRAME_S = 1 / 30


def _display_run(niter: int = 40, interval: float = 0.030) -> dict:
    """The seed's auto-test loop written anew: the main thread submits every 30 ms on the GPU
    (LATENCY) and the callback stores (submit, result) times; a display thread pops them every
    1 ms + 1/30 s and 'draws' a wire for each, noting the simulated time it drew it."""
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model("googlenet-v1"), "GPU",
                                  {"PERFORMANCE_HINT": "LATENCY"})
    queue = ov.AsyncInferQueue(compiled, 16)
    timing, lock, drawn, frames = [], threading.Lock(), [], []
    stop = False

    def callback(request, submit):
        with lock:
            timing.append((submit, time.time()))

    def display():
        frames.append(time.time())  # before its first sleep: the clock waits for it
        while not stop:
            while timing:
                with lock:
                    submit, result = timing.pop()
                drawn.append((submit, result, time.time()))
            time.sleep(0.001)  # cv2.waitKey(1)
            time.sleep(FRAME_S)
            frames.append(time.time())

    queue.set_callback(callback)
    thread = threading.Thread(target=display)
    thread.start()
    start = time.time()
    image = np.zeros(compiled.input().get_shape(), np.float32)
    for _ in range(niter):
        queue.start_async({0: image}, time.time())
        time.sleep(interval)
    queue.wait_all()
    time.sleep(3)
    stop = True
    thread.join(timeout=60)
    assert not thread.is_alive()
    return {"start": start, "drawn": drawn, "frames": frames, "end": time.time()}


def test_a_display_thread_draws_every_wire_when_real_hardware_would():
    ovlab.install(seed=3)
    run = _display_run()
    drawn, frames = run["drawn"], run["frames"]
    assert len(drawn) == 40  # all 40 wires, as on hardware (0 before the rule)
    assert frames[0] == run["start"]  # the thread ran up to its first sleep before time moved
    gaps = np.diff(frames)
    assert gaps == pytest.approx(np.full(len(gaps), 0.001 + FRAME_S), abs=1e-6)  # its timers
    for submit, result, at in drawn:
        # drawn at the first frame after the result, as a display thread on hardware does
        assert submit < result <= at < result + 0.001 + FRAME_S + 1e-6
    # and it drew them while the main thread was still submitting, not all at the end
    assert sum(at < run["start"] + 40 * 0.030 for _, _, at in drawn) >= 30


def test_the_interleaving_is_deterministic():
    ovlab.install(seed=5)
    first = _display_run(niter=10)
    ovlab.install(seed=5)
    second = _display_run(niter=10)
    assert first == second


def test_a_helper_blocked_while_the_main_thread_holds_its_lock_does_not_hang():
    ovlab.install()
    lock, seen = threading.Lock(), []

    def helper():
        time.sleep(0.010)
        with lock:  # the main thread holds it across its sleep: the clock cannot wait for us
            seen.append(time.perf_counter())

    thread = threading.Thread(target=helper)
    thread.start()
    with lock:
        time.sleep(1.0)
    thread.join(timeout=60)
    assert not thread.is_alive() and seen == [pytest.approx(1.0)]


@pytest.mark.skipif(not SEED_SCRIPT.is_file(), reason="the seed's auto-test.py is not in "
                    "tests/third_party/yas-sim/ (third-party code, never committed)")
def test_the_seeds_auto_test_script_draws_all_40_wires(monkeypatch, capsys, tmp_path):
    """yas-sim's ``auto-test.py`` itself, ported to 2026 in one line (``openvino.runtime`` is
    gone), with a stand-in for OpenCV's window calls that records the lines drawn."""
    cv2 = types.ModuleType("cv2")
    lines: list = []
    cv2.MARKER_TRIANGLE_UP = 5
    cv2.namedWindow = cv2.imshow = cv2.drawMarker = lambda *a, **k: None
    cv2.line = lambda canvas, p1, p2, *a, **k: lines.append((p1, p2))
    cv2.waitKey = lambda ms=0: (time.sleep(ms / 1000) if ms > 0 else None) or -1
    monkeypatch.setitem(sys.modules, "cv2", cv2)
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "auto_test.py"
    script.write_text(SEED_SCRIPT.read_text().replace("from openvino.runtime import",
                                                      "from openvino import"))
    ovlab.install()
    with pytest.raises(SystemExit):
        runpy.run_path(str(script), run_name="__main__")
    assert len(lines) == 40
    out = capsys.readouterr().out
    assert "Hit any key" in out and "Thread exited" in out
