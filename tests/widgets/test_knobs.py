"""Knobs that have no effect are greyed out, and the rules are right: changing a knob that
``inert_knobs`` calls inert leaves the run unchanged, request for request."""

import itertools

import pytest

import ovlab
from ovlab import experiments, zoo
from ovlab.sim.widgets.knobs import inert_knobs

OTHER = {"ALLOW_AUTO_BATCHING": {"YES": "NO", "NO": "YES"},
         "AUTO_BATCH_TIMEOUT": {"1000": "100", "100": "1000"},
         "PERFORMANCE_HINT_NUM_REQUESTS": {None: "4", "4": None, "2": "6"}}


@pytest.fixture(scope="module")
def googlenet16():
    return zoo.load("googlenet-v1", "FP16")


def _run(model, device, config):
    core = ovlab.Core("laptop", seed=0)
    cfg = {k: v for k, v in config.items() if v is not None}
    try:
        r = experiments.auto_test(core, model, device, cfg, niter=40, num_ireq=16, verbose=False)
    except RuntimeError as exc:
        return ("error", str(exc))
    f = r.requests[["n", "submit", "result", "device", "worker", "batch_size", "status"]]
    return (r.optimal_requests, r.queue_size, f.to_json())


CASES = list(itertools.product(
    ["GPU", "CPU", "AUTO", "AUTO:GPU", "BATCH:GPU(8)", "MULTI:GPU,CPU"],
    ["LATENCY", "THROUGHPUT", "CUMULATIVE_THROUGHPUT"],
    ["YES", "NO"],
    [None, "2", "4"]))


@pytest.mark.parametrize("device, hint, allow, requests", CASES,
                         ids=["-".join(str(x) for x in c) for c in CASES])
def test_an_inert_knob_changes_nothing(googlenet16, device, hint, allow, requests):
    config = {"PERFORMANCE_HINT": hint, "ALLOW_AUTO_BATCHING": allow,
              "AUTO_BATCH_TIMEOUT": "1000", "PERFORMANCE_HINT_NUM_REQUESTS": requests}
    core = ovlab.Core("laptop", seed=0)
    inert = inert_knobs(core, googlenet16, device,
                        {k: v for k, v in config.items() if v is not None})
    base = _run(googlenet16, device, config)
    for knob in inert:
        changed = dict(config, **{knob: OTHER[knob][config[knob]]})
        assert _run(googlenet16, device, changed) == base, (knob, inert[knob])


def test_the_defaults_have_no_inert_knob_and_latency_greys_three(googlenet16, core):
    assert inert_knobs(core, googlenet16, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"}) == {}
    inert = inert_knobs(core, googlenet16, "AUTO", {"PERFORMANCE_HINT": "LATENCY"})
    assert set(inert) == {"ALLOW_AUTO_BATCHING", "AUTO_BATCH_TIMEOUT",
                          "PERFORMANCE_HINT_NUM_REQUESTS"}
    assert inert["ALLOW_AUTO_BATCHING"] == "LATENCY never batches"
    inert = inert_knobs(core, googlenet16, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                   "ALLOW_AUTO_BATCHING": "NO"})
    assert set(inert) == {"AUTO_BATCH_TIMEOUT"}


def test_the_knobs_that_matter_do_change_the_run(googlenet16):
    base = {"PERFORMANCE_HINT": "THROUGHPUT", "ALLOW_AUTO_BATCHING": "YES",
            "AUTO_BATCH_TIMEOUT": "1000"}
    ref = _run(googlenet16, "GPU", base)
    for knob, value in (("ALLOW_AUTO_BATCHING", "NO"), ("AUTO_BATCH_TIMEOUT", "100"),
                        ("PERFORMANCE_HINT_NUM_REQUESTS", "4")):
        assert _run(googlenet16, "GPU", dict(base, **{knob: value})) != ref, knob


def test_the_dashboard_greys_out_inert_knobs_with_a_reason():
    dash = ovlab.widgets.TimelineDashboard(niter=20)
    k = dash.knobs
    assert not k.batching.disabled and not k.timeout.disabled and k.inert.value == ""
    k.hint.value = "LATENCY"
    assert k.batching.disabled and k.timeout.disabled and k.num_requests.disabled
    assert "greyed out: ALLOW_AUTO_BATCHING and AUTO_BATCH_TIMEOUT: no effect, LATENCY never " \
           "batches" in k.inert.value
    assert k.timeout.tooltip == "LATENCY never batches"
    k.hint.value = "THROUGHPUT"
    assert not k.batching.disabled and not k.timeout.disabled
