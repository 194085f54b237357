"""Exercise checks that forgive rounding and say why an answer is off.

A check compares the learner's answer with what the simulation does (never a stored constant) and
prints one of four verdicts: not answered yet, right, close (a near miss: rounding, the wrong
starting point, another order, another capitalisation) or not quite. Numbers are accepted within a
stated absolute ``tolerance``, and every message states it, so a learner who reasons correctly
is never refused over the last digit. ``reveal=True`` shows the answer after a try.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Number
from typing import Any

UNANSWERED, RIGHT, CLOSE, WRONG = "unanswered", "right", "close", "wrong"


def judge(answer: Any, expected: Any, tolerance: float = 0.0) -> str:
    """``"right"``, ``"close"``, ``"wrong"`` or ``"unanswered"`` (``answer is None``).

    Numbers are right within ``tolerance`` (absolute, inclusive; a float tolerance of 0 still
    allows float noise) and close within three tolerances or 5 %; strings are right when equal
    after stripping spaces and close when they differ only in case; lists and tuples are right
    element by element and close when they hold the same items in another order.
    """
    if answer is None:
        return UNANSWERED
    if _is_number(expected) and _is_number(answer):
        diff = abs(float(answer) - float(expected))
        slack = 1e-9 * max(1.0, abs(float(expected)))
        if diff <= tolerance + slack:
            return RIGHT
        if diff <= max(3 * tolerance, 0.05 * abs(float(expected))):
            return CLOSE
        return WRONG
    if isinstance(expected, str) and isinstance(answer, str):
        if answer.strip() == expected.strip():
            return RIGHT
        return CLOSE if answer.strip().lower() == expected.strip().lower() else WRONG
    if isinstance(expected, (list, tuple)) and isinstance(answer, (list, tuple)):
        if len(answer) != len(expected):
            return WRONG
        verdicts = [judge(a, e, tolerance) for a, e in zip(answer, expected, strict=True)]
        if all(v == RIGHT for v in verdicts):
            return RIGHT
        if all(v in (RIGHT, CLOSE) for v in verdicts) or _same_items(answer, expected):
            return CLOSE
        return WRONG
    return RIGHT if answer == expected else WRONG


def _is_number(x: Any) -> bool:
    return isinstance(x, Number) and not isinstance(x, bool) and math.isfinite(float(x))


def _same_items(a: list | tuple, b: list | tuple) -> bool:
    try:
        return sorted(map(repr, a)) == sorted(map(repr, b))
    except TypeError:
        return False


def tolerance_note(tolerance: float, unit: str = "") -> str:
    """How the tolerance reads in a message: ``"answers within ±0.1 s count"``."""
    if not tolerance:
        return ""
    unit = f" {unit}" if unit else ""
    return f"answers within ±{tolerance:g}{unit} count"


def message(verdict: str, answer: Any, *, explain: str, hint: str, tolerance: float = 0.0,
            unit: str = "", expected: Any = None, reveal: bool = False,
            reveal_with: str = "reveal=True") -> str:
    """The text a check prints for ``verdict``; with ``reveal`` the expected answer too."""
    note = tolerance_note(tolerance, unit)
    if reveal:
        shown = f"{expected!r}" + (f" ({note})" if note else "")
        tried = "" if verdict == UNANSWERED else f" You answered {answer!r}: {verdict}."
        return f"The answer: {shown}.{tried}\n  Why: {explain}"
    if verdict == UNANSWERED:
        text = "? Not answered yet: replace None with your answer and run the cell again."
        if note:
            text += f" ({note[0].upper()}{note[1:]}.)"
        return f"{text}\n  Hint: {hint}"
    if verdict == RIGHT:
        return f"Right! {explain}"
    if verdict == CLOSE:
        why = f"not within the tolerance ({note})" if note else "not exactly it"
        return (f"Close: {answer!r} is near the answer but {why}. Check your rounding, the units, "
                f"the order, and what you measured from.\n  Hint: {hint}")
    return (f"Not quite: {answer!r} is not it.\n  Hint: {hint}\n"
            f"  (To see the answer after trying, add {reveal_with} to the check.)")


def check(answer: Any, expected: Any | Callable[[], Any], *, explain: str, hint: str,
          tolerance: float = 0.0, unit: str = "", reveal: bool = False,
          lab: str | None = None, exercise: str | int | None = None) -> None:
    """Print whether ``answer`` matches ``expected`` (``None`` means not answered yet).

    ``expected`` may be a function: it is then called only when there is something to compare
    (an answer, or ``reveal``), so an unanswered exercise costs nothing. With ``lab`` and
    ``exercise`` the outcome is also recorded for the instructor (``ovlab.sim.labtools.results``).
    """
    if answer is None and not reveal:
        print(message(UNANSWERED, None, explain=explain, hint=hint, tolerance=tolerance,
                      unit=unit))
        return
    value = expected() if callable(expected) else expected
    verdict = judge(answer, value, tolerance)
    print(message(verdict, answer, explain=explain, hint=hint, tolerance=tolerance, unit=unit,
                  expected=value, reveal=reveal))
    if lab is not None and exercise is not None:
        from . import results

        results.record(lab, str(exercise), verdict, answer, revealed=reveal)
