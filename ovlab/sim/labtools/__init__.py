"""Small helpers the labs share: exercise checks, error messages, and the lab-sized pieces of
code (tables, runs, figures) that would otherwise fill a lab's cells with plumbing.

- :func:`check` compares an answer with what the simulation does, within a stated tolerance
  (``checks``); the labs' own exercises live in :mod:`ovlab.sim.exercises` and record their
  outcomes for the instructor (``results``).
- :func:`error_message` and :func:`ms` keep printed output short and stable.
- ``batching`` and ``hetero`` hold the helpers of labs 05 and 07 (imported on first use).
- Importing it keeps the lab's kernel lean (``kernel_memory``): every lab imports it first.
"""

from __future__ import annotations

from .checks import check, judge
from .kernel_memory import keep_kernel_lean

keep_kernel_lean()

__all__ = ["check", "judge", "error_message", "ms", "set_learner"]


def set_learner(name: str):
    """Record your exercise results under ``name`` from now on, in every lab (for a machine
    without JupyterHub, where learners may share a login); see ``labtools.results``."""
    from .results import set_learner as _set

    return _set(name)


def error_message(fn) -> str:
    """The message of the RuntimeError that ``fn()`` raises, without OpenVINO's chain of
    ``Exception from src/...`` lines (so a lab prints what matters); ``"no error"`` if none."""
    try:
        fn()
    except RuntimeError as err:
        # a failed inference re-raised by wait() nests the device's chain behind
        # "Caught exception: " (as the Python binding does)
        lines = [x.removeprefix("Caught exception: ") for x in str(err).strip().splitlines()]
        return " ".join(x for x in lines if not x.startswith(("Exception from ", "Check '")))
    return "no error"


def ms(seconds: float) -> str:
    """Seconds as a short millisecond string (for prints that must not depend on float noise)."""
    return f"{seconds * 1000:.1f} ms"


def __getattr__(name: str):
    if name in ("batching", "hetero", "results", "checks"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'ovlab.sim.labtools' has no attribute {name!r}")
