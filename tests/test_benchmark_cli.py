"""``ovlab benchmark`` (benchmark_app on virtual devices) and the ``ovlab`` console script.

Layout checks compare with the real tool's output (``reference/ov_probe/out_benchmark_*.txt``,
copied below as skeletons: every number replaced by ``N``); figure checks tie the printed
numbers to each other and to the simulation's own records (``core.trace``).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys

import pytest

from ovlab import Core, benchmark, cli
from ovlab.tools.benchmark import BenchmarkError, run

STEP_HEADERS = [f"[Step {n}/11] {name}" for n, name in benchmark.STEP_NAMES.items()]

# Lines of the real `benchmark_app -m heavy_convnet.xml -d CPU -niter 128` (openvino 2026.4.1,
# out_benchmark_heavy-d_CPU_-niter_128.txt) with numbers replaced by N.
REAL_CPU_SKELETON = [
    "[Step N/N] Parsing and validating input arguments",
    "[ INFO ] Parsing input parameters",
    "[Step N/N] Loading OpenVINO Runtime",
    "[ INFO ] OpenVINO:",
    "[ INFO ] Device info:",
    "[ INFO ] CPU",
    "[Step N/N] Setting device configuration",
    "[ WARNING ] Performance hint was not explicitly specified in command line or config file. "
    "Device(CPU) performance hint will be set to PerformanceMode.THROUGHPUT.",
    "[Step N/N] Reading model files",
    "[ INFO ] Loading model files",
    "[ INFO ] Read model took N ms",
    "[ INFO ] Original model I/O parameters:",
    "[ INFO ] Model inputs:",
    "[ INFO ] Model outputs:",
    "[Step N/N] Resizing model to match image sizes and given batch",
    "[ INFO ] Model batch size: N",
    "[Step N/N] Configuring input of the model",
    "[Step N/N] Loading the model to the device",
    "[ INFO ] Compile model took N ms",
    "[Step N/N] Querying optimal runtime parameters",
    "[ INFO ] Model:",
    "[ INFO ]   OPTIMAL_NUMBER_OF_INFER_REQUESTS: N",
    "[ INFO ]   PERF_COUNT: NO",
    "[ INFO ]   PERFORMANCE_HINT: THROUGHPUT",
    "[ INFO ]   EXECUTION_DEVICES: ['CPU']",
    "[Step N/N] Creating infer requests and preparing input tensors",
    "[Step N/N] Measuring performance (Start inference asynchronously, N inference requests, "
    "limits: N iterations)",
    "[ INFO ] Benchmarking in inference only mode (inputs filling are not included in "
    "measurement loop).",
    "[ INFO ] First inference took N ms",
    "[Step N/N] Dumping statistics report",
    "[ INFO ] Execution Devices:['CPU']",
    "[ INFO ] Count:            N iterations",
    "[ INFO ] Duration:         N ms",
    "[ INFO ] Latency:",
    "[ INFO ]    Median:        N ms",
    "[ INFO ]    Average:       N ms",
    "[ INFO ]    Min:           N ms",
    "[ INFO ]    Max:           N ms",
    "[ INFO ] Throughput:   N FPS",
]


def skeleton(line: str) -> str:
    return re.sub(r"\d+(\.\d+)?", "N", line)


def figure(lines: list[str], key: str) -> tuple[float, str]:
    """(value, unit) of a statistics line such as ``Median:`` or ``Throughput:``."""
    pattern = re.compile(rf"^\[ INFO \]\s+{re.escape(key)}:?\s+([\d.]+) ?(\w+)?")
    found = [m for m in map(pattern.match, lines) if m]
    assert len(found) == 1, f"{key}: {found}"
    return float(found[0].group(1)), found[0].group(2) or ""


def step_props(lines: list[str]) -> dict[str, str]:
    """``KEY: value`` lines printed in Step 8 (top level only)."""
    start = lines.index(STEP_HEADERS[7])
    end = lines.index(STEP_HEADERS[8])
    out = {}
    for line in lines[start + 1:end]:
        m = re.match(r"^\[ INFO \]   (\w+): (.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def assert_consistent(report) -> None:
    """The figures agree with each other and with the lines printed."""
    assert report.count == len(report.latencies_ms)
    assert report.latencies_ms == sorted(report.latencies_ms)
    assert report.latency_min_ms <= report.latency_median_ms <= report.latency_max_ms
    assert report.latency_min_ms <= report.latency_avg_ms <= report.latency_max_ms
    assert report.throughput_fps == pytest.approx(
        report.batch * report.count / (report.duration_ms / 1000))
    lines = report.lines
    assert figure(lines, "Count")[0] == report.count
    assert figure(lines, "Duration") == (round(report.duration_ms, 2), "ms")
    assert figure(lines, "Throughput")[0] == round(report.throughput_fps, 2)
    # the printed figures alone are consistent too: count / duration = throughput
    count, duration, fps = (figure(lines, k)[0] for k in ("Count", "Duration", "Throughput"))
    # (the duration is printed to 0.01 ms, the throughput to 0.01 FPS)
    low = report.batch * count / ((duration + 0.005) / 1000) - 0.005
    high = report.batch * count / ((duration - 0.005) / 1000) + 0.005
    assert low <= fps <= high


@pytest.fixture(scope="module")
def cpu_run():
    return run(["-m", "googlenet-v1", "-d", "CPU", "-niter", "64"])


# --- layout -----------------------------------------------------------------------------------
def test_layout_matches_the_real_benchmark_app(cpu_run):
    lines = cpu_run.lines
    assert [ln for ln in lines if ln.startswith("[Step ")] == STEP_HEADERS[:9] + [
        lines[[i for i, ln in enumerate(lines) if ln.startswith("[Step 10/11]")][0]],
        STEP_HEADERS[10]]
    ours = [skeleton(ln) for ln in lines]
    missing = [ln for ln in REAL_CPU_SKELETON if ln not in ours]
    assert not missing
    # and in the real order
    positions = [ours.index(ln) for ln in REAL_CPU_SKELETON]
    assert positions == sorted(positions)
    assert all(re.match(r"^(\[Step \d+/11\] |\[ (INFO|WARNING) \] )", ln) for ln in lines)


def test_first_info_line_says_simulated_time(cpu_run):
    first_info = next(ln for ln in cpu_run.lines if ln.startswith("[ INFO ]"))
    assert "on virtual hardware, simulated time" in first_info
    assert "platform laptop" in first_info and "seed 0" in first_info


def test_step8_lists_the_compiled_models_properties(cpu_run):
    props = step_props(cpu_run.lines)
    assert props["NETWORK_NAME"] == "googlenet-v1"
    assert props["PERFORMANCE_HINT"] == "THROUGHPUT"
    assert props["EXECUTION_DEVICES"] == "['CPU']"
    assert "SUPPORTED_PROPERTIES" not in props
    nireq = int(props["OPTIMAL_NUMBER_OF_INFER_REQUESTS"])
    assert cpu_run.nireq == nireq > 1
    assert (f"[Step 10/11] Measuring performance (Start inference asynchronously, {nireq} "
            "inference requests, limits: 64 iterations)") in cpu_run.lines


def test_figures_are_consistent(cpu_run):
    assert cpu_run.count == 64 and cpu_run.api == "async"
    assert cpu_run.execution_devices == ["CPU"]
    assert_consistent(cpu_run)
    for key, value in (("Median", cpu_run.latency_median_ms), ("Average", cpu_run.latency_avg_ms),
                       ("Min", cpu_run.latency_min_ms), ("Max", cpu_run.latency_max_ms)):
        assert figure(cpu_run.lines, key) == (round(value, 2), "ms")
    assert figure(cpu_run.lines, "First inference took") == (
        round(cpu_run.first_inference_ms, 2), "ms")


def test_figures_match_the_simulation_records(cpu_run):
    core = cpu_run.core
    records = sorted(core.trace.inferences, key=lambda r: r.seq)
    assert len(records) == 1 + cpu_run.count  # the warm-up, then the measured loop
    first, loop = records[0], records[1:]
    assert first.latency * 1000 == pytest.approx(cpu_run.first_inference_ms)
    assert first.finished <= min(r.submitted for r in loop)  # the warm-up ran alone
    assert sorted(r.latency * 1000 for r in loop) == pytest.approx(cpu_run.latencies_ms)
    assert max(r.finished for r in loop) - loop[0].submitted == pytest.approx(
        cpu_run.duration_ms / 1000)
    # the queue was kept full: never more in flight than requests, and that many at times
    events = sorted([(r.submitted, 1) for r in loop] + [(r.finished, -1) for r in loop],
                    key=lambda e: (e[0], e[1]))
    level, peak = 0, 0
    for _, delta in events:
        level += delta
        peak = max(peak, level)
    assert peak == cpu_run.nireq
    # compile time is the simulated compile recorded by the device
    compile_end = next(e for e in core.trace.events if e.kind == "compile_end")
    assert cpu_run.compile_ms == pytest.approx(compile_end.time * 1000)


def test_runs_are_deterministic_for_a_seed():
    argv = ["-m", "mlp", "-niter", "32"]
    a, b = run(argv), run(argv)
    assert a.lines == b.lines and a.latencies_ms == b.latencies_ms
    c = run(argv + ["--seed", "7"])
    assert c.latencies_ms != a.latencies_ms
    assert "seed 7" in c.lines[1]


# --- options ----------------------------------------------------------------------------------
def test_hint_latency_switches_to_the_sync_api():
    rep = run(["-m", "small-cnn", "-hint", "latency", "-niter", "16"])
    assert rep.api == "sync" and rep.nireq == 1
    assert ("[Step 10/11] Measuring performance (Start inference synchronously, limits: 16 "
            "iterations)") in rep.lines
    assert not any("Performance hint was not explicitly specified" in ln for ln in rep.lines)
    assert step_props(rep.lines)["PERFORMANCE_HINT"] == "LATENCY"
    assert rep.count == 16
    assert_consistent(rep)
    # sync: one request, back to back, so duration = the sum of the latencies
    assert rep.duration_ms == pytest.approx(sum(rep.latencies_ms))


def test_hint_latency_with_async_api_uses_one_request():
    rep = run(["-m", "small-cnn", "-hint", "latency", "-api", "async", "-niter", "16"])
    assert ("[Step 10/11] Measuring performance (Start inference asynchronously, 1 inference "
            "requests, limits: 16 iterations)") in rep.lines
    assert_consistent(rep)


def test_api_sync_without_hint_warns_latency():
    rep = run(["-m", "mlp", "-api", "sync", "-niter", "8"])
    assert ("[ WARNING ] Performance hint was not explicitly specified in command line or config "
            "file. Device(CPU) performance hint will be set to PerformanceMode.LATENCY."
            ) in rep.lines


def test_hint_none_leaves_the_plugin_default():
    rep = run(["-m", "small-cnn", "-hint", "none", "-niter", "8"])
    assert not any("[ WARNING ] Performance hint" in ln for ln in rep.lines)
    assert step_props(rep.lines)["PERFORMANCE_HINT"] == "LATENCY"  # the CPU plugin's default
    assert rep.api == "async" and rep.nireq == 1
    assert_consistent(rep)


def test_hint_throughput_beats_latency_in_fps_on_googlenet():
    tput = run(["-m", "googlenet-v1", "-hint", "throughput", "-niter", "48"])
    lat = run(["-m", "googlenet-v1", "-hint", "latency", "-niter", "48"])
    assert tput.throughput_fps > lat.throughput_fps
    assert tput.latency_median_ms > lat.latency_median_ms


def test_latencies_below_one_ms_print_in_microseconds():
    rep = run(["-m", "mlp", "-niter", "64"])
    assert rep.latency_avg_ms < 1.0
    for key in ("Median", "Average", "Min", "Max"):
        value, unit = figure(rep.lines, key)
        assert unit == "us"
    assert figure(rep.lines, "Median")[0] == round(rep.latency_median_ms * 1000, 2)


def test_nireq_and_niter_alignment():
    rep = run(["-m", "mlp", "-nireq", "3", "-niter", "10"])
    assert ("[ WARNING ] Number of iterations was aligned by request number from 10 to 12 using "
            "number of requests 3") in rep.lines
    assert rep.nireq == 3 and rep.count == 12
    assert step_props(rep.lines)["PERFORMANCE_HINT_NUM_REQUESTS"] == "3"
    assert "Start inference asynchronously, 3 inference requests, limits: 12 iterations" in \
        rep.text
    assert_consistent(rep)


def test_time_limit_in_simulated_seconds():
    rep = run(["-m", "mlp", "-t", "0.05"])
    assert "limits: 50 ms duration)" in rep.text
    assert rep.duration_ms >= 50.0
    assert rep.duration_ms < 50.0 + 2 * rep.latency_max_ms
    assert rep.count % rep.nireq == 0
    assert_consistent(rep)


def test_default_duration_is_60_s_for_a_hardware_device():
    rep = run(["-m", "resnet-50", "--platform", "cpu"])
    assert "limits: 60000 ms duration)" in rep.text
    assert 60000 <= rep.duration_ms < 60000 + 2 * rep.latency_max_ms
    assert_consistent(rep)


def test_default_duration_of_other_devices_is_120_s_with_a_warning():
    log = benchmark._Log(None)
    assert benchmark.duration_seconds(None, None, "AUTO", log) == 120
    assert log.lines == ["[ WARNING ] Default duration 120 seconds is used for unknown device "
                         "AUTO"]
    assert benchmark.duration_seconds(None, None, "AUTO:GPU,CPU") == 60
    assert benchmark.duration_seconds(None, 16, "CPU") == 0
    assert benchmark.duration_seconds(5, 16, "CPU") == 5


def test_perf_counts_of_the_requests():
    rep = run(["-m", "small-cnn", "-niter", "8", "-pc"])
    assert step_props(rep.lines)["PERF_COUNT"] == "YES"
    lines = rep.lines
    start = lines.index("[ INFO ] Performance counts for 0-th infer request")
    assert lines.index("[ INFO ] Performance counts for 1-th infer request") > start
    row = re.compile(r"^(\S.{19}) (Status\.\w+)\s+layerType: (.{20}) execType: (.{20}) "
                     r"realTime \(ms\): ([\d.]+)\s+cpuTime \(ms\): ([\d.]+)\s*$")
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("Total time:"):
            total = float(re.match(r"^Total time:     ([\d.]+) milliseconds$", line).group(1))
            break
        m = row.match(line)
        assert m, line
        rows.append(m)
    assert {m.group(2) for m in rows} >= {"Status.EXECUTED", "Status.NOT_RUN"}
    assert any(m.group(3).strip() == "Convolution" for m in rows)
    assert total == pytest.approx(sum(float(m.group(5)) for m in rows), abs=0.01 * len(rows))
    assert re.search(r"^Total CPU time: [\d.]+ milliseconds$", "\n".join(lines), re.M)
    # the 0-th request's counters are those of its last inference, as the device ran it
    last = max((r for r in rep.core.trace.inferences if r.request_id == 0), key=lambda r: r.seq)
    assert total == pytest.approx(last.service * 1000, abs=0.001 * len(rows))


def test_batch_option_reshapes_the_model():
    rep = run(["-m", "googlenet-v1", "-b", "2", "-niter", "8"])
    assert "[ WARNING ] Batch size is set. Auto batching will be disabled" in rep.lines
    assert "[ INFO ] Model batch size: 2" in rep.lines
    assert "[ INFO ] Reshaping model: 'data': [2,3,224,224]" in rep.lines
    assert "[ INFO ]     data (node: data) : f32 / [N,C,H,W] / [2,3,224,224]" in rep.lines
    assert rep.batch == 2
    assert_consistent(rep)  # throughput counts 2 frames per iteration
    assert rep.throughput_fps == pytest.approx(2 * rep.count / rep.duration_ms * 1000)


def test_niter_zero_compiles_only():
    rep = run(["-m", "mlp", "-niter", "0"])
    assert "[ INFO ] Model compiled successfully. Skipping inference due to -niter 0." in rep.lines
    for n in (8, 9, 10):
        assert f"[Step {n}/11] {benchmark.STEP_NAMES[n]} (skipped)" in rep.lines
    assert rep.lines[-1] == STEP_HEADERS[10]
    assert rep.count == 0 and rep.compile_ms > 0
    assert len(rep.core.trace.inferences) == 0


def test_model_paths_map_to_zoo_models():
    assert benchmark.resolve_model("googlenet-v1") == ("googlenet-v1", None)
    assert benchmark.resolve_model("googlenet-v1:FP16") == ("googlenet-v1:FP16", None)
    spec, note = benchmark.resolve_model("public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml")
    assert spec == "googlenet-v1:FP16" and "googlenet-v1 (FP16)" in note
    assert benchmark.resolve_model("../public/alexnet/FP32/alexnet.xml")[0] == "alexnet:FP32"
    assert benchmark.resolve_model("intel/resnet-50-tf/FP16-INT8/resnet-50-tf.xml")[0] == \
        "resnet-50:INT8"
    assert benchmark.resolve_model("models/unknown-net.xml") == ("models/unknown-net.xml", None)


def test_model_path_is_announced_and_read_in_its_precision():
    rep = run(["-m", "public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml", "-niter", "0"])
    assert any("reads 'public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml' as the zoo model "
               "googlenet-v1 (FP16)" in ln for ln in rep.lines)
    assert "[ INFO ]     data (node: data) : f16 / [...] / [1,3,224,224]" in rep.lines


def test_gpu_run_on_the_laptop():
    rep = run(["-m", "small-cnn", "-d", "GPU", "-niter", "32", "-hint", "latency"])
    assert rep.execution_devices == ["GPU.0"]
    assert "[ INFO ] Execution Devices:['GPU.0']" in rep.lines
    assert ["[ INFO ] GPU", "[ INFO ] Build ................................. 2026.4.1-ovlab"] \
        == rep.lines[rep.lines.index("[ INFO ] Device info:") + 1:][:2]
    assert rep.compile_ms > 1000  # a GPU compile takes simulated seconds
    assert_consistent(rep)


def test_every_started_request_completes_or_the_error_is_reported():
    core = Core("laptop", seed=0)
    core.faults.fail_inference("CPU", nth=20)
    with pytest.raises(BenchmarkError) as info:
        run(["-m", "mlp", "-niter", "64"], core=core)
    assert "inference failed on CPU (ovlab injected failure)" in info.value.message
    assert info.value.lines[-1].startswith("[ INFO ] First inference took")
    records = core.trace.inferences
    started = core._seq  # every start_async got a sequence number
    assert len(records) == started  # none left behind: each one finished (or failed)
    assert [r.status for r in records].count("failed") == 1


# --- errors -----------------------------------------------------------------------------------
def _main(capsys, argv):
    code = benchmark.main(argv)
    out = capsys.readouterr().out
    return code, out


@pytest.mark.parametrize("argv, message", [
    (["-m", "mlp", "-d", "FOO", "-niter", "4"],
     'Device with "FOO" name is not registered in the OpenVINO Runtime'),
    (["-m", "mlp", "-d", "GPU", "--platform", "cpu", "-niter", "4"],
     "[GPU] Can't get PERFORMANCE_HINT property as no supported devices found"),
    (["-m", "no-such-net", "-niter", "4"], "FrontEnd API failed with GeneralFailure"),
    (["-m", "mlp:FP8", "-niter", "4"], "Unknown precision 'FP8'"),
    (["-m", "mlp", "-niter", "-1"], "-1 is an invalid non-negative int value"),
    (["-m", "mlp", "-hint", "fast"], "argument -hint/--perf_hint: invalid choice: 'fast'"),
    (["-m", "mlp", "-api", "later"], "argument -api/--api_type: invalid choice: 'later'"),
    (["-m", "mlp", "-t", "0"], "0 is an invalid positive time value"),
    (["-m", "mlp", "-nireq", "0"], "0 is an invalid positive int value"),
    (["-m", "mlp", "--bogus"], "unrecognized arguments: --bogus"),
    (["-niter", "4"], "the following arguments are required: -m/--path_to_model"),
    (["-m", "mlp", "--platform", "mars"], "unknown platform 'mars'"),
    (["-m", "mlp", "-api", "sync", "-nireq", "4", "-niter", "2"],
     "Number of infer requests should be less than or equal to number of iterations in sync "
     "mode."),
])
def test_errors_print_one_error_and_exit_1(capsys, argv, message):
    code, out = _main(capsys, argv)
    assert code == 1
    assert out.startswith("[Step 1/11] Parsing and validating input arguments\n")
    error_at = out.index("[ ERROR ] ")
    assert message in out[error_at:]
    assert out.count("[ ERROR ]") == 1
    assert "Traceback" not in out
    assert "Statistics" not in out and "Throughput" not in out


def test_unknown_device_fails_in_step_3_like_the_real_tool(capsys):
    code, out = _main(capsys, ["-m", "mlp", "-d", "FOO", "-niter", "4"])
    lines = out.splitlines()
    # real: "Device info:" lists nothing, then Step 3 reports the name
    assert lines[lines.index("[ INFO ] Device info:") + 1] == "[ INFO ] "
    assert lines[-4:] == [
        "[Step 3/11] Setting device configuration",
        "[ ERROR ] Exception from src/inference/src/cpp/core.cpp:268:",
        "Exception from src/inference/src/dev/core_impl.cpp:706:",
        'Device with "FOO" name is not registered in the OpenVINO Runtime']


def test_batch_device_with_count_fails_as_measured(capsys):
    # measured: benchmark_app -d "BATCH:CPU(4)" queries CPU(4) as a device and stops (rc=1)
    code, out = _main(capsys, ["-m", "mlp", "-d", "BATCH:CPU(4)", "-niter", "4"])
    assert code == 1
    assert "[ WARNING ] Device BATCH does not support performance hint property(-hint)." in out
    assert out.rstrip().endswith('Device with "CPU(4)" name is not registered in the OpenVINO '
                                 "Runtime")


def test_help_lists_options_and_devices(capsys):
    code, out = _main(capsys, ["-h", "--platform", "workstation"])
    assert code == 0
    for opt in ("-m", "-d", "-hint", "-niter", "-t", "-nireq", "-api", "-pc", "-b", "--platform",
                "--seed"):
        assert re.search(rf"^\s+{re.escape(opt)}[ ,]", out, re.M), opt
    assert out.rstrip().endswith("Available target devices:   CPU  GPU.0  GPU.1  NPU")


# --- the console script -------------------------------------------------------------------------
def test_cli_dispatches_benchmark(capsys):
    assert cli.main(["benchmark", "-m", "mlp", "-niter", "4"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == STEP_HEADERS[0]
    assert "[ INFO ] Throughput:" in out
    assert cli.main(["benchmark_app", "-m", "mlp", "-d", "FOO"]) == 1
    assert "[ ERROR ]" in capsys.readouterr().out


def test_cli_usage_version_and_unknown_command(capsys):
    assert cli.main([]) == 0
    assert "ovlab benchmark -m googlenet-v1" in capsys.readouterr().out
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip().startswith("2026.4.1-ovlab")
    assert cli.main(["bench"]) == 1
    assert "[ ERROR ] unknown command 'bench'" in capsys.readouterr().out


@pytest.mark.parametrize("module", ["ovlab.tools.benchmark", "ovlab.cli"])
def test_python_dash_m_entry_points(module):
    extra = ["benchmark"] if module == "ovlab.cli" else []
    ok = subprocess.run([sys.executable, "-m", module, *extra, "-m", "mlp", "-niter", "4"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1].startswith("[ INFO ] Throughput:")
    bad = subprocess.run([sys.executable, "-m", module, *extra, "-m", "mlp", "-d", "FOO"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert "[ ERROR ]" in bad.stdout and "Traceback" not in bad.stdout + bad.stderr


# --- meta devices (AUTO, MULTI, HETERO: written by other engineers) -----------------------------
def test_e04_benchmark_gpu_vs_auto_first_inference():
    """Seed 001: ``benchmark_app -d GPU`` vs ``-d AUTO -niter 128`` on the laptop: AUTO's first
    inference is far lower (the CPU helps while the GPU compiles), both report throughput."""
    gpu = run(["-m", "googlenet-v1", "-d", "GPU", "-niter", "128"])
    auto = run(["-m", "googlenet-v1", "-d", "AUTO", "-niter", "128"])
    assert ("[ WARNING ] Performance hint was not explicitly specified in command line or config "
            "file. Device(AUTO) performance hint will be set to PerformanceMode.THROUGHPUT."
            ) in auto.lines
    for rep in (gpu, auto):
        assert rep.count == 128 and rep.throughput_fps > 0
        assert_consistent(rep)
    # the first result: compile + first inference, and the first inference alone
    assert auto.compile_ms + auto.first_inference_ms < 0.2 * (gpu.compile_ms
                                                              + gpu.first_inference_ms)
    assert auto.first_inference_ms < 0.25 * gpu.first_inference_ms
    first_auto = min(auto.core.trace.inferences, key=lambda r: r.seq)
    assert first_auto.device == "CPU"  # the helper ran it
    assert math.isclose(first_auto.latency * 1000, auto.first_inference_ms)


def test_multi_has_no_latency_block():
    rep = run(["-m", "mlp", "-d", "MULTI:CPU", "-niter", "16"])
    assert ("[ WARNING ] Performance hint was not explicitly specified in command line or config "
            "file. Device(MULTI) performance hint will be set to PerformanceMode.THROUGHPUT."
            ) in rep.lines
    assert "[ INFO ] Latency:" not in rep.lines
    assert not any("Median" in ln for ln in rep.lines)
    assert rep.lines[-1].startswith("[ INFO ] Throughput:")
    assert rep.execution_devices == ["CPU"]
    assert_consistent(rep)


def test_hetero_does_not_take_a_hint():
    rep = run(["-m", "small-cnn", "-d", "HETERO:CPU", "-niter", "16"])
    assert "[ WARNING ] Device HETERO does not support performance hint property(-hint)." in \
        rep.lines
    assert not any("Performance hint was not explicitly" in ln for ln in rep.lines)
    assert "Start inference asynchronously, 1 inference requests" in rep.text
    assert "[ INFO ] Latency:" in rep.lines
    assert_consistent(rep)


# --- every option of the real tool ---------------------------------------------------------------
def _real_parser_options() -> dict[str, object]:
    """The real benchmark_app's options, read from its argparse parser (the wheel's
    ``openvino/tools/benchmark/parameters.py``), by option string."""
    parameters = pytest.importorskip("openvino.tools.benchmark.parameters",
                                     reason="the openvino wheel is not installed")
    parser = parameters.parse_args()
    return {flag: action for action in parser._actions for flag in action.option_strings}


def test_every_real_benchmark_app_option_is_accepted():
    real = _real_parser_options()
    ours = {flag: action for action in benchmark.build_parser()._actions
            for flag in action.option_strings}
    assert set(real) - set(ours) == set()
    for flag, action in real.items():
        mine = ours[flag]
        assert mine.dest == action.dest, flag  # the same option, under both of its spellings
        if action.choices is not None and mine.help != "==SUPPRESS==":
            assert set(action.choices) <= set(mine.choices), flag
    assert set(ours) - set(real) == {"--platform", "--seed"}  # ovlab's own two


@pytest.mark.parametrize("flag", sorted({f[0] for f in benchmark.NOT_HERE}))
def test_options_ovlab_does_not_reproduce_fail_naming_the_option(flag):
    kind = next(k for flags, (k, _) in benchmark.NOT_HERE.items() if flags[0] == flag)
    argv = ["-m", "mlp", "-niter", "4", flag] + ([] if kind == "flag" else ["x"])
    with pytest.raises(BenchmarkError, match=re.escape(flag) + ".*ovlab run benchmark_app"):
        run(argv)


def test_nstreams_needs_hint_none_and_sets_the_streams():
    with pytest.raises(BenchmarkError, match="-nstreams, -nthreads and -pin options are fine"):
        run(["-m", "mlp", "-niter", "4", "-nstreams", "2"])
    report = run(["-m", "mlp", "-niter", "8", "-hint", "none", "-nstreams", "2"])
    assert "[ INFO ]   NUM_STREAMS: 2" in report.lines


def test_shape_reshapes_and_latency_percentile_is_reported():
    report = run(["-m", "mlp", "-niter", "16", "-shape", "[4,16]", "-latency_percentile", "90"])
    assert any(line.startswith("[ INFO ] Reshaping model: ") and "[4,16]" in line
               for line in report.lines), report.lines
    percentile = [line for line in report.lines if "90 percentile:" in line]
    assert len(percentile) == 1 and not any("Median:" in line for line in report.lines)
    with pytest.raises(BenchmarkError, match="percentile value is incorrect"):
        run(["-m", "mlp", "-niter", "4", "-latency_percentile", "101"])
    with pytest.raises(BenchmarkError, match="static shapes only"):
        run(["-m", "mlp", "-niter", "4", "-shape", "[?,16]"])


def test_cdir_compiles_through_the_model_cache(tmp_path):
    first = run(["-m", "mlp", "-niter", "4", "-d", "GPU", "-cdir", str(tmp_path / "c")])
    assert (tmp_path / "c").is_dir() and any((tmp_path / "c").iterdir())
    assert first.count == 4
