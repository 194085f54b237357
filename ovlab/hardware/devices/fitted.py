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
            "f32": 0.7856,
            "i8": 0.7569
        },
        "stream_scaling": 0.9242,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/CPU": {
        "efficiency_by_precision": {
            "f32": 0.2068,
            "i8": 0.2225
        },
        "stream_scaling": 0.4396,
        "async_overhead_s": 1e-05
    },
    "i9-13900k/CPU": {
        "efficiency_by_precision": {
            "f32": 0.4521,
            "i8": 0.4005
        },
        "stream_scaling": 0.7981,
        "async_overhead_s": 1e-05
    },
    "i7-1185g7/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.3157,
            "f16": 0.3157,
            "i8": 0.2513
        },
        "per_op_s": 1.108e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.283,
            "f16": 0.283,
            "i8": 0.2253
        },
        "per_op_s": 1.108e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "arc-a770m/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1735,
            "f16": 0.1735,
            "i8": 0.125
        },
        "per_op_s": 1.807e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "flex-170/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1408,
            "f16": 0.1408,
            "i8": 0.1112
        },
        "per_op_s": 7.037e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/NPU": {
        "efficiency_by_precision": {
            "f16": 0.5017,
            "i8": 0.5969
        },
        "per_op_s": 1e-06,
        "per_infer_s": 0.0003,
        "stream_scaling": 0.7313
    },
    "power": {
        "i7-1185g7": 37.3,
        "core-ultra-7-165h": 36.2
    }
}
