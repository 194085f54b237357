"""ONNX models (placeholder until the ONNX frontend lands)."""

from __future__ import annotations

from pathlib import Path

from ..graph.model import Model


def maybe_onnx(path: Path) -> Model | None:
    return None


def maybe_onnx_bytes(data: bytes) -> Model | None:
    return None


def read_onnx_file(path: Path) -> Model:
    raise NotImplementedError
