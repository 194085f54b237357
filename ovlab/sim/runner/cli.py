"""``python -m ovlab run [options] script.py [args...]`` and ``... run [options] -m module [args...]``.

Runs unmodified Python code with ``openvino`` served by ovlab and ``time.*`` simulated. It
behaves like ``python`` where a script can tell: ``sys.argv`` is the script and its arguments,
``sys.path[0]`` the script's folder, ``__name__`` is ``"__main__"``, an uncaught exception prints
its traceback (without the runner's frames) and exits 1, ``sys.exit(n)`` exits ``n``. A script
or module that cannot be found exits 2 with the usage, as a bad command line does.
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

USAGE = """usage: python -m ovlab run [--platform P] [--seed N] [--realtime F] script.py [args...]
       python -m ovlab run [--platform P] [--seed N] [--realtime F] -m module [args...]
       python -m ovlab run [--platform P] [--seed N] [--realtime F] benchmark_app [args...]

Run unmodified OpenVINO code on ovlab's virtual devices: 'import openvino' is served by ovlab,
time.time/perf_counter/monotonic/sleep follow the simulated clock, ov.Core() is the platform's.

options:
  --platform P   platform preset: laptop (default), workstation, cpu, multi-gpu, ...,
                 this-machine (your CPU, measured with the real openvino on first use)
  --seed N       seed of the timing jitter (default 0): same seed, same timeline
  --realtime F   pace simulated time at F x wall time (default: as fast as possible)
  -m module      run a module as a script (python -m module), e.g. -m pytest tests/
  benchmark_app  a console script of the installed openvino wheel's pure-Python tools: the
                 real tool on ovlab's devices (-m openvino.tools.benchmark.main runs it too)
  -h, --help     show this message and exit"""


class UsageError(Exception):
    """A bad command line (exit 2, with the usage)."""


@dataclass
class RunArgs:
    platform: str = "laptop"
    seed: int = 0
    realtime: float | None = None
    module: str | None = None
    script: str | None = None
    args: list[str] = field(default_factory=list)


def parse(argv: Sequence[str]) -> RunArgs:
    """Options up to the script or ``-m module``; everything after belongs to the script."""
    out = RunArgs()
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        if name in ("--platform", "--seed", "--realtime"):
            if eq:
                value = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                raise UsageError(f"{name} needs a value")
            _set_option(out, name, value)
        elif arg == "-m":
            if i + 1 >= len(args):
                raise UsageError("-m needs a module name")
            out.module, out.args = args[i + 1], args[i + 2:]
            return out
        elif arg.startswith("-m") and len(arg) > 2:
            out.module, out.args = arg[2:], args[i + 1:]
            return out
        elif arg.startswith("-") and arg != "-":
            raise UsageError(f"unknown option {arg!r}")
        else:
            out.script, out.args = arg, args[i + 1:]
            return out
        i += 1
    raise UsageError("no script or -m module to run")


def _set_option(out: RunArgs, name: str, value: str) -> None:
    if name == "--platform":
        out.platform = value
    elif name == "--seed":
        try:
            out.seed = int(value)
        except ValueError:
            raise UsageError(f"--seed takes an integer, got {value!r}") from None
    else:
        try:
            out.realtime = float(value)
        except ValueError:
            raise UsageError(f"--realtime takes a number, got {value!r}") from None
        if not out.realtime > 0:
            raise UsageError(f"--realtime takes a positive factor, got {value!r}")


def _usage_exit(message: str) -> int:
    print(USAGE, file=sys.stderr)
    print(f"ovlab run: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str]) -> int:
    """``ovlab run``; returns the exit status."""
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    try:
        run = parse(argv)
    except UsageError as err:
        return _usage_exit(str(err))
    from . import install, uninstall

    try:
        install(run.platform, run.seed, run.realtime)
    except (ValueError, TypeError) as err:
        return _usage_exit(str(err))
    try:
        return _run(run)
    finally:
        uninstall()


def _run(run: RunArgs) -> int:
    entry = _wheel_console_script(run)
    if entry is not None:
        return _run_entry(run, *entry)
    if run.module is not None:
        try:
            found = importlib.util.find_spec(run.module)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return _usage_exit(f"No module named {run.module}")
    else:
        assert run.script is not None
        if not os.path.isfile(run.script):
            return _usage_exit(f"can't open file {os.path.abspath(run.script)!r}: "
                               "[Errno 2] No such file or directory")
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else None

    def script() -> None:
        if run.module is not None:
            sys.argv = [run.module, *run.args]  # runpy sets argv[0] to the module's file
            runpy.run_module(run.module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = [run.script, *run.args]
            sys.path[0:1] = [os.path.dirname(os.path.abspath(run.script))]
            runpy.run_path(run.script, run_name="__main__")

    try:
        return _reported(script)
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None:
            sys.path[0:1] = [saved_path0]


def _wheel_console_script(run: RunArgs) -> tuple[str, str] | None:
    """The wheel tool to run as its console script: ``benchmark_app`` (no such file), or
    ``-m openvino.tools.benchmark.main`` (a module with no ``__main__`` block of its own)."""
    from . import wheel_tools

    if run.module is not None and wheel_tools.is_tool(run.module):
        return wheel_tools.console_script(module=run.module)
    if run.script is not None and not os.path.exists(run.script) and os.sep not in run.script:
        return wheel_tools.console_script(name=run.script)
    return None


def _run_entry(run: RunArgs, name: str, value: str) -> int:
    """Run a console script of the wheel (e.g. benchmark_app) as its launcher does."""
    from . import wheel_tools

    saved_argv = sys.argv[:]
    sys.argv = [name, *run.args]
    try:
        return _reported(lambda: wheel_tools.run_console_script(value))
    finally:
        sys.argv = saved_argv


def _reported(call: Callable[[], object]) -> int:
    """Run ``call`` and end as python ends a script: its return value or ``sys.exit`` code as
    the status, 130 with the traceback on Ctrl-C, 1 with the script's traceback on an error."""
    try:
        return _exit_status(call())
    except SystemExit as exc:
        return _exit_status(exc.code)
    except KeyboardInterrupt:
        traceback.print_exc()
        return 130
    except BaseException as exc:  # noqa: BLE001 - report like python, without our frames
        _print_traceback(exc)
        return 1
    finally:
        sys.stdout.flush()


def _exit_status(code: object) -> int:
    """``sys.exit(code)`` as python reports it: None is 0, an int itself, anything else is
    printed to stderr and exits 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback(exc: BaseException) -> None:
    tb = exc.__traceback__
    ours = (os.path.abspath(__file__), os.path.abspath(runpy.__file__))
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not (name.startswith("<frozen runpy") or os.path.abspath(name) in ours):
            break
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb)
