"""``Adapter`` and ``AdapterConfig``: LoRA adapters as ``openvino_genai`` names them.

An ``Adapter`` is an identity (the wheel compares adapters by object); ``AdapterConfig`` keeps
adapters with their alphas and a mode. Generating with adapters is not simulated yet: a
``GenerationConfig`` or pipeline that carries them raises a clear error naming LoRA.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any


class Adapter:
    """A LoRA adapter read from a safetensors file (``path``), or an empty one."""

    def __init__(self, path: Any = None) -> None:
        if path is not None and not hasattr(path, "data") and not Path(str(path)).exists():
            raise RuntimeError(f"Adapter: cannot open the safetensors file {str(path)!r}")
        self._source = path

    def __bool__(self) -> bool:
        return self._source is not None


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

    def set_adapters_and_alphas(self, adapters: list[tuple[Adapter, float]]) -> AdapterConfig:
        self._alphas = [(a, float(w)) for a, w in adapters]
        return self

    def get_alpha(self, adapter: Adapter) -> float:
        for a, w in self._alphas:
            if a is adapter:
                return w
        raise RuntimeError("Adapter that is not registered in AdapterConfig")

    def set_alpha(self, adapter: Adapter, alpha: float) -> AdapterConfig:
        for i, (a, _) in enumerate(self._alphas):
            if a is adapter:
                self._alphas[i] = (a, float(alpha))
                return self
        raise RuntimeError("Adapter that is not registered in AdapterConfig")

    def __bool__(self) -> bool:
        return bool(self._alphas)
