"""Fitted cost-model numbers of the calibrated devices (written by ``benchmarks/fit_presets.py``).

Do not edit by hand: run ``python benchmarks/fit_presets.py --write`` (and, for ``cpu/CPU``,
``python benchmarks/bench_fidelity.py --fit``). Keys are ``<preset>/<device>``.
"""

FITTED = {
    "cpu/CPU": {
        "efficiency_by_precision": {
            "f32": 0.9781,
            "bf16": 0.9781,
            "i8": 0.7556
        },
        "kind_efficiency": {
            "depthwise": 0.1009,
            "matmul": 1.0,
            "other": 0.03416
        },
        "mem_efficiency": 0.6875,
        "per_op_s": 3.574e-06,
        "per_infer_s": 2.834e-08,
        "stream_scaling": 0.7543,
        "async_overhead_s": 4.479e-05
    },
    "i7-1185g7/CPU": {
        "efficiency_by_precision": {
            "f32": 0.8062,
            "i8": 0.76
        },
        "stream_scaling": 0.9463,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/CPU": {
        "efficiency_by_precision": {
            "f32": 0.2093,
            "i8": 0.2231
        },
        "stream_scaling": 0.4488,
        "async_overhead_s": 1e-05
    },
    "i9-13900k/CPU": {
        "efficiency_by_precision": {
            "f32": 0.484,
            "i8": 0.4055
        },
        "stream_scaling": 0.8331,
        "async_overhead_s": 1e-05
    },
    "i7-1185g7/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.3156,
            "f16": 0.3156,
            "i8": 0.2504
        },
        "per_op_s": 1.125e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.2832,
            "f16": 0.2832,
            "i8": 0.2247
        },
        "per_op_s": 1.125e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "arc-a770m/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1745,
            "f16": 0.1745,
            "i8": 0.1243
        },
        "per_op_s": 1.837e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "flex-170/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1411,
            "f16": 0.1411,
            "i8": 0.1105
        },
        "per_op_s": 7.157e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/NPU": {
        "efficiency_by_precision": {
            "f16": 0.5016,
            "i8": 0.5925
        },
        "per_op_s": 1e-06,
        "per_infer_s": 0.0003,
        "stream_scaling": 0.7313
    },
    "power": {
        "i7-1185g7": 37.78,
        "core-ultra-7-165h": 36.2
    }
}
