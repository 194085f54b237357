"""Lab 14's experiment (``genai.device_choice``), its figures and its dashboard: the numbers
follow the device rules (the NPU's padded prefill, one request at a time), and a change of the
dashboard's knobs redraws."""

from __future__ import annotations

import pytest

from ovlab.sim.genai import device_choice as dc

TINY = "TinyLlama-1.1B-Chat-v1.0-int4-ov"


def test_prompt_ids_have_the_asked_length_and_variants_differ():
    a, b = dc.prompt_ids(TINY, 100), dc.prompt_ids(TINY, 100, 1)
    assert a.shape == (1, 100) and (a != b).any()
    with pytest.raises(ValueError):
        dc.prompt_ids(TINY, 0)


def test_one_request_per_device_follows_the_device_rules():
    short = {f.device: f for f in dc.compare(TINY, 32, new_tokens=8)}
    long = {f.device: f for f in dc.compare(TINY, 900, new_tokens=8)}
    assert short["NPU"].pipeline.startswith("NPU stateful")
    assert short["NPU"].ttft_ms == pytest.approx(long["NPU"].ttft_ms)  # padded prefill
    assert long["GPU"].ttft_ms > 3 * short["GPU"].ttft_ms
    assert short["GPU"].ttft_ms < short["CPU"].ttft_ms < short["NPU"].ttft_ms
    assert short["NPU"].load_s > short["GPU"].load_s > short["CPU"].load_s  # the compiles
    assert short["NPU"].memory_gb > short["GPU"].memory_gb  # its static KV buffer


def test_several_users_batch_on_gpu_and_queue_on_npu():
    gpu = [dc.serve_users(TINY, "GPU", u, 64, 16) for u in (1, 4)]
    npu = [dc.serve_users(TINY, "NPU", u, 64, 16) for u in (1, 4)]
    assert gpu[1].tokens_per_s > 2 * gpu[0].tokens_per_s
    assert npu[1].tokens_per_s == pytest.approx(npu[0].tokens_per_s, rel=0.01)
    assert max(npu[1].ttft_ms) > 3 * min(npu[1].ttft_ms)  # the last waits for the others
    with pytest.raises(ValueError):
        dc.serve_users(TINY, "GPU", 0)


def test_recommendation_names_a_device_and_gives_reasons():
    figures = dc.compare(TINY, 128, new_tokens=8)
    pick, reasons = dc.recommend(figures, 1)
    assert pick == "GPU" and any("NPU" in r for r in reasons)
    assert dc.recommend(figures, 4)[0] == "GPU"
    assert any("4 users" in r for r in dc.recommend(figures, 4)[1])


def test_dashboard_redraws_and_shows_the_npu_error_over_max_prompt_len():
    from ovlab.sim.widgets import LLMDeviceDashboard

    dash = LLMDeviceDashboard(model=TINY, prompt_tokens=128, new_tokens=4)
    title = dash.fig.layout.title.text
    assert "pick GPU for 1 user" in title and "pick GPU" in dash.summary.value
    dash.w_users.value = 4
    assert dash.fig.layout.title.text != title and "4 users at once" in dash.summary.value
    dash.w_prompt.value = 1536
    assert "error:</b> NPU: Stateful LLM pipeline on NPU" in dash.summary.value
    assert [t.x for t in dash.fig.data][0] == ("CPU", "GPU")
    assert dash.static_figure().layout.title.text == dash.fig.layout.title.text


def test_lab14_exercises_answers():
    from ovlab.sim.exercises import for_lab

    ex = for_lab("14")
    # a draft on the CPU or the iGPU lowers the iGPU's TPOT a little; on the NPU it raises it
    order = ex.answer(3)
    assert sorted(order) == ["CPU", "GPU", "NPU", "none"] and order[-1] == "NPU"
    assert order.index("none") == 2
    assert ex.answer(2)[0] == "GPU" and ex.answer(2)[-1] == "NPU"
