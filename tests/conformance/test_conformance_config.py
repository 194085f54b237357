"""Config dicts given to ``compile_model``: which keys each device accepts, and bad values.

Acceptance differs by plugin (reference section 6): CPU rejects unknown keys
(``NotFound: Unsupported property FOO_KEY by CPU plugin.``), AUTO, MULTI and HETERO accept them
silently, BATCH rejects them (``Unsupported config key: FOO_KEY``). Bad values give the
plugin's own text (CPU's ``Wrong value FASTfor property key ...`` with its missing space, AUTO's
``Invalid value for property ...``); ``ALLOW_AUTO_BATCHING`` is parsed by the Core itself.
"""

from __future__ import annotations

import pytest
from conformance_harness import assert_same_error, both

DEVICES = ["CPU", "AUTO", "MULTI:CPU", "HETERO:CPU", "BATCH:CPU(4)"]


def _compile(models, device, config):
    return lambda rt: rt.new_core().compile_model(models[rt.name]["conv"], device, config)


@pytest.mark.parametrize("device, accepted", [
    ("CPU", False), ("AUTO", True), ("MULTI:CPU", True), ("HETERO:CPU", True),
    ("BATCH:CPU(4)", False), ("BATCH:CPU", False),
])
def test_unknown_config_key(models, device, accepted):
    real, lab = both(_compile(models, device, {"FOO_KEY": "1"}))
    if accepted:
        assert not real.raised, real.message
        assert not lab.raised, lab.message
    else:
        assert_same_error(real, lab)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("config", [
    {"PERFORMANCE_HINT": "FAST"},
    {"PERFORMANCE_HINT": "throughput"},  # values are case-sensitive
    {"PERFORMANCE_HINT_NUM_REQUESTS": "-1"},
    {"PERFORMANCE_HINT_NUM_REQUESTS": -1},
], ids=["FAST", "lowercase", "num_requests_-1_str", "num_requests_-1_int"])
def test_bad_value(models, device, config):
    real, lab = both(_compile(models, device, config))
    assert_same_error(real, lab)


@pytest.mark.parametrize("device", ["CPU", "AUTO", "MULTI:CPU", "HETERO:CPU"])
def test_allow_auto_batching_maybe_is_refused_by_the_core(models, device):
    """``Could not convert to bool from string maybe`` (lower-cased), from the Core."""
    real, lab = both(_compile(models, device, {"ALLOW_AUTO_BATCHING": "MAYBE"}))
    assert_same_error(real, lab)


def test_allow_auto_batching_maybe_is_ignored_by_batch(rt, models):
    """The Core does not parse ALLOW_AUTO_BATCHING for an explicit BATCH device."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], "BATCH:CPU(4)",
                                     {"ALLOW_AUTO_BATCHING": "MAYBE"})
    assert cm.get_property("EXECUTION_DEVICES") == ["CPU"]


@pytest.mark.parametrize("device", ["CPU", "BATCH:CPU(4)"])
def test_auto_specific_keys_are_refused(models, device):
    """MODEL_PRIORITY / ENABLE_STARTUP_FALLBACK are AUTO's: CPU and BATCH refuse them."""
    for key, value in [("MODEL_PRIORITY", "HIGH"), ("ENABLE_STARTUP_FALLBACK", "NO")]:
        real, lab = both(_compile(models, device, {key: value}))
        assert_same_error(real, lab)


@pytest.mark.parametrize("device", DEVICES)
def test_batching_keys_are_accepted_everywhere(rt, models, device):
    """AUTO_BATCH_TIMEOUT and ALLOW_AUTO_BATCHING are accepted (and ignored off BATCH)."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], device,
                                     {"AUTO_BATCH_TIMEOUT": "100", "ALLOW_AUTO_BATCHING": "NO"})
    assert cm.get_property("EXECUTION_DEVICES") == ["CPU"]


@pytest.mark.parametrize("config, hint, num_requests, perf_count", [
    ({"PERFORMANCE_HINT": "THROUGHPUT"}, "THROUGHPUT", "0", "NO"),
    ({"PERFORMANCE_HINT_NUM_REQUESTS": "4"}, "LATENCY", "4", "NO"),
    ({"PERF_COUNT": True}, "LATENCY", "0", "YES"),
    ({"PERF_COUNT": "YES"}, "LATENCY", "0", "YES"),
])
def test_cpu_compiled_reads_config_back_as_str(rt, models, config, hint, num_requests,
                                               perf_count):
    """The CPU compiled model answers the hint, the request cap and PERF_COUNT as str."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], "CPU", config)
    assert cm.get_property("PERFORMANCE_HINT") == hint
    assert cm.get_property("PERFORMANCE_HINT_NUM_REQUESTS") == num_requests
    assert cm.get_property("PERF_COUNT") == perf_count


def test_property_objects_and_strings_are_interchangeable(rt, models):
    """``{hints.performance_mode: hints.PerformanceMode.THROUGHPUT}`` (uncalled key, enum
    value), the called key and the ``dict([...])`` pair all equal the string config."""
    hints = rt.mod.properties.hint
    model = models[rt.name]["conv"]
    core = rt.new_core()
    configs = [
        {"PERFORMANCE_HINT": "THROUGHPUT"},
        {hints.performance_mode: hints.PerformanceMode.THROUGHPUT},
        {hints.performance_mode(): hints.PerformanceMode.THROUGHPUT},
        dict([hints.performance_mode(hints.PerformanceMode.THROUGHPUT)]),
        {hints.performance_mode: "THROUGHPUT"},
    ]
    seen = set()
    for config in configs:
        cm = core.compile_model(model, "CPU", config)
        seen.add((cm.get_property("PERFORMANCE_HINT"),
                  cm.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")))
    assert len(seen) == 1 and next(iter(seen))[0] == "THROUGHPUT"


@pytest.mark.parametrize("device", ["AUTO", "MULTI:CPU"])
def test_auto_and_multi_answer_enums(rt, models, device):
    """AUTO and MULTI answer the hint as an enum (LATENCY on AUTO, THROUGHPUT on MULTI by
    default) and PERF_COUNT as a bool."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], device)
    expected = "LATENCY" if device == "AUTO" else "THROUGHPUT"
    assert str(cm.get_property("PERFORMANCE_HINT")) == f"PerformanceMode.{expected}"
    assert cm.get_property("PERF_COUNT") is False


@pytest.mark.parametrize("config", [{"NUM_STREAMS": "AUTO"},
                                    {"NUM_STREAMS": "AUTO", "PERFORMANCE_HINT": "LATENCY"}])
def test_num_streams_auto_reads_as_throughput(rt, models, config):
    """``NUM_STREAMS: AUTO`` makes the CPU compiled model read the THROUGHPUT hint, even over
    an explicit LATENCY (measured)."""
    cm = rt.new_core().compile_model(models[rt.name]["conv"], "CPU", config)
    assert cm.get_property("PERFORMANCE_HINT") == "THROUGHPUT"


def test_compile_model_of_none(models):
    real, lab = both(lambda rt: rt.new_core().compile_model(None, "CPU"))
    assert_same_error(real, lab)
