"""``python -m ovlab check``, the instructor's pre-class check: passes on any machine (it compares
nothing about the host), and names what fails."""

from ovlab import cli
from ovlab.sim import preclass


def test_the_check_passes_here(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("OVLAB_RESULTS_DIR", str(tmp_path))
    monkeypatch.setenv("OVLAB_LEARNER", "instructor")
    assert cli.main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok   ") == 5 and "ready for class" in out
    assert "recorded as 'instructor'" in out
    assert "switch to GPU.0 at 14.51 s" in out  # the simulation, the same on every host


def test_a_failing_step_is_named_and_fails_the_check(capsys, monkeypatch):
    def broken():
        raise RuntimeError("missing: plotly")

    monkeypatch.setattr(preclass, "_packages", broken)
    assert preclass.main([]) == 1
    out = capsys.readouterr().out
    assert "FAIL packages: RuntimeError: missing: plotly" in out and "1 check(s) failed" in out


def test_the_lab_step_reports_a_broken_notebook(tmp_path):
    import nbformat
    import pytest

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('boom')")])
    nbformat.write(nb, tmp_path / "99-broken.ipynb")
    with pytest.raises(RuntimeError, match="99-broken"):
        preclass._labs(tmp_path)()


def test_ovlab_check_prints_its_own_lines_only(tmp_path):
    """The instructor's green light reads as one: every line is a check's (no kernel's
    "[IPKernelApp] WARNING ... eavesdropping", no stray note), and the login-name advice is
    part of the results line."""
    import os
    import subprocess
    import sys

    import nbformat

    labs = tmp_path / "labs"
    labs.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('hello')")])
    nbformat.write(nb, labs / "01-hello.ipynb")
    env = {k: v for k, v in os.environ.items()
           if k not in ("JUPYTERHUB_USER", "OVLAB_LEARNER", "OVLAB_RESULTS_DIR")}
    env["HOME"] = str(tmp_path)  # no name set: the login name, the case that needs the advice
    done = subprocess.run([sys.executable, "-m", "ovlab", "check", "--labs", str(labs)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[-1] == "ready for class"
    assert all(line.startswith("ok   ") for line in lines[:-1]), lines
    results_line = next(line for line in lines if line.startswith("ok   results"))
    assert "set_learner('name') before their first answer" in results_line
