"""Shared fixtures: Cores on each platform preset and small zoo models."""

import pytest

import ovlab


@pytest.fixture(autouse=True)
def _run_in_tmp_path(tmp_path, monkeypatch):
    """Every test runs in its own empty directory: CACHE_DIR "./cache" is a real directory
    (blobs from one test must not make another load from cache), and so are HETERO's .dot
    files."""
    monkeypatch.chdir(tmp_path)


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
