"""Exercise checks: tolerances, near misses, reveal, recorded outcomes, and the registry that
keeps every lab's answers out of its notebook."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jupytext
import pytest
from real_wheel import real_core  # noqa: E402

from ovlab.sim import exercises
from ovlab.sim.labtools import check, judge, results

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "lab-sources").glob("[0-9][0-9]-*.py"))


# --- judging -------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected, tol, verdict", [
    (None, 3, 0, "unanswered"),
    (10.29, 10.24, 0.1, "right"),       # lab 03 ex. 1, polled in 50 ms steps
    (10.2, 10.24, 0.1, "right"),
    (9.95, 10.24, 0.1, "close"),        # the helper's serve time, not the clock: a near miss
    (5.0, 10.24, 0.1, "wrong"),
    (230, 228.0, 2, "right"),           # lab 08 ex. 3: "about 230" is within the 2 ms
    (233, 228.0, 2, "close"),
    (229, 228.0, 2, "right"),
    (1.5, 1.479, 0.1, "right"),         # lab 07 ex. 2
    (0.5, 1.479, 0.1, "wrong"),         # the old trap's answer
    (4, 4, 0, "right"),
    (5, 4, 0, "wrong"),
    (True, True, 0, "right"),
    ("gpu.0", "GPU.0", 0, "close"),     # case only
    ("GPU.0", "GPU.0", 0, "right"),
    (["CPU", "GPU.1"], ["GPU.1", "CPU"], 0, "close"),  # the right items, another order
    ([3, 4, 5, 6], [3, 4, 5, 6], 0, "right"),
    ([4, 5, 6], [3, 4, 5, 6], 0, "wrong"),
])
def test_judge(answer, expected, tol, verdict):
    assert judge(answer, expected, tol) == verdict


def test_messages_state_the_tolerance_and_offer_the_answer(capsys):
    check(None, 3.0, explain="e", hint="h", tolerance=0.1, unit="s")
    assert "within ±0.1 s" in capsys.readouterr().out
    check(9.0, 3.0, explain="e", hint="h", tolerance=0.1, unit="s")
    out = capsys.readouterr().out
    assert out.startswith("Not quite") and "reveal=True" in out
    check(3.2, 3.0, explain="e", hint="h", tolerance=0.1, unit="s")
    assert capsys.readouterr().out.startswith("Close")
    check(9.0, 3.0, explain="why", hint="h", reveal=True)
    out = capsys.readouterr().out
    assert "The answer: 3.0" in out and "why" in out


def test_an_unanswered_check_computes_nothing(capsys):
    def boom():
        raise AssertionError("the solution ran for an unanswered exercise")
    check(None, boom, explain="e", hint="h")
    assert "Not answered yet" in capsys.readouterr().out


# --- recording -----------------------------------------------------------------------------------
def test_outcomes_are_recorded_per_lab_and_collected(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OVLAB_RESULTS_DIR", str(tmp_path / "ana" / ".ovlab" / "results"))
    monkeypatch.setenv("OVLAB_LEARNER", "ana")
    check(None, 4, explain="e", hint="h", lab="09-demo", exercise=1)  # not recorded
    assert not (tmp_path / "ana").exists()
    check(5, 4, explain="e", hint="h", lab="09-demo", exercise=1)
    check(4, 4, explain="e", hint="h", lab="09-demo", exercise=1)
    check(None, [1], explain="e", hint="h", lab="09-demo", exercise=2, reveal=True)
    capsys.readouterr()
    data = json.loads((tmp_path / "ana/.ovlab/results/09-demo.json").read_text())
    assert data["learner"] == "ana"
    one = data["exercises"]["1"]
    assert (one["verdict"], one["attempts"], one["answer"]) == ("right", 2, "4")
    assert "first_right" in one and not one["revealed"]
    assert data["exercises"]["2"]["revealed"] and data["exercises"]["2"]["attempts"] == 0
    frame = results.collect([tmp_path / "ana/.ovlab/results"])
    assert list(frame["exercise"]) == ["1", "2"]
    table = results.summary(frame)
    assert table.loc["ana", "09.1"] == "✓" and table.loc["ana", "09.2"] == "?"
    assert table.loc["ana", "right"] == 1


def test_recording_can_be_switched_off(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OVLAB_RESULTS_DIR", "off")
    assert results.results_dir() is None
    assert results.record("09-demo", "1", "right", 4) is None


def test_a_read_only_results_dir_does_not_break_a_check(tmp_path, monkeypatch, capsys):
    target = tmp_path / "ro"
    target.mkdir()
    target.chmod(0o500)
    monkeypatch.setenv("OVLAB_RESULTS_DIR", str(target / "results"))
    monkeypatch.setenv("OVLAB_LEARNER", "ana")  # a named learner: no login-name warning
    check(4, 4, explain="e", hint="h", lab="09-demo", exercise=1)
    assert capsys.readouterr().out.startswith("Right")


# --- the registry and the labs -------------------------------------------------------------------
def _exercise_cells(src: Path) -> dict[int, str]:
    """Exercise number -> the code cell after its question."""
    cells = jupytext.read(src).cells
    found = {}
    for i, cell in enumerate(cells):
        match = re.search(r"^\*\*(\d+)\.\*\*", cell.source, re.M) if cell.cell_type == "markdown" \
            else None
        if match and i + 1 < len(cells) and cells[i + 1].cell_type == "code":
            found[int(match.group(1))] = cells[i + 1].source
    return found


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_each_lab_checks_its_exercises_through_the_registry(src):
    lab = exercises.for_lab(src.stem[:2])
    assert lab.lab == src.stem, "the registry's lab name must be the notebook's name"
    cells = _exercise_cells(src)
    assert sorted(cells) == sorted(e.number for e in lab), "one registered exercise per question"
    for number, code in cells.items():
        assert code.splitlines()[0].startswith("answer = None"), f"exercise {number}"
        # the answer is not computed under the question: the cell only calls the check
        assert f"exercises.check({number}, answer)" in code, f"exercise {number}"
        assert len(code.splitlines()) == 2, f"exercise {number}'s cell holds more than the check"
    text = "\n".join(c.source for c in jupytext.read(src).cells)
    assert f'for_lab("{src.stem[:2]}")' in text


def test_every_solution_runs():
    """The stored notebooks never run a solution (their answers are None); this does."""
    for number in exercises.labs():
        lab = exercises.for_lab(number)
        for ex in lab:
            assert lab.answer(ex.number) is not None, f"lab {number} exercise {ex.number}"


def test_collect_results_tool_gathers_several_homes(tmp_path, monkeypatch, tool, capsys):
    for who, answer in [("ana", 4), ("bo", 5)]:
        monkeypatch.setenv("OVLAB_RESULTS_DIR", str(tmp_path / who / ".ovlab" / "results"))
        monkeypatch.delenv("OVLAB_LEARNER", raising=False)
        monkeypatch.setenv("JUPYTERHUB_USER", who)
        check(answer, 4, explain="e", hint="h", lab="09-demo", exercise=1)
    capsys.readouterr()
    out_csv = tmp_path / "all.csv"
    assert tool("collect_results").main(
        [str(p) for p in sorted(tmp_path.glob("*/.ovlab/results"))] + ["--csv", str(out_csv)]) == 0
    out = capsys.readouterr().out
    assert "2 learner(s)" in out and "✓" in out and "✗" in out
    assert "bo,09-demo,1,wrong" in out_csv.read_text()


def test_lab_10s_toy_model_is_the_labs_own(tmp_path):
    """Exercise 10.2 rebuilds the lab's "bring your own model" network; run the lab's cell and
    check that both save to the same files."""
    import numpy as np

    import ovlab as ov
    import ovlab.opset13 as ops
    from ovlab.sim.exercises import lab10

    cell = next(c.source for c in jupytext.read(ROOT / "lab-sources/10-models-from-files.py").cells
                if c.cell_type == "code" and '"my_model.xml"' in c.source)
    (tmp_path / "lab").mkdir()
    exec(cell, {"np": np, "ov": ov, "ops": ops, "folder": tmp_path / "lab"})
    ov.save_model(lab10.toy_model(), tmp_path / "mine.xml")
    # the same weights, byte for byte (the XML differs only in generated Constant names)
    assert (tmp_path / "lab/my_model.bin").read_bytes() == (tmp_path / "mine.bin").read_bytes()
    types = [[op.get_type_name() for op in real_core().read_model(path).get_ordered_ops()]
             for path in (tmp_path / "lab/my_model.xml", tmp_path / "mine.xml")]
    assert types[0] == types[1]


# --- the marks the instructors' guide documents --------------------------------------------------
def _marks(tmp_path, monkeypatch, steps, who="cho"):
    monkeypatch.setenv("OVLAB_RESULTS_DIR", str(tmp_path / who / ".ovlab" / "results"))
    monkeypatch.setenv("OVLAB_LEARNER", who)
    for answer, reveal in steps:
        check(answer, 3.97, explain="e", hint="h", lab="03-demo", exercise=1, reveal=reveal,
              tolerance=0.1)
    table = results.summary(results.collect([tmp_path / who / ".ovlab" / "results"]))
    return table.loc[who, "03.1"], table.loc[who, "right"]


def test_reveal_then_right_is_a_question_mark(tmp_path, monkeypatch, capsys):
    # a wrong answer with reveal=True, then the revealed answer typed in: "?", not a right one
    assert _marks(tmp_path, monkeypatch, [(10.2, True), (3.97, False)]) == ("?", 0)


def test_right_then_close_stays_right(tmp_path, monkeypatch, capsys):
    # right first, then a worse try: the learner knew it; the mark and the count say so
    assert _marks(tmp_path, monkeypatch, [(4.0, False), (4.2, False)]) == ("✓", 1)
    # right, then revealed: still right (the answer was found before it was shown)
    assert _marks(tmp_path, monkeypatch, [(3.97, False), (None, True)], who="dan") == ("✓", 1)
    # close and never right: "~", 0 right
    assert _marks(tmp_path, monkeypatch, [(4.2, False)], who="eve") == ("~", 0)


def test_the_learner_is_the_hub_user_else_the_name_set_once_else_the_os_user(tmp_path,
                                                                             monkeypatch,
                                                                             capsys):
    import warnings

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("OVLAB_LEARNER", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setattr(results, "_warned_os_user", False)
    monkeypatch.setattr(results.getpass, "getuser", lambda: "root")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a friendly line, not a UserWarning (no pink block)
        assert results.learner() == "root"
    note = capsys.readouterr().out
    assert note.count("\n") == 1 and "set_learner('your name')" in note and "/" not in note
    assert results.learner() == "root" and capsys.readouterr().out == ""  # said once
    results.set_learner("ana")
    assert (tmp_path / ".ovlab" / "learner").read_text().strip() == "ana"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert results.learner() == "ana"
        monkeypatch.setenv("OVLAB_LEARNER", "ben")
        assert results.learner() == "ben"
        monkeypatch.setenv("JUPYTERHUB_USER", "cho")
        assert results.learner() == "cho"
    with pytest.raises(ValueError, match="one line"):
        results.set_learner("a/b")


def test_a_name_set_after_the_first_answer_moves_the_lab_to_it(tmp_path, monkeypatch, capsys):
    """The review's "ana": one answer under the login name, then her own name; the collector
    lists her, not the login (the file keeps the earlier name for the instructor)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("OVLAB_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.delenv("OVLAB_LEARNER", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setattr(results.getpass, "getuser", lambda: "root")
    check(200, 100, explain="e", hint="h", lab="05-demo", exercise=3)
    path = tmp_path / "results" / "05-demo.json"
    assert json.loads(path.read_text())["learner"] == "root"
    results.set_learner("ana")
    check(100, 100, explain="e", hint="h", lab="05-demo", exercise=3)
    data = json.loads(path.read_text())
    assert data["learner"] == "ana" and data["earlier_learners"] == ["root"]
    assert data["exercises"]["3"]["attempts"] == 2
    capsys.readouterr()
    table = results.collect([tmp_path / "results"])
    assert set(table["learner"]) == {"ana"}
