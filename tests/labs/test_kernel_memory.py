"""The lab kernel's memory settings (``ovlab/sim/labtools/kernel_memory.py``): on in a lab kernel,
off for a plain ``import ovlab``, and nothing a lab uses breaks."""

import importlib.util
import subprocess
import sys

import pytest

SCRIPT = """
import sys
import ovlab
plain = "rfc3987_syntax" in sys.modules
import ovlab.sim.exercises  # what every lab's setup cell imports
import nbformat, plotly.io  # what plotly's notebook renderer imports
nb = nbformat.v4.new_notebook()
nbformat.validate(nb)
print(plain, sys.modules.get("rfc3987_syntax", "absent"), "lark" in sys.modules)
"""


def test_a_lab_kernel_skips_the_iri_grammar_and_nbformat_still_validates():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "None", "False"]


def test_a_process_that_already_uses_jsonschema_is_left_alone():
    if importlib.util.find_spec("rfc3987_syntax") is None:
        pytest.skip("rfc3987_syntax is not installed here")
    script = ("import jsonschema, sys\nimport ovlab.sim.labtools\n"
              "print(sys.modules.get('rfc3987_syntax') is not None)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
