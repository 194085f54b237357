"""Probe: InferRequest.wait_for with odd timeouts."""

import numpy as np
import openvino as ov
import openvino.opset13 as ops

x = ops.parameter([1, 16], np.float32, name="x")
m = ov.Model([ops.relu(x)], [x], "m")
cm = ov.Core().compile_model(m, "CPU")
req = cm.create_infer_request()
for t in [
    0,
    1,
    1.5,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e308,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    -1,
    True,
    "10",
    None,
    np.int64(5),
    np.float64(3.0),
]:
    req.start_async({0: np.zeros((1, 16), np.float32)})
    try:
        r = req.wait_for(t)
        print(f"wait_for({t!r}) -> {r!r}")
    except BaseException as e:
        print(f"wait_for({t!r}) RAISES {type(e).__name__}: {str(e)!r}")
    req.wait()
