"""``ovlab benchmark``: OpenVINO's ``benchmark_app`` on ovlab's virtual devices.

The tool follows the real ``openvino.tools.benchmark`` (2026.4.1, read from the wheel) step by
step, so the report a learner sees has the same 11 steps, the same ``[ INFO ]`` lines and the
same arithmetic (``reference/openvino-measured.md`` section 11): THROUGHPUT unless ``-hint`` says
otherwise, ``-hint latency`` switching to the sync API, an AsyncInferQueue of ``-nireq`` requests
(``OPTIMAL_NUMBER_OF_INFER_REQUESTS`` by default) kept full, ``-niter`` rounded up to a multiple of
the request count, one warm-up inference timed alone ("First inference took"), latencies only of
the measured loop, and ``Throughput = batch x iterations / duration``.

What differs, and why:

- Every time is simulated (``core.clock``): compile, first inference, duration and latencies
  are the virtual devices' figures, so a run is deterministic for a given ``--seed`` and takes
  wall-clock seconds even when it reports minutes. Reading a zoo model costs no simulated time,
  hence ``Read model took 0.00 ms``; memory-usage lines are left out (there is no host memory).
- ``-m`` takes an ovlab zoo name (``googlenet-v1``, ``googlenet-v1:FP16``) or an Open Model
  Zoo-style path whose stem is a zoo name (``public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml``);
  nothing is read from disk.
- Step 6 keeps the inputs in their own element type (the real tool converts image inputs to
  ``u8`` and adds a ``Convert`` node); it only names the ``[N,C,H,W]`` layout it assumes.
- Bad options and runtime errors print ``[ ERROR ] <message>`` and exit with status 1, without
  the Python traceback the real tool dumps (argparse's own usage errors exit with 2 there).
- ``-d GPU`` on a platform without a GPU fails when compiling with the GPU plugin's "no supported
  devices found" error: the behaviour of a machine that has the OpenCL loader but no GPU
  (measured section 3); the real tool on a box without OpenCL fails earlier, in Step 2.
- With no ``-niter`` and no ``-t`` the run lasts 60 s for device strings naming CPU, GPU or NPU
  and 120 s otherwise (``AUTO``, ``MULTI``...), with the real tool's warning; the brief's "60 s"
  holds for the hardware devices. ``-t`` also accepts fractions of a second here.
- ``-pc`` prints the counters of every request (the 0-th first), as the real tool does.
- The sync loop runs its one request as ``infer()`` does (the synchronous path, without the
  asynchronous hand-off a device may charge), without computing the outputs ``infer()`` would
  return (real NumPy work nobody reads in a benchmark).
- Every option of the real tool's parser is accepted (``tests/test_benchmark_cli.py`` compares
  the two parsers when the wheel is installed). ``-nstreams``, ``-shape``, ``-cdir`` and
  ``-latency_percentile`` mean what they mean there; the options listed in ``NOT_HERE`` (input
  files, reports, configs...) stop the run with an error naming the option and pointing to the
  real tool, which runs on ovlab too: ``python -m ovlab run benchmark_app ...``.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import PurePath
from typing import Any

import numpy as np

STEP_NAMES = {
    1: "Parsing and validating input arguments",
    2: "Loading OpenVINO Runtime",
    3: "Setting device configuration",
    4: "Reading model files",
    5: "Resizing model to match image sizes and given batch",
    6: "Configuring input of the model",
    7: "Loading the model to the device",
    8: "Querying optimal runtime parameters",
    9: "Creating infer requests and preparing input tensors",
    10: "Measuring performance",
    11: "Dumping statistics report",
}
HINTS = ("throughput", "tput", "cumulative_throughput", "ctput", "latency", "none")
META_DEVICES = ("MULTI", "HETERO", "AUTO")  # benchmark_app's "virtual devices" (not BATCH)
# benchmark_app's DEVICE_DURATION_IN_SECS: a device string naming none of these gets 120 s
DEVICE_DURATION_S = {"CPU": 60, "GPU": 60, "NPU": 60}
UNKNOWN_DURATION_S = 120
MODEL_SUFFIXES = (".xml", ".onnx")
# Open Model Zoo folder names for precisions -> ovlab zoo precisions
PATH_PRECISIONS = {"FP32": "FP32", "FP16": "FP16", "INT8": "INT8", "FP16-INT8": "INT8",
                   "FP32-INT8": "INT8"}


class BenchmarkError(Exception):
    """A run stopped with an error; ``lines`` holds the report printed so far."""

    def __init__(self, message: str, lines: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.lines = list(lines or [])


@dataclass
class BenchmarkReport:
    """The figures of one run (all in simulated time) and the lines it printed."""

    first_inference_ms: float
    count: int
    duration_ms: float
    latency_median_ms: float
    latency_avg_ms: float
    latency_min_ms: float
    latency_max_ms: float
    throughput_fps: float
    execution_devices: list[str]
    lines: list[str]
    compile_ms: float = 0.0
    device: str = ""
    api: str = ""
    nireq: int = 0
    batch: int = 1
    latencies_ms: list[float] = field(default_factory=list)  # measured loop, sorted
    core: Any = field(default=None, repr=False, compare=False)  # for core.trace and core.clock

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class _Log:
    """benchmark_app's console: ``[Step N/11]`` headers and ``[ LEVEL ] message`` lines."""

    def __init__(self, echo: Callable[[str], None] | None) -> None:
        self.lines: list[str] = []
        self._echo = echo
        self._step = 0

    def raw(self, text: str) -> None:
        for line in text.split("\n"):
            self.lines.append(line)
            if self._echo is not None:
                self._echo(line)

    def info(self, msg: str = "") -> None:
        self.raw(f"[ INFO ] {msg}")

    def warning(self, msg: str) -> None:
        self.raw(f"[ WARNING ] {msg}")

    def step(self, extra: str = "") -> None:
        self._step += 1
        name = STEP_NAMES[self._step] + (f" ({extra})" if extra else "")
        self.raw(f"[Step {self._step}/{len(STEP_NAMES)}] {name}")


# --- options --------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting (the caller reports it)."""

    def error(self, message: str):  # type: ignore[override]
        raise BenchmarkError(f"{message} (see: ovlab benchmark -h)")


def _nonneg_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is an invalid non-negative int value")
    return value


def _positive_int(text: str) -> int:
    value = _nonneg_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text} is an invalid positive int value")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time value: {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text} is an invalid positive time value")
    return int(value) if value == int(value) else value


def _str2bool(text: str) -> bool:
    low = text.lower()
    if low in ("yes", "true", "t", "y", "1"):
        return True
    if low in ("no", "false", "f", "n", "0"):
        return False
    raise argparse.ArgumentTypeError("Boolean value expected.")


# The real tool's options that ovlab's benchmark does not reproduce: the parser takes them (so a
# command line copied from the real tool is understood), and the run stops with an error naming
# the option and why. kind: how argparse takes its value.
_REAL_TOOL = "the real benchmark_app runs on ovlab with 'python -m ovlab run benchmark_app ...'"
NOT_HERE: dict[tuple[str, ...], tuple[str, str]] = {
    ("-i", "--paths_to_input"): ("append", "ovlab benchmark fills inputs with random values"),
    ("-max_irate", "--maximum_inference_rate"): ("value", "rate limiting is not reproduced"),
    ("-data_shape",): ("value", "dynamic-shape data sets are not reproduced"),
    ("-layout",): ("value", "input layouts are not reproduced (inputs are taken as [N,C,H,W])"),
    ("-extensions", "--extensions"): ("value", "custom-op extensions are not simulated"),
    ("-c", "--path_to_cldnn_config"): ("value", "GPU OpenCL kernel configs are not simulated"),
    ("-lfile", "--load_from_file"): ("optional", "compiled blobs are not read from files"),
    ("-inference_only", "--inference_only"): ("optional",
                                              "ovlab benchmark always measures inference only"),
    ("-no_warmup",): ("flag", "the warm-up inference is always run"),
    ("-ip", "--input_precision"): ("value", "input precision conversion is not reproduced"),
    ("-op", "--output_precision"): ("value", "output precision conversion is not reproduced"),
    ("-iop", "--input_output_precision"): ("value", "precision conversion is not reproduced"),
    ("--mean_values",): ("value", "mean/scale preprocessing is not reproduced"),
    ("--scale_values",): ("value", "mean/scale preprocessing is not reproduced"),
    ("-nthreads", "--number_threads"): ("value", "thread counts are not a knob of ovlab's CPUs"),
    ("-pin", "--infer_threads_pinning"): ("value", "thread pinning is not simulated"),
    ("-report_type", "--report_type"): ("value", "statistics reports are not written"),
    ("-report_folder", "--report_folder"): ("value", "statistics reports are not written"),
    ("-json_stats", "--json_stats"): ("optional", "statistics reports are not written"),
    ("-pcsort", "--perf_counts_sort"): ("value", "sorted counters are not printed (use -pc)"),
    ("-pcseq", "--pcseq"): ("optional", "latency groups by data shape are not reproduced"),
    ("-exec_graph_path", "--exec_graph_path"): ("value", "execution graphs are not dumped"),
    ("-dump_config",): ("value", "configs are not dumped"),
    ("-load_config",): ("value", "configs are not loaded from files"),
}


def _refuse_not_here(args: argparse.Namespace) -> None:
    for flags, (_, reason) in NOT_HERE.items():
        dest = flags[-1].lstrip("-")
        if getattr(args, dest, None) is not None:
            raise BenchmarkError(f"{' / '.join(flags)} is not available in 'ovlab benchmark': "
                                 f"{reason}; {_REAL_TOOL}")


def _apply_shape(model: Any, text: str) -> dict[str, list[int]]:
    """``-shape``: ``[1,3,224,224]`` for every input or ``name[...],name[...]``; static only."""
    import re

    found = re.findall(r"([^\[\],]*)\[([^\]]*)\]", text)
    if not found or "".join(f"{n}[{d}]" for n, d in found).replace(",", "") != \
            text.replace(",", "").replace(" ", ""):
        raise BenchmarkError(f"-shape {text!r}: expected [1,3,224,224] or name[1,3,224,224],...")
    shapes: dict[str, list[int]] = {}
    for name, dims in found:
        try:
            values = [int(d) for d in dims.split(",") if d.strip()]
        except ValueError:
            raise BenchmarkError(f"-shape {text!r}: ovlab benchmark takes static shapes only "
                                 f"(dynamic ones need -data_shape, which it does not reproduce)"
                                 ) from None
        ports = [p for p in model.inputs if not name or name in p.get_names()
                 or p.get_node().get_friendly_name() == name]
        if not ports:
            raise BenchmarkError(f"-shape: the model has no input named {name!r}")
        for port in ports:
            shapes[port.get_any_name()] = values
    model.reshape(shapes)
    return shapes


def _set_streams(config: dict[str, Any], device_name: str, text: str) -> None:
    """``-nstreams``: a number for the target device, or ``DEV:N,...`` per device (on
    AUTO/MULTI/HETERO as DEVICE_PROPERTIES), like ``-infer_precision``."""
    _set_per_device(config, device_name, text, "NUM_STREAMS")


def build_parser() -> argparse.ArgumentParser:
    """The options: benchmark_app's main ones plus ovlab's ``--platform`` and ``--seed``."""
    p = _Parser(prog="ovlab benchmark", add_help=False,
                description="benchmark_app on ovlab's virtual devices (simulated time).")
    p.add_argument("-h", "--help", action="store_true", help="Show this help message and exit.")
    p.add_argument("-m", "--path_to_model", default=None,
                   help="Required. A zoo model name (googlenet-v1, googlenet-v1:FP16) or a path "
                        "like public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml whose stem is one.")
    p.add_argument("-d", "--target_device", default="CPU",
                   help="Optional. Target device (CPU, GPU, GPU.1, NPU, AUTO, AUTO:GPU,CPU, "
                        "MULTI:..., HETERO:..., BATCH:...). Default value is CPU.")
    p.add_argument("-hint", "--perf_hint", default="", choices=HINTS,
                   help="Optional. Performance hint; default: THROUGHPUT (with a warning).")
    p.add_argument("-niter", "--number_iterations", type=_nonneg_int, default=None,
                   help="Optional. Number of iterations (0: compile only).")
    p.add_argument("-t", "--time", type=_positive_seconds, default=None,
                   help="Optional. Seconds of simulated time to run.")
    p.add_argument("-nireq", "--number_infer_requests", type=_positive_int, default=None,
                   help="Optional. Number of infer requests (default: "
                        "OPTIMAL_NUMBER_OF_INFER_REQUESTS).")
    p.add_argument("-api", "--api_type", default="", choices=("sync", "async"),
                   help="Optional. sync or async (default async; sync with -hint latency).")
    p.add_argument("-b", "--batch_size", type=_positive_int, default=None,
                   help="Optional. Batch size: reshape the model's inputs to it.")
    p.add_argument("-pc", "--perf_counts", type=_str2bool, nargs="?", const=True, default=None,
                   help="Optional. Report performance counters.")
    p.add_argument("-infer_precision", default=None,
                   help="Optional. Inference precision: 'f32', or per device "
                        "'CPU:bf16,GPU:f32' (with AUTO/MULTI/HETERO only the per-device form "
                        "reaches the devices, as in the real tool).")
    p.add_argument("-nstreams", "--number_streams", default=None,
                   help="Optional. Number of streams (a number, or DEV:N,DEV:N); needs -hint "
                        "none, as in the real tool.")
    p.add_argument("-shape", default="",
                   help="Optional. Static input shapes to reshape the model to: [1,3,224,224] "
                        "for every input, or name[1,3,224,224],other[...].")
    p.add_argument("-cdir", "--cache_dir", default="",
                   help="Optional. A folder for the model cache (CACHE_DIR).")
    p.add_argument("-latency_percentile", "--latency_percentile", type=int, default=50,
                   help="Optional. The latency percentile to report (1-100, default 50: median).")
    for flags, (kind, _why) in NOT_HERE.items():
        if kind == "flag":
            p.add_argument(*flags, action="store_true", default=None, help=argparse.SUPPRESS)
        elif kind == "optional":
            p.add_argument(*flags, nargs="?", const=True, default=None, help=argparse.SUPPRESS)
        elif kind == "append":
            p.add_argument(*flags, action="append", nargs="+", default=None,
                           help=argparse.SUPPRESS)
        else:
            p.add_argument(*flags, default=None, help=argparse.SUPPRESS)
    p.add_argument("--platform", default="laptop",
                   help="ovlab: the virtual platform: a preset (" + ", ".join(_preset_names())
                        + "), this-machine (your CPU, measured with the real openvino on first "
                        "use) or a platform file (my-machine.json, from 'ovlab calibrate').")
    p.add_argument("--seed", type=int, default=0, help="ovlab: the seed of the simulation.")
    return p


def help_lines(platform: Any = "laptop") -> list[str]:
    """The usage text, ending like benchmark_app's with the devices of ``platform``."""
    from ...sim.runtime.core import Core

    text = build_parser().format_help().rstrip("\n")
    devices = "  ".join(Core(platform).available_devices)
    return [*text.split("\n"), "", f"Available target devices:   {devices}"]


# --- the model ------------------------------------------------------------------------------------
def resolve_model(text: str) -> tuple[str, str | None]:
    """(what ``core.read_model`` gets, a note to print or None) for a ``-m`` argument.

    A path ending in ``.xml``/``.onnx`` whose stem is a zoo name, or starts with one followed by
    ``-``/``_`` (``googlenet-v1-tf``), is read as that zoo model; a path folder named like an
    Open Model Zoo precision (``FP16``, ``FP16-INT8``) picks the precision.
    """
    from ...sim.models import zoo

    path = PurePath(text)
    if path.suffix.lower() not in MODEL_SUFFIXES:
        return _resolve_name(text)
    stem = path.stem
    candidates = [n for n in zoo.names()
                  if stem == n or stem.startswith(n + "-") or stem.startswith(n + "_")]
    if not candidates:
        return text, None  # read_model reports the missing file, listing the zoo names
    name = max(candidates, key=len)
    precision = "FP32"
    for part in path.parts[:-1]:
        if part.upper() in PATH_PRECISIONS:
            precision = PATH_PRECISIONS[part.upper()]
    note = (f"ovlab reads '{text}' as the zoo model {name} ({precision}); "
            "no file is opened")
    return f"{name}:{precision}", note


# Intel's benchmark tables and the Open Model Zoo name models by source framework
# (resnet-50-tf, mobilenet-v2-pytorch, yolo_v3_tiny): these suffixes and spellings map to the
# zoo's names; a model of those tables that the zoo does not have gets a clear error.
FRAMEWORK_SUFFIXES = ("-tf", "-pytorch", "-onnx", "-caffe", "-caffe2", "-paddle", "-mxnet",
                      "-onnx-0001", "-0001")
ALIASES = {"resnet50": "resnet-50", "inception-v1": "googlenet-v1", "googlenet": "googlenet-v1",
           "mobilenetv2": "mobilenet-v2", "mobilenet-v2-1.0-224": "mobilenet-v2",
           "yolov3-tiny": "yolo-v3-tiny", "tiny-yolo-v3": "yolo-v3-tiny",
           "squeezenet1-1": "squeezenet1.1", "squeezenet-1.1": "squeezenet1.1",
           # the models of Intel's tables (issue 35: ``table_zoo.py``), as the tables and the
           # Open Model Zoo spell them
           "yolo-v8n": "yolo_v8n", "yolov8n": "yolo_v8n", "yolo-v3": "yolo_v3",
           "yolo-v3-tf": "yolo_v3", "ssd-mobilenet-v1-coco": "ssd_mobilenet_v1_coco",
           "ssd-resnet34-1200-onnx": "ssd-resnet34-1200",
           "unet-camvid": "unet-camvid-onnx-0001",
           "unet-camvid-onnx": "unet-camvid-onnx-0001",
           "bert-large-uncased-whole-word-masking-squad":
               "bert-large-uncased-whole-word-masking-squad-0001",
           "efficientdet-d0-tf": "efficientdet-d0",
           "mask-rcnn-resnet50-atrous-coco": "mask_rcnn_resnet50_atrous_coco",
           "deeplabv3-tf": "deeplabv3"}
PUBLISHED_NOT_IN_ZOO = ("yolo-v5", "llama", "chatglm", "mistral", "stable-diffusion", "gemma",
                        "phi")


def zoo_name(name: str) -> str | None:
    """The zoo model an Intel-table / Open Model Zoo name stands for, or None."""
    from ...sim.models import zoo

    names = zoo.names() + zoo.table_names()
    if name in names:
        return name
    key = name.lower().replace("_", "-")
    for _ in range(2):
        if key in names:
            return key
        if ALIASES.get(key) in names:
            return ALIASES[key]
        for suffix in FRAMEWORK_SUFFIXES:
            if key.endswith(suffix):
                key = key[: -len(suffix)]
                break
    return key if key in names else ALIASES.get(key) if ALIASES.get(key) in names else None


def _resolve_name(text: str) -> tuple[str, str | None]:
    """``NAME[:PRECISION]`` with NAME a zoo name or an alias of one; models of Intel's tables
    that the zoo does not have raise BenchmarkError; anything else goes to read_model."""
    from ...sim.models import zoo

    name, sep, precision = text.partition(":")
    found = zoo_name(name)
    if found == name or (found is None and not _published(name)):
        return text, None
    if found is None:
        raise BenchmarkError(
            f"model '{name}' (from Intel's benchmark tables) is not in ovlab's zoo, so ovlab "
            f"cannot time it; zoo models: {', '.join(zoo.names())}")
    spec = found + (sep + precision if sep else "")
    return spec, f"ovlab reads '{name}' as the zoo model {found}"


def _published(name: str) -> bool:
    key = name.lower().replace("_", "-")
    return any(key.startswith(p) for p in PUBLISHED_NOT_IN_ZOO) or key.startswith(
        ("mobilenet-v2", "yolo-v3-tiny", "bert"))


def _shape(ps) -> str:
    return str(ps)


def _io_lines(model, layout_4d: str | None = None) -> list[str]:
    """benchmark_app's ``print_inputs_and_outputs_info``."""
    lines = ["Model inputs:"]
    for port in model.inputs:
        name = " , ".join(sorted(port.get_names())) or "***NO_NAME***"
        node = port.get_node().get_friendly_name() or "***NO_NAME***"
        layout = layout_4d if (layout_4d and len(port.get_shape()) == 4) else "[...]"
        lines.append(f"    {name} (node: {node}) : {port.get_element_type().get_type_name()} / "
                     f"{layout} / {_shape(port.get_partial_shape())}")
    lines.append("Model outputs:")
    for port in model.outputs:
        name = " , ".join(sorted(port.get_names())) or "***NO_NAME***"
        node = port.get_node().input_value(0).get_node().get_friendly_name() or "***NO_NAME***"
        lines.append(f"    {name} (node: {node}) : {port.get_element_type().get_type_name()} / "
                     f"[...] / {_shape(port.get_partial_shape())}")
    return lines


# --- devices and configuration ----------------------------------------------------------------
def parse_devices(device_string: str) -> list[str]:
    """benchmark_app's ``parse_devices``: the plugin, then each listed device (``-`` dropped)."""
    target, sep, rest = device_string.partition(":")
    result = [target]
    if sep:
        for dev in rest.split(","):
            result.append(dev[1:] if dev.startswith("-") else dev)
    return result


def duration_seconds(time_s: float | None, niter: int | None, device: str,
                     log: _Log | None = None) -> float:
    """benchmark_app's default duration: ``-t``, else 60 s / 120 s when ``-niter`` is absent."""
    if time_s:
        return time_s
    if niter:
        return 0
    seconds = max((s for dev, s in DEVICE_DURATION_S.items() if dev in device), default=0)
    if seconds == 0:
        seconds = UNKNOWN_DURATION_S
        if log is not None:
            log.warning(f"Default duration {seconds} seconds is used for unknown device {device}")
    return seconds


def format_latency(value_ms: float, avg_ms: float) -> str:
    """ms, or µs when the average latency is below 1 ms (as the real tool prints them)."""
    if avg_ms < 1.0:
        return f"{value_ms * 1000:.2f} us"
    return f"{value_ms:.2f} ms"


def _ms_number(ms: float) -> str:
    return str(int(ms)) if ms == int(ms) else str(ms)


def perf_counter_lines(rows: list, index: int) -> list[str]:
    """``print_perf_counters`` for one request (names cut to 16 characters plus ``...``)."""
    width = 20
    out = [f"[ INFO ] Performance counts for {index}-th infer request"]
    total = timedelta()
    total_cpu = timedelta()
    for pi in rows:
        name = pi.node_name[:width - 4] + "..." if len(pi.node_name) >= width else pi.node_name
        ntype = pi.node_type[:width - 4] + "..." if len(pi.node_type) >= width else pi.node_type
        out.append(f"{name:<20} {str(pi.status):<20} layerType: {ntype:<20} "
                   f"execType: {pi.exec_type:<20} "
                   f"realTime (ms): {pi.real_time / timedelta(milliseconds=1):<10.3f} "
                   f"cpuTime (ms): {pi.cpu_time / timedelta(milliseconds=1):<10.3f}")
        total += pi.real_time
        total_cpu += pi.cpu_time
    out.append(f"Total time:     {total / timedelta(milliseconds=1)} milliseconds")
    out.append(f"Total CPU time: {total_cpu / timedelta(milliseconds=1)} milliseconds")
    out.append("")
    return out


def _device_config(core, args: argparse.Namespace, api: str, device_name: str,
                   log: _Log) -> dict[str, Any]:
    """Step 3 as benchmark_app does it: a config per device of ``-d`` (the meta device alone
    for AUTO/MULTI/HETERO), each asked for its SUPPORTED_PROPERTIES; returns the config the
    compile gets (the entry of the device string's first name)."""
    from ...properties.hint import PerformanceMode

    modes = {"throughput": PerformanceMode.THROUGHPUT, "tput": PerformanceMode.THROUGHPUT,
             "latency": PerformanceMode.LATENCY,
             "cumulative_throughput": PerformanceMode.CUMULATIVE_THROUGHPUT,
             "ctput": PerformanceMode.CUMULATIVE_THROUGHPUT, "none": None}
    devices = parse_devices(device_name)
    if any(d in META_DEVICES for d in devices):
        devices = [device_name.partition(":")[0]]
    config: dict[str, dict[str, Any]] = {}
    for device in devices:
        supported = core.get_property(device, "SUPPORTED_PROPERTIES")
        dev_cfg = config.setdefault(device, {})
        if "PERFORMANCE_HINT" in supported:
            if args.perf_hint:
                mode = modes[args.perf_hint]
            else:
                mode = PerformanceMode.LATENCY if api == "sync" else PerformanceMode.THROUGHPUT
                log.warning("Performance hint was not explicitly specified in command line or "
                            f"config file. Device({device}) performance hint will be set to "
                            f"{mode}.")
            if mode is not None:
                dev_cfg["PERFORMANCE_HINT"] = mode
        else:
            log.warning(f"Device {device} does not support performance hint property(-hint).")
        if args.number_infer_requests is not None:
            dev_cfg["PERFORMANCE_HINT_NUM_REQUESTS"] = str(args.number_infer_requests)
        dev_cfg["PERF_COUNT"] = bool(args.perf_counts)
    if device_name in config:
        return config[device_name]
    chosen: dict[str, Any] = {}
    for device in config:
        if device_name.startswith(device):
            chosen = config[device]
    return chosen


def _preset_names() -> list[str]:
    from ...sim.hardware.platforms import PRESETS

    return list(PRESETS)


def _set_infer_precision(config: dict[str, Any], device_name: str, text: str) -> None:
    """benchmark_app's ``-infer_precision``: ``f32`` for a hardware device, or
    ``DEV:prec,...``; on AUTO/MULTI/HETERO the per-device values become DEVICE_PROPERTIES and a
    bare value is dropped (the real tool's ``parse_value_for_virtual_device`` does the same)."""
    _set_per_device(config, device_name, text, "INFERENCE_PRECISION_HINT")


def _set_per_device(config: dict[str, Any], device_name: str, text: str, key: str) -> None:
    devices = parse_devices(device_name)
    bare: str | None = None
    named: dict[str, str] = {}
    for part in text.split(","):
        dev, sep, value = part.partition(":")
        if not sep:
            bare = dev
        elif dev in devices:
            named[dev] = value
        else:
            raise BenchmarkError(f"Failed to set property to '{dev}' which is not found in the "
                                 f"target devices list '{' '.join(devices)}'!")
    target = devices[0]
    if target in META_DEVICES:
        named.pop(target, None)
        if named:
            props = config.setdefault("DEVICE_PROPERTIES", {})
            for dev, value in named.items():
                props.setdefault(dev, {})[key] = value
    elif target in named or bare is not None:
        config[key] = named.get(target, bare)


def compiled_property_lines(compiled) -> list[str]:
    """Step 8: every property the compiled model lists in SUPPORTED_PROPERTIES, with the
    devices of ``DEVICE_PROPERTIES`` (AUTO, MULTI, HETERO) as nested blocks."""
    lines = ["Model:"]
    for key in compiled.get_property("SUPPORTED_PROPERTIES"):
        if key == "SUPPORTED_PROPERTIES":
            continue
        value = compiled.get_property(key)
        if key == "DEVICE_PROPERTIES" and isinstance(value, dict):
            for dev, props in value.items():
                lines.append(f"  {dev}:")
                lines.extend(f"    {k}: {v}" for k, v in props.items()
                             if k != "SUPPORTED_PROPERTIES")
        else:
            lines.append(f"  {key}: {value}")
    return lines


def _fill_inputs(requests: Sequence, model, seed: int, share: bool = False) -> None:
    """Random inputs, as benchmark_app fills them when no ``-i`` is given: one random tensor
    per input (uniform over 0..255, as the real tool's ``fill_tensors_with_random``; seeded by
    ``--seed`` here), given to every request.

    Every request then holds the same values, as in the real tool, which copies that tensor into
    each request's own buffer (what this does for real requests, calibration/measure.py). With
    ``share`` (ovlab's own requests) they share one read-only copy instead, which a request
    copies only when something writes into its input: 64 requests of a batched GPU held 38 MB
    of GoogLeNet inputs otherwise, and a lab running benchmark_app went over its memory budget.
    """
    rng = np.random.RandomState(np.random.MT19937(np.random.SeedSequence(seed)))
    data = []
    for port in model.inputs:
        shape = list(port.get_shape())
        dtype = np.dtype(port.get_element_type().to_dtype())
        if dtype.kind == "b":
            data.append(rng.uniform(0, 2, shape).astype(dtype))
        elif dtype.kind in "iu":
            data.append(rng.uniform(0, 256, shape).astype(dtype))
        else:
            data.append(rng.uniform(0, 255, shape).astype(dtype))
    for request in requests:
        for i, values in enumerate(data):
            if share:
                request.set_input_tensor(i, values)
            else:
                request.get_input_tensor(i).data[:] = values


def _percentile(values: list[float], percent: int) -> float:
    return values[math.ceil(len(values) * percent / 100) - 1]


# --- the run --------------------------------------------------------------------------------------
def run(argv: Sequence[str], *, echo: Callable[[str], None] | None = None,
        core: Any = None) -> BenchmarkReport:
    """Run benchmark_app with ``argv`` (without the program name); return the figures.

    ``echo`` receives every line as it is produced (``main`` passes ``print``). ``core``: run on
    this :class:`ovlab.Core` (a custom platform, injected faults, a clock already advanced)
    instead of a fresh ``Core(--platform, seed=--seed)``; the options then only pick the
    input data's seed. Errors raise :class:`BenchmarkError` carrying the lines so far; ``-h``
    returns a report whose ``lines`` are the usage text and whose count is 0.
    """
    log = _Log(echo)
    try:
        return _run(list(argv), log, core)
    except BenchmarkError as err:
        err.lines = list(log.lines)
        raise
    except Exception as exc:  # noqa: BLE001 - benchmark_app reports every error the same way
        raise BenchmarkError(_error_text(exc), log.lines) from exc


def _error_text(exc: BaseException) -> str:
    from ...sim.errors import PluginError

    text = str(exc).rstrip("\n")
    if isinstance(exc, (RuntimeError, ValueError, PluginError)) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _empty_report(log: _Log, **kw) -> BenchmarkReport:
    return BenchmarkReport(first_inference_ms=0.0, count=0, duration_ms=0.0,
                           latency_median_ms=0.0, latency_avg_ms=0.0, latency_min_ms=0.0,
                           latency_max_ms=0.0, throughput_fps=0.0, execution_devices=[],
                           lines=log.lines, **kw)


def _run(argv: list[str], log: _Log, core: Any) -> BenchmarkReport:
    from ..._version import get_version
    from ...sim.errors import PluginError
    from ...sim.runtime.async_queue import AsyncInferQueue
    from ...sim.runtime.core import Core

    # ------------------------------ 1. Parsing and validating input arguments ------------------
    log.step()
    args = build_parser().parse_args(argv)
    if core is None:
        # A virtual machine's objects form reference cycles (clock -> pending processes -> Core),
        # so a finished run's machine, with its filled input buffers, waits for Python's full
        # garbage collection. Collect before building the next one: a notebook that runs
        # benchmark_app in a loop then holds one machine, not several (lab 03: 80 MB less).
        gc.collect()
        core = Core(args.platform, seed=args.seed)
    clock = core.clock
    log.info(f"ovlab benchmark_app on virtual hardware, simulated time: platform "
             f"{core.platform.name} ({', '.join(core.available_devices)}), seed {core.seed}")
    log.info("Parsing input parameters")
    if args.help:
        for line in help_lines(core.platform):
            log.raw(line)
        return _empty_report(log, core=core)
    if not args.path_to_model:
        raise BenchmarkError("the following arguments are required: -m/--path_to_model "
                             "(see: ovlab benchmark -h)")
    _refuse_not_here(args)
    if not 1 <= args.latency_percentile <= 100:
        raise BenchmarkError("The percentile value is incorrect. The applicable values range is "
                             "[1, 100].")
    if args.perf_hint != "none" and args.number_streams is not None:
        raise BenchmarkError("-nstreams, -nthreads and -pin options are fine tune options. To use "
                             "them you should explicitely set -hint option to none. This is not "
                             "OpenVINO limitation (those options can be used in OpenVINO "
                             "together), but a benchmark_app UI rule.")
    api = args.api_type or ("sync" if args.perf_hint == "latency" else "async")
    niter = args.number_iterations
    if api == "sync" and args.time is None and niter and args.number_infer_requests \
            and args.number_infer_requests > niter:
        raise BenchmarkError("Number of infer requests should be less than or equal to number "
                             "of iterations in sync mode.")
    compile_only = niter == 0
    device_name = args.target_device

    # ------------------------------ 2. Loading OpenVINO Runtime --------------------------------
    log.step()
    nireq = (args.number_infer_requests or 0) if api == "async" else 1
    duration_s = duration_seconds(args.time, niter, device_name, log)
    log.info("OpenVINO:")
    log.info(f"{'Build ':.<39} {get_version()}")
    log.info("")
    log.info("Device info:")
    try:
        versions = core.get_versions(device_name)
    except (RuntimeError, PluginError):
        versions = {}  # the real tool prints no device here; Step 3 reports the name
    for dev, version in versions.items():
        log.info(dev)
        log.info(f"{'Build ':.<39} {version.build_number}")
    log.info("")
    log.info("")

    # ------------------------------ 3. Setting device configuration ----------------------------
    log.step()
    device_config = _device_config(core, args, api, device_name, log)
    perf_counts = bool(args.perf_counts)
    if args.infer_precision:
        _set_infer_precision(device_config, device_name, args.infer_precision)
    if args.number_streams is not None:
        _set_streams(device_config, device_name, args.number_streams)
    if args.cache_dir:
        core.set_property({"CACHE_DIR": args.cache_dir})
    if args.batch_size:
        log.warning("Batch size is set. Auto batching will be disabled")
        device_config["ALLOW_AUTO_BATCHING"] = False

    # ------------------------------ 4. Reading model files -------------------------------------
    log.step()
    log.info("Loading model files")
    spec, note = resolve_model(args.path_to_model)
    if note:
        log.info(note)
    t0 = clock.now
    model = core.read_model(spec)
    log.info(f"Read model took {(clock.now - t0) * 1000:.2f} ms")
    log.info("Original model I/O parameters:")
    for line in _io_lines(model):
        log.info(line)

    # ------------------------------ 5. Resizing model to match image sizes and given batch -----
    log.step()
    batch = int(args.batch_size or model._batch_size())
    log.info(f"Model batch size: {batch}")
    if args.batch_size and args.batch_size != model._batch_size():
        shapes = {}
        for port in model.inputs:
            dims = list(port.get_shape())
            if dims:
                dims[0] = args.batch_size
            shapes[port.get_any_name()] = dims
        log.info("Reshaping model: " + ", ".join(
            f"'{k}': [{','.join(str(d) for d in v)}]" for k, v in shapes.items()))
        t0 = clock.now
        model.reshape(shapes)
        log.info(f"Reshape model took {(clock.now - t0) * 1000:.2f} ms")

    if args.shape:
        t0 = clock.now
        shapes = _apply_shape(model, args.shape)
        log.info("Reshaping model: " + ", ".join(
            f"'{k}': [{','.join(str(d) for d in v)}]" for k, v in shapes.items()))
        log.info(f"Reshape model took {(clock.now - t0) * 1000:.2f} ms")
        batch = int(args.batch_size or model._batch_size())

    # ------------------------------ 6. Configuring input of the model --------------------------
    log.step()
    for line in _io_lines(model, layout_4d="[N,C,H,W]"):
        log.info(line)

    # ------------------------------ 7. Loading the model to the device -------------------------
    log.step()
    t0 = clock.now
    compiled = core.compile_model(model, device_name, device_config)
    compile_ms = (clock.now - t0) * 1000
    log.info(f"Compile model took {compile_ms:.2f} ms")

    if compile_only:
        log.info("Model compiled successfully. Skipping inference due to -niter 0.")
        for _ in range(3):
            log.step("skipped")
        log.step()
        return _empty_report(log, compile_ms=compile_ms, device=device_name, api=api,
                             batch=batch, core=core)

    # ------------------------------ 8. Querying optimal runtime parameters ---------------------
    log.step()
    for line in compiled_property_lines(compiled):
        log.info(line)

    # ------------------------------ 9. Creating infer requests and preparing input data --------
    log.step()
    if api == "sync":
        requests: Any = [compiled.create_infer_request()]
    else:
        requests = AsyncInferQueue(compiled, nireq)
        nireq = len(requests)
    for port in model.inputs:
        name = port.get_any_name()
        log.warning(f"No input files were given for input '{name}'!. This input will be filled "
                    "with random values!")
        log.info(f"Fill input '{name}' with random values ")
    if api == "async" and niter:
        aligned = (niter + nireq - 1) // nireq * nireq
        if aligned != niter:
            log.warning(f"Number of iterations was aligned by request number from {niter} to "
                        f"{aligned} using number of requests {nireq}")
        niter = aligned
    _fill_inputs(requests, model, args.seed, share=True)

    # ------------------------------ 10. Measuring performance ----------------------------------
    info = f"Start inference {api}hronously"
    if api == "async":
        info += f", {nireq} inference requests"
    info += ", limits: "
    if duration_s:
        info += f"{_ms_number(round(duration_s * 1000, 6))} ms duration"
    if niter:
        info += (", " if duration_s else "") + f"{niter} iterations"
    log.step(info)
    log.info("Benchmarking in inference only mode (inputs filling are not included in "
             "measurement loop).")
    if api == "sync":
        _infer(requests[0])
        first_ms = requests[0].latency
    else:
        first_id = requests.get_idle_request_id()
        requests.start_async()
        requests.wait_all()
        first_ms = requests[first_id].latency
    log.info(f"First inference took {first_ms:.2f} ms")

    if api == "sync":
        times, total_s, iteration = _sync_loop(requests[0], clock, niter, duration_s)
    else:
        times, total_s, iteration = _async_loop(requests, clock, niter, duration_s, nireq)
    fps = batch * iteration / total_s
    median = _percentile(times, args.latency_percentile)  # the real tool's "median" variable
    avg = sum(times) / len(times)

    # ------------------------------ 11. Dumping statistics report ------------------------------
    log.step()
    if perf_counts:
        for i, request in enumerate(requests):
            for line in perf_counter_lines(request.profiling_info, i):
                log.raw(line)
    try:
        exec_devices = list(compiled.get_property("EXECUTION_DEVICES"))
        log.info(f"Execution Devices:{exec_devices}")
    except RuntimeError:
        exec_devices = []
    log.info(f"Count:            {iteration} iterations")
    log.info(f"Duration:         {total_s * 1000:.2f} ms")
    if "MULTI" not in device_name:
        log.info("Latency:")
        if args.latency_percentile == 50:
            log.info(f"   Median:        {format_latency(median, avg)}")
        else:
            log.info(f"   {args.latency_percentile} percentile:     "
                     f"{format_latency(median, avg)}")
        log.info(f"   Average:       {format_latency(avg, avg)}")
        log.info(f"   Min:           {format_latency(times[0], avg)}")
        log.info(f"   Max:           {format_latency(times[-1], avg)}")
    log.info(f"Throughput:   {fps:.2f} FPS")
    return BenchmarkReport(
        first_inference_ms=first_ms, count=iteration, duration_ms=total_s * 1000,
        latency_median_ms=median, latency_avg_ms=avg, latency_min_ms=times[0],
        latency_max_ms=times[-1], throughput_fps=fps, execution_devices=exec_devices,
        lines=log.lines, compile_ms=compile_ms, device=device_name, api=api, nireq=nireq,
        batch=batch, latencies_ms=times, core=core)


_MIN_DURATION_S = 1e-9  # the real tool's floor is the timer resolution


def _infer(request) -> None:
    """A sync inference as ``infer()`` times it (``start_async`` then ``wait``: the request has
    no callback), without computing the outputs ``infer()`` returns and nobody reads here."""
    request._begin(silent=True)  # infer()'s path, without reading the outputs
    request.wait()


def _sync_loop(request, clock, niter: int | None, duration_s: float):
    """``Benchmark.sync_inference``: one request, ``infer()`` after ``infer()``."""
    times: list[float] = []
    iteration = 0
    start = clock.now
    elapsed = 0.0
    while (niter and iteration < niter) or (duration_s and elapsed < duration_s):
        _infer(request)
        times.append(request.latency)
        iteration += 1
        elapsed = clock.now - start
    return sorted(times), max(clock.now - start, _MIN_DURATION_S), iteration


def _async_loop(queue, clock, niter: int | None, duration_s: float, nireq: int):
    """``Benchmark.async_inference_only``: keep every request busy; a request's latency is read
    when it is idle again, the in-flight ones after ``wait_all``; the count ends on a multiple
    of the request number."""
    times: list[float] = []
    in_flight: set[int] = set()
    iteration = 0
    start = clock.now
    elapsed = 0.0
    try:
        while (niter and iteration < niter) or (duration_s and elapsed < duration_s) \
                or iteration % nireq:
            idle = queue.get_idle_request_id()
            if idle in in_flight:
                times.append(queue[idle].latency)
            else:
                in_flight.add(idle)
            queue.start_async()
            iteration += 1
            elapsed = clock.now - start
        queue.wait_all()
    except BaseException:
        _drain(queue)
        raise
    total = max(clock.now - start, _MIN_DURATION_S)
    for request_id in in_flight:
        times.append(queue[request_id].latency)
    return sorted(times), total, iteration


def _drain(queue) -> None:
    """Let the requests already started finish before the error is reported (none is lost)."""
    for _ in range(len(queue) + 1):
        try:
            queue.wait_all()
            return
        except Exception:  # noqa: BLE001 - a second failure is reported by the first one
            continue


# --- entry point ----------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Print the report of ``argv`` (default: ``sys.argv[1:]``); 0 on success, 1 on error."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        run(argv, echo=print)
    except BenchmarkError as err:
        print(f"[ ERROR ] {err.message}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
