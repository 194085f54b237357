"""The pinning rule of ``tests/real_wheel.py``, held two ways.

Read from the code (as ``tools/import_graph.py`` reads imports): no test makes a real
``openvino.Core``, or calls the real ``openvino.compile_model`` without a precision in its config,
anywhere but in ``tests/real_wheel.py``. And at run time: a real compile through a Core that is
not pinned fails the test that made it, on every host (the guard keys on the pin, not on the
host's default precision, so an AVX2-only machine catches what only a bf16 machine would show).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
HOME = TESTS / "real_wheel.py"
# names the runner serves: after ovlab.install() (or %load_ext ovlab) ``import openvino`` is
# ovlab's, so a function-level import in a module that installs the runner is not the wheel
_RUNNER_CALLS = {"install", "load_ipython_extension"}


def _real_names(tree: ast.AST) -> set[str]:
    """Names that the module binds to the real wheel (or its ``Core``)."""
    installs = any(isinstance(n, ast.Call) and (
        getattr(n.func, "attr", None) in _RUNNER_CALLS or getattr(n.func, "id", None)
        in _RUNNER_CALLS) for n in ast.walk(tree))
    top = set(map(id, getattr(tree, "body", [])))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "openvino" and (id(node) in top or not installs):
                    names.add(a.asname or "openvino")
        elif isinstance(node, ast.ImportFrom) and node.module == "openvino":
            names.update(a.asname or a.name for a in node.names
                         if a.name in ("Core", "compile_model"))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            if getattr(call.func, "attr", None) == "importorskip" and call.args and \
                    isinstance(call.args[0], ast.Constant) and call.args[0].value == "openvino":
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _pins(call: ast.Call) -> bool:
    """Whether a compile call's literal config names INFERENCE_PRECISION_HINT."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(arg, ast.Dict) and any(isinstance(k, ast.Constant) and
                                             k.value == "INFERENCE_PRECISION_HINT"
                                             for k in arg.keys):
            return True
    return False


def unpinned_calls(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every real ``Core(...)`` and unpinned ``compile_model(...)`` call."""
    tree = ast.parse(source)
    real = _real_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        base = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
            else None
        name = f.attr if base else getattr(f, "id", None)
        if (base in real or (base is None and name in real)) and (
                name == "Core" or (name == "compile_model" and not _pins(node))):
            found.append((node.lineno, ast.unparse(node)[:80]))
    return sorted(found)


def test_no_test_makes_a_real_core_outside_real_wheel():
    offenders = [f"{path.relative_to(TESTS)}:{line}: {text}"
                 for path in sorted(TESTS.rglob("*.py"))
                 # upstream/: OpenVINO's own tests, run as they are; data/: measured reference
                 # data and the scripts that made them on the real wheel (not tests)
                 if path != HOME and not {"upstream", "data"} & set(path.parts)
                 for line, text in unpinned_calls(path.read_text())]
    assert not offenders, "take the real Core from real_wheel.real_core():\n" + "\n".join(offenders)


def test_the_scan_finds_unpinned_cores_and_compiles():
    source = textwrap.dedent("""
        import openvino as ov
        import pytest
        real = pytest.importorskip("openvino")

        def test_a():
            ov.Core().compile_model(m, "CPU")
            real.compile_model(m, "CPU")
            real.compile_model(m, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        """)
    assert [line for line, _ in unpinned_calls(source)] == [7, 8]
    served = textwrap.dedent("""
        import ovlab

        def test_served():
            ovlab.install(platform="laptop")
            import openvino as ov
            ov.Core()
        """)
    assert unpinned_calls(served) == []


def test_a_deliberate_unpinned_compile_in_a_conformance_test_fails_it(tmp_path):
    """A conformance-style test that compiles on an unpinned real Core fails, with the rule's
    message, and the same test pinned passes, whatever the host's default precision."""
    pytest.importorskip("openvino")
    (tmp_path / "conftest.py").write_text(textwrap.dedent(f"""
        import importlib.util, sys
        sys.path.insert(0, {str(TESTS)!r})
        spec = importlib.util.spec_from_file_location("ovlab_tests_conftest",
                                                      {str(TESTS / "conftest.py")!r})
        root = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(root)
        _pinned_real_cpu = root._pinned_real_cpu
        pytest_configure = root.pytest_configure
        """))
    (tmp_path / "test_deliberate.py").write_text(textwrap.dedent("""
        import numpy as np
        import openvino as ov
        import openvino.opset13 as ops
        from real_wheel import real_core

        def model():
            p = ops.parameter([1, 4], np.float32)
            return ov.Model([ops.relu(p)], [p])

        def test_unpinned():
            real_core(pinned=False).compile_model(model(), "CPU")

        def test_pinned():
            real_core().compile_model(model(), "CPU")

        def test_pinned_by_config():
            real_core(pinned=False).compile_model(model(), "CPU",
                                                  {"INFERENCE_PRECISION_HINT": "f32"})

        def test_an_error_stays_the_wheels():
            import pytest
            with pytest.raises(RuntimeError):
                real_core(pinned=False).compile_model(model(), "NO_SUCH_DEVICE")
        """))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-rf", str(tmp_path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert "1 failed, 3 passed" in out, out[-3000:]
    assert "FAILED test_deliberate.py::test_unpinned" in out and "host's default precision" in out
