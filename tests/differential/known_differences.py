"""Every difference between the real wheels and ovlab that the differential tests know of and
do not fix, with its reason. The list can only shrink: ``test_known_differences.py`` pins its
length (lower the pin when an entry goes; an entry is never added to make a test pass without a
reason a reviewer accepts).

An entry is (family, a regular expression the case text must match in full, the reason). A
family's case text is what ``diff_harness.compare`` prints for it.
"""

from __future__ import annotations

import re

KNOWN: list[tuple[str, str, str]] = [
]


def explain(family: str, case: str, real, lab) -> str | None:
    """The reason a differing case of ``family`` is known, or None."""
    for fam, pattern, reason in KNOWN:
        if fam == family and re.fullmatch(pattern, case, flags=re.DOTALL):
            return reason
    return None
