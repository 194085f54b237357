"""Platform files: a virtual machine as JSON (what ``ovlab calibrate`` writes).

``ov.Core(platform="my-machine.json")``, ``ovlab benchmark --platform my-machine.json`` and
``ov.preset("my-machine.json")`` load one; :func:`save` writes any :class:`Platform` (every preset
round-trips: saved and loaded again it gives the same timings).

The format::

    {"format": "ovlab-platform", "version": 1, "name": "my-machine", "description": "...",
     "notes": ["..."], "power_mode": "performance" | "low_power",
     "power_budget": null | {"watts": 28, "draws": {"CPU": 28, "GPU.0": 20}},
     "devices": {"CPU": {<every DeviceSpec field>}, "GPU.0": {...}},
     "provenance": {...}}   # optional: how the file was made (free-form)

A file may describe its machine by datasheet figures instead of (or beside) ``devices`` (issue
35; the catalogue of Intel's published platforms, ``hardware/catalogue/``, is made of them)::

     "datasheet": {"CPU": {"family": "alder-raptor", "p_cores": 6, "e_cores": 8,
                           "p_base_ghz": 2.3, "p_turbo_ghz": 4.7, ..., "mem_channels": 2,
                           "mem_mts": 4800, "tdp_w": 45},
                   "GPU.0": {"family": "xe-lp", "eus": 96, "gpu_max_ghz": 1.4}},
     "catalogue": {...}     # optional: the published platform it stands for, its role

Each figure is a number or ``{"value": v, "source": "<spec page>", "url": "..."}``; the
devices are built by the family cost model (``hardware/family.py``), and a device also given
under ``devices`` replaces the built one.

A file is checked against :data:`SCHEMA` (JSON Schema, checked by ``jsonschema``) before anything
is built from it, so a bad or foreign file fails with a :class:`PlatformFileError` naming the
field (``devices.CPU.peak_gflops.bf16: -3 is less than or equal to the minimum of 0``) instead of
a wrong timing later. The device schema follows :class:`DeviceSpec`: a field added to the
dataclass is accepted with the type of its annotation until it gets its own rule here.
"""

from __future__ import annotations

import dataclasses
import json
import os
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .machine import POWER_MODES, Platform
from .power import PowerBudget
from .specs import DeviceSpec

if TYPE_CHECKING:
    import jsonschema

FORMAT = "ovlab-platform"
VERSION = 1
PRECISIONS = ["f32", "f16", "bf16", "i8"]


class PlatformFileError(ValueError):
    """A platform file that cannot be used; the message names the file and the field."""


_POS = {"type": "number", "exclusiveMinimum": 0}
_NONNEG = {"type": "number", "minimum": 0}
_POS_INT = {"type": "integer", "minimum": 1}
_PER_PRECISION = {"type": "object", "propertyNames": {"enum": PRECISIONS},
                  "additionalProperties": _POS}
# rules for the DeviceSpec fields (the others get the type of their annotation)
_DEVICE_RULES: dict[str, dict] = {
    "plugin": {"enum": ["CPU", "GPU", "NPU"]},
    "full_name": {"type": "string", "minLength": 1},
    "device_type": {"enum": ["integrated", "discrete"]},
    "capabilities": {"type": "array", "items": {"type": "string"}},
    "peak_gflops": {**_PER_PRECISION, "minProperties": 1},
    "efficiency": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "mem_bw_gbs": _POS, "mem_size_gb": _POS, "link_gbs": _POS,
    "link_latency_s": _NONNEG, "per_op_s": _NONNEG, "per_infer_s": _NONNEG,
    "first_infer_factor": {"type": "number", "minimum": 1},
    "compile_base_s": _NONNEG, "compile_per_op_s": _NONNEG, "compile_per_mb_s": _NONNEG,
    "cached_load_s": _NONNEG,
    "streams_throughput": _POS_INT,
    "range_for_streams": {"type": "array", "items": _POS_INT, "minItems": 2, "maxItems": 2},
    "range_for_async_infer_requests": {"type": "array", "items": _POS_INT, "minItems": 3,
                                       "maxItems": 3},
    "requests_per_stream": _POS_INT,
    "stream_scaling": {"type": "number", "minimum": 0, "maximum": 2},
    "jitter": {"type": "number", "minimum": 0, "maximum": 2},
    "optimal_batch": {"type": ["integer", "null"], "minimum": 1},
    "max_batch": {"type": ["integer", "null"], "minimum": 1},
    "inference_precision": {"enum": ["f32", "f16", "bf16"]},
    "supported_ops": {"type": ["array", "null"], "items": {"type": "string"}},
    "compile_host_load": _NONNEG,
    "stream_share": {"enum": ["fixed", "dynamic"]},
    "architecture": {"type": "string"},
    "efficiency_by_precision": {"type": "object", "propertyNames": {"enum": PRECISIONS},
                                "additionalProperties": {"type": "number",
                                                         "exclusiveMinimum": 0, "maximum": 1}},
    "kind_efficiency": {"type": "object",
                        "propertyNames": {"enum": ["conv", "depthwise", "matmul", "other"]},
                        "additionalProperties": {"type": "number", "exclusiveMinimum": 0,
                                                 "maximum": 10}},
    "mem_efficiency": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "fuse_ops": {"type": "boolean"},
    "async_overhead_s": _NONNEG,
    "per_op_kind": {"type": "object",
                    "propertyNames": {"enum": ["conv", "depthwise", "matmul", "other"]},
                    "additionalProperties": {"type": "number", "minimum": 0, "maximum": 10}},
    "per_op_i8_s": _NONNEG,
    "stream_dispatch": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "depthwise_i8_rate": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "depthwise_bf16_rate": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "matmul_i8_rate": {"type": "number", "exclusiveMinimum": 0, "maximum": 2},
    "epilogue_flops": _NONNEG,
    "extra": {"type": "object"},
}
_JSON_TYPES = {float: {"type": "number"}, int: {"type": "integer"}, str: {"type": "string"},
               bool: {"type": "boolean"}, dict: {"type": "object"}, list: {"type": "array"},
               tuple: {"type": "array"}}


def _annotation_rule(tp: Any) -> dict:
    """A JSON Schema rule from a type annotation (for DeviceSpec fields without a rule)."""
    origin = typing.get_origin(tp) or tp
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", typing.Union)):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        rule = _annotation_rule(args[0]) if len(args) == 1 else {}
        if rule.get("type") and type(None) in typing.get_args(tp):
            rule = {**rule, "type": [rule["type"], "null"]}
        return rule
    return dict(_JSON_TYPES.get(origin, {}))


_FIGURE = {"anyOf": [{"type": ["number", "string", "boolean"]},
                    {"type": "object", "required": ["value"],
                     "properties": {"value": {"type": ["number", "string", "boolean"]},
                                    "source": {"type": "string"}, "url": {"type": "string"}}}]}
_DATASHEET_DEVICE = {"type": "object", "additionalProperties": _FIGURE,
                     "properties": {"notes": {"type": "array", "items": {"type": "string"}}}}


def device_schema() -> dict:
    """The JSON Schema of one device: the fields of :class:`DeviceSpec`."""
    hints = typing.get_type_hints(DeviceSpec)
    props, required = {}, []
    for f in dataclasses.fields(DeviceSpec):
        props[f.name] = _DEVICE_RULES.get(f.name) or _annotation_rule(hints[f.name])
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


def schema() -> dict:
    """The JSON Schema of a platform file."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ovlab platform file",
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "name": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
            "notes": {"type": "array", "items": {"type": "string"}},
            "power_mode": {"enum": list(POWER_MODES)},
            "power_budget": {"type": ["object", "null"], "properties": {
                "watts": _POS, "draws": {"type": "object", "additionalProperties": _POS,
                                         "minProperties": 2}},
                "required": ["watts", "draws"], "additionalProperties": False},
            "devices": {"type": "object", "minProperties": 1,
                        "propertyNames": {"pattern": r"^(CPU|GPU|NPU)(\.[0-9A-Za-z_]+)?$"},
                        "additionalProperties": device_schema()},
            "provenance": {"type": "object"},
            "catalogue": {"type": "object"},
            "datasheet": {"type": "object", "minProperties": 1,
                          "propertyNames": {"pattern": r"^(CPU|GPU|NPU)(\.[0-9A-Za-z_]+)?$"},
                          "additionalProperties": _DATASHEET_DEVICE},
        },
        "required": ["format", "version", "name"],
        "anyOf": [{"required": ["devices"]}, {"required": ["datasheet"]}],
        "additionalProperties": False,
    }


SCHEMA = schema()


# --- Platform <-> JSON --------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def device_to_dict(spec: DeviceSpec) -> dict[str, Any]:
    return {f.name: _plain(getattr(spec, f.name)) for f in dataclasses.fields(DeviceSpec)}


def device_from_dict(data: dict[str, Any]) -> DeviceSpec:
    hints = typing.get_type_hints(DeviceSpec)
    kw = {}
    for name, value in data.items():
        tp = typing.get_origin(hints[name]) or hints[name]
        if name == "supported_ops":
            value = None if value is None else frozenset(value)
        elif tp is tuple and isinstance(value, list):
            value = tuple(value)
        kw[name] = value
    return DeviceSpec(**kw)


def to_dict(platform: Platform, provenance: dict | None = None) -> dict[str, Any]:
    """The JSON form of ``platform`` (``provenance``: how it was made, kept in the file)."""
    budget = platform.power_budget
    out = {
        "format": FORMAT, "version": VERSION, "name": platform.name,
        "description": platform.description, "notes": list(platform.notes),
        "power_mode": platform.power_mode,
        "power_budget": None if budget is None else {"watts": budget.watts,
                                                     "draws": dict(budget.draws)},
        "devices": {name: device_to_dict(spec) for name, spec in platform.devices.items()},
    }
    if provenance:
        out["provenance"] = _plain(provenance)
    return out


def _where(error: jsonschema.ValidationError) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "(top level)"


def validate(data: Any, source: str = "platform file") -> None:
    """Raise :class:`PlatformFileError` naming the first bad field of ``data``."""
    if not isinstance(data, dict):
        raise PlatformFileError(f"{source}: not an ovlab platform file (a JSON "
                                f"{type(data).__name__}, expected an object)")
    if data.get("format") != FORMAT:
        keys = ", ".join(list(data)[:6]) or "none"
        raise PlatformFileError(
            f"{source}: not an ovlab platform file: field 'format' must be {FORMAT!r}, got "
            f"{data.get('format')!r} (top-level fields: {keys}); make one with "
            "'ovlab calibrate -o my-machine.json' or ovlab.sim.hardware.platform_file.save")
    if data.get("version") != VERSION:
        raise PlatformFileError(f"{source}: field 'version': this ovlab reads version "
                                f"{VERSION}, the file has {data.get('version')!r}")
    # imported here, not at the top: jsonschema pulls in its format checkers, and one of them
    # (rfc3987_syntax, installed with JupyterLab) builds a grammar at import that took 4.0 of the
    # 4.3 s of `import ovlab` (measured with -X importtime, 2026-11-27, 2-vCPU AMD EPYC); every
    # lab kernel, runner and `ovlab` command paid it, though only a platform file needs it
    import jsonschema

    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(SCHEMA).iter_errors(data))
    if error is not None:
        raise PlatformFileError(f"{source}: field '{_where(error)}': {error.message}")


def from_dict(data: Any, source: str = "platform file") -> Platform:
    """Check ``data`` and build its :class:`Platform`."""
    validate(data, source)
    devices = {}
    budget = None
    if data.get("datasheet"):
        from . import family

        try:
            devices, budget = family.build_devices(data["datasheet"])
        except (KeyError, TypeError, ValueError) as exc:
            raise PlatformFileError(f"{source}: field 'datasheet': cannot build the devices "
                                    f"from the figures ({type(exc).__name__}: {exc})") from None
    for name, fields in data.get("devices", {}).items():
        try:
            devices[name] = device_from_dict(fields)
        except (TypeError, ValueError) as exc:
            raise PlatformFileError(f"{source}: field 'devices.{name}': {exc}") from None
    if data.get("power_budget") is not None:
        try:
            budget = PowerBudget(float(data["power_budget"]["watts"]),
                                 dict(data["power_budget"]["draws"]))
        except ValueError as exc:
            raise PlatformFileError(f"{source}: field 'power_budget': {exc}") from None
    try:
        return Platform(data["name"], devices, data.get("description", ""),
                        list(data.get("notes", [])), data.get("power_mode", "performance"), budget)
    except ValueError as exc:
        field = "power_budget" if str(exc).startswith("power budget") else "devices"
        raise PlatformFileError(f"{source}: field '{field}': {exc}") from None


def save(platform: Platform, path: str | os.PathLike, provenance: dict | None = None) -> Path:
    """Write ``platform`` to ``path`` as a platform file; return the path."""
    path = Path(path)
    data = to_dict(platform, provenance)
    validate(data, str(path))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def load(path: str | os.PathLike) -> Platform:
    """Read a platform file (``PlatformFileError`` if it is missing, not JSON or not valid)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlatformFileError(f"platform file {str(path)!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlatformFileError(f"platform file {str(path)!r} cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlatformFileError(f"{path}: not an ovlab platform file: not JSON ({exc.msg} at "
                                f"line {exc.lineno}, column {exc.colno})") from None
    return from_dict(data, str(path))
