"""A lab kernel's memory: two process-wide settings that keep a learner's kernel small.

Why: JupyterLab keeps one kernel per open notebook, and a Binder or JupyterHub learner has a
fixed memory budget, so every lab's kernel must stay under 230 MB after Run All
(``benchmarks/bench_lab_memory.py``). Two costs in a lab kernel have nothing to do with the lab:

- **A grammar nobody uses.** plotly's notebook renderer imports ``nbformat``, ``nbformat``
  imports ``jsonschema``, and jsonschema's format checker imports ``rfc3987_syntax`` (installed
  with JupyterLab), which builds a Lark grammar for IRIs at import: 20 MB and 1.2 s in every lab
  kernel that shows a figure (measured 2026-12-07, 2-vCPU Xeon, ``/proc/self/status``). Nothing
  in a lab kernel validates an IRI, so the kernel does not load it: jsonschema then simply has
  no "iri" format checker (what it does when the package is absent). Only done while neither
  package has been imported, so a process that already uses them is left as it is.
- **Freed activations that stay resident.** glibc raises its mmap threshold each time a large
  block is freed, so after the first inferences every activation array (hundreds of KB to MB)
  comes from the heap and its pages stay in the kernel's RSS after it is freed. A fixed
  threshold of 256 KiB returns them to the system: lab 09's squeezenet cell kept 16 MB less.

:func:`keep_kernel_lean` is called when the labs' tools are imported (every lab's setup cell
imports ``ovlab.sim.exercises``), not by ``import ovlab``: a library must not change a user's
process.
"""

from __future__ import annotations

import sys

from ..libc import set_mmap_threshold

_MMAP_THRESHOLD_BYTES = 256 * 1024
_done = False


def keep_kernel_lean() -> None:
    """Apply both settings once per process (idempotent; a no-op where they do not apply)."""
    global _done
    if _done:
        return
    _done = True
    if "rfc3987_syntax" not in sys.modules and "jsonschema" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # import -> ImportError
    set_mmap_threshold(_MMAP_THRESHOLD_BYTES)  # a no-op where the C library is not glibc
