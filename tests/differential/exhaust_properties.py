"""Every case of the property families, not a sample: the generator's space is finite.

``test_device_strings.py`` draws ``set_property``/``get_property`` and ``compile_model``
configs from fixed lists (devices, keys, values), so the whole space can be run through the
real wheel and ovlab in a few minutes a device: 15 devices x 24 keys x 47 values for
``set_get``, 15 x 24 for ``get``, 9 x 24 x 47 for ``compile_config``. Run by hand (one process
per device, so that a crash of the real wheel names its device and spares the others)::

    cd tests && OVLAB_DIFF_COLLECT=/tmp/diffs.txt python differential/exhaust_properties.py \
        set_get CPU AUTO

Every unexplained difference goes to the ``OVLAB_DIFF_COLLECT`` file (without it, the first
one stops the run); the last line printed counts the cases and how often each entry of
``known_differences.KNOWN`` explained one (by index), which shows an entry that no longer
matches anything and can go.
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]

import diff_harness  # noqa: E402
import known_differences  # noqa: E402
import test_device_strings as cases  # noqa: E402

HITS: collections.Counter[int] = collections.Counter()


def _explain(family: str, case: str, real, lab) -> str | None:
    for i, (fam, pattern, reason) in enumerate(known_differences.KNOWN):
        if re.fullmatch(fam, family) and re.fullmatch(pattern, case, flags=re.DOTALL):
            HITS[i] += 1
            return reason
    return None


def values() -> list:
    """The finite VALUES strategy's every value (sampled lists, the integers, the booleans)."""
    out: list = []
    one_of = getattr(cases.VALUES, "wrapped_strategy", cases.VALUES)  # hypothesis' lazy wrapper
    for strategy in one_of.original_strategies:
        if hasattr(strategy, "elements"):
            out += list(strategy.elements)
        elif "integers" in repr(strategy):
            out += list(range(-3, 9))
        else:
            out += [True, False]
    return out


def main(family: str, devices: list[str]) -> None:
    diff_harness.known_differences.explain = _explain
    keys, vals, n = list(cases.KEYS.elements), values(), 0
    for device in devices:
        for key in keys:
            if family == "get":
                cases._get_case(device, key)
                n += 1
                continue
            for value in vals:
                (cases._set_get_case if family == "set_get" else cases._compile_config_case)(
                    device, key, value)
                n += 1
    print(f"{family} {devices}: {n} cases, known entries hit {dict(sorted(HITS.items()))}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("set_get", "get", "compile_config"):
        sys.exit("usage: exhaust_properties.py set_get|get|compile_config DEVICE...")
    main(sys.argv[1], sys.argv[2:])
