"""The zoo's IR for the real runtime, read without leaving a folder behind."""

from __future__ import annotations

import tempfile

import pytest

pytest.importorskip("openvino")


def test_real_model_reads_the_ir_from_memory_and_leaves_no_folder(tmp_path, monkeypatch):
    from ovlab.sim.calibration.measure import real_model
    from ovlab.sim.models import zoo

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    real = real_model("googlenet-v1", "FP32")
    ours = zoo.load("googlenet-v1", "FP32")
    assert len(real.get_ordered_ops()) == len(ours.get_ordered_ops())
    assert [p.get_partial_shape().to_string() for p in real.inputs] == \
        [p.get_partial_shape().to_string() for p in ours.inputs]
    assert list(tmp_path.iterdir()) == []  # the temporary IR folder is gone
    kept = real_model("googlenet-v1", "FP32", directory=str(tmp_path))  # a folder asked for
    assert (tmp_path / "googlenet-v1-FP32.xml").exists() and kept.inputs
