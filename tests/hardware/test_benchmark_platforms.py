"""``ovlab benchmark`` on the published platforms (issue 13): names as Intel's tables write them,
``--platform`` presets and files, ``-infer_precision``."""

from __future__ import annotations

import pytest

from ovlab import benchmark
from ovlab.tools.benchmark import BenchmarkError, run


@pytest.mark.parametrize("text, expected", [
    ("resnet-50-tf:INT8", "resnet-50:INT8"),
    ("googlenet-v1-tf", "googlenet-v1"),
    ("RESNET_50", "resnet-50"),
    ("squeezenet1.1-caffe2:FP16", "squeezenet1.1:FP16"),
    ("resnet-50", "resnet-50"),
])
def test_intel_table_names_resolve_to_zoo_models(text, expected):
    assert benchmark.resolve_model(text)[0] == expected


def test_models_of_the_tables_missing_from_the_zoo_are_clear_errors():
    from ovlab import zoo

    for name in ("yolo-v5s", "llama-2-7b-chat"):
        with pytest.raises(BenchmarkError, match=f"model '{name}' .* is not in ovlab's zoo"):
            run(["-m", f"{name}:INT8", "-niter", "1", "--platform", "i9-13900k"])
    # issue 35: the tables' other models are in the zoo by architecture (table_zoo.py)
    for name, target in (("bert-base-cased", "bert-base-cased"), ("yolo-v8n", "yolo_v8n"),
                         ("ssd_mobilenet_v1_coco", "ssd_mobilenet_v1_coco"),
                         ("yolo-v3-tf", "yolo_v3"), ("unet-camvid-onnx-0001",
                                                      "unet-camvid-onnx-0001")):
        assert benchmark.resolve_model(f"{name}:INT8")[0] == f"{target}:INT8"
    for name, target in (("mobilenet-v2-pytorch", "mobilenet-v2"), ("yolo_v3_tiny", "yolo-v3-tiny"),
                         ("yolo-v3-tiny-tf", "yolo-v3-tiny")):
        if target in zoo.names():
            assert benchmark.resolve_model(name)[0] == target
        else:
            with pytest.raises(BenchmarkError, match="not in ovlab's zoo"):
                benchmark.resolve_model(name)


def test_the_published_command_runs_and_announces_the_alias():
    rep = run(["-m", "resnet-50-tf:INT8", "-d", "CPU", "-hint", "latency", "--platform",
               "i7-1185g7", "-niter", "30"])
    assert any("ovlab reads 'resnet-50-tf' as the zoo model resnet-50" in ln for ln in rep.lines)
    assert rep.latency_median_ms == pytest.approx(4.95, rel=0.03)  # Intel's published row


def test_help_lists_presets_and_platform_files():
    text = "\n".join(benchmark.help_lines())
    assert "i7-1185g7" in text and "flex-170" in text and "my-machine.json" in text
    assert "-infer_precision" in text


def test_infer_precision_reaches_the_device():
    f16 = run(["-m", "resnet-50", "-d", "GPU", "-hint", "latency", "-niter", "10", "--platform",
               "i7-1185g7"])
    f32 = run(["-m", "resnet-50", "-d", "GPU", "-hint", "latency", "-niter", "10", "--platform",
               "i7-1185g7", "-infer_precision", "f32"])
    assert f32.latency_median_ms > 1.5 * f16.latency_median_ms
    auto = run(["-m", "resnet-50", "-d", "AUTO:GPU,CPU", "-hint", "cumulative_throughput",
                "-t", "5", "--platform", "i7-1185g7", "-infer_precision", "GPU:f32"])
    plain = run(["-m", "resnet-50", "-d", "AUTO:GPU,CPU", "-hint", "cumulative_throughput",
                 "-t", "5", "--platform", "i7-1185g7"])
    assert auto.throughput_fps < plain.throughput_fps
    with pytest.raises(BenchmarkError, match="Failed to set property to 'NPU' which is not found "
                                             "in the target devices list 'GPU'"):
        run(["-m", "mlp", "-d", "GPU", "-niter", "1", "-infer_precision", "NPU:f16"])
