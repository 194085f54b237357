"""Fixtures of the frontend tests: the IR files the real OpenVINO wrote (shared/reference), and a
helper that runs the same read on the real wheel and on ovlab."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent


def _reference_ir() -> Path:
    for base in (HERE.parents[1], *HERE.parents[1].parents):
        cand = base / "shared" / "reference" / "ov_probe" / "ir"
        if cand.is_dir():
            return cand
    return Path("/work/shared/reference/ov_probe/ir")


REFERENCE_IR = _reference_ir()


@pytest.fixture(scope="session")
def reference_ir() -> Path:
    """IR files saved by openvino 2026.4.1's save_model (tiny_convnet, tiny_mlp, heavy_convnet)."""
    if not (REFERENCE_IR / "tiny_convnet.xml").is_file():
        pytest.skip("shared/reference/ov_probe/ir is not beside the project")
    return REFERENCE_IR


@pytest.fixture
def convnet_copy(reference_ir, tmp_path) -> Path:
    """A writable copy of tiny_convnet.xml/.bin (uncompressed f32 weights)."""
    for ext in (".xml", ".bin"):
        shutil.copy(reference_ir / f"tiny_convnet{ext}", tmp_path / f"tiny_convnet{ext}")
    return tmp_path / "tiny_convnet.xml"


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(0)
