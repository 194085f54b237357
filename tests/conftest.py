"""Shared fixtures: Cores on each platform preset and small zoo models; hypothesis profiles.

Property-based tests size their runs with ``budget(n)`` (``tests/pbt_budget.py``): ``n`` examples
under the default profile ``ovlab`` (what ``make test`` runs), ``n x 50`` under ``nightly``
(``pytest --hypothesis-profile=nightly``, which ``benchmarks/bench_properties.py`` runs).
"""

import sys
from pathlib import Path

import pytest
from hypothesis import settings

import ovlab

sys.path.insert(0, str(Path(__file__).parent))  # tests/pbt_budget.py for every test folder

# the reference for budget(): 100 examples is a scale of 1
settings.register_profile("ovlab", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("nightly", max_examples=5_000, deadline=None, print_blob=True)
settings.load_profile("ovlab")


@pytest.fixture(autouse=True)
def _run_in_tmp_path(tmp_path, monkeypatch):
    """Every test runs in its own empty directory: CACHE_DIR "./cache" is a real directory
    (blobs from one test must not make another load from cache), and so are HETERO's .dot
    files."""
    monkeypatch.chdir(tmp_path)


def pytest_configure(config):
    config.addinivalue_line("markers", "host_precision: compiles on the real CPU plugin in the "
                            "host's default precision (compares with that precision's tolerance)")


# The differential tests' one line per family (tests/differential/diff_harness.py), from here:
# under pytest-xdist the controller loads only this conftest, not the folder's, and the
# summary is the controller's (the lines were missing from make test's output).
def pytest_terminal_summary(terminalreporter):
    totals: dict[str, list[int]] = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for key, value in getattr(rep, "user_properties", ()) or ():
                if key == "compared" and getattr(rep, "when", "call") == "call":
                    family, n, explained = value
                    t = totals.setdefault(family, [0, 0])
                    t[0] += n
                    t[1] += explained
    if not totals:
        return
    terminalreporter.write_sep("-", "differential tests: generated cases compared")
    for family in sorted(totals):
        n, explained = totals[family]
        terminalreporter.write_line(f"{family:<28} {n:>6} compared, {explained:>4} differed "
                                    "as listed in known_differences.py")


def pytest_report_header(config):
    """The host first (CPU, the ISA flags that matter, the real plugin's default precision):
    what a failure that depends on the machine needs to be read."""
    from real_wheel import host_summary

    return host_summary()


@pytest.fixture(autouse=True)
def _pinned_real_cpu(request, monkeypatch):
    """A real-wheel compile on a Core that is not pinned to f32 fails the test
    (``tests/real_wheel.py``), unless the test is about the host's default precision."""
    if request.node.get_closest_marker("host_precision") is None:
        from real_wheel import install_guard

        install_guard(monkeypatch)


@pytest.fixture
def core():
    return ovlab.Core("laptop", seed=0)


@pytest.fixture
def cpu_core():
    return ovlab.Core("cpu", seed=0)


@pytest.fixture(scope="session")
def small_cnn():
    from ovlab import zoo

    return zoo.load("small-cnn")


@pytest.fixture(scope="session")
def mlp():
    from ovlab import zoo

    return zoo.load("mlp")


@pytest.fixture(scope="session")
def googlenet():
    from ovlab import zoo

    return zoo.load("googlenet-v1")
