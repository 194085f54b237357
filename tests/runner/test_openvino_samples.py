"""OpenVINO's Python samples on ovlab (``tests/openvino_samples/``): third-party code, never
committed, so each test runs when its sample is in ``tests/openvino_samples/upstream/``
(git-ignored) and is skipped otherwise."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "tests" / "openvino_samples" / "upstream"


def _run(args: list[str], cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _top(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "class_id probability" in line)
    return [line.split("] ", 1)[1] for line in lines[start + 2:start + 4]]


def test_hello_classification_gives_the_wheels_top_classes(tmp_path):
    sample = SAMPLES / "hello_classification.py"
    if not sample.is_file():
        pytest.skip(f"{sample} is not present (third-party samples are never committed)")
    if importlib.util.find_spec("cv2") is None:
        pytest.skip("the sample reads its image with OpenCV, which is not installed")
    from PIL import Image

    import ovlab
    import ovlab.sim.models.zoo

    ovlab.save_model(ovlab.zoo.load("googlenet-v1"), tmp_path / "model.xml")
    h, w = 480, 640
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([x * 255 // w, y * 255 // h, (x + y) * 255 // (w + h)], -1)
    rgb = np.clip(rgb + np.random.default_rng(0).integers(-20, 20, rgb.shape), 0, 255)
    Image.fromarray(rgb.astype(np.uint8)).save(tmp_path / "image.bmp")
    args = [str(sample), "model.xml", "image.bmp", "CPU"]
    ours = _top(_run(["-m", "ovlab", "run", "--platform", "cpu", *args], tmp_path))
    assert len(ours) == 2 and all(line.split()[0].isdigit() for line in ours)
    if importlib.util.find_spec("openvino") is not None:
        assert ours == _top(_run(args, tmp_path))
