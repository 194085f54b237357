"""The offline install's round trip: a fresh venv from the wheelhouse alone, then a class check.

    python tools/wheelhouse_check.py [wheelhouse]      # `make wheelhouse-check`

``make wheelhouse`` fills ``wheelhouse/`` with every wheel the labs need (``binder/requirements.txt``
with what it pulls in, for this machine's platform and Python), ovlab's own wheel and the deck's
reveal.js. This installs it the way a room without internet does,

    python3 -m venv .venv
    .venv/bin/pip install --no-index --find-links wheelhouse -r wheelhouse/requirements.txt ovlab

into a temporary venv (``--no-index``: pip may not reach any index, so a wheel missing from the
wheelhouse fails the install), checks ``pip check``, then runs ``python -m ovlab check --labs`` on
a copy of lab 00 from a folder outside the repository (so that the installed ovlab, not the
source tree, is imported). It prints each step's wall time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _step(name: str, cmd: list, cwd: Path, env: dict) -> str:
    t0 = time.monotonic()
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=1800)
    took = time.monotonic() - t0
    if done.returncode:
        raise SystemExit(f"wheelhouse-check: {name} failed ({took:.0f} s):\n"
                         f"{(done.stdout + done.stderr)[-3000:]}")
    print(f"ok   {name}: {took:.1f} s", flush=True)
    return done.stdout


def main(argv: list[str]) -> int:
    house = Path(argv[0] if argv else ROOT / "wheelhouse").resolve()
    wheels = sorted(house.glob("ovlab-*.whl"))
    if not wheels or not (house / "requirements.txt").exists():
        raise SystemExit(f"wheelhouse-check: no ovlab wheel or requirements.txt in {house} "
                         "(make wheelhouse)")
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
    for var in ("PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "VIRTUAL_ENV",
                "PYTHONPATH"):
        env.pop(var, None)
    with tempfile.TemporaryDirectory(prefix="ovlab-wheelhouse-") as tmp:
        tmp_path = Path(tmp)
        venv = tmp_path / "venv"
        py = venv / "bin" / "python"
        _step("fresh venv", [sys.executable, "-m", "venv", venv], tmp_path, env)
        _step(f"pip install --no-index from {house.name}/ ({len(list(house.glob('*.whl')))} "
              "wheels)", [py, "-m", "pip", "install", "-q", "--no-index", "--find-links", house,
                          "-r", house / "requirements.txt", "ovlab"], tmp_path, env)
        _step("pip check", [py, "-m", "pip", "check"], tmp_path, env)
        labs = tmp_path / "labs"
        labs.mkdir()
        shutil.copy2(ROOT / "labs" / "00-start-here.ipynb", labs)
        run_env = dict(env, PATH=f"{venv / 'bin'}:{env['PATH']}", OVLAB_RESULTS_DIR="off",
                       HOME=str(tmp_path))
        out = _step("python -m ovlab check --labs (lab 00)",
                    [py, "-m", "ovlab", "check", "--labs", labs], tmp_path, run_env)
        where = _step("ovlab imported from", [py, "-c", "import ovlab; print(ovlab.__file__)"],
                      tmp_path, run_env).strip()
        if not where.startswith(str(venv)):
            raise SystemExit(f"wheelhouse-check: ovlab came from {where}, not the venv")
        print(out.strip().splitlines()[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
