"""ovlab's continuous batching against the real openvino_genai on the same tiny LLM (IR exported
from the same weights): the same PipelineMetrics after every step and the same tokens.

The full comparison is ``benchmarks/bench_genai_real.py``; this runs two of its cases. Skipped
where the openvino-genai wheel is not installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("openvino_genai", reason="the real openvino-genai wheel is not installed")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_genai_real  # noqa: E402
from export_tiny_llm_ir import export  # noqa: E402


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp("ir") / "tiny-llm-ir")


@pytest.mark.parametrize("case", ["split-fuse, 4 blocks (preemption by recompute)",
                                  "split-fuse + prefix caching, shared system prompt"])
def test_same_steps_and_tokens_as_real_genai(model_dir, case):
    result = bench_genai_real.compare(model_dir, verbose=False,
                                      cases={case: bench_genai_real.CASES[case]})[case]
    assert result["real"] == result["ovlab"]
    assert result["requests_with_other_tokens"] == 0
