"""The labs' exercises: how each answer is computed, its tolerance, explanation and hint.

Each lab ``NN`` has a module ``labNN`` here with an :class:`LabExercises` named ``EXERCISES``.
A lab's exercise cell then reads::

    from ovlab.sim.exercises import for_lab   # once, in the setup cell
    exercises = for_lab("03")
    answer = None  # seconds, e.g. 5.0
    exercises.check(1, answer)

Keeping the solutions here, not in the notebook, means the answer is not printed under the
question; the same code checks the learner's answer, reveals it (``reveal=True``) and writes the
instructors' answer key (``tools/answer_key.py``). A solution recomputes its answer from a fresh
simulation, so it never depends on what the learner changed in the notebook, and it runs only
when there is an answer to compare (an unanswered exercise costs nothing).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..labtools import checks

__all__ = ["Exercise", "LabExercises", "for_lab", "labs"]


@dataclass(frozen=True)
class Exercise:
    """One exercise: ``solve()`` computes the expected answer from the simulation."""

    number: int
    solve: Callable[[], Any]
    explain: str
    hint: str
    tolerance: float = 0.0
    unit: str = ""


class LabExercises:
    """The exercises of one lab; ``check(n, answer)`` is what the notebook calls."""

    def __init__(self, lab: str, exercises: Sequence[Exercise]) -> None:
        self.lab = lab  # the notebook's name without .ipynb, e.g. "03-auto-first-inference"
        self._by_number = {e.number: e for e in exercises}
        self._solved: dict[int, Any] = {}

    def __iter__(self) -> Iterator[Exercise]:
        return iter(sorted(self._by_number.values(), key=lambda e: e.number))

    def __len__(self) -> int:
        return len(self._by_number)

    def __repr__(self) -> str:
        return f"<exercises of {self.lab}: {len(self)}>"

    def exercise(self, number: int) -> Exercise:
        try:
            return self._by_number[number]
        except KeyError:
            raise ValueError(f"{self.lab} has no exercise {number}; it has "
                             f"{sorted(self._by_number)}") from None

    def answer(self, number: int) -> Any:
        """The expected answer (computed once per process)."""
        if number not in self._solved:
            self._solved[number] = self.exercise(number).solve()
        return self._solved[number]

    def check(self, number: int, answer: Any, *, reveal: bool = False) -> None:
        """Print the verdict on ``answer`` and record it (``ovlab.sim.labtools.results``)."""
        ex = self.exercise(number)
        checks.check(answer, lambda: self.answer(number), explain=ex.explain, hint=ex.hint,
                     tolerance=ex.tolerance, unit=ex.unit, reveal=reveal, lab=self.lab,
                     exercise=number)


def for_lab(lab: str) -> LabExercises:
    """The exercises of lab ``lab`` (``"03"`` or ``"03-auto-first-inference"``)."""
    number = lab[:2]
    try:
        module = importlib.import_module(f"{__name__}.lab{number}")
    except ModuleNotFoundError:
        raise ValueError(f"no exercises are registered for lab {lab!r}: add "
                         f"ovlab/sim/exercises/lab{number}.py") from None
    return module.EXERCISES


def labs() -> list[str]:
    """The lab numbers that have an exercise module, in order (``["00", "01", ...]``)."""
    return sorted(m.name[3:] for m in pkgutil.iter_modules(__path__) if m.name.startswith("lab"))
