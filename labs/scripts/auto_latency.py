"""An OpenVINO 2026 script in the style of the seed's auto-test scripts (yas-sim's
openvino-auto-feature-visualization): compile a model on AUTO, submit requests every 30 ms from
the main thread while a display thread redraws every 1/30 s, and report the latencies.

It is plain OpenVINO code: on a machine with an Intel GPU it runs with `python auto_latency.py`;
with `python -m ovlab run auto_latency.py` (or after `%load_ext ovlab` in a notebook) it runs on
ovlab's virtual laptop. Differences from the seed's scripts, which target OpenVINO 2022: imports
come from `openvino` (`openvino.runtime` is gone in 2026), pacing uses `time.sleep` instead of
OpenCV's `waitKey`, and the display keeps its points in a list instead of an OpenCV window.
"""

import sys
import threading
import time

import numpy as np
import openvino as ov
import openvino.properties as props
import openvino.properties.hint as hints

model_name = "./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml"
niter = int(sys.argv[1]) if len(sys.argv) > 1 else 300
interval = 30  # ms between submissions

timing_data = []  # (submit, result) pairs, as in the seed's auto-test.py
lock = threading.Lock()
stop = threading.Event()
canvas = []  # what the display thread has drawn


def display():
    """Redraw every 1/30 s: take the new points, as the seed's OpenCV window does."""
    while not stop.is_set():
        with lock:
            canvas.extend(timing_data[len(canvas):])
        time.sleep(1 / 30)
    with lock:  # a last redraw before the window closes
        canvas.extend(timing_data[len(canvas):])


def callback(request, submit_time):
    result_time = time.time()
    with lock:
        timing_data.append((submit_time - start_time, result_time - start_time))


core = ov.Core()
model = core.read_model(model_name)
print(model.input().get_any_name(), model.input().get_shape())
config = {hints.performance_mode: hints.PerformanceMode.LATENCY}
t0 = time.perf_counter()
compiled = core.compile_model(model, "AUTO", config)
print(f"compile_model(AUTO) returned after {time.perf_counter() - t0:.3f} s")
print("OPTIMAL_NUMBER_OF_INFER_REQUESTS", compiled.get_property(props.optimal_number_of_infer_requests))

queue = ov.AsyncInferQueue(compiled, 4)
queue.set_callback(callback)
dummy_input = np.zeros(model.input().get_shape(), dtype=np.float16)
thread = threading.Thread(target=display)
thread.start()
start_time = time.time()
for _ in range(niter):
    queue.start_async({0: dummy_input}, time.time())
    time.sleep(interval / 1000)
queue.wait_all()
time.sleep(0.5)
stop.set()
thread.join()

latency_ms = np.array([(result - submit) * 1000 for submit, result in timing_data])
print(f"{len(latency_ms)} results in {time.time() - start_time:.2f} s")
print(f"latency, first 50: median {np.median(latency_ms[:50]):.1f} ms")
print(f"latency, last 50:  median {np.median(latency_ms[-50:]):.1f} ms")
print("EXECUTION_DEVICES at the end:", compiled.get_property(props.execution_devices))
print("display thread exited; every result drawn:", len(canvas) == len(timing_data))
