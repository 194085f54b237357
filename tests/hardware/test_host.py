"""The host description (``/proc/cpuinfo``) and the ``host`` platform built from it."""

import sys
from pathlib import Path

import ovlab
from ovlab.sim.hardware import host

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from fake_hosts import FAKE_HOSTS  # noqa: E402


def test_parse_a_xeon_with_amx():
    cpu = host.parse_cpuinfo(FAKE_HOSTS["xeon-amx"])
    assert (cpu.model, cpu.cores, cpu.threads, cpu.vendor) == (
        "Intel(R) Xeon(R) Platinum 8480+", 4, 8, "Intel")
    assert cpu.clock_ghz == 2.0
    # the CPU plugin's order (plugin.cpp): BF16, WINOGRAD, FP32, FP16, INT8, BIN, EXPORT_IMPORT
    assert host.capabilities(cpu.flags) == ("BF16", "WINOGRAD", "FP32", "FP16", "INT8", "BIN",
                                            "EXPORT_IMPORT")
    assert host.inference_precision(cpu.flags) == "bf16"


def test_parse_an_avx2_epyc():
    cpu = host.parse_cpuinfo(FAKE_HOSTS["epyc-avx2"])
    assert (cpu.cores, cpu.threads, cpu.vendor) == (2, 4, "AMD")
    assert host.capabilities(cpu.flags) == ("FP32", "INT8", "BIN", "EXPORT_IMPORT")
    assert host.inference_precision(cpu.flags) == "f32"


def test_an_unreadable_cpuinfo_is_a_guess_not_an_error(monkeypatch, tmp_path):
    monkeypatch.setattr(host, "CPUINFO", tmp_path / "missing")
    cpu = host.describe()
    assert cpu.threads >= 1 and cpu.cores >= 1 and cpu.model


def test_the_host_platform_names_the_described_cpu(monkeypatch):
    fake = host.parse_cpuinfo(FAKE_HOSTS["xeon-amx"])
    monkeypatch.setattr(host, "describe", lambda: fake)
    core = ovlab.Core("host")
    assert core.get_property("CPU", "FULL_DEVICE_NAME") == "Intel(R) Xeon(R) Platinum 8480+"
    assert core.get_property("CPU", "RANGE_FOR_STREAMS") == (1, 8)
    assert "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    # timed as the cpu preset: the same per-op costs
    assert core.platform.devices["CPU"].per_op_s == ovlab.preset("cpu").devices["CPU"].per_op_s
