"""How many examples a property-based test runs, by hypothesis profile.

``budget(300)`` is 300 under the ``ovlab`` profile (``make test``: a bounded budget that keeps the
whole unit suite within minutes on 2 cores) and 15,000 under ``nightly`` (the same tests with a
big budget, ``benchmarks/bench_properties.py``). Profiles are registered in ``tests/conftest.py``;
the scale is the loaded profile's ``max_examples`` over 100.
"""

from __future__ import annotations

from hypothesis import settings


def budget(examples: int) -> int:
    """``examples`` scaled by the loaded hypothesis profile (never below 1)."""
    return max(1, round(examples * settings.default.max_examples / 100))
