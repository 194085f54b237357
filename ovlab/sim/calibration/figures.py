"""Figures measured elsewhere, read for ``ovlab calibrate --from`` (issue 22).

An instructor has benchmark_app results from a real machine (a laptop with an iGPU and an NPU, a
Xeon, the rows of Intel's published tables) and wants a platform file for a class. Three kinds of
file are read, told apart by their first line:

* **A figures table**: a CSV with the header ``model,precision,device,latency_ms,throughput_fps``
  and one row per zoo model, precision and device. ``latency_ms`` is what
  ``benchmark_app -hint latency`` reports as the median latency, ``throughput_fps`` what
  ``benchmark_app -hint throughput`` reports; either may be empty. Models may be spelled as
  Intel's tables and the Open Model Zoo spell them (``resnet-50-tf``, ``mobilenet-v2-pytorch``);
  precisions ``FP32``, ``FP16``, ``INT8``, ``FP16-INT8``; devices ``CPU``, ``GPU`` (``GPU.0``,
  ``iGPU``, ``dGPU``) and ``NPU``.
* **benchmark_app's console output**, saved (``benchmark_app ... | tee run.log``); several runs
  may follow one another in one file. The model is the ``NETWORK_NAME`` it prints, the hint its
  ``PERFORMANCE_HINT``, the device its ``Execution Devices``; the figure is the ``Median:``
  latency of a LATENCY run or the ``Throughput:`` of a THROUGHPUT run.
* **benchmark_app's statistics report** (``-report_type no_counters`` and the other report
  types write ``benchmark_report.csv``, ``;``-separated): model from ``-m``, device from
  ``target device``, hint from ``-hint`` (else the API: sync is LATENCY).

The console and the report do not print the model's precision: it is INT8 when the model's path
or name says so (``FP16-INT8/``, ``resnet-50-int8.xml``), else FP32. The formats are those of
``openvino.tools.benchmark`` 2026.4 (``main.py``, ``utils/statistics_report.py``).

A file that cannot be read raises :class:`FiguresError` naming the file and the line.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path, PurePath

COLUMNS = ("model", "precision", "device", "latency_ms", "throughput_fps")
PRECISIONS = {"FP32": "FP32", "FP16": "FP32", "INT8": "INT8", "FP16-INT8": "INT8",
              "FP32-INT8": "INT8", "I8": "INT8", "F32": "FP32", "F16": "FP32"}
DEVICES = {"CPU": "CPU", "GPU": "GPU", "GPU.0": "GPU", "GPU.1": "GPU", "IGPU": "GPU",
           "DGPU": "GPU", "NPU": "NPU"}


class FiguresError(ValueError):
    """A figures file that cannot be used; the message names the file and the line."""


@dataclass(frozen=True)
class Figure:
    """One figure: ``mode`` "latency" (ms, median, LATENCY hint) or "throughput" (FPS)."""

    model: str  # a zoo name
    precision: str  # FP32 | INT8
    device: str  # CPU | GPU | NPU
    mode: str
    value: float
    source: str  # file:line

    @property
    def label(self) -> str:
        return f"{self.device} {self.model}:{self.precision} {self.mode}"


def _zoo_model(name: str, where: str) -> str:
    from ...tools.benchmark import zoo_name
    from ..models import zoo

    found = zoo_name(name.strip())
    if found is None:
        raise FiguresError(f"{where}: model {name.strip()!r} is not in ovlab's zoo, so ovlab "
                           f"cannot time it; zoo models: {', '.join(zoo.names())}")
    return found


def _device(name: str, where: str) -> str:
    key = name.strip().upper()
    if key not in DEVICES:
        raise FiguresError(f"{where}: device {name.strip()!r} cannot be calibrated; give one of "
                           "CPU, GPU (GPU.0, iGPU, dGPU) or NPU (AUTO, MULTI and HETERO runs "
                           "mix devices)")
    return DEVICES[key]


def _number(text: str, column: str, where: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise FiguresError(f"{where}: {column} {text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise FiguresError(f"{where}: {column} must be a positive number, got {text!r}")
    return value


def read_table(path: Path, text: str) -> list[Figure]:
    """The rows of a figures table (see the module docstring)."""
    lines = text.splitlines()
    header = [c.strip().lower() for c in next(csv.reader([lines[0]]))]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise FiguresError(f"{path}:1: the header lacks {', '.join(missing)}; a figures table "
                           f"starts with the header {','.join(COLUMNS)}")
    out = []
    for number, row in enumerate(csv.reader(lines[1:]), start=2):
        if not row or all(not c.strip() for c in row) or row[0].lstrip().startswith("#"):
            continue
        where = f"{path}:{number}"
        if len(row) != len(header):
            raise FiguresError(f"{where}: {len(row)} cells, the header has {len(header)}")
        cells = dict(zip(header, row, strict=True))
        model = _zoo_model(cells["model"], where)
        precision = PRECISIONS.get(cells["precision"].strip().upper())
        if precision is None:
            raise FiguresError(f"{where}: precision {cells['precision'].strip()!r} is not one "
                               f"of {', '.join(PRECISIONS)}")
        device = _device(cells["device"], where)
        latency = _number(cells["latency_ms"], "latency_ms", where)
        fps = _number(cells["throughput_fps"], "throughput_fps", where)
        if latency is None and fps is None:
            raise FiguresError(f"{where}: neither latency_ms nor throughput_fps is given")
        if latency is not None:
            out.append(Figure(model, precision, device, "latency", latency, where))
        if fps is not None:
            out.append(Figure(model, precision, device, "throughput", fps, where))
    return out


def _precision_of(*names: str) -> str:
    """INT8 when a path or name says so (an Open Model Zoo ``FP16-INT8`` folder, ``-int8``)."""
    return "INT8" if any(re.search(r"int8|\bi8\b", n, re.IGNORECASE) for n in names) else "FP32"


def _model_of_path(model_path: str, where: str) -> tuple[str, str]:
    path = PurePath(model_path.strip())
    stem = path.stem if path.suffix else path.name
    for cut in (stem, re.sub(r"[-_](int8|fp16|fp32|i8)$", "", stem, flags=re.IGNORECASE)):
        from ...tools.benchmark import zoo_name

        if zoo_name(cut):
            return zoo_name(cut), _precision_of(*path.parts)
    # the Open Model Zoo layout: public/<model>/<precision>/<model>.xml, intel/<model>/...
    for part in reversed(path.parts[:-1]):
        from ...tools.benchmark import zoo_name

        if zoo_name(part):
            return zoo_name(part), _precision_of(*path.parts)
    return _zoo_model(stem, where), _precision_of(*path.parts)


def read_report(path: Path, text: str) -> list[Figure]:
    """The figure of a benchmark_app statistics report (``benchmark_report.csv``)."""
    values: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        key, sep, value = line.partition(";")
        if sep:
            values.setdefault(key.strip(), (value.strip(), number))

    def need(key: str) -> tuple[str, int]:
        if key not in values:
            raise FiguresError(f"{path}: a benchmark_app report without a '{key};' line (the "
                               "run did not finish, or this is not benchmark_report.csv)")
        return values[key]

    model_path, line_m = need("-m")
    model, precision = _model_of_path(model_path, f"{path}:{line_m}")
    device_text, line_d = need("target device")
    device = _device(device_text, f"{path}:{line_d}")
    if "-hint" in values:
        hint = values["-hint"][0].lower()
    else:
        hint = "latency" if values.get("API", ("async", 0))[0] == "sync" else "throughput"
    if hint == "latency":
        text_v, number = need("latency (ms)")
        mode, column = "latency", "latency (ms)"
    elif hint == "throughput":
        text_v, number = need("throughput")
        mode, column = "throughput", "throughput"
    else:
        raise FiguresError(f"{path}:{values['-hint'][1]}: hint {hint!r}: only LATENCY and "
                           "THROUGHPUT runs of one device can calibrate it")
    value = _number(text_v, column, f"{path}:{number}")
    if value is None:
        raise FiguresError(f"{path}:{number}: '{column}' is empty")
    return [Figure(model, precision, device, mode, value, f"{path}:{number}")]


_INFO = re.compile(r"^\[\s*INFO\s*\]\s?(.*)$")


def read_console(path: Path, text: str) -> list[Figure]:
    """The figures of saved benchmark_app console output (one per run in the file)."""
    runs: list[tuple[int, list[tuple[int, str]]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("[Step 1/") or not runs:
            runs.append((number, []))
        match = _INFO.match(line)
        runs[-1][1].append((number, match.group(1).strip() if match else line.strip()))
    out = []
    for start, lines in runs:
        found: dict[str, tuple[str, int]] = {}
        for number, body in lines:
            for key, pattern in (("name", r"^NETWORK_NAME:\s*(.+)$"),
                                 ("hint", r"^PERFORMANCE_HINT:\s*(?:PerformanceMode\.)?(\w+)"),
                                 ("devices", r"^Execution Devices:\s*(.+)$"),
                                 ("median", r"^Median:\s*([0-9.eE+-]+)\s*ms"),
                                 ("fps", r"^Throughput:\s*([0-9.eE+-]+)\s*FPS")):
                match = re.match(pattern, body)
                if match and key not in found:
                    found[key] = (match.group(1).strip(), number)
        if not any(k in found for k in ("median", "fps", "name")):
            continue  # not a run (a header, a note between runs)
        where = f"{path}:{start}"
        for key, what in (("name", "NETWORK_NAME (step 8)"), ("hint", "PERFORMANCE_HINT"),
                          ("devices", "Execution Devices")):
            if key not in found:
                raise FiguresError(f"{where}: the benchmark_app run starting here has no "
                                   f"{what} line (save the whole console output)")
        name, line_n = found["name"]
        model = _zoo_model(name, f"{path}:{line_n}")
        devices = re.findall(r"[A-Z]+(?:\.\d+)?", found["devices"][0])
        if len(devices) != 1:
            raise FiguresError(f"{path}:{found['devices'][1]}: the run executed on "
                               f"{found['devices'][0]}; only a run on one device calibrates it")
        device = _device(devices[0], f"{path}:{found['devices'][1]}")
        hint, line_h = found["hint"]
        key = {"LATENCY": "median", "THROUGHPUT": "fps"}.get(hint.upper())
        if key is None:
            raise FiguresError(f"{path}:{line_h}: hint {hint!r}: only LATENCY and THROUGHPUT "
                               "runs of one device can calibrate it")
        if key not in found:
            raise FiguresError(f"{where}: the {hint} run starting here has no "
                               f"{'Median: latency' if key == 'median' else 'Throughput:'} "
                               "line (did it finish?)")
        text_v, number = found[key]
        mode = "latency" if key == "median" else "throughput"
        value = _number(text_v, mode, f"{path}:{number}")
        out.append(Figure(model, _precision_of(path.name, name), device, mode, value,
                          f"{path}:{number}"))
    if not out:
        raise FiguresError(f"{path}: no finished benchmark_app run in this console output")
    return out


def read_figures(paths) -> list[Figure]:
    """Every figure of ``paths`` (tables, console logs, reports; see the module docstring)."""
    out: list[Figure] = []
    for p in paths:
        path = Path(p)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise FiguresError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if not first:
            raise FiguresError(f"{path}:1: the file is empty")
        if first.lower().startswith("model,") or first.lower().replace(" ", "") \
                .startswith("model,precision"):
            out += read_table(path, text)
        elif first.startswith("Command line parameters"):
            out += read_report(path, text)
        elif first.startswith("layerName") or "realTime (ms)" in first:
            raise FiguresError(f"{path}:1: a per-layer counters report; give the statistics "
                               "report benchmark_report.csv of the same run")
        elif "[Step " in text or "[ INFO ]" in text:
            out += read_console(path, text)
        else:
            raise FiguresError(
                f"{path}:1: not a figures table (header {','.join(COLUMNS)}), benchmark_app "
                f"console output or a benchmark_report.csv: the first line is {first[:60]!r}")
    if not out:
        raise FiguresError(f"no figures in {', '.join(str(p) for p in paths)}")
    return out


def write_table(path: str | Path, figures: list[Figure]) -> Path:
    """Write ``figures`` as a figures table (one row per model, precision and device)."""
    rows: dict[tuple[str, str, str], dict[str, float]] = {}
    for f in figures:
        rows.setdefault((f.model, f.precision, f.device), {})[f.mode] = f.value
    lines = [",".join(COLUMNS)]
    for (model, precision, device), values in rows.items():
        cells = [f"{values[m]:.5g}" if m in values else "" for m in ("latency", "throughput")]
        lines.append(",".join([model, precision, device, *cells]))
    path = Path(path)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
