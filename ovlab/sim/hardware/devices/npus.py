"""NPUs: Intel's neural processing units, with the ops their compiler takes.

An NPU compiles a whole model or refuses it; ops outside ``supported_ops`` make a bare-NPU compile
fail and send those ops elsewhere under HETERO (the "difficult topology" story).
"""

from __future__ import annotations

from ..specs import DeviceSpec
from .fitted import FITTED

# Ops an accelerator in these presets cannot run (the "difficult topology" story of HETERO).
NPU_UNSUPPORTED = frozenset({"LRN", "Sigmoid", "Clamp"})
KNOWN_OPS = frozenset({
    "Parameter", "Constant", "Result", "Convolution", "GroupConvolution", "Relu", "Clamp",
    "Sigmoid", "MaxPool", "AvgPool", "LRN", "Concat", "Add", "Multiply", "Subtract", "MatMul",
    "Reshape", "Transpose", "Softmax", "Convert", "FakeQuantize", "Squeeze", "Unsqueeze",
    "ReduceMean", "Divide", "Tanh", "Exp",
}) | frozenset({"ReadValue", "Assign"}) | frozenset({  # the opset grown for issue 12 (tests/graph: every registered op is listed)
    "Abs", "Acos", "Acosh", "AdaptiveAvgPool", "AdaptiveMaxPool", "Asin", "Asinh", "Atan",
    "Atanh", "BatchNormInference", "BatchToSpace", "BitwiseAnd", "BitwiseLeftShift", "BitwiseNot", "BitwiseOr", "BitwiseRightShift",
    "BitwiseXor", "Broadcast", "Ceiling", "ConvertLike", "ConvolutionBackpropData", "Cos",
    "Cosh", "CumSum", "DepthToSpace", "Einsum", "Elu", "Equal", "Erf", "Eye", "Floor",
    "FloorMod", "GRN", "Gather", "GatherElements", "GatherND", "Gelu", "Greater",
    "GreaterEqual", "GroupConvolutionBackpropData", "GroupNormalization", "HSigmoid", "HSwish",
    "HardSigmoid", "Interpolate", "IsFinite", "IsInf", "IsNaN", "Less", "LessEqual", "Log",
    "LogSoftmax", "LogicalAnd", "LogicalNot", "LogicalOr", "LogicalXor", "MVN", "Maximum",
    "Minimum", "Mish", "Mod", "Negative", "NormalizeL2", "NotEqual", "OneHot", "PRelu", "Pad",
    "Power", "Range", "ReduceL1", "ReduceL2", "ReduceLogicalAnd", "ReduceLogicalOr",
    "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSum", "ReverseSequence", "Roll", "Round",
    "ScaledDotProductAttention", "ScatterElementsUpdate", "ScatterNDUpdate", "ScatterUpdate",
    "Select", "Selu", "ShapeOf", "ShuffleChannels", "Sign", "Sin", "Sinh", "Slice", "SoftPlus",
    "SoftSign", "SpaceToBatch", "SpaceToDepth", "Split", "Sqrt", "SquaredDifference",
    "StridedSlice", "Swish", "Tan", "Tile", "TopK", "VariadicSplit",
    # opset13-16 ops served from openvino.opset13..16 (issue 36)
    "Col2Im", "ConvertPromoteTypes", "DFT", "EmbeddingBagOffsets", "EmbeddingBagPacked",
    "FakeConvert", "IDFT", "IRDFT", "Identity", "Inverse", "RDFT", "StringTensorPack",
    "PriorBox", "PriorBoxClustered", "CTCGreedyDecoder", "CTCGreedyDecoderSeqLen",  # issue 36
    "GRUCell", "LSTMCell", "RNNSequence", "GRUSequence", "LSTMSequence", "DeformableConvolution",
    "NonMaxSuppression", "NV12toRGB", "NV12toBGR", "I420toRGB", "I420toBGR", "GatherTree",
    "Bucketize", "SearchSorted", "ReorgYolo", "SliceScatter", "EmbeddingBagOffsetsSum",
    "EmbeddingBagPackedSum", "EmbeddingSegmentsSum", "ROIAlign", "ROIAlignRotated",
    "PSROIPooling", "RegionYolo", "ExtractImagePatches", "GridSample", "STFT",
    "ISTFT", "DeformablePSROIPooling",
    # the ops of issue 36 part B (those with value-sized outputs never compile on ovlab)
    "CTCLoss", "DetectionOutput", "GroupedMatMul", "Multinomial", "NMSRotated", "Proposal",
    "RandomUniform", "SegmentMax", "SparseFillEmptyRows", "StringTensorUnpack",
})


AI_BOOST_NPU = DeviceSpec(
    plugin="NPU", full_name="Intel(R) AI Boost", device_type="integrated",
    capabilities=("FP16", "INT8", "EXPORT_IMPORT"), peak_gflops={"f16": 5500.0, "i8": 11000.0},
    efficiency=0.5, mem_bw_gbs=60.0, mem_size_gb=8.0, link_gbs=20.0, link_latency_s=40e-6,
    per_op_s=10e-6, per_infer_s=400e-6, first_infer_factor=1.5, compile_base_s=3.0,
    compile_per_op_s=60e-3, compile_per_mb_s=30e-3, cached_load_s=0.5, streams_throughput=1,
    range_for_streams=(1, 1), range_for_async_infer_requests=(1, 4, 1), requests_per_stream=4,
    stream_scaling=1.0, jitter=0.05, inference_precision="f16", stream_share="dynamic",
    supported_ops=KNOWN_OPS - NPU_UNSUPPORTED, compile_host_load=0.3, architecture="3720")
# The NPU plugin's op support: the plugin answers query_model by asking the driver's compiler,
# which accepts a fixed list of operations (no dynamic shapes, no binary u1 precision: openvino
# issue #27626); an op outside the list fails the compile ("Unsupported operation ...") and is
# absent from query_model. ovlab's list is every op type its graph layer implements (a test in
# tests/graph fails when an op is added without being listed here, as with a compiler release).
# Not on it: the ops whose outputs are dynamic by definition (how many boxes NonMaxSuppression-5/9
# and NMSRotated keep is known only at run time), since the compiler takes no dynamic shapes;
# HETERO and AUTO leave them to the CPU.
NPU_3720_OPS = KNOWN_OPS - frozenset({"NonMaxSuppression", "NMSRotated"})
# NPU 3720 of the Core Ultra 7 165H ("Intel(R) AI Boost", 2 neural compute tiles, ~11 TOPS INT8,
# half that in f16). THROUGHPUT runs 2 streams (one per tile) of 2 requests; a lone inference
# uses both tiles. Timed like the real NPU plugin runs a compiled blob (``fuse_ops``); the
# efficiencies, per-inference cost and stream scaling are fitted on Intel's ResNet-50 rows
# (``fitted.py``).
def _fitted_npu(key: str) -> DeviceSpec:
    fitted = FITTED[key]
    return AI_BOOST_NPU.with_(
        peak_gflops={"f16": 5700.0, "i8": 11500.0}, mem_bw_gbs=120.0, mem_size_gb=16.0,
        per_op_s=fitted["per_op_s"], per_infer_s=fitted["per_infer_s"],
        efficiency=fitted["efficiency_by_precision"]["f16"],
        efficiency_by_precision=dict(fitted["efficiency_by_precision"]),
        kind_efficiency={"depthwise": 0.3, "matmul": 1.0, "other": 0.1}, mem_efficiency=0.7,
        fuse_ops=True, streams_throughput=2, range_for_streams=(1, 2), requests_per_stream=2,
        stream_scaling=fitted["stream_scaling"],
        supported_ops=NPU_3720_OPS,  # it lacks none of the zoo's ops
        extra={"tiles": 2, "tops_int8": 11.5, "memory": "shared LPDDR5x-7467"})


NPU_3720 = _fitted_npu("core-ultra-7-165h/NPU")
