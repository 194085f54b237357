"""Every knob of every dashboard (labs 04, 05, 09, 13, 14) changes what it says it changes.

Each knob is turned in Python (no browser), at the lab's default settings and in a second state
of each dashboard. An enabled knob must change the run: the figure's data (drawn without the
previous run's ghost) or the summary line. A knob that changes nothing under the settings must
be disabled, with its reason on screen. View options are checked for what they do: ``live``
replays, the replay speed is greyed out while live is off, ``lock y axis`` keeps the range for
the next run, ``x`` moves the points, ``compare`` draws run A.
"""

from __future__ import annotations

import hashlib
import json
import re

import ipywidgets as widgets
import pytest

import ovlab
from ovlab.sim.widgets.llm_dashboard import LLMServingDashboard
from ovlab.sim.widgets.llm_device_dashboard import LLMDeviceDashboard
from ovlab.sim.widgets.resource_aware import ResourceAwareDashboard


def _digest(obj) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


def _other_value(w: widgets.Widget):
    """A value of ``w`` other than its current one."""
    if isinstance(w, widgets.Checkbox):
        return not w.value
    if isinstance(w, (widgets.Dropdown, widgets.ToggleButtons)):
        values = [o[1] if isinstance(o, tuple) else o for o in w.options]
        return next(v for v in values if v != w.value)
    if isinstance(w, widgets.Combobox):
        return next(o for o in w.options if o != w.value)
    if isinstance(w, (widgets.IntSlider, widgets.FloatSlider)):
        # a quarter of the way along, or three quarters if that is where the knob is
        for frac in (0.25, 0.75):
            v = w.min + frac * (w.max - w.min)
            v = round(v / w.step) * w.step
            v = int(v) if isinstance(w, widgets.IntSlider) else v
            if v != w.value:
                return v
    raise AssertionError(f"no other value for {w!r}")


def _other_values(w: widgets.Widget) -> list:
    if isinstance(w, (widgets.Dropdown, widgets.ToggleButtons)):
        return [v for v in (o[1] if isinstance(o, tuple) else o for o in w.options) if v != w.value]
    if isinstance(w, widgets.Combobox):
        return [o for o in w.options if o != w.value]
    if isinstance(w, (widgets.IntSlider, widgets.FloatSlider)):
        # near either end and a quarter of the way: a knob must change the run somewhere
        low = w.min + w.step if w.value != w.min + w.step else w.min
        return [v for v in (_other_value(w), low, w.max) if v != w.value]
    return [_other_value(w)]


# --- what each dashboard shows, and its knobs ---------------------------------------------------
def _state_dashboard(d) -> tuple[str, str]:
    ghost, d.ghost = d.ghost, None  # the ghost shows the *previous* run: leave it out
    try:
        spec = d._figure_spec(d.full)
    finally:
        d.ghost = ghost
    return _digest(spec["data"]), d.summary.value


def _traces(traces) -> list[dict]:
    """A FigureWidget's traces as data (without the ``uid`` each new trace gets)."""
    return [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in traces]


def _state_resource(d) -> tuple[str, str]:
    return _digest(_traces(d.figure.data[1:])), d.summary.value  # no ghost


def _state_llm(d) -> tuple[str, str]:
    return _digest(_traces(d.fig.data)), d.summary.value


def _reason_dashboard(d, w) -> str:
    return d.knobs.inert.value


def _reason_resource(d, w) -> str:
    return d.inert.value


def _reason_llm(d, w) -> str:
    return getattr(d, "note", widgets.HTML()).value


CASES = {
    # lab: (make, its experiment knobs, state, reason, a second state to check from)
    "04": (lambda: ovlab.widgets.LatencyDashboard(),
           lambda d: d.knobs.experiment, _state_dashboard, _reason_dashboard,
           lambda d: setattr(d.knobs.hint, "value", "LATENCY")),
    "05": (lambda: ovlab.widgets.TimelineDashboard(),
           lambda d: d.knobs.experiment, _state_dashboard, _reason_dashboard,
           lambda d: setattr(d.knobs.batching, "value", "NO")),
    "09": (lambda: ResourceAwareDashboard(),
           lambda d: d.controls, _state_resource, _reason_resource,
           lambda d: setattr(d.power_mode, "value", "low_power")),
    "13": (lambda: LLMServingDashboard(),
           lambda d: d.controls, _state_llm, _reason_llm,
           lambda d: setattr(d.w_split, "value", False)),
    "14": (lambda: LLMDeviceDashboard(),
           lambda d: d.controls, _state_llm, _reason_llm,
           lambda d: setattr(d.w_model, "value", "Qwen2.5-7B-Instruct-int4-ov")),
}


def _label(w: widgets.Widget) -> str:
    return w.description or type(w).__name__


def _check_every_knob(d, knobs, state, reason) -> list[str]:
    failures = []
    for w in knobs:
        before = state(d)
        old = w.value
        if w.disabled:
            why = reason(d, w)
            if _label(w).split(" ")[0] not in why:
                failures.append(f"{_label(w)} is disabled without its reason on screen: {why!r}")
            continue
        # a slider tries three places, a choice its options, until one changes the run (on a
        # laptop, AUTO *is* AUTO:GPU,CPU: the same run is right there)
        changed = False
        for value in _other_values(w):
            w.value = value
            if state(d) != before:
                changed = True
                break
        if not changed:
            failures.append(f"{_label(w)}: {old!r} -> {w.value!r} changed neither the figure "
                            "nor the summary")
        w.value = old
        assert state(d) == before, f"{_label(w)}: going back did not give the same run"
    return failures


@pytest.mark.parametrize("lab", sorted(CASES))
def test_every_knob_changes_the_run_or_is_disabled_with_its_reason(lab):
    make, knobs, state, reason, second = CASES[lab]
    d = make()
    failures = _check_every_knob(d, knobs(d), state, reason)
    second(d)
    failures += [f"(second state) {f}" for f in _check_every_knob(d, knobs(d), state, reason)]
    assert not failures, "\n".join(failures)


def test_lab14_users_change_ttft_tpot_and_rate_for_qwen():
    d = LLMDeviceDashboard(model="Qwen2.5-7B-Instruct-int4-ov", prompt_tokens=512)
    bars = {}
    for users in (1, 2, 4, 8):
        d.w_users.value = users
        bars[users] = {sub: list(d.fig.data[i].y) for i, sub in enumerate(("ttft", "tpot", "rate"))}
    for users in (2, 4, 8):
        for sub in ("ttft", "tpot", "rate"):
            assert bars[users][sub] != bars[1][sub], (users, sub)
    # CPU and GPU batch the users: the total rate grows; the NPU serves one after the other
    cpu, gpu = 0, 1
    assert bars[8]["rate"][gpu] > 2 * bars[1]["rate"][gpu]
    assert bars[8]["rate"][cpu] > bars[1]["rate"][cpu]
    assert bars[8]["ttft"][2] > 4 * bars[1]["ttft"][2]  # the NPU queues its users
    assert "8 users at once" in d.fig.layout.title.text


def test_the_view_options_do_what_they_say():
    d = ovlab.widgets.LatencyDashboard(niter=200)
    k = d.knobs
    # the replay speed only matters to a live replay: greyed out with its reason until then
    assert k.speed.disabled and "live" in k.speed_why.value
    k.live.value = True
    assert not k.speed.disabled and k.speed_why.value == ""
    k.live.value = False
    # x: iteration or time moves the points
    before = _state_dashboard(d)
    k.x_axis.value = "result"
    assert _state_dashboard(d) != before
    k.x_axis.value = "iteration"
    # lock y axis keeps the range for the next run
    k.lock_y.value = True
    locked = list(d.y_range)
    k.interval.value = 5
    assert d.y_range == pytest.approx(locked)
    k.lock_y.value = False
    k.interval.value = 6
    assert d.y_range != pytest.approx(locked)
    # compare draws run A with the run on screen
    before = _state_dashboard(d)
    k.compare.value = "overlay"
    k.interval.value = 30
    assert any("A" in str(t.get("name", "")) for t in d._figure_spec(d.full)["data"])
    assert "A = " in d.summary.value and _state_dashboard(d) != before


# --- the summary lines' analytic bounds hold for the run they describe -------------------------
BOUND = re.compile(r"max (\d+) ms vs <= (\d+) ms")


@pytest.mark.parametrize("make, settings", [
    (lambda: ovlab.widgets.LatencyDashboard(), {}),
    (lambda: ovlab.widgets.LatencyDashboard(), {"timeout": 300}),
    (lambda: ovlab.widgets.LatencyDashboard(), {"timeout": 100, "interval": 10}),
    (lambda: ovlab.widgets.TimelineDashboard(), {}),
    (lambda: ovlab.widgets.TimelineDashboard(), {"timeout": 300}),
    (lambda: ovlab.widgets.TimelineDashboard(), {"interval": 100}),
    (lambda: ovlab.widgets.TimelineDashboard(), {"device": "AUTO"}),
])
def test_a_bound_shown_with_le_holds_for_every_point_or_says_about(make, settings):
    d = make()
    for name, value in settings.items():
        getattr(d.knobs, name).value = value
    text = d.summary.value
    for shown_max, bound in BOUND.findall(text):
        assert int(shown_max) <= int(bound), text
    if "alone max" in text and "<=" not in text.split("alone max")[1].split(";")[0]:
        assert "about" in text and "queued" in text, text
    # a range the run leaves ("batch of 16 47-556 ms vs 49-499 ms") says "about" and why too
    for run_max, about, model_max in re.findall(
            r"batch of \d+ \d+-(\d+) ms vs (about )?\d+-(\d+) ms", text):
        assert int(run_max) <= int(model_max) or about, text
    # the numbers on screen are the run's: the alone requests' max latency
    view = d.full
    status = {i: c.status for i, c in enumerate(view.categories)}
    alone = view.frame[view.frame["cat_code"].map(status) == "alone"]["latency"] * 1000
    if len(alone):
        assert f"alone max {alone.max():.0f} ms" in text


def test_lab13_marks_its_figure_stale_when_genai_refuses_the_settings():
    d = LLMServingDashboard()
    d.w_split.value = False
    d.w_seqs.value = 16
    d.w_tokens.value = 32  # a prompt longer than the budget: GenAI's assert
    assert "error:" in d.summary.value
    assert "not redrawn" in d.fig.layout.title.text
    d.w_tokens.value = 256
    assert "error:" not in d.summary.value and "not redrawn" not in d.fig.layout.title.text
