"""``%load_ext ovlab``: the runner for a Jupyter kernel.

Loading the extension installs the runner with the defaults (the ``laptop`` platform, seed 0)
unless ``ovlab.install(...)`` already did with other ones; ``%unload_ext ovlab`` or
``ovlab.uninstall()`` removes it. One line says what happened, so a notebook's stored output
shows which machine it ran on.
"""

from __future__ import annotations

from typing import Any


def load_ipython_extension(ipython: Any = None) -> None:
    from . import current_session, install

    session = current_session() or install()
    print(f"ovlab: 'import openvino' now runs on the virtual '{session.platform.name}' platform "
          f"(seed {session.seed}) in simulated time; %unload_ext ovlab to stop")


def unload_ipython_extension(ipython: Any = None) -> None:
    from . import uninstall

    uninstall()
    print("ovlab: openvino and time are real again")
