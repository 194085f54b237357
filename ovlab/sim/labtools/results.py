"""Exercise outcomes, recorded for the instructor: one small JSON file per lab and learner.

Every check that has something to compare (an answer, or a reveal) updates
``<results dir>/<lab>.json``. The directory is ``$OVLAB_RESULTS_DIR`` if that is set, otherwise
``~/.ovlab/results``; ``OVLAB_RESULTS_DIR=off`` (or empty) records nothing. On a JupyterHub every
learner has their own home, so an instructor gathers ``/home/*/.ovlab/results`` with
``python tools/collect_results.py`` (or :func:`collect`). Unanswered exercises are not recorded,
so running a lab without answering writes nothing.

A file holds the learner's name at the latest answer (and ``earlier_learners``, if the name
changed: set it before the first answer, or the next answer moves the lab to the new name), and,
per exercise, the latest verdict, the latest answer (its ``repr``), the number of
attempts, whether the answer was revealed, and when it was first right (UTC). Writes are atomic
(a temporary file renamed over the old one), so a collector never reads half a file.
"""

from __future__ import annotations

import datetime as _dt
import getpass
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ENV = "OVLAB_RESULTS_DIR"


def results_dir() -> Path | None:
    """Where results go, or ``None`` when recording is off."""
    value = os.environ.get(ENV)
    if value is None:
        return Path.home() / ".ovlab" / "results"
    if value.strip().lower() in ("", "off", "0", "none", "no"):
        return None
    return Path(value).expanduser()


LEARNER_ENV = "OVLAB_LEARNER"
_warned_os_user = False


def learner_file() -> Path:
    """Where :func:`set_learner` keeps the name: ``~/.ovlab/learner`` (beside the results)."""
    return Path.home() / ".ovlab" / "learner"


def set_learner(name: str) -> Path:
    """Set the name your results are recorded under (on a machine without JupyterHub, where
    every learner may share one login): ``ovlab.sim.labtools.set_learner("ana")``. It is kept
    in a small file and used by every later check, in every lab; a lab answered before under
    another name moves to this one at its next answer."""
    name = str(name).strip()
    if not name or any(c in name for c in "\n\r/\\"):
        raise ValueError(f"a learner name is one line of text without slashes, got {name!r}")
    path = learner_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(name + "\n", encoding="utf-8")
    return path


def learner_and_source() -> tuple[str, str]:
    """The learner's name and where it comes from: ``"hub"`` (``$JUPYTERHUB_USER``), ``"env"``
    (``$OVLAB_LEARNER``), ``"set"`` (:func:`set_learner`'s file) or ``"login"`` (the login
    name, which learners sharing a machine would share)."""
    if os.environ.get("JUPYTERHUB_USER"):
        return os.environ["JUPYTERHUB_USER"], "hub"
    if os.environ.get(LEARNER_ENV, "").strip():
        return os.environ[LEARNER_ENV].strip(), "env"
    try:
        name = learner_file().read_text(encoding="utf-8").strip()
    except OSError:
        name = ""
    if name:
        return name, "set"
    try:
        return getpass.getuser(), "login"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "unknown", "login"


def learner() -> str:
    """The learner's name: JupyterHub's user if there is one; else the name set with
    :func:`set_learner` (or ``$OVLAB_LEARNER``); else the login name, with a one-line note the
    first time, since on a shared machine every learner would be recorded under it."""
    global _warned_os_user
    name, source = learner_and_source()
    if source == "login" and not _warned_os_user:
        # one friendly line, not a UserWarning: a warning shows in a pink block with an
        # internal file path, which a learner reads as an error
        _warned_os_user = True
        print(f"Note: your answers are recorded as {name!r} (this computer's login). If others "
              f"share this login, run ovlab.labtools.set_learner('your name') once.")
    return name


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def record(lab: str, exercise: str, verdict: str, answer: Any, *, revealed: bool = False,
           directory: Path | None = None) -> Path | None:
    """Update the lab's file with one check; returns its path (``None`` if recording is off).

    Recording must never break a lab: a read-only home or a full disk is silently skipped.
    """
    folder = directory if directory is not None else results_dir()
    if folder is None:
        return None
    path = folder / f"{lab}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        data = read(path) or {"lab": lab, "learner": learner(), "exercises": {}}
        # the name is the learner's at the latest answer, not the first: a learner who answered
        # once under the login name and then set their own is collected under their own (the
        # file keeps the earlier names, so an instructor sees the change)
        now_name = learner()
        if data.get("learner") != now_name:
            earlier = [n for n in data.get("earlier_learners", []) if n != now_name]
            if data.get("learner"):
                earlier.append(data["learner"])
            data["earlier_learners"] = earlier
            data["learner"] = now_name
        entry = data["exercises"].setdefault(exercise, {"attempts": 0, "revealed": False})
        if answer is not None:
            entry["attempts"] += 1
            entry["answer"] = repr(answer)
            entry["verdict"] = verdict
            if verdict == "right" and "first_right" not in entry:
                entry["first_right"] = _now()
        if revealed:
            # an answer given with reveal=True was judged before the answer was shown
            if not entry["revealed"]:
                entry["revealed_before_right"] = "first_right" not in entry
            entry["revealed"] = True
            entry.setdefault("verdict", "unanswered")
        data["updated"] = _now()
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{lab}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        return None
    return path


def read(path: Path) -> dict | None:
    """One results file, or ``None`` if it is missing or unreadable."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def collect(paths: Iterable[str | Path]):
    """Every result under ``paths`` (results directories or files) as a pandas DataFrame.

    One row per learner, lab and exercise: ``learner``, ``lab``, ``exercise``, ``verdict``,
    ``attempts``, ``revealed``, ``first_right``, ``answer``, ``file``. The learner is the one
    recorded in the file, or the name of the home directory it was found in.
    """
    import pandas as pd

    rows = []
    for root in paths:
        root = Path(root)
        files = sorted(root.glob("*.json")) if root.is_dir() else [root]
        for path in files:
            data = read(path)
            if not data or "exercises" not in data:
                continue
            who = data.get("learner") or _home_owner(path)
            for number, entry in sorted(data["exercises"].items(), key=lambda kv: kv[0]):
                verdict = entry.get("verdict", "unanswered")
                revealed = bool(entry.get("revealed", False))
                # files from before the order was recorded: revealed and not right now
                early = entry.get("revealed_before_right", revealed and verdict != "right")
                rows.append({"learner": who, "lab": data.get("lab", path.stem),
                             "exercise": number, "verdict": verdict,
                             "attempts": entry.get("attempts", 0), "revealed": revealed,
                             "revealed_before_right": bool(revealed and early),
                             "first_right": entry.get("first_right", ""),
                             "answer": entry.get("answer", ""), "file": str(path)})
    columns = ["learner", "lab", "exercise", "verdict", "attempts", "revealed",
               "revealed_before_right", "first_right", "answer", "file"]
    return pd.DataFrame(rows, columns=columns)


def _home_owner(path: Path) -> str:
    parts = Path(path).resolve().parts
    if ".ovlab" in parts:
        i = parts.index(".ovlab")
        if i > 0:
            return parts[i - 1]
    return "unknown"


def mark(row) -> str:
    """One exercise's mark, as the instructors' guide defines them: ``?`` if the answer was
    revealed before a right one; ``✓`` if the learner was right at some point (a later "close"
    does not undo it); else the latest verdict, ``~`` close or ``✗`` wrong; empty if not
    tried."""
    if row.revealed_before_right:
        return "?"
    if row.first_right:
        return "✓"
    return {"close": "~", "wrong": "✗"}.get(row.verdict, "")


def summary(frame):
    """A learner x (lab, exercise) table of marks (:func:`mark`) with each learner's count of
    ``✓``."""
    if frame.empty:
        return frame
    shown = frame.assign(mark=[mark(r) for r in frame.itertuples()])
    shown["column"] = shown["lab"].str.slice(0, 2) + "." + shown["exercise"].astype(str)
    table = shown.pivot_table(index="learner", columns="column", values="mark",
                              aggfunc="last", fill_value="")
    table["right"] = (shown[shown["mark"] == "✓"].groupby("learner").size()
                      .reindex(table.index, fill_value=0))
    return table
