"""The models of Intel's published OpenVINO tables that the small zoo lacks, by published
architecture (issue 35): layer shapes for the cost model, weights made only if read.

These networks are large (BERT-large: 334 M parameters; SSD-ResNet34 at 1200x1200: 433 GFLOPs),
so they are built with lazy weights (``graph/lazy.py``: a weight's values are drawn when a kernel
first reads it, never to time a run) and their INT8 variants with fixed activation ranges instead
of a calibration pass. What is real: every convolution, matrix product, pooling and resize with
its shape, stride, dilation and groups, hence the FLOPs and bytes; what is not: the weights, and
the post-processing after the heads (NMS, DetectionOutput, ROI sampling), which is not timed. The
published figures each is checked against (``PUBLISHED``, ``tests/hardware/test_family.py``) are
the Open Model Zoo's model pages (GFLOPs, MParams) and the original papers / repositories.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from ..graph.lazy import lazy_constant

# name: (GFLOPs, million parameters, input) as published; see the module docstring
PUBLISHED = {
    "bert-base-cased": (22.4, 108.3, "1x128 tokens (Hugging Face bert-base-cased; FLOPs "
                                     "from its shapes: 12 layers, hidden 768)"),
    "bert-large-uncased-whole-word-masking-squad-0001": (246.93, 333.96, "1x384 tokens (OMZ)"),
    "ssd_mobilenet_v1_coco": (2.494, 6.807, "300x300 (OMZ)"),
    "yolo_v8n": (8.7, 3.2, "640x640 (Ultralytics YOLOv8n)"),
    "unet-camvid-onnx-0001": (260.1, 31.03, "368x480 (OMZ)"),
    "ssd-resnet34-1200": (433.411, 20.058, "1200x1200 (OMZ ssd-resnet34-1200-onnx)"),
    "yolo_v3": (65.984, 61.922, "416x416 (OMZ yolo-v3-tf)"),
    "deeplabv3": (11.469, 23.819, "513x513 (OMZ deeplabv3, MobileNet-v2 backbone)"),
    "efficientdet-d0": (2.54, 3.9, "512x512 (OMZ efficientdet-d0-tf)"),
    "mask_rcnn_resnet50_atrous_coco": (294.739, 50.222, "800x1365 (OMZ)"),
}
# fixed activation range of the INT8 variants (no calibration pass on a lazy network)
ACT_RANGE = (-8.0, 8.0)


def lazy_net(base: type) -> type:
    """A subclass of the zoo's ``_Net`` whose weights are lazy constants."""

    class LazyNet(base):  # type: ignore[misc, valid-type]
        def __init__(self, name: str, precision: str, ops: Any, ranges: Any) -> None:
            super().__init__(name, precision, ops, ranges)
            self.seed = zlib.crc32(name.encode())
            self.n_params = 0
            self.shared: dict[str, Any] = {}  # weights used at several places (shared heads)

        def weight(self, shape: tuple[int, ...], fan_in: int, name: str, gain: float = 1.0,
                   quantize: bool = True):
            if name.startswith("shared:"):
                if name not in self.shared:
                    self.shared[name] = self.weight(shape, fan_in, name[7:], gain, quantize)
                return self.shared[name]
            self.seed += 1
            self.n_params += math.prod(shape)
            w = lazy_constant(shape, self.dtype, seed=self.seed,
                              scale=gain * math.sqrt(2.0 / max(1, fan_in)), name=name)
            if not self.int8 or not quantize:
                return w
            m = 3.0 * gain * math.sqrt(2.0 / max(1, fan_in))
            lo = self.const(np.full((1,) * len(shape), -m), f"{name}/fq/low")
            hi = self.const(np.full((1,) * len(shape), m), f"{name}/fq/high")
            return self.ops.fake_quantize(w, lo, hi, lo, hi, 255, name=f"{name}/fq").output(0)

        def _quantize_input(self, x: Any, layer: str) -> Any:
            if not self.int8:
                return x
            rank = len(x.get_shape())
            lo = self.const(np.full((1,) * rank, ACT_RANGE[0]), f"{layer}/fq_input/low")
            hi = self.const(np.full((1,) * rank, ACT_RANGE[1]), f"{layer}/fq_input/high")
            return self.ops.fake_quantize(x, lo, hi, lo, hi, 256,
                                          name=f"{layer}/fq_input").output(0)

        def conv(self, x: Any, cout: int, k: int, name: str, s: int = 1, p: int | None = None,
                 relu: str | None = None, groups: int = 1, gain: float = 1.0,
                 act: str = "relu", dilation: int = 1, bias: bool = True,
                 share: str = "") -> Any:
            cin = x.get_shape()[1]
            key = f"shared:{share}" if share else f"{name}/weights"
            if p is None:
                p = dilation * (k // 2)
            xq = self._quantize_input(x, name)
            pads = [p, p]
            if groups == 1:
                w = self.weight((cout, cin, k, k), cin * k * k, key, gain)
                y = self.ops.convolution(xq, w, [s, s], pads, pads, [dilation, dilation],
                                         name=name)
            else:
                w = self.weight((groups, cout // groups, cin // groups, k, k),
                                cin // groups * k * k, key, gain)
                y = self.ops.group_convolution(xq, w, [s, s], pads, pads, [dilation, dilation],
                                               name=name)
            if bias:
                self.n_params += cout
                y = self.ops.add(y, self.const(self.bias(cout).reshape(1, cout, 1, 1),
                                               f"{name}/biases"), name=f"{name}/add_bias")
            return self.activation(y, relu, act)

        def fc(self, x: Any, cout: int, name: str, relu: str | None = None, gain: float = 1.0,
               act: str = "relu") -> Any:
            cin = x.get_shape()[-1]
            xq = self._quantize_input(x, name)
            y = self.ops.matmul(xq, self.weight((cout, cin), cin, f"{name}/weights", gain),
                                False, True, name=name)
            rank = len(x.get_shape())
            self.n_params += cout
            y = self.ops.add(y, self.const(self.bias(cout).reshape((1,) * (rank - 1) + (cout,)),
                                           f"{name}/biases"), name=f"{name}/add_bias")
            return self.activation(y, relu, act)

        def activation(self, x: Any, name: str | None, act: str) -> Any:
            if name and act == "swish":
                beta = self.const(np.array(1.0), f"{name}/beta")
                return self.ops.swish(x, beta, name=name).output(0)
            if name and act == "sigmoid":
                return self.ops.sigmoid(x, name=name).output(0)
            return super().activation(x, name, act)

        def up(self, x: Any, factor: int, name: str) -> Any:
            size = [factor * d for d in x.get_shape()[2:]]
            return self.ops.interpolate(x, self.ints(size, f"{name}/size"), "nearest", "sizes",
                                        coordinate_transformation_mode="asymmetric",
                                        nearest_mode="floor", axes=self.ints([2, 3], f"{name}/axes"),
                                        name=name).output(0)

        def add(self, a: Any, b: Any, name: str) -> Any:
            return self.ops.add(a, b, name=name).output(0)

        def outputs(self, model_cls, outs: list[Any], params: list[Any], model_name: str):
            results = []
            for i, y in enumerate(outs):
                res = self.ops.result(y, name=f"output_{i}/sink_port_0")
                res.output(0).set_names({f"output_{i}"})
                results.append(res)
            return model_cls(results, params, model_name)

    return LazyNet


# --- transformers --------------------------------------------------------------------------------
def _layer_norm(n, x: Any, name: str) -> Any:
    """LayerNorm as an IR has it: MVN over the hidden axis, then the scale and shift."""
    h = x.get_shape()[-1]
    y = n.ops.mvn(x, n.ints([-1], f"{name}/axes"), True, 1e-12, "inside_sqrt",
                  name=f"{name}/MVN").output(0)
    y = n.ops.multiply(y, n.const(np.ones((1, 1, h)), f"{name}/weight"),
                       name=f"{name}/mul").output(0)
    return n.ops.add(y, n.const(n.bias(h).reshape(1, 1, h), f"{name}/bias"),
                     name=f"{name}/add").output(0)


def _bert(n, model_cls, *, name: str, vocab: int, hidden: int, layers: int, heads: int,
          ffn: int, seq: int, qa: bool) -> Any:
    ids = n.param([1, seq], name="input_ids", dtype=np.int64)
    emb = "bert/embeddings"
    table = n.weight((vocab, hidden), hidden, f"{emb}/word_embeddings", 0.5, quantize=False)
    x = n.ops.gather(table, ids, n.ints(0, f"{emb}/axis"),
                     name=f"{emb}/word_embeddings/Gather").output(0)
    pos = n.weight((1, seq, hidden), hidden, f"{emb}/position_embeddings", 0.5, quantize=False)
    n.n_params += (512 - seq) * hidden + 2 * hidden  # the rest of the position / type tables
    x = n.add(x, pos, f"{emb}/add")
    x = _layer_norm(n, x, f"{emb}/LayerNorm")
    n.n_params += 2 * hidden
    for layer in range(layers):
        x = _bert_layer(n, x, f"bert/encoder/layer.{layer}", hidden, heads, ffn)
    if qa:
        logits = n.fc(x, 2, "qa_outputs")
        return n.outputs(model_cls, [logits], [ids], name)
    first = n.ops.gather(x, n.ints(0, "bert/pooler/first_token"), n.ints(1, "bert/pooler/axis"),
                         name="bert/pooler/Gather").output(0)
    pooled = n.fc(first, hidden, "bert/pooler/dense", relu="bert/pooler/Tanh", act="tanh")
    return n.outputs(model_cls, [pooled], [ids], name)


def _bert_layer(n, x: Any, name: str, h: int, heads: int, ffn: int) -> Any:
    att = f"{name}/attention"

    def split_heads(t: Any, what: str) -> Any:
        t = n.ops.reshape(t, n.ints([0, 0, heads, h // heads], f"{att}/{what}/shape"), True,
                          name=f"{att}/{what}/Reshape")
        return n.ops.transpose(t, n.ints([0, 2, 1, 3], f"{att}/{what}/order"),
                               name=f"{att}/{what}/Transpose").output(0)

    q = split_heads(n.fc(x, h, f"{att}/query"), "query")
    k = split_heads(n.fc(x, h, f"{att}/key"), "key")
    v = split_heads(n.fc(x, h, f"{att}/value"), "value")
    scores = n.ops.matmul(q, k, False, True, name=f"{att}/MatMul")
    scores = n.ops.multiply(scores, n.const(np.array(1.0 / math.sqrt(h // heads)),
                                            f"{att}/scale"), name=f"{att}/Mul")
    probs = n.ops.softmax(scores, -1, name=f"{att}/Softmax")
    ctx = n.ops.matmul(probs, v, False, False, name=f"{att}/MatMul_1")
    ctx = n.ops.transpose(ctx, n.ints([0, 2, 1, 3], f"{att}/context/order"),
                          name=f"{att}/context/Transpose")
    ctx = n.ops.reshape(ctx, n.ints([0, 0, h], f"{att}/context/shape"), True,
                        name=f"{att}/context/Reshape").output(0)
    y = n.fc(ctx, h, f"{att}/output/dense", gain=0.5)
    x = _layer_norm(n, n.add(y, x, f"{att}/output/add"), f"{att}/output/LayerNorm")
    y = n.fc(x, ffn, f"{name}/intermediate/dense", relu=f"{name}/intermediate/Gelu", act="gelu")
    y = n.fc(y, h, f"{name}/output/dense", gain=0.5)
    n.n_params += 4 * h
    return _layer_norm(n, n.add(y, x, f"{name}/output/add"), f"{name}/output/LayerNorm")


def _bert_base_cased(n, model_cls):
    return _bert(n, model_cls, name="bert-base-cased", vocab=28996, hidden=768, layers=12,
                 heads=12, ffn=3072, seq=128, qa=False)


def _bert_large_squad(n, model_cls):
    return _bert(n, model_cls, name="bert-large-uncased-whole-word-masking-squad-0001",
                 vocab=30522, hidden=1024, layers=24, heads=16, ffn=4096, seq=384, qa=True)


# --- detectors and segmenters --------------------------------------------------------------------
_MNV1 = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
         (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]


def _ssd_mobilenet_v1(n, model_cls):
    """TF ssd_mobilenet_v1_coco: MobileNet-v1 at 300x300, 4 extra stages, 1x1 box predictors
    (3 anchors on the 19x19 map, 6 elsewhere; 91 classes)."""
    data = n.param([1, 3, 300, 300], name="image_tensor")
    x = n.conv(data.output(0), 32, 3, "Conv2d_0", s=2, relu="Conv2d_0/Relu6", act="relu6")
    cin, maps = 32, []
    for i, (cout, s) in enumerate(_MNV1, 1):
        x = n.conv(x, cin, 3, f"Conv2d_{i}_depthwise", s=s, groups=cin,
                   relu=f"Conv2d_{i}_depthwise/Relu6", act="relu6")
        x = n.conv(x, cout, 1, f"Conv2d_{i}_pointwise", relu=f"Conv2d_{i}_pointwise/Relu6",
                   act="relu6")
        cin = cout
        if i in (11, 13):
            maps.append(x)
    for i, (mid, cout) in enumerate(((256, 512), (128, 256), (128, 256), (64, 128)), 2):
        x = n.conv(x, mid, 1, f"extra_{i}_1x1", relu=f"extra_{i}_1x1/Relu6", act="relu6")
        x = n.conv(x, cout, 3, f"extra_{i}_3x3", s=2, relu=f"extra_{i}_3x3/Relu6", act="relu6")
        maps.append(x)
    outs = []
    for i, m in enumerate(maps):
        anchors = 3 if i == 0 else 6
        outs.append(n.conv(m, anchors * 4, 1, f"BoxPredictor_{i}/BoxEncodingPredictor"))
        outs.append(n.conv(m, anchors * 91, 1, f"BoxPredictor_{i}/ClassPredictor"))
    return n.outputs(model_cls, outs, [data], "ssd_mobilenet_v1_coco")


def _c2f(n, x: Any, cout: int, reps: int, shortcut: bool, name: str) -> Any:
    c = cout // 2
    y = n.conv(x, 2 * c, 1, f"{name}/cv1", relu=f"{name}/cv1/act", act="swish")
    parts = n.ops.split(y, n.ints(1, f"{name}/axis"), 2, name=f"{name}/split")
    outs = [parts.output(0), parts.output(1)]
    z = outs[-1]
    for i in range(reps):
        b = f"{name}/m.{i}"
        t = n.conv(z, c, 3, f"{b}/cv1", relu=f"{b}/cv1/act", act="swish")
        t = n.conv(t, c, 3, f"{b}/cv2", relu=f"{b}/cv2/act", act="swish")
        z = n.add(z, t, f"{b}/add") if shortcut else t
        outs.append(z)
    return n.conv(n.concat(outs, f"{name}/concat"), cout, 1, f"{name}/cv2",
                  relu=f"{name}/cv2/act", act="swish")


def _yolo_v8n(n, model_cls):
    """Ultralytics YOLOv8n (width 0.25, depth 0.33) at 640x640: backbone, PAN neck, the
    decoupled detect head of each scale (box branch 64 channels, class branch 80)."""
    data = n.param([1, 3, 640, 640], name="images")

    def cv(x, c, k, s, name):
        return n.conv(x, c, k, name, s=s, relu=f"{name}/act", act="swish")

    x = cv(data.output(0), 16, 3, 2, "model.0")
    x = cv(x, 32, 3, 2, "model.1")
    x = _c2f(n, x, 32, 1, True, "model.2")
    x = cv(x, 64, 3, 2, "model.3")
    p3 = _c2f(n, x, 64, 2, True, "model.4")
    x = cv(p3, 128, 3, 2, "model.5")
    p4 = _c2f(n, x, 128, 2, True, "model.6")
    x = cv(p4, 256, 3, 2, "model.7")
    x = _c2f(n, x, 256, 1, True, "model.8")
    y = cv(x, 128, 1, 1, "model.9/cv1")  # SPPF
    pools = [y]
    for i in range(3):
        pools.append(n.ops.max_pool(pools[-1], [1, 1], [1, 1], [2, 2], [2, 2], [5, 5],
                                    name=f"model.9/m.{i}").output(0))
    p5 = cv(n.concat(pools, "model.9/concat"), 256, 1, 1, "model.9/cv2")
    x = n.concat([n.up(p5, 2, "model.10"), p4], "model.11")
    h4 = _c2f(n, x, 128, 1, False, "model.12")
    x = n.concat([n.up(h4, 2, "model.13"), p3], "model.14")
    o3 = _c2f(n, x, 64, 1, False, "model.15")
    x = n.concat([cv(o3, 64, 3, 2, "model.16"), h4], "model.17")
    o4 = _c2f(n, x, 128, 1, False, "model.18")
    x = n.concat([cv(o4, 128, 3, 2, "model.19"), p5], "model.20")
    o5 = _c2f(n, x, 256, 1, False, "model.21")
    outs = []
    for i, o in enumerate((o3, o4, o5)):
        b = cv(cv(o, 64, 3, 1, f"model.22.cv2.{i}.0"), 64, 3, 1, f"model.22.cv2.{i}.1")
        b = n.conv(b, 64, 1, f"model.22.cv2.{i}.2")
        c = cv(cv(o, 80, 3, 1, f"model.22.cv3.{i}.0"), 80, 3, 1, f"model.22.cv3.{i}.1")
        c = n.conv(c, 80, 1, f"model.22.cv3.{i}.2")
        outs.append(n.concat([b, c], f"model.22/concat_{i}"))
    return n.outputs(model_cls, outs, [data], "yolo_v8n")


def _unet_camvid(n, model_cls):
    """U-Net (Ronneberger et al.) on 368x480 CamVid frames: 4 down and 4 up stages of two
    3x3 convolutions (64 ... 1024 channels), 2x2 transposed convolutions, 12 classes."""
    data = n.param([1, 3, 368, 480], name="input.1")
    x, skips, c = data.output(0), [], 64
    for i in range(4):
        x = n.conv(x, c, 3, f"down{i}/conv1", relu=f"down{i}/relu1")
        x = n.conv(x, c, 3, f"down{i}/conv2", relu=f"down{i}/relu2")
        skips.append(x)
        x = n.maxpool(x, 2, 2, f"down{i}/pool", ceil=False)
        c *= 2
    x = n.conv(x, c, 3, "bottom/conv1", relu="bottom/relu1")
    x = n.conv(x, c, 3, "bottom/conv2", relu="bottom/relu2")
    for i in range(4):
        c //= 2
        cin = x.get_shape()[1]
        w = n.weight((cin, c, 2, 2), cin * 4, f"up{i}/deconv/weights")
        x = n.ops.convolution_backprop_data(n._quantize_input(x, f"up{i}/deconv"), w, [2, 2],
                                            pads_begin=[0, 0], pads_end=[0, 0],
                                            dilations=[1, 1], name=f"up{i}/deconv").output(0)
        n.n_params += c
        x = n.concat([skips.pop(), x], f"up{i}/concat")
        x = n.conv(x, c, 3, f"up{i}/conv1", relu=f"up{i}/relu1")
        x = n.conv(x, c, 3, f"up{i}/conv2", relu=f"up{i}/relu2")
    return n.outputs(model_cls, [n.conv(x, 12, 1, "outc")], [data], "unet-camvid-onnx-0001")


def _basic_block(n, x, c, s, name):
    y = n.conv(x, c, 3, f"{name}/conv1", s=s, relu=f"{name}/relu1")
    y = n.conv(y, c, 3, f"{name}/conv2", gain=0.5)
    if s != 1 or x.get_shape()[1] != c:
        x = n.conv(x, c, 1, f"{name}/downsample", s=s, p=0)
    return n.relu(n.add(x, y, f"{name}/add"), f"{name}/relu")


def _ssd_resnet34(n, model_cls):
    """MLPerf SSD-ResNet34 at 1200x1200: ResNet-34 through layer3 (its first block at stride
    1, so layer3 runs at 150x150), 5 extra stages (stride 3, 2, 2, 2, 1) and 3x3 heads on six
    maps (4, 6, 6, 6, 4, 4 anchors; 81 classes)."""
    data = n.param([1, 3, 1200, 1200], name="image")
    x = n.conv(data.output(0), 64, 7, "conv1", s=2, relu="relu1")
    x = n.maxpool(x, 3, 2, "pool1", p=1, ceil=False)
    for stage, (c, blocks, s) in enumerate(((64, 3, 1), (128, 4, 2), (256, 6, 1)), 1):
        for b in range(blocks):
            x = _basic_block(n, x, c, s if b == 0 else 1, f"layer{stage}.{b}")
    maps = []
    x = n.conv(x, 256, 1, "extra0/1x1", relu="extra0/relu1")
    x = n.conv(x, 512, 3, "extra0/3x3", s=3, p=1, relu="extra0/relu2")  # 50x50
    maps.append(x)
    for i, (mid, cout, s, p) in enumerate(((256, 512, 2, 1), (128, 256, 2, 1), (128, 256, 2, 1),
                                           (128, 256, 2, 0), (128, 256, 1, 0)), 1):
        x = n.conv(x, mid, 1, f"extra{i}/1x1", relu=f"extra{i}/relu1")
        x = n.conv(x, cout, 3, f"extra{i}/3x3", s=s, p=p, relu=f"extra{i}/relu2")
        maps.append(x)
    outs = []
    for i, (m, a) in enumerate(zip(maps, (4, 6, 6, 6, 4, 4), strict=True)):
        outs.append(n.conv(m, a * 4, 3, f"loc.{i}"))
        outs.append(n.conv(m, a * 81, 3, f"conf.{i}"))
    return n.outputs(model_cls, outs, [data], "ssd-resnet34-1200")


def _darknet_conv(n, x, c, k, s, name):
    return n.conv(x, c, k, name, s=s, relu=f"{name}/leaky", act="leaky", bias=False)


def _yolo_v3(n, model_cls):
    """YOLOv3 (Darknet-53 and three detection scales) at 416x416, 80 classes."""
    data = n.param([1, 3, 416, 416], name="input_1")
    x = _darknet_conv(n, data.output(0), 32, 3, 1, "conv_0")
    routes = []
    for stage, (c, blocks) in enumerate(((64, 1), (128, 2), (256, 8), (512, 8), (1024, 4))):
        x = _darknet_conv(n, x, c, 3, 2, f"stage{stage}/down")
        for b in range(blocks):
            y = _darknet_conv(n, x, c // 2, 1, 1, f"stage{stage}.{b}/conv1")
            y = _darknet_conv(n, y, c, 3, 1, f"stage{stage}.{b}/conv2")
            x = n.add(x, y, f"stage{stage}.{b}/add")
        routes.append(x)
    outs = []
    for scale, c in enumerate((512, 256, 128)):
        if scale:
            x = _darknet_conv(n, x, c, 1, 1, f"head{scale}/reduce")
            x = n.concat([n.up(x, 2, f"head{scale}/up"), routes[4 - scale]], f"head{scale}/cat")
        for j in range(2):
            x = _darknet_conv(n, x, c, 1, 1, f"head{scale}/conv{2 * j}")
            x = _darknet_conv(n, x, 2 * c, 3, 1, f"head{scale}/conv{2 * j + 1}")
        x = _darknet_conv(n, x, c, 1, 1, f"head{scale}/conv4")
        y = _darknet_conv(n, x, 2 * c, 3, 1, f"head{scale}/conv5")
        outs.append(n.conv(y, 255, 1, f"head{scale}/out"))
    return n.outputs(model_cls, outs, [data], "yolo_v3")


def _inverted_residual(n, x, t, c, s, name, dilation=1, act="relu6", se=False, k=3):
    cin = x.get_shape()[1]
    y = x
    if t != 1:
        y = n.conv(y, cin * t, 1, f"{name}/expand", relu=f"{name}/expand/act", act=act,
                   bias=False)
    w = cin * t
    y = n.conv(y, w, k, f"{name}/depthwise", s=s, groups=w, relu=f"{name}/depthwise/act",
               act=act, dilation=dilation, bias=False)
    if se:
        sq = n.ops.reduce_mean(y, n.ints([2, 3], f"{name}/se/axes"), True,
                               name=f"{name}/se/pool").output(0)
        sq = n.conv(sq, max(1, cin // 4), 1, f"{name}/se/reduce", relu=f"{name}/se/act",
                    act="swish")
        sq = n.conv(sq, w, 1, f"{name}/se/expand", relu=f"{name}/se/gate", act="sigmoid")
        y = n.ops.multiply(y, sq, name=f"{name}/se/scale").output(0)
    y = n.conv(y, c, 1, f"{name}/project", gain=0.5, bias=False)
    if s == 1 and cin == c:
        y = n.add(x, y, f"{name}/add")
    return y


def _deeplabv3(n, model_cls):
    """DeepLab v3 with a MobileNet-v2 backbone at output stride 8 (dilated stages), 513x513,
    an ASPP-lite head (image pooling and a 1x1 branch) and 21 classes."""
    data = n.param([1, 3, 513, 513], name="ImageTensor")
    x = n.conv(data.output(0), 32, 3, "Conv", s=2, relu="Conv/Relu6", act="relu6", bias=False)
    stride, dilation = 2, 1
    for si, (t, c, reps, s) in enumerate(_MOBILENET_V2):
        for i in range(reps):
            step = s if i == 0 else 1
            if step == 2 and stride >= 8:
                dilation, step = dilation * 2, 1
            elif step == 2:
                stride *= 2
            x = _inverted_residual(n, x, t, c, step, f"expanded_conv_{si}_{i}",
                                   dilation=dilation)
    pooled = n.ops.reduce_mean(x, n.ints([2, 3], "image_pooling/axes"), True,
                               name="image_pooling").output(0)
    pooled = n.conv(pooled, 256, 1, "image_pooling/conv", relu="image_pooling/relu")
    pooled = n.ops.interpolate(pooled, n.ints(list(x.get_shape()[2:]), "image_pooling/size"),
                               "nearest", "sizes", axes=n.ints([2, 3], "image_pooling/axes2"),
                               name="image_pooling/resize").output(0)
    aspp = n.conv(x, 256, 1, "aspp0", relu="aspp0/relu")
    y = n.conv(n.concat([pooled, aspp], "concat"), 256, 1, "concat_projection",
               relu="concat_projection/relu")
    y = n.conv(y, 21, 1, "logits")
    y = n.ops.interpolate(y, n.ints([513, 513], "ResizeBilinear/size"), "linear", "sizes",
                          axes=n.ints([2, 3], "ResizeBilinear/axes"),
                          name="ResizeBilinear").output(0)
    return n.outputs(model_cls, [y], [data], "deeplabv3")


# MobileNet-v2 1.0 (as zoo.py's): expansion, channels, repeats, first stride per stage
_MOBILENET_V2 = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                 (6, 160, 3, 2), (6, 320, 1, 1)]
_EFFNET_B0 = [(1, 16, 1, 1, 3), (6, 24, 2, 2, 3), (6, 40, 2, 2, 5), (6, 80, 3, 2, 3),
              (6, 112, 3, 1, 5), (6, 192, 4, 2, 5), (6, 320, 1, 1, 3)]


def _efficientdet_d0(n, model_cls):
    """EfficientDet-D0 at 512x512: EfficientNet-B0 (MBConv with squeeze-excite, swish), a
    BiFPN of 3 layers at 64 channels on P3-P7, box and class nets of 3 separable layers
    (9 anchors, 90 classes)."""
    data = n.param([1, 3, 512, 512], name="image_arrays")
    x = n.conv(data.output(0), 32, 3, "stem", s=2, relu="stem/act", act="swish", bias=False)
    feats = []
    for si, (t, c, reps, s, k) in enumerate(_EFFNET_B0):
        for i in range(reps):
            x = _inverted_residual(n, x, t, c, s if i == 0 else 1, f"block{si}{i}", act="swish",
                                   se=True, k=k)
        if si in (2, 4, 6):
            feats.append(x)
    p3, p4, p5 = (n.conv(f, 64, 1, f"fpn/resample_{i}") for i, f in enumerate(feats))
    p6 = n.maxpool(n.conv(feats[2], 64, 1, "fpn/p6/conv"), 3, 2, "fpn/p6/pool", p=1, ceil=False)
    p7 = n.maxpool(p6, 3, 2, "fpn/p7/pool", p=1, ceil=False)
    levels = [p3, p4, p5, p6, p7]

    def sep(x, name, act=True, cout=64, shared=""):
        y = n.conv(x, 64, 3, f"{name}/dw", groups=64, bias=False, share=shared and f"{shared}/dw")
        return n.conv(y, cout, 1, f"{name}/pw", relu=f"{name}/act" if act else None,
                      act="swish", share=shared and f"{shared}/pw")

    for layer in range(3):
        top = [None] * 5
        top[4] = levels[4]
        for i in (3, 2, 1, 0):
            up = n.up(top[i + 1], 2, f"bifpn{layer}/up{i}")
            top[i] = sep(n.add(levels[i], up, f"bifpn{layer}/td{i}/add"), f"bifpn{layer}/td{i}")
        out = [top[0]]
        for i in (1, 2, 3, 4):
            down = n.maxpool(out[-1], 3, 2, f"bifpn{layer}/down{i}", p=1, ceil=False)
            y = n.add(n.add(levels[i], top[i], f"bifpn{layer}/bu{i}/add0"), down,
                      f"bifpn{layer}/bu{i}/add1")
            out.append(sep(y, f"bifpn{layer}/bu{i}"))
        levels = out
    outs = []
    for i, lv in enumerate(levels):
        b, c = lv, lv
        for j in range(3):  # the box and class nets' weights are shared by the five levels
            b = sep(b, f"box{i}/{j}", shared=f"box/{j}")
            c = sep(c, f"class{i}/{j}", shared=f"class/{j}")
        outs.append(sep(b, f"box{i}/predict", act=False, cout=9 * 4, shared="box/predict"))
        outs.append(sep(c, f"class{i}/predict", act=False, cout=9 * 90, shared="class/predict"))
    return n.outputs(model_cls, outs, [data], "efficientdet-d0")


def _bottleneck(n, x, c, s, name, dilation=1):
    y = n.conv(x, c, 1, f"{name}/conv1", s=s, relu=f"{name}/relu1", bias=False)
    y = n.conv(y, c, 3, f"{name}/conv2", dilation=dilation, relu=f"{name}/relu2", bias=False)
    y = n.conv(y, 4 * c, 1, f"{name}/conv3", gain=0.5, bias=False)
    if s != 1 or x.get_shape()[1] != 4 * c:
        x = n.conv(x, 4 * c, 1, f"{name}/shortcut", s=s, p=0, bias=False)
    return n.relu(n.add(x, y, f"{name}/add"), f"{name}/relu")


def _mask_rcnn(n, model_cls):
    """TF mask_rcnn_resnet50_atrous_coco at 800x1365: ResNet-50 to conv4 (stride 16), the RPN
    (12 anchors), and the second stage on 100 proposals cropped to 14x14 (the ROI crop as a
    fixed reshape of the feature map: its cost, not its sampling): conv5 blocks with atrous
    rate 2 as the box head, box and class layers, and the mask head (4 convolutions, a 2x2
    transposed convolution, 90 classes)."""
    data = n.param([1, 3, 800, 1365], name="image_tensor")
    x = n.conv(data.output(0), 64, 7, "conv1", s=2, relu="conv1/relu", bias=False)
    x = n.maxpool(x, 3, 2, "pool1", p=1, ceil=False)
    for stage, (c, blocks, s) in enumerate(((64, 3, 1), (128, 4, 2), (256, 6, 2)), 2):
        for b in range(blocks):
            x = _bottleneck(n, x, c, s if b == 0 else 1, f"block{stage}.{b}")
    rpn = n.conv(x, 512, 3, "rpn/conv", relu="rpn/relu")
    rpn_box = n.conv(rpn, 12 * 4, 1, "rpn/box")
    rpn_cls = n.conv(rpn, 12 * 2, 1, "rpn/class")
    # 100 proposals x 1024 channels x 14 x 14 from the conv4 map: a Slice and a Reshape stand
    # for the crop (they move the same bytes)
    rois = n.ops.interpolate(x, n.ints([140, 140], "crop/size"), "linear", "sizes",
                             axes=n.ints([2, 3], "crop/axes"), name="crop").output(0)
    rois = n.ops.reshape(n.ops.transpose(
        n.ops.reshape(rois, n.ints([1024, 10, 14, 10, 14], "crop/r1"), False, name="crop/r1"),
        n.ints([1, 3, 0, 2, 4], "crop/t"), name="crop/t"),
        n.ints([100, 1024, 14, 14], "crop/r2"), False, name="crop/rois").output(0)
    y = n.maxpool(rois, 2, 2, "crop/pool", ceil=False)  # 7x7
    for b in range(3):
        y = _bottleneck(n, y, 512, 1, f"block5.{b}", dilation=2)
    pooled = n.ops.reduce_mean(y, n.ints([2, 3], "box/axes"), False, name="box/pool").output(0)
    box = n.fc(pooled, 90 * 4, "box/encoding")
    cls = n.fc(pooled, 91, "box/class")
    m = rois
    for j in range(4):
        m = n.conv(m, 256, 3, f"mask/conv{j}", relu=f"mask/relu{j}")
    w = n.weight((256, 256, 2, 2), 256 * 4, "mask/deconv/weights")
    m = n.ops.convolution_backprop_data(n._quantize_input(m, "mask/deconv"), w, [2, 2],
                                        pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1],
                                        name="mask/deconv").output(0)
    m = n.conv(n.relu(m, "mask/deconv/relu"), 90, 1, "mask/predict")
    return n.outputs(model_cls, [rpn_box, rpn_cls, box, cls, m], [data],
                     "mask_rcnn_resnet50_atrous_coco")


BUILDERS: dict[str, Callable[..., Any]] = {
    "bert-base-cased": _bert_base_cased,
    "bert-large-uncased-whole-word-masking-squad-0001": _bert_large_squad,
    "ssd_mobilenet_v1_coco": _ssd_mobilenet_v1,
    "yolo_v8n": _yolo_v8n,
    "unet-camvid-onnx-0001": _unet_camvid,
    "ssd-resnet34-1200": _ssd_resnet34,
    "yolo_v3": _yolo_v3,
    "deeplabv3": _deeplabv3,
    "efficientdet-d0": _efficientdet_d0,
    "mask_rcnn_resnet50_atrous_coco": _mask_rcnn,
}
