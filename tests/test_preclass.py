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
