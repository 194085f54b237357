"""``Adapter`` and ``AdapterConfig``: LoRA adapters as ``openvino_genai`` names them.

An ``Adapter`` reads a safetensors file (the ``safetensors`` package) and groups its tensors as
GenAI's ``lora/adapter.cpp`` does (openvino.genai ``default_lora_patterns``): ``<layer>.lora_A.weight``
/ ``<layer>_lora_down.weight`` is A (``rank x d_in``), ``<layer>.lora_B.weight`` / ``..._lora_up.weight``
is B (``d_out x rank``), ``<layer>.alpha`` an alpha that GenAI reads but does not use (its
``collect_applicable_tensors``: "only alpha from config is used"). So a layer ``y = x W`` becomes
``y = x W + alpha (x A^T) B^T`` with ``alpha`` the config's, not ``alpha / rank``.
An adapter is an identity: the wheel compares adapters by object, so copies keep the object.
``lora.py`` applies adapters to the pipelines.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

_SRC = "src/cpp/src/lora/adapter.cpp"
# default_lora_patterns(): the layer name is group 2 (or 6) of A's and B's patterns, group 1 of alpha's
_A = re.compile(r"((.*)[_.](lora[_.](A|down)\.weight))|((.*lora[12])\.(down\.weight))")
_B = re.compile(r"((.*)[_.](lora[_.](B|up)\.weight))|((.*lora[12])\.(up\.weight))")
_ALPHA = re.compile(r"(.*)\.alpha")
# default_lora_constant_patterns(): whole-weight replacements, which ovlab does not simulate
_CONSTANT = re.compile(r"(.*)\.(lm_head|embed_tokens)\.weight")


def _layer(pattern: re.Pattern, name: str) -> str | None:
    m = pattern.fullmatch(name)
    if m is None:
        return None
    if pattern is _ALPHA:
        return m.group(1)
    return m.group(2) if m.group(2) is not None else m.group(6)


@dataclass(frozen=True)
class LoRAWeight:
    """One adapted layer: A (rank, d_in), B (d_out, rank), and the file's alpha if it has one."""

    A: np.ndarray
    B: np.ndarray
    alpha: float | None = None
    itemsize: int = 4  # bytes per element in the file (the state tensors keep its type)

    @property
    def rank(self) -> int:
        return int(self.A.shape[0])


def _check(ok: bool, condition: str, line: int, message: str) -> None:
    if not ok:
        raise RuntimeError(f"Check '{condition}' failed at {_SRC}:{line}:\n{message}")


def group_lora_tensors(tensors: dict[str, np.ndarray]) -> dict[str, LoRAWeight]:
    """Tensors by layer name (``group_lora_tensors``): names that match no pattern are ignored,
    as GenAI ignores them; a layer with only A or only B is GenAI's error."""
    parts: dict[str, dict[str, Any]] = {}
    for name in sorted(tensors):
        if _CONSTANT.fullmatch(name):
            raise NotImplementedError(f"LoRA adapter tensor {name!r} replaces a whole weight "
                                      "(lm_head / embed_tokens): not simulated by ovlab")
        for key, pattern in (("A", _A), ("B", _B), ("alpha", _ALPHA)):
            layer = _layer(pattern, name)
            if layer is not None:
                parts.setdefault(layer, {})[key] = tensors[name]
                break
    out = {}
    for layer, p in parts.items():
        _check("A" in p and "B" in p, "lora_tensor.second.A && lora_tensor.second.B", 177,
               f"Either A, B or both matrices are missing in LoRA tensors for layer: {layer}")
        itemsize = int(np.asarray(p["A"]).dtype.itemsize)
        a, b = (np.asarray(p[k], np.float32) for k in ("A", "B"))
        if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[1]:
            raise RuntimeError(f"LoRA tensors of layer {layer}: A {a.shape} and B {b.shape} are "
                               "not (rank, d_in) and (d_out, rank)")
        alpha = p.get("alpha")
        out[layer] = LoRAWeight(a, b, None if alpha is None else float(np.asarray(alpha).ravel()[0]),
                                itemsize)
    return out


_PARSE = ("safetensors_file_init(safetensor_data, safetensor.get_byte_size(), &safe_tensors_file) "
          "== nullptr", 112, "Cannot parse safetensor as a Safetensors file format. Safetensors "
          "file format is supported only")


def _read(source: Any) -> tuple[dict[str, np.ndarray], str]:
    """The tensors of a safetensors file (a path, or an ``ov.Tensor`` of the file's bytes) and
    where they came from, with GenAI's checks (``SafetensorsAdapterImpl``)."""
    from safetensors.numpy import load, load_file

    if hasattr(source, "data"):  # Adapter(safetensor: ov.Tensor)
        raw, where = np.ascontiguousarray(np.asarray(source.data)).tobytes(), "<ov.Tensor>"
    else:
        path = Path(source.decode() if isinstance(source, bytes) else str(source))
        _check(path.exists(), "std::filesystem::exists(path)", 1041,
               f"LoRA adapter path does not exist: {path}")
        _check(path.suffix == ".safetensors", 'path.extension().string() == ".safetensors"', 1042,
               f"Expected .safetensors file, got: {path}")
        raw, where = None, str(path)
    try:
        return (load(raw) if raw is not None else load_file(where)), where
    except Exception as e:  # noqa: BLE001 - safetensors raises its own error types and OSError
        condition, line, message = _PARSE
        raise RuntimeError(f"Check '{condition}' failed at {_SRC}:{line}:\n{message} ({e})") from e


class Adapter:
    """``openvino_genai.Adapter(path)``: a LoRA adapter read from a safetensors file (or from
    an ``ov.Tensor`` holding the file's bytes); ``Adapter()`` is the empty one (falsy)."""

    def __init__(self, path: Any = None) -> None:
        self._source = path
        self._tensors: dict[str, LoRAWeight] = {}
        self._path = ""
        if path is not None:
            raw, self._path = _read(path)
            self._tensors = group_lora_tensors(raw)

    def __bool__(self) -> bool:
        return self._source is not None

    def __copy__(self) -> Adapter:
        return self  # immutable, and compared by identity as in the wheel

    def __deepcopy__(self, memo: dict) -> Adapter:
        return self

    def __repr__(self) -> str:
        if not self:
            return "Adapter()"
        ranks = sorted({w.rank for w in self._tensors.values()})
        return f"Adapter({self._path!r}: {len(self._tensors)} layers, rank {ranks})"


class AdapterConfig:
    """Adapters with their alphas (weights), and how they are applied (``mode``)."""

    class Mode(enum.IntEnum):
        MODE_AUTO = 0
        MODE_DYNAMIC = 1
        MODE_STATIC_RANK = 2
        MODE_STATIC = 3
        MODE_FUSE = 4

    def __init__(self, adapter: Any = None, alpha: Any = None, mode: Any = None, **kwargs: Any
                 ) -> None:
        if isinstance(adapter, AdapterConfig.Mode):  # AdapterConfig(mode)
            adapter, mode = None, adapter
        if isinstance(alpha, AdapterConfig.Mode):  # AdapterConfig(adapter, mode)
            alpha, mode = None, alpha
        self.mode = AdapterConfig.Mode(mode if mode is not None else 0)
        self._alphas: list[tuple[Adapter, float]] = []
        adapters = kwargs.get("adapters", adapter)
        if isinstance(adapters, (list, tuple)):
            for item in adapters:
                a, w = item if isinstance(item, tuple) else (item, 1.0)
                self.add(a, w)
        elif adapters is not None:
            self.add(adapters, 1.0 if alpha is None else alpha)

    def add(self, adapter: Adapter, alpha: float = 1.0) -> AdapterConfig:
        if not isinstance(adapter, Adapter):
            raise TypeError(f"AdapterConfig.add takes an openvino_genai.Adapter, not "
                            f"{type(adapter).__name__}")
        if any(a is adapter for a, _ in self._alphas):
            return self
        self._alphas.append((adapter, float(alpha)))
        return self

    def remove(self, adapter: Adapter) -> AdapterConfig:
        self._alphas = [(a, w) for a, w in self._alphas if a is not adapter]
        return self

    def get_adapters(self) -> list[Adapter]:
        return [a for a, _ in self._alphas]

    def get_adapters_and_alphas(self) -> list[tuple[Adapter, float]]:
        return list(self._alphas)

    def set_adapters_and_alphas(self, adapters: list[tuple[Adapter, float]]) -> None:
        self._alphas = []
        for a, w in adapters:
            self.add(a, w)

    def _index(self, adapter: Adapter, method: str) -> int:
        for i, (a, _) in enumerate(self._alphas):
            if a is adapter:
                return i
        raise RuntimeError(f"Check 'adapters.end() != it' failed at {_SRC}:1867:\nUnknown adapter "
                           f"object passed to AdapterConfig::{method}, alpha can be "
                           f"{'retrieved' if method == 'get_alpha' else 'set'} for previously "
                           "registered adapters only")

    def get_alpha(self, adapter: Adapter) -> float:
        return self._alphas[self._index(adapter, "get_alpha")][1]

    def set_alpha(self, adapter: Adapter, alpha: float) -> AdapterConfig:
        self._alphas[self._index(adapter, "set_alpha")] = (adapter, float(alpha))
        return self

    def __bool__(self) -> bool:
        return bool(self._alphas)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AdapterConfig):
            return NotImplemented
        return self.mode == other.mode and len(self._alphas) == len(other._alphas) and all(
            a is b and x == y for (a, x), (b, y) in zip(self._alphas, other._alphas, strict=True))

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        items = ", ".join(f"{a!r}: {w:g}" for a, w in self._alphas)
        return f"AdapterConfig({self.mode.name}, {{{items}}})"
