"""A small model zoo: real ImageNet topologies with random, deterministic weights.

What is real: the layer structure, shapes, op types, names (Caffe-style, as in the Open Model
Zoo IRs: ``conv1/7x7_s2``, ``inception_3a/1x1``, ``loss3/classifier``, ``prob``) and therefore
the FLOPs and bytes every simulated device is timed with. GoogLeNet v1 has its 9 inception
blocks and LRN layers (~1.6 GMAC at 224x224), AlexNet its grouped convolutions (227x227),
SqueezeNet 1.1 its fire modules (227x227), ResNet-50 its 16 bottleneck blocks (224x224, batch
norm folded into the convolutions as in an inference IR), MobileNet-v1 its 13
depthwise-separable blocks (224x224, ~0.57 GMAC, Caffe names as in the Open Model Zoo IR),
MobileNet-v2 its 17 inverted residual
blocks with depthwise GroupConvolutions and ReLU6 as Clamp(0, 6) (224x224, ~0.3 GMAC, Caffe
names as in the Open Model Zoo IR), YOLOv3-tiny the yolo-v3-tiny-tf topology up to its two
output convolutions (416x416, LeakyReLU as PRelu, MaxPool, nearest Interpolate, Concat; Keras
names, ``conv2d_9`` and ``conv2d_12`` out), and bert-tiny the BERT encoder of
google/bert_uncased_L-2_H-128_A-2 (token ids in, Gather embeddings, 2 layers of MatMul attention
with 2 heads, Softmax, MVN layer norm, Gelu, a pooler and a 2-class head; sequence 128).

What is not: the weights are random (He-style, seeded from the model name, so every run and
every process gets the same numbers), not trained, so the "classes" mean nothing. The scale is
kept so that activations stay far from float16's range limit (residual branches start small)
and the top-1 class of a given input is the same in f32 and f16. Image inputs are expected to be
roughly zero-mean, unit-scale; bert-tiny takes int64 token ids (``sample_input`` makes either).

Precisions: ``"FP32"``; ``"FP16"`` (float parameters, weights and results in f16); ``"INT8"``
(an FP32 model with FakeQuantize on the activations and weights of every convolution and
fully-connected matmul, like POT/NNCF output; activation ranges are calibrated min/max on
``sample_input``).

``load`` caches each built model and returns clones, so loading is cheap. ``build`` makes the
same network with another opset module, e.g. ``build("googlenet-v1", opset=openvino.opset13,
model_cls=openvino.Model)`` for comparing with the real runtime.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from ovlab.sim.graph import Model, opset

__all__ = ["names", "load", "build", "sample_input", "PRECISIONS"]

PRECISIONS = ("FP32", "FP16", "INT8")
_cache: dict[tuple[str, str], Model] = {}
_lock = threading.RLock()

Ranges = dict[str, tuple[float, float]]


class _Net:
    """Layer helpers shared by the topologies; one instance builds one model."""

    def __init__(self, name: str, precision: str, ops: ModuleType, ranges: Ranges | None) -> None:
        self.ops = ops
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        self.dtype = np.float16 if precision == "FP16" else np.float32
        self.int8 = precision == "INT8"
        self.ranges = ranges or {}
        self.quantized: list[tuple[str, Any]] = []  # (layer, its input) for calibration

    def const(self, value: np.ndarray, name: str) -> Any:
        arr = np.ascontiguousarray(value, dtype=self.dtype)
        # ovlab may share the fresh array; OpenVINO would not keep it alive, so it copies.
        return self.ops.constant(arr, name=name, shared_memory=self.ops is opset)

    def he(self, shape: tuple[int, ...], fan_in: int, gain: float = 1.0) -> np.ndarray:
        """He-uniform weights (variance 2 / fan_in); uniform draws are 4x faster than normal."""
        w = self.rng.random(shape, dtype=np.float32)
        w -= np.float32(0.5)
        w *= np.float32(2.0 * gain * np.sqrt(6.0 / fan_in))
        return w

    def bias(self, n: int) -> np.ndarray:
        return (self.rng.random(n, dtype=np.float32) - np.float32(0.5)) * np.float32(0.02)

    def param(self, shape: list[int], name: str = "data", dtype: Any = None) -> Any:
        return self.ops.parameter(shape, dtype or self.dtype, name=name)

    def _quantize_input(self, x: Any, layer: str) -> Any:
        self.quantized.append((layer, x))
        if not self.int8:
            return x
        lo, hi = self.ranges[layer]
        rank = len(x.get_shape())
        lo_c = self.const(np.full((1,) * rank, lo), f"{layer}/fq_input/low")
        hi_c = self.const(np.full((1,) * rank, hi), f"{layer}/fq_input/high")
        return self.ops.fake_quantize(x, lo_c, hi_c, lo_c, hi_c, 256,
                                      name=f"{layer}/fq_input").output(0)

    def _weights(self, w: np.ndarray, layer: str) -> Any:
        wc = self.const(w, f"{layer}/weights")
        if not self.int8:
            return wc
        lead = 2 if w.ndim == 5 else 1  # per output channel: O, or G and O/G when grouped
        m = np.abs(w).max(axis=tuple(range(lead, w.ndim)), keepdims=True)
        lo_c, hi_c = self.const(-m, f"{layer}/fq_weights/low"), self.const(m, f"{layer}/fq_weights/high")
        return self.ops.fake_quantize(wc, lo_c, hi_c, lo_c, hi_c, 255,
                                      name=f"{layer}/fq_weights").output(0)

    def conv(self, x: Any, cout: int, k: int, name: str, s: int = 1, p: int = 0,
             relu: str | None = None, groups: int = 1, gain: float = 1.0,
             act: str = "relu") -> Any:
        """Convolution + bias (+ an activation named ``relu``: ``act`` "relu", "relu6" as
        Clamp(0, 6), or "leaky" as PRelu with slope 0.1); He weights scaled by ``gain``."""
        cin = x.get_shape()[1]
        fan_in = cin // groups * k * k
        w = self.he((cout, cin // groups, k, k), fan_in, gain)
        b = self.bias(cout)
        xq = self._quantize_input(x, name)
        args = ([1, 1], [p, p], [p, p], [1, 1])
        if groups == 1:
            y = self.ops.convolution(xq, self._weights(w, name), [s, s], *args[1:], name=name)
        else:
            wg = w.reshape(groups, cout // groups, cin // groups, k, k)
            y = self.ops.group_convolution(xq, self._weights(wg, name), [s, s], *args[1:],
                                           name=name)
        y = self.ops.add(y, self.const(b.reshape(1, cout, 1, 1), f"{name}/biases"),
                         name=f"{name}/add_bias")
        return self.activation(y, relu, act)

    def fc(self, x: Any, cout: int, name: str, relu: str | None = None, gain: float = 1.0,
           act: str = "relu") -> Any:
        """MatMul on the last axis (weights stored [out, in], transpose_b) + bias (+ act)."""
        cin = x.get_shape()[-1]
        w = self.he((cout, cin), cin, gain)
        b = self.bias(cout)
        xq = self._quantize_input(x, name)
        y = self.ops.matmul(xq, self._weights(w, name), False, True, name=name)
        rank = len(x.get_shape())
        y = self.ops.add(y, self.const(b.reshape((1,) * (rank - 1) + (cout,)), f"{name}/biases"),
                         name=f"{name}/add_bias")
        return self.activation(y, relu, act)

    def relu(self, x: Any, name: str | None) -> Any:
        return self.activation(x, name, "relu")

    def activation(self, x: Any, name: str | None, act: str) -> Any:
        if not name:
            return x.output(0) if hasattr(x, "output") else x
        if act == "relu":
            node = self.ops.relu(x, name=name)
        elif act == "relu6":
            node = self.ops.clamp(x, 0.0, 6.0, name=name)
        elif act == "leaky":
            node = self.ops.prelu(x, self.const(np.array([0.1]), f"{name}/alpha"), name=name)
        elif act == "tanh":
            node = self.ops.tanh(x, name=name)
        elif act == "gelu":
            node = self.ops.gelu(x, "erf", name=name)
        else:
            raise ValueError(f"unknown activation {act!r}")
        return node.output(0)

    def ints(self, values: Any, name: str) -> Any:
        return self.ops.constant(np.array(values, dtype=np.int64), name=name)

    def maxpool(self, x: Any, k: int, s: int, name: str, p: int = 0, ceil: bool = True) -> Any:
        return self.ops.max_pool(x, [s, s], [1, 1], [p, p], [p, p], [k, k],
                                 "ceil" if ceil else "floor", name=name).output(0)

    def avgpool(self, x: Any, k: int, s: int, name: str) -> Any:
        return self.ops.avg_pool(x, [s, s], [0, 0], [0, 0], [k, k], False, name=name).output(0)

    def lrn(self, x: Any, name: str, size: int = 5) -> Any:
        axes = self.ops.constant(np.array([1], dtype=np.int64), name=f"{name}/axes")
        return self.ops.lrn(x, axes, 1e-4, 0.75, 1.0, size, name=name).output(0)

    def concat(self, xs: list[Any], name: str) -> Any:
        return self.ops.concat(xs, 1, name=name).output(0)

    def flatten(self, x: Any, name: str) -> Any:
        """Reshape ``[0, -1]`` with special_zero: keeps the batch dim, so the model batches."""
        shape = self.ops.constant(np.array([0, -1], dtype=np.int64), name=f"{name}/shape")
        return self.ops.reshape(x, shape, True, name=name).output(0)

    def head(self, x: Any, model_cls: Callable[..., Any], param: Any, model_name: str) -> Any:
        sm = self.ops.softmax(x, 1, name="prob")
        res = self.ops.result(sm, name="prob/sink_port_0")
        res.output(0).set_names({"prob"})
        return model_cls([res], [param], model_name)


# --- topologies ----------------------------------------------------------------------------------
_INCEPTION = {  # name: (1x1, 3x3_reduce, 3x3, 5x5_reduce, 5x5, pool_proj), as in bvlc_googlenet
    "3a": (64, 96, 128, 16, 32, 32), "3b": (128, 128, 192, 32, 96, 64),
    "4a": (192, 96, 208, 16, 48, 64), "4b": (160, 112, 224, 24, 64, 64),
    "4c": (128, 128, 256, 24, 64, 64), "4d": (112, 144, 288, 32, 64, 64),
    "4e": (256, 160, 320, 32, 128, 128), "5a": (256, 160, 320, 32, 128, 128),
    "5b": (384, 192, 384, 48, 128, 128),
}


def _googlenet(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 224, 224])
    x = n.conv(data.output(0), 64, 7, "conv1/7x7_s2", s=2, p=3, relu="conv1/relu_7x7")
    x = n.maxpool(x, 3, 2, "pool1/3x3_s2")
    x = n.lrn(x, "pool1/norm1")
    x = n.conv(x, 64, 1, "conv2/3x3_reduce", relu="conv2/relu_3x3_reduce")
    x = n.conv(x, 192, 3, "conv2/3x3", p=1, relu="conv2/relu_3x3")
    x = n.lrn(x, "conv2/norm2")
    x = n.maxpool(x, 3, 2, "pool2/3x3_s2")
    for block, cfg in _INCEPTION.items():
        if block in ("4a", "5a"):
            x = n.maxpool(x, 3, 2, f"pool{block[0]}/3x3_s2")
        c1, r3, c3, r5, c5, pp = cfg
        b = f"inception_{block}"
        y1 = n.conv(x, c1, 1, f"{b}/1x1", relu=f"{b}/relu_1x1")
        y3 = n.conv(x, r3, 1, f"{b}/3x3_reduce", relu=f"{b}/relu_3x3_reduce")
        y3 = n.conv(y3, c3, 3, f"{b}/3x3", p=1, relu=f"{b}/relu_3x3")
        y5 = n.conv(x, r5, 1, f"{b}/5x5_reduce", relu=f"{b}/relu_5x5_reduce")
        y5 = n.conv(y5, c5, 5, f"{b}/5x5", p=2, relu=f"{b}/relu_5x5")
        yp = n.maxpool(x, 3, 1, f"{b}/pool", p=1)
        yp = n.conv(yp, pp, 1, f"{b}/pool_proj", relu=f"{b}/relu_pool_proj")
        x = n.concat([y1, y3, y5, yp], f"{b}/output")
    x = n.avgpool(x, 7, 1, "pool5/7x7_s1")
    x = n.flatten(x, "pool5/flatten")
    x = n.fc(x, 1000, "loss3/classifier")
    return n.head(x, model_cls, data, "googlenet-v1")


def _alexnet(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 227, 227])
    x = n.conv(data.output(0), 96, 11, "conv1", s=4, relu="relu1")
    x = n.maxpool(n.lrn(x, "norm1"), 3, 2, "pool1")
    x = n.conv(x, 256, 5, "conv2", p=2, groups=2, relu="relu2")
    x = n.maxpool(n.lrn(x, "norm2"), 3, 2, "pool2")
    x = n.conv(x, 384, 3, "conv3", p=1, relu="relu3")
    x = n.conv(x, 384, 3, "conv4", p=1, groups=2, relu="relu4")
    x = n.conv(x, 256, 3, "conv5", p=1, groups=2, relu="relu5")
    x = n.flatten(n.maxpool(x, 3, 2, "pool5"), "pool5/flatten")
    x = n.fc(x, 4096, "fc6", relu="relu6")
    x = n.fc(x, 4096, "fc7", relu="relu7")
    x = n.fc(x, 1000, "fc8")
    return n.head(x, model_cls, data, "alexnet")


def _squeezenet(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 227, 227])
    x = n.conv(data.output(0), 64, 3, "conv1", s=2, relu="relu_conv1")
    x = n.maxpool(x, 3, 2, "pool1")
    fires = [(2, 16, 64), (3, 16, 64), (4, 32, 128), (5, 32, 128), (6, 48, 192), (7, 48, 192),
             (8, 64, 256), (9, 64, 256)]
    for i, sq, ex in fires:
        f = f"fire{i}"
        s = n.conv(x, sq, 1, f"{f}/squeeze1x1", relu=f"{f}/relu_squeeze1x1")
        e1 = n.conv(s, ex, 1, f"{f}/expand1x1", relu=f"{f}/relu_expand1x1")
        e3 = n.conv(s, ex, 3, f"{f}/expand3x3", p=1, relu=f"{f}/relu_expand3x3")
        x = n.concat([e1, e3], f"{f}/concat")
        if i in (3, 5):
            x = n.maxpool(x, 3, 2, f"pool{i}")
    x = n.conv(x, 1000, 1, "conv10", relu="relu_conv10")
    x = n.avgpool(x, x.get_shape()[2], 1, "pool10")
    return n.head(n.flatten(x, "pool10/flatten"), model_cls, data, "squeezenet1.1")


def _resnet50(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 224, 224])
    x = n.conv(data.output(0), 64, 7, "conv1", s=2, p=3, relu="conv1_relu")
    x = n.maxpool(x, 3, 2, "pool1")
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)], start=2):
        for i in range(blocks):
            r = f"res{stage}{'abcdef'[i]}"
            s = 2 if i == 0 and stage > 2 else 1
            short = n.conv(x, 4 * width, 1, f"{r}_branch1", s=s) if i == 0 else x
            y = n.conv(x, width, 1, f"{r}_branch2a", s=s, relu=f"{r}_branch2a_relu")
            y = n.conv(y, width, 3, f"{r}_branch2b", p=1, relu=f"{r}_branch2b_relu")
            # small last layer per block, so 16 residual sums do not blow up the scale
            y = n.conv(y, 4 * width, 1, f"{r}_branch2c", gain=0.3)
            x = n.relu(n.ops.add(short, y, name=r).output(0), f"{r}_relu")
    x = n.flatten(n.avgpool(x, 7, 1, "pool5"), "pool5/flatten")
    return n.head(n.fc(x, 1000, "fc1000"), model_cls, data, "resnet-50")


def _small_cnn(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 32, 32])
    x = n.conv(data.output(0), 16, 3, "conv1", p=1, relu="relu1")
    x = n.maxpool(x, 2, 2, "pool1", ceil=False)
    x = n.conv(x, 32, 3, "conv2", p=1, relu="relu2")
    x = n.flatten(n.maxpool(x, 2, 2, "pool2", ceil=False), "flatten")
    x = n.fc(x, 64, "fc1", relu="relu3")
    return n.head(n.fc(x, 10, "fc2"), model_cls, data, "small-cnn")


def _mlp(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 16], name="x")
    x = n.fc(data.output(0), 32, "fc1", relu="relu1")
    return n.head(n.fc(x, 4, "fc2"), model_cls, data, "mlp")


# MobileNet-v1 1.0: (output channels, stride) of the 13 depthwise-separable blocks, with the Caffe
# names of the Open Model Zoo IR (conv2_1/dw, conv2_1/sep ... conv6/dw, conv6/sep)
_MOBILENET_V1 = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
                 (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]
_MOBILENET_V1_NAMES = ["conv2_1", "conv2_2", "conv3_1", "conv3_2", "conv4_1", "conv4_2",
                       "conv5_1", "conv5_2", "conv5_3", "conv5_4", "conv5_5", "conv5_6", "conv6"]


def _mobilenet_v1(n: _Net, model_cls: Callable[..., Any]) -> Any:
    """A second depthwise network (``ovlab calibrate`` holds each model out in turn, so a
    depthwise convolution's cost is then predicted from the other one)."""
    data = n.param([1, 3, 224, 224])
    x = n.conv(data.output(0), 32, 3, "conv1", s=2, p=1, relu="relu1")
    cin = 32
    for (cout, stride), b in zip(_MOBILENET_V1, _MOBILENET_V1_NAMES, strict=True):
        x = n.conv(x, cin, 3, f"{b}/dw", s=stride, p=1, groups=cin, relu=f"relu{b[4:]}/dw")
        x = n.conv(x, cout, 1, f"{b}/sep", relu=f"relu{b[4:]}/sep")
        cin = cout
    x = n.flatten(n.avgpool(x, 7, 1, "pool6"), "pool6/flatten")
    return n.head(n.fc(x, 1000, "fc7", gain=3.0), model_cls, data, "mobilenet-v1")


# MobileNet-v2 1.0: (expansion t, output channels c, repeats n, first stride s) per stage,
# with the Caffe block names of the Open Model Zoo IR (conv2_1 ... conv6_3)
_MOBILENET_V2 = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                 (6, 160, 3, 2), (6, 320, 1, 1)]
_MOBILENET_NAMES = ["conv2_1", "conv2_2", "conv3_1", "conv3_2", "conv4_1", "conv4_2", "conv4_3",
                    "conv4_4", "conv4_5", "conv4_6", "conv4_7", "conv5_1", "conv5_2", "conv5_3",
                    "conv6_1", "conv6_2", "conv6_3"]


def _mobilenet_v2(n: _Net, model_cls: Callable[..., Any]) -> Any:
    data = n.param([1, 3, 224, 224])
    x = n.conv(data.output(0), 32, 3, "conv1", s=2, p=1, relu="conv1/relu", act="relu6")
    names = iter(_MOBILENET_NAMES)
    cin = 32
    for t, c, reps, stride in _MOBILENET_V2:
        for i in range(reps):
            b = next(names)
            s = stride if i == 0 else 1
            y = x
            if t != 1:
                y = n.conv(y, cin * t, 1, f"{b}/expand", relu=f"{b}/expand/relu", act="relu6")
            width = cin * t
            y = n.conv(y, width, 3, f"{b}/dwise", s=s, p=1, groups=width,
                       relu=f"{b}/dwise/relu", act="relu6")
            # linear bottleneck: variance-preserving, smaller when it joins a residual sum
            y = n.conv(y, c, 1, f"{b}/linear", gain=0.4 if s == 1 and cin == c else 0.7)
            if s == 1 and cin == c:
                y = n.ops.add(x, y, name=f"block_{b[4:]}").output(0)
            x, cin = y, c
    x = n.conv(x, 1280, 1, "conv6_4", relu="conv6_4/relu", act="relu6")
    x = n.flatten(n.avgpool(x, 7, 1, "pool6"), "pool6/flatten")
    return n.head(n.fc(x, 1000, "fc7", gain=3.0), model_cls, data, "mobilenet-v2")


def _yolo_v3_tiny(n: _Net, model_cls: Callable[..., Any]) -> Any:
    """yolo-v3-tiny-tf (keras-yolo3's tiny_yolo_body): batch norm folded into the convolutions,
    LeakyReLU(0.1) as PRelu, 2x2 max pools (the sixth with stride 1 and SAME padding), a
    nearest x2 upsample and a concat feeding the second head."""
    data = n.param([1, 3, 416, 416], name="image_input")
    ids = iter(range(11))

    def dbl(x: Any, cout: int, k: int, idx: int) -> Any:  # DarknetConv2D_BN_Leaky
        act = next(ids)
        suffix = f"_{act}" if act else ""
        return n.conv(x, cout, k, f"conv2d{f'_{idx}' if idx else ''}", p=k // 2,
                      relu=f"leaky_re_lu{suffix}", act="leaky")

    x = data.output(0)
    for i, c in enumerate((16, 32, 64, 128)):
        x = dbl(x, c, 3, i)
        x = n.maxpool(x, 2, 2, f"max_pooling2d{f'_{i}' if i else ''}", ceil=False)
    x1 = dbl(x, 256, 3, 4)
    x = n.maxpool(x1, 2, 2, "max_pooling2d_4", ceil=False)
    x = dbl(x, 512, 3, 5)
    x = n.ops.max_pool(x, [1, 1], [1, 1], [0, 0], [1, 1], [2, 2], name="max_pooling2d_5").output(0)
    x = dbl(x, 1024, 3, 6)
    x2 = dbl(x, 256, 1, 7)
    y1 = dbl(x2, 512, 3, 8)
    y1 = n.conv(y1, 255, 1, "conv2d_9", gain=0.7)
    x = dbl(x2, 128, 1, 10)
    size = [2 * d for d in x.get_shape()[2:]]  # UpSampling2D(2): ResizeNearestNeighbor to 26x26
    x = n.ops.interpolate(x, n.ints(size, "up_sampling2d/size"), "nearest", "sizes",
                          coordinate_transformation_mode="asymmetric", nearest_mode="floor",
                          axes=n.ints([2, 3], "up_sampling2d/axes"),
                          name="up_sampling2d").output(0)
    x = n.concat([x, x1], "concatenate")
    y2 = dbl(x, 256, 3, 11)
    y2 = n.conv(y2, 255, 1, "conv2d_12", gain=0.7)
    outs = []
    for y, name in ((y1, "conv2d_9"), (y2, "conv2d_12")):
        res = n.ops.result(y, name=f"{name}/sink_port_0")
        res.output(0).set_names({f"{name}/BiasAdd:0"})
        outs.append(res)
    return model_cls(outs, [data], "yolo-v3-tiny")


# bert-tiny = google/bert_uncased_L-2_H-128_A-2
BERT = {"vocab": 30522, "hidden": 128, "layers": 2, "heads": 2, "ffn": 512, "positions": 512,
        "seq": 128, "classes": 2}


def _bert_tiny(n: _Net, model_cls: Callable[..., Any]) -> Any:
    cfg = BERT
    h, seq = cfg["hidden"], cfg["seq"]
    ids = n.param([1, seq], name="input_ids", dtype=np.int64)
    emb = "bert/embeddings"

    def table(rows: int, name: str) -> Any:
        return n.const(n.he((rows, h), h, 0.5), name)

    x = n.ops.gather(table(cfg["vocab"], f"{emb}/word_embeddings"), ids, n.ints(0, f"{emb}/axis"),
                     name=f"{emb}/word_embeddings/Gather").output(0)
    # positions 0..seq-1 and token type 0 are constants: these Gathers fold when compiled
    pos = n.ops.gather(table(cfg["positions"], f"{emb}/position_embeddings"),
                       n.ints([list(range(seq))], f"{emb}/position_ids"), n.ints(0, f"{emb}/axis1"),
                       name=f"{emb}/position_embeddings/Gather")
    typ = n.ops.gather(table(2, f"{emb}/token_type_embeddings"),
                       n.ints([[0] * seq], f"{emb}/token_type_ids"), n.ints(0, f"{emb}/axis2"),
                       name=f"{emb}/token_type_embeddings/Gather")
    x = n.ops.add(n.ops.add(x, pos, name=f"{emb}/add"), typ, name=f"{emb}/add_1").output(0)
    x = _layer_norm(n, x, f"{emb}/LayerNorm")
    for layer in range(cfg["layers"]):
        x = _bert_layer(n, x, f"bert/encoder/layer.{layer}")
    first = n.ops.gather(x, n.ints(0, "bert/pooler/first_token"), n.ints(1, "bert/pooler/axis"),
                         name="bert/pooler/Gather").output(0)
    pooled = n.fc(first, h, "bert/pooler/dense", relu="bert/pooler/Tanh", act="tanh")
    logits = n.fc(pooled, cfg["classes"], "classifier", gain=4.0)
    return n.head(logits, model_cls, ids, "bert-tiny")


def _layer_norm(n: _Net, x: Any, name: str) -> Any:
    """LayerNorm as the OpenVINO IR of a transformer has it: MVN over the hidden axis, then
    the scale and shift."""
    h = x.get_shape()[-1]
    y = n.ops.mvn(x, n.ints([-1], f"{name}/axes"), True, 1e-12, "inside_sqrt",
                  name=f"{name}/MVN").output(0)
    gamma = 1.0 + (n.rng.random(h, dtype=np.float32) - 0.5) * 0.2
    y = n.ops.multiply(y, n.const(gamma.reshape(1, 1, h), f"{name}/weight"),
                       name=f"{name}/mul").output(0)
    return n.ops.add(y, n.const(n.bias(h).reshape(1, 1, h), f"{name}/bias"),
                     name=f"{name}/add").output(0)


def _bert_layer(n: _Net, x: Any, name: str) -> Any:
    cfg = BERT
    heads, h = cfg["heads"], cfg["hidden"]
    att = f"{name}/attention"

    def split_heads(t: Any, what: str, order: list[int]) -> Any:
        t = n.ops.reshape(t, n.ints([0, 0, heads, h // heads], f"{att}/self/{what}/shape"), True,
                          name=f"{att}/self/{what}/Reshape")
        return n.ops.transpose(t, n.ints(order, f"{att}/self/{what}/order"),
                               name=f"{att}/self/{what}/Transpose").output(0)

    q = split_heads(n.fc(x, h, f"{att}/self/query", gain=0.7), "query", [0, 2, 1, 3])
    k = split_heads(n.fc(x, h, f"{att}/self/key", gain=0.7), "key", [0, 2, 1, 3])
    v = split_heads(n.fc(x, h, f"{att}/self/value", gain=0.7), "value", [0, 2, 1, 3])
    scores = n.ops.matmul(q, k, False, True, name=f"{att}/self/MatMul")
    scale = n.const(np.array(1.0 / np.sqrt(h // heads)), f"{att}/self/scale")
    scores = n.ops.multiply(scores, scale, name=f"{att}/self/Mul")
    probs = n.ops.softmax(scores, -1, name=f"{att}/self/Softmax")
    ctx = n.ops.matmul(probs, v, False, False, name=f"{att}/self/MatMul_1")
    ctx = n.ops.transpose(ctx, n.ints([0, 2, 1, 3], f"{att}/self/context/order"),
                          name=f"{att}/self/context/Transpose")
    ctx = n.ops.reshape(ctx, n.ints([0, 0, h], f"{att}/self/context/shape"), True,
                        name=f"{att}/self/context/Reshape").output(0)
    y = n.fc(ctx, h, f"{att}/output/dense", gain=0.5)
    x = _layer_norm(n, n.ops.add(y, x, name=f"{att}/output/add").output(0),
                    f"{att}/output/LayerNorm")
    y = n.fc(x, cfg["ffn"], f"{name}/intermediate/dense", relu=f"{name}/intermediate/Gelu",
             act="gelu")
    y = n.fc(y, h, f"{name}/output/dense", gain=0.5)
    return _layer_norm(n, n.ops.add(y, x, name=f"{name}/output/add").output(0),
                       f"{name}/output/LayerNorm")


_BUILDERS: dict[str, Callable[[_Net, Callable[..., Any]], Any]] = {
    "googlenet-v1": _googlenet, "alexnet": _alexnet, "squeezenet1.1": _squeezenet,
    "resnet-50": _resnet50, "small-cnn": _small_cnn, "mlp": _mlp,
    "mobilenet-v1": _mobilenet_v1, "mobilenet-v2": _mobilenet_v2, "yolo-v3-tiny": _yolo_v3_tiny, "bert-tiny": _bert_tiny,
}


# --- public API ------------------------------------------------------------------------------------
def names() -> list[str]:
    """The model names ``load`` accepts."""
    return list(_BUILDERS)


def table_names() -> list[str]:
    """The models of Intel's published tables built by architecture with lazy weights
    (``table_zoo.py``): ``load`` accepts them too; ``names`` keeps to the small zoo whose
    numerics the labs and tests compute."""
    from . import table_zoo

    return list(table_zoo.BUILDERS)


def _check(name: str, precision: str) -> str:
    if name not in _BUILDERS and name not in table_names():
        raise KeyError(f"Unknown zoo model {name!r}; available: {', '.join(_BUILDERS)}")
    p = str(precision).upper()
    if p not in PRECISIONS:
        raise ValueError(f"Unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
    return p


def sample_input(name: str, batch: int = 1, seed: int = 0) -> np.ndarray:
    """A fixed input for model ``name``: image-like float32 (standard normal), or int64 token
    ids below the vocabulary size for bert-tiny.

    Only the input port is needed, and every precision of a model has the same one: a variant
    already built (a lab that reads ``"googlenet-v1:FP16"``) is used rather than building the
    FP32 model and its weights for nothing (28 MB for GoogLeNet)."""
    _check(name, "FP32")
    with _lock:
        built = next((m for (n, _), m in _cache.items() if n == name), None)
    port = (built if built is not None else load(name)).inputs[0]
    shape = list(port.get_shape())
    shape[0] = batch
    rng = np.random.default_rng(seed)
    if not port.get_element_type().is_real():
        return rng.integers(0, BERT["vocab"], shape, dtype=np.int64)
    return rng.standard_normal(shape, dtype=np.float32)


def _calibrate(name: str) -> Ranges:
    """Min/max of every conv/matmul input on ``sample_input`` (POT's default method), read
    from the cached FP32 model."""
    fp32 = load(name)
    layers = [o for o in fp32.get_ordered_ops()
              if o.get_type_name() in ("Convolution", "GroupConvolution", "MatMul")]
    probe = Model([o.input_value(0) for o in layers], fp32.get_parameters(), f"{name}-calibration")
    values = probe._evaluate({0: sample_input(name)})
    ranges: Ranges = {}
    for layer, v in zip(layers, values, strict=True):
        lo, hi = float(v.min()), float(v.max())
        ranges[layer.get_friendly_name()] = (0.0 if lo >= 0 else lo, max(hi, 1e-6))
    return ranges


def build(name: str, precision: str = "FP32", *, opset: ModuleType | None = None,
          model_cls: Callable[..., Any] | None = None) -> Any:
    """Build a fresh model (no cache). With ``opset=openvino.opset13, model_cls=openvino.Model``
    the same network (same weights) is built for the real OpenVINO runtime."""
    p = _check(name, precision)
    ops = opset if opset is not None else globals()["opset"]
    if name not in _BUILDERS:  # a table model: lazy weights, fixed INT8 ranges
        from . import table_zoo

        net = table_zoo.lazy_net(_Net)(name, p, ops, None)
        return table_zoo.BUILDERS[name](net, model_cls or Model)
    ranges = _calibrate(name) if p == "INT8" else None
    return _BUILDERS[name](_Net(name, p, ops, ranges), model_cls or Model)


def load(name: str, precision: str = "FP32") -> Model:
    """The zoo model ``name`` in ``precision`` ("FP32", "FP16", "INT8"); a fresh clone."""
    key = (name, _check(name, precision))
    with _lock:
        model = _cache.get(key)
    if model is None:
        model = build(*key)  # (outside the lock: an INT8 build loads the FP32 model)
        with _lock:
            model = _cache.setdefault(key, model)
    return model.clone()
