"""The harness of OpenVINO's own tests: the xfail list parses and matches as documented."""

import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parents[1] / "openvino_suite"
sys.path.insert(0, str(SUITE))
import suite_plugin  # noqa: E402

ENTRIES = [("test_core.py::test_compile_model", "[ir] a"),
           ("test_core.py::test_compact_api[*get_model_path]", "[ir] b"),
           ("test_properties.py::test_properties_rw[NPU_MAX_TILES", "[real] c"),
           ("test_sync_infer_request.py", "[import] d")]


def test_every_entry_has_a_tagged_reason():
    entries = suite_plugin.load()
    assert len(entries) >= 5
    for test_id, reason in entries:
        assert test_id.startswith("test_") and ".py" in test_id
        assert reason.split()[0] in ("[opset]", "[ir]", "[real]", "[sim]", "[core]", "[import]",
                                     "[api]", "[dyn]")
        assert len(reason) > 20


def test_matching_rules():
    def reason(short):
        return suite_plugin._reason_for(short, ENTRIES)

    assert reason("test_core.py::test_compile_model[None]") == "[ir] a"
    assert reason("test_core.py::test_compile_model") == "[ir] a"
    assert reason("test_core.py::test_compile_model_other") is None
    assert reason("test_core.py::test_compact_api[None-CPU-get_model_path]") == "[ir] b"
    assert reason("test_core.py::test_compact_api[None-CPU-get_model]") is None
    assert reason("test_properties.py::test_properties_rw[NPU_MAX_TILES-NPU_MAX_TILES-x]") == "[real] c"
    assert reason("test_sync_infer_request.py") == "[import] d"
    assert suite_plugin._short_id("upstream/tests/test_runtime/test_core.py::t") == "test_core.py::t"


def test_manifest_pins_a_commit_and_sum_per_file():
    rows = [line.split() for line in (SUITE / "MANIFEST.txt").read_text().splitlines()
            if not line.startswith("#")]
    assert len(rows) >= 9 and len({r[0] for r in rows}) == len(rows)
    for path, commit, sha in rows:
        assert path.startswith("tests/") and len(commit) == 40 and len(sha) == 64


def test_runtime_alias_forwards_to_openvino_modules():
    """The 2025 name ``openvino.runtime[.x]`` resolves to ``openvino[.x]`` (here: ovlab's
    modules standing in for openvino, as the runner serves them)."""
    import importlib

    import ovlab
    import ovlab.utils.types

    stand_ins = {"openvino": ovlab, "openvino.utils": ovlab.utils,
                 "openvino.utils.types": ovlab.utils.types}
    aliases = ("openvino.runtime", "openvino.runtime.utils", "openvino.runtime.utils.types")
    saved = {n: sys.modules.get(n) for n in (*stand_ins, *aliases)}
    sys.modules.update(stand_ins)
    for name in aliases:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, suite_plugin.ALIAS)
    try:
        alias = importlib.import_module("openvino.runtime")
        assert alias.Tensor is ovlab.Tensor and alias.Core is ovlab.Core
        types = importlib.import_module("openvino.runtime.utils.types")
        assert types.get_dtype is ovlab.utils.types.get_dtype
    finally:
        sys.meta_path.remove(suite_plugin.ALIAS)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
