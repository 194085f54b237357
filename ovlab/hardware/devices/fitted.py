"""Fitted cost-model numbers of the calibrated devices (written by ``benchmarks/fit_presets.py``).

Do not edit by hand: run ``python benchmarks/fit_presets.py --write`` (and, for ``cpu/CPU``,
``python benchmarks/bench_fidelity.py --fit``). Keys are ``<preset>/<device>``.
"""

FITTED = {
    "cpu/CPU": {
        "efficiency_by_precision": {
            "f32": 0.8711,
            "bf16": 0.8711,
            "i8": 0.6934
        },
        "kind_efficiency": {
            "depthwise": 0.1648,
            "matmul": 1.0,
            "other": 0.04793
        },
        "mem_efficiency": 0.536,
        "per_op_s": 2.99e-06,
        "per_infer_s": 9.723e-08,
        "stream_scaling": 0.7805,
        "async_overhead_s": 3.691e-05
    },
    "i7-1185g7/CPU": {
        "efficiency_by_precision": {
            "f32": 0.79,
            "i8": 0.7503
        },
        "stream_scaling": 0.9242,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/CPU": {
        "efficiency_by_precision": {
            "f32": 0.2069,
            "i8": 0.2186
        },
        "stream_scaling": 0.6265,
        "async_overhead_s": 1e-05
    },
    "i9-13900k/CPU": {
        "efficiency_by_precision": {
            "f32": 0.4601,
            "i8": 0.4039
        },
        "stream_scaling": 0.7981,
        "async_overhead_s": 1e-05
    },
    "i7-1185g7/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.3155,
            "f16": 0.3155,
            "i8": 0.2508
        },
        "per_op_s": 9.608e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.2828,
            "f16": 0.2828,
            "i8": 0.2248
        },
        "per_op_s": 9.608e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "arc-a770m/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1705,
            "f16": 0.1705,
            "i8": 0.1242
        },
        "per_op_s": 1.715e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "flex-170/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1398,
            "f16": 0.1398,
            "i8": 0.1105
        },
        "per_op_s": 6.662e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/NPU": {
        "efficiency_by_precision": {
            "f16": 0.5017,
            "i8": 0.5947
        },
        "per_op_s": 1e-06,
        "per_infer_s": 0.0003,
        "stream_scaling": 0.7313
    },
    "power": {
        "i7-1185g7": 37.57,
        "core-ultra-7-165h": 36.29
    }
}
