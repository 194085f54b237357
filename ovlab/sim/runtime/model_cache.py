"""``CACHE_DIR``: compiled models cached on disk, named and keyed as OpenVINO does.

OpenVINO writes one ``<key>.blob`` per compiled model into ``CACHE_DIR`` and loads it instead of
compiling when a later compile (in this process or another) computes the same key. This module
does the same with small files:

* **The key** follows ``ModelCache::compute_hash`` (``src/inference/src/dev/compilation_context.cpp``):
  a hash of the model (ops, friendly names, attributes, shapes, connections, the weights' bytes),
  then every compile option folded in with boost's ``hash_combine``, then each op's rt_info, printed
  as an unsigned 64-bit decimal. The compile options are the device's *caching properties*
  (``CoreImpl::create_compile_config``): for the CPU only ``FULL_DEVICE_NAME`` (measured on 2026.4.1:
  a THROUGHPUT or PERF_COUNT compile loads the LATENCY blob), for the GPU its architecture,
  execution units, ``INFERENCE_PRECISION_HINT``, ``EXECUTION_MODE_HINT`` and ``PERFORMANCE_HINT``
  (``intel_gpu/src/plugin/plugin.cpp``). As measured, the key depends on the ops' friendly names
  but not on the auto-generated unique names nor on the model's name, and changes with any weight
  or rt_info (an ``affinity``).
  Python cannot reproduce ``std::hash`` or ``ov::pass::Hash`` bit for bit, so the numbers differ
  from the real runtime's; what a key depends on is the same. ovlab's GPUs share one architecture
  string, so their ``FULL_DEVICE_NAME`` stands in for the execution-unit count.
* **The file** starts with the real header line (``<compiled_blob ie_version=... />``), followed by
  a short JSON description instead of a device binary. A blob with another ``ie_version`` or that
  cannot be read is outdated: the model is compiled again and the blob rewritten (measured).
* **The directory**: setting ``CACHE_DIR`` creates it (and its parents) at once; a path that
  cannot be created fails with OpenVINO's ``Couldn't create directory`` error. An existing file
  or an unwritable directory is accepted and nothing is cached (measured; where the real runtime
  aborts the process on ``Permission denied`` while looking for a blob, ovlab only skips caching).
* HETERO caches a split model as one blob (its submodels compile without a cache), as measured
  with ``HETERO:CPU``; BATCH's batch-1 and batched device models are cached by the device.
* Lazily materialised weights (``ovlab.sim.graph.lazy``) are hashed by their recipe (shape, type,
  seed), so a huge model is keyed without being made.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from .. import errors as _errors

_MASK = (1 << 64) - 1
BLOB_SUFFIX = ".blob"


# --- keys ------------------------------------------------------------------------------------------
def _h(text: str | bytes) -> int:
    """A stable 64-bit hash of a string (std::hash's role; Python's own is salted per process)."""
    data = text.encode() if isinstance(text, str) else text
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def hash_combine(seed: int, value: str | bytes | int) -> int:
    """Boost's ``hash_combine``, as in compilation_context.cpp."""
    h = value & _MASK if isinstance(value, int) else _h(value)
    return (seed ^ ((h + 0x9E3779B9 + ((seed << 6) & _MASK) + (seed >> 2)) & _MASK)) & _MASK


def _constant_digest(node) -> str:
    """The weights' digest, computed once per Constant (clones share the cache)."""
    cache = node._attrs.setdefault("_cache", {})
    digest = cache.get("digest")
    if digest is None:
        recipe = getattr(node, "recipe", None)
        if recipe is not None:
            digest = hashlib.blake2b(repr(recipe).encode(), digest_size=16).hexdigest()
        else:
            arr = np.ascontiguousarray(node.get_data())
            digest = hashlib.blake2b(arr.tobytes(), digest_size=16).hexdigest()
        cache["digest"] = digest
    return digest


def _model_hash(model) -> int:
    """``ov::pass::Hash`` stand-in: the model as its IR would serialise it (once per stretch of
    code that leaves the model unchanged, see ``Model._unchanged``)."""
    return model._memo("hash", lambda: _hash_ops(model))


def _hash_ops(model) -> int:
    ops = model.get_ordered_ops()
    index = {id(op): i for i, op in enumerate(ops)}
    seed = 0  # the model's own name is not hashed (measured: a renamed model loads the blob)
    for op in ops:
        parts = [op.get_type_name(), op.get_friendly_name()]
        attrs = op.get_attributes()
        parts.append(json.dumps({k: str(v) for k, v in sorted(attrs.items())}, sort_keys=True))
        for i in range(op.get_output_size()):
            parts.append(f"{op.get_output_element_type(i).get_type_name()}"
                         f"{list(op.get_output_shape(i))}{sorted(op.output(i).get_names())}")
        for src in op.input_values():
            parts.append(f"<-{index[id(src.get_node())]}:{src.get_index()}")
        if op.get_type_name() == "Constant":
            parts.append(_constant_digest(op))
        seed = hash_combine(seed, "|".join(parts))
    return seed


def compute_hash(model, compile_options: dict[str, Any]) -> str:
    """The blob key of ``model`` compiled with ``compile_options`` (the device's caching
    properties), as the decimal string OpenVINO names the file after."""
    seed = _model_hash(model)
    for name in sorted(compile_options):  # an ov::AnyMap is a std::map: sorted by key
        seed = hash_combine(seed, f"{name}{_text(compile_options[name])}")
    for op in model.get_ordered_ops():
        for name, value in sorted(op.get_rt_info().items(), key=lambda kv: str(kv[0])):
            seed = hash_combine(seed, str(name))
            seed = hash_combine(seed, str(value))
    return str(seed)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "YES" if value else "NO"
    name = getattr(value, "name", None)
    if name is not None and not isinstance(value, str):
        return str(name)
    if hasattr(value, "get_type_name"):
        return value.get_type_name()
    return str(value)


# --- the directory ---------------------------------------------------------------------------------
def prepare_dir(path: Any, api: str) -> None:
    """Create ``CACHE_DIR`` (and its parents) as the Core does when the property is set.

    An existing path is left alone, even a file (compiles then cache nothing); a path that
    cannot be created raises OpenVINO's error for the calling API."""
    text = str(path)
    if not text or os.path.exists(text):
        return
    try:
        os.makedirs(text, exist_ok=True)
    except OSError as err:
        raise RuntimeError(_errors.format_chain(
            [_errors.API_SOURCES[api]],
            f'Couldn\'t create directory ["{text}"], err={err.strerror})')) from None


def blob_path(cache_dir: Any, key: str) -> Path:
    return Path(str(cache_dir)) / f"{key}{BLOB_SUFFIX}"


def _header() -> str:
    from ..._version import BUILD_NUMBER, OPENVINO_VERSION

    return (f'<?xml version="1.0"?><compiled_blob ie_version="{BUILD_NUMBER}" file_info="" '
            f'runtime_info="{{OV_VERSION:{OPENVINO_VERSION}}}" header_size_alignment="0"/>')


def read_blob(cache_dir: Any, key: str) -> dict[str, Any] | None:
    """The blob's description if a current, readable blob exists for ``key``, else None."""
    path = blob_path(cache_dir, key)
    try:
        with open(path, encoding="utf-8") as f:
            header = f.readline().rstrip("\n")
            body = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    if header != _header():
        return None  # another OpenVINO build, or not a blob: outdated, compile again
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) and payload.get("key") == key else None


def write_blob(cache_dir: Any, key: str, payload: dict[str, Any]) -> bool:
    """Write the blob; False (and nothing raised) when the directory does not take files."""
    path = blob_path(cache_dir, key)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(_header() + "\n")
            json.dump({"key": key, **payload}, f, indent=1, sort_keys=True)
            f.write("\n")
    except OSError:
        return False
    return True
