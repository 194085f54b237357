"""Every difference between the real wheels and ovlab that the differential tests know of and
do not fix, with its reason. The list can only shrink: ``test_known_differences.py`` pins its
length (lower the pin when an entry goes; an entry is never added to make a test pass without a
reason a reviewer accepts).

An entry is (a regular expression for the family, one the case text must match in full, the
reason). A
family's case text is what ``diff_harness.compare`` prints for it.
"""

from __future__ import annotations

import re

_LLM_KEYS = r"(KV_CACHE_PRECISION|KEY_CACHE_PRECISION|VALUE_CACHE_PRECISION|KEY_CACHE_GROUP_SIZE|" \
    r"VALUE_CACHE_GROUP_SIZE|DYNAMIC_QUANTIZATION_GROUP_SIZE)"

KNOWN: list[tuple[str, str, str]] = [
    ("device/get_property", rf".*'{_LLM_KEYS}'\)",
     "ovlab's CPU does not model the LLM keys of the real CPU plugin (KV-cache precision and "
     "group sizes, dynamic quantization): they are not in its SUPPORTED_PROPERTIES, so reading "
     "one is 'Cannot get unsupported property'"),
    ("device/set_get_property", rf".*'{_LLM_KEYS}'.*",
     "as above: ovlab's CPU rejects the LLM keys it does not model"),
    ("device/compile_config", rf".*'{_LLM_KEYS}'.*",
     "as above: ovlab's CPU drops (through AUTO/HETERO) or rejects the LLM keys it does not "
     "model, where the real CPU validates their values"),
    ("device/set_get_property", r"set_property\('HETERO', \{'MODEL_DISTRIBUTION_POLICY': "
     r"(?!'|\[).*",
     "a MODEL_DISTRIBUTION_POLICY that is not a set or a string: the real runtime fails in "
     "ov::Any's conversion and names the C++ types (\"Bad as from: b to: St3set...\"); ovlab "
     "names the value in HETERO's own message"),
    ("device/(compile_model|query_model)",
     r"(compile|query)_model\('HETERO:.*(AUTO|MULTI|HETERO|BATCH).*'\)",
     "a virtual device inside HETERO's device list: ovlab's HETERO splits a model over hardware "
     "devices only and says so (a virtual device can be given as an op's affinity instead); the "
     "real HETERO queries the nested device and fails or succeeds by its answer"),
    ("device/(compile_model|query_model)",
     r"(compile|query)_model\('(AUTO|MULTI|BATCH):.*(HETERO|BATCH(?!\(\d)).*'\)",
     "a nested HETERO or BATCH without a batch size inside an AUTO/MULTI/BATCH list: the real "
     "runtime hands the nested virtual device its own empty device list and fails inside it; "
     "ovlab's meta plugins drop a candidate they cannot configure"),
    ("device/compile_model", r"compile_model\('MULTI:.*CPU[.:].*'\)",
     "MULTI with the CPU twice, once with an id (CPU and CPU.x): the real cumulative schedule "
     "fails the whole compile when one CPU entry fails; ovlab's runs on the entry that compiles"),
    ("device/(compile_config|set_get_property)",
     r"(compile_model|set_property)\('CPU\.\d', \{'(AUTO_BATCH_TIMEOUT|AVAILABLE_DEVICES)'.*",
     "a CPU.N name with a key the CPU rejects: the real CPU plugin checks its config keys in "
     "alphabetical order with DEVICE_ID among them, so a key before 'DEVICE_ID' is named first; "
     "ovlab checks the device id first"),
    ("device/(compile_config|set_get_property)", r".*: (None|True|False|\[1, 2\])[,}].*",
     "a None, bool or list value where a number or string is expected: the real runtime fails in "
     "ov::Any's C++ conversions with mangled type names ('Bad as from: b to: j', 'Any was not "
     "initialized') or converts it silently, depending on the path; ovlab names the value"),
]


def explain(family: str, case: str, real, lab) -> str | None:
    """The reason a differing case of ``family`` is known, or None."""
    for fam, pattern, reason in KNOWN:
        if re.fullmatch(fam, family) and re.fullmatch(pattern, case, flags=re.DOTALL):
            return reason
    return None
