"""``ovlab calibrate --from``'s readers (issue 22): figures tables, benchmark_app console output
and its statistics reports, good and bad. The console and report examples in docs/examples/ are
real benchmark_app 2026.4.1 output, saved on this project's machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from ovlab.sim.calibration.figures import Figure, FiguresError, read_figures, write_table

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
HEADER = "model,precision,device,latency_ms,throughput_fps\n"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_table_gives_one_figure_per_filled_cell(tmp_path):
    path = _write(tmp_path, "f.csv", HEADER + "resnet-50-tf,FP16-INT8,iGPU,3.5,812\n"
                  "# a comment\n\nmobilenet-v2-pytorch,FP32,CPU,,1500.5\n")
    figs = read_figures([path])
    assert [(f.model, f.precision, f.device, f.mode, f.value) for f in figs] == [
        ("resnet-50", "INT8", "GPU", "latency", 3.5), ("resnet-50", "INT8", "GPU", "throughput", 812),
        ("mobilenet-v2", "FP32", "CPU", "throughput", 1500.5)]
    assert figs[0].source == f"{path}:2" and figs[2].source == f"{path}:5"


@pytest.mark.parametrize("row, expected", [
    ("resnet-50,FP32,CPU,abc,1", "latency_ms 'abc' is not a number"),
    ("resnet-50,FP32,CPU,-2,1", "latency_ms must be a positive number"),
    ("resnet-50,FP64,CPU,2,1", "precision 'FP64' is not one of"),
    ("resnet-50,FP32,AUTO,2,1", "device 'AUTO' cannot be calibrated"),
    ("bert-large-uncased,FP32,CPU,2,1", "model 'bert-large-uncased' is not in ovlab's zoo"),
    ("resnet-50,FP32,CPU,,", "neither latency_ms nor throughput_fps"),
    ("resnet-50,FP32,CPU,2", "4 cells, the header has 5"),
])
def test_a_bad_table_row_names_the_file_and_line(tmp_path, row, expected):
    path = _write(tmp_path, "bad.csv", HEADER + "googlenet-v1,INT8,CPU,3,300\n" + row + "\n")
    with pytest.raises(FiguresError) as err:
        read_figures([path])
    assert str(err.value).startswith(f"{path}:3: ") and expected in str(err.value)


def test_a_bad_header_or_an_unknown_file_is_refused(tmp_path):
    bad = _write(tmp_path, "h.csv", "model,precision,device,latency\nresnet-50,FP32,CPU,3\n")
    with pytest.raises(FiguresError, match=r"h.csv:1: the header lacks latency_ms, throughput_fps"):
        read_figures([bad])
    other = _write(tmp_path, "o.txt", "hello\n")
    with pytest.raises(FiguresError, match=r"o.txt:1: not a figures table"):
        read_figures([other])
    with pytest.raises(FiguresError, match=r"missing.csv: cannot be read"):
        read_figures([tmp_path / "missing.csv"])
    with pytest.raises(FiguresError, match=r"e.csv:1: the file is empty"):
        read_figures([_write(tmp_path, "e.csv", "\n")])


def test_real_benchmark_app_console_output_and_reports():
    lat, tp = read_figures([EXAMPLES / "benchmark_app-mobilenet-v2-latency.log",
                            EXAMPLES / "benchmark_app-mobilenet-v2-int8-throughput.log"])
    assert (lat.model, lat.precision, lat.device, lat.mode, lat.value) == (
        "mobilenet-v2", "FP32", "CPU", "latency", 67.82)  # the "Median:" line
    # the precision from the file's name; the figure from the "Throughput:" line
    assert (tp.precision, tp.mode, tp.value) == ("INT8", "throughput", 31.95)
    (rep,) = read_figures([EXAMPLES / "benchmark_report-mobilenet-v2-int8-throughput.csv"])
    assert (rep.model, rep.precision, rep.mode, rep.value) == (
        "mobilenet-v2", "INT8", "throughput", 31.95)  # -m ir/mobilenet-v2-int8.xml


def test_several_runs_in_one_log_and_a_cut_off_run(tmp_path):
    text = (EXAMPLES / "benchmark_app-mobilenet-v2-latency.log").read_text()
    both = _write(tmp_path, "both.log", text + text.replace("Median:        67.82",
                                                            "Median:        60.00"))
    assert [f.value for f in read_figures([both])] == [67.82, 60.0]
    cut = text[: text.index("[ INFO ] Latency:")]
    with pytest.raises(FiguresError, match=r"cut.log:1: the LATENCY run starting here has no "
                                           r"Median: latency line"):
        read_figures([_write(tmp_path, "cut.log", cut)])
    multi = text.replace("Execution Devices:['CPU']", "Execution Devices:['GPU.0', 'CPU']")
    with pytest.raises(FiguresError, match=r"only a run on one device calibrates it"):
        read_figures([_write(tmp_path, "multi.log", multi)])


def test_a_counters_report_points_to_the_statistics_report(tmp_path):
    path = _write(tmp_path, "benchmark_average_counters_report.csv",
                  "layerName;execStatus;layerType;execType;realTime (ms);cpuTime (ms)\n")
    with pytest.raises(FiguresError, match="give the statistics report benchmark_report.csv"):
        read_figures([path])


def test_write_table_round_trips(tmp_path):
    figs = [Figure("resnet-50", "INT8", "CPU", "latency", 4.75, "x"),
            Figure("resnet-50", "INT8", "CPU", "throughput", 208.1, "x")]
    back = read_figures([write_table(tmp_path / "t.csv", figs)])
    assert [(f.mode, f.value) for f in back] == [("latency", 4.75), ("throughput", 208.1)]
