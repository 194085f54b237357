"""Issue 35: the catalogue of Intel's published platforms, built from datasheets by the family
cost model, and the models of Intel's tables in the zoo."""

from __future__ import annotations

import csv
import json
import math

import pytest

from ovlab.sim.calibration import families as fam
from ovlab.sim.hardware import catalogue, family
from ovlab.sim.hardware.platforms import PRESETS, preset
from ovlab.tools.benchmark import run

CHECK = ("i7-12700h", "i7-1360p", "i7-1185gre", "i5-13600k", "i9-12900te", "i9-10900te",
         "i5-10500te", "i5-8500", "i3-8100", "celeron-6305e", "atom-x6425e", "n200",
         "xeon-e-2124g", "xeon-w-1290p", "xeon-gold-5218t", "xeon-silver-4216r",
         "xeon-silver-4316", "xeon-platinum-8270", "xeon-platinum-8280", "xeon-platinum-8490h",
         "xeon-platinum-8580", "flex-140")
# the figures every device block must source
SOURCED = {"CPU": ("family", "threads", "l3_mb", "memory", "mem_channels", "mem_mts", "tdp_w",
                   "isa"),
           "GPU": ("family", "gpu_max_ghz"), "NPU": ("tops_int8",)}


def test_the_catalogue_has_every_platform_of_the_issue():
    assert set(catalogue.names()) == set(CHECK) | set(fam.FIT_PLATFORMS)
    roles = {n: catalogue.read(n)["catalogue"]["role"] for n in catalogue.names()}
    assert {n for n, r in roles.items() if r == "fit"} == set(fam.FIT_PLATFORMS)


def test_every_datasheet_figure_has_its_source():
    for name in catalogue.names():
        for key, block in catalogue.read(name)["datasheet"].items():
            for figure in SOURCED[key.split(".")[0]]:
                value = block[figure]
                assert isinstance(value, dict) and value["source"] and value["url"], \
                    (name, key, figure)
            for figure in ("cores", "p_cores", "base_ghz", "turbo_ghz", "eus", "xe_cores"):
                if figure in block:
                    assert "source" in block[figure], (name, key, figure)


def test_no_check_platform_has_a_row_in_the_fit_data():
    with open(fam.FIT_CSV, newline="", encoding="utf-8") as f:
        presets = {line["preset"] for line in csv.DictReader(f)}
    assert presets == set(fam.FIT_PLATFORMS)
    assert not presets & set(CHECK)


def test_every_catalogue_platform_loads_by_name():
    import ovlab as ov

    for name in catalogue.names():
        platform = preset(name if name not in PRESETS else f"family:{name}")
        assert "CPU" in platform.devices
        assert platform.devices["CPU"].fuse_ops
    core = ov.Core("n200")
    assert "GPU" in core.available_devices
    # the five presets that existed keep their own fitted devices under their names
    assert preset("i7-1185g7").devices["CPU"] != preset("family:i7-1185g7").devices["CPU"]


def test_isa_rules_give_the_peaks():
    p = family.fitted_params()
    cpus = {n: preset(n).devices["CPU"] for n in ("i5-8500", "xeon-platinum-8280",
                                                   "xeon-platinum-8490h", "i7-12700h")}
    assert cpus["i5-8500"].peak_gflops["i8"] == pytest.approx(2 * cpus["i5-8500"].peak_gflops["f32"])
    vnni = cpus["xeon-platinum-8280"]
    assert vnni.peak_gflops["i8"] == pytest.approx(4 * vnni.peak_gflops["f32"])
    amx = cpus["xeon-platinum-8490h"]
    assert amx.peak_gflops["i8"] == pytest.approx(2 * amx.peak_gflops["bf16"])
    assert amx.peak_gflops["i8"] > 10 * amx.peak_gflops["f32"]
    assert amx.inference_precision == "bf16" and "BF16" in amx.capabilities
    hybrid = cpus["i7-12700h"]
    assert (hybrid.p_cores, hybrid.e_cores) == (6, 8) and 0.3 < hybrid.e_core_perf < 0.7
    # Gen11 has no DP4a (int8 at the f16 rate), Xe-LP has, Xe-HPG's XMX runs f16 at 8x f32
    gen11 = preset("atom-x6425e").devices["GPU.0"].peak_gflops
    xelp = preset("n200").devices["GPU.0"].peak_gflops
    xmx = preset("flex-140").devices["GPU.0"].peak_gflops
    assert gen11["i8"] == gen11["f16"] and xelp["i8"] == 2 * xelp["f16"]
    assert xmx["f16"] == pytest.approx(8 * xmx["f32"]) and xmx["i8"] == 2 * xmx["f16"]
    assert p["power"]["igpu_w_eu_ghz"] > 0


def test_a_hybrid_cpus_latency_stream_takes_the_cores_openvino_picks():
    """OpenVINO's ``get_model_prefer_threads``: the P-cores alone while P > E / 4 (int8) or
    E / 2 (float), P- and E-cores otherwise and always on Meteor Lake, at the E-cores' pace."""
    h12 = preset("i7-12700h").devices["CPU"]  # 6P + 8E
    h13 = preset("i7-1360p").devices["CPU"]  # 4P + 8E
    mtl = preset("family:core-ultra-7-165h").devices["CPU"]  # 6P + 8E, LP E-cores
    assert h12.latency_cores(True) == (6, 6.0) and h12.latency_cores(False) == (6, 6.0)
    assert h13.latency_cores(True) == (4, 4.0)
    threads, capacity = h13.latency_cores(False)
    assert threads == 12 and capacity == pytest.approx(12 * h13.e_core_perf)
    assert capacity < h13.cores_for("ANY_CORE", False)[1]  # THROUGHPUT: each core its pace
    assert mtl.latency_cores(True)[0] == 14
    # the old preset keeps its P-cores (its timings are pinned)
    assert not preset("core-ultra-7-165h").devices["CPU"].extra.get("blocked_cores")


def test_a_latency_streams_fork_join_grows_with_its_threads():
    """Each op of a LATENCY stream pays ``per_op_sync_s`` per thread of one socket (linear:
    the fitted exponent came out 0.97): the Xeon 8480+'s 56 cores pay 1.4x the 40 of a Xeon
    8380, as Intel's small-model latencies do."""
    spr = preset("xeon-platinum-8480").devices["CPU"]
    icx = preset("xeon-platinum-8380").devices["CPU"]
    assert family.fitted_params()["cpu"]["sync_exp"] == 1.0
    assert spr.per_op_wide_s == pytest.approx(icx.per_op_wide_s * 56 / 40)
    assert spr.per_op_wide_s > 0


def test_a_family_cpus_cache_is_never_slower_than_its_dram():
    """A layer whose traffic fits in the last-level cache moves at least as fast as one that
    spills to DRAM (the fitted per-core cache bandwidth alone would make a 4-core laptop's
    cache slower than its LPDDR4x)."""
    for name in ("i7-1185g7", "xeon-platinum-8480", "i3-8100"):
        cpu = preset(name if name != "i7-1185g7" else "family:i7-1185g7").devices["CPU"]
        assert cpu.llc_gbps >= cpu.mem_bw_gbs * cpu.mem_efficiency * (1 - 1e-9)


def test_cpu_and_igpu_share_the_tdp_by_the_igpus_draw():
    """Together the CPU and iGPU run at TDP / (TDP + the iGPU's draw): a bigger, faster iGPU
    slows the pair more; alone neither is capped."""
    small = preset("i7-1185gre").power_budget  # 96 EUs at 1.35 GHz
    big = preset("family:core-ultra-7-165h").power_budget  # 128 EUs at 2.3 GHz
    for b in (small, big):
        assert all(b.factor([d]) == 1.0 for d in b.draws)
    assert 0.5 <= big.factor(list(big.draws)) < small.factor(list(small.draws)) < 1.0


# (preset, table device, precision, mode, ovlab benchmark arguments)
AGREE = [
    ("i7-12700h", "CPU", "INT8", "latency",
     ["-m", "mobilenet-v2:INT8", "-d", "CPU", "-hint", "latency", "-niter", "30"]),
    ("i7-12700h", "CPU", "FP32", "throughput",
     ["-m", "resnet-50:FP32", "-d", "CPU", "-hint", "throughput", "-niter", "400",
      "-infer_precision", "f32"]),
    ("flex-140", "dGPU", "FP16", "throughput",
     ["-m", "mobilenet-v2:FP16", "-d", "GPU", "-hint", "throughput", "-niter", "400"]),
    ("xeon-platinum-8490h", "CPU", "BF16", "throughput",
     ["-m", "mobilenet-v2:FP32", "-d", "CPU", "-hint", "throughput", "-niter", "1200",
      "-infer_precision", "bf16"]),
    ("i7-1360p", "CPU+iGPU", "INT8", "throughput",
     ["-m", "yolo-v3-tiny:INT8", "-d", "AUTO:GPU,CPU", "-hint", "cumulative_throughput",
      "-niter", "600"]),
    # AMX tiles' channel padding and the streams' split cache; a LATENCY stream's fork / join
    ("xeon-platinum-8490h", "CPU", "INT8", "throughput",
     ["-m", "yolo_v8n:INT8", "-d", "CPU", "-hint", "throughput", "-niter", "1200"]),
    # a hybrid CPU's LATENCY stream over P- and E-cores (float model, 4P + 8E; Meteor Lake)
    ("i7-1360p", "CPU", "FP32", "latency",
     ["-m", "resnet-50:FP32", "-d", "CPU", "-hint", "latency", "-niter", "30",
      "-infer_precision", "f32"]),
    ("family:core-ultra-7-165h", "CPU", "INT8", "latency",
     ["-m", "yolo_v8n:INT8", "-d", "CPU", "-hint", "latency", "-niter", "30"]),
    ("xeon-platinum-8580", "CPU", "BF16", "latency",
     ["-m", "yolo_v8n:FP32", "-d", "CPU", "-hint", "latency", "-niter", "30",
      "-infer_precision", "bf16"]),
]


@pytest.mark.parametrize("preset_name, device, precision, mode, argv", AGREE)
def test_the_fits_predictor_is_the_simulator(preset_name, device, precision, mode, argv):
    """``calibration/families.predict`` (what the fit and the leave-one-out use) gives the
    figure ``ovlab benchmark`` simulates."""
    from ovlab.sim.runtime.core import Core

    model = argv[1].split(":")[0]
    row = fam.Row("", model, preset_name, device, precision, mode, 1.0)
    predicted = fam.predict(row, family.fitted_params())
    report = run([*argv, "--platform", preset_name], core=Core(preset_name, seed=0))
    simulated = report.latency_median_ms if mode == "latency" else report.throughput_fps
    assert simulated == pytest.approx(predicted, rel=0.05)


def test_a_representative_sweep_runs_on_every_catalogue_preset():
    for name in catalogue.names():
        shown = f"family:{name}" if name in PRESETS else name
        devices = preset(shown).devices
        rep = run(["-m", "resnet-50:INT8", "-d", "CPU", "-hint", "latency", "-niter", "3",
                   "--platform", shown])
        assert rep.latency_median_ms > 0
        if "GPU.0" in devices:
            rep = run(["-m", "mobilenet-v2:FP16", "-d", "GPU", "-hint", "throughput", "-niter",
                       "16", "--platform", shown])
            assert rep.throughput_fps > 0
            if devices["GPU.0"].device_type == "integrated":
                rep = run(["-m", "yolo-v3-tiny:INT8", "-d", "AUTO:GPU,CPU", "-hint",
                           "cumulative_throughput", "-niter", "16", "--platform", shown])
                assert rep.throughput_fps > 0


@pytest.mark.parametrize("name", ["bert-base-cased", "yolo_v8n", "ssd_mobilenet_v1_coco",
                                  "efficientdet-d0"])
def test_the_tables_models_run_by_their_table_names(name):
    rep = run(["-m", f"{name}:INT8", "-d", "CPU", "-hint", "throughput", "-niter", "8",
               "--platform", "i5-13600k"])
    assert rep.throughput_fps > 0


# published GFLOPs / MParams the architecture does not reproduce, and why (the report of
# issue 35): efficientdet-d0's 2.54 is the paper's multiply-add count (2.5 B), so twice it in
# FLOPs; deeplabv3's and mask_rcnn's published figures are not reproduced (not fitted)
FLOPS_FACTOR = {"efficientdet-d0": 2.0}
UNRESOLVED = {"deeplabv3", "mask_rcnn_resnet50_atrous_coco"}


@pytest.mark.parametrize("name", sorted(set(fam.MODELS.values()) - {
    "resnet-50", "mobilenet-v2", "yolo-v3-tiny"}))
def test_table_models_have_their_published_flops_and_parameters(name):
    from ovlab.sim.models import table_zoo, zoo

    gflops, mparams, _input = table_zoo.PUBLISHED[name]
    model = zoo.load(name, "FP32")
    flops = sum(op.flops for op in model._cost(1)) / 1e9
    params = sum(math.prod(op.get_output_shape(0)) for op in model.get_ordered_ops()
                 if op.get_type_name() == "Constant"
                 and op.get_output_element_type(0).is_real()
                 and math.prod(op.get_output_shape(0)) > 1) / 1e6
    assert flops == pytest.approx(gflops * FLOPS_FACTOR.get(name, 1.0), rel=0.06)
    assert params == pytest.approx(mparams, rel=0.03)


def test_unresolved_table_models_are_not_fitted():
    assert set(fam.NOT_FITTED) == UNRESOLVED
    assert not {r.model for r in fam.read_rows()} & UNRESOLVED


def test_ovlab_platforms_lists_and_shows(capsys, tmp_path):
    from ovlab.cli import main

    assert main(["platforms"]) == 0
    out = capsys.readouterr().out
    for name in ("i7-12700h", "xeon-platinum-8480", "flex-140", "family:i7-1185g7"):
        assert name in out
    assert "%" in out  # the fit platforms' errors
    assert main(["platforms", "--show", "n200"]) == 0
    text = capsys.readouterr().out
    mine = json.loads(text)
    mine["name"] = "my-n100"
    mine["datasheet"]["CPU"]["turbo_ghz"] = {"value": 3.4, "source": "my spec sheet"}
    path = tmp_path / "my-n100.json"
    path.write_text(json.dumps(mine), encoding="utf-8")
    assert "CPU" in preset(str(path)).devices
    assert main(["platforms", "--closest", "family=alder-raptor", "cores=14",
                 "tdp_w=45"]) == 0
    assert "i7-12700h" in capsys.readouterr().out


def test_stored_fit_reports_every_fit_platform():
    errors = family.in_sample_errors()
    assert set(errors) == set(fam.FIT_PLATFORMS)
    for entry in errors.values():
        assert entry["in_sample"]["n"] > 0


def test_matrix_engines_pad_small_channel_counts():
    """AMX tiles are 16 rows x 64 bytes: int8 reduces K in 64s, bf16 in 32s, into 16 columns; a
    convolution of 16 input channels uses a quarter of an int8 tile (issue 35's rule for the
    networks of few channels, from the ISA)."""
    from ovlab.sim.hardware import cost

    amx = preset("xeon-platinum-8490h").devices["CPU"]
    assert amx.channel_blocks["i8"] == (64, 16) and amx.channel_blocks["bf16"] == (32, 16)
    assert cost.tile_utilisation(amx, "i8", 16, 64) == pytest.approx(0.25)
    assert cost.tile_utilisation(amx, "bf16", 16, 64) == pytest.approx(0.5)
    assert cost.tile_utilisation(amx, "i8", 256, 24) == pytest.approx(24 / 32)
    assert cost.tile_utilisation(amx, "i8", 0, 0) == 1.0  # not a product
    # the seed's and the five old presets' devices have no blocks: their timings are unchanged
    assert not preset("i7-1185g7").devices["CPU"].channel_blocks
    assert cost.tile_utilisation(preset("i7-1185g7").devices["CPU"], "i8", 16, 16) == 1.0


def test_gemm_dims_read_convolutions_and_matrix_products():
    from ovlab.sim.hardware import cost
    from ovlab.sim.models import zoo

    model = zoo.load("resnet-50", "FP32")
    costs = model._cost(1)
    dims = cost.gemm_dims(model, len(costs))
    convs = [d for d, op in zip(dims, costs, strict=True) if op.type_name == "Convolution"]
    # the 7x7 stem on 3 channels folds its window into K; the last 1x1 convolution: 512 -> 2048
    assert convs[0] == (3 * 7 * 7, 64)
    assert convs[-1] == (512, 2048)
    fc = [d for d, op in zip(dims, costs, strict=True) if op.type_name == "MatMul"]
    assert fc[-1] == (2048, 1000)
    assert cost.gemm_dims(model, len(costs) + 1) is None


def test_a_depthwise_convolution_on_amx_runs_at_the_vnni_rules_efficiency():
    """AMX tiles do not take a depthwise convolution: int8 at AVX-512 VNNI's rate (4x f32) and
    efficiency, not at AMX's, and at half of it (16-bit multiply-adds: nothing to sum along
    K)."""
    from ovlab.sim.hardware import cost

    params = family.fitted_params()
    spec = preset("xeon-platinum-8490h").devices["CPU"]
    dw_i8 = spec.peak_gflops["i8"] * cost.efficiency(spec, "depthwise", "i8")
    dw_f32 = spec.peak_gflops["f32"] * cost.efficiency(spec, "depthwise", "f32")
    vnni = min(1.0, params["cpu"]["eff"]["i8-vnni"] * params["cpu"]["group_mult"]["amx"])
    f32 = min(1.0, params["cpu"]["eff"]["f32"] * params["cpu"]["group_mult"]["amx"])
    assert dw_i8 / dw_f32 == pytest.approx(0.5 * 4 * vnni / f32)


@pytest.mark.parametrize("name", ["i5-8500", "xeon-platinum-8280", "i7-12700h"])
def test_int8_depthwise_runs_at_half_the_int8_rule_on_every_cpu(name):
    """With VNNI (4-wide dot products) or without (vpmaddubsw, 2-wide), a depthwise
    convolution's int8 has nothing along K to sum: half the int8 rule's rate."""
    from ovlab.sim.hardware import cost

    spec = preset(name).devices["CPU"]
    dense = cost.efficiency(spec, "conv", "i8")
    depthwise = cost.efficiency(spec, "depthwise", "i8")
    assert depthwise / dense == pytest.approx(0.5 * spec.kind_efficiency["depthwise"])


def test_throughput_streams_split_the_cache_and_latency_pays_the_fork_join():
    spec = preset("xeon-platinum-8480").devices["CPU"]
    assert spec.split_cache and spec.llc_gbps > 0
    assert spec.per_op_wide_s > 0
    # a model whose layers fit the whole cache but not a 112th of it is slower per stream
    one = fam.device_seconds(spec, "yolo_v8n", "INT8", 1.0)[1]
    split = fam.device_seconds(spec, "yolo_v8n", "INT8", 1 / 112)[1]
    assert split > one


@pytest.mark.parametrize("name,l2_mb", [("family:arc-a770m", 16), ("family:flex-170", 16),
                                        ("flex-140", 8)])
def test_a_family_gpus_throughput_streams_split_its_l2(name, l2_mb):
    """A discrete GPU's cache is its datasheet's L2 (16 MB on ACM-G10; the GPU plugin's 1.5 MB
    default is not the hardware's), and THROUGHPUT's streams each hold a share of it: a model
    whose layers fit the whole L2 moves more of its bytes from DRAM on one of four streams."""
    spec = preset(name).devices["GPU.0"]
    assert spec.split_cache and spec.cache_mb == l2_mb
    one = fam.device_seconds(spec, "yolo_v3", "FP16", 1.0)[1]
    split = fam.device_seconds(spec, "yolo_v3", "FP16", 1 / spec.streams_throughput)[1]
    assert split > one


def test_a_family_gpus_cache_traffic_is_not_free():
    """A GPU's cache moves 64 bytes per clock per 16 EUs (a subslice's / Xe-core's port): the
    i7-1185GRE's 96 EUs at 1.35 GHz 518 GB/s, an A770M's 512 at 1.65 GHz 3.4 TB/s; a layer
    that fits the cache still takes its bytes' time there."""
    from ovlab.sim.hardware import cost

    igpu = preset("i7-1185gre").devices["GPU.0"]
    dgpu = preset("family:arc-a770m").devices["GPU.0"]
    assert igpu.llc_gbps == pytest.approx(64 * 96 / 16 * 1.35)
    assert dgpu.llc_gbps == pytest.approx(64 * 512 / 16 * 1.65)
    assert cost.memory_seconds(igpu, 1e6) == pytest.approx(1e6 / (igpu.llc_gbps * 1e9))
