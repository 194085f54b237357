"""Calibration: measuring the real OpenVINO runtime and fitting virtual devices to it.

A room of its own above the runtime and ``ovlab benchmark``, whose code it drives: ``measure``
times the real wheel with benchmark_app's method, ``fit`` fits a device spec to those timings
(the cost model it fits lives in :mod:`ovlab.sim.hardware`), ``calibrate`` is ``ovlab calibrate``
(a platform file of the user's machine) and ``validation`` replays stored measurements on the
simulator. ``ovlab.sim.hardware`` keeps the virtual devices and the cost model, and imports nothing
from here.
"""
