"""``import ovlab`` stays cheap: every lab kernel, ``python -m ovlab run`` and each test that starts
a Python process pays it.

jsonschema once made it 4.3 s instead of 1.3 s (its rfc3987_syntax format checker builds a grammar
at import; measured with ``python -X importtime``, 2026-11-27, 2-vCPU AMD EPYC). This checks what
is imported, not how long it takes, so it holds on any machine.
"""

import subprocess
import sys

HEAVY = ("jsonschema", "pandas", "plotly", "ipywidgets", "openvino", "onnx", "defusedxml",
         "sklearn", "scipy", "matplotlib")


def test_import_ovlab_loads_only_numpy_and_simpy():
    code = ("import sys; before = set(sys.modules); import ovlab; "
            "print(' '.join(sorted({m.split('.')[0] for m in set(sys.modules) - before})))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    heavy = sorted(m for m in loaded if m in HEAVY or m.startswith(HEAVY))
    assert not heavy, f"import ovlab loads {heavy}: import them where they are used"
    assert {"numpy", "simpy"} <= loaded
