"""Differential testing: the same generated input through the real wheels and through ovlab.

Every case is one call made twice, once on ``openvino`` / ``openvino_genai`` and once on ovlab
(its ``host`` platform, whose only device the real wheel also has: the CPU). What is compared,
in order:

1. the outcome class: a value, or an exception's type and its meaningful (last) line;
2. the value, by a comparison the family chooses (a property's value, a shape, a tensor).

A difference is either fixed in ovlab or listed with its reason in ``known_differences.py``
(matched by the family's case text); ``test_known_differences.py`` keeps that list from
growing. Each family counts the cases it compared and reports the count
(``pytest_terminal_summary`` in this folder's ``conftest.py`` prints one line per family).

Seeds are derandomized under the default ``ovlab`` profile, so CI is stable; ``make fuzz``
runs the folder with the ``nightly`` profile (50 times the examples, random seeds).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import known_differences
from hypothesis import HealthCheck, given, settings
from pbt_budget import budget

#: ``OVLAB_DIFF_COLLECT=file``: append every unexplained difference to ``file`` and go on (to
#: survey a family before fixing it); unset, the first difference fails the test
COLLECT = os.environ.get("OVLAB_DIFF_COLLECT")
#: cases compared per family in this process (the conftest reports them)
COMPARED: dict[str, int] = {}
#: cases that differed but are listed in known_differences.py, per family
EXPLAINED: dict[str, int] = {}


def diff_settings(examples: int) -> settings:
    """``budget(examples)`` examples; derandomized unless a random profile (nightly) is
    loaded, so ``make test`` compares the same cases every run."""
    nightly = settings.default.max_examples > 1000
    return settings(max_examples=budget(examples), derandomize=not nightly, deadline=None,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large])


def meaningful_line(message: str) -> str:
    """The last non-empty line of an error (what a learner reads)."""
    lines = [ln.strip() for ln in str(message).splitlines() if ln.strip()]
    # an object's address ("<... object at 0x7f...>") is not part of the answer
    return re.sub(r"0x[0-9a-f]+", "0x?", lines[-1]) if lines else ""


def builtin_type(exc: BaseException) -> str:
    """The exception's class as ``except`` sees it: the first builtin class in its MRO.

    ovlab raises subclasses of the builtin errors where it names its own failures
    (``NodeValidationError`` is a ``RuntimeError``, as the wheel's ``RuntimeError`` is); the
    wheel's own exception classes (``openvino.exceptions.*``) and ovlab's copies of them
    (``ovlab.exceptions``) count as themselves."""
    for cls in type(exc).__mro__:
        if cls.__module__ in ("builtins", "ovlab.exceptions") \
                or cls.__module__.startswith("openvino"):
            return cls.__name__
    return type(exc).__name__


@dataclass
class Outcome:
    value: Any = None
    exc: BaseException | None = None

    @property
    def raised(self) -> bool:
        return self.exc is not None

    def cls(self) -> tuple:
        """The outcome class: ("raises", type name, meaningful line) or ("returns",)."""
        if self.exc is not None:
            return ("raises", builtin_type(self.exc), meaningful_line(str(self.exc)))
        return ("returns",)

    def __repr__(self) -> str:
        if self.exc is not None:
            return f"{type(self.exc).__name__}({str(self.exc)!r})"
        return f"returns {self.value!r}"


def attempt(fn: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=fn())
    except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
        return Outcome(exc=exc)


def compare(family: str, case: str, real: Outcome, lab: Outcome,
            same_value: Callable[[Any, Any], bool] | None = None) -> None:
    """Count the case; fail unless both outcomes agree (class, then value) or the case is a
    known difference of ``family``."""
    COMPARED[family] = COMPARED.get(family, 0) + 1
    problem = None
    if real.cls() != lab.cls():
        problem = "outcome"
    elif not real.raised and same_value is not None and not same_value(real.value, lab.value):
        problem = "value"
    if problem is None:
        return
    reason = known_differences.explain(family, case, real, lab)
    if reason is not None:
        EXPLAINED[family] = EXPLAINED.get(family, 0) + 1
        return
    message = (f"[{family}] {case}: the {problem} differs\n  openvino: {real!r}\n"
               f"  ovlab:    {lab!r}")
    if COLLECT:  # a survey: write every difference down instead of stopping at the first
        with open(COLLECT, "a") as out:
            out.write(message + "\n")
        return
    raise AssertionError(f"[{family}] {case}: the {problem} differs\n  openvino: {real!r}\n"
                         f"  ovlab:    {lab!r}")


def run(request, family: str, examples: int, case: Callable[..., None], **strategies) -> None:
    """Run ``case`` on ``examples`` generated inputs (``budget``-scaled), then report how many
    cases the family compared."""
    COMPARED.clear()
    EXPLAINED.clear()

    @diff_settings(examples)
    @given(**strategies)
    def generated(**kwargs):
        if COLLECT:  # the case under way, should a wheel crash the process (a survey)
            with open(COLLECT + ".last", "w") as out:
                out.write(f"{family}: {kwargs!r}\n")
        case(**kwargs)

    generated()
    for name in sorted(set(COMPARED) | {family}):  # the family and the checks it ran under it
        record(request, name)


def record(request, family: str) -> None:
    """Put the family's count on the test's report (xdist carries user_properties to the
    controller, where the conftest sums them)."""
    request.node.user_properties.append(("compared", (family, COMPARED.get(family, 0),
                                                      EXPLAINED.get(family, 0))))
