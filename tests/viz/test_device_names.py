"""Device names are resolved once: "GPU" is "GPU.0" where the platform has one, so a view of a
GPU run finds its device and draws its analytic model (lab 05's dashboard missed it)."""

import ovlab
from ovlab.sim.hardware.platforms import resolve_device_name
from ovlab.sim.viz.analytic import Analytic
from ovlab.sim.viz.runview import RunView


def test_a_bare_plugin_name_is_its_first_device():
    keys = ["CPU", "GPU.0", "GPU.1", "NPU"]
    assert resolve_device_name("GPU", keys) == "GPU.0"
    assert resolve_device_name("GPU.1", keys) == "GPU.1"
    assert resolve_device_name("CPU", keys) == "CPU"
    assert resolve_device_name("NPU.0", keys) == "NPU"
    assert resolve_device_name("GPU.2", keys) is None
    assert resolve_device_name("FPGA", keys) is None
    assert resolve_device_name(None, keys) is None
    assert ovlab.Core("laptop").platform.device_key("GPU") == "GPU.0"


def test_a_dashboards_gpu_run_targets_gpu0_and_has_its_analytic_model(gpu_timeline,
                                                                       googlenet16):
    core, result, _view, _a = gpu_timeline
    # as a dashboard builds it: a category slot for every device of the platform
    view = RunView.from_result(result, devices=list(core.platform.devices))
    assert len({c.device for c in view.categories}) > 1
    assert view.target == "GPU.0"
    analytic = Analytic.for_run(core, googlenet16, view)
    assert analytic is not None and analytic.target == "GPU.0"
    assert analytic.batch.size == 16


def test_the_timeline_dashboard_draws_its_analytic_model():
    dash = ovlab.widgets.TimelineDashboard()
    assert dash.analytic is not None and dash.analytic.target == "GPU.0"
    text = dash.summary.value
    assert "simulated vs analytic" in text and "several at once" not in text
