"""The ``ovlab`` console script (also ``python -m ovlab``): ``ovlab run script.py`` runs
unmodified OpenVINO code on virtual devices, ``ovlab benchmark ...`` runs benchmark_app there,
``ovlab calibrate -o my-machine.json`` measures this machine's real runtime into a platform file.

Subcommands are dispatched by hand rather than with argparse sub-parsers because benchmark_app's
options are single-dash words (``-niter``, ``-nireq``) that the subcommand must receive untouched.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: ovlab <command> [options]

OpenVINO's tools on ovlab's virtual devices (simulated time, real NumPy numerics).

commands:
  run          run unmodified OpenVINO code on the virtual devices in simulated time:
               ovlab run [--platform P] [--seed N] script.py | -m module ('ovlab run -h')
  benchmark    benchmark_app: ovlab benchmark -m googlenet-v1 -d AUTO -niter 128
               (also spelled benchmark_app; 'ovlab benchmark -h' lists its options)
  calibrate    measure this machine with the real openvino and write a platform file:
               ovlab calibrate -o my-machine.json  ('ovlab calibrate -h' for options)
  check        the pre-class check: packages, a simulated run, the digits classifier, a
               dashboard, results; --labs also runs every lab notebook

options:
  -h, --help   show this message and exit
  --version    print the OpenVINO version ovlab emulates and ovlab's own"""

_COMMANDS = {"benchmark": "benchmark", "benchmark_app": "benchmark", "run": "run",
             "calibrate": "calibrate", "check": "check"}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ovlab`` script; returns the exit code (0 ok, 1 error)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if args[0] == "--version":
        from . import get_version

        print(get_version())
        return 0
    command = _COMMANDS.get(args[0])
    if command is None:
        print(f"[ ERROR ] unknown command {args[0]!r}; commands: "
              f"{', '.join(sorted(set(_COMMANDS.values())))} (see: ovlab -h)")
        return 1
    if command == "calibrate":
        return calibrate_main(args[1:])
    if command == "check":
        from . import preclass

        return preclass.main(args[1:])
    if command == "run":
        from .runner import cli as runner_cli

        return runner_cli.main(args[1:])
    from . import benchmark

    return benchmark.main(args[1:])


def calibrate_main(argv: Sequence[str]) -> int:
    """``ovlab calibrate``: see :mod:`ovlab.hardware.calibrate`."""
    import argparse

    from .hardware.calibrate import DEFAULT_MODELS, CalibrateError, calibrate

    parser = argparse.ArgumentParser(
        prog="ovlab calibrate", description="Measure this machine's devices with the real "
        "openvino (benchmark_app's method) and write an ovlab platform file.")
    parser.add_argument("-o", "--output", default="my-machine.json",
                        help="the platform file to write (default: my-machine.json)")
    parser.add_argument("--name", default=None, help="the platform's name (default: the file's)")
    parser.add_argument("-m", "--models", default=",".join(DEFAULT_MODELS),
                        help="zoo models to measure, comma-separated (default: %(default)s)")
    parser.add_argument("-d", "--devices", default=None,
                        help="devices to measure, comma-separated (default: all the runtime "
                             "lists)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="passes over the models (more: steadier on a busy machine)")
    args = parser.parse_args(list(argv))
    try:
        calibrate(args.output, name=args.name, models=args.models.split(","),
                  devices=args.devices.split(",") if args.devices else None,
                  repeat=max(1, args.repeat))
    except CalibrateError as err:
        print(f"[ ERROR ] {err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
