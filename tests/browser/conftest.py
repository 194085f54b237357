"""Fixtures for real-browser JupyterLab tests (adapted from shared/reference/jupyter-stack).

lab      - a `jupyter lab` server on 127.0.0.1 in a throw-away root dir (copy of $NB_DIR), hermetic
           settings/workspaces, stopped (with its kernels) at the end of the session
browser  - Debian's Chromium (/usr/bin/chromium) driven by Playwright (no Playwright browser download)
page     - a fresh page; on failure it saves FAILED-<test>.png and the browser console to $SHOT_DIR
shot_dir - where screenshots go ($SHOT_DIR, default ./artifacts)
"""
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
# a token of this process's own: a server another pytest worker (or another checkout's test run)
# started on the same port refuses it, so the fixture below never takes it for its own
TOKEN = f"testtoken{os.getpid()}"
ROOT = Path(__file__).resolve().parents[2]
NB_DIR = Path(os.environ.get("NB_DIR", ROOT / "labs"))
SHOT_DIR = Path(os.environ.get("SHOT_DIR", ROOT / "artifacts" / "browser"))
# e.g. LAB_LAUNCH_PREFIX=binder/start to launch the server through Binder's start script
LAB_LAUNCH_PREFIX = shlex.split(os.environ.get("LAB_LAUNCH_PREFIX", ""))
# LAB_SETTINGS_HACK=0: rely on the environment's own overrides.json (what postBuild installs)
LAB_SETTINGS_HACK = os.environ.get("LAB_SETTINGS_HACK", "1") != "0"


# one port per pytest-xdist worker (gw0 8899, gw1 8900...): two workers' servers asking for the
# same free port at once raced for it, and the loser's tests drove the winner's server
LAB_PORT = int(os.environ.get("LAB_PORT", "8899")) + int(
    os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def _free_port(preferred=LAB_PORT):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado does; TIME_WAIT is fine
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]


class Lab:
    def __init__(self, base, token, root=None, env=None):
        self.base, self.token = base, token
        self.root, self.env = root, env  # the server's root dir (a copy of $NB_DIR's parent)

    def shutdown_kernels(self):
        """Shut every running kernel down (through the server's REST API): a notebook opened
        next starts a fresh one, as a learner's first visit does, instead of reconnecting to
        the kernel an earlier test left with its live widgets."""
        def call(method, path):
            req = urllib.request.Request(f"{self.base}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.read()

        for session in json.loads(call("GET", "/api/sessions") or b"[]"):
            call("DELETE", f"/api/sessions/{session['id']}")

    def url(self, path):
        """URL of a notebook relative to the lab root, e.g. lab.url('labs/demo.ipynb')."""
        return f"{self.base}/lab/tree/{path}?token={self.token}&reset"   # reset: no saved layout


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    t0 = time.monotonic()
    root = tmp_path_factory.mktemp("labroot")
    shutil.copytree(NB_DIR, root / "labs", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = tmp_path_factory.mktemp("lab-settings")   # empty user settings dir = hermetic
    if LAB_SETTINGS_HACK:
        # no "Would you like to get notified about official Jupyter news?" toast, no update check
        (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
        (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # every cell on the page, not only those near the view (JupyterLab's default windowing):
    # a test can measure every figure of a notebook without scrolling through it
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}))
    env = dict(os.environ,
               JUPYTERLAB_SETTINGS_DIR=str(settings),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path_factory.mktemp("lab-workspaces")),
               JUPYTER_RUNTIME_DIR=str(tmp_path_factory.mktemp("jupyter-runtime")))
    port = _free_port()
    log_path = root.parent / "jupyter-lab.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        LAB_LAUNCH_PREFIX + [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         f"--port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
         f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2)
            if proc.poll() is not None:  # an answer from another server on that port
                raise RuntimeError(f"jupyter lab exited; see {log_path}")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"jupyter lab did not start; see {log_path}") from None
            time.sleep(0.2)
    print(f"\n[timing] jupyter lab ready in {time.monotonic() - t0:.1f}s at {base} (log {log_path})")
    yield Lab(base, TOKEN, root, env)
    proc.send_signal(signal.SIGTERM)  # the server shuts its kernels down on SIGTERM
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    log.close()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shot_dir():
    SHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SHOT_DIR


@pytest.fixture
def page(browser, request, shot_dir):
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    pg.errors, pg.console = [], []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.console.append(f"{m.type}: {m.text}"))
    yield pg
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        pg.screenshot(path=str(shot_dir / f"FAILED-{request.node.name}.png"))
        (shot_dir / f"FAILED-{request.node.name}.console.txt").write_text("\n".join(pg.console))
    pg.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    rep = (yield).get_result()
    setattr(item, f"rep_{rep.when}", rep)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
