"""Run openvinotoolkit/openvino_notebooks notebooks on ovlab, cell by cell.

    python tools/run_ov_notebooks.py [--source DIR] [--work DIR] [--real] [NAME ...]

NAME is one of ``NOTEBOOKS`` (default: all that are present). The notebooks are third-party code
and never committed: they are read from ``--source`` (default
``tests/third_party/openvino_notebooks``, git-ignored), a checkout of the repository or a folder
laid out like it (``notebooks/<topic>/<topic>.ipynb``; ``tools/ov_notebook_from_rst.py`` rebuilds
one from OpenVINO's rendered copy when the ``.ipynb`` is too large to fetch). Each notebook is copied into ``--work``
(default ``build/ov_notebooks``) and changed in three ways only:

1. ``%load_ext ovlab`` is inserted as the first cell, so ``import openvino`` is ovlab's;
2. ``%pip install ...`` lines become comments (they would install the real ``openvino``);
3. the model downloads are served by local files (and a line that downloads a model through a
   framework, listed in ``MODEL_LINES``, builds a local model instead: performance-tricks'
   YOLOv5n from PyTorch Hub becomes ``yolov5n_standin`` below, auto-device's torchvision
   ResNet-50 keeps its architecture with random weights, ``weights=None``; a whole cell can be
   replaced through ``MODEL_CELLS``): the work folder gets a ``notebook_utils.py``
   of ours (the real one is fetched from GitHub by the notebooks' first cell when it is
   missing) whose ``download_file`` writes the local stand-in of each file named in
   ``LOCAL_FILES`` and refuses, naming the URL, any file that has none.

Then it executes the copy with nbclient (errors do not stop it) and prints, cell by cell, what
ran and what failed with the error's first line. Exit status: 0 when every notebook ran fully.

``LOCAL_FILES``, the documented mapping (the models are ovlab's, real topology and random
weights, so the numbers a notebook prints are not the real model's):

- ``classification.xml/.bin`` (MobileNetV3, 1x3x224x224 -> 1x1001): zoo ``mobilenet-v2``
  (1x3x224x224 -> 1x1000), saved as IR;
- ``segmentation.xml/.bin`` and ``segmentation.onnx`` (1x3x512x512 -> 1x1x512x512): a small
  fully convolutional net of the same input and output shapes (three 3x3 convolutions, ReLU,
  sigmoid), as IR and as ONNX;
- ``v3-small_224_1.0_float.xml/.bin`` (hello-world's MobileNetV3, a TensorFlow model that
  takes 1x224x224x3 NHWC): zoo ``mobilenet-v2`` behind a PrePostProcessor that takes NHWC;
- ``imagenet_2012.txt``: 1000 synthetic ``nXXXXXXXX class i`` lines (the zoo's weights are
  random, so real class names would mean nothing);
- the sample images ``coco_hollywood.jpg``, ``coco.jpg``, ``coco_bike.jpg``: a synthetic RGB
  picture of the same size (seeded noise over colour gradients), written with Pillow;
- ``person-detection-0202`` (async-api, fetched with ``omz_downloader``: 1x3x512x512 ->
  1x1x200x7 detections): a small net of the same shapes (32x32 average pooling, a 1x1
  convolution to 7 channels, a 256->200 MatMul, sigmoid), as IR;
- the async-api video (``CEO Pat Gelsinger on Leading Intel.mp4``): 805 synthetic 640x360
  frames at 30 fps (a moving square), written with OpenCV; the notebook skips 800 of them, so
  1/6 s of video remains (the stand-in detector takes about 0.2 ms, and every loop iteration
  encodes and displays a frame: a longer video only costs wall time).

Two more things are served, as downloads too: the notebooks' fetch of ``notebook_utils.py``
from GitHub (``requests.get`` of that URL returns our stand-in), and ``! omz_downloader ...``
shell lines, which call the stand-in's ``omz_downloader``. The stand-in's ``VideoPlayer`` is the
real one's behaviour written anew: a thread reads frames at the video's rate, sleeping between
them (on ovlab, on the simulated clock), and ``next()`` returns the latest.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "tests" / "third_party" / "openvino_notebooks"
DEFAULT_WORK = ROOT / "build" / "ov_notebooks"

NOTEBOOKS = {
    "hello-world": "notebooks/hello-world/hello-world.ipynb",
    "openvino-api": "notebooks/openvino-api/openvino-api.ipynb",
    "auto-device": "notebooks/auto-device/auto-device.ipynb",
    "async-api": "notebooks/async-api/async-api.ipynb",
    "throughput-tricks": "notebooks/performance-tricks/throughput-tricks.ipynb",
    "latency-tricks": "notebooks/performance-tricks/latency-tricks.ipynb",
}

# file name -> (what it stands for, the recipe that writes it); see the module docstring
LOCAL_FILES = {
    "classification.xml": "zoo:mobilenet-v2",
    "classification.bin": "zoo:mobilenet-v2",
    "v3-small_224_1.0_float.xml": "zoo-nhwc:mobilenet-v2",
    "v3-small_224_1.0_float.bin": "zoo-nhwc:mobilenet-v2",
    "segmentation.xml": "fcn:512",
    "segmentation.bin": "fcn:512",
    "segmentation.onnx": "fcn-onnx:512",
    "coco_hollywood.jpg": "image:994x663",
    "coco.jpg": "image:640x427",
    "coco_bike.jpg": "image:640x480",
    "imagenet_2012.txt": "labels:1000",
    "person-detection-0202.xml": "det:512",
    "person-detection-0202.bin": "det:512",
    "CEO Pat Gelsinger on Leading Intel.mp4": "video:640x360x30x805",
}

# Model cells that download weights through a framework (not download_file), found by a line
# they contain: the cell is replaced by reading the local stand-in (its code kept as comments).
MODEL_CELLS: dict[str, str] = {}

# Model lines that download a model through a framework hub, found by what they contain: only
# that line is replaced (the original kept as a comment), by a local model of ours.
MODEL_LINES = {
    # performance-tricks: YOLOv5n (code and weights) from PyTorch Hub
    'torch.hub.load("ultralytics/yolov5"': (
        'pytorch_model = __import__("notebook_utils").yolov5n_standin(path=model_path)'),
    # auto-device: torchvision's ResNet-50 with its weights downloaded; the same architecture
    # with random weights (ov.convert_model converts it through torch.onnx.export)
    'torchvision.models.resnet50(weights="DEFAULT")': (
        'pt_model = torchvision.models.resnet50(weights=None)'),
}

# Our notebook_utils.py: the names the notebooks import from the real one, written anew.
NOTEBOOK_UTILS = '''
"""ovlab's stand-in for openvino_notebooks' utils/notebook_utils.py (tools/run_ov_notebooks.py):
downloads are served by local files, the device widget lists ovlab's devices."""
from pathlib import Path

LOCAL_FILES = {local_files!r}


def download_file(url, filename=None, directory=None, show_progress=True, timeout=10):
    name = filename or url.rstrip("/").rsplit("/", 1)[-1]
    folder = Path(directory) if directory else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if name not in LOCAL_FILES:
        raise RuntimeError(f"ovlab run of openvino_notebooks: no local stand-in for {{url}} "
                           "(no network; see LOCAL_FILES in tools/run_ov_notebooks.py)")
    if not path.exists():
        _write(LOCAL_FILES[name], path)
    return path.resolve()


def _write(recipe, path):
    import numpy as np
    import openvino as ov

    kind, _, arg = recipe.partition(":")
    stem = path.with_suffix("")
    if kind == "zoo":
        import ovlab
        ov.save_model(ovlab.zoo.load(arg), str(stem) + ".xml")
    elif kind == "zoo-nhwc":
        import ovlab
        from openvino.preprocess import PrePostProcessor

        ppp = PrePostProcessor(ovlab.zoo.load(arg))
        ppp.input().tensor().set_layout(ov.Layout("NHWC"))
        ppp.input().model().set_layout(ov.Layout("NCHW"))
        ov.save_model(ppp.build(), str(stem) + ".xml")
    elif kind == "det":
        ov.save_model(_detector(int(arg)), str(stem) + ".xml")
    elif kind == "video":
        _video(path, *(int(v) for v in arg.split("x")))
    elif kind == "labels":
        path.write_text("".join(f"n{{i:08d}} class {{i}}\\n" for i in range(int(arg))))
    elif kind == "fcn":
        ov.save_model(_fcn(int(arg)), str(stem) + ".xml")
    elif kind == "fcn-onnx":
        _fcn_onnx(int(arg), path)
    elif kind == "image":
        from PIL import Image

        w, h = (int(v) for v in arg.split("x"))
        rng = np.random.default_rng(0)
        y, x = np.mgrid[0:h, 0:w]
        rgb = np.stack([x * 255 // w, y * 255 // h, (x + y) * 255 // (w + h)], -1)
        rgb = np.clip(rgb + rng.integers(-20, 20, rgb.shape), 0, 255).astype(np.uint8)
        Image.fromarray(rgb).save(path)


def _fcn(size):
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    rng = np.random.default_rng(0)
    x = ops.parameter([1, 3, size, size], np.float32, name="input")
    h = x
    for cin, cout in ((3, 8), (8, 8), (8, 1)):
        w = ops.constant((rng.standard_normal((cout, cin, 3, 3)) * 0.2).astype(np.float32))
        h = ops.convolution(h, w, [1, 1], [1, 1], [1, 1], [1, 1])
        h = ops.relu(h) if cout != 1 else ops.sigmoid(h)
    h.output(0).get_tensor().set_names({{"output"}})
    return ov.Model([h], [x], "segmentation")


def _fcn_onnx(size, path):
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    nodes, inits, prev = [], [], "input"
    for i, (cin, cout) in enumerate(((3, 8), (8, 8), (8, 1))):
        w = (rng.standard_normal((cout, cin, 3, 3)) * 0.2).astype(np.float32)
        inits.append(numpy_helper.from_array(w, f"w{{i}}"))
        nodes.append(helper.make_node("Conv", [prev, f"w{{i}}"], [f"c{{i}}"], pads=[1, 1, 1, 1]))
        act = "Relu" if cout != 1 else "Sigmoid"
        out = f"a{{i}}" if cout != 1 else "output"
        nodes.append(helper.make_node(act, [f"c{{i}}"], [out]))
        prev = out
    graph = helper.make_graph(
        nodes, "segmentation",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, size, size])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def _detector(size):
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    rng = np.random.default_rng(1)
    x = ops.parameter([1, 3, size, size], np.float32, name="image")
    h = ops.avg_pool(x, [32, 32], [0, 0], [0, 0], [32, 32], True)
    w = ops.constant((rng.standard_normal((7, 3, 1, 1)) * 0.05).astype(np.float32))
    h = ops.convolution(h, w, [1, 1], [0, 0], [0, 0], [1, 1])
    cells = (size // 32) ** 2
    h = ops.reshape(h, ops.constant(np.array([1, 7, cells], np.int64)), False)
    m = ops.constant((rng.standard_normal((cells, 200)) * 0.05).astype(np.float32))
    h = ops.transpose(ops.matmul(h, m, False, False), ops.constant(np.array([0, 2, 1])))
    h = ops.sigmoid(ops.reshape(h, ops.constant(np.array([1, 1, 200, 7], np.int64)), False))
    h.output(0).get_tensor().set_names({{"detection_out"}})
    return ov.Model([h], [x], "person-detection-0202")


def _video(path, w, h, fps, frames):
    import cv2
    import numpy as np

    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    for i in range(frames):
        frame = np.full((h, w, 3), 40, np.uint8)
        x = (i * 7) % (w - 60)
        frame[100:160, x:x + 60] = (0, 200, 255)
        out.write(frame)
    out.release()


def local_path(url_or_path):
    """The local stand-in file of a download URL (written on first use), or None."""
    from urllib.parse import unquote

    name = unquote(str(url_or_path).rstrip("/").rsplit("/", 1)[-1])
    if name not in LOCAL_FILES:
        return None
    path = Path("data") / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(LOCAL_FILES[name], path)
    return path


def serve_downloads():
    """``requests.get`` of notebook_utils.py returns this file (no network in ovlab runs)."""
    import requests

    real_get = requests.get

    class _Response:
        status_code = 200

        def __init__(self, text):
            self.text = text
            self.content = text.encode()

        def raise_for_status(self):
            pass

    def get(url, *args, **kwargs):
        if str(url).endswith("/notebook_utils.py"):
            return _Response(Path(__file__).read_text())
        return real_get(url, *args, **kwargs)

    requests.get = get


def omz_downloader(command):
    """``omz_downloader --name N --precision P --output_dir D``: the stand-in of model N."""
    import shlex

    args = shlex.split(command)
    opts = dict(zip(args[1::2], args[2::2]))
    name, precision = opts["--name"], opts.get("--precision", "FP32")
    folder = Path(opts.get("--output_dir", ".")) / "intel" / name / precision
    download_file(f"omz://{{name}}.xml", f"{{name}}.xml", folder)
    print(f"[ovlab] {{name}}: the local stand-in is in {{folder}} (tools/run_ov_notebooks.py)")


class VideoPlayer:
    """openvino_notebooks' VideoPlayer, written anew: a thread reads the frames at the video's
    rate (sleeping between them) and ``next()`` returns the latest one, None once it ended."""

    def __init__(self, source, size=None, flip=False, fps=None, skip_first_frames=0,
                 width=1280, height=720):
        import threading

        import cv2

        self._cv2 = cv2
        local = local_path(source) if isinstance(source, str) else None
        self._cap = cv2.VideoCapture(str(local) if local else source)
        if not self._cap.isOpened():
            raise RuntimeError(f"Cannot open {{'camera' if isinstance(source, int) else ''}} "
                               f"{{source}}")
        self._cap.set(cv2.CAP_PROP_POS_FRAMES, skip_first_frames)
        self._input_fps = self._cap.get(cv2.CAP_PROP_FPS)
        if self._input_fps <= 0:
            self._input_fps = 60
        self._output_fps = fps if fps is not None else self._input_fps
        self._flip, self._size = flip, size
        _, self._frame = self._cap.read()
        self._lock = threading.Lock()
        self._thread = None
        self._stop = False

    def start(self):
        import threading

        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self):
        self._stop = True
        if self._thread is not None:
            self._thread.join()
        self._cap.release()

    def _run(self):
        import time

        prev = 0
        while not self._stop:
            t1 = time.time()
            ret, frame = self._cap.read()
            if not ret:
                break
            if 1 / self._output_fps < time.time() - prev:
                prev = time.time()
                with self._lock:
                    self._frame = frame
            t2 = time.time()
            time.sleep(max(0, 1 / self._input_fps - (t2 - t1)))
        self._frame = None

    def next(self):
        with self._lock:
            if self._frame is None:
                return None
            frame = self._frame.copy()
        if self._size is not None:
            frame = self._cv2.resize(frame, self._size, interpolation=self._cv2.INTER_AREA)
        if self._flip:
            frame = self._cv2.flip(frame, 1)
        return frame


def load_image(path):
    """The notebook's image as OpenCV reads it (BGR), from its local stand-in."""
    import cv2

    local = local_path(path)
    image = cv2.imread(str(local if local is not None else path))
    if image is None:
        raise RuntimeError(f"Cannot read image {{path}}")
    return image


def show_array(frame, display_handle=None):
    """Show a BGR frame as a JPEG (as the real one does); returns the display handle."""
    import cv2
    from IPython.display import Image, display

    _, jpeg = cv2.imencode(".jpg", frame)
    if display_handle is None:
        display_handle = display(Image(data=jpeg.tobytes()), display_id=True)
    else:
        display_handle.update(Image(data=jpeg.tobytes()))
    return display_handle


def yolov5n_standin(path, seed=0):
    """A local stand-in for YOLOv5n (PyTorch Hub), written anew in PyTorch with random weights
    (seeded): YOLOv5's Detect head (3 anchors a cell at strides 8, 16, 32, sigmoid, xy/wh
    decoded to pixels with YOLOv5's anchors) on a small strided SiLU backbone, so input
    (N, 3, H, W) gives (N, 3*(H*W/64 + H*W/256 + H*W/1024), 85) as the real model does, and a
    tensor input is cast to the weights' type as the hub's AutoShape wrapper does. About 0.6
    GMAC at 640x480 against YOLOv5n's 4.5 GFLOPs at 640x640; its detections mean nothing. Its
    weights are written where the hub writes the downloaded ones (``path`` + ``.pt``)."""
    import torch
    from torch import nn

    anchors = [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119],
               [116, 90, 156, 198, 373, 326]]

    class Detect(nn.Module):
        def __init__(self, chans, strides, nc=80):
            super().__init__()
            self.no, self.na, self.strides = nc + 5, 3, strides
            self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in chans)
            self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32)
                                 .view(3, 1, 3, 1, 1, 2))

        def forward(self, feats):
            out = []
            for i, x in enumerate(feats):
                b, _, h, w = x.shape
                y = self.m[i](x).view(b, self.na, self.no, h, w).permute(0, 1, 3, 4, 2).sigmoid()
                gy, gx = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                                        torch.arange(w, dtype=torch.float32), indexing="ij")
                grid = torch.stack((gx, gy), 2).view(1, 1, h, w, 2)
                xy = (y[..., :2] * 2 - 0.5 + grid) * self.strides[i]
                wh = (y[..., 2:4] * 2) ** 2 * self.anchors[i]
                out.append(torch.cat((xy, wh, y[..., 4:]), -1).view(b, -1, self.no))
            return torch.cat(out, 1)

    def conv(ci, co, k=3):
        return nn.Sequential(nn.Conv2d(ci, co, k, 2, 2 if k == 6 else k // 2), nn.SiLU())

    class YOLOv5nStandin(nn.Module):
        def __init__(self):
            super().__init__()
            self.p3 = nn.Sequential(conv(3, 16, 6), conv(16, 32), conv(32, 64))
            self.p4, self.p5 = conv(64, 128), conv(128, 256)
            self.detect = Detect((64, 128, 256), (8, 16, 32))

        def forward(self, x):
            p3 = self.p3(x.type_as(self.detect.anchors))
            p4 = self.p4(p3)
            return self.detect([p3, p4, self.p5(p4)])

    torch.manual_seed(seed)
    model = YOLOv5nStandin().eval()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), Path(path).with_suffix(".pt"))
    print("[ovlab] YOLOv5n: a local stand-in of the same input and output shapes, random "
          "weights (tools/run_ov_notebooks.py)")
    return model


def device_widget(default="AUTO", exclude=None, added=None, description="Device:"):
    import ipywidgets as widgets
    import openvino as ov

    options = [d for d in ov.Core().available_devices if d not in (exclude or [])]
    options += [d for d in ["AUTO"] + list(added or []) if d not in options]
    return widgets.Dropdown(options=options, value=default if default in options else options[0],
                            description=description, disabled=False)


def collect_telemetry(file=""):
    """No telemetry from ovlab runs."""
'''


# Model formats whose readers ovlab does not simulate (it reads OpenVINO IR and ONNX).
OTHER_FORMATS = (".pdmodel", ".pdiparams", ".pb", ".tflite")


@dataclass
class CellResult:
    index: int
    first_line: str
    status: str  # "ok" | "error" | "skipped"
    error: str = ""
    cause: str = ""  # for errors: "ovlab", or why it is not ovlab's (see classify)


def classify(error: str, after_failure: bool) -> str:
    """Whose failure a cell's error is: a package the environment lacks, a model format ovlab
    does not read, a consequence of an earlier failed cell, or ovlab's ("ovlab")."""
    if error.startswith("ModuleNotFoundError") and "openvino" not in error:
        return "environment (a package that is not installed)"
    if "no local stand-in" in error and error.split(" (no network")[0].endswith(OTHER_FORMATS):
        return "model format ovlab does not read (IR and ONNX only)"
    if after_failure and (error.startswith("NameError") or "Could not open the file" in error):
        return "follows from an earlier failed cell"
    if error.startswith("NameError: name '"):  # a package a replaced model cell imported
        import importlib.util

        name = error.split("'")[1]
        if importlib.util.find_spec(name) is None:
            return f"environment ({name} is not installed)"
    return "ovlab"


@dataclass
class NotebookResult:
    name: str
    cells: list[CellResult] = field(default_factory=list)

    @property
    def failed(self) -> list[CellResult]:
        return [c for c in self.cells if c.status == "error"]

    @property
    def ran_fully(self) -> bool:
        return not self.failed

    @property
    def ovlab_failures(self) -> list[CellResult]:
        return [c for c in self.failed if c.cause == "ovlab"]


def _line(line: str) -> str:
    """One code line as the copy has it (see the module docstring)."""
    bare = line.strip()
    marker = next((m for m in MODEL_LINES if m in line), None)
    if marker is not None:
        indent = line[:len(line) - len(line.lstrip())]
        return (f"{indent}# [ovlab] model download replaced by a local model "
                f"(tools/run_ov_notebooks.py MODEL_LINES): {bare}\n{indent}{MODEL_LINES[marker]}")
    if bare.startswith(("%pip", "!pip", "! pip")):
        indent = line[:len(line) - len(line.lstrip())]
        # inside a block (an `if` of the platform) a comment alone would leave it empty
        return f"{indent}pass  # [ovlab] skipped: {bare}" if indent else \
            f"# [ovlab] skipped: {bare}"
    if bare.startswith("!") and ("omz_downloader" in bare or bare.lstrip("! ") ==
                                 "$download_command"):
        command = "download_command" if "$download_command" in bare else repr(bare.lstrip("! "))
        indent = line[:len(line) - len(line.lstrip())]
        return f"{indent}__import__('notebook_utils').omz_downloader({command})  # [ovlab] {bare}"
    return line


def prepare(source: Path, work: Path, real: bool = False) -> Path:
    """Copy the notebook into ``work`` with the three changes of the module docstring
    (``real``: all but the first, to run the same copy on the installed ``openvino`` wheel)."""
    import nbformat

    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            marker = next((m for m in MODEL_CELLS if m in cell.source), None)
            if marker is not None:
                cell.source = "\n".join(
                    ["from pathlib import Path",
                     "# [ovlab] model download replaced by a local file "
                     "(tools/run_ov_notebooks.py MODEL_CELLS):",
                     *(f"# {line}" for line in cell.source.split("\n")), MODEL_CELLS[marker]])
            cell.source = "\n".join(_line(line) for line in cell.source.split("\n"))
            cell.outputs, cell.execution_count = [], None
    nb.cells.insert(0, nbformat.v4.new_code_cell(
        ("" if real else "%load_ext ovlab\n") +
        "__import__('notebook_utils').serve_downloads()  # downloads from local stand-ins"))
    work.mkdir(parents=True, exist_ok=True)
    (work / "notebook_utils.py").write_text(
        textwrap.dedent(NOTEBOOK_UTILS).format(local_files=LOCAL_FILES))
    target = work / source.name
    nbformat.write(nb, target)
    return target


def execute(path: Path, timeout: int = 900) -> NotebookResult:
    """Run the prepared notebook with nbclient (errors recorded, not fatal), cell by cell."""
    import os

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    nbformat.write(nb, path)  # the executed copy, outputs and all, beside its inputs
    result = NotebookResult(path.stem)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        first = next((line for line in cell.source.split("\n") if line.strip()), "")
        errors = [o for o in cell.outputs if o.get("output_type") == "error"]
        if errors:
            lines = [x for x in str(errors[0].get("evalue")).splitlines() if x.strip()]
            # OpenVINO's messages start with where the check sits; the last line says what
            err = f"{errors[0].get('ename')}: {lines[-1] if lines else ''}"[:300]
            after = any(c.status == "error" for c in result.cells)
            whole = f"{errors[0].get('ename')}: {errors[0].get('evalue')}"
            result.cells.append(CellResult(i, first[:70], "error", err, classify(whole, after)))
        elif all(line.lstrip().startswith(("# [ovlab] skipped", "pass  # [ovlab] skipped"))
                 or not line.strip()
                 for line in cell.source.split("\n")):
            result.cells.append(CellResult(i, first[:70], "skipped"))
        else:
            result.cells.append(CellResult(i, first[:70], "ok"))
    return result


def run(names: list[str], source: Path, work: Path, real: bool = False) -> list[NotebookResult]:
    results = []
    for name in names:
        path = source / NOTEBOOKS[name]
        if not path.is_file():
            print(f"{name}: not present at {path}")
            continue
        folder = work / name
        shutil.rmtree(folder, ignore_errors=True)
        result = execute(prepare(path, folder, real))
        results.append(result)
        report(result)
    return results


def report(result: NotebookResult) -> None:
    ok = sum(c.status == "ok" for c in result.cells)
    print(f"== {result.name}: {ok} ok, {len(result.failed)} failed, "
          f"{sum(c.status == 'skipped' for c in result.cells)} skipped, of "
          f"{len(result.cells)} code cells{' (ran fully)' if result.ran_fully else ''}")
    for cell in result.cells:
        mark = {"ok": "  ok ", "error": "FAIL ", "skipped": "skip "}[cell.status]
        print(f"  {mark} [{cell.index:>3}] {cell.first_line}")
        if cell.error:
            print(f"         {cell.error}")
            print(f"         cause: {cell.cause}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", choices=[[], *NOTEBOOKS], default=[])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--real", action="store_true",
                        help="run on the installed openvino wheel (no %%load_ext ovlab), "
                             "with the same local stand-ins, to compare")
    args = parser.parse_args(argv)
    results = run(args.names or list(NOTEBOOKS), args.source, args.work, args.real)
    if args.json:
        args.json.write_text(json.dumps(
            {r.name: [c.__dict__ for c in r.cells] for r in results}, indent=1))
    return 0 if results and all(r.ran_fully for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
