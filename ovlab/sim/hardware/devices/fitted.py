"""Fitted cost-model numbers of the calibrated devices (written by ``benchmarks/fit_presets.py``).

Do not edit by hand: run ``python benchmarks/fit_presets.py --write`` (and, for ``cpu/CPU``,
``python benchmarks/bench_fidelity.py --fit``). Keys are ``<preset>/<device>``.
"""

FITTED = {
    "cpu/CPU": {
        "efficiency_by_precision": {
            "f32": 1.0,
            "bf16": 1.0,
            "i8": 0.8108
        },
        "kind_efficiency": {
            "depthwise": 0.138,
            "matmul": 1.0,
            "other": 0.05315
        },
        "mem_efficiency": 0.6969,
        "per_op_s": 6.867e-06,
        "per_infer_s": 2.608e-08,
        "stream_scaling": 0.908,
        "async_overhead_s": 5.263e-05,
        "per_op_kind": {
            "matmul": 0.0466
        },
        "per_op_i8_s": 6.592e-07,
        "stream_dispatch": 0.48
    },
    "i7-1185g7/CPU": {
        "efficiency_by_precision": {
            "f32": 0.849,
            "i8": 0.7902
        },
        "stream_scaling": 0.978,
        "async_overhead_s": 1e-05
    },
    "core-ultra-7-165h/CPU": {
        "efficiency_by_precision": {
            "f32": 0.2157,
            "i8": 0.2272
        },
        "stream_scaling": 0.4702,
        "async_overhead_s": 1e-05
    },
    "i9-13900k/CPU": {
        "efficiency_by_precision": {
            "f32": 0.5512,
            "i8": 0.4528
        },
        "stream_scaling": 0.8715,
        "async_overhead_s": 1e-05
    },
    "i7-1185g7/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.3158,
            "f16": 0.3158,
            "i8": 0.2504
        },
        "per_op_s": 1.102e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.2832,
            "f16": 0.2832,
            "i8": 0.2246
        },
        "per_op_s": 1.102e-05,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "arc-a770m/GPU.0": {
        "efficiency_by_precision": {
            "f32": 0.1745,
            "f16": 0.1745,
            "i8": 0.1242
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
        "per_op_s": 7.152e-06,
        "per_infer_s": 0.0001,
        "stream_scaling": 0.9
    },
    "core-ultra-7-165h/NPU": {
        "efficiency_by_precision": {
            "f16": 0.4974,
            "i8": 0.5726
        },
        "per_op_s": 1e-06,
        "per_infer_s": 0.0003,
        "stream_scaling": 0.7306
    },
    "power": {
        "i7-1185g7": 37.54,
        "core-ultra-7-165h": 36.28
    }
}
