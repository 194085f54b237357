"""What we can measure of Binder's build and start without reaching mybinder.org or Docker.

mybinder.org builds an image with repo2docker from ``binder/`` (a Python 3.11 environment,
``pip install -r binder/requirements.txt``, ``binder/postBuild``), then starts JupyterLab in it
through ``binder/start``. Neither mybinder.org nor a Docker daemon (nor Docker Hub's base images)
can be reached from the machine this was written on, so this times the steps of that build that
run the same outside a container, and the start:

1. **install, empty cache**: a fresh venv, ``pip install -r binder/requirements.txt`` with an
   empty pip cache (every wheel downloaded from PyPI), then ``binder/postBuild`` as repo2docker
   runs it (``NB_PYTHON_PREFIX`` set, from the repo root);
2. **install, warm cache**: the same into another fresh venv, with the cache the first run
   filled (what a rebuild on a builder that kept its pip cache would take);
3. **start**: ``binder/start jupyter lab`` in that environment until the server answers, then
   until a kernel started through its REST API answers ``kernel_info`` over its websocket (the
   moment a learner's first cell can run), and the first cell of lab 00 executed in it.

Not measured: the Docker image build around step 1 (base image, apt, the Python 3.11 install
repo2docker does from ``runtime.txt``, the image push), mybinder.org's queue, the image pull to
a node and the pod's scheduling, which dominate a cold Binder launch.

    python benchmarks/bench_binder_build.py              # all three, prints a table
    python benchmarks/bench_binder_build.py --json out.json
    python benchmarks/bench_binder_build.py --start-only # step 3 in this .venv
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} vCPUs"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} vCPUs"


def _load() -> float:
    return os.getloadavg()[0]


def _run(cmd: list, env: dict, cwd: Path = ROOT) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the command and its children): on a shared
    machine the wall time follows the load, the CPU time much less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, check=True, capture_output=True,
                   text=True, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.monotonic() - t0, cpu


def build(env_dir: Path, cache: Path) -> dict:
    """A fresh venv with binder/requirements.txt and postBuild; seconds per step."""
    env = dict(os.environ, PIP_CACHE_DIR=str(cache), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PIP_FIND_LINKS", None)  # PyPI and the cache only, as on a Binder builder
    env.pop("VIRTUAL_ENV", None)
    load = _load()
    venv_s, venv_cpu = _run([sys.executable, "-m", "venv", env_dir], env)
    py = env_dir / "bin" / "python"
    install_s, install_cpu = _run([py, "-m", "pip", "install", "-q", "-r",
                                   "binder/requirements.txt"], env)
    post_env = dict(env, NB_PYTHON_PREFIX=str(env_dir), KERNEL_PYTHON_PREFIX=str(env_dir),
                    PATH=f"{env_dir / 'bin'}:{env['PATH']}")
    post_s, post_cpu = _run(["bash", "binder/postBuild"], post_env)
    return {"venv_s": round(venv_s, 1), "pip_install_s": round(install_s, 1),
            "postbuild_s": round(post_s, 1), "total_s": round(venv_s + install_s + post_s, 1),
            "total_cpu_s": round(venv_cpu + install_cpu + post_cpu, 1),
            "load_at_start": round(load, 2), "load_at_end": round(_load(), 2)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    req = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.read()


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"token {TOKEN}",
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _first_cell_of_lab00() -> str:
    nb = json.loads((ROOT / "labs" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    return "".join(next(c for c in nb["cells"] if c["cell_type"] == "code")["source"])


def start(env_dir: Path) -> dict:
    """``binder/start jupyter lab`` until the server answers, a kernel answers, and lab 00's
    first cell (its imports and a Core) has run; seconds from the launch."""
    from tornado import ioloop, websocket

    port = _free_port()
    jupyter = env_dir / "bin" / "jupyter"
    env = dict(os.environ, PATH=f"{env_dir / 'bin'}:{os.environ['PATH']}")
    env.pop("VIRTUAL_ENV", None)
    log = tempfile.TemporaryFile()
    load = _load()
    t0 = time.monotonic()
    proc = subprocess.Popen(
        ["bash", "binder/start", str(jupyter), "lab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", "--allow-root",
         f"--ServerApp.root_dir={ROOT / 'labs'}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                _get(f"{base}/api/status")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() - t0 > 300:
                    log.seek(0)
                    raise RuntimeError("jupyter lab did not start: "
                                       + log.read().decode()[-2000:]) from None
                time.sleep(0.05)
        server_s = time.monotonic() - t0
        _get(f"{base}/lab")  # the page a learner's browser loads
        page_s = time.monotonic() - t0
        kernel = _post(f"{base}/api/kernels", {"name": "python3"})
        code = _first_cell_of_lab00()

        async def talk() -> tuple[float, float]:
            url = f"ws://127.0.0.1:{port}/api/kernels/{kernel['id']}/channels?token={TOKEN}"
            ws = await websocket.websocket_connect(url)

            def msg(kind: str, content: dict) -> str:
                mid = f"{kind}-{time.monotonic_ns()}"
                return json.dumps({"header": {"msg_id": mid, "msg_type": kind, "username": "b",
                                              "session": "bench", "version": "5.3"},
                                   "parent_header": {}, "metadata": {}, "content": content,
                                   "channel": "shell"}), mid

            async def until_reply(kind: str, content: dict) -> float:
                text, mid = msg(kind, content)
                await ws.write_message(text)
                while True:
                    raw = await ws.read_message()
                    if raw is None:
                        raise RuntimeError("the kernel's websocket closed")
                    reply = json.loads(raw)
                    if (reply.get("parent_header", {}).get("msg_id") == mid
                            and reply["header"]["msg_type"].endswith("_reply")):
                        if reply["content"].get("status") == "error":
                            raise RuntimeError(f"{kind} failed: {reply['content']}")
                        return time.monotonic() - t0

            # the server holds the request until the kernel's channels are up
            ready = await until_reply("kernel_info_request", {})
            first = await until_reply("execute_request", {"code": code, "silent": False})
            ws.close()
            return ready, first

        kernel_s, cell_s = ioloop.IOLoop.current().run_sync(talk, timeout=600)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
    return {"server_answers_s": round(server_s, 2), "lab_page_s": round(page_s, 2),
            "kernel_ready_s": round(kernel_s, 2), "lab00_first_cell_done_s": round(cell_s, 2),
            "load_at_start": round(load, 2)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--start-only", action="store_true",
                        help="only the start, in this environment (sys.prefix)")
    args = parser.parse_args(argv)
    out = {"date": time.strftime("%Y-%m-%d"), "machine": _cpu(),
           "python": platform.python_version()}
    if args.start_only:
        out["start"] = start(Path(sys.prefix))
    else:
        with tempfile.TemporaryDirectory(prefix="ovlab-binder-bench-") as tmp:
            tmp_path = Path(tmp)
            cache = tmp_path / "pip-cache"
            out["install_empty_cache"] = build(tmp_path / "env1", cache)
            print("install, empty cache:", out["install_empty_cache"], flush=True)
            shutil.rmtree(tmp_path / "env1")
            out["install_warm_cache"] = build(tmp_path / "env2", cache)
            print("install, warm cache: ", out["install_warm_cache"], flush=True)
            out["start"] = start(tmp_path / "env2")
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
