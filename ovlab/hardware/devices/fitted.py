"""Fitted cost-model numbers of the calibrated devices (written by ``benchmarks/fit_presets.py``).

Do not edit by hand: run ``python benchmarks/fit_presets.py --write`` (and, for ``cpu/CPU``,
``python benchmarks/bench_fidelity.py --fit``). Keys are ``<preset>/<device>``.
"""

FITTED = {
    "cpu/CPU": {
        "efficiency_by_precision": {
            "f32": 0.8,
            "bf16": 0.8,
            "i8": 0.75
        },
        "kind_efficiency": {
            "depthwise": 0.15,
            "matmul": 0.8,
            "other": 0.07
        },
        "mem_efficiency": 0.95,
        "per_op_s": 2e-06,
        "per_infer_s": 2.3e-06,
        "stream_scaling": 0.83,
        "async_overhead_s": 2.8e-05
    },
    "i7-1185g7/CPU": {
        "efficiency_by_precision": {
            "f32": 0.7961,
            "i8": 0.7503
        },
        "per_op_s": 3e-06,
        "per_infer_s": 1e-05,
        "stream_scaling": 0.9224,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/CPU": {
        "efficiency_by_precision": {
            "f32": 0.2076,
            "i8": 0.2186
        },
        "per_op_s": 3e-06,
        "per_infer_s": 1e-05,
        "stream_scaling": 0.6239,
        "async_overhead_s": 1e-05
    },
    "i9-13900k/CPU": {
        "efficiency_by_precision": {
            "f32": 0.4617,
            "i8": 0.4039
        },
        "per_op_s": 3e-06,
        "per_infer_s": 1e-05,
        "stream_scaling": 0.7962,
        "async_overhead_s": 1e-05
    },
    "i7-1185g7/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.3298,
            "f16": 0.3298,
            "i8": 0.2617
        },
        "per_op_s": 1.207e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.2917,
            "f16": 0.2917,
            "i8": 0.2314
        },
        "per_op_s": 1.207e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9,
        "async_overhead_s": 1e-05
    },
    "arc-a770m/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1719,
            "f16": 0.1719,
            "i8": 0.125
        },
        "per_op_s": 1.717e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9,
        "async_overhead_s": 1e-05
    },
    "flex-170/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1407,
            "f16": 0.1407,
            "i8": 0.111
        },
        "per_op_s": 6.685e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/NPU": {
        "efficiency_by_precision": {
            "f16": 0.5016,
            "i8": 0.5948
        },
        "per_op_s": 1e-06,
        "per_infer_s": 0.0003,
        "stream_scaling": 0.7294,
        "async_overhead_s": 1e-05
    },
    "power": {
        "i7-1185g7": 40.52,
        "core-ultra-7-165h": 42.65
    }
}
