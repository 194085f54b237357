"""Small helpers the labs share: exercise checks and tidy tables.

An exercise cell sets ``answer = None``; the learner replaces it, and the check cell says whether
it is right, with a hint when it is not. Checks compare against what the simulation does, not
against a stored constant, so they stay right when the code changes.
"""

from __future__ import annotations

from typing import Any


def check(answer: Any, expected: Any, *, explain: str, hint: str) -> None:
    """Print whether ``answer`` equals ``expected`` (``None`` means not answered yet)."""
    if answer is None:
        print(f"? Not answered yet: replace None with your answer and re-run the cell.\n  Hint: {hint}")
    elif _same(answer, expected):
        print(f"Right! {explain}")
    else:
        print(f"Not quite: {answer!r} is not it.\n  Hint: {hint}")


def _same(a: Any, b: Any) -> bool:
    if isinstance(b, float) and isinstance(a, (int, float)):
        return abs(a - b) <= 1e-6 * max(1.0, abs(b))
    if isinstance(b, (list, tuple)) and isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def error_message(fn) -> str:
    """The message of the RuntimeError that ``fn()`` raises, without OpenVINO's chain of
    ``Exception from src/...`` lines (so a lab prints what matters); ``"no error"`` if none."""
    try:
        fn()
    except RuntimeError as err:
        lines = str(err).strip().splitlines()
        return " ".join(x for x in lines if not x.startswith(("Exception from ", "Check '")))
    return "no error"


def ms(seconds: float) -> str:
    """Seconds as a short millisecond string (for prints that must not depend on float noise)."""
    return f"{seconds * 1000:.1f} ms"
