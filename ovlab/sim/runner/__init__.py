"""Run unmodified OpenVINO code on ovlab: ``python -m ovlab run script.py`` or ``%load_ext ovlab``.

``install(platform, seed, realtime)`` makes one session (a virtual platform and one simulated
clock), serves ``openvino`` from ovlab through an import hook (``imports.py``, ``served.py``)
and points ``time.*`` at the session clock (``clock_hooks.py``), where a PyTorch forward pass
takes simulated time too (``frameworks.py``); ``uninstall()`` undoes all of it. The command line (``cli.py``) and the notebook extension (``notebook.py``) are thin layers
over these two calls.
"""

from __future__ import annotations

from ..hardware.platforms import Platform
from . import clock_hooks, frameworks, imports
from . import session as _session
from .session import Session


def install(platform: str | Platform = "laptop", seed: int = 0,
            realtime: float | None = None) -> Session:
    """Serve ``openvino`` from ovlab on ``platform`` and simulate ``time.*``; returns the session.

    Installing again replaces the session (a fresh clock at 0). Call :func:`uninstall` to get
    the real ``openvino`` (if any) and the real ``time`` functions back.
    """
    session = Session.make(platform, seed, realtime)
    uninstall()
    _session.set_current(session)
    imports.install()
    clock_hooks.install(session)
    frameworks.install()
    return session


def uninstall() -> None:
    """Undo :func:`install`: no served module, hook or patched function is left behind."""
    frameworks.uninstall()
    clock_hooks.uninstall()
    imports.uninstall()
    _session.set_current(None)


def installed() -> bool:
    """True while ovlab serves ``openvino``."""
    return _session.current() is not None


def current_session() -> Session | None:
    """The installed session (its ``clock``, ``platform``, ``seed``), or None."""
    return _session.current()


# The notebook extension (``notebook.py``) calls install/uninstall from here, so this package
# does not import it back: ``ovlab`` serves its two functions for ``%load_ext ovlab``.
__all__ = ["Session", "current_session", "install", "installed", "uninstall"]
