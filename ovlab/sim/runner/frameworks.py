"""A PyTorch forward pass on the simulated clock: framework compute takes simulated time.

Under the runner, Python code between OpenVINO calls takes no simulated time (the clock moves
on OpenVINO's blocking calls and sleeps). openvino_notebooks' performance-tricks time a PyTorch
model first, as the baseline, with ``time.perf_counter()`` around 1000 forward passes: at no
simulated time they would print infinite FPS (and divide by zero). So while the runner is
installed, a top-level ``torch.nn.Module`` call from the thread that installed it advances the
clock, as a CPU-bound call of that length would on hardware:

    seconds = FLOPs of the call (torch.utils.flop_counter: matmuls and convolutions)
              / (the virtual CPU's f32 peak * PYTORCH_EFFICIENCY)

``PYTORCH_EFFICIENCY`` = 0.07 is the fraction of peak that PyTorch's eager CPU forward reached in
the notebooks' own published run (docs/notebooks/latency-tricks-with-output.rst of OpenVINO's
documentation): YOLOv5n at 640x480, 3.4 GFLOP, took 0.0213 s on a Core i9-10920X, 158 GFLOP/s
of about 2300 (12 cores, AVX-512, two FMA units, ~3 GHz all-core). The same FLOPs always give
the same time: runs stay deterministic. Calls made while PyTorch traces or exports a model
(``torch.onnx.export``, ``torch.jit.trace``, ``torch.export``) are not charged, nor nested
module calls (the top-level call counts them all), nor calls from other threads or callbacks.
The charge does not contend with simulated inferences running on the virtual CPU meanwhile.

The hook wraps ``torch.nn.Module.__call__`` when ``torch`` is imported (an import hook, or at
once if it already is) and puts the original back on ``uninstall()``.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
from typing import Any

from . import session as _session

PYTORCH_EFFICIENCY = 0.07

_state = threading.local()
_original_call: Any = None


def _seconds(session: _session.Session, flops: float) -> float:
    cpu = session.platform.devices.get("CPU")
    if cpu is None:
        cpu = next(iter(session.platform.devices.values()))
    peak = cpu.peak_gflops.get("f32", max(cpu.peak_gflops.values())) * 1e9
    return flops / (peak * PYTORCH_EFFICIENCY)


def _tracing(torch: Any) -> bool:
    checks = (getattr(torch.onnx, "is_in_onnx_export", None),
              getattr(torch.jit, "is_tracing", None),
              getattr(getattr(torch, "compiler", None), "is_compiling", None),
              getattr(getattr(torch, "compiler", None), "is_exporting", None))
    return any(check is not None and check() for check in checks)


def _patch(torch: Any) -> None:
    global _original_call
    if _original_call is not None:
        return
    original = _original_call = torch.nn.Module.__call__

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        session = _session.current()
        if (session is None or threading.get_ident() != session.owner
                or getattr(_state, "inside", False) or getattr(session.clock, "_depth", 0)
                or _tracing(torch)):
            return original(self, *args, **kwargs)
        from torch.utils.flop_counter import FlopCounterMode

        _state.inside = True
        try:
            with FlopCounterMode(display=False) as counter:
                out = original(self, *args, **kwargs)
        finally:
            _state.inside = False
        flops = counter.get_total_flops()
        if flops > 0:
            session.clock.sleep(_seconds(session, flops))
        return out

    torch.nn.Module.__call__ = __call__


class _TorchImportHook(importlib.abc.MetaPathFinder):
    """Patches ``torch`` right after it is imported (the finder that finds it does the work)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "torch":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                execute = spec.loader.exec_module

                def exec_module(module: Any, execute: Any = execute) -> None:
                    execute(module)
                    _patch(module)

                spec.loader.exec_module = exec_module  # this spec's own loader object
                return spec
        return None


_HOOK = _TorchImportHook()


def install() -> None:
    if "torch" in sys.modules:
        _patch(sys.modules["torch"])
    elif _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)


def uninstall() -> None:
    global _original_call
    while _HOOK in sys.meta_path:
        sys.meta_path.remove(_HOOK)
    torch = sys.modules.get("torch")
    if _original_call is not None and torch is not None:
        torch.nn.Module.__call__ = _original_call
    _original_call = None
